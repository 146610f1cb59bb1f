"""Why each wrong option of a choice is wrong: the belief behind it, and what the model shows.

``WHY[key]`` holds one sentence per option of a choice item, in the order written ("" for
the right one); the reveal shows the sentence of the option committed. Each is set against
what the reveal's measurements show for that item. A new choice item needs its entry here
(``tests/core/test_practice_bank.py`` checks it). ``WHY_LINE[key]`` does the same for the
lines of a bug card that are tempting to pick: the ones that hold a scale, but rightly.
"""

from __future__ import annotations

from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.practice.model import Question

__all__ = ["WHY", "WHY_LINE", "why_not"]

WHY: dict[str, tuple[str, ...]] = {
    "chain_saturation": (
        N_("1/64 is what a spread near 0 gives. Softmax turns gaps into ratios (a gap of 5 is a factor e⁵ ≈ 150), "
           "and at σ ≈ 22.6 the top logit usually leads by several units: see the median largest weight measured "
           "below."),
        N_("About 0.1 is the median at σ = 1, with ÷√d_k. Here the gaps are 22.6 times larger, and that factor "
           "sits in the exponent."),
        N_("Half goes to the top key around σ ≈ 3–4. A spread six times larger makes the median row nearly "
           "one-hot."),
        ""),
    "chain_jacobian": (
        N_("The identity would move each weight one for one with its own logit, but ∂pᵢ/∂zᵢ = pᵢ(1 − pᵢ) is at "
           "most 1/4, and ≈ 0 when p₁ ≈ 1."),
        "",
        N_("−ppᵀ is half of J: diag(p) cancels its large entry, p₁ − p₁² ≈ 0, and every other entry has a factor "
           "pⱼ ≈ 0. What is left is ≈ 0."),
        N_("diag(p) is half of J: −ppᵀ takes the same p₁ ≈ 1 back off the diagonal, so J₁₁ = p₁ − p₁² ≈ 0.")),
    "chain_gradient": (
        N_("The chain rule does give the raw gradient a factor √d_k ≈ 45, but the gradient passes through J "
           "first, and J ≈ 0 on saturated rows: see the ratio of the medians below."),
        N_("The two effects do not cancel: the missing 1/√d_k is a factor 45, saturation takes away far more."),
        N_("At d_k = 2048 most rows are saturated, and their J is ≈ 0: the median falls by far more than 10×."),
        ""),
    "trap_dmodel": (
        N_("The heads divide by whatever the code writes: √512 where √64 is right shrinks every logit by "
           "√8 ≈ 2.8, so σ ≈ 0.35, not 1."),
        "",
        N_("Saturation needs a wide spread; the larger divisor √d_model makes it narrower, σ ≈ 0.35: nearly "
           "uniform."),
        N_("A scale applied before the softmax leaves every row summing to one; only a scale after it breaks "
           "that.")),
    "trap_stable_softmax": (
        N_("Subtracting a row's maximum shifts all its logits by one constant; the softmax ignores such a shift, "
           "so the weights, and the saturation, are exactly the same."),
        "",
        N_("The weights are identical with and without the shift: nothing gets worse, and nothing better; only "
           "overflow is avoided."),
        N_("σ is a spread: subtracting the same number from every logit of a row leaves the gaps, and σ, as "
           "they were.")),
    "trap_small_heads": (
        N_("At d_k = 8 raw logits have σ ≈ 2.8, still on the responsive side of the softmax (‖J‖ peaks near "
           "σ ≈ 4–5): raw is a little ahead there."),
        "",
        N_("At d_k = 512 raw logits have σ ≈ 22.6 and saturate: their ‖J‖ collapses far below ÷√d_k's."),
        N_("The two spreads differ by a factor √d_k (2.8 against 1 at 8, 22.6 against 1 at 512): their "
           "responsiveness cannot be equal at both.")),
    "fu_qk_norm": (
        N_("Unit vectors bound the logits to [−4, 4], and random unit vectors' cosines are ≈ ±1/√1024: σ is "
           "0.125, far from saturating."),
        "",
        N_("÷√d_k gives σ = 1; a fixed gain g = 4 over unit vectors gives σ = g/√d_k = 0.125, eight times "
           "narrower."),
        N_("The norm divides by ‖q‖ and ‖k‖, about √d_k for random vectors, never zero.")),
    "fu_overflow": (
        "",
        N_("In float16 exp overflows once z > 11.1, and raw logits at d_k = 512 go far above that (see the "
           "largest raw logit below): exp returns inf, and inf/inf is NaN."),
        N_("An overflowed exp is inf, not a large finite number: inf/inf is NaN, not a weight below one."),
        N_("Uniform rows need equal exponentials; here the largest ones overflow to inf, and inf/inf is NaN.")),
    "fu_mup": (
        N_("1/d_k shrinks the logits more than 1/√d_k does: σ = 1/√d_k = 1/64 at d_k = 4096. Saturation needs "
           "the opposite."),
        "",
        N_("The two scales differ by √d_k = 64 at d_k = 4096: σ is 1/64 instead of 1."),
        N_("A scale applied before the softmax leaves every row summing to one.")),
    "fu_precision": (
        "",
        N_("bfloat16 rounds every number to 8 significand bits, so a logit's error is about |z|·2⁻⁸, and a "
           "weight's relative error follows that absolute error: larger logits, larger errors."),
        N_("Raw logits are √1024 = 32 times wider, and a logit's rounding error grows with its size: see the "
           "two error rows below.")),
    "fu_backward": (
        N_("The chain rule alone makes the raw gradient √16 = 4 times larger, and raw logits at σ = 4 sit where "
           "the softmax responds most (‖J‖ peaks near σ ≈ 4–5): more than 4×, not less."),
        N_("√16 is the chain rule's part only. J differs too: raw logits at σ = 4 sit at the softmax's most "
           "responsive spread, σ = 1 below it, so the ratio is more than 4."),
        ""),
}


WHY_LINE: dict[str, dict[int, str]] = {
    "bug_default_scale": {
        0: N_("The default sm_scale=1.0 is what lets the mistake pass silently, and a caller that scales q "
              "itself would want it; the line that is wrong is the call that leaves sm_scale out."),
        7: N_("This branch passes head_dim ** -0.5 and is right: decoders were fine. The other branch calls "
              "_prefill without a scale."),
    },
    "bug_twice": {
        5: N_("head_dim ** -0.5 is the right factor; the fault is that it is applied a second time."),
        10: N_("Scaling q is one of the two factors, and a common way to apply the scale. The fix kept it and "
               "told the attention function not to add its own: scale=1.0."),
    },
    "bug_mla": {
        4: N_("Absorbing W_UK into q is exact: q·k is unchanged, only regrouped. The scale must follow the "
              "product it stands for, not the new width."),
    },
    "bug_scale_divided": {
        4: N_("qk_head_dim ** -0.5 is the right factor to store; what is wrong is dividing by it."),
    },
}


def why_not(q: Question, option: int) -> str:
    """Why ``option`` of a choice item or line of a bug card is wrong, in the current language
    ("" if it is right or the item has no such sentence)."""
    if q.kind == "line":
        line = WHY_LINE.get(q.key, {}).get(option, "")
        return _(line) if line and option != q.correct else ""
    reasons = WHY.get(q.key, ())
    return _(reasons[option]) if 0 <= option < len(reasons) and reasons[option] else ""
