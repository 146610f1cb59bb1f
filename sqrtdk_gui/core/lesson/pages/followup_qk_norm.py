"""Follow-up · QK-normalisation: the follow-up, its evidence table and the figures its text quotes."""

from __future__ import annotations

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _, localize_number
from sqrtdk_gui.core.lesson.measure import FigureSet, aligned_key_share, fmt, med, run
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

# g = 12 ≈ log2(n² − n) for n = 64, Henry et al.'s starting value: σ = 12/√64 = 1.5 at d_k = 64.
PAGE = Scenario("qk_norm", "follow-up", N_("QK-normalisation"), "followup_qk_norm.html", N_("QK-norm"),
                preset={"d_k": 64, "scaling": "qk_norm", "gain": 12.0},
                highlight=("histogram",),
                summary=N_("Normalising q and k bounds the logits. LayerNorm on q and k keeps ÷√d_k; with unit "
                           "vectors a logit is g·cos θ with σ = g/√d_k, so the gain g must be large or learned."))


FIGURES = FigureSet()


@FIGURES.add("qknorm_g4_maxp", N_("median max p, QK-norm with fixed g = 4 at d_k = 1024 (uniform: 1/64)"))
def _qknorm_g4_maxp(p: Params) -> float:
    return med(run(p, d_k=1024, scaling="qk_norm", gain=4.0), "max_weight")


@FIGURES.add("qknorm_aligned_right", N_("share of rows whose top key is the aligned one, QK-norm g = 12, ρ = 0.9, "
                                    "d_k = 16 to 1024"), kind="percent")
def _qknorm_aligned_right(p: Params) -> tuple[float, ...]:
    return tuple(aligned_key_share(run(p, d_k=d, scaling="qk_norm", gain=12.0, alignment=0.9))
                 for d in (16, 64, 256, 1024))


def evidence(p: Params) -> Evidence:
    """Fixed gain g at several head sizes: independent q, k (σ = g/√d_k), then aligned (ρ = 0.9)."""
    rows = []
    for d in (16, 64, 256, 1024):
        q = p.replace(d_k=d, scaling="qk_norm", alignment=0.0)
        r, aligned = compute(q), compute(q.replace(alignment=0.9))
        rows.append((str(d), fmt(r.logit_std), fmt(r.summary["max_weight"].median, 3),
                     fmt(aligned.summary["max_weight"].median, 3), f"{100 * aligned_key_share(aligned):.0f} %"))
    return Evidence((localize_number(f"d_k (g={p.gain:g})"), "σ", "max p", localize_number("max p, ρ=0.9"),
                     _("right key, ρ=0.9")), tuple(rows))
