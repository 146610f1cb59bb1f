"""The five traps as interview questions: a wrong width, the wrong place, a wrong cure, a
wrong length, and "it does not matter"."""

from __future__ import annotations

import math

import numpy as np

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.attention.scaling import log_n_factor
from sqrtdk_gui.core.i18n import N_, _, format_number
from sqrtdk_gui.core.lesson.measure import RAW, SCALED, fmt, jac_ratio, med, run
from sqrtdk_gui.core.practice.model import Measured, Question, Reading, Variant

__all__ = ["QUESTIONS", "uniform_ratio"]


def uniform_ratio(p: Params) -> float:
    """The median row's largest weight in units of 1/n (1: perfectly uniform)."""
    return med(run(p), "max_weight") * p.keys


def _dmodel(p: Params) -> Measured:
    bad, good = uniform_ratio(p), uniform_ratio(p.replace(scaling=SCALED))
    r = run(p)
    choice = 1 if bad < 3.0 and good > 5.0 else None  # near uniform: below 3/n, where ÷√d_k is above 5/n
    theory = _("theory 1/√{heads} = {value}").format(heads=p.heads, value=format_number(1 / math.sqrt(p.heads), ".3f"))
    return Measured((Reading(_("σ with ÷√d_model"), fmt(r.logit_std, 3), theory),
                     Reading(_("median max weight, ÷√d_model"), f"{bad:.2f} / n", _("n = {n} keys").format(n=p.keys)),
                     Reading(_("median max weight, ÷√d_k"), f"{good:.2f} / n"),
                     Reading(_("median entropy"), fmt(med(r, "entropy"), 3),
                             _("uniform: log n = {value}").format(value=format_number(r.log_n, ".3f")))), choice)


def row_sums(p: Params) -> tuple[Result, float, Reading]:
    """A scale after the softmax: the result, the median row sum of its weights and that
    reading, set against 1/√d_k (the trap's question and its bug card share it)."""
    r = run(p)
    total = float(np.median(r.row_sums))
    inverse_root = f"1/√{p.d_k} = {1 / math.sqrt(p.d_k):.4f}"
    return r, total, Reading(_("median row sum of the weights"), fmt(total, 4), inverse_root)


def _after(p: Params) -> Measured:
    r, total, reading = row_sums(p)
    return Measured((reading,
                     Reading(_("rows saturated (as raw)"), f"{100 * r.saturated_fraction:.0f} %",
                             _("raw: {percent}").format(
                                 percent=f"{100 * run(p, scaling=RAW).saturated_fraction:.0f} %"))),
                    total)


def _stable(p: Params) -> Measured:
    stable, naive = run(p, softmax="stable"), run(p, softmax="naive")
    ok = np.isfinite(naive.weights).all(axis=1)
    w_naive, w_stable = naive.weights[ok].astype(float), stable.weights[ok].astype(float)
    diff = float(np.max(np.abs(w_naive - w_stable))) if ok.any() else math.nan
    scaled = run(p, scaling=SCALED, softmax="stable")
    same = ok.any() and diff < 1e-4 and stable.saturated_fraction > 0.2 > scaled.saturated_fraction
    return Measured((Reading(_("rows saturated, stable softmax"), f"{100 * stable.saturated_fraction:.0f} %"),
                     Reading(_("rows saturated, ÷√d_k"), f"{100 * scaled.saturated_fraction:.0f} %"),
                     Reading(_("max |naive − stable| weight (finite rows)"),
                             fmt(diff, 2) if ok.any() else _("none finite")),
                     Reading(_("median ‖J‖_F, stable softmax"), fmt(med(stable, "jacobian_fro"), 4),
                             f"÷√d_k: {fmt(med(scaled, 'jacobian_fro'), 3)}")), 1 if same else None)


def _seq(p: Params) -> Measured:
    r = run(p)
    logn = run(p, scaling=SCALED, temperature=1.0 / log_n_factor(p.keys))
    return Measured((Reading(_("σ with ÷√n"), fmt(r.logit_std, 3),
                             _("theory √(d_k/n) = {value}").format(
                                 value=format_number(math.sqrt(p.d_k / p.keys), ".3f"))),
                     Reading(_("median max weight, ÷√n"), f"{uniform_ratio(p):.2f} / n", f"n = {p.keys}"),
                     Reading(_("σ with ÷√d_k × log₆₄ n"), fmt(logn.logit_std, 3),
                             _("one long-context technique"))),
                    r.logit_std)


def _small(p: Params) -> Measured:
    small, large = float(jac_ratio(p, (8,))[0]), float(jac_ratio(p, (512,))[0])
    choice = 1 if small < 1.0 and large > 5.0 else None
    return Measured((Reading(_("median ‖J‖_F ÷√d_k over raw, d_k = 8"), f"{small:.2f}×", _("< 1: raw is ahead")),
                     Reading(_("median ‖J‖_F ÷√d_k over raw, d_k = 512"), f"{large:.3g}×")), choice)


def _sum_case(d_k: int) -> Variant:
    value = 1 / math.sqrt(d_k)  # exact: the rows sum to 1 before the division
    return Variant({"d_k": d_k}, {"d_k": str(d_k), "value": f"{value:g}"}, (0.96 * value, 1.04 * value))


def _length_case(d_k: int, n: int) -> Variant:
    value = math.sqrt(d_k / n)
    return Variant({"d_k": d_k, "keys": n}, {"d_k": str(d_k), "n": str(n), "value": f"{value:g}"},
                   (round(0.9 * value, 4), round(1.1 * value, 4)))


_SUMS = tuple(_sum_case(d) for d in (256, 64, 1024, 16))
_LENGTHS = tuple(_length_case(d, n) for d, n in ((256, 1024), (64, 1024), (576, 1024), (64, 4096)))

QUESTIONS = (
    Question("trap_dmodel", "traps", N_("÷√d_model instead of ÷√d_k"),
             N_("A layer with d_model = 512 and 8 heads of d_k = 64 divides every head's q·k by √d_model = √512. "
                "What do the attention rows look like at initialisation?"),
             "choice", (N_("Like ÷√d_k: the heads never see d_model"), N_("Nearly uniform: σ is 1/√8 ≈ 0.35"),
                        N_("Saturated, one key per row"), N_("Rows no longer sum to one")), _dmodel,
             N_("Nearly uniform. Each head's q·k has variance d_k, not d_model; ÷√d_model leaves σ = √(d_k/d_model) "
                "= 1/√h, and with more heads the rows approach 1/n: attention averages instead of selecting."),
             N_("that you know the variance is per head — the sum runs over the head's d_k coordinates — and that "
                "the error hides: nothing overflows, training just starts blind."),
             preset={"d_k": 64, "heads": 8, "scaling": "sqrt_dmodel"}, panels=("weights", "summary"),
             correct=1, lesson="dmodel"),
    Question("trap_after_softmax", "traps", N_("Scaling after the softmax"),
             N_("At d_k = {d_k} the code divides the softmax's output by √d_k instead of its input. "
                "What does each row of weights sum to?"),
             "number", (), _after,
             N_("1/√{d_k} = {value}. A positive factor after the softmax changes neither which key wins nor the "
                "saturation (the logits are still raw); it only breaks the rows' sum to one."),
             N_("that the scale has to act on the logits — the softmax's input — because only there does it change "
                "the softmax's regime."),
             preset={"d_k": 256, "scaling": "after_softmax"}, panels=("weights",),
             band=_SUMS[0].band, lesson="after_softmax", variants=_SUMS),
    Question("trap_stable_softmax", "traps", N_("“Stable softmax fixes it”"),
             N_("Raw logits at d_k = 512, float32. Someone says subtracting each row's maximum before exp "
                "(the stable softmax) removes the need for ÷√d_k. What does the max-subtraction change?"),
             "choice", (N_("It cures the saturation: rows spread out again"),
                        N_("Only overflow: the weights are the same, still saturated"),
                        N_("It makes saturation worse"), N_("It halves σ")), _stable,
             N_("Only overflow. softmax(z − max z) = softmax(z) exactly, so every weight — and the saturation, and "
                "J ≈ 0 — is unchanged; the subtraction only keeps exp from returning inf."),
             N_("that you separate a numerical problem (overflow, solved by max-subtraction) from a statistical "
                "one (saturation, solved by the scale)."),
             preset={"d_k": 512, "scaling": "none", "dtype": "float32"}, panels=("weights", "jacobian"),
             correct=1, lesson="stable_softmax"),
    Question("trap_seq_len", "traps", N_("A scale from the sequence length"),
             N_("At d_k = {d_k} with n = {n} keys the code divides q·k by √n instead of √d_k. What is σ of the "
                "logits?"),
             "number", (), _seq,
             N_("√({d_k}/{n}) = {value}: the logits' variance is d_k whatever n is, so ÷√n scales by the wrong "
                "quantity and long contexts go nearly uniform. One long-context technique keeps ÷√d_k and multiplies "
                "by log n on top (× log₆₄ n here, Qwen's logn attention), so attention dilutes far less as n grows; "
                "the mainstream context-extension methods rescale the rotary positions instead."),
             N_("that the variance depends on d_k and not on n, and that you can tell a published technique — "
                "such as a log-n factor on top of ÷√d_k — from the bug."),
             preset={"d_k": 256, "keys": 1024, "scaling": "seq_len"}, panels=("histogram", "summary"),
             band=_LENGTHS[0].band, lesson="seq_len", variants=_LENGTHS),
    Question("trap_small_heads", "traps", N_("“Small heads train fine”"),
             N_("“Our heads have d_k = 8 and train fine without the scale, so it does not matter.” Compare the "
                "softmax's responsiveness (median ‖J‖_F) raw and with ÷√d_k at d_k = 8 and at d_k = 512."),
             "choice", (N_("÷√d_k is ahead at both"), N_("Raw is a little ahead at 8; ÷√d_k is far ahead at 512"),
                        N_("Raw is ahead at both"), N_("They are equal at both")), _small,
             N_("At d_k = 8 raw logits (σ ≈ 2.8) are in softmax's responsive range and even a little ahead; at 512 "
                "the raw softmax is saturated and ÷√d_k is one to two orders of magnitude more responsive. The scale "
                "is what makes the head size a free choice."),
             N_("that you answer with the mechanism (σ = √d_k decides the regime) and not with an anecdote: small "
                "heads survive, wide heads do not."),
             preset={"d_k": 8, "scaling": "none"}, panels=("jacobian", "gradient"), correct=1, lesson="small_heads"),
)
