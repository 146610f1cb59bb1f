"""The numbers each trap and follow-up shows beside its explanation (pure, numpy only).

Every value comes from ``compute`` or ``sweep`` for the current parameters (one seed: the
table says "for these parameters"); the lesson *texts* quote ranges over seeds from
``lesson.figures`` instead. Each table is built by its page's ``evidence(params)``.

Tables are cached by (scenario, parameters, language): a scenario shown again, the handout and
a slide whose numbers a worker thread computed first all take the same table without
recomputing it (one table takes 1–2 s: the long-context follow-up's). A table being built
in one thread is waited for, not built again, by another. A table's words are translated when
it is built, hence the language in the key.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.cache import BoundedCache
from sqrtdk_gui.core.i18n import language, localize_number
from sqrtdk_gui.core.lesson.page import Evidence
from sqrtdk_gui.core.lesson.pages import PAGES

__all__ = ["evidence", "cached_evidence", "clear_cache"]

_BUILDERS: dict[str, Callable[[Params], Evidence]] = {m.PAGE.key: m.evidence for m in PAGES if hasattr(m, "evidence")}


_CACHE_SIZE = 64
_cache: BoundedCache[tuple[str, Params, str], Evidence] = BoundedCache(_CACHE_SIZE)
_building: dict[tuple[str, Params, str], threading.Event] = {}
_lock = threading.Lock()  # over _building: one thread builds a table, the others wait for it


def evidence(key: str, params: Params) -> Evidence:
    """The table (and chart) of scenario ``key`` for the parameters it runs with, its words in
    the current language (cached; thread-safe: pages build their tables from the model only).
    The chart's arrays are read-only, since every caller shares them."""
    item = (key, params, language())
    while True:
        with _lock:
            have = _cache.get(item)
            if have is not None:
                return have
            building = _building.get(item)
            if building is None:
                building = _building[item] = threading.Event()
                break
        building.wait()  # another thread builds it; if that failed, build it here
    try:
        table = _build(key, params)
        if language() == item[2]:  # else its words may be of two languages: not kept
            _cache.put(item, table)
        return table
    finally:
        with _lock:
            del _building[item]
        building.set()


def cached_evidence(key: str, params: Params) -> Evidence | None:
    """``evidence(key, params)`` if it is built already (nothing is computed), else None."""
    return _cache.peek((key, params, language()))


def clear_cache() -> None:
    """Forget every table built (tests start from nothing)."""
    _cache.clear()


def _build(key: str, params: Params) -> Evidence:
    table = _BUILDERS[key](params)
    # The cells' numbers with the decimal mark of the language (0,998 in German).
    table = dataclasses.replace(table, rows=tuple(tuple(localize_number(c) for c in row) for row in table.rows))
    for array in table.chart or ():
        array.flags.writeable = False
    return table
