"""Drives the lesson: which step or scenario is on, its parameters, highlights, animation."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from sqrtdk_gui.core.lesson.content import STEPS, Scenario, Step
from sqrtdk_gui.core.lesson.content import scenario as find_scenario
from sqrtdk_gui.core.lesson.evidence import evidence
from sqrtdk_gui.core.model import Params

__all__ = ["LessonPresenter"]


class LessonPresenter(QObject):
    """Navigation over STEPS (1-based; 0 is the intro) and the scenarios of step 5.

    ``highlight`` is a callable taking panel names; ``animator`` a DkAnimator.
    """

    changed = Signal(str)  # a short description for the window title ("" at the intro)

    def __init__(self, controller, pane, highlight, animator, parent=None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._pane = pane
        self._highlight = highlight
        self._animator = animator
        self.step = 0
        self.scenario: Scenario | None = None
        pane.next_clicked.connect(self.next)
        pane.previous_clicked.connect(self.previous)
        pane.scenario_clicked.connect(self.choose_scenario)

    @property
    def count(self) -> int:
        return len(STEPS)

    def current(self) -> Step | None:
        return STEPS[self.step - 1] if self.step else None

    def go_to(self, number: int, animate: bool = True) -> None:
        """Enter step ``number`` (1..count): apply its preset, highlight, maybe animate."""
        number = min(max(int(number), 1), self.count)
        step = STEPS[number - 1]
        self._animator.stop()
        self.step, self.scenario = number, None
        self._apply(step.preset)
        if animate and step.animation is not None:
            a = step.animation
            self._controller.set_params(d_k=a.start)
            self._animator.run(a.start, a.end, a.seconds)
        self._highlight(step.highlight)
        self._pane.show_step(step, self.count)
        self.changed.emit(f"Step {number}/{self.count}: {step.title}")

    def choose_scenario(self, key: str) -> None:
        """Show a trap or follow-up: its parameters, highlights and evidence table."""
        s = find_scenario(key)
        self._animator.stop()
        self.step, self.scenario = self.count, s
        self._apply(s.preset)
        self._highlight(s.highlight)
        self._pane.show_scenario(s, evidence(key, self._controller.params))
        self.changed.emit(f"{s.kind.capitalize()}: {s.title}")

    def restore(self, step: int, scenario: Scenario | str | None) -> None:
        """Show a lesson position without applying its preset (presets, settings, slides)."""
        self._animator.stop()
        key = scenario.key if isinstance(scenario, Scenario) else scenario
        if key:
            s = find_scenario(key)
            self.step, self.scenario = self.count, s
            self._highlight(s.highlight)
            self._pane.show_scenario(s, evidence(key, self._controller.params))
            self.changed.emit(f"{s.kind.capitalize()}: {s.title}")
        elif step:
            current = STEPS[step - 1]
            self.step, self.scenario = step, None
            self._highlight(current.highlight)
            self._pane.show_step(current, self.count)
            self.changed.emit(f"Step {step}/{self.count}: {current.title}")
        else:
            self.step, self.scenario = 0, None
            self._highlight(())
            self._pane.show_intro()
            self.changed.emit("")

    def next(self) -> None:
        if self.scenario is None and self.step < self.count:
            self.go_to(self.step + 1)

    def previous(self) -> None:
        if self.scenario is not None:
            self.go_to(self.count)  # back from a scenario to its gateway step
        elif self.step > 1:
            self.go_to(self.step - 1)

    def first(self) -> None:
        self.go_to(1)

    def last(self) -> None:
        self.go_to(self.count)

    def _apply(self, preset: dict) -> None:
        # A preset is a whole, reproducible state: defaults plus the step's own values.
        self._controller.replace_params(Params(**preset))
