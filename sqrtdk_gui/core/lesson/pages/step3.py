"""Step 3 · What reaches the queries: the step, its prediction and the figures its text quotes."""

from __future__ import annotations

import numpy as np

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_
from sqrtdk_gui.core.lesson.measure import RAW, SCALED, FigureSet, grad_ratio, grid, med, run, sweep_median
from sqrtdk_gui.core.lesson.page import Prediction, Step

PAGE = Step(3, N_("What reaches the queries"), "step3.html",
            question=N_("At d_k = 2048 without scaling, how does the median gradient reaching a query "
                        "compare with the ÷√d_k case (about {step3_grad_scaled})?"),
            answer=N_("Orders of magnitude smaller: {step3_grad_ratio} over 64 seeds (raw median "
                      "{step3_grad_raw}). J = diag(p) − ppᵀ is nearly zero for saturated rows, and the gradient "
                      "passes through J. The mean stays large because a few near-tie rows still get big gradients."),
            preset={"d_k": 2048, "scaling": "none"},
            highlight=("jacobian", "gradient"),
            covers=("histogram", "summary.sigma"))  # its ÷√d_k ghost is step 4's answer


def _gradient_ratio(p: Params) -> float:
    """How many times smaller the raw median ‖∂L/∂q‖ is than the ÷√d_k one."""
    raw = compute(p.replace(scaling="none")).summary["grad_q"].median
    scaled = compute(p.replace(scaling="sqrt_dk")).summary["grad_q"].median
    return scaled / raw


PREDICTION = Prediction(N_("÷√d_k gradient ÷ raw gradient"), _gradient_ratio,
                        ("jacobian", "gradient", "summary.jacobian"), digits=0)


FIGURES = FigureSet()


@FIGURES.add("step3_grad_scaled", N_("median ‖∂L/∂q‖ with ÷√d_k at d_k = 2048"))
def _step3_grad_scaled(p: Params) -> float:
    return med(run(p, d_k=2048, scaling=SCALED), "grad_q")


@FIGURES.add("step3_grad_raw", N_("median ‖∂L/∂q‖ without scaling at d_k = 2048"), kind="decades")
def _step3_grad_raw(p: Params) -> float:
    return med(run(p, d_k=2048, scaling=RAW), "grad_q")


@FIGURES.add("step3_grad_ratio", N_("median ‖∂L/∂q‖: ÷√d_k over raw at d_k = 2048"), kind="decades", unit="×")
def _step3_grad_ratio(p: Params) -> float:
    return grad_ratio(p, 2048)


@FIGURES.add("step3_ratio_1024", N_("median ‖∂L/∂q‖: ÷√d_k over raw at d_k = 1024"), kind="decades", unit="×")
def _step3_ratio_1024(p: Params) -> float:
    return grad_ratio(p, 1024)


@FIGURES.add("step3_ratio_4096", N_("median ‖∂L/∂q‖: ÷√d_k over raw at d_k = 4096"), kind="decades", unit="×")
def _step3_ratio_4096(p: Params) -> float:
    return grad_ratio(p, 4096)


@FIGURES.add("step3_crossover", N_("first grid d_k ≥ 2 where the raw median ‖∂L/∂q‖ falls below ÷√d_k's"), kind="int")
def _step3_crossover(p: Params) -> float:
    d_ks = grid(2, 1448)
    below = sweep_median(p, RAW, "grad_q", d_ks) < sweep_median(p, SCALED, "grad_q", d_ks)
    return float(d_ks[int(np.argmax(below))]) if below.any() else float("nan")


@FIGURES.add("step3_mean_ratio", N_("raw mean ‖∂L/∂q‖ over the ÷√d_k median, d_k = 2048"), unit="×")
def _step3_mean_ratio(p: Params) -> float:
    return run(p, d_k=2048, scaling=RAW).summary["grad_q"].mean / med(run(p, d_k=2048, scaling=SCALED), "grad_q")
