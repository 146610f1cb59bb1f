"""One attention layer's logits, softmax and Jacobian, as pure numpy.

``compute(Params) -> Result`` is the only computation the program shows; ``sweep`` runs it
over a grid of head sizes for the "versus d_k" curves. No Qt here (a test enforces it).

Notation: a query q and a key k have d_k entries with standard deviations q_std and k_std.
The logit of a (query, key) pair is ``z = c * (q . k) / temperature`` where the factor c
depends on the scaling mode. Per-row statistics (max weight, entropy, ||J||_F) describe
the exact softmax of z in float64; ``weights`` is what the chosen float type and softmax
variant actually produce, so overflow and row sums are those of a real program.

Above ``DENSE_MAX_KEYS`` (1024) keys, ``compute`` streams over key blocks for a sample of
query rows (``core.long_context``): the same per-row statistics without (queries × keys)
arrays; ``logits`` then holds a sample of each row's logits, ``p`` and ``weights`` each
row's largest weights, and the query gradient is not computed (NaN).
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from sqrtdk_gui.core.attention import geometry as _geometry
from sqrtdk_gui.core.attention.geometry import Geometry, geometry
from sqrtdk_gui.core.attention.long_context import (DENSE_MAX_KEYS, SAMPLE_KEYS, EvaluatedSoftmax, LongSpec,
                                          RowReducer, logit_blocks, sampled_rows)
from sqrtdk_gui.core.attention.precision import numpy_dtype, weight_errors
from sqrtdk_gui.core.attention.quantiles import percentiles
from sqrtdk_gui.core.attention.sampling import pool
from sqrtdk_gui.core.attention.softmax import (SATURATION, jacobian_matrix, jacobian_vector, row_stats,
                                          softmax_evaluated)
from sqrtdk_gui.core.attention.params import CHOICES, DTYPES, FLOAT_RANGES, INT_RANGES, SCALINGS, SOFTMAX_VARIANTS, Params
from sqrtdk_gui.core.attention.variance_gamma import cosine_pdf, dot_product_pdf

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
    "theory_std",
    "log_n_factor",
    "LOG_N_TRAIN",
    "DENSE_MAX_KEYS",
    "DISPLAY_ROWS",
    "selectable_rows",
]

# log_n: the "training length" n0 below which the factor is 1 (the app's default key count).
LOG_N_TRAIN = 64
VALUE_DIM = 16  # width of the random values V and loss weights G
# Integers spaced by sqrt(2) from 1 to 4096: smooth curves on a log axis.
DK_GRID = tuple(sorted({round(2 ** (k / 2)) for k in range(25)}))

# The two scalings every "versus d_k" curve compares; any other mode is drawn as a third.
COMPARED = ("none", "sqrt_dk")
# A row index that means "the representative row": the query whose ‖J‖_F is the median.
# A fixed query (say 0) can sit orders of magnitude from the typical row and mislead.
MEDIAN_ROW = -1




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
    if s == "log_n":
        return log_n_factor(params.keys) / math.sqrt(d_k)
    return 1.0  # none, after_softmax (its division comes after the softmax)


def log_n_factor(keys: int, train: int = LOG_N_TRAIN) -> float:
    """The ``log_n`` mode's factor on the ÷√d_k logits: max(1, ln n / ln n0), n0 = 64.

    This is Qwen's "logn attention" (the query scaled by log_{n0} n beyond the training
    length n0) and scalable-softmax's s·ln n with s = 1/ln n0 (Nakanishi 2025,
    "Scalable-Softmax Is Superior for Attention"); Chiang & Cholak 2022 ("Overcoming a
    Theoretical Limitation of Self-Attention") multiply by log n for the same reason: the
    logits grow slowly with the context so that attention does not dilute as n grows.
    Unlike ÷√n (the ``seq_len`` trap) it keeps ÷√d_k, and with it σ = 1 at n0.
    """
    return max(1.0, math.log(keys) / math.log(train))


@dataclass(frozen=True)
class Summary:
    """Distribution of one per-row quantity over the query rows."""

    mean: float
    median: float
    p10: float
    p90: float

    @classmethod
    def of(cls, x: np.ndarray) -> "Summary":
        p10, median, p90 = percentiles(np.ravel(x), [10, 50, 90])
        return cls(float(np.mean(x)), float(median), float(p10), float(p90))

    @classmethod
    def of_each(cls, rows: dict[str, np.ndarray]) -> dict[str, "Summary"]:
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
    def of_finite(cls, x: np.ndarray) -> "Summary":
        """The summary of the finite values only (all NaN if there are none)."""
        x = np.asarray(x)[np.isfinite(x)]
        return cls.of(x) if x.size else cls(*(4 * (float("nan"),)))


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
    extra_rows: dict = field(default_factory=dict, repr=False)
    # What views derive from this result and may reuse when it is shown again (histograms).
    memo: dict = field(default_factory=dict, repr=False, compare=False)

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
        return self.p[row] if row < self.shown_rows else self.extra_rows[row][0]

    def weights_row(self, row: int) -> np.ndarray:
        """The evaluated weights of one row (a kept row or the median row)."""
        return self.weights[row] if row < self.shown_rows else self.extra_rows[row][1]

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
        return f"query {index} (median)" if row < 0 else f"query {index}"

    @property
    def theory_law(self) -> tuple | None:
        """What ``theory_pdf`` depends on: (law, d_k, scale); None where no law applies.

        q·k of independent N(0, 1) entries is variance-gamma (its normal limit N(0, d_k) is
        far off at small d_k: at d_k = 1 the density is infinite at 0); QK-norm's logits are
        the gain times the cosine of two random directions. Queries aligned with keys make a
        mixture, and at d_k = 1 a cosine is ±1: no law.
        """
        p = self.params
        if p.alignment != 0.0:
            return None
        mult = scale_factor(p) / p.temperature
        if p.scaling == "qk_norm":
            return None if p.d_k < 2 else ("cosine", p.d_k, mult)
        return ("dot", p.d_k, mult * p.q_std * p.k_std)

    def theory_pdf(self, x) -> np.ndarray | None:
        """The exact density of the logits at ``x`` for independent normal entries (None
        where no law applies, see ``theory_law``)."""
        return _law_pdf(self.theory_law, np.asarray(x, dtype=np.float64))

    def theory_curve(self, half: float, n: int) -> tuple[np.ndarray, np.ndarray | None]:
        """x = linspace(−half, half, n) and ``theory_pdf(x)``, read-only. Remembered across
        results: the law depends on the parameters, not on the sample (a drag revisits them)."""
        return _theory_curve(self.theory_law, float(half), int(n))

    def jacobian_block(self, row: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """J = diag(p) − ppᵀ of query ``row`` on its k largest weights, and those keys.

        Restricted to some keys, J is the Jacobian of those weights alone, so the n × n
        matrix is never built (8 MB at n = 1024).
        """
        p_row = self.p_row(row)
        order = np.argsort(-p_row, kind="stable")[:k]  # largest first, ties in key order
        return jacobian_matrix(p_row[order]), order


def theory_std(params: Params) -> float:
    """Standard deviation of all logits for independent normal entries (pooled over rows).

    The effective spread σ the softmax sees; nan where no closed form applies (QK-norm with
    alignment).
    """
    return _theory_std(params)


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


def _weight_errors(weights: np.ndarray, p: np.ndarray, post: float) -> dict:
    """The precision fields of a Result: the softmax as evaluated (before ``post``) against p."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = weight_errors(weights if post == 1.0 else weights.astype(np.float64) / post, p, p.shape[1])
    top = e.max_abs.max(initial=-np.inf)
    return {"weight_rel_error": np.where(e.nonfinite, np.nan, e.rel),
            "weight_l1_error": np.where(e.nonfinite, np.nan, e.l1),
            "weight_max_abs_error": float(top) if np.isfinite(top) else float("nan")}


# A Result keeps full (rows × keys) arrays — logits, weights, the dots behind them — for the
# first DISPLAY_ROWS query rows only (what the histogram bins and the selectable rows); the
# per-row statistics cover every query. At 8,192 queries × 1,024 keys one such array is 64 MB.
DISPLAY_ROWS = 1024
# Rows per chunk of the per-row computation: a temporary holds at most this many logits (0.5 MB),
# so the work's memory does not grow with the number of queries.
CHUNK_LOGITS = 1 << 16
# Query rows whose dot products are computed at once when the pools are drawn block by block:
# 8 MB at 1,024 keys. (2,048 rows kept the window's worst case 8 MB nearer its 300 MB bound
# for 0.4 s less at 8,192 queries: the nested query pool is drawn again up to each part's end.)
PART_ROWS = 1024
# Set in the thread that computes a sweep point: only the summaries are needed, no display rows.
_summary_only = threading.local()


def _law_pdf(law: tuple | None, x: np.ndarray) -> np.ndarray | None:
    if law is None:
        return None
    kind, d_k, scale = law
    if kind == "cosine":
        return cosine_pdf(x / scale, d_k) / scale
    return dot_product_pdf(x, d_k, scale)


@functools.lru_cache(maxsize=256)  # a drag over every d_k (97 steps) both ways: 1 MB
def _theory_curve(law: tuple | None, half: float, n: int) -> tuple[np.ndarray, np.ndarray | None]:
    # Both laws are even: the right half, mirrored (half the quadrature; an even n has no
    # point at 0, an odd one has it once).
    right = np.linspace(-half, half, n)[n // 2:]
    x = np.concatenate((-right[n % 2:][::-1], right))
    pdf = _law_pdf(law, right)
    if pdf is not None:
        pdf = np.concatenate((pdf[n % 2:][::-1], pdf))
    for a in (x, pdf):
        if a is not None:
            a.setflags(write=False)  # shared by every result with this law
    return x, pdf


def selectable_rows(params: Params) -> int:
    """Query rows whose weights a Result keeps (the rows the weights and Jacobian panels can
    show; the median row is kept as well, wherever it is)."""
    if params.keys > DENSE_MAX_KEYS:
        return sampled_rows(params.queries, params.keys)
    return min(params.queries, DISPLAY_ROWS)


def compute(params: Params) -> Result:
    """Logits, softmax, Jacobian norms and query gradients for one parameter set."""
    if params.keys > DENSE_MAX_KEYS:
        return _compute_streamed(params)
    keep = 0 if getattr(_summary_only, "on", False) else selectable_rows(params)
    return _compute_dense(params, keep)


@dataclass
class _Chunk:
    """Everything ``_dense_rows`` finds for a range of query rows."""

    dots: np.ndarray
    raw_dots: np.ndarray
    logits: np.ndarray
    p: np.ndarray
    weights: np.ndarray
    overflow: int
    row_sums: np.ndarray
    per_row: dict
    rel: np.ndarray
    l1: np.ndarray
    max_abs: float


def _dense_rows(params: Params, g, start: int, stop: int, offset: int = 0) -> _Chunk:
    """The dense computation for query rows start..stop−1 (row-wise: the same numbers as on
    all rows at once). ``g`` is the unaligned geometry of the rows from ``offset`` on."""
    rho = params.alignment
    g_dots = g.dots[start - offset:stop - offset]
    q_sq = g.q_sq[start - offset:stop - offset]
    if rho != 0.0:  # as Geometry.aligned, on these rows only
        n = params.keys
        t = np.arange(start, stop) % n
        c = math.sqrt(1.0 - rho * rho)
        q_dot_kt = g_dots[np.arange(stop - start), t]
        g_dots = rho * g.gram[t] + c * g_dots
        q_sq = rho * rho * g.k_sq[t] + c * c * q_sq + 2.0 * rho * c * q_dot_kt
    q_norm = np.sqrt(q_sq)
    k_norm = np.sqrt(g.k_sq)
    mult = scale_factor(params) / params.temperature
    raw_dots = (params.q_std * params.k_std) * g_dots
    if params.scaling == "qk_norm":
        dots = g_dots / (q_norm[:, None] * k_norm)  # cosines: q_hat . k_hat
        k_scale = 1.0 / k_norm  # rows of K_hat = k~ / |k~|
    else:
        dots = raw_dots
        k_scale = np.full(params.keys, params.k_std)
    logits = mult * dots

    post = 1.0 / math.sqrt(params.d_k) if params.scaling == "after_softmax" else 1.0
    weights, overflow = softmax_evaluated(logits, params.softmax, numpy_dtype(params.dtype))
    if post != 1.0:
        with np.errstate(invalid="ignore", over="ignore"):  # an overflowed row stays NaN
            weights = weights * weights.dtype.type(post)
    with np.errstate(invalid="ignore", over="ignore"):
        row_sums = weights.astype(np.float64).sum(axis=1)

    stats = row_stats(logits)
    precision = _weight_errors(weights, stats.p, post)
    # L = <G, (post * p) V>: dL/dp = post * G V^T, dL/dz = J dL/dp, dL/dq = mult * dL/dz K.
    # |delta K|^2 = delta (K K^T) delta^T needs only the n x n Gram matrix, not K itself.
    upstream = post * (pool(params.seed, "g", params.queries, VALUE_DIM)[start:stop]
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
    return _Chunk(dots=dots, raw_dots=raw_dots, logits=logits, p=stats.p, weights=weights,
                  overflow=overflow, row_sums=row_sums, per_row=per_row,
                  rel=precision["weight_rel_error"], l1=precision["weight_l1_error"],
                  max_abs=precision["weight_max_abs_error"])


def _compute_dense(params: Params, keep: int) -> Result:
    """``compute`` up to DENSE_MAX_KEYS keys, in chunks of rows; full arrays for the first
    ``keep`` rows (and the median row), per-row statistics for all of them."""
    m, n = params.queries, params.keys
    if _geometry.streamed(m, n, params.d_k):
        # Too large for the cached running sums: the dot products of PART_ROWS queries at a
        # time (8 MB at 1,024 keys instead of 64 MB for all 8,192), the Gram matrix once.
        gram = _geometry.key_gram(params.seed, n, params.d_k)
        k_sq = np.diagonal(gram).copy()

        def part(start: int, stop: int) -> Geometry:
            dots, q_sq = _geometry.query_rows(params.seed, n, params.d_k, start, stop)
            return Geometry(dots=dots, q_sq=q_sq, gram=gram, k_sq=k_sq)
        part_rows = PART_ROWS
    else:
        whole = geometry(params.seed, m, n, params.d_k)

        def part(start: int, stop: int) -> Geometry:
            return whole
        part_rows = m
    step = max(1, CHUNK_LOGITS // n)
    part_rows = max(step, part_rows - part_rows % step)  # parts hold whole chunks
    g, g_start = None, 0
    names = ("dots", "logits", "p", "weights") + (("raw_dots",) if params.scaling == "qk_norm" else ())
    kept: dict[str, np.ndarray] = {}  # filled in place: no list of parts to concatenate
    per_row: dict[str, list] = {name: [] for name in ROW_QUANTITIES}
    row_sums, rel, l1 = [], [], []
    overflow, max_abs = 0, -np.inf
    # The logits' spread over all rows: np.std of them all up to DISPLAY_ROWS rows (as before);
    # above, shifted sums (the shift, the first chunk's mean, keeps them well conditioned).
    shift, total, total_sq = None, 0.0, 0.0
    exact_std = m <= DISPLAY_ROWS
    all_logits = np.empty((m, n)) if exact_std and keep < m else None
    for start in range(0, m, step):
        stop = min(m, start + step)
        if g is None or stop > g_start + g.dots.shape[0]:
            g, g_start = None, start  # the previous part goes first
            g = part(start, min(m, start + part_rows))
        c = _dense_rows(params, g, start, stop, g_start)
        if start < keep:
            for name in names:
                value = getattr(c, name)
                if start == 0 and value.shape[0] == keep:  # one chunk holds them all: no copy
                    kept[name] = value
                    continue
                if name not in kept:
                    kept[name] = np.empty((keep, n), dtype=value.dtype)
                kept[name][start:stop] = value[:keep - start]
        for name in ROW_QUANTITIES:
            per_row[name].append(c.per_row[name])
        row_sums.append(c.row_sums)
        rel.append(c.rel)
        l1.append(c.l1)
        overflow += c.overflow
        if np.isfinite(c.max_abs):
            max_abs = max(max_abs, c.max_abs)
        if all_logits is not None:
            all_logits[start:stop] = c.logits
        elif not exact_std:
            if shift is None:
                shift = float(np.mean(c.logits))
            shifted = c.logits - shift
            total += float(shifted.sum())
            total_sq += float(np.einsum("ij,ij->", shifted, shifted))
        del c
    per_row = {name: np.concatenate(parts) for name, parts in per_row.items()}
    row_sums = np.concatenate(row_sums)
    for name in names:
        kept.setdefault(name, np.empty((0, n)))
    kept.setdefault("raw_dots", kept["dots"])  # the same numbers unless qk_norm: one array
    if exact_std:
        logit_std = float(np.std(kept["logits"] if all_logits is None else all_logits))
        del all_logits
    else:
        mean = total / (m * n)
        logit_std = math.sqrt(max(total_sq / (m * n) - mean * mean, 0.0))
    extra = {}
    if 0 < keep < m:  # the median row, wherever it is, can always be shown
        order = np.argsort(per_row["jacobian_fro"], kind="stable")
        median = int(order[(order.size - 1) // 2])
        if median >= keep:
            g = g if g_start <= median < g_start + g.dots.shape[0] else part(median, median + 1)
            c = _dense_rows(params, g, median, median + 1, median if g.dots.shape[0] == 1 else g_start)
            extra[median] = (c.p[0], c.weights[0])
    finite = np.isfinite(row_sums)
    row_sum_err = float(np.max(np.abs(row_sums[finite] - 1.0))) if finite.any() else float("nan")
    return Result(
        params=params,
        **kept,
        logit_std=logit_std,
        theory_std=_theory_std(params),
        saturated_fraction=float(np.mean(per_row["max_weight"] > SATURATION)),
        row_sums=row_sums,
        row_sum_max_error=row_sum_err,
        overflow_count=overflow,
        summary=Summary.of_each(per_row),
        weight_rel_error=np.concatenate(rel),
        weight_l1_error=np.concatenate(l1),
        weight_max_abs_error=float(max_abs) if np.isfinite(max_abs) else float("nan"),
        extra_rows=extra,
        **per_row,
    )


def _streamed_spec(params: Params) -> LongSpec:
    return LongSpec(seed=params.seed, rows=sampled_rows(params.queries, params.keys), keys=params.keys,
                    d_k=params.d_k, q_std=params.q_std, k_std=params.k_std, alignment=params.alignment,
                    qk_norm=params.scaling == "qk_norm")


def _compute_streamed(params: Params) -> Result:
    """``compute`` above DENSE_MAX_KEYS keys: sampled query rows, keys streamed in blocks.

    Two passes over the same deterministic blocks: the exact statistics and the evaluated
    softmax's maximum and sum, then the evaluated weights against the exact ones.
    """
    spec = _streamed_spec(params)
    rows = spec.rows
    mult = scale_factor(params) / params.temperature
    reducer = RowReducer(rows)
    evaluated = EvaluatedSoftmax(rows, params.softmax, numpy_dtype(params.dtype))
    kept_raw, kept_dots = [], []
    for start, raw, dots in logit_blocks(spec):
        z = mult * dots
        reducer.add(z)
        evaluated.first(z)
        if start < SAMPLE_KEYS:
            kept_raw.append(raw[:, :SAMPLE_KEYS - start])
            kept_dots.append(dots[:, :SAMPLE_KEYS - start])
    stats = reducer.result()
    for start, _, dots in logit_blocks(spec):
        evaluated.second(mult * dots, start, stats)

    post = 1.0 / math.sqrt(params.d_k) if params.scaling == "after_softmax" else 1.0
    weights = evaluated.top_weights()
    if post != 1.0:
        with np.errstate(invalid="ignore", over="ignore"):  # an overflowed row stays NaN
            weights = weights * weights.dtype.type(post)
    row_sums = evaluated.row_sums * post
    finite = np.isfinite(row_sums)
    row_sum_err = float(np.max(np.abs(row_sums[finite] - 1.0))) if finite.any() else float("nan")
    count = rows * params.keys
    mean = float(stats.logit_sum.sum()) / count
    logit_std = math.sqrt(max(float(stats.logit_sq_sum.sum()) / count - mean * mean, 0.0))
    dots = np.concatenate(kept_dots, axis=1)
    per_row = {
        "max_weight": stats.max_weight,
        "entropy": stats.entropy,
        "jacobian_fro": stats.jacobian_fro,
        "grad_q": np.full(rows, np.nan),  # needs the key vectors: not computed when streamed
    }
    rel, l1, max_abs = evaluated.errors()
    return Result(
        params=params,
        dots=dots,
        raw_dots=np.concatenate(kept_raw, axis=1),
        logits=mult * dots,
        p=stats.top_weights,
        weights=weights,
        logit_std=logit_std,
        theory_std=_theory_std(params),
        saturated_fraction=float(np.mean(stats.max_weight > SATURATION)),
        row_sums=row_sums,
        row_sum_max_error=row_sum_err,
        overflow_count=evaluated.overflow,
        summary=Summary.of_each(per_row),
        weight_rel_error=rel,
        weight_l1_error=l1,
        weight_max_abs_error=max_abs,
        streamed=True,
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


@dataclass(frozen=True)
class _SweepPoint:
    """What a sweep keeps of one computation."""

    summary: dict[str, Summary]
    logit_std: float
    theory_std: float
    saturated_fraction: float
    overflow_count: int


def _sweep_point(params: Params) -> _SweepPoint:
    """``compute``'s summaries; streamed, only the pass the summaries need (no top weights,
    no evaluated weights: the non-finite count follows from the evaluated maximum and sum)."""
    if params.keys <= DENSE_MAX_KEYS:
        _summary_only.on = True  # no display rows: a sweep keeps summaries only
        try:
            r = compute(params)
        finally:
            _summary_only.on = False
        return _SweepPoint(r.summary, r.logit_std, r.theory_std, r.saturated_fraction, r.overflow_count)
    spec = _streamed_spec(params)
    mult = scale_factor(params) / params.temperature
    reducer = RowReducer(spec.rows, top_k=0)
    evaluated = EvaluatedSoftmax(spec.rows, params.softmax, numpy_dtype(params.dtype))
    for _, _, dots in logit_blocks(spec):
        z = mult * dots
        reducer.add(z)
        evaluated.first(z)
    stats = reducer.result()
    count = spec.rows * params.keys
    mean = float(stats.logit_sum.sum()) / count
    per_row = {"max_weight": stats.max_weight, "entropy": stats.entropy, "jacobian_fro": stats.jacobian_fro,
               "grad_q": np.full(spec.rows, np.nan)}
    return _SweepPoint(
        summary=Summary.of_each(per_row),
        logit_std=math.sqrt(max(float(stats.logit_sq_sum.sum()) / count - mean * mean, 0.0)),
        theory_std=_theory_std(params),
        saturated_fraction=float(np.mean(stats.max_weight > SATURATION)),
        overflow_count=evaluated.overflow_after_first(params.keys))


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
        r = _sweep_point(base.replace(d_k=d))  # one result at a time, summarised, dropped
        for name in ROW_QUANTITIES:
            for stat in stats:
                rows[name][stat][i] = getattr(r.summary[name], stat)
        for name in scalars:
            scalars[name][i] = getattr(r, name)
        overflow[i] = r.overflow_count
        del r
    used = base.queries if base.keys <= DENSE_MAX_KEYS else _streamed_spec(base).rows
    return Sweep(d_k=np.array(d_ks), overflow_count=overflow, rows=rows, rows_used=used, **scalars)
