"""The settings column of the training lab: what to train, and the TrainConfigs it means.

It holds no run state. :meth:`LabControls.configs` turns the widgets into the
``TrainConfig`` tuple that Run hands to the worker (one per chosen scaling, in that order).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from sqrtdk_gui.core.attention.scaling import MODES as SCALING_MODES
from sqrtdk_gui.core.attention.scaling import TRAINED_SCALINGS
from sqrtdk_gui.core.i18n import _, decimal_mark, format_number, parse_number
from sqrtdk_gui.core.training.loop import DEFAULT_LR, MAX_LAYERS, TrainConfig
from sqrtdk_gui.core.training.lr_sweep import LR_GRID
from sqrtdk_gui.gui.style import Style

__all__ = ["LabControls", "LrSpinBox", "LR_LADDER", "LAB_SCALINGS", "LAB_LABELS", "LOSS_NOTE",
           "HIGH_LR_PRESET", "STALL_PRESET", "MEASURED", "DEFAULTS", "SWEEP_SECONDS_PER_SEED", "DK_RANGE",
           "STEPS_RANGE",
           "MODES", "MAX_SEEDS"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "LabControls"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

DK_RANGE = (4, 1024)
STEPS_RANGE = (50, 2000)
LR_RANGE = (1e-4, 50.0)
# 1-2-3-5 per decade: holds both defaults (0.5, 3e-3) and the stall rate 5.
LR_LADDER = tuple(v for e in range(-4, 2) for m in (1, 2, 3, 5)
                  if LR_RANGE[0] <= (v := float(f"{m}e{e}")) <= LR_RANGE[1])
LAB_SCALINGS = TRAINED_SCALINGS
# The core's English labels (marked there); shown through ``_()``.
LAB_LABELS = {key: mode.lab_label for key, mode in SCALING_MODES.items() if mode.lab_label is not None}
# Shown through translate("LabControls", ...).
LOSS_NOTE = QT_TRANSLATE_NOOP("LabControls", "With cross-entropy on the logits the gradient is p − onehot: the "
                              "softmax Jacobian drops out, so saturation hurts far less.")
MEASURED = QT_TRANSLATE_NOOP(
    "LabControls",
    "<b>Measured</b> (9 SGD rates, d_k = 256, 400 steps, seeds 0–4, on every BLAS kernel "
    "tested), each at its best rate: raw logits reach 90 % accuracy in 30–60 steps, "
    "÷√d_k in 20–22 steps. "
    "Raw reaches 90 % at 4–6 of the 9 rates, ÷√d_k at 9 of 9, QK-norm at 9 of 9. "
    "Adam: raw at 3–4 of 9, ÷√d_k at 6–7, QK-norm at 9. "
    "With 2–4 layers raw trains at none of the 9 SGD rates, ÷√d_k at 5–7 (seeds 0–2)."
)
MODES = ("sweep", "single")
MAX_SEEDS = 5
# The default is the class demo, which takes a few seconds: one run per scaling at the high
# rate (HIGH_LR_PRESET). The fair comparison, the sweep, is one click away and takes about
# SWEEP_SECONDS_PER_SEED a seed on a 2-core machine.
DEFAULTS: dict[str, Any] = {"d_k": 256, "optimizer": "sgd", "loss": "mse", "steps": 400, "seed": 0,
            "layers": 1, "learn_v": False, "mode": "single", "lr": 5.0, "n_seeds": 1}
# Measured in the window (benchmarks/train_lab.py --window), raw and ÷√d_k side by side: 2.9 s
# for one seed, 8.5 s for three, 13 s for five (with QK-norm ticked too: 6.5 s for one).
SWEEP_SECONDS_PER_SEED = 3
# Not a fair comparison but a demonstration: one rate, ten times SGD's default, where raw
# logits grow until the softmax saturates on wrong keys.
HIGH_LR_PRESET: dict[str, Any] = {"d_k": 256, "optimizer": "sgd", "lr": 5.0, "loss": "mse", "mode": "single"}
STALL_PRESET = HIGH_LR_PRESET  # the name the first lab used


class LrSpinBox(QDoubleSpinBox):
    """Learning rate: the arrows walk 1-2-3-5 per decade; any positive number may be typed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDecimals(6)
        self.setRange(*LR_RANGE)
        self.setKeyboardTracking(False)

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt API
        return format_number(value)  # in the language's decimal mark; a point is accepted too

    def valueFromText(self, text: str) -> float:  # noqa: N802 - Qt API
        try:
            return parse_number(text)
        except ValueError:
            return self.value()

    # PySide6 takes the state alone; its stub lists only the (state, text, pos) form.
    def validate(self, text: str, pos: int) -> QValidator.State:  # type: ignore[override]
        try:
            value = parse_number(text)
        except ValueError:
            ok = all(c in "0123456789.eE+-" + decimal_mark() for c in text)
            return QValidator.State.Intermediate if ok else QValidator.State.Invalid
        lo, hi = self.minimum(), self.maximum()
        return QValidator.State.Acceptable if lo <= value <= hi else QValidator.State.Intermediate

    def stepBy(self, steps: int) -> None:  # noqa: N802 - Qt API
        value = self.value()
        for _step in range(abs(steps)):
            if steps > 0:
                value = next((v for v in LR_LADDER if v > value * (1 + 1e-9)), LR_LADDER[-1])
            else:
                value = next((v for v in reversed(LR_LADDER) if v < value * (1 - 1e-9)),
                             LR_LADDER[0])
        self.setValue(value)


class _Either(QWidget):
    """Two widgets in one form field, one shown at a time (sized by the one shown)."""

    def __init__(self, first: QWidget, second: QWidget) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.widgets = (first, second)
        for w in self.widgets:
            layout.addWidget(w)
        self.show_index(0)

    def show_index(self, index: int) -> None:
        for i, w in enumerate(self.widgets):
            w.setVisible(i == index)

    def current(self) -> QWidget:
        return next(w for w in self.widgets if not w.isHidden())


class LabControls(QWidget):
    """What to run (a learning-rate sweep or one rate), d_k, optimiser, rate(s), steps,
    seed(s), depth, W_v, loss and the scalings to train.

    One compact form (no group boxes): it must fit a 720-pixel-high projector image.
    """

    changed = Signal()  # any setting changed (the page greys the "trained with" line)
    mode_changed = Signal(str)

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.style_ = style
        form = QFormLayout(self)
        form.setContentsMargins(4, 4, 4, 4)
        form.setHorizontalSpacing(8)
        form.setVerticalSpacing(6)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form = form  # the page wraps its rows where its column is too narrow (wrap_rows)
        self.form = form
        self._mode_rows(form)
        self._dk_rows(form)
        self._training_rows(form)
        self._model_rows(form)
        self._scaling_rows(form)
        self._loss_rows(form)
        self.defaults_button = QPushButton(translate("LabControls", "Reset to defaults"))
        self.defaults_button.setObjectName("lab_defaults")
        self.defaults_button.setToolTip(translate(
            "LabControls", "The class demo: one run per scaling at SGD lr 5, d_k = 256, MSE, 400 steps, "
            "seed 0, one layer (does not start a run)."))
        self.defaults_button.clicked.connect(lambda: self.set_values(**DEFAULTS))
        form.addRow(self.defaults_button)
        self.measured = QLabel(translate("LabControls", MEASURED))
        self.measured.setObjectName("lab_measured")
        self.measured.setWordWrap(True)
        self.measured.setTextFormat(Qt.TextFormat.RichText)
        self.measured.setToolTip(translate("LabControls", "Benchmark of this training lab (benchmarks/train_lab.py)."))
        form.addRow(self.measured)
        for spin in (self.dk_spin, self.lr_spin, self.steps_spin, self.seed_spin,
                     self.seeds_spin, self.layers_spin):
            spin.setMinimumWidth(80)
            spin.valueChanged.connect(self.changed)
        for combo in (self.optimizer_combo, self.loss_combo):
            combo.currentIndexChanged.connect(self.changed)
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(6)
        self.qk_check.toggled.connect(self.changed)
        self.learn_v_check.toggled.connect(self.changed)
        self.set_values(**DEFAULTS)
        self.apply_style()

    # --- construction --------------------------------------------------------------------
    def _mode_rows(self, form: QFormLayout) -> None:
        self.sweep_button = QPushButton(translate("LabControls", "Sweep rates"))
        self.sweep_button.setObjectName("lab_mode_sweep")
        self.sweep_button.setToolTip(translate(
            "LabControls",
            "The fair comparison: train every scaling at 9 learning rates (log grid) and "
            "several seeds, then compare each at its own best rate. ÷√d_k also divides the "
            "gradient through the logits by √d_k, so one shared rate favours one of them. "
            "About {seconds} s a seed at d_k 256 on a 2-core laptop.").format(seconds=SWEEP_SECONDS_PER_SEED))
        self.single_button = QPushButton(translate("LabControls", "One rate"))
        self.single_button.setObjectName("lab_mode_single")
        self.single_button.setToolTip(translate("LabControls", "Train each scaling once, at the one learning "
                                                "rate set below, and watch loss, accuracy and stuck rows."))
        self.mode_group = QButtonGroup(self)
        row = QHBoxLayout()
        row.setSpacing(0)
        for button in (self.sweep_button, self.single_button):
            button.setCheckable(True)
            self.mode_group.addButton(button)
            row.addWidget(button, 1)
        self.sweep_button.setChecked(True)
        self.mode_group.buttonToggled.connect(self._mode_toggled)
        form.addRow(row)

    def _dk_rows(self, form: QFormLayout) -> None:
        self.dk_spin = QSpinBox()
        self.dk_spin.setObjectName("lab_dk_spin")
        self.dk_spin.setRange(*DK_RANGE)
        self.dk_spin.setToolTip(translate("LabControls",
                                          "Head size d_k (width of q and k), any integer from 4 to 1024."))
        self.dk_slider = QSlider(Qt.Orientation.Horizontal)
        self.dk_slider.setObjectName("lab_dk_slider")
        lo, hi = (round(math.log2(d)) for d in DK_RANGE)
        self.dk_slider.setRange(lo, hi)
        self.dk_slider.setPageStep(1)
        self.dk_slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.dk_slider.setTickInterval(1)
        self.dk_slider.setToolTip(translate("LabControls", "Head size d_k in powers of two, 4 … 1024 (log scale)."))
        self.dk_slider.valueChanged.connect(lambda pos: self.dk_spin.setValue(2 ** pos))
        self.dk_spin.valueChanged.connect(self._dk_changed)
        ticks = QHBoxLayout()
        ticks.setContentsMargins(0, 0, 0, 0)
        self.dk_ticks: list[QLabel] = []
        for text in ("4", "16", "64", "256", "1024"):
            tick = QLabel(text)
            tick.setAlignment(Qt.AlignmentFlag.AlignCenter)
            ticks.addWidget(tick)
            self.dk_ticks.append(tick)
        self.dk_title = QLabel(translate("LabControls", "head size d_k"))
        self.dk_title.setToolTip(self.dk_spin.toolTip())
        form.addRow(self.dk_title, self.dk_spin)
        slider = QVBoxLayout()
        slider.setSpacing(0)
        slider.addWidget(self.dk_slider)
        slider.addLayout(ticks)
        form.addRow(slider)
        self.dk_spin.setValue(64)
        self._dk_changed(64)

    def _training_rows(self, form: QFormLayout) -> None:
        self.optimizer_combo = QComboBox()
        self.optimizer_combo.setObjectName("lab_optimizer")
        self.optimizer_combo.addItem("SGD", "sgd")
        self.optimizer_combo.addItem("Adam", "adam")
        self.optimizer_combo.setToolTip(translate(
            "LabControls",
            "SGD: plain gradient steps, a vanishing gradient means no progress. Adam divides by "
            "the running gradient size, which partly hides it. Changing it resets the learning "
            "rate to the optimiser's default and the sweep to the optimiser's grid."))
        self.lr_spin = LrSpinBox()
        self.lr_spin.setObjectName("lab_lr")
        self.lr_spin.setToolTip(translate(
            "LabControls",
            "Learning rate (step size). Arrows walk 1-2-3-5 per decade; type any value from "
            "{lowest} to {highest}. Defaults: SGD {sgd}, Adam {adam}.").format(
                lowest=format_number(LR_RANGE[0]), highest=format_number(LR_RANGE[1]),
                sgd=format_number(DEFAULT_LR["sgd"]), adam=format_number(DEFAULT_LR["adam"])))
        self.lr_spin.setValue(DEFAULT_LR["sgd"])
        self.grid_label = QLabel()
        self.grid_label.setObjectName("lab_grid")
        self.grid_label.setToolTip(translate("LabControls", "The sweep's nine learning rates, 1-2-5 per decade "
                                             "(SGD) or 1-3 per decade (Adam), around the optimiser's default."))
        self.lr_stack = _Either(self.grid_label, self.lr_spin)
        self.optimizer_combo.currentIndexChanged.connect(self._optimizer_changed)
        self.steps_spin = QSpinBox()
        self.steps_spin.setObjectName("lab_steps")
        self.steps_spin.setRange(*STEPS_RANGE)
        self.steps_spin.setSingleStep(50)
        self.steps_spin.setValue(400)
        self.steps_spin.setToolTip(translate("LabControls", "Number of optimiser steps, each on a fresh batch "
                                             "of 64 queries."))
        self.seed_spin = QSpinBox()
        self.seed_spin.setObjectName("lab_seed")
        self.seed_spin.setRange(0, 2**31 - 1)
        self.seed_spin.setToolTip(translate("LabControls", "Random seed of the initial weights and of the "
                                            "batches: every scaling starts from the same weights and sees the "
                                            "same data."))
        self.seeds_spin = QSpinBox()
        self.seeds_spin.setObjectName("lab_seeds")
        self.seeds_spin.setRange(1, MAX_SEEDS)
        self.seeds_spin.setToolTip(translate("LabControls", "How many seeds the sweep trains (0, 1, …): the "
                                             "plots show their median and, as a band, their range. More seeds "
                                             "take proportionally longer."))
        self.seed_stack = _Either(self.seeds_spin, self.seed_spin)
        self.lr_title = QLabel(translate("LabControls", "rates"))
        self.seed_title = QLabel(translate("LabControls", "seeds"))
        for label, widget in ((QLabel(translate("LabControls", "optimiser")), self.optimizer_combo),
                              (self.lr_title, self.lr_stack),
                              (QLabel(translate("LabControls", "steps")), self.steps_spin),
                              (self.seed_title, self.seed_stack)):
            label.setToolTip(widget.toolTip())
            form.addRow(label, widget)
        self._update_grid_label()

    def _model_rows(self, form: QFormLayout) -> None:
        self.layers_spin = QSpinBox()
        self.layers_spin.setObjectName("lab_layers")
        self.layers_spin.setRange(1, MAX_LAYERS)
        self.layers_spin.setToolTip(translate(
            "LabControls",
            "Attention layers. Below the last, each layer attends from the query's residual "
            "stream to the keys and adds what it read; the last reads the values. Same task."))
        self.learn_v_check = QCheckBox(translate("LabControls", "learn W_v too"))
        self.learn_v_check.setObjectName("lab_learn_v")
        self.learn_v_check.setToolTip(translate(
            "LabControls",
            "Also learn W_v, what the head reads (it starts at the identity). Off: W_v stays "
            "the identity; its gradient is still plotted, as what it would get."))
        label = QLabel(translate("LabControls", "layers"))
        label.setToolTip(self.layers_spin.toolTip())
        form.addRow(label, self.layers_spin)
        form.addRow(self.learn_v_check)

    def _loss_rows(self, form: QFormLayout) -> None:
        self.loss_combo = QComboBox()
        self.loss_combo.setObjectName("lab_loss")
        self.loss_combo.addItem(translate("LabControls", "MSE"), "mse")
        self.loss_combo.addItem(translate("LabControls", "cross-entropy"), "ce")
        note = translate("LabControls", LOSS_NOTE)
        self.loss_combo.setItemData(0, translate("LabControls", "MSE through the attention weights: squared "
                                                 "error of the output Σ p_j v_j against the right value; the "
                                                 "softmax Jacobian is on the gradient path."),
                                    Qt.ItemDataRole.ToolTipRole)
        self.loss_combo.setItemData(1, translate("LabControls", "Cross-entropy on the logits, the right key as "
                                                 "the class. {note}").format(note=note),
                                    Qt.ItemDataRole.ToolTipRole)
        self.loss_combo.setToolTip(translate("LabControls", "MSE through the attention weights (default) or "
                                             "cross-entropy on the logits with the right key as the class. "
                                             "{note}").format(note=note))
        label = QLabel(translate("LabControls", "loss"))
        label.setToolTip(self.loss_combo.toolTip())
        form.addRow(label, self.loss_combo)

    def _scaling_rows(self, form: QFormLayout) -> None:
        self.scaling_checks: dict[str, QCheckBox] = {}
        tips = {
            "none": translate("LabControls", "Raw logits q·k: always trained, it is half of the comparison."),
            "sqrt_dk": translate("LabControls", "Logits q·k / √d_k: always trained, it is the other half."),
            "qk_norm": translate("LabControls", "QK-norm: 10 · cos(q, k), so logits stay in [−10, 10] for every "
                                 "d_k (fixed gain 10). Optional third run."),
        }
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(0)
        for i, s in enumerate(LAB_SCALINGS):
            check = QCheckBox(_(LAB_LABELS[s]))
            check.setObjectName(f"lab_check_{s}")
            check.setToolTip(tips[s])
            check.setChecked(s != "qk_norm")
            check.setEnabled(s == "qk_norm")
            grid.addWidget(check, i, 0)
            self.scaling_checks[s] = check
        self.qk_check = self.scaling_checks["qk_norm"]
        label = QLabel(translate("LabControls", "train"))
        label.setToolTip(translate("LabControls", "Raw logits and ÷√d_k are always trained; QK-norm is optional."))
        form.addRow(label, grid)

    def apply_style(self) -> None:
        s = self.style_
        p = s.palette
        self.setFont(s.font(13))
        self.dk_spin.setFont(s.font(15, bold=True))
        self.dk_title.setFont(s.font(13, bold=True))
        self.measured.setFont(s.font(12))
        self.measured.setStyleSheet(f"color: {p.muted};")
        self.grid_label.setFont(s.font(12))
        for tick in self.dk_ticks:
            tick.setFont(s.font(11))
        self.defaults_button.setFont(s.font(12))
        for button in (self.sweep_button, self.single_button):
            button.setFont(s.font(13, bold=True))
        pad = round(5 * s.zoom)
        self.sweep_button.setStyleSheet(self._mode_sheet("left", pad))
        self.single_button.setStyleSheet(self._mode_sheet("right", pad))
        for scaling, check in self.scaling_checks.items():
            check.setFont(s.font(13, bold=True))
            colour = s.colour_for(scaling)  # the box is the colour key; disabled stays coloured
            check.setStyleSheet(f"QCheckBox, QCheckBox:disabled {{ color: {colour}; }}")

    def _mode_sheet(self, side: str, pad: int) -> str:
        p = self.style_.palette
        radius = (f"border-top-{side}-radius: 6px; border-bottom-{side}-radius: 6px;")
        return (f"QPushButton {{ padding: {pad}px; border: 2px solid {p.scaled}; {radius} "
                f"background: {p.bg}; color: {p.scaled}; }}"
                f"QPushButton:checked {{ background: {p.scaled}; color: white; }}"
                f"QPushButton:disabled {{ border-color: {p.border}; color: {p.muted}; }}"
                f"QPushButton:checked:disabled {{ background: {p.border}; color: {p.strip}; }}")

    # --- behaviour -------------------------------------------------------------------------
    def wrap_rows(self, wrap: bool) -> None:
        """Each field under its label (a long language in a narrow column), or beside it."""
        policy = QFormLayout.RowWrapPolicy.WrapAllRows if wrap else QFormLayout.RowWrapPolicy.DontWrapRows
        if self.form.rowWrapPolicy() != policy:
            self.form.setRowWrapPolicy(policy)

    def needed_width(self, wrap: bool) -> int:
        """The form's minimum width with its fields beside their labels or under them,
        measured from its rows (switching the policy to measure it would make the form keep
        stale row heights when asked inside a layout pass)."""
        form, roles = self.form, QFormLayout.ItemRole

        labels = fields = spans = 0
        for row in range(form.rowCount()):
            span = form.itemAt(row, roles.SpanningRole)
            if span is not None:  # a row across both columns (itemAt's field role finds it too)
                spans = max(spans, 0 if span.isEmpty() else span.minimumSize().width())
                continue
            for role in (roles.LabelRole, roles.FieldRole):
                item = form.itemAt(row, role)
                width = 0 if item is None or item.isEmpty() else item.minimumSize().width()
                if role == roles.LabelRole:
                    labels = max(labels, width)
                else:
                    fields = max(fields, width)
        # Beside: one column of labels (as wide as the widest) and one of fields.
        rows = max(labels, fields) if wrap else labels + max(0, form.horizontalSpacing()) + fields
        margins = form.contentsMargins()
        return max(rows, spans) + margins.left() + margins.right()

    def mode(self) -> str:
        """"sweep" (every rate of the grid) or "single" (one rate)."""
        return "sweep" if self.sweep_button.isChecked() else "single"

    def _mode_toggled(self, button: QAbstractButton, checked: bool) -> None:
        if not checked:
            return
        sweep = self.mode() == "sweep"
        self.lr_stack.show_index(0 if sweep else 1)
        self.seed_stack.show_index(0 if sweep else 1)
        self.lr_title.setText(translate("LabControls", "rates") if sweep
                              else translate("LabControls", "learning rate"))
        self.seed_title.setText(translate("LabControls", "seeds") if sweep else translate("LabControls", "seed"))
        self.changed.emit()
        self.mode_changed.emit(self.mode())

    def _update_grid_label(self) -> None:
        lrs = self.grid()
        count = len(lrs)  # a name, not a call: lupdate skips a translate() with a call among its arguments
        self.grid_label.setText(translate("LabControls", "{lowest} … {highest} (%n rates)", None, count)
                                .format(lowest=format_number(lrs[0]), highest=format_number(lrs[-1])))

    def grid(self) -> tuple[float, ...]:
        """The sweep's learning rates (the optimiser's grid)."""
        return LR_GRID[self.optimizer_combo.currentData()]

    def seeds(self) -> tuple[int, ...]:
        """The sweep's seeds: 0, 1, … (as many as the seeds box says)."""
        return tuple(range(self.seeds_spin.value()))

    def _dk_changed(self, d_k: int) -> None:
        pos = round(math.log2(d_k))
        if self.dk_slider.value() != pos:
            self.dk_slider.blockSignals(True)  # a typed 300 moves the knob to 256, not d_k
            self.dk_slider.setValue(pos)
            self.dk_slider.blockSignals(False)

    def _optimizer_changed(self, _index: int = 0) -> None:
        self.lr_spin.setValue(DEFAULT_LR[self.optimizer_combo.currentData()])
        self._update_grid_label()

    def set_values(self, d_k: int | None = None, optimizer: str | None = None, lr: float | None = None,
                   loss: str | None = None, steps: int | None = None, seed: int | None = None,
                   qk_norm: bool | None = None, layers: int | None = None, learn_v: bool | None = None,
                   mode: str | None = None, n_seeds: int | None = None) -> None:
        """Set some controls (presets, tests). The optimiser is set before the rate."""
        if mode is not None:
            if mode not in MODES:
                raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
            (self.sweep_button if mode == "sweep" else self.single_button).setChecked(True)
        if d_k is not None:
            self.dk_spin.setValue(d_k)
        if optimizer is not None:
            index = self.optimizer_combo.findData(optimizer)
            if index == self.optimizer_combo.currentIndex():
                self._optimizer_changed()  # a preset means its default rate unless it says
            self.optimizer_combo.setCurrentIndex(index)
        if lr is not None:
            self.lr_spin.setValue(lr)
        if loss is not None:
            self.loss_combo.setCurrentIndex(self.loss_combo.findData(loss))
        if steps is not None:
            self.steps_spin.setValue(steps)
        if seed is not None:
            self.seed_spin.setValue(seed)
        if qk_norm is not None:
            self.qk_check.setChecked(qk_norm)
        if layers is not None:
            self.layers_spin.setValue(layers)
        if learn_v is not None:
            self.learn_v_check.setChecked(learn_v)
        if n_seeds is not None:
            self.seeds_spin.setValue(n_seeds)

    def scalings(self) -> tuple[str, ...]:
        """The scalings Run trains, in training order."""
        return tuple(s for s in LAB_SCALINGS if self.scaling_checks[s].isChecked())

    def config_for(self, scaling: str) -> TrainConfig:
        """The TrainConfig the current controls mean for one scaling (one rate)."""
        return TrainConfig(
            d_k=self.dk_spin.value(),
            optimizer=self.optimizer_combo.currentData(),
            lr=self.lr_spin.value(),
            steps=self.steps_spin.value(),
            seed=self.seed_spin.value(),
            loss=self.loss_combo.currentData(),
            scaling=scaling,
            layers=self.layers_spin.value(),
            learn_v=self.learn_v_check.isChecked(),
        )

    def configs(self) -> tuple[TrainConfig, ...]:
        """What Run hands to the worker: one config per chosen scaling, same everything else."""
        return tuple(self.config_for(s) for s in self.scalings())

    def sweep_request(self) -> tuple[TrainConfig, tuple[str, ...], tuple[float, ...],
                                     tuple[int, ...]]:
        """What Run hands to the worker in sweep mode: (base config, scalings, rates, seeds).

        The base config's lr and seed are not used; its scaling is the first one's.
        """
        scalings = self.scalings()
        return self.config_for(scalings[0]), scalings, self.grid(), self.seeds()
