"""One bounded, thread-safe, least-recently-used cache for every memo of the package.

Each cache is bounded by its number of entries, by a weight (bytes, floats) or by both. The
weight is read when the cache trims, not when a value goes in, so a cached value that grows
in place (a running sum extended to more columns) is weighed as it is now; the newest entry
stays whatever its weight, since the caller is about to use it. ``lock`` is re-entrant: a
caller holds it around a look-up, the work it saves and the store when two threads must not
do that work twice.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["BoundedCache"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """At most ``entries`` values and (if ``weigh`` is given) ``max_weight`` of their total
    weight, the least recently used dropped first."""

    def __init__(self, entries: int | None = None, weigh: Callable[[V], int] | None = None,
                 max_weight: int | None = None) -> None:
        if entries is None and max_weight is None:
            raise ValueError("a bounded cache needs a number of entries or a weight bound")
        if (weigh is None) != (max_weight is None):
            raise ValueError("a weight bound needs a weigh function, and the other way round")
        self.entries, self.max_weight = entries, max_weight
        self._weigh = weigh
        self._items: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.RLock()

    def __len__(self) -> int:
        with self.lock:  # never a count caught between a store and its trim
            return len(self._items)

    def __contains__(self, key: object) -> bool:
        with self.lock:
            return key in self._items

    def get(self, key: K) -> V | None:
        """The value (now the most recently used), or None."""
        with self.lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def peek(self, key: K) -> V | None:
        """The value without counting it as used, or None."""
        with self.lock:
            return self._items.get(key)

    def put(self, key: K, value: V) -> V:
        """Store ``value`` as the most recently used (replacing any other) and trim."""
        with self.lock:
            self._items[key] = value
            self._items.move_to_end(key)
            self.trim()
            return value

    def setdefault(self, key: K, value: V) -> V:
        """The value already stored (two threads computed it: the first one wins), else
        ``value`` stored; either way the most recently used."""
        with self.lock:
            stored = self._items.setdefault(key, value)
            self._items.move_to_end(key)
            self.trim()
            return stored

    def pop(self, key: K) -> V | None:
        with self.lock:
            return self._items.pop(key, None)

    def values(self) -> list[V]:
        with self.lock:
            return list(self._items.values())

    def weight(self) -> int:
        """The total weight now (0 without a weigh function)."""
        with self.lock:
            weigh = self._weigh
            return 0 if weigh is None else sum(weigh(v) for v in self._items.values())

    def trim(self) -> None:
        """Drop the least recently used values beyond the bounds (never the newest for weight)."""
        with self.lock:
            while self.entries is not None and len(self._items) > self.entries:
                self._items.popitem(last=False)
            if self.max_weight is not None:
                total = self.weight()
                while len(self._items) > 1 and total > self.max_weight:
                    total -= self._weight_of(self._items.popitem(last=False)[1])

    def make_room(self, weight: int) -> None:
        """Drop the least recently used values until ``weight`` more fits under the bound
        (all of them if need be): the peak is the bound, not the bound plus a new value."""
        with self.lock:
            if self.max_weight is None:
                return
            total = self.weight()
            while self._items and total + weight > self.max_weight:
                total -= self._weight_of(self._items.popitem(last=False)[1])

    def clear(self) -> None:
        with self.lock:
            self._items.clear()

    def _weight_of(self, value: V) -> int:
        return 0 if self._weigh is None else self._weigh(value)
