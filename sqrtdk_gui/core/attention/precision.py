"""Low-precision float types (bfloat16, float8) and what rounding a logit to them costs.

The types come from ``ml-dtypes`` (the JAX project's numpy dtypes), not from hand-written
bit tricks:

- ``bfloat16``: 8 exponent bits like float32 (same range, largest ≈ 3.4·10³⁸) but only 8
  significand bits: neighbouring values near |z| = 64 are 0.5 apart.
- ``float8_e4m3fn``: 4 exponent, 3 mantissa bits, largest value 448, no infinity — a value
  that rounds beyond 448 becomes NaN (ml-dtypes' cast, and the format's only overflow).
- ``float8_e5m2``: 5 exponent, 2 mantissa bits, largest value 57 344, IEEE-style ±inf.

How the program evaluates a softmax in these types (``softmax_math.softmax_evaluated``):
the *logits* are rounded to the type, and subtracting the maximum, ``exp``, the sum and the
division run in float32: an unfused pipeline. Fused attention kernels (FlashAttention 2/3)
keep S = QKᵀ in float32 accumulators and round q, k and the weights p instead; none stores
logits in float8, so the float8 rows model no kernel; :func:`fused_kernel_weights` models
such a kernel (q, k and p rounded, S and the softmax in float32). Rounding q·k before dividing by √d_k gives the
same relative error as rounding the scaled logit (float rounding is relative, and ÷√d_k
does not change which significand bits are lost).

Pure numpy + ml_dtypes (no Qt).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import numpy.typing as npt

__all__ = ["LOW_PRECISION", "FLOAT_TYPES", "REL_ERROR_FLOOR", "numpy_dtype", "is_low_precision",
           "compute_dtype", "round_logits", "TypeInfo", "type_info", "spacing", "BlockErrors",
           "weight_errors", "fused_kernel_weights"]

# name -> numpy dtype, for the three types numpy itself lacks.
LOW_PRECISION = {
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "float8_e4m3fn": np.dtype(ml_dtypes.float8_e4m3fn),
    "float8_e5m2": np.dtype(ml_dtypes.float8_e5m2),
}
FLOAT_TYPES = ("float64", "float32", "float16", *LOW_PRECISION)


def numpy_dtype(name: str) -> np.dtype:
    """The numpy dtype of a float type name (``"bfloat16"`` included)."""
    return LOW_PRECISION.get(name) or np.dtype(name)


def is_low_precision(dtype: npt.DTypeLike) -> bool:
    """True for the ml-dtypes types, whose softmax runs in float32 after rounding."""
    return np.dtype(dtype) in LOW_PRECISION.values()


def compute_dtype(dtype: npt.DTypeLike) -> np.dtype:
    """The type ``exp`` and the sums run in: float32 for bf16/fp8, the type itself otherwise."""
    dtype = np.dtype(dtype)
    return np.dtype(np.float32) if is_low_precision(dtype) else dtype


def round_logits(z: np.ndarray, dtype: npt.DTypeLike) -> np.ndarray:
    """``z`` rounded to ``dtype`` (nearest, ties to even) and returned in its compute type.

    Out-of-range values become what the type makes of them: inf (float16, float32,
    bfloat16, float8_e5m2) or NaN (float8_e4m3fn, which has no infinity). No warning is
    raised; the caller counts the non-finite results.
    """
    dtype = np.dtype(dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = np.asarray(z).astype(dtype, copy=False)  # no copy when z already has the type
        return rounded.astype(compute_dtype(dtype), copy=False)


@dataclass(frozen=True)
class TypeInfo:
    """What a float type can hold."""

    name: str
    max: float  # largest finite value
    eps: float  # spacing just above 1
    mantissa_bits: int  # stored significand bits (the leading 1 is implicit)
    overflow: str  # what a value beyond ``max`` becomes: "inf" or "nan"


def type_info(name: str) -> TypeInfo:
    dtype = numpy_dtype(name)
    # ml_dtypes' finfo.__new__ is not annotated.
    info = ml_dtypes.finfo(dtype) if name in LOW_PRECISION else np.finfo(dtype)  # type: ignore[no-untyped-call]
    return TypeInfo(name=name, max=float(info.max), eps=float(info.eps), mantissa_bits=int(info.nmant),
                    overflow="nan" if name == "float8_e4m3fn" else "inf")


# The relative error of a row is taken over its weights of at least a tenth of uniform
# (p >= 0.1/n): the keys that carry attention. Smaller weights may underflow to 0 in any
# type, which says nothing about rounding.
REL_ERROR_FLOOR = 0.1


@dataclass(frozen=True)
class BlockErrors:
    """Per-row errors of evaluated weights against exact ones, over one block of keys."""

    l1: np.ndarray  # Σ|w − p| over the finite weights
    rel: np.ndarray  # max |w/p − 1| over finite weights with p >= REL_ERROR_FLOOR/n (0 if none)
    max_abs: np.ndarray  # max |w − p| over the finite weights (−inf if none)
    nonfinite: np.ndarray  # bool: the row has a non-finite weight (overflow)


def weight_errors(w: np.ndarray, p: np.ndarray, keys: int) -> BlockErrors:
    """Errors of the evaluated weights ``w`` (any float type) against the exact float64 ``p``.

    ``keys`` is the row's total number of keys (the floor of the relative error is 0.1/n).
    """
    w = np.asarray(w, dtype=np.float64)
    finite = np.isfinite(w)
    counted = p >= REL_ERROR_FLOOR / keys
    if finite.all():  # the usual case, with fewer temporaries
        err = np.abs(w - p)
        rel = err / np.where(counted, p, np.inf)  # 0 where not counted (3× faster than where=)
        return BlockErrors(l1=err.sum(axis=1), rel=rel.max(axis=1, initial=0.0),
                           max_abs=err.max(axis=1, initial=-np.inf), nonfinite=np.zeros(len(w), bool))
    err = np.abs(np.where(finite, w, 0.0) - p)
    err_f = np.where(finite, err, -np.inf)
    counted &= finite
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(counted, err / np.where(counted, p, 1.0), 0.0)
    return BlockErrors(l1=np.where(finite, err, 0.0).sum(axis=1), rel=rel.max(axis=1, initial=0.0),
                       max_abs=err_f.max(axis=1, initial=-np.inf), nonfinite=~finite.all(axis=1))


def spacing(name: str, x: float) -> float:
    """Distance between neighbouring values of type ``name`` at magnitude |x| (normal range).

    A logit rounds by at most half of this; a weight exp(z - max)/Σexp depends on two rounded
    logits, so it moves by a factor of up to exp(spacing) (bfloat16 at |z| = 64: spacing 0.5,
    factor e^0.5 ≈ 1.65).
    """
    info = type_info(name)
    x = abs(float(x))
    if x == 0.0 or not math.isfinite(x):
        return float("nan")
    return info.eps * 2.0 ** math.floor(math.log2(x))


def fused_kernel_weights(q: np.ndarray, k: np.ndarray, scale: float,
                         dtype: str = "bfloat16") -> npt.NDArray[np.float64]:
    """Attention weights as a fused kernel (FlashAttention 2/3) computes them, in float64.

    q and k are stored in ``dtype``; S = q kᵀ accumulates in float32 (tensor cores multiply
    the stored values exactly and add in float32), is scaled and soft-maxed in float32, and
    the weights p are rounded to ``dtype`` for the p·V product. The logits themselves are
    never stored in the low-precision type, so the error comes from q and k: a logit, a sum of
    d_k rounded products, moves by about √d_k times their relative rounding whatever its own
    size (|z| times the rounding holds only where z itself is rounded), and ÷√d_k divides that
    by √d_k.
    """
    low = numpy_dtype(dtype)
    q32 = np.asarray(q).astype(low).astype(np.float32)
    k32 = np.asarray(k).astype(low).astype(np.float32)
    s = (q32 @ k32.T) * np.float32(scale)
    s -= s.max(axis=1, keepdims=True)
    e = np.exp(s)
    p: npt.NDArray[np.float32] = e / e.sum(axis=1, keepdims=True)
    return p.astype(low).astype(np.float64)
