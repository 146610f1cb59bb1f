"""Help → Keyboard shortcuts (F1): every key of the table of commands, in two columns.

Two columns of short lines, so that the whole list fits a 1024×768 projector at the
presentation zoom without scrolling; it scrolls on anything smaller.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from sqrtdk_gui.gui.window.commands import shortcut_sheet

__all__ = ["ShortcutsDialog", "sheet_html"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


def _cells(row: tuple[str, str] | None) -> str:
    if row is None:
        return "<td></td><td></td>"
    keys, what = row
    return f"<td nowrap><b>{escape(keys)}</b></td><td>{escape(what)}</td>"


def sheet_html() -> str:
    """The sheet as one rich-text table in the current language: the lesson's keys first, down the
    left half."""
    sheet = list(shortcut_sheet())
    half = (len(sheet) + 1) // 2
    left, right = sheet[:half], sheet[half:] + [None] * (2 * half - len(sheet))
    rows = "".join(f"<tr>{_cells(a)}<td width='24'></td>{_cells(b)}</tr>" for a, b in zip(left, right))
    return f"<table cellspacing='0' cellpadding='3'>{rows}</table>"


class ShortcutsDialog(QDialog):
    """The keys and what they do; Esc or Close closes it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("ShortcutsDialog", "Keyboard shortcuts"))
        self.setObjectName("shortcutsDialog")
        self.text = QLabel(sheet_html())
        self.text.setObjectName("shortcutsText")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        font = self.text.font()  # a little smaller than the window's: all of it on one screen
        font.setPointSizeF(0.9 * font.pointSizeF())
        self.text.setFont(font)
        self.text.setAccessibleName(translate("ShortcutsDialog", "Keyboard shortcuts"))
        scroll = QScrollArea()
        scroll.setWidget(self.text)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area = scroll
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.box = QVBoxLayout(self)
        self.box.addWidget(scroll, 1)
        self.box.addWidget(buttons)

    MIN_SCALE = 0.75  # of the first type size: smaller would not be read from a projector's back row

    def popup(self) -> None:
        """Open over the parent window: as wide as the list or the window, whichever is
        narrower (the lines wrap), as tall as the list then needs (at most the window). A
        language whose lines are longer gets a smaller type, down to MIN_SCALE, before the
        list scrolls (German and Spanish at 1024 × 768)."""
        margins = self.box.contentsMargins()
        frame = margins.left() + margins.right() + 24  # and a scroll bar's width
        chrome = margins.top() + margins.bottom() + 60  # and the Close button's row
        first = self.text.font().pointSizeF()
        while True:
            unwrapped = QLabel(self.text.text())  # a wrapping label's size hint is a guess
            unwrapped.setFont(self.text.font())
            width = unwrapped.sizeHint().width() + frame
            height = 2 ** 15
            parent = self.parentWidget()
            if parent is not None:
                width, height = min(width, parent.width() - 16), parent.height() - 16
            text_height = self.text.heightForWidth(width - frame)
            font = self.text.font()
            if text_height + chrome <= height or font.pointSizeF() * 0.95 < first * self.MIN_SCALE:
                break
            font.setPointSizeF(font.pointSizeF() * 0.95)
            self.text.setFont(font)
        self.resize(width, min(height, text_height + chrome))
        self.open()
