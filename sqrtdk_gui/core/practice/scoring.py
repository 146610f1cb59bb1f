"""Grading, scores per topic, the missed items and the stored progress (numpy-free).

Progress is a small JSON text (kept in the settings file; its format is ``progress``): for
each item answered, the candidate's last answer, whether it was right, and the review
history the schedule comes from (``schedule``). Reading it is
strict about its shape (``progress.read_progress``: a text that is not progress is no
progress here, and the settings keep it aside) and lenient about its content: an entry this
bank cannot use (an item of another version's bank, a malformed answer) is left out of the
attempts, never an error.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from sqrtdk_gui.core.i18n import _, format_number
from sqrtdk_gui.core.lesson.predict import parse_guesses
from sqrtdk_gui.core.practice import schedule
from sqrtdk_gui.core.practice.model import TOPICS, Answer, Question
from sqrtdk_gui.core.practice.progress import PROGRESS_VERSION, ProgressError, progress_text, read_progress

__all__ = ["PROGRESS_VERSION", "Attempt", "parse_number", "grade", "progress_to_json", "progress_from_json",
           "attempts", "foreign_entries", "scores", "missed", "due_keys", "TYPED_MAX"]

_FRACTION = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*$")  # "1/16", "3 / 4"
TYPED_MAX = 4000  # characters of a typed rehearsal kept: about three minutes of speech
_DECIMAL_COMMA = re.compile(r"^\s*([-+]?\d+),(\d{1,2}|\d{4,})\s*(?:[^\d\s.,].*)?$")  # "22,6" but not "1,500"


@dataclass(frozen=True)
class Attempt:
    """A committed answer, its verdict and the item's review history (oldest first); a *Say
    it* rehearsal's answer is the links ticked, ``typed`` what the candidate wrote."""

    answer: Answer
    correct: bool
    reviews: tuple[schedule.Review, ...] = ()
    typed: str = ""
    case: int = 0  # the variant of a number item answered (Question.variant)


def parse_number(text: str) -> float | str:
    """One number from the answer box, or a sentence saying what is wrong with the text (in
    the current language).

    The predict box's reading (``parse_guesses``: a point for decimals, "1,500" one number);
    a lone decimal comma ("22,6") is read as 22.6, since one answer cannot be two guesses,
    and a fraction ("1/16") as its value.
    """
    fraction = _FRACTION.match(text)
    if fraction:
        denominator = float(fraction.group(2))
        if denominator == 0:
            return _("“{text}” divides by zero.").format(text=text.strip())
        return float(fraction.group(1)) / denominator
    comma = _DECIMAL_COMMA.match(text)
    if comma:
        text = f"{comma.group(1)}.{comma.group(2)}"
    numbers = parse_guesses(text, limit=2)
    if not numbers:
        return _("Type a number (22.6 or 22,6; 1e-3 also works).")
    if len(numbers) > 1:
        return _("One number, please: “{text}” reads as {first} and {second}.").format(
            text=text.strip(), first=format_number(numbers[0]), second=format_number(numbers[1]))
    return numbers[0]


def grade(question: Question, answer: Answer) -> bool:
    """Whether ``answer`` is right: the option or line, the ranking, or a number in the band."""
    if question.kind == "number":
        lo, hi = question.band
        return isinstance(answer, (int, float)) and lo <= float(answer) <= hi
    if question.kind == "ranking":
        return isinstance(answer, tuple) and answer == question.correct
    if question.kind in ("say", "derive"):  # every link of the chain said, every step right
        return isinstance(answer, tuple) and set(answer) == set(range(len(question.parts)))
    return isinstance(answer, int) and not isinstance(answer, bool) and answer == question.correct


def _valid(question: Question, answer: object) -> Answer | None:
    if question.kind == "number":
        if isinstance(answer, bool) or not isinstance(answer, (int, float)):
            return None
        try:
            value = float(answer)
        except OverflowError:  # an integer too large for a float: no answer anyone typed
            return None
        return value if math.isfinite(value) else None
    if question.kind == "ranking":
        every = list(range(len(question.options)))
        if isinstance(answer, list) and sorted(a for a in answer if isinstance(a, int)) == every:
            return tuple(answer)
        return None
    if question.kind in ("say", "derive"):  # the links ticked, the steps right, each once
        links = range(len(question.parts))
        if isinstance(answer, list) and all(isinstance(a, int) and not isinstance(a, bool) and a in links
                                            for a in answer) and len(set(answer)) == len(answer):
            return tuple(sorted(answer))
        return None
    ok = isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < len(question.options)
    return answer if ok else None  # type: ignore[return-value]


def progress_to_json(progress: Mapping[str, Attempt], kept: Mapping[str, object] | None = None) -> str:
    """The stored text (``progress``), plus ``kept``, stored entries of items this bank does
    not have, as they were read."""
    answers: dict[str, object] = dict(kept or {})
    for key, a in progress.items():
        entry: dict[str, object] = {"answer": list(a.answer) if isinstance(a.answer, tuple) else a.answer,
                                    "correct": a.correct, "reviews": schedule.reviews_to_json(a.reviews)}
        if a.case:
            entry["case"] = a.case
        if a.typed:
            entry["typed"] = a.typed[:TYPED_MAX]  # a pasted book must not make the progress unsavable
        answers[key] = entry
    return progress_text(answers)


def attempts(entries: Mapping[str, object], bank: Iterable[Question]) -> dict[str, Attempt]:
    """The entries this bank can use, each graded again (a stored "correct" cannot disagree
    with the bank); the others are left out."""
    by_key = {q.key: q for q in bank}
    out: dict[str, Attempt] = {}
    for key, entry in entries.items():
        question = by_key.get(key)
        if question is None or not isinstance(entry, dict):
            continue
        answer = _valid(question, entry.get("answer"))
        if answer is not None:
            typed, case = entry.get("typed"), entry.get("case", 0)
            case = case % len(question.variants) if isinstance(case, int) and question.variants else 0
            out[key] = Attempt(answer, grade(question.variant(case), answer),
                               schedule.reviews_from_json(entry.get("reviews")),
                               typed[:TYPED_MAX] if isinstance(typed, str) else "", case)
    return out


def foreign_entries(entries: Mapping[str, object], bank: Iterable[Question]) -> dict[str, object]:
    """The entries of items this bank does not have (another version's), to be stored again."""
    keys = {q.key for q in bank}
    return {key: entry for key, entry in entries.items() if key not in keys}


def progress_from_json(text: object, bank: Iterable[Question]) -> dict[str, Attempt]:
    """The progress in ``text`` for the items of ``bank``; a text that is not progress is none."""
    try:
        entries = read_progress(text)
    except ProgressError:
        return {}
    return attempts(entries, bank)


def scores(progress: Mapping[str, Attempt], bank: Iterable[Question]) -> dict[str, tuple[int, int, int]]:
    """(right, answered, items) per topic, in the order of TOPICS (topics without items left out)."""
    out: dict[str, tuple[int, int, int]] = {}
    items = list(bank)
    for topic in TOPICS:
        keys = [q.key for q in items if q.topic == topic]
        if keys:
            done = [progress[k] for k in keys if k in progress]
            out[topic] = (sum(a.correct for a in done), len(done), len(keys))
    return out


def missed(progress: Mapping[str, Attempt], bank: Iterable[Question]) -> tuple[str, ...]:
    """The keys answered wrongly, in the bank's order (what *Retry missed* offers again)."""
    return tuple(q.key for q in bank if q.key in progress and not progress[q.key].correct)


def due_keys(progress: Mapping[str, Attempt], bank: Iterable[Question], moment: datetime) -> tuple[str, ...]:
    """The keys whose next review is due by ``moment``, in the bank's order (items never
    answered are new, not due)."""
    return tuple(q.key for q in bank if q.key in progress and schedule.is_due(progress[q.key].reviews, moment))
