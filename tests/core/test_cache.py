"""The one bounded cache: least recently used out first, bounds by entries and by weight."""

from __future__ import annotations

import threading

import pytest

from sqrtdk_gui.core.cache import BoundedCache


def test_the_least_recently_used_entry_goes_first():
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # now the newest
    cache.put("c", 3)
    assert "b" not in cache and cache.values() == [1, 3]
    assert cache.peek("a") == 1  # a peek does not count as use ...
    cache.put("d", 4)
    assert "a" not in cache and cache.values() == [3, 4]  # ... so "a" was the oldest


class Growing:
    def __init__(self, size: int) -> None:
        self.size = size


def test_the_weight_is_read_when_trimming_and_the_newest_stays_whatever_it_weighs():
    cache: BoundedCache[str, Growing] = BoundedCache(weigh=lambda g: g.size, max_weight=10)
    small, grows = Growing(4), Growing(4)
    cache.put("small", small)
    cache.put("grows", grows)
    assert cache.weight() == 8
    grows.size = 9  # grown in place, as a running sum extended to more columns
    cache.trim()
    assert list(cache.values()) == [grows]
    grows.size = 50
    cache.trim()
    assert list(cache.values()) == [grows]  # the one about to be used stays


def test_room_is_made_before_a_new_value_and_all_may_go():
    cache: BoundedCache[int, Growing] = BoundedCache(weigh=lambda g: g.size, max_weight=10)
    for key in range(3):
        cache.put(key, Growing(3))
    cache.make_room(5)
    assert cache.weight() + 5 <= 10 and list(cache.values()) and 0 not in cache
    cache.make_room(20)
    assert len(cache) == 0


def test_setdefault_keeps_the_first_value_stored():
    cache: BoundedCache[str, list] = BoundedCache(4)
    first = cache.setdefault("k", [1])
    assert cache.setdefault("k", [2]) is first and cache.pop("k") is first and cache.pop("k") is None


def _in_six_threads(step) -> None:
    """``step(thread, i)`` 2,000 times in each of six threads started together; errors raised here."""
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def work(n: int) -> None:
        try:
            start.wait()
            for i in range(2000):
                step(n, i)
        except Exception as exc:  # noqa: BLE001 - raised below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]


def test_threads_holding_the_lock_around_look_up_and_store_keep_the_bounds():
    cache: BoundedCache[int, Growing] = BoundedCache(8, weigh=lambda g: g.size, max_weight=40)

    def step(n: int, i: int) -> None:
        key = (n * 7 + i) % 30
        with cache.lock:  # a look-up, the work and the store as one
            if cache.get(key) is None:
                cache.put(key, Growing(1 + key % 6))
        assert len(cache) <= 8

    _in_six_threads(step)
    assert len(cache) <= 8 and cache.weight() <= 40


def test_threads_calling_it_without_the_outer_lock_keep_the_bounds():
    cache: BoundedCache[int, Growing] = BoundedCache(6, weigh=lambda g: g.size, max_weight=20)

    def step(n: int, i: int) -> None:
        key = (n * 11 + i) % 25
        if cache.get(key) is None:
            cache.put(key, Growing(1 + key % 5))
        cache.setdefault((key + 1) % 25, Growing(2))
        if i % 7 == 0:
            cache.trim()
            cache.make_room(3)
        assert len(cache) <= 6

    _in_six_threads(step)
    assert len(cache) <= 6 and cache.weight() <= 20


@pytest.mark.parametrize("kwargs", [{}, {"max_weight": 5}, {"entries": 3, "weigh": len}])
def test_a_cache_without_a_whole_bound_is_refused(kwargs):
    with pytest.raises(ValueError):
        BoundedCache(**kwargs)
