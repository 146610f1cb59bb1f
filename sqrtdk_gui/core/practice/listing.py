"""Practice items as data for scripts: each item with its progress and schedule (stdlib only).

``item_rows`` is what ``sqrtdk-gui practice --list --json`` prints: one object per item of
the bank, in its order — the key, kind and topic (stable names), the title in the current
language, and how it stands: answered, right, its reviews, the last rating, when it is due
and whether that is today. ``bank_rows`` is the concept test as data (``export-concept-test
FILE.json``): each item's prompt, options or steps, and its answer key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timezone

from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.practice import schedule
from sqrtdk_gui.core.practice.concept_test import answer_text
from sqrtdk_gui.core.practice.model import Question
from sqrtdk_gui.core.practice.scoring import Attempt

__all__ = ["item_rows", "bank_rows"]


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def item_rows(progress: Mapping[str, Attempt], bank: Iterable[Question], now: datetime) -> list[dict[str, object]]:
    """One row per item: what it is and where the candidate stands on it at ``now`` (UTC)."""
    end = schedule.end_of_today(now)
    rows = []
    for q in bank:
        attempt = progress.get(q.key)
        reviews = attempt.reviews if attempt else ()
        due = schedule.due(reviews)
        rows.append({"id": q.key, "kind": q.kind, "topic": q.topic, "title": _(q.title),
                     "answered": attempt is not None, "correct": attempt.correct if attempt else None,
                     "reviews": len(reviews), "last_review": _iso(reviews[-1].at) if reviews else None,
                     "last_rating": reviews[-1].rating if reviews else None, "due": _iso(due),
                     "due_today": due is not None and due <= end})
    return rows


def bank_rows(bank: Iterable[Question]) -> list[dict[str, object]]:
    """The concept test as data: each item's words in the current language and its key."""
    rows: list[dict[str, object]] = []
    for q in bank:
        row: dict[str, object] = {"id": q.key, "kind": q.kind, "topic": q.topic, "title": _(q.title),
                                  "prompt": q.text(q.prompt), "answer_key": answer_text(q), "answer": q.text(q.answer)}
        if q.kind == "derive":
            row["steps"] = [{"prompt": _(s.prompt), "kind": s.kind, "options": [_(o) for o in s.options],
                             "line": _(s.line)} for s in q.steps]
        else:
            row["options"] = list(q.option_texts())
        if q.kind == "number":
            row["band"] = list(q.band)
        if q.fix:
            row["fix"] = q.fix
        rows.append(row)
    return rows
