"""Training lab: train attention on associative recall, raw vs scaled logits.

numpy + stdlib only (no Qt), so it runs headless, in tests and in a GUI worker thread.
The task and the hand-written backward pass live in :mod:`sqrtdk_gui.core.training.task`;
this module holds the configuration, the optimisers, the loop and the metrics. Besides
loss, accuracy, entropy, saturated and stuck shares, every step records the largest |logit|
and the size of the gradient reaching W_q, W_k and W_v. :func:`train_grid` trains many
learning rates and seeds in one set of numpy calls (what the learning-rate sweeps use).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import cast

import numpy as np
import numpy.typing as npt

from sqrtdk_gui.core.attention.scaling import TRAINED_SCALINGS
from sqrtdk_gui.core.attention.softmax import SATURATION
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.training.task import (
    LOSSES,
    MAX_LAYERS,
    Batch,
    Forward,
    init_params,
    logit_scale,
    loss_and_grad,
    make_batch,
    param_kind,
)
from sqrtdk_gui.core.validation import check_choice, check_float, check_int

__all__ = [
    "LOSSES",
    "OPTIMIZERS",
    "INT_RANGES",
    "FLOAT_RANGES",
    "DEFAULT_LR",
    "MAX_ELEMENTS",
    "WINDOW",
    "SATURATION",
    "METRIC_NAMES",
    "TrainConfig",
    "TrainResult",
    "SGD",
    "Adam",
    "make_optimizer",
    "attention_metrics",
    "train",
    "train_grid",
    "GRAD_CURVES",
    "MAX_LAYERS",
    "Batch",
    "Forward",
    "make_batch",
    "init_params",
    "logit_scale",
    "loss_and_grad",
]

OPTIMIZERS = ("sgd", "adam")
# Inclusive integer ranges. d_k spans the lesson's 4..1024 with room either side.
INT_RANGES: dict[str, tuple[int, int]] = {
    "d_k": (1, 4096),
    "d_model": (1, 1024),
    "n_keys": (2, 1024),
    "d_v": (1, 1024),
    "batch": (1, 4096),
    "steps": (1, 100_000),
    "seed": (0, 2**32 - 1),
    "layers": (1, MAX_LAYERS),
}
# (low, high, low_inclusive); high is inclusive.
FLOAT_RANGES: dict[str, tuple[float, float, bool]] = {
    "noise": (0.0, 10.0, True),
    "lr": (0.0, 100.0, False),
    "gain": (0.0, 100.0, False),
}
# Chosen once, from a sweep of the ÷√d_k reference layer at d_k=64 only (400 steps, seed 0):
# SGD trains there for 0.05..5 and starts leaving stuck rows at 10; Adam trains for 1e-3..1e-2
# and leaves stuck rows from 3e-2. Each default sits ~10-20x below that edge, and both reach
# 90 % accuracy in ~35-40 steps. Raw and QK-norm runs get the same rate on purpose.
DEFAULT_LR = {"sgd": 0.5, "adam": 3e-3}
# Largest B * n_keys * max(d_k, d_model, d_v): several float64 arrays of this size live at
# once, so 2**24 keeps a step under ~1 GB.
MAX_ELEMENTS = 2**24
WINDOW = 20  # steps averaged for final_* and for steps_to_90 (fresh batches are noisy)
METRIC_NAMES = ("loss", "accuracy", "entropy", "saturated", "stuck", "grad_norm", "max_logit",
                "grad_q", "grad_k", "grad_v")
# Curve name -> the parameters whose gradient norm it records (over every layer).
GRAD_CURVES = {"grad_q": "W_q", "grad_k": "W_k", "grad_v": "W_v"}


@dataclass(frozen=True)
class TrainConfig:
    """One training run. Invalid values raise ValueError naming parameter, value and range.

    ``gain`` (QK-norm only) multiplies the cosine, so logits live in [-gain, gain]. It is a
    fixed constant, not learned: a gain of sqrt(d_k) would bring back the d_k dependence
    (32 at d_k=1024) and cap small heads (2 at d_k=4, top weight <= 0.33 of 16 keys).
    Reaching a top weight of 0.99 among 16 keys needs a logit gap of ln(99*15) ~ 7.3, and
    the noisy query's cosine with its key is ~0.9, so 10 leaves room while starting
    near-uniform.
    """

    d_k: int = 64
    d_model: int = 64
    n_keys: int = 16
    d_v: int = 16
    batch: int = 64
    noise: float = 0.5
    scaling: str = "sqrt_dk"
    optimizer: str = "sgd"
    lr: float | None = None  # None: DEFAULT_LR[optimizer]
    steps: int = 400
    seed: int = 0
    loss: str = "mse"
    gain: float = 10.0
    layers: int = 1  # attention layers; below the last they add to the query's stream
    learn_v: bool = False  # W_v learned too (from the identity); False: fixed identity

    def __post_init__(self) -> None:
        for name, (lo, hi) in INT_RANGES.items():
            object.__setattr__(self, name, check_int(name, getattr(self, name), lo, hi))
        for name, allowed in (("scaling", TRAINED_SCALINGS), ("optimizer", OPTIMIZERS), ("loss", LOSSES)):
            check_choice(name, getattr(self, name), allowed)
        if not isinstance(self.learn_v, (bool, np.bool_)):
            raise ValueError(_("learn_v must be True or False, got {value}").format(value=repr(self.learn_v)))
        object.__setattr__(self, "learn_v", bool(self.learn_v))
        if self.lr is None:
            object.__setattr__(self, "lr", DEFAULT_LR[self.optimizer])
        for name, (low, high, low_inclusive) in FLOAT_RANGES.items():
            object.__setattr__(self, name, check_float(name, getattr(self, name), low, high, low_inclusive))
        size = self.batch * self.n_keys * max(self.d_k, self.d_model, self.d_v)
        if size > MAX_ELEMENTS:
            raise ValueError(
                _("batch*n_keys*max(d_k, d_model, d_v) = {size} exceeds {limit}; "
                  "reduce batch, n_keys or d_k").format(size=size, limit=MAX_ELEMENTS)
            )

    @property
    def scale(self) -> float:
        """Factor applied to q.k (to the cosine for qk_norm)."""
        return logit_scale(self.scaling, self.d_k, self.gain)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


class SGD:
    """Plain stochastic gradient descent (no momentum: the lesson is about the gradient)."""

    def __init__(self, lr: float | np.ndarray) -> None:
        self.lr = lr

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        for name, g in grads.items():
            params[name] -= self.lr * g

    def select(self, keep: np.ndarray) -> None:
        """Keep only these runs (axis 1 of a per-run learning-rate array)."""
        if isinstance(self.lr, np.ndarray) and self.lr.ndim > 1:
            self.lr = self.lr[:, keep]


class Adam:
    """Adam (Kingma & Ba 2015) with bias correction."""

    def __init__(self, lr: float | np.ndarray, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.t = 0
        self.m: dict[str, np.ndarray] = {}
        self.v: dict[str, np.ndarray] = {}

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        c1 = 1.0 - self.beta1**self.t
        c2 = 1.0 - self.beta2**self.t
        for name, g in grads.items():
            m = self.m.setdefault(name, np.zeros_like(g))
            v = self.v.setdefault(name, np.zeros_like(g))
            m *= self.beta1
            m += (1.0 - self.beta1) * g
            v *= self.beta2
            v += (1.0 - self.beta2) * (g * g)
            # Dividing by sqrt(v) rescales tiny gradients up, down to the eps floor.
            params[name] -= self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)

    def select(self, keep: np.ndarray) -> None:
        """Keep only these runs (axis 1 of the per-run rates and moment arrays)."""
        if isinstance(self.lr, np.ndarray) and self.lr.ndim > 1:
            self.lr = self.lr[:, keep]
        self.m = {name: a[:, keep] for name, a in self.m.items()}
        self.v = {name: a[:, keep] for name, a in self.v.items()}


def make_optimizer(name: str, lr: float | np.ndarray) -> SGD | Adam:
    if name == "sgd":
        return SGD(lr)
    if name == "adam":
        return Adam(lr)
    raise ValueError(f"optimizer must be one of {', '.join(OPTIMIZERS)}; got {name!r}")


def _metrics(z: np.ndarray, target: np.ndarray) -> dict[str, np.ndarray]:
    """Per-run accuracy, mean entropy, saturated and stuck shares of logit rows (..., B, n)."""
    n = z.shape[-1]
    top = np.argmax(z, axis=-1)
    m = np.take_along_axis(z, top[..., None], axis=-1)
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        e = np.exp(z - m)  # <= 1, exactly 1 at the argmax
        se = e.sum(axis=-1)
        p = e / se[..., None]
        # H = log(se) + sum p (m - z): two non-negative terms, so no cancellation near one-hot.
        entropy = np.clip(np.log(se) + np.sum(p * (m - z), axis=-1), 0.0, math.log(n))
    saturated = (1.0 / se) > SATURATION  # top weight is exactly 1/se
    correct = top == target
    return {
        "accuracy": np.mean(correct, axis=-1),
        "entropy": np.mean(entropy, axis=-1),
        "saturated": np.mean(saturated, axis=-1),
        "stuck": np.mean(saturated & ~correct, axis=-1),
    }


def attention_metrics(logits: np.ndarray, target: np.ndarray) -> dict[str, float]:
    """Accuracy, mean entropy, saturated share and stuck share of a batch of logit rows."""
    out = _metrics(np.asarray(logits, dtype=np.float64), np.asarray(target))
    return {name: float(value) for name, value in out.items()}


@dataclass(frozen=True)
class TrainResult:
    """Per-step curves (index i = batch i, measured before update i) and summaries."""

    config: TrainConfig
    loss: np.ndarray
    accuracy: np.ndarray  # argmax weight on the right key
    entropy: np.ndarray  # mean attention entropy (nats)
    saturated: np.ndarray  # share of rows with top weight > SATURATION
    stuck: np.ndarray  # share of rows saturated on a wrong key
    grad_norm: np.ndarray  # global L2 norm of the gradient of the learned parameters
    max_logit: np.ndarray  # largest |logit| in the batch, over every layer
    grad_q: np.ndarray  # ||dL/dW_q|| (Frobenius, over every layer)
    grad_k: np.ndarray  # ||dL/dW_k||
    grad_v: np.ndarray  # ||dL/dW_v|| (when W_v is not learned: the gradient it would get)
    cancelled: bool = False
    diverged: bool = False  # stopped because loss or gradient became non-finite
    wall_time: float = 0.0
    params: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def curves(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in METRIC_NAMES}

    @property
    def steps_done(self) -> int:
        return int(self.loss.size)

    @property
    def loss_curve(self) -> np.ndarray:
        return self.loss

    def _tail_mean(self, name: str) -> float:
        c = getattr(self, name)
        return float(np.mean(c[-WINDOW:])) if c.size else float("nan")

    @property
    def final_loss(self) -> float:
        """Mean loss over the last WINDOW steps."""
        return self._tail_mean("loss")

    @property
    def final_accuracy(self) -> float:
        return self._tail_mean("accuracy")

    @property
    def stuck_fraction(self) -> float:
        """Share of rows saturated on a wrong key, averaged over the last WINDOW steps."""
        return self._tail_mean("stuck")

    @property
    def saturated_fraction(self) -> float:
        return self._tail_mean("saturated")

    @property
    def final_entropy(self) -> float:
        return self._tail_mean("entropy")

    @property
    def steps_to_90(self) -> int | None:
        """Steps after which the trailing WINDOW-step mean accuracy first reaches 0.9."""
        acc = self.accuracy
        if acc.size < WINDOW:
            return None
        c = np.concatenate(([0.0], np.cumsum(acc)))
        mean = (c[WINDOW:] - c[:-WINDOW]) / WINDOW
        hits = np.flatnonzero(mean >= 0.9 - 1e-9)  # tolerance: accuracies are k/batch
        return int(hits[0]) + WINDOW if hits.size else None

    def summary(self) -> dict[str, object]:
        """JSON-ready summary (non-finite numbers become None)."""

        def clean(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {
            "config": self.config.to_dict(),
            "steps_done": self.steps_done,
            "cancelled": self.cancelled,
            "diverged": self.diverged,
            "wall_time_s": round(self.wall_time, 4),
            "final_loss": clean(self.final_loss),
            "final_accuracy": clean(self.final_accuracy),
            "steps_to_90": self.steps_to_90,
            "stuck_fraction": clean(self.stuck_fraction),
            "saturated_fraction": clean(self.saturated_fraction),
            "final_entropy": clean(self.final_entropy),
            "loss_curve": [clean(x) for x in self.loss_curve.tolist()],
            "max_logit_curve": [clean(x) for x in self.max_logit.tolist()],
            "entropy_curve": [clean(x) for x in self.entropy.tolist()],
            "grad_norm_curves": {
                kind: [clean(x) for x in getattr(self, name).tolist()]
                for name, kind in GRAD_CURVES.items()
            },
        }


def _frozen(view: np.ndarray) -> np.ndarray:
    view.flags.writeable = False
    return view


def train(
    config: TrainConfig,
    progress: Callable[[int, dict[str, np.ndarray]], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    progress_every: int = 10,
) -> TrainResult:
    """Train from ``init_params(config.seed, ...)`` on fresh seeded batches.

    ``progress(steps_done, curves_so_far)`` is called every ``progress_every`` steps and at
    the end. The arrays are read-only views of entries that are never written again, so
    another thread may keep and read them without copying. ``should_stop()`` is polled
    before every step; when it returns True the run ends with ``cancelled=True``.
    """
    def report(done: int, curves: dict[str, np.ndarray]) -> None:
        assert progress is not None  # report is passed on only with a progress
        progress(done, {name: arr[0, 0] for name, arr in curves.items()})

    assert config.lr is not None  # __post_init__ put in the optimiser's default
    return train_grid(config, (config.lr,), (config.seed,),
                      None if progress is None else report, should_stop, progress_every)[0][0]


def _stack_batch(batches: list[Batch]) -> Batch:
    """Seeds' batches with run axes (seed, 1) in front: they broadcast over the rates."""
    if len(batches) == 1:
        b = batches[0]
        return Batch(b.keys[None, None], b.values[None, None], b.query[None, None],
                     b.target[None, None])
    return Batch(*(np.stack([getattr(b, f) for b in batches])[:, None]
                   for f in ("keys", "values", "query", "target")))


def train_grid(
    config: TrainConfig,
    lrs: Iterable[float],
    seeds: Iterable[int],
    progress: Callable[[int, dict[str, np.ndarray]], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    progress_every: int = 10,
    stop_at_90: bool = False,
) -> list[list[TrainResult]]:
    """Train ``config`` at every learning rate and seed at once; results[seed][rate].

    Every run is exactly :func:`train` of ``replace(config, lr=lr, seed=seed)`` (the same
    numbers, bit for bit): the runs only share numpy calls. A run whose loss or gradient
    turns non-finite stops there (``diverged``) while the others go on. ``progress`` gets
    curves shaped (seeds, rates, steps_done), NaN after a run's last step.

    ``stop_at_90``: a run ends as soon as its steps to 90 % are known (its curves stop
    there), and a rate leaves the computation once all its seeds have ended. Only
    ``steps_to_90`` (and "never reached") then mean what they do for a full run.

    Each result's ``wall_time`` is the grid's time divided by its number of runs.
    """
    if progress_every < 1:
        raise ValueError(f"progress_every must be an integer >= 1, got {progress_every}")
    lo, hi, lo_inc = FLOAT_RANGES["lr"]
    lrs = tuple(check_float("lr", lr, lo, hi, lo_inc) for lr in lrs)
    seeds = tuple(check_int("seed", seed, *INT_RANGES["seed"]) for seed in seeds)
    if not lrs or not seeds:
        raise ValueError("train_grid needs at least one learning rate and one seed")
    grid = _Grid(config, lrs, seeds)
    data_rngs = [np.random.default_rng([seed, 1]) for seed in seeds]  # independent of weights
    cancelled = False
    start = time.perf_counter()
    for step in range(config.steps):
        if should_stop is not None and should_stop():
            cancelled = True
            break
        batch = _stack_batch([make_batch(rng, config.batch, config.n_keys, config.d_model, config.d_v,
                                         config.noise) for rng in data_rngs])
        grid.step(step, batch, stop_at_90)
        if progress is not None and ((step + 1) % progress_every == 0 or step + 1 == config.steps):
            progress(step + 1, {name: _frozen(arr[..., : step + 1]) for name, arr in grid.curves.items()})
        if not grid.retire_ended_rates():
            break
    return grid.results(cancelled, time.perf_counter() - start)


class _Grid:
    """The runs of ``train_grid`` (seeds × rates) as they train: the working parameters of
    the rates still running, what each run has recorded and whether it still records."""

    def __init__(self, config: TrainConfig, lrs: tuple[float, ...], seeds: tuple[int, ...]) -> None:
        c = self.config = config
        self.lrs, self.seeds = lrs, seeds
        n_seeds, n_rates = len(seeds), len(lrs)
        # W_v is always in the graph (the identity is exact in floating point), so its gradient is
        # recorded even when it is not learned: it is the gradient W_v would get.
        inits = [init_params(seed, c.d_model, c.d_k, c.d_v, c.layers) for seed in seeds]
        self.params = {name: np.repeat(np.stack([p[name] for p in inits])[:, None], n_rates, axis=1)
                       for name in inits[0]}
        self.final_params = {name: arr.copy() for name, arr in self.params.items()}
        self.learned = [name for name in self.params if c.learn_v or param_kind(name) != "W_v"]
        self.opt = make_optimizer(c.optimizer, np.asarray(lrs, dtype=float)[None, :, None, None])
        shape = (n_seeds, n_rates)
        self.curves = {name: np.full(shape + (c.steps,), np.nan) for name in METRIC_NAMES}
        self.active = np.ones(shape, dtype=bool)  # still recording
        self.diverged = np.zeros(shape, dtype=bool)
        self.done = np.zeros(shape, dtype=int)
        self.cols = np.arange(n_rates)  # the rates (columns) still in the working arrays

    def step(self, step: int, batch: Batch, stop_at_90: bool) -> None:
        """One optimiser step of every working run on ``batch``, its metrics recorded; a run
        whose loss or gradient turns non-finite stops (``diverged``)."""
        c, cols = self.config, self.cols
        fwd = loss_and_grad(self.params, batch, c.scaling, c.loss, c.gain)
        assert fwd.grads is not None  # computed by default
        here = self.active[:, cols]
        with np.errstate(over="ignore", invalid="ignore"):
            sq = {name: np.einsum("...ij,...ij->...", g, g) for name, g in fwd.grads.items()}
            norms = {curve: np.sqrt(sum(v for n, v in sq.items() if param_kind(n) == kind))
                     for curve, kind in GRAD_CURVES.items()}
            grad_norm = np.sqrt(sum(sq[name] for name in self.learned))
            loss = np.broadcast_to(np.asarray(fwd.loss, dtype=float), here.shape)
        ok = np.isfinite(loss) & np.isfinite(grad_norm)
        self.diverged[:, cols] |= here & ~ok
        here &= ok
        self.active[:, cols] = here
        metrics = _metrics(fwd.logits, batch.target)
        with np.errstate(invalid="ignore"):
            layer_logits = fwd.layer_logits or (fwd.logits,)
            metrics["max_logit"] = np.max(
                [np.max(np.abs(z), axis=(-2, -1)) for z in layer_logits], axis=0)
        metrics.update(loss=loss, grad_norm=grad_norm, **norms)
        for name in METRIC_NAMES:
            self.curves[name][:, cols, step] = np.where(here, metrics[name], np.nan)
        sub = self.done[:, cols]
        sub[here] = step + 1
        self.done[:, cols] = sub
        grads = {name: fwd.grads[name] for name in self.learned}
        if not ok.all():  # park stopped runs at zero so no NaN spreads through the step
            for arr in (*self.params.values(), *grads.values()):
                arr[~ok] = 0.0
        with np.errstate(over="ignore", invalid="ignore"):  # caught at the next step
            self.opt.step(self.params, grads)
        if stop_at_90 and step + 1 >= WINDOW:
            acc = self.curves["accuracy"][:, cols, step + 1 - WINDOW: step + 1]
            with np.errstate(invalid="ignore"):
                reached = here & (np.mean(acc, axis=-1) >= 0.9 - 1e-9)
            self.active[:, cols] = here & ~reached

    def retire_ended_rates(self) -> bool:
        """A rate whose runs have all ended leaves the working arrays (its parameters kept);
        False once no rate is left."""
        cols = self.cols
        # cast: the stubs cannot tell that any() over axis 0 of a 2-D array is an array.
        keep = cast("npt.NDArray[np.bool_]", self.active[:, cols].any(axis=0))
        if keep.all():
            return True
        gone = cols[~keep]
        for name in self.params:
            self.final_params[name][:, gone] = self.params[name][:, ~keep]
            self.params[name] = self.params[name][:, keep]
        self.opt.select(keep)
        self.cols = cols[keep]
        return bool(self.cols.size)

    def results(self, cancelled: bool, wall: float) -> list[list[TrainResult]]:
        """results[seed][rate]; each run's ``wall_time`` is ``wall`` divided by the runs."""
        for name in self.params:
            self.final_params[name][:, self.cols] = self.params[name]
        seeds, lrs = self.seeds, self.lrs
        runs = len(seeds) * len(lrs)
        # Each run's curves are copied one metric at a time, and each metric's grid is let go of
        # once copied: the copies never take the grid's memory a second time (with 100 runs of
        # 100,000 steps the grid is 800 MB).
        run_curves: list[list[dict[str, np.ndarray]]] = [[{} for _ in lrs] for _ in seeds]
        for name in METRIC_NAMES:
            grid = self.curves.pop(name)
            for i in range(len(seeds)):
                for j in range(len(lrs)):
                    run_curves[i][j][name] = grid[i, j, :int(self.done[i, j])].copy()
            del grid
        return [[TrainResult(replace(self.config, lr=lr, seed=seed), **run_curves[i][j],
                             cancelled=cancelled and bool(self.active[i, j]), diverged=bool(self.diverged[i, j]),
                             wall_time=wall / runs,
                             params={name: arr[i, j].copy() for name, arr in self.final_params.items()})
                 for j, lr in enumerate(lrs)]
                for i, seed in enumerate(seeds)]
