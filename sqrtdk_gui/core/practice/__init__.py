"""Practice mode as data: interview questions, spot-the-bug cards, grading and progress.

``BANK`` is every item in the order practice mode shows them: the causal chain, the
derivations, the *Say it* rehearsals, the five traps, the follow-ups, then the bug cards. A
new question goes in its topic's module (``chain``, ``derive``, ``rehearse``, ``traps``,
``followups``), a new bug card in ``bugs``; each is checked against the model by ``tests/core/test_practice_bank.py``.
"""

from sqrtdk_gui.core.practice import bugs, chain, derive, followups, rehearse, traps
from sqrtdk_gui.core.practice.model import TOPICS, Question

__all__ = ["BANK", "TOPICS", "find", "card_for_trap"]

BANK: tuple[Question, ...] = (*chain.QUESTIONS, *derive.DERIVATIONS, *rehearse.REHEARSALS, *traps.QUESTIONS,
                              *followups.QUESTIONS, *bugs.CARDS)

if len({q.key for q in BANK}) != len(BANK):
    raise ValueError("two practice items share a key")


def find(key: str) -> Question:
    """The item called ``key`` (KeyError if there is none)."""
    for q in BANK:
        if q.key == key:
            return q
    raise KeyError(key)


def card_for_trap(scenario: str) -> Question | None:
    """The first bug card about a lesson trap (``scenario:KEY``), for the trap page's link."""
    return next((q for q in bugs.CARDS if q.lesson == scenario), None)
