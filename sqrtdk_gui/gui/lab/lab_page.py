"""The "Training lab" tab's view: raw logits against ÷√d_k, fairly: across learning rates.

Controls (``LabControls``) → Run → ``LabPresenter`` → ``TrainRunner`` (worker thread) → queued
signals → ``LabPresenter`` → this page's plots and tables. ``LabPage`` is the layout: it builds
the widgets, passes their clicks and edits to the presenter, and shows what the presenter
hands it through a few methods (``show_mode``, ``prepare_sweep``, ``show_over_training``,
``set_progress``, ``mark_stale``, …); it keeps nothing beyond what it shows. The presenter
(presenter.py) holds the run's state and decides what to show. The page never trains in the
UI thread; the worker never touches a widget.

Two modes. **Sweep rates** trains every scaling at each rate of a log grid and several seeds,
and plots steps to 90 % and final loss against the rate, each scaling at its own best rate in
the table. **One rate** trains each scaling once (loss, accuracy, stuck rows). Both show, over
training, the largest |logit|, the attention entropy and the gradient reaching W_q, W_k and
W_v (in a sweep: at the rate chosen above those plots).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QProgressBar,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from sqrtdk_gui.core.i18n import format_number
from sqrtdk_gui.core.training.loop import GRAD_CURVES, TrainResult
from sqrtdk_gui.core.training.lr_sweep import ScalingSweep
from sqrtdk_gui.gui.lab.controls import LabControls
from sqrtdk_gui.gui.lab.plots import TARGET_ACCURACY, CurvePanel, ResultsTable
from sqrtdk_gui.gui.lab.presenter import LabPresenter
from sqrtdk_gui.gui.lab.sweep_plots import GradPanel, LrPanel, StepPanel, SweepTable, fmt_lr
from sqrtdk_gui.gui.lab.worker import TrainRunner
from sqrtdk_gui.gui.plotting.fit import WrappingButton
from sqrtdk_gui.gui.style import Style

__all__ = ["LabPage", "INTRO", "DEFAULT_CURVE_INDEX"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "LabPage"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

# Shown through translate("LabPage", ...).
INTRO = QT_TRANSLATE_NOOP(
    "LabPage",
    "One attention layer learns to attend to the one of 16 keys that its query is a noisy "
    "copy of; raw logits and ÷√d_k start from the same weights and see the same batches. "
    "÷√d_k also shrinks the gradient by √d_k, so a fair test <b>sweeps the learning rate</b> "
    "and compares each scaling at its own best rate, and by how many rates train at all."
)
LOSS_SUBTITLES = {"mse": QT_TRANSLATE_NOOP("LabPage", "through the weights, log scale"),
                  "ce": QT_TRANSLATE_NOOP("LabPage", "on the logits, log scale")}
LOSS_TITLES = {"mse": QT_TRANSLATE_NOOP("LabPage", "MSE loss"),
               "ce": QT_TRANSLATE_NOOP("LabPage", "Cross-entropy loss")}
DEFAULT_CURVE_INDEX = 6  # the 7th of 9 rates: SGD 5, Adam 0.1 (where raw logits fail)


class _Row(QWidget):
    """A row of plots: the same size hint for every row, so the rows split the height evenly
    whatever their panels ask for (a word-wrapped key must not win the bottom row more)."""

    preferred_height = 300  # on the projected page less: the rows then share what is left

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(600, self.preferred_height)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(200, 120)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        # A word-wrapped label inside would otherwise claim its whole preferred height.
        return False


class LabPage(QWidget):
    """Controls on the left; tables and plots on the right; a short explanation on top.

    ``presenter`` runs what the controls say; ``run``, ``cancel``, ``show_stall``,
    ``shutdown``, ``runner``, ``results``, ``sweeps``, ``last_run_seconds`` and
    ``run_finished`` are its own, reached through the page.
    """

    run_finished = Signal(bool)  # cancelled; emitted after the page has shown the outcome

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.style_ = style or Style()
        self._muted = False  # the "trained with" line greyed: the settings changed since

        self.intro = QLabel(translate("LabPage", INTRO))
        self.intro.setObjectName("lab_intro")
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.TextFormat.RichText)
        self.intro.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setToolTip("")

        self.controls = LabControls(self.style_)
        scroll = self._controls_scroll = QScrollArea()
        scroll.setWidget(self.controls)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        # The controls take the column's height, whatever it is, and scroll: their own height
        # must not make the page taller than a 720-line projector.
        scroll.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        # A scroll area sizes its widget (height for its width: the wrapped "Measured" text)
        # when the area itself resizes; after a style or wrap change that leaves the area's size
        # as it was, the widget would keep a height too small for its words: sized again then.
        self._refit_controls = QTimer(self)
        self._refit_controls.setSingleShot(True)
        self._refit_controls.timeout.connect(self._refit_controls_now)
        self.controls.installEventFilter(self)
        left = QVBoxLayout()
        left.setSpacing(6)
        left.addWidget(scroll, 1)
        left.addLayout(self._run_box())
        left_widget = QWidget()
        left_widget.setLayout(left)
        self.left_column = left_widget
        left.setContentsMargins(0, 0, 0, 0)

        s = self.style_
        # --- one rate: the first lab's three panels ---------------------------------------
        self.loss_panel = CurvePanel(translate("LabPage", LOSS_TITLES["mse"]), "loss", s,
                                     translate("LabPage", "loss"), log_y=True, step_label=False,
                                     subtitle=translate("LabPage", LOSS_SUBTITLES["mse"]))
        self.accuracy_panel = CurvePanel(translate("LabPage", "Accuracy"), "accuracy", s,
                                         translate("LabPage", "accuracy"), y_range=(0.0, 1.0),
                                         subtitle=translate("LabPage", "top weight on the right key"))
        self.accuracy_panel.add_level(TARGET_ACCURACY, label="90 %")
        self.accuracy_panel.add_level(1 / 16, role="muted", dotted=True)
        self.stuck_panel = CurvePanel(translate("LabPage", "Stuck rows"), "stuck", s,
                                      translate("LabPage", "% of rows"),
                                      y_range=(0.0, 100.0), factor=100.0,
                                      subtitle=translate("LabPage", "saturated on a wrong key"))
        self.panels = [self.loss_panel, self.accuracy_panel, self.stuck_panel]
        self.loss_panel.setToolTip(translate("LabPage", "Loss of each training batch, before that step's "
                                             "update. Log scale, shown from 1e-6 to 1e4 (a raw head saturated "
                                             "on the right key can go far lower)."))
        self.accuracy_panel.setToolTip(translate("LabPage", "Share of the batch's queries whose largest "
                                                 "attention weight is on the right key. Dashed: 90 %; dotted: "
                                                 "chance (1/16)."))
        self.stuck_panel.setToolTip(translate("LabPage", "Share of the batch's queries whose softmax is "
                                              "saturated (top weight > 0.99) on a wrong key: the MSE gradient "
                                              "through such a row is almost zero."))
        self.table = ResultsTable(s)
        # --- sweep: against the learning rate ---------------------------------------------
        self.steps_lr_panel = LrPanel(translate("LabPage", "Steps to 90 %"), "steps", s,
                                      translate("LabPage", "steps"),
                                      subtitle=translate("LabPage", "dashed: the rate plotted below"))
        self.steps_lr_panel.setToolTip(translate(
            "LabPage",
            "For each learning rate, the steps until the accuracy averaged over 20 steps first "
            "reaches 90 %: median over the seeds, the band spans them. Points on the top row "
            "never got there. The dashed vertical line marks the rate of the plots below."))
        self.loss_lr_panel = LrPanel(translate("LabPage", "Final loss"), "loss", s, translate("LabPage", "loss"),
                                     subtitle=translate("LabPage", "mean of the last 20 steps"))
        self.loss_lr_panel.setToolTip(translate(
            "LabPage",
            "For each learning rate, the loss averaged over the last 20 steps: median over the "
            "seeds, the band spans them. Raw logits that failed stay near the loss of "
            "guessing."))
        self.sweep_table = SweepTable(s)
        # --- over training (both modes) ---------------------------------------------------
        self.logit_panel = StepPanel(translate("LabPage", "Largest |logit|"), "max_logit", s, "|logit|",
                                     log_y=True)
        self.logit_panel.setToolTip(translate(
            "LabPage",
            "The largest |logit| of each batch (over every layer). Raw logits start √d_k wide "
            "and grow as training aligns q with k; past ~10 (16 keys) the softmax saturates."))
        self.entropy_panel = StepPanel(translate("LabPage", "Attention entropy"), "entropy", s,
                                       translate("LabPage", "nats"), y_range=(0.0, float(np.log(16))))
        self.entropy_panel.add_level(float(np.log(16)), label=translate("LabPage", "uniform"))
        self.entropy_panel.setToolTip(translate(
            "LabPage",
            "Mean entropy of the attention weights (last layer). It falls as heads learn to "
            "look at one key; a collapse before the accuracy rises means rows saturated on "
            "wrong keys (Zhai et al. 2023: entropy collapse)."))
        self.grad_panel = GradPanel(s)
        self.grad_panel.setToolTip(translate(
            "LabPage",
            "Size of the gradient reaching each weight matrix (over every layer), median over "
            "the seeds. W_q and W_k decide where the head looks: the softmax Jacobian is on "
            "their path, so saturation silences them. W_v decides what it reads: its gradient "
            "does not pass through the Jacobian."))
        self.step_panels = [self.logit_panel, self.entropy_panel]
        self.trained_with = QLabel(translate("LabPage", "Not trained yet: choose the settings and press Run."))
        self.trained_with.setObjectName("lab_trained_with")
        self.trained_with.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.trained_with.setWordWrap(True)
        self.trained_with.setToolTip(translate("LabPage", "The settings the plots and results below were "
                                               "trained with."))

        self.table_stack = QStackedWidget()
        self.table_stack.addWidget(self.sweep_table)
        self.table_stack.addWidget(self.table)
        self.table_stack.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        sweep_row = QWidget()
        row = QHBoxLayout(sweep_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        row.addWidget(self.steps_lr_panel, 3)
        row.addWidget(self.loss_lr_panel, 2)
        single_row = QWidget()
        panel: QWidget  # in the loops below: the plot panels of each row
        row = QHBoxLayout(single_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        for panel in (self.accuracy_panel, self.loss_panel, self.stuck_panel):
            row.addWidget(panel, 1)
        self.top_stack = QStackedWidget()
        self.top_stack.addWidget(sweep_row)
        self.top_stack.addWidget(single_row)

        self.curves_title = QLabel()
        self.curves_title.setObjectName("lab_curves_title")
        self.curve_lr = QComboBox()
        self.curve_lr.setObjectName("lab_curve_lr")
        self.curve_lr.setToolTip(translate("LabPage", "Which learning rate of the sweep the three plots below "
                                           "show."))
        self.curve_lr.currentIndexChanged.connect(self._mark_rate)
        self.curves_note = QLabel()
        self.curves_note.setObjectName("lab_curves_note")
        for label in (self.curves_title, self.curves_note):
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            label.setWordWrap(True)
        # The note goes beside the title and the rate chooser, or under them where a long
        # language leaves it less room than half its line (``_place_curves_note``).
        self._curves_header = header = QGridLayout()
        header.setHorizontalSpacing(8)
        header.setVerticalSpacing(0)
        header.addWidget(self.curves_title, 0, 0)
        header.addWidget(self.curve_lr, 0, 1)
        header.addWidget(self.curves_note, 0, 2)
        header.setColumnStretch(2, 1)
        self.curves_title.setSizePolicy(QSizePolicy.Policy.Preferred,
                                        QSizePolicy.Policy.Preferred)
        bottom_row = self._bottom_row = _Row()
        bottom = QHBoxLayout(bottom_row)
        bottom.setContentsMargins(0, 0, 0, 0)
        bottom.setSpacing(8)
        for panel in (self.logit_panel, self.entropy_panel, self.grad_panel):
            bottom.addWidget(panel, 1)
        top_row = self._top_row = _Row()
        QVBoxLayout(top_row).setContentsMargins(0, 0, 0, 0)
        cast(QVBoxLayout, top_row.layout()).addWidget(self.top_stack)

        right = QVBoxLayout()
        right.setSpacing(4)
        right.addWidget(self.trained_with)
        right.addWidget(self.table_stack)
        right.addWidget(top_row, 1)
        right.addLayout(header)
        right.addWidget(bottom_row, 1)
        body = QHBoxLayout()
        body.setSpacing(8)
        body.addWidget(left_widget, 1)
        body.addLayout(right, 3)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 6, 8, 6)
        outer.setSpacing(6)
        outer.addWidget(self.intro)
        outer.addLayout(body, 1)

        self.table.reset(self.controls.scalings())
        self.sweep_table.reset(self.controls.scalings())
        self.presenter = p = LabPresenter(self, self.controls, TrainRunner(self), self)
        self.run_button.clicked.connect(p.run)
        self.cancel_button.clicked.connect(p.cancel)
        self.stall_button.clicked.connect(p.show_stall)
        self.curve_lr.currentIndexChanged.connect(p.rate_changed)
        self.controls.changed.connect(p.settings_changed)
        self.controls.mode_changed.connect(p.mode_changed)
        p.run_finished.connect(self.run_finished)
        self.apply_style()

    # --- construction --------------------------------------------------------------------
    def _run_box(self) -> QVBoxLayout:
        self.run_button = WrappingButton(translate("LabPage", "▶  Run"))  # "Ejecutar barrido": two lines
        self.run_button.setObjectName("lab_run")
        self.run_button.setToolTip(translate("LabPage", "Train every chosen scaling from the same initial "
                                             "weights, in a background thread."))
        self.cancel_button = WrappingButton(translate("LabPage", "■  Cancel"))
        self.cancel_button.setObjectName("lab_cancel")
        self.cancel_button.setToolTip(translate("LabPage", "Stop after the current step; what has finished "
                                                "stays."))
        self.stall_button = WrappingButton(translate("LabPage", "One high rate: lr 5\n(10× default) · d_k 256 · SGD"))
        self.stall_button.setObjectName("lab_stall")
        self.stall_button.setToolTip(translate(
            "LabPage",
            "A demonstration, not a fair comparison: one run each at SGD learning rate 5, ten "
            "times the default, d_k = 256, MSE. Raw logits grow until rows saturate on wrong "
            "keys and stay near chance; ÷√d_k trains. The sweep shows the whole range of rates."))
        self.progress = QProgressBar()
        self.progress.setObjectName("lab_progress")
        self.progress.setTextVisible(True)
        self.progress.setFormat(translate("LabPage", "idle"))
        self.progress.setValue(0)
        self.progress.setToolTip(translate("LabPage", "Steps done over all scalings of this run."))
        self.status = QLabel()
        self.status.setObjectName("lab_status")
        self.status.setWordWrap(True)
        self.status.hide()  # shown only when it has something to say
        row = QHBoxLayout()
        row.addWidget(self.run_button, 1)
        row.addWidget(self.cancel_button, 1)
        box = QVBoxLayout()
        box.setSpacing(6)
        box.addLayout(row)
        box.addWidget(self.progress)
        box.addWidget(self.status)
        box.addWidget(self.stall_button)
        return box

    def apply_style(self) -> None:
        """Theme and zoom from ``style_`` (the window calls this again when they change)."""
        s, p = self.style_, self.style_.palette
        self.intro.setFont(s.font(13))
        self.intro.setStyleSheet(f"color: {p.fg};")
        self.trained_with.setFont(s.font(13, bold=True))
        self.trained_with.setStyleSheet(f"color: {p.muted if self._muted else p.fg};")
        self.curves_title.setFont(s.font(14, bold=True))
        self.curves_title.setStyleSheet(f"color: {p.fg};")
        self.curve_lr.setFont(s.font(14, bold=True))
        self.curves_note.setFont(s.font(12))
        self.curves_note.setStyleSheet(f"color: {p.muted};")
        for button in (self.run_button, self.cancel_button):
            button.setFont(s.font(15, bold=True))
        self.run_button.setStyleSheet(
            f"QPushButton {{ padding: 8px; background: {p.scaled}; color: white; "
            "border-radius: 6px; }"
            f"QPushButton:disabled {{ background: {p.border}; color: {p.strip}; }}")
        self.cancel_button.setStyleSheet(
            f"QPushButton {{ padding: 8px; border: 2px solid {p.warn}; color: {p.warn}; "
            "border-radius: 6px; }"
            f"QPushButton:disabled {{ border-color: {p.border}; color: {p.border}; }}")
        self.stall_button.setFont(s.font(12, bold=True))
        self.progress.setFont(s.font(12))
        self.status.setFont(s.font(12))
        self.controls.apply_style()
        self._fit_left_column()
        self._fit_intro()
        self.table.apply_style()
        self.sweep_table.apply_style()
        for panel in (*self.panels, self.steps_lr_panel, self.loss_lr_panel, *self.step_panels,
                      self.grad_panel):
            panel.apply_style()

    def _fit_left_column(self) -> None:
        """As wide as the controls need (a longer language), at least 290 px at zoom 1, at most
        two fifths of the page: the plots keep the rest. Controls that do not fit that way,
        labels beside their fields, put each field under its label."""
        z = self.style_.zoom
        bar = self._controls_scroll.verticalScrollBar().sizeHint().width()
        most = max(round(340 * z), round(0.4 * self.width()))
        need = self.controls.needed_width(wrap=False) + bar + 4
        wrap = need > most
        if wrap:
            need = self.controls.needed_width(wrap=True) + bar + 4
        self.controls.wrap_rows(wrap)
        self.left_column.setMinimumWidth(max(round(290 * z), min(need, most)))
        self.left_column.setMaximumWidth(max(round(340 * z), min(need, most)))

    def _place_curves_note(self) -> None:
        header, note = self._curves_header, self.curves_note
        words = note.text().split()
        if not words:
            return
        metrics = QFontMetrics(note.font())
        title = QFontMetrics(self.curves_title.font()).horizontalAdvance(self.curves_title.text())
        chooser = self.curve_lr.sizeHint().width() + 8 if self.curve_lr.isVisibleTo(self) else 0
        width = header.geometry().width() or self.width()
        room = width - title - chooser - 8
        beside = room >= max(max(metrics.horizontalAdvance(w) for w in words),
                             metrics.horizontalAdvance(note.text()) // 2)
        row, column = (0, 2) if beside else (1, 0)
        at = cast("tuple[int, int, int, int]", header.getItemPosition(header.indexOf(note)))  # row, column, spans
        if at[:2] != (row, column):
            header.removeWidget(note)
            header.addWidget(note, row, column, 1, 1 if beside else 3)
            # Below, the title takes the row's room (a wrapping label's own hint wraps early).
            header.setColumnStretch(0, 0 if beside else 1)
            header.setColumnStretch(2, 1 if beside else 0)

    def set_projected(self, on: bool) -> None:
        """On the projected page (presentation mode) the tables show only their verdict line
        and the settings line gives way to the controls beside (which say the same): a
        768-line projector then has room for both rows of plots, the over-training ones
        included, without scrolling. The whole table is on the desk."""
        self.table.set_compact(on)
        self.sweep_table.set_compact(on)
        self.trained_with.setVisible(not on)
        # The controls scroll in the short column there: a scroll bar that came and went
        # would change their width, and their wrapped words' height, after they were sized.
        self._controls_scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn if on
                                                         else Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        # A scroll area gives its page the height the page prefers: rows that prefer less
        # let a 720-line projector hold both (they still share whatever room there is).
        for row in (self._top_row, self._bottom_row):
            row.preferred_height = 200 if on else 300
            row.updateGeometry()

    def _seen_in(self) -> QWidget:
        """What the page is seen in: its scroll area's viewport (the window's tab scrolls a
        page larger than itself), else the page itself."""
        widget = self.parentWidget()
        while widget is not None and not isinstance(widget, QAbstractScrollArea):
            widget = widget.parentWidget()
        return widget.viewport() if widget is not None else self

    def _fit_intro(self) -> None:
        # On a short screen (a 768-line projector) the plots need the intro's lines; the
        # lesson says the same, and it stays as the tab's tooltip. The visible height, not
        # the page's own (which the intro's lines make taller), decides; asked again when
        # the zoom changes (presentation mode) as well as on a resize.
        self.intro.setVisible(self._seen_in().height() >= round(820 * self.style_.zoom))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_left_column()
        self._fit_intro()
        self._place_curves_note()


    def _refit_controls_now(self) -> None:
        self._controls_scroll.setWidgetResizable(True)  # the height for the width they have now
        layout = cast(QLayout, self.controls.layout())
        layout.invalidate()  # and their rows placed again in it, though its size may not change
        layout.activate()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is self.controls and event.type() == QEvent.Type.LayoutRequest:
            self._refit_controls.start(0)
        return False

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API (a page shown on its own)
        self.shutdown()
        super().closeEvent(event)

    # --- the presenter's, reached through the page -----------------------------------------
    def run(self) -> None:
        """Start the sweep or the single runs (ignored while a run is in progress)."""
        self.presenter.run()

    def cancel(self) -> None:
        self.presenter.cancel()

    def show_stall(self) -> None:
        """The high-rate demonstration: one run each at SGD lr 5, d_k 256 — and run it."""
        self.presenter.show_stall()

    def shutdown(self) -> None:
        """Stop a run and the worker thread (the window calls this when it closes)."""
        self.presenter.shutdown()

    @property
    def runner(self) -> TrainRunner:
        return self.presenter.runner

    @property
    def results(self) -> dict[str, TrainResult]:
        return self.presenter.results

    @property
    def sweeps(self) -> dict[str, ScalingSweep]:
        return self.presenter.sweeps

    @property
    def last_run_seconds(self) -> float | None:
        return self.presenter.last_run_seconds

    # --- what the presenter shows: the buttons and the lines of text --------------------------
    def show_mode(self, mode: str) -> None:
        """Which table and top row the page shows, and what Run says."""
        sweep = mode == "sweep"
        self.top_stack.setCurrentIndex(0 if sweep else 1)
        self.table_stack.setCurrentIndex(0 if sweep else 1)
        self.run_button.setText(translate("LabPage", "▶  Run sweep") if sweep else translate("LabPage", "▶  Run"))

    def set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.controls.setEnabled(not running)
        self.stall_button.setEnabled(not running)

    def say(self, text: str) -> None:
        """The status line under the progress bar (hidden when empty)."""
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def show_failure(self, message: str) -> None:
        self.progress.setFormat(translate("LabPage", "failed"))
        text = translate("LabPage", "Training failed: {message}").format(message=message)
        self.say(f"<span style='color:{self.style_.palette.warn}'>{text}</span>")

    def show_cancelling(self) -> None:
        self.cancel_button.setEnabled(False)
        self.progress.setFormat(translate("LabPage", "cancelling…"))

    def start_progress(self, total: int) -> None:
        """An empty bar for ``total`` steps, saying "starting…"."""
        self.progress.setRange(0, total)
        self.progress.setValue(0)
        self.progress.setFormat(translate("LabPage", "starting…"))

    def set_progress(self, text: str, value: int | None = None) -> None:
        """The bar's text and, if given, how many steps are done."""
        if value is not None:
            self.progress.setValue(value)
        self.progress.setFormat(text)

    def show_trained_with(self, text: str) -> None:
        """The line saying what the plots were trained with."""
        self._muted = False
        self.trained_with.setText(text)
        self.trained_with.setStyleSheet(f"color: {self.style_.palette.fg};")

    def mark_stale(self, text: str) -> None:
        """That line, greyed: the settings changed since the plots were trained."""
        self._muted = True
        self.trained_with.setText(text)
        self.trained_with.setStyleSheet(f"color: {self.style_.palette.muted};")

    def show_curves_header(self, lr: float | None) -> None:
        """The line above the over-training plots: a sweep's rate chooser (``lr`` None) or
        the one rate they were trained at."""
        sweep = lr is None
        self.curve_lr.setVisible(sweep)
        if sweep:
            self.curves_title.setText(translate("LabPage", "Over training, at learning rate"))
            self.curves_note.setText(translate("LabPage", "median over the seeds; the band spans them"))
        else:
            self.curves_title.setText(translate("LabPage", "Over training, at learning rate {lr}")
                                      .format(lr=format_number(cast(float, lr))))
            self.curves_note.setText(translate("LabPage", "one run per scaling"))
        self._place_curves_note()

    # --- what the presenter shows: the plots and tables ------------------------------------
    def prepare_axes(self, lrs: tuple[float, ...], steps: int) -> None:
        """Axes for a sweep grid before anything has run."""
        for panel in (self.steps_lr_panel, self.loss_lr_panel):
            panel.set_grid(lrs, steps)
        self._fill_rate_combo(lrs)

    def prepare_sweep(self, scalings: tuple[str, ...], lrs: tuple[float, ...], steps: int,
                      learn_v: bool) -> None:
        """Empty sweep table and plots for a sweep over ``lrs``; the chosen rate stays if the
        grid has it."""
        self.sweep_table.reset(scalings)
        for panel in (self.steps_lr_panel, self.loss_lr_panel):
            panel.clear()
            panel.set_grid(lrs, steps)
        keep = self.curve_lr.currentData()
        self._fill_rate_combo(lrs)
        if keep in lrs:
            self.curve_lr.setCurrentIndex(lrs.index(keep))
        self._prepare_over_training(steps, learn_v)

    def prepare_single(self, scalings: tuple[str, ...], steps: int, loss: str,
                       learn_v: bool) -> None:
        """Empty results table and plots for one run per scaling."""
        for panel in self.panels:
            panel.clear_curves(steps)
        self.table.reset(scalings)
        self.loss_panel.heading = translate("LabPage", LOSS_TITLES[loss])
        self.loss_panel.set_subtitle(translate("LabPage", LOSS_SUBTITLES[loss]))
        self._prepare_over_training(steps, learn_v)

    def _prepare_over_training(self, steps: int, learn_v: bool) -> None:
        for panel in cast("tuple[StepPanel | GradPanel, ...]", (*self.step_panels, self.grad_panel)):
            panel.clear()
            panel.set_steps(steps)
        self.grad_panel.set_learn_v(learn_v)

    def _fill_rate_combo(self, lrs: tuple[float, ...]) -> None:
        self.curve_lr.blockSignals(True)
        self.curve_lr.clear()
        for lr in lrs:
            self.curve_lr.addItem(fmt_lr(lr), lr)
        self.curve_lr.setCurrentIndex(min(DEFAULT_CURVE_INDEX, len(lrs) - 1))
        self.curve_lr.blockSignals(False)
        self._mark_rate()

    def _mark_rate(self, _index: int = -1) -> None:
        lr = self.curve_lr.currentData()
        for panel in (self.steps_lr_panel, self.loss_lr_panel):
            panel.select(lr)

    def chosen_rate(self) -> float | None:
        """The sweep's rate the plots over training show (None before any grid)."""
        return cast("float | None", self.curve_lr.currentData())

    def show_curves(self, scaling: str, curves: dict[str, np.ndarray]) -> None:
        """One run's loss, accuracy and stuck rows (``curves[metric]``: one value a step)."""
        for panel in self.panels:
            panel.show_curve(scaling, curves[panel.metric_name])

    def show_over_training(self, scaling: str, curves: dict[str, np.ndarray]) -> None:
        """``curves[metric]``: (seeds, steps) at the chosen rate (or of the one run)."""
        for panel in self.step_panels:
            panel.show_runs(scaling, curves[panel.metric_name])
        self.grad_panel.show_runs(scaling, {m: curves[m] for m in GRAD_CURVES})

    def clear_over_training(self, scaling: str) -> None:
        for panel in cast("tuple[StepPanel | GradPanel, ...]", (*self.step_panels, self.grad_panel)):
            panel.clear_scaling(scaling)

    def show_result(self, scaling: str, result: TrainResult, finished: bool) -> None:
        """One run's row of the results table (``finished``: False while it trains)."""
        self.table.show_result(scaling, result, finished)

    def set_run_status(self, scaling: str, text: str) -> None:
        self.table.set_status(scaling, text)

    def show_run_verdict(self, raw: TrainResult | None, scaled: TrainResult | None) -> None:
        self.table.show_verdict(raw, scaled)

    def show_sweep(self, sweep: ScalingSweep) -> None:
        """One scaling's finished sweep: its points against the rate and its table row."""
        self.steps_lr_panel.show_sweep(sweep)
        self.loss_lr_panel.show_sweep(sweep)
        self.sweep_table.show_sweep(sweep)

    def set_sweep_status(self, scaling: str, text: str) -> None:
        self.sweep_table.set_status(scaling, text)

    def show_sweep_verdict(self, sweeps: dict[str, ScalingSweep]) -> None:
        self.sweep_table.show_verdict(sweeps)
