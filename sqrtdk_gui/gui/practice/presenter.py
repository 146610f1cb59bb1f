"""Practice mode's presenter: which item is open, what was committed, the scores and progress.

``PracticePresenter`` owns the state — the progress (one ``Attempt`` per item answered, with
its review history), the item open and whether its answer is revealed, and the queue being
worked through (the whole bank, the items missed for *Retry missed*, or those due for
*Review due*). It grades a commitment, rates it for the schedule (``core.practice.schedule``:
a *Say it* rehearsal is rated by the candidate), stores the progress through ``save`` (the
settings file) and asks ``show_case(params, panels)`` to set the live
panels to the item's case, in the sample on screen (``seed()``). How the answer stands in
every other sample is measured in a worker while the item is open (``core.practice.spread``)
and joins the reveal when it is there. The view (``PracticeView``:
``PracticePage``) only shows what it is handed and passes on what the candidate does, so a
test drives the presenter with an autospec'd page.
"""

from __future__ import annotations

import random
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timezone
from typing import Protocol

from PySide6.QtCore import QCoreApplication

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import _, format_number
from sqrtdk_gui.core.practice import interview, schedule
from sqrtdk_gui.core.practice.concept_test import LETTERS
from sqrtdk_gui.core.practice.model import Answer, Question, Step
from sqrtdk_gui.core.practice.progress import ProgressError, read_progress
from sqrtdk_gui.core.practice.rehearse import said_links
from sqrtdk_gui.core.practice.scoring import (
    TYPED_MAX,
    Attempt,
    attempts,
    due_keys,
    foreign_entries,
    grade,
    missed,
    parse_number,
    progress_to_json,
    scores,
)
from sqrtdk_gui.core.practice.spread import cached_spread, spread
from sqrtdk_gui.core.practice.why import why_not
from sqrtdk_gui.gui.practice.shown import Entry, InterviewSummary, Reveal, StepDone, describe_answer, expected_answer
from sqrtdk_gui.gui.relay import in_background

__all__ = ["PracticePresenter", "PracticeView"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


class PracticeView(Protocol):
    """What the presenter asks of practice mode's page."""

    def show_entries(self, entries: Sequence[Entry], current: str) -> None: ...
    def show_scores(self, scores: dict[str, tuple[int, int, int]], missed: int, due: int) -> None: ...
    def show_question(self, question: Question, position: str, order: tuple[int, ...]) -> None: ...
    def show_step(self, question: Question, index: int, done: Sequence[StepDone], order: tuple[int, ...]) -> None: ...
    def show_summary(self, summary: InterviewSummary) -> None: ...
    def show_reveal(self, reveal: Reveal) -> None: ...
    def show_problem(self, text: str) -> None: ...
    def set_busy(self, busy: bool) -> None: ...
    def confirm_reset(self) -> bool: ...


class PracticePresenter:
    """The state of one candidate's practice, shown on ``view``.

    ``show_case(params, panels)`` sets the live panels (``None``: cover them until the
    reveal); ``seed()`` is the sample on screen; ``save(text)`` stores the progress;
    ``clock()`` times an answer (seconds), ``now()`` dates a review (UTC).
    """

    def __init__(self, view: PracticeView, bank: Sequence[Question],
                 show_case: Callable[[Params | None, tuple[str, ...]], object],
                 seed: Callable[[], int], save: Callable[[str], object] = lambda text: None,
                 clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], datetime] = lambda: datetime.now(timezone.utc)) -> None:
        self._view = view
        self._clock, self._now = clock, now
        self._opened_at = 0.0
        self.order: tuple[int, ...] = ()  # the open item's options as shown (shuffled on a review)
        self._shuffle = random.Random()
        self._bank = tuple(bank)
        self._show_case = show_case
        self._seed = seed
        self._save = save
        self.progress: dict[str, Attempt] = {}
        self._typed, self._rehearsal_seconds = "", 0.0  # the rehearsal on show, until rated
        self._steps: list[StepDone] = []  # the derivation on show: its steps committed so far
        self.interview: list[interview.Asked] | None = None  # a mock interview's answers; None: none on
        self._interview_started = 0.0
        self._foreign: dict[str, object] = {}  # stored answers to items of another version's bank: kept
        self.queue: tuple[str, ...] = tuple(q.key for q in self._bank)
        self.current: Question = self._bank[0]
        self.revealed = False
        self._reveal: Reveal | None = None  # the reveal on show
        self._queue_is_due = False  # the queue is Review due's (else the bank's, or Retry missed's)

    def find(self, key: str) -> Question:
        """The bank's item called ``key``."""
        return next(q for q in self._bank if q.key == key)

    @property
    def rehearsing(self) -> bool:
        """A *Say it* rehearsal is open and not yet rated."""
        return self.current.kind == "say" and (self._reveal is None or not self._reveal.rating)

    # --- progress ----------------------------------------------------------------------------
    def load(self, text: object) -> None:
        """The stored progress (anything unreadable: none; the settings say so and keep the
        text aside), then the first item not answered."""
        try:
            entries = read_progress(text)
        except ProgressError:
            entries = {}
        self.progress = attempts(entries, self._bank)
        self._foreign = foreign_entries(entries, self._bank)
        self.queue = tuple(q.key for q in self._bank)
        self.open(next((k for k in self.queue if k not in self.progress), self.queue[0]))

    def reset(self, confirm: bool = True) -> bool:
        """Forget every answer (after the view's confirmation); True if done."""
        if confirm and not self._view.confirm_reset():
            return False
        self.progress, self._foreign = {}, {}
        self._store()
        self.queue = tuple(q.key for q in self._bank)
        self.open(self.queue[0])
        return True

    def _store(self) -> None:
        self._save(progress_to_json(self.progress, self._foreign))

    # --- moving --------------------------------------------------------------------------------
    def open(self, key: str, interviewing: bool = False) -> None:
        """Show an item with its commitment open; the live panels are covered until the reveal.
        Any item opened but the interview's next ends a mock interview."""
        q = self.find(key)
        if key in self.progress:  # answered before: the next case, so the number is worked out again
            q = q.variant(self.progress[key].case + 1)
        if not interviewing:
            self.interview = None
        self.current, self.revealed = q, False
        if key not in self.queue:
            self.queue = tuple(q.key for q in self._bank)
        number, count = self.queue.index(key) + 1, len(self.queue)
        if self.interview is not None:
            position = translate("PracticePresenter", "Mock interview · {number} of {count} · {minutes} min so far")
            number, count = len(self.interview) + 1, interview.LENGTH
        elif len(self.queue) < len(self._bank):
            position = (translate("PracticePresenter", "{number} of {count} · reviewing what is due")
                        if self._queue_is_due else
                        translate("PracticePresenter", "{number} of {count} · retrying the missed ones"))
        else:
            position = translate("PracticePresenter", "{number} of {count}")
        minutes = int((self._clock() - self._interview_started) // 60)
        self._show_case(None, q.panels)
        self._reveal = None
        self.order = self._order(q)
        self._opened_at = self._clock()
        self._steps = []
        self._view.show_question(q, position.format(number=number, count=count, minutes=minutes), self.order)
        if q.kind == "derive":
            self._show_step()
        self._refresh()
        if cached_spread(q) is None:
            self._measure_spread(q)

    def _order(self, q: Question, options: Sequence[str] | None = None) -> tuple[int, ...]:
        """The options as shown: as written the first time, shuffled once the item has been
        answered (a review recalls the answer, not its letter). Code lines keep their order."""
        order = list(range(len(q.options if options is None else options)))
        if (q.kind in ("choice", "ranking") or options is not None) and q.key in self.progress:
            while len(order) > 1 and order == sorted(order):
                self._shuffle.shuffle(order)
        return tuple(order)

    def _measure_spread(self, q: Question) -> None:
        me = weakref.ref(self)

        def measured() -> None:
            presenter = me()
            try:
                if presenter is not None:
                    presenter._spread_measured(q)
            except RuntimeError:  # the page was deleted meanwhile: nobody waits
                pass

        in_background("practice", lambda: spread(q), measured)

    def _spread_measured(self, q: Question) -> None:
        r = self._reveal
        if r is not None and r.question is q and r.spread is None:
            self.wait_for_spread()

    def wait_for_spread(self) -> None:
        """Put the spread into the reveal on show now (measured here if the worker has not):
        headless renders show the whole reveal."""
        r = self._reveal
        if r is None or r.spread is not None:
            return
        try:
            found = spread(r.question)
        except Exception:  # noqa: BLE001 - the reveal stands without it; a failing item fails its test
            return
        self._reveal = replace(r, spread=found)
        self._view.show_reveal(self._reveal)

    def next(self) -> None:
        """The next item of the queue (after the last: the first not yet answered right); in a
        mock interview, the item its answers so far lead to, and after the last the summary."""
        if self.interview is not None:
            if not self.interview or self.interview[-1].key != self.current.key:  # skipped: counts as missed
                self.interview.append(interview.Asked(self.current.key, False, tuple(range(len(self.current.parts)))
                                                      if self.current.kind == "say" else ()))
            key = interview.next_key(self.interview)
            if key is None:
                self._finish_interview()
            else:
                self.open(key, interviewing=True)
            return
        i = self.queue.index(self.current.key)
        if i + 1 < len(self.queue):
            self.open(self.queue[i + 1])
            return
        left = [k for k in (q.key for q in self._bank) if not (k in self.progress and self.progress[k].correct)]
        self.queue = tuple(q.key for q in self._bank)
        self.open(left[0] if left else self.queue[0])

    def previous(self) -> None:
        i = self.queue.index(self.current.key)
        self.open(self.queue[max(0, i - 1)])

    def retry_missed(self) -> None:
        """Work through the items answered wrongly, again, in the bank's order."""
        wrong = missed(self.progress, self._bank)
        if not wrong:
            self._view.show_problem(translate("PracticePresenter", "Nothing to retry: no item is answered wrongly."))
            return
        self.queue, self._queue_is_due = wrong, False
        self.open(wrong[0])

    # --- a mock interview ------------------------------------------------------------------------
    def start_interview(self) -> None:
        """A mock interview: the main question said aloud, then follow-ups chosen by the answers."""
        self._interview_started = self._clock()
        self.interview = []
        self.open(interview.MAIN, interviewing=True)

    def _interview_answered(self, q: Question, correct: bool, left_out: tuple[int, ...] = ()) -> None:
        if self.interview is not None and not any(a.key == q.key for a in self.interview):
            self.interview.append(interview.Asked(q.key, correct, left_out))

    def _finish_interview(self) -> None:
        asked = tuple(self.interview or ())
        lessons = {q.key: q.lesson for q in self._bank}
        seconds = self._clock() - self._interview_started
        summary = InterviewSummary(asked, interview.weak_points(asked, lessons), seconds)
        self.interview = None
        self.revealed = True  # nothing to commit until an item is opened again
        self._reveal = None  # a reveal's late spread must not replace the summary
        self._view.show_summary(summary)

    def due_today(self) -> tuple[str, ...]:
        """The items whose review is due by the end of today, in the bank's order."""
        return due_keys(self.progress, self._bank, schedule.end_of_today(self._now()))

    def review_due(self) -> None:
        """Work through the items due today (the schedule's), in the bank's order."""
        due = self.due_today()
        if not due:
            self._view.show_problem(translate("PracticePresenter", "Nothing is due today: come back when the "
                                              "list shows a due mark."))
            return
        self.queue, self._queue_is_due = due, True
        self.open(due[0])

    # --- committing ----------------------------------------------------------------------------
    def commit_choice(self, index: int) -> None:
        """An option (or a code line) committed; ranking: the order committed is ``commit_ranking``."""
        step = self._step()
        if step is not None:
            if step.kind == "choice" and 0 <= index < len(step.options):
                self._commit_step(index)
        elif self.current.kind in ("choice", "line") and 0 <= index < len(self.current.options):
            self._commit(index)

    def commit_ranking(self, order: Sequence[int]) -> None:
        if self.current.kind == "ranking" and sorted(order) == list(range(len(self.current.options))):
            self._commit(tuple(order))

    def commit_number(self, text: str) -> None:
        value = parse_number(text)
        step = self._step()
        if isinstance(value, str):
            self._view.show_problem(_(value))
        elif step is not None:
            if step.kind == "number":
                self._commit_step(value)
        elif self.current.kind == "number":
            self._commit(value)

    def _commit(self, answer: Answer) -> None:
        if self.revealed or self.current.kind in ("say", "derive"):
            return  # one commitment per showing; Next or the list opens it again
        q = self.current
        correct = grade(q, answer)
        self._record(q, answer, correct, schedule.rating_for(q.kind, correct, self._clock() - self._opened_at))
        self._interview_answered(q, correct)
        self._reveal_case(q, answer, correct)

    # --- a derivation, step by step ------------------------------------------------------------
    def _step(self) -> Step | None:
        """The derivation's step open for a commitment (None: not a derivation, or done)."""
        q = self.current
        if q.kind != "derive" or self.revealed or len(self._steps) >= len(q.steps):
            return None
        return q.steps[len(self._steps)]

    def _show_step(self) -> None:
        step = self._step()
        if step is not None:
            self.order = self._order(self.current, step.options) if step.kind == "choice" else ()
            self._view.show_step(self.current, len(self._steps), tuple(self._steps), self.order)

    def _commit_step(self, answer: int | float) -> None:
        """One step committed and graded; the next step, or after the last the reveal."""
        q, step = self.current, self._step()
        assert step is not None
        if step.kind == "number":
            given = format_number(float(answer))
        else:
            assert isinstance(answer, int)
            shown = self.order.index(answer) if answer in self.order else answer
            given = f"{LETTERS[shown]} · {_(step.options[answer])}"
        self._steps.append(StepDone(given, step.grade(answer)))
        if len(self._steps) < len(q.steps):
            self._show_step()
            return
        right = tuple(i for i, s in enumerate(self._steps) if s.right)
        correct = grade(q, right)
        self._record(q, right, correct, schedule.rating_for(q.kind, correct, self._clock() - self._opened_at))
        self._interview_answered(q, correct)
        self.order = ()
        self._reveal_case(q, right, correct)

    def finish_rehearsal(self, typed: str, seconds: float | None = None) -> None:
        """A *Say it* rehearsal ended after ``seconds`` on its clock (default: since the item
        opened): the model answer and the rubric, the links the typed words match marked;
        nothing is stored until the candidate rates it."""
        q = self.current
        if q.kind != "say" or self.revealed:
            return
        said = said_links(q, typed)
        self._typed = typed[:TYPED_MAX]
        self._rehearsal_seconds = self._clock() - self._opened_at if seconds is None else seconds
        self._reveal_case(q, said, grade(q, said), said=said)

    def rate_rehearsal(self, ticked: Sequence[int], rating: int) -> None:
        """The candidate's rating (1 Again … 4 Easy) and the links they ticked, stored."""
        q, r = self.current, self._reveal
        if q.kind != "say" or r is None or r.rating or rating not in schedule.RATINGS:
            return
        answer = tuple(sorted({i for i in ticked if 0 <= i < len(q.options)}))
        correct = grade(q, answer)
        history = self._record(q, answer, correct, rating, self._rehearsal_seconds, self._typed)
        self._interview_answered(q, correct, tuple(i for i in range(len(q.options)) if i not in answer))
        self._reveal = replace(r, given=describe_answer(q, answer), correct=correct, rating=rating,
                               due=schedule.due(history), answer_links=answer)
        self._view.show_reveal(self._reveal)
        self._refresh()

    def _record(self, q: Question, answer: Answer, correct: bool, rating: int, seconds: float | None = None,
                typed: str = "") -> tuple[schedule.Review, ...]:
        """Store an answer and its review; the item's history after it."""
        seconds = self._clock() - self._opened_at if seconds is None else seconds
        before = self.progress[q.key].reviews if q.key in self.progress else ()
        history = schedule.merge_reviews(before, (schedule.Review(self._now(), rating, max(0.0, seconds)),))
        self.progress[q.key] = Attempt(answer, correct, history, typed, q.case)
        self._store()
        return history

    def _reveal_case(self, q: Question, answer: Answer, correct: bool, said: tuple[int, ...] = ()) -> None:
        params = q.params(self._seed())
        self._view.set_busy(True)  # measuring takes a moment (up to ~1 s on a slow laptop)
        try:
            measured = q.measure(params)
        finally:
            self._view.set_busy(False)
        self._show_case(params, q.panels)
        self.revealed = True
        attempt = self.progress.get(q.key)
        history = attempt.reviews if attempt else ()
        rated = q.kind != "say"
        self._reveal = Reveal(q, describe_answer(q, answer, self.order), correct, expected_answer(q, self.order),
                              measured, params.seed, cached_spread(q), said=said,
                              rating=history[-1].rating if rated and history else 0,
                              due=schedule.due(history) if rated else None,
                              history=history[:-1] if rated else history, steps=tuple(self._steps),
                              why=why_not(q, answer) if isinstance(answer, int) else "",
                              answer_line=answer if q.kind == "line" and isinstance(answer, int) else None)
        self._view.show_reveal(self._reveal)
        self._refresh()

    def _refresh(self) -> None:
        due = set(self.due_today())
        entries = [Entry(q, self.progress[q.key].correct if q.key in self.progress else None, q.key in due)
                   for q in self._bank]
        self._view.show_entries(entries, self.current.key)
        self._view.show_scores(scores(self.progress, self._bank), len(missed(self.progress, self._bank)), len(due))
