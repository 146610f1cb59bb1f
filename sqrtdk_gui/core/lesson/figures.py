"""Every measured number the lesson quotes, computed by the model over 32 seeds.

The lesson texts (``resources/lesson/*.html`` and the step questions and answers) contain
placeholders such as ``{step3_grad_ratio}``; :func:`fill` replaces each with :func:`quote`,
the range from the smallest to the largest value over seeds 0–31 ("47–66 %"), rounded outward
to two significant digits. A single seed is one random draw of queries and keys, and *New
sample* draws another: a range over 32 seeds holds about 31 new samples in 33, where a
min–max over 8 holds only 7 in 9. Heavy-tailed quantities (ratios that spread over more than
a factor of ten between seeds) are quoted in whole powers of ten ("10⁴–10⁷×"). When the sample
on screen still falls outside a range, :func:`sample_notes` says so.

Each ``Figure`` has a ``value(params)`` computed with ``model.compute`` / ``model.sweep`` for
the seed in ``params`` (all other parameters default: 256 queries, 64 keys). A value may be a
tuple (e.g. one entry per head size); the quoted range then covers all of them. Seeds 0–39 are
stored in ``figure_data`` (about a minute to compute; the tests recompute them).

Exact constants (√512 ≈ 22.6, log 64 ≈ 4.16, float16's overflow threshold 11.09) are not
seed-dependent and stay literal in the texts. Pure: numpy, stdlib and ``sqrtdk_gui.core``.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from sqrtdk_gui.core.attention import precision
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.sampling import pool
from sqrtdk_gui.core.attention.softmax import SATURATION
from sqrtdk_gui.core.attention.sweep import DK_GRID, sweep
from sqrtdk_gui.core.lesson import figure_data
from sqrtdk_gui.core.lesson.quoting import DASH, THIN, format_range, format_value

__all__ = ["SEEDS", "CHECK_SEEDS", "STORED_SEEDS", "Figure", "FIGURES", "FigureRange", "figure_values",
           "computed_values", "figure_range", "quote", "quote_bounds", "inside", "format_range", "fill",
           "placeholders", "PLACEHOLDER", "SampleNote", "sample_notes", "logn_factor", "fused_kernel_error",
           "DASH", "THIN"]

# Quoted ranges span seeds 0–31 (the smallest to the largest value, about a 3–97 % band);
# a test checks that at least 90 % of seeds 8–39, what "New sample" shows a class, fall inside.
SEEDS = tuple(range(32))
CHECK_SEEDS = tuple(range(8, 40))
STORED_SEEDS = tuple(range(40))
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


@dataclass(frozen=True)
class Figure:
    """One quoted quantity.

    ``kind``: "range" (plain numbers, scientific beyond 1e5 or below 1e-3), "percent"
    (values are fractions, quoted in %), "int" (exact integers such as grid head sizes),
    "decades" (powers of ten only). ``unit`` is appended ("×").
    """

    key: str
    description: str
    value: Callable[[Params], float | tuple[float, ...]]
    kind: str = "range"
    unit: str = ""
    digits: int = 2


FIGURES: dict[str, Figure] = {}


def _figure(key: str, description: str, kind: str = "range", unit: str = "", digits: int = 2):
    def register(fn):
        if key in FIGURES:
            raise ValueError(f"figure {key!r} registered twice")
        FIGURES[key] = Figure(key, description, fn, kind, unit, digits)
        return fn

    return register


# --- helpers ------------------------------------------------------------------------------
RAW, SCALED = "none", "sqrt_dk"
TARGET_ROWS = 256  # queries; query i leans towards key i mod n when alignment > 0


def _r(p: Params, **changes):
    return compute(p.replace(**changes))


def _med(result, name: str) -> float:
    return result.summary[name].median


def _aligned_key_share(result, only_saturated: bool = False) -> float:
    """Share of rows whose largest weight sits on the key the query leans towards."""
    m, n = result.logits.shape
    right = np.argmax(result.logits, axis=1) == np.arange(m) % n
    if only_saturated:
        sat = result.max_weight > SATURATION
        return float(np.mean(right[sat])) if sat.any() else float("nan")
    return float(np.mean(right))


def _grid(lo: int, hi: int) -> tuple[int, ...]:
    return tuple(d for d in DK_GRID if lo <= d <= hi)


def _sweep_median(p: Params, scaling: str, quantity: str, d_ks) -> np.ndarray:
    return sweep(p.replace(scaling=scaling), d_ks).stat(quantity, "median")


def _jac_ratio(p: Params, d_ks) -> np.ndarray:
    """Median ‖J‖_F with ÷√d_k divided by the raw one, per head size."""
    return (_sweep_median(p, SCALED, "jacobian_fro", d_ks)
            / _sweep_median(p, RAW, "jacobian_fro", d_ks))


def _grad_ratio(p: Params, d_k: int) -> float:
    return _med(_r(p, d_k=d_k, scaling=SCALED), "grad_q") / _med(_r(p, d_k=d_k, scaling=RAW), "grad_q")


# --- step 1 -------------------------------------------------------------------------------
@_figure("step1_sigma_512", "σ of the raw logits at d_k = 512 (theory √512 = 22.6)", digits=3)
def _(p):
    return _r(p, d_k=512, scaling=RAW).logit_std


# --- step 2 -------------------------------------------------------------------------------
@_figure("step2_top_gap", "median gap between a query's largest and second-largest raw logit, d_k = 512")
def _(p):
    z = np.sort(_r(p, d_k=512, scaling=RAW).logits, axis=1)
    return float(np.median(z[:, -1] - z[:, -2]))


@_figure("step2_rest", "median weight left to the other 63 keys (1 − max p), raw, d_k = 512", kind="percent")
def _(p):
    return float(np.median(1.0 - _r(p, d_k=512, scaling=RAW).max_weight))


@_figure("step2_saturated", "share of rows with max p > 0.99, raw, d_k = 512", kind="percent")
def _(p):
    return _r(p, d_k=512, scaling=RAW).saturated_fraction


@_figure("step2_entropy", "median entropy (nats), raw, d_k = 512 (ceiling log 64 = 4.16)", kind="decades")
def _(p):
    return _med(_r(p, d_k=512, scaling=RAW), "entropy")


@_figure("aligned_saturated", "share of saturated rows, ÷√d_k, d_k = 512, alignment ρ = 0.5", kind="percent")
def _(p):
    return _r(p, d_k=512, scaling=SCALED, alignment=0.5).saturated_fraction


@_figure("aligned_right", "share of those saturated rows whose top key is the aligned key", kind="percent")
def _(p):
    return _aligned_key_share(_r(p, d_k=512, scaling=SCALED, alignment=0.5), only_saturated=True)


# --- step 3 -------------------------------------------------------------------------------
@_figure("step3_grad_scaled", "median ‖∂L/∂q‖ with ÷√d_k at d_k = 2048")
def _(p):
    return _med(_r(p, d_k=2048, scaling=SCALED), "grad_q")


@_figure("step3_grad_raw", "median ‖∂L/∂q‖ without scaling at d_k = 2048", kind="decades")
def _(p):
    return _med(_r(p, d_k=2048, scaling=RAW), "grad_q")


@_figure("step3_grad_ratio", "median ‖∂L/∂q‖: ÷√d_k over raw at d_k = 2048", kind="decades", unit="×")
def _(p):
    return _grad_ratio(p, 2048)


@_figure("step3_ratio_1024", "median ‖∂L/∂q‖: ÷√d_k over raw at d_k = 1024", kind="decades", unit="×")
def _(p):
    return _grad_ratio(p, 1024)


@_figure("step3_ratio_4096", "median ‖∂L/∂q‖: ÷√d_k over raw at d_k = 4096", kind="decades", unit="×")
def _(p):
    return _grad_ratio(p, 4096)


@_figure("step3_crossover", "first grid d_k ≥ 2 where the raw median ‖∂L/∂q‖ falls below ÷√d_k's", kind="int")
def _(p):
    d_ks = _grid(2, 1448)
    below = _sweep_median(p, RAW, "grad_q", d_ks) < _sweep_median(p, SCALED, "grad_q", d_ks)
    return float(d_ks[int(np.argmax(below))]) if below.any() else float("nan")


@_figure("step3_mean_ratio", "raw mean ‖∂L/∂q‖ over the ÷√d_k median, d_k = 2048", unit="×")
def _(p):
    return _r(p, d_k=2048, scaling=RAW).summary["grad_q"].mean / _med(_r(p, d_k=2048, scaling=SCALED), "grad_q")


# --- step 4 -------------------------------------------------------------------------------
@_figure("step4_sigma", "σ of the ÷√d_k logits at d_k = 4, 512 and 4096 (theory 1)", digits=3)
def _(p):
    return tuple(_r(p, d_k=d, scaling=SCALED).logit_std for d in (4, 512, 4096))


@_figure("step4_jac", "median ‖J‖_F with ÷√d_k at every grid d_k from 4 to 4096")
def _(p):
    return tuple(_sweep_median(p, SCALED, "jacobian_fro", _grid(4, 4096)))


@_figure("step4_grad", "median ‖∂L/∂q‖ with ÷√d_k at every grid d_k from 4 to 4096")
def _(p):
    return tuple(_sweep_median(p, SCALED, "grad_q", _grid(4, 4096)))


@_figure("step4_saturated", "largest saturated share with ÷√d_k over grid d_k from 4 to 4096", kind="percent")
def _(p):
    return float(np.max(sweep(p.replace(scaling=SCALED), _grid(4, 4096)).saturated_fraction))


for _d in (4, 16):
    _figure(f"backward_raw_{_d}", f"median ‖∂L/∂q‖: raw over ÷√d_k at d_k = {_d} (the scale alone: √{_d})",
            unit="×")(lambda p, d=_d: 1.0 / _grad_ratio(p, d))


# --- trap: ÷√d_model ----------------------------------------------------------------------
def _dmodel(p):
    return _r(p, d_k=64, heads=8, scaling="sqrt_dmodel")


@_figure("dmodel_sigma", "σ with ÷√d_model, d_k = 64, 8 heads (theory 1/√8 = 0.354)")
def _(p):
    return _dmodel(p).logit_std


@_figure("dmodel_entropy", "median entropy with ÷√d_model, d_k = 64, 8 heads (ceiling 4.16)", digits=3)
def _(p):
    return _med(_dmodel(p), "entropy")


@_figure("dmodel_grad_ratio", "median ‖∂L/∂q‖: ÷√d_k over ÷√d_model, d_k = 64, 8 heads", unit="×")
def _(p):
    return _med(_r(p, d_k=64, scaling=SCALED), "grad_q") / _med(_dmodel(p), "grad_q")


# --- trap: after the softmax ----------------------------------------------------------------
@_figure("after_softmax_saturated", "saturated share, raw logits scaled after softmax, d_k = 256", kind="percent")
def _(p):
    return _r(p, d_k=256, scaling="after_softmax").saturated_fraction


# --- trap: stable softmax -------------------------------------------------------------------
def _naive(p, dtype):
    return _r(p, d_k=512, scaling=RAW, softmax="naive", dtype=dtype)


def _nan_rows(result) -> np.ndarray:
    return ~np.isfinite(result.weights).all(axis=1)


@_figure("stable_max_logit", "largest raw logit over all 256 × 64 pairs, d_k = 512", digits=3)
def _(p):
    return float(np.max(_r(p, d_k=512, scaling=RAW).logits))


@_figure("stable_naive16_nan", "share of rows naive float16 softmax returns as NaN, raw, d_k = 512", kind="percent")
def _(p):
    return float(np.mean(_nan_rows(_naive(p, "float16"))))


@_figure("stable_naive32_nan_rows", "rows naive float32 softmax returns as NaN, raw, d_k = 512", kind="int")
def _(p):
    return float(np.sum(_nan_rows(_naive(p, "float32"))))


@_figure("stable_f32_diff", "max |naive − stable| float32 weight over rows finite in both, raw, d_k = 512")
def _(p):
    naive, stable = _naive(p, "float32"), _r(p, d_k=512, scaling=RAW, dtype="float32")
    ok = ~_nan_rows(naive)
    return float(np.max(np.abs(naive.weights[ok].astype(np.float64) - stable.weights[ok].astype(np.float64))))


def fused_kernel_error(p: Params, scaling: str) -> float:
    """90th percentile over rows of the largest relative weight error of a bfloat16 fused
    kernel (q, k and p rounded, S in float32) against float64, for ``p``'s own q and k."""
    r = compute(p.replace(scaling=scaling, dtype="float64"))
    q, k = pool(p.seed, "q", p.queries, p.d_k), pool(p.seed, "k", p.keys, p.d_k)
    scale = 1.0 / math.sqrt(p.d_k) if scaling == "sqrt_dk" else 1.0
    w = precision.fused_kernel_weights(q, k, scale / p.temperature)
    return float(np.percentile(precision.weight_errors(w, r.weights, p.keys).rel, 90))


for _scaling, _name in ((RAW, "raw"), (SCALED, "scaled")):
    _figure(f"kernel_{_name}_1024", f"bfloat16 fused-kernel model (q, k, p rounded; S in float32), "
            f"{'raw' if _scaling == RAW else '÷√d_k'}, d_k = 1024: p90 over rows of the largest relative "
            "weight error", kind="percent")(lambda p, s=_scaling: fused_kernel_error(p.replace(d_k=1024), s))


# --- trap: sequence length -------------------------------------------------------------------
def logn_factor(n: int, trained: int = 64) -> float:
    """Qwen-style log-n factor log_{trained}(n), applied only beyond the training length."""
    return max(1.0, math.log(n) / math.log(trained))


def _seq(p, n, factor=1.0):
    # A factor multiplying the logits is a temperature of 1/factor.
    return _r(p, d_k=256, keys=n, scaling=SCALED, temperature=1.0 / factor)


@_figure("seqlen_maxp_16", "median max p with ÷√d_k, d_k = 256, n = 16 keys")
def _(p):
    return _med(_seq(p, 16), "max_weight")


@_figure("seqlen_maxp_1024", "median max p with ÷√d_k, d_k = 256, n = 1024 keys")
def _(p):
    return _med(_seq(p, 1024), "max_weight")


@_figure("seqlen_maxp_logn_1024", "median max p with ÷√d_k × log_64 n, d_k = 256, n = 1024 keys")
def _(p):
    return _med(_seq(p, 1024, logn_factor(1024)), "max_weight")


# --- trap: small heads -------------------------------------------------------------------------
@_figure("small_heads_ratio_small", "median ‖J‖_F, ÷√d_k over raw, every grid d_k from 2 to 32", unit="×")
def _(p):
    return tuple(_jac_ratio(p, _grid(2, 32)))


@_figure("small_heads_raw_adv", "largest raw-over-÷√d_k median ‖J‖_F ratio for grid d_k 2 to 32", unit="×")
def _(p):
    return float(np.max(1.0 / _jac_ratio(p, _grid(2, 32))))


@_figure("small_heads_cross", "first grid d_k ≥ 2 where ÷√d_k's median ‖J‖_F reaches the raw one", kind="int")
def _(p):
    d_ks = _grid(2, 512)
    ahead = _jac_ratio(p, d_ks) >= 1.0
    return float(d_ks[int(np.argmax(ahead))]) if ahead.any() else float("nan")


@_figure("small_heads_ratio_512", "median ‖J‖_F, ÷√d_k over raw, d_k = 512", kind="decades", unit="×")
def _(p):
    return float(_jac_ratio(p, (512,))[0])


@_figure("small_heads_ratio_4096", "median ‖J‖_F, ÷√d_k over raw, d_k = 4096", kind="decades", unit="×")
def _(p):
    return float(_jac_ratio(p, (4096,))[0])


# --- follow-up: temperature (effective spread σ over 64 keys) ------------------------------
def _spread(p, sigma: float):
    # d_k = 1024 with ÷√d_k and temperature 1/σ: logits of spread σ, nearly Gaussian.
    return _r(p, d_k=1024, scaling=SCALED, temperature=1.0 / sigma)


for _sigma in (1, 4):
    _figure(f"temp_maxp_{_sigma}", f"median max p at effective σ = {_sigma}, 64 keys")(
        lambda p, s=_sigma: _med(_spread(p, s), "max_weight"))
for _sigma in (1, 4, 8):
    _figure(f"temp_jac_{_sigma}", f"median ‖J‖_F at effective σ = {_sigma}, 64 keys")(
        lambda p, s=_sigma: _med(_spread(p, s), "jacobian_fro"))
for _sigma in (4, 8):
    _figure(f"temp_sat_{_sigma}", f"saturated share at effective σ = {_sigma}, 64 keys", kind="percent")(
        lambda p, s=_sigma: _spread(p, s).saturated_fraction)


@_figure("temp_sat_8_n1024", "saturated share at effective σ = 8 with 1024 keys", kind="percent")
def _(p):
    return _r(p, d_k=256, keys=1024, queries=64, scaling=SCALED, temperature=1.0 / 8).saturated_fraction


# --- follow-up: QK-norm --------------------------------------------------------------------------
@_figure("qknorm_g4_maxp", "median max p, QK-norm with fixed g = 4 at d_k = 1024 (uniform: 1/64)")
def _(p):
    return _med(_r(p, d_k=1024, scaling="qk_norm", gain=4.0), "max_weight")


@_figure("qknorm_aligned_right", "share of rows whose top key is the aligned one, QK-norm g = 12, ρ = 0.9, "
                                 "d_k = 16 to 1024", kind="percent")
def _(p):
    return tuple(_aligned_key_share(_r(p, d_k=d, scaling="qk_norm", gain=12.0, alignment=0.9))
                 for d in (16, 64, 256, 1024))


# --- follow-up: μP ---------------------------------------------------------------------------------
MUP_DKS = (64, 256, 1024, 4096)


@_figure("mup_dk_maxp", "median max p with plain ÷d_k, ρ = 0.5, d_k = 64 to 4096 (uniform: 1/64)")
def _(p):
    return tuple(_med(_r(p, d_k=d, scaling="dk", alignment=0.5), "max_weight") for d in MUP_DKS)


@_figure("mup_8d_maxp", "median max p with 8/d_k (microsoft/mup), ρ = 0.5, d_k = 256 to 4096")
def _(p):
    return tuple(_med(_r(p, d_k=d, scaling="dk", alignment=0.5, temperature=0.125), "max_weight")
                 for d in MUP_DKS[1:])


for _d in (64, 256, 1024):
    _figure(f"mup_sqrt_maxp_{_d}", f"median max p with ÷√d_k, ρ = 0.5, d_k = {_d}", digits=4 if _d == 1024 else 3)(
        lambda p, d=_d: _med(_r(p, d_k=d, scaling=SCALED, alignment=0.5), "max_weight"))


@_figure("mup_sqrt_jac_1024", "median ‖J‖_F with ÷√d_k, ρ = 0.5, d_k = 1024")
def _(p):
    return _med(_r(p, d_k=1024, scaling=SCALED, alignment=0.5), "jacobian_fro")


@_figure("mup_right", "share of rows whose top key is the aligned one, ρ = 0.5, d_k = 256 to 4096 "
                      "(any positive scale: the argmax does not depend on it)", kind="percent")
def _(p):
    return tuple(_aligned_key_share(_r(p, d_k=d, scaling=SCALED, alignment=0.5)) for d in (256, 1024, 4096))


# --- ranges and quotes -----------------------------------------------------------------------------
class FigureRange(NamedTuple):
    lo: float
    hi: float
    values: tuple[tuple[float, ...], ...]  # per seed, every value of that seed


@functools.cache
def computed_values(key: str, seed: int) -> tuple[float, ...]:
    """All values of figure ``key`` for one seed, computed now (a 1-tuple for a scalar)."""
    v = FIGURES[key].value(Params(seed=seed))
    return tuple(float(x) for x in (v if isinstance(v, tuple) else (v,)))


def figure_values(key: str, seed: int) -> tuple[float, ...]:
    """All values of figure ``key`` for one seed: the stored computation for seeds 0–39
    (``figure_data``, checked against :func:`computed_values` by the tests), else computed."""
    if key not in FIGURES:
        raise KeyError(f"unknown figure {key!r}")
    stored = figure_data.VALUES.get(key)
    if stored is not None and 0 <= seed < len(stored):
        return stored[seed]
    return computed_values(key, int(seed))


def figure_range(key: str, seeds=SEEDS) -> FigureRange:
    """Smallest and largest value of ``key`` over ``seeds``, and the values per seed."""
    if key not in FIGURES:
        raise KeyError(f"unknown figure {key!r}")
    per_seed = tuple(figure_values(key, int(s)) for s in seeds)
    flat = [x for values in per_seed for x in values]
    if not flat or not all(math.isfinite(x) for x in flat):
        raise ValueError(f"figure {key!r} has non-finite values: {per_seed}")
    return FigureRange(min(flat), max(flat), per_seed)


def quote_bounds(key: str, seeds=SEEDS) -> tuple[float, float]:
    """The numeric interval :func:`quote` states (in the figure's unit: % for percents)."""
    return _bounds(key, tuple(int(s) for s in seeds))


@functools.cache
def _bounds(key: str, seeds: tuple[int, ...]) -> tuple[float, float]:
    # Cached: :func:`inside` asks for every value of a figure, on every page and New sample.
    f = FIGURES[key]
    r = figure_range(key, seeds)
    _, lo_r, hi_r = format_range(r.lo, r.hi, f.kind, f.unit, f.digits)
    return lo_r, hi_r


def inside(key: str, values: tuple[float, ...], seeds=SEEDS) -> bool:
    """Whether every one of ``values`` lies in the interval the quote of ``key`` states."""
    lo, hi = quote_bounds(key, seeds)
    scale = 100.0 if FIGURES[key].kind == "percent" else 1.0
    tol = 1e-9 * max(abs(lo), abs(hi), 1e-300)
    return all(lo - tol <= scale * x <= hi + tol for x in values)


@functools.cache
def _quote(key: str, seeds: tuple[int, ...]) -> str:
    f = FIGURES[key]
    r = figure_range(key, seeds)
    return format_range(r.lo, r.hi, f.kind, f.unit, f.digits)[0]


def quote(key: str, seeds=SEEDS) -> str:
    """The text a lesson prints for ``key``: a range every seed's value falls in."""
    if key not in FIGURES:
        raise KeyError(f"unknown figure {key!r}")
    return _quote(key, tuple(int(s) for s in seeds))


def placeholders(text: str) -> list[str]:
    """The figure keys a text refers to, in order."""
    return PLACEHOLDER.findall(text)


def fill(text: str, seeds=SEEDS) -> str:
    """``text`` with every ``{key}`` replaced by ``quote(key)`` (KeyError for unknown keys)."""
    return PLACEHOLDER.sub(lambda m: quote(m.group(1), seeds), text)


class SampleNote(NamedTuple):
    """A quoted figure the sample on screen falls outside of."""

    key: str
    description: str
    sample: str  # this seed's value(s), formatted as the quote is
    quoted: str

    def text(self, seed: int) -> str:
        return (f"This sample (seed {seed}) gives {self.sample} for {self.description}: outside the "
                f"quoted {self.quoted}. Samples vary; the quoted ranges hold for most of them.")


def sample_notes(text: str, seed: int) -> list[SampleNote]:
    """For each figure ``text`` quotes (once each), a note if seed ``seed``'s value lies outside
    the quoted range, so that a page never silently contradicts the sample beside it."""
    notes = []
    for key in dict.fromkeys(placeholders(text)):
        values = figure_values(key, seed)
        if inside(key, values):
            continue
        f = FIGURES[key]
        shown = [x for x in values if not inside(key, (x,))] if len(values) > 1 else values
        # One digit more than the quote, so that 0.618 is not shown as the bound 0.62.
        sample = ", ".join(format_value(x, f.kind, f.unit, f.digits + 1) for x in shown)
        notes.append(SampleNote(key, f.description, sample, quote(key)))
    return notes
