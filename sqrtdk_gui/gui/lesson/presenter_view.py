"""The presenter view: the teacher's screen while the projector shows the slide.

As in presentation software's presenter view, the teacher's screen holds what only the
teacher reads: the lesson pane with the page's whole text (the explanation, what to ask, the
evidence table), the class-guesses box, Reveal and the buttons; what comes next; a lesson
clock; the keys. With a second screen it fills the screen the projector does not show; with
one screen it is one key away (N) and never part of the projected page.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from sqrtdk_gui.gui.style import Style

__all__ = ["PresenterView", "clock_text"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


def clock_text(seconds: float) -> str:
    """Elapsed lesson time as m:ss (h:mm:ss past an hour)."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class PresenterView(QWidget):
    """A top-level window around the lesson pane (``hold``/``release``) with the next page,
    a lesson clock and the keys; ``swap_requested`` when the teacher swaps the screens."""

    swap_requested = Signal()

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.style_ = style
        self.setObjectName("presenterView")
        self.setWindowTitle(translate("PresenterView", "sqrtdk-gui — presenter view"))
        self.now = QLabel()
        self.now.setObjectName("presenterNow")
        self.now.setWordWrap(True)
        self.clock = QLabel(clock_text(0))
        self.clock.setObjectName("presenterClock")
        self.clock.setToolTip(translate("PresenterView", "Time since presentation mode began"))
        self.next_page = QLabel()
        self.next_page.setObjectName("presenterNext")
        self.next_page.setWordWrap(True)
        self.keys = QLabel(translate("PresenterView", "Page Down: reveal, then next · Page Up: back · B: blank "
                                                      "screen · N: these notes · Esc: end the presentation"))
        self.keys.setWordWrap(True)
        self.keys.setObjectName("presenterKeys")
        self.swap_button = QPushButton(translate("PresenterView", "Swap screens"))
        self.swap_button.setToolTip(translate("PresenterView", "Show the class's slide on the other screen, and these "
                                                               "notes on this one"))
        self.swap_button.clicked.connect(self.swap_requested)
        top = QHBoxLayout()
        top.addWidget(self.now, 1)
        top.addWidget(self.clock)
        self._body = QVBoxLayout()
        self._body.setContentsMargins(0, 0, 0, 0)
        bottom = QHBoxLayout()
        bottom.addWidget(self.next_page, 1)
        bottom.addWidget(self.swap_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(self._body, 1)
        layout.addLayout(bottom)
        layout.addWidget(self.keys)
        self._held: QWidget | None = None
        self._started = time.monotonic()
        self._tick = QTimer(self)
        self._tick.setInterval(1000)
        self._tick.timeout.connect(self._show_clock)
        self.apply_style()

    def apply_style(self) -> None:
        s = self.style_
        p = s.palette
        self.setStyleSheet(f"QWidget#presenterView {{ background: {p.window}; }} QLabel {{ color: {p.fg}; }} "
                           f"QLabel#presenterKeys {{ color: {p.muted}; }}")
        self.now.setFont(s.font(12, bold=True))
        self.clock.setFont(s.font(16, bold=True))
        self.next_page.setFont(s.font(11))
        self.keys.setFont(s.font(10))
        self.swap_button.setFont(s.font(11))

    def hold(self, widget: QWidget) -> None:
        """Show ``widget`` (the lesson pane's scroll area) as the view's body."""
        self._held = widget
        self._body.addWidget(widget)
        widget.show()

    def release(self) -> QWidget | None:
        """Give the held widget back (the caller places it again)."""
        widget, self._held = self._held, None
        if widget is not None:
            self._body.removeWidget(widget)
        return widget

    def start_clock(self) -> None:
        self._started = time.monotonic()
        self._show_clock()
        self._tick.start()

    def stop_clock(self) -> None:
        self._tick.stop()

    def _show_clock(self) -> None:
        self.clock.setText(clock_text(time.monotonic() - self._started))

    def set_pages(self, now: str, following: str) -> None:
        """What the projector shows and what the next press of the clicker brings."""
        self.now.setText(translate("PresenterView", "Now: {page}").format(page=now) if now
                         else translate("PresenterView", "Now: the introduction"))
        self.next_page.setText(translate("PresenterView", "Next: {page}").format(page=following) if following
                               else translate("PresenterView", "Next: nothing, the lesson has ended"))

    def set_two_screens(self, two: bool) -> None:
        self.swap_button.setVisible(two)
