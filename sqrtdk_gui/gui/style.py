"""Colours, pens and fonts shared by every panel: one meaning per colour everywhere.

Okabe-Ito colour-blind-safe palette: raw logits are vermillion, ÷√d_k is blue, theory is a
dashed line in the text colour, any other scaling mode (a trap or a follow-up) is reddish
purple, the current d_k is a bluish-green marker. Two themes: a high-contrast light one
(projectors wash out dark themes) and a dark one, where blue becomes sky blue to keep its
contrast, and a high-contrast one for washed-out projectors (pure white and black, the
strongest variants of the same hues, lines half as thick again). Colour is never the only
difference: raw and ÷√d_k also differ in line style and marker (``SeriesLook``), so the
panels read the same in greyscale and to colour-blind eyes. ``Style.zoom`` scales every font
and line width together.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPen
from PySide6.QtWidgets import QGraphicsItem

from sqrtdk_gui.core.attention.scaling import MODES
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io.presets import THEMES, ZOOM_RANGE

if TYPE_CHECKING:
    from PySide6.QtGui import QIcon, QPalette

__all__ = ["Palette", "LIGHT", "DARK", "HIGH_CONTRAST", "PALETTES", "SeriesLook", "series_look", "Style",
           "SCALING_LABELS", "SCALING_SHORT", "faint",
           "colour_for", "standard_icon", "RAW", "SCALED", "OTHER", "THEORY", "ACCENT", "MUTED", "WARN"]


@dataclass(frozen=True)
class Palette:
    name: str
    bg: str  # plot and panel background
    fg: str  # text, axes, theory curves
    muted: str  # captions
    window: str  # behind the panels
    border: str  # panel frames
    strip: str  # summary strip background
    highlight: str  # the lesson's pointer at a panel
    raw: str
    scaled: str
    other: str
    accent: str
    warn: str
    warn_bg: str
    predict_bg: str
    line_scale: float = 1.0  # every line width is multiplied by this (high contrast: thicker)
    grid_alpha: float = 0.18


LIGHT = Palette("light", bg="#FFFFFF", fg="#1A1A1A", muted="#4D4D4D", window="#EFEFEF",
                border="#BBBBBB", strip="#F4F4F4", highlight="#E69F00", raw="#D55E00",
                scaled="#0072B2", other="#CC79A7", accent="#009E73", warn="#B00020",
                warn_bg="#FFF0F0", predict_bg="#FFF6E0")
DARK = Palette("dark", bg="#121212", fg="#F0F0F0", muted="#C0C0C0", window="#1E1E1E",
               border="#555555", strip="#262626", highlight="#E69F00", raw="#E66A1F",
               scaled="#56B4E9", other="#CC79A7", accent="#2DBE8C", warn="#FF6B6B",
               warn_bg="#3A1414", predict_bg="#3A2E12", grid_alpha=0.25)
# Same meanings, darkest variants of the Okabe-Ito hues (each at least 5:1 against white).
HIGH_CONTRAST = Palette("high-contrast", bg="#FFFFFF", fg="#000000", muted="#000000", window="#FFFFFF",
                        border="#000000", strip="#FFFFFF", highlight="#B35900", raw="#B34700",
                        scaled="#00508A", other="#9E3D78", accent="#006E4E", warn="#A0001C",
                        warn_bg="#FFFFFF", predict_bg="#FFFFFF", line_scale=1.5, grid_alpha=0.35)
# Theme names (and their order) live in core.io.presets; a theme without a palette fails here.
PALETTES = dict(zip(THEMES, (LIGHT, DARK, HIGH_CONTRAST), strict=True))

# Light-theme constants for code that draws outside the themed panels.
RAW, SCALED, OTHER, THEORY = LIGHT.raw, LIGHT.scaled, LIGHT.other, LIGHT.fg
ACCENT, MUTED, WARN = LIGHT.accent, LIGHT.muted, LIGHT.warn


class ModeNames(Mapping[str, str]):
    """One name of every scaling mode (a field of the registry's entries), in the language
    spoken when it is looked up: the registry's strings are marked for translation there."""

    def __init__(self, field: str) -> None:
        self._field = field

    def __getitem__(self, key: str) -> str:
        return _(getattr(MODES[key], self._field))

    def __iter__(self) -> Iterator[str]:
        return iter(MODES)

    def __len__(self) -> int:
        return len(MODES)


SCALING_LABELS = ModeNames("label")  # menus, legends, the status line
SCALING_SHORT = ModeNames("short")  # tables and other one-line places


@dataclass(frozen=True)
class SeriesLook:
    """How one scaling's curves differ from the others' besides colour."""

    pen_style: Qt.PenStyle
    symbol: str  # pyqtgraph marker: "o" circle, "s" square, "t" triangle
    line: str  # the line in a text key
    marker: str  # the marker in a text key

    @property
    def key(self) -> str:
        return f"{self.line}{self.marker}{self.line}"


# ÷√d_k: solid with circles; raw: dashed with squares; any other mode: dash-dot with triangles.
SERIES_LOOKS = {
    "sqrt_dk": SeriesLook(Qt.PenStyle.SolidLine, "o", "━", "●"),
    "none": SeriesLook(Qt.PenStyle.DashLine, "s", "╍", "■"),
}
OTHER_LOOK = SeriesLook(Qt.PenStyle.DashDotLine, "t", "┅", "▲")


def set_line_style(pen: QPen, style: Qt.PenStyle) -> QPen:
    """Give ``pen`` Qt's ``style`` (dashes, dots) as flat-capped dashes that look the same.

    Qt caps every dash with the pen's square cap, half a pen width beyond each end, and the
    stroker then works on the capped outlines: a 3 px dashed curve took a quarter longer to
    draw than the same dashes a pen width longer, flat-capped and shifted half a width back
    (which cover the same pixels). Solid pens are left as they are.
    """
    pen.setStyle(style)
    if style in (Qt.PenStyle.SolidLine, Qt.PenStyle.NoPen, Qt.PenStyle.CustomDashLine):
        return pen
    pattern = pen.dashPattern()  # in pen widths: dash, gap, dash, gap, ...
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    pen.setDashPattern([v + 1.0 if i % 2 == 0 else v - 1.0 for i, v in enumerate(pattern)])
    pen.setDashOffset(0.5)
    return pen


def series_look(scaling: str) -> SeriesLook:
    """Line style and marker that mean this scaling mode in every panel (with its colour)."""
    return SERIES_LOOKS.get(scaling, OTHER_LOOK)


def standard_icon(name: str) -> QIcon:
    """One of the style's own icons ("MediaPlay", "ArrowForward", ...).

    Icons instead of symbol characters: a projector laptop's font may lack a glyph such as
    ⏸ (U+23F8) and would show an empty box.
    """
    from PySide6.QtWidgets import QApplication, QStyle

    return QApplication.style().standardIcon(getattr(QStyle.StandardPixmap, f"SP_{name}"))


def colour_for(scaling: str, palette: Palette = LIGHT) -> str:
    """The colour that means this scaling mode in every panel."""
    return {"none": palette.raw, "sqrt_dk": palette.scaled}.get(scaling, palette.other)


def faint(colour: str, alpha: int) -> QColor:
    c = QColor(colour)
    c.setAlpha(alpha)
    return c


class Style:
    """The current theme and zoom; every panel draws its fonts, pens and colours from it."""

    MIN_ZOOM, MAX_ZOOM = ZOOM_RANGE

    def __init__(self, zoom: float = 1.0, theme: str = "light") -> None:
        self.zoom = zoom
        self.palette = PALETTES[theme]

    @property
    def theme(self) -> str:
        return self.palette.name

    def set_theme(self, theme: str) -> None:
        self.palette = PALETTES[theme]

    def set_zoom(self, zoom: float) -> None:
        self.zoom = min(self.MAX_ZOOM, max(self.MIN_ZOOM, zoom))

    def colour_for(self, scaling: str) -> str:
        return colour_for(scaling, self.palette)

    def pt(self, size: float) -> int:
        return max(6, round(size * self.zoom))

    def line(self, width: float = 3.0) -> float:
        return width * self.zoom * self.palette.line_scale

    def pen(self, colour: str | QColor, width: float = 3.0, dashed: bool = False) -> pg.QtGui.QPen:
        pen = pg.mkPen(colour, width=self.line(width))
        if dashed:
            set_line_style(pen, Qt.PenStyle.DashLine)
        return pen

    def series_pen(self, scaling: str, width: float = 3.0, colour: str | QColor | None = None) -> pg.QtGui.QPen:
        """The pen of a scaling's curve: its colour and its line style (never colour alone)."""
        pen = pg.mkPen(self.colour_for(scaling) if colour is None else colour, width=self.line(width))
        set_line_style(pen, series_look(scaling).pen_style)
        return pen

    def key_entry(self, scaling: str, label: str) -> tuple[str, str, str]:
        """A colour-key entry (see Panel.set_key) showing the scaling's line style and marker."""
        return (self.colour_for(scaling), series_look(scaling).key, label)

    def font(self, size: float, bold: bool = False) -> QFont:
        f = QFont()
        f.setPointSize(self.pt(size))
        f.setBold(bold)
        return f

    def style_plot(self, plot: pg.PlotItem, left: str | None = None, bottom: str | None = None) -> None:
        """Large tick labels and axis titles readable from the back of a room.

        Called again on a theme or zoom change; ``None`` keeps an axis's current title.
        """
        fg = self.palette.fg
        for name, text in (("left", left), ("bottom", bottom)):
            axis = plot.getAxis(name)
            axis.setTickFont(self.font(12))
            axis.setPen(pg.mkPen(fg, width=max(1.0, self.line(1.2))))
            axis.setTextPen(pg.mkPen(fg))
            # "density (x0.001)" confuses more than it helps. pyqtgraph 0.14 computes a prefix
            # scale even while disabling it once a label is shown: disable once, pin the scale.
            if axis.autoSIPrefix:
                axis.enableAutoSIPrefix(False)
            axis.autoSIPrefixScale, axis.labelUnitPrefix = 1.0, ""
            # Any change inside the plot touches the axis (its ticks and grid reach into the
            # view) and would replay all its text each frame; a pixmap cache makes that a blit.
            axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            # Room for tick text grows but never shrinks: a drag that moves the labels between
            # "0.1" and "0.05" would otherwise resize the axis, re-lay out the plot and repaint
            # it whole on the next frame (a tenth of the frames of a temperature drag), and
            # make the plot jump sideways under the class's eyes.
            axis.setStyle(autoReduceTextSpace=False)
            text = axis.labelText if text is None else text
            if text:
                axis.setLabel(text, **{"font-size": f"{self.pt(13)}pt", "color": fg})
        plot.showGrid(x=True, y=True, alpha=self.palette.grid_alpha)
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        title = plot.titleLabel
        if title.text:
            title.setText(title.text, size=f"{self.pt(12)}pt", color=fg)


def qt_palette(palette: Palette) -> QPalette:
    """A QPalette for the widgets (controls, dock, menus) in this theme."""
    from PySide6.QtGui import QPalette

    qp = QPalette()
    roles = QPalette.ColorRole
    colours = {
        roles.Window: palette.window, roles.WindowText: palette.fg, roles.Base: palette.bg,
        roles.AlternateBase: palette.strip, roles.Text: palette.fg, roles.Button: palette.strip,
        roles.ButtonText: palette.fg, roles.ToolTipBase: palette.bg, roles.ToolTipText: palette.fg,
        roles.Highlight: palette.scaled, roles.HighlightedText: "#FFFFFF",
        roles.PlaceholderText: palette.muted,
    }
    for role, colour in colours.items():
        qp.setColor(role, QColor(colour))
    qp.setColor(QPalette.ColorGroup.Disabled, roles.ButtonText, QColor(palette.muted))
    qp.setColor(QPalette.ColorGroup.Disabled, roles.Text, QColor(palette.muted))
    return qp
