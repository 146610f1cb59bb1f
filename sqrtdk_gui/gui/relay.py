"""Work done in a worker pool, its continuation run in the GUI thread.

``in_background(pool_name, work, done)`` submits ``work()`` to a named pool of
``core.threads`` and calls ``done()`` in the GUI thread when it has finished (not when it was
cancelled). The hop goes through one relay object that lives as long as the application, so a
worker never emits on an object the GUI thread may be deleting; ``done`` should hold its
owner by a weak reference for the same reason.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal

from sqrtdk_gui.core.threads import pool

__all__ = ["gui_thread_call", "in_background"]


class _Relay(QObject):
    call = Signal(object)

    def __init__(self) -> None:
        super().__init__(QCoreApplication.instance())
        # Queued from the GUI thread too: a continuation never runs inside the call that
        # submitted its work (which may not have returned the future yet).
        self.call.connect(lambda fn: fn(), Qt.ConnectionType.QueuedConnection)


_relay: _Relay | None = None


def _the_relay() -> _Relay:
    global _relay
    if _relay is None:  # made in the GUI thread, by the first caller there
        _relay = _Relay()
    return _relay


def gui_thread_call(fn: Callable[[], None]) -> None:
    """Run ``fn`` in the GUI thread's event loop, from any thread (after the relay was made
    there: any ``in_background`` call or a first ``gui_thread_call`` from the GUI thread makes it)."""
    _the_relay().call.emit(fn)


def in_background(pool_name: str, work: Callable[[], Any], done: Callable[[], None]) -> Future[Any]:
    """Submit ``work`` to the pool ``pool_name``; ``done()`` runs in the GUI thread's event
    loop after it, never before this call has returned (call from the GUI thread)."""
    _the_relay()

    def finished(future: Future[Any]) -> None:
        if not future.cancelled():
            gui_thread_call(done)

    future = pool(pool_name).submit(work)
    future.add_done_callback(finished)
    return future
