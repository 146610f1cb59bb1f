"""Presentation mode: full screen, large type, hidden cursor, controls out of the way (H),
the current lesson page as a slide beside its own panels, large (the window arranges them),
and the teacher's notes in the presenter view: on the second screen, or one key away (N).

Entering saves the window's state (zoom, visible columns, full screen or not) and leaving
restores it exactly, so F11 twice is a no-op for the layout.
"""

from __future__ import annotations

from typing import Any, cast

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QCursor, QScreen
from PySide6.QtWidgets import QApplication

from sqrtdk_gui.gui.window.projection import place_on

__all__ = ["Presentation", "presentation_zoom", "CURSOR_IDLE_MS"]

# Tick labels are 12 pt (16 px) at zoom 1. At 1.25 they are 20 px on a 768-line projector,
# a cap height of about 2 % of the screen: readable from the back of a room. Larger screens
# keep that share; smaller ones keep the 20 px.
PRESENTATION_ZOOM = 1.25  # at 768 lines


def presentation_zoom(screen_height: int) -> float:
    """Large type for the room: tick labels about 2.6 % of the screen height, at least 20 px."""
    return min(2.5, max(PRESENTATION_ZOOM, PRESENTATION_ZOOM * screen_height / 768))
CURSOR_IDLE_MS = 2500


class Presentation(QObject):
    """Toggles presentation mode on a MainWindow and hides the idle mouse cursor."""

    changed = Signal(bool)

    def __init__(self, window: Any) -> None:  # the MainWindow
        super().__init__(window)
        self._window = window
        self.active = False
        self._saved: dict[str, object] | None = None
        self._cursor_hidden = False
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.setInterval(CURSOR_IDLE_MS)
        self._idle.timeout.connect(self._hide_cursor)

    @property
    def cursor_hidden(self) -> bool:
        return self._cursor_hidden

    def toggle(self) -> None:
        self.leave() if self.active else self.enter()

    def enter(self, full_screen: bool = True) -> None:
        """Large type, the step's own panels, no menus; ``full_screen=False`` keeps the
        window's size (headless renders of a projector's layout)."""
        if self.active:
            return
        w = self._window
        self._saved = {
            "zoom": w.style_.zoom,
            "controls": not w.controls_scroll.isHidden(),
            "full_screen": w.isFullScreen(),
            "maximized": w.isMaximized(),
            "geometry": w.saveGeometry(),
        }
        self.active = True
        screen = w.projection.screens()[0] if full_screen else None
        size = w.size()
        height = size.height() if screen is None else screen.geometry().height()  # the window or the projector
        # The slide first: the pane's words at the larger type must not make the window taller.
        w.projection.set_presenting(True)
        w.set_zoom(max(w.style_.zoom, presentation_zoom(height)))
        w.set_controls_visible(False)  # the plots fill the screen; H brings the controls back
        w.menuBar().hide()  # the room reads plots, not menus (every shortcut still works)
        w.statusBar().hide()
        if screen is not None:
            self.move_to(screen)
            w.projection.show_view_on_teachers_screen()  # once the slide is on the projector
        else:
            w.resize(size)
        cast(QApplication, QApplication.instance()).installEventFilter(self)
        self._idle.start()
        self.changed.emit(True)

    def leave(self) -> None:
        if not self.active:
            return
        w, saved = self._window, self._saved or {}
        self.active = False
        cast(QApplication, QApplication.instance()).removeEventFilter(self)
        self._idle.stop()
        self._show_cursor()
        w.projection.set_presenting(False)
        if not saved.get("full_screen"):
            w.showMaximized() if saved.get("maximized") else w.showNormal()
            if "geometry" in saved:
                w.restoreGeometry(saved["geometry"])
        w.menuBar().show()
        w.statusBar().show()
        w.set_zoom(saved.get("zoom", 1.0))
        w.set_controls_visible(saved.get("controls", True))
        self.changed.emit(False)

    def move_to(self, screen: QScreen) -> None:
        """Full screen on ``screen`` (the projector)."""
        place_on(self._window, screen, full_screen=True)
        # Without a window manager (a kiosk, a bare X server) nobody honours the full-
        # screen request: if the window still does not cover the screen shortly, cover it.
        QTimer.singleShot(300, self._cover_screen)

    def _cover_screen(self) -> None:
        w = self._window
        screen = w.projection.screens()[0]
        if self.active and screen is not None and w.geometry() != screen.geometry():
            w.setGeometry(screen.geometry())

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() in (QEvent.Type.MouseMove, QEvent.Type.MouseButtonPress, QEvent.Type.Wheel):
            self._show_cursor()
            self._idle.start()
        return False

    def _hide_cursor(self) -> None:
        if self.active and not self._cursor_hidden:
            QApplication.setOverrideCursor(QCursor(Qt.CursorShape.BlankCursor))
            self._cursor_hidden = True

    def _show_cursor(self) -> None:
        if self._cursor_hidden:
            QApplication.restoreOverrideCursor()
            self._cursor_hidden = False
