"""Animate d_k through the controller: the lesson's sweeps and the autoplay.

The value moves uniformly in log2(d_k), so every octave takes the same time and the
histogram widens at a steady pace. Each frame only asks the controller for a new d_k; the
controller's coalescing keeps slow machines from queueing frames. Whatever else changes the
parameters (a user's edit, a preset, a lesson step, undo) stops the sweep: the teacher took
over, and the sweep must not fight back.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QEasingCurve, QObject, QVariantAnimation, Signal

if TYPE_CHECKING:
    from sqrtdk_gui.gui.window.controller import Controller

__all__ = ["DkAnimator"]


class DkAnimator(QObject):
    """Sweeps d_k between two values once, or back and forth until stopped."""

    running_changed = Signal(bool)

    def __init__(self, controller: Controller, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._ping_pong = False
        self._anim = QVariantAnimation(self)
        self._anim.setEasingCurve(QEasingCurve.Type.InOutSine)
        self._anim.valueChanged.connect(self._on_value)
        self._anim.finished.connect(self._on_finished)
        controller.edited.connect(self._taken_over)
        controller.replacing.connect(self.stop)

    @property
    def running(self) -> bool:
        return self._anim.state() == QVariantAnimation.State.Running

    def run(self, start: int, end: int, seconds: float, ping_pong: bool = False) -> None:
        """Sweep from ``start`` to ``end`` in ``seconds`` (then back, forever, if ping_pong)."""
        self._anim.stop()
        self._ping_pong = ping_pong
        self._anim.setStartValue(math.log2(start))
        self._anim.setEndValue(math.log2(end))
        self._anim.setDuration(max(1, round(1000 * seconds)))
        self._anim.setDirection(QVariantAnimation.Direction.Forward)
        self._anim.start()
        self.running_changed.emit(True)

    def set_seconds(self, seconds: float) -> None:
        """Change the sweep's duration (autoplay speed) without restarting it."""
        self._anim.setDuration(max(1, round(1000 * seconds)))

    def stop(self) -> None:
        if self.running:
            self._anim.stop()
            self.running_changed.emit(False)

    def _taken_over(self, _before: object, _names: object) -> None:
        self.stop()

    def finish(self) -> None:
        """Jump to the end of a one-way sweep at once (headless rendering)."""
        if self.running:
            self._ping_pong = False
            self._anim.setCurrentTime(self._anim.duration())

    def _on_value(self, value: float) -> None:
        self._controller.set_params(d_k=max(1, round(2 ** float(value))))

    def _on_finished(self) -> None:
        if self._ping_pong:
            forward = self._anim.direction() == QVariantAnimation.Direction.Forward
            self._anim.setDirection(QVariantAnimation.Direction.Backward if forward
                                    else QVariantAnimation.Direction.Forward)
            self._anim.start()
        else:
            self.running_changed.emit(False)
