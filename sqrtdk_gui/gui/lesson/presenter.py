"""Drives the lesson: which step or scenario is on, its parameters, highlights, animation.

The pages, their order, their parameters and reworded questions come from a ``LessonPlan``
(``FULL`` unless a teacher's lesson file is open). A scenario's evidence table is built in a
worker thread when it is not at hand (the long-context table takes a second): the page shows
at once and its table follows. While a page is on, the next page of the clicker's order has
its table built in that worker and its result computed in another, so a lecture given in
order never waits for either.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QCoreApplication, QObject, Signal

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.theory import theory_std
from sqrtdk_gui.core.i18n import _, language
from sqrtdk_gui.core.lesson.content import STEPS
from sqrtdk_gui.core.lesson.content import scenario as find_scenario
from sqrtdk_gui.core.lesson.evidence import cached_evidence, evidence
from sqrtdk_gui.core.lesson.page import Scenario, Step
from sqrtdk_gui.core.lesson.plan import FULL, LessonPlan
from sqrtdk_gui.core.lesson.predict import PREDICTIONS, compare, measured, parse_guesses
from sqrtdk_gui.gui.relay import in_background

if TYPE_CHECKING:
    from sqrtdk_gui.core.lesson.page import Animation
    from sqrtdk_gui.gui.lesson.pane import LessonPane
    from sqrtdk_gui.gui.lesson.slide import SlidePane

__all__ = ["LessonPresenter", "prepare_page", "page_params", "step_description", "scenario_description"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

# The closing page's panels: the Jacobian's and the gradient's curves over every head size.
CLOSING_PRESET: dict[str, Any] = {"d_k": 512, "scaling": "sqrt_dk"}
CLOSING_PANELS = ("jacobian", "gradient")


def step_description(step: Step, count: int, number: int | None = None) -> str:
    """"Step 2/5: <its title>" in the language spoken (the window's title); ``number``: the
    step's place in the lesson open (default: its own number)."""
    return translate("LessonPresenter", "Step {number}/{count}: {title}").format(
        number=step.number if number is None else number, count=count, title=_(step.title))


def scenario_description(scenario: Scenario) -> str:
    """"Trap: <its title>" or "Follow-up: <its title>" in the language spoken."""
    text = (translate("LessonPresenter", "Trap: {title}") if scenario.kind == "trap"
            else translate("LessonPresenter", "Follow-up: {title}"))
    return text.format(title=_(scenario.title))


def page_params(step: int | None = None, scenario: str | None = None, plan: LessonPlan = FULL) -> Params:
    """The parameters a lesson page shows once entered without animation: a scenario's
    preset; a step's preset, at its animation's end once its question is revealed (as
    ``go_to(step, animate=False)`` then ``reveal(animate=False)`` leave them); each with
    the parameters ``plan`` sets on top."""
    if scenario is not None:
        return plan.params(find_scenario(scenario))
    if step is None:
        raise ValueError("page_params needs a step or a scenario")
    page = STEPS[step - 1]
    params = plan.params(page)
    if page.animation is not None and step in PREDICTIONS:
        params = params.replace(d_k=page.animation.end)
    return params


def prepare_page(step: int | None = None, scenario: str | None = None, params: Params | None = None,
                 plan: LessonPlan = FULL) -> None:
    """Compute the numbers that showing a lesson page computes, in any thread: a scenario's
    evidence table (for ``params``, default its preset in ``plan``), a step's measured answer.
    Entering or restoring the page afterwards takes them from their caches (exports compute
    them in a worker first, so that the GUI thread only lays the page out)."""
    if scenario is not None:
        evidence(scenario, params if params is not None else plan.params(find_scenario(scenario)))
    elif step is not None and step in PREDICTIONS:
        measured(step, plan.params(STEPS[step - 1]))


class LessonPresenter(QObject):
    """Navigation over the pages of ``plan``: the introduction, the plan's steps and
    scenarios in its order, the closing page. ``step`` is a step's own number (1-based; 0 is
    the introduction; on a scenario, the plan's last step).

    ``highlight`` and ``veil`` are callables taking view names (``veil`` also summary cells
    as "summary.<cell>"); ``animator`` is a DkAnimator. Predict first is blind: while a
    step's question is open, ``veil(hidden, covered)`` hides what would answer it and the
    step's animation waits; ``reveal`` uncovers, plays the animation and shows the class's
    guesses against the measured value. ``covered`` views stay covered for the whole step:
    they would answer a later step's question. Keys and a clicker use :meth:`advance` and
    :meth:`back`.
    """

    changed = Signal(str)  # a short description for the window title ("" at the intro)
    about_to_move = Signal()  # go_to / choose_scenario start (undo records the state before)

    # ``controller`` (a Controller) and ``animator`` (a DkAnimator) live in the window's
    # package, above the lesson's: duck-typed here.
    def __init__(self, controller: Any, pane: LessonPane, highlight: Callable[..., object], animator: Any,
                 parent: QObject | None = None, veil: Callable[..., object] | None = None,
                 hold_axis: Callable[[float | None], object] | None = None,
                 slide: SlidePane | None = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._pane = pane
        # The views of the current page: the pane (the teacher's notes, with the guesses and
        # the buttons) and, in presentation mode, the projected slide.
        self._views: list[LessonPane | SlidePane] = [pane] + ([slide] if slide is not None else [])
        self._highlight = highlight
        self._veil = veil or (lambda targets, covered=(): None)
        # hold_axis(half | None): the logit axis the lesson holds (a step's widest σ × 4), so
        # the class sees the histogram widen instead of the tick labels change.
        self._hold_axis = hold_axis or (lambda half: None)
        self.held_half: float | None = None
        self._animator = animator
        self.plan: LessonPlan = FULL
        self.step = 0
        self.scenario: Scenario | None = None
        self.closing = False  # the page after the last follow-up
        self.revealed = True  # False while a step's question is open
        pane.next_clicked.connect(self.forward)
        pane.previous_clicked.connect(self.previous)
        pane.scenario_clicked.connect(self.choose_scenario)
        pane.reveal_clicked.connect(self.reveal)
        self._seed = controller.params.seed
        controller.params_changed.connect(self._params_changed)
        self._waiting: tuple[str, Params] | None = None  # the table the pane waits for
        self._ahead: Future[Any] | None = None  # the next page's table, being built
        self._navigation()

    def _params_changed(self, params: Params) -> None:
        # New sample: a trap's table is "for these parameters", and the page says again which
        # quoted ranges this sample falls outside of.
        if params.seed == self._seed:
            return
        self._seed = params.seed
        if self.scenario is not None:
            self._show_scenario(self.scenario, params)
        else:
            self._each("set_seed", params.seed)

    def set_plan(self, plan: LessonPlan) -> None:
        """Follow ``plan`` from now on (the caller then shows a page of it)."""
        self.plan = plan
        self._each("set_plan", plan)

    @property
    def count(self) -> int:
        """The number of steps in the lesson open."""
        return len(self.plan.steps)

    def _gateway(self) -> int:
        """The step a scenario page counts as: the plan's last step (0 without steps)."""
        steps = self.plan.steps
        return steps[-1].number if steps else 0

    def _step_description(self, step: Step) -> str:
        number, count = self.plan.position(step)
        return step_description(step, count, number)

    def _show_step(self, step: Step) -> None:
        entry = self.plan.entry(step)
        number, count = self.plan.position(step)
        # A teacher's wording is shown as the lesson's own questions are (plain, or rich text).
        self._each("show_step", step, count, self._controller.params.seed, number, entry.question_in(language()))

    def current(self) -> Step | None:
        return STEPS[self.step - 1] if self.step else None

    def go_to(self, number: int, animate: bool = True) -> None:
        """Enter step ``number`` (1..5, its own number): apply its preset, highlight, maybe animate."""
        number = min(max(int(number), 1), len(STEPS))
        step = STEPS[number - 1]
        self.about_to_move.emit()
        self._animator.stop()
        self._waiting = None
        self.step, self.scenario, self.closing = number, None, False
        self._apply(self.plan.entry(step).preset)
        self._hold(step)
        prediction = PREDICTIONS.get(number)
        self.revealed = prediction is None
        self._veil_step(step)
        if step.animation is not None and (animate or prediction is not None):
            # Blind: the sweep waits at its start, behind the veil, for the reveal.
            self._controller.set_params(d_k=step.animation.start)
            if prediction is None:
                self._play(step)
        self._highlight(step.highlight, step.slide_views)
        self._show_step(step)
        self._navigation()
        self.changed.emit(self._step_description(step))
        self._prefetch_neighbours()

    def reveal(self, animate: bool = True) -> None:
        """Uncover the open question's answer: views, animation, guesses against the measurement."""
        step = self.current()
        if step is None or self.scenario is not None:
            return
        if self.revealed:  # nothing hidden (a question without a measured answer)
            self._each("reveal")
            return
        self.revealed = True
        self._veil_step(step)
        if step.animation is not None:
            if animate:
                self._play(step)
            else:
                self._controller.set_params(d_k=step.animation.end)
        prediction = PREDICTIONS[step.number]
        value = measured(step.number, self.plan.params(step))
        guesses = compare(parse_guesses(self._pane.guess_text()), value)
        self._each("show_answer", prediction.quantity, value, prediction.digits, guesses)
        self.changed.emit(self._step_description(step))  # what comes next has changed

    def _hold(self, step: Step | None) -> None:
        """Hold the logit axis at four σ of the widest logits the step shows (its preset, or
        the end of its animation); free outside the steps."""
        if step is None:
            self.held_half = None
        else:
            p = self.plan.params(step)
            widest = max(p.d_k, step.animation.end if step.animation else 0)
            self.held_half = 4.0 * theory_std(p.replace(d_k=widest))
        self._hold_axis(self.held_half)

    def _veil_step(self, step: Step) -> None:
        """Cover what would answer a question: this step's while it is open, later steps' always."""
        prediction = PREDICTIONS.get(step.number)
        open_ = () if self.revealed or prediction is None else prediction.hides
        self._veil(open_, step.covers)

    def _play(self, step: Step) -> None:
        a = cast("Animation", step.animation)  # (called only for a step with an animation)
        self._controller.set_params(d_k=a.start)
        self._animator.run(a.start, a.end, a.seconds)

    def choose_scenario(self, key: str) -> None:
        """Show a trap or follow-up: its parameters, highlights and evidence table."""
        s = find_scenario(key)
        self.about_to_move.emit()
        self._animator.stop()
        self.step, self.scenario, self.closing = self._gateway(), s, False
        self.revealed = True
        self._hold(None)
        self._veil(())
        self._apply(self.plan.entry(s).preset)
        self._highlight(s.highlight, s.slide_views)
        self._show_scenario(s, self._controller.params)
        self.changed.emit(scenario_description(s))
        self._prefetch_neighbours()

    def restore(self, step: int, scenario: Scenario | str | None, answered: bool = False) -> None:
        """Show a lesson position without applying its preset (presets, settings, slides);
        ``answered``: a step with its answer on screen, as it was before (no animation)."""
        self._animator.stop()
        self.revealed = True
        self.closing = False
        self._veil(())  # a restored position shows its numbers (presets, settings, slides)
        key = scenario.key if isinstance(scenario, Scenario) else scenario
        if key:
            s = find_scenario(key)
            self.step, self.scenario = self._gateway(), s
            self._hold(None)
            self._highlight(s.highlight, s.slide_views)
            self._show_scenario(s, self._controller.params)
            self.changed.emit(scenario_description(s))
        elif step:
            current = STEPS[step - 1]
            self.step, self.scenario = step, None
            self._hold(current)
            self.revealed = answered or PREDICTIONS.get(step) is None
            self._veil_step(current)
            self._highlight(current.highlight, current.slide_views)
            self._show_step(current)
            if answered:
                self._each("reveal")
            self.changed.emit(self._step_description(current))
        else:
            self.step, self.scenario = 0, None
            self._hold(None)
            self._highlight((), ())
            self._each("show_intro")
            self.changed.emit("")
        self._navigation()

    def _page(self) -> Step | Scenario | None:
        """The step or scenario on screen (None: the introduction or the closing page)."""
        if self.closing or not self.step and self.scenario is None:
            return None
        return self.scenario if self.scenario is not None else STEPS[self.step - 1]

    def _next_index(self) -> int:
        """The plan's index of the page the clicker brings next (len(pages): the closing page)."""
        page = self._page()
        return 0 if page is None else self.plan.after(page)

    def _back_index(self) -> int:
        """The plan's index of the page the back key brings (-1: none)."""
        if self.closing:
            return len(self.plan.pages) - 1
        page = self._page()
        return -1 if page is None else self.plan.before(page)

    def _enter(self, index: int) -> None:
        """Show the plan's page ``index`` (at or past the end: the closing page)."""
        if index >= len(self.plan.pages):
            self.close()
            return
        page = self.plan.pages[index].page
        if isinstance(page, Step):
            self.go_to(page.number)
        else:
            self.choose_scenario(page.key)

    def _describe(self, index: int) -> str:
        if index >= len(self.plan.pages):
            return translate("LessonPresenter", "The end")
        page = self.plan.pages[index].page
        return self._step_description(page) if isinstance(page, Step) else scenario_description(page)

    def next(self) -> None:
        """The next page of the lesson, without revealing (the pane's Next button)."""
        self.forward()

    def previous(self) -> None:
        """The pane's Previous button: in the whole lesson, from a trap or follow-up back to
        step 5, which offers them all; else the page before, as the back key."""
        if self.scenario is not None and self.plan.is_full:
            self.go_to(self._gateway())
        else:
            self.back()

    def page_values(self) -> Params:
        """The parameters the page on screen sets (the defaults at the introduction): what a
        parameter the lesson locks must be here."""
        if self.closing:
            return Params(**CLOSING_PRESET)
        page = self._page()
        if page is None:
            return Params()
        params = self.plan.params(page)
        if isinstance(page, Step) and page.animation is not None:
            params = params.replace(d_k=page.animation.end if self.revealed else page.animation.start)
        return params

    def go_to_nth(self, n: int) -> None:
        """The number keys: the lesson's n-th step (nothing beyond its last)."""
        step = self.plan.nth_step(n)
        if step is not None:
            self.go_to(step.number)

    def forward(self) -> None:
        """The next page in the clicker's order, without revealing: the plan's pages in order
        (the lesson as shipped: the steps, the traps, the follow-ups), then the closing page."""
        if not self.closing:
            self._enter(self._next_index())

    def close(self) -> None:
        """The closing page: the chain in short and where the handout is."""
        self.about_to_move.emit()
        self._animator.stop()
        self._waiting = None
        self.step, self.scenario, self.closing = self._gateway(), None, True
        self.revealed = True
        self._hold(None)
        self._veil(())
        # The whole chain at a glance: raw against ÷√d_k for every head size.
        self._apply(CLOSING_PRESET)
        self._highlight(CLOSING_PANELS, CLOSING_PANELS)
        self._each("show_closing")
        self._navigation()
        self.changed.emit(translate("LessonPresenter", "The end"))
        self._controller.prefetch(Params(**self.plan.pages[-1].preset))  # Page Up goes there

    def description(self) -> str:
        """The page on screen, as the window's title names it ("" at the introduction)."""
        if self.closing:
            return translate("LessonPresenter", "The end")
        if self.scenario is not None:
            return scenario_description(self.scenario)
        return self._step_description(STEPS[self.step - 1]) if self.step else ""

    def following(self) -> str:
        """What the clicker's next press brings ("" on the closing page)."""
        if self.closing:
            return ""
        if not self.answer_shown:
            return translate("LessonPresenter", "the answer to this question")
        return self._describe(self._next_index())

    def _navigation(self) -> None:
        self._pane.set_navigation(back=self._back_index() >= 0, forward=not self.closing)

    def _each(self, method: str, *args: object) -> None:
        """Show the same thing in every view of the page (the pane, the slide)."""
        for view in self._views:
            getattr(view, method)(*args)

    @property
    def answer_shown(self) -> bool:
        """Whether the current step's answer is on screen (True where there is no step)."""
        return self.step == 0 or self.scenario is not None or self.closing or self._pane.answer_visible

    def advance(self) -> None:
        """The clicker's forward press: reveal an unanswered question, else move on
        (:meth:`forward`), ending on the closing page."""
        if not self.answer_shown:
            self.reveal()
        else:
            self.forward()

    def back(self) -> None:
        """The clicker's back press: the page before in the plan's order."""
        index = self._back_index()
        if index >= 0:
            self._enter(index)

    def first(self) -> None:
        """The plan's first page."""
        self._enter(0)

    def last(self) -> None:
        """The plan's last step (its traps and follow-ups follow), else its last page."""
        steps = self.plan.steps
        if steps:
            self.go_to(steps[-1].number)
        else:
            self._enter(len(self.plan.pages) - 1)

    def _apply(self, preset: dict[str, Any]) -> None:
        # A preset is a whole, reproducible state: defaults plus the step's own values.
        self._controller.replace_params(Params(**preset))

    # --- evidence tables, built off the GUI thread ---------------------------------------------
    def _show_scenario(self, s: Scenario, params: Params) -> None:
        """The scenario in the pane with its table if at hand, else with a note while a worker
        builds it (``_on_evidence`` puts it in)."""
        table = cached_evidence(s.key, params)
        self._each("show_scenario", s, table, params.seed)
        self._navigation()
        self._waiting = None if table is not None else (s.key, params)
        if table is None:
            self._build_evidence(s.key, params)

    def _build_evidence(self, key: str, params: Params) -> Future[Any]:
        if self._ahead is not None:
            self._ahead.cancel()  # a page already left: its table waits no more in the queue
            self._ahead = None
        me = weakref.ref(self)

        def on_gui_thread() -> None:
            presenter = me()
            try:
                if presenter is not None:
                    presenter._on_evidence(key, params)
            except RuntimeError:  # the window was deleted meanwhile: nobody waits
                pass

        return in_background("evidence", lambda: evidence(key, params), on_gui_thread)  # one thread: tables queue

    def _on_evidence(self, key: str, params: Params) -> None:
        if self._waiting == (key, params) and self.scenario is not None and self.scenario.key == key:
            self.wait_for_evidence()

    def wait_for_evidence(self) -> None:
        """Put the table the pane waits for in now (built here, or the worker's waited for):
        headless renders, slides and the handout draw the whole page."""
        if self._waiting is None or self.scenario is None:
            return
        key, params = self._waiting
        self._waiting = None
        try:
            table = evidence(key, params)
        except Exception as exc:  # noqa: BLE001 - a bug: said in the pane, not a frozen note
            self._each("show_scenario", self.scenario, None, params.seed, f"{type(exc).__name__}: {exc}")
            return
        self._each("show_scenario", self.scenario, table, params.seed)

    def _prefetch_neighbours(self) -> None:
        """Compute the results of the pages the clicker shows next and before (their presets'),
        unless at hand, and build the next page's table: Page Up onto the long-context page
        is as quick as Page Down."""
        pages = self.plan.pages
        # Scenarios only: a step enters at its animation's start, not at its preset.
        near = [pages[i] for i in (self._next_index(), self._back_index())
                if 0 <= i < len(pages) and isinstance(pages[i].page, Scenario)]
        self._controller.prefetch(*(Params(**p.preset) for p in near))
        nxt = self._next_index()
        if nxt < len(pages) and isinstance(pages[nxt].page, Scenario):
            key, params = cast(Scenario, pages[nxt].page).key, Params(**pages[nxt].preset)
            if cached_evidence(key, params) is None:
                self._ahead = self._build_evidence(key, params)
