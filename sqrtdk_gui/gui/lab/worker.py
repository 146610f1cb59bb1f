"""Training runs off the UI thread: a worker run in the "training" pool, and the runner that owns it.

The worker trains the configurations of one job side by side, one per core (at most
``lr_sweep.MAX_WORKERS``; each with :func:`sqrtdk_gui.core.training.loop.train`, an independent
computation, so the numbers are those of one thread); a sweep job trains each scaling at every
rate and seed at once with :func:`sqrtdk_gui.core.training.lr_sweep.run_sweep`, scalings side by side
too. Nothing in the worker touches a widget: it only emits signals, which Qt queues to the
runner in the UI thread. Progress is throttled in the
worker (at most one signal per ``MIN_INTERVAL_S``), so a fast run cannot flood the UI. The
arrays it sends are the read-only views ``train`` hands out, whose entries are never written
again, so the UI may keep them without copying.

Cancelling sets the job's ``threading.Event``; ``train`` polls it before every step, so a run
stops within one step (a few milliseconds even at d_k = 1024).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal, Slot

from sqrtdk_gui.core.threads import pool
from sqrtdk_gui.core.training.loop import TrainConfig, TrainResult, train
from sqrtdk_gui.core.training.lr_sweep import ScalingSweep, default_workers, run_sweep

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MIN_INTERVAL_S", "TRAINING_POOL", "TrainJob", "SweepJob", "TrainWorker", "TrainRunner"]

MIN_INTERVAL_S = 0.05  # at most ~20 progress updates per second reach the UI
PROGRESS_EVERY = 1  # the core reports every step; the time throttle decides what is sent
TRAINING_POOL = "training"  # one job at a time (core.threads)


@dataclass(frozen=True)
class TrainJob:
    """One press of Run: the configurations to train, in order, and their stop flag."""

    job_id: int
    configs: tuple[TrainConfig, ...]
    stop: threading.Event = field(default_factory=threading.Event, compare=False)


@dataclass(frozen=True)
class SweepJob:
    """One learning-rate sweep: ``config`` (its lr, seed and scaling unused) at every rate and
    seed, for each scaling in turn."""

    job_id: int
    config: TrainConfig
    scalings: tuple[str, ...]
    lrs: tuple[float, ...]
    seeds: tuple[int, ...]
    stop: threading.Event = field(default_factory=threading.Event, compare=False)

    @property
    def configs(self) -> tuple[TrainConfig, ...]:
        """One config per scaling (what job_started reports)."""
        return tuple(replace(self.config, scaling=s) for s in self.scalings)


class TrainWorker(QObject):
    """Runs in the training pool's thread; trains the configurations of a job, ``workers`` at
    a time, and says so by its signals (emitted there, queued to their receivers)."""

    job_started = Signal(int, object)  # job id, tuple of TrainConfig (as received)
    progress = Signal(int, int, int, object)  # job id, config index, steps done, curves
    result_ready = Signal(int, int, object)  # job id, config index, TrainResult
    job_finished = Signal(int, bool)  # job id, cancelled
    job_failed = Signal(int, str)  # job id, message (followed by job_finished)
    sweep_ready = Signal(int, int, object)  # job id, scaling index, ScalingSweep

    def __init__(self, min_interval: float = MIN_INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic, workers: int | None = None) -> None:
        super().__init__()
        self.min_interval = min_interval
        self.clock = clock  # seconds; injectable so the throttle is testable without timing
        self.workers = default_workers() if workers is None else workers

    def _throttle(self) -> Callable[..., bool]:  # due(force=False)
        """A gate for one job: True at most once per ``min_interval`` of ``clock`` (or when
        forced); safe to call from the job's several training threads."""
        last = -float("inf")
        lock = threading.Lock()

        def due(force: bool = False) -> bool:
            with lock:
                return gate(force)

        def gate(force: bool) -> bool:
            nonlocal last
            now = self.clock()
            if force or now - last >= self.min_interval:
                last = now
                return True
            return False

        return due

    @Slot(object)
    def run(self, job: TrainJob | SweepJob) -> None:
        if isinstance(job, SweepJob):
            self._run_sweep(job)
        else:
            self._run_configs(job)

    def _run_sweep(self, job: SweepJob) -> None:
        self.job_started.emit(job.job_id, job.configs)
        due = self._throttle()
        cancelled = False

        def report(index: int, done: int, curves: dict[str, np.ndarray]) -> None:
            if due(done == job.config.steps):
                self.progress.emit(job.job_id, index, done, curves)

        def ready(index: int, sweep: ScalingSweep) -> None:
            self.sweep_ready.emit(job.job_id, index, sweep)

        try:
            result = run_sweep(job.config, job.scalings, job.lrs, job.seeds, report,
                               job.stop.is_set, PROGRESS_EVERY, on_scaling=ready,
                               workers=self.workers)
            cancelled = result.cancelled
        except Exception as exc:  # report, never kill the thread  # noqa: BLE001
            self.job_failed.emit(job.job_id, f"{type(exc).__name__}: {exc}")
        self.job_finished.emit(job.job_id, cancelled)

    def _run_configs(self, job: TrainJob) -> None:
        """Each configuration trained once; several at a time (one per core, at most
        ``MAX_WORKERS``), each its own independent computation."""
        self.job_started.emit(job.job_id, job.configs)
        due = self._throttle()

        def one(index: int, config: TrainConfig) -> bool:
            if job.stop.is_set():
                return True

            def report(done: int, curves: dict[str, np.ndarray]) -> None:
                if due():
                    self.progress.emit(job.job_id, index, done, curves)

            result = train(config, progress=report, should_stop=job.stop.is_set,
                           progress_every=PROGRESS_EVERY)
            self.result_ready.emit(job.job_id, index, result)
            return result.cancelled

        cancelled = False
        try:
            workers = min(self.workers, len(job.configs))
            if workers <= 1:  # in this thread, in order, stopping at the first cancelled run
                cancelled = any(one(i, c) for i, c in enumerate(job.configs))
            else:
                with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sqrtdk-train") as threads:
                    futures = [threads.submit(one, i, c) for i, c in enumerate(job.configs)]
                    cancelled = any([f.result() for f in futures])
        except Exception as exc:  # report, never kill the thread  # noqa: BLE001
            self.job_failed.emit(job.job_id, f"{type(exc).__name__}: {exc}")
        self.job_finished.emit(job.job_id, cancelled)


class TrainRunner(QObject):
    """UI-thread side: starts jobs, cancels them, drops signals of superseded jobs.

    Every signal below is emitted in the UI thread, so receivers may touch widgets.
    """

    job_started = Signal(object)  # tuple of TrainConfig the worker received
    progress = Signal(int, int, object)  # config index, steps done, curves (read-only views)
    result_ready = Signal(int, object)  # config index, TrainResult
    job_finished = Signal(bool)  # cancelled
    job_failed = Signal(str)
    sweep_ready = Signal(int, object)  # scaling index, ScalingSweep

    def __init__(self, parent: QObject | None = None, min_interval: float = MIN_INTERVAL_S) -> None:
        super().__init__(parent)
        self.min_interval = min_interval
        self._ids = itertools.count(1)
        self._job: TrainJob | SweepJob | None = None
        self._worker: TrainWorker | None = None
        self._running: Future[None] | None = None  # the worker's run of the newest job

    # --- state -------------------------------------------------------------------------
    @property
    def is_running(self) -> bool:
        """True from :meth:`start` until the worker's ``job_finished`` reaches the UI."""
        return self._job is not None

    @property
    def running(self) -> Future[None] | None:
        """The worker's run of the newest job (None before the first run and after shutdown):
        done once the worker has returned."""
        return self._running

    # --- control -----------------------------------------------------------------------
    def start(self, configs: Iterable[TrainConfig]) -> int:
        """Queue a job; returns its id. Raises RuntimeError while another job runs."""
        if self._job is not None:
            raise RuntimeError("a training run is already in progress")
        job = TrainJob(next(self._ids), tuple(configs))
        self._submit(job)
        return job.job_id

    def start_sweep(self, config: TrainConfig, scalings: Iterable[str], lrs: Iterable[float],
                    seeds: Iterable[int]) -> int:
        """Queue a learning-rate sweep; returns its id. RuntimeError while another job runs."""
        if self._job is not None:
            raise RuntimeError("a training run is already in progress")
        job = SweepJob(next(self._ids), config, tuple(scalings), tuple(lrs), tuple(seeds))
        self._submit(job)
        return job.job_id

    def cancel(self) -> None:
        """Ask the running job to stop; ``job_finished(True)`` follows within one step."""
        if self._job is not None:
            self._job.stop.set()

    def shutdown(self) -> None:
        """Cancel and wait for the worker to return, within one step (the window calls this
        when it closes: its signals must not outlive the window)."""
        self.cancel()
        if self._running is not None:
            wait([self._running])
            self._running = None
        self._job = None

    # --- plumbing ----------------------------------------------------------------------
    def _submit(self, job: TrainJob | SweepJob) -> None:
        self._job = job
        self._running = pool(TRAINING_POOL).submit(self._ensure_worker().run, job)

    def _ensure_worker(self) -> TrainWorker:
        if self._worker is not None:
            return self._worker
        worker = TrainWorker(self.min_interval)
        worker.setParent(self)  # deleted with the runner, after shutdown has waited for its run
        queued = Qt.ConnectionType.QueuedConnection  # emitted in the pool's thread
        worker.job_started.connect(self._on_started, queued)
        worker.progress.connect(self._on_progress, queued)
        worker.result_ready.connect(self._on_result, queued)
        worker.job_failed.connect(self._on_failed, queued)
        worker.sweep_ready.connect(self._on_sweep_ready, queued)
        worker.job_finished.connect(self._on_finished, queued)
        self._worker = worker
        return worker

    def _current(self, job_id: int) -> bool:
        return self._job is not None and self._job.job_id == job_id

    @Slot(int, object)
    def _on_started(self, job_id: int, configs: tuple[TrainConfig, ...]) -> None:
        if self._current(job_id):
            self.job_started.emit(configs)

    @Slot(int, int, int, object)
    def _on_progress(self, job_id: int, index: int, done: int, curves: dict[str, np.ndarray]) -> None:
        if self._current(job_id):
            self.progress.emit(index, done, curves)

    @Slot(int, int, object)
    def _on_result(self, job_id: int, index: int, result: TrainResult) -> None:
        if self._current(job_id):
            self.result_ready.emit(index, result)

    @Slot(int, int, object)
    def _on_sweep_ready(self, job_id: int, index: int, sweep: ScalingSweep) -> None:
        if self._current(job_id):
            self.sweep_ready.emit(index, sweep)

    @Slot(int, str)
    def _on_failed(self, job_id: int, message: str) -> None:
        if self._current(job_id):
            self.job_failed.emit(message)

    @Slot(int, bool)
    def _on_finished(self, job_id: int, cancelled: bool) -> None:
        if self._current(job_id):
            self._job = None
            self.job_finished.emit(cancelled)
