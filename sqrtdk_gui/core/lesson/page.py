"""What a lesson page is made of (no Qt): a step or a scenario, a prediction, an evidence table.

Each page of the lesson is one module in ``core.lesson.pages`` that defines its ``PAGE`` (a
``Step`` or a ``Scenario``: its text resource, the parameters it sets, the panels it points
at), and as it needs them its ``PREDICTION`` (steps: what the class predicts and what hides
the answer), its ``evidence(params)`` table (scenarios) and its ``FIGURES`` (the measured
numbers its text quotes). The names of views are checked here against ``PANELS``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, localize_number

__all__ = ["PANELS", "KIND_LABELS", "Animation", "Step", "Scenario", "Prediction", "Evidence"]

# The views a page may point at, cover or show on a slide (the window's panels and the
# summary strip; "summary.<cell>" names one of its cells).
PANELS = ("summary", "histogram", "weights", "jacobian", "gradient", "sigma_dial")

# What a scenario's ``kind`` is called on screen (marked: shown as ``_(KIND_LABELS[kind])``).
KIND_LABELS = {"trap": N_("Trap"), "follow-up": N_("Follow-up")}


def _check_views(where: str, names: Iterable[str]) -> None:
    for name in names:
        if name.split(".")[0] not in PANELS:
            raise ValueError(f"{where}: {name!r} is not a view (one of {', '.join(PANELS)})")


@dataclass(frozen=True)
class Animation:
    """Sweep d_k from ``start`` to ``end`` (log-uniformly) over ``seconds``."""

    start: int
    end: int
    seconds: float


@dataclass(frozen=True)
class Step:
    """A step of the lesson. ``title``, ``question`` and ``answer`` are marked for translation
    (``N_``): whoever shows them calls ``_()`` on them (``answer`` keeps its ``{figure_key}``
    placeholders through translation; ``figures.fill`` replaces them afterwards)."""

    number: int
    title: str
    resource: str
    question: str
    answer: str
    preset: dict[str, Any] = field(default_factory=dict)  # Params(**preset): each field's own type
    highlight: tuple[str, ...] = ()
    animation: Animation | None = None
    # Views covered for the whole step, revealed or not: they would answer a later step's
    # question (step 1's weights are step 2's answer). View names or "summary.<cell>".
    covers: tuple[str, ...] = ()
    # Panels a slide (presentation mode, exported slides) shows, large; default: highlight.
    slide: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        _check_views(f"step {self.number}", (*self.highlight, *self.covers, *(self.slide or ())))

    @property
    def slide_views(self) -> tuple[str, ...]:
        """Panels a slide shows (presentation mode, exported slides), large."""
        return self.highlight if self.slide is None else self.slide


@dataclass(frozen=True)
class Scenario:
    """A trap or a follow-up. ``title``, ``button`` and ``summary`` are marked for translation (``N_``):
    whoever shows them calls ``_()`` on them; ``key`` and ``kind`` are identifiers."""

    key: str
    kind: str  # "trap" or "follow-up"
    title: str
    resource: str
    button: str  # a short label for its button
    preset: dict[str, Any] = field(default_factory=dict)  # Params(**preset): each field's own type
    highlight: tuple[str, ...] = ()
    # What the projected page says (one or two sentences, ``{figure}`` placeholders allowed);
    # the page's whole text is the teacher's notes and the handout's.
    summary: str = ""

    def __post_init__(self) -> None:
        _check_views(f"scenario {self.key}", self.highlight)

    @property
    def slide_views(self) -> tuple[str, ...]:
        """Panels a slide shows: the ones it points at."""
        return self.highlight


@dataclass(frozen=True)
class Prediction:
    """What one step's question asks the class to predict."""

    quantity: str  # what the guesses are of, as the pane labels it (marked: shown through ``_()``)
    measure: Callable[[Params], float]  # the measured value for the step's parameters
    hides: tuple[str, ...]  # view names ("histogram") and summary cells ("summary.sigma")
    digits: int = 2  # decimals shown for the measured value

    def __post_init__(self) -> None:
        _check_views(f"prediction of {self.quantity!r}", self.hides)


@dataclass(frozen=True)
class Evidence:
    """A small table (and optionally a chart of y against d_k) for one scenario.

    Built at call time, so its words (headers, cells, ``chart_label``) are already in the
    current language, its numbers in the language's decimal mark: shown as they are, never
    through ``_()`` again."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    chart: tuple[np.ndarray, np.ndarray] | None = None
    chart_label: str = ""

    def __post_init__(self) -> None:
        # One place for every number of every table ("d_k (ρ=0.5)", "0.343", "1.5×").
        object.__setattr__(self, "headers", tuple(localize_number(h) for h in self.headers))
        object.__setattr__(self, "rows", tuple(tuple(localize_number(c) for c in row) for row in self.rows))
        object.__setattr__(self, "chart_label", localize_number(self.chart_label))
