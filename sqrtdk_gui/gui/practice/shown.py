"""What practice mode's presenter hands its view: the list's entries, a reveal, a
derivation's steps, a mock interview's summary, and an answer in words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from PySide6.QtCore import QCoreApplication

from sqrtdk_gui.core.i18n import _, format_number
from sqrtdk_gui.core.practice import interview, schedule
from sqrtdk_gui.core.practice.concept_test import LETTERS
from sqrtdk_gui.core.practice.model import Answer, Measured, Question
from sqrtdk_gui.core.practice.spread import Spread

__all__ = ["Entry", "StepDone", "InterviewSummary", "Reveal", "describe_answer", "expected_answer"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


@dataclass(frozen=True)
class Entry:
    """One line of the item list: the item, how it stands (None: not answered yet) and
    whether its next review is due today."""

    question: Question
    correct: bool | None
    due: bool = False


@dataclass(frozen=True)
class StepDone:
    """A committed step of a derivation: the answer as given, and whether it was right."""

    given: str
    right: bool


@dataclass(frozen=True)
class InterviewSummary:
    """A finished mock interview: what was asked and how it went, the weak points (item key,
    lesson page) to review, and how long it took."""

    asked: tuple[interview.Asked, ...]
    weak: tuple[tuple[str, str], ...]
    seconds: float


@dataclass(frozen=True)
class Reveal:
    """What the reveal shows: the commitment, the verdict, the right answer, the measurements."""

    question: Question
    given: str
    correct: bool
    expected: str
    measured: Measured
    seed: int
    spread: Spread | None = None  # the item over every sample of SEEDS; None while measured
    said: tuple[int, ...] = ()  # a rehearsal: the links the typed answer's words match
    answer_links: tuple[int, ...] = ()  # a rated rehearsal: the links ticked
    rating: int = 0  # the schedule's rating (0: a rehearsal not rated yet)
    due: datetime | None = None  # when the item comes back
    history: tuple[schedule.Review, ...] = ()  # its reviews before this one, oldest first
    steps: tuple[StepDone, ...] = ()  # a derivation's steps as committed
    why: str = ""  # a wrong option's reason (core.practice.why)
    answer_line: int | None = None  # a bug card: the line picked


def describe_answer(q: Question, answer: Answer, order: Sequence[int] = ()) -> str:
    """An answer as the reveal names it: "B · Nearly uniform", "22.6", "C › A › B", "line 11";
    an option's letter is the one it had on screen (``order``: the options as shown)."""
    if q.kind == "say":
        assert isinstance(answer, tuple)
        return translate("PracticePresenter", "{said} of {links} links").format(said=len(answer), links=len(q.options))
    if q.kind == "derive":
        assert isinstance(answer, tuple)
        return translate("PracticePresenter", "{right} of {steps} steps right").format(right=len(answer),
                                                                                     steps=len(q.steps))
    if q.kind == "number":
        return format_number(float(cast("int | float", answer))) + (f" {q.unit}" if q.unit else "")  # a number's answer
    if q.kind == "ranking":
        assert isinstance(answer, tuple)
        return " › ".join(_(q.options[i]) for i in answer)
    assert isinstance(answer, int)
    if q.kind == "line":  # a line of code: never translated
        return translate("PracticePresenter", "line {number}: {code}").format(number=answer + 1,
                                                                              code=q.options[answer].strip())
    shown = list(order).index(answer) if answer in order else answer
    return f"{LETTERS[shown]} · {_(q.options[answer])}"


def expected_answer(q: Question, order: Sequence[int] = ()) -> str:
    if q.kind in ("say", "derive"):
        return describe_answer(q, tuple(range(len(q.parts))))
    if q.kind == "number":
        return translate("PracticePresenter", "between {lowest} and {highest}{unit}").format(
            lowest=format_number(q.band[0]), highest=format_number(q.band[1]), unit=f" {q.unit}" if q.unit else "")
    assert q.kind != "ranking" or isinstance(q.correct, tuple)
    return describe_answer(q, q.correct, order)
