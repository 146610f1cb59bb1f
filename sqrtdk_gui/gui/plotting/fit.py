"""Texts that fit their room in any language: buttons that break a line, titles that shrink.

A German or Spanish label can be 40 % longer than the English one; a projector at 1024×768
has no room to spare. Rather than cut a text at its edge, a button breaks it over two lines
and a plot's title shrinks (down to a floor), then ends in "…" with the whole text a tooltip.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QPushButton, QStyle, QStyleOptionButton

if TYPE_CHECKING:
    import pyqtgraph as pg
    from PySide6.QtGui import QResizeEvent
    from PySide6.QtWidgets import QLabel, QWidget

__all__ = ["WrappingButton", "wrap_lines", "fit_plot_title", "fit_words", "fit_line_labels", "on_resize",
           "shrunk", "fitted_text", "SMALLEST"]

SMALLEST = 0.7  # a shrunk text keeps at least this share of its size


def wrap_lines(text: str, metrics: QFontMetrics, room: int) -> str:
    """``text`` with each of its lines wider than ``room`` pixels broken between words (as
    many words on a line as fit; a single word wider than the room keeps its own line)."""
    out = []
    for line in text.split("\n"):
        words = line.split(" ")
        current = words[0]
        for word in words[1:]:
            if metrics.horizontalAdvance(f"{current} {word}") <= room:
                current = f"{current} {word}"
            else:
                out.append(current)
                current = word
        out.append(current)
    return "\n".join(out)


class WrappingButton(QPushButton):
    """A push button whose text takes more lines when a line is wider than the button."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt API
        self._full = text
        self._fit()

    def text(self) -> str:
        """The whole text, without the line breaks added to fit (what was set)."""
        return self._full

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() in (event.Type.FontChange, event.Type.StyleChange):
            self._fit()

    def _fit(self) -> None:
        option = QStyleOptionButton()
        self.initStyleOption(option)
        # The room the style leaves for the text inside the frame and padding.
        room = self.style().subElementRect(QStyle.SubElement.SE_PushButtonContents, option, self).width() - 4
        metrics = self.fontMetrics()
        text = self._full
        if room > 0:
            text = wrap_lines(text, metrics, room)
        if text != QPushButton.text(self):
            super().setText(text)
            self.updateGeometry()


def fit_plot_title(plot: pg.PlotItem, text: str, pt: int, width: int, lines: int = 1) -> None:
    """``plot``'s title at ``pt`` points: on two lines if ``lines`` is 2 and one is too narrow
    for it, else smaller (to SMALLEST) and ended with "…" if even that is too wide (the whole
    text then its tooltip). Its room: ``width``, the pixels the plot has in its widget, less
    its side axes (the title sits over the plot area; the plot's own width will not do: a
    title too long for it widens it)."""
    font = QFont(plot.titleLabel.item.font())
    font.setPointSizeF(pt)
    metrics = QFontMetrics(font)
    axes = sum(plot.getAxis(side).width() for side in ("left", "right") if plot.getAxis(side).isVisible())
    room = max(1, round(width - axes) - 8)
    need = metrics.horizontalAdvance(text)
    size = float(pt)
    shown = html.escape(text)  # a label is rich text: "< 1" is no tag
    if need > room and lines > 1 and " " in text:
        # The break nearest the middle, if both halves then fit at full size.
        cuts = [i for i, c in enumerate(text) if c == " "]
        cut = min(cuts, key=lambda i: abs(metrics.horizontalAdvance(text[:i]) - need / 2))
        halves = text[:cut], text[cut + 1:]
        if max(metrics.horizontalAdvance(h) for h in halves) <= room:
            shown, need = "<br>".join(html.escape(h) for h in halves), 0
    if need > room:
        size = max(pt * SMALLEST, pt * room / need)
        font.setPointSizeF(size)
        shown = html.escape(QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, room))
    plot.setTitle(shown, size=f"{size:.1f}pt")
    plot.titleLabel.setToolTip(text if "…" in shown and "…" not in text else "")


class _ResizeWatch(QObject):
    def __init__(self, widget: QWidget, callback: Callable[[], None]) -> None:
        super().__init__(widget)
        self._callback = callback

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Resize:
            self._callback()
        return False


def on_resize(widget: QWidget, callback: Callable[[], None]) -> None:
    """Call ``callback`` after every resize of ``widget`` (a text to fit its new width)."""
    widget.installEventFilter(_ResizeWatch(widget, callback))


# Where word wrap may break a line: at spaces, after a hyphen ("End-|Genauigkeit": Qt's line
# breaking follows Unicode's) and at a soft hyphen (U+00AD, shown as "-" where it breaks; a
# translation puts one in a long word for a narrow column); a run between two stays whole.
_RUN = re.compile("[^\\s\u00ad-]+[\u00ad-]?|-+")


def shrunk(font: QFont, texts: Sequence[str], room: float) -> QFont:
    """``font``, or smaller in half-point steps (to SMALLEST of it) while the widest of
    ``texts`` is wider than ``room`` pixels (no room known, ``room`` <= 0: ``font`` as it is)."""
    fitted = QFont(font)
    smallest = font.pointSizeF() * SMALLEST
    while texts and room > 0 and fitted.pointSizeF() > smallest \
            and max(QFontMetrics(fitted).horizontalAdvance(t) for t in texts) > room:
        fitted.setPointSizeF(max(smallest, fitted.pointSizeF() - 0.5))
    return fitted


def fitted_text(text: str, font: QFont, room: float) -> tuple[QFont, str]:
    """``text`` in ``shrunk(font, [text], room)``, ended with "…" if even that is wider than
    ``room`` (the caller shows the whole text as a tooltip where they differ)."""
    fitted = shrunk(font, [text], room)
    shown = QFontMetrics(fitted).elidedText(text, Qt.TextElideMode.ElideRight, int(room)) if room > 0 else text
    return fitted, shown


def fit_words(label: QLabel, font: QFont) -> None:
    """``label`` in ``font``, or smaller (to SMALLEST of it) while its widest unbreakable run
    is wider than the label: a wrapping label breaks between words and after hyphens, never
    inside a word."""
    fitted = shrunk(font, _RUN.findall(label.text()), label.contentsRect().width())
    if fitted != label.font():
        label.setFont(fitted)


def fit_line_labels(view_box: pg.ViewBox, labels: Iterable[pg.InfLineLabel], font: QFont) -> None:
    """Each of ``labels`` (pyqtgraph ``InfLineLabel``s in ``view_box``) in ``font``, or smaller
    (to SMALLEST of it) while its words are wider than the plot, and ending in "…" if even
    that is too wide (the whole words its tooltip): never cut at the plot's edge."""
    room = view_box.width() - 6
    for label in labels:
        text = getattr(label, "full_text", None) or label.format
        label.full_text = text
        fitted, shown = fitted_text(text, font, room)
        label.setFont(fitted)
        if shown != label.format:
            label.setFormat(shown)
        label.setToolTip(text if shown != text else "")
