"""A "versus d_k" plot: median and 10-90 % band per scaling, and a current-d_k marker."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFontMetrics

from sqrtdk_gui.core.attention.plotdata import clamp_positive
from sqrtdk_gui.core.attention.scaling import COMPARED
from sqrtdk_gui.core.i18n import format_number, localize_number
from sqrtdk_gui.gui.plotting.fast_items import VerticalMarker
from sqrtdk_gui.gui.plotting.plot_items import SweepSeries, add_sweep_series
from sqrtdk_gui.gui.style import SCALING_LABELS, Style, faint, series_look, set_line_style

if TYPE_CHECKING:
    import numpy.typing as npt

    from sqrtdk_gui.core.attention.params import Params
    from sqrtdk_gui.core.attention.sweep import Sweep

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

DK_TICKS = (1, 8, 64, 512, 4096)  # the slider's labels
# The series that draws any third scaling mode; its colour (the "other" colour) is the same
# for every mode that is neither raw nor ÷√d_k.
OTHER_MODE = "dk"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def set_decade_ticks(plot: pg.PlotItem, lo: float, hi: float, step: int = 3) -> None:
    """Label a log y axis 10ⁿ at every ``step``-th decade from lo to hi, both ends included.

    pyqtgraph drops a label whose text would cross the plot's edge, which left "10⁰"
    unlabelled at the top of the ‖J‖_F plot; the view is padded (a decade on long axes) so
    the end labels fit inside even on a small projector.
    """
    lo_e, hi_e = round(np.log10(lo)), round(np.log10(hi))
    major = [(e, "10" + str(e).translate(_SUPERSCRIPT)) for e in range(lo_e, hi_e + 1) if e % step == 0]
    minor = [(e, "") for e in range(lo_e, hi_e + 1) if e % step]
    plot.getAxis("left").setTicks([major, minor])
    pad = 1.0 if hi_e - lo_e > 6 else 0.3
    plot.setYRange(lo_e - pad, hi_e + pad, padding=0)


# The head sizes labelled on a log d_k axis, most first: as many as fit side by side.
_DK_TICK_CHOICES = (DK_TICKS, (1, 64, 4096), (1, 64), (64,))


def set_dk_ticks(plot: pg.PlotItem) -> None:
    """Label a log d_k axis with the head sizes people use, not with powers of ten: all five
    where they fit, fewer on a narrow plot (never "8 64512" run together), again on a resize."""
    box = plot.getViewBox()
    box.sigResized.connect(lambda *_: _fit_dk_ticks(plot))
    box.sigXRangeChanged.connect(lambda *_: _fit_dk_ticks(plot))
    _fit_dk_ticks(plot)


def _fit_dk_ticks(plot: pg.PlotItem) -> None:
    axis, box = plot.getAxis("bottom"), plot.getViewBox()
    (lo, hi), width = box.viewRange()[0], box.width()
    metrics = QFontMetrics(axis.style.get("tickFont") or axis.font())
    gap = metrics.horizontalAdvance("  ")

    def fits(values: Sequence[int]) -> bool:
        if width <= 0 or hi <= lo:
            return True  # not laid out yet: asked again on the resize
        spans = []
        for v in values:
            x = (np.log10(v) - lo) / (hi - lo) * width
            half = metrics.horizontalAdvance(str(v)) / 2
            spans.append((x - half, x + half))
        return all(b[0] - a[1] >= gap for a, b in zip(spans, spans[1:]))

    chosen = next((c for c in _DK_TICK_CHOICES if fits(c)), _DK_TICK_CHOICES[-1])
    ticks = [[(float(np.log10(v)), str(v)) for v in chosen], []]
    if getattr(axis, "_dk_ticks", None) != ticks:  # setTicks redraws the axis
        axis._dk_ticks = ticks
        axis.setTicks(ticks)


class _Series:
    """Items of one scaling's curve: median line, p10/p90 edges, filled band, mean."""

    def __init__(self, plot: pg.PlotItem, scaling: str, with_mean: bool) -> None:
        self.scaling = scaling
        # Sweep curves, redrawn under the moving d_k marker on every frame: kept as pixmaps.
        self.median = add_sweep_series(plot)
        self.low = SweepSeries()
        self.high = SweepSeries()
        self.band = pg.FillBetweenItem(self.low, self.high)
        plot.addItem(self.low)
        plot.addItem(self.high)
        plot.addItem(self.band)
        self.mean = add_sweep_series(plot) if with_mean else None
        self.items = [self.median, self.low, self.high, self.band] + ([self.mean] if self.mean else [])
        self.shown = True
        self.empty = False  # no finite value to draw (pyqtgraph keeps a band's old path then)
        self.drawn: Sweep | None = None  # the sweep these curves show

    def restyle(self, style: Style) -> None:
        colour = style.colour_for(self.scaling)
        # Line style and marker as well as colour: raw and ÷√d_k stay apart in greyscale.
        look = series_look(self.scaling)
        self.median.setPen(style.series_pen(self.scaling, 3.5))
        self.median.setSymbol(look.symbol)
        self.median.setSymbolSize(style.line(2.6) * 3)
        self.median.setSymbolBrush(colour)
        self.median.setSymbolPen(pg.mkPen(style.palette.bg, width=max(1.0, style.line(0.8))))
        for edge in (self.low, self.high):
            edge.setPen(pg.mkPen(faint(colour, 60)))
        self.band.setBrush(faint(colour, 70 if style.theme == "dark" else 45))
        if self.mean is not None:  # dotted: raw's median is already dashed
            pen = style.pen(colour, 2.2)
            set_line_style(pen, pg.QtCore.Qt.PenStyle.DotLine)
            self.mean.setPen(pen)

    def set_visible(self, on: bool) -> None:
        self.shown = on
        for item in self.items:
            item.setVisible(on and not (item is self.band and self.empty))


def curve_note(params: Params) -> str:
    """", τ = 8, ρ = 0.5": what every curve versus d_k is drawn at besides its scaling."""
    parts = []
    if params.temperature != 1.0:
        parts.append(f"τ = {format_number(params.temperature)}")
    if params.alignment > 0.0:
        parts.append(f"ρ = {format_number(params.alignment)}")
    return "".join(f", {part}" for part in parts)


class VersusDk:
    """One log-log plot of a per-row quantity against d_k for raw, ÷√d_k and the current mode."""

    def __init__(self, plot: pg.PlotItem, style: Style, quantity: str, floor: float,
                 y_range: tuple[float, float], with_mean: bool = False, tick_step: int = 3) -> None:
        self.plot, self.quantity, self.floor, self.style_ = plot, quantity, floor, style
        plot.setLogMode(x=True, y=True)
        plot.setXRange(0, np.log10(4096), padding=0.05)  # room for the d_k marker at 1 and at 4096
        set_decade_ticks(plot, *y_range, step=tick_step)
        set_dk_ticks(plot)
        self.with_mean = with_mean
        self.series = {s: _Series(plot, s, with_mean) for s in COMPARED}
        self.other = _Series(plot, OTHER_MODE, with_mean)  # any third mode
        self.other.set_visible(False)
        self.marker = VerticalMarker(plot)  # the current d_k, and a dot where it meets the curve
        # Values below the log axis' floor are drawn on it; this says so where it happens.
        self.below = pg.TextItem(anchor=(1.0, 1.0))
        self.below.setZValue(20)
        plot.addItem(self.below, ignoreBounds=True)
        self.below.hide()
        self.note = ""  # appended to every series name: the parameters the curves differ in
        self._below_text = translate("VersusDk", "▼ on this line: below {floor}")
        self._mean_text = translate("VersusDk", "mean")
        self._other_scaling: str | None = None
        self._sweeps: dict[str, Sweep] | None = None
        self.restyle()

    def set_note(self, note: str) -> bool:
        """Name what the curves are drawn at beyond their scaling (", τ = 8"); True if new."""
        changed = note != self.note
        self.note = note
        return changed

    def restyle(self) -> None:
        s = self.style_
        for series in (*self.series.values(), self.other):
            series.restyle(s)
        self.marker.set_pen(s.pen(s.palette.accent, 2.5))
        self.below.setColor(s.palette.muted)
        self.below.setFont(s.font(11))
        self.marker.set_dot_style(s.line(5) * 3, pg.mkPen(s.palette.fg, width=1.5))

    def table_rows(self, extra: tuple[str, Callable[[Sweep], npt.NDArray[np.float64]]] | None = None,
                   ) -> tuple[tuple[str, ...], tuple[tuple[object, ...], ...]]:
        """(headers, rows) of the drawn sweeps: one row per scaling and d_k. ``extra``:
        (header, function(sweep) -> per-d_k values) for one more column."""
        headers = (translate("VersusDk", "scaling"), "d_k", translate("VersusDk", "median"), "10 %", "90 %") + (
            (self._mean_text,) if self.with_mean else ())
        if extra is not None:
            headers += (extra[0],)
        rows = []
        q = self.quantity
        for scaling, sw in (self._sweeps or {}).items():
            cols = [sw.stat(q, "median"), sw.stat(q, "p10"), sw.stat(q, "p90")]
            if self.with_mean:
                cols.append(sw.stat(q, "mean"))
            if extra is not None:
                cols.append(extra[1](sw))
            for i, d in enumerate(sw.d_k):
                rows.append((SCALING_LABELS[scaling], int(d), *(float(c[i]) for c in cols)))
        return headers, tuple(rows)

    def show_sweeps(self, sweeps: dict[str, Sweep]) -> None:
        self._sweeps = sweeps
        for scaling, sw in sweeps.items():
            series = self.series.get(scaling) or self.other
            self._fill(series, sw)
        third = next((s for s in sweeps if s not in self.series), None)
        if third != self._other_scaling:
            self._other_scaling = third
            self.other.set_visible(third is not None)
        q, floor = self.quantity, self.floor
        under = any(np.nanmin(sw.stat(q, "median"), initial=np.inf) < floor for sw in sweeps.values()
                    if np.isfinite(sw.stat(q, "median")).any())
        self.below.setVisible(under)
        if under:
            self.below.setText(localize_number(self._below_text.format(floor=format_number(floor, ".0e"))))
            self.below.setPos(np.log10(4096), np.log10(floor))

    def key(self) -> list[tuple[str, str, str]]:
        """Colour key entries for the panel title (see Panel.set_key)."""
        s = self.style_
        scalings = [*COMPARED] + ([self._other_scaling] if self._other_scaling else [])
        entries = [s.key_entry(k, SCALING_LABELS[k] + self.note) for k in scalings]
        entries.append((s.palette.muted, "▒", "10–90 %"))
        if self.with_mean:
            entries.append((s.palette.muted, "┈┈", self._mean_text))
        return entries

    def _fill(self, series: _Series, sw: Sweep) -> None:
        if sw is series.drawn:  # sweeps are cached: a page with the same curves gets the same object
            return
        series.drawn = sw
        q = self.quantity
        ok = np.isfinite(sw.stat(q, "median"))  # the gradient is not computed above 1024 keys
        x = sw.d_k.astype(float)[ok]
        series.median.setData(x, clamp_positive(sw.stat(q, "median")[ok], self.floor))
        series.low.setData(x, clamp_positive(sw.stat(q, "p10")[ok], self.floor))
        series.high.setData(x, clamp_positive(sw.stat(q, "p90")[ok], self.floor))
        if series.mean is not None:
            series.mean.setData(x, clamp_positive(sw.stat(q, "mean")[ok], self.floor))
        series.empty = not ok.any()
        series.band.setVisible(series.shown and not series.empty)

    def show_current(self, d_k: int, values: list[tuple[float, str]]) -> None:
        """Marker at the current d_k; one dot per (value, colour)."""
        self.marker.place(np.log10(d_k), [(np.log10(max(v, self.floor)), c) for v, c in values])
