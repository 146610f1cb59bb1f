"""Learning-rate sweeps of the training lab: the fair way to compare raw and scaled logits.

numpy + stdlib only (no Qt). ÷√d_k also divides the gradient through the logits by √d_k, so
one shared learning rate favours whichever scaling it happens to suit. A sweep trains each
scaling on a log grid of rates (and several seeds) and compares them each at its own best
rate, and by the width of the range of rates that train at all. This is the small-scale
version of Wortsman et al. 2023 ("Small-scale proxies for large-scale Transformer training
instabilities"): attention-logit growth makes a model sensitive to the learning rate, and
normalising q and k widens the range that works.

Every rate and seed of one scaling trains at once (:func:`sqrtdk_gui.core.training.loop.train_grid`);
each run is bit for bit the run :func:`sqrtdk_gui.core.training.loop.train` would do on its own.
"""

from __future__ import annotations

import math
import os
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import cast

import numpy as np
import numpy.typing as npt

from sqrtdk_gui.core.attention.scaling import TRAINED_SCALINGS
from sqrtdk_gui.core.i18n import _, ngettext
from sqrtdk_gui.core.training.loop import (
    FLOAT_RANGES,
    INT_RANGES,
    MAX_ELEMENTS,
    METRIC_NAMES,
    TrainConfig,
    TrainResult,
    train_grid,
)
from sqrtdk_gui.core.validation import check_choice, check_float, check_int

__all__ = [
    "LR_GRID",
    "MAX_RUNS",
    "MAX_WORKERS",
    "default_workers",
    "ScalingSweep",
    "SweepResult",
    "check_grid",
    "sweep_bytes",
    "sweep_threads",
    "MEMORY_BUDGET",
    "run_sweep",
    "band",
    "rolling_median",
    "span_text",
    "verdict",
]

# 1-2-5 per decade around each optimiser's default (SGD 0.5, Adam 3e-3), nine rates each.
LR_GRID = {
    "sgd": (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0),
    "adam": (1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0),
}
MAX_RUNS = 100  # rates x seeds trained at once (memory grows with it)

# What a sweep may take at its peak: the project's bound for a command of the command line.
MEMORY_BUDGET = 500 * 2**20
# The peak, from measurements of `train --lr-sweep` (peak RSS; d_k up to 2,048 × d_model 512,
# 1–100 runs, up to 10,000 steps): the process before training, then per run of each scaling
# training at once its weights (W_q, W_k and W_v of every layer) about four times over with
# SGD (the weights, their final copy, the gradients and a step's temporaries; one step's
# gradients are let go of before the next step's are computed) and seven with Adam (its two
# moments), once a step's other arrays (a d_model × d_model product
# per layer, M = W_q W_kᵀ or W_k W_kᵀ for QK-norm, and the batch: inputs and values,
# d_model + d_v wide per key, q and its products per query), and its curves: every metric at
# every step, allocated when it starts (float64), plus one metric's copy while each run's are
# copied out. A scaling that has finished keeps its runs' curves until the sweep ends.
_BASE_BYTES = 44 * 2**20
_WEIGHT_COPIES = {"sgd": 4.0, "adam": 7.0}
_ACTIVATION_COPIES = 1.0
_CURVE_BYTES = 8 * len(METRIC_NAMES)  # per run and step


def sweep_bytes(config: TrainConfig, runs: int, parallel: int = 1, scalings: int = 1) -> int:
    """An upper estimate of a sweep's peak memory: ``runs`` rates × seeds per scaling,
    ``scalings`` scalings of which ``parallel`` train at once (threads)."""
    c = config
    weights = c.layers * 2 * c.d_model * c.d_k + (c.layers - 1) * c.d_model**2 + c.d_v**2
    activations = c.layers * (c.d_model**2 + c.batch * (c.n_keys * (c.d_model + c.d_v) + 4 * c.d_k))
    curves = _CURVE_BYTES * c.steps
    training = 8 * (_WEIGHT_COPIES[c.optimizer] * weights + _ACTIVATION_COPIES * activations) \
        + curves * (1 + 1 / len(METRIC_NAMES))
    return int(_BASE_BYTES + runs * (parallel * training + max(0, scalings - parallel) * curves))


def sweep_threads(config: TrainConfig, runs: int, workers: int, scalings: int) -> int:
    """Scalings to train at once: up to ``workers`` (one per scaling at most), fewer where
    that many would not fit ``MEMORY_BUDGET`` (at least one: ``check_grid`` refuses the rest)."""
    threads = max(1, min(workers, scalings))
    while threads > 1 and sweep_bytes(config, runs, threads, scalings) > MEMORY_BUDGET:
        threads -= 1
    return threads


def _megabytes(n: int) -> str:
    return f"{n / 2**30:.1f} GB" if n >= 2**30 else f"{n / 2**20:.0f} MB"


def check_grid(config: TrainConfig, lrs: Sequence[float], seeds: Sequence[int],
               parallel: int = 1, scalings: int = 1) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """Validated (lrs, seeds) for a sweep of ``config`` over ``scalings`` scalings with
    ``parallel`` training at once; ValueError names what is wrong (also a sweep that would not
    fit ``MEMORY_BUDGET``)."""
    lo, hi, lo_inc = FLOAT_RANGES["lr"]
    lrs = tuple(sorted({check_float("lr", lr, lo, hi, lo_inc) for lr in lrs}))
    seeds = tuple(dict.fromkeys(check_int("seed", s, *INT_RANGES["seed"]) for s in seeds))
    if not lrs:
        raise ValueError(_("a sweep needs at least one learning rate"))
    if not seeds:
        raise ValueError(_("a sweep needs at least one seed"))
    runs = len(lrs) * len(seeds)
    if runs > MAX_RUNS:
        raise ValueError(_("rates x seeds = {runs} exceeds {limit}; use fewer rates or seeds").format(
            runs=runs, limit=MAX_RUNS))
    size = runs * config.batch * config.n_keys * max(config.d_model, config.d_v)
    if size > MAX_ELEMENTS:
        raise ValueError(_("rates*seeds*batch*n_keys*max(d_model, d_v) = {size} exceeds {limit}; "
                           "use fewer rates, seeds or a smaller batch").format(size=size, limit=MAX_ELEMENTS))
    need = sweep_bytes(config, runs, parallel, scalings)
    if need > MEMORY_BUDGET:
        curves = runs * _CURVE_BYTES * config.steps * max(scalings, parallel)
        if 2 * curves > need:  # mostly the curves: steps, not widths, are what to cut
            message = ngettext("this sweep would need about {need} ({runs} runs of {steps} steps, {scalings} "
                               "scaling, each keeping every step's measurements); the limit is {limit}: use "
                               "fewer steps, rates or seeds",
                               "this sweep would need about {need} ({runs} runs of {steps} steps, {scalings} "
                               "scalings, each keeping every step's measurements); the limit is {limit}: use "
                               "fewer steps, rates or seeds", scalings)
        elif parallel > 1:
            message = _("this sweep would need about {need} ({runs} runs × {parallel} scalings at once, "
                        "d_k {d_k} × d_model {d_model}); the limit is {limit}: use a smaller d_k or d_model, "
                        "fewer rates or seeds")
        else:
            message = _("this sweep would need about {need} ({runs} runs, d_k {d_k} × d_model {d_model}); "
                        "the limit is {limit}: use a smaller d_k or d_model, fewer rates or seeds")
        raise ValueError(message.format(need=_megabytes(need), runs=runs, parallel=parallel, d_k=config.d_k,
                                        d_model=config.d_model, steps=f"{config.steps:,}", scalings=scalings,
                                        limit=_megabytes(MEMORY_BUDGET)))
    return lrs, seeds


def _works(r: TrainResult) -> bool:
    """A run 'works' at its rate when it reaches 90 % accuracy and never diverges."""
    return r.steps_to_90 is not None and not r.diverged


@dataclass(frozen=True)
class ScalingSweep:
    """One scaling trained at every rate and seed: ``runs[seed_index][rate_index]``."""

    scaling: str
    lrs: tuple[float, ...]
    seeds: tuple[int, ...]
    runs: tuple[tuple[TrainResult, ...], ...]

    @property
    def complete(self) -> bool:
        """Every run trained all its steps or diverged (none was cancelled)."""
        return bool(self.runs) and not any(r.cancelled for row in self.runs for r in row)

    @property
    def steps_done(self) -> int:
        """The most steps any of its runs trained (fewer than asked for when cut short)."""
        return max((r.steps_done for row in self.runs for r in row), default=0)

    def steps_to_90(self) -> np.ndarray:
        """(seeds, rates) steps to 90 % accuracy, NaN where a run never got there."""
        return np.array([[r.steps_to_90 if _works(r) else np.nan for r in row]
                         for row in self.runs], dtype=float)

    def final_loss(self) -> np.ndarray:
        """(seeds, rates) mean loss of the last 20 steps, NaN where a run diverged."""
        return np.array([[np.nan if r.diverged else r.final_loss for r in row]
                         for row in self.runs], dtype=float)

    def works(self) -> np.ndarray:
        """(seeds, rates) bool: reached 90 % and did not diverge."""
        return np.array([[_works(r) for r in row] for row in self.runs], dtype=bool)

    def best_per_seed(self) -> list[tuple[float, int] | None]:
        """Per seed, (rate, steps) of its fastest working rate (the lower rate on a tie)."""
        out = []
        for row in self.runs:
            ok = [(steps, lr) for r, lr in zip(row, self.lrs) if _works(r) and (steps := r.steps_to_90) is not None]
            out.append(None if not ok else (min(ok)[1], min(ok)[0]))
        return out

    def working_lrs(self) -> tuple[float, ...]:
        """Rates at which every seed works."""
        # cast: the stubs cannot tell that all() over axis 0 of a 2-D array is an array.
        ok = cast("npt.NDArray[np.bool_]", self.works().all(axis=0))
        return tuple(lr for lr, w in zip(self.lrs, ok) if w)

    def working_counts(self) -> list[int]:
        """Per seed, how many of the rates work."""
        return [int(n) for n in self.works().sum(axis=1)]

    def width_decades(self) -> float | None:
        """log10(largest / smallest) working rate (every seed); None when none works."""
        w = self.working_lrs()
        return math.log10(w[-1] / w[0]) if w else None

    def best(self) -> tuple[float, float] | None:
        """(rate, median steps over seeds) of the fastest rate at which every seed works."""
        s90 = self.steps_to_90()
        ok = self.works().all(axis=0)
        if not ok.any():
            return None
        med = np.where(ok, np.median(np.where(ok, s90, 0.0), axis=0), np.inf)
        j = int(np.argmin(med))  # argmin takes the first, i.e. the lower rate on a tie
        return self.lrs[j], float(med[j])

    def curves(self, metric: str, rate_index: int) -> np.ndarray:
        """(seeds, steps) of one metric at one rate; NaN after a run's last step."""
        rows = [row[rate_index] for row in self.runs]
        n = max(r.steps_done for r in rows)
        out = np.full((len(rows), n), np.nan)
        for i, r in enumerate(rows):
            values = getattr(r, metric)
            out[i, : values.size] = values
        return out

    def best_steps_range(self) -> tuple[int, int] | None:
        """(fewest, most) over seeds of each seed's steps to 90 % at its own best rate."""
        best = [b[1] for b in self.best_per_seed() if b is not None]
        if len(best) < len(self.seeds) or not best:
            return None
        return min(best), max(best)

    def best_lr_values(self) -> list[float]:
        """The rates that were some seed's best, ascending."""
        return sorted({b[0] for b in self.best_per_seed() if b is not None})

    def summary(self) -> dict[str, object]:
        """JSON-ready: the per-rate results and the summaries."""
        best = self.best()
        s90 = self.steps_to_90()
        rates = []
        for j, lr in enumerate(self.lrs):
            runs = [self.runs[i][j] for i in range(len(self.seeds))]
            rates.append({
                "lr": lr,
                "works": all(_works(r) for r in runs),
                "runs": [_run_summary(seed, r) for seed, r in zip(self.seeds, runs)],
                "median_steps_to_90": _clean(float(np.median(s90[:, j])))
                if not np.isnan(s90[:, j]).any() else None,
            })
        per_seed = self.best_per_seed()
        return {
            "scaling": self.scaling,
            "complete": self.complete,
            "steps_done": self.steps_done,
            "best_lr": best[0] if best else None,
            "best_steps_to_90": best[1] if best else None,
            "best_per_seed": [None if b is None else {"seed": seed, "lr": b[0], "steps_to_90": b[1]}
                              for seed, b in zip(self.seeds, per_seed)],
            "working_lrs": list(self.working_lrs()),
            "working_counts": self.working_counts(),
            "width_decades": _clean(self.width_decades()),
            "rates": rates,
        }


def _clean(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else round(float(x), 6)


def _run_summary(seed: int, r: TrainResult) -> dict[str, object]:
    return {
        "seed": seed,
        "steps_to_90": r.steps_to_90 if _works(r) else None,
        "final_loss": _clean(r.final_loss),
        "final_accuracy": _clean(r.final_accuracy),
        "stuck_fraction": _clean(r.stuck_fraction),
        "final_entropy": _clean(r.final_entropy),
        "max_logit_final": _clean(float(r.max_logit[-1])) if r.max_logit.size else None,
        "diverged": r.diverged,
        "steps_done": r.steps_done,
    }


@dataclass(frozen=True)
class SweepResult:
    """A sweep: the base configuration (its lr, seed and scaling are not used) and results."""

    config: TrainConfig
    lrs: tuple[float, ...]
    seeds: tuple[int, ...]
    scalings: dict[str, ScalingSweep]
    cancelled: bool = False
    wall_time: float = 0.0

    def summary(self) -> dict[str, object]:
        cfg = self.config.to_dict()
        for key in ("lr", "seed", "scaling"):
            cfg.pop(key)
        return {
            "config": cfg,
            "lrs": list(self.lrs),
            "seeds": list(self.seeds),
            "cancelled": self.cancelled,
            "wall_time_s": round(self.wall_time, 3),
            "scalings": {s: sw.summary() for s, sw in self.scalings.items()},
        }


# Relative cost of one step per scaling (QK-norm also computes |k_j|, with its gradient): the
# dearest scalings start first, so that two threads finish together.
_COST = {"qk_norm": 2.0, "none": 1.0, "sqrt_dk": 1.0}
MAX_WORKERS = 2


def default_workers() -> int:
    """Threads a sweep trains its scalings in: one per core, at most ``MAX_WORKERS``.

    numpy releases the GIL inside its kernels and each thread's BLAS runs single-threaded,
    so two scalings train side by side on two cores; every run's numbers are the same as
    in one thread (each scaling is its own independent computation).
    """
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


def run_sweep(
    config: TrainConfig,
    scalings: Sequence[str] = TRAINED_SCALINGS,
    lrs: Sequence[float] | None = None,
    seeds: Sequence[int] = (0,),
    progress: Callable[[int, int, dict[str, np.ndarray]], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    progress_every: int = 10,
    stop_at_90: bool = False,
    on_scaling: Callable[[int, ScalingSweep], None] | None = None,
    workers: int | None = None,
    keep_partial: bool = False,
) -> SweepResult:
    """Train every scaling at every rate (default: the optimiser's grid) and seed.

    ``progress(scaling_index, steps_done, curves)`` passes on :func:`train_grid`'s read-only
    curves, shaped (seeds, rates, steps_done). ``should_stop`` cancels between steps; the
    result then holds the scalings finished so far (the cut ones are dropped, unless
    ``keep_partial``: then they are kept with the steps their runs did, as ``train`` keeps a
    cancelled run's, and ``ScalingSweep.complete`` tells them apart). ``stop_at_90`` ends each
    run once its steps to 90 % are known (quicker; only those then mean anything). Each run's
    ``TrainResult`` holds its curves and summaries, not its final weights (``params`` is
    empty). ``on_scaling(index, sweep)`` is called as each scaling completes. With ``workers``
    > 1 (default: :func:`default_workers`) scalings train in that many threads at once (fewer
    if that many would not fit ``MEMORY_BUDGET``), so both callbacks may come from several
    threads and in any order of scalings.
    """
    for s in scalings:
        check_choice("scaling", s, TRAINED_SCALINGS)
    workers = default_workers() if workers is None else check_int("workers", workers, 1, 64)
    order = list(dict.fromkeys(scalings))
    lrs, seeds = check_grid(config, LR_GRID[config.optimizer] if lrs is None else lrs, seeds,
                            scalings=len(order))
    # As many scalings at once as fit in memory (a large sweep trains them one after another).
    workers = sweep_threads(config, len(lrs) * len(seeds), workers, len(order))
    start = time.perf_counter()

    def one(index: int, scaling: str) -> ScalingSweep | None:
        if should_stop is not None and should_stop():
            return None

        def report(steps: int, curves: dict[str, np.ndarray]) -> None:
            assert progress is not None  # report is passed on only with a progress
            progress(index, steps, curves)

        grid = train_grid(replace(config, scaling=scaling), lrs, seeds,
                          None if progress is None else report, should_stop, progress_every,
                          stop_at_90)
        # A sweep keeps its runs' curves, not their final weights: nothing reads them, and
        # kept until the sweep ends they would cost a wide layer's 45 runs 100 MB per scaling.
        sweep = ScalingSweep(scaling, lrs, seeds, tuple(tuple(replace(r, params={}) for r in row) for row in grid))
        del grid
        if not sweep.complete:
            trained = any(r.steps_done for row in sweep.runs for r in row)
            return sweep if keep_partial and trained else None
        if on_scaling is not None:
            on_scaling(index, sweep)
        return sweep

    jobs = sorted(enumerate(order), key=lambda job: -_COST.get(job[1], 1.0))
    if workers == 1 or len(order) == 1:
        finished = {}
        for index, scaling in enumerate(order):  # one thread: in the order asked
            sweep = finished[index] = one(index, scaling)
            if sweep is None or not sweep.complete:
                break
    else:
        with ThreadPoolExecutor(max_workers=min(workers, len(order)),
                                thread_name_prefix="sqrtdk-sweep") as pool:
            futures = {index: pool.submit(one, index, scaling) for index, scaling in jobs}
            finished = {index: f.result() for index, f in futures.items()}
    done = {order[i]: sweep for i, sweep in sorted(finished.items()) if sweep is not None}
    cancelled = sum(sweep.complete for sweep in done.values()) < len(order)
    return SweepResult(config, lrs, seeds, done, cancelled, time.perf_counter() - start)


def band(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Median, lowest and highest over axis 0 (the seeds), ignoring NaN.

    A column that is NaN for every seed stays NaN (numpy warns about it; we do not).
    """
    v = np.asarray(values, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmedian(v, axis=0), np.nanmin(v, axis=0), np.nanmax(v, axis=0)


def rolling_median(x: np.ndarray, window: int) -> np.ndarray:
    """Median of the last ``window`` values at each step (fewer at the start), ignoring NaN."""
    x = np.asarray(x, dtype=float)
    if x.size == 0 or window <= 1:
        unchanged: np.ndarray = x.copy()
        return unchanged
    padded = np.concatenate([np.full(window - 1, np.nan), x])
    views = np.lib.stride_tricks.sliding_window_view(padded, window)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        medians: np.ndarray = np.nanmedian(views, axis=1)
        return medians


def span_text(values: Iterable[float], fmt: str = "{:g}") -> str:
    """"20" or "39–53": the range of some numbers, one number when they agree."""
    values = list(values)
    return _span(values, fmt) if values else "–"


def verdict(sweeps: dict[str, ScalingSweep]) -> str:
    """One or two sentences comparing raw and ÷√d_k each at its best rate (HTML, <b> only)."""
    raw, scaled = sweeps.get("none"), sweeps.get("sqrt_dk")
    if raw is None or scaled is None:
        return ""
    n = len(raw.lrs)
    rb, sb = raw.best_steps_range(), scaled.best_steps_range()
    rw, sw = raw.working_counts(), scaled.working_counts()
    if sb is None and rb is None:
        text = _("Neither reached 90 % at any rate for every seed.")
    elif rb is None:
        assert sb is not None  # not both None: the case above
        text = _("At its best rate ÷√d_k reached 90 % in <b>{scaled}</b> steps; raw "
                 "logits did not reach it at any rate for every seed.").format(scaled=span_text(sb))
    elif sb is None:
        text = _("At its best rate raw reached 90 % in <b>{raw}</b> steps; ÷√d_k "
                 "did not reach it at any rate for every seed.").format(raw=span_text(rb))
    else:
        text = _("Each at its best rate, 90 % took ÷√d_k <b>{scaled}</b> steps, raw "
                 "<b>{raw}</b>.").format(scaled=span_text(sb), raw=span_text(rb))
    rates = ngettext("Raw trained at <b>{raw} of {n}</b> rate, ÷√d_k at <b>{scaled}</b>.",
                     "Raw trained at <b>{raw} of {n}</b> rates, ÷√d_k at <b>{scaled}</b>.", n)
    return text + " " + rates.format(raw=span_text(rw), n=n, scaled=span_text(sw))


def _span(values: list[float], fmt: str = "{:g}") -> str:
    lo, hi = min(values), max(values)
    return fmt.format(lo) if lo == hi else f"{fmt.format(lo)}–{fmt.format(hi)}"
