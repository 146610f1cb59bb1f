"""Follow-up · What interviewers ask: the follow-up, its evidence table and the figures its text quotes."""

from __future__ import annotations

import math

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import FigureSet, fmt, grad_ratio
from sqrtdk_gui.core.lesson.page import Evidence, Scenario
from sqrtdk_gui.core.training import folding

PAGE = Scenario("interview", "follow-up", N_("What interviewers ask"), "followup_interview.html",
                N_("Interview"), preset={"d_k": 64, "scaling": "sqrt_dk"},
                highlight=("gradient",),
                summary=N_("÷√d_k is fan-in normalisation of the sum q·k. σ = 1 is a convention (W_Q and W_K can "
                           "rescale it); what matters is that σ does not depend on d_k."))


FIGURES = FigureSet()


for _d in (4, 16):
    FIGURES.add(f"backward_raw_{_d}", N_("median ‖∂L/∂q‖: raw over ÷√d_k at d_k = {d_k} (the scale alone: √{d_k})"),
                unit="×", d_k=_d)(lambda p, d=_d: 1.0 / grad_ratio(p, d))


def _sig3(x: float) -> str:
    """Three significant figures (0.00225, 1.31e-5), so that the printed columns reproduce the ratio."""
    if x == 0 or not math.isfinite(x):
        return fmt(x)
    if 1e-3 <= abs(x) < 1e5:
        return f"{x:#.3g}".rstrip(".")
    mantissa, exponent = f"{x:.2e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def evidence(p: Params) -> Evidence:
    """One step from the training lab's initialisation: ÷√d_k explicit or folded into W_Q."""
    rows = []
    for optimizer, name in (("sgd", "SGD"), ("adam", "Adam")):
        step = folding.one_step(p.d_k, optimizer, seed=p.seed)
        theory = "d_k" if optimizer == "sgd" else "√d_k"
        rows.append((f"{name}, W_Q", _sig3(step.explicit_q), _sig3(step.folded_q),
                     f"{step.ratio_q:.4g}× ({theory} = {folding.theory_ratio(p.d_k, optimizer):.4g})"))
        rows.append((f"{name}, W_K", _sig3(step.explicit_k), _sig3(step.folded_k), f"{step.ratio_k:.4g}×"))
    return Evidence((_("one step of"), _("logits move: ÷√d_k"), _("folded into W_Q"), _("folded / ÷√d_k")),
                    tuple(rows))
