"""Every measured number the lesson quotes, computed by the model over 64 seeds.

The lesson texts (``lesson/pages/*.html`` and the step questions and answers) contain
placeholders such as ``{step3_grad_ratio}``; :func:`fill` replaces each with :func:`quote`,
the range from the smallest to the largest value over seeds 64–127, widened by ``MARGIN`` of
its width on each side and rounded outward to two significant digits ("47–66 %"). A single
seed is one random draw of queries and keys, and *New sample* draws another (seed + 1, from
seed 0): the smallest and largest of 64 draws are not the smallest and largest a class will
see, hence the margin, and a test checks every quote against seeds 0–63, which it was not
built from. Heavy-tailed quantities (ratios that spread over more than a factor of ten between
seeds) are quoted to one significant digit ("20–7·10⁴×"). When the sample on screen still falls
outside a range, :func:`sample_notes` says so.

Each ``Figure`` (defined by the page whose text quotes it, ``lesson.pages``) has a
``value(params)`` computed with ``compute`` / ``sweep`` for the seed in ``params`` (all
other parameters default: 256 queries, 64 keys). A value may be a
tuple (e.g. one entry per head size); the quoted range then covers all of them. Seeds 0–127
are stored in ``figure_data`` (minutes to compute; the tests recompute some, CI all).

Exact constants (√512 ≈ 22.6, log 64 ≈ 4.16, float16's overflow threshold 11.09) are not
seed-dependent and stay literal in the texts. Pure: numpy, stdlib and ``sqrtdk_gui.core``.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Collection, Iterable
from typing import NamedTuple

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import _, localize_number
from sqrtdk_gui.core.lesson import figure_data
from sqrtdk_gui.core.lesson.measure import Figure
from sqrtdk_gui.core.lesson.pages import PAGES
from sqrtdk_gui.core.lesson.quoting import format_range, format_value

__all__ = ["SEEDS", "CHECK_SEEDS", "STORED_SEEDS", "FIGURES", "FigureRange", "figure_values",
           "computed_values", "figure_range", "quote", "quote_bounds", "inside", "fill",
           "placeholders", "PLACEHOLDER", "SampleNote", "sample_notes"]

# Quoted ranges are built from seeds 64–127, which a class never sees first, widened by
# MARGIN of their width on each side; a test checks them against seeds 0–63, what the window
# starts with and what "New sample" (seed + 1) shows next: at least 97 % of those must fall
# inside.
SEEDS = tuple(range(64, 128))
CHECK_SEEDS = tuple(range(64))
STORED_SEEDS = tuple(range(128))
MARGIN = 0.15  # of the range's width (of its decades, for a heavy tail), on each side
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


def _collect() -> dict[str, Figure]:
    figures: dict[str, Figure] = {}
    for page in PAGES:
        for f in page.FIGURES.items if hasattr(page, "FIGURES") else ():
            if f.key in figures:
                raise ValueError(f"figure {f.key!r} defined twice ({page.__name__})")
            figures[f.key] = f
    return figures


FIGURES: dict[str, Figure] = _collect()


# --- ranges and quotes -----------------------------------------------------------------------------
class FigureRange(NamedTuple):
    lo: float
    hi: float
    values: tuple[tuple[float, ...], ...]  # per seed, every value of that seed


@functools.cache
def computed_values(key: str, seed: int) -> tuple[float, ...]:
    """All values of figure ``key`` for one seed, computed now (a 1-tuple for a scalar)."""
    v = FIGURES[key].value(Params(seed=seed))
    return tuple(float(x) for x in (v if isinstance(v, tuple) else (v,)))


def figure_values(key: str, seed: int) -> tuple[float, ...]:
    """All values of figure ``key`` for one seed: the stored computation for seeds 0–127
    (``figure_data``, checked against :func:`computed_values` by the tests), else computed."""
    if key not in FIGURES:
        raise KeyError(f"unknown figure {key!r}")
    stored = figure_data.VALUES.get(key)
    if stored is not None and 0 <= seed < len(stored):
        return stored[seed]
    return computed_values(key, int(seed))


def figure_range(key: str, seeds: Iterable[int] = SEEDS) -> FigureRange:
    """Smallest and largest value of ``key`` over ``seeds``, and the values per seed."""
    if key not in FIGURES:
        raise KeyError(f"unknown figure {key!r}")
    per_seed = tuple(figure_values(key, int(s)) for s in seeds)
    flat = [x for values in per_seed for x in values]
    if not flat or not all(math.isfinite(x) for x in flat):
        raise ValueError(f"figure {key!r} has non-finite values: {per_seed}")
    return FigureRange(min(flat), max(flat), per_seed)


def quote_bounds(key: str, seeds: Iterable[int] = SEEDS) -> tuple[float, float]:
    """The numeric interval :func:`quote` states (in the figure's unit: % for percents)."""
    _, lo, hi = _formatted(key, tuple(int(s) for s in seeds))
    return lo, hi


def widened(key: str, lo: float, hi: float) -> tuple[float, float]:
    """[lo, hi] widened by MARGIN of its width on each side (in decades for a heavy tail),
    never past 0 for a quantity that is not negative, nor past 100 % for a share: the smallest
    and largest of 64 samples are not the smallest and largest a class will see."""
    kind = FIGURES[key].kind
    if kind == "decades" and lo > 0:
        factor = (hi / lo) ** MARGIN if hi > lo else 1.0
        return lo / factor, hi * factor
    width = MARGIN * (hi - lo)
    new_lo, new_hi = lo - width, hi + width
    if lo >= 0:
        new_lo = max(new_lo, 0.0)
    if kind == "percent":
        new_hi = min(new_hi, 1.0)
    return new_lo, new_hi


@functools.cache
def _formatted(key: str, seeds: tuple[int, ...]) -> tuple[str, float, float]:
    """The quote of ``key`` and the bounds it states. Cached: :func:`inside` asks for every
    value of a figure, on every page and New sample."""
    f = FIGURES[key]
    r = figure_range(key, seeds)
    return format_range(*widened(key, r.lo, r.hi), f.kind, f.unit, f.digits)


def inside(key: str, values: tuple[float, ...], seeds: Iterable[int] = SEEDS) -> bool:
    """Whether every one of ``values`` lies in the interval the quote of ``key`` states."""
    lo, hi = quote_bounds(key, seeds)
    scale = 100.0 if FIGURES[key].kind == "percent" else 1.0
    tol = 1e-9 * max(abs(lo), abs(hi), 1e-300)
    return all(lo - tol <= scale * x <= hi + tol for x in values)


def quote(key: str, seeds: Iterable[int] = SEEDS) -> str:
    """The text a lesson prints for ``key``: a range every seed's value falls in."""
    if key not in FIGURES:
        raise KeyError(f"unknown figure {key!r}")
    return _formatted(key, tuple(int(s) for s in seeds))[0]


def placeholders(text: str) -> list[str]:
    """The figure keys a text refers to, in order."""
    return PLACEHOLDER.findall(text)


def fill(text: str, seeds: Collection[int] = SEEDS) -> str:
    """``text`` with every ``{key}`` replaced by ``quote(key)`` (KeyError for unknown keys)."""
    return PLACEHOLDER.sub(lambda m: localize_number(quote(m.group(1), seeds)), text)


class SampleNote(NamedTuple):
    """A quoted figure the sample on screen falls outside of."""

    key: str
    description: str  # what the figure measures, in the language of the moment the note was made
    sample: str  # this seed's value(s), formatted as the quote is
    quoted: str

    def text(self, seed: int) -> str:
        """The note as a sentence, in the current language."""
        return _("This sample (seed {seed}) gives {sample} for {description}: outside the quoted {quoted}. "
                 "Samples vary; the quoted ranges hold for most of them.").format(
            seed=seed, sample=localize_number(self.sample), description=self.description,
            quoted=localize_number(self.quoted))


def sample_notes(text: str, seed: int) -> list[SampleNote]:
    """For each figure ``text`` quotes (once each), a note if seed ``seed``'s value lies outside
    the quoted range, so that a page never silently contradicts the sample beside it (the
    figure's description in the current language)."""
    notes = []
    for key in dict.fromkeys(placeholders(text)):
        values = figure_values(key, seed)
        if inside(key, values):
            continue
        f = FIGURES[key]
        shown = [x for x in values if not inside(key, (x,))] if len(values) > 1 else values
        # One digit more than the quote, so that 0.618 is not shown as the bound 0.62.
        sample = ", ".join(format_value(x, f.kind, f.unit, f.digits + 1) for x in shown)
        notes.append(SampleNote(key, f.describe(), sample, quote(key)))
    return notes
