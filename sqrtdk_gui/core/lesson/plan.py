"""A teacher's plan of the lesson (no Qt): which pages, in which order, with what parameters,
how a question is worded, and which controls the class may not see or change.

``FULL`` is the lesson as shipped: every step, then the traps, then the follow-ups. A lesson
file (``core.io.lesson_file``) holds another plan; the presenter, the presenter view and the
exported slides follow whichever plan is open. A page is named as practice mode names it:
``step:N`` for a step, a scenario by its key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.core.lesson.page import Scenario, Step

__all__ = ["CONTROLS", "CONTROL_FIELDS", "PAGE_PARAMS", "PlanPage", "LessonPlan", "FULL", "page_id", "find_page",
           "PAGE_IDS"]

# The groups of controls a plan may hide or lock, by the names the controls column gives
# them, with the parameters each one edits (a locked group's are refused from keys too).
CONTROL_FIELDS: dict[str, tuple[str, ...]] = {
    "d_k": ("d_k",),  # with autoplay, which sweeps it
    "scaling": ("scaling",),
    "temperature": ("temperature",),
    "sample": ("keys", "seed"),
    "more": ("heads", "gain", "alignment", "softmax", "dtype"),
}
CONTROLS: tuple[str, ...] = tuple(CONTROL_FIELDS)

# What a lesson may set on a page: every page's text quotes its own parameters ("at d_k = 512,
# 64 keys", "τ = 8 is σ = 4"), so only another sample; the page notes where that sample falls
# outside a quoted range, and its measured answer or table is for that sample.
PAGE_PARAMS = ("seed",)


def page_id(page: Step | Scenario) -> str:
    """How a lesson file names ``page``: "step:2", or a scenario's key."""
    return f"step:{page.number}" if isinstance(page, Step) else page.key


_PAGES: tuple[Step | Scenario, ...] = (*STEPS, *SCENARIOS)
PAGE_IDS: tuple[str, ...] = tuple(page_id(p) for p in _PAGES)
_BY_ID: dict[str, Step | Scenario] = {page_id(p): p for p in _PAGES}
_RANK: dict[str, int] = {ident: i for i, ident in enumerate(PAGE_IDS)}


def find_page(ident: str) -> Step | Scenario:
    """The page a lesson file calls ``ident`` (KeyError if there is none)."""
    return _BY_ID[ident]


@dataclass(frozen=True)
class PlanPage:
    """One page of a plan: the page, the parameters it sets on top of its own preset (its
    sample: PAGE_PARAMS), and its question reworded per language code (as "de"; steps only)."""

    page: Step | Scenario
    params: Mapping[str, Any] = field(default_factory=dict)
    question: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        Params(**self.preset)  # ValueError, naming the parameter, if they are not valid together
        if set(self.params) - set(PAGE_PARAMS):
            raise ValueError(f"{page_id(self.page)} quotes its own parameters: set only {', '.join(PAGE_PARAMS)}")
        if self.question and not isinstance(self.page, Step):
            raise ValueError(f"{page_id(self.page)}: only a step asks a question")

    @property
    def ident(self) -> str:
        return page_id(self.page)

    @property
    def preset(self) -> dict[str, Any]:
        """What the page sets on entry: its own preset, then the plan's parameters."""
        return {**self.page.preset, **self.params}

    def question_in(self, code: str) -> str | None:
        """The reworded question for language ``code`` ("zh_CN" also takes "zh"), or None."""
        return self.question.get(code) or self.question.get(code.split("_")[0])


@dataclass(frozen=True)
class LessonPlan:
    """The pages in the order the clicker walks them, a title, and the controls hidden or locked."""

    pages: tuple[PlanPage, ...]
    title: str = ""
    hide: tuple[str, ...] = ()
    lock: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.pages:
            raise ValueError("a lesson has at least one page")
        seen: set[str] = set()
        for p in self.pages:
            if p.ident in seen:
                raise ValueError(f"page {p.ident} is in the lesson twice")
            seen.add(p.ident)
        for name in (*self.hide, *self.lock):
            if name not in CONTROLS:
                raise ValueError(f"unknown control {name!r}; known: {', '.join(CONTROLS)}")

    @property
    def is_full(self) -> bool:
        """Whether this is the lesson as shipped (every page in order, nothing changed)."""
        return self == FULL

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(p.page for p in self.pages if isinstance(p.page, Step))

    @property
    def scenarios(self) -> tuple[Scenario, ...]:
        return tuple(p.page for p in self.pages if isinstance(p.page, Scenario))

    @property
    def locked_fields(self) -> frozenset[str]:
        return frozenset(f for name in self.lock for f in CONTROL_FIELDS[name])

    def index(self, page: Step | Scenario) -> int | None:
        """Where ``page`` is in the plan (0-based), or None."""
        ident = page_id(page)
        return next((i for i, p in enumerate(self.pages) if p.ident == ident), None)

    def entry(self, page: Step | Scenario) -> PlanPage:
        """The plan's page for ``page``; a page outside the plan as shipped (its own preset)."""
        i = self.index(page)
        return self.pages[i] if i is not None else PlanPage(page)

    def params(self, page: Step | Scenario) -> Params:
        """The parameters ``page`` sets on entry in this lesson (its preset, then its sample)."""
        return Params(**self.entry(page).preset)

    def position(self, step: Step) -> tuple[int, int]:
        """(number, count): the step as this lesson counts its steps, "2 of 3"; a step outside
        it as the whole lesson does, "2 of 5"."""
        steps = self.steps
        return (steps.index(step) + 1, len(steps)) if step in steps else (step.number, len(STEPS))

    def nth_step(self, n: int) -> Step | None:
        """The lesson's n-th step (1-based; the number keys), or None."""
        steps = self.steps
        return steps[n - 1] if 1 <= n <= len(steps) else None

    def after(self, page: Step | Scenario) -> int:
        """The index of the page the clicker brings after ``page`` (len(pages): the end).

        A page outside the plan (a number key, an old preset) continues with the plan's
        first page that comes later in the lesson as shipped."""
        i = self.index(page)
        if i is not None:
            return i + 1
        rank = _RANK[page_id(page)]
        return next((j for j, p in enumerate(self.pages) if _RANK[p.ident] > rank), len(self.pages))

    def before(self, page: Step | Scenario) -> int:
        """The index of the page the clicker's back key brings from ``page`` (-1: none); a
        page outside the plan stands just before the page :meth:`after` gives."""
        i = self.index(page)
        return i - 1 if i is not None else self.after(page) - 1

FULL = LessonPlan(pages=tuple(PlanPage(p) for p in _PAGES))
