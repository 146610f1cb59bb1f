"""Progress of a long headless command on stderr, and Ctrl+C as "stop and report" (stdlib only).

On a terminal: one bar, redrawn in place at most ten times a second and erased at the end.
Elsewhere (a log file, a pipe, CI): one plain line every ``every`` seconds. A run shorter
than the first delay prints nothing, so quick runs and their tests see an empty stderr.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO, cast

from sqrtdk_gui.core.i18n import N_, _, localize_number

if TYPE_CHECKING:
    from types import FrameType

__all__ = ["Progress", "StopOnInterrupt", "format_duration"]


# What is counted: "step 40 of 400" (unit "step"), "slide 3 of 17", "page 2 of 12", "frame 9 of 53".
_COUNTS = {"step": N_("step {done} of {total}"), "slide": N_("slide {done} of {total}"),
           "page": N_("page {done} of {total}"), "frame": N_("frame {done} of {total}")}


def format_duration(seconds: float) -> str:
    """'42 s', '3 min 05 s', '19 h 40 min'."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    minutes, s = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {s:02d} s"
    hours, m = divmod(minutes, 60)
    return f"{hours} h {m:02d} min"


class Progress:
    """``update(done)`` as work proceeds, ``finish()`` at the end (also after an interruption)."""

    BAR = 24

    def __init__(self, total: int, stream: TextIO, label: str = "", tty: bool | None = None,
                 clock: Callable[[], float] = time.monotonic, first: float | None = None, every: float | None = None,
                 unit: str = "step") -> None:
        self.total, self.stream, self.label, self.clock = max(int(total), 1), stream, label, clock
        self.unit = unit  # what is counted (a key of _COUNTS): "step 40 of 400", "slide 3 of 17"
        if tty is None:
            try:
                tty = stream.isatty()
            except (AttributeError, ValueError, OSError):
                tty = False
        self.tty = tty
        self.first = (1.0 if tty else 10.0) if first is None else first
        self.every = (0.1 if tty else 10.0) if every is None else every
        self.start = clock()
        self._next = self.start + self.first
        self._drawn = False

    def text(self, done: int, now: float) -> str:
        elapsed = now - self.start
        share = min(done / self.total, 1.0)
        template = _(_COUNTS[self.unit]) if self.unit in _COUNTS else "{unit} {done} of {total}"
        count = template.format(unit=self.unit, done=f"{done:,}", total=f"{self.total:,}")
        fields = {"count": count, "percent": localize_number(f"{100 * share:.1f}"), "elapsed": format_duration(elapsed)}
        if done:
            counts = _("{count} ({percent} %), {elapsed} elapsed, about {left} left").format(
                left=format_duration(elapsed * (self.total - done) / done), **fields)
        else:
            counts = _("{count} ({percent} %), {elapsed} elapsed").format(**fields)
        if not self.tty:
            return f"{self.label}{counts}"
        filled = int(round(share * self.BAR))
        return f"{self.label}[{'#' * filled}{'.' * (self.BAR - filled)}] {counts}"

    def update(self, done: int, *_ignored: object) -> None:
        now = self.clock()
        if now < self._next:
            return
        self._next = now + self.every
        try:
            if self.tty:
                self.stream.write("\r\x1b[2K" + self.text(done, now))
            else:
                self.stream.write(self.text(done, now) + "\n")
            self.stream.flush()
            self._drawn = True
        except (OSError, ValueError):  # stderr gone: progress is a courtesy, never an error
            cast(Any, self).update = lambda *a: None  # this instance only (mypy forbids assigning to a method)

    def finish(self) -> None:
        """Erase the bar (a terminal keeps only the result)."""
        if self.tty and self._drawn:
            try:
                self.stream.write("\r\x1b[2K")
                self.stream.flush()
            except (OSError, ValueError):
                pass


class StopOnInterrupt:
    """While active, the first Ctrl+C only asks the work to stop (``requested()`` becomes
    True) so that it can report what it has; a second one interrupts at once: a
    KeyboardInterrupt, or with ``end_at_second`` the end of the process as for a program that
    does not catch Ctrl+C (status 130 in the shell; for work inside Qt, where an exception
    raised in a render or a thread's shutdown would crash or be lost)."""

    def __init__(self, end_at_second: bool = False) -> None:
        self.interrupted = False
        self.end_at_second = end_at_second
        self._previous: Callable[[int, FrameType | None], Any] | int | None = None

    def requested(self) -> bool:
        return self.interrupted

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        if self.interrupted:
            if self.end_at_second:
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.raise_signal(signal.SIGINT)
            raise KeyboardInterrupt
        self.interrupted = True

    def __enter__(self) -> StopOnInterrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
