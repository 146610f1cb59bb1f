"""The training lab's views: loss, accuracy and stuck-row curves, and the results table.

Every plot item is created once; runs only call ``setData``. Curves are indexed by step
(step i = batch i, measured before update i), one colour per scaling as everywhere else.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import cast

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from sqrtdk_gui.core.i18n import _, format_number, localize_number
from sqrtdk_gui.core.training.loop import SATURATION, WINDOW, TrainResult
from sqrtdk_gui.gui.lab.controls import LAB_LABELS, LAB_SCALINGS
from sqrtdk_gui.gui.panels.base import PlotFrame
from sqrtdk_gui.gui.plotting.fit import SMALLEST, fit_line_labels, fit_words, shrunk
from sqrtdk_gui.gui.plotting.plot_items import add_plot, keep_step_ticks
from sqrtdk_gui.gui.style import Style, set_line_style

__all__ = ["fit_heading", "CurvePanel", "ScalingTable", "ResultsTable", "fmt_loss", "fmt_accuracy", "fmt_steps",
           "fmt_stuck", "TARGET_ACCURACY"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "LabPlots"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

TARGET_ACCURACY = 0.9
LOG_FLOOR, LOG_CEILING = -6, 4  # shown decades of a log-scale plot: 1e-6 … 1e4
X_PAD = 0.05  # room for the tick labels of step 0 and of the last step


def fmt_loss(x: float) -> str:
    if not math.isfinite(x):
        return "–"
    if abs(x) >= 0.01:
        return f"{x:.3g}"
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"  # 2.8e-4, not 2.8e-04: narrower, same number


def fmt_accuracy(x: float) -> str:
    return f"{x:.3f}" if math.isfinite(x) else "–"


def fmt_stuck(x: float) -> str:
    return f"{100 * x:.1f} %" if math.isfinite(x) else "–"


def fmt_steps(n: int | None, finished: bool = True) -> str:
    if n is not None:
        return str(n)
    return translate("LabPlots", "not reached") if finished else translate("LabPlots", "not yet")


class CurvePanel(PlotFrame):
    """One metric against training step, one curve per scaling.

    Theme and zoom come from ``style_`` at every ``apply_style()`` (PlotFrame's protocol).
    """

    def __init__(self, title: str, metric: str, style: Style, ylabel: str, subtitle: str = "",
                 log_y: bool = False, y_range: tuple[float, float] | None = None,
                 factor: float = 1.0, step_label: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(title, style, parent)
        self.metric_name = metric
        self.factor = factor  # shown value = factor * metric (100 for a percentage)
        self.heading = title
        self.subtitle = subtitle
        self.plot = add_plot(self.canvas)
        style.style_plot(self.plot, left=ylabel, bottom=translate("LabPlots", "step") if step_label else "")
        for name in ("left", "bottom"):  # show the labels at the ends of fixed ranges too
            self.plot.getAxis(name).setStyle(hideOverlappingLabels=False)
        self.plot.setLogMode(y=log_y)
        self.log_y = log_y
        self._decades: dict[str, tuple[float, float]] = {}  # per curve: log10 min, max shown
        self._shown_decades: tuple[int, int] | None = None
        if log_y:
            # Whole decades, set here rather than by autorange: a raw head saturated on the
            # right key drives its MSE to 1e-20 and below, which would squash the decades
            # where the runs differ. The axis only moves when a curve crosses a decade.
            self.plot.enableAutoRange(axis="y", enable=False)
            self.plot.setYRange(-3, 1, padding=0.02)
        if y_range is not None:
            self.plot.setYRange(*y_range, padding=0.06)
            self.plot.enableAutoRange(axis="y", enable=False)
        self.plot.setXRange(0, 400, padding=X_PAD)
        self.plot.enableAutoRange(axis="x", enable=False)
        keep_step_ticks(self.plot)
        self.curves = {s: self.plot.plot(name=_(LAB_LABELS[s])) for s in LAB_SCALINGS}
        for z, s in enumerate(("qk_norm", "none", "sqrt_dk")):  # blue on top, purple below
            self.curves[s].setZValue(10 + z)
        self.levels: list[tuple[pg.InfiniteLine, str, bool]] = []  # line, palette role, dotted
        # One line of heading: the title and, muted, what exactly is plotted. The page shows
        # the colour key once (the results table), so the panels need neither readout nor key.
        self.readout_slot.hide()
        self.key.hide()
        self.apply_style()

    def plots(self) -> list[pg.PlotItem]:
        return [self.plot]

    def restyle_items(self) -> None:
        s = self.style_
        for scaling, curve in self.curves.items():
            curve.setPen(s.series_pen(scaling, 3))  # colour and line style: never colour alone
        for line, role, dotted in self.levels:
            colour = getattr(s.palette, role)
            pen = s.pen(colour, 2, dashed=True)
            if dotted:
                set_line_style(pen, Qt.PenStyle.DotLine)
            line.setPen(pen)
            if line.label is not None:
                line.label.setColor(colour)
        self._fit_level_labels()
        self.set_subtitle(self.subtitle)

    def _fit_level_labels(self, *_args: object) -> None:
        fit_line_labels(self.plot.getViewBox(), [line.label for line, _r, _d in self.levels if line.label is not None],
                        self.style_.font(12, bold=True))

    def set_subtitle(self, text: str) -> None:
        """The muted words after the title; dropped (kept as tooltip) when they would clip."""
        self.subtitle = text
        fit_heading(self, self.heading, text,
                    translate("LabPlots", "{title}: {subtitle}").format(title=self.heading, subtitle=text))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.set_subtitle(self.subtitle)

    def add_level(self, y: float, role: str = "fg", dotted: bool = False,
                  label: str = "") -> pg.InfiniteLine:
        """A horizontal reference line in a palette colour (dashed or dotted), maybe labelled."""
        line = pg.InfiniteLine(pos=y, angle=0)
        line.label = None
        if label:  # right-aligned just under the line: the good curves run above it
            line.label = pg.InfLineLabel(line, text=label, position=0.99,
                                         anchors=[(1, 0), (1, 0)])
        line.setZValue(5)
        self.plot.addItem(line)
        if not self.levels:  # the room for the labels changes with the plot
            self.plot.getViewBox().sigResized.connect(self._fit_level_labels)
        self.levels.append((line, role, dotted))
        self.restyle_items()
        return line

    def clear_curves(self, steps: int) -> None:
        for curve in self.curves.values():
            curve.setData([], [])
        self._decades.clear()
        self.plot.setXRange(0, steps, padding=X_PAD)

    def show_curve(self, scaling: str, values: np.ndarray) -> None:
        y = values if self.factor == 1.0 else self.factor * values
        self.curves[scaling].setData(np.arange(values.size), y)
        if self.log_y:
            self._fit_decades(scaling, y)

    def _fit_decades(self, scaling: str, y: np.ndarray) -> None:
        positive = y[np.isfinite(y) & (y > 0)]
        if positive.size == 0:
            return
        self._decades[scaling] = (float(np.log10(positive.min())), float(np.log10(positive.max())))
        lo = max(LOG_FLOOR, math.floor(min(d[0] for d in self._decades.values())))
        hi = min(LOG_CEILING, math.ceil(max(d[1] for d in self._decades.values())))
        hi = max(hi, lo + 1)
        if (lo, hi) != self._shown_decades:
            self._shown_decades = (lo, hi)
            self.plot.setYRange(lo, hi, padding=0.02)


def fit_heading(panel: PlotFrame, heading: str, subtitle: str, tooltip: str) -> None:
    """A lab panel's title: the heading and, muted, a subtitle; the subtitle is dropped (the
    tooltip keeps it) if it would clip, and a heading wider than the plot (a long language)
    takes a second line."""
    s = panel.style_
    panel.title.setToolTip(tooltip)
    bold = QFontMetrics(s.font(15, bold=True))
    room = panel.title.width() - 4
    needed = bold.horizontalAdvance(heading + "  ") + QFontMetrics(s.font(12)).horizontalAdvance(subtitle)
    if not subtitle or needed > room:
        panel.title.setText(heading)
        panel.title.setWordWrap(bold.horizontalAdvance(heading) > room)
        return
    panel.title.setWordWrap(False)
    panel.title.setText(f"{heading} <span style='font-weight:normal; color:{s.palette.muted}; "
                        f"font-size:{s.pt(12)}pt'>&nbsp;{subtitle}</span>")


class _Cell(QLabel):
    """A table cell in its column's font, or smaller (to SMALLEST of it) while its text
    (a wrapping cell: its widest word) is wider than the column: a status in a long
    language ("en espera", "step 120/400") is never cut. Refitted when its text or width
    changes."""

    def __init__(self, text: str, wrap: bool) -> None:
        super().__init__(text)
        self.setWordWrap(wrap)
        self._base: QFont | None = None

    def set_base_font(self, font: QFont) -> None:
        self._base = QFont(font)
        self._fit()

    def setText(self, text: str) -> None:  # noqa: N802 - Qt API
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        if self._base is None:
            return
        if self.wordWrap():
            fit_words(self, self._base)
            return
        fitted = shrunk(self._base, [self.text()], self.contentsRect().width())
        if fitted != self.font():
            self.setFont(fitted)


class ScalingTable(QFrame):
    """A row per lab scaling under a header of columns, and a verdict line below.

    The coloured scaling names double as the colour key of the plots below. Subclasses give
    the columns (``COLUMNS``, ``TIPS``, ``STRETCH``, marked with ``QT_TRANSLATE_NOOP``) and
    their translation (``_translate``), and may restyle a cell (``_cell_font``, ``_cell_colour``).
    """

    COLUMNS: tuple[tuple[str, str], ...] = ()
    TIPS: dict[str, str] = {}
    STRETCH: dict[str, int] = {}  # column stretch by key; ``DEFAULT_STRETCH`` otherwise
    DEFAULT_STRETCH = 4
    NAME_STRETCH = 6  # the scaling-name column
    WRAP: tuple[str, ...] = ()  # columns whose cells wrap
    VERDICT_PT = 14

    def __init__(self, style: Style, name: str, cell_prefix: str, verdict_name: str,
                 verdict_tip: str, corner_tip: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.style_ = style
        self.setObjectName(name)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 4, 10, 4)
        outer.setSpacing(2)
        self._grid = grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(0)
        self.corner = QLabel(translate("LabPlots", "scaling"))
        if corner_tip:
            self.corner.setToolTip(corner_tip)
        grid.addWidget(self.corner, 0, 0)
        self.headers: dict[str, QLabel] = {}
        for col, (key, text) in enumerate(self.COLUMNS, start=1):
            header = QLabel(self._translate(text))
            header.setToolTip(self._translate(self.TIPS[key]))
            header.setAlignment(Qt.AlignmentFlag.AlignCenter)
            header.setWordWrap(True)
            grid.addWidget(header, 0, col)
            grid.setColumnStretch(col, self.STRETCH.get(key, self.DEFAULT_STRETCH))
            self.headers[key] = header
        grid.setColumnStretch(0, self.NAME_STRETCH)
        self.names: dict[str, QLabel] = {}
        self.cells: dict[str, dict[str, _Cell]] = {}
        self._in_run: set[str] = set(LAB_SCALINGS)
        self.compact = False  # the verdict line alone (set_compact)
        for row, s in enumerate(LAB_SCALINGS, start=1):
            label = QLabel(_(LAB_LABELS[s]))
            label.setWordWrap(True)  # "logits sin escalar" takes two lines in a narrow table
            grid.addWidget(label, row, 0)
            self.names[s] = label
            self.cells[s] = {}
            for col, (key, _text) in enumerate(self.COLUMNS, start=1):
                cell = _Cell("–", wrap=key in self.WRAP)
                cell.setObjectName(f"{cell_prefix}_{s}_{key}")
                cell.setAlignment(Qt.AlignmentFlag.AlignCenter)
                cell.setToolTip(self._translate(self.TIPS[key]))
                grid.addWidget(cell, row, col)
                self.cells[s][key] = cell
        outer.addLayout(grid)
        self.verdict = QLabel()
        self.verdict.setObjectName(verdict_name)
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        self.verdict.setToolTip(verdict_tip)
        outer.addWidget(self.verdict)
        labels = [self.corner, self.verdict, *self.headers.values(), *self.names.values(),
                  *(c for d in self.cells.values() for c in d.values())]
        for label in labels:  # long texts wrap or clip; they never widen the window
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.apply_style()

    def set_compact(self, on: bool) -> None:
        """The verdict line alone (a projected page too short for the table and two rows of
        plots), or the whole table."""
        self.compact = on
        self.corner.setVisible(not on)
        for header in self.headers.values():
            header.setVisible(not on)
        for s in LAB_SCALINGS:
            shown = not on and self._row_shown(s)
            self.names[s].setVisible(shown)
            for cell in self.cells[s].values():
                cell.setVisible(shown)

    def _row_shown(self, scaling: str) -> bool:
        """Whether a scaling's row is shown in the whole table (all of them, greyed when not run)."""
        return True

    def _translate(self, text: str) -> str:
        """A column's header or tip in the current language (the subclass's context)."""
        return text

    def _cell_font(self, key: str) -> QFont:
        return self.style_.font(14, bold=True)

    def _cell_colour(self, scaling: str, key: str) -> str:
        return self.style_.palette.fg

    def apply_style(self) -> None:
        s, p = self.style_, self.style_.palette
        self.setStyleSheet(f"QFrame#{self.objectName()} {{ background: {p.strip}; border-radius: 6px; }}")
        self.corner.setFont(s.font(12))
        self.verdict.setFont(s.font(self.VERDICT_PT))
        self.verdict.setStyleSheet(f"color: {p.fg};")
        for label in (self.corner, *self.headers.values()):
            label.setStyleSheet(f"color: {p.muted};")
        for scaling, name in self.names.items():
            colour = s.colour_for(scaling) if scaling in self._in_run else p.muted
            name.setStyleSheet(f"color: {colour};")
            for key, cell in self.cells[scaling].items():
                cell.set_base_font(self._cell_font(key))
                cell.setStyleSheet(f"color: {self._cell_colour(scaling, key)};")
        self._fit_words()

    def _fit_words(self) -> None:
        """Headers and names a size smaller where a word is wider than its column (a narrow
        window, a long language): they wrap between words, never inside one."""
        s = self.style_
        # Columns closer together first where a header's word does not fit (8 px less room
        # between each pair of columns gives a long language's headers their room back).
        spacing = 12 if all(shrunk(s.font(12), h.text().split(), h.contentsRect().width()) == s.font(12)
                            for h in self.headers.values()) else 4
        if self._grid.horizontalSpacing() != spacing:
            self._grid.setHorizontalSpacing(spacing)
        # No column narrower than its header's widest word at the smallest size fit_words
        # goes to: the stretch shares out the rest (a long "final accuracy" takes some of a
        # roomy column's room instead of being cut).
        smallest = QFont(s.font(12))
        smallest.setPointSizeF(smallest.pointSizeF() * SMALLEST)
        metrics = QFontMetrics(smallest)
        for col, header in enumerate(self.headers.values(), start=1):
            words = header.text().split()
            self._grid.setColumnMinimumWidth(col, max((metrics.horizontalAdvance(w) for w in words), default=0) + 2)
        for header in self.headers.values():
            fit_words(header, s.font(12))
        for name in self.names.values():
            fit_words(name, s.font(13, bold=True))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_words()


class ResultsTable(ScalingTable):
    """A row per scaling: final loss, final accuracy, steps to 90 %, stuck rows, status."""

    COLUMNS = (("loss", QT_TRANSLATE_NOOP("LabPlots", "final loss")),
               ("accuracy", QT_TRANSLATE_NOOP("LabPlots", "final accuracy")),
               ("steps", QT_TRANSLATE_NOOP("LabPlots", "steps to 90 %")),
               ("stuck", QT_TRANSLATE_NOOP("LabPlots", "stuck rows")),
               ("status", QT_TRANSLATE_NOOP("LabPlots", "status")))
    # {window}: WINDOW, {saturation}: SATURATION (filled in by ``_translate``)
    TIPS = {
        "loss": QT_TRANSLATE_NOOP("LabPlots", "Mean training loss over the last {window} steps."),
        "accuracy": QT_TRANSLATE_NOOP("LabPlots", "Share of queries whose largest weight is on the right key, "
                                      "mean over the last {window} steps (chance is 1/16)."),
        "steps": QT_TRANSLATE_NOOP("LabPlots", "First step at which the accuracy averaged over {window} steps "
                                   "reaches 90 %."),
        "stuck": QT_TRANSLATE_NOOP("LabPlots", "Share of rows saturated (top weight > {saturation}) on a wrong "
                                   "key, mean over the last {window} steps: there the softmax passes almost no "
                                   "gradient."),
        "status": QT_TRANSLATE_NOOP("LabPlots", "Whether this scaling has run, is running, finished, was "
                                    "cancelled or diverged."),
    }
    STRETCH = {"steps": 6, "status": 5}
    WRAP = ("steps", "status")

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        self._alarm: dict[tuple[str, str], bool] = {}  # (scaling, column) shown in warning colour
        super().__init__(style, "labResults", "lab", "lab_verdict",
                         translate("LabPlots", "Steps to 90 % accuracy of raw logits relative to ÷√d_k."),
                         corner_tip=translate("LabPlots", "final = mean over the last {window} steps")
                         .format(window=WINDOW), parent=parent)

    def _translate(self, text: str) -> str:
        return translate("LabPlots", text).format(window=WINDOW, saturation=SATURATION)

    def _cell_font(self, key: str) -> QFont:
        return self.style_.font(12 if key == "status" else 14, bold=key != "status")

    def _cell_colour(self, scaling: str, key: str) -> str:
        p = self.style_.palette
        return p.warn if self._alarm.get((scaling, key), False) else p.fg

    def _set_alarm(self, scaling: str, key: str, on: bool) -> None:
        self._alarm[(scaling, key)] = on
        p = self.style_.palette
        self.cells[scaling][key].setStyleSheet(f"color: {p.warn if on else p.fg};")

    def reset(self, scalings: tuple[str, ...]) -> None:
        """Blank every row; rows of scalings not in this run say so."""
        self._in_run = set(scalings)
        self._alarm.clear()
        for s in LAB_SCALINGS:
            for key, cell in self.cells[s].items():
                idle = translate("LabPlots", "waiting") if s in scalings else translate("LabPlots", "not run")
                cell.setText(idle if key == "status" else "–")
        self.verdict.setText("")
        self.apply_style()

    def show_result(self, scaling: str, result: TrainResult, finished: bool) -> None:
        """Fill one row from a (possibly partial) TrainResult."""
        cells = self.cells[scaling]
        cells["loss"].setText(localize_number(fmt_loss(result.final_loss)))
        cells["accuracy"].setText(localize_number(fmt_accuracy(result.final_accuracy)))
        cells["steps"].setText(localize_number(fmt_steps(result.steps_to_90, finished)))
        cells["stuck"].setText(localize_number(fmt_stuck(result.stuck_fraction)))
        self._set_alarm(scaling, "stuck", result.stuck_fraction >= 0.1)
        steps = result.config.steps
        done = result.steps_done
        if not finished:
            status = translate("LabPlots", "step {done}/{steps}").format(done=done, steps=steps)
        elif result.diverged:
            status = translate("LabPlots", "diverged at step {step}").format(step=done)
        elif result.cancelled:
            status = translate("LabPlots", "cancelled at step {step}").format(step=done)
        else:
            status = translate("LabPlots", "done")
        cells["status"].setText(status)
        self._set_alarm(scaling, "status", finished and result.diverged)

    def set_status(self, scaling: str, text: str) -> None:
        self.cells[scaling]["status"].setText(text)

    def show_verdict(self, raw: TrainResult | None, scaled: TrainResult | None) -> None:
        """One sentence comparing steps to 90 % of raw and ÷√d_k (finished runs only)."""
        if raw is None or scaled is None or raw.cancelled or scaled.cancelled:
            self.verdict.setText("")
            return
        r, s = raw.steps_to_90, scaled.steps_to_90
        n = raw.config.steps
        if r is not None and s is not None:
            text = translate("LabPlots", "Raw logits needed <b>{ratio}×</b> the steps of ÷√d_k to reach 90 % "
                             "({raw} vs {scaled}).").format(ratio=format_number(r / s, ".1f"), raw=r, scaled=s)
        elif s is not None:
            text = translate("LabPlots", "÷√d_k reached 90 % after {scaled} steps; raw logits <b>never did</b> "
                             "in {steps}.").format(scaled=s, steps=n)
        elif r is not None:
            text = translate("LabPlots", "Raw logits reached 90 % after {raw} steps; ÷√d_k <b>never did</b> "
                             "in {steps}.").format(raw=r, steps=n)
        else:
            text = translate("LabPlots", "Neither reached 90 % accuracy in {steps} steps.").format(steps=n)
        self.verdict.setText(localize_number(text))
