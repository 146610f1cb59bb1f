"""One attention layer's logits, softmax and Jacobian, as pure numpy.

``compute(Params) -> Result`` is the only computation the program shows; ``sweep`` runs it
over a grid of head sizes for the "versus d_k" curves. No Qt here (a test enforces it).

Notation: a query q and a key k have d_k entries with standard deviations q_std and k_std.
The logit of a (query, key) pair is ``z = c * (q . k) / temperature`` where the factor c
depends on the scaling mode. Per-row statistics (max weight, entropy, ||J||_F) describe
the exact softmax of z in float64; ``weights`` is what the chosen float type and softmax
variant actually produce, so overflow and row sums are those of a real program.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from sqrtdk_gui.core.geometry import geometry
from sqrtdk_gui.core.sampling import MAX_WIDTH, pool
from sqrtdk_gui.core.softmax_math import (SATURATION, jacobian_matrix, jacobian_vector, row_stats,
                                          softmax_evaluated)
from sqrtdk_gui.core.validation import check_choice, check_float, check_int
from sqrtdk_gui.core.variance_gamma import cosine_pdf, dot_product_pdf

__all__ = [
    "SCALINGS",
    "SOFTMAX_VARIANTS",
    "DTYPES",
    "DK_GRID",
    "SATURATION",
    "COMPARED",
    "MEDIAN_ROW",
    "compared_scalings",
    "comparison_scaling",
    "INT_RANGES",
    "FLOAT_RANGES",
    "CHOICES",
    "ROW_QUANTITIES",
    "Params",
    "Summary",
    "Result",
    "Sweep",
    "SweepCancelled",
    "SWEEP_MAX_ROWS",
    "compute",
    "sweep",
    "scale_factor",
]

SCALINGS = ("none", "sqrt_dk", "dk", "sqrt_dmodel", "seq_len", "after_softmax", "qk_norm")
SOFTMAX_VARIANTS = ("stable", "naive")
DTYPES = ("float64", "float32", "float16")
VALUE_DIM = 16  # width of the random values V and loss weights G
# Integers spaced by sqrt(2) from 1 to 4096: smooth curves on a log axis.
DK_GRID = tuple(sorted({round(2 ** (k / 2)) for k in range(25)}))

INT_RANGES = {
    "d_k": (1, MAX_WIDTH),
    "keys": (2, 1024),
    "queries": (1, 8192),
    "heads": (1, 128),
    "seed": (0, 2**32 - 1),
}
FLOAT_RANGES = {
    "temperature": (0.05, 10.0),
    "q_std": (0.1, 10.0),
    "k_std": (0.1, 10.0),
    "gain": (0.1, 100.0),
    "alignment": (0.0, 1.0),
}
CHOICES = {"scaling": SCALINGS, "softmax": SOFTMAX_VARIANTS, "dtype": DTYPES}
# The two scalings every "versus d_k" curve compares; any other mode is drawn as a third.
COMPARED = ("none", "sqrt_dk")
# A row index that means "the representative row": the query whose ‖J‖_F is the median.
# A fixed query (say 0) can sit orders of magnitude from the typical row and mislead.
MEDIAN_ROW = -1


@dataclass(frozen=True)
class Params:
    """Everything that determines one computation; validated on construction.

    ``heads`` only matters for ``sqrt_dmodel`` (d_model = heads * d_k), ``gain`` only for
    ``qk_norm``; ``alignment`` (rho) correlates each query with one key, as training does.
    """

    d_k: int = 64
    temperature: float = 1.0
    keys: int = 64
    queries: int = 256
    q_std: float = 1.0
    k_std: float = 1.0
    scaling: str = "sqrt_dk"
    softmax: str = "stable"
    dtype: str = "float64"
    seed: int = 0
    heads: int = 8
    gain: float = 4.0
    alignment: float = 0.0

    def __post_init__(self) -> None:
        for name, (lo, hi) in INT_RANGES.items():
            object.__setattr__(self, name, check_int(name, getattr(self, name), lo, hi))
        for name, (lo, hi) in FLOAT_RANGES.items():
            object.__setattr__(self, name, check_float(name, getattr(self, name), lo, hi))
        for name, options in CHOICES.items():
            check_choice(name, getattr(self, name), options)

    def replace(self, **changes) -> "Params":
        """A copy with some fields changed (validated like the original)."""
        return dataclasses.replace(self, **changes)

    @property
    def d_model(self) -> int:
        return self.heads * self.d_k


def compared_scalings(params: Params) -> tuple[str, ...]:
    """Scalings the "versus d_k" curves show: raw, ÷√d_k and the current mode if another."""
    return COMPARED if params.scaling in COMPARED else COMPARED + (params.scaling,)


def comparison_scaling(scaling: str) -> str:
    """The scaling drawn faintly behind the current logits: ÷√d_k behind raw, else raw."""
    return "sqrt_dk" if scaling == "none" else "none"


def scale_factor(params: Params) -> float:
    """The factor c that multiplies q . k before the temperature (qk_norm: the gain)."""
    d_k, s = params.d_k, params.scaling
    if s == "sqrt_dk":
        return 1.0 / math.sqrt(d_k)
    if s == "dk":
        return 1.0 / d_k
    if s == "sqrt_dmodel":
        return 1.0 / math.sqrt(params.d_model)
    if s == "seq_len":
        return 1.0 / math.sqrt(params.keys)
    if s == "qk_norm":
        return params.gain
    return 1.0  # none, after_softmax (its division comes after the softmax)


@dataclass(frozen=True)
class Summary:
    """Distribution of one per-row quantity over the query rows."""

    mean: float
    median: float
    p10: float
    p90: float

    @classmethod
    def of(cls, x: np.ndarray) -> "Summary":
        p10, median, p90 = np.percentile(x, [10, 50, 90])
        return cls(float(np.mean(x)), float(median), float(p10), float(p90))


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

    @property
    def log_n(self) -> float:
        """The entropy ceiling: a uniform softmax over the keys."""
        return math.log(self.params.keys)

    @functools.cached_property
    def comparison(self) -> tuple[str, np.ndarray]:
        """The same vectors' logits under ``comparison_scaling`` (drawn as a ghost)."""
        p = self.params
        other = comparison_scaling(p.scaling)
        mult = scale_factor(p.replace(scaling=other)) / p.temperature
        return other, mult * self.raw_dots

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
        return self.median_row if row < 0 else min(int(row), self.params.queries - 1)

    def row_label(self, row: int) -> str:
        """How a readout names the row: 'query 137 (median)' or 'query 5'."""
        index = self.resolve_row(row)
        return f"query {index} (median)" if row < 0 else f"query {index}"

    def theory_pdf(self, x) -> np.ndarray | None:
        """The exact density of the logits at ``x`` for independent normal entries.

        q·k of independent N(0, 1) entries is variance-gamma (its normal limit N(0, d_k) is
        far off at small d_k: at d_k = 1 the density is infinite at 0); QK-norm's logits are
        the gain times the cosine of two random directions. None where no such law applies:
        queries aligned with keys make a mixture, and at d_k = 1 a cosine is ±1.
        """
        p = self.params
        mult = scale_factor(p) / p.temperature
        if p.alignment != 0.0:
            return None
        x = np.asarray(x, dtype=np.float64)
        if p.scaling == "qk_norm":
            return None if p.d_k < 2 else cosine_pdf(x / mult, p.d_k) / mult
        return dot_product_pdf(x, p.d_k, mult * p.q_std * p.k_std)

    def jacobian_block(self, row: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """J = diag(p) − ppᵀ of query ``row`` on its k largest weights, and those keys.

        Restricted to some keys, J is the Jacobian of those weights alone, so the n × n
        matrix is never built (8 MB at n = 1024).
        """
        p_row = self.p[row]
        order = np.argsort(-p_row, kind="stable")[:k]  # largest first, ties in key order
        return jacobian_matrix(p_row[order]), order


def _theory_std(params: Params) -> float:
    """Standard deviation of all logits for independent normal entries (pooled over rows)."""
    d, n, rho = params.d_k, params.keys, params.alignment
    mult = scale_factor(params) / params.temperature
    if params.scaling == "qk_norm":
        # q.k of independent isotropic unit vectors has variance exactly 1/d_k.
        return mult / math.sqrt(d) if rho == 0.0 else float("nan")
    # Each row has one key the query is aligned with (z_t) and n-1 others (variance d).
    a = params.q_std * params.k_std
    mean = rho * d / n
    second = ((n - 1) * d + rho**2 * (d * d + 2 * d) + (1 - rho**2) * d) / n
    return mult * a * math.sqrt(second - mean * mean)


def compute(params: Params) -> Result:
    """Logits, softmax, Jacobian norms and query gradients for one parameter set."""
    g = geometry(params.seed, params.queries, params.keys, params.d_k).aligned(params.alignment)
    q_norm = np.sqrt(g.q_sq)
    k_norm = np.sqrt(g.k_sq)
    mult = scale_factor(params) / params.temperature
    raw_dots = (params.q_std * params.k_std) * g.dots
    if params.scaling == "qk_norm":
        dots = g.dots / (q_norm[:, None] * k_norm)  # cosines: q_hat . k_hat
        k_scale = 1.0 / k_norm  # rows of K_hat = k~ / |k~|
    else:
        dots = raw_dots
        k_scale = np.full(params.keys, params.k_std)
    logits = mult * dots

    post = 1.0 / math.sqrt(params.d_k) if params.scaling == "after_softmax" else 1.0
    weights, overflow = softmax_evaluated(logits, params.softmax, np.dtype(params.dtype))
    if post != 1.0:
        weights = weights * weights.dtype.type(post)
    with np.errstate(invalid="ignore", over="ignore"):
        row_sums = weights.astype(np.float64).sum(axis=1)
    finite = np.isfinite(row_sums)
    row_sum_err = float(np.max(np.abs(row_sums[finite] - 1.0))) if finite.any() else float("nan")

    stats = row_stats(logits)
    # L = <G, (post * p) V>: dL/dp = post * G V^T, dL/dz = J dL/dp, dL/dq = mult * dL/dz K.
    # |delta K|^2 = delta (K K^T) delta^T needs only the n x n Gram matrix, not K itself.
    upstream = post * (pool(params.seed, "g", params.queries, VALUE_DIM)
                       @ pool(params.seed, "v", params.keys, VALUE_DIM).T)
    delta = jacobian_vector(stats, upstream) * (mult * k_scale)
    grad_sq = np.einsum("ij,ij->i", delta @ g.gram, delta)
    if params.scaling == "qk_norm":
        # Back through q_hat = q / |q|: remove the radial part (delta K_hat . q_hat), divide by |q|.
        radial = np.einsum("ij,ij->i", delta * k_norm, dots)
        grad_sq = (grad_sq - radial * radial) / np.square(params.q_std * q_norm)
    grad_q = np.sqrt(np.maximum(grad_sq, 0.0))

    per_row = {
        "max_weight": stats.max_weight,
        "entropy": stats.entropy,
        "jacobian_fro": stats.jacobian_fro,
        "grad_q": grad_q,
    }
    return Result(
        params=params,
        dots=dots,
        raw_dots=raw_dots,
        logits=logits,
        p=stats.p,
        weights=weights,
        logit_std=float(np.std(logits)),
        theory_std=_theory_std(params),
        saturated_fraction=float(np.mean(stats.max_weight > SATURATION)),
        row_sums=row_sums,
        row_sum_max_error=row_sum_err,
        overflow_count=overflow,
        summary={name: Summary.of(x) for name, x in per_row.items()},
        **per_row,
    )


# A sweep computes every d_k of the grid, so it runs on at most this many query rows (the
# first ones: pools are nested, so they are the same vectors the window shows). Its cost is
# then bounded (1,024 x 1,024 keys: about 0.5 s per point at d_k = 4,096). Measured against
# 8,192 rows (16 and 256 keys): the ÷√d_k curves agree within 15 %; the raw curves, which
# fall by ten orders of magnitude, within a third of a decade for the median and 0.7 of a
# decade for the 10 % edge at the largest d_k, where a few rows decide that percentile.
SWEEP_MAX_ROWS = 1024


class SweepCancelled(Exception):
    """``sweep`` was told to stop (between two d_k points); nothing was cached."""


@dataclass(frozen=True)
class Sweep:
    """Summaries of ``compute`` over a grid of d_k values (all other parameters fixed).

    Only these per-point numbers are kept, never the points' full results.
    """

    d_k: np.ndarray
    logit_std: np.ndarray
    theory_std: np.ndarray
    saturated_fraction: np.ndarray
    overflow_count: np.ndarray
    # quantity -> statistic ("mean", "median", "p10", "p90") -> array over d_k
    rows: dict[str, dict[str, np.ndarray]] = field(repr=False)
    rows_used: int = 0  # query rows each point was computed on (at most SWEEP_MAX_ROWS)

    def stat(self, quantity: str, statistic: str) -> np.ndarray:
        return self.rows[quantity][statistic]


def sweep(params: Params, d_ks=DK_GRID, cancelled=None) -> Sweep:
    """``compute`` at every d_k in ``d_ks`` on the first ``SWEEP_MAX_ROWS`` query rows.

    Cached per parameter set without d_k. ``cancelled()``, if given, is asked before every
    point; when it returns True the sweep raises SweepCancelled.
    """
    base = params.replace(d_k=1, queries=min(params.queries, SWEEP_MAX_ROWS))
    return _sweep_cached(base, tuple(int(d) for d in d_ks), cancelled)


class _SweepCache:
    """The newest finished sweeps (they are small: a few arrays of 24 numbers each)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()  # the GUI sweeps in a worker thread

    def __call__(self, base: Params, d_ks: tuple[int, ...], cancelled=None) -> Sweep:
        key = (base, d_ks)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        result = _compute_sweep(base, d_ks, cancelled)
        with self._lock:
            result = self._items.setdefault(key, result)  # two threads: the first one wins
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return result

    def cache_clear(self) -> None:
        with self._lock:
            self._items.clear()


_sweep_cached = _SweepCache(32)


def _compute_sweep(base: Params, d_ks: tuple[int, ...], cancelled=None) -> Sweep:
    stats = ("mean", "median", "p10", "p90")
    rows = {name: {stat: np.empty(len(d_ks)) for stat in stats} for name in ROW_QUANTITIES}
    scalars = {name: np.empty(len(d_ks)) for name in ("logit_std", "theory_std", "saturated_fraction")}
    overflow = np.zeros(len(d_ks), dtype=int)
    for i, d in enumerate(d_ks):
        if cancelled is not None and cancelled():
            raise SweepCancelled
        r = compute(base.replace(d_k=d))  # one full result at a time, summarised, dropped
        for name in ROW_QUANTITIES:
            for stat in stats:
                rows[name][stat][i] = getattr(r.summary[name], stat)
        for name in scalars:
            scalars[name][i] = getattr(r, name)
        overflow[i] = r.overflow_count
        del r
    return Sweep(d_k=np.array(d_ks), overflow_count=overflow, rows=rows, rows_used=base.queries,
                 **scalars)
