"""The mock interview's path: gaps probed first, a wrong answer's misconception next, then deeper."""

from __future__ import annotations

from sqrtdk_gui.core.practice import BANK
from sqrtdk_gui.core.practice.interview import DEEPER, LENGTH, LINK_PROBES, MAIN, PROBES, Asked, next_key, weak_points

KEYS = {q.key for q in BANK}


def test_every_item_the_interview_can_ask_exists():
    assert MAIN in KEYS and set(LINK_PROBES.values()) <= KEYS and set(DEEPER) <= KEYS
    assert set(PROBES) <= KEYS and set(PROBES.values()) <= KEYS
    main = next(q for q in BANK if q.key == MAIN)
    assert set(LINK_PROBES) == set(range(len(main.options)))  # every link of the rubric has a probe


def test_a_perfect_candidate_goes_deeper_and_the_interview_ends():
    asked = [Asked(MAIN, True)]
    while (key := next_key(asked)) is not None:
        asked.append(Asked(key, True))
    assert [a.key for a in asked] == [MAIN, *DEEPER[:LENGTH - 1]]


def test_no_item_is_asked_twice_whatever_the_answers():
    for pattern in range(2 ** 6):
        asked = [Asked(MAIN, False, tuple(range(8)))]
        while (key := next_key(asked)) is not None:
            assert key not in {a.key for a in asked}
            asked.append(Asked(key, bool(pattern >> (len(asked) - 1) & 1)))
        assert len(asked) == LENGTH


def test_weak_points_name_each_lesson_page_once():
    lessons = {q.key: q.lesson for q in BANK}
    asked = [Asked(MAIN, False, (1, 2)), Asked("chain_variance", False), Asked("derive_variance", True)]
    assert weak_points(asked, lessons) == (("derive_variance", "step:1"),)
