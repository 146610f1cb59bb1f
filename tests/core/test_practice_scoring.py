"""Practice grading, number parsing, scores, retries and the stored progress format."""

from __future__ import annotations

import html
import json

import pytest

from sqrtdk_gui.core.practice import BANK, find
from sqrtdk_gui.core.practice.concept_test import answer_text, concept_test
from sqrtdk_gui.core.practice.progress import ProgressError, read_progress
from sqrtdk_gui.core.practice.scoring import (
    Attempt,
    attempts,
    foreign_entries,
    grade,
    missed,
    parse_number,
    progress_from_json,
    progress_to_json,
    scores,
)


@pytest.mark.parametrize(("text", "value"), [("22.6", 22.6), ("22,6", 22.6), (" 22,63 ", 22.63), ("1,500", 1500.0),
                                             ("≈ 22.6", 22.6), ("0.0625", 0.0625), (".5", 0.5), ("1e-3", 1e-3),
                                             ("64×", 64.0), ("-3", -3.0), ("1,2345", 1.2345)])
def test_numbers_are_read_like_the_predict_box_and_a_lone_decimal_comma(text, value):
    assert parse_number(text) == pytest.approx(value)


@pytest.mark.parametrize(("text", "value"), [("1/16", 0.0625), (" 3 / 4 ", 0.75), ("-1/8", -0.125),
                                             ("1.5/3", 0.5)])
def test_a_fraction_is_read_as_its_value(text, value):
    assert parse_number(text) == pytest.approx(value)
    assert grade(find("trap_after_softmax"), parse_number("1/16"))


@pytest.mark.parametrize("text", ["", "about twenty", "8, 20", "22.6 23", "1/0", "1/2/3"])
def test_no_number_or_two_numbers_is_a_sentence(text):
    result = parse_number(text)
    assert isinstance(result, str) and result.endswith(".")


def test_grading_each_kind():
    variance = find("chain_variance")
    assert grade(variance, 22.6) and grade(variance, 20.0) and not grade(variance, 8.0)
    assert not grade(variance, 25.01)
    sat = find("chain_saturation")
    assert grade(sat, 3) and not grade(sat, 0) and not grade(sat, True)
    long = find("fu_long_context")
    assert grade(long, (2, 0, 1)) and not grade(long, (0, 1, 2)) and not grade(long, 2)
    card = find("bug_missing")
    assert grade(card, 2) and not grade(card, 3)


def test_a_rehearsal_is_right_when_every_link_is_ticked():
    say = find("say_chain")
    assert grade(say, tuple(range(8))) and not grade(say, (0, 1, 2)) and not grade(say, 3)
    entries = {"say_chain": {"answer": [7, 0, 3], "correct": True, "typed": "x" * 9000},
               "say_mup": {"answer": [0, 0]}, "say_qk_norm": {"answer": [0, 9]}}
    got = attempts(entries, BANK)
    assert set(got) == {"say_chain"} and got["say_chain"].answer == (0, 3, 7) and not got["say_chain"].correct
    assert len(got["say_chain"].typed) == 4000


def test_scores_per_topic_and_missed_in_bank_order():
    progress = {"chain_variance": Attempt(22.6, True), "chain_saturation": Attempt(0, False),
                "trap_dmodel": Attempt(1, True), "bug_missing": Attempt(0, False)}
    s = scores(progress, BANK)
    assert list(s) == ["chain", "derive", "say", "traps", "follow-ups", "bugs"]
    assert s["chain"] == (1, 2, 4) and s["traps"] == (1, 1, 5) and s["follow-ups"][:2] == (0, 0)
    assert missed(progress, BANK) == ("chain_saturation", "bug_missing")


def test_progress_round_trips_and_is_regraded():
    progress = {"chain_variance": Attempt(8.0, False), "fu_long_context": Attempt((2, 0, 1), True),
                "bug_vit_dim": Attempt(4, True)}
    text = progress_to_json(progress)
    data = json.loads(text)
    assert data["version"] == 2
    assert data["answers"]["fu_long_context"] == {"answer": [2, 0, 1], "correct": True, "reviews": []}
    assert progress_from_json(text, BANK) == progress
    # A stored verdict that disagrees with the bank is graded again.
    data["answers"]["chain_variance"]["correct"] = True
    assert progress_from_json(json.dumps(data), BANK)["chain_variance"].correct is False


def test_an_answer_to_another_case_is_stored_and_graded_with_its_case():
    # 16 is right for d_k = 256 (case 1) and wrong for the item's own d_k = 512.
    progress = {"chain_variance": Attempt(16.0, True, case=1)}
    text = progress_to_json(progress)
    assert json.loads(text)["answers"]["chain_variance"]["case"] == 1
    assert progress_from_json(text, BANK) == progress
    data = json.loads(text)
    del data["answers"]["chain_variance"]["case"]  # as an earlier version stored it: its own case
    assert progress_from_json(json.dumps(data), BANK)["chain_variance"] == Attempt(16.0, False)
    data["answers"]["chain_variance"]["case"] = "one"  # not a case: its own
    assert progress_from_json(json.dumps(data), BANK)["chain_variance"].case == 0


@pytest.mark.parametrize("text", [None, 3, "", "not json", "[]", '{"version": 3, "answers": {}}',
                                  '{"version": 1, "answers": []}', "x" * 300_000])
def test_unreadable_progress_is_no_progress(text):
    assert progress_from_json(text, BANK) == {}


def test_malformed_entries_are_dropped_one_by_one():
    text = json.dumps({"version": 1, "answers": {
        "chain_variance": {"answer": "22"}, "unknown_item": {"answer": 1}, "chain_saturation": {"answer": 9},
        "fu_long_context": {"answer": [0, 0, 1]}, "trap_dmodel": {"answer": True}, "bug_missing": [2],
        "trap_after_softmax": {"answer": 0.0625}}})
    assert progress_from_json(text, BANK) == {"trap_after_softmax": Attempt(0.0625, True)}


def _stored(answer: str) -> str:
    return '{"version": 1, "answers": {"chain_variance": {"answer": ' + answer + ', "correct": true}}}'


@pytest.mark.parametrize(("text", "reason"), [
    (_stored("9" * 4000), "a number with 4,000 digits"),  # raised OverflowError when practice opened
    (_stored("-" + "9" * 40), "a number with 41 digits"),
    (_stored("1e999"), "a number too large to be an answer"),
    (_stored("NaN"), "NaN is not an answer"),
    (_stored("Infinity"), "Infinity is not an answer"),
    ("not json", "not JSON"),
    ("[1, 2]", "not a JSON object"),
    ('"progress"', "not a JSON object"),
    (3, "not a text"),
    ('{"answers": {}}', "no version number"),
    ('{"version": true, "answers": {}}', "no version number"),
    ('{"version": 0, "answers": {}}', "unknown progress version 0"),
    ('{"version": 3, "answers": {}, "reviews": []}', "made by a newer sqrtdk-gui (progress version 3; this one reads 2)"),
    ('{"version": 1, "answers": [1]}', "no answers"),
    ('{"version": 1, "answers": {"x": "' + "y" * 900_000 + '"}}', "more than 262,144 characters"),
    ("[" * 60_000, "JSON nested too deeply"),
])
def test_stored_progress_that_is_not_progress_is_refused_in_one_sentence(text, reason):
    with pytest.raises(ProgressError) as refused:
        read_progress(text)
    assert str(refused.value) == reason
    assert progress_from_json(text, BANK) == {}  # and practice starts afresh, never a traceback


def test_an_answer_too_large_for_a_float_is_left_out_not_raised():
    entries = {"chain_variance": {"answer": 10**400}, "trap_after_softmax": {"answer": 0.0625}}
    assert attempts(entries, BANK) == {"trap_after_softmax": Attempt(0.0625, True)}


def test_answers_to_items_of_another_versions_bank_are_stored_again():
    text = json.dumps({"version": 1, "answers": {"chain_variance": {"answer": 22.6, "correct": True},
                                                 "a_newer_item": {"answer": [3, 1], "correct": False}}})
    entries = read_progress(text)
    progress, foreign = attempts(entries, BANK), foreign_entries(entries, BANK)
    assert foreign == {"a_newer_item": {"answer": [3, 1], "correct": False}}
    progress["trap_dmodel"] = Attempt(1, True)
    again = read_progress(progress_to_json(progress, foreign))
    assert again["a_newer_item"] == foreign["a_newer_item"] and set(again) == {"chain_variance", "trap_dmodel",
                                                                               "a_newer_item"}


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_the_concept_test_lists_every_item_and_its_key_last(fmt):
    text = concept_test(BANK, fmt)
    if fmt == "html":
        assert text.startswith("<!DOCTYPE html>") and "break-before:page" in text and "<script" not in text
        text = html.unescape(text)
    key = text.index("Answer key")
    for q in BANK:
        assert q.title in text[:key]
        assert answer_text(q) in text[key:]
        if q.kind == "line":
            assert q.options[0].strip() in text[:key] and q.fix in text[key:]
    assert "line 11" in text[key:] and "20 – 25" in text[key:]
