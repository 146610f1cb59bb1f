"""Panel 1: the logits' histogram, the theoretical normal density, ±σ and a ghost."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from sqrtdk_gui.core.model import Result, comparison_scaling
from sqrtdk_gui.gui.panels.base import Panel
from sqrtdk_gui.gui.style import SCALING_LABELS, Style, faint, quiet_viewbox
from sqrtdk_gui.core.plotdata import SteadyRange, density_histogram, normal_pdf

BINS = 61


class HistogramPanel(Panel):
    """Current logits as a density histogram; theory N(0, σ²) dashed on top."""

    name = "histogram"

    def __init__(self, style: Style, parent=None) -> None:
        super().__init__("1 · Logits spread like √d_k", style, parent)
        self.plot = self.canvas.addPlot(viewBox=quiet_viewbox())
        style.style_plot(self.plot, left="density", bottom="logit z")
        # Step outlines are axis-aligned: antialiasing would cost a third of the frame for
        # no visible difference.
        self.ghost = pg.PlotDataItem(stepMode="center", fillLevel=0, antialias=False)
        self.bars = pg.PlotDataItem(stepMode="center", fillLevel=0, antialias=False)
        self.theory = pg.PlotDataItem()
        self.sigma_lines = [pg.InfiniteLine(angle=90, movable=False) for _ in range(2)]
        for item in (self.ghost, self.bars, self.theory, *self.sigma_lines):
            self.plot.addItem(item)
        self._x_range = SteadyRange()
        self._y_range = SteadyRange(shrink_below=0.4)
        self._scaling = None
        self.values: dict[str, float] = {}
        self.apply_style()

    def plots(self) -> list[pg.PlotItem]:
        return [self.plot]

    def restyle_items(self) -> None:
        self.theory.setPen(self.style_.pen(self.style_.palette.fg, 3, dashed=True))
        self._scaling = None  # the scaling colours follow on the next result

    def _recolour(self, scaling: str) -> None:
        s = self.style_
        colour, ghost = s.colour_for(scaling), comparison_scaling(scaling)
        self.bars.setPen(s.pen(colour, 2.5))
        self.bars.setBrush(faint(colour, 90))
        g = s.colour_for(ghost)
        self.ghost.setPen(pg.mkPen(faint(g, 110), width=s.line(1.5)))
        self.ghost.setBrush(faint(g, 35))
        for line in self.sigma_lines:
            line.setPen(s.pen(colour, 2, dashed=True))
        self.set_key([(colour, "█", SCALING_LABELS[scaling]), (s.palette.fg, "╍", "theory"),
                      (g, "░", f"{SCALING_LABELS[ghost]} (ghost)")])
        self._scaling = scaling

    def show_result(self, result: Result, row: int) -> None:
        p = result.params
        if p.scaling != self._scaling:
            self._recolour(p.scaling)
        # The ghost: the same vectors' logits under the other scaling (computed by the model).
        _, ghost_logits = result.comparison
        sigma = result.logit_std
        theory = result.theory_std if np.isfinite(result.theory_std) else sigma
        half, x_changed = self._x_range.update(4.0 * max(sigma, 1e-6))
        edges, density = density_histogram(result.logits.ravel(), half, BINS)
        _, ghost_density = density_histogram(ghost_logits.ravel(), half, BINS)
        self.bars.setData(edges, density)
        self.ghost.setData(edges, ghost_density)
        x = np.linspace(-half, half, 241)
        # Aligned queries make a mixture, not a normal: no honest curve to draw then.
        normal = bool(p.alignment == 0.0 and np.isfinite(result.theory_std))
        pdf = density
        if theory > 0:  # QK-norm with full alignment at d_k = 1 can make every logit equal
            pdf = normal_pdf(x, theory)
            self.theory.setData(x, pdf)
        self.theory.setVisible(normal)
        if not normal:
            pdf = density
        self.sigma_lines[0].setValue(-sigma)
        self.sigma_lines[1].setValue(sigma)
        top, y_changed = self._y_range.update(1.12 * max(density.max(), pdf.max()))
        if x_changed:
            self.plot.setXRange(-half, half, padding=0)
        if y_changed:
            self.plot.setYRange(0, top, padding=0)
        sqrt_dk = np.sqrt(p.d_k)
        theory_text = f"{result.theory_std:.2f}" if np.isfinite(result.theory_std) else "n/a"
        self.values = {"sigma": sigma, "theory": result.theory_std, "sqrt_dk": sqrt_dk}
        self.readout.setText(
            f"σ = {sigma:.2f}  (theory {theory_text})   √d_k = {sqrt_dk:.2f}")
