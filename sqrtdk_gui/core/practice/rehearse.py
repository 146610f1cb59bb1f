"""*Say it*: the answers an interviewer wants said aloud, against the clock, with a rubric.

Each rehearsal is a ``Question`` of kind "say": its options are the rubric's links (what a
complete answer connects), its ``answer`` the model answer in the words an interviewer wants,
its ``terms`` the words that show a link in a typed answer. ``said_links`` marks the links a
typed answer mentions — a word match, not a grade: the candidate ticks what they said. The
measurements beside the model answer are the chain's numbers in the item's case.
"""

from __future__ import annotations

import math
import re
import unicodedata

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _, format_number
from sqrtdk_gui.core.lesson.measure import RAW, SCALED, fmt, med, run
from sqrtdk_gui.core.practice.model import Measured, Question, Reading

__all__ = ["REHEARSALS", "said_links"]


def _all(q_links: int, holds: bool) -> tuple[int, ...] | None:
    return tuple(range(q_links)) if holds else None


def _chain(p: Params) -> Measured:
    raw, scaled = run(p, scaling=RAW), run(p, scaling=SCALED)
    top_raw, top_scaled = med(raw, "max_weight"), med(scaled, "max_weight")
    j_raw, j_scaled = med(raw, "jacobian_fro"), med(scaled, "jacobian_fro")
    root = math.sqrt(p.d_k)
    holds = abs(raw.logit_std / root - 1) < 0.2 and top_raw > 0.9 and j_raw < 0.2 * j_scaled
    return Measured((Reading(_("σ of the logits, raw"), fmt(raw.logit_std, 3),
                             _("theory √{d_k} = {value}").format(d_k=p.d_k, value=format_number(root, ".3g"))),
                     Reading(_("σ of the logits, ÷√d_k"), fmt(scaled.logit_std, 3), _("theory 1")),
                     Reading(_("median largest weight, raw"), fmt(top_raw, 3), f"÷√d_k: {fmt(top_scaled, 3)}"),
                     Reading(_("median ‖J‖_F, raw"), fmt(j_raw, 3), f"÷√d_k: {fmt(j_scaled, 3)}"),
                     Reading(_("rows with max p > 0.99 (saturated)"), f"{100 * raw.saturated_fraction:.0f} %",
                             f"÷√d_k: {100 * scaled.saturated_fraction:.0f} %")), _all(8, holds))


def _temperature(p: Params) -> Measured:
    r = run(p)
    expected = math.sqrt(p.d_k) / p.temperature
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3),
                             f"√d_k/τ = √{p.d_k}/{format_number(p.temperature)} = {format_number(expected, '.3g')}"),
                     Reading(_("median largest weight"), fmt(med(r, "max_weight"), 3),
                             f"÷√d_k, τ = 1: {fmt(med(run(p, scaling=SCALED, temperature=1.0), 'max_weight'), 3)}")),
                    _all(3, abs(r.logit_std / expected - 1) < 0.1))


def _qk_norm(p: Params) -> Measured:
    fixed, learnt = run(p), run(p, gain=12.0)
    top = med(fixed, "max_weight") * p.keys
    return Measured((Reading(_("σ of the logits, g = {gain}").format(gain=format_number(p.gain)),
                             fmt(fixed.logit_std, 3), f"g/√d_k = {format_number(p.gain / math.sqrt(p.d_k), '.3f')}"),
                     Reading(_("median largest weight, g = {gain}").format(gain=format_number(p.gain)),
                             f"{top:.2f} / n", f"n = {p.keys}"),
                     Reading(_("median largest weight, g = {gain}").format(gain=12),
                             f"{med(learnt, 'max_weight') * p.keys:.2f} / n")), _all(4, top < 2.0))


def _stable(p: Params) -> Measured:
    stable, scaled = run(p, softmax="stable"), run(p, scaling=SCALED, softmax="stable")
    top = med(stable, "max_weight")
    return Measured((Reading(_("median largest weight, raw, max subtracted"), fmt(top, 3)),
                     Reading(_("rows with max p > 0.99 (saturated)"), f"{100 * stable.saturated_fraction:.0f} %"),
                     Reading(_("median largest weight, ÷√d_k"), fmt(med(scaled, "max_weight"), 3))),
                    _all(3, top > 0.9))


def _mup(p: Params) -> Measured:
    plain = med(run(p), "max_weight") * p.keys
    aligned, aligned_root = med(run(p, alignment=0.5), "max_weight"), med(run(p, scaling=SCALED, alignment=0.5),
                                                                          "max_weight")
    return Measured((Reading(_("median largest weight, ÷d_k, independent q, k"), f"{plain:.2f} / n", f"n = {p.keys}"),
                     Reading(_("median largest weight, aligned ρ = 0.5"), f"÷d_k: {fmt(aligned, 3)}",
                             f"÷√d_k: {fmt(aligned_root, 3)}")), _all(4, plain < 1.2 and aligned_root > aligned))


def _long(p: Params) -> Measured:
    tops = {s: med(run(p, scaling=s), "max_weight") for s in ("sqrt_dk", "seq_len", "log_n")}
    uniform = _("uniform: 1/n = {value}").format(value=format_number(1 / p.keys, ".2g"))
    names = {"sqrt_dk": "÷√d_k", "seq_len": "÷√n", "log_n": "÷√d_k × log₆₄ n"}
    return Measured(tuple(Reading(_("median largest weight, {scaling}").format(scaling=names[s]), f"{t:.2g}", uniform)
                          for s, t in tops.items()),
                    _all(4, tops["log_n"] > tops["sqrt_dk"] > tops["seq_len"]))


REHEARSALS = (
    Question("say_chain", "say", N_("The main question, out loud"),
             N_("“Why does scaled dot-product attention divide the logits by √d_k?” Answer as in an interview: "
                "the whole causal chain, in about 90 seconds."),
             "say",
             (N_("q·k is a sum of d_k products of independent entries"),
              N_("Var(q·k) = d_k·σ_q²·σ_k²: the variances add"),
              N_("so the logits' spread grows like √d_k (22.6 at d_k = 512)"),
              N_("wide logits saturate the softmax: largest weight → 1, entropy → 0"),
              N_("its Jacobian diag(p) − ppᵀ → 0"),
              N_("so almost no gradient reaches q and k (W_Q, W_K) for most rows"),
              N_("÷√d_k restores unit variance for every head size"),
              N_("the traps: the per-head d_k (not d_model), before the softmax; max-subtraction only prevents "
                 "overflow")),
             _chain,
             N_("A logit q·k is a sum of d_k products qᵢkᵢ. With independent entries of mean 0 and variances σ_q² "
                "and σ_k², the variances add: Var(q·k) = d_k·σ_q²·σ_k², so the spread grows like √d_k — about 22.6 "
                "at d_k = 512 for unit-variance entries. The softmax responds to the gaps between logits, so gaps "
                "that large make each row nearly one-hot: the largest weight goes to 1, the entropy to 0. Its "
                "Jacobian diag(p) − ppᵀ then goes to zero, so almost no gradient reaches q and k, and W_Q and W_K "
                "hardly learn — for most rows: look at the median, a few near-ties keep theirs. Dividing by √d_k "
                "restores unit variance for every head size, so the softmax stays responsive whatever d_k is. It "
                "is the per-head d_k, not d_model; it is applied before the softmax; and subtracting the maximum "
                "only prevents overflow — it does not undo saturation."),
             N_("that you connect the dimension, the variance of a dot product and the softmax Jacobian into one "
                "causal chain, rather than reciting “to keep gradients stable”."),
             preset={"d_k": 512, "scaling": "none"}, panels=("histogram", "jacobian", "summary"), lesson="step:1",
             limit=90,
             terms=(N_("sum|dot product|d_k products|d_k terms|Σ"), N_("variance|var(|σ²|add up|variances add"),
                    N_("√d_k|sqrt|square root|standard deviation|spread|grows"),
                    N_("saturat|one-hot|argmax|peaked|entropy"), N_("jacobian|diag(p)|derivative of the softmax|ppᵀ"),
                    N_("gradient|vanish|w_q|w_k|stop learning|do not learn"),
                    N_("unit variance|variance 1|variance of 1|σ = 1|every head|any d_k|head size"),
                    N_("d_model|per head|per-head|before the softmax|overflow|max-subtraction|subtracting the max"))),
    Question("say_temperature", "say", N_("The scale and a temperature"),
             N_("“How does ÷√d_k relate to a softmax temperature?” About 60 seconds."),
             "say",
             (N_("they multiply into one effective spread σ = c·√d_k/τ"),
              N_("c = σ_q·σ_k, the entries' scale (1 for unit-variance entries)"),
              N_("only that σ decides the softmax's regime; ÷√d_k makes it 1 for every d_k, so τ means the same "
                 "everywhere")),
             _temperature,
             N_("They are one knob. The logits' spread is σ = c·√d_k/τ, where c = σ_q·σ_k is the scale of the "
                "entries — 1 for unit-variance entries — and τ the temperature: only that product decides how sharp "
                "the rows are. Raw logits at d_k = 1024 with τ = 8 have σ = 4: sharp, not yet saturated over 64 "
                "keys. ÷√d_k is the choice that makes σ = 1 at every head size, so a temperature, or a learnt gain, "
                "means the same whatever d_k is."),
             N_("that you see the scale and a temperature as one effective σ, and can say what c is."),
             preset={"d_k": 1024, "scaling": "none", "temperature": 8.0}, panels=("histogram", "summary"),
             lesson="temperature", limit=60,
             terms=(N_("effective|multiply|product|one knob|same knob|c·√d_k/τ|/τ"),
                    N_("σ_q|entries' scale|scale of the entries|c =|c is"),
                    N_("every head|any d_k|every d_k|σ = 1|unit variance|regime"))),
    Question("say_qk_norm", "say", N_("QK-norm and the √d_k argument"),
             N_("“We use QK-norm. Do we still need ÷√d_k?” About 60 seconds."),
             "say",
             (N_("modern QK-norm: RMSNorm or LayerNorm on q and k, with ÷√d_k kept"),
              N_("the norm fixes the entries' scale, so training cannot blow the logits up (entropy collapse)"),
              N_("the cosine form: unit q and k, logits in [−g, g], a gain g instead of √d_k"),
              N_("random unit vectors' cosines spread only 1/√d_k: a small fixed gain leaves rows uniform, so g "
                 "is learnt or set large")),
             _qk_norm,
             N_("It depends on the form. Modern QK-norm (ViT-22B and the large language models that followed it) "
                "puts an RMSNorm or LayerNorm on q and k and keeps ÷√d_k: the norm fixes the entries' scale, so "
                "training cannot blow the logits up — it prevents attention-entropy collapse — and √d_k still "
                "accounts for the sum over d_k terms. The cosine form makes q and k unit vectors and multiplies "
                "their cosine by a gain g: the logits lie in [−g, g] and g takes the place of √d_k. Cosines of "
                "random unit vectors have spread 1/√d_k, so a small fixed gain — g = 4 at d_k = 1024 gives σ ≈ "
                "0.13 — leaves the rows nearly uniform: the gain is learnt, or set large."),
             N_("that you know both published forms, and that normalising q and k does not by itself remove the "
                "need for a scale."),
             preset={"d_k": 1024, "scaling": "qk_norm", "gain": 4.0}, panels=("histogram", "weights"),
             lesson="qk_norm", limit=60,
             terms=(N_("layernorm|rmsnorm|layer norm|rms norm|normalise q|normalize q|kept|keep"),
                    N_("scale of the entries|entries' scale|blow up|grow|entropy collapse|diverge"),
                    N_("cosine|unit vector|[−g, g]|[-g, g]|gain"),
                    N_("1/√d_k|uniform|learnt|learned|large gain"))),
    Question("say_stable_softmax", "say", N_("“Doesn't the stable softmax fix this?”"),
             N_("“Softmax implementations subtract the row's maximum. Doesn't that already fix wide logits?” "
                "About 60 seconds."),
             "say",
             (N_("softmax is shift-invariant: subtracting the maximum leaves the weights unchanged"),
              N_("it keeps every exponent ≤ 0, so exp cannot overflow (float16 from z ≈ 11.1)"),
              N_("the gaps stay: the saturation and the vanished Jacobian stay; ÷√d_k fixes the spread, "
                 "max-subtraction the range")),
             _stable,
             N_("No. The softmax is shift-invariant: subtracting the row's maximum from every logit leaves the "
                "weights exactly as they were. What it does is keep every exponent at or below 0, so exp cannot "
                "overflow — in float16 that happens from z ≈ 11.1 on. The gaps between the logits stay, and with "
                "them the saturation and the vanished Jacobian: max-subtraction fixes the range, ÷√d_k the spread."),
             N_("that you know what max-subtraction is for, why it is free, and why it is not the reason for "
                "÷√d_k."),
             preset={"d_k": 512, "scaling": "none"}, panels=("weights", "summary"), lesson="stable_softmax",
             limit=60,
             terms=(N_("shift|invariant|same weights|unchanged|constant"),
                    N_("overflow|inf|nan|float16|exponent"),
                    N_("gap|spread|saturat|range|still"))),
    Question("say_mup", "say", N_("μP divides by d_k"),
             N_("“μP divides the logits by d_k, not √d_k. Which is right?” About 60 seconds."),
             "say",
             (N_("√d_k is derived for independent q and k, at initialisation: q·k grows like √d_k"),
              N_("training aligns q and k, and then q·k grows like d_k"),
              N_("1/d_k keeps trained logits the same size at every width, so hyperparameters transfer"),
              N_("at initialisation 1/d_k gives σ = 1/√d_k: nearly uniform rows")),
             _mup,
             N_("Both, for different regimes. ÷√d_k is derived for independent q and k, as at initialisation, where "
                "q·k grows like √d_k. Once training aligns q with k, q·k grows like d_k, and μP's 1/d_k keeps the "
                "trained logits — and their updates — the same size at every width, so hyperparameters tuned on a "
                "small model transfer to a wide one. The price: at initialisation 1/d_k gives σ = 1/√d_k, nearly "
                "uniform rows; that is harmless, since learning makes them sharper."),
             N_("that you know which regime each scale is derived for, and what μP is for: transferring "
                "hyperparameters across widths."),
             preset={"d_k": 4096, "scaling": "dk"}, panels=("histogram", "summary"), lesson="mup",
             limit=60,
             terms=(N_("independent|initiali|random"), N_("align|correlat|training|trained"),
                    N_("transfer|hyperparameter|width|learning rate"), N_("uniform|1/√d_k|small"))),
    Question("say_long_context", "say", N_("Long context and the scale"),
             N_("“Should the scale depend on the sequence length?” About 60 seconds."),
             "say",
             (N_("÷√d_k fixes the width of one logit, which does not depend on n"),
              N_("what n changes is dilution: the largest weight falls towards 1/n"),
              N_("÷√n would make it far worse"),
              N_("a log n factor on top of ÷√d_k is one remedy (logn attention, scalable softmax), not the only "
                 "one")),
             _long,
             N_("Not ÷√d_k: it fixes the spread of a single logit, which depends on d_k, not on n. What grows with "
                "n is dilution: with σ fixed, each added key takes a share, and the largest weight falls towards "
                "1/n. Dividing by √n would make that far worse. One long-context technique multiplies the ÷√d_k "
                "logits by a log n factor (Qwen's logn attention, scalable softmax), which sharpens the rows as n "
                "grows; a learnt temperature or QK-norm's gain are others."),
             N_("that you keep width and length apart: √d_k for the first, and what is done about the second."),
             preset={"d_k": 64, "keys": 16384, "queries": 64, "scaling": "log_n"}, panels=("weights", "summary"),
             lesson="long_context", limit=60,
             terms=(N_("does not depend on n|not on n|independent of n|width|d_k"),
                    N_("dilut|1/n|spread out|flatter|uniform"), N_("√n|sqrt(n)|worse"),
                    N_("log n|logn|log(n)|scalable|temperature|one of"))),
)

_FOLD = {"sqrt(": "√", "sqrt ": "√", "square root of ": "√", "d_{k}": "d_k", "dk": "d_k",
         "d-k": "d_k", "−": "-", "·": "", "*": ""}


def _normal(text: str) -> str:
    """Lower case, compatibility forms folded, sqrt and dk spelled one way, spaces single."""
    text = unicodedata.normalize("NFKC", text).lower()
    for a, b in _FOLD.items():
        text = text.replace(a, b)
    return re.sub(r"\s+", " ", text)


def said_links(question: Question, typed: str) -> tuple[int, ...]:
    """The links of a rehearsal whose words a typed answer contains (the English words count
    in every language: candidates write the technical terms in English)."""
    text = _normal(typed)
    found = []
    for i, terms in enumerate(question.terms):
        words = {_normal(w).strip() for w in (*terms.split("|"), *_(terms).split("|"))}
        if any(w and w in text for w in words):
            found.append(i)
    return tuple(found)
