"""A titled frame around one pyqtgraph canvas, with a readout line under the title."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout

from sqrtdk_gui.panels.style import THEORY, Style


class Panel(QFrame):
    """Base of every plot panel: title, readout, canvas; can be highlighted by the lesson."""

    def __init__(self, title: str, style: Style, parent=None) -> None:
        super().__init__(parent)
        self.style_ = style
        self.setObjectName("panel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel(title)
        self.title.setObjectName("panelTitle")
        self.readout = QLabel()
        self.readout.setObjectName("panelReadout")
        self.readout.setTextFormat(pg.QtCore.Qt.TextFormat.RichText)
        for label in (self.title, self.readout):
            # Long lines must not force the window wider than a 1280-pixel projector.
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.canvas = pg.GraphicsLayoutWidget()
        self.canvas.setBackground("w")
        self.canvas.ci.setContentsMargins(4, 4, 10, 4)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(2)
        # A colour key line instead of a legend inside the plot: it never hides data.
        self.key = QLabel()
        self.key.setObjectName("panelKey")
        self.key.setTextFormat(pg.QtCore.Qt.TextFormat.RichText)
        self.key.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.title)
        layout.addWidget(self.readout)
        layout.addWidget(self.key)
        self.body = QHBoxLayout()  # subclasses may put a second canvas beside the first
        self.body.setSpacing(0)
        self.body.addWidget(self.canvas, 1)
        layout.addLayout(self.body, 1)
        self._highlighted = False
        self.apply_style()

    def apply_style(self) -> None:
        s = self.style_
        self.title.setFont(s.font(15, bold=True))
        self.readout.setFont(s.font(13))
        self.key.setFont(s.font(12))
        self.title.setStyleSheet(f"color: {THEORY};")
        self.set_highlighted(self._highlighted)

    def set_key(self, entries: list[tuple[str, str, str]]) -> None:
        """Colour key: (colour, symbol, text) per entry, e.g. ("#D55E00", "━", "raw")."""
        self.key.setText(" &nbsp; ".join(
            f"<span style='color:{colour}; font-weight:bold'>{symbol}</span>&nbsp;{text}"
            for colour, symbol, text in entries))

    def set_highlighted(self, on: bool) -> None:
        """A thick accent border: the lesson points the class at this panel."""
        self._highlighted = on
        border = "4px solid #E69F00" if on else "1px solid #BBBBBB"
        self.setStyleSheet(f"QFrame#panel {{ border: {border}; border-radius: 6px; background: white; }}")
