"""What the logits' distribution is in theory: σ and the exact density (numpy only).

For independent normal entries q·k is variance-gamma (its normal limit N(0, d_k) is far off
at small d_k: at d_k = 1 the density is infinite at 0); QK-norm's logits are the gain times
the cosine of two random directions. Queries aligned with keys make a mixture, and at
d_k = 1 a cosine is ±1: there the density has no closed form here.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.scaling import MODES, scale_factor
from sqrtdk_gui.core.attention.variance_gamma import cosine_pdf, dot_product_pdf

__all__ = ["Law", "theory_std", "theory_law", "law_pdf", "theory_curve"]

# ("dot" or "cosine", d_k, scale): what the density depends on (a cache key: hashable).
Law = tuple[str, int, float]


def theory_std(params: Params) -> float:
    """Standard deviation of all logits for independent normal entries (pooled over rows).

    The effective spread σ the softmax sees; nan where no closed form applies (QK-norm with
    alignment).
    """
    d, n, rho = params.d_k, params.keys, params.alignment
    mult = scale_factor(params) / params.temperature
    if MODES[params.scaling].unit_vectors:
        # q.k of independent isotropic unit vectors has variance exactly 1/d_k.
        return mult / math.sqrt(d) if rho == 0.0 else float("nan")
    # Each row has one key the query is aligned with (z_t) and n-1 others (variance d).
    a = params.q_std * params.k_std
    mean = rho * d / n
    second = ((n - 1) * d + rho**2 * (d * d + 2 * d) + (1 - rho**2) * d) / n
    return mult * a * math.sqrt(second - mean * mean)


def theory_law(params: Params) -> Law | None:
    """What the density depends on: (law, d_k, scale); None where no law applies."""
    if params.alignment != 0.0:
        return None
    mult = scale_factor(params) / params.temperature
    if MODES[params.scaling].unit_vectors:
        return None if params.d_k < 2 else ("cosine", params.d_k, mult)
    return ("dot", params.d_k, mult * params.q_std * params.k_std)


def law_pdf(law: Law | None, x: np.ndarray) -> np.ndarray | None:
    """The density of ``law`` (from ``theory_law``) at ``x``; None for no law."""
    if law is None:
        return None
    kind, d_k, scale = law
    if kind == "cosine":
        return np.asarray(cosine_pdf(x / scale, d_k) / scale)
    return np.asarray(dot_product_pdf(x, d_k, scale))


@functools.lru_cache(maxsize=256)  # a drag over every d_k (97 steps) both ways: 1 MB
def theory_curve(law: Law | None, half: float, n: int) -> tuple[np.ndarray, np.ndarray | None]:
    """x = linspace(−half, half, n) and the density there, read-only (shared by every
    result with this law: it depends on the parameters, not on the sample)."""
    # Both laws are even: the right half, mirrored (half the quadrature; an even n has no
    # point at 0, an odd one has it once).
    right = np.linspace(-half, half, n)[n // 2:]
    x = np.concatenate((-right[n % 2:][::-1], right))
    pdf = law_pdf(law, right)
    if pdf is not None:
        pdf = np.concatenate((pdf[n % 2:][::-1], pdf))
    for a in (x, pdf):
        if a is not None:
            a.setflags(write=False)
    return x, pdf
