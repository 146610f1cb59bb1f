"""What the texts say about training, as checkable claims: every figure quoted from the lab.

Training at a high learning rate is chaotic: the last bits of a BLAS kernel (OpenBLAS picks
one per CPU) change a run's trajectory after a few dozen steps, so a number read off one run
on one machine is not a fact. Each claim here is a phrase the training-lab guide, the lesson
or the lab quotes, the experiment that measures it over several seeds, and the interval the
phrase states. A test recomputes every claim and checks that every seed's value lies in its
interval; CI runs that test under several OpenBLAS kernels. The intervals are wide where the
runs scatter (orders of magnitude for gradients that collapse) and narrow where they do not
(÷√d_k at these rates and the step-0 numbers, which are the same on every kernel).

numpy + stdlib only (no Qt).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from sqrtdk_gui.core.i18n import N_, format_number
from sqrtdk_gui.core.training.loop import WINDOW, TrainConfig, TrainResult, train_grid
from sqrtdk_gui.core.training.lr_sweep import LR_GRID, SweepResult, run_sweep

__all__ = ["D_K", "SWEEP_SEEDS", "DEPTH_SEEDS", "RUN_SEEDS", "START_SEEDS", "START_CHECK_SEEDS", "HIGH_LR",
           "LabClaim", "LAB_CLAIMS", "sweep", "runs", "starts", "late_ratio", "claim_values", "check"]

D_K = 256
SWEEP_SEEDS = (0, 1, 2, 3, 4)  # a sweep is 9 rates x these seeds per scaling
SWEEP_CHECK_SEEDS = tuple(range(5, 15))  # the SGD sweep's figures, checked on seeds not quoted
DEPTH_SEEDS = (0, 1, 2)  # deeper raw stacks never stop early: the costliest sweeps
DEPTH_CHECK_SEEDS = (3, 4, 5)  # the deeper sweeps' figures, checked on seeds not quoted
RUN_SEEDS = tuple(range(8))  # single-rate experiments are cheap: more seeds
RUN_CHECK_SEEDS = tuple(range(8, 24))  # the single-rate figures, checked on seeds not quoted
# The first batch needs no training: its figures are quoted from seeds 0–63, widened by 15 % of
# their width on each side, and a test checks them against seeds 64–127.
START_SEEDS = tuple(range(64))
START_CHECK_SEEDS = tuple(range(64, 128))
HIGH_LR = 5.0  # the lab's "One high rate" (ten times the SGD default)


# --- experiments (each computed once per process) ----------------------------------------
def sweep(optimizer: str = "sgd", layers: int = 1, scalings: tuple[str, ...] | None = None) -> SweepResult:
    """The lab's sweep at d_k 256, 400 steps, over SWEEP_SEEDS (DEPTH_SEEDS with several
    layers); each run stops once it reaches 90 %. Scalings: raw, ÷√d_k and, with one layer,
    QK-norm. Computed once per process."""
    if scalings is None:
        scalings = _scalings(optimizer, layers)
    return _sweep(optimizer, layers, tuple(scalings))


@functools.cache
def _sweep(optimizer: str, layers: int, scalings: tuple[str, ...],
           seeds: tuple[int, ...] | None = None) -> SweepResult:
    config = TrainConfig(d_k=D_K, optimizer=optimizer, layers=layers)
    if seeds is None:
        seeds = SWEEP_SEEDS if layers == 1 else DEPTH_SEEDS
    return run_sweep(config, scalings, LR_GRID[optimizer], seeds, stop_at_90=True)


def _unseen(scaling: str, optimizer: str = "sgd", layers: int = 1) -> Any:
    """The sweep of ``scaling`` over the seeds its quotes were not built from: SWEEP_CHECK_SEEDS
    with one layer, DEPTH_CHECK_SEEDS with more (computed once)."""
    scalings = _scalings(optimizer, layers)
    seeds = SWEEP_CHECK_SEEDS if layers == 1 else DEPTH_CHECK_SEEDS
    return _sweep(optimizer, layers, scalings, seeds).scalings[scaling]


@functools.cache
def runs(scaling: str, lr: float = HIGH_LR, learn_v: bool = False,
         seeds: tuple[int, ...] = RUN_SEEDS) -> tuple[TrainResult, ...]:
    """400 SGD steps at d_k 256 and one rate, one run per seed (of RUN_SEEDS)."""
    grid = train_grid(TrainConfig(d_k=D_K, scaling=scaling, learn_v=learn_v), (lr,), seeds)
    return tuple(row[0] for row in grid)


@functools.cache
def starts(scaling: str, seeds: tuple[int, ...] = START_SEEDS) -> tuple[TrainResult, ...]:
    """The first batch at the high SGD rate, one one-step run per seed (the same first batch,
    weights and numbers as the 400-step runs')."""
    grid = train_grid(TrainConfig(d_k=D_K, scaling=scaling, steps=1), (HIGH_LR,), seeds)
    return tuple(row[0] for row in grid)


def late_ratio(r: TrainResult, curve: str, window: int = WINDOW) -> float:
    """Median of a gradient curve over the last ``window`` steps, over its first step."""
    values = getattr(r, curve)
    return float(np.median(values[-window:]) / values[0])


# --- claims ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class LabClaim:
    """A quoted phrase, where it is quoted, how it is measured and the interval it states.

    ``values()`` returns one number per seed (or per seed and rate); every one must lie in
    [lo, hi]. ``log`` claims are about orders of magnitude: lo and hi are powers of ten.
    """

    key: str
    phrase: str  # marked with N_: the table shows it translated
    where: tuple[str, ...]
    how: str  # marked with N_; {sweep}, {adam}, {depth}, {run} name the experiment
    values: Callable[[], list[float]]
    lo: float
    hi: float
    log: bool = False
    lr: float = HIGH_LR  # the rate of {run}
    # The same measure on seeds the interval was not built from (the first batch's on
    # START_CHECK_SEEDS, the one-layer sweeps' on SWEEP_CHECK_SEEDS, the deeper ones' on
    # DEPTH_CHECK_SEEDS, the single-rate runs' on RUN_CHECK_SEEDS): at least 97 % of them must
    # lie in [lo, hi] too.
    unseen: Callable[[], list[float]] | None = None

    def __post_init__(self) -> None:
        if self.unseen is None and isinstance(self.values, _PerRun):
            object.__setattr__(self, "unseen", self.values.unseen)

    def description(self, tr: Callable[[str], str] = lambda text: text) -> str:
        """How the claim is measured, in English or through ``tr`` (``core.i18n._``)."""
        return tr(self.how).format(
            sweep=tr(_SWEEP).format(d_k=D_K), adam=tr(_ADAM).format(d_k=D_K), depth=tr(_DEPTH).format(d_k=D_K),
            run=tr(_RUN).format(lr=format_number(self.lr), d_k=D_K),
            start=tr(_START).format(lr=format_number(self.lr), d_k=D_K), high=format_number(HIGH_LR), d_k=D_K)


def _best_steps(scaling: str, optimizer: str = "sgd", layers: int = 1, unseen: bool = False) -> list[float]:
    sw = _unseen(scaling, optimizer, layers) if unseen else sweep(optimizer, layers).scalings[scaling]
    return [math.inf if b is None else b[1] for b in sw.best_per_seed()]


def _best_lrs(scaling: str, optimizer: str = "sgd", unseen: bool = False) -> list[float]:  # NaN: no rate works
    sw = _unseen(scaling, optimizer) if unseen else sweep(optimizer).scalings[scaling]
    return [math.nan if b is None else b[0] for b in sw.best_per_seed()]


def _working(scaling: str, optimizer: str = "sgd", layers: int = 1, unseen: bool = False) -> list[float]:
    sw = _unseen(scaling, optimizer, layers) if unseen else sweep(optimizer, layers).scalings[scaling]
    return [float(n) for n in sw.working_counts()]


def _scalings(optimizer: str, layers: int) -> tuple[str, ...]:
    return ("none", "sqrt_dk", "qk_norm") if layers == 1 else ("none", "sqrt_dk")


@dataclass(frozen=True)
class _PerRun:
    """A measure of each single-rate run: on RUN_SEEDS when called, on RUN_CHECK_SEEDS by
    ``unseen`` (which a claim built from it checks too)."""

    scaling: str
    fn: Callable[[TrainResult], float]
    lr: float = HIGH_LR
    learn_v: bool = False

    def __call__(self) -> list[float]:
        return [float(self.fn(r)) for r in runs(self.scaling, self.lr, self.learn_v)]

    def unseen(self) -> list[float]:
        return [float(self.fn(r)) for r in runs(self.scaling, self.lr, self.learn_v, RUN_CHECK_SEEDS)]



def _at_start(scaling: str, fn: Callable[[TrainResult], float],
              seeds: tuple[int, ...] = START_SEEDS) -> Callable[[], list[float]]:
    return lambda: [float(fn(r)) for r in starts(scaling, seeds)]


def _shared_rate(scaling: str, seeds: tuple[int, ...] = RUN_SEEDS) -> list[float]:
    """Steps to 90 % at the one shared rate 0.2 (inf where not reached)."""
    return [math.inf if r.steps_to_90 is None else r.steps_to_90 for r in runs(scaling, 0.2, False, seeds)]


def _shared_rate_lead(seeds: tuple[int, ...] = RUN_SEEDS) -> list[float]:
    """Per seed, raw's steps to 90 % at rate 0.2 minus ÷√d_k's."""
    return [a - b for a, b in zip(_shared_rate("none", seeds), _shared_rate("sqrt_dk", seeds))]


def _wrong_key(seeds: tuple[int, ...] = RUN_SEEDS) -> list[float]:
    """Per seed and rate (0.05, 0.5, the high one), the share of rows saturated on a wrong key, ÷√d_k."""
    return [r.stuck_fraction for lr in (0.05, 0.5, HIGH_LR) for r in runs("sqrt_dk", lr, False, seeds)]


def _rates_from(scaling: str, lr: float, unseen: bool = False) -> list[float]:
    """Per seed, how many of the grid's rates >= lr reach 90 %."""
    sw = _unseen(scaling) if unseen else sweep().scalings[scaling]
    cols = [j for j, x in enumerate(sw.lrs) if x >= lr]
    return [float(row[cols].sum()) for row in sw.works()]


def _depth(scaling: str, unseen: bool = False) -> list[float]:
    return [n for layers in (2, 3, 4) for n in _working(scaling, "sgd", layers, unseen)]


def _depth_best(scaling: str, unseen: bool = False) -> list[float]:
    return [n for layers in (2, 3, 4) for n in _best_steps(scaling, "sgd", layers, unseen)]


_PAGES = "sqrtdk_gui/core/lesson/pages"
LAB_GUIDE, STEP5, LAB = "docs/user-guide/lab.md", f"{_PAGES}/step5.html", "sqrtdk_gui/gui/lab/controls.py"
INTERVIEW = f"{_PAGES}/followup_interview.html"
STEP2, SMALL_HEADS = f"{_PAGES}/step2.html", f"{_PAGES}/trap_small_heads.html"
# The experiments a description names ({sweep}, {adam}, {depth}, {run}), marked for translation.
_SWEEP = N_("SGD sweep, d_k {d_k}, 400 steps (a run stops once it reaches 90 %), the 9 rates 0.05 … 20, seeds 0–4")
_ADAM = N_("Adam sweep, d_k {d_k}, 400 steps, the 9 rates 1e-4 … 1, seeds 0–4")
_DEPTH = N_("SGD sweep with 2, 3 and 4 layers, d_k {d_k}, the 9 rates, seeds 0–2")
_RUN = N_("one SGD run per seed at lr {lr}, d_k {d_k}, 400 steps, seeds 0–7")
_START = N_("the first batch of an SGD run at lr {lr}, d_k {d_k}, seeds 0–63")


LAB_CLAIMS: tuple[LabClaim, ...] = (
    # --- the sweep: each scaling at its own best rate -------------------------------------
    LabClaim("sweep_raw_best", N_("raw logits reach 90 % accuracy in 30–60 steps"), (STEP5, LAB_GUIDE, LAB),
             N_("{sweep}: each seed's fewest steps to 90 % over the rates, raw"),
             lambda: _best_steps("none"), 30, 60, unseen=lambda: _best_steps("none", unseen=True)),
    LabClaim("sweep_raw_best_lr", N_("at lr 0.2–1"), (STEP5, LAB_GUIDE),
             N_("{sweep}: the rate of each seed's fewest steps, raw"),
             lambda: _best_lrs("none"), 0.2, 1, unseen=lambda: _best_lrs("none", unseen=True)),
    LabClaim("sweep_scaled_best", N_("÷√dk in 20–22 steps"), (STEP5, LAB_GUIDE, LAB),
             N_("{sweep}: each seed's fewest steps to 90 %, ÷√d_k"),
             lambda: _best_steps("sqrt_dk"), 20, 22, unseen=lambda: _best_steps("sqrt_dk", unseen=True)),
    LabClaim("sweep_scaled_best_lr", N_("at lr 5–10"), (STEP5, LAB_GUIDE),
             N_("{sweep}: the rate of each seed's fewest steps, ÷√d_k"),
             lambda: _best_lrs("sqrt_dk"), 5, 10, unseen=lambda: _best_lrs("sqrt_dk", unseen=True)),
    LabClaim("sweep_qk_best", N_("QK-norm in 20–22 steps"), (LAB_GUIDE,),
             N_("{sweep}: each seed's fewest steps to 90 %, QK-norm"),
             lambda: _best_steps("qk_norm"), 20, 22, unseen=lambda: _best_steps("qk_norm", unseen=True)),
    LabClaim("sweep_raw_works", N_("Raw reaches 90 % at 4–6 of the 9 rates"), (STEP5, LAB_GUIDE, LAB),
             N_("{sweep}: per seed, the rates at which raw reaches 90 %"),
             lambda: _working("none"), 4, 6, unseen=lambda: _working("none", unseen=True)),
    LabClaim("sweep_raw_high", N_("never from lr 2 up"), (STEP5, LAB_GUIDE),
             N_("{sweep}: per seed, the rates >= 2 at which raw reaches 90 %"),
             lambda: _rates_from("none", 2.0), 0, 0, unseen=lambda: _rates_from("none", 2.0, unseen=True)),
    LabClaim("sweep_scaled_works", N_("÷√dk at 9 of 9"), (STEP5, LAB_GUIDE, LAB),
             N_("{sweep}: per seed, the rates at which ÷√d_k reaches 90 %"),
             lambda: _working("sqrt_dk"), 9, 9, unseen=lambda: _working("sqrt_dk", unseen=True)),
    LabClaim("sweep_qk_works", N_("QK-norm at 9 of 9"), (LAB_GUIDE, LAB),
             N_("{sweep}: per seed, the rates at which QK-norm reaches 90 %"),
             lambda: _working("qk_norm"), 9, 9, unseen=lambda: _working("qk_norm", unseen=True)),
    LabClaim("shared_rate", N_("raw reaches 90 % sooner than ÷√dk on every seed"), (LAB_GUIDE,),
             N_("{run}: raw's steps to 90 % minus ÷√d_k's"),
             _shared_rate_lead, -math.inf, -1, lr=0.2, unseen=lambda: _shared_rate_lead(RUN_CHECK_SEEDS)),
    # --- Adam ------------------------------------------------------------------------------
    LabClaim("adam_raw_works", N_("Adam: raw at 3–4 of 9"), (LAB_GUIDE, LAB),
             N_("{adam}: per seed, the rates at which raw reaches 90 %"),
             lambda: _working("none", "adam"), 3, 4, unseen=lambda: _working("none", "adam", unseen=True)),
    LabClaim("adam_scaled_works", N_("÷√dk at 6–7"), (LAB_GUIDE, LAB),
             N_("{adam}: per seed, the rates at which ÷√d_k reaches 90 %"),
             lambda: _working("sqrt_dk", "adam"), 6, 7, unseen=lambda: _working("sqrt_dk", "adam", unseen=True)),
    LabClaim("adam_qk_works", N_("QK-norm at 9"), (LAB_GUIDE, LAB),
             N_("{adam}: per seed, the rates at which QK-norm reaches 90 %"),
             lambda: _working("qk_norm", "adam"), 9, 9, unseen=lambda: _working("qk_norm", "adam", unseen=True)),
    LabClaim("adam_raw_best", N_("Adam: raw logits in 45–85 steps at lr 0.01"), (LAB_GUIDE,),
             N_("{adam}: each seed's fewest steps to 90 %, raw"),
             lambda: _best_steps("none", "adam"), 45, 85,
             unseen=lambda: _best_steps("none", "adam", unseen=True)),
    LabClaim("adam_raw_best_lr", N_("Adam: raw logits in 45–85 steps at lr 0.01"), (LAB_GUIDE,),
             N_("{adam}: the rate of each seed's fewest steps, raw"),
             lambda: _best_lrs("none", "adam"), 0.01, 0.01, unseen=lambda: _best_lrs("none", "adam", unseen=True)),
    LabClaim("adam_scaled_best_lr", N_("÷√dk and QK-norm in 20–22 at lr 0.03"), (LAB_GUIDE,),
             N_("{adam}: the rate of each seed's fewest steps, ÷√d_k and QK-norm"),
             lambda: _best_lrs("sqrt_dk", "adam") + _best_lrs("qk_norm", "adam"), 0.03, 0.03,
             unseen=lambda: _best_lrs("sqrt_dk", "adam", unseen=True) + _best_lrs("qk_norm", "adam", unseen=True)),
    LabClaim("adam_scaled_best", N_("÷√dk and QK-norm in 20–22 at lr 0.03"), (LAB_GUIDE,),
             N_("{adam}: each seed's fewest steps to 90 %, ÷√d_k and QK-norm"),
             lambda: _best_steps("sqrt_dk", "adam") + _best_steps("qk_norm", "adam"), 20, 22,
             unseen=lambda: _best_steps("sqrt_dk", "adam", unseen=True) + _best_steps("qk_norm", "adam", unseen=True)),
    # --- depth ------------------------------------------------------------------------------
    LabClaim("depth_raw", N_("With 2–4 layers raw trains at none of the 9 SGD rates"),
             (LAB_GUIDE, LAB, STEP2, SMALL_HEADS),
             N_("{depth}: per seed and depth, the rates at which raw reaches 90 %"),
             lambda: _depth("none"), 0, 0, unseen=lambda: _depth("none", unseen=True)),
    LabClaim("depth_scaled", N_("÷√dk at 5–7"), (LAB_GUIDE, LAB),
             N_("{depth}: per seed and depth, the rates at which ÷√d_k reaches 90 %"),
             lambda: _depth("sqrt_dk"), 5, 7, unseen=lambda: _depth("sqrt_dk", unseen=True)),
    LabClaim("depth_scaled_best", N_("in 20–50 steps at its best rate"), (LAB_GUIDE,),
             N_("{depth}: per seed and depth, ÷√d_k's fewest steps to 90 %"),
             lambda: _depth_best("sqrt_dk"), 20, 50, unseen=lambda: _depth_best("sqrt_dk", unseen=True)),
    # --- over training at the high rate -------------------------------------------------------
    LabClaim("raw_saturated_start", N_("raw logits start with 40–85 % of their rows saturated"), (STEP2,),
             N_("{start}: share of rows with max p > 0.99, raw"),
             _at_start("none", lambda r: r.saturated[0]), 0.4, 0.85,
             unseen=_at_start("none", lambda r: r.saturated[0], START_CHECK_SEEDS)),
    LabClaim("step2_raw_rates", N_("they still reach 90 % at 4–6 of the 9 rates, but never from lr 2 up"), (STEP2,),
             N_("{sweep}: per seed, the rates at which raw reaches 90 % (and none from lr 2 up: "
                "sweep_raw_high)"), lambda: _working("none"), 4, 6, unseen=lambda: _working("none", unseen=True)),
    LabClaim("raw_logit_start", N_("raw logits grow from 45–95 at the first step"), (LAB_GUIDE, INTERVIEW),
             N_("{start}: the largest |logit|, raw"),
             _at_start("none", lambda r: r.max_logit[0]), 45, 95,
             unseen=_at_start("none", lambda r: r.max_logit[0], START_CHECK_SEEDS)),
    LabClaim("raw_logit_end", N_("to 10⁴–10⁶ by step 400"), (LAB_GUIDE, INTERVIEW),
             N_("{run}: the largest |logit| of the last batch, raw"),
             _PerRun("none", lambda r: r.max_logit[-1]), 1e4, 1e6, log=True),
    LabClaim("scaled_logit_start", N_("÷√dk's go from 2.9–5.7"), (LAB_GUIDE, INTERVIEW),
             N_("{start}: the largest |logit|, ÷√d_k"),
             _at_start("sqrt_dk", lambda r: r.max_logit[0]), 2.9, 5.7,
             unseen=_at_start("sqrt_dk", lambda r: r.max_logit[0], START_CHECK_SEEDS)),
    LabClaim("scaled_logit_end", N_("to 16–23"), (LAB_GUIDE, INTERVIEW),
             N_("{run}: the largest |logit| of the last batch, ÷√d_k"),
             _PerRun("sqrt_dk", lambda r: r.max_logit[-1]), 16, 23),
    LabClaim("raw_entropy_start", N_("entropy 0.07–0.28 nats of a possible 2.77"), (LAB_GUIDE,),
             N_("{start}: mean attention entropy, raw"),
             _at_start("none", lambda r: r.entropy[0]), 0.07, 0.28,
             unseen=_at_start("none", lambda r: r.entropy[0], START_CHECK_SEEDS)),
    LabClaim("raw_entropy_end", N_("ends below 0.01"), (LAB_GUIDE,),
             N_("{run}: mean entropy over the last 20 steps, raw"),
             _PerRun("none", lambda r: r.final_entropy), 0, 0.01),
    LabClaim("raw_stuck", N_("over 75 % of rows saturated on a wrong key"), (LAB_GUIDE,),
             N_("{run}: share of rows with max p > 0.99 on a wrong key, last 20 steps, raw"),
             _PerRun("none", lambda r: r.stuck_fraction), 0.75, 1),
    LabClaim("scaled_entropy_start", N_("entropy also falls (2.2–2.4"), (LAB_GUIDE,),
             N_("{run}: mean entropy of the first batch, ÷√d_k"),
             _PerRun("sqrt_dk", lambda r: r.entropy[0]), 2.2, 2.4),
    LabClaim("scaled_entropy_end", N_("→ 0.02–0.04)"), (LAB_GUIDE,),
             N_("{run}: mean entropy over the last 20 steps, ÷√d_k"),
             _PerRun("sqrt_dk", lambda r: r.final_entropy), 0.02, 0.04),
    LabClaim("raw_grad_q", N_("the gradient reaching W_q and W_k falls below 10⁻⁴ of its start on a typical step"),
             (LAB_GUIDE,),
             N_("{run}: median ‖∂L/∂W_q‖ of the last 20 steps over the first, raw (W_v fixed)"),
             _PerRun("none", lambda r: late_ratio(r, "grad_q")), 0, 1e-4),
    LabClaim("raw_grad_k", N_("the gradient reaching W_q and W_k falls below 10⁻⁴ of its start on a typical step"),
             (LAB_GUIDE,),
             N_("{run}: median ‖∂L/∂W_k‖ of the last 20 steps over the first, raw (W_v fixed)"),
             _PerRun("none", lambda r: late_ratio(r, "grad_k")), 0, 1e-4),
    LabClaim("raw_grad_q_mean", N_("the 50-step mean is 10⁻⁶–1 of the start"), (LAB_GUIDE,),
             N_("{run}: mean ‖∂L/∂W_q‖ of the last 50 steps over the first, raw (W_v fixed)"),
             _PerRun("none", lambda r: np.mean(r.grad_q[-50:]) / r.grad_q[0]), 1e-6, 1, log=True),
    LabClaim("raw_grad_v", N_("keeps its size (0.7–1.3 of its start"), (LAB_GUIDE,),
             N_("{run}: median ‖∂L/∂W_v‖ of the last 20 steps over the first, raw (W_v fixed)"),
             _PerRun("none", lambda r: late_ratio(r, "grad_v")), 0.7, 1.3),
    LabClaim("learned_grad_v", N_("0.3–0.8 of its start"), (LAB_GUIDE,),
             N_("{run} with W_v learned: median ‖∂L/∂W_v‖ of the last 20 steps over the first, raw"),
             _PerRun("none", lambda r: late_ratio(r, "grad_v"), learn_v=True), 0.3, 0.8),
    LabClaim("learned_grad_q", N_("while W_q's falls below 5 %"), (LAB_GUIDE,),
             N_("{run} with W_v learned: median ‖∂L/∂W_q‖ of the last 20 steps over the first, raw"),
             _PerRun("none", lambda r: late_ratio(r, "grad_q"), learn_v=True), 0, 0.05),
    # --- the lab's "One high rate" and what a trained ÷√d_k head looks like ------------------
    LabClaim("high_raw_stalls", N_("raw logits stay below 20 % accuracy"), (LAB_GUIDE,),
             N_("{run}: mean accuracy of the last 20 steps, raw (none reaches 90 %)"),
             _PerRun("none", lambda r: r.final_accuracy if r.steps_to_90 is None else 1.0), 0, 0.2),
    LabClaim("high_scaled_trains", N_("÷√dk reaches 90 % in 20–22 steps"), (LAB_GUIDE,),
             N_("{run}: steps to 90 %, ÷√d_k"),
             _PerRun("sqrt_dk", lambda r: math.inf if r.steps_to_90 is None else r.steps_to_90),
             20, 22),
    LabClaim("trained_saturated_high", N_("85–95 % of their rows saturated at lr 5"), (STEP5, LAB_GUIDE),
             N_("{run}: share of rows with max p > 0.99 over the last 20 steps, ÷√d_k"),
             _PerRun("sqrt_dk", lambda r: r.saturated_fraction), 0.85, 0.95),
    LabClaim("trained_saturated_mid", N_("50–60 % at lr 0.5"), (STEP5, LAB_GUIDE),
             N_("{run}: the same share, ÷√d_k"),
             _PerRun("sqrt_dk", lambda r: r.saturated_fraction, lr=0.5), 0.5, 0.6, lr=0.5),
    LabClaim("trained_saturated_low", N_("3–7 % at lr 0.05"), (STEP5, LAB_GUIDE),
             N_("{run}: the same share, ÷√d_k"),
             _PerRun("sqrt_dk", lambda r: r.saturated_fraction, lr=0.05), 0.03, 0.07, lr=0.05),
    LabClaim("trained_right_key", N_("all of them on the right key"), (STEP5, LAB_GUIDE),
             N_("one SGD run per seed at lr 0.05, 0.5 and {high}, d_k {d_k}, 400 steps, seeds 0–7: share of rows "
                "saturated on a wrong key, ÷√d_k"),
             _wrong_key, 0, 0, unseen=lambda: _wrong_key(RUN_CHECK_SEEDS)),
)


def claim_values(claim: LabClaim) -> list[float]:
    """The measured values of a claim (runs its experiments on first use)."""
    return [float(v) for v in claim.values()]


def check(claim: LabClaim) -> list[float]:
    """The values that fall outside the claim's interval (empty: the claim holds)."""
    return [v for v in claim_values(claim) if not (claim.lo <= v <= claim.hi)]
