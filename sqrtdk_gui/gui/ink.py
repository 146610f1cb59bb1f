"""A pen on the projected page: strokes drawn with the mouse or a tablet over the whole window.

``InkOverlay`` covers its window while the pen is on and draws strokes in the theme's
pointer colour (the lesson's highlight, chosen for projectors), as wide as the zoom makes
lines. It never takes the keyboard focus, so the clicker's and the lesson's keys keep
working; ``undo`` removes the last stroke, ``clear`` all of them (a page change clears
them too). Strokes are on screen only: ``without_ink`` leaves them out of a picture.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

from PySide6.QtCore import QEvent, QObject, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

__all__ = ["InkOverlay", "without_ink", "PEN_WIDTH"]

PEN_WIDTH = 6.0  # pixels at zoom 1: read from the back of a room on a projector


class InkOverlay(QWidget):
    """The strokes over ``window``; hidden (and letting the mouse through) while the pen is off."""

    toggled = Signal(bool)
    # The pen's width in pixels: the attribute shadows QWidget.width() (never called on the overlay).
    width: float  # type: ignore[assignment]

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("ink")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys stay with the window
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.strokes: list[list[QPointF]] = []
        self.colour, self.width = QColor("#E69F00"), PEN_WIDTH
        self._drawing = False
        self.hide()

    @property
    def active(self) -> bool:
        return not self.isHidden()

    def set_active(self, on: bool) -> None:
        """The pen on (the overlay over everything, taking the mouse) or off (strokes kept)."""
        if on == self.active:
            return
        # The window's events pass through the filter only while the pen is on (it follows
        # the window's size): off, a slider drag's events cost nothing here.
        if on:
            cast(QWidget, self.parentWidget()).installEventFilter(self)
            self.setGeometry(cast(QWidget, self.parentWidget()).rect())
            self.show()
            self.raise_()
        else:
            cast(QWidget, self.parentWidget()).removeEventFilter(self)
            self._drawing = False
            self.hide()
        self.toggled.emit(on)

    def set_style(self, colour: str, zoom: float) -> None:
        self.colour, self.width = QColor(colour), PEN_WIDTH * zoom
        self.update()

    def undo(self) -> bool:
        """Remove the last stroke; False if there was none."""
        if not self.strokes:
            return False
        self.strokes.pop()
        self.update()
        return True

    def clear(self) -> None:
        if self.strokes:
            self.strokes.clear()
            self.update()

    # --- drawing ------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton:
            self._drawing = True
            self.strokes.append([event.position()])
            self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if self._drawing and self.strokes:
            self.strokes[-1].append(event.position())
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton:
            self._drawing = False

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(self.colour, self.width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                   Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        for stroke in self.strokes:
            if len(stroke) == 1:  # a tap: a dot
                painter.drawPoint(stroke[0])
                continue
            path = QPainterPath(stroke[0])
            for point in stroke[1:]:
                path.lineTo(point)
            painter.drawPath(path)
        painter.end()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.setGeometry(cast(QWidget, self.parentWidget()).rect())
        return False


@contextmanager
def without_ink(widget: QWidget) -> Iterator[None]:
    """``widget`` with its pen strokes hidden for the duration (a picture of the page)."""
    shown = [ink for ink in widget.findChildren(InkOverlay) if ink.isVisible()]
    for ink in shown:
        ink.hide()
    try:
        yield
    finally:
        for ink in shown:
            ink.show()
