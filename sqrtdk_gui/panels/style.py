"""Colours, pens and fonts shared by every panel: one meaning per colour everywhere.

Okabe-Ito colour-blind-safe palette: raw logits are vermillion, ÷√d_k is blue, theory is a
dashed near-black line, any other scaling mode (a trap or a follow-up) is reddish purple.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QGraphicsItem

RAW = "#D55E00"  # vermillion
SCALED = "#0072B2"  # blue
OTHER = "#CC79A7"  # reddish purple
THEORY = "#1A1A1A"
ACCENT = "#009E73"  # bluish green: the current d_k marker
MUTED = "#5A5A5A"
WARN = "#B00020"

SCALING_LABELS = {
    "none": "raw logits",
    "sqrt_dk": "÷√d_k",
    "dk": "÷d_k (μP)",
    "sqrt_dmodel": "÷√d_model (trap)",
    "seq_len": "÷√n (trap)",
    "after_softmax": "÷√d_k after softmax (trap)",
    "qk_norm": "QK-norm × g",
}


def colour_for(scaling: str) -> str:
    return {"none": RAW, "sqrt_dk": SCALED}.get(scaling, OTHER)


def faint(colour: str, alpha: int) -> QColor:
    c = QColor(colour)
    c.setAlpha(alpha)
    return c


class Style:
    """Sizes that scale together (zoom, presentation mode): fonts and line widths."""

    def __init__(self, zoom: float = 1.0) -> None:
        self.zoom = zoom

    def pt(self, size: float) -> int:
        return max(6, round(size * self.zoom))

    def line(self, width: float = 3.0) -> float:
        return width * self.zoom

    def pen(self, colour, width: float = 3.0, dashed: bool = False) -> pg.QtGui.QPen:
        pen = pg.mkPen(colour, width=self.line(width))
        if dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        return pen

    def font(self, size: float, bold: bool = False) -> QFont:
        f = QFont()
        f.setPointSize(self.pt(size))
        f.setBold(bold)
        return f

    def style_plot(self, plot: pg.PlotItem, left: str = "", bottom: str = "") -> None:
        """Large tick labels and axis titles readable from the back of a room."""
        for name, text in (("left", left), ("bottom", bottom)):
            axis = plot.getAxis(name)
            axis.setTickFont(self.font(12))
            axis.setPen(pg.mkPen(THEORY, width=max(1.0, self.line(1.2))))
            axis.setTextPen(pg.mkPen(THEORY))
            axis.enableAutoSIPrefix(False)  # "density (x0.001)" confuses more than it helps
            # Any change inside the plot touches the axis (its ticks and grid reach into the
            # view) and would replay all its text each frame; a pixmap cache makes that a blit.
            axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            if text:
                axis.setLabel(text, **{"font-size": f"{self.pt(13)}pt", "color": THEORY})
        plot.showGrid(x=True, y=True, alpha=0.18)
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
