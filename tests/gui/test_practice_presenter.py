"""PracticePresenter against an autospec'd PracticePage: grading, reveal, retry, progress."""

from __future__ import annotations

import json
from unittest.mock import create_autospec

import pytest

from sqrtdk_gui.core.practice import BANK, bugs, find
from sqrtdk_gui.gui.practice.page import PracticePage
from sqrtdk_gui.gui.practice.presenter import PracticePresenter, Reveal


@pytest.fixture
def parts():
    view = create_autospec(PracticePage, instance=True)
    view.confirm_reset.return_value = True
    cases, saved = [], []
    presenter = PracticePresenter(view, BANK, lambda p, panels: cases.append((p, panels)), lambda: 3, saved.append)
    return presenter, view, cases, saved


def test_an_item_opens_covered_and_a_commitment_reveals_its_case(parts):
    presenter, view, cases, saved = parts
    presenter.load(None)
    assert presenter.current is BANK[0] and cases[-1] == (None, BANK[0].panels)
    view.show_question.assert_called_with(BANK[0], f"1 of {len(BANK)}")
    presenter.commit_number("22,6")
    params, panels = cases[-1]
    assert params.d_k == 512 and params.scaling == "none" and params.seed == 3 and panels == BANK[0].panels
    reveal: Reveal = view.show_reveal.call_args.args[0]
    assert reveal.correct and reveal.given == "22.6" and reveal.seed == 3
    assert reveal.measured.readings[0].value.startswith("22.")
    assert json.loads(saved[-1])["answers"]["chain_variance"] == {"answer": 22.6, "correct": True}
    presenter.commit_number("8")  # one commitment per showing
    assert json.loads(saved[-1])["answers"]["chain_variance"]["answer"] == 22.6
    presenter.wait_for_spread()  # the same case in every sample of SEEDS
    spread = view.show_reveal.call_args.args[0].spread
    assert spread.agree == spread.total == 8 and 22.0 < spread.lowest < spread.highest < 23.2


def test_a_bad_number_is_a_problem_not_an_answer(parts):
    presenter, view, _cases, saved = parts
    presenter.load(None)
    presenter.commit_number("8, 20")
    view.show_problem.assert_called_once()
    assert not presenter.revealed and not saved


def test_scores_retry_missed_and_the_next_unanswered(parts):
    presenter, view, _cases, _saved = parts
    presenter.load(None)
    presenter.commit_number("8")  # wrong
    presenter.next()
    assert presenter.current.key == "chain_saturation"
    presenter.commit_choice(3)  # right
    view.show_scores.assert_called_with(
        {"chain": (1, 2, 4), "traps": (0, 0, 5), "follow-ups": (0, 0, 8), "bugs": (0, 0, len(bugs.CARDS))}, 1)
    presenter.retry_missed()
    assert presenter.queue == ("chain_variance",) and presenter.current.key == "chain_variance"
    assert "retrying" in view.show_question.call_args.args[1]
    presenter.commit_number("22.6")
    presenter.next()  # the retry queue is done: the first item not yet right
    assert presenter.current.key == "chain_jacobian" and len(presenter.queue) == len(BANK)
    presenter.retry_missed()
    view.show_problem.assert_called_with("Nothing to retry: no item is answered wrongly.")


def test_rankings_and_bug_lines(parts):
    presenter, view, cases, _saved = parts
    presenter.load(None)
    presenter.open("fu_long_context")
    presenter.commit_ranking([0, 1])  # not every item: ignored
    assert not presenter.revealed
    presenter.commit_ranking([2, 0, 1])
    assert view.show_reveal.call_args.args[0].correct
    presenter.open("bug_vit_after")
    presenter.commit_choice(6)
    reveal = view.show_reveal.call_args.args[0]
    assert reveal.correct and reveal.given.startswith("line 7:") and cases[-1][0].scaling == "after_softmax"


def test_progress_loads_regraded_and_reset_clears_it(parts):
    presenter, view, _cases, saved = parts
    text = json.dumps({"version": 1, "answers": {"chain_variance": {"answer": 22.6, "correct": False},
                                                 "bogus": {"answer": 1}}})
    presenter.load(text)
    assert presenter.progress["chain_variance"].correct and presenter.current.key == "chain_saturation"
    view.confirm_reset.return_value = False
    assert not presenter.reset() and presenter.progress
    view.confirm_reset.return_value = True
    assert presenter.reset() and presenter.progress == {}
    assert json.loads(saved[-1])["answers"] == {} and presenter.current is BANK[0]


def test_open_from_a_link_and_an_unknown_key(parts):
    presenter, _view, _cases, _saved = parts
    presenter.load(None)
    presenter.open("bug_missing")
    assert presenter.current is find("bug_missing") and not presenter.revealed
    with pytest.raises(StopIteration):
        presenter.open("nope")
