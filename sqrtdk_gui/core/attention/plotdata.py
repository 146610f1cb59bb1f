"""Pure helpers that turn model results into what a plot draws (numpy only, no Qt).

Panels call these so that binning, sorting and axis-range decisions are testable without a
window and never differ between the screen, the export and the tests.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["SteadyRange", "density_histogram", "uniform_bin_counts", "normal_pdf", "sorted_weights",
           "top_keys", "top_block", "clamp_positive"]

# 1-2-2.5-3-4-5-6-8 per decade: round numbers a class can read off an axis.
_STEPS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)


def nice_ceiling(x: float) -> float:
    """The smallest 'round' number >= x (x > 0)."""
    if not (x > 0 and math.isfinite(x)):
        return 1.0
    decade = 10.0 ** math.floor(math.log10(x))
    for step in _STEPS:
        if step * decade >= x * (1 - 1e-12):
            return step * decade
    return 10.0 * decade


class SteadyRange:
    """An axis limit with hysteresis: it grows at once, shrinks only when far too large.

    Dragging a slider then changes the axis a handful of times (to round values) instead of
    every frame, so the picture does not jitter and the class can compare frames.
    """

    def __init__(self, shrink_below: float = 0.45, initial: float | None = None) -> None:
        self.shrink_below = shrink_below
        self.limit = initial

    def update(self, needed: float) -> tuple[float, bool]:
        """The limit to use for data needing ``needed``, and whether it changed."""
        if self.limit is None or needed > self.limit or needed < self.shrink_below * self.limit:
            new = nice_ceiling(needed)
            changed = new != self.limit
            self.limit = new
            return new, changed
        return self.limit, False


def density_histogram(values: np.ndarray, half_width: float, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Bin edges over [-half_width, half_width] and the density (area 1 over all finite values)."""
    edges = np.linspace(-half_width, half_width, bins + 1)
    finite = np.count_nonzero(np.isfinite(values))
    density = uniform_bin_counts(values, edges) / (max(finite, 1) * (edges[1] - edges[0]))
    return edges, density


# Values binned at a time: the temporaries of 1,024 × 1,024 logits at once were 30 MB.
_BIN_BLOCK = 1 << 16


def uniform_bin_counts(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Counts of ``values`` in the bins of evenly spaced ``edges``: ``np.histogram``'s counts.

    The same rule (a bin holds its left edge, the last also its right edge; NaN, ±inf and
    values outside are not counted) and the same numbers, in half the time: numpy's path for
    even bins makes a copy of the values and more passes over them (two histograms of 16,384
    logits were ≈ 0.35 ms of every frame of a drag).
    """
    bins = edges.size - 1
    first, last = edges[0], edges[-1]
    if not (bins >= 1 and last > first):
        raise ValueError(f"need at least one bin of positive width, got edges {first}..{last}")
    upper = np.append(edges[1:-1], np.inf)  # the last bin holds its right edge
    values = np.ravel(values)
    counts = np.zeros(bins, dtype=np.intp)
    for start in range(0, values.size, _BIN_BLOCK):  # bounded temporaries, as numpy's blocks
        block = values[start:start + _BIN_BLOCK]
        keep = (block >= first) & (block <= last)
        v = block if keep.all() else block[keep]
        f = v - first
        f *= bins / (last - first)
        i = f.astype(np.intp)  # the bin, or one off where a value is within rounding of an edge
        np.minimum(i, bins - 1, out=i)
        # As numpy does, settle it against the edges themselves: one step left or right.
        np.subtract(i, v < edges.take(i), out=i, casting="unsafe")  # take: no fancy-index machinery
        np.add(i, v >= upper.take(i), out=i, casting="unsafe")
        counts += np.bincount(i, minlength=bins)
    return counts


def normal_pdf(x: np.ndarray, std: float) -> np.ndarray:
    """N(0, std^2) density at x."""
    return np.exp(-0.5 * (x / std) ** 2) / (std * math.sqrt(2 * math.pi))


def sorted_weights(row: np.ndarray) -> np.ndarray:
    """One row's weights, largest first (NaN from an overflow sorts last)."""
    return -np.sort(-np.asarray(row, dtype=np.float64))


def top_keys(p_row: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest weights, largest first (ties in key order)."""
    return np.argsort(-p_row, kind="stable")[:k]


def top_block(matrix: np.ndarray, p_row: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k x k block of ``matrix`` on the k largest weights (in decreasing order) and their indices."""
    order = top_keys(p_row, k)
    return matrix[np.ix_(order, order)], order


def clamp_positive(x: np.ndarray, floor: float) -> np.ndarray:
    """Values below ``floor`` (including 0) raised to it, for log axes."""
    return np.maximum(np.asarray(x, dtype=np.float64), floor)
