"""What every file command of the window shares: where its dialog starts and how it says
that something failed (one sentence in a warning dialog)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QMessageBox, QWidget

__all__ = ["fail", "suggested"]


def suggested(name: str) -> str:
    """Where a file dialog starts: the user's documents folder on every system (a program
    started from a menu has no meaningful working directory, e.g. C:\\Windows\\System32)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if not folder or not Path(folder).is_dir():
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.HomeLocation)
    return str(Path(folder) / name) if name else folder


def fail(parent: QWidget, title: str, message: str) -> None:
    """Say that a command failed, in one sentence; the caller has changed nothing."""
    QMessageBox.warning(parent, title, message)
