"""The controller: owns the current parameters, calls the model, tells the panels.

Slider bursts are coalesced: ``set_params`` only records the wish and arms a zero-delay
timer, so however many changes arrive within one event-loop turn, the model runs once, with
the last values. The "versus d_k" sweeps run in a worker thread so that dragging any
control never waits for them; a sweep that is overtaken by newer parameters is abandoned at
its next d_k point, and closing the window does not wait for it.

An export asks for everything a parameter set shows (its result, sweeps and σ-dial curves)
with ``prepare()``: they are computed in a worker thread while the event loop runs, and the
next ``flush`` / ``wait_for_sweeps`` takes them instead of computing in the GUI thread
(``work_ahead.WorkAhead`` keeps that work, and the lesson's prefetched pages).
"""

from __future__ import annotations

import dataclasses
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from sqrtdk_gui.core.attention import sigma_dial
from sqrtdk_gui.core.attention.compute import compute, selectable_rows
from sqrtdk_gui.core.attention.long_context import DENSE_MAX_KEYS
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import MEDIAN_ROW, Result
from sqrtdk_gui.core.attention.sampling import MAX_WIDTH
from sqrtdk_gui.core.attention.scaling import compared_scalings
from sqrtdk_gui.core.attention.sweep import SWEEP_MAX_ROWS, SweepCancelled, sweep_at_hand
from sqrtdk_gui.core.cache import BoundedCache
from sqrtdk_gui.core.threads import pool
from sqrtdk_gui.gui.relay import gui_thread_call, in_background
from sqrtdk_gui.gui.window.work_ahead import Computed, WorkAhead, compute_sweeps

if TYPE_CHECKING:
    from sqrtdk_gui.core.attention.sweep import Sweep

__all__ = ["Controller"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

SWEEP_DELAY_MS = 120
# Recent results, reused when a drag comes back to a value it passed: at most this many bytes
# of arrays in all, and only results of at most RESULT_CACHE_MAX_BYTES each (the default
# 256 queries × 64 keys are 0.6 MB). 8 MB keeps the last 13 of them: more only raised the
# window's peak memory (the soak's).
RESULT_CACHE_BYTES = 8 << 20
RESULT_CACHE_MAX_BYTES = 1 << 20
_CANCELLED = -1  # a generation no request has: the worker abandons whatever it does
LIVE_POOL = "live"  # the live window's sweeps, one request at a time (core.threads)


def _sweeps_at_hand(params: Params) -> dict[str, Sweep] | None:
    """Every compared scaling's sweep if none needs computing (finished before, or stored for
    a lesson page), else None."""
    found = {s: sweep_at_hand(params.replace(scaling=s)) for s in compared_scalings(params)}
    return None if any(v is None for v in found.values()) else cast("dict[str, Sweep]", found)


class _Latest:
    """The newest sweep request's generation, shared with the worker thread, which abandons
    a request that is no longer the newest (an int read is atomic in CPython)."""

    def __init__(self) -> None:
        self.generation = 0


def _sweeps_in_worker(generation: int, params: Params, latest: _Latest,
                      dial_ready: Callable[[sigma_dial.DialCurves], None]) -> dict[str, Sweep] | None:
    """The compared scalings' sweeps of ``params`` (None: overtaken by a newer request, or
    closing); the σ dial's curves first (cheap, and often cached), to ``dial_ready`` in the
    GUI thread."""
    if generation != latest.generation:
        return None
    dial = sigma_dial.curves(params.keys)
    gui_thread_call(lambda: dial_ready(dial))
    if generation != latest.generation:
        return None
    try:  # asked between d_k points: a newer request or closing stops the work early
        return compute_sweeps(params, cancelled=lambda: generation != latest.generation)
    except SweepCancelled:
        return None


def _warm_in_worker(generation: int, params: Params, latest: _Latest) -> None:
    """Draw what a drag of d_k up to its largest value needs (the random pools and running
    sums of these parameters, 4,096 wide), as computing the sweeps would have: a stored
    sweep leaves them to be drawn in the GUI thread, a little at every step of the drag."""
    if generation != latest.generation or params.keys > DENSE_MAX_KEYS or params.queries > SWEEP_MAX_ROWS:
        return  # (long contexts draw their keys block by block; many queries: a drag's own cost)
    compute(params.replace(d_k=MAX_WIDTH))


class Controller(QObject):
    """Coordinates controls, model and panels (see the module docstring)."""

    params_changed = Signal(object)  # Params
    result_changed = Signal(object)  # Result
    sweeps_changed = Signal(object)  # {scaling: Sweep}
    dial_changed = Signal(object)  # sigma_dial.DialCurves for the current number of keys
    row_changed = Signal(int)
    # A user's change (a control, a menu command, the palette), after it is applied: the
    # parameters before it and the names it set. Undo records it; a d_k animation stops.
    edited = Signal(object, object)  # Params, frozenset[str]
    edit_refused = Signal(str)  # why a user's change was refused (nothing changed)
    replacing = Signal()  # a whole parameter set is about to replace the current one

    def __init__(self, params: Params | None = None, threaded: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._params = params or Params()
        self._result: Result | None = None
        # Params -> (Result, its bytes); results are immutable, so a drag back is free.
        self._results: BoundedCache[Params, tuple[Result, int]] = BoundedCache(weigh=lambda hit: hit[1],
                                                                               max_weight=RESULT_CACHE_BYTES)
        self._sweeps: dict[str, Sweep] | None = None
        self._sweeps_for: Params | None = None  # parameters (d_k=1) the shown sweeps belong to
        self._sweep_key: Params | None = None  # parameters of the newest requested sweeps
        self._dial: sigma_dial.DialCurves | None = None
        self.ahead = WorkAhead()  # see prepare() and prefetch()
        self._row = MEDIAN_ROW  # the representative row until the user picks a query
        # Parameters a teacher's lesson locks: a user's edit of one is refused (the lesson's
        # own pages, presets and undo still set them).
        self.locked: frozenset[str] = frozenset()
        self.compute_count = 0  # how often the model actually ran (tests, status bar)
        self.last_compute_ms = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._recompute_when_due)
        # Sweeps start once the controls rest for a moment: during a drag the worker would only
        # compete with the UI thread for the interpreter and be overtaken anyway.
        self._sweep_timer = QTimer(self)
        self._sweep_timer.setSingleShot(True)
        self._sweep_timer.setInterval(SWEEP_DELAY_MS)
        self._sweep_timer.timeout.connect(self._start_sweeps)
        self._generation = 0
        self._closed = False  # after shutdown(): nothing more is computed
        # Threaded: the sweeps run in the "live" pool, one request at a time; without it
        # (exports, tests) in the calling thread.
        self._threaded = threaded
        self._latest = _Latest()

    # --- state -------------------------------------------------------------------------
    @property
    def params(self) -> Params:
        return self._params

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def sweeps(self) -> dict[str, Sweep] | None:
        return self._sweeps

    @property
    def sweeps_for(self) -> Params | None:
        """The parameters (with d_k = 1) that the current sweeps were computed for."""
        return self._sweeps_for

    @property
    def row(self) -> int:
        return self._row

    @property
    def dial(self) -> sigma_dial.DialCurves | None:
        """The σ dial's curves (for the current number of keys once they have arrived)."""
        return self._dial

    # --- input -------------------------------------------------------------------------
    def set_params(self, **changes: Any) -> None:
        """Change some parameters; raises ValueError (nothing changes) if they are invalid."""
        new = self._params.replace(**changes)
        if new == self._params and self._result is not None:
            return
        self._params = new
        self.ahead.overtaken(new)
        self.params_changed.emit(new)
        if not self._timer.isActive() and not self._closed:
            self._timer.start()

    def edit(self, **changes: Any) -> bool:
        """A change the user made: applied as by ``set_params``, then announced by ``edited``;
        invalid values (the widgets are range-limited: a last line of defence) change nothing
        and are announced by ``edit_refused``. True if applied."""
        before = self._params
        locked = sorted(self.locked & set(changes))
        if locked:
            self.edit_refused.emit(translate("Controller", "{name} is locked by the lesson open").format(
                name=locked[0]))
            return False
        try:
            self.set_params(**changes)
        except ValueError as exc:
            self.edit_refused.emit(str(exc))
            return False
        self.edited.emit(before, frozenset(changes))
        return True

    def replace_params(self, params: Params) -> None:
        """Make ``params`` the whole current parameter set (presets, lesson steps, undo)."""
        self.replacing.emit()
        self.set_params(**dataclasses.asdict(params))

    def set_row(self, row: int) -> None:
        """Select the query shown by the weights and Jacobian panels (MEDIAN_ROW: the median one)."""
        row = min(max(int(row), MEDIAN_ROW), selectable_rows(self._params) - 1)
        if row != self._row:
            self._row = row
            self.row_changed.emit(row)

    def flush(self) -> None:
        """Run a pending computation now (headless rendering, tests)."""
        if self._closed:
            return
        if self._timer.isActive() or self._result is None or self._result.params != self._params:
            self._timer.stop()
            self._recompute()

    def wait_for_sweeps(self) -> None:
        """Compute the sweeps for the current parameters in this thread, if still missing
        (or take them from ``prepare``'s computation, waiting for it if it still runs)."""
        if self._closed:
            return
        key = self._params.replace(d_k=1)
        if self._sweeps_for != key:
            self._sweep_timer.stop()
            self._sweep_key = key
            self._generation += 1
            self._latest.generation = self._generation  # drop whatever the worker has queued
            computed = self.ahead.computed_for(self._params)
            sweeps = computed.sweeps if computed is not None else None
            self._apply_sweeps(key, sweeps if sweeps is not None else compute_sweeps(key, side_by_side=True))
        if self._dial is None or self._dial.keys != key.keys:
            computed = self.ahead.computed_for(self._params)
            dial = computed.dial if computed is not None else None
            self._on_dial(dial if dial is not None else sigma_dial.curves(key.keys))

    # --- computing off the GUI thread ----------------------------------------------------
    def prepare(self, params: Params | None = None) -> Future[Computed]:
        """Start computing everything ``params`` (default: the current parameters) show
        (result, sweeps, σ-dial curves) in a worker thread; the future's value is a
        ``Computed``. While it runs the zero-delay recomputation leaves these parameters
        alone; once it is done, ``flush`` and ``wait_for_sweeps`` for them take its values
        instead of computing (so the caller calls them, or ``render_ready``, after the future
        is done). Done at once when the values are already here. Changing the parameters to
        others while it runs cancels it at its next d_k point."""
        params = self._params if params is None else params
        return self.ahead.prepare(params, self.computed())

    def prefetch(self, *wanted: Params | None) -> None:
        """Start computing the ``wanted`` parameters' results in a worker thread (the lesson's
        next and previous pages: the long-context page's takes a second), so that showing
        them later takes it instead of computing in the GUI thread (waiting for the rest if it
        is still running). Sweeps and dial curves are not computed: the lesson's are stored.
        Earlier prefetches are dropped (cancelled if not started) unless wanted again or for
        the parameters the window is about to show: a page asks for its neighbours' as soon
        as it has set its own, before its own result is taken. None (or nothing) drops all
        but that one."""
        if not self._closed:
            self.ahead.prefetch(wanted, self._params, self._results)

    def adopt(self, computed: Computed) -> None:
        """Take ``computed`` as the values of its parameters: the next computation of those
        parameters uses them (restoring the state an export started from, without
        recomputing it)."""
        self.ahead.adopt(computed)

    def computed(self) -> Computed | None:
        """What the window shows now, if its result is for the current parameters; sweeps and
        dial curves are included where they are for these parameters too."""
        result, params = self._result, self._params
        if result is None or result.params != params:
            return None
        sweeps = self._sweeps if self._sweeps_for == params.replace(d_k=1) else None
        dial = self._dial if self._dial is not None and self._dial.keys == params.keys else None
        return Computed(params, result, sweeps, dial)

    def shutdown(self) -> None:
        """Stop computing (the window calls this when it closes) without waiting for a
        running sweep: it is abandoned at its next d_k point (the interpreter's exit waits
        for that point). Nothing is computed after this (without the worker a pending sweep
        would run in the GUI thread: seconds to close)."""
        self._closed = True
        self._timer.stop()
        self._sweep_timer.stop()
        self.ahead.cancel()
        self._latest.generation = _CANCELLED

    # --- work --------------------------------------------------------------------------
    def _recompute_when_due(self) -> None:
        if not self.ahead.waiting_for(self._params):  # else prepare's caller flushes when it is done
            self._recompute()

    def _recompute(self) -> None:
        params = self._params
        start = time.perf_counter()
        result = self._cached_compute(params)
        self.ahead.drop(params)  # if the result came another way, its prefetch is not needed
        self.last_compute_ms = 1e3 * (time.perf_counter() - start)
        self.compute_count += 1
        self._result = result
        if self._row >= result.shown_rows:
            self.set_row(result.shown_rows - 1)
        self.result_changed.emit(result)
        self._request_sweeps(params)

    def _cached_compute(self, params: Params) -> Result:
        """``compute``, or the same parameters' recent result (results are immutable)."""
        hit = self._results.get(params)
        if hit is not None:
            return hit[0]
        result = self.ahead.result_for(params) or compute(params)
        size = sum(a.nbytes for a in (result.dots, result.logits, result.p, result.weights))
        if size <= RESULT_CACHE_MAX_BYTES:
            self._results.put(params, (result, size))
        return result

    def _request_sweeps(self, params: Params) -> None:
        key = params.replace(d_k=1)
        if key == self._sweep_key or self._closed:
            return
        self._sweep_key = key
        self._generation += 1
        prepared = self.ahead.finished_for(params)
        if prepared is not None and prepared.sweeps is not None and prepared.dial is not None:
            self._sweep_timer.stop()
            self._latest.generation = self._generation  # drop whatever the worker has queued
            self._on_dial(prepared.dial)
            self._apply_sweeps(key, prepared.sweeps)
        elif (dial := self._dial_at_hand(key.keys)) is not None and (ready := _sweeps_at_hand(key)) is not None:
            # Nothing to compute (a lesson page's stored curves, or curves seen before): shown
            # in this frame rather than after the worker's pause for resting controls.
            self._latest.generation = self._generation  # drop whatever the worker has queued
            if self._threaded:
                self._sweep_timer.start()  # then, once the controls rest, warm (see _start_sweeps)
            self._on_dial(dial)
            self._apply_sweeps(key, ready)
        elif not self._threaded:
            self._on_dial(sigma_dial.curves(key.keys))
            self._apply_sweeps(key, compute_sweeps(key, side_by_side=True))
        else:
            self._latest.generation = self._generation  # makes any queued request stale at once
            self._sweep_timer.start()

    def _dial_at_hand(self, keys: int) -> sigma_dial.DialCurves | None:
        if self._dial is not None and self._dial.keys == keys:
            return self._dial
        return sigma_dial.stored_curves(keys)

    def _start_sweeps(self) -> None:
        generation, key, latest = self._generation, self._sweep_key, self._latest
        if key is None or self._closed:
            return
        if self._sweeps_for == key:  # they were at hand: only what a d_k drag draws
            pool(LIVE_POOL).submit(_warm_in_worker, generation, key, latest)
            return
        me = weakref.ref(self)  # the worker must not keep a closed window's controller

        def dial_ready(dial: sigma_dial.DialCurves) -> None:
            controller = me()
            if controller is not None and not controller._closed:
                controller._on_dial(dial)

        def done() -> None:
            controller = me()
            sweeps = future.result()
            if controller is not None and not controller._closed and sweeps is not None:
                controller._on_sweeps(generation, key, sweeps)

        future = in_background(LIVE_POOL, lambda: _sweeps_in_worker(generation, key, latest, dial_ready), done)

    def _on_sweeps(self, generation: int, key: Params, sweeps: dict[str, Sweep]) -> None:
        if generation == self._generation and key == self._sweep_key:
            self._apply_sweeps(key, sweeps)

    def _on_dial(self, dial: sigma_dial.DialCurves) -> None:
        if dial.keys == self._params.keys and dial is not self._dial:
            self._dial = dial
            self.dial_changed.emit(dial)

    def _apply_sweeps(self, key: Params, sweeps: dict[str, Sweep]) -> None:
        self._sweeps, self._sweeps_for = sweeps, key
        self.sweeps_changed.emit(sweeps)
