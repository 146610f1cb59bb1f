"""Lesson keys that work whatever has focus: a presentation clicker, a keyboard, a remote.

An application-wide event filter sees every key press before the focused widget does. On
the live page it turns the lesson keys into lesson moves, unless the teacher is typing (the
guesses box, a number field), or a control the teacher tabbed to wants its own keys (a
slider its arrows, a button its Space). Every lesson move hands the focus back to the page.
A clicker sends Page Down and Page Up (some also B or "." to blank the screen): Page Down at
an open question reveals it, the next press moves on, so a clicker alone runs the whole
lesson; holding its blank button (the key repeats) turns the pen on or off instead. Which
keys and what they run: the ``lesson_keys`` of the table in commands.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from sqrtdk_gui.gui.window.commands import COMMANDS, Cmd

__all__ = ["LessonKeys", "typing_into"]

_ARROWS = {Qt.Key.Key_Left, Qt.Key.Key_Right}
_PRESS = {Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter}
_BLANK = {Qt.Key.Key_B, Qt.Key.Key_Period}  # a clicker's blank button; held: the pen
# The commands whose keys the router takes, by key (commands.py says which and what they do).
_BY_KEY: dict[int, Cmd] = {key: cmd for cmd in COMMANDS if cmd.run is not None for key in cmd.lesson_keys}


def typing_into(widget: QWidget | None) -> bool:
    """Whether key presses to ``widget`` are text being typed (guesses, a number)."""
    if isinstance(widget, QLineEdit):
        return not widget.isReadOnly()
    if isinstance(widget, (QTextEdit, QPlainTextEdit)):
        return not widget.isReadOnly()
    return isinstance(widget, QAbstractSpinBox)


class LessonKeys(QObject):
    """Routes the lesson keys of one main window to its lesson presenter.

    ``window`` provides ``lesson`` (the presenter), ``presentation``, ``live_active()``
    (the live page is in front), ``set_blank(on)`` / ``blanked``, ``focus_home()`` and
    ``lesson_windows()`` (itself and its presenter view: the keys work in both).
    """

    def __init__(self, window: Any) -> None:  # the MainWindow
        super().__init__(window)
        self._window = window
        self._pen_held = False  # the held blank key has toggled the pen (until it is pressed anew)
        cast(QApplication, QApplication.instance()).installEventFilter(self)

    def remove(self) -> None:
        """Stop routing keys (the window closes; removing twice is harmless)."""
        app = cast("QApplication | None", QApplication.instance())
        if app is not None:
            app.removeEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return False
        event = cast(QKeyEvent, event)  # a key press or a shortcut override
        if not isinstance(obj, QWidget) or obj.window() not in self._window.lesson_windows():
            return False  # dialogs, the command palette, other windows keep their keys
        if event.modifiers() & ~(Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.ShiftModifier):
            return False  # Ctrl+… and Alt+… are menu shortcuts
        handler = self._handler(obj, event.key())
        if handler is None:
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # ours: no menu shortcut may take it first
            return True
        if event.key() in _BLANK:
            if event.isAutoRepeat():  # held: the pen, once per hold, and no blinking
                if not self._pen_held:
                    self._pen_held = True
                    self._hold_blank()
                return True
            self._pen_held = False
        handler()
        return True

    def _hold_blank(self) -> None:
        """A held blank button: the picture back (its first press blanked it) and the pen
        turned on, or off."""
        w = self._window
        if w.blanked:
            w.set_blank(False)
        w.toggle_pen()

    def _handler(self, obj: QWidget, key: int) -> Callable[[], object] | None:
        w = self._window
        cmd = _BY_KEY.get(key)
        if cmd is None or (cmd.when is not None and not cmd.when(w)):
            return None
        run = cast("Callable[[Any], object]", cmd.run)  # _BY_KEY holds only commands with a run
        if cmd.anywhere:
            return lambda: run(w)
        if typing_into(QApplication.focusWidget() or obj) or not w.live_active():
            return None
        focus = QApplication.focusWidget()
        if key in _ARROWS and isinstance(focus, QAbstractSlider):
            return None  # a slider the teacher tabbed to keeps its arrows
        if key in _PRESS and isinstance(focus, (QAbstractButton, QComboBox)):
            return None  # ... and a button its Space (keyboard users press buttons with it)
        if not cmd.wakes:
            return lambda: run(w)

        def move() -> None:
            if w.blanked:  # the first press after a blank only brings the picture back
                w.set_blank(False)
                return
            run(w)
            w.focus_home()

        return move
