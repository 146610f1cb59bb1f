"""Panel 2: one query row's softmax weights, sorted, against the uniform level 1/n."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QWidget

from sqrtdk_gui.core.attention.plotdata import SteadyRange, sorted_weights
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.i18n import localize_number
from sqrtdk_gui.gui.panels.base import Panel
from sqrtdk_gui.gui.panels.data_view import Table
from sqrtdk_gui.gui.panels.versus_dk import curve_note
from sqrtdk_gui.gui.plotting.fast_items import Bars, PixelLine
from sqrtdk_gui.gui.plotting.plot_items import add_plot, cache_text
from sqrtdk_gui.gui.style import SCALING_LABELS, Palette, Style, faint, series_look

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


class WeightsPanel(Panel):
    """Bars of the selected row's weights (largest first); readouts of max weight and entropy."""

    name = "weights"
    readout_sample = "query 1023 (median): exp(z) overflowed in float16: no weights (∞ ÷ ∞)"
    uses_row = True

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(translate("WeightsPanel", "2 · Softmax weights"), style, parent)
        # Texts of every frame, in the language of the window (a new language rebuilds it).
        self._uniform_text = translate("WeightsPanel", "uniform 1/n")
        self._axis_all = translate("WeightsPanel", "keys, sorted by weight")
        self._axis_top = translate("WeightsPanel", "top {shown} of {keys} keys, by weight")
        self._overflow_html = translate("WeightsPanel",
                                        "<b>OVERFLOW</b><br/>exp(z) = ∞ in {dtype}:<br/>weights are NaN")
        self._overflowed_text = translate("WeightsPanel", "{label}: exp(z) overflowed in {dtype}: no weights (∞ ÷ ∞)")
        self._after_softmax_text = translate("WeightsPanel",
                                             "{label}: max {shown} = {max_weight} ÷ √{d_k}  sum {row_sum}, not 1")
        self._readout_text = translate("WeightsPanel", "{label}: max {max_weight}  entropy {entropy} of {log_n}")
        self._readout_sum_text = translate("WeightsPanel",
                                           "{label}: max {max_weight}  entropy {entropy} of {log_n}  sum {row_sum}")
        self.readout_sample = self._overflowed_text.format(label="query 1023 (median)", dtype="float16")
        self.plot = add_plot(self.canvas)
        style.style_plot(self.plot, left=translate("WeightsPanel", "weight"), bottom=self._axis_all)
        self.bars = Bars(self.plot.getViewBox(), width=0.8)
        # The uniform level 1/n across the plot, labelled above its right end: Qt's own line
        # item (an InfiniteLine's Python paint was a fifth of this plot's repaint every frame;
        # its label, centred at 85 % of the width, ran past the plot's edge at zoom 1.5).
        self.uniform = PixelLine(self.plot.getViewBox())
        self.uniform_label = pg.TextItem(self._uniform_text, anchor=(1.0, 1.0))
        cache_text(self.uniform_label)  # over bars that change every frame
        self.overflow = pg.TextItem(anchor=(0.5, 0.5))
        self.overflow.setZValue(10)
        for item in (self.bars, self.uniform, self.uniform_label):
            self.plot.addItem(item, ignoreBounds=True)
        self.plot.addItem(self.overflow)
        self._y_range = SteadyRange(shrink_below=0.3)
        self._n: tuple[int, int] | None = None
        self._pen_for: tuple[str, str, Palette, float] | None = None
        self._drawn: tuple[str, np.ndarray, int] | None = None
        self.values: dict[str, float] = {}
        self.apply_style()

    def plots(self) -> list[pg.PlotItem]:
        return [self.plot]

    def restyle_items(self) -> None:
        s = self.style_
        self.uniform.setPen(s.pen(s.palette.muted, 2, dashed=True))
        self.uniform_label.setColor(s.palette.muted)
        self.uniform_label.setFont(s.font(11))

    def data_tables(self) -> list[Table]:
        if self._drawn is None:
            return []
        label, heights, n = self._drawn
        rows = tuple((i + 1, float(h), 1.0 / n) for i, h in enumerate(heights))
        headers = (translate("WeightsPanel", "rank (largest first)"), translate("WeightsPanel", "weight"),
                   self._uniform_text)
        return [Table(translate("WeightsPanel", "weights of {label}").format(label=label), headers, rows)]

    def _bar_pen(self, scaling: str, note: str = "") -> QPen:
        # The line along the bars' tops carries the scaling's line style (raw dashed): never colour alone.
        if self._pen_for != (scaling, note, self.style_.palette, self.style_.zoom):
            self._pen_for = (scaling, note, self.style_.palette, self.style_.zoom)
            self._pen: QPen = self.style_.series_pen(scaling, 1.2, colour=self.style_.palette.fg)
            s = self.style_
            self.set_key([(s.colour_for(scaling), f"█{series_look(scaling).line}", SCALING_LABELS[scaling] + note),
                          (s.palette.muted, "╍", self._uniform_text)])
        return self._pen

    def show_result(self, result: Result, row: int) -> None:
        p = result.params
        n = p.keys
        label = result.row_label(row)
        row = result.resolve_row(row)
        heights = sorted_weights(result.weights_row(row))
        shown = heights.size  # above 1024 keys: the row's largest weights only
        overflowed = not np.all(np.isfinite(heights))
        s = self.style_
        colour = s.colour_for(p.scaling)
        self.bars.set_bars(np.where(np.isfinite(heights), heights, 0.0), faint(colour, 200),
                           self._bar_pen(p.scaling, curve_note(p)))
        self._drawn = (label, heights, n)
        if (shown, n) != self._n:
            left, right = -2.0, shown - 0.2  # the top bar stands clear of the axis line
            self.plot.setXRange(left, right, padding=0)
            self.uniform.setLine(left, 1.0 / n, right, 1.0 / n)
            self.uniform_label.setPos(left + 0.99 * (right - left), 1.0 / n)
            axis = self._axis_all if shown == n else self._axis_top.format(shown=shown, keys=n)
            self.style_.style_plot(self.plot, bottom=axis)
            self._n = (shown, n)
        finite = heights[np.isfinite(heights)]
        top, changed = self._y_range.update(1.1 * max(finite.max() if finite.size else 1.0, 2.0 / n))
        if changed:
            self.plot.setYRange(0, top, padding=0)
        if overflowed:
            self.overflow.setHtml(
                f"<div style='background:{s.palette.warn_bg}; color:{s.palette.warn}; "
                f"font-size:{s.pt(13)}pt; padding:4px; text-align:center'>"
                + self._overflow_html.format(dtype=p.dtype) + "</div>")
            self.overflow.setPos(shown / 2, top / 2)
        self.overflow.setVisible(overflowed)

        max_w = float(result.max_weight[row])
        entropy = float(result.entropy[row])
        row_sum = float(result.row_sums[row])
        self.values = {"max_weight": max_w, "entropy": entropy, "log_n": math.log(n), "row_sum": row_sum}
        # The readout describes the bars it sits above: an overflowed row has no weights to
        # quote, and after-softmax scaling draws (and sums to) the softmax divided by √d_k.
        if overflowed:
            text = self._overflowed_text.format(label=label, dtype=p.dtype)
        elif p.scaling == "after_softmax":
            text = self._after_softmax_text.format(label=label, shown=f"{finite.max():.3f}",
                                                   max_weight=f"{max_w:.3f}", d_k=p.d_k, row_sum=f"{row_sum:.3f}")
        else:
            # Low precision: the sum is part of the story.
            with_sum = abs(row_sum - 1.0) > 5e-4
            text = (self._readout_sum_text if with_sum else self._readout_text).format(
                label=label, max_weight=f"{max_w:.3f}", entropy=f"{entropy:.2f}", log_n=f"{math.log(n):.2f}",
                row_sum=f"{row_sum:.3f}")
        self.show_readout(localize_number(text))
