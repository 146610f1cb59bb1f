"""The lesson in order (no Qt): its steps and its traps and follow-ups, from ``pages``.

Texts live in ``resources/lesson/*.html`` (compiled into the Qt resource module); each page
module names its text, the parameters it sets on entry, the panels it points at, and, for
steps, a "predict first" question with its answer.

Measured numbers are never written in the texts: they are ``{figure_key}`` placeholders that
``sqrtdk_gui.core.lesson.figures.fill`` replaces by ranges computed over several seeds.
"""

from __future__ import annotations

from sqrtdk_gui.core.lesson.page import Scenario, Step
from sqrtdk_gui.core.lesson.pages import PAGES

__all__ = ["STEPS", "SCENARIOS", "scenario"]

STEPS: tuple[Step, ...] = tuple(m.PAGE for m in PAGES if isinstance(m.PAGE, Step))
SCENARIOS: tuple[Scenario, ...] = tuple(m.PAGE for m in PAGES if isinstance(m.PAGE, Scenario))


def scenario(key: str) -> Scenario:
    """The scenario called ``key`` (KeyError names the known ones)."""
    for s in SCENARIOS:
        if s.key == key:
            return s
    raise KeyError(f"unknown scenario {key!r}; known: {', '.join(s.key for s in SCENARIOS)}")
