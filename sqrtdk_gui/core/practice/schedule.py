"""When each practice item is due again: FSRS (the ``fsrs`` package) over its review history.

What is stored is the history — ``Review``: when, the rating (1 Again, 2 Hard, 3 Good,
4 Easy) and the seconds it took. The FSRS card (stability, difficulty, due date) is rebuilt
from it by replaying the reviews through the scheduler, so it is never stored and never
disagrees with the history, and two windows' histories merge by their union.

A question's rating comes from its verdict and time (``rating_for``: wrong is *Again*, right
but slow *Hard*, right *Good*); a *Say it* rehearsal is rated by the candidate.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from fsrs import Card, Rating, Scheduler

__all__ = ["RETENTION", "MAX_REVIEWS", "SLOW_SECONDS", "Review", "RATINGS", "rating_for", "card", "due",
           "is_due", "end_of_today", "merge_reviews", "reviews_from_json", "reviews_to_json"]

RETENTION = 0.9  # the recall probability FSRS schedules for (Anki's default)
MAX_REVIEWS = 30  # kept per item: FSRS's state after 30 reviews hardly moves with the first ones
# Longer than this (seconds from the question shown to the commitment) and a right answer is
# rated Hard: reading the item and working it out once, not recalling it. A code card is read
# line by line; a number or a ranking is worked out; a derivation has four or five steps.
SLOW_SECONDS = {"choice": 30.0, "number": 60.0, "ranking": 60.0, "line": 90.0, "derive": 240.0, "say": math.inf}
RATINGS = (1, 2, 3, 4)  # Again, Hard, Good, Easy
# Fuzzing spreads a deck's reviews over days at random; 40 items need no spreading, and the
# same history must give the same due date in every window. No learning steps (minutes):
# *Retry missed* is the same sitting's second go; the schedule is about days.
_SCHEDULER = Scheduler(desired_retention=RETENTION, learning_steps=(), relearning_steps=(), enable_fuzzing=False)
_EARLIEST = datetime(2000, 1, 1, tzinfo=timezone.utc)
_LATEST = datetime(9000, 1, 1, tzinfo=timezone.utc)
_LONGEST_SECONDS = 24 * 3600.0  # a review time beyond this is not one sitting: stored as this


@dataclass(frozen=True, order=True)
class Review:
    """One review: when (UTC), the FSRS rating (1–4), the seconds it took."""

    at: datetime
    rating: int
    seconds: float


def rating_for(kind: str, correct: bool, seconds: float) -> int:
    """The FSRS rating of a graded answer: Again if wrong, Hard if right but slow, else Good."""
    if not correct:
        return int(Rating.Again)
    return int(Rating.Hard) if seconds > SLOW_SECONDS.get(kind, 60.0) else int(Rating.Good)


def card(reviews: Iterable[Review]) -> Card | None:
    """The FSRS card the history leads to (None: never reviewed)."""
    ordered = sorted(reviews)
    if not ordered:
        return None
    state = Card(card_id=0, due=ordered[0].at)  # an id: Card() would read the clock and sleep 1 ms
    for r in ordered:
        state, _log = _SCHEDULER.review_card(state, Rating(r.rating), r.at)
    return state


def due(reviews: Iterable[Review]) -> datetime | None:
    """When the item is due again (UTC); None: never reviewed."""
    return _due(tuple(sorted(reviews)))


@functools.lru_cache(maxsize=256)
def _due(ordered: tuple[Review, ...]) -> datetime | None:
    # Every list refresh asks each item; its history changes only when it is answered.
    c = card(ordered)
    return None if c is None else c.due


def is_due(reviews: Iterable[Review], moment: datetime) -> bool:
    """Whether a reviewed item is due by ``moment`` (an item never reviewed is new, not due)."""
    when = due(reviews)
    return when is not None and when <= moment


def end_of_today(now: datetime | None = None) -> datetime:
    """The end of the local day of ``now`` (default: now), in UTC: "due today" is due by it."""
    local = (now or datetime.now(timezone.utc)).astimezone()
    midnight = (local + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return midnight.astimezone(timezone.utc)


def merge_reviews(*histories: Sequence[Review]) -> tuple[Review, ...]:
    """The union of several histories of one item, in time order, the latest MAX_REVIEWS."""
    return tuple(sorted(set().union(*histories)))[-MAX_REVIEWS:]


def reviews_to_json(reviews: Sequence[Review]) -> list[list[object]]:
    """The stored form: ``[["2026-12-05T13:42:30+00:00", 3, 12.5], …]``."""
    return [[r.at.astimezone(timezone.utc).isoformat(timespec="seconds"), r.rating, round(r.seconds, 1)]
            for r in reviews]


def reviews_from_json(value: object) -> tuple[Review, ...]:
    """The reviews in a stored list; a malformed review is left out (never an error)."""
    if not isinstance(value, list):
        return ()
    out = []
    for item in value[-MAX_REVIEWS:]:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)):
            continue
        at, rating, seconds = item
        if isinstance(rating, bool) or rating not in RATINGS:
            continue
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds:
            continue
        try:
            moment = datetime.fromisoformat(at)
        except ValueError:
            continue
        if moment.tzinfo is None or not _EARLIEST <= moment <= _LATEST:
            continue  # far outside now, a due date would overflow datetime
        out.append(Review(moment.astimezone(timezone.utc), int(rating), min(float(seconds), _LONGEST_SECONDS)))
    return merge_reviews(out)
