"""Trap · Scaling after the softmax: the trap, its evidence table and the figures its text quotes."""

from __future__ import annotations

import math

import numpy as np

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import FigureSet, fmt, run
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

PAGE = Scenario("after_softmax", "trap", N_("Scaling after the softmax"), "trap_after_softmax.html",
                N_("After softmax"),
                preset={"d_k": 256, "scaling": "after_softmax"},
                highlight=("weights",),
                summary=N_("The softmax has already seen the wide logits ({after_softmax_saturated} of rows "
                           "saturated at d_k = 256). Dividing the weights afterwards cures nothing and breaks them: "
                           "each row sums to 1/√d_k instead of 1."))


FIGURES = FigureSet()


@FIGURES.add("after_softmax_saturated", N_("saturated share, raw logits scaled after softmax, d_k = 256"),
             kind="percent")
def _after_softmax_saturated(p: Params) -> float:
    return run(p, d_k=256, scaling="after_softmax").saturated_fraction


def evidence(p: Params) -> Evidence:
    rows = []
    for d in (4, 16, 64, 256, 1024):
        after = compute(p.replace(d_k=d, scaling="after_softmax"))
        rows.append((str(d), fmt(float(np.median(after.row_sums)), 4), fmt(1 / math.sqrt(d), 4),
                     f"{100 * after.saturated_fraction:.0f} %"))
    return Evidence(("d_k", _("row sum"), "1/√d_k", _("saturated")), tuple(rows))
