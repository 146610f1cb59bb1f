"""Trap · ÷√d_model instead of ÷√d_k: the trap, its evidence table and the figures its text quotes."""

from __future__ import annotations

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import SCALED, FigureSet, fmt, med, run
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

PAGE = Scenario("dmodel", "trap", N_("÷√d_model instead of ÷√d_k"), "trap_dmodel.html", "÷√d_model",
                preset={"d_k": 64, "heads": 8, "scaling": "sqrt_dmodel"},
                highlight=("weights", "summary"),
                summary=N_("Each head's logit sums its own d_k terms. ÷√d_model = ÷√(h·d_k) leaves σ = 1/√h "
                           "({dmodel_sigma} with 8 heads): nearly uniform weights, and a scale that changes with the "
                           "number of heads."))


FIGURES = FigureSet()


def _dmodel(p: Params) -> Result:
    return run(p, d_k=64, heads=8, scaling="sqrt_dmodel")


@FIGURES.add("dmodel_sigma", N_("σ with ÷√d_model, d_k = 64, 8 heads (theory 1/√8 = 0.354)"))
def _dmodel_sigma(p: Params) -> float:
    return _dmodel(p).logit_std


@FIGURES.add("dmodel_entropy", N_("median entropy with ÷√d_model, d_k = 64, 8 heads (ceiling 4.16)"), digits=3)
def _dmodel_entropy(p: Params) -> float:
    return med(_dmodel(p), "entropy")


@FIGURES.add("dmodel_grad_ratio", N_("median ‖∂L/∂q‖: ÷√d_k over ÷√d_model, d_k = 64, 8 heads"), unit="×")
def _dmodel_grad_ratio(p: Params) -> float:
    return med(run(p, d_k=64, scaling=SCALED), "grad_q") / med(_dmodel(p), "grad_q")


def evidence(p: Params) -> Evidence:
    rows = []
    for h in (1, 2, 4, 8, 16):
        r = compute(p.replace(heads=h, scaling="sqrt_dmodel"))
        rows.append((str(h), str(h * p.d_k), fmt(r.logit_std),
                     f"{fmt(r.summary['entropy'].median)} / {fmt(r.log_n)}"))
    return Evidence((_("heads h"), "d_model", "σ", _("entropy / log n")), tuple(rows))
