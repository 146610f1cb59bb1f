"""Presets and state lines in the window: File → Open preset, Save preset, Open recent, Open
state, and Edit → Copy link text.

Opening a preset or a state line is one undo step; a preset opened or saved goes to the top
of Open recent. A file or line that cannot be used gets a dialog with one sentence and
changes nothing; a file is written through ``safe_io`` (a failed write leaves the old one).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu, QWidget

from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io import presets, state_line
from sqrtdk_gui.gui.window.file_dialogs import fail, suggested
from sqrtdk_gui.gui.window.recent import RecentPresets
from sqrtdk_gui.gui.window.undo import UndoHistory

__all__ = ["PresetActions", "StateHost"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


class StateHost(Protocol):
    """The window's whole state, read and applied at once (main_window.py)."""

    def current_state(self) -> presets.State: ...

    def apply_state(self, state: presets.State) -> None: ...


class PresetActions:
    """The preset and state-line commands; ``recent`` is File → Open recent.

    ``parent`` owns the dialogs; ``state`` reads and applies the window's state; ``undo``
    makes an opened preset one step; ``notify(text, ms)`` says what happened in the status
    bar; ``recent_menu`` is the submenu Open recent fills."""

    def __init__(self, parent: QWidget, state: StateHost, undo: UndoHistory,
                 notify: Callable[[str, int], None], recent_menu: QMenu) -> None:
        self._parent = parent
        self._state = state
        self._undo = undo
        self._notify = notify
        self.recent = RecentPresets(recent_menu, self.open_recent, lambda text: notify(text, 8000), parent)

    def load(self, path: str) -> None:
        """Apply a preset file as one undo step; it joins Open recent. Raises PresetError
        (and changes nothing) if it is unusable."""
        with self._undo.step(translate("DesktopActions", "Open preset {name}").format(name=Path(path).name)):
            self._state.apply_state(presets.load(path))
            self._notify(translate("FileActions", "Loaded preset {path}").format(path=path), 5000)
        self.recent.add(path)

    def open_recent(self, path: str) -> None:
        """File → Open recent: a file that is gone or unreadable drops out of the list."""
        try:
            self.load(path)
        except presets.PresetError as exc:
            self.recent.forget(path)
            fail(self._parent, translate("DesktopActions", "Cannot open preset"),
                 translate("DesktopActions", "{name}: {reason}. Nothing was changed; it was removed from "
                           "Open recent.").format(name=Path(path).name, reason=_(str(exc))))

    def open_dialog(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self._parent, translate("FileActions", "Open preset"),
                                                    suggested(""),
                                                    translate("FileActions", "sqrtdk-gui presets (*.json)"))
        if path:
            try:
                self.load(path)
            except presets.PresetError as exc:
                fail(self._parent, translate("FileActions", "Cannot open preset"),
                     translate("FileActions", "{name}: {reason}. Nothing was changed.")
                     .format(name=Path(path).name, reason=_(str(exc))))

    def save_dialog(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self._parent, translate("FileActions", "Save preset"),
                                                    suggested("lesson.json"),
                                                    translate("FileActions", "sqrtdk-gui presets (*.json)"))
        if path:
            try:
                presets.save(self._state.current_state(), path)
            except OSError as exc:  # safe_io.IOFailure: one sentence naming the file
                fail(self._parent, translate("FileActions", "Cannot save preset"),
                     translate("FileActions", "{reason}. Nothing was changed.").format(reason=_(str(exc))))
            else:
                self._notify(translate("FileActions", "Saved preset {path}").format(path=path), 5000)
                self.recent.add(path)

    def copy_state_line(self) -> str:
        """Edit → Copy link text: the command that opens the app as it is now, on the clipboard
        (a teacher pastes it to students; no network involved)."""
        text = state_line.command(self._state.current_state())
        QGuiApplication.clipboard().setText(text)
        self._notify(translate("FileActions", "Copied: {line}").format(line=text), 8000)
        return text

    def open_state_dialog(self) -> None:
        """File → Open state: a pasted line (or the whole command) applied at once."""
        text, ok = QInputDialog.getText(self._parent, translate("FileActions", "Open state"),
                                        translate("FileActions", "Paste the line a teacher sent (sqrtdk-gui --state "
                                                  "\"…\"):"))
        if ok and text.strip():
            try:
                self._state.apply_state(state_line.decode(text))
            except presets.PresetError as exc:
                fail(self._parent, translate("FileActions", "Cannot open state"),
                     translate("FileActions", "{reason}. Nothing was changed.").format(reason=_(str(exc))))
