"""The numbers each trap and follow-up shows beside its explanation (pure, numpy only).

Every value comes from ``model.compute`` or ``model.sweep`` for the current parameters (one
seed: the table says "for these parameters"); the lesson *texts* quote ranges over seeds
from ``lesson.figures`` instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sqrtdk_gui.core.attention import sigma_dial
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.sweep import sweep
from sqrtdk_gui.core.lesson.figures import fused_kernel_error, logn_factor
from sqrtdk_gui.core.training import folding

__all__ = ["Evidence", "evidence", "small_heads_gap", "aligned_gap", "aligned_share", "jacobian_fro_of",
           "logn_factor", "LONG_CONTEXT_KEYS", "PRECISION_TYPES", "PRECISION_DKS"]


@dataclass(frozen=True)
class Evidence:
    """A small table (and optionally a chart of y against d_k) for one scenario."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    chart: tuple[np.ndarray, np.ndarray] | None = None
    chart_label: str = ""


def _fmt(x: float, digits: int = 2) -> str:
    if math.isnan(x):
        return "NaN"
    if not math.isfinite(x):
        return "overflow"
    if x != 0 and (abs(x) < 10 ** -digits or abs(x) >= 1e5):
        mantissa, exponent = f"{x:.1e}".split("e")
        return f"{mantissa}e{int(exponent)}"  # 3.5e-3: narrow table columns
    return f"{x:.{digits}f}"


def _dmodel(p: Params) -> Evidence:
    rows = []
    for h in (1, 2, 4, 8, 16):
        r = compute(p.replace(heads=h, scaling="sqrt_dmodel"))
        rows.append((str(h), str(h * p.d_k), _fmt(r.logit_std),
                     f"{_fmt(r.summary['entropy'].median)} / {_fmt(r.log_n)}"))
    return Evidence(("heads h", "d_model", "σ", "entropy / log n"), tuple(rows))


def _after_softmax(p: Params) -> Evidence:
    rows = []
    for d in (4, 16, 64, 256, 1024):
        after = compute(p.replace(d_k=d, scaling="after_softmax"))
        rows.append((str(d), _fmt(float(np.median(after.row_sums)), 4), _fmt(1 / math.sqrt(d), 4),
                     f"{100 * after.saturated_fraction:.0f} %"))
    return Evidence(("d_k", "row sum", "1/√d_k", "saturated"), tuple(rows))


def jacobian_fro_of(w: np.ndarray) -> np.ndarray:
    """‖diag(w) − w wᵀ‖_F of each row of evaluated weights, in float64 without cancellation.

    Split at each row's top weight M as ``softmax_math.row_stats`` does: the top diagonal term
    (w_M − w_M²)², the other diagonal terms, and the cross terms 2 w_M² S2 + (S2² − S4) with
    S2, S4 over the other weights, so a nearly one-hot row does not come out as rounding noise.
    """
    w = np.asarray(w, dtype=np.float64)
    rows = np.arange(w.shape[0])
    top = np.argmax(w, axis=1)
    w_top = w[rows, top]
    other = w.copy()
    other[rows, top] = 0.0
    s2 = np.square(other).sum(axis=1)
    s4 = np.square(np.square(other)).sum(axis=1)
    fro_sq = (np.square(w_top - w_top * w_top) + np.square(other - other * other).sum(axis=1)
              + 2.0 * w_top * w_top * s2 + np.maximum(s2 * s2 - s4, 0.0))
    return np.sqrt(fro_sq)


def _stable_softmax(p: Params) -> Evidence:
    """What each program returns: its NaN rows, and statistics of the weights it produced."""
    rows = []
    for dtype in ("float16", "float32"):
        results = {v: compute(p.replace(softmax=v, dtype=dtype)) for v in ("naive", "stable")}
        stable_w = results["stable"].weights.astype(np.float64)
        for variant in ("naive", "stable"):
            w = results[variant].weights.astype(np.float64)
            finite = np.isfinite(w).all(axis=1)
            if finite.any():
                stats = (_fmt(float(np.median(w[finite].max(axis=1))), 3),
                         _fmt(float(np.median(jacobian_fro_of(w[finite])))))
            else:
                stats = ("NaN", "NaN")  # no row came out as numbers
            if variant == "naive":
                both = finite & np.isfinite(stable_w).all(axis=1)
                diff = _fmt(float(np.max(np.abs(w[both] - stable_w[both]))), 1) if both.any() else "NaN"
            else:
                diff = "—"
            rows.append((f"{variant} {dtype.replace('float', 'f')}", str(int(np.sum(~finite))), *stats, diff))
    m = p.queries
    return Evidence(("softmax", f"NaN rows (of {m})", "max p", "‖J‖", "|Δ| to stable"), tuple(rows))


def _seq_len(p: Params) -> Evidence:
    """σ under ÷√d_k and ÷√n, and how thin the top weight gets as n grows (÷√d_k, then × log n)."""
    rows = []
    for n in (16, 64, 256, 1024):
        q = p.replace(keys=n, temperature=1.0)
        scaled = compute(q.replace(scaling="sqrt_dk"))
        # Multiplying the logits by log_64 n is a temperature of 1 / log_64 n: no new scaling mode.
        logn = compute(q.replace(scaling="sqrt_dk", temperature=1.0 / logn_factor(n)))
        rows.append((str(n), _fmt(scaled.logit_std), _fmt(compute(q.replace(scaling="seq_len")).logit_std),
                     _fmt(scaled.summary["max_weight"].median, 3), _fmt(logn.summary["max_weight"].median, 3)))
    return Evidence(("keys n", "σ ÷√d_k", "σ ÷√n", "max p ÷√d_k", "max p × log₆₄ n"), tuple(rows))


def small_heads_gap(p: Params) -> tuple[np.ndarray, np.ndarray]:
    """d_k grid and median ‖J‖_F with ÷√d_k divided by that without scaling."""
    raw = sweep(p.replace(scaling="none"))
    scaled = sweep(p.replace(scaling="sqrt_dk"))
    ratio = scaled.stat("jacobian_fro", "median") / np.maximum(raw.stat("jacobian_fro", "median"), 1e-300)
    return raw.d_k.astype(float), ratio


def _small_heads(p: Params) -> Evidence:
    d_ks, ratio = small_heads_gap(p)
    rows = []
    for d in (2, 8, 32, 64, 512, 4096):
        i = int(np.flatnonzero(d_ks == d)[0])
        raw = compute(p.replace(d_k=d, scaling="none"))
        ahead = "raw" if ratio[i] < 1.0 else "÷√d_k"
        rows.append((str(d), _fmt(raw.logit_std), f"{100 * raw.saturated_fraction:.0f} %",
                     f"{_fmt(ratio[i])}×", ahead))
    return Evidence(("d_k", "σ raw", "saturated", "‖J‖ ÷√d_k / raw", "more responsive"), tuple(rows),
                    chart=(d_ks, ratio), chart_label="median ‖J‖_F ratio (< 1: raw ahead)")


def _temperature(p: Params) -> Evidence:
    """The current τ at several head sizes: one effective σ = √d_k · scale / τ decides everything."""
    rows = []
    for d in (4, 64, 1024, 4096):
        r = compute(p.replace(d_k=d, scaling="none"))
        rows.append((str(d), _fmt(r.theory_std), _fmt(r.summary["max_weight"].median, 3),
                     _fmt(r.summary["jacobian_fro"].median, 3), f"{100 * r.saturated_fraction:.0f} %"))
    return Evidence((f"d_k (τ={p.temperature:g})", "σ = √d_k/τ", "max p", "‖J‖", "saturated"), tuple(rows))


def aligned_share(result) -> float:
    """Share of rows whose largest logit is the key the query leans towards (key i mod n)."""
    m, n = result.logits.shape
    return float(np.mean(np.argmax(result.logits, axis=1) == np.arange(m) % n))


def _qk_norm(p: Params) -> Evidence:
    """Fixed gain g at several head sizes: independent q, k (σ = g/√d_k), then aligned (ρ = 0.9)."""
    rows = []
    for d in (16, 64, 256, 1024):
        q = p.replace(d_k=d, scaling="qk_norm", alignment=0.0)
        r, aligned = compute(q), compute(q.replace(alignment=0.9))
        rows.append((str(d), _fmt(r.logit_std), _fmt(r.summary["max_weight"].median, 3),
                     _fmt(aligned.summary["max_weight"].median, 3), f"{100 * aligned_share(aligned):.0f} %"))
    return Evidence((f"d_k (g={p.gain:g})", "σ", "max p", "max p, ρ=0.9", "right key, ρ=0.9"), tuple(rows))


def aligned_gap(result) -> float:
    """Median over queries of (logit of the key the query leans towards) − (mean other logit)."""
    z = result.logits
    m, n = z.shape
    target = np.arange(m) % n  # the model aligns query i with key i mod n
    own = z[np.arange(m), target]
    others = (z.sum(axis=1) - own) / (n - 1)
    return float(np.median(own - others))


def _mup(p: Params) -> Evidence:
    """÷√d_k, plain ÷d_k and microsoft/mup's 8/d_k at the current alignment ρ (temperature 1)."""
    rows = []
    rho = p.alignment
    for d in (64, 256, 1024, 4096):
        q = p.replace(d_k=d, temperature=1.0)
        sqrt_dk, dk = compute(q.replace(scaling="sqrt_dk")), compute(q.replace(scaling="dk"))
        mup8 = compute(q.replace(scaling="dk", temperature=0.125))
        rows.append((str(d), _fmt(sqrt_dk.summary["max_weight"].median, 3), _fmt(dk.summary["max_weight"].median, 3),
                     _fmt(mup8.summary["max_weight"].median, 3), f"{100 * aligned_share(sqrt_dk):.0f} %"))
    # A positive scale never changes which key is largest: one "right key" column serves all three.
    return Evidence((f"d_k (ρ={rho:g})", "max p ÷√d_k", "max p ÷d_k", "max p 8/d_k", "right key"), tuple(rows))


# --- the σ dial, low precision, long context --------------------------------------------

def _sigma_dial(p: Params) -> Evidence:
    """The dial's medians at a few σ for the current n; raw logits reach σ at d_k = σ²."""
    c = sigma_dial.curves(p.keys)
    rows = []
    for sigma in (0.25, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0):
        raw_dk = sigma * sigma  # unit q, k entries, τ = 1: raw σ = √d_k
        rows.append((f"{sigma:g}", _fmt(c.at("max_weight", sigma), 3), _fmt(c.at("entropy_ratio", sigma)),
                     _fmt(c.at("jacobian_fro", sigma), 3), f"{raw_dk:g}" if raw_dk >= 1 else "–"))
    return Evidence(("σ", "max p", "H / log n", "‖J‖_F", "raw at d_k"), tuple(rows))


def _percent(x: float) -> str:
    if not math.isfinite(x):
        return "overflow"
    v = 100 * x
    return f"{v:.0f} %" if v >= 10 else (f"{v:.2g} %" if v >= 0.01 else "< 0.01 %")


PRECISION_TYPES = ("bfloat16", "float8_e4m3fn")
PRECISION_DKS = (4, 64, 256, 1024, 4096)
_SHORT = {"bfloat16": "bf16", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2"}


def _precision(p: Params) -> Evidence:
    """Weight error against float64 versus d_k: raw and ÷√d_k, with bfloat16 or float8 E4M3
    logits (an unfused pipeline), and in a bfloat16 fused kernel (q, k, p rounded).

    Each row's largest relative error over its weights >= 0.1/n, 90th percentile over rows.
    """
    rows = []
    base = Params(seed=p.seed, temperature=p.temperature)  # the kernel model: independent q, k
    for d in PRECISION_DKS:
        cells = [str(d)]
        for name in PRECISION_TYPES:
            for scaling in ("none", "sqrt_dk"):
                r = compute(p.replace(d_k=d, dtype=name, scaling=scaling))
                cells.append(_percent(r.rel_error_summary.p90))
        cells += [_percent(fused_kernel_error(base.replace(d_k=d), s)) for s in ("none", "sqrt_dk")]
        rows.append(tuple(cells))
    headers = ["d_k"] + [f"{_SHORT[n]} {lab}" for n in PRECISION_TYPES for lab in ("raw", "÷√d_k")]
    headers += ["kernel raw", "kernel ÷√d_k"]
    return Evidence(tuple(headers), tuple(rows))


LONG_CONTEXT_KEYS = (64, 1024, 16384, 131072)


def _long_context(p: Params) -> Evidence:
    """Dilution and its cures against n: entropy of ÷√d_k against log n; σ and the median
    largest weight for ÷√d_k (dilutes), ÷√n (the bug: goes uniform), × log₆₄ n (holds)."""
    rows = []
    for n in LONG_CONTEXT_KEYS:
        cells = [str(n)]
        for scaling in ("sqrt_dk", "seq_len", "log_n"):
            r = compute(p.replace(keys=n, scaling=scaling, queries=64))
            if scaling == "sqrt_dk":
                cells.append(f"{_fmt(r.summary['entropy'].median)} / {_fmt(r.log_n)}")
            cells.append(f"{r.logit_std:.2g} / {r.summary['max_weight'].median:.2g}")
        rows.append(tuple(cells))
    return Evidence(("n", "÷√d_k: H / log n", "÷√d_k: σ / max p", "÷√n: σ / max p", "× log₆₄ n: σ / max p"),
                    tuple(rows))


def _interview(p: Params) -> Evidence:
    """One step from the training lab's initialisation: ÷√d_k explicit or folded into W_Q."""
    rows = []
    for optimizer, name in (("sgd", "SGD"), ("adam", "Adam")):
        step = folding.one_step(p.d_k, optimizer, seed=p.seed)
        theory = "d_k" if optimizer == "sgd" else "√d_k"
        rows.append((f"{name}, W_Q", _fmt(step.explicit_q, 3), _fmt(step.folded_q, 3),
                     f"{step.ratio_q:.4g}× ({theory} = {folding.theory_ratio(p.d_k, optimizer):.4g})"))
        rows.append((f"{name}, W_K", _fmt(step.explicit_k, 3), _fmt(step.folded_k, 3), f"{step.ratio_k:.4g}×"))
    return Evidence(("one step of", "logits move: ÷√d_k", "folded into W_Q", "folded / ÷√d_k"), tuple(rows))


_BUILDERS = {
    "dmodel": _dmodel,
    "after_softmax": _after_softmax,
    "stable_softmax": _stable_softmax,
    "seq_len": _seq_len,
    "small_heads": _small_heads,
    "temperature": _temperature,
    "qk_norm": _qk_norm,
    "mup": _mup,
    "sigma_dial": _sigma_dial,
    "precision": _precision,
    "long_context": _long_context,
    "interview": _interview,
}


def evidence(key: str, params: Params) -> Evidence:
    """The table (and chart) of scenario ``key`` for the parameters it runs with."""
    return _BUILDERS[key](params)
