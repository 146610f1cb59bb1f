"""The settings column of the training lab: what to train, and the TrainConfigs it means.

It holds no run state. :meth:`LabControls.configs` turns the widgets into the
``TrainConfig`` tuple that Run hands to the worker (one per chosen scaling, in that order).
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGridLayout,
                               QHBoxLayout, QLabel, QPushButton, QSlider, QSpinBox, QVBoxLayout,
                               QWidget)

from sqrtdk_gui.gui.style import Style
from sqrtdk_gui.core.training import DEFAULT_LR, TrainConfig

__all__ = ["LabControls", "LrSpinBox", "LR_LADDER", "LAB_SCALINGS", "LAB_LABELS", "LOSS_NOTE",
           "STALL_PRESET", "MEASURED", "DEFAULTS", "DK_RANGE", "STEPS_RANGE"]

DK_RANGE = (4, 1024)
STEPS_RANGE = (50, 2000)
LR_RANGE = (1e-4, 50.0)
# 1-2-3-5 per decade: holds both defaults (0.5, 3e-3) and the stall rate 5.
LR_LADDER = tuple(v for e in range(-4, 2) for m in (1, 2, 3, 5)
                  if LR_RANGE[0] <= (v := float(f"{m}e{e}")) <= LR_RANGE[1])
LAB_SCALINGS = ("none", "sqrt_dk", "qk_norm")
LAB_LABELS = {"none": "raw logits", "sqrt_dk": "÷√d_k", "qk_norm": "QK-norm"}
LOSS_NOTE = ("With cross-entropy on the logits the gradient is p − onehot: the softmax "
             "Jacobian drops out, so saturation hurts far less.")
MEASURED = (
    "<b>Measured</b> (seeds 0–2, default rates SGD 0.5, Adam 3e-3): with SGD, raw and ÷√d_k "
    "train alike up to d_k = 64; raw needs 1.4× the steps to 90 % at d_k = 256 and 2.2× at "
    "1024. At SGD lr 5 raw stalls at chance with ~90 % stuck rows already at d_k = 64, while "
    "÷√d_k trains fastest. With Adam raw is 2× slower at d_k = 64 and 3.6× at 1024. With "
    "cross-entropy on the logits the penalty vanishes."
)
DEFAULTS = {"d_k": 64, "optimizer": "sgd", "loss": "mse", "steps": 400, "seed": 0}
STALL_PRESET = {"d_k": 256, "optimizer": "sgd", "lr": 5.0, "loss": "mse"}


class LrSpinBox(QDoubleSpinBox):
    """Learning rate: the arrows walk 1-2-3-5 per decade; any positive number may be typed."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setDecimals(6)
        self.setRange(*LR_RANGE)
        self.setKeyboardTracking(False)

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt API
        return f"{value:g}"

    def valueFromText(self, text: str) -> float:  # noqa: N802 - Qt API
        try:
            return float(text)
        except ValueError:
            return self.value()

    def validate(self, text: str, pos: int):
        try:
            value = float(text)
        except ValueError:
            ok = all(c in "0123456789.eE+-" for c in text)
            return QValidator.State.Intermediate if ok else QValidator.State.Invalid
        lo, hi = self.minimum(), self.maximum()
        return QValidator.State.Acceptable if lo <= value <= hi else QValidator.State.Intermediate

    def stepBy(self, steps: int) -> None:  # noqa: N802 - Qt API
        value = self.value()
        for _ in range(abs(steps)):
            if steps > 0:
                value = next((v for v in LR_LADDER if v > value * (1 + 1e-9)), LR_LADDER[-1])
            else:
                value = next((v for v in reversed(LR_LADDER) if v < value * (1 - 1e-9)),
                             LR_LADDER[0])
        self.setValue(value)


class LabControls(QWidget):
    """d_k, optimiser, learning rate, steps, seed, loss and the scalings to train.

    One compact form (no group boxes): it must fit a 720-pixel-high projector image.
    """

    changed = Signal()  # any setting changed (the page greys the "trained with" line)

    def __init__(self, style: Style, parent=None) -> None:
        super().__init__(parent)
        self.style_ = style
        form = QFormLayout(self)
        form.setContentsMargins(4, 4, 4, 4)
        form.setHorizontalSpacing(8)
        form.setVerticalSpacing(6)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form = form
        self._dk_rows(form)
        self._training_rows(form)
        self._scaling_rows(form)
        self._loss_rows(form)
        self.defaults_button = QPushButton("Reset to defaults")
        self.defaults_button.setObjectName("lab_defaults")
        self.defaults_button.setToolTip("d_k = 64, SGD, lr 0.5, MSE, 400 steps, seed 0 "
                                        "(does not start a run).")
        self.defaults_button.clicked.connect(lambda: self.set_values(**DEFAULTS))
        form.addRow(self.defaults_button)
        self.measured = QLabel(MEASURED)
        self.measured.setObjectName("lab_measured")
        self.measured.setWordWrap(True)
        self.measured.setTextFormat(Qt.TextFormat.RichText)
        self.measured.setToolTip("Benchmark of this training lab: seeds 0, 1 and 2 per setting.")
        form.addRow(self.measured)
        for spin in (self.dk_spin, self.lr_spin, self.steps_spin, self.seed_spin):
            spin.setMinimumWidth(80)
            spin.valueChanged.connect(self.changed)
        for combo in (self.optimizer_combo, self.loss_combo):
            combo.currentIndexChanged.connect(self.changed)
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(6)
        self.qk_check.toggled.connect(self.changed)
        self.apply_style()

    # --- construction --------------------------------------------------------------------
    def _dk_rows(self, form: QFormLayout) -> None:
        self.dk_spin = QSpinBox()
        self.dk_spin.setObjectName("lab_dk_spin")
        self.dk_spin.setRange(*DK_RANGE)
        self.dk_spin.setToolTip("Head size d_k (width of q and k), any integer from 4 to 1024.")
        self.dk_slider = QSlider(Qt.Orientation.Horizontal)
        self.dk_slider.setObjectName("lab_dk_slider")
        lo, hi = (round(math.log2(d)) for d in DK_RANGE)
        self.dk_slider.setRange(lo, hi)
        self.dk_slider.setPageStep(1)
        self.dk_slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.dk_slider.setTickInterval(1)
        self.dk_slider.setToolTip("Head size d_k in powers of two, 4 … 1024 (log scale).")
        self.dk_slider.valueChanged.connect(lambda pos: self.dk_spin.setValue(2 ** pos))
        self.dk_spin.valueChanged.connect(self._dk_changed)
        ticks = QHBoxLayout()
        ticks.setContentsMargins(0, 0, 0, 0)
        self.dk_ticks = []
        for text in ("4", "16", "64", "256", "1024"):
            tick = QLabel(text)
            tick.setAlignment(Qt.AlignmentFlag.AlignCenter)
            ticks.addWidget(tick)
            self.dk_ticks.append(tick)
        self.dk_title = QLabel("head size d_k")
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
        self.optimizer_combo.setToolTip(
            "SGD: plain gradient steps, a vanishing gradient means no progress. Adam divides by "
            "the running gradient size, which partly hides it. Changing it resets the learning "
            "rate to the optimiser's default.")
        self.lr_spin = LrSpinBox()
        self.lr_spin.setObjectName("lab_lr")
        self.lr_spin.setToolTip(
            "Learning rate (step size). Arrows walk 1-2-3-5 per decade; type any value from "
            f"{LR_RANGE[0]:g} to {LR_RANGE[1]:g}. Defaults: SGD {DEFAULT_LR['sgd']:g}, "
            f"Adam {DEFAULT_LR['adam']:g}.")
        self.lr_spin.setValue(DEFAULT_LR["sgd"])
        self.optimizer_combo.currentIndexChanged.connect(self._optimizer_changed)
        self.steps_spin = QSpinBox()
        self.steps_spin.setObjectName("lab_steps")
        self.steps_spin.setRange(*STEPS_RANGE)
        self.steps_spin.setSingleStep(50)
        self.steps_spin.setValue(400)
        self.steps_spin.setToolTip("Number of optimiser steps, each on a fresh batch of 64 "
                                   "queries.")
        self.seed_spin = QSpinBox()
        self.seed_spin.setObjectName("lab_seed")
        self.seed_spin.setRange(0, 2**31 - 1)
        self.seed_spin.setToolTip("Random seed of the initial weights and of the batches: every "
                                  "scaling starts from the same weights and sees the same data.")
        for text, widget in (("optimiser", self.optimizer_combo), ("learning rate", self.lr_spin),
                             ("steps", self.steps_spin), ("seed", self.seed_spin)):
            label = QLabel(text)
            label.setToolTip(widget.toolTip())
            form.addRow(label, widget)

    def _loss_rows(self, form: QFormLayout) -> None:
        self.loss_combo = QComboBox()
        self.loss_combo.setObjectName("lab_loss")
        self.loss_combo.addItem("MSE", "mse")
        self.loss_combo.addItem("cross-entropy", "ce")
        self.loss_combo.setItemData(0, "MSE through the attention weights: squared error of the "
                                       "output Σ p_j v_j against the right value; the softmax "
                                       "Jacobian is on the gradient path.",
                                    Qt.ItemDataRole.ToolTipRole)
        self.loss_combo.setItemData(1, "Cross-entropy on the logits, the right key as the class. "
                                       + LOSS_NOTE, Qt.ItemDataRole.ToolTipRole)
        self.loss_combo.setToolTip("MSE through the attention weights (default) or cross-entropy "
                                   "on the logits with the right key as the class.")
        label = QLabel("loss")
        label.setToolTip(self.loss_combo.toolTip())
        form.addRow(label, self.loss_combo)
        self.loss_note = QLabel(LOSS_NOTE)
        self.loss_note.setObjectName("lab_loss_note")
        self.loss_note.setWordWrap(True)
        self.loss_note.setToolTip(LOSS_NOTE)
        form.addRow(self.loss_note)

    def _scaling_rows(self, form: QFormLayout) -> None:
        self.scaling_checks: dict[str, QCheckBox] = {}
        tips = {
            "none": "Raw logits q·k: always trained, it is half of the comparison.",
            "sqrt_dk": "Logits q·k / √d_k: always trained, it is the other half.",
            "qk_norm": "QK-norm: 10 · cos(q, k), so logits stay in [−10, 10] for every d_k "
                       "(fixed gain 10). Optional third run.",
        }
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(0)
        for i, s in enumerate(LAB_SCALINGS):
            check = QCheckBox(LAB_LABELS[s])
            check.setObjectName(f"lab_check_{s}")
            check.setToolTip(tips[s])
            check.setChecked(s != "qk_norm")
            check.setEnabled(s == "qk_norm")
            grid.addWidget(check, i, 0)
            self.scaling_checks[s] = check
        self.qk_check = self.scaling_checks["qk_norm"]
        label = QLabel("train")
        label.setToolTip("Raw logits and ÷√d_k are always trained; QK-norm is optional.")
        form.addRow(label, grid)

    def apply_style(self) -> None:
        s = self.style_
        self.setFont(s.font(13))
        self.dk_spin.setFont(s.font(15, bold=True))
        self.dk_title.setFont(s.font(13, bold=True))
        self.loss_note.setFont(s.font(12))
        p = s.palette
        self.loss_note.setStyleSheet(f"color: {p.fg};")
        self.measured.setFont(s.font(12))
        self.measured.setStyleSheet(f"color: {p.muted};")
        for tick in self.dk_ticks:
            tick.setFont(s.font(11))
        self.defaults_button.setFont(s.font(12))
        for scaling, check in self.scaling_checks.items():
            check.setFont(s.font(13, bold=True))
            colour = s.colour_for(scaling)  # the box is the colour key; disabled stays coloured
            check.setStyleSheet(f"QCheckBox, QCheckBox:disabled {{ color: {colour}; }}")

    # --- behaviour -------------------------------------------------------------------------
    def _dk_changed(self, d_k: int) -> None:
        pos = round(math.log2(d_k))
        if self.dk_slider.value() != pos:
            self.dk_slider.blockSignals(True)  # a typed 300 moves the knob to 256, not d_k
            self.dk_slider.setValue(pos)
            self.dk_slider.blockSignals(False)

    def _optimizer_changed(self, _index: int = 0) -> None:
        self.lr_spin.setValue(DEFAULT_LR[self.optimizer_combo.currentData()])

    def set_values(self, d_k=None, optimizer=None, lr=None, loss=None, steps=None, seed=None,
                   qk_norm=None) -> None:
        """Set some controls (presets, tests). The optimiser is set before the rate."""
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

    def scalings(self) -> tuple[str, ...]:
        """The scalings Run trains, in training order."""
        return tuple(s for s in LAB_SCALINGS if self.scaling_checks[s].isChecked())

    def config_for(self, scaling: str) -> TrainConfig:
        """The TrainConfig the current controls mean for one scaling."""
        return TrainConfig(
            d_k=self.dk_spin.value(),
            optimizer=self.optimizer_combo.currentData(),
            lr=self.lr_spin.value(),
            steps=self.steps_spin.value(),
            seed=self.seed_spin.value(),
            loss=self.loss_combo.currentData(),
            scaling=scaling,
        )

    def configs(self) -> tuple[TrainConfig, ...]:
        """What Run hands to the worker: one config per chosen scaling, same everything else."""
        return tuple(self.config_for(s) for s in self.scalings())
