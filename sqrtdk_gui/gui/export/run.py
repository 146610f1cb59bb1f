"""Running an export page by page, in the calling thread or from the window's event loop.

An export is written once, as a generator of *steps* (``slide_steps`` in view.py,
``handout_steps`` in handout.py). It yields

* ``Page(index, count, name)`` before each page: the driver reports progress and sends back
  whether to go on (False: stop here, keeping what is done);
* a ``concurrent.futures.Future``: work in another thread that the export needs before it
  goes on (a page's numbers, an image encoded and written); it reads the result itself;
* ``None``: a break between two pieces of GUI-thread work.

The heavy work is never the GUI thread's: a page's numbers (everything in ``core``) are
computed in worker threads, images are encoded and written in the export's own thread, and
the GUI thread only lays a page out, applies what is ready and draws.

Two drivers run the same steps. ``run_blocking`` waits in the calling thread (the command
line, scripts, tests). ``ExportRun`` runs them from the event loop (the window): one step per
turn of the loop, futures polled by a timer, so the window keeps painting and its Cancel is
taken at once. Cancelling (either driver) throws ``Cancelled`` into the export at the step it
is at, even in the middle of a page's computation; the export then waits only for the file
being written, restores the window and ends. ``ExportRun.abort`` (the window closes) ends it
within the call: the window is restored, and a file being written is finished by its thread.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from sqrtdk_gui.gui.lesson.presenter import page_params, prepare_page

__all__ = ["Page", "Cancelled", "Refused", "Steps", "Writes", "export_pool", "shielded", "single", "wait_for",
           "enter_page", "run_blocking", "ExportRun"]

Steps = Generator[Any, Any, Any]


@dataclass(frozen=True)
class Page:
    """Progress: page ``index`` (0-based; ``count`` when all are done) of ``count`` starts."""

    index: int
    count: int
    name: str


class Cancelled(Exception):  # noqa: N818 - a request, not an error
    """Thrown into an export by its driver: stop now, keep what is written, restore."""


class Refused(Exception):  # noqa: N818 - an answer to the user, not a fault
    """The export cannot be made as asked (a frame size too small for the slide): its message
    is one sentence for the user, and nothing is written."""


def shielded(steps: Steps) -> Steps:
    """``yield from`` steps that finish what is under way once the export stops (the file
    being written): a Cancel arriving meanwhile is already obeyed, so the same step is
    waited for again instead."""
    value: Any = None
    while True:
        try:
            item = steps.send(value)
        except StopIteration as stop:
            return stop.value
        while True:
            try:
                value = yield item
                break
            except Cancelled:
                continue


def single(item: Any) -> Steps:
    """``yield from``: one step (a ``Page``, a future, ``None``); what the driver sent back."""
    return (yield item)


def wait_for(future: Future[Any]) -> Steps:
    """``yield from``: the future's result, once it is done."""
    if not future.done():
        yield future
    return future.result()


def export_pool() -> ThreadPoolExecutor:
    """The export's own worker thread: a page's lesson numbers, encoding and writing files
    (one thread: files are written in order). Shut it down with ``wait=False,
    cancel_futures=True``: closing never waits for abandoned work."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqrtdk-export")


class Writes:
    """Files being encoded and written in the export's thread, in order (``yield from``)."""

    def __init__(self, pool: ThreadPoolExecutor) -> None:
        self._pool = pool
        self._pending: list[tuple[str, Future[Any]]] = []
        self.written: list[str] = []

    def submit(self, path: str, write: Callable[..., object], *args: object) -> None:
        self._pending.append((path, self._pool.submit(write, *args)))

    def wait(self, keep: int = 0) -> Iterator[Future[Any]]:
        """Wait until at most ``keep`` writes are pending; each finished one is in
        ``written``, and a failed one raises its error (``safe_io.IOFailure``) here."""
        while len(self._pending) > keep:
            path, future = self._pending[0]
            if not future.done():
                yield future
            self._pending.pop(0)
            future.result()
            self.written.append(path)


def enter_page(window: Any, kind: str, which: int | str, pool: ThreadPoolExecutor) -> Iterator[Future[Any]]:
    """Show a lesson page in ``window`` with every panel up to date, ready to be drawn
    (``yield from``): a step (``which``: its number) with its answer revealed, or a scenario
    (its key). Its lesson numbers are computed in ``pool`` and the model's (result, sweeps,
    dial) in the controller's worker first. Then, in one step as a synchronous export does
    it, the GUI thread navigates, the views take the new numbers and the window is laid out;
    the caller draws it in the same step. (A panel's axes keep the room their labels once
    took, so a layout of the new page around the old numbers must never be painted.)"""
    page: dict[str, Any] = {"step": which} if kind == "step" else {"scenario": which}
    plan = window.lesson.plan  # the teacher's lesson open: its parameters for the page
    numbers = pool.submit(prepare_page, **page, plan=plan)
    computed = window.controller.prepare(page_params(**page, plan=plan))
    yield numbers
    numbers.result()
    yield computed
    computed.result()
    if kind == "step":
        window.lesson.go_to(which, animate=False)
        window.lesson.reveal(animate=False)  # a slide shows the whole step
    else:
        window.lesson.choose_scenario(which)
    if window.controller.params != computed.result().params:  # not what page_params said
        again = window.controller.prepare()
        yield again
        again.result()
    window.render_ready()  # takes the prepared result, sweeps and dial: no computing here


def run_blocking(steps: Steps, progress: Callable[[int, int, str], object] | None = None,
                 should_stop: Callable[[], bool] | None = None, poll: float = 0.1) -> Any:
    """Run an export's steps in this thread and return its value.

    ``progress(i, n, name)`` at each page; False stops the export there (as the export
    defines: the slides keep what is written, the handout is written with the pages so far).
    ``should_stop()``, asked about every ``poll`` seconds while work runs elsewhere and at
    each page, cancels it (``Cancelled``: at once, even in the middle of a page).
    """
    value: Any = None
    cancel = False  # throw Cancelled at the next step (once)
    cancelled = False

    def stopping() -> bool:
        return not cancelled and should_stop is not None and bool(should_stop())

    while True:
        try:
            if cancel:
                cancel, cancelled = False, True
                item = steps.throw(Cancelled())
            else:
                item = steps.send(value)
        except StopIteration as stop:
            return stop.value
        value = None
        if isinstance(item, Future):
            while not item.done():
                concurrent.futures.wait([item], timeout=poll)
                if stopping():
                    cancel = True
                    break
        elif stopping():
            cancel = True
        elif isinstance(item, Page):
            value = progress is None or progress(item.index, item.count, item.name) is not False


class ExportRun(QObject):
    """Runs an export's steps from the event loop (see the module docstring).

    ``progressed(i, n, name)`` at each page; ``finished(value, error)`` once, at the end:
    the export's value (for slides the files written) and None, or None and the error that
    stopped it (an OSError: a file could not be written; Refused: it cannot be made as asked;
    anything else is raised again
    after ``finished``). ``cancelled`` says whether Cancel ended it.
    """

    progressed = Signal(int, int, str)
    finished = Signal(object, object)

    POLL_MS = 10  # how often a future is looked at while the export waits for it

    def __init__(self, steps: Steps, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._steps = steps
        self._value: Any = None  # sent into the export at the next step
        self._waiting: Future[Any] | None = None
        self._cancel = False  # Cancel was asked for
        self._thrown = False  # ... and Cancelled thrown into the export
        self._inside = False  # the export runs (nested event loops must not re-enter it)
        self._abort = False  # abort() was called while the export ran: end it when it returns
        self._done = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._step)

    @property
    def running(self) -> bool:
        return not self._done

    @property
    def cancelled(self) -> bool:
        return self._thrown

    def start(self) -> None:
        self._timer.start(0)

    def cancel(self) -> None:
        """Stop at the next step, or at once while the export waits for a page's work."""
        if self._done or self._cancel:
            return
        self._cancel = True
        if not self._inside:
            self._timer.start(0)

    def abort(self) -> None:
        """End the export within this call (the window closes): the window is restored; a
        file being written is finished by its thread, work not started is dropped."""
        if self._done:
            return
        if self._inside:  # from an event loop nested in a step: as soon as the step returns
            self._abort = True
            return
        self._timer.stop()
        self._thrown = True
        try:
            self._steps.close()
        finally:
            self._end(None, None)

    def _step(self) -> None:
        if self._done or self._inside:
            return
        waiting = self._waiting
        throw = self._cancel and not self._thrown
        if waiting is not None and not waiting.done() and not throw:
            self._timer.start(self.POLL_MS)
            return
        self._waiting = None
        value, self._value = self._value, None
        self._inside = True
        try:
            if throw:
                self._thrown = True
                item = self._steps.throw(Cancelled())
            else:
                item = self._steps.send(value)
        except StopIteration as stop:
            self._end(stop.value, None)
            return
        except Exception as exc:
            self._end(None, exc)
            if not isinstance(exc, (OSError, Refused)):
                raise
            return
        finally:
            self._inside = False
        if self._abort:
            self.abort()
            return
        if isinstance(item, Page):
            self._value = True
            self.progressed.emit(item.index, item.count, item.name)
        elif isinstance(item, Future):
            self._waiting = item
        if not self._done:
            self._timer.start(0 if self._waiting is None or self._waiting.done() else self.POLL_MS)

    def _end(self, value: Any, error: BaseException | None) -> None:
        self._done = True
        self._inside = False
        self._timer.stop()
        self.finished.emit(value, error)
