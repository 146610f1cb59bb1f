"""Panel 5, the σ dial (a page beside panels 1–4): where softmax responds, and where each
scaling mode puts the logits.

Three plots against the logit spread σ on a log axis: median ‖J‖_F (large), max weight and
entropy / log n for Gaussian logits over the current n keys (8 seeds pooled, 10–90 % band),
with the responsive window (‖J‖_F at least half its peak) shaded; beside them a table of
every scaling mode's σ and what the softmax does there. The curves depend on n only: they
arrive from the controller (``dial_changed``) when n changes. Each frame only moves the
markers — a vertical line per compared scaling, a dot per mode where it meets each curve, a
ring at the current sample's own medians — with ``setValue``/``setData``; behind panels 1–4
it only remembers the newest result and draws it when its page is shown.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import QBoxLayout, QLabel, QSizePolicy

from sqrtdk_gui.core.attention.plotdata import nice_ceiling
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.attention.scaling import SCALINGS, compared_scalings
from sqrtdk_gui.core.attention.sigma_dial import SIGMA_RANGE, DialCurves
from sqrtdk_gui.core.i18n import localize_number
from sqrtdk_gui.gui.panels.base import Panel
from sqrtdk_gui.gui.panels.data_view import Table
from sqrtdk_gui.gui.plotting.fit import fit_plot_title, on_resize
from sqrtdk_gui.gui.plotting.plot_items import add_plot
from sqrtdk_gui.gui.style import SCALING_LABELS, SCALING_SHORT, Style, faint

if TYPE_CHECKING:
    from PySide6.QtGui import QBrush, QResizeEvent, QShowEvent
    from PySide6.QtWidgets import QWidget

    from sqrtdk_gui.core.attention.params import Params

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "SigmaDialPanel"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

# (quantity of the dial, the sample's summary it is compared with, axis title)
PLOTS = (("jacobian_fro", "jacobian_fro", QT_TRANSLATE_NOOP("SigmaDialPanel", "median ‖J‖_F")),
         ("max_weight", "max_weight", QT_TRANSLATE_NOOP("SigmaDialPanel", "median max weight")),
         ("entropy_ratio", "entropy", QT_TRANSLATE_NOOP("SigmaDialPanel", "entropy / log n")))
SIGMA_TICKS = (0.1, 1, 10, 100)
MINOR_TICKS = (0.3, 3, 30)
_LOG_RANGE = (math.log10(SIGMA_RANGE[0]), math.log10(SIGMA_RANGE[1]))
MARKER_SLOTS = 3  # raw, ÷√d_k and the current mode if it is a third one
# The table is rich text (≈ 6 ms to lay out at 1920 × 1080): during a drag it is rewritten at
# most every TABLE_INTERVAL_MS, and once more when the drag stops.
TABLE_INTERVAL_MS = 150
# Short names for the table (one line each at 1280 × 720), in the language spoken.
TABLE_LABELS = SCALING_SHORT
VERDICTS = {"flat": QT_TRANSLATE_NOOP("SigmaDialPanel", "flat"),
            "responsive": QT_TRANSLATE_NOOP("SigmaDialPanel", "responsive"),
            "saturated": QT_TRANSLATE_NOOP("SigmaDialPanel", "saturated")}


def _clamp_log(sigma: float) -> float:
    """log10 σ held inside the axis (a marker beyond it sits at the edge)."""
    if not math.isfinite(sigma) or sigma <= 0:
        return _LOG_RANGE[0]
    return min(max(math.log10(sigma), _LOG_RANGE[0]), _LOG_RANGE[1])


class _DialPlot:
    """One quantity against log σ: band, median, responsive window, markers."""

    def __init__(self, plot: pg.PlotItem, quantity: str) -> None:
        self.plot, self.quantity = plot, quantity
        plot.setLogMode(x=True, y=False)
        plot.setXRange(*_LOG_RANGE, padding=0.0)
        plot.setYRange(0.0, 1.0, padding=0.0)
        plot.getAxis("bottom").setTicks([[(math.log10(v), f"{v:g}") for v in SIGMA_TICKS],
                                         [(math.log10(v), "") for v in MINOR_TICKS]])
        self.window = pg.LinearRegionItem(values=(0.0, 0.5), movable=False)
        self.window.setZValue(-10)
        for line in self.window.lines:
            line.setPen(pg.mkPen(None))
        self.low, self.high = pg.PlotDataItem(), pg.PlotDataItem()
        self.band = pg.FillBetweenItem(self.low, self.high)
        self.median = pg.PlotDataItem()
        self.lines = [pg.InfiniteLine(angle=90, movable=False) for _ in range(MARKER_SLOTS)]
        self.dots = pg.ScatterPlotItem()  # every mode, where it meets the curve
        self.ring = pg.ScatterPlotItem(symbol="o")
        for item in (self.window, self.low, self.high, self.band, self.median, *self.lines, self.ring,
                     self.dots):
            plot.addItem(item)
        self.dots.setZValue(20)
        self.ring.setZValue(21)


class SigmaDialPanel(Panel):
    """Where softmax responds as a function of σ; every scaling mode as a point on the dial."""

    name = "sigma_dial"

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(translate("SigmaDialPanel", "5 · σ dial: where softmax responds (the curves depend on n "
                                                     "only, not on d_k)"), style, parent)
        self.short_title = translate("SigmaDialPanel", "5 · σ dial")  # its page tab
        # Texts of every frame, in the language of the window (a new language rebuilds it).
        self._verdicts = {key: translate("SigmaDialPanel", text) for key, text in VERDICTS.items()}
        self._sigma_text = translate("SigmaDialPanel", "{scaling} σ = {sigma}")
        self._window_text = translate("SigmaDialPanel", "n = {keys}: responsive for σ ≈ {low} … {high}")
        self._no_sigma = translate("SigmaDialPanel", "n/a")
        self._table_heading = translate("SigmaDialPanel", "Each scaling's σ")
        self._table_note = translate("SigmaDialPanel", "Any σ that does not grow with d_k works; ÷√d_k makes it 1 "
                                                       "for every head size.")
        self._key_texts = {"other": translate("SigmaDialPanel", "other modes"),
                           "median": translate("SigmaDialPanel", "median"),
                           "median_of": translate("SigmaDialPanel", "median of {seeds} seeds"),
                           "window": translate("SigmaDialPanel", "‖J‖_F ≥ ½ peak"),
                           "sample": translate("SigmaDialPanel", "this sample")}
        # The plots are made on first need (make_plots): making them costs a tenth of the start-up.
        self.dial_plots: list[_DialPlot] = []
        self.table = QLabel()
        self.table.setObjectName("sigmaDialTable")
        self.table.setTextFormat(Qt.TextFormat.RichText)
        self.table.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.table.setWordWrap(True)
        self.table.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.body.addWidget(self.table, 1)
        self.body.setStretch(0, 2)
        self.curves: DialCurves | None = None
        self._drawn_curves: DialCurves | None = None  # what the plots show (hidden, they wait)
        self._scalings: tuple[str, ...] = ()
        self._brushes: dict[str, QBrush] = {}
        self._y_top = 1.0
        self._table_html = ""
        # (parameters, each mode's σ, the curves) of the table to write, and of the last written
        self._pending_table: tuple[Params, dict[str, float], DialCurves | None] | None = None
        self._last_table: tuple[Params, dict[str, float], DialCurves | None] | None = None
        self._table_written = 0.0  # time.monotonic() of the last table rewrite
        self._table_timer = QTimer(self)
        self._table_timer.setSingleShot(True)
        self._table_timer.timeout.connect(self._write_table)
        self.values: dict[str, float] = {}
        self.markers: dict[str, float] = {}  # scaling -> its σ at the current parameters
        self.apply_style()

    # --- protocol -------------------------------------------------------------------------
    def bind(self, controller: Any) -> None:  # the window's Controller (gui/window: a layer above)
        controller.dial_changed.connect(self.show_dial)
        if controller.dial is not None:
            self.show_dial(controller.dial)
        super().bind(controller)

    def plots(self) -> list[pg.PlotItem]:
        return [d.plot for d in self.dial_plots]

    def make_plots(self) -> None:
        """The three plots, in the window's current style, with the curves that came before
        (when the page is first shown, or earlier when the window has a moment)."""
        if self.dial_plots:
            return
        spots = ((0, 0, 1, 2), (1, 0, 1, 1), (1, 1, 1, 1))  # ‖J‖_F across the top
        self._titled: list[tuple[pg.PlotItem, str]] = []
        for (quantity, _, label), (row, col, rows, cols) in zip(PLOTS, spots):
            plot = add_plot(self.canvas, row=row, col=col, rowspan=rows, colspan=cols)
            # The two small plots name their quantity above them: along their short y axis
            # it would shrink below what the back row reads.
            name = translate("SigmaDialPanel", label)
            self.style_.style_plot(plot, left=name if row == 0 else None,
                                   bottom=translate("SigmaDialPanel", "logit spread σ"))
            if row:
                self._titled.append((plot, name))
            # Not x-linked: pyqtgraph would align plots of different widths by screen position.
            self.dial_plots.append(_DialPlot(plot, quantity))
        layout = self.canvas.ci.layout
        layout.setRowStretchFactor(0, 11)
        layout.setRowStretchFactor(1, 9)
        self.restyle_items()
        on_resize(self.canvas, self._fit_titles)
        self._fit_titles()
        if self.curves is not None:
            self._y_top = 1.0
            self._draw_curves(self.curves)
        self._behind = True  # the markers: drawn with the current numbers when the page shows

    def apply_style(self) -> None:
        super().apply_style()
        self.table.setFont(self.style_.font(12))
        self._table_html = ""  # colours and sizes follow on the next result
        self._fit_titles()

    def _fit_titles(self) -> None:
        for plot, name in getattr(self, "_titled", ()):  # the small plots and their quantity
            fit_plot_title(plot, name, self.style_.pt(13), self.canvas.width() // 2, lines=2)  # two side by side

    def set_projected(self, on: bool) -> None:
        """On the projected page the table (detail for a desk reader) gives the plots its
        room: at the class's type size it would not fit."""
        self.table.setVisible(not on)

    def restyle_items(self) -> None:
        s = self.style_
        fg, muted = s.palette.fg, s.palette.muted
        for d in self.dial_plots:
            d.median.setPen(s.pen(fg, 3))
            for edge in (d.low, d.high):
                edge.setPen(pg.mkPen(faint(muted, 80)))
            d.band.setBrush(faint(muted, 60 if s.theme == "light" else 90))
            d.window.setBrush(faint(s.palette.accent, 45 if s.theme == "light" else 70))
            d.dots.setPen(pg.mkPen(fg, width=1.5))
            d.ring.setSize(s.line(5) * 4.2)
            d.ring.setBrush(pg.mkBrush(None))
            d.ring.setPen(pg.mkPen(fg, width=s.line(2)))
        self._scalings = ()  # marker colours follow on the next result
        self._brushes = {}

    def data_tables(self) -> list[Table]:
        """The curves as drawn (one row per σ), and where each scaling mode sits now."""
        c: Any = getattr(self, "controller", None)  # the window's Controller, once bound
        curves = c.dial if c is not None else None  # drawn or not: the page may be hidden
        if curves is None:
            return []
        rows = curves.rows_table()
        dial = Table(translate("SigmaDialPanel", "σ dial, n = {keys} keys (medians and 10–90 % over {rows} rows × "
                                                 "{seeds} seeds)")
                     .format(keys=curves.keys, rows=curves.rows, seeds=curves.seeds),
                     tuple(rows[0]), tuple(tuple(r.values()) for r in rows))
        if c.result is None:
            return [dial]
        modes = tuple((SCALING_LABELS[m], float(sig), self.verdict(sig, curves))
                      for m, sig in c.result.mode_sigmas.items())
        headers = (translate("SigmaDialPanel", "scaling"), "σ", translate("SigmaDialPanel", "verdict"))
        return [dial, Table(translate("SigmaDialPanel", "each scaling's σ here"), headers, modes)]

    # --- drawing ------------------------------------------------------------------------------
    def show_dial(self, curves: DialCurves) -> None:
        """New curves (a new number of keys): the only time the lines and bands change."""
        self.curves = curves
        # Behind panels 1-4 drawn when the page shows (≈ 8 ms); without plots, when they are made.
        if self.dial_plots and not self._hidden_in_shown_window():
            self._draw_curves(curves)
        self.set_key(self._key_entries_for(self._scalings))
        c = getattr(self, "controller", None)
        if c is not None and c.result is not None:
            self._on_result(c.result)  # the markers, now or when the page shows

    def _draw_curves(self, curves: DialCurves) -> None:
        self._drawn_curves = curves
        x = np.asarray(curves.sigma, dtype=float)
        lo, hi = curves.window
        for d in self.dial_plots:
            d.median.setData(x, curves.stat(d.quantity))
            d.low.setData(x, curves.stat(d.quantity, "p10"))
            d.high.setData(x, curves.stat(d.quantity, "p90"))
            d.window.setRegion((math.log10(lo), math.log10(hi)))
        top = nice_ceiling(1.08 * float(np.max(curves.stat("jacobian_fro", "p90"))))
        if top != self._y_top:
            self._y_top = top
            self.dial_plots[0].plot.setYRange(0.0, top, padding=0.0)

    def _key_entries_for(self, scalings: Iterable[str]) -> list[tuple[str, str, str]]:
        s = self.style_
        entries = [(s.colour_for(k), "┃", SCALING_LABELS[k]) for k in scalings]
        texts = self._key_texts
        entries.append((s.palette.other, "●", texts["other"]))
        median = (texts["median_of"].format(seeds=self.curves.seeds) if self.curves is not None
                  else texts["median"])
        entries += [(s.palette.fg, "━", median), (s.palette.muted, "▒", "10–90 %"),
                    (s.palette.accent, "░", texts["window"]), (s.palette.fg, "○", texts["sample"])]
        return entries

    def show_result(self, result: Result, row: int) -> None:
        if not self.isVisible():  # behind panels 1-4, or a window not yet shown: drawn when shown
            self._behind = True
            return
        p = result.params
        compared = compared_scalings(p)
        sigmas = dict(result.mode_sigmas)  # a copy: the current mode's entry may change here
        if not math.isfinite(sigmas[p.scaling]):  # QK-norm with alignment: no closed form
            sigmas[p.scaling] = result.logit_std
        if compared != self._scalings:
            self._recolour(compared)
        curves = self.curves if self.curves is not None and self.curves.keys == p.keys else None
        shown = [m for m in SCALINGS if math.isfinite(sigmas[m])]
        xs = [_clamp_log(sigmas[m]) for m in shown]
        sizes = [self.style_.line(5) * (3.4 if m == p.scaling else 2.2) for m in shown]
        brushes = [self._brush(m) for m in shown]
        current_x = _clamp_log(sigmas[p.scaling])
        for d, (_, sample_name, _) in zip(self.dial_plots, PLOTS):
            for line, m in zip(d.lines, compared):
                line.setValue(_clamp_log(sigmas[m]))
            if curves is not None:
                d.dots.setData(x=xs, y=[curves.at(d.quantity, sigmas[m]) for m in shown], size=sizes,
                               brush=brushes)
            else:  # the curves for this n are still on their way
                d.dots.setData(x=[], y=[])
            sample = result.summary[sample_name].median
            if sample_name == "entropy":
                sample /= result.log_n
            if math.isfinite(sample):
                d.ring.setData(x=[current_x], y=[sample])
            else:
                d.ring.setData(x=[], y=[])
        self.markers = {m: sigmas[m] for m in compared}
        self.values = {"sigma_" + m: v for m, v in sigmas.items()}
        text = "   ".join(self._sigma_text.format(scaling=SCALING_LABELS[m], sigma=f"{sigmas[m]:.3g}")
                          for m in compared)
        if curves is not None:
            lo, hi = curves.window
            text += "   ·   " + self._window_text.format(keys=p.keys, low=f"{lo:.2g}", high=f"{hi:.2g}")
            self.values.update(window_low=lo, window_high=hi, peak=curves.peak_sigma)
        self.show_readout(localize_number(text))
        self._pending_table = (p, sigmas, curves)
        wait_ms = TABLE_INTERVAL_MS - 1e3 * (time.monotonic() - self._table_written)
        if wait_ms <= 0:
            self._write_table()
        elif not self._table_timer.isActive():
            self._table_timer.start(int(wait_ms) + 1)

    def flush(self) -> None:
        """Write the table now (headless renders and slides call this)."""
        self._table_timer.stop()
        self._write_table()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        self.make_plots()  # with the curves that came before
        if self.curves is not None and self._drawn_curves is not self.curves:
            self._draw_curves(self.curves)  # they came while the page was hidden
        super().showEvent(event)  # draws what came while the page was hidden

    def verdict(self, sigma: float, curves: DialCurves | None) -> str:
        """What the softmax does at ``sigma`` (the curves' regime), in words; "…" until known."""
        regime = None if curves is None else curves.regime(sigma)
        return "…" if regime is None else self._verdicts[regime]

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        # Beside the plots the table needs about 330 px (its σ and verdict columns); on a
        # narrower panel (a 1024-pixel projector beside the lesson) it goes below them.
        beside = event.size().width() >= round(900 * self.style_.zoom)
        direction = QBoxLayout.Direction.LeftToRight if beside else QBoxLayout.Direction.TopToBottom
        if self.body.direction() != direction:
            self.body.setDirection(direction)
            self.body.setStretch(0, 2 if beside else 3)
            self.body.setStretch(1, 1)
            if self.curves is not None and self._table_html:  # one or two columns of modes
                self._table_html = ""
                self._pending_table = self._last_table
                self._write_table()

    def _write_table(self) -> None:
        """Every mode's σ and verdict, smallest σ first (rich text: only while visible)."""
        if self._pending_table is None:
            return
        p, sigmas, curves = self._last_table = self._pending_table
        self._pending_table = None
        self._table_written = time.monotonic()
        s = self.style_
        cells = []
        for m in sorted(SCALINGS, key=lambda m: (not math.isfinite(sigmas[m]), sigmas[m])):
            weight = f" style='font-weight:{'bold' if m == p.scaling else 'normal'}'"
            sigma = f"{sigmas[m]:.3g}" if math.isfinite(sigmas[m]) else self._no_sigma
            cells.append(f"<td style='color:{s.colour_for(m)}'>●</td><td{weight}>{TABLE_LABELS[m]}</td>"
                         f"<td align='right'{weight}>&nbsp;{sigma}</td>"
                         f"<td{weight}>&nbsp;{self.verdict(sigmas[m], curves)}&nbsp;&nbsp;</td>")
        # Below the plots (a narrow panel) the modes take two columns: half the height.
        half = (len(cells) + 1) // 2 if self.body.direction() == QBoxLayout.Direction.TopToBottom else len(cells)
        two = half < len(cells)
        small = f" style='font-size:{s.pt(10)}pt'" if two else ""
        rows = [f"<tr>{''.join(cells[i::half])}</tr>" for i in range(half)]  # row i: modes i and i + half
        html = (f"<div style='color:{s.palette.fg}'><b>{self._table_heading}</b><br/>"
                f"<span style='color:{s.palette.muted}'>d_k = {p.d_k}, τ = {p.temperature:.2f}, "
                f"n = {p.keys}</span>"
                f"<table cellspacing='0' cellpadding='{1 if two else 2}'{small}>{''.join(rows)}</table>"
                f"<p style='color:{s.palette.muted}'>{self._table_note}</p></div>")
        if html != self._table_html:
            self._table_html = html
            self.table.setText(localize_number(html))

    def _brush(self, scaling: str) -> QBrush:
        colour = self.style_.colour_for(scaling)
        return self._brushes.setdefault(colour, pg.mkBrush(colour))

    def _recolour(self, scalings: tuple[str, ...]) -> None:
        s = self.style_
        for d in self.dial_plots:
            for i, line in enumerate(d.lines):
                if i < len(scalings):
                    line.setPen(s.pen(s.colour_for(scalings[i]), 2.5))
                line.setVisible(i < len(scalings))
        self._scalings = scalings
        self.set_key(self._key_entries_for(scalings))
