"""Follow-up · Temperature: the follow-up, its evidence table and the figures its text quotes."""

from __future__ import annotations

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import SCALED, FigureSet, fmt, med, run
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

# τ = 8 at d_k = 1024 is an effective spread σ = 4: the most responsive softmax over 64 keys.
PAGE = Scenario("temperature", "follow-up", N_("Temperature"), "followup_temperature.html",
                N_("Temperature"),
                preset={"d_k": 1024, "scaling": "none", "temperature": 8.0},
                highlight=("histogram", "summary"),
                summary=N_("A temperature τ and the scale multiply into one spread σ = √d_k · scale / τ, so a fixed "
                           "τ fits one head size only. With 64 keys softmax is most responsive near σ ≈ 4 and "
                           "saturates beyond σ ≈ 8."))


FIGURES = FigureSet()


def _spread(p: Params, sigma: float) -> Result:
    # d_k = 1024 with ÷√d_k and temperature 1/σ: logits of spread σ, nearly Gaussian.
    return run(p, d_k=1024, scaling=SCALED, temperature=1.0 / sigma)


for _sigma in (1, 4):
    FIGURES.add(f"temp_maxp_{_sigma}", N_("median max p at effective σ = {sigma}, 64 keys"), sigma=_sigma)(
        lambda p, s=_sigma: med(_spread(p, s), "max_weight"))


for _sigma in (1, 4, 8):
    FIGURES.add(f"temp_jac_{_sigma}", N_("median ‖J‖_F at effective σ = {sigma}, 64 keys"), sigma=_sigma)(
        lambda p, s=_sigma: med(_spread(p, s), "jacobian_fro"))


for _sigma in (4, 8):
    FIGURES.add(f"temp_sat_{_sigma}", N_("saturated share at effective σ = {sigma}, 64 keys"), kind="percent",
                sigma=_sigma)(
        lambda p, s=_sigma: _spread(p, s).saturated_fraction)


@FIGURES.add("temp_sat_8_n1024", N_("saturated share at effective σ = 8 with 1024 keys"), kind="percent")
def _temp_sat_8_n1024(p: Params) -> float:
    return run(p, d_k=256, keys=1024, queries=64, scaling=SCALED, temperature=1.0 / 8).saturated_fraction


def evidence(p: Params) -> Evidence:
    """The current τ at several head sizes: one effective σ = √d_k · scale / τ decides everything."""
    rows = []
    for d in (4, 64, 1024, 4096):
        r = compute(p.replace(d_k=d, scaling="none"))
        rows.append((str(d), fmt(r.theory_std), fmt(r.summary["max_weight"].median, 3),
                     fmt(r.summary["jacobian_fro"].median, 3), f"{100 * r.saturated_fraction:.0f} %"))
    return Evidence((f"d_k (τ={p.temperature:g})", "σ = √d_k/τ", "max p", "‖J‖", _("saturated")), tuple(rows))
