"""PracticePresenter against an autospec'd PracticePage: grading, reveal, retry, progress,
the review schedule and *Say it* rehearsals."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from unittest.mock import ANY, create_autospec

import pytest

from sqrtdk_gui.core.practice import BANK, bugs, find
from sqrtdk_gui.gui.practice.page import PracticePage
from sqrtdk_gui.gui.practice.presenter import PracticePresenter
from sqrtdk_gui.gui.practice.shown import Reveal


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
    view.show_question.assert_called_with(BANK[0], f"1 of {len(BANK)}", ())
    presenter.commit_number("22,6")
    params, panels = cases[-1]
    assert params.d_k == 512 and params.scaling == "none" and params.seed == 3 and panels == BANK[0].panels
    reveal: Reveal = view.show_reveal.call_args.args[0]
    assert reveal.correct and reveal.given == "22.6" and reveal.seed == 3
    assert reveal.measured.readings[0].value.startswith("22.")
    stored = json.loads(saved[-1])["answers"]["chain_variance"]
    assert stored["answer"] == 22.6 and stored["correct"] is True and [r[1] for r in stored["reviews"]] == [3]
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
        {"chain": (1, 2, 4), "derive": (0, 0, 5), "say": (0, 0, 6), "traps": (0, 0, 5), "follow-ups": (0, 0, 9),
         "bugs": (0, 0, len(bugs.CARDS))}, 1, 0)
    presenter.retry_missed()
    assert presenter.queue == ("chain_variance",) and presenter.current.key == "chain_variance"
    assert "retrying" in view.show_question.call_args.args[1]
    # A retry asks the same question with other numbers (d_k = 256, not 512): the answer is
    # worked out again, graded against this case's band and stored with it.
    shown = presenter.current
    assert shown.case == 1 and shown.preset["d_k"] == 256 and "d_k = 256" in shown.text(shown.prompt)
    presenter.commit_number("22.6")
    assert not view.show_reveal.call_args.args[0].correct
    presenter.open("chain_variance")
    assert presenter.current.case == 2 and "d_k = 1024" in presenter.current.text(presenter.current.prompt)
    presenter.commit_number("32")
    assert presenter.progress["chain_variance"].case == 2 and presenter.progress["chain_variance"].correct
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


class _Clock:
    """A clock and a calendar the test moves by hand."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.now = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)

    def advance(self, seconds: float = 0.0, days: float = 0.0) -> None:
        self.seconds += seconds
        self.now += timedelta(seconds=seconds, days=days)


def _timed(view, clock, saved):
    return PracticePresenter(view, BANK, lambda p, panels: None, lambda: 3, saved.append,
                             clock=lambda: clock.seconds, now=lambda: clock.now)


def test_answers_are_rated_by_verdict_and_time_and_come_back_when_due(parts):
    _presenter, view, _cases, saved = parts
    clock = _Clock()
    presenter = _timed(view, clock, saved)
    presenter.load(None)
    clock.advance(seconds=8)
    presenter.commit_number("22.6")  # right and quick: Good
    presenter.open("chain_saturation")
    clock.advance(seconds=50)
    presenter.commit_choice(3)  # right after 50 s of working it out: Hard
    presenter.open("chain_jacobian")
    presenter.commit_choice(0)  # wrong: Again
    ratings = {k: [r[1] for r in v["reviews"]] for k, v in json.loads(saved[-1])["answers"].items()}
    assert ratings == {"chain_variance": [3], "chain_saturation": [2], "chain_jacobian": [1]}
    assert presenter.due_today() == ()  # FSRS spaces even a lapse by a day
    view.show_scores.assert_called_with(ANY, 1, 0)

    # A restart two days later: the same text, read by a new presenter, says what is due.
    clock.advance(days=2)
    later = _timed(view, clock, saved)
    later.load(saved[-1])
    assert later.due_today() == ("chain_variance", "chain_saturation", "chain_jacobian")
    view.show_scores.assert_called_with(ANY, 1, 3)
    assert [e.due for e in view.show_entries.call_args.args[0][:4]] == [True, True, True, False]
    later.review_due()
    assert later.queue == later.due_today() and "reviewing what is due" in view.show_question.call_args.args[1]
    # A review shows a choice's options shuffled, and the letter named is the one on screen.
    later.open("chain_saturation")
    order = view.show_question.call_args.args[2]
    assert sorted(order) == [0, 1, 2, 3] and order != (0, 1, 2, 3)
    clock.advance(seconds=5)
    later.commit_choice(3)
    reveal = view.show_reveal.call_args.args[0]
    assert reveal.given.startswith("ABCD"[order.index(3)] + " · ") and reveal.rating == 3
    assert reveal.due - clock.now > timedelta(days=2)  # Hard, then Good: further out than the first gap
    assert [r.rating for r in reveal.history] == [2]


def test_a_rehearsal_is_timed_ticked_rated_and_kept(parts):
    _presenter, view, cases, saved = parts
    clock = _Clock()
    presenter = _timed(view, clock, saved)
    presenter.load(None)
    presenter.open("say_chain")
    assert presenter.rehearsing
    presenter.commit_choice(0)  # a rehearsal is not committed like a question
    assert not presenter.revealed
    typed = "q·k sums d_k products, the variance grows, the softmax saturates"
    presenter.finish_rehearsal(typed, 71.5)
    reveal = view.show_reveal.call_args.args[0]
    assert reveal.said == (0, 1, 2, 3) and reveal.rating == 0 and not saved  # nothing stored before the rating
    assert presenter.rehearsing and reveal.measured.answer == tuple(range(8))
    presenter.rate_rehearsal([0, 1, 2, 3, 4, 9], 2)  # a link out of range is ignored
    reveal = view.show_reveal.call_args.args[0]
    assert reveal.rating == 2 and reveal.given == "5 of 8 links" and not reveal.correct
    assert not presenter.rehearsing and reveal.due is not None
    entry = json.loads(saved[-1])["answers"]["say_chain"]
    assert entry["answer"] == [0, 1, 2, 3, 4] and entry["typed"] == typed and entry["reviews"][0][1:] == [2, 71.5]
    presenter.rate_rehearsal(list(range(8)), 4)  # rated once per showing
    assert len(json.loads(saved[-1])["answers"]["say_chain"]["reviews"]) == 1
    # The next showing lists this one among the earlier rehearsals.
    clock.advance(days=1)
    presenter.open("say_chain")
    presenter.finish_rehearsal("", 40.0)
    assert [h.seconds for h in view.show_reveal.call_args.args[0].history] == [71.5]
    presenter.rate_rehearsal(list(range(8)), 3)
    assert view.show_reveal.call_args.args[0].correct
    assert [r[1] for r in json.loads(saved[-1])["answers"]["say_chain"]["reviews"]] == [2, 3]


def test_a_derivation_is_graded_step_by_step_and_confirmed_by_the_model(parts):
    presenter, view, cases, saved = parts
    presenter.load(None)
    presenter.open("derive_variance")
    view.show_step.assert_called_with(find("derive_variance"), 0, (), ())
    presenter.commit_choice(0)  # a number step takes no choice
    presenter.commit_number("1")
    presenter.commit_number("16")  # d_k·σ_q·σ_k: the σs, not the variances
    done = view.show_step.call_args.args[2]
    assert [d.right for d in done] == [True, False] and done[1].given == "16"
    assert cases[-1] == (None, find("derive_variance").panels) and not saved  # covered, nothing stored yet
    presenter.commit_number("8")
    presenter.commit_choice(0)  # ÷√d_k
    reveal = view.show_reveal.call_args.args[0]
    assert not reveal.correct and reveal.given == "3 of 4 steps right" and [s.right for s in reveal.steps] == [
        True, False, True, True]
    assert reveal.measured.answer == (0, 1, 2, 3)  # the model confirms σ = 8 in this sample
    assert cases[-1][0].q_std == 2.0 and cases[-1][0].k_std == 0.5
    assert json.loads(saved[-1])["answers"]["derive_variance"]["answer"] == [0, 2, 3]
    presenter.commit_number("64")  # after the reveal, nothing more is taken
    assert len(json.loads(saved[-1])["answers"]["derive_variance"]["reviews"]) == 1


def test_a_mock_interview_follows_the_answers_and_ends_in_a_summary(parts):
    _presenter, view, _cases, saved = parts
    clock = _Clock()
    presenter = _timed(view, clock, saved)
    presenter.load(None)
    presenter.start_interview()
    assert presenter.current.key == "say_chain" and "Mock interview · 1 of 7 · 0 min" in \
        view.show_question.call_args.args[1]
    presenter.finish_rehearsal("", 95.0)
    presenter.rate_rehearsal([0, 1, 2, 3, 5, 6, 7], 3)  # the Jacobian left out
    presenter.next()
    assert presenter.current.key == "chain_jacobian"  # the gap is probed first
    clock.advance(seconds=120)
    presenter.commit_choice(0)  # "about the identity": wrong
    presenter.next()
    assert presenter.current.key == "derive_jacobian"  # a wrong answer: the same misconception, derived
    assert "2 min so far" in view.show_question.call_args.args[1]
    for answer in (0, "0.21", "-0.14", "0", 0):
        (presenter.commit_choice if isinstance(answer, int) else presenter.commit_number)(answer)
    presenter.next()
    assert presenter.current.key == "fu_qk_norm"  # right: deeper
    presenter.commit_choice(1)
    presenter.next()
    assert presenter.current.key == "fu_temperature"
    presenter.next()  # skipped: counts as missed, and its misconception is probed
    assert presenter.current.key == "say_temperature"
    presenter.finish_rehearsal("", 30.0)
    presenter.rate_rehearsal([0, 1, 2], 4)
    presenter.next()
    assert presenter.current.key == "fu_init" and presenter.interview is not None
    presenter.commit_number("2.7")  # √64/3 under PyTorch's default initialisation
    presenter.next()  # the seventh answer: the summary
    summary = view.show_summary.call_args.args[0]
    assert [a.key for a in summary.asked] == ["say_chain", "chain_jacobian", "derive_jacobian", "fu_qk_norm",
                                              "fu_temperature", "say_temperature", "fu_init"]
    assert [a.correct for a in summary.asked] == [False, False, True, True, False, True, True]
    assert summary.asked[0].left_out == (4,) and summary.seconds == 120.0
    assert summary.weak == (("chain_jacobian", "step:3"), ("fu_temperature", "temperature"))
    assert presenter.interview is None


def test_opening_another_item_ends_a_mock_interview(parts):
    presenter, view, _cases, _saved = parts
    presenter.load(None)
    presenter.start_interview()
    presenter.open("bug_missing")
    assert presenter.interview is None and "Mock interview" not in view.show_question.call_args.args[1]
