"""Trap · “Small heads train fine”: the trap, its evidence table and the figures its text quotes."""

from __future__ import annotations

import numpy as np

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.sweep import sweep
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import FigureSet, fmt, grid, jac_ratio
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

PAGE = Scenario("small_heads", "trap", N_("“Small heads train fine”"), "trap_small_heads.html",
                N_("Small heads"),
                preset={"d_k": 8, "scaling": "none"},
                highlight=("jacobian", "gradient"),
                summary=N_("At small d_k raw logits are not yet too wide (σ = 4 at d_k = 16), so raw looks fine "
                           "there. But the scale must not depend on the head size: from d_k ≈ {small_heads_cross} "
                           "on, ÷√d_k's softmax is the more responsive, and raw's collapses as d_k grows."))


FIGURES = FigureSet()


@FIGURES.add("small_heads_ratio_small", N_("median ‖J‖_F, ÷√d_k over raw, every grid d_k from 2 to 32"), unit="×")
def _small_heads_ratio_small(p: Params) -> tuple[float, ...]:
    return tuple(jac_ratio(p, grid(2, 32)))


@FIGURES.add("small_heads_raw_adv", N_("largest raw-over-÷√d_k median ‖J‖_F ratio for grid d_k 2 to 32"), unit="×")
def _small_heads_raw_adv(p: Params) -> float:
    return float(np.max(1.0 / jac_ratio(p, grid(2, 32))))


@FIGURES.add("small_heads_cross", N_("first grid d_k ≥ 2 where ÷√d_k's median ‖J‖_F reaches the raw one"), kind="int")
def _small_heads_cross(p: Params) -> float:
    d_ks = grid(2, 512)
    ahead = jac_ratio(p, d_ks) >= 1.0
    return float(d_ks[int(np.argmax(ahead))]) if ahead.any() else float("nan")


@FIGURES.add("small_heads_ratio_512", N_("median ‖J‖_F, ÷√d_k over raw, d_k = 512"), kind="decades", unit="×")
def _small_heads_ratio_512(p: Params) -> float:
    return float(jac_ratio(p, (512,))[0])


@FIGURES.add("small_heads_ratio_4096", N_("median ‖J‖_F, ÷√d_k over raw, d_k = 4096"), kind="decades", unit="×")
def _small_heads_ratio_4096(p: Params) -> float:
    return float(jac_ratio(p, (4096,))[0])


def small_heads_gap(p: Params) -> tuple[np.ndarray, np.ndarray]:
    """d_k grid and median ‖J‖_F with ÷√d_k divided by that without scaling."""
    raw = sweep(p.replace(scaling="none"))
    scaled = sweep(p.replace(scaling="sqrt_dk"))
    ratio = scaled.stat("jacobian_fro", "median") / np.maximum(raw.stat("jacobian_fro", "median"), 1e-300)
    return raw.d_k.astype(float), ratio


def evidence(p: Params) -> Evidence:
    d_ks, ratio = small_heads_gap(p)
    rows = []
    for d in (2, 8, 32, 64, 512, 4096):
        i = int(np.flatnonzero(d_ks == d)[0])
        raw = compute(p.replace(d_k=d, scaling="none"))
        ahead = _("raw") if ratio[i] < 1.0 else "÷√d_k"
        rows.append((str(d), fmt(raw.logit_std), f"{100 * raw.saturated_fraction:.0f} %",
                     f"{fmt(ratio[i])}×", ahead))
    return Evidence(("d_k", _("σ raw"), _("saturated"), _("‖J‖ ÷√d_k / raw"), _("more responsive")), tuple(rows),
                    chart=(d_ks, ratio), chart_label=_("median ‖J‖_F ratio (< 1: raw ahead)"))
