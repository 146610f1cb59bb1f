"""Work done before it is shown: a parameter set's whole ``Computed`` for an export
(``prepare``), and the results of the lesson's neighbouring pages (``prefetch``), both
computed in a worker thread so that the GUI thread takes them instead of computing.

The controller asks this object; it owns no Qt object and no signal: what is computed here
reaches the window only through the controller, when it takes it.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Container
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from sqrtdk_gui.core.attention import sigma_dial
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.attention.scaling import compared_scalings
from sqrtdk_gui.core.attention.sweep import sweep
from sqrtdk_gui.core.threads import pool
from sqrtdk_gui.core.training.lr_sweep import default_workers

if TYPE_CHECKING:
    from sqrtdk_gui.core.attention.sweep import Sweep

__all__ = ["Computed", "WorkAhead", "compute_all", "compute_sweeps"]


def _sweep_pool() -> ThreadPoolExecutor | None:
    """Threads the compared scalings' sweeps run in side by side (one per core, at most two:
    numpy releases the GIL in its kernels); None on a one-core machine."""
    return pool("sweep", default_workers()) if default_workers() > 1 else None


def compute_sweeps(params: Params, cancelled: Callable[[], bool] | None = None,
                   side_by_side: bool = False) -> dict[str, Sweep]:
    """Every compared scaling's sweep; ``side_by_side`` in two threads (for a window that
    waits for them: exports, screenshots). The live window's worker sweeps in one thread, so
    that a drag keeps the other core for drawing."""
    scalings = compared_scalings(params)
    threads = _sweep_pool() if side_by_side else None
    if threads is None:
        return {s: sweep(params.replace(scaling=s), cancelled=cancelled) for s in scalings}
    futures = {s: threads.submit(sweep, params.replace(scaling=s), cancelled=cancelled) for s in scalings}
    try:
        return {s: f.result() for s, f in futures.items()}
    finally:  # a cancelled sweep raises; the others stop at their next d_k point
        for f in futures.values():
            f.cancel()


def _preparing_pool() -> ThreadPoolExecutor:
    """The thread ``prepare`` and ``prefetch`` compute in (one: the sweeps use the sweep pool)."""
    return pool("prepare")


@dataclasses.dataclass(frozen=True)
class Computed:
    """Everything the window shows for one parameter set: its result, the compared scalings'
    sweeps (for its parameters with d_k = 1; None: not computed) and the σ dial's curves for
    its number of keys (None: not computed)."""

    params: Params
    result: Result
    sweeps: dict[str, Sweep] | None
    dial: sigma_dial.DialCurves | None


def compute_all(params: Params, cancelled: Callable[[], bool] | None = None,
                result: Future[Result] | None = None) -> Computed:
    """``params``' result, sweeps (side by side) and dial curves; any thread. ``cancelled()``
    true stops the sweeps at their next d_k point (SweepCancelled). ``result``: a future of
    ``compute(params)`` already submitted (a prefetch), taken instead of computing again."""
    taken = _result_of(result) if result is not None else None
    taken = taken if taken is not None else compute(params)
    sweeps = compute_sweeps(params.replace(d_k=1), cancelled=cancelled, side_by_side=True)
    return Computed(params, taken, sweeps, sigma_dial.curves(params.keys))


def _result_of(future: Future[Result]) -> Result | None:
    """A prefetch's result: None if it never started (cancelled now) or failed."""
    if future.cancel():
        return None
    try:
        return future.result()
    except Exception:  # noqa: BLE001 - an error the caller meets again when it computes
        return None


class _Prepared:
    """A parameter set's ``Computed``, being computed off the GUI thread or already there."""

    def __init__(self, params: Params, future: Future[Computed], stop: threading.Event | None = None) -> None:
        self.params, self.future, self._stop = params, future, stop

    @property
    def stopped(self) -> bool:
        return self._stop is not None and self._stop.is_set()

    @classmethod
    def ready(cls, computed: Computed) -> _Prepared:
        future: Future[Computed] = Future()
        future.set_result(computed)
        return cls(computed.params, future)

    def cancel(self) -> None:
        """Stop the computation at its next d_k point (if it still runs)."""
        if self._stop is not None:
            self._stop.set()

    def get(self) -> Computed | None:
        """The computed set, waiting for it if it is still being computed; None if the
        computation was cancelled or failed (the caller then computes as usual)."""
        try:
            return self.future.result()
        except Exception:  # noqa: BLE001 - SweepCancelled, or an error the caller meets again itself
            return None


class WorkAhead:
    """One prepared parameter set and the prefetched results (module docstring)."""

    def __init__(self) -> None:
        self._prepared: _Prepared | None = None
        self._prefetches: dict[Params, Future[Result]] = {}

    # --- asked for ---------------------------------------------------------------------------
    def prepare(self, params: Params, have: Computed | None) -> Future[Computed]:
        """A future of ``params``' ``Computed``: the one being computed, ``have`` when it is
        for these parameters and complete, or a new computation in the worker thread (taking
        a prefetch of its result). Another prepared set is cancelled at its next d_k point."""
        prepared = self._prepared
        if prepared is not None and prepared.params == params and not prepared.stopped:
            return prepared.future
        if prepared is not None:
            prepared.cancel()
        if have is not None and have.params == params and have.sweeps is not None and have.dial is not None:
            self._prepared = _Prepared.ready(have)
        else:
            stop = threading.Event()
            prefetched = self._prefetches.pop(params, None)  # queued before it in the same thread
            self._prepared = _Prepared(params, _preparing_pool().submit(compute_all, params, stop.is_set,
                                                                        prefetched), stop)
        return self._prepared.future

    def prefetch(self, wanted: tuple[Params | None, ...], current: Params, known: Container[Params]) -> None:
        """Compute the ``wanted`` parameters' results in the worker thread, in order; those
        ``known`` (a result at hand) or ``current`` need none. Earlier prefetches are dropped
        (cancelled if not started) unless wanted again or for ``current``, which the window
        is about to show."""
        keep = {p for p in wanted if p is not None}
        for old in [p for p in self._prefetches if p not in keep and p != current]:
            self._prefetches.pop(old).cancel()
        for params in wanted:
            if params is None or params == current or params in known:
                continue
            if params not in self._prefetches:
                self._prefetches[params] = _preparing_pool().submit(compute, params)

    def adopt(self, computed: Computed) -> None:
        """``computed`` is the prepared set of its parameters from now on."""
        if self._prepared is not None:
            self._prepared.cancel()
        self._prepared = _Prepared.ready(computed)

    # --- taken ---------------------------------------------------------------------------------
    def overtaken(self, params: Params) -> None:
        """The window moved on to ``params``: a prepared set for others still computing is
        cancelled (whoever asked for it moved on)."""
        prepared = self._prepared
        if prepared is not None and prepared.params != params and not prepared.future.done():
            prepared.cancel()

    def computed_for(self, params: Params) -> Computed | None:
        """The prepared values for ``params`` (waiting for them if they are being computed;
        for the sweeps and the dial any d_k will do), or None."""
        prepared = self._prepared
        if prepared is None or prepared.stopped or prepared.params.replace(d_k=1) != params.replace(d_k=1):
            return None  # (a stopped one is not waited for: it may still be finishing a point)
        return prepared.get()

    def finished_for(self, params: Params) -> Computed | None:
        """``computed_for`` when the prepared set has finished (never waits)."""
        prepared = self._prepared
        return self.computed_for(params) if prepared is not None and prepared.future.done() else None

    def result_for(self, params: Params) -> Result | None:
        """``params``' result computed ahead, waiting for it if it runs: the prepared set's
        if it is for exactly these parameters, else a prefetch's (one not yet started is
        dropped: computing in the caller is quicker than waiting in its queue); or None."""
        if self._prepared is not None and self._prepared.params == params:
            prepared = self.computed_for(params)
            if prepared is not None:
                return prepared.result
        future = self._prefetches.pop(params, None)
        return None if future is None else _result_of(future)

    def waiting_for(self, params: Params) -> bool:
        """Whether a prepared set of exactly ``params`` is still being computed."""
        prepared = self._prepared
        return (prepared is not None and prepared.params == params and not prepared.stopped
                and not prepared.future.done())

    def drop(self, params: Params) -> None:
        """``params``' result came another way: its prefetch is not needed."""
        if (unused := self._prefetches.pop(params, None)) is not None:
            unused.cancel()

    @property
    def prefetching(self) -> tuple[Params, ...]:
        """The parameters whose results are prefetched, or being prefetched."""
        return tuple(self._prefetches)

    def cancel(self) -> None:
        """Everything stops: prefetches not started are cancelled, the prepared set stops at
        its next d_k point."""
        for future in self._prefetches.values():
            future.cancel()
        self._prefetches.clear()
        if self._prepared is not None:
            self._prepared.cancel()
