"""The review schedule: FSRS over each item's history, stored, merged and counted as due."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from sqrtdk_gui.core.io.shared_state import merge_progress
from sqrtdk_gui.core.practice import BANK, find, schedule
from sqrtdk_gui.core.practice.progress import read_progress
from sqrtdk_gui.core.practice.rehearse import REHEARSALS, said_links
from sqrtdk_gui.core.practice.schedule import Review
from sqrtdk_gui.core.practice.scoring import Attempt, due_keys, progress_to_json

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)


def test_a_rating_follows_the_verdict_and_the_time():
    assert schedule.rating_for("choice", False, 3.0) == 1  # Again
    assert schedule.rating_for("choice", True, 3.0) == 3  # Good
    assert schedule.rating_for("choice", True, 45.0) == 2  # Hard: read and worked out, not recalled
    assert schedule.rating_for("line", True, 45.0) == 3  # a code card is read line by line


def test_good_answers_space_out_and_a_lapse_brings_the_item_back_the_next_day():
    history: list[Review] = []
    gaps = []
    at = T0
    for _ in range(4):
        history.append(Review(at, 3, 5.0))
        at = schedule.due(history)
        gaps.append(at - history[-1].at)
    # FSRS's default parameters at 90 % retention: 2, 11, 46, 163 days after Good, Good, ….
    assert [g.days for g in gaps] == [2, 11, 46, 163]
    lapse = history + [Review(at, 1, 5.0)]
    assert timedelta(days=1) <= schedule.due(lapse) - at <= gaps[-1] / 10  # a lapse: soon again
    assert schedule.due([]) is None and not schedule.is_due([], at)
    # Easy spaces further than Good, Hard less, from the same history.
    after = {rating: schedule.due(history + [Review(at, rating, 5.0)]) for rating in (2, 3, 4)}
    assert after[2] < after[3] < after[4]


def test_reviews_round_trip_and_malformed_ones_are_left_out():
    history = (Review(T0, 3, 12.25), Review(T0 + timedelta(days=2), 1, 40.0))
    stored = schedule.reviews_to_json(history)
    assert stored[0] == ["2026-12-01T09:00:00+00:00", 3, 12.2]
    assert schedule.reviews_from_json(stored) == (Review(T0, 3, 12.2), Review(T0 + timedelta(days=2), 1, 40.0))
    bad = [["2026-12-01T09:00:00", 3, 1.0],  # no time zone
           ["9999-12-31T23:59:59+00:00", 3, 1.0],  # a due date after it would overflow datetime
           ["2026-12-01T09:00:00+00:00", 5, 1.0], ["2026-12-01T09:00:00+00:00", True, 1.0],
           ["2026-12-01T09:00:00+00:00", 3, -1.0], ["not a date", 3, 1.0], [1, 2], "x",
           ["2026-12-02T09:00:00+01:00", 2, 1e9]]
    assert schedule.reviews_from_json(bad) == (Review(T0 + timedelta(hours=23), 2, 86400.0),)
    assert schedule.reviews_from_json({"a": 1}) == ()
    many = [Review(T0 + timedelta(days=i), 3, 1.0) for i in range(50)]
    assert len(schedule.merge_reviews(many)) == schedule.MAX_REVIEWS


def test_due_today_counts_reviewed_items_due_by_the_end_of_the_local_day():
    now = T0 + timedelta(days=30)
    progress = {"chain_variance": Attempt(22.6, True, (Review(T0, 3, 5.0),)),  # due long ago
                "chain_saturation": Attempt(3, True, (Review(now, 3, 5.0),)),  # due in 2 days
                "trap_dmodel": Attempt(1, True)}  # answered before reviews were kept: not scheduled
    end = schedule.end_of_today(now)
    assert now < end <= now + timedelta(days=1)
    assert due_keys(progress, BANK, end) == ("chain_variance",)


def test_two_windows_reviews_of_one_item_both_count():
    base = read_progress(progress_to_json({"chain_variance": Attempt(22.6, True, (Review(T0, 3, 5.0),))}))
    ours = read_progress(progress_to_json({"chain_variance": Attempt(22.6, True, (Review(T0, 3, 5.0),
                                                                                  Review(T0 + timedelta(days=1), 3, 4.0)))}))
    theirs = read_progress(progress_to_json({"chain_variance": Attempt(8.0, False, (Review(T0, 3, 5.0),
                                                                                    Review(T0 + timedelta(hours=5), 1, 9.0))),
                                             "trap_dmodel": Attempt(1, True, (Review(T0, 3, 2.0),))}))
    merged = merge_progress(base, ours, theirs)
    entry = merged["chain_variance"]
    assert entry["answer"] == 22.6  # this window's answer is its last
    assert [r[1] for r in entry["reviews"]] == [3, 1, 3]  # every review, in time order
    assert merged["trap_dmodel"] == theirs["trap_dmodel"]
    assert merge_progress(base, {}, theirs) == {"trap_dmodel": theirs["trap_dmodel"]}  # a reset
    json.dumps(merged)


def test_a_typed_answer_marks_the_links_its_words_name():
    chain = find("say_chain")
    full = ("q dot k is a sum of d_k products, so its variance is d_k and the standard deviation grows like "
            "sqrt(dk). Softmax saturates, the Jacobian diag(p) - pp^T goes to zero, gradients to W_Q vanish. "
            "Dividing restores unit variance; use the per-head d_k, not d_model.")
    assert said_links(chain, full) == tuple(range(8))
    assert said_links(chain, "to keep the training stable") == ()
    assert said_links(chain, "") == ()
    assert said_links(chain, "SOFTMAX SATURATES") == (3,)


@pytest.mark.parametrize("q", REHEARSALS, ids=lambda q: q.key)
def test_the_model_answer_names_every_link_of_its_rubric(q):
    # The word match finds each link in the model answer itself: the rubric and the answer agree.
    assert said_links(q, q.answer) == tuple(range(len(q.options))), q.key


def test_a_history_reset_in_one_window_stays_reset_when_the_other_saves():
    five = tuple(Review(T0 + timedelta(days=i), 3, 5.0) for i in range(5))
    shared = read_progress(progress_to_json({"chain_variance": Attempt(22.6, True, five)}))
    # Window B reset its progress and answered the item once; window A, in step with the old
    # file, then answers another item: the item B reset keeps B's one review.
    theirs = read_progress(progress_to_json({"chain_variance": Attempt(8.0, False, (Review(T0 + timedelta(days=9), 1,
                                                                                          4.0),))}))
    ours = dict(shared) | read_progress(progress_to_json({"trap_dmodel": Attempt(1, True, (Review(T0, 3, 2.0),))}))
    merged = merge_progress(shared, ours, theirs)
    assert merged["chain_variance"] == theirs["chain_variance"] and set(merged) == {"chain_variance", "trap_dmodel"}


def test_a_pasted_book_is_stored_cut_to_what_the_progress_can_hold():
    text = progress_to_json({"say_chain": Attempt((0,), False, (Review(T0, 2, 90.0),), "x" * 300_000)})
    assert len(json.loads(text)["answers"]["say_chain"]["typed"]) == 4000
    assert read_progress(text)  # still readable: the next save is not refused
