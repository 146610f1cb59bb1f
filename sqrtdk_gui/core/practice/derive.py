"""*Derive it*: the chain's formulas carried out step by step, each step checked.

A derivation is a ``Question`` of kind "derive" whose ``steps`` the candidate commits one at a
time — a value for given numbers, or the next line among close alternatives — and each step
is graded on the spot (``Step.grade``); a wrong step shows the right line, and the derivation
goes on from it. The finished derivation is then confirmed on the model: ``measure`` sets what
was derived beside what the model computes (a variance against the sampled logits, the
Jacobian against finite differences of the model's own softmax, a peak against a sweep).
"""

from __future__ import annotations

import math

import numpy as np

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.softmax import jacobian_matrix, softmax_evaluated
from sqrtdk_gui.core.i18n import N_, _, format_number
from sqrtdk_gui.core.lesson.measure import RAW, SCALED, fmt, med, run
from sqrtdk_gui.core.practice.model import Measured, Question, Reading, Step

__all__ = ["DERIVATIONS", "SIGMA_GRID", "peak_sigma"]


def _every(steps: tuple[Step, ...], holds: bool) -> tuple[int, ...] | None:
    return tuple(range(len(steps))) if holds else None


# --- Var(q·k) with σ_q ≠ σ_k -----------------------------------------------------------------
_VAR_STEPS = (
    Step(N_("One term qᵢkᵢ, with independent qᵢ ~ N(0, σ_q²) and kᵢ ~ N(0, σ_k²), σ_q = 2 and σ_k = 0.5: "
            "what is Var(qᵢkᵢ)?"), "number", band=(0.95, 1.05),
         line=N_("Var(qᵢkᵢ) = E[qᵢ²]·E[kᵢ²] = σ_q²·σ_k² = 4 · 0.25 = 1")),
    Step(N_("q·k sums d_k = 64 such terms, independent of each other. Var(q·k)?"), "number", band=(63.0, 65.0),
         line=N_("Var(q·k) = d_k·σ_q²·σ_k² = 64: variances of independent terms add")),
    Step(N_("So the logit's standard deviation σ is?"), "number", band=(7.8, 8.2),
         line=N_("σ = √d_k·σ_q·σ_k = 8")),
    Step(N_("Which division gives the logits σ = 1 for every head size, the entries' scale left to "
            "initialisation and normalisation?"), "choice",
         options=(N_("÷√d_k"), N_("÷d_k"), N_("÷(σ_q·σ_k)"), N_("÷√d_model")), correct=0,
         line=N_("÷√d_k: it removes the growth with d_k; σ_q·σ_k ≈ 1 is what initialisation and LayerNorm "
                 "keep")),
)


def _variance(p: Params) -> Measured:
    r = run(p)
    derived = math.sqrt(p.d_k) * p.q_std * p.k_std
    scaled = run(p, scaling=SCALED)
    return Measured((Reading(_("σ of the raw logits, derived"), format_number(derived, ".3g"),
                             f"√{p.d_k} · {format_number(p.q_std)} · {format_number(p.k_std)}"),
                     Reading(_("σ of the raw logits, sampled by the model"), fmt(r.logit_std, 3)),
                     Reading(_("σ after ÷√d_k, sampled"), fmt(scaled.logit_std, 3),
                             _("σ_q·σ_k = {value}").format(value=format_number(p.q_std * p.k_std)))),
                    _every(_VAR_STEPS, abs(r.logit_std / derived - 1) < 0.08))


# --- the softmax Jacobian ----------------------------------------------------------------------
_P = np.array([0.7, 0.2, 0.1])
_JAC_STEPS = (
    Step(N_("pᵢ = e^(zᵢ) / Σₖ e^(zₖ). What is ∂pᵢ/∂zⱼ?"), "choice",
         options=("pᵢ(δᵢⱼ − pⱼ)", "pᵢ·δᵢⱼ", "δᵢⱼ − pᵢpⱼ", "pᵢ − pⱼ"), correct=0,
         line=N_("∂pᵢ/∂zⱼ = pᵢ(δᵢⱼ − pⱼ), so J = diag(p) − ppᵀ")),
    Step(N_("p = (0.7, 0.2, 0.1). The diagonal entry J₁₁?"), "number", band=(0.205, 0.215),
         line=N_("J₁₁ = p₁(1 − p₁) = 0.7 · 0.3 = 0.21")),
    Step(N_("The entry J₁₂?"), "number", band=(-0.145, -0.135),
         line=N_("J₁₂ = −p₁p₂ = −0.14")),
    Step(N_("What does each row of J sum to?"), "number", band=(-0.005, 0.005),
         line=N_("Σⱼ Jᵢⱼ = pᵢ(1 − Σⱼ pⱼ) = 0: adding a constant to every logit changes nothing")),
    Step(N_("A saturated row, p ≈ (1, 0, …, 0). J ≈ ?"), "choice",
         options=(N_("0, every entry"), N_("the identity"), N_("−ppᵀ"), N_("diag(p)")), correct=0,
         line=N_("J ≈ 0: p₁(1 − p₁) ≈ 0 and every other entry carries a factor pⱼ ≈ 0")),
)


def _finite_difference_jacobian(p_row: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """∂p/∂z of the model's own softmax at the logits log p, by central differences."""
    z = np.log(p_row)
    columns = []
    for j in range(len(z)):
        step = np.zeros_like(z)
        step[j] = h
        up, _n = softmax_evaluated((z + step)[None, :], "stable", np.dtype(np.float64))
        down, _n = softmax_evaluated((z - step)[None, :], "stable", np.dtype(np.float64))
        columns.append((up[0] - down[0]) / (2 * h))
    return np.asarray(np.array(columns).T)


def _jacobian(p: Params) -> Measured:
    derived = jacobian_matrix(_P)
    error = float(np.max(np.abs(derived - _finite_difference_jacobian(_P))))
    j_raw, j_scaled = med(run(p, scaling=RAW), "jacobian_fro"), med(run(p, scaling=SCALED), "jacobian_fro")
    return Measured((Reading(_("J₁₁ and J₁₂ from diag(p) − ppᵀ"), f"{derived[0, 0]:.2f}, {derived[0, 1]:.2f}"),
                     Reading(_("largest gap to the model's softmax, finite differences"), f"{error:.0e}"),
                     Reading(_("median ‖J‖_F at d_k = {d_k}, raw").format(d_k=p.d_k), fmt(j_raw, 3),
                             f"÷√d_k: {fmt(j_scaled, 3)}")),
                    _every(_JAC_STEPS, error < 1e-6 and j_raw < 0.2 * j_scaled))


# --- the backward pass through the scale -------------------------------------------------------
_BACK_STEPS = (
    Step(N_("z = q·k / √d_k. What is ∂z/∂q?"), "choice", options=("k / √d_k", "k", "q / √d_k", "√d_k · k"),
         correct=0, line=N_("∂z/∂q = k / √d_k")),
    Step(N_("So the scale multiplies every gradient reaching q (and k) by what factor at d_k = 64?"), "number",
         band=(0.12, 0.13), line=N_("∂L/∂q = (1/√d_k) Σⱼ (∂L/∂zⱼ) kⱼ: a factor 1/8 = 0.125")),
    Step(N_("Without the scale at d_k = 2048, ∂L/∂q is nevertheless far smaller for most rows. Why?"), "choice",
         options=(N_("∂L/∂z = J·∂L/∂p, and J ≈ 0 on saturated rows: the missing 1/√d_k cannot make up "
                     "for it"),
                  N_("k is smaller without the scale"), N_("the loss is flat at initialisation"),
                  N_("the gradient is clipped")), correct=0,
         line=N_("∂L/∂z passes through J ≈ 0: saturation costs far more than the factor √d_k")),
)


def _backward(p: Params) -> Measured:
    rng = np.random.default_rng(p.seed)
    d_k, n = p.d_k, 8
    q, k, u = rng.standard_normal(d_k), rng.standard_normal((n, d_k)), rng.standard_normal(n)

    def loss(q_vec: np.ndarray) -> float:
        w, _n = softmax_evaluated((k @ q_vec / math.sqrt(d_k))[None, :], "stable", np.dtype(np.float64))
        return float(w[0] @ u)

    w, _n = softmax_evaluated((k @ q / math.sqrt(d_k))[None, :], "stable", np.dtype(np.float64))
    derived = (jacobian_matrix(w[0]) @ u) @ k / math.sqrt(d_k)  # J is symmetric
    h = 1e-6
    numeric = np.array([(loss(q + h * e) - loss(q - h * e)) / (2 * h) for e in np.eye(d_k)])
    gap = float(np.max(np.abs(derived - numeric)) / np.max(np.abs(numeric)))
    raw, scaled = med(run(p, scaling=RAW, d_k=2048), "grad_q"), med(run(p, scaling=SCALED, d_k=2048), "grad_q")
    return Measured((Reading(_("∂L/∂q derived against finite differences, largest relative gap"), f"{gap:.0e}",
                             _("d_k = {d_k}, {n} keys").format(d_k=d_k, n=n)),
                     Reading(_("median ‖∂L/∂q‖ at d_k = 2048: ÷√d_k over raw"), f"{scaled / raw:.3g}×")),
                    _every(_BACK_STEPS, gap < 1e-5 and scaled > 10 * raw))


# --- how saturated a row is --------------------------------------------------------------------
_GAP, _KEYS = 10.0, 64


def _p_max(gap: float, n: int = _KEYS) -> float:
    return 1.0 / (1.0 + (n - 1) * math.exp(-gap))


_SAT_STEPS = (
    Step(N_("n keys; one logit lies Δ above the other n − 1, which are equal. The largest weight is?"), "choice",
         options=("1 / (1 + (n − 1)·e^(−Δ))", "e^(Δ) / n", "1 − e^(−Δ)", "Δ / n"), correct=0,
         line=N_("p_max = e^(Δ) / (e^(Δ) + n − 1) = 1 / (1 + (n − 1)·e^(−Δ))")),
    Step(N_("n = 64 and Δ = 10 (raw logits at d_k = 512 have σ ≈ 22.6: such gaps are common). p_max?"), "number",
         band=(0.996, 0.998), line=N_("p_max = 1 / (1 + 63·e^(−10)) ≈ 0.997")),
    Step(N_("Its Jacobian's diagonal entry, p_max(1 − p_max)?"), "number", band=(0.0027, 0.0030),
         line=N_("p_max(1 − p_max) ≈ 0.0028: the row hardly responds")),
    Step(N_("With ÷√d_k the same gap is Δ = 10/√512 ≈ 0.44. p_max now?"), "number", band=(0.023, 0.025),
         line=N_("p_max = 1 / (1 + 63·e^(−0.44)) ≈ 0.024: the row stays responsive")),
)


def _saturation(p: Params) -> Measured:
    rows = []
    for gap in (_GAP, _GAP / math.sqrt(512)):
        z = np.zeros((1, _KEYS))
        z[0, 0] = gap
        w, _n = softmax_evaluated(z, "stable", np.dtype(np.float64))
        rows.append((gap, float(w[0, 0])))
    holds = all(abs(w - _p_max(gap)) < 1e-12 for gap, w in rows)
    return Measured(tuple(Reading(_("p_max for Δ = {gap}, the model's softmax").format(gap=format_number(gap, ".2g")),
                                  format_number(w, ".4g"), _("derived {value}").format(
                                      value=format_number(_p_max(gap), ".4g"))) for gap, w in rows)
                    + (Reading(_("median largest weight, raw logits at d_k = 512"),
                               fmt(med(run(p, scaling=RAW, d_k=512), "max_weight"), 3)),),
                    _every(_SAT_STEPS, holds))


# --- the σ that keeps J largest ----------------------------------------------------------------
SIGMA_GRID = (1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 8.0, 12.0)


def peak_sigma(p: Params) -> tuple[float, float]:
    """The σ of SIGMA_GRID with the largest median ‖J‖_F over ``p.keys`` keys, and that norm
    (÷√d_k logits at d_k = 64, their spread set by the temperature τ = 1/σ)."""
    norms = [med(run(p, scaling=SCALED, d_k=64, temperature=1.0 / s), "jacobian_fro") for s in SIGMA_GRID]
    best = int(np.argmax(norms))
    return SIGMA_GRID[best], norms[best]


_PEAK_STEPS = (
    Step(N_("A uniform row (σ = 0) of n = 64 keys: J = diag(1/n) − 11ᵀ/n². Its Frobenius norm ‖J‖_F?"), "number",
         band=(0.12, 0.128), line=N_("‖J‖_F = √(n − 1) / n = √63 / 64 ≈ 0.124")),
    Step(N_("As σ grows, how does the median ‖J‖_F of a row change?"), "choice",
         options=(N_("It rises, peaks, then falls towards 0 as rows saturate"), N_("It rises for ever"),
                  N_("It falls from σ = 0 on"), N_("It stays the same")), correct=0,
         line=N_("‖J‖_F rises from 0.124, peaks, then falls towards 0 as the rows saturate")),
    Step(N_("At which σ does it peak, for 64 keys?"), "number", band=(3.0, 5.5),
         line=N_("near σ ≈ 4–5 for 64 keys (the peak moves with log n)")),
    Step(N_("So where does ÷√d_k (σ = 1) put the softmax?"), "choice",
         options=(N_("Below the peak: responsive, and training can sharpen it"), N_("At the peak"),
                  N_("Past the peak, saturated"), N_("Where J = 0")), correct=0,
         line=N_("below the peak, on the responsive side: gradients flow and training can sharpen the rows")),
)


def _peak(p: Params) -> Measured:
    sigma, norm = peak_sigma(p)
    uniform = math.sqrt(p.keys - 1) / p.keys
    one = med(run(p, scaling=SCALED, d_k=64, temperature=1.0), "jacobian_fro")
    return Measured((Reading(_("‖J‖_F of a uniform row, derived"), format_number(uniform, ".3f"), f"n = {p.keys}"),
                     Reading(_("σ with the largest median ‖J‖_F, swept by the model"), format_number(sigma),
                             _("‖J‖_F = {value}").format(value=format_number(norm, ".3f"))),
                     Reading(_("median ‖J‖_F at σ = 1 (÷√d_k)"), format_number(one, ".3f"))),
                    _every(_PEAK_STEPS, 3.0 <= sigma <= 5.5 and one < norm))


DERIVATIONS = (
    Question("derive_variance", "derive", N_("Var(q·k) when σ_q ≠ σ_k"),
             N_("Derive the spread of a logit for entries that are not unit-variance."), "derive", (), _variance,
             N_("Var(q·k) = d_k·σ_q²·σ_k²: each product has variance σ_q²σ_k², and the d_k independent products "
                "add. ÷√d_k removes the growth with d_k; the entries' scale is set by initialisation and "
                "normalisation."),
             N_("that you can derive the variance of a dot product, not just quote “d_k”, and say where σ_q "
                "and σ_k go."),
             preset={"d_k": 64, "scaling": "none", "q_std": 2.0, "k_std": 0.5}, panels=("histogram", "summary"),
             lesson="step:1", steps=_VAR_STEPS),
    Question("derive_jacobian", "derive", N_("The softmax Jacobian"),
             N_("Derive J = diag(p) − ppᵀ and evaluate it."), "derive", (), _jacobian,
             N_("∂pᵢ/∂zⱼ = pᵢ(δᵢⱼ − pⱼ): J = diag(p) − ppᵀ. Its rows sum to 0 (softmax ignores a constant "
                "shift), and at a saturated row every entry is ≈ 0."),
             N_("that you can differentiate the softmax and evaluate the Jacobian where it matters: at a "
                "saturated row."),
             preset={"d_k": 512, "scaling": "none"}, panels=("jacobian",), lesson="step:3", steps=_JAC_STEPS),
    Question("derive_backward", "derive", N_("∂L/∂q through the scale"),
             N_("Push the gradient back through z = q·k/√d_k."), "derive", (), _backward,
             N_("∂z/∂q = k/√d_k, so the scale multiplies ∂L/∂q and ∂L/∂k by 1/√d_k. Without it the gradient "
                "is still far smaller at large d_k, because ∂L/∂z passes through J ≈ 0."),
             N_("that you can push the scale through the backward pass and weigh its factor against J."),
             preset={"d_k": 64, "scaling": "sqrt_dk"}, panels=("gradient",), lesson="interview",
             steps=_BACK_STEPS),
    Question("derive_saturation", "derive", N_("How saturated is a row?"),
             N_("Work out the largest weight of a row with one logit ahead of the rest."), "derive", (), _saturation,
             N_("p_max = 1/(1 + (n − 1)e^(−Δ)): a gap of 10 over 64 keys gives 0.997 and a diagonal Jacobian "
                "entry of 0.003; ÷√512 shrinks the gap to 0.44 and p_max to 0.024."),
             N_("that you can say how large a gap saturates a row, and why the spread √d_k produces such gaps."),
             preset={"d_k": 512, "scaling": "none"}, panels=("weights", "summary"), lesson="step:2",
             steps=_SAT_STEPS),
    Question("derive_peak", "derive", N_("The σ that keeps the softmax most responsive"),
             N_("Find where ‖J‖_F is largest for 64 keys."), "derive", (), _peak,
             N_("‖J‖_F starts at √(n − 1)/n for a uniform row, peaks near σ ≈ 4–5 for 64 keys and falls towards "
                "0 as rows saturate. ÷√d_k keeps σ = 1, below the peak: responsive, with room for training to "
                "sharpen."),
             N_("that you know the softmax has a responsive window, and where ÷√d_k puts it."),
             preset={"d_k": 64, "scaling": "sqrt_dk"}, panels=("jacobian", "summary"), lesson="sigma_dial",
             steps=_PEAK_STEPS),
)
