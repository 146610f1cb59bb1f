"""Help → About: version, licence, how to cite, and the versions a bug report needs.

The lines are ``core.about.version_lines()``, exactly what ``sqrtdk-gui --version`` prints,
plus the Qt library actually loaded; *Copy* puts them on the clipboard for a bug report.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLabel, QVBoxLayout

from sqrtdk_gui import __version__
from sqrtdk_gui.core.environment.about import CITATION, LICENCE, version_lines

__all__ = ["about_lines", "about_html", "AboutDialog"]


def about_lines() -> list[str]:
    """``--version``'s lines and the Qt library loaded at run time."""
    return version_lines() + [f"Qt runtime: {qVersion()}"]


def about_html() -> str:
    rows = "".join(f"<tr><td>{escape(name)}</td><td>&nbsp;{escape(value)}</td></tr>"
                   for name, _, value in (line.partition(": ") for line in about_lines()[1:]))
    return (f"<h2>sqrtdk-gui {__version__}</h2>"
            "<p>Why scaled dot-product attention divides its logits by √d_k: a classroom instrument.</p>"
            f"<p><b>Licence.</b> {escape(LICENCE)}</p>"
            f"<p><b>How to cite.</b> {escape(CITATION)}</p>"
            f"<p><b>For a bug report</b> (<i>Copy</i> puts these lines on the clipboard):</p>"
            f"<table>{rows}</table>")


class AboutDialog(QDialog):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About sqrtdk-gui")
        self.text = QLabel(about_html())
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setAccessibleName("About sqrtdk-gui")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton("&Copy versions", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setAccessibleName("Copy versions")
        self.copy_button.setAccessibleDescription("Copy the version lines for a bug report")
        self.copy_button.clicked.connect(self.copy)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)

    def copy(self) -> None:
        QApplication.clipboard().setText("\n".join(about_lines()) + "\n")
