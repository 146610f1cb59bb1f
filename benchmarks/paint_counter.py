"""Counting paint events of the panels: proof that a timed frame really reached the screen."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject


class PaintCounter(QObject):
    """An event filter that counts the Paint events of the widgets it watches."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False

    def watch_panels(self, window, *extra) -> PaintCounter:
        """Watch every panel's plot viewport (and any extra widgets) of a MainWindow."""
        for widget in [panel.canvas.viewport() for panel in window.panels.values()] + list(extra):
            widget.installEventFilter(self)
        return self
