"""The values windows share in one settings file: how a save merges them, and how a stored
value that cannot be read is kept aside (core/io/shared_state.py). The windows themselves
are in tests/gui/test_practice.py and tests/gui/test_desktop_conventions.py."""

from __future__ import annotations

import os

import pytest

from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.io.shared_state import (
    PRACTICE,
    RECENT,
    RECENT_MAX,
    SHARED,
    Unreadable,
    keep_aside,
    merge_keyed,
    merge_listed,
)


def test_a_keyed_merge_applies_only_what_this_window_changed():
    base = {"a": 1, "b": 2, "c": 3}
    ours = {"a": 1, "b": 20, "d": 4}  # b changed, c removed (a reset), d added; a left alone
    theirs = {"a": 10, "b": 2, "c": 3, "e": 5}  # the other window changed a and added e
    assert merge_keyed(base, ours, theirs) == {"a": 10, "b": 20, "d": 4, "e": 5}


def test_a_listed_merge_keeps_this_windows_order_then_what_another_added():
    assert merge_listed(["/a"], ["/b", "/a"], ["/c", "/a"]) == ["/b", "/a", "/c"]
    assert merge_listed(["/a", "/b"], [], ["/a", "/b", "/c"]) == ["/c"]  # a list cleared here stays cleared
    assert merge_listed(["/a"], ["/a"], []) == ["/a"]  # another window's list cut to its length drops nothing


def test_every_shared_value_reads_what_it_writes_and_reads_nothing_as_empty():
    assert {s.key for s in SHARED} == {"recent/presets", "practice/progress"}
    for shared in SHARED:
        assert shared.read(None) == shared.empty
        assert shared.read(shared.write(shared.empty)) == shared.empty
    assert RECENT.read(RECENT.write(["/x.json", "/y.json"])) == ["/x.json", "/y.json"]
    many = [f"/{i}.json" for i in range(20)]
    assert RECENT.merge([], many, []) == many[:RECENT_MAX]
    with pytest.raises(Unreadable, match="newer"):
        PRACTICE.read('{"version": 9, "answers": {}}')


def test_a_value_kept_aside_is_written_once_and_another_beside_it(tmp_path):
    settings = str(tmp_path / "sqrtdk-gui.ini")
    first = keep_aside(settings, PRACTICE, '{"version": 2}')
    assert os.path.dirname(first) == str(tmp_path) and "practice" in os.path.basename(first)
    assert safe_io.read_bytes(first, 100) == b'{"version": 2}'
    assert keep_aside(settings, PRACTICE, '{"version": 2}') == first  # the same text: the same copy
    second = keep_aside(settings, PRACTICE, "not json")
    assert second != first and safe_io.read_bytes(second, 100) == b"not json"
    assert safe_io.read_bytes(first, 100) == b'{"version": 2}'
