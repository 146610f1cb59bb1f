"""The training lab's presenter: Run, Cancel, the high-rate demonstration, and the state of a run.

``LabPresenter`` owns what the lab knows: the configurations of the run shown, its mode, rates
and seeds, the results and sweeps that have arrived, the curves of the scalings still
training, the steps done, how long the run took, whether it failed and whether the settings
changed since. It reads the controls (``LabControls``: mode, configs, sweep request), starts
and cancels jobs on the runner (``TrainRunner``: a worker thread) and turns the runner's
signals into calls on the view (``LabView``: ``LabPage`` is the one the window shows). It
announces ``run_finished(cancelled)`` once the view shows the outcome.

The runner is injected, so a test can drive the presenter with a fake one and a mock view.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Protocol, cast

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Signal

from sqrtdk_gui.core.i18n import _, format_number
from sqrtdk_gui.core.training.loop import GRAD_CURVES, TrainConfig, TrainResult
from sqrtdk_gui.core.training.lr_sweep import ScalingSweep
from sqrtdk_gui.gui.lab.controls import HIGH_LR_PRESET, LAB_LABELS, LabControls
from sqrtdk_gui.gui.lab.worker import TrainRunner

__all__ = ["LabPresenter", "LabView", "describe", "describe_sweep", "OVER_TRAINING"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

OPTIMIZER_NAMES = {"sgd": "SGD", "adam": "Adam"}  # names: not translated
# Shown through translate("LabPresenter", ...).
LOSS_NAMES = {"mse": cast(str, QT_TRANSLATE_NOOP("LabPresenter", "MSE loss")),
              "ce": cast(str, QT_TRANSLATE_NOOP("LabPresenter", "cross-entropy loss"))}
OVER_TRAINING = ("max_logit", "entropy", *GRAD_CURVES)  # the curves of the plots over training
STALE_NOTE = cast(str, QT_TRANSLATE_NOOP("LabPresenter", "   (settings changed: press Run)"))

Curves = dict[str, np.ndarray]


def _model(config: TrainConfig) -> str:
    """" · 3 layers · W_v learned", the parts that differ from one layer with W_v fixed."""
    extra = []
    if config.layers > 1:
        extra.append(translate("LabPresenter", "{layers} layers").format(layers=config.layers))
    if config.learn_v:
        extra.append(translate("LabPresenter", "W_v learned"))
    return "".join(f" · {part}" for part in extra)


def describe(config: TrainConfig) -> str:
    """One line saying what the curves were trained with."""
    return translate("LabPresenter", "Trained: d_k = {d_k} · {optimizer} · lr {lr} · {loss} · {steps} steps · "
                     "seed {seed}{model}").format(
        d_k=config.d_k, optimizer=OPTIMIZER_NAMES[config.optimizer], lr=format_number(config.lr or 0.0),
        loss=translate("LabPresenter", LOSS_NAMES[config.loss]), steps=config.steps, seed=config.seed,
        model=_model(config))


def describe_sweep(config: TrainConfig, lrs: tuple[float, ...], seeds: tuple[int, ...]) -> str:
    """One line saying what the sweep was trained with."""
    seed_text = (translate("LabPresenter", "seed {seed}").format(seed=seeds[0]) if len(seeds) == 1
                 else translate("LabPresenter", "seeds {first}–{last}").format(first=seeds[0], last=seeds[-1]))
    return translate("LabPresenter", "Swept: d_k = {d_k} · {optimizer} at {count} rates {lowest} … {highest} · "
                     "{loss} · {steps} steps · {seeds}{model}").format(
        d_k=config.d_k, optimizer=OPTIMIZER_NAMES[config.optimizer], count=len(lrs), lowest=format_number(lrs[0]),
        highest=format_number(lrs[-1]), loss=translate("LabPresenter", LOSS_NAMES[config.loss]), steps=config.steps,
        seeds=seed_text, model=_model(config))


class LabView(Protocol):
    """What the presenter asks of the lab's view (``LabPage``)."""

    def show_mode(self, mode: str) -> None: ...
    def set_running(self, running: bool) -> None: ...
    def say(self, text: str) -> None: ...
    def show_failure(self, message: str) -> None: ...
    def show_cancelling(self) -> None: ...
    def start_progress(self, total: int) -> None: ...
    def set_progress(self, text: str, value: int | None = None) -> None: ...
    def show_trained_with(self, text: str) -> None: ...
    def mark_stale(self, text: str) -> None: ...
    def show_curves_header(self, lr: float | None) -> None: ...
    def prepare_axes(self, lrs: tuple[float, ...], steps: int) -> None: ...
    def prepare_sweep(self, scalings: tuple[str, ...], lrs: tuple[float, ...], steps: int,
                      learn_v: bool) -> None: ...
    def prepare_single(self, scalings: tuple[str, ...], steps: int, loss: str,
                       learn_v: bool) -> None: ...
    def chosen_rate(self) -> float | None: ...
    def show_curves(self, scaling: str, curves: Curves) -> None: ...
    def show_over_training(self, scaling: str, curves: Curves) -> None: ...
    def clear_over_training(self, scaling: str) -> None: ...
    def show_result(self, scaling: str, result: TrainResult, finished: bool) -> None: ...
    def set_run_status(self, scaling: str, text: str) -> None: ...
    def show_run_verdict(self, raw: TrainResult | None, scaled: TrainResult | None) -> None: ...
    def show_sweep(self, sweep: ScalingSweep) -> None: ...
    def set_sweep_status(self, scaling: str, text: str) -> None: ...
    def show_sweep_verdict(self, sweeps: dict[str, ScalingSweep]) -> None: ...


class LabPresenter(QObject):
    """Runs what the controls say on ``runner`` and shows it on ``view``; one run at a time."""

    run_finished = Signal(bool)  # cancelled; emitted after the view has shown the outcome

    def __init__(self, view: LabView, controls: LabControls, runner: TrainRunner,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.controls = controls
        self.runner = runner
        self._configs: tuple[TrainConfig, ...] = ()
        self._job_mode = controls.mode()  # what the shown results come from
        self._lrs: tuple[float, ...] = ()
        self._seeds: tuple[int, ...] = ()
        self.results: dict[str, TrainResult] = {}
        self.sweeps: dict[str, ScalingSweep] = {}
        self._live: dict[str, Curves] = {}  # scaling -> (seeds, rates, steps) of a sweep training
        self._steps_done: dict[str, int] = {}  # per scaling: they may train side by side
        self._started_at = 0.0
        self.last_run_seconds: float | None = None
        self.failed = False
        self.stale = False  # controls changed since the shown run
        runner.job_started.connect(self._on_started)
        runner.progress.connect(self._on_progress)
        runner.result_ready.connect(self._on_result)
        runner.sweep_ready.connect(self._on_sweep_ready)
        runner.job_failed.connect(self._on_failed)
        runner.job_finished.connect(self._on_finished)
        view.set_running(False)
        view.show_mode(self._job_mode)
        self._show_curves_header()
        self._prepare_axes()

    # --- actions -------------------------------------------------------------------------
    def run(self) -> None:
        """Start the sweep or the single runs (ignored while a run is in progress)."""
        if self.runner.is_running:
            return
        mode = self.controls.mode()
        self._job_mode = mode
        self.results, self.sweeps, self._live = {}, {}, {}
        self.last_run_seconds = None
        self.view.show_mode(mode)
        if mode == "sweep":
            config, scalings, lrs, seeds = self.controls.sweep_request()
            self._lrs, self._seeds = lrs, seeds
            self._configs = tuple(replace(config, scaling=s) for s in scalings)
            self.view.prepare_sweep(scalings, lrs, config.steps, config.learn_v)
            text = describe_sweep(config, lrs, seeds)
        else:
            self._configs = self.controls.configs()
            config = self._configs[0]
            self.view.prepare_single(tuple(c.scaling for c in self._configs), config.steps,
                                     config.loss, config.learn_v)
            text = describe(config)
        self.stale = False
        self.view.show_trained_with(text)
        self._show_curves_header()
        self.view.start_progress(config.steps * len(self._configs))
        self._steps_done = {}
        self.view.say("")
        self.failed = False
        self.view.set_running(True)
        self._started_at = time.perf_counter()
        if mode == "sweep":
            self.runner.start_sweep(config, tuple(c.scaling for c in self._configs), self._lrs,
                                    self._seeds)
        else:
            self.runner.start(self._configs)

    def cancel(self) -> None:
        """Stop the run after its current step; what has finished stays."""
        if self.runner.is_running:
            self.view.show_cancelling()
            self.runner.cancel()

    def show_stall(self) -> None:
        """The high-rate demonstration: one run each at SGD lr 5, d_k 256 — and run it."""
        if self.runner.is_running:
            return
        self.controls.set_values(**HIGH_LR_PRESET)
        self.run()

    def shutdown(self) -> None:
        """Stop a run and the worker thread (the window calls this when it closes)."""
        self.runner.shutdown()
        self.view.set_running(False)

    # --- the controls and the view -------------------------------------------------------
    def mode_changed(self, mode: str) -> None:
        """The page's table and top row follow the controls' mode, except during a run."""
        if not self.runner.is_running:
            self.view.show_mode(mode)

    def settings_changed(self) -> None:
        """Before any sweep the rate axes follow the controls; after a run its line greys."""
        if not self.runner.is_running and self.controls.mode() == "sweep" and not self.sweeps:
            self._prepare_axes()  # nothing shown yet: the axes follow the grid and steps
        if self._configs and not self.runner.is_running:
            self.stale = True
            self.view.mark_stale(self._describe_job() + translate("LabPresenter", STALE_NOTE))

    def rate_changed(self, _index: int = -1) -> None:
        """Another rate chosen above the plots over training: redraw them at that rate."""
        if self._job_mode != "sweep":
            return
        for s in (*self.sweeps, *self._live):
            self.view.clear_over_training(s)
        for sweep in self.sweeps.values():
            self._show_sweep_curves(sweep)
        j = self._rate_index()
        for scaling, curves in self._live.items():
            self.view.show_over_training(scaling, {k: v[:, j, :] for k, v in curves.items()})

    def _describe_job(self) -> str:
        if self._job_mode == "sweep":
            return describe_sweep(self._configs[0], self._lrs, self._seeds)
        return describe(self._configs[0])

    def _show_curves_header(self) -> None:
        """The line above the over-training plots says what they show (the last run's)."""
        if self._job_mode == "sweep":
            self.view.show_curves_header(None)
        else:
            self.view.show_curves_header(
                self._configs[0].lr if self._configs else self.controls.configs()[0].lr)

    def _prepare_axes(self) -> None:
        """Axes for the controls' sweep grid before anything has run."""
        config, _, lrs, _ = self.controls.sweep_request()
        self.view.prepare_axes(lrs, config.steps)

    def _rate_index(self) -> int:
        lr = self.view.chosen_rate()
        return self._lrs.index(lr) if lr in self._lrs else 0

    # --- worker signals (UI thread) ------------------------------------------------------
    def _on_started(self, configs: tuple[TrainConfig, ...]) -> None:
        if self._job_mode == "sweep":
            runs = len(self._lrs) * len(self._seeds)
            self.view.say(translate("LabPresenter", "Training {runs} runs per scaling ({rates} rates × {seeds} seeds) "
                                    "at once, one scaling after another…").format(
                runs=runs, rates=len(self._lrs), seeds=len(self._seeds)))
        else:
            count = len(configs)  # a name, not a call: lupdate skips a translate() with a call among its arguments
            self.view.say(translate("LabPresenter", "Training %n scalings one after another…", None, count))

    def _on_progress(self, index: int, done: int, curves: dict[str, Any]) -> None:
        config = self._configs[index]
        if self._job_mode == "sweep":
            self._live[config.scaling] = curves
            j = self._rate_index()
            self.view.show_over_training(config.scaling,
                                         {k: v[:, j, :] for k, v in curves.items()})
            self.view.set_sweep_status(config.scaling, translate("LabPresenter", "step {done}/{steps}")
                                       .format(done=done, steps=config.steps))
            self._show_progress(config, done)
            return
        # A TrainResult over the partial curves: the readouts use the core's own definitions.
        partial = TrainResult(config, **curves)
        self._show(config, curves, partial, finished=False)

    def _show(self, config: TrainConfig, curves: Curves, result: TrainResult,
              finished: bool) -> None:
        self.view.show_curves(config.scaling, curves)
        self.view.show_over_training(config.scaling, {k: v[None, :] for k, v in curves.items()})
        self.view.show_result(config.scaling, result, finished)
        # a run that diverged or finished counts all its steps: nothing of it is left to do
        self._show_progress(config, config.steps if finished else result.steps_done)

    def _show_progress(self, config: TrainConfig, done: int) -> None:
        """Steps done over every scaling (trained side by side); the label names the ones
        still training."""
        self._steps_done[config.scaling] = done
        running = [c for c in self._configs if 0 < self._steps_done.get(c.scaling, 0) < c.steps]
        shown = running or [config]
        running_text = " · ".join(f"{_(LAB_LABELS[c.scaling])} {self._steps_done.get(c.scaling, 0)}"
                                  for c in shown)
        text = translate("LabPresenter", "{running} / {steps} steps").format(running=running_text, steps=config.steps)
        self.view.set_progress(text, sum(self._steps_done.values()))

    def _on_result(self, index: int, result: TrainResult) -> None:
        config = self._configs[index]
        self.results[config.scaling] = result  # runs finish in any order: keep the run's
        self.results = {c.scaling: self.results[c.scaling] for c in self._configs
                        if c.scaling in self.results}
        self._show(config, result.curves, result, finished=True)

    def _on_sweep_ready(self, index: int, sweep: ScalingSweep) -> None:
        self.sweeps[sweep.scaling] = sweep  # scalings finish in any order: keep the run's
        self.sweeps = {c.scaling: self.sweeps[c.scaling] for c in self._configs
                       if c.scaling in self.sweeps}
        self._live.pop(sweep.scaling, None)
        self.view.show_sweep(sweep)
        self._show_sweep_curves(sweep)

    def _show_sweep_curves(self, sweep: ScalingSweep) -> None:
        j = self._rate_index()
        self.view.show_over_training(sweep.scaling, {m: sweep.curves(m, j) for m in OVER_TRAINING})

    def _on_failed(self, message: str) -> None:
        self.failed = True
        self.view.show_failure(message)

    def _on_finished(self, cancelled: bool) -> None:
        self.last_run_seconds = time.perf_counter() - self._started_at
        self.view.set_running(False)
        unfinished = translate("LabPresenter", "cancelled") if cancelled else translate("LabPresenter", "not run")
        if self._job_mode == "sweep":
            for config in self._configs:
                if config.scaling not in self.sweeps:
                    self.view.set_sweep_status(config.scaling, unfinished)
            self.view.show_sweep_verdict(self.sweeps)
        else:
            for config in self._configs:
                if config.scaling not in self.results:
                    self.view.set_run_status(config.scaling, unfinished)
            self.view.show_run_verdict(self.results.get("none"), self.results.get("sqrt_dk"))
        if cancelled:
            self.view.set_progress(translate("LabPresenter", "cancelled"))
            self.view.say(translate("LabPresenter", "Cancelled: the plots show what had finished."))
        elif not self.failed:
            self.view.set_progress(translate("LabPresenter", "done in {seconds} s")
                                   .format(seconds=format_number(self.last_run_seconds, ".1f")))
            self.view.say("")
        self.mode_changed(self.controls.mode())
        self.run_finished.emit(cancelled)
