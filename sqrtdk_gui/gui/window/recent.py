"""File → Open recent: the presets opened or saved lately, newest first.

The list is remembered in the settings (``Settings.recent``), merged with what other windows
add to it (``core.io.shared_state``). A file that is gone when the
menu opens drops out of the list, and the status bar says which; one that can no longer be
read when chosen drops out with the reason in a dialog.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from sqrtdk_gui.core.io.shared_state import RECENT_MAX

__all__ = ["RecentPresets"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


class RecentPresets(QObject):
    """The list and its submenu; ``open_path(path)`` is the window's preset loader."""

    def __init__(self, menu: QMenu, open_path: Callable[[str], None], notify: Callable[[str], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.menu = menu
        self._open_path = open_path
        self._notify = notify  # one line for the status bar
        self.paths: list[str] = []
        menu.aboutToShow.connect(self.rebuild)
        self.rebuild()

    def set_paths(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        """The remembered list (``Settings`` keeps absolute paths only)."""
        self.paths = list(dict.fromkeys(str(p) for p in paths))[:RECENT_MAX]
        self.rebuild()

    def add(self, path: str) -> None:
        """``path`` was opened or saved: it goes to the top."""
        path = os.path.normpath(os.path.abspath(path))
        self.paths = [path] + [p for p in self.paths if p != path]
        del self.paths[RECENT_MAX:]
        self.rebuild()

    def forget(self, path: str) -> None:
        self.paths = [p for p in self.paths if p != path]
        self.rebuild()

    def clear(self) -> None:
        self.paths = []
        self.rebuild()

    def drop_missing(self) -> list[str]:
        """Remove files that no longer exist; returns them (and says so in the status bar)."""
        gone = [p for p in self.paths if not os.path.isfile(p)]
        if gone:
            self.paths = [p for p in self.paths if p not in gone]
            names = ", ".join(os.path.basename(p) for p in gone)
            self._notify(translate("RecentPresets", "Removed from Open recent, no longer there: {names}")
                         .format(names=names))
        return gone

    def rebuild(self) -> None:
        self.drop_missing()
        menu = self.menu
        menu.clear()
        for i, path in enumerate(self.paths, 1):
            label = os.path.basename(path).replace("&", "&&")
            action = QAction(f"&{i} {label}" if i < 10 else label, menu)
            action.setStatusTip(path)
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self._open_path(p))
            menu.addAction(action)
        if not self.paths:
            empty = menu.addAction(translate("RecentPresets", "No recent presets"))
            empty.setEnabled(False)
        else:
            menu.addSeparator()
            menu.addAction(translate("RecentPresets", "Clear list"), self.clear)
        menu.setEnabled(True)

    def actions(self) -> list[QAction]:
        """The entries that open a file (for the command palette and tests)."""
        return [a for a in self.menu.actions() if a.statusTip() in self.paths]
