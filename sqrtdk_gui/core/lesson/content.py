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
from sqrtdk_gui.core.i18n import N_
from sqrtdk_gui.core.lesson.page import Scenario, Step
from sqrtdk_gui.core.lesson.pages import PAGES

__all__ = ["STEPS", "SCENARIOS", "scenario", "shown_sweeps", "shown_dials", "INTRO_TITLE", "INTRO_SUMMARY",
           "CLOSING_TITLE", "CLOSING_SUMMARY", "HANDOUT_HINT"]

# What the projected page says before step 1 and after the last follow-up (the closing page).
INTRO_TITLE = N_("Why divide by √d_k?")
INTRO_SUMMARY = N_("Five steps, one causal chain: d_k terms → variance d_k → saturated softmax → vanishing "
                   "Jacobian → vanishing gradient, and the cure, ÷√d_k. Then {traps} traps and {followups} "
                   "follow-ups.")
CLOSING_TITLE = N_("The chain, in short")
CLOSING_SUMMARY = N_("A logit sums d_k terms, so its spread grows like √d_k; wide logits saturate the softmax, its "
                     "Jacobian diag(p) − ppᵀ collapses, and almost no gradient reaches the queries and keys. "
                     "÷√d_k keeps σ = 1 for every head size.")
HANDOUT_HINT = N_("To take home: File → Export lesson handout, or the command sqrtdk-gui export-handout "
                  "lesson.html")

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
