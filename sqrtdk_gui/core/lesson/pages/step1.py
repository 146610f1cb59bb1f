"""Step 1 · A logit is a sum of d_k terms: the step, its prediction and the figures its text quotes."""

from __future__ import annotations

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_
from sqrtdk_gui.core.lesson.measure import RAW, FigureSet, logit_sigma, run
from sqrtdk_gui.core.lesson.page import Animation, Prediction, Step

PAGE = Step(1, N_("A logit is a sum of d_k terms"), "step1.html",
            question=N_("A logit is q·k with d_k = 512 terms; the entries of q and k are independent, with mean 0 "
                        "and variance 1. What will the standard deviation σ of the logits be?"),
            answer=N_("√512 ≈ 22.6. Each product qᵢkᵢ has variance 1 and variances of independent terms add, "
                      "so Var = d_k and σ = √d_k (8 at d_k = 64). The sampled logits give {step1_sigma_512} "
                      "over 64 seeds."),
            preset={"d_k": 512, "scaling": "none"},
            highlight=("histogram", "summary"),
            animation=Animation(1, 512, 5.0),
            covers=("weights", "jacobian", "gradient", "summary.max_weight", "summary.entropy",
                    "summary.jacobian", "summary.saturated"))


PREDICTION = Prediction(N_("σ of the logits"), logit_sigma, ("histogram", "summary.sigma"))


FIGURES = FigureSet()


@FIGURES.add("step1_sigma_512", N_("σ of the raw logits at d_k = 512 (theory √512 = 22.6)"), digits=3)
def _step1_sigma_512(p: Params) -> float:
    return run(p, d_k=512, scaling=RAW).logit_std
