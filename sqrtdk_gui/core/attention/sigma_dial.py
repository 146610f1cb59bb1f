"""The σ dial: where softmax is responsive, as a function of the logit spread σ alone.

For n keys and Gaussian logits of spread σ in every row (z = σ·x, x standard normal — the
model's own sampling, 8 seeds pooled), the median and 10–90 % band over rows of the
largest weight, the entropy divided by its ceiling log n, and ‖J‖_F of the softmax
Jacobian diag(p) − ppᵀ. The curves depend on n only, not on d_k: they are computed once
per n (``curves``, cached) and a scaling mode is a point on them (``mode_sigmas``): raw
logits sit at σ = √d_k·q_std·k_std/τ and move right as d_k grows, ÷√d_k sits at 1/τ for
every head size, a temperature τ moves every point by 1/τ.

What they show (n = 64): ‖J‖_F peaks near σ ≈ 4 and collapses beyond σ ≈ 8; for σ ≪ 1
attention is uniform (max p → 1/n, entropy → log n, ‖J‖_F → √(n−1)/n). Any σ that does
not grow with d_k works; ÷√d_k is the choice that makes it 1 for every head size. The
responsive window moves with n, faster than √(2 ln n) and more slowly than ln n (its ‖J‖_F
peak from σ ≈ 3 at n = 16 to ≈ 6 at n = 1024), so σ = 1 lies below it for long contexts.
The median ‖J‖_F is flat around its top, so the peak is the middle of the range within 3 % of
the top (in log σ), from 4 096 rows up to n = 2048: it moves by less than ±5 % between
independent draws (an argmax over 512 rows moved by 20 %).

Pure numpy (no Qt).
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from sqrtdk_gui.core.attention.long_context import BLOCK, RowReducer
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.scaling import SCALINGS
from sqrtdk_gui.core.attention.theory import theory_std

__all__ = ["SIGMA_GRID", "SIGMA_RANGE", "SEEDS", "QUANTITIES", "STATISTICS", "DialCurves", "curves",
           "compute_curves", "stored_curves", "encode", "decode", "use_stored", "dial_normals", "rows_per_seed",
           "mode_sigmas"]

# 6 points per octave from 2^(-26/6) ≈ 0.05 to 2^(40/6) ≈ 102: every power of two exactly.
SIGMA_GRID = tuple(2.0 ** (k / 6) for k in range(-26, 41))
SIGMA_RANGE = (0.05, 100.0)  # the axis of the view
SEEDS = 8
QUANTITIES = ("max_weight", "entropy_ratio", "jacobian_fro")
PEAK_LEVEL = 0.97  # the peak: the middle of the σ range where the median ‖J‖_F is this close to its top
STATISTICS = ("median", "p10", "p90", "mean")
_ELEMENTS = 2**23  # at most this many logits per σ: 4 096 rows up to n = 2048, 64 at n = 131 072
_TAG = 21  # the dial's generator stream (sampling uses 1..4, long context 11..12)


def rows_per_seed(keys: int) -> int:
    """Rows drawn per seed: 512 up to n = 2048 (4 096 rows over 8 seeds: at n = 1024 the peak
    moves by ±3 % between independent draws, by ±4 % from 2 048 rows and ±12 % from 512), then
    fewer, 8 at n = 131 072."""
    return int(max(2, min(512, _ELEMENTS // (SEEDS * keys))))


def dial_normals(keys: int, seed: int) -> np.ndarray:
    """The standard normals x of one seed's rows (rows_per_seed × keys); z = σ·x."""
    rng = np.random.default_rng([seed, _TAG, keys])
    return rng.standard_normal((rows_per_seed(keys), keys))


@dataclass(frozen=True)
class DialCurves:
    """Statistics over rows of the softmax of σ·x, at every σ of ``sigma``."""

    keys: int
    sigma: np.ndarray
    rows: int  # pooled over the seeds
    seeds: int
    # quantity -> statistic -> array over sigma
    values: dict[str, dict[str, np.ndarray]] = field(repr=False)

    def stat(self, quantity: str, statistic: str = "median") -> np.ndarray:
        return self.values[quantity][statistic]

    def at(self, quantity: str, sigma: float, statistic: str = "median") -> float:
        """The curve at ``sigma`` (linear in log σ between grid points, held at the ends)."""
        x = math.log(min(max(sigma, self.sigma[0]), self.sigma[-1]))
        return float(np.interp(x, np.log(self.sigma), self.stat(quantity, statistic)))

    @property
    def peak_sigma(self) -> float:
        """σ where the median ‖J‖_F is largest: the most responsive spread. The curve is flat
        around its top (within 1 % from σ 7.5 to 8.4 at n = 16 384), so its argmax wanders with
        the sample: the peak is the middle (in log σ) of the range within 3 % of the top."""
        lo, hi = self._above(PEAK_LEVEL)
        return math.sqrt(lo * hi)

    @property
    def window(self) -> tuple[float, float]:
        """The σ range where the median ‖J‖_F is at least half its peak (log-interpolated)."""
        return self._above(0.5)

    def regime(self, sigma: float) -> str | None:
        """What the softmax does at ``sigma``: "flat" below the responsive window, "saturated"
        above it, else "responsive"; None for a σ that is not a number."""
        if not math.isfinite(sigma):
            return None
        lo, hi = self.window
        return "flat" if sigma < lo else ("saturated" if sigma > hi else "responsive")

    def _above(self, level: float) -> tuple[float, float]:
        """The σ range around the top where the median ‖J‖_F is at least ``level`` times its
        largest value (log-interpolated between grid points)."""
        j = self.stat("jacobian_fro")
        bar = level * j.max()
        top = int(np.argmax(j))
        log_s = np.log(self.sigma)

        def crossing(indices: Iterable[int]) -> float:
            prev = top
            for i in indices:
                if j[i] < bar:
                    t = (bar - j[i]) / (j[prev] - j[i])
                    return float(math.exp(log_s[i] + t * (log_s[prev] - log_s[i])))
                prev = i
            return float(self.sigma[prev])

        return crossing(range(top - 1, -1, -1)), crossing(range(top + 1, len(j)))

    def rows_table(self) -> list[dict[str, float]]:
        """One dict per σ: sigma, then quantity_statistic for every quantity and statistic."""
        out = []
        for i, s in enumerate(self.sigma):
            row = {"sigma": float(s)}
            for q in QUANTITIES:
                for st in STATISTICS:
                    row[f"{q}_{st}"] = float(self.values[q][st][i])
            out.append(row)
        return out


# Logits per pass of ``_stats_at`` (2 MB): its temporaries are a few times this, so the dial's
# curves no longer add ≈ 40 MB to the window's peak while they are computed.
_PASS_LOGITS = 1 << 18


def _stats_at(x: np.ndarray, sigmas: np.ndarray) -> dict[str, np.ndarray]:
    """Per-row max weight, entropy/log n and ‖J‖_F for z = σ·x at each σ: arrays (σ, rows).

    Rows are independent, so the work goes by σ values and by slices of rows (the same
    numbers as all at once)."""
    rows, n = x.shape
    step = max(1, min(rows, _PASS_LOGITS // min(n, BLOCK)))  # rows per pass
    chunk = max(1, _PASS_LOGITS // (step * n))  # σ values per pass
    out = {q: np.empty((len(sigmas), rows)) for q in QUANTITIES}
    for c in range(0, len(sigmas), chunk):
        s = sigmas[c:c + chunk]
        for r in range(0, rows, step):
            part = x[r:r + step]
            reducer = RowReducer(len(s) * part.shape[0], top_k=0)
            for start in range(0, n, BLOCK):
                block = part[:, start:start + BLOCK]
                reducer.add((s[:, None, None] * block[None]).reshape(len(s) * part.shape[0], -1))
            st = reducer.result()
            shape = (len(s), part.shape[0])
            out["max_weight"][c:c + len(s), r:r + step] = st.max_weight.reshape(shape)
            out["entropy_ratio"][c:c + len(s), r:r + step] = (st.entropy / math.log(n)).reshape(shape)
            out["jacobian_fro"][c:c + len(s), r:r + step] = st.jacobian_fro.reshape(shape)
    return out


_curves_lock = threading.Lock()


def curves(keys: int) -> DialCurves:
    """The dial's curves for ``keys`` keys (cached: they depend on nothing else).

    One computation at a time: the window's worker thread and its main thread (rendering a
    slide) often ask for the same curves at once, and two copies of the work were two
    copies of its memory."""
    if not 2 <= keys:
        raise ValueError(f"keys={keys} must be at least 2")
    with _curves_lock:
        return _curves(keys)


_use_stored = True


def use_stored(enabled: bool) -> None:
    """Whether the curves stored at build time (for the lesson's numbers of keys) are taken
    (default) or computed like any other (benchmarks that time the computation)."""
    global _use_stored
    _use_stored = bool(enabled)
    _curves.cache_clear()
    _decoded.clear()


@functools.lru_cache(maxsize=8)
def _curves(keys: int) -> DialCurves:
    return _stored(keys) or compute_curves(keys)


def compute_curves(keys: int) -> DialCurves:
    """The dial's curves for ``keys`` keys computed now, uncached."""
    sigma = np.array(SIGMA_GRID)
    # Seed by seed: the rows' statistics are kept, their logits are not (at most 8 MB at once).
    parts = [_stats_at(dial_normals(keys, seed), sigma) for seed in range(SEEDS)]
    per_row = {q: np.concatenate([part[q] for part in parts], axis=1) for q in parts[0]}
    rows = per_row["jacobian_fro"].shape[1]
    values = {}
    for q, v in per_row.items():
        p10, median, p90 = np.percentile(v, [10, 50, 90], axis=1)
        values[q] = {"median": median, "p10": p10, "p90": p90, "mean": v.mean(axis=1)}
        for arr in values[q].values():
            arr.flags.writeable = False
    sigma.flags.writeable = False
    return DialCurves(keys=keys, sigma=sigma, rows=rows, seeds=SEEDS, values=values)


def encode(c: DialCurves) -> dict[str, object]:
    """Curves as plain numbers (what ``curve_data.DIALS`` stores)."""
    out: dict[str, object] = {"rows": c.rows, "seeds": c.seeds, "sigma": tuple(float(s) for s in c.sigma)}
    out.update({f"{q}.{st}": tuple(float(x) for x in c.values[q][st]) for q in QUANTITIES for st in STATISTICS})
    return out


def decode(keys: int, entry: dict[str, object]) -> DialCurves:
    """The :class:`DialCurves` that :func:`encode` wrote (read-only arrays, as computed ones)."""

    def array(name: str) -> np.ndarray:
        a: np.ndarray = np.array(entry[name], dtype=float)
        a.flags.writeable = False
        return a

    values = {q: {st: array(f"{q}.{st}") for st in STATISTICS} for q in QUANTITIES}
    return DialCurves(keys=keys, sigma=array("sigma"), rows=int(entry["rows"]),  # type: ignore[call-overload]
                      seeds=int(entry["seeds"]), values=values)  # type: ignore[call-overload]


def stored_curves(keys: int) -> DialCurves | None:
    """``curves(keys)`` if they were stored at build time, else None: nothing is computed
    and nothing waits for a computation of other curves (the GUI thread asks)."""
    return _stored(keys)


_decoded: dict[int, DialCurves] = {}  # stored curves, decoded once (the same object each time)


def _stored(keys: int) -> DialCurves | None:
    if not _use_stored:
        return None
    if keys in _decoded:
        return _decoded[keys]
    # Imported on first use: the numbers are not needed at start.
    from sqrtdk_gui.core.attention import curve_data

    entry = curve_data.DIALS.get(keys)
    if entry is None or entry["seeds"] != SEEDS or entry["rows"] != SEEDS * rows_per_seed(keys) or not all(
            math.isclose(a, b, rel_tol=1e-12) for a, b in zip(entry["sigma"], SIGMA_GRID, strict=True)):  # type: ignore[call-overload]
        return None  # not stored, or for another grid (the tests say it is stale)
    return _decoded.setdefault(keys, decode(keys, entry))


def mode_sigmas(params: Params, scalings: Iterable[str] = SCALINGS) -> dict[str, float]:
    """Effective logit spread σ of each scaling mode at these parameters (theory, pooled).

    ``after_softmax`` divides after the softmax, so its softmax input is raw (same σ);
    QK-norm with alignment has no closed form (nan).
    """
    return {s: theory_std(params.replace(scaling=s)) for s in scalings}
