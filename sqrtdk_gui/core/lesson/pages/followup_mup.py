"""Follow-up · μP: 1/d_k and alignment: the follow-up, its evidence table and the figures its text quotes."""

from __future__ import annotations

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import SCALED, FigureSet, aligned_key_share, fmt, med, run
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

# τ = 1/8 with ÷d_k is microsoft/mup's q·kᵀ·8/d; alignment 0.5 stands in for trained q, k.
PAGE = Scenario("mup", "follow-up", N_("μP: 1/d_k and alignment"), "followup_mup.html", "μP ÷d_k",
                preset={"d_k": 1024, "scaling": "dk", "alignment": 0.5, "temperature": 0.125},
                highlight=("histogram", "summary"),
                summary=N_("Once training aligns q with k, q·k grows like d_k, not √d_k: ÷√d_k then freezes wide "
                           "heads (median ‖J‖_F {mup_sqrt_jac_1024} at d_k = 1024), while μP's 8/d_k keeps every "
                           "width alike."))


FIGURES = FigureSet()


MUP_DKS = (64, 256, 1024, 4096)


@FIGURES.add("mup_dk_maxp", N_("median max p with plain ÷d_k, ρ = 0.5, d_k = 64 to 4096 (uniform: 1/64)"))
def _mup_dk_maxp(p: Params) -> tuple[float, ...]:
    return tuple(med(run(p, d_k=d, scaling="dk", alignment=0.5), "max_weight") for d in MUP_DKS)


@FIGURES.add("mup_8d_maxp", N_("median max p with 8/d_k (microsoft/mup), ρ = 0.5, d_k = 256 to 4096"))
def _mup_8d_maxp(p: Params) -> tuple[float, ...]:
    return tuple(med(run(p, d_k=d, scaling="dk", alignment=0.5, temperature=0.125), "max_weight")
                 for d in MUP_DKS[1:])


for _d in (64, 256, 1024):
    FIGURES.add(f"mup_sqrt_maxp_{_d}", N_("median max p with ÷√d_k, ρ = 0.5, d_k = {d_k}"),
                digits=4 if _d == 1024 else 3, d_k=_d)(
        lambda p, d=_d: med(run(p, d_k=d, scaling=SCALED, alignment=0.5), "max_weight"))


@FIGURES.add("mup_sqrt_jac_1024", N_("median ‖J‖_F with ÷√d_k, ρ = 0.5, d_k = 1024"))
def _mup_sqrt_jac_1024(p: Params) -> float:
    return med(run(p, d_k=1024, scaling=SCALED, alignment=0.5), "jacobian_fro")


@FIGURES.add("mup_right", N_("share of rows whose top key is the aligned one, ρ = 0.5, d_k = 256 to 4096 "
                         "(any positive scale: the argmax does not depend on it)"), kind="percent")
def _mup_right(p: Params) -> tuple[float, ...]:
    return tuple(aligned_key_share(run(p, d_k=d, scaling=SCALED, alignment=0.5)) for d in (256, 1024, 4096))


def evidence(p: Params) -> Evidence:
    """÷√d_k, plain ÷d_k and microsoft/mup's 8/d_k at the current alignment ρ (temperature 1)."""
    rows = []
    rho = p.alignment
    for d in (64, 256, 1024, 4096):
        q = p.replace(d_k=d, temperature=1.0)
        sqrt_dk, dk = compute(q.replace(scaling="sqrt_dk")), compute(q.replace(scaling="dk"))
        mup8 = compute(q.replace(scaling="dk", temperature=0.125))
        rows.append((str(d), fmt(sqrt_dk.summary["max_weight"].median, 3), fmt(dk.summary["max_weight"].median, 3),
                     fmt(mup8.summary["max_weight"].median, 3), f"{100 * aligned_key_share(sqrt_dk):.0f} %"))
    # A positive scale never changes which key is largest: one "right key" column serves all three.
    return Evidence((f"d_k (ρ={rho:g})", "max p ÷√d_k", "max p ÷d_k", "max p 8/d_k", _("right key")), tuple(rows))
