"""The lesson in order (no Qt): its steps and its traps and follow-ups, from ``pages``.

Texts live beside their modules in ``lesson/pages/`` (``core.lesson.texts`` reads them); each page
module names its text, the parameters it sets on entry, the panels it points at, and, for
steps, a "predict first" question with its answer.

Measured numbers are never written in the texts: they are ``{figure_key}`` placeholders that
``sqrtdk_gui.core.lesson.figures.fill`` replaces by ranges computed over several seeds.
"""

from __future__ import annotations

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.scaling import compared_scalings
from sqrtdk_gui.core.attention.sweep import sweep_base
from sqrtdk_gui.core.lesson.page import Scenario, Step
from sqrtdk_gui.core.lesson.pages import PAGES

__all__ = ["STEPS", "SCENARIOS", "scenario", "shown_sweeps", "shown_dials"]

STEPS: tuple[Step, ...] = tuple(m.PAGE for m in PAGES if isinstance(m.PAGE, Step))
SCENARIOS: tuple[Scenario, ...] = tuple(m.PAGE for m in PAGES if isinstance(m.PAGE, Scenario))


def scenario(key: str) -> Scenario:
    """The scenario called ``key`` (KeyError names the known ones)."""
    for s in SCENARIOS:
        if s.key == key:
            return s
    raise KeyError(f"unknown scenario {key!r}; known: {', '.join(s.key for s in SCENARIOS)}")


def _presets() -> list[Params]:
    """The default parameters, then each page's preset in lesson order."""
    pages: tuple[Step | Scenario, ...] = (*STEPS, *SCENARIOS)
    return [Params(), *(Params(**page.preset) for page in pages)]


def shown_sweeps() -> tuple[Params, ...]:
    """Every sweep (as its ``sweep_base``) the window shows on a lesson page or at start:
    the compared scalings of the default parameters and of each page's preset, whatever its
    d_k (a sweep is computed without it)."""
    bases = (sweep_base(p.replace(scaling=s)) for p in _presets() for s in compared_scalings(p))
    return tuple(dict.fromkeys(bases))


def shown_dials() -> tuple[int, ...]:
    """Every number of keys whose σ-dial curves the window shows on a lesson page or at start."""
    return tuple(dict.fromkeys(p.keys for p in _presets()))
