"""Step 4 · Divide by √d_k: the step, its prediction and the figures its text quotes."""

from __future__ import annotations

import numpy as np

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.sweep import sweep
from sqrtdk_gui.core.i18n import N_
from sqrtdk_gui.core.lesson.measure import SCALED, FigureSet, aligned_key_share, grid, logit_sigma, run, sweep_median
from sqrtdk_gui.core.lesson.page import Animation, Prediction, Step

PAGE = Step(4, N_("Divide by √d_k"), "step4.html",
            question=N_("Divide the logits by √d_k. What is σ at d_k = 4, at 512 and at 4096?"),
            answer=N_("1 each time in theory (the samples give {step4_sigma}): dividing by √d_k divides the "
                      "variance d_k by d_k. At initialisation every ÷√d_k curve is flat, for every head size."),
            preset={"d_k": 4096, "scaling": "sqrt_dk"},
            highlight=("histogram", "jacobian", "gradient"),
            animation=Animation(4, 4096, 5.0),
            slide=("histogram", "gradient"))  # two panels stay readable at 1024×768


PREDICTION = Prediction(N_("σ after ÷√d_k"), logit_sigma, ("histogram", "gradient", "summary.sigma"))


FIGURES = FigureSet()


@FIGURES.add("aligned_saturated", N_("share of saturated rows, ÷√d_k, d_k = 512, alignment ρ = 0.5"), kind="percent")
def _aligned_saturated(p: Params) -> float:
    return run(p, d_k=512, scaling=SCALED, alignment=0.5).saturated_fraction


@FIGURES.add("aligned_right", N_("share of those saturated rows whose top key is the aligned key"), kind="percent")
def _aligned_right(p: Params) -> float:
    return aligned_key_share(run(p, d_k=512, scaling=SCALED, alignment=0.5), only_saturated=True)


@FIGURES.add("step4_sigma", N_("σ of the ÷√d_k logits at d_k = 4, 512 and 4096 (theory 1)"), digits=3)
def _step4_sigma(p: Params) -> tuple[float, ...]:
    return tuple(run(p, d_k=d, scaling=SCALED).logit_std for d in (4, 512, 4096))


@FIGURES.add("step4_jac", N_("median ‖J‖_F with ÷√d_k at every grid d_k from 4 to 4096"))
def _step4_jac(p: Params) -> tuple[float, ...]:
    return tuple(sweep_median(p, SCALED, "jacobian_fro", grid(4, 4096)))


@FIGURES.add("step4_grad", N_("median ‖∂L/∂q‖ with ÷√d_k at every grid d_k from 4 to 4096"))
def _step4_grad(p: Params) -> tuple[float, ...]:
    return tuple(sweep_median(p, SCALED, "grad_q", grid(4, 4096)))


@FIGURES.add("step4_saturated", N_("largest saturated share with ÷√d_k over grid d_k from 4 to 4096"), kind="percent")
def _step4_saturated(p: Params) -> float:
    return float(np.max(sweep(p.replace(scaling=SCALED), grid(4, 4096)).saturated_fraction))
