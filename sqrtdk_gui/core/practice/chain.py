"""The causal chain as interview questions: variance → saturation → Jacobian → gradient."""

from __future__ import annotations

import math

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _, format_number
from sqrtdk_gui.core.lesson.measure import RAW, SCALED, fmt, med, run
from sqrtdk_gui.core.practice.model import Measured, Question, Reading, Variant

__all__ = ["QUESTIONS"]


def _variance(p: Params) -> Measured:
    r = run(p, scaling=RAW)
    return Measured((Reading(_("σ of the raw logits"), fmt(r.logit_std),
                             _("theory √{d_k} = {value}").format(
                                 d_k=p.d_k, value=format_number(math.sqrt(p.d_k), ".2f"))),
                     Reading(_("variance σ²"), fmt(r.logit_std ** 2, 0), _("theory d_k = {d_k}").format(d_k=p.d_k))),
                    r.logit_std)


def _saturation(p: Params) -> Measured:
    r = run(p, scaling=RAW)
    top = med(r, "max_weight")
    choice = 3 if top > 0.9 else 2 if top > 0.4 else 1 if top > 2.0 / p.keys else 0
    return Measured((Reading(_("median largest weight of a row"), fmt(top, 3),
                             _("uniform: 1/{n} = {value}").format(n=p.keys, value=format_number(1 / p.keys, ".3f"))),
                     Reading(_("rows with max p > 0.99 (saturated)"), f"{100 * r.saturated_fraction:.0f} %"),
                     Reading(_("median entropy"), fmt(med(r, "entropy")),
                             _("ceiling log {n} = {value}").format(n=p.keys, value=format_number(r.log_n, ".2f")))),
                    choice)


def _jacobian(p: Params) -> Measured:
    raw, scaled = run(p, scaling=RAW), run(p, scaling=SCALED)
    j_raw, j_scaled = med(raw, "jacobian_fro"), med(scaled, "jacobian_fro")
    # "≈ 0" means: a small fraction of the norm the same vectors get with ÷√d_k.
    return Measured((Reading(_("median ‖J‖_F, raw"), fmt(j_raw, 4)),
                     Reading(_("median ‖J‖_F, ÷√d_k"), fmt(j_scaled, 4)),
                     Reading(_("raw over ÷√d_k"), fmt(j_raw / j_scaled, 3))), 1 if j_raw < 0.2 * j_scaled else None)


def _gradient(p: Params) -> Measured:
    raw, scaled = med(run(p, scaling=RAW), "grad_q"), med(run(p, scaling=SCALED), "grad_q")
    ratio = scaled / raw
    choice = 3 if ratio >= 10 else 2 if ratio > 1.5 else 1 if ratio > 1 / 1.5 else 0
    return Measured((Reading(_("median ‖∂L/∂q‖, raw"), fmt(raw, 4)),
                     Reading(_("median ‖∂L/∂q‖, ÷√d_k"), fmt(scaled, 3)),
                     Reading(_("÷√d_k over raw"), f"{ratio:.3g}×")), choice)


def _width_case(d_k: int) -> Variant:
    sigma = math.sqrt(d_k)
    return Variant({"d_k": d_k}, {"d_k": str(d_k), "sigma": f"{sigma:.1f}"},
                   (round(0.884 * sigma, 2), round(1.105 * sigma, 2)))


_WIDTHS = tuple(_width_case(d) for d in (512, 256, 1024, 128))

QUESTIONS = (
    Question("chain_variance", "chain", N_("How wide is a logit?"),
             N_("q and k have d_k = {d_k} independent entries, each of mean 0 and variance 1. "
                "What is the standard deviation σ of the raw logit q·k?"),
             "number", (), _variance,
             N_("√{d_k} ≈ {sigma}. q·k is a sum of {d_k} products qᵢkᵢ, each of variance 1; variances of "
                "independent terms add, so Var(q·k) = d_k and σ = √d_k."),
             N_("that you derive Var(q·k) = d_k from independence instead of quoting “to keep it stable”: "
                "the whole argument for √d_k starts here."),
             preset={"d_k": 512, "scaling": "none"}, panels=("histogram", "summary"),
             band=_WIDTHS[0].band, lesson="step:1", variants=_WIDTHS),
    Question("chain_saturation", "chain", N_("What does softmax do with such logits?"),
             N_("Raw logits of spread σ ≈ 22.6 (d_k = 512) over 64 keys. How much weight does the median query "
                "put on its single largest key?"),
             "choice", (N_("About 1/64: nearly uniform"), N_("Around 0.1: a few keys share it"),
                        N_("About half"), N_("More than 0.9: nearly one-hot")), _saturation,
             N_("Nearly all of it. The largest logit leads the next by several units and the typical key by tens, "
                "factors of hundreds and far more after exp, so the largest key takes almost everything: the softmax "
                "saturates."),
             N_("that you see softmax as exp of the gaps between logits: a spread that grows like √d_k turns every "
                "row into an argmax."),
             preset={"d_k": 512, "scaling": "none"}, panels=("weights", "summary"), correct=3, lesson="step:2"),
    Question("chain_jacobian", "chain", N_("What is left of the softmax's derivative?"),
             N_("The softmax's Jacobian is J = diag(p) − ppᵀ. For a saturated row, p ≈ (1, 0, …, 0), what does J "
                "become?"),
             "choice", (N_("About the identity"), N_("About zero, every entry"), N_("About −ppᵀ, a rank-one matrix"),
                        N_("About diag(p)")), _jacobian,
             N_("About zero: with p₁ ≈ 1 the diagonal p₁ − p₁² ≈ 0 and every other entry has a factor pⱼ ≈ 0. The "
                "softmax no longer responds to its input."),
             N_("that you can write the softmax Jacobian and evaluate it at the saturated point, not just say "
                "“gradients vanish”."),
             preset={"d_k": 512, "scaling": "none"}, panels=("jacobian",), correct=1, lesson="step:3"),
    Question("chain_gradient", "chain", N_("What reaches q and k?"),
             N_("At d_k = 2048 without scaling, how does the median gradient ‖∂L/∂q‖ reaching a query compare with "
                "the same vectors under ÷√d_k?"),
             "choice", (N_("Larger: nothing divides it"), N_("About the same"), N_("2–10× smaller"),
                        N_("At least 10× smaller")),
             _gradient,
             N_("Orders of magnitude smaller. ∂L/∂q passes through J, which is ≈ 0 for saturated rows; the missing "
                "1/√d_k in the chain rule does not make up for it. A few near-tie rows keep large gradients, so "
                "the mean misleads: look at the median."),
             N_("the full chain in one breath — Var = d_k, saturation, J → 0, no signal to W_Q and W_K — and that "
                "you know the failure is at initialisation, before any training could fix it."),
             preset={"d_k": 2048, "scaling": "none"}, panels=("gradient", "summary"), correct=3, lesson="step:3"),
)
