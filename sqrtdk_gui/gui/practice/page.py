"""Practice mode's page (the view): the item list and scores, the question, the reveal.

The page builds the widgets, passes the candidate's commitments to the presenter and shows
what the presenter hands it. The live panels (the window's summary strip and plots) are
lent to it while it is in front (``hold_instrument``), so a reveal sets them to the case
beside the question. Keys: Up/Down choose, Return commits, 1–9 commit an option or a code
line at once, Ctrl+Up/Down move an item of a ranking; after the reveal Return is *Next*.
A *Say it* rehearsal is ``rehearsal.RehearsalPanel``'s: Return starts the clock,
Ctrl+Return ends it, Space ticks a link, 1–4 rate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QStyle,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import _, localize_number
from sqrtdk_gui.core.practice import BANK
from sqrtdk_gui.core.practice.concept_test import LETTERS
from sqrtdk_gui.core.practice.model import TOPICS, Question
from sqrtdk_gui.gui.assets import code_font
from sqrtdk_gui.gui.practice.presenter import PracticePresenter
from sqrtdk_gui.gui.practice.rehearsal import RehearsalPanel
from sqrtdk_gui.gui.practice.reveal_html import reveal_html, summary_html
from sqrtdk_gui.gui.practice.shown import Entry, InterviewSummary, Reveal, StepDone
from sqrtdk_gui.gui.style import Style

__all__ = ["PracticePage"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "PracticePage"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

# Shown through translate("PracticePage", ...).
_HINTS = {"choice": QT_TRANSLATE_NOOP("PracticePage", "↑ ↓ choose · Return commits · 1–{n} commit at once"),
          "line": QT_TRANSLATE_NOOP("PracticePage", "↑ ↓ choose the faulty line · Return commits · its number "
                                    "commits it at once (12: 1 then 2)"),
          "ranking": QT_TRANSLATE_NOOP("PracticePage", "Drag into order, or ↑ ↓ select and Ctrl+↑ / Ctrl+↓ move · "
                                       "Return commits the order, largest first"),
          "number": QT_TRANSLATE_NOOP("PracticePage", "Type one number (such as 3.5, 1/8 or 2e-3) · Return commits"),
          "say": QT_TRANSLATE_NOOP("PracticePage", "Return starts the clock · say it aloud or type · Ctrl+Return "
                                   "ends it · then tick what you said and rate it 1–4")}
_MARK = {None: "·", True: "✓", False: "✗"}
_DUE = "↻"  # an item whose review is due today
_SHORT = {"chain": QT_TRANSLATE_NOOP("PracticePage", "Chain"),  # the topics, short: a narrow column
          "traps": QT_TRANSLATE_NOOP("PracticePage", "Traps"),
          "follow-ups": QT_TRANSLATE_NOOP("PracticePage", "Follow-ups"),
          "derive": QT_TRANSLATE_NOOP("PracticePage", "Derive"),
          "say": QT_TRANSLATE_NOOP("PracticePage", "Say it"),
          "bugs": QT_TRANSLATE_NOOP("PracticePage", "Bugs")}


class _Options(QListWidget):
    """The options, code lines or ranked items; Return and the number keys commit."""

    LINE_WAIT_MS = 800  # after a digit that may begin a two-digit line number
    def __init__(self, page: PracticePage) -> None:
        super().__init__()
        self._page = page
        self.setObjectName("practiceOptions")
        self._first_digit: int | None = None  # a code card's line number being typed
        self._line_timer = QTimer(self)
        self._line_timer.setSingleShot(True)
        self._line_timer.setInterval(self.LINE_WAIT_MS)
        self._line_timer.timeout.connect(self._line_wait_over)
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._page.fit_code()

    def _line_digit(self, digit: int) -> None:
        """A code line by its number: at once, unless it may be the first digit of a longer
        card's line 10 or later — then it is selected and committed after LINE_WAIT_MS unless
        a second digit follows (1, 2: line 12)."""
        first, self._first_digit = self._first_digit, None
        self._line_timer.stop()
        number = 10 * first + digit if first is not None else digit
        if not 1 <= number <= self.count():
            return
        self.setCurrentRow(number - 1)
        if first is None and 10 * number <= self.count():
            self._first_digit = number
            self._line_timer.start()
        else:
            self._page.commit()

    def cancel_line_number(self) -> None:
        """Forget a digit typed: the item was committed or changed meanwhile."""
        self._first_digit = None
        self._line_timer.stop()

    def _line_wait_over(self) -> None:
        if self._first_digit is not None:
            self._first_digit = None
            self._page.commit()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        key, ctrl = event.key(), bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        page = self._page
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            page.commit()
        elif page.answer_kind == "line" and Qt.Key.Key_0 <= key <= Qt.Key.Key_9 and not ctrl:
            self._line_digit(key - Qt.Key.Key_0)
        elif page.answer_kind == "choice" and Qt.Key.Key_1 <= key <= Qt.Key.Key_9 and not ctrl:
            row = key - Qt.Key.Key_1  # as on screen: a review shows the options shuffled
            if row < self.count():
                self.setCurrentRow(row)
                page.commit()
        elif page.kind == "ranking" and ctrl and key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            row = self.currentRow()
            to = row + (1 if key == Qt.Key.Key_Down else -1)
            if 0 <= row < self.count() and 0 <= to < self.count():
                self.insertItem(to, self.takeItem(row))
                self.setCurrentRow(to)
        else:
            super().keyPressEvent(event)


class PracticePage(QWidget):
    """Interview practice: questions and bug cards, each a commitment, then the measured reveal."""

    def __init__(self, style: Style, show_case: Callable[[Params | None, tuple[str, ...]], object],
                 seed: Callable[[], int], save: Callable[[str], object] = lambda text: None) -> None:
        super().__init__()
        self.style_ = style
        self.kind = "choice"
        self.step_kind = "choice"  # a derivation's open step: "number" or "choice"
        self.setObjectName("practicePage")
        self.scores = QLabel()
        self.scores.setObjectName("practiceScores")
        self.scores.setWordWrap(True)
        self.items = QListWidget()
        self.items.setObjectName("practiceItems")
        self.items.setAccessibleName(translate("PracticePage", "Practice items"))
        self.items.itemActivated.connect(lambda item: self._open_item(item, again=True))
        self.items.itemClicked.connect(self._open_item)  # one click opens an item, as on a web page
        self.retry_button = QPushButton(translate("PracticePage", "Re&try missed"))
        self.retry_button.setMinimumWidth(0)
        self.retry_button.setToolTip(translate("PracticePage", "Work through the items answered wrongly again"))
        self.retry_button.clicked.connect(lambda: self.presenter.retry_missed())
        self.due_button = QPushButton(translate("PracticePage", "Review &due"))
        self.due_button.setMinimumWidth(0)
        self.due_button.setToolTip(translate("PracticePage", "Work through the items the schedule brings back "
                                             "today (marked {mark})").format(mark=_DUE))
        self.due_button.clicked.connect(lambda: self.presenter.review_due())
        self.interview_button = QPushButton(translate("PracticePage", "Moc&k interview"))
        self.interview_button.setMinimumWidth(0)
        self.interview_button.setToolTip(translate("PracticePage", "The main question out loud, then follow-ups "
                                                   "chosen by your answers, and a summary of what to review"))
        self.interview_button.clicked.connect(lambda: self.presenter.start_interview())
        self.reset_button = QPushButton(translate("PracticePage", "Reset pro&gress…"))
        self.reset_button.setToolTip(translate("PracticePage", "Forget every answer (asks first)"))
        self.reset_button.clicked.connect(lambda: self.presenter.reset())
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.scores)
        side_layout.addWidget(self.items, 1)
        buttons = QVBoxLayout()  # one above the other: the column is narrow at 1024 × 768
        buttons.addWidget(self.interview_button)
        buttons.addWidget(self.due_button)
        buttons.addWidget(self.retry_button)
        buttons.addWidget(self.reset_button)
        side_layout.addLayout(buttons)

        self.position = QLabel()
        self.position.setObjectName("practicePosition")
        self.title = QLabel()
        self.title.setObjectName("practiceTitle")
        self.title.setWordWrap(True)
        self.prompt = QLabel()
        self.prompt.setObjectName("practicePrompt")
        self.prompt.setWordWrap(True)
        self.prompt.setTextFormat(Qt.TextFormat.PlainText)
        self.options = _Options(self)
        self.number = QLineEdit()
        self.number.setObjectName("practiceNumber")
        self.number.setPlaceholderText(translate("PracticePage", "your number"))
        self.number.returnPressed.connect(self.commit)
        self.unit = QLabel()
        number_row = QWidget()
        row = QHBoxLayout(number_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.number, 1)
        row.addWidget(self.unit)
        self.answer_stack = QStackedWidget()
        self.answer_stack.addWidget(self.options)
        self.answer_stack.addWidget(number_row)
        self.rehearsal = RehearsalPanel(style)
        self.rehearsal.finished.connect(lambda typed, seconds: self.presenter.finish_rehearsal(typed, seconds))
        self.rehearsal.rated.connect(lambda ticked, rating: self.presenter.rate_rehearsal(ticked, rating))
        self.answer_stack.addWidget(self.rehearsal)
        self.hint = QLabel()
        self.hint.setObjectName("practiceHint")
        self.hint.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setObjectName("practiceProblem")
        self.problem.setWordWrap(True)
        self.commit_button = QPushButton(translate("PracticePage", "&Commit answer"))
        self.commit_button.setAutoDefault(True)
        self.commit_button.clicked.connect(self.commit)
        self.reveal = QTextBrowser()
        self.reveal.setObjectName("practiceReveal")
        self.reveal.setOpenLinks(False)  # offline: nothing here leaves the program
        # Half a line between paragraphs (Qt's default is a whole one): the essentials fit above
        # the fold at 1024 × 768.
        self.reveal.document().setDefaultStyleSheet("p { margin-top: 0px; margin-bottom: 6px; }")
        self.next_button = QPushButton(translate("PracticePage", "&Next question"))
        self.next_button.setAutoDefault(True)  # Return on it after a reveal moves on
        self.next_button.clicked.connect(lambda: self.presenter.next())
        card = QWidget()
        card_layout = QVBoxLayout(card)
        card_layout.setContentsMargins(0, 0, 0, 0)
        # After a reveal *Next* sits beside the position, so the reveal gets its row's height.
        self._top_row = QHBoxLayout()
        self._top_row.addWidget(self.position, 1)
        card_layout.addLayout(self._top_row)
        widget: QWidget  # labels here, the columns below
        for widget in (self.title, self.prompt):
            card_layout.addWidget(widget)
        card_layout.addWidget(self.answer_stack, 2)
        card_layout.addWidget(self.hint)
        card_layout.addWidget(self.problem)
        self._actions = QHBoxLayout()
        self._actions.addWidget(self.commit_button)
        self._actions.addWidget(self.next_button)
        card_layout.addLayout(self._actions)
        card_layout.addWidget(self.reveal, 3)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.instrument_slot = QWidget()
        self.instrument_slot.setObjectName("practiceInstrument")
        QVBoxLayout(self.instrument_slot).setContentsMargins(0, 0, 0, 0)
        for widget, stretch in ((side, 2), (card, 5), (self.instrument_slot, 5)):
            self.splitter.addWidget(widget)
            self.splitter.setStretchFactor(self.splitter.count() - 1, stretch)
        self.splitter.splitterMoved.connect(self._splitter_moved)
        self._user_split = False
        self.presenter: PracticePresenter = PracticePresenter(self, BANK, show_case, seed, save)
        # Titles wrap (a teacher reads each one in full); the column is as wide as its buttons.
        self.items.setWordWrap(True)
        self.items.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.items.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.side = side
        self.instrument_slot.setMinimumWidth(240)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.addWidget(self.splitter)
        self.apply_style()

    # --- layout ------------------------------------------------------------------------------------
    SHARES = (0.18, 0.41, 0.41)  # item list, question (and its reveal), live panels
    CODE_SHARES = (0.16, 0.58, 0.26)  # a code card being read: its lines need the width
    CODE_MIN_SCALE = 0.8  # a code line's font shrinks to fit the view, to this share of its size

    def _splitter_moved(self) -> None:
        self._user_split = True

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._set_shares()

    def _set_shares(self) -> None:
        # Until the candidate drags a handle: a code card takes the width while it is read
        # (the panels are covered anyway), the live panels take it back at the reveal.
        # Where even that is too narrow for the card's longest line (a 1024 × 768 projector at
        # the presentation zoom), the covered panels make way until the reveal.
        reading = self.kind == "line" and not self.presenter.revealed
        width = self.splitter.width()
        shares = self.CODE_SHARES if reading else self.SHARES
        make_way = (reading and not self._user_split
                    and shares[1] * width < self._code_width(self.style_.pt(9.5)))
        # A rehearsal until it is rated: the clock, the model answer and the rubric take the
        # panels' room (they are covered until the reveal, and show the case after the rating).
        make_way = make_way or (self.kind == "say" and self.presenter.rehearsing and not self._user_split)
        # A mock interview's summary is about the whole interview, not the last item's case.
        make_way = make_way or (self.kind == "summary" and not self._user_split)
        self.instrument_slot.setVisible(not make_way)
        if not self._user_split:
            sizes = [round(share * width) for share in shares]
            if make_way:
                sizes = [sizes[0], sizes[1] + sizes[2], 0]
            self.splitter.blockSignals(True)
            self.splitter.setSizes(sizes)
            self.splitter.blockSignals(False)

    # --- the instrument, lent by the window --------------------------------------------------
    def hold_instrument(self, widget: QWidget) -> None:
        cast(QVBoxLayout, self.instrument_slot.layout()).addWidget(widget)

    # --- what the candidate does ---------------------------------------------------------------
    def _open_item(self, item: QListWidgetItem, again: bool = False) -> None:
        """Open a listed item (a topic's header is none). The item already open stays as it
        is — a rehearsal, a derivation or a mock interview under way is not lost to a click —
        unless it is revealed and Return opens it afresh, or a summary is on show."""
        key = item.data(Qt.ItemDataRole.UserRole)
        if not key:
            return
        presenter = self.presenter
        current = key == presenter.current.key and self.kind != "summary"
        if current and not (again and presenter.revealed and presenter.interview is None):
            return
        presenter.open(key)

    def commit(self) -> None:
        self.options.cancel_line_number()
        if self.presenter.revealed:
            self.presenter.next()
        elif self.answer_kind == "number":
            self.presenter.commit_number(self.number.text())
        elif self.kind == "ranking":
            self.presenter.commit_ranking([self.options.item(i).data(Qt.ItemDataRole.UserRole)
                                           for i in range(self.options.count())])
        elif self.kind == "say":
            if self.rehearsal.state == "ready":
                self.rehearsal.start()
            else:
                self.rehearsal.done()
        elif self.options.currentItem() is not None:
            self.presenter.commit_choice(self.options.currentItem().data(Qt.ItemDataRole.UserRole))
        else:
            self.show_problem(translate("PracticePage", "Choose one first (↑ ↓ or a number key)."))

    def set_busy(self, busy: bool) -> None:
        """The busy pointer while an answer's case is measured (the GUI thread is working)."""
        if busy:
            QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
        else:
            QApplication.restoreOverrideCursor()

    def confirm_reset(self) -> bool:
        answer = QMessageBox.question(self, translate("PracticePage", "Reset practice progress"),
                                      translate("PracticePage", "Forget every practice answer and score?"),
                                      QMessageBox.StandardButton.Reset | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Reset

    # --- what the presenter shows -----------------------------------------------------------------
    def show_entries(self, entries: Sequence[Entry], current: str) -> None:
        self.items.blockSignals(True)
        self.items.clear()
        topic = ""
        for entry in entries:
            q = entry.question
            if q.topic != topic:
                topic = q.topic
                header = QListWidgetItem(_(TOPICS[topic]))
                header.setFlags(Qt.ItemFlag.NoItemFlags)
                header.setFont(self.style_.font(10, bold=True))
                self.items.addItem(header)
            mark = _DUE if entry.due else _MARK[entry.correct]
            item = QListWidgetItem(f"{mark}  {_(q.title)}")
            item.setData(Qt.ItemDataRole.UserRole, q.key)
            item.setToolTip(_(q.title))
            self.items.addItem(item)
            if q.key == current:
                self.items.setCurrentItem(item)
        self.items.blockSignals(False)

    def show_scores(self, scores: dict[str, tuple[int, int, int]], missed: int, due: int) -> None:
        short = {t: translate("PracticePage", text) for t, text in _SHORT.items()}
        rows = "<br>".join(f"{short[t]} <b>{right}</b>/{total}" for t, (right, _done, total) in scores.items())
        self.scores.setText(translate("PracticePage", "<b>Score</b> (right/items)") + f"<br>{rows}")
        self.due_button.setEnabled(due > 0)
        self.due_button.setText(translate("PracticePage", "Review &due ({count})").format(count=due) if due
                                else translate("PracticePage", "Review &due"))
        self.retry_button.setEnabled(missed > 0)
        self.retry_button.setText(translate("PracticePage", "Re&try missed ({count})").format(count=missed) if missed
                                  else translate("PracticePage", "Re&try missed"))

    def show_question(self, q: Question, position: str, order: tuple[int, ...] = ()) -> None:
        self.kind = q.kind
        self.options.cancel_line_number()
        if q.kind != "say":
            self.rehearsal.stop()  # a rehearsal left running: its clock stops
        where = translate("PracticePage", "Spot the bug") if q.kind == "line" else _(TOPICS[q.topic])
        self.position.setText(f"{where} · {position}")
        self.title.setText(_(q.title))
        prompt = q.text(q.prompt)
        if q.kind == "line":
            prompt = f"{q.language} · {prompt}"
        self.prompt.setText(prompt)
        self.show_problem("")
        self.reveal.clear()
        self.reveal.hide()  # until the commitment: the options get its room
        self.commit_button.setEnabled(True)
        for widget in (self.answer_stack, self.hint, self.commit_button):
            widget.show()
        self.next_button.setText(translate("PracticePage", "Skip to the &next one"))
        self._move_next(self._actions)
        self.options.clear()
        mono = q.kind == "line"
        say = q.kind == "say"
        for shown, i in enumerate(() if say else (order or range(len(q.options)))):
            text = q.options[i]
            if mono:  # a line of code: never translated
                label = f"{i + 1:2d}  {text}"
            else:
                label = _(text) if q.kind == "ranking" else f"{LETTERS[shown]}  {_(text)}"
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, i)
            self.options.addItem(item)
        self.options.setWordWrap(not mono)
        self.options.setFont(self._code_font() if mono else self.style_.font(12))
        self.number.clear()
        self.unit.setText(q.unit)
        self.answer_stack.setCurrentIndex(2 if say else 1 if q.kind == "number" else 0)
        if say:
            self.rehearsal.show_item(q)
        hint = translate("PracticePage", _HINTS.get(q.kind, _HINTS["choice"])).format(n=min(9, len(q.options)))
        self.hint.setText(translate("PracticePage", "{hint}. The answer, the measurements and the live panels "
                                    "(covered until then) come after you commit.").format(hint=hint))
        # A ranking's items are dragged into order with the mouse, or moved with Ctrl+↑/↓.
        drag = QAbstractItemView.DragDropMode.InternalMove if q.kind == "ranking" else \
            QAbstractItemView.DragDropMode.NoDragDrop
        self.options.setDragDropMode(drag)
        if q.kind == "ranking":
            self.options.setCurrentRow(0)
        for widget in (self.answer_stack, self.hint):
            widget.show()
        self.commit_button.setVisible(not say)  # a rehearsal has its own buttons
        target = self.number if q.kind == "number" else self.rehearsal.start_button if say else self.options
        target.setFocus(Qt.FocusReason.OtherFocusReason)
        self._set_shares()
        self.fit_code()

    def show_step(self, q: Question, index: int, done: Sequence[StepDone], order: tuple[int, ...]) -> None:
        """A derivation's next step: the lines established so far above it (✓ right, ✗ with
        the answer given), its prompt, and a number box or the choices."""
        step = q.steps[index]
        self.step_kind = step.kind
        lines = [f"{'✓' if d.right else '✗'} {_(s.line)}" + (
            "" if d.right else "  " + translate("PracticePage", "(you: {answer})").format(answer=d.given))
            for s, d in zip(q.steps, done, strict=False)]
        head = translate("PracticePage", "Step {number} of {count}:").format(number=index + 1, count=len(q.steps))
        self.prompt.setText("\n".join([_(q.prompt), *lines, f"{head} {_(step.prompt)}"]))
        self.show_problem("")
        self.options.clear()
        for shown, i in enumerate(order if step.kind == "choice" else ()):
            item = QListWidgetItem(f"{LETTERS[shown]}  {_(step.options[i])}")
            item.setData(Qt.ItemDataRole.UserRole, i)
            self.options.addItem(item)
        self.options.setWordWrap(True)
        self.options.setFont(self.style_.font(12))
        self.number.clear()
        self.unit.setText("")
        self.answer_stack.setCurrentIndex(1 if step.kind == "number" else 0)
        hint = translate("PracticePage", _HINTS[step.kind]).format(n=min(9, len(step.options)))
        self.hint.setText(translate("PracticePage", "{hint}. Each step is checked at once; the model confirms the "
                                    "finished derivation.").format(hint=hint))
        target = self.number if step.kind == "number" else self.options
        target.setFocus(Qt.FocusReason.OtherFocusReason)

    def show_summary(self, summary: InterviewSummary) -> None:
        """A finished mock interview: how it went and what to review, in the reveal's place."""
        self.kind = "summary"
        self.position.setText(translate("PracticePage", "Mock interview"))
        self.title.setText(translate("PracticePage", "How the interview went"))
        self.prompt.setText("")
        self.show_problem("")
        for widget in (self.answer_stack, self.hint, self.commit_button):
            widget.hide()
        self.next_button.setText(translate("PracticePage", "&Next question"))
        self._move_next(self._top_row)
        self.reveal.setHtml(localize_number(summary_html(summary, self.presenter.find, self.style_.palette)))
        self.reveal.show()
        self._set_shares()
        self.next_button.setFocus(Qt.FocusReason.OtherFocusReason)

    @property
    def answer_kind(self) -> str:
        """What the answer box takes now: a derivation's step's kind, else the item's."""
        return self.step_kind if self.kind == "derive" else self.kind

    def show_reveal(self, r: Reveal) -> None:
        self.options.cancel_line_number()
        self.show_problem("")
        self.commit_button.setEnabled(False)
        # The reveal takes the options' room (it names the answer given and the right one),
        # so it fits beside the live panels at 1024 × 768; a rehearsal keeps its rubric.
        for widget in (self.answer_stack, self.hint, self.commit_button):
            widget.hide()
        if r.question.kind == "derive":  # the steps' lines are in the reveal now
            self.prompt.setText(_(r.question.prompt))
        if r.question.kind == "say" and not r.rating:  # the rubric to tick and the rating, until rated
            self.answer_stack.show()
            if not self.rehearsal.rubric.count():
                self.rehearsal.show_rubric(r.question, r.said, bool(self.rehearsal.typed.toPlainText().strip()))
        self.next_button.setText(translate("PracticePage", "&Next question"))
        self._move_next(self._top_row)
        again = self.reveal.isVisibleTo(self)  # the same reveal, completed: the reading place stays
        bar = self.reveal.verticalScrollBar()
        top = bar.value()
        self.reveal.setHtml(localize_number(self._reveal_html(r)))
        self.reveal.show()
        self._set_shares()
        if again:
            bar.setValue(top)
        elif r.question.kind != "say" or r.rating:
            self.next_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def _move_next(self, row: QHBoxLayout) -> None:
        if row.indexOf(self.next_button) < 0:
            other = self._top_row if row is self._actions else self._actions
            other.removeWidget(self.next_button)
            row.addWidget(self.next_button)

    def show_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))  # an empty line takes no height

    # --- drawing --------------------------------------------------------------------------------
    def _reveal_html(self, r: Reveal) -> str:
        return reveal_html(r, self.style_.palette)

    def _code_font(self, size: int | None = None) -> QFont:
        return code_font(size or self.style_.pt(9.5))

    def _code_width(self, size: int) -> int:
        """The options view's width that shows the card's longest line whole in ``size`` pt."""
        lines = [self.options.item(i).text() for i in range(self.options.count())]
        if not lines:
            return 0
        text = QFontMetrics(self._code_font(size)).horizontalAdvance(max(lines, key=len))
        chrome = self.options.width() - self.options.contentsRect().width()  # the frame
        scroll = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        return text + chrome + scroll + 8  # the frame, a scroll bar, the item's margins

    def fit_code(self) -> None:
        """A code card's font: its size, or smaller (to CODE_MIN_SCALE) until the longest
        line fits the view's width, so no line scrolls sideways."""
        if self.kind != "line":
            return
        base = self.style_.pt(9.5)
        size = base
        while size > round(self.CODE_MIN_SCALE * base) and self._code_width(size) > self.options.width():
            size -= 1
        if self.options.font().pointSize() != size:
            self.options.setFont(self._code_font(size))

    def apply_style(self) -> None:
        s = self.style_
        self.position.setFont(s.font(10))
        self.title.setFont(s.font(15, bold=True))
        self.prompt.setFont(s.font(12))
        self.hint.setFont(s.font(10))
        self.scores.setFont(s.font(11))
        self.items.setFont(s.font(11))
        self.reveal.setFont(s.font(11))
        self.number.setFont(s.font(13))
        self.options.setFont(self._code_font() if self.kind == "line" else s.font(12))
        self.fit_code()
        # The item column: as wide as its widest button (with a count) or score line needs.
        probe = QPushButton(translate("PracticePage", "Re&try missed ({count})").format(count=99))
        probe.setFont(self.retry_button.font())
        metrics = QFontMetrics(s.font(11))
        shorts = (translate("PracticePage", short) for short in _SHORT.values())
        due = QPushButton(translate("PracticePage", "Review &due ({count})").format(count=99))
        due.setFont(self.due_button.font())
        need = max(probe.sizeHint().width(), due.sizeHint().width(), self.reset_button.sizeHint().width(),
                   *(metrics.horizontalAdvance(f"{short} 88/88") for short in shorts))
        self.side.setMinimumWidth(need + 4)
        p = s.palette
        self.hint.setStyleSheet(f"color: {p.muted};")
        self.position.setStyleSheet(f"color: {p.muted};")
        self.problem.setStyleSheet(f"color: {p.warn};")
        self.problem.setFont(s.font(11, bold=True))
        # Padding above and below only: the wrapped options' width is the view's, none scrolls.
        self.options.setStyleSheet(f"QListWidget#practiceOptions::item {{ padding: {s.pt(3)}px 0px; }}")
