"""How a practice item's answer stands across samples: the reveal's "in 8 of 8 samples".

A reveal measures the sample on screen; *New sample* draws another. ``spread(q)`` measures
the item in every sample of ``SEEDS`` and counts those whose model answer is the item's
stated one (a number: inside its accepted band), with the measured range of a number, so the
candidate sees that the verdict is not one lucky draw. Results are kept per item: the
measurement does not depend on the language or the window.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from sqrtdk_gui.core.practice.model import SEEDS, Question
from sqrtdk_gui.core.practice.scoring import grade

__all__ = ["Spread", "spread", "cached_spread"]


@dataclass(frozen=True)
class Spread:
    """``agree`` of ``total`` samples give the stated answer; a number's ``lowest`` and
    ``highest`` measured values (None for the other kinds)."""

    agree: int
    total: int
    lowest: float | None = None
    highest: float | None = None


_cache: dict[tuple[str, int], Spread] = {}  # (item, case)
_lock = threading.Lock()


def cached_spread(q: Question) -> Spread | None:
    """The item's spread if measured already, else None (never measures)."""
    with _lock:
        return _cache.get((q.key, q.case))


def spread(q: Question) -> Spread:
    """Measure ``q`` in every sample of SEEDS (any thread; ≲ 1 s for the slowest item)."""
    found = cached_spread(q)
    if found is not None:
        return found
    answers = [q.measure(q.params(seed)).answer for seed in SEEDS]
    agree = sum(a is not None and grade(q, a) for a in answers)
    numbers = [float(a) for a in answers if isinstance(a, (int, float))] if q.kind == "number" else []
    result = Spread(agree, len(SEEDS), min(numbers, default=None), max(numbers, default=None))
    with _lock:
        _cache[q.key, q.case] = result
    return result
