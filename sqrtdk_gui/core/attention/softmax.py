"""Row-wise softmax statistics that stay accurate when a row is nearly one-hot.

Pure numpy. Every function works on a 2-D array of logits, one softmax per row.
Saturated rows are exactly where the textbook formulas cancel catastrophically
(``1 - p_max`` or ``sum p^2 - 2 sum p^3 + (sum p^2)^2`` are differences of numbers
close to 1), so the small quantities are built from sums of small, non-negative terms.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sqrtdk_gui.core.attention.precision import round_logits

SATURATION = 0.99  # a row is "saturated" when its largest weight exceeds this

__all__ = ["SATURATION", "RowStats", "row_stats", "jacobian_vector", "jacobian_matrix", "softmax_evaluated"]


@dataclass(frozen=True)
class RowStats:
    """Exact (float64) softmax of each row and the quantities derived from it."""

    p: np.ndarray  # (m, n) softmax weights
    argmax: np.ndarray  # (m,) index of the largest weight
    max_weight: np.ndarray  # (m,)
    rest: np.ndarray  # (m,) 1 - max_weight, computed as the sum of the other weights
    entropy: np.ndarray  # (m,) natural log
    jacobian_fro: np.ndarray  # (m,) Frobenius norm of diag(p) - p p^T


def row_stats(z: np.ndarray) -> RowStats:
    """Softmax of each row of ``z`` (float64) with max weight, entropy and ||J||_F."""
    z = np.asarray(z, dtype=np.float64)
    rows = np.arange(z.shape[0])
    argmax = np.argmax(z, axis=1)
    d = z - z[rows, argmax][:, None]  # <= 0, exactly 0 at the argmax
    e = np.exp(d)
    e_top = e.copy()
    e_top[rows, argmax] = 0.0
    rest_e = e_top.sum(axis=1)  # sum of exp over the non-maximal keys
    denom = 1.0 + rest_e
    p = e / denom[:, None]
    p_other = p.copy()  # p with the top entry zeroed (the same numbers as e_top / denom)
    p_other[rows, argmax] = 0.0
    rest = rest_e / denom  # = 1 - p_max without cancellation
    max_weight = 1.0 / denom

    # Entropy as a sum of non-negative terms -p_i log p_i with log p_i = d_i - log1p(rest_e).
    log_denom = np.log1p(rest_e)
    logp_other = d - log_denom[:, None]
    with np.errstate(invalid="ignore"):  # 0 * -inf for underflowed weights
        h_other = -np.where(p_other > 0.0, p_other * logp_other, 0.0).sum(axis=1)
    entropy = max_weight * log_denom + h_other

    # ||J||_F^2 = sum_i p_i^2 (1-p_i)^2 + sum_{i != j} p_i^2 p_j^2, split by the top key M:
    #   top diagonal term p_M^2 rest^2, other diagonal terms p_i^2 (1-p_i)^2 (p_i <= 1/2 there),
    #   cross terms 2 p_M^2 S2 + (S2^2 - S4) with S2, S4 over the other keys only.
    p2 = np.square(p_other)
    s2 = p2.sum(axis=1)
    s4 = np.square(p2).sum(axis=1)
    diag_other = np.square(p_other * (1.0 - p_other)).sum(axis=1)
    fro_sq = (
        np.square(max_weight * rest)
        + diag_other
        + 2.0 * np.square(max_weight) * s2
        + np.maximum(s2 * s2 - s4, 0.0)
    )
    return RowStats(
        p=p,
        argmax=argmax,
        max_weight=max_weight,
        rest=rest,
        entropy=entropy,
        jacobian_fro=np.sqrt(fro_sq),
    )


def jacobian_vector(stats: RowStats, u: np.ndarray) -> np.ndarray:
    """J u for every row, J = diag(p) - p p^T, without cancellation at the top key.

    (J u)_i = p_i (u_i - p.u) and u_i - p.u = sum_j p_j (u_i - u_j) since sum p = 1;
    for the top key that sum runs over the small weights only.
    """
    p = stats.p
    rows = np.arange(p.shape[0])
    w = u - np.einsum("ij,ij->i", p, u)[:, None]
    u_top = u[rows, stats.argmax]
    p_other = p.copy()
    p_other[rows, stats.argmax] = 0.0
    w[rows, stats.argmax] = np.einsum("ij,ij->i", p_other, u_top[:, None] - u)
    return np.asarray(p * w)


def jacobian_matrix(p_row: np.ndarray) -> np.ndarray:
    """The explicit n x n matrix diag(p) - p p^T of one row (for plots and tests)."""
    p_row = np.asarray(p_row, dtype=np.float64)
    return np.diag(p_row) - np.outer(p_row, p_row)


def softmax_evaluated(z: np.ndarray, variant: str, dtype: np.dtype) -> tuple[np.ndarray, int]:
    """Softmax as a program in ``dtype`` would compute it, and its non-finite count.

    ``stable`` subtracts the row maximum before exponentiating; ``naive`` does not and
    overflows once a logit exceeds log(max float) (about 11.09 in float16, 88.72 in
    float32, 709.78 in float64). Overflow is counted, never raised.

    bfloat16 and float8 (``core.precision``): the logits are rounded to the type, then the
    softmax runs in float32 (an unfused pipeline: fused kernels keep the logits in float32 and
    round q, k and the weights instead); the weights come back in float32.
    """
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        # Logits beyond the type's range (65504 in float16, 448 in float8_e4m3fn) become inf
        # or NaN here: that overflow is part of what a program in this type would do, and it
        # is counted below.
        zt = round_logits(z, dtype)
        if variant == "stable":
            zt = zt - zt.max(axis=1, keepdims=True)
        e = np.exp(zt)
        w = e / e.sum(axis=1, keepdims=True)
    return w, int(np.count_nonzero(~np.isfinite(w)))
