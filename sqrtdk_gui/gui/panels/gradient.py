"""Panel 4: the gradient that reaches a query, ‖∂L/∂q‖, versus d_k."""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.i18n import localize_number
from sqrtdk_gui.gui.panels.base import Panel
from sqrtdk_gui.gui.panels.data_view import Table
from sqrtdk_gui.gui.panels.versus_dk import VersusDk, curve_note
from sqrtdk_gui.gui.plotting.plot_items import add_plot
from sqrtdk_gui.gui.style import Style

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


class GradientPanel(Panel):
    """Median ‖∂L/∂q‖ with its 10–90 % band; the dashed mean shows how rare rows mislead."""

    name = "gradient"
    readout_sample = "median 8.8e-88  10–90 %: 8e-88 … 8e+88  mean 8.8e+88"
    uses_sweeps = True

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(translate("GradientPanel", "4 · Gradient to q ‖∂L/∂q‖"), style, parent)
        # Texts of every frame, in the language of the window (a new language rebuilds it).
        self._readout_text = translate("GradientPanel", "median {median}  10–90 %: {p10} … {p90}  mean {mean}")
        self._streamed_text = translate("GradientPanel", "not computed above 1024 keys (n = {keys}, keys streamed)")
        self.readout_sample = self._readout_text.format(median="8.8e-88", p10="8e-88", p90="8e+88", mean="8.8e+88")
        self.plot = add_plot(self.canvas)
        style.style_plot(self.plot, left="‖∂L/∂q‖", bottom="d_k")
        self.versus = VersusDk(self.plot, style, "grad_q", floor=1e-10, y_range=(1e-10, 1e2),
                               with_mean=True)
        self.values: dict[str, float] = {}
        self.apply_style()

    def plots(self) -> list[pg.PlotItem]:
        return [self.plot]

    def data_tables(self) -> list[Table]:
        headers, rows = self.versus.table_rows()
        return [Table(translate("GradientPanel", "‖∂L/∂q‖ versus d_k"), headers, rows)]

    def restyle_items(self) -> None:
        self.versus.restyle()

    def show_result(self, result: Result, row: int) -> None:
        if self.versus.set_note(curve_note(result.params)):
            self.set_key(self.versus.key())
        s = result.summary["grad_q"]
        self.values = {"median": s.median, "mean": s.mean, "p10": s.p10, "p90": s.p90}
        if result.streamed:  # the gradient needs every key vector: not computed above 1024 keys
            self.readout.setText(self._streamed_text.format(keys=result.params.keys))
            self.versus.show_current(result.params.d_k, [])
            return
        self.readout.setText(localize_number(self._readout_text.format(median=f"{s.median:.1e}", p10=f"{s.p10:.0e}",
                                                       p90=f"{s.p90:.0e}", mean=f"{s.mean:.1e}")))
        self.versus.show_current(result.params.d_k,
                                 [(s.median, self.style_.colour_for(result.params.scaling))])

    def show_sweeps(self, sweeps: dict[str, Any]) -> None:
        self.versus.show_sweeps(sweeps)
        self.set_key(self.versus.key())
