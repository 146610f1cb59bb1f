"""Undo and redo of parameter changes and lesson moves (Edit menu, Ctrl+Z / Ctrl+Shift+Z).

One ``QUndoStack`` holds *settled* changes: every edit of the same control within
``MERGE_MS`` of the previous one merges into one step (a slider drag of hundreds of values
is one step), and a lesson move (a step, a trap, a follow-up: whatever enters it) is one step
with the parameters it set. A step remembers the whole ``Snapshot`` before and after it
(parameters, lesson position, theme and zoom), so undo restores them, wherever the change
came from; theme and zoom only when the step itself changed them (Open preset, Reset all
settings), not a zoom chosen in between. The Open recent list is not part of a step.

The history listens to the controller's ``edited`` signal (a user's change) and to the
lesson's moves. Changes the program makes by itself (the lesson's d_k animation, autoplay)
are not steps; the next step records whatever state they left as its "before".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, cast

from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence, QUndoCommand, QUndoStack

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import format_number
from sqrtdk_gui.gui.style import SCALING_LABELS

__all__ = ["Snapshot", "UndoHistory", "MERGE_MS", "describe"]

MERGE_MS = 1000  # edits of one control closer together than this are one step
_EDIT_ID = 1601  # QUndoCommand.id() of parameter edits (merged by mergeWith)

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "UndoHistory"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

# How the Edit menu names a parameter; words marked for lupdate, shown translated.
_NAMES = {"d_k": "d_k", "temperature": "τ", "keys": QT_TRANSLATE_NOOP("UndoHistory", "keys n"),
          "queries": QT_TRANSLATE_NOOP("UndoHistory", "queries"), "seed": QT_TRANSLATE_NOOP("UndoHistory", "seed"),
          "heads": QT_TRANSLATE_NOOP("UndoHistory", "heads h"), "gain": QT_TRANSLATE_NOOP("UndoHistory", "QK gain g"),
          "alignment": QT_TRANSLATE_NOOP("UndoHistory", "alignment ρ"),
          "softmax": QT_TRANSLATE_NOOP("UndoHistory", "softmax"),
          "dtype": QT_TRANSLATE_NOOP("UndoHistory", "float type"),
          "scaling": QT_TRANSLATE_NOOP("UndoHistory", "scaling"), "q_std": "σ_q", "k_std": "σ_k"}


@dataclass(frozen=True)
class Snapshot:
    """What undo restores: the parameters, the lesson position, the theme and the zoom."""

    params: Params
    step: int = 0
    scenario: str | None = None
    theme: str | None = None
    zoom: float | None = None

    @property
    def lesson(self) -> tuple[int, str | None]:
        return self.step, self.scenario


def _value(name: str, value: Any) -> str:  # a Params field's value
    if name == "scaling":
        return SCALING_LABELS[value] if value in SCALING_LABELS else str(value)
    if isinstance(value, float):
        return format_number(value, ".3g")
    return str(value)


def describe(before: Params, after: Params) -> str:
    """A short text for the Edit menu in the current language: "d_k → 512", "scaling → raw logits",
    "3 parameters"."""
    changed = [f for f in _NAMES if getattr(before, f, None) != getattr(after, f, None)]
    if len(changed) == 1:
        name = changed[0]
        label = translate("UndoHistory", _NAMES[name])
        return f"{label} → {_value(name, getattr(after, name))}"
    count = len(changed)
    return translate("UndoHistory", "%n parameters", None, count) if count else translate("UndoHistory", "parameters")


class _StateCommand(QUndoCommand):
    """One step: ``before`` → ``after``. Its first redo (the push) does nothing: the change
    has already happened; later redos and undos apply a snapshot."""

    def __init__(self, history: UndoHistory, before: Snapshot, after: Snapshot, text: str,
                 keys: frozenset[str] | None = None) -> None:
        super().__init__(text)
        self.history, self.before, self.after = history, before, after
        self.keys = keys  # the edited parameters (None: a lesson move, never merged)
        self.stamp = time.monotonic()
        self._done = True

    def id(self) -> int:  # noqa: A003 - Qt API
        return _EDIT_ID if self.keys is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt API
        if not isinstance(other, _StateCommand) or other.keys != self.keys:
            return False
        if 1e3 * (other.stamp - self.stamp) > MERGE_MS or other.before.lesson != self.after.lesson:
            return False
        self.after, self.stamp = other.after, other.stamp
        self.setText(describe(self.before.params, self.after.params))
        # Dragged back to where it started: nothing to undo.
        self.setObsolete(self.after == self.before)
        return True

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self.history.apply(self.after, lesson_moved=self.after.lesson != self.before.lesson,
                           look=self._look_changed)

    def undo(self) -> None:
        self.history.apply(self.before, lesson_moved=self.after.lesson != self.before.lesson,
                           look=self._look_changed)

    @property
    def _look_changed(self) -> bool:
        return (self.before.theme, self.before.zoom) != (self.after.theme, self.after.zoom)


class UndoHistory(QObject):
    """The window's undo stack and the rules for what makes a step (module docstring).

    ``window`` provides ``controller``, ``lesson`` (a LessonPresenter), ``style_``,
    ``set_theme`` and ``set_zoom``.
    """

    def __init__(self, window: Any) -> None:  # the MainWindow
        super().__init__(window)
        self._window = window
        self.stack = QUndoStack(self)
        self.stack.setUndoLimit(500)
        self._applying = False
        self._move_before: Snapshot | None = None
        lesson = window.lesson
        lesson.about_to_move.connect(self._lesson_about_to_move)
        lesson.changed.connect(self._lesson_moved)
        window.controller.edited.connect(self._edited)

    # --- state ---------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        w = self._window
        lesson = w.lesson
        return Snapshot(w.controller.params, lesson.step, lesson.scenario.key if lesson.scenario else None,
                        w.style_.theme, w.style_.zoom)

    def apply(self, snap: Snapshot, lesson_moved: bool = True, look: bool = False) -> None:
        """Make ``snap`` the current state (undo and redo; records nothing); ``look``: its
        theme and zoom too."""
        w = self._window
        self._applying = True
        try:
            w.controller.replace_params(snap.params)
            if look and snap.theme is not None and snap.theme != w.style_.theme:
                w.set_theme(snap.theme)
            if look and snap.zoom is not None and snap.zoom != w.style_.zoom:
                w.set_zoom(snap.zoom)
            if lesson_moved:
                w.lesson.restore(snap.step, snap.scenario)
            w.lesson_files.enforce()  # a state from before a lesson's lock, or from practice
        finally:
            self._applying = False

    # --- recording -----------------------------------------------------------------------
    def _edited(self, params: Params, names: frozenset[str]) -> None:
        """The user changed ``names`` (already applied) from ``params``: one step, merged with
        the previous one if it edited the same names moments ago (a drag)."""
        if self._applying:
            return
        after = self.snapshot()
        before = replace(after, params=params)  # an edit changes the parameters only
        if after == before:
            return
        self.stack.push(_StateCommand(self, before, after, describe(before.params, after.params), keys=names))

    @contextmanager
    def step(self, text: str) -> Iterator[None]:
        """Everything done inside the block is one undo step named ``text``."""
        before = self.snapshot()
        outer, self._applying = self._applying, True  # inner lesson moves are part of it
        try:
            yield
        finally:
            self._applying = outer
        after = self.snapshot()
        if after != before and not outer:
            self.stack.push(_StateCommand(self, before, after, text))

    def _lesson_about_to_move(self) -> None:
        if not self._applying:
            self._move_before = self.snapshot()

    def _lesson_moved(self, title: str) -> None:
        before, self._move_before = self._move_before, None
        if before is None or self._applying:
            return  # a restore (undo, a preset) rather than a move
        after = self.snapshot()
        if after != before:
            text = title or translate("UndoHistory", "lesson introduction")
            self.stack.push(_StateCommand(self, before, after, text))


class _UndoKeysToWindow(QObject):
    """Event filter: Ctrl+Z / Ctrl+Shift+Z in a spin box's text field undo the parameter
    change (the window's action) instead of the field's own typing history."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.ShortcutOverride and (
                cast(QKeyEvent, event).matches(QKeySequence.StandardKey.Undo)
                or cast(QKeyEvent, event).matches(QKeySequence.StandardKey.Redo)):
            event.ignore()
            return True
        return False


def route_undo_keys(widgets: Iterable[QObject]) -> QObject:
    """Install the filter on ``widgets`` (the spin boxes' line edits); keep the returned object."""
    keys = _UndoKeysToWindow()
    for widget in widgets:
        widget.installEventFilter(keys)
    return keys
