"""A focus ring you can see from the back of the room, in every theme.

The platform style's focus indication is a thin, faint line (nearly invisible on a washed-out
projector in the light theme). One QFocusFrame follows the keyboard focus around the window's
controls and draws a thick outline in the theme's accent colour. The live page itself (where
the lesson keys go) gets no ring: there is nothing to operate there.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QFocusFrame,
    QLineEdit,
    QWidget,
)

__all__ = ["FocusRing"]

_CONTROLS = (QAbstractButton, QAbstractSlider, QAbstractSpinBox, QComboBox, QLineEdit)


class FocusRing(QObject):
    """Outlines the focused control of ``window``; ``apply_style(colour, width)`` restyles it."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self.frame = QFocusFrame(window)
        self.frame.setObjectName("focusRing")
        self.frame.hide()
        cast(QApplication, QApplication.instance()).focusChanged.connect(self._moved)
        self._connected = True

    def apply_style(self, colour: str, width: int) -> None:
        self.frame.setStyleSheet(f"QFocusFrame#focusRing {{ border: {width}px solid {colour}; "
                                 "border-radius: 4px; }")

    @property
    def target(self) -> QWidget | None:
        return self.frame.widget()

    def _moved(self, old: QWidget | None, new: QWidget | None) -> None:
        if (isinstance(new, QLineEdit) and isinstance(new.parentWidget(), QAbstractSpinBox)):
            new = new.parentWidget()  # the spin box, not its text field
        ours = isinstance(new, _CONTROLS) and new.window() is self._window
        # The stub omits None, which Qt takes as "follow no widget".
        self.frame.setWidget(new if ours else None)  # type: ignore[arg-type]
        self.frame.setVisible(ours)

    def remove(self) -> None:
        """Stop following the focus (the window closes; it may close more than once)."""
        app = cast("QApplication | None", QApplication.instance())
        if app is not None and self._connected:
            app.focusChanged.disconnect(self._moved)
            self._connected = False
