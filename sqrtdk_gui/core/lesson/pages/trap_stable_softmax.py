"""Trap · “Stable softmax fixes it”: the trap, its evidence table and the figures its text quotes."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import RAW, FigureSet, fmt, run
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

PAGE = Scenario("stable_softmax", "trap", N_("“Stable softmax fixes it”"), "trap_stable_softmax.html",
                N_("Stable softmax"),
                preset={"d_k": 512, "scaling": "none", "softmax": "naive", "dtype": "float16"},
                highlight=("weights", "jacobian"),
                summary=N_("Subtracting the row maximum changes how softmax is computed, not what it computes: "
                           "softmax(z − max z) = softmax(z). It prevents overflow; the weights stay saturated, with "
                           "‖J‖ ≈ 0."))


FIGURES = FigureSet()


def _naive(p: Params, dtype: str) -> Result:
    return run(p, d_k=512, scaling=RAW, softmax="naive", dtype=dtype)


def _nan_rows(result: Result) -> npt.NDArray[np.bool_]:
    nan_rows: npt.NDArray[np.bool_] = ~np.isfinite(result.weights).all(axis=1)
    return nan_rows


@FIGURES.add("stable_max_logit", N_("largest raw logit over all 256 × 64 pairs, d_k = 512"), digits=3)
def _stable_max_logit(p: Params) -> float:
    return float(np.max(run(p, d_k=512, scaling=RAW).logits))


@FIGURES.add("stable_naive16_nan", N_("share of rows naive float16 softmax returns as NaN, raw, d_k = 512"),
             kind="percent")
def _stable_naive16_nan(p: Params) -> float:
    return float(np.mean(_nan_rows(_naive(p, "float16"))))


@FIGURES.add("stable_naive32_nan_rows", N_("rows naive float32 softmax returns as NaN, raw, d_k = 512"), kind="int")
def _stable_naive32_nan_rows(p: Params) -> float:
    return float(np.sum(_nan_rows(_naive(p, "float32"))))


@FIGURES.add("stable_f32_diff", N_("max |naive − stable| float32 weight over rows finite in both, raw, d_k = 512"),
             digits=1)  # a few float32 ulps (1.2·10⁻⁷ each): one digit says it
def _stable_f32_diff(p: Params) -> float:
    naive, stable = _naive(p, "float32"), run(p, d_k=512, scaling=RAW, dtype="float32")
    ok = ~_nan_rows(naive)
    return float(np.max(np.abs(naive.weights[ok].astype(np.float64) - stable.weights[ok].astype(np.float64))))


def jacobian_fro_of(w: np.ndarray) -> np.ndarray:
    """‖diag(w) − w wᵀ‖_F of each row of evaluated weights, in float64 without cancellation.

    Split at each row's top weight M as ``softmax_math.row_stats`` does: the top diagonal term
    (w_M − w_M²)², the other diagonal terms, and the cross terms 2 w_M² S2 + (S2² − S4) with
    S2, S4 over the other weights, so a nearly one-hot row does not come out as rounding noise.
    """
    w = np.asarray(w, dtype=np.float64)
    rows = np.arange(w.shape[0])
    top = np.argmax(w, axis=1)
    w_top = w[rows, top]
    other = w.copy()
    other[rows, top] = 0.0
    s2 = np.square(other).sum(axis=1)
    s4 = np.square(np.square(other)).sum(axis=1)
    fro_sq: npt.NDArray[np.float64] = (np.square(w_top - w_top * w_top) + np.square(other - other * other).sum(axis=1)
                                       + 2.0 * w_top * w_top * s2 + np.maximum(s2 * s2 - s4, 0.0))
    return np.sqrt(fro_sq)


def evidence(p: Params) -> Evidence:
    """What each program returns: its NaN rows, and statistics of the weights it produced."""
    rows = []
    for dtype in ("float16", "float32"):
        results = {v: compute(p.replace(softmax=v, dtype=dtype)) for v in ("naive", "stable")}
        stable_w = results["stable"].weights.astype(np.float64)
        for variant in ("naive", "stable"):
            w = results[variant].weights.astype(np.float64)
            finite = np.isfinite(w).all(axis=1)
            if finite.any():
                stats = (fmt(float(np.median(w[finite].max(axis=1))), 3),
                         fmt(float(np.median(jacobian_fro_of(w[finite])))))
            else:
                stats = ("NaN", "NaN")  # no row came out as numbers
            if variant == "naive":
                both = finite & np.isfinite(stable_w).all(axis=1)
                diff = fmt(float(np.max(np.abs(w[both] - stable_w[both]))), 1) if both.any() else "NaN"
            else:
                diff = "—"
            program = (_("naive {dtype}") if variant == "naive" else _("stable {dtype}")).format(
                dtype=dtype.replace("float", "f"))
            rows.append((program, str(int(np.sum(~finite))), *stats, diff))
    return Evidence((_("softmax"), _("NaN rows (of {m})").format(m=p.queries), "max p", "‖J‖", _("|Δ| to stable")),
                    tuple(rows))
