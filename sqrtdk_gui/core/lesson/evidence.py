"""The numbers each trap and follow-up shows beside its explanation (pure, numpy only).

Every value comes from ``compute`` or ``sweep`` for the current parameters (one seed: the
table says "for these parameters"); the lesson *texts* quote ranges over seeds from
``lesson.figures`` instead. Each table is built by its page's ``evidence(params)``.
"""

from __future__ import annotations

from collections.abc import Callable

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.lesson.page import Evidence
from sqrtdk_gui.core.lesson.pages import PAGES

__all__ = ["evidence"]

_BUILDERS: dict[str, Callable[[Params], Evidence]] = {m.PAGE.key: m.evidence for m in PAGES if hasattr(m, "evidence")}


def evidence(key: str, params: Params) -> Evidence:
    """The table (and chart) of scenario ``key`` for the parameters it runs with."""
    return _BUILDERS[key](params)
