"""The controls column: sliders and switches that edit the parameters.

It only reports edits (``params_edited``, ``row_edited``) and shows the parameters it is
given (``show_params``); the controller decides. Showing never re-emits an edit. Its texts are
in the current language; symbols (d_k, τ, ÷ √d_k) and the float types' names are as they are.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLayoutItem,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from sqrtdk_gui.core.attention.compute import selectable_rows
from sqrtdk_gui.core.attention.params import DTYPES, FLOAT_RANGES, INT_RANGES, SOFTMAX_VARIANTS, Params
from sqrtdk_gui.core.attention.result import MEDIAN_ROW
from sqrtdk_gui.core.attention.scaling import MODES, SCALINGS
from sqrtdk_gui.core.i18n import _, localize_number
from sqrtdk_gui.gui.style import SCALING_LABELS, Style, standard_icon

DK_STEPS_PER_OCTAVE = 8
DK_MAX_POS = 12 * DK_STEPS_PER_OCTAVE  # 2**12 = 4096
TEMP_STEPS_PER_DECADE = 60
AUTOPLAY_MIN_S, AUTOPLAY_MAX_S, AUTOPLAY_DEFAULT_S = 3, 30, 8  # seconds per sweep 1 -> 4096
TEMP_MIN_POS = math.ceil(TEMP_STEPS_PER_DECADE * math.log10(FLOAT_RANGES["temperature"][0]))
TEMP_MAX_POS = round(TEMP_STEPS_PER_DECADE * math.log10(FLOAT_RANGES["temperature"][1]))

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "ControlsPanel"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

# English, marked for lupdate; shown through translate("ControlsPanel", ...).
SOFTMAX_LABELS = {"stable": QT_TRANSLATE_NOOP("ControlsPanel", "stable (subtract row max)"),
                  "naive": QT_TRANSLATE_NOOP("ControlsPanel", "naive exp(z) / Σ exp")}

SCALING_TIPS = {key: mode.tip for key, mode in MODES.items()}  # the core's texts: shown through _()


def _set_value(spin: QSpinBox | QDoubleSpinBox, value: Any) -> None:  # an int for a QSpinBox
    # QAbstractSpinBox.setValue repaints the box even when the value is unchanged: showing
    # the parameters on every frame of a drag would repaint the whole controls column.
    if spin.value() != value:
        spin.setValue(value)


def dk_from_pos(pos: int) -> int:
    return max(1, round(2 ** (pos / DK_STEPS_PER_OCTAVE)))


def pos_from_dk(d_k: int) -> int:
    return round(DK_STEPS_PER_OCTAVE * math.log2(d_k))


def temperature_from_pos(pos: int) -> float:
    return max(FLOAT_RANGES["temperature"][0], 10 ** (pos / TEMP_STEPS_PER_DECADE))


def pos_from_temperature(t: float) -> int:
    return round(TEMP_STEPS_PER_DECADE * math.log10(t))


class ControlsPanel(QWidget):
    """Every control of the live window, with units, current values and tooltips."""

    params_edited = Signal(dict)
    row_edited = Signal(int)
    autoplay_toggled = Signal(bool)
    autoplay_seconds = Signal(float)

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.style_ = style
        self._showing = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(10)
        # The groups by the names a teacher's lesson hides or locks them with (core.lesson.plan).
        self.groups: dict[str, QGroupBox] = {
            "d_k": self._dk_group(), "scaling": self._scaling_group(), "temperature": self._temperature_group(),
            "sample": self._sample_group(), "more": self._more_group()}
        for name, group in self.groups.items():
            group.setObjectName(f"group_{name}")
            layout.addWidget(group)
        layout.addStretch(1)
        # Let wide ranges and long item texts shrink: the column must fit a 1280-pixel screen.
        widget: QWidget  # (in both loops below)
        for widget in self.findChildren(QAbstractSpinBox):
            widget.setMinimumWidth(64)
        for combo in self.findChildren(QComboBox):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(8)
        # What a drag changes paints its own background (the window colour, as under it), so
        # Qt does not repaint the group box and the column beneath it on every frame.
        for widget in (*self.findChildren(QGroupBox), self.dk_slider, self.dk_label, self.dk_spin,
                       self.temp_slider, self.temp_label):
            widget.setAutoFillBackground(True)
        self.apply_style()

    # --- construction --------------------------------------------------------------------
    def _dk_group(self) -> QGroupBox:
        box = QGroupBox(translate("ControlsPanel", "Head size"))
        self.dk_label = QLabel()
        self.dk_slider = QSlider(Qt.Orientation.Horizontal)
        self.dk_slider.setObjectName("dk_slider")
        self.dk_slider.setRange(0, DK_MAX_POS)
        self.dk_slider.setPageStep(DK_STEPS_PER_OCTAVE)
        self.dk_slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.dk_slider.setTickInterval(DK_STEPS_PER_OCTAVE)  # a tick at every power of two
        self.dk_slider.setToolTip(translate("ControlsPanel", "Head size d_k on a log scale: ticks at 1, 2, 4, …, "
                                            "4096. Arrow keys step an eighth of an octave (Page Up/Down belong to "
                                            "the lesson: they are what a clicker sends)."))
        self.dk_slider.valueChanged.connect(lambda pos: self._edit(d_k=dk_from_pos(pos)))
        self.dk_spin = QSpinBox()
        self.dk_spin.setObjectName("dk_spin")
        self.dk_spin.setRange(*INT_RANGES["d_k"])
        self.dk_spin.setToolTip(translate("ControlsPanel", "Any head size d_k from 1 to 4096."))
        self.dk_spin.valueChanged.connect(lambda v: self._edit(d_k=v))
        self.autoplay = QPushButton(translate("ControlsPanel", "Autoplay"))
        self.autoplay.setIcon(standard_icon("MediaPlay"))
        self.autoplay.setObjectName("autoplay")
        self.autoplay.setCheckable(True)
        self.autoplay.setToolTip(translate("ControlsPanel", "Sweep d_k from 1 to 4096 and back, again and again, "
                                           "while you talk (P). Any other control stops it."))
        self.autoplay.toggled.connect(self._autoplay_toggled)
        self.speed = QSlider(Qt.Orientation.Horizontal)
        self.speed.setObjectName("autoplay_speed")
        self.speed.setRange(AUTOPLAY_MIN_S, AUTOPLAY_MAX_S)
        self.speed.setValue(AUTOPLAY_DEFAULT_S)
        self.speed.setInvertedAppearance(True)  # right = faster
        self.speed.setToolTip(translate("ControlsPanel", "Autoplay speed: seconds for one sweep from 1 to 4096 "
                                        "({low}–{high} s; right is faster).")
                              .format(low=AUTOPLAY_MIN_S, high=AUTOPLAY_MAX_S))
        self.speed.valueChanged.connect(self._speed_changed)
        self.speed_label = QLabel()
        self._speed_changed(self.speed.value(), emit=False)
        play = QHBoxLayout()
        play.addWidget(self.autoplay)
        play.addWidget(self.speed, 1)
        play.addWidget(self.speed_label)
        ticks = QHBoxLayout()
        for text in ("1", "8", "64", "512", "4096"):
            tick = QLabel(text)
            tick.setAlignment(Qt.AlignmentFlag.AlignCenter)
            ticks.addWidget(tick)
        self.dk_ticks = ticks
        row = QHBoxLayout()
        row.addWidget(self.dk_label, 1)
        row.addWidget(self.dk_spin)
        v = QVBoxLayout(box)
        v.addLayout(row)
        v.addWidget(self.dk_slider)
        v.addLayout(ticks)
        v.addLayout(play)
        return box

    def _autoplay_toggled(self, on: bool) -> None:
        self.autoplay.setText(translate("ControlsPanel", "Pause") if on else translate("ControlsPanel", "Autoplay"))
        self.autoplay.setIcon(standard_icon("MediaPause" if on else "MediaPlay"))
        if not self._showing:
            self.autoplay_toggled.emit(on)

    def _speed_changed(self, seconds: int, emit: bool = True) -> None:
        self.speed_label.setText(f"{seconds} s")
        if emit:
            self.autoplay_seconds.emit(float(seconds))

    def show_autoplay(self, running: bool) -> None:
        """Reflect the animator's state without emitting a toggle."""
        self._showing = True
        try:
            self.autoplay.setChecked(running)
        finally:
            self._showing = False

    def _scaling_group(self) -> QGroupBox:
        box = QGroupBox(translate("ControlsPanel", "Scaling of q·k"))
        self.raw_button = QPushButton(translate("ControlsPanel", "raw logits"))
        self.scaled_button = QPushButton("÷ √d_k")
        # No QButtonGroup: Qt would take the unchecked button out of the Tab order, and a
        # non-exclusive group gives no arrow keys either; both must be reachable by keyboard.
        for button, scaling in ((self.raw_button, "none"), (self.scaled_button, "sqrt_dk")):
            button.setCheckable(True)
            button.setObjectName(f"scaling_{scaling}")
            button.setToolTip(_(SCALING_TIPS[scaling]))
            # A click on the checked button would uncheck it: keep it checked, it is a switch.
            button.clicked.connect(partial(self._switch, button, scaling))
        self.scaling_combo = QComboBox()
        self.scaling_combo.setObjectName("scaling_combo")
        for s in SCALINGS:
            self.scaling_combo.addItem(SCALING_LABELS[s], s)
            self.scaling_combo.setItemData(self.scaling_combo.count() - 1, _(SCALING_TIPS[s]),
                                           Qt.ItemDataRole.ToolTipRole)
        self.scaling_combo.setToolTip(translate("ControlsPanel", "All scaling modes, including the traps and "
                                                "follow-ups."))
        self.scaling_combo.currentIndexChanged.connect(
            lambda i: self._edit(scaling=self.scaling_combo.itemData(i)))
        row = QHBoxLayout()
        row.addWidget(self.raw_button)
        row.addWidget(self.scaled_button)
        v = QVBoxLayout(box)
        v.addLayout(row)
        v.addWidget(self.scaling_combo)
        return box

    def _temperature_group(self) -> QGroupBox:
        box = QGroupBox(translate("ControlsPanel", "Temperature"))
        self.temp_label = QLabel()
        self.temp_slider = QSlider(Qt.Orientation.Horizontal)
        self.temp_slider.setObjectName("temp_slider")
        self.temp_slider.setRange(TEMP_MIN_POS, TEMP_MAX_POS)
        self.temp_slider.setPageStep(TEMP_STEPS_PER_DECADE // 3)
        self.temp_slider.setToolTip(translate("ControlsPanel", "Softmax temperature τ on a log scale from 0.05 to "
                                              "10: logits are divided by τ."))
        self.temp_slider.valueChanged.connect(
            lambda pos: self._edit(temperature=temperature_from_pos(pos)))
        self.temp_reset = QPushButton("τ = 1")
        self.temp_reset.setObjectName("temp_reset")
        self.temp_reset.setToolTip(translate("ControlsPanel", "Set the temperature back to 1."))
        self.temp_reset.clicked.connect(lambda: self._edit(temperature=1.0))
        row = QHBoxLayout()
        row.addWidget(self.temp_label, 1)
        row.addWidget(self.temp_reset)
        v = QVBoxLayout(box)
        v.addLayout(row)
        v.addWidget(self.temp_slider)
        return box

    def _sample_group(self) -> QGroupBox:
        box = QGroupBox(translate("ControlsPanel", "Sample"))
        form = QFormLayout(box)
        self.keys_spin = QSpinBox()
        self.keys_spin.setObjectName("keys_spin")
        self.keys_spin.setRange(*INT_RANGES["keys"])
        self.keys_spin.setToolTip(translate("ControlsPanel", "Number of keys n each query attends over (sequence "
                                            "length), up to 131 072. Above 1024 the keys are streamed in blocks for "
                                            "a sample of at most 256 query rows."))
        self.keys_spin.valueChanged.connect(lambda v: self._edit(keys=v))
        self.row_spin = QSpinBox()
        self.row_spin.setObjectName("row_spin")
        self.row_spin.setToolTip(translate("ControlsPanel", "Which query panels 2 and 3 show. 'median row' (the "
                                           "default, below 0) is the query whose ‖J‖_F is the median: a typical "
                                           "row. Above 1,024 queries the first 1,024 can be picked."))
        self.row_spin.setSpecialValueText(translate("ControlsPanel", "median row"))
        self.row_spin.setMinimumWidth(110)
        self.row_spin.valueChanged.connect(self._row)
        self.seed_spin = QSpinBox()
        self.seed_spin.setObjectName("seed_spin")
        self.seed_spin.setRange(0, 2**31 - 1)
        self.seed_spin.setToolTip(translate("ControlsPanel", "Random seed of the queries, keys and values."))
        self.seed_spin.valueChanged.connect(lambda v: self._edit(seed=v))
        self.new_sample = QPushButton(translate("ControlsPanel", "New sample"))
        self.new_sample.setObjectName("new_sample")
        self.new_sample.setToolTip(translate("ControlsPanel", "Draw new random queries and keys (seed + 1)."))
        self.new_sample.clicked.connect(lambda: self._edit(seed=self.seed_spin.value() + 1))
        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed_spin, 1)
        seed_row.addWidget(self.new_sample)
        form.addRow(translate("ControlsPanel", "keys n"), self.keys_spin)
        form.addRow(translate("ControlsPanel", "query row"), self.row_spin)
        form.addRow(translate("ControlsPanel", "seed"), seed_row)
        return box

    def _more_group(self) -> QGroupBox:
        box = QGroupBox(translate("ControlsPanel", "More parameters"))
        form = QFormLayout(box)
        self.heads_spin = QSpinBox()
        self.heads_spin.setObjectName("heads_spin")
        self.heads_spin.setRange(*INT_RANGES["heads"])
        self.heads_spin.setToolTip(translate("ControlsPanel", "Heads h: d_model = h·d_k (used by the ÷√d_model "
                                             "trap)."))
        self.heads_spin.valueChanged.connect(lambda v: self._edit(heads=v))
        self.gain_spin = self._double_spin("gain", translate("ControlsPanel", "QK-norm gain g: logits lie in "
                                                             "[−g, g]."), 0.5)
        self.align_spin = self._double_spin(
            "alignment", translate("ControlsPanel", "Alignment ρ: each query leans towards one key, as after "
                                   "training."), 0.05)
        self.softmax_combo = QComboBox()
        self.softmax_combo.setObjectName("softmax_combo")
        for variant in SOFTMAX_VARIANTS:
            self.softmax_combo.addItem(translate("ControlsPanel", SOFTMAX_LABELS[variant]), variant)
        self.softmax_combo.setToolTip(translate("ControlsPanel", "How exp is evaluated: the naive form overflows for "
                                                "large logits."))
        self.softmax_combo.currentIndexChanged.connect(
            lambda i: self._edit(softmax=self.softmax_combo.itemData(i)))
        self.dtype_combo = QComboBox()
        self.dtype_combo.setObjectName("dtype_combo")
        for d in DTYPES:
            self.dtype_combo.addItem(d, d)
        self.dtype_combo.setToolTip(translate("ControlsPanel", "Float type the softmax is evaluated in. bfloat16 "
                                              "and float8 round the logits to the type, then run the softmax in "
                                              "float32 (an unfused pipeline; fused kernels round q, k and p "
                                              "instead)."))
        self.dtype_combo.currentIndexChanged.connect(
            lambda i: self._edit(dtype=self.dtype_combo.itemData(i)))
        form.addRow(translate("ControlsPanel", "heads h"), self.heads_spin)
        form.addRow(translate("ControlsPanel", "QK gain g"), self.gain_spin)
        form.addRow(translate("ControlsPanel", "alignment ρ"), self.align_spin)
        form.addRow(translate("ControlsPanel", "softmax"), self.softmax_combo)
        form.addRow(translate("ControlsPanel", "float type"), self.dtype_combo)
        return box

    def _double_spin(self, name: str, tip: str, step: float) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setObjectName(f"{name}_spin")
        spin.setRange(*FLOAT_RANGES[name])
        spin.setSingleStep(step)
        spin.setDecimals(2)
        spin.setToolTip(tip)
        spin.valueChanged.connect(lambda v: self._edit(**{name: v}))
        return spin

    # --- behaviour -------------------------------------------------------------------------
    def apply_style(self) -> None:
        s = self.style_
        self.setFont(s.font(12))
        big = s.font(15, bold=True)
        for label, widest in ((self.dk_label, "d_k = 4096"), (self.temp_label, "τ = 10.00")):
            label.setFont(big)
            # A fixed size: a new value then never re-lays out (and repaints) the column.
            label.setFixedSize(QFontMetrics(big).horizontalAdvance(widest) + 4,
                               QFontMetrics(big).height() + 2)
        self.autoplay.setFont(s.font(13, bold=True))
        self.speed_label.setFont(s.font(11))
        for button, scaling in ((self.raw_button, "none"), (self.scaled_button, "sqrt_dk")):
            button.setFont(s.font(14, bold=True))
            colour = s.colour_for(scaling)
            # A visible focus ring: the switch is operable with Tab and Space.
            button.setStyleSheet(
                f"QPushButton {{ padding: {s.pt(6)}px; border: 2px solid {colour}; border-radius: 6px; }}"
                f"QPushButton:checked {{ background: {colour}; color: white; }}"
                f"QPushButton:focus {{ border: 3px solid {s.palette.highlight}; }}")
        small = s.font(10)
        for i in range(self.dk_ticks.count()):
            cast(QWidget, cast(QLayoutItem, self.dk_ticks.itemAt(i)).widget()).setFont(small)  # each a tick label

    def set_lesson_controls(self, hidden: tuple[str, ...], locked: tuple[str, ...]) -> None:
        """Hide the groups ``hidden`` and lock (disable) the groups ``locked``; every other shown
        and enabled (a teacher's lesson names them; the lesson as shipped names none)."""
        for name, group in self.groups.items():
            group.setVisible(name not in hidden)
            group.setEnabled(name not in locked)
            tip = translate("ControlsPanel", "Locked by the lesson open") if name in locked else ""
            group.setToolTip(tip)

    def _switch(self, button: QPushButton, scaling: str, *_checked: object) -> None:
        button.setChecked(True)
        self._edit(scaling=scaling)

    def _edit(self, **changes: object) -> None:
        if not self._showing:
            self.params_edited.emit(changes)

    def _row(self, row: int) -> None:
        if not self._showing:
            self.row_edited.emit(row)

    def show_params(self, p: Params) -> None:
        """Make every widget show ``p`` without emitting edits."""
        self._showing = True
        try:
            self.dk_label.setText(f"d_k = {p.d_k}")
            _set_value(self.dk_spin, p.d_k)
            if dk_from_pos(self.dk_slider.value()) != p.d_k:  # never yank a slider being dragged
                self.dk_slider.setValue(pos_from_dk(p.d_k))
            self.temp_label.setText(localize_number(f"τ = {p.temperature:.2f}"))
            if not math.isclose(temperature_from_pos(self.temp_slider.value()), p.temperature):
                self.temp_slider.setValue(pos_from_temperature(p.temperature))
            self.raw_button.setChecked(p.scaling == "none")
            self.scaled_button.setChecked(p.scaling == "sqrt_dk")
            self.scaling_combo.setCurrentIndex(self.scaling_combo.findData(p.scaling))
            _set_value(self.keys_spin, p.keys)
            top = selectable_rows(p) - 1
            if self.row_spin.maximum() != top:  # setRange repaints the box even when unchanged
                self.row_spin.setRange(MEDIAN_ROW, top)
            _set_value(self.seed_spin, min(p.seed, self.seed_spin.maximum()))
            _set_value(self.heads_spin, p.heads)
            _set_value(self.gain_spin, p.gain)
            _set_value(self.align_spin, p.alignment)
            self.softmax_combo.setCurrentIndex(self.softmax_combo.findData(p.softmax))
            self.dtype_combo.setCurrentIndex(self.dtype_combo.findData(p.dtype))
        finally:
            self._showing = False

    def show_row(self, row: int) -> None:
        self._showing = True
        try:
            _set_value(self.row_spin, row)
        finally:
            self._showing = False
