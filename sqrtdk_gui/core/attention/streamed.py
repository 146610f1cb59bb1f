"""``compute`` above ``DENSE_MAX_KEYS`` keys: sampled query rows, keys streamed in blocks.

No (queries × keys) array is ever made: the per-row statistics are reduced block by block
(``long_context``). Two passes over the same deterministic blocks: the exact statistics and
the evaluated softmax's maximum and sum, then the evaluated weights against the exact ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from sqrtdk_gui.core.attention.long_context import (
    SAMPLE_KEYS,
    TOP_K,
    EvaluatedSoftmax,
    LongSpec,
    RowReducer,
    StreamStats,
    logit_blocks,
    sampled_rows,
)
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.precision import numpy_dtype
from sqrtdk_gui.core.attention.result import Result, Summary
from sqrtdk_gui.core.attention.scaling import MODES, post_factor, scale_factor
from sqrtdk_gui.core.attention.softmax import SATURATION
from sqrtdk_gui.core.attention.theory import theory_std

__all__ = ["streamed_spec", "compute_streamed", "streamed_summaries"]


def streamed_spec(params: Params) -> LongSpec:
    """The sampled rows and the key blocks ``params`` streams over."""
    return LongSpec(seed=params.seed, rows=sampled_rows(params.queries, params.keys), keys=params.keys,
                    d_k=params.d_k, q_std=params.q_std, k_std=params.k_std, alignment=params.alignment,
                    qk_norm=MODES[params.scaling].unit_vectors)


def _first_pass(
    params: Params,
    spec: LongSpec,
    top_k: int = TOP_K,
    keep: Callable[[int, np.ndarray, np.ndarray], None] | None = None,
) -> tuple[StreamStats, EvaluatedSoftmax]:
    """The exact per-row statistics and the evaluated softmax's maximum and sum over every
    key block; ``keep(start, raw, dots)``, if given, sees each block."""
    mult = scale_factor(params) / params.temperature
    reducer = RowReducer(spec.rows, top_k=top_k)
    evaluated = EvaluatedSoftmax(spec.rows, params.softmax, numpy_dtype(params.dtype))
    for start, raw, dots in logit_blocks(spec):
        z = mult * dots
        reducer.add(z)
        evaluated.first(z)
        if keep is not None:
            keep(start, raw, dots)
    return reducer.result(), evaluated


def _pooled_std(stats: StreamStats, count: int) -> float:
    """σ of every logit from the rows' running sums (Σz, Σz²)."""
    mean = float(stats.logit_sum.sum()) / count
    return math.sqrt(max(float(stats.logit_sq_sum.sum()) / count - mean * mean, 0.0))


def _per_row(stats: StreamStats, rows: int) -> dict[str, np.ndarray]:
    return {"max_weight": stats.max_weight, "entropy": stats.entropy, "jacobian_fro": stats.jacobian_fro,
            "grad_q": np.full(rows, np.nan)}  # needs the key vectors: not computed when streamed


def compute_streamed(params: Params) -> Result:
    """``compute`` above DENSE_MAX_KEYS keys (the module docstring says how)."""
    spec = streamed_spec(params)
    rows = spec.rows
    mult = scale_factor(params) / params.temperature
    kept_raw: list[np.ndarray] = []
    kept_dots: list[np.ndarray] = []

    def keep(start: int, raw: np.ndarray, dots: np.ndarray) -> None:
        if start < SAMPLE_KEYS:
            kept_raw.append(raw[:, :SAMPLE_KEYS - start])
            kept_dots.append(dots[:, :SAMPLE_KEYS - start])
    stats, evaluated = _first_pass(params, spec, keep=keep)
    for start, _, dots in logit_blocks(spec):
        evaluated.second(mult * dots, start, stats)

    post = post_factor(params)
    weights = evaluated.top_weights()
    if post != 1.0:
        with np.errstate(invalid="ignore", over="ignore"):  # an overflowed row stays NaN
            weights = weights * weights.dtype.type(post)
    row_sums = evaluated.row_sums * post
    finite = np.isfinite(row_sums)
    row_sum_err = float(np.max(np.abs(row_sums[finite] - 1.0))) if finite.any() else float("nan")
    dots = np.concatenate(kept_dots, axis=1)
    per_row = _per_row(stats, rows)
    rel, l1, max_abs = evaluated.errors()
    return Result(
        params=params,
        dots=dots,
        raw_dots=np.concatenate(kept_raw, axis=1),
        logits=mult * dots,
        p=stats.top_weights,
        weights=weights,
        logit_std=_pooled_std(stats, rows * params.keys),
        theory_std=theory_std(params),
        saturated_fraction=float(np.mean(stats.max_weight > SATURATION)),
        row_sums=row_sums,
        row_sum_max_error=row_sum_err,
        overflow_count=evaluated.overflow,
        summary=Summary.of_each(per_row),
        weight_rel_error=rel,
        weight_l1_error=l1,
        weight_max_abs_error=max_abs,
        streamed=True,
        max_weight=per_row["max_weight"],
        entropy=per_row["entropy"],
        jacobian_fro=per_row["jacobian_fro"],
        grad_q=per_row["grad_q"],
    )


def streamed_summaries(params: Params) -> tuple[dict[str, Summary], float, float, int]:
    """What a sweep keeps of ``compute_streamed``: the summaries, σ, the saturated share and
    the non-finite count, from the first pass only (no top weights, no evaluated weights:
    the non-finite count follows from the evaluated maximum and sum)."""
    spec = streamed_spec(params)
    stats, evaluated = _first_pass(params, spec, 0)
    return (Summary.of_each(_per_row(stats, spec.rows)), _pooled_std(stats, spec.rows * params.keys),
            float(np.mean(stats.max_weight > SATURATION)), evaluated.overflow_after_first(params.keys))
