"""Panel 3: the current row's softmax Jacobian, and ‖J‖_F and saturation versus d_k."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from sqrtdk_gui.model import Result
from sqrtdk_gui.panels.base import Panel
from sqrtdk_gui.panels.style import Style, colour_for
from sqrtdk_gui.panels.versus_dk import VersusDk, set_dk_ticks
from sqrtdk_gui.plotdata import top_block
from sqrtdk_gui.softmax_math import jacobian_matrix

TOP_KEYS = 12  # the block on the largest weights: where J lives, readable from the back
# Fixed colour levels make the collapse visible as white. |J_ij| <= 1/4 always; ±0.1 keeps
# a healthy ÷√d_k row (p_max ~ 0.1, J_ii ~ 0.09) clearly coloured.
LEVEL = 0.1
# Sign of J_ij (diagonal positive, off-diagonal negative): brown - white - teal, a scale no
# other meaning uses.
_CMAP = pg.ColorMap([0.0, 0.5, 1.0], ["#8C510A", "#FFFFFF", "#01665E"])


class JacobianPanel(Panel):
    """Heat map of J = diag(p) − ppᵀ on the top keys; median ‖J‖_F and saturation vs d_k."""

    def __init__(self, style: Style, parent=None) -> None:
        super().__init__("3 · Jacobian diag(p) − ppᵀ", style, parent)
        # The heat map gets its own canvas: a widget layout keeps the 2:3 split at any size.
        self.heat_canvas = pg.GraphicsLayoutWidget()
        self.heat_canvas.setBackground("w")
        self.body.insertWidget(0, self.heat_canvas, 2)
        self.body.setStretch(1, 3)
        self.heat_plot = self.heat_canvas.addPlot()
        style.style_plot(self.heat_plot)
        for axis in ("left", "bottom"):  # key indices carry no meaning; give the map the room
            self.heat_plot.hideAxis(axis)
        self.heat_plot.getViewBox().setBorder(pg.mkPen("#888888", width=1))
        self.heat_plot.setTitle(f"J, top {TOP_KEYS} keys", size=f"{style.pt(12)}pt")
        self.heat_plot.invertY(True)
        self.heat_plot.setAspectLocked(True)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setLookupTable(_CMAP.getLookupTable(nPts=256))
        self.heat_plot.addItem(self.image)
        self.collapsed = pg.TextItem(anchor=(0.5, 0.5))  # a white map must not look broken
        self.collapsed.setZValue(10)
        self.heat_plot.addItem(self.collapsed)
        self.colorbar = pg.ColorBarItem(values=(-LEVEL, LEVEL), colorMap=_CMAP, interactive=False,
                                        width=style.line(5))
        self.colorbar.setImageItem(self.image, insert_in=self.heat_plot)
        self.colorbar.getAxis("right").setTicks([[(v, f"{v:+.1f}" if v else "0") for v in (-LEVEL, 0.0, LEVEL)]])

        self.norm_plot = self.canvas.addPlot(row=0, col=0)
        style.style_plot(self.norm_plot, left="‖J‖_F")
        self.versus = VersusDk(self.norm_plot, style, "jacobian_fro", floor=1e-12, y_range=(1e-12, 1.0))
        self.sat_plot = self.canvas.addPlot(row=1, col=0)
        style.style_plot(self.sat_plot, left="saturated %", bottom="d_k")
        self.sat_plot.setLogMode(x=True, y=False)
        self.sat_plot.setXLink(self.norm_plot)
        self.sat_plot.setYRange(0, 100, padding=0)
        set_dk_ticks(self.sat_plot)
        self.sat_curves = {s: self.sat_plot.plot(pen=style.pen(colour_for(s), 3)) for s in ("none", "sqrt_dk", "dk")}
        self.sat_marker = pg.InfiniteLine(angle=90, movable=False, pen=style.pen("#009E73", 2.5))
        self.sat_plot.addItem(self.sat_marker)
        layout = self.canvas.ci.layout
        layout.setRowStretchFactor(0, 7)
        layout.setRowStretchFactor(1, 3)
        self.values: dict[str, float] = {}

    def show_result(self, result: Result, row: int) -> None:
        p = result.params
        row = min(row, p.queries - 1)
        k = min(TOP_KEYS, p.keys)
        block, _ = top_block(jacobian_matrix(result.p[row]), result.p[row], k)
        self.image.setImage(block, levels=(-LEVEL, LEVEL), autoLevels=False)
        self.image.setRect(0, 0, k, k)
        self.heat_plot.setRange(xRange=(0, k), yRange=(0, k), padding=0)
        largest = float(np.abs(block).max())
        self.collapsed.setVisible(largest < 1e-3)
        if largest < 1e-3:
            self.collapsed.setHtml(
                f"<div style='background:rgba(255,255,255,220); color:#1A1A1A; "
                f"font-size:{self.style_.pt(14)}pt; padding:4px; text-align:center'>"
                f"J ≈ 0<br/>max |J_ij|<br/>{largest:.0e}</div>")
            self.collapsed.setPos(k / 2, k / 2)
        fro = float(result.jacobian_fro[row])
        median = result.summary["jacobian_fro"].median
        self.values = {"row_fro": fro, "median_fro": median, "saturated": result.saturated_fraction}
        self.readout.setText(
            f"query {row}: ‖J‖_F <b>{fro:.1e}</b> &nbsp; median <b>{median:.1e}</b> &nbsp; "
            f"saturated <b>{100 * result.saturated_fraction:.0f} %</b>")
        self.versus.show_current(p.d_k, [(median, colour_for(p.scaling))])
        self.sat_marker.setValue(np.log10(p.d_k))

    def show_sweeps(self, sweeps: dict) -> None:
        self.versus.show_sweeps(sweeps)
        self.set_key(self.versus.key())
        for scaling, curve in self.sat_curves.items():
            curve.setVisible(False)
        for scaling, sw in sweeps.items():
            curve = self.sat_curves.get(scaling, self.sat_curves["dk"])
            curve.setData(sw.d_k.astype(float), 100 * sw.saturated_fraction)
            curve.setVisible(True)
