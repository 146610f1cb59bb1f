"""Measuring for the lesson's pages (numpy only): figures and the helpers they share.

A ``Figure`` is one number a page's text quotes as a range over seeds (``figures`` quotes
it); a page collects its own in a ``FigureSet``. The helpers compute what several pages
measure the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from sqrtdk_gui.core.attention import precision
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.attention.sampling import pool
from sqrtdk_gui.core.attention.softmax import SATURATION
from sqrtdk_gui.core.attention.sweep import DK_GRID, sweep
from sqrtdk_gui.core.i18n import _

__all__ = ["Figure", "FigureSet", "RAW", "SCALED", "TARGET_ROWS", "run", "med", "logit_sigma", "grid",
           "sweep_median", "jac_ratio", "grad_ratio", "aligned_key_share", "aligned_gap",
           "fused_kernel_error", "fmt"]

_Measure = TypeVar("_Measure", bound=Callable[[Params], float | tuple[float, ...]])


@dataclass(frozen=True)
class Figure:
    """One quoted quantity.

    ``kind``: "range" (plain numbers, scientific beyond 1e5 or below 1e-3), "percent"
    (values are fractions, quoted in %), "int" (exact integers such as grid head sizes),
    "decades" (heavy tails: one significant digit). ``unit`` is appended ("×").

    ``description`` is a text marked for translation (``N_``): a template whose named
    ``fields`` (``{d_k}``) :meth:`describe` fills in after translating it.
    """

    key: str
    description: str
    value: Callable[[Params], float | tuple[float, ...]]
    kind: str = "range"
    unit: str = ""
    digits: int = 2
    fields: tuple[tuple[str, int | float | str], ...] = ()

    def describe(self) -> str:
        """What the figure measures, in the current language (sample notes, the claims table)."""
        text = _(self.description)
        return text.format(**dict(self.fields)) if self.fields else text


class FigureSet:
    """The figures one page quotes, in the order they are added (``@FIGURES.add(key, ...)``)."""

    def __init__(self) -> None:
        self.items: list[Figure] = []

    def add(self, key: str, description: str, kind: str = "range", unit: str = "",
            digits: int = 2, **fields: int | float | str) -> Callable[[_Measure], _Measure]:
        def register(fn: _Measure) -> _Measure:
            self.items.append(Figure(key, description, fn, kind, unit, digits, tuple(fields.items())))
            return fn

        return register


RAW, SCALED = "none", "sqrt_dk"
TARGET_ROWS = 256  # queries; query i leans towards key i mod n when alignment > 0


def run(p: Params, **changes: int | float | str) -> Result:
    """``compute`` at ``p`` with some parameters changed."""
    return compute(p.replace(**changes))


def med(result: Result, name: str) -> float:
    """The median over rows of one per-row quantity."""
    return result.summary[name].median


def aligned_key_share(result: Result, only_saturated: bool = False) -> float:
    """Share of rows whose largest weight sits on the key the query leans towards."""
    m, n = result.logits.shape
    right = np.argmax(result.logits, axis=1) == np.arange(m) % n
    if only_saturated:
        sat = result.max_weight > SATURATION
        return float(np.mean(right[sat])) if sat.any() else float("nan")
    return float(np.mean(right))


def grid(lo: int, hi: int) -> tuple[int, ...]:
    """The sweep grid's head sizes from ``lo`` to ``hi``."""
    return tuple(d for d in DK_GRID if lo <= d <= hi)


def sweep_median(p: Params, scaling: str, quantity: str, d_ks: Sequence[int]) -> npt.NDArray[np.float64]:
    """The median of ``quantity`` over rows at each head size of ``d_ks``."""
    return sweep(p.replace(scaling=scaling), d_ks).stat(quantity, "median")


def jac_ratio(p: Params, d_ks: Sequence[int]) -> npt.NDArray[np.float64]:
    """Median ‖J‖_F with ÷√d_k divided by the raw one, per head size."""
    return (sweep_median(p, SCALED, "jacobian_fro", d_ks)
            / sweep_median(p, RAW, "jacobian_fro", d_ks))


def grad_ratio(p: Params, d_k: int) -> float:
    """Median ‖∂L/∂q‖ with ÷√d_k over the raw one at ``d_k``."""
    return med(run(p, d_k=d_k, scaling=SCALED), "grad_q") / med(run(p, d_k=d_k, scaling=RAW), "grad_q")


def logit_sigma(p: Params) -> float:
    """σ of the sampled logits at ``p``."""
    return compute(p).logit_std


def aligned_gap(result: Result) -> float:
    """Median over queries of (logit of the key the query leans towards) − (mean other logit)."""
    z = result.logits
    m, n = z.shape
    target = np.arange(m) % n  # the model aligns query i with key i mod n
    own = z[np.arange(m), target]
    others = (z.sum(axis=1) - own) / (n - 1)
    return float(np.median(own - others))


def fused_kernel_error(p: Params, scaling: str) -> float:
    """90th percentile over rows of the largest relative weight error of a bfloat16 fused
    kernel (q, k and p rounded, S in float32) against float64, for ``p``'s own q and k."""
    r = compute(p.replace(scaling=scaling, dtype="float64"))
    q, k = pool(p.seed, "q", p.queries, p.d_k), pool(p.seed, "k", p.keys, p.d_k)
    scale = 1.0 / math.sqrt(p.d_k) if scaling == "sqrt_dk" else 1.0
    w = precision.fused_kernel_weights(q, k, scale / p.temperature)
    return float(np.percentile(precision.weight_errors(w, r.weights, p.keys).rel, 90))


def fmt(x: float, digits: int = 2) -> str:
    """A table cell: ``digits`` decimals, 3.5e-3 for the very small and large, NaN, overflow
    (the word in the current language)."""
    if math.isnan(x):
        return "NaN"
    if not math.isfinite(x):
        return _("overflow")
    if x != 0 and (abs(x) < 10 ** -digits or abs(x) >= 1e5):
        mantissa, exponent = f"{x:.1e}".split("e")
        return f"{mantissa}e{int(exponent)}"  # 3.5e-3: narrow table columns
    return f"{x:.{digits}f}"
