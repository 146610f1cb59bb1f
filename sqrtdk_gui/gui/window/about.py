"""Help → About: version, licence, how to cite, and the versions a bug report needs.

The lines are ``core.about.version_lines()``, exactly what ``sqrtdk-gui --version`` prints,
plus the Qt library actually loaded; *Copy* puts them on the clipboard for a bug report. The
lines stay English (what a bug report quotes); the prose around them is translated.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, Qt, qVersion
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from sqrtdk_gui import __version__
from sqrtdk_gui.core.environment.about import CITATION, LICENCE, version_lines
from sqrtdk_gui.core.i18n import _

__all__ = ["about_lines", "about_html", "AboutDialog"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


def about_lines() -> list[str]:
    """``--version``'s lines and the Qt library loaded at run time."""
    return version_lines() + [f"Qt runtime: {qVersion()}"]


def about_html() -> str:
    rows = "".join(f"<tr><td>{escape(name)}</td><td>&nbsp;{escape(value)}</td></tr>"
                   for name, _sep, value in (line.partition(": ") for line in about_lines()[1:]))
    return (f"<h2>sqrtdk-gui {__version__}</h2>"
            + translate("AboutDialog", "<p>Why scaled dot-product attention divides its logits by √d_k: a classroom "
                        "instrument.</p>")
            + translate("AboutDialog", "<p><b>Licence.</b> {licence}</p>").format(licence=escape(_(LICENCE)))
            + translate("AboutDialog", "<p><b>How to cite.</b> {citation}</p>").format(citation=escape(CITATION))
            + translate("AboutDialog", "<p><b>For a bug report</b> (<i>Copy</i> puts these lines on the "
                        "clipboard):</p>")
            + f"<table>{rows}</table>")


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("AboutDialog", "About sqrtdk-gui"))
        self.text = QLabel(about_html())
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setAccessibleName(translate("AboutDialog", "About sqrtdk-gui"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton(translate("AboutDialog", "&Copy versions"),
                                             QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setAccessibleName(translate("AboutDialog", "Copy versions"))
        self.copy_button.setAccessibleDescription(translate("AboutDialog", "Copy the version lines for a bug report"))
        self.copy_button.clicked.connect(self.copy)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)

    def copy(self) -> None:
        QApplication.clipboard().setText("\n".join(about_lines()) + "\n")
