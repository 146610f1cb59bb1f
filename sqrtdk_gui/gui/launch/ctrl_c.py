"""Ctrl+C ends a Qt command within a grace period, whatever its GUI thread is doing.

Python runs a signal handler only between two bytecodes of the main thread. While that thread
is inside Qt (a render, a first result of 8,192 queries that takes 15 s) the handler waits,
and an exception it raises inside a callback Qt made is printed and dropped (PySide6 cannot
pass it through C++). So the window's and the exports' own handlers (close like Quit; stop the
export and say what was written) get ``GRACE_S`` to finish; then the process ends with status
130, as a Ctrl+C does. Every file the program writes is a temporary file renamed into place,
so nothing is left half-written.

The C-level handler writes the signal's number to a wake-up socket as the signal arrives
(``signal.set_wakeup_fd``); a daemon thread reading it does the rest.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import time

__all__ = ["GRACE_S", "end_within_grace", "this_process_is_the_program", "is_the_program"]

GRACE_S = 1.0  # after Ctrl+C, how long the program's own handler may take before the process ends

_armed: list[socket.socket] = []  # the sockets, kept alive while the wake-up fd points at one of them
_program = [False]  # set by the program's entry point


def this_process_is_the_program() -> None:
    """Said by the program's entry point: the process ends after its command, so Ctrl+C may
    end it (a test or a host that calls the command line in its own process is never ended)."""
    _program[0] = True


def is_the_program() -> bool:
    return _program[0]


def end_within_grace() -> bool:
    """Arm the watch (once per process). False where it is not armed: a process that is not
    the program, or not its main thread (an embedding host), where Python's handler decides."""
    if not _program[0]:
        return False
    if _armed:
        return True
    reader, writer = socket.socketpair()  # a socket: on Windows the wake-up fd must be one
    writer.setblocking(False)
    try:
        signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except ValueError:
        reader.close()
        writer.close()
        return False
    _armed.extend((reader, writer))
    threading.Thread(target=_watch, args=(reader,), name="sqrtdk-ctrl-c", daemon=True).start()
    return True


def _watch(reader: socket.socket) -> None:
    while True:
        try:
            data = reader.recv(64)
        except OSError:
            return
        if not data:
            return
        if signal.SIGINT in data:
            time.sleep(GRACE_S)
            os._exit(130)
