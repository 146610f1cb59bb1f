"""The follow-ups interviewers ask once the chain is right: temperature, QK-norm, overflow,
μP, long context, low precision, folding the scale into W_Q, and the backward pass."""

from __future__ import annotations

import math

import numpy as np

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _, format_number
from sqrtdk_gui.core.lesson.measure import RAW, SCALED, fmt, grad_ratio, med, run
from sqrtdk_gui.core.practice.model import Measured, Question, Reading, Variant
from sqrtdk_gui.core.training import folding

__all__ = ["QUESTIONS", "LONG_RANKED"]


def _temperature(p: Params) -> Measured:
    r = run(p)
    theory = f"√{p.d_k}/τ = {math.sqrt(p.d_k) / p.temperature:.2f}"
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3), theory),
                     Reading(_("median max weight"), fmt(med(r, "max_weight"), 3)),
                     Reading(_("median ‖J‖_F"), fmt(med(r, "jacobian_fro"), 3),
                             f"÷√d_k, τ = 1: {fmt(med(run(p, scaling=SCALED, temperature=1.0), 'jacobian_fro'), 3)}")),
                    r.logit_std)


def _qk_norm(p: Params) -> Measured:
    top = med(run(p), "max_weight") * p.keys
    return Measured((Reading(_("σ of the logits"), fmt(run(p).logit_std, 3),
                             f"g/√d_k = {p.gain / math.sqrt(p.d_k):.3f}"),
                     Reading(_("median max weight"), f"{top:.2f} / n", f"n = {p.keys}"),
                     Reading(_("median max weight, g = 12"),
                             f"{med(run(p, gain=12.0), 'max_weight') * p.keys:.2f} / n")),
                    1 if top < 2.0 else None)


def _overflow(p: Params) -> Measured:
    naive, stable = run(p), run(p, softmax="stable")
    nan_rows = float(np.mean(~np.isfinite(naive.weights).all(axis=1)))
    stable_nan = float(np.mean(~np.isfinite(stable.weights).all(axis=1)))
    return Measured((Reading(_("rows returned as NaN, naive"), f"{100 * nan_rows:.0f} %",
                             _("of {m}").format(m=p.queries)),
                     Reading(_("rows returned as NaN, stable"), f"{100 * stable_nan:.0f} %"),
                     Reading(_("largest raw logit"), fmt(float(np.max(naive.logits)), 1),
                             _("float16's largest: 65,504 = e^11.1"))),
                    0 if nan_rows > 0.5 and stable_nan == 0 else None)


def _mup(p: Params) -> Measured:
    plain = med(run(p), "max_weight") * p.keys
    aligned = med(run(p, alignment=0.5), "max_weight")
    return Measured((Reading(_("median max weight, ÷d_k, random q, k"), f"{plain:.2f} / n", f"n = {p.keys}"),
                     Reading(_("σ, ÷d_k, random q, k"), fmt(run(p).logit_std, 4),
                             f"1/√d_k = {1 / math.sqrt(p.d_k):.4f}"),
                     Reading(_("median max weight, ÷d_k, aligned ρ = 0.5"), fmt(aligned, 3),
                             f"÷√d_k: {fmt(med(run(p, scaling=SCALED, alignment=0.5), 'max_weight'), 3)}")),
                    1 if plain < 1.2 else None)


LONG_RANKED = ("sqrt_dk", "seq_len", "log_n")  # the long-context ranking's options, in the order shown
_LONG_NAMES = {"log_n": "÷√d_k × log₆₄ n", "sqrt_dk": "÷√d_k", "seq_len": "÷√n"}


def _long(p: Params) -> Measured:
    tops = [med(run(p, scaling=s), "max_weight") for s in LONG_RANKED]
    order = tuple(int(i) for i in np.argsort(tops)[::-1])
    uniform = _("uniform: 1/n = {value}").format(value=format_number(1 / p.keys, ".2g"))
    return Measured(tuple(Reading(_("median max weight, {scaling}").format(scaling=_LONG_NAMES[s]), f"{t:.2g}", uniform)
                          for s, t in zip(LONG_RANKED, tops, strict=True)), order)


def _precision(p: Params) -> Measured:
    raw, scaled = run(p, scaling=RAW).rel_error_summary.p90, run(p, scaling=SCALED).rel_error_summary.p90
    return Measured((Reading(_("worst weight error per row, raw (p90)"), f"{100 * raw:.2g} %"),
                     Reading(_("worst weight error per row, ÷√d_k (p90)"), f"{100 * scaled:.2g} %")),
                    0 if raw > 5 * scaled else None)


def _fold(p: Params) -> Measured:
    sgd, adam = folding.one_step(p.d_k, "sgd", seed=p.seed), folding.one_step(p.d_k, "adam", seed=p.seed)
    root = f"√d_k = {math.sqrt(p.d_k):.4g}"
    return Measured((Reading(_("logits at initialisation, max |explicit − folded|"), f"{sgd.init_gap:.1e}",
                             _("rounding only")),
                     Reading(_("SGD step on W_Q: folded over explicit"), f"{sgd.ratio_q:.4g}×", f"d_k = {p.d_k}"),
                     Reading(_("Adam step on W_Q: folded over explicit"), f"{adam.ratio_q:.4g}×", root),
                     Reading(_("SGD step on W_K: folded over explicit"), f"{sgd.ratio_k:.4g}×")), sgd.ratio_q)


def _backward(p: Params) -> Measured:
    ratio = 1.0 / grad_ratio(p, p.d_k)
    root = math.sqrt(p.d_k)
    j_raw, j_scaled = med(run(p, scaling=RAW), "jacobian_fro"), med(run(p, scaling=SCALED), "jacobian_fro")
    choice = 2 if ratio > 1.1 * root else 1 if ratio > root / 1.1 else 0
    return Measured((Reading(_("median ‖∂L/∂q‖: raw over ÷√d_k"), f"{ratio:.3g}×",
                             _("the chain rule's factor √d_k = {value}").format(value=format_number(root))),
                     Reading(_("median ‖J‖_F, raw (σ ≈ {sigma})").format(sigma=format_number(root)), fmt(j_raw, 3)),
                     Reading(_("median ‖J‖_F, ÷√d_k (σ ≈ 1)"), fmt(j_scaled, 3))), choice)


INIT_WIDTH = 512  # d_model: the projections' input width


def projected_logits(d_k: int, seed: int, rows: int = 256, keys: int = 64) -> tuple[np.ndarray, float]:
    """Raw logits q·k for q = x W_Q, k = y W_K with unit-variance x, y of width INIT_WIDTH and
    PyTorch's default nn.Linear weights, and the variance of the q entries."""
    rng = np.random.default_rng([seed, d_k])
    # kaiming_uniform_(a=√5): gain √(2/(1 + 5)) times √(3/fan_in) is the bound 1/√fan_in,
    # so Var(W) = bound²/3 = 1/(3·fan_in).
    bound = 1 / math.sqrt(INIT_WIDTH)
    w_q, w_k = rng.uniform(-bound, bound, (2, INIT_WIDTH, d_k))
    q = rng.standard_normal((rows, INIT_WIDTH)) @ w_q
    k = rng.standard_normal((keys, INIT_WIDTH)) @ w_k
    return q @ k.T, float(np.var(q))


def _init(p: Params) -> Measured:
    logits, q_var = projected_logits(p.d_k, p.seed)
    sigma = float(np.std(logits))
    return Measured((Reading(_("variance of a q entry after nn.Linear"), fmt(q_var, 3), "1/3 = 0.333"),
                     Reading(_("σ of the raw logits q·k"), fmt(sigma, 3),
                             f"√{p.d_k}/3 = {math.sqrt(p.d_k) / 3:.3f}"),
                     Reading(_("the live panels: entries of variance 1/3"), fmt(run(p).logit_std, 3))), sigma)


def _init_case(d_k: int) -> Variant:
    value = math.sqrt(d_k) / 3
    return Variant({"d_k": d_k}, {"d_k": str(d_k), "value": f"{value:.2f}"},
                   (round(0.9 * value, 2), round(1.1 * value, 2)))


def _temperature_case(d_k: int, tau: int) -> Variant:
    value = math.sqrt(d_k) / tau
    return Variant({"d_k": d_k, "temperature": float(tau)}, {"d_k": str(d_k), "tau": str(tau), "value": f"{value:g}"},
                   (round(0.9 * value, 3), round(1.1 * value, 3)))


def _fold_case(d_k: int) -> Variant:
    return Variant({"d_k": d_k}, {"d_k": str(d_k), "root": f"{math.sqrt(d_k):g}"},
                   (float(round(0.94 * d_k)), float(round(1.06 * d_k))))


_TEMPERATURES = tuple(_temperature_case(d, t) for d, t in ((1024, 8), (256, 2), (256, 8), (576, 4)))
_FOLDS = tuple(_fold_case(d) for d in (64, 16, 256))
_INITS = tuple(_init_case(d) for d in (64, 256, 16))
_THIRD = 1 / math.sqrt(3)  # the q and k entries' σ under nn.Linear's default initialisation

QUESTIONS = (
    Question("fu_temperature", "follow-ups", N_("Temperature and the scale"),
             N_("Raw logits at d_k = {d_k} with a softmax temperature τ = {tau} (logits ÷ τ). What is the effective "
                "σ?"),
             "number", (), _temperature,
             N_("√{d_k} / {tau} = {value}. The scale and the temperature multiply into one effective spread "
                "σ = c·√d_k·scale/τ, where c = σ_q·σ_k is the entries' scale (1 here) and scale is 1 for raw logits, "
                "1/√d_k with ÷√d_k; only that σ decides the softmax's regime."),
             N_("that you see ÷√d_k and a temperature as the same knob — and that ÷√d_k is the choice that makes "
                "σ = 1 for every head size, so τ can mean the same thing everywhere."),
             preset={"d_k": 1024, "scaling": "none", "temperature": 8.0}, panels=("histogram", "summary"),
             band=_TEMPERATURES[0].band, lesson="temperature", variants=_TEMPERATURES),
    Question("fu_qk_norm", "follow-ups", N_("QK-norm with a fixed gain"),
             N_("QK-norm makes q and k unit vectors and multiplies their cosine by a gain g. With g = 4 fixed and "
                "d_k = 1024, what do the rows look like?"),
             "choice", (N_("Saturated: unit vectors do not help"), N_("Nearly uniform: cosines are ≈ 1/√d_k"),
                        N_("Exactly like ÷√d_k"), N_("NaN: the norm divides by zero")), _qk_norm,
             N_("Nearly uniform. Cosines of random vectors have spread 1/√d_k, so the logits' σ is g/√d_k = 0.125: "
                "the gain has to be learnt (or set like log₂(n² − n)) for QK-norm to select."),
             N_("that QK-norm bounds the logits to [−g, g] — it replaces the √d_k argument rather than needing it — "
                "and that the gain then carries the scale."),
             preset={"d_k": 1024, "scaling": "qk_norm", "gain": 4.0}, panels=("histogram", "weights"),
             correct=1, lesson="qk_norm"),
    Question("fu_overflow", "follow-ups", N_("What the stable softmax is for"),
             N_("Raw logits at d_k = 512 evaluated in float16 with the naive softmax exp(z)/Σexp(z), no max "
                "subtracted. What comes out?"),
             "choice", (N_("Most rows are NaN: exp overflows float16"), N_("The same weights as the stable softmax"),
                        N_("Finite weights that sum to less than one"), N_("Uniform rows")), _overflow,
             N_("NaN rows: float16 holds the logits themselves (its largest value is 65,504), but exp(z) overflows "
                "once z > ln 65,504 ≈ 11.1; the largest logits are far above that, so exp returns inf and inf/inf "
                "is NaN. Subtracting the row maximum keeps every exponent ≤ 0 — it fixes exactly this, and not "
                "saturation."),
             N_("that you know what max-subtraction is for (range), why it is free (softmax is shift-invariant) "
                "and why it is not the reason for ÷√d_k."),
             preset={"d_k": 512, "scaling": "none", "softmax": "naive", "dtype": "float16"}, panels=("weights",),
             correct=0, lesson="stable_softmax"),
    Question("fu_mup", "follow-ups", N_("μP divides by d_k"),
             N_("μP scales attention by 1/d_k instead of 1/√d_k. With random, independent q and k at d_k = 4096 "
                "(initialisation), what do the rows look like?"),
             "choice", (N_("Saturated"), N_("Nearly uniform: σ = 1/√d_k"), N_("The same as ÷√d_k"),
                        N_("Rows sum to 1/d_k")),
             _mup,
             N_("Nearly uniform at initialisation (σ = 1/√4096 = 1/64). μP's argument is about training: once q and "
                "k align, q·k grows like d_k rather than √d_k, and 1/d_k keeps trained logits at a width-independent "
                "size."),
             N_("that you know which regime each scale is derived for: √d_k for independent vectors at "
                "initialisation, d_k for aligned vectors in training."),
             preset={"d_k": 4096, "scaling": "dk"}, panels=("histogram", "summary"), correct=1, lesson="mup"),
    Question("fu_long_context", "follow-ups", N_("Long context: dilution and its cure"),
             N_("n = 16,384 keys, d_k = 64. Rank the three scalings by the median row's largest weight, largest "
                "first."),
             "ranking", tuple(_LONG_NAMES[s] for s in LONG_RANKED), _long,
             N_("× log₆₄ n, then ÷√d_k, then ÷√n. With ÷√d_k, σ stays 1 while n grows, so the weights dilute "
                "towards 1/n; ÷√n makes it far worse; multiplying the ÷√d_k logits by log n (Qwen's logn attention, "
                "scalable-softmax) sharpens them as n grows: their largest weight still falls at first, then levels "
                "off from a few thousand keys on."),
             N_("that you know ÷√d_k fixes the width problem and not the length problem, and what is done about "
                "length."),
             preset={"d_k": 64, "keys": 16384, "queries": 64, "scaling": "log_n"}, panels=("weights", "summary"),
             correct=(2, 0, 1), lesson="long_context"),
    Question("fu_precision", "follow-ups", N_("Low precision"),
             N_("Logits rounded to bfloat16 at d_k = 1024. Which has the larger relative error in its weights: raw "
                "logits or ÷√d_k logits?"),
             "choice", (N_("Raw: rounding errors grow with |z|"), N_("÷√d_k: smaller numbers lose more"),
                        N_("The same")),
             _precision,
             N_("Raw. bfloat16 keeps 8 significand bits (7 stored mantissa bits), so rounding a logit moves it by "
                "up to |z|·2⁻⁸ — and an error δ in a logit is a relative error δ in its weight. Logits of size 30 "
                "carry errors of up to ~0.1; of size 1, ~0.004."),
             N_("that the scale also keeps low precision accurate: a rounded logit errs in proportion to its size, "
                "and even a fused kernel's logit errors grow with the spread √d_k."),
             preset={"d_k": 1024, "scaling": "none", "dtype": "bfloat16"}, panels=("weights", "summary"),
             correct=0, lesson="precision"),
    Question("fu_fold", "follow-ups", N_("Fold the scale into W_Q's initialisation?"),
             N_("Instead of ÷√d_k in the forward pass, divide W_Q's initial values by √d_k (d_k = {d_k}). The "
                "logits at "
                "initialisation are identical. One SGD step of the same learning rate: how many times more does "
                "the update of W_Q move the logits in the folded form?"),
             "number", (), _fold,
             N_("d_k = {d_k} times more (Adam: √d_k = {root} times more). Explicitly, ∂L/∂W_Q carries the factor "
                "1/√d_k and the logits feel W_Q through it again: c² = 1/d_k. Folded, neither factor is there. Same "
                "function at initialisation, a different optimisation: the learning rate for W_Q would have to be "
                "retuned."),
             N_("that you know a parametrisation is more than its initial function — the gradient and step sizes "
                "depend on where the constant sits (μP's whole point)."),
             preset={"d_k": 64, "scaling": "sqrt_dk"}, panels=("gradient",), band=_FOLDS[0].band, unit="×",
             lesson="interview", variants=_FOLDS),
    Question("fu_backward", "follow-ups", N_("The backward pass through the scale"),
             N_("z = q·k/√d_k, so ∂z/∂q = k/√d_k. At d_k = 16, how does the median raw gradient ‖∂L/∂q‖ compare "
                "with the ÷√d_k one for the same vectors?"),
             "choice", (N_("Less than 4× larger"), N_("About 4× larger: just the chain rule's √16"),
                        N_("More than 4× larger")), _backward,
             N_("More than 4×: the chain rule alone gives √16 = 4, and raw logits at σ = 4 also sit at softmax's most "
                "responsive spread (a larger ‖J‖ than at σ = 1). At large d_k the raw softmax saturates and the "
                "ordering flips: the scale costs a factor √d_k in the backward pass and buys the softmax's response."),
             N_("that you can push the scale through the backward pass — it multiplies ∂L/∂q and ∂L/∂k by 1/√d_k — "
                "and weigh that against what it does to J."),
             preset={"d_k": 16, "scaling": "sqrt_dk"}, panels=("jacobian", "gradient"), correct=2,
             lesson="interview"),
    Question("fu_init", "follow-ups", N_("PyTorch's default initialisation"),
             N_("q = x W_Q and k = y W_K: x and y have d_model = 512 entries of variance 1, and W_Q, W_K keep "
                "PyTorch's default nn.Linear initialisation (uniform, variance 1/(3 · 512)). What is σ of the raw "
                "logit q·k at d_k = {d_k}?"),
             "number", (), _init,
             N_("√{d_k}/3 ≈ {value}. Each q entry sums 512 products of variance 1/(3 · 512), so its variance is 1/3, "
                "and so is each k entry's: Var(q·k) = d_k σ_q² σ_k² = d_k/9, and σ = √d_k/3. It is part of why "
                "small heads train without the scale, and why large ones do not."),
             N_("that you carry Var(q·k) = d_k σ_q² σ_k² through a real initialisation instead of assuming "
                "unit-variance q and k."),
             preset={"d_k": 64, "scaling": "none", "q_std": _THIRD, "k_std": _THIRD}, panels=("histogram", "summary"),
             band=_INITS[0].band, lesson="interview", variants=_INITS),
)
