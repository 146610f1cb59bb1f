"""Lesson keys that work whatever has focus: a presentation clicker, a keyboard, a remote.

An application-wide event filter sees every key press before the focused widget does. On
the live page it turns the lesson keys into lesson moves, unless the teacher is typing (the
guesses box, a number field), or a control the teacher tabbed to wants its own keys (a
slider its arrows, a button its Space). Every lesson move hands the focus back to the page. A clicker sends Page Down
and Page Up (some also B or "." to blank the screen): Page Down at an open question reveals
it, the next press moves on, so a clicker alone runs the whole lesson.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
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

__all__ = ["LessonKeys", "LESSON_KEYS", "typing_into"]

K = Qt.Key
# What F1 and the teacher's guide list, in this order.
LESSON_KEYS = (
    ("Page Down  →  Space",
     "next: at an open question reveal the answer, then the next step (a clicker's forward key)"),
    ("Page Up  ←", "back one step"),
    ("Return", "reveal the answer (and play the step's animation)"),
    ("Home  End  1–5", "first / last / a given lesson step"),
    ("B  .", "blank the screen (any lesson key brings it back)"),
    ("Esc", "leave presentation mode"),
)
_ADVANCE = {K.Key_PageDown, K.Key_Right, K.Key_Space}
_BACK = {K.Key_PageUp, K.Key_Left}
_ARROWS = {K.Key_Left, K.Key_Right}
_PRESS = {K.Key_Space, K.Key_Return, K.Key_Enter}


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
    (the live page is in front), ``set_blank(on)`` / ``blanked`` and ``focus_home()``.
    """

    def __init__(self, window) -> None:
        super().__init__(window)
        self._window = window
        QApplication.instance().installEventFilter(self)

    def remove(self) -> None:
        """Stop routing keys (the window closes; removing twice is harmless)."""
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return False
        if not isinstance(obj, QWidget) or obj.window() is not self._window:
            return False  # dialogs, the command palette, other windows keep their keys
        if event.modifiers() & ~(Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.ShiftModifier):
            return False  # Ctrl+… and Alt+… are menu shortcuts
        handler = self._handler(obj, event.key())
        if handler is None:
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # ours: no menu shortcut may take it first
            return True
        handler()
        return True

    def _handler(self, obj: QWidget, key: int):
        w = self._window
        if key == K.Key_Escape:
            if w.blanked:
                return lambda: w.set_blank(False)
            return w.presentation.leave if w.presentation.active else None
        if typing_into(QApplication.focusWidget() or obj) or not w.live_active():
            return None
        focus = QApplication.focusWidget()
        if key in _ARROWS and isinstance(focus, QAbstractSlider):
            return None  # a slider the teacher tabbed to keeps its arrows
        if key in _PRESS and isinstance(focus, (QAbstractButton, QComboBox)):
            return None  # ... and a button its Space (keyboard users press buttons with it)
        lesson = w.lesson
        if key in (K.Key_B, K.Key_Period):
            return lambda: w.set_blank(not w.blanked)
        moves = {K.Key_Home: lesson.first, K.Key_End: lesson.last,
                 K.Key_Return: lesson.reveal, K.Key_Enter: lesson.reveal}
        if key in _ADVANCE:
            move = lesson.advance
        elif key in _BACK:
            move = lesson.back
        elif key in moves:
            move = moves[key]
        elif K.Key_1 <= key < K.Key_1 + lesson.count:
            move = lambda n=key - K.Key_0: lesson.go_to(n)  # noqa: E731
        else:
            return None

        def run() -> None:
            if w.blanked:  # the first press after a blank only brings the picture back
                w.set_blank(False)
                return
            move()
            w.focus_home()

        return run
