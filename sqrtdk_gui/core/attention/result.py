"""What one computation found: ``Result`` and the per-row ``Summary`` (numpy only).

Arrays are (rows, keys) for the first ``DISPLAY_ROWS`` query rows and (rows,) for the
per-row statistics, which cover every query. A Result is frozen: views derive what they
draw from it and keep their own caches.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.quantiles import percentiles
from sqrtdk_gui.core.attention.scaling import comparison_scaling, scale_factor
from sqrtdk_gui.core.attention.sigma_dial import mode_sigmas
from sqrtdk_gui.core.attention.softmax import jacobian_matrix
from sqrtdk_gui.core.attention.theory import Law, law_pdf, theory_curve, theory_law
from sqrtdk_gui.core.i18n import _

__all__ = ["Summary", "Result", "ROW_QUANTITIES", "MEDIAN_ROW", "DISPLAY_ROWS"]

# A row index that means "the representative row": the query whose ‖J‖_F is the median.
# A fixed query (say 0) can sit orders of magnitude from the typical row and mislead.
MEDIAN_ROW = -1
# A Result keeps full (rows × keys) arrays — logits, weights, the dots behind them — for the
# first DISPLAY_ROWS query rows only (what the histogram bins and the selectable rows); the
# per-row statistics cover every query. At 8,192 queries × 1,024 keys one such array is 64 MB.
DISPLAY_ROWS = 1024


@dataclass(frozen=True)
class Summary:
    """Distribution of one per-row quantity over the query rows."""

    mean: float
    median: float
    p10: float
    p90: float

    @classmethod
    def of(cls, x: np.ndarray) -> Summary:
        p10, median, p90 = percentiles(np.ravel(x), [10, 50, 90])
        return cls(float(np.mean(x)), float(median), float(p10), float(p90))

    @classmethod
    def of_each(cls, rows: dict[str, np.ndarray]) -> dict[str, Summary]:
        """``of`` for several equally long arrays; one percentile call for all of them
        (np.percentile's numbers without its ≈ 120 µs of Python per call, every frame)."""
        names = list(rows)
        if len({np.shape(rows[n]) for n in names}) != 1:
            return {n: cls.of(rows[n]) for n in names}
        stacked = np.stack([np.asarray(rows[n], dtype=np.float64) for n in names])
        p10, median, p90 = percentiles(stacked, [10, 50, 90])
        mean = np.mean(stacked, axis=1)
        return {n: cls(float(mean[i]), float(median[i]), float(p10[i]), float(p90[i]))
                for i, n in enumerate(names)}

    @classmethod
    def of_finite(cls, x: np.ndarray | None) -> Summary:
        """The summary of the finite values only (all NaN if there are none)."""
        finite = np.empty(0) if x is None else np.asarray(x)[np.isfinite(x)]
        return cls.of(finite) if finite.size else cls(*(4 * (float("nan"),)))


ROW_QUANTITIES = ("max_weight", "entropy", "jacobian_fro", "grad_q")


@dataclass(frozen=True)
class Result:
    """What ``compute`` found for one ``Params``; arrays are (queries, keys) or (queries,)."""

    params: Params
    dots: np.ndarray  # q . k before any scaling (for qk_norm: of the unit vectors)
    raw_dots: np.ndarray  # q . k of the sampled vectors themselves (= dots unless qk_norm)
    logits: np.ndarray  # the softmax input, float64
    p: np.ndarray  # exact softmax of the logits, float64
    weights: np.ndarray  # attention weights as evaluated in params.dtype (may overflow)
    max_weight: np.ndarray
    entropy: np.ndarray
    jacobian_fro: np.ndarray
    grad_q: np.ndarray  # ||dL/dq|| for L = <G, weights V>
    logit_std: float
    theory_std: float  # nan where no closed form applies (qk_norm with alignment)
    saturated_fraction: float
    row_sums: np.ndarray  # of the evaluated weights
    row_sum_max_error: float  # over rows that stayed finite; nan if none did
    overflow_count: int  # non-finite values in the evaluated weights
    summary: dict[str, Summary] = field(repr=False)
    # --- precision: the evaluated weights against the exact float64 softmax ---------------
    # per row, NaN where the evaluated weights overflowed:
    # max_j |w_j/p_j − 1| over the weights p_j >= 0.1/n (the keys that carry attention)
    weight_rel_error: np.ndarray | None = field(default=None, repr=False)
    # Σ_j |w_j − p_j|: bounds the error of the attention output Σ_j w_j v_j by max |v|
    weight_l1_error: np.ndarray | None = field(default=None, repr=False)
    weight_max_abs_error: float = float("nan")  # max |w − p| over all finite weights
    # --- long context: True when keys > DENSE_MAX_KEYS (rows sampled, keys streamed) -------
    streamed: bool = False
    # --- rows beyond the first DISPLAY_ROWS: {row: (p, weights)} of the median row, if there --
    extra_rows: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)

    @property
    def log_n(self) -> float:
        """The entropy ceiling: a uniform softmax over the keys."""
        return math.log(self.params.keys)

    @property
    def rows(self) -> int:
        """Query rows computed: all of them, or a sample of them above DENSE_MAX_KEYS keys."""
        return int(self.max_weight.shape[0])

    @property
    def shown_rows(self) -> int:
        """Rows whose logits and weights are kept (the first DISPLAY_ROWS of ``rows``)."""
        return int(self.p.shape[0])

    @property
    def rows_sampled_for_display(self) -> bool:
        """True when ``logits``, ``p`` and ``weights`` hold the first rows only."""
        return self.shown_rows < self.rows

    def p_row(self, row: int) -> np.ndarray:
        """The exact softmax of one row (a kept row or the median row)."""
        return np.asarray(self.p[row]) if row < self.shown_rows else self.extra_rows[row][0]

    def weights_row(self, row: int) -> np.ndarray:
        """The evaluated weights of one row (a kept row or the median row)."""
        return np.asarray(self.weights[row]) if row < self.shown_rows else self.extra_rows[row][1]

    @functools.cached_property
    def rel_error_summary(self) -> Summary:
        """Distribution over the rows of ``weight_rel_error`` (rows without overflow)."""
        return Summary.of_finite(self.weight_rel_error)

    @functools.cached_property
    def l1_error_summary(self) -> Summary:
        """Distribution over the rows of ``weight_l1_error`` (rows without overflow)."""
        return Summary.of_finite(self.weight_l1_error)

    @property
    def comparison(self) -> tuple[str, np.ndarray]:
        """The same vectors' logits under ``comparison_scaling`` (drawn as a ghost).

        Not kept: at 1,024 rows × 1,024 keys it is 8 MB, and the histogram keeps its bins."""
        p = self.params
        other = comparison_scaling(p.scaling)
        mult = scale_factor(p.replace(scaling=other)) / p.temperature
        return other, mult * self.raw_dots

    @functools.cached_property
    def mode_sigmas(self) -> dict[str, float]:
        """σ every scaling mode would give at these parameters (theory, pooled; the σ dial's
        markers). Computed once per result: views read it, they do not recompute it."""
        return mode_sigmas(self.params)

    @functools.cached_property
    def failed_rows(self) -> int:
        """Query rows whose evaluated weights are not all finite (the program's NaN rows)."""
        return int(np.count_nonzero(~np.isfinite(self.row_sums)))

    @functools.cached_property
    def median_row(self) -> int:
        """The query whose ‖J‖_F is the median over all queries (the lower one if even)."""
        order = np.argsort(self.jacobian_fro, kind="stable")
        return int(order[(order.size - 1) // 2])

    def resolve_row(self, row: int) -> int:
        """A query index: ``row`` itself, or the median row for ``MEDIAN_ROW``."""
        return self.median_row if row < 0 else min(int(row), self.shown_rows - 1)

    def row_label(self, row: int) -> str:
        """How a readout names the row: 'query 137 (median)' or 'query 5'."""
        index = self.resolve_row(row)
        return (_("query {index} (median)") if row < 0 else _("query {index}")).format(index=index)

    @property
    def theory_law(self) -> Law | None:
        """What ``theory_pdf`` depends on: (law, d_k, scale); None where no law applies
        (``theory.theory_law``)."""
        return theory_law(self.params)

    def theory_pdf(self, x: ArrayLike) -> np.ndarray | None:
        """The exact density of the logits at ``x`` for independent normal entries (None
        where no law applies, see ``theory_law``)."""
        return law_pdf(self.theory_law, np.asarray(x, dtype=np.float64))

    def theory_curve(self, half: float, n: int) -> tuple[np.ndarray, np.ndarray | None]:
        """x = linspace(−half, half, n) and ``theory_pdf(x)``, read-only. Remembered across
        results: the law depends on the parameters, not on the sample (a drag revisits them)."""
        return theory_curve(self.theory_law, float(half), int(n))

    def jacobian_block(self, row: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """J = diag(p) − ppᵀ of query ``row`` on its k largest weights, and those keys.

        Restricted to some keys, J is the Jacobian of those weights alone, so the n × n
        matrix is never built (8 MB at n = 1024).
        """
        p_row = self.p_row(row)
        order = np.argsort(-p_row, kind="stable")[:k]  # largest first, ties in key order
        return jacobian_matrix(p_row[order]), order
