"""The numbers each trap and follow-up shows beside its explanation (pure, numpy only).

Every value comes from ``compute`` or ``sweep`` for the current parameters (one seed: the
table says "for these parameters"); the lesson *texts* quote ranges over seeds from
``lesson.figures`` instead. Each table is built by its page's ``evidence(params)``.

Tables are cached by (scenario, parameters, language): a scenario shown again, the handout and
a slide whose numbers a worker thread computed first all take the same table without
recomputing it (one table takes up to 2 s: the long-context follow-up's). A table's words are
translated when it is built, hence the language in the key.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import language, localize_number
from sqrtdk_gui.core.lesson.page import Evidence
from sqrtdk_gui.core.lesson.pages import PAGES

__all__ = ["evidence"]

_BUILDERS: dict[str, Callable[[Params], Evidence]] = {m.PAGE.key: m.evidence for m in PAGES if hasattr(m, "evidence")}


def evidence(key: str, params: Params) -> Evidence:
    """The table (and chart) of scenario ``key`` for the parameters it runs with, its words in
    the current language (cached; thread-safe: pages build their tables from the model only).
    The chart's arrays are read-only, since every caller shares them."""
    return _evidence(key, params, language())


@functools.lru_cache(maxsize=64)
def _evidence(key: str, params: Params, lang: str) -> Evidence:
    table = _BUILDERS[key](params)
    # The cells' numbers with the decimal mark of the language (0,998 in German).
    table = dataclasses.replace(table, rows=tuple(tuple(localize_number(c) for c in row) for row in table.rows))
    for array in table.chart or ():
        array.flags.writeable = False
    return table
