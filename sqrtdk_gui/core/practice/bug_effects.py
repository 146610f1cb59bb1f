"""What each bug card's faulty line does to the model, measured (numpy only).

A card's ``consequence(p, card)`` returns the readings its reveal shows and the faulty line's
index when the sample bears its answer out (None otherwise). Every card also shows the
downstream effect, :func:`downstream`: how far the attention output moves from what the
correct scale gives — the measure the public fixes reported (cosine similarity, PCC).
"""

from __future__ import annotations

import math

import numpy as np

from sqrtdk_gui.core.attention.dense import VALUE_DIM
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.attention.sampling import pool
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.lesson.measure import RAW, SCALED, fmt, med, run
from sqrtdk_gui.core.practice.model import Measured, Reading
from sqrtdk_gui.core.practice.traps import row_sums, uniform_ratio

__all__ = ["NEAR_UNIFORM", "SELECTIVE", "HEADS_CLIP", "MLA_WIDTH", "output_similarity", "downstream",
           "width", "after", "length", "missing", "shrunk", "amplified", "unscaled", "heads", "latent"]

NEAR_UNIFORM = 3.0  # ÷√d_model rows: the median row's largest weight stays below 3/n ...
SELECTIVE = 5.0  # ... where ÷√d_k's is above 5/n (n = 64 keys)
HEADS_CLIP = 12  # CLIP ViT-B/32's vision encoder: 12 heads of width 64
MLA_WIDTH = 576  # absorbed MLA: 512 latent + 64 rotary dimensions per head


def width(p: Params, card: int) -> Measured:
    bad, good = uniform_ratio(p), uniform_ratio(p.replace(scaling=SCALED))
    r = run(p)
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3),
                             f"√(d_k/d_model) = 1/√{p.heads} = {1 / math.sqrt(p.heads):.3f}"),
                     Reading(_("median largest weight"), f"{bad:.2f} / n",
                             _("uniform: 1 / n, n = {n}").format(n=p.keys)),
                     Reading(_("median largest weight after the fix (÷√d_k)"), f"{good:.2f} / n")),
                    card if bad < NEAR_UNIFORM and good > SELECTIVE else None)


def after(p: Params, card: int) -> Measured:
    r, total, reading = row_sums(p)
    return Measured((reading,
                     Reading(_("rows saturated (max p > 0.99)"), f"{100 * r.saturated_fraction:.0f} %",
                             _("after the fix: {value}").format(
                                 value=f"{100 * run(p, scaling=SCALED).saturated_fraction:.0f} %"))),
                    card if abs(total * math.sqrt(p.d_k) - 1) < 1e-6 else None)


def length(p: Params, card: int) -> Measured:
    r = run(p)
    bad, good = uniform_ratio(p), uniform_ratio(p.replace(scaling=SCALED))
    ok = abs(r.logit_std - math.sqrt(p.d_k / p.keys)) < 0.05 and bad < good
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3), f"√(d_k/n) = {math.sqrt(p.d_k / p.keys):.3f}"),
                     Reading(_("median largest weight"), f"{bad:.2f} / n", f"n = {p.keys}"),
                     Reading(_("after the fix (÷√d_k)"), f"{good:.2f} / n")), card if ok else None)


def missing(p: Params, card: int) -> Measured:
    r, fixed = run(p, scaling=RAW), run(p, scaling=SCALED)
    top = med(r, "max_weight")
    return Measured((Reading(_("median largest weight"), fmt(top, 3),
                             _("after the fix: {value}").format(value=fmt(med(fixed, "max_weight"), 3))),
                     Reading(_("rows saturated (max p > 0.99)"), f"{100 * r.saturated_fraction:.0f} %"),
                     Reading(_("median ‖J‖_F"), fmt(med(r, "jacobian_fro"), 4),
                             _("after the fix: {value}").format(value=fmt(med(fixed, "jacobian_fro"), 3)))),
                    card if top > 0.9 and r.saturated_fraction > 0.3 else None)


def shrunk(p: Params, card: int) -> Measured:
    r = run(p)
    bad, good = uniform_ratio(p), uniform_ratio(p.replace(scaling=SCALED))
    expected = 1 / math.sqrt(p.d_k)
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3), f"√d_k / d_k = 1/√{p.d_k} = {expected:.3f}"),
                     Reading(_("median largest weight"), f"{bad:.2f} / n",
                             _("uniform: 1 / n, n = {n}").format(n=p.keys)),
                     Reading(_("median largest weight after the fix (÷√d_k)"), f"{good:.2f} / n")),
                    card if abs(r.logit_std / expected - 1) < 0.1 and bad < NEAR_UNIFORM and good > SELECTIVE
                    else None)


def amplified(p: Params, card: int) -> Measured:
    """The logits multiplied by √d_k (the panels: raw logits at temperature 1/√d_k)."""
    r, fixed = run(p), run(p.replace(scaling=SCALED, temperature=1.0))
    top = med(r, "max_weight")
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3), f"√d_k · √d_k = d_k = {p.d_k}"),
                     Reading(_("median largest weight"), fmt(top, 3),
                             _("after the fix: {value}").format(value=fmt(med(fixed, "max_weight"), 3))),
                     Reading(_("rows saturated (max p > 0.99)"), f"{100 * r.saturated_fraction:.0f} %"),
                     Reading(_("median ‖J‖_F"), fmt(med(r, "jacobian_fro"), 4),
                             _("after the fix: {value}").format(value=fmt(med(fixed, "jacobian_fro"), 3)))),
                    card if abs(r.logit_std / p.d_k - 1) < 0.1 and top > 0.99 and r.saturated_fraction > 0.5
                    else None)


def unscaled(p: Params, card: int) -> Measured:
    r, fixed = run(p, scaling=RAW), run(p, scaling=SCALED)
    top, good = med(r, "max_weight"), med(fixed, "max_weight")
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3), f"√d_k = {math.sqrt(p.d_k):g}"),
                     Reading(_("median largest weight"), fmt(top, 3),
                             _("after the fix: {value}").format(value=fmt(good, 3))),
                     Reading(_("median ‖J‖_F"), fmt(med(r, "jacobian_fro"), 4),
                             _("after the fix: {value}").format(value=fmt(med(fixed, "jacobian_fro"), 3)))),
                    card if top > 0.7 and good < 0.2 else None)


def heads(p: Params, card: int) -> Measured:
    """÷√h instead of ÷√d_k (the panels: raw logits at temperature √h, h = ``HEADS_CLIP``)."""
    # Its rows are peakier yet still responsive (‖J‖ is larger than at σ = 1): the harm is a
    # mismatch with weights trained at ÷√d_k, so the reveal shows the spread and the peaks.
    r = run(p)
    bad, good = uniform_ratio(p), uniform_ratio(p.replace(scaling=SCALED, temperature=1.0))
    expected = math.sqrt(p.d_k / HEADS_CLIP)
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3),
                             f"√d_k / √{HEADS_CLIP} = {expected:.2f}"),
                     Reading(_("median largest weight"), f"{bad:.1f} / n",
                             _("after the fix: {value}").format(value=f"{good:.1f} / n"))),
                    card if abs(r.logit_std / expected - 1) < 0.1 and bad > 2 * good else None)


def latent(p: Params, card: int) -> Measured:
    """÷√(latent width) instead of ÷√d_k in absorbed MLA (the panels: ÷√d_k at temperature
    √(MLA_WIDTH / d_k))."""
    # The absorbed product q_latent · c_kv equals q · k over the d_k = 256 original dimensions,
    # so its spread is √d_k; dividing by √576 leaves σ = √(256/576) = 2/3.
    r = run(p)
    bad, good = uniform_ratio(p), uniform_ratio(p.replace(temperature=1.0))
    expected = math.sqrt(p.d_k / MLA_WIDTH)
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3), f"√({p.d_k}/{MLA_WIDTH}) = {expected:.3f}"),
                     Reading(_("median largest weight"), f"{bad:.2f} / n",
                             _("after the fix: {value}").format(value=f"{good:.2f} / n"))),
                    card if abs(r.logit_std / expected - 1) < 0.1 and good > 1.1 * bad else None)


def output_similarity(bug: Result, fix: Result) -> np.ndarray:
    """Per row, the cosine similarity of the attention output Σⱼ wⱼ vⱼ under the faulty scale
    to the output under ÷√d_k, for the model's own values V (both Results share q, k, V)."""
    values = pool(bug.params.seed, "v", bug.params.keys, VALUE_DIM)
    rows = min(bug.shown_rows, fix.shown_rows)
    out_bug = np.nan_to_num(bug.weights[:rows]) @ values
    out_fix = fix.weights[:rows] @ values
    dot = np.einsum("ij,ij->i", out_bug, out_fix)
    norms = np.linalg.norm(out_bug, axis=1) * np.linalg.norm(out_fix, axis=1)
    similarity: np.ndarray = np.divide(dot, norms, out=np.zeros_like(dot), where=norms > 0)
    return similarity


def downstream(p: Params) -> Reading:
    """The median row's output similarity to the correct attention (the fix: ÷√d_k, τ = 1)."""
    similarity = output_similarity(run(p), run(p, scaling=SCALED, temperature=1.0))
    return Reading(_("output against the fix's (cosine, median row)"),
                   f"{float(np.median(similarity)):.3f}",
                   _("10 % of rows below {value}").format(value=f"{float(np.percentile(similarity, 10)):.3f}"))
