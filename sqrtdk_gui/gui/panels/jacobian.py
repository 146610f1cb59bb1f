"""Panel 3: the current row's softmax Jacobian, and ‖J‖_F and saturation versus d_k."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QWidget

from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.attention.scaling import COMPARED
from sqrtdk_gui.core.i18n import localize_number
from sqrtdk_gui.gui.panels.base import Panel
from sqrtdk_gui.gui.panels.data_view import Table
from sqrtdk_gui.gui.panels.versus_dk import OTHER_MODE, VersusDk, curve_note, set_dk_ticks
from sqrtdk_gui.gui.plotting.fast_items import FastImage, VerticalMarker
from sqrtdk_gui.gui.plotting.fit import fit_plot_title, on_resize
from sqrtdk_gui.gui.plotting.plot_items import add_plot, add_sweep_series, cache_text, make_canvas
from sqrtdk_gui.gui.style import Style, series_look

if TYPE_CHECKING:
    from sqrtdk_gui.core.attention.sweep import Sweep
    from sqrtdk_gui.gui.plotting.plot_items import SweepSeries

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

TOP_KEYS = 12  # the block on the largest weights: where J lives, readable from the back
# Fixed colour levels make the collapse visible as the background colour. |J_ij| <= 1/4
# always; a typical ÷√d_k row at 64 keys (p_max ≈ 0.1) has entries up to ≈ 0.06, so ±0.05
# colours it fully while a saturated row (entries ~1e-6 and below) is the background.
LEVEL = 0.05


def sign_colour_map(background: str) -> pg.ColorMap:
    """The map's colours from −LEVEL to +LEVEL."""
    # Sign of J_ij (diagonal positive, off-diagonal negative): brown - background - teal, a
    # scale no other meaning uses; zero is the background, so a collapsed J disappears.
    return pg.ColorMap([0.0, 0.5, 1.0], ["#8C510A", background, "#35978F"])


class JacobianPanel(Panel):
    """Heat map of J = diag(p) − ppᵀ on the top keys; median ‖J‖_F and saturation vs d_k."""

    name = "jacobian"
    readout_sample = "query 1023 (median): ‖J‖_F 8.8e-88  (median 8.8e-88)"
    uses_row = True
    uses_sweeps = True

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(translate("JacobianPanel", "3 · Jacobian diag(p) − ppᵀ"), style, parent)
        # Texts of every frame, in the language of the window (a new language rebuilds it).
        self._readout_text = translate("JacobianPanel", "{label}: ‖J‖_F {fro}  (median {median})")
        self._note_text = translate("JacobianPanel", "J ≈ 0<br/>max |J_ij|<br/>{largest}")
        self._note_lines = tuple(self._note_text.format(largest="8e-88").split("<br/>"))  # its widest lines
        self.readout_sample = self._readout_text.format(label="query 1023 (median)", fro="8.8e-88",
                                                        median="8.8e-88")
        # The heat map gets its own canvas: a widget layout keeps the 2:3 split at any size.
        self.heat_canvas = make_canvas()
        self.heat_canvas.setSizePolicy(self.canvas.sizePolicy())
        self.body.insertWidget(0, self.heat_canvas, 2)
        self.body.setStretch(1, 3)
        self.heat_plot = add_plot(self.heat_canvas)
        # The colour scale is in the title: tick labels beside a narrow colour bar were clipped.
        # Short: a long title widens the plot past its canvas. "±0.05 max" says the colours stop
        # there: larger entries (up to 0.25, at p = ½ on two keys) take the end colour.
        self._heat_title = translate("JacobianPanel", "J  ±{level} max").format(level=localize_number(f"{LEVEL:g}"))
        self.heat_plot.setTitle(self._heat_title)
        # ... and fitted to the map's canvas (smaller, then "…"): on a narrow panel even the
        # short title widened the map past its canvas, cutting it on the right.
        on_resize(self.heat_canvas, self._fit_heat_title)
        self.heat_canvas.setToolTip(translate(
            "JacobianPanel", "J = diag(p) − ppᵀ on this query's {keys} largest weights, largest first; colours "
                             "from −{level} (brown) through 0 (background) to +{level} (teal); larger entries (up "
                             "to 0.25) take the end colours. A saturated row's J is ≈ 0: the map goes blank.").format(
            keys=TOP_KEYS, level=localize_number(f"{LEVEL:g}")))
        style.style_plot(self.heat_plot)
        for axis in ("left", "bottom"):  # key indices carry no meaning; give the map the room
            self.heat_plot.hideAxis(axis)
        self.heat_plot.invertY(True)
        self.heat_plot.setAspectLocked(True)
        self.image = FastImage()  # cells k × k: the view's range is the block
        self.heat_plot.addItem(self.image)
        self.collapsed = pg.TextItem(anchor=(0.5, 0.5))  # a blank map must not look broken
        self.collapsed.setZValue(10)
        cache_text(self.collapsed)  # over a map that changes every frame
        self.heat_plot.addItem(self.collapsed)
        self.colorbar = pg.ColorBarItem(values=(-LEVEL, LEVEL), colorMap=sign_colour_map("#FFFFFF"),
                                        width=14, interactive=False)
        # Beside the map as ColorBarItem.setImageItem(insert_in=...) places it, but not linked:
        # the map gets its colours from the same table directly (see show_result).
        self.heat_plot.layout.addItem(self.colorbar, 2, 5)
        self.heat_plot.layout.setColumnFixedWidth(4, 5)
        self._colours = np.zeros((256, 4), np.uint8)
        self.colorbar.getAxis("right").setStyle(showValues=False)
        self.colorbar.getAxis("right").setWidth(4)

        self.norm_plot = add_plot(self.canvas, row=0, col=0)
        style.style_plot(self.norm_plot, left="‖J‖_F")  # a symbol
        # Every fourth decade: the plot is short on a small projector.
        self.versus = VersusDk(self.norm_plot, style, "jacobian_fro", floor=1e-12, y_range=(1e-12, 1.0),
                               tick_step=4)
        self.sat_plot = add_plot(self.canvas, row=1, col=0)
        style.style_plot(self.sat_plot, left=translate("JacobianPanel", "saturated %"), bottom="d_k")
        self.sat_plot.setLogMode(x=True, y=False)
        self.sat_plot.setXLink(self.norm_plot)
        self.sat_plot.setYRange(0, 100, padding=0)
        self.sat_plot.getAxis("left").setTicks([[(0, "0"), (50, "50"), (100, "100")], [(25, ""), (75, "")]])
        set_dk_ticks(self.sat_plot)
        # One curve per compared scaling, plus one for whichever third mode is current.
        self.sat_curves = {s: add_sweep_series(self.sat_plot) for s in (*COMPARED, OTHER_MODE)}
        self._sat_drawn: dict[SweepSeries, Sweep] = {}  # curve -> the sweep it shows
        self.sat_marker = VerticalMarker(self.sat_plot)
        layout = self.canvas.ci.layout
        layout.setRowStretchFactor(0, 7)
        layout.setRowStretchFactor(1, 3)
        self._drawn: tuple[str, np.ndarray] | None = None
        self._k: int | None = None  # the size of the block the map shows
        self._collapsed_html: str | None = None
        self._note_width_pt: int | None = None  # the font size the note's width was measured at
        self._largest = 0.0
        self._note_pt = self.style_.pt(14)
        self.heat_plot.getViewBox().sigResized.connect(self._fit_note)
        for plot in (self.norm_plot, self.sat_plot):
            plot.getViewBox().sigResized.connect(self._fit_axis_labels)
        self.values: dict[str, float] = {}
        self.apply_style()

    def _fit_heat_title(self) -> None:
        left, _top, right, _bottom = self.heat_canvas.ci.layout.getContentsMargins()
        bar = self.colorbar.width() + 5 + 4  # the colour bar's column, the gap before it, spacing
        fit_plot_title(self.heat_plot, self._heat_title, self.style_.pt(12),
                       round(self.heat_canvas.width() - left - right - bar))
        # The layouts keep the minimum width the longer title gave them until told.
        self.heat_plot.layout.invalidate()
        self.heat_canvas.ci.layout.invalidate()

    def plots(self) -> list[pg.PlotItem]:
        return [self.heat_plot, self.norm_plot, self.sat_plot]

    def canvases(self) -> list[pg.GraphicsLayoutWidget]:
        return [self.heat_canvas, self.canvas]

    def data_tables(self) -> list[Table]:
        tables = []
        if self._drawn is not None:
            label, block = self._drawn
            k = block.shape[0]
            key = translate("JacobianPanel", "key {number}")
            title = translate("JacobianPanel", "J of {label}, top {count} keys").format(label=label, count=k)
            headers = (translate("JacobianPanel", "key (by weight)"), *(key.format(number=j + 1) for j in range(k)))
            tables.append(Table(title, headers,
                                tuple((key.format(number=i + 1), *map(float, block[i])) for i in range(k))))
        headers, rows = self.versus.table_rows((translate("JacobianPanel", "saturated %"),
                                                lambda sw: 100 * sw.saturated_fraction))
        tables.append(Table(translate("JacobianPanel", "‖J‖_F and saturation versus d_k"), headers, rows))
        return tables

    def restyle_items(self) -> None:
        if hasattr(self, "_heat_title"):
            self._fit_heat_title()  # style_plot set the title's full size again
        s = self.style_
        self._fit_note()  # a new zoom: a new largest font that fits
        cmap = sign_colour_map(s.palette.bg)
        self._colours = cmap.getLookupTable(nPts=256, alpha=True)
        self.colorbar.setColorMap(cmap)
        if self._drawn is not None:
            self._paint_block(self._drawn[1])
        self.heat_plot.getViewBox().setBorder(pg.mkPen(s.palette.border, width=1))
        self.versus.restyle()
        for scaling, curve in self.sat_curves.items():
            curve.setPen(s.series_pen(scaling, 3))
            curve.setSymbol(series_look(scaling).symbol)
            curve.setSymbolSize(s.line(2.0) * 3)
            curve.setSymbolBrush(s.colour_for(scaling))
            curve.setSymbolPen(pg.mkPen(s.palette.bg, width=max(1.0, s.line(0.8))))
        self.sat_marker.set_pen(s.pen(s.palette.accent, 2.5))

    def _fit_note(self, *_args: object) -> None:
        """The largest font (≤ 14 pt) whose note lines fit the map's width (on resize only)."""
        width = self.heat_plot.getViewBox().width() - 12  # the note's padding and a margin
        font = self.style_.font(14)
        lines = self._note_lines
        while font.pointSize() > 7 and max(QFontMetrics(font).horizontalAdvance(t) for t in lines) > width:
            font.setPointSize(font.pointSize() - 1)
        self._note_pt = font.pointSize()
        if self.collapsed.isVisible():
            self._show_note()

    def _show_note(self) -> None:
        """The "J ≈ 0" note that says a blank map is not a broken one."""
        s = self.style_
        html = (f"<div style='background:{s.palette.bg}; color:{s.palette.fg}; "
                f"font-size:{self._note_pt}pt; padding:4px; text-align:center'>"
                + self._note_text.format(largest=f"{self._largest:.0e}") + "</div>")
        if html != self._collapsed_html:  # a new document is laid out again: not per frame
            self._collapsed_html = html
            # Centred lines need a width to centre in (without one Qt leaves every line at
            # the left): the widest line's, "max |J_ij|" at any number, measured unwrapped
            # once per font size; a new number keeps it.
            text = self.collapsed.textItem
            measure = self._note_width_pt != self._note_pt
            if measure:
                text.setTextWidth(-1)
            self.collapsed.setHtml(html)
            if measure:
                text.setTextWidth(math.ceil(text.document().idealWidth()) + 1)  # + 1: no rewrap
                self._note_width_pt = self._note_pt

    def _fit_axis_labels(self, *_args: object) -> None:
        # The rotated axis titles are centred on their plots; on a short canvas (1280 × 720,
        # 1024 × 768) "saturated %" ran into "‖J‖_F" above it or past the panel's edge. A
        # title that would is hidden: the tick labels and the readout still say what it is.
        top, bottom = 0.0, self.canvas.ci.boundingRect().height()
        spans = []
        for plot in (self.norm_plot, self.sat_plot):
            axis = plot.getAxis("left")
            centre = axis.mapToScene(0.0, axis.height() / 2).y()
            half = axis.label.boundingRect().width() / 2
            spans.append((centre - half, centre + half))
        (norm_lo, norm_hi), (sat_lo, sat_hi) = spans
        show_norm = norm_lo >= top
        show_sat = sat_hi <= bottom and (not show_norm or sat_lo >= norm_hi)
        for plot, show in ((self.norm_plot, show_norm), (self.sat_plot, show_sat)):
            axis = plot.getAxis("left")
            if axis.label.isVisible() != show:
                axis.showLabel(show)

    def show_result(self, result: Result, row: int) -> None:
        p = result.params
        if self.versus.set_note(curve_note(p)):
            self.set_key(self.versus.key())
        label = result.row_label(row)
        row = result.resolve_row(row)
        k = min(TOP_KEYS, p.keys)
        block, _ = result.jacobian_block(row, k)
        self._paint_block(block)
        self._drawn = (label, block)
        if k != self._k:  # both move the map's items: only when the block's size changes
            self._k = k
            self.heat_plot.setRange(xRange=(0, k), yRange=(0, k), padding=0)
        largest = float(np.abs(block).max())
        # Below a tenth of the colour scale the map looks empty: say that it is (nearly) zero.
        faint_map = largest < LEVEL / 10
        self.collapsed.setVisible(faint_map)
        self._largest = largest
        if faint_map:
            self._show_note()
            self.collapsed.setPos(k / 2, k / 2)
        fro = float(result.jacobian_fro[row])
        median = result.summary["jacobian_fro"].median
        self.values = {"row_fro": fro, "median_fro": median, "saturated": result.saturated_fraction}
        self.readout.setText(localize_number(self._readout_text.format(label=label, fro=f"{fro:.1e}",
                                                                       median=f"{median:.1e}")))
        self.versus.show_current(p.d_k, [(median, self.style_.colour_for(p.scaling))])
        self.sat_marker.place(np.log10(p.d_k))

    @property
    def shown_block(self) -> np.ndarray | None:
        """The J block the map shows (None before the first result)."""
        return None if self._drawn is None else self._drawn[1]

    def block_colours(self, block: np.ndarray) -> np.ndarray:
        """RGBA of each J_ij: pyqtgraph's mapping of levels ±LEVEL onto the 256 colours.

        Mapped here, not by an ImageItem: its path for a float image with a table rebuilt
        an indexed image and its 256-colour table on every frame (4× slower).
        """
        index = np.nan_to_num((block + LEVEL) * (len(self._colours) / (2 * LEVEL)), nan=0.0)
        return self._colours[np.clip(index, 0, len(self._colours) - 1).astype(np.intp)]

    def _paint_block(self, block: np.ndarray) -> None:
        self.image.set_colours(self.block_colours(block))

    def show_sweeps(self, sweeps: dict[str, Sweep]) -> None:
        self.versus.show_sweeps(sweeps)
        self.set_key(self.versus.key())
        shown = {self.sat_curves.get(scaling, self.sat_curves[OTHER_MODE]): sw for scaling, sw in sweeps.items()}
        for curve in self.sat_curves.values():
            sw = shown.get(curve)
            if sw is not None and self._sat_drawn.get(curve) is not sw:  # cached sweeps: same object, same curve
                curve.setData(sw.d_k.astype(float), 100 * sw.saturated_fraction)
                self._sat_drawn[curve] = sw
            curve.setVisible(sw is not None)
