"""The "Training lab" tab: train raw logits and ÷√d_k side by side and watch the curves.

Controls (``LabControls``) → Run → ``TrainRunner`` (worker thread) → queued signals →
curves and results table. The page never trains in the UI thread; the worker never touches
a widget. Scalings run one after another in the one worker (raw, ÷√d_k, then QK-norm).
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QGridLayout, QHBoxLayout, QLabel, QProgressBar, QPushButton,
                               QScrollArea, QSizePolicy, QVBoxLayout, QWidget)

from sqrtdk_gui.gui.lab.controls import LAB_LABELS, STALL_PRESET, LabControls
from sqrtdk_gui.gui.lab.plots import TARGET_ACCURACY, CurvePanel, ResultsTable
from sqrtdk_gui.gui.lab.worker import TrainRunner
from sqrtdk_gui.gui.style import Style
from sqrtdk_gui.core.training import TrainConfig, TrainResult

__all__ = ["LabPage", "INTRO", "describe"]

INTRO = (
    "One attention layer (W<sub>q</sub>, W<sub>k</sub>) learns to attend to the one of 16 keys "
    "that its query is a noisy copy of. <b>Run</b> trains raw logits and ÷√d_k (and QK-norm if "
    "ticked) from the same initial weights on the same batches: compare the steps to 90 % "
    "accuracy and the <b>stuck rows</b>, saturated on a wrong key, where the softmax Jacobian, "
    "and with it the MSE gradient, is almost zero."
)
OPTIMIZER_NAMES = {"sgd": "SGD", "adam": "Adam"}
LOSS_SUBTITLES = {"mse": "MSE via the weights, log scale",
                  "ce": "cross-entropy on the logits, log scale"}
LOSS_NAMES = {"mse": "MSE loss", "ce": "cross-entropy loss"}


def describe(config: TrainConfig) -> str:
    """One line saying what the curves were trained with."""
    return (f"Trained: d_k = {config.d_k} · {OPTIMIZER_NAMES[config.optimizer]} · "
            f"lr {config.lr:g} · {LOSS_NAMES[config.loss]} · {config.steps} steps · "
            f"seed {config.seed}")


class LabPage(QWidget):
    """Controls on the left, curves and results on the right, a short explanation on top."""

    run_finished = Signal(bool)  # cancelled; emitted after the page has shown the outcome

    def __init__(self, style: Style | None = None, parent=None) -> None:
        super().__init__(parent)
        self.style_ = style or Style()
        self.runner = TrainRunner(self)
        self._configs: tuple[TrainConfig, ...] = ()
        self.results: dict[str, TrainResult] = {}
        self._started_at = 0.0
        self.last_run_seconds: float | None = None
        self._failed = False
        self._stale = False  # controls changed since the shown run

        self.intro = QLabel(INTRO)
        self.intro.setObjectName("lab_intro")
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.TextFormat.RichText)
        self.intro.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        self.controls = LabControls(self.style_)
        scroll = QScrollArea()
        scroll.setWidget(self.controls)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        left = QVBoxLayout()
        left.setSpacing(6)
        left.addWidget(scroll, 1)
        left.addLayout(self._run_box())
        left_widget = QWidget()
        left_widget.setLayout(left)
        self.left_column = left_widget
        left.setContentsMargins(0, 0, 0, 0)

        s = self.style_
        self.loss_panel = CurvePanel("Training loss", "loss", s, "loss", log_y=True,
                                     step_label=False, subtitle=LOSS_SUBTITLES["mse"])
        self.accuracy_panel = CurvePanel("Accuracy", "accuracy", s, "accuracy", y_range=(0.0, 1.0),
                                         subtitle="top weight on the right key")
        self.accuracy_panel.add_level(TARGET_ACCURACY, label="90 %")
        self.accuracy_panel.add_level(1 / 16, role="muted", dotted=True)
        self.stuck_panel = CurvePanel("Stuck rows", "stuck", s, "% of rows",
                                      y_range=(0.0, 100.0), factor=100.0,
                                      subtitle="saturated on a wrong key")
        self.panels = [self.loss_panel, self.accuracy_panel, self.stuck_panel]
        self.loss_panel.setToolTip("Loss of each training batch, before that step's update. Log "
                                   "scale, shown from 1e-6 to 1e4 (a raw head saturated on the "
                                   "right key can go far lower).")
        self.accuracy_panel.setToolTip("Share of the batch's queries whose largest attention "
                                       "weight is on the right key. Dashed: 90 %; dotted: chance "
                                       "(1/16).")
        self.stuck_panel.setToolTip("Share of the batch's queries whose softmax is saturated "
                                    "(top weight > 0.99) on a wrong key: the MSE gradient "
                                    "through such a row is almost zero.")
        self.table = ResultsTable(s)
        self.trained_with = QLabel("Not trained yet: choose the settings and press Run.")
        self.trained_with.setObjectName("lab_trained_with")
        self.trained_with.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.trained_with.setWordWrap(True)
        self.trained_with.setToolTip("The settings the curves and results below were trained with.")

        grid = QGridLayout()
        grid.setSpacing(8)
        # Accuracy is the headline (steps to 90 %): it gets the tall panel.
        grid.addWidget(self.accuracy_panel, 0, 0, 2, 1)
        grid.addWidget(self.loss_panel, 0, 1)
        grid.addWidget(self.stuck_panel, 1, 1)
        for i in (0, 1):
            grid.setColumnStretch(i, 1)
            grid.setRowStretch(i, 1)
        right = QVBoxLayout()
        right.setSpacing(4)
        right.addWidget(self.trained_with)
        right.addWidget(self.table)
        right.addLayout(grid, 1)
        body = QHBoxLayout()
        body.setSpacing(8)
        body.addWidget(left_widget, 1)
        body.addLayout(right, 3)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 6, 8, 6)
        outer.setSpacing(6)
        outer.addWidget(self.intro)
        outer.addLayout(body, 1)

        r = self.runner
        r.job_started.connect(self._on_started)
        r.progress.connect(self._on_progress)
        r.result_ready.connect(self._on_result)
        r.job_failed.connect(self._on_failed)
        r.job_finished.connect(self._on_finished)
        self.controls.changed.connect(self._settings_changed)
        self.table.reset(self.controls.scalings())
        self._set_running(False)
        self.apply_style()

    # --- construction --------------------------------------------------------------------
    def _run_box(self) -> QVBoxLayout:
        self.run_button = QPushButton("▶  Run")
        self.run_button.setObjectName("lab_run")
        self.run_button.setToolTip("Train every chosen scaling from the same initial weights, "
                                   "one after another, in a background thread.")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("■  Cancel")
        self.cancel_button.setObjectName("lab_cancel")
        self.cancel_button.setToolTip("Stop the run after the current step; curves so far stay.")
        self.cancel_button.clicked.connect(self.cancel)
        self.stall_button = QPushButton("Show the stall\nd_k 256 · SGD · lr 5")
        self.stall_button.setObjectName("lab_stall")
        self.stall_button.setToolTip("Set d_k = 256, SGD, learning rate 5, MSE loss and run: raw "
                                     "logits saturate on wrong keys and stay near chance, "
                                     "÷√d_k trains.")
        self.stall_button.clicked.connect(self.show_stall)
        self.progress = QProgressBar()
        self.progress.setObjectName("lab_progress")
        self.progress.setTextVisible(True)
        self.progress.setFormat("idle")
        self.progress.setValue(0)
        self.progress.setToolTip("Steps done over all scalings of this run.")
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
        self.trained_with.setStyleSheet(f"color: {p.muted if self._stale else p.fg};")
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
        self.stall_button.setFont(s.font(13, bold=True))
        self.progress.setFont(s.font(12))
        self.status.setFont(s.font(12))
        self.left_column.setMinimumWidth(round(290 * s.zoom))
        self.left_column.setMaximumWidth(round(340 * s.zoom))
        self.controls.apply_style()
        self.table.apply_style()
        for panel in self.panels:
            panel.apply_style()

    # --- actions -------------------------------------------------------------------------
    def run(self) -> None:
        """Start training the chosen scalings (ignored while a run is in progress)."""
        if self.runner.is_running:
            return
        configs = self.controls.configs()
        self._configs = configs
        self.results = {}
        self.last_run_seconds = None
        steps = configs[0].steps
        for panel in self.panels:
            panel.clear_curves(steps)
        self.table.reset(tuple(c.scaling for c in configs))
        self.progress.setRange(0, steps * len(configs))
        self.progress.setValue(0)
        self.progress.setFormat("starting…")
        self.trained_with.setText(describe(configs[0]))
        self.loss_panel.set_subtitle(LOSS_SUBTITLES[configs[0].loss])
        self._stale = False
        self.trained_with.setStyleSheet(f"color: {self.style_.palette.fg};")
        self._say("")
        self._failed = False
        self._set_running(True)
        self._started_at = time.perf_counter()
        self.runner.start(configs)

    def cancel(self) -> None:
        if self.runner.is_running:
            self.cancel_button.setEnabled(False)
            self.progress.setFormat("cancelling…")
            self.runner.cancel()

    def show_stall(self) -> None:
        """The preset of the lesson: d_k 256, SGD, lr 5 — and run it."""
        if self.runner.is_running:
            return
        self.controls.set_values(**STALL_PRESET)
        self.run()

    def shutdown(self) -> None:
        """Stop a run and the worker thread (the window calls this when it closes)."""
        self.runner.shutdown()
        self._set_running(False)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API (a page shown on its own)
        self.shutdown()
        super().closeEvent(event)

    # --- worker signals (UI thread) ------------------------------------------------------
    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.controls.setEnabled(not running)
        self.stall_button.setEnabled(not running)

    def _on_started(self, configs) -> None:
        self._say(f"Training {len(configs)} scalings one after another…")

    def _show(self, config: TrainConfig, curves: dict, result: TrainResult, finished: bool) -> None:
        for panel in self.panels:
            panel.show_curve(config.scaling, curves[panel.metric_name])
        self.table.show_result(config.scaling, result, finished)
        index = self._configs.index(config)
        self.progress.setValue(index * config.steps + result.steps_done)
        self.progress.setFormat(f"{LAB_LABELS[config.scaling]} · step "
                                f"{result.steps_done} / {config.steps}")

    def _on_progress(self, index: int, done: int, curves: dict) -> None:
        config = self._configs[index]
        # A TrainResult over the partial curves: the readouts use the core's own definitions.
        partial = TrainResult(config, **curves)
        self._show(config, curves, partial, finished=False)

    def _on_result(self, index: int, result: TrainResult) -> None:
        config = self._configs[index]
        self.results[config.scaling] = result
        self._show(config, result.curves, result, finished=True)

    def _on_failed(self, message: str) -> None:
        self._failed = True
        self.progress.setFormat("failed")
        warn = self.style_.palette.warn
        self._say(f"<span style='color:{warn}'>Training failed: {message}</span>")

    def _on_finished(self, cancelled: bool) -> None:
        self.last_run_seconds = time.perf_counter() - self._started_at
        self._set_running(False)
        for config in self._configs:
            if config.scaling not in self.results:
                self.table.set_status(config.scaling, "cancelled" if cancelled else "not run")
        self.table.show_verdict(self.results.get("none"), self.results.get("sqrt_dk"))
        if cancelled:
            self.progress.setFormat("cancelled")
            self._say("Cancelled: the curves show the steps done so far.")
        elif not self._failed:
            self.progress.setFormat(f"done in {self.last_run_seconds:.1f} s")
            self._say("")
        self.run_finished.emit(cancelled)

    def _settings_changed(self) -> None:
        if self._configs and not self.runner.is_running:
            self.trained_with.setText(describe(self._configs[0])
                                      + "   (settings changed: press Run)")
            self._stale = True
            self.trained_with.setStyleSheet(f"color: {self.style_.palette.muted};")
