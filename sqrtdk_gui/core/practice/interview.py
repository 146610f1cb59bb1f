"""A mock interview: the main question, then follow-ups chosen by the answers so far (stdlib).

It opens with the main question said aloud (``say_chain``). The links the candidate did not
say are probed first, one item each (``LINK_PROBES``). After that, a wrong answer is followed
by the item that probes the same misconception (``PROBES``: a trap by its bug card, a
recognised step of the chain by its derivation, a follow-up by the rehearsal or trap behind
it); a right one by the next, harder follow-up an interviewer asks (``DEEPER``). It ends after
``LENGTH`` items; ``summary`` names the weak links and the lesson pages to review.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["MAIN", "LENGTH", "MINUTES", "LINK_PROBES", "PROBES", "DEEPER", "Asked", "next_key", "weak_points"]

MAIN = "say_chain"
LENGTH = 7  # the main question and six follow-ups: about a quarter of an hour
MINUTES = 15  # the interview's clock (shown; it never cuts the candidate off)
# A link of the main answer left out -> the item that asks for it.
LINK_PROBES = {0: "chain_variance", 1: "derive_variance", 2: "chain_variance", 3: "chain_saturation",
               4: "chain_jacobian", 5: "chain_gradient", 6: "trap_small_heads", 7: "trap_dmodel"}
# An item answered wrongly -> the item that probes the same misconception.
PROBES = {"chain_variance": "derive_variance", "chain_saturation": "derive_saturation",
          "chain_jacobian": "derive_jacobian", "chain_gradient": "derive_backward",
          "trap_dmodel": "bug_head_embd", "trap_after_softmax": "bug_vit_after",
          "trap_stable_softmax": "say_stable_softmax", "trap_seq_len": "say_long_context",
          "trap_small_heads": "chain_gradient", "fu_temperature": "say_temperature", "fu_qk_norm": "say_qk_norm",
          "fu_overflow": "trap_stable_softmax", "fu_mup": "say_mup", "fu_long_context": "trap_seq_len",
          "fu_precision": "chain_variance", "fu_fold": "fu_backward", "fu_backward": "derive_backward",
          "fu_init": "derive_variance"}
# Right answers lead here, in this order: what an interviewer asks once the chain is right.
DEEPER = ("fu_qk_norm", "fu_temperature", "fu_init", "fu_overflow", "fu_backward", "fu_mup", "fu_fold",
          "fu_long_context", "fu_precision", "derive_peak")


@dataclass(frozen=True)
class Asked:
    """One item of the interview as answered: right or not, and for the main question the
    links left out."""

    key: str
    correct: bool
    left_out: tuple[int, ...] = ()


def next_key(asked: Sequence[Asked]) -> str | None:
    """The next item to ask after ``asked`` (None: the interview is over)."""
    if not asked:
        return MAIN
    if len(asked) >= LENGTH:
        return None
    done = {a.key for a in asked}
    main = asked[0]
    for link in main.left_out:  # the main answer's gaps first
        probe = LINK_PROBES.get(link)
        if probe and probe not in done:
            return probe
    last = asked[-1]
    if not last.correct and last.key != MAIN:
        probe = PROBES.get(last.key)
        if probe and probe not in done:
            return probe
    return next((key for key in DEEPER if key not in done), None)


def weak_points(asked: Sequence[Asked], lessons: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """(item key, its lesson page) for every item answered wrongly, and for each link of the
    main answer left out, its probe's — each page once, in the order met."""
    keys = [LINK_PROBES[link] for a in asked if a.key == MAIN for link in a.left_out if link in LINK_PROBES]
    keys += [a.key for a in asked if not a.correct and a.key != MAIN]
    out: dict[str, tuple[str, str]] = {}
    for key in keys:
        page = lessons.get(key, "")
        out.setdefault(page, (key, page))
    return tuple(out.values())
