"""Panel 1: the logits' histogram, their exact density (variance-gamma; QK-norm: a scaled
cosine law), ±σ and a ghost of the other scaling."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import cast

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from sqrtdk_gui.core.attention.plotdata import SteadyRange, density_histogram, nice_ceiling
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.attention.scaling import comparison_scaling
from sqrtdk_gui.core.cache import BoundedCache
from sqrtdk_gui.core.i18n import localize_number
from sqrtdk_gui.gui.panels.base import Panel
from sqrtdk_gui.gui.panels.data_view import Table
from sqrtdk_gui.gui.panels.versus_dk import curve_note
from sqrtdk_gui.gui.plotting.fast_items import FastCurve, VerticalMarker
from sqrtdk_gui.gui.plotting.plot_items import add_plot
from sqrtdk_gui.gui.style import SCALING_LABELS, Style, faint, series_look

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "HistogramPanel"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

BINS = 61
# Binned results kept by the panel (a drag back over d_k shows the same results again).
BIN_CACHE = 8
# The title names what is drawn, never what it shows: a title such as "raw logits spread
# like √d_k" would answer the lesson's first question while it is open.
TITLES = {"none": QT_TRANSLATE_NOOP("HistogramPanel", "1 · Logit histogram (raw)"),
          "sqrt_dk": QT_TRANSLATE_NOOP("HistogramPanel", "1 · Logit histogram (÷ √d_k)")}
DEFAULT_TITLE = QT_TRANSLATE_NOOP("HistogramPanel", "1 · Logit histogram (the softmax input)")


class HistogramPanel(Panel):
    """Current logits as a density histogram; their exact density dashed on top."""

    name = "histogram"
    readout_sample = "σ = 8888.88  (theory 8888.88)   √d_k = 64.00"

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        # Texts of every frame, in the language of the window (a new language rebuilds it).
        self._titles = {key: translate("HistogramPanel", title) for key, title in TITLES.items()}
        self._default_title = translate("HistogramPanel", DEFAULT_TITLE)
        self._readout_text = translate("HistogramPanel", "σ = {sigma}  (theory {theory})   √d_k = {sqrt_dk}")
        self._no_theory = translate("HistogramPanel", "n/a")
        self._theory_key = translate("HistogramPanel", "theory")
        self._ghost_key = translate("HistogramPanel", "{scaling} (ghost)")
        self._ghost_clipped_text = translate("HistogramPanel", "ghost ↑ {peak}")
        self._beyond_text = translate("HistogramPanel", "{share} % of logits beyond ±{half} →")
        self._axis_text = translate("HistogramPanel", "logit z")
        self._axis_sampled_text = translate("HistogramPanel", "logit z (first {shown} of {rows} queries)")
        super().__init__(self._titles["none"], style, parent)
        self.covered_title = self._default_title
        self.readout_sample = self._readout_text.format(sigma="8888.88", theory="8888.88", sqrt_dk="64.00")
        # (id(result), half) -> (weakref, bins: edges, density, ghost density, theory x and pdf)
        self._bins: BoundedCache[tuple[int, float], tuple[weakref.ref[Result], tuple[
            np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]]] = BoundedCache(BIN_CACHE)
        self.plot = add_plot(self.canvas)
        style.style_plot(self.plot, left=translate("HistogramPanel", "density"), bottom=self._axis_text)
        # Step outlines are axis-aligned: antialiasing would cost a third of the frame for
        # no visible difference. Curves drawn by Qt from paths (FastCurve): all three change
        # on every frame of a drag, and pyqtgraph's curve items spent ≈ 0.3 ms of Python on them.
        box = self.plot.getViewBox()
        self.ghost = FastCurve(box, steps=True, antialias=False)
        self.bars = FastCurve(box, steps=True, antialias=False)
        self.theory = FastCurve(box)
        # The y axis follows the current logits; a taller ghost is cut at the top and says so.
        self.ghost_clipped = pg.TextItem(anchor=(0.5, 0.0))
        self.ghost_clipped.setZValue(10)
        for item in (self.ghost, self.bars, self.theory):
            self.plot.addItem(item, ignoreBounds=True)  # the panel sets the ranges
        self.plot.addItem(self.ghost_clipped)
        # With a fixed axis (the lesson, autoplay) logits may fall beyond its ends: say how many.
        self.beyond = pg.TextItem(anchor=(1.0, 0.0))
        self.beyond.setZValue(10)
        self.plot.addItem(self.beyond)
        self.beyond.hide()
        self._fixed_half: float | None = None
        # ±σ: Qt's own line items, placed after the y range (InfiniteLines cost 3 % of a frame)
        self.sigma_lines = [VerticalMarker(self.plot) for _ in range(2)]
        for marker in self.sigma_lines:
            marker.line.setZValue(5)  # over the curves, under the "ghost ↑" note
        self._x_range = SteadyRange()
        self._y_range = SteadyRange(shrink_below=0.4)
        self._scaling: str | None = None
        self._note = ""
        self._sampled: tuple[int, int] | None = None  # (shown rows, rows) when the histogram bins the first rows only
        self._drawn: tuple[Result, str, np.ndarray, np.ndarray, np.ndarray] | None = None
        self.values: dict[str, float] = {}
        self.apply_style()

    def set_fixed_half(self, half: float | None) -> None:
        """Hold the logit axis at ±half (rounded up to a round number) instead of following σ,
        so a widening distribution visibly widens; None: follow σ again."""
        self._fixed_half = None if half is None else nice_ceiling(half)
        self._x_range = SteadyRange()  # the next result sets the axis either way
        self.refresh()

    @property
    def fixed_half(self) -> float | None:
        return self._fixed_half

    def plots(self) -> list[pg.PlotItem]:
        return [self.plot]

    def data_tables(self) -> list[Table]:
        if self._drawn is None:
            return []
        result, ghost, edges, density, ghost_density = self._drawn
        centres = 0.5 * (edges[:-1] + edges[1:])
        pdf = result.theory_pdf(centres)
        label = SCALING_LABELS[result.params.scaling]
        rows = tuple((float(a), float(b), float(d), float(g), None if pdf is None else float(t))
                     for a, b, d, g, t in zip(edges[:-1], edges[1:], density, ghost_density,
                                              pdf if pdf is not None else density))
        return [Table(translate("HistogramPanel", "histogram"),
                      (translate("HistogramPanel", "logit from"), translate("HistogramPanel", "logit to"),
                       translate("HistogramPanel", "density, {scaling}").format(scaling=label),
                       translate("HistogramPanel", "density, {scaling} (ghost)").format(scaling=SCALING_LABELS[ghost]),
                       translate("HistogramPanel", "theory density at bin centre")),
                      rows)]

    def restyle_items(self) -> None:
        self.theory.setPen(self.style_.pen(self.style_.palette.fg, 3, dashed=True))
        self._scaling = None  # the scaling colours follow on the next result

    def _recolour(self, scaling: str) -> None:
        s = self.style_
        colour, ghost = s.colour_for(scaling), comparison_scaling(scaling)
        # Outlines in the scaling's line style (raw dashed, ÷√d_k solid): never colour alone.
        self.bars.setPen(s.series_pen(scaling, 2.5))
        self.bars.setBrush(faint(colour, 90))
        g = s.colour_for(ghost)
        self.ghost.setPen(s.series_pen(ghost, 1.5, colour=faint(g, 150)))
        self.ghost.setBrush(faint(g, 35))
        for line in self.sigma_lines:
            line.set_pen(s.pen(colour, 2, dashed=True))
        self.set_title(self._titles.get(scaling, self._default_title))
        self.ghost_clipped.setColor(s.palette.muted)
        self.ghost_clipped.setFont(s.font(11))
        self.beyond.setColor(s.palette.fg)
        self.beyond.setFont(s.font(12, bold=True))
        self._scaling = scaling

    def _show_key(self, scaling: str, note: str) -> None:
        """The key names the scalings and the τ and ρ the picture is drawn at (the note
        changes in every frame of a temperature drag; the colours only with the scaling)."""
        s = self.style_
        colour, ghost = s.colour_for(scaling), comparison_scaling(scaling)
        bar, ghost_line = series_look(scaling).line, series_look(ghost).line
        self.set_key([(colour, f"█{bar}", SCALING_LABELS[scaling] + note), (s.palette.fg, "╍", self._theory_key),
                      (s.colour_for(ghost), f"░{ghost_line}",
                       self._ghost_key.format(scaling=SCALING_LABELS[ghost] + note))])
        self._note = note

    def show_result(self, result: Result, row: int) -> None:
        p = result.params
        note = curve_note(p)  # the key names the τ and ρ the picture is drawn at
        if p.scaling != self._scaling:
            self._recolour(p.scaling)
            self._show_key(p.scaling, note)
        elif note != self._note:
            self._show_key(p.scaling, note)
        sigma = result.logit_std
        need = 4.0 * max(sigma, 1e-6)
        if p.alignment > 0.0:  # the aligned keys' logits sit far out (≈ 7σ in the μP preset)
            need = max(need, 1.05 * float(np.abs(result.logits).max()))
        if self._fixed_half is not None:
            half, x_changed = self._fixed_half, self._x_range.limit != self._fixed_half
            self._x_range.limit = half
        else:
            half, x_changed = self._x_range.update(need)
        key = (id(result), half)
        cached = self._bins.get(key)  # the same result again (a drag back): the same bins
        memo = cached[1] if cached is not None and cached[0]() is result else None
        if memo is None:
            # The ghost: the same vectors' logits under the other scaling (computed by the model).
            _, ghost_logits = result.comparison
            memo = (
                *density_histogram(result.logits.ravel(), half, BINS),
                density_histogram(ghost_logits.ravel(), half, BINS)[1],
                # exact law; None for a mixture (aligned queries). An even count of points:
                # none at 0, where the density at d_k = 1 is infinite.
                *result.theory_curve(half, 240))
            self._bins.put(key, (weakref.ref(result), memo))
        edges, density, ghost_density, x, pdf = memo
        self.bars.setData(edges, density)
        self.ghost.setData(edges, ghost_density)
        self._drawn = (result, comparison_scaling(p.scaling), edges, density, ghost_density)
        self.theory.setVisible(pdf is not None)
        if pdf is None:
            pdf = density
        else:
            self.theory.setData(x, pdf)
        top, y_changed = self._y_range.update(1.12 * max(density.max(), pdf.max()))
        if x_changed:
            self.plot.setXRange(-half, half, padding=0)
        if y_changed:
            self.plot.setYRange(0, top, padding=0)
        self.sigma_lines[0].place(-sigma)  # across the y range just set
        self.sigma_lines[1].place(sigma)
        ghost_peak = float(ghost_density.max())
        clipped = ghost_peak > top
        self.ghost_clipped.setVisible(clipped)
        if clipped:
            x_peak = 0.5 * (edges[:-1] + edges[1:])[int(np.argmax(ghost_density))]
            self.ghost_clipped.setText(localize_number(self._ghost_clipped_text.format(peak=f"{ghost_peak:.2f}")))
            self.ghost_clipped.setPos(x_peak, top)
        self._show_beyond(result.logits, half, top)
        sampled = (result.shown_rows, result.rows) if result.rows_sampled_for_display else None
        if sampled != self._sampled:  # the axis title says so (changed only when this does)
            self._sampled = sampled
            bottom = self._axis_text if sampled is None else self._axis_sampled_text.format(
                shown=f"{sampled[0]:,}", rows=f"{sampled[1]:,}")
            self.style_.style_plot(self.plot, bottom=bottom)
        sqrt_dk = np.sqrt(p.d_k)
        theory_text = f"{result.theory_std:.2f}" if np.isfinite(result.theory_std) else self._no_theory
        self.values = {"sigma": sigma, "theory": result.theory_std, "sqrt_dk": sqrt_dk}
        self.readout.setText(localize_number(self._readout_text.format(sigma=f"{sigma:.2f}", theory=theory_text,
                                                       sqrt_dk=f"{sqrt_dk:.2f}")))

    def _show_beyond(self, logits: np.ndarray, half: float, top: float) -> None:
        """"12 % of logits beyond ±90 →" when the held axis cuts the distribution off."""
        if self._fixed_half is None:
            self.beyond.hide()
            return
        share = float(np.count_nonzero(np.abs(logits) > half)) / max(logits.size, 1)
        self.beyond.setVisible(share >= 0.005)
        if share >= 0.005:
            self.beyond.setText(localize_number(self._beyond_text.format(share=f"{100 * share:.0f}", half=f"{half:g}")))
            self.beyond.setPos(half, top)
