"""Step 2 · Softmax of wide logits: the step, its prediction and the figures its text quotes."""

from __future__ import annotations

import numpy as np

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_
from sqrtdk_gui.core.lesson.measure import RAW, FigureSet, med, run
from sqrtdk_gui.core.lesson.page import Prediction, Step

PAGE = Step(2, N_("Softmax of wide logits"), "step2.html",
            question=N_("At d_k = 512 without scaling (σ ≈ 22.6, 64 keys): how much weight will a "
                        "typical query put on its single largest key?"),
            answer=N_("Almost all of it: the median query leaves only {step2_rest} to the other 63 keys, and "
                      "{step2_saturated} of queries put more than 0.99 on one key. The median entropy is "
                      "{step2_entropy} of a possible log 64 = 4.16. (Ranges over 32 random seeds.)"),
            preset={"d_k": 512, "scaling": "none"},
            highlight=("weights", "summary"),
            covers=("jacobian", "gradient", "summary.jacobian"))


def _median_max_weight(p: Params) -> float:
    return compute(p).summary["max_weight"].median


PREDICTION = Prediction(N_("median largest weight"), _median_max_weight,
                        ("weights", "summary.max_weight", "summary.entropy", "summary.saturated",
                         "summary.jacobian"), digits=3)


FIGURES = FigureSet()


@FIGURES.add("step2_top_gap", N_("median gap between a query's largest and second-largest raw logit, d_k = 512"))
def _step2_top_gap(p: Params) -> float:
    z = np.sort(run(p, d_k=512, scaling=RAW).logits, axis=1)
    return float(np.median(z[:, -1] - z[:, -2]))


@FIGURES.add("step2_rest", N_("median weight left to the other 63 keys (1 − max p), raw, d_k = 512"), kind="percent")
def _step2_rest(p: Params) -> float:
    return float(np.median(1.0 - run(p, d_k=512, scaling=RAW).max_weight))


@FIGURES.add("step2_saturated", N_("share of rows with max p > 0.99, raw, d_k = 512"), kind="percent")
def _step2_saturated(p: Params) -> float:
    return run(p, d_k=512, scaling=RAW).saturated_fraction


@FIGURES.add("step2_entropy", N_("median entropy (nats), raw, d_k = 512 (ceiling log 64 = 4.16)"), kind="decades")
def _step2_entropy(p: Params) -> float:
    return med(run(p, d_k=512, scaling=RAW), "entropy")
