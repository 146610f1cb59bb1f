"""The training lab's sweep views: results against the learning rate, curves over training.

Every plot item is created once and only fed with ``setData``. Log axes are drawn by hand
(the data are log10-transformed here, the tick labels say the real values), so bands between
two curves and the "never reached" row work the same on every axis. One colour per scaling
as everywhere; the seeds of a sweep show as a band (lowest to highest) around the median.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import cast

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QWidget

from sqrtdk_gui.core.i18n import format_number, localize_number
from sqrtdk_gui.core.training.loop import WINDOW
from sqrtdk_gui.core.training.lr_sweep import ScalingSweep, band, rolling_median, span_text, verdict
from sqrtdk_gui.gui.lab.controls import LAB_SCALINGS
from sqrtdk_gui.gui.lab.plots import ScalingTable, fit_heading
from sqrtdk_gui.gui.panels.base import PlotFrame
from sqrtdk_gui.gui.plotting.fit import fit_line_labels
from sqrtdk_gui.gui.plotting.plot_items import add_plot, keep_step_ticks
from sqrtdk_gui.gui.style import Style, faint, series_look, set_line_style

__all__ = ["LrPanel", "StepPanel", "GradPanel", "SweepTable", "log_ticks", "fmt_lr",
           "NEVER_GAP", "GRAD_STYLES"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "LabSweepPlots"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

NEVER_GAP = 0.22  # decades between the most steps a run has and the "never reached" row
BAND_ALPHA = 60
# Gradient curves: solid W_q, dashed W_k (they travel together), dotted W_v.
GRAD_STYLES = (("grad_q", "W_q", Qt.PenStyle.SolidLine),
               ("grad_k", "W_k", Qt.PenStyle.DashLine),
               ("grad_v", "W_v", Qt.PenStyle.DotLine))


def fmt_lr(lr: float) -> str:
    return format_number(lr)


def log_ticks(lo: float, hi: float, minor: bool = True,
              max_labels: int | None = None) -> list[list[tuple[float, str]]]:
    """pyqtgraph ticks for a log10 axis spanning [lo, hi] decades: 1-2-5 tick marks.

    Labels go on the powers of ten first (every k-th when they would not fit
    ``max_labels``), then on the lowest tick, then on all 2s and 5s if there is room for all.
    """
    vals = []
    for e in range(math.floor(lo), math.ceil(hi) + 1):
        for m in (1, 2, 5):
            v = e + math.log10(m)
            if lo - 1e-9 <= v <= hi + 1e-9:
                vals.append((v, m, f"{m * 10.0 ** e:g}"))
    room = 10**6 if max_labels is None else max(1, max_labels)
    ones = [v for v, m, _ in vals if m == 1]
    if len(ones) > room:
        step = math.ceil(len(ones) / room)
        ones = ones[::step]
    labelled = set(ones)
    if vals and len(labelled) < room:
        labelled.add(vals[0][0])
    others = [v for v, m, _ in vals if m != 1 and v not in labelled]
    if minor and len(labelled) + len(others) <= room:
        labelled.update(others)
    major = [(v, t if v in labelled else "") for v, m, t in vals if m == 1 or v in labelled]
    rest = [(v, "") for v, m, t in vals if m != 1 and v not in labelled] if minor else []
    return [major, rest]


class _LogAxis:
    """Keeps a log10 axis's labels as dense as its length allows (re-fitted on resize)."""

    def __init__(self, plot: pg.PlotItem, name: str = "left") -> None:
        self.plot = plot
        self.name = name
        self.range: tuple[float, float] | None = None
        self.extra: list[tuple[float, str]] = []
        self.minor = True
        plot.getViewBox().sigResized.connect(self.refresh)

    def set(self, lo: float, hi: float, minor: bool = True, extra: Iterable[tuple[float, str]] = ()) -> None:
        self.range, self.minor, self.extra = (lo, hi), minor, list(extra)
        self.refresh()

    def refresh(self, *_args: object) -> None:
        if self.range is None:
            return
        axis = self.plot.getAxis(self.name)
        box = self.plot.getViewBox()
        metrics = QFontMetrics(axis.style.get("tickFont") or axis.font())
        if self.name == "left":
            length, need = box.height(), 1.5 * metrics.height()
        else:
            length, need = box.width(), 1.3 * metrics.horizontalAdvance("0.05")
        room = int(length / need) if length > 0 else 6
        lo, hi = self.range
        room -= len(self.extra)
        minor = self.minor and hi - lo <= 4.5  # more decades: the 2s and 5s only add clutter
        ticks = log_ticks(lo, hi, minor, max_labels=room)
        if self.extra:  # e.g. "never": always labelled, nothing labelled right under it
            top = min(v for v, _ in self.extra)
            gap = 1.2 * need * (hi - lo) / max(length, 1.0)
            ticks = [[(v, t if v < top - gap else "") for v, t in level] for level in ticks]
            ticks[0] = ticks[0] + self.extra
        axis.setTicks(ticks)


def _fit_title(panel: PlotFrame, heading: str, subtitle: str) -> None:
    """Title and, muted, a subtitle (see ``fit_heading``); the tooltip says both."""
    fit_heading(panel, heading, subtitle,
                translate("LabSweepPlots", "{title}: {subtitle}").format(title=heading, subtitle=subtitle)
                if subtitle else heading)


def _log10(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x > 0, np.log10(np.where(x > 0, x, 1.0)), np.nan)


class _Decades:
    """A log-y step plot's range: whole decades covering every curve noted, within limits."""

    def __init__(self, plot: pg.PlotItem, log_axis: _LogAxis, limits: tuple[int, int],
                 default: tuple[int, int] | None = None) -> None:
        self.plot, self.log_axis, self.limits, self.default = plot, log_axis, limits, default
        # curve key -> (lowest, highest) log10 value drawn
        self.seen: dict[str | tuple[str, str], tuple[float, float]] = {}
        self._shown: tuple[int, int] | None = None

    def show(self, lo: int, hi: int) -> None:
        if (lo, hi) == self._shown:
            return
        self._shown = (lo, hi)
        self.plot.setYRange(lo, hi, padding=0.07)
        self.log_axis.set(lo, hi, minor=hi - lo <= 3)

    def note(self, key: str | tuple[str, str], values: np.ndarray) -> bool:
        """Remember the finite range of ``values`` (log10) for ``key``; False if none."""
        finite = values[np.isfinite(values)]
        if finite.size:
            self.seen[key] = (float(finite.min()), float(finite.max()))
        return bool(finite.size)

    def fit(self) -> None:
        """Show the decades every noted curve needs (nothing noted: the default, if any)."""
        if self.seen:
            a = math.floor(min(d[0] for d in self.seen.values()))
            b = math.ceil(max(d[1] for d in self.seen.values()))
        elif self.default is not None:
            a, b = self.default
        else:
            return
        self.show(max(a, self.limits[0]), min(max(b, a + 1), self.limits[1]))


class _BandPanel(PlotFrame):
    """A panel with one median curve and one band (lowest-highest over seeds) per scaling."""

    def __init__(self, title: str, style: Style, xlabel: str, ylabel: str, symbols: bool,
                 parent: QWidget | None = None) -> None:
        super().__init__(title, style, parent)
        self.heading = title
        self.plot = add_plot(self.canvas)
        style.style_plot(self.plot, left=ylabel, bottom=xlabel)
        for name in ("left", "bottom"):  # _LogAxis keeps the labels apart itself
            self.plot.getAxis(name).setStyle(hideOverlappingLabels=False)
        self.plot.enableAutoRange(enable=False)
        self.log_axis = _LogAxis(self.plot)
        self.x_axis = _LogAxis(self.plot, "bottom")
        self.symbols = symbols
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.lows: dict[str, pg.PlotCurveItem] = {}
        self.highs: dict[str, pg.PlotCurveItem] = {}
        self.bands: dict[str, pg.FillBetweenItem] = {}
        for z, s in enumerate(("qk_norm", "none", "sqrt_dk")):  # blue on top
            low, high = pg.PlotCurveItem(), pg.PlotCurveItem()
            fill = pg.FillBetweenItem(low, high)
            curve = pg.PlotDataItem(connect="finite")
            for item, depth in ((low, 1), (high, 1), (fill, 0), (curve, 10)):
                item.setZValue(z + depth * 10)
                self.plot.addItem(item)
            self.curves[s], self.lows[s], self.highs[s], self.bands[s] = curve, low, high, fill
        self.readout_slot.hide()

    def plots(self) -> list[pg.PlotItem]:
        return [self.plot]

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        _fit_title(self, self.heading, getattr(self, "subtitle", ""))

    def restyle_items(self) -> None:
        s = self.style_
        for scaling in LAB_SCALINGS:
            colour = s.colour_for(scaling)
            self.curves[scaling].setPen(s.series_pen(scaling, 3))  # never colour alone
            if self.symbols:
                self.curves[scaling].setSymbol(series_look(scaling).symbol)
                self.curves[scaling].setSymbolSize(round(9 * s.zoom))
                self.curves[scaling].setSymbolBrush(colour)
                self.curves[scaling].setSymbolPen(pg.mkPen(s.palette.bg, width=1))
            clear = pg.mkPen(None)
            self.lows[scaling].setPen(clear)
            self.highs[scaling].setPen(clear)
            self.bands[scaling].setBrush(faint(colour, BAND_ALPHA))

    def _set(self, scaling: str, x: np.ndarray, mid: np.ndarray, lo: np.ndarray,
             hi: np.ndarray, show_band: bool) -> None:
        self.curves[scaling].setData(x, mid)
        ok = np.isfinite(lo) & np.isfinite(hi)
        if show_band and ok.sum() >= 2:
            self.lows[scaling].setData(x[ok], lo[ok])
            self.highs[scaling].setData(x[ok], hi[ok])
            self.bands[scaling].setVisible(True)
        else:
            self.lows[scaling].setData([], [])
            self.highs[scaling].setData([], [])
            self.bands[scaling].setVisible(False)

    def clear_scaling(self, scaling: str) -> None:
        self._set(scaling, np.array([]), np.array([]), np.array([]), np.array([]), False)

    def clear(self) -> None:
        for s in LAB_SCALINGS:
            self.clear_scaling(s)


class LrPanel(_BandPanel):
    """Steps to 90 % (or final loss) against the learning rate, both axes logarithmic.

    For steps, a run that never reached 90 % sits on a "never" row above the plot
    area's last step, so a rate at which raw fails shows as a cliff rather than a gap.
    """

    def __init__(self, title: str, metric: str, style: Style, ylabel: str, subtitle: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(title, style, translate("LabSweepPlots", "learning rate"), ylabel, symbols=True,
                         parent=parent)
        self.metric_name = metric  # "steps" or "loss"
        self.subtitle = subtitle
        # The rate of the over-training plots below, a dashed line; the panel's subtitle says so
        # (words beside it would lie across the curves: every height left of a cliff has one).
        self.selected = pg.InfiniteLine(angle=90)
        self.selected.setZValue(40)
        self.plot.addItem(self.selected)
        self.selected.hide()
        self.never = pg.InfiniteLine(angle=0)
        self.never.setZValue(5)
        self.plot.addItem(self.never)
        self.never.setVisible(metric == "steps")
        self._steps = 400
        self._lrs: tuple[float, ...] = ()
        self.loss_decades = _Decades(self.plot, self.log_axis, (-8, 4), default=(-3, 1))
        self.set_grid((0.05, 20.0), 400)
        self.apply_style()

    def restyle_items(self) -> None:
        super().restyle_items()
        s = self.style_
        self.selected.setPen(s.pen(s.palette.muted, 2, dashed=True))
        self.never.setPen(s.pen(s.palette.muted, 1.5, dashed=True))
        _fit_title(self, self.heading, self.subtitle)

    def never_y(self) -> float:
        return math.log10(self._steps) + NEVER_GAP

    def set_grid(self, lrs: Sequence[float], steps: int) -> None:
        """The rates and the number of steps of the coming sweep: fixes both axes' ranges."""
        self._lrs = tuple(lrs)
        self._steps = steps
        lo, hi = math.log10(min(lrs)), math.log10(max(lrs))
        pad = max(0.15, 0.06 * (hi - lo))
        self.plot.setXRange(lo - pad, hi + pad, padding=0)
        self.x_axis.set(lo - pad, hi + pad)
        if self.metric_name == "steps":
            top = self.never_y()
            # room for half a label under the lowest tick and over "never": pyqtgraph drops
            # labels that stick out of the axis
            ylo = math.log10(WINDOW) - 0.16
            self.plot.setYRange(ylo, top + 0.14, padding=0)
            self.log_axis.set(math.log10(WINDOW), math.log10(steps),
                              extra=[(top, translate("LabSweepPlots", "never"))])
            self.never.setValue(top)
            self.never.setToolTip(translate("LabSweepPlots", "never: not reached 90 % in {steps} steps")
                                  .format(steps=steps))
        else:
            self.loss_decades.seen.clear()
            self.loss_decades.fit()

    def select(self, lr: float | None) -> None:
        """Mark the rate whose curves the panels below show."""
        if lr is None:
            self.selected.hide()
            return
        self.selected.setValue(math.log10(lr))
        self.selected.show()

    def show_sweep(self, sweep: ScalingSweep) -> None:
        x = np.log10(np.asarray(sweep.lrs))
        if self.metric_name == "steps":
            s90 = sweep.steps_to_90()
            s90 = np.where(np.isnan(s90), np.inf, s90)  # never reached: the top row
            mid, lo, hi = (np.minimum(_log10(v), self.never_y()) for v in band(s90))
        else:
            loss = sweep.final_loss()
            mid, lo, hi = (_log10(v) for v in band(loss))
            if self.loss_decades.note(sweep.scaling, np.concatenate([lo, hi])):
                self.loss_decades.fit()
        self._set(sweep.scaling, x, mid, lo, hi, show_band=len(sweep.seeds) > 1)

    def clear(self) -> None:
        super().clear()
        if self.metric_name == "loss":
            self.loss_decades.seen.clear()
            self.loss_decades.fit()


class StepPanel(_BandPanel):
    """One metric against the training step at the chosen rate: median and band over seeds."""

    def __init__(self, title: str, metric: str, style: Style, ylabel: str, log_y: bool = False,
                 y_range: tuple[float, float] | None = None, subtitle: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(title, style, translate("LabSweepPlots", "step"), ylabel, symbols=False, parent=parent)
        self.metric_name = metric
        self.log_y = log_y
        self.subtitle = subtitle
        self.decades = _Decades(self.plot, self.log_axis, (-10, 12))
        self.levels: list[tuple[pg.InfiniteLine, str]] = []
        if y_range is not None:
            self.plot.setYRange(*y_range, padding=0.05)
        elif log_y:
            self.decades.show(0, 2)
        self.plot.setXRange(0, 400, padding=0.04)
        keep_step_ticks(self.plot)
        self.apply_style()

    def restyle_items(self) -> None:
        super().restyle_items()
        s = self.style_
        for line, _label in self.levels:
            line.setPen(s.pen(s.palette.muted, 2, dashed=True))
            if line.label is not None:
                line.label.setColor(s.palette.muted)
        self._fit_level_labels()
        _fit_title(self, self.heading, self.subtitle)

    def _fit_level_labels(self, *_args: object) -> None:
        fit_line_labels(self.plot.getViewBox(), [line.label for line, _t in self.levels if line.label is not None],
                        self.style_.font(12, bold=True))

    def set_subtitle(self, text: str) -> None:
        self.subtitle = text
        self.restyle_items()

    def add_level(self, y: float, label: str = "") -> None:
        line = pg.InfiniteLine(pos=y, angle=0)
        line.label = None
        if label:
            line.label = pg.InfLineLabel(line, text=label, position=0.98,
                                         anchors=[(1, 0), (1, 0)])
        line.setZValue(5)
        self.plot.addItem(line)
        if not self.levels:  # the room for the labels changes with the plot
            self.plot.getViewBox().sigResized.connect(self._fit_level_labels)
        self.levels.append((line, label))
        self.restyle_items()

    def set_steps(self, steps: int) -> None:
        self.plot.setXRange(0, steps, padding=0.04)
        self.decades.seen.clear()

    def show_runs(self, scaling: str, runs: np.ndarray) -> None:
        """``runs``: (seeds, steps) of this panel's metric (NaN where a run had ended)."""
        runs = np.atleast_2d(runs)
        mid, lo, hi = band(runs)
        x = np.arange(runs.shape[1], dtype=float)
        if self.log_y:
            mid, lo, hi = _log10(mid), _log10(lo), _log10(hi)
            if self.decades.note(scaling, np.concatenate([lo, hi])):
                self.decades.fit()
        self._set(scaling, x, mid, lo, hi, show_band=runs.shape[0] > 1)

    def clear(self) -> None:
        super().clear()
        self.decades.seen.clear()


GRAD_WINDOW = 20  # steps of the rolling median in the gradient panel


class GradPanel(PlotFrame):
    """‖∂L/∂W_q‖, ‖∂L/∂W_k‖, ‖∂L/∂W_v‖ over training, log scale.

    Median over the seeds at each step, then the median of the last 20 steps: the size of a
    typical step. A raw head's W_q and W_k get almost nothing on most steps and a large kick
    on the few where a row is near a tie; a mean would show the kicks, this shows the rule.
    """

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(translate("LabSweepPlots", "Where the gradient goes"), style, parent)
        self.heading = translate("LabSweepPlots", "Where the gradient goes")
        self.plot = add_plot(self.canvas)
        style.style_plot(self.plot, left="‖∂L/∂W‖", bottom=translate("LabSweepPlots", "step"))
        for name in ("left", "bottom"):
            self.plot.getAxis(name).setStyle(hideOverlappingLabels=False)
        self.plot.enableAutoRange(enable=False)
        self.plot.setXRange(0, 400, padding=0.04)
        keep_step_ticks(self.plot)
        self.log_axis = _LogAxis(self.plot)
        self.key.setWordWrap(True)
        self.curves: dict[tuple[str, str], pg.PlotDataItem] = {}
        for s in ("qk_norm", "none", "sqrt_dk"):
            for metric, _, _ in GRAD_STYLES:
                curve = pg.PlotDataItem(connect="finite")
                curve.setZValue({"qk_norm": 1, "none": 2, "sqrt_dk": 3}[s])
                self.plot.addItem(curve)
                self.curves[(s, metric)] = curve
        self.decades = _Decades(self.plot, self.log_axis, (-12, 6))
        self.readout_slot.hide()
        self.learn_v = False
        self.decades.show(-3, 1)
        self.apply_style()

    def plots(self) -> list[pg.PlotItem]:
        return [self.plot]

    def restyle_items(self) -> None:
        s = self.style_
        for (scaling, metric), curve in self.curves.items():
            style = next(st for m, _, st in GRAD_STYLES if m == metric)
            pen = s.pen(s.colour_for(scaling), {"grad_q": 3, "grad_k": 2, "grad_v": 4.5}[metric])
            if metric == "grad_v":  # round dots, unlike W_k's dashes
                pen.setCapStyle(Qt.PenCapStyle.RoundCap)
                pen.setDashPattern([0.1, 1.6])
            else:
                set_line_style(pen, style)
            curve.setPen(pen)
        self._set_key()
        _fit_title(self, self.heading, self._subtitle())

    def _set_key(self) -> None:
        """The key with its words where the panel is wide; on a narrow one (a 1024-pixel
        projector) the names only, so that the plot keeps its room, the words in its tooltip."""
        s = self.style_
        v = (translate("LabSweepPlots", "W_v: what it reads") if self.learn_v
             else translate("LabSweepPlots", "W_v: what it reads (fixed)"))
        k = translate("LabSweepPlots", "W_k: where it looks")
        fg = s.palette.fg
        self._short_key = self.width() < round(330 * s.zoom)
        if self._short_key:
            self.set_key([(fg, "━", "W_q"), (fg, "╍", "W_k"), (fg, "•••", "W_v")])
            self.key.setToolTip(f"W_q · {k} · {v}")
        else:
            self.set_key([(fg, "━", "W_q"), (fg, "╍", k), (fg, "•••", v)])
            self.key.setToolTip("")

    def _subtitle(self) -> str:
        return translate("LabSweepPlots", "median of {window} steps").format(window=GRAD_WINDOW)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if (self.width() < round(330 * self.style_.zoom)) != getattr(self, "_short_key", None):
            self._set_key()
        _fit_title(self, self.heading, self._subtitle())

    def set_learn_v(self, on: bool) -> None:
        self.learn_v = on
        self.restyle_items()

    def set_steps(self, steps: int) -> None:
        self.plot.setXRange(0, steps, padding=0.04)
        self.decades.seen.clear()

    def show_runs(self, scaling: str, curves: dict[str, np.ndarray]) -> None:
        """``curves[metric]``: (seeds, steps) for grad_q, grad_k and grad_v."""
        for metric, _, _ in GRAD_STYLES:
            runs = np.atleast_2d(curves[metric])
            mid = _log10(rolling_median(band(runs)[0], GRAD_WINDOW))
            self.curves[(scaling, metric)].setData(np.arange(mid.size, dtype=float), mid)
            self.decades.note((scaling, metric), mid)
        self.decades.fit()

    def clear_scaling(self, scaling: str) -> None:
        for metric, _, _ in GRAD_STYLES:
            self.curves[(scaling, metric)].setData([], [])
            self.decades.seen.pop((scaling, metric), None)

    def clear(self) -> None:
        for s in LAB_SCALINGS:
            self.clear_scaling(s)
        self.decades.seen.clear()


class SweepTable(ScalingTable):
    """A row per scaling: each at its best rate, and the rates at which it trains at all."""

    COLUMNS = (("best", QT_TRANSLATE_NOOP("LabSweepPlots", "best: steps to 90 %")),
               ("at", QT_TRANSLATE_NOOP("LabSweepPlots", "at lr")),
               ("works", QT_TRANSLATE_NOOP("LabSweepPlots", "rates reaching 90 %")),
               ("range", QT_TRANSLATE_NOOP("LabSweepPlots", "working range")))
    # {window}: WINDOW (filled in by ``_translate``)
    TIPS = {
        "best": QT_TRANSLATE_NOOP("LabSweepPlots", "Each seed's fewest steps to 90 % accuracy at its own best "
                                  "rate, as a range over the seeds ({window} is the fewest a {window}-step "
                                  "average can show)."),
        "at": QT_TRANSLATE_NOOP("LabSweepPlots", "The rate(s) at which the seeds were fastest."),
        "works": QT_TRANSLATE_NOOP("LabSweepPlots", "At how many of the swept rates a run reaches 90 % accuracy "
                                   "(range over seeds)."),
        "range": QT_TRANSLATE_NOOP("LabSweepPlots", "Lowest to highest rate at which every seed reaches 90 %. "
                                   "The sweep's ends cut it: outside the grid a scaling may still train."),
    }
    STRETCH = {"best": 5, "works": 5, "range": 5}
    DEFAULT_STRETCH = 3
    NAME_STRETCH = 5
    VERDICT_PT = 13

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(style, "labSweepTable", "lab_sweep", "lab_sweep_verdict",
                         translate("LabSweepPlots", "Raw logits and ÷√d_k, each at its own best learning rate."),
                         parent=parent)

    def _translate(self, text: str) -> str:
        return translate("LabSweepPlots", text).format(window=WINDOW)

    def _row_shown(self, scaling: str) -> bool:
        return scaling in self._in_run  # no room to spare for the others

    def reset(self, scalings: tuple[str, ...]) -> None:
        """Blank the rows of this sweep's scalings and hide the others (no room to spare)."""
        self._in_run = set(scalings)
        for s in LAB_SCALINGS:
            for key, cell in self.cells[s].items():
                cell.setText(translate("LabSweepPlots", "waiting") if key == "best" else "–")
                cell.setVisible(s in scalings and not self.compact)
            self.names[s].setVisible(s in scalings and not self.compact)
        self.verdict.setText("")
        self.apply_style()

    def set_status(self, scaling: str, text: str) -> None:
        """While a scaling trains (or if it never did), its first cell says so."""
        self.cells[scaling]["best"].setText(localize_number(text))

    def show_sweep(self, sweep: ScalingSweep) -> None:
        cells = self.cells[sweep.scaling]
        best = sweep.best_steps_range()
        cells["best"].setText(translate("LabSweepPlots", "never") if best is None else span_text(best))
        lrs = sweep.best_lr_values()
        cells["at"].setText(localize_number(span_text(lrs) if lrs else "–"))
        counts = sweep.working_counts()
        cells["works"].setText(translate("LabSweepPlots", "{counts} of {total}")
                               .format(counts=span_text(counts), total=len(sweep.lrs)))
        w = sweep.working_lrs()
        if not w:
            cells["range"].setText(translate("LabSweepPlots", "none"))
        else:
            cells["range"].setText(fmt_lr(w[0]) if len(w) == 1 else
                                   f"{fmt_lr(w[0])} … {fmt_lr(w[-1])}")

    def show_verdict(self, sweeps: dict[str, ScalingSweep]) -> None:
        self.verdict.setText(localize_number(verdict(sweeps)))
