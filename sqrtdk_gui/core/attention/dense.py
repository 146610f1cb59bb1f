"""``compute`` up to ``DENSE_MAX_KEYS`` keys: every (query, key) logit, in chunks of rows.

Full arrays are kept for the first rows a view can show; the per-row statistics (max
weight, entropy, ‖J‖_F, the query gradient) for every query. The dot products come from
the cached running sums of ``geometry`` (or, for the largest sizes, part by part).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from sqrtdk_gui.core.attention import geometry as _geometry
from sqrtdk_gui.core.attention.geometry import Geometry, geometry
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.precision import numpy_dtype, weight_errors
from sqrtdk_gui.core.attention.result import DISPLAY_ROWS, ROW_QUANTITIES, Result, Summary
from sqrtdk_gui.core.attention.sampling import pool
from sqrtdk_gui.core.attention.scaling import MODES, post_factor, scale_factor
from sqrtdk_gui.core.attention.softmax import SATURATION, jacobian_vector, row_stats, softmax_evaluated
from sqrtdk_gui.core.attention.theory import theory_std

__all__ = ["compute_dense", "VALUE_DIM"]

VALUE_DIM = 16  # width of the random values V and loss weights G
# Rows per chunk of the per-row computation: a temporary holds at most this many logits (0.5 MB),
# so the work's memory does not grow with the number of queries.
CHUNK_LOGITS = 1 << 16
# Query rows whose dot products are computed at once when the pools are drawn block by block:
# 8 MB at 1,024 keys. (2,048 rows kept the window's worst case 8 MB nearer its 300 MB bound
# for 0.4 s less at 8,192 queries: the nested query pool is drawn again up to each part's end.)
PART_ROWS = 1024


class _Precision(TypedDict):
    """The precision fields of a Result (``_weight_errors``)."""

    weight_rel_error: np.ndarray
    weight_l1_error: np.ndarray
    weight_max_abs_error: float


def _weight_errors(weights: np.ndarray, p: np.ndarray, post: float) -> _Precision:
    """The precision fields of a Result: the softmax as evaluated (before ``post``) against p."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = weight_errors(weights if post == 1.0 else weights.astype(np.float64) / post, p, p.shape[1])
    top = e.max_abs.max(initial=-np.inf)
    return {"weight_rel_error": np.where(e.nonfinite, np.nan, e.rel),
            "weight_l1_error": np.where(e.nonfinite, np.nan, e.l1),
            "weight_max_abs_error": float(top) if np.isfinite(top) else float("nan")}


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
    per_row: dict[str, np.ndarray]
    rel: np.ndarray
    l1: np.ndarray
    max_abs: float


# An entry this much smaller than its row's largest adds less than 1e-300 of the row's value.
_NEGLIGIBLE = 1e-300


def quadratic_rows(delta: np.ndarray, gram: np.ndarray) -> np.ndarray:
    """Each row's ``delta G deltaᵀ``, computed on the row divided by its largest |entry|, with
    entries below 1e-300 of that set to zero.

    A saturated row's Jacobian-vector product holds subnormal floats (e^-740 and the like):
    x86 multiplies those some 70 times slower (measured: a 64 × 1,024 by 1,024 × 1,024
    product with half its entries subnormal took 150 ms instead of 2 ms), which made every
    large raw-logit computation slow. Scaled rows have none, and the result differs by less
    than 1e-300 of itself.
    """
    top = np.max(np.abs(delta), axis=1)
    scale = np.where(top > 0.0, top, 1.0)
    unit = delta / scale[:, None]
    unit[np.abs(unit) < _NEGLIGIBLE] = 0.0
    # Times the scale twice, not its square: a square below 1e-308 would lose digits first.
    value: np.ndarray = np.einsum("ij,ij->i", unit @ gram, unit)
    return value * scale * scale


def dense_rows(params: Params, g: Geometry, start: int, stop: int, offset: int = 0) -> _Chunk:
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
    unit = MODES[params.scaling].unit_vectors
    if unit:
        dots = g_dots / (q_norm[:, None] * k_norm)  # cosines: q_hat . k_hat
        k_scale = 1.0 / k_norm  # rows of K_hat = k~ / |k~|
    else:
        dots = raw_dots
        k_scale = np.full(params.keys, params.k_std)
    logits = mult * dots

    post = post_factor(params)
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
    grad_sq = quadratic_rows(delta, g.gram)
    if unit:
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


def compute_dense(params: Params, keep: int) -> Result:
    """``compute`` up to DENSE_MAX_KEYS keys, in chunks of rows; full arrays for the first
    ``keep`` rows (and the median row), per-row statistics for all of them (``keep`` = 0:
    the summaries only, as a sweep needs)."""
    m, n = params.queries, params.keys
    part, part_rows = _geometry_parts(params)
    step = max(1, CHUNK_LOGITS // n)
    part_rows = max(step, part_rows - part_rows % step)  # parts hold whole chunks
    g: Geometry | None = None
    g_start = 0
    rows = _Rows(params, keep)
    for start in range(0, m, step):
        stop = min(m, start + step)
        if g is None or stop > g_start + g.dots.shape[0]:
            g, g_start = None, start  # the previous part goes first
            g = part(start, min(m, start + part_rows))
        rows.add(dense_rows(params, g, start, stop, g_start), start, stop)
    per_row, row_sums = rows.per_row()
    kept = rows.kept_arrays()
    extra: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    if 0 < keep < m:  # the median row, wherever it is, can always be shown
        order = np.argsort(per_row["jacobian_fro"], kind="stable")
        median = int(order[(order.size - 1) // 2])
        if median >= keep:
            assert g is not None  # the loop above made it (m > 0)
            g = g if g_start <= median < g_start + g.dots.shape[0] else part(median, median + 1)
            c = dense_rows(params, g, median, median + 1, median if g.dots.shape[0] == 1 else g_start)
            extra[median] = (c.p[0], c.weights[0])
    finite = np.isfinite(row_sums)
    row_sum_err = float(np.max(np.abs(row_sums[finite] - 1.0))) if finite.any() else float("nan")
    return Result(
        params=params,
        dots=kept["dots"],
        raw_dots=kept["raw_dots"],
        logits=kept["logits"],
        p=kept["p"],
        weights=kept["weights"],
        logit_std=rows.logit_std(kept["logits"]),
        theory_std=theory_std(params),
        saturated_fraction=float(np.mean(per_row["max_weight"] > SATURATION)),
        row_sums=row_sums,
        row_sum_max_error=row_sum_err,
        overflow_count=rows.overflow,
        summary=Summary.of_each(per_row),
        weight_rel_error=np.concatenate(rows.rel),
        weight_l1_error=np.concatenate(rows.l1),
        weight_max_abs_error=float(rows.max_abs) if np.isfinite(rows.max_abs) else float("nan"),
        extra_rows=extra,
        max_weight=per_row["max_weight"],
        entropy=per_row["entropy"],
        jacobian_fro=per_row["jacobian_fro"],
        grad_q=per_row["grad_q"],
    )


def _geometry_parts(params: Params) -> tuple[Callable[[int, int], Geometry], int]:
    """``part(start, stop)``: the geometry holding query rows ``start:stop``, and how many
    rows a part holds."""
    m, n = params.queries, params.keys
    if not _geometry.streamed(m, n, params.d_k):
        whole = geometry(params.seed, m, n, params.d_k)
        return (lambda start, stop: whole), m
    # Too large for the cached running sums: the dot products of PART_ROWS queries at a
    # time (8 MB at 1,024 keys instead of 64 MB for all 8,192), the Gram matrix once.
    gram = _geometry.key_gram(params.seed, n, params.d_k)
    k_sq = np.diagonal(gram).copy()

    def part(start: int, stop: int) -> Geometry:
        dots, q_sq = _geometry.query_rows(params.seed, n, params.d_k, start, stop)
        return Geometry(dots=dots, q_sq=q_sq, gram=gram, k_sq=k_sq)
    return part, PART_ROWS


class _Rows:
    """What ``compute_dense`` keeps of its chunks, in row order: the full arrays of the first
    ``keep`` rows, every row's statistics, the precision's errors and the logits' spread."""

    def __init__(self, params: Params, keep: int) -> None:
        m, n = params.queries, params.keys
        self.n, self.keep, self.queries = n, keep, m
        self.names = ("dots", "logits", "p", "weights") + (
            ("raw_dots",) if MODES[params.scaling].unit_vectors else ())
        self.kept: dict[str, np.ndarray] = {}  # filled in place: no list of parts to concatenate
        self.row_parts: dict[str, list[np.ndarray]] = {name: [] for name in ROW_QUANTITIES}
        self.row_sum_parts: list[np.ndarray] = []
        self.rel: list[np.ndarray] = []
        self.l1: list[np.ndarray] = []
        self.overflow, self.max_abs = 0, -np.inf
        # The logits' spread over all rows: np.std of them all up to DISPLAY_ROWS rows (as before);
        # above, shifted sums (the shift, the first chunk's mean, keeps them well conditioned).
        self.exact_std = m <= DISPLAY_ROWS
        self.all_logits = np.empty((m, n)) if self.exact_std and keep < m else None
        self.shift: float | None = None
        self.total, self.total_sq = 0.0, 0.0

    def add(self, c: _Chunk, start: int, stop: int) -> None:
        """The chunk of rows ``start:stop``."""
        keep = self.keep
        if start < keep:
            for name in self.names:
                value = getattr(c, name)
                if start == 0 and value.shape[0] == keep:  # one chunk holds them all: no copy
                    self.kept[name] = value
                    continue
                if name not in self.kept:
                    self.kept[name] = np.empty((keep, self.n), dtype=value.dtype)
                self.kept[name][start:stop] = value[:keep - start]
        for name in ROW_QUANTITIES:
            self.row_parts[name].append(c.per_row[name])
        self.row_sum_parts.append(c.row_sums)
        self.rel.append(c.rel)
        self.l1.append(c.l1)
        self.overflow += c.overflow
        if np.isfinite(c.max_abs):
            self.max_abs = max(self.max_abs, c.max_abs)
        if self.all_logits is not None:
            self.all_logits[start:stop] = c.logits
        elif not self.exact_std:
            if self.shift is None:
                self.shift = float(np.mean(c.logits))
            shifted = c.logits - self.shift
            self.total += float(shifted.sum())
            self.total_sq += float(np.einsum("ij,ij->", shifted, shifted))

    def per_row(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Every row's statistics and weight sums (their parts let go of)."""
        per_row = {name: np.concatenate(parts) for name, parts in self.row_parts.items()}
        row_sums = np.concatenate(self.row_sum_parts)
        self.row_parts, self.row_sum_parts = {}, []
        return per_row, row_sums

    def kept_arrays(self) -> dict[str, np.ndarray]:
        """The first ``keep`` rows' arrays (empty ones for ``keep`` = 0)."""
        kept = self.kept
        for name in self.names:
            kept.setdefault(name, np.empty((0, self.n)))
        kept.setdefault("raw_dots", kept["dots"])  # the same numbers unless qk_norm: one array
        return kept

    def logit_std(self, kept_logits: np.ndarray) -> float:
        """The spread of every logit (``kept_logits``: the first ``keep`` rows')."""
        if self.exact_std:
            every = kept_logits if self.all_logits is None else self.all_logits
            self.all_logits = None
            return float(np.std(every))
        count = self.queries * self.n
        mean = self.total / count
        return math.sqrt(max(self.total_sq / count - mean * mean, 0.0))
