"""Telling a screen reader what changed: an announcement through Qt's accessibility events.

``announce`` sends one ``QAccessibleAnnouncementEvent`` (read out by NVDA, VoiceOver and Orca
without moving the focus). ``Announcer`` follows the controller: once the numbers have
settled (a slider let go, a sweep ended), it announces one sentence (``core.lesson.spoken``)
and sets each panel's accessible description to its current numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import QWidget

from sqrtdk_gui.core.lesson.spoken import QUANTITIES, SCALED, scaled_jacobian, spoken_numbers

__all__ = ["announce", "Announcer", "SETTLE_MS"]

SETTLE_MS = 700  # quiet this long after the last new result: the numbers have settled


def announce(widget: QWidget, text: str) -> None:
    """Have a screen reader say ``text`` (politely: after what it is saying) — from a window on
    screen only: not a closed one, nor the window an export draws in off screen."""
    window = widget.window()
    if text and window.isVisible() and not window.testAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen):
        QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(widget, text))


class Announcer(QObject):
    """One announcement per settled change of the numbers; ``announced`` carries its text."""

    announced = Signal(str)

    # The controller, panels and summary strip are the window's (a layer above: duck-typed).
    def __init__(self, window: QWidget, controller: Any, panels: Mapping[str, Any], summary: Any) -> None:
        super().__init__(window)
        self._window, self._controller, self._panels, self._summary = window, controller, panels, summary
        self._last = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self.settle)
        controller.result_changed.connect(lambda _result: self._timer.start())
        controller.sweeps_changed.connect(lambda _sweeps: self._timer.start())  # the ÷√d_k comparison

    def settle(self) -> None:
        """Announce the current numbers, unless they are what was said last (a repaint, an
        undo back to the same case), and describe every panel by its numbers. What an open
        question covers is not said (a covered panel is described by its cover)."""
        result = self._controller.result
        if result is None or not self._window.isVisible():
            return
        # The ÷√d_k comparison from sweeps of these very parameters only (they arrive later).
        sweeps = self._controller.sweeps or {}
        current = self._controller.sweeps_for == result.params.replace(d_k=1)
        scaled = scaled_jacobian(sweeps.get(SCALED), result.params.d_k) if current else None
        text = spoken_numbers(result, scaled, self._summary.veiled_cells & frozenset(QUANTITIES))
        for panel in self._panels.values():
            panel.setAccessibleDescription(panel.veil.text() if panel.veiled
                                           else f"{panel.full_title}: {panel.readout.text()}")
        if text and text != self._last:
            self._last = text
            announce(self._window, text)
            self.announced.emit(text)
