"""The lesson pane: step text, the "predict first" question, scenarios, navigation.

It only shows what the presenter hands it and reports clicks; texts come from the lesson's
package data (``core.lesson.texts``), rendered as Qt rich text (no web engine: offline).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

import pyqtgraph as pg
from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, Qt, QUrl, Signal
from PySide6.QtGui import QFontMetrics, QResizeEvent, QTextDocumentFragment
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from sqrtdk_gui.core.i18n import _, localize_number
from sqrtdk_gui.core.lesson.content import CLOSING_SUMMARY, CLOSING_TITLE, HANDOUT_HINT, SCENARIOS
from sqrtdk_gui.core.lesson.figures import SampleNote, fill, sample_notes
from sqrtdk_gui.core.lesson.page import Evidence, Scenario, Step
from sqrtdk_gui.core.lesson.plan import FULL, LessonPlan
from sqrtdk_gui.core.lesson.texts import before_reveal, lesson_source
from sqrtdk_gui.gui.announce import announce
from sqrtdk_gui.gui.panels.versus_dk import set_dk_ticks
from sqrtdk_gui.gui.plotting.fit import WrappingButton, fit_plot_title, on_resize
from sqrtdk_gui.gui.plotting.plot_items import RememberingAxis
from sqrtdk_gui.gui.style import Style, standard_icon

if TYPE_CHECKING:
    from sqrtdk_gui.gui.style import Palette

__all__ = ["LessonPane", "notes_html", "verdict_html", "intro_html", "page_title"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "LessonPane"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

_COUNTS = {kind: sum(s.kind == kind for s in SCENARIOS) for kind in ("trap", "follow-up")}
# {traps} and {followups}: the numbers of scenarios of each kind (see intro_html).
INTRO = QT_TRANSLATE_NOOP(
    "LessonPane",
    "<h2>The lesson</h2><p>Five steps, one causal chain: <b>d<sub>k</sub> terms → variance d<sub>k</sub> → "
    "saturated softmax → vanishing Jacobian → vanishing gradient</b>, and the cure, ÷√d<sub>k</sub>.</p>"
    "<p>Each step sets the parameters, points at the panels that matter and asks the class "
    "to predict before you reveal. Then {traps} traps and {followups} follow-ups.</p>"
    "<p>Next: <b>Page Down</b> (a presentation clicker), <b>→</b> or <b>Space</b>: at a question "
    "the first press reveals the answer, the next moves on. Back: <b>Page Up</b> or <b>←</b>. "
    "Reveal: <b>Return</b>. Jump: <b>1</b>–<b>5</b>, <b>Home</b>, <b>End</b>. "
    "Blank the screen: <b>B</b>.</p>")


# A teacher's lesson: its pages are listed above these keys.
PLAN_KEYS = QT_TRANSLATE_NOOP(
    "LessonPane",
    "<p>Next: <b>Page Down</b> (a presentation clicker), <b>→</b> or <b>Space</b>: at a question the first "
    "press reveals the answer, the next moves on. Back: <b>Page Up</b> or <b>←</b>. Reveal: <b>Return</b>. "
    "Blank the screen: <b>B</b>.</p>")


def page_title(page: Step | Scenario) -> str:
    """A page as a lesson's outline names it, in the language spoken ("Trap: …")."""
    if isinstance(page, Step):
        return _(page.title)
    kind = translate("LessonPane", "Trap") if page.kind == "trap" else translate("LessonPane", "Follow-up")
    return f"{kind}: {_(page.title)}"


def intro_html(plan: LessonPlan = FULL) -> str:
    """The pane's introduction in the language spoken: the lesson as shipped, or the outline
    of a teacher's lesson (its title and pages in order)."""
    if plan.is_full:
        return translate("LessonPane", INTRO).format(traps=_COUNTS["trap"], followups=_COUNTS["follow-up"])
    title = html.escape(plan.title) if plan.title else translate("LessonPane", "The lesson")
    items = "".join(f"<li>{html.escape(page_title(p.page))}</li>" for p in plan.pages)
    return f"<h2>{title}</h2><ol>{items}</ol>{translate('LessonPane', PLAN_KEYS)}"


def notes_html(notes: list[SampleNote], seed: int) -> str:
    """The sample notes as paragraphs under a page's text (nothing when the sample agrees)."""
    return "".join(f'<p class="sample-note"><i>{html.escape(n.text(seed))}</i></p>' for n in notes)



def verdict_html(quantity: str, measured: float, digits: int, guesses: Sequence[tuple[float, float]]) -> str:
    """The measured value and each of the class's guesses against it ("×1.3 off"), the
    closest in bold, in the language spoken (the pane and the projected slide say the same)."""
    value = f"{measured:,.{digits}f}".replace(",", "\u202f")  # narrow no-break space
    lines = [translate("LessonPane", "Measured in this sample: <b>{quantity} = {value}</b>").format(
        quantity=html.escape(_(quantity)), value=value)]
    if guesses:
        best = min(range(len(guesses)), key=lambda i: guesses[i][1])
        cells = []
        for i, (guess, off) in enumerate(guesses):
            verdict = ("—" if off == float("inf") else translate("LessonPane", "spot on") if off < 1.05
                       else translate("LessonPane", "×{factor} off").format(factor=f"{off:.1f}"))
            text = translate("LessonPane", "{guess}: {verdict}").format(guess=f"{guess:g}", verdict=verdict)
            cells.append(f"<b>{text}</b>" if i == best else text)
        lines.append(translate("LessonPane", "Guesses: {guesses}").format(guesses=" · ".join(cells)))
    return localize_number("<br/>".join(lines))  # its numbers: one pass for the whole text


CELL_PADDING = 5


def table_fits(ev: Evidence, metrics: QFontMetrics, width: int) -> bool:
    """Whether the table fits ``width`` pixels without breaking a word or a number.

    Qt's rich-text table squeezes a column below its longest word when it must, and then
    breaks "0.998" into "0.9 / 98": a narrow pane gets the stacked layout instead.
    """
    # Cells never wrap (a number must not break at its "e-"); headers wrap between words.
    need = sum(max([metrics.horizontalAdvance(cell) for cell in cells]
                   + [1.25 * metrics.horizontalAdvance(word) for word in header.split()])  # bold
               + 2 * CELL_PADDING + 4 for header, *cells in zip(ev.headers, *ev.rows))
    return need <= width


def evidence_html(ev: Evidence, palette: Palette, stacked: bool = False) -> str:
    """The evidence as Qt rich text: a table, or one line per row when ``stacked``."""
    if stacked:
        first, rest = ev.headers[0], ev.headers[1:]
        body = "".join(
            f"<p><b>{html.escape(first)} {html.escape(row[0])}</b>: "
            + " · ".join(f"{html.escape(h)} <b>{html.escape(c)}</b>" for h, c in zip(rest, row[1:]))
            + "</p>" for row in ev.rows)
    else:
        head = "".join(f"<th align='right'>{html.escape(h)}</th>" for h in ev.headers)
        rows = "".join("<tr>" + "".join(f"<td align='right' style='white-space:nowrap'>{html.escape(c)}</td>"
                                        for c in row) + "</tr>" for row in ev.rows)
        body = (f"<table cellspacing='0' cellpadding='{CELL_PADDING}' border='1' style='border-color:"
                f"{palette.border}; border-collapse:collapse'><tr style='background:{palette.strip}'>"
                f"{head}</tr>{rows}</table>")
    note = translate("LessonPane", "Computed by the model for these parameters; max p, ‖J‖ and entropy are "
                                   "medians over the queries.")
    return body + f"<p style='color:{palette.muted}'>{note}</p>"


class LessonPane(QWidget):
    """Shows one step or one scenario; emits navigation and scenario requests."""

    next_clicked = Signal()
    previous_clicked = Signal()
    scenario_clicked = Signal(str)
    bug_clicked = Signal(str)  # a "bug:KEY" link: that bug card in practice mode
    reveal_clicked = Signal()

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.style_ = style
        self._seed = 0  # the sample on screen, for the notes on quoted ranges
        self._plan = FULL
        self._failed = ""  # why a scenario's table could not be measured (shown in its place)
        self.setObjectName("lessonPane")
        self.caption = QLabel(translate("LessonPane", "Introduction"))
        self.caption.setObjectName("lessonCaption")
        self.title = QLabel(translate("LessonPane", "Why divide by √d_k?"))
        self.title.setObjectName("lessonTitle")
        self.title.setWordWrap(True)
        self.text = QTextBrowser()
        self.text.setObjectName("lessonText")
        self.text.setOpenLinks(False)  # offline: nothing in the lesson leaves the program
        # Links between lesson pages ("scenario:sigma_dial") open that page in the pane.
        self.text.anchorClicked.connect(self._follow_link)
        self.text.setFrameShape(QFrame.Shape.NoFrame)

        self.predict_box = QFrame()
        self.predict_box.setObjectName("predict")
        self.question = QLabel()
        self.question.setWordWrap(True)
        self.question.setObjectName("question")
        self.reveal_button = QPushButton(translate("LessonPane", "Reveal answer"))
        self.reveal_button.setObjectName("reveal")
        self.reveal_button.setToolTip(translate("LessonPane", "Show the answer, the hidden panels and the animation "
                                                              "once the class has made its prediction (Return in the "
                                                              "guesses box)."))
        self.reveal_button.clicked.connect(self.reveal_clicked)
        # Guesses, a learner's own or the class's typed by the teacher; Reveal sets them
        # against the measurement.
        self.guesses = QLineEdit()
        self.guesses.setObjectName("guesses")
        self.guesses.setPlaceholderText(translate("LessonPane", "Your guess, or the class's…"))
        self.guesses.setToolTip(translate("LessonPane", "Type a guess, or several separated by commas or spaces; "
                                                        "Reveal compares each with the measured value."))
        self.guesses.setAccessibleName(translate("LessonPane", "Guesses"))
        self.guesses.returnPressed.connect(self.reveal_clicked)
        self.verdict = QLabel()
        self.verdict.setObjectName("verdict")
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        self.verdict.hide()
        self.answer = QLabel()
        self.answer.setWordWrap(True)
        self.answer.setObjectName("answer")
        self.answer.hide()
        # Question, verdict and answer scroll inside the box; the guesses and Reveal stay in
        # view below them, so on a 720-line projector the teacher never scrolls to reveal.
        inner = QWidget()
        inner.setObjectName("predictInner")
        words = QVBoxLayout(inner)
        words.setContentsMargins(0, 0, 0, 0)
        words.addWidget(self.question)
        words.addWidget(self.verdict)
        words.addWidget(self.answer)
        words.addStretch(1)
        self.predict_words = QScrollArea()
        self.predict_words.setWidget(inner)
        self.predict_words.setWidgetResizable(True)
        self.predict_words.setFrameShape(QFrame.Shape.NoFrame)
        self.predict_words.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        box = QVBoxLayout(self.predict_box)
        self.predict_caption = QLabel(translate("LessonPane", "Predict first"))
        box.addWidget(self.predict_caption)
        box.addWidget(self.predict_words, 1)
        self.guess_row = QWidget()  # hidden on slides: a handout has no class to ask
        guess_row = self._guess_layout = QBoxLayout(QBoxLayout.Direction.LeftToRight, self.guess_row)
        guess_row.setContentsMargins(0, 0, 0, 0)
        guess_row.addWidget(self.guesses, 1)
        guess_row.addWidget(self.reveal_button)
        box.addWidget(self.guess_row)

        self.predict = self.predict_box

        self.scenarios = QWidget()
        grid = QGridLayout(self.scenarios)
        grid.setContentsMargins(0, 0, 0, 0)
        self.scenario_buttons: dict[str, WrappingButton] = {}
        rows = {"trap": 0, "follow-up": 0}
        tips = {"trap": translate("LessonPane", "Trap: {title}. Sets its parameters and shows the evidence."),
                "follow-up": translate("LessonPane", "Follow-up: {title}. Sets its parameters and shows the "
                                                     "evidence.")}
        for s in SCENARIOS:
            button = WrappingButton(_(s.button))  # two lines where a language needs them
            button.setObjectName(f"scenario_{s.key}")
            button.setCheckable(True)
            # Long titles must not widen the dock: the panels need the room.
            button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            button.setToolTip(tips[s.kind].format(title=_(s.title)))
            button.clicked.connect(lambda _=False, key=s.key: self.scenario_clicked.emit(key))
            col = 0 if s.kind == "trap" else 1
            grid.addWidget(button, rows[s.kind] + 1, col)
            rows[s.kind] += 1
            self.scenario_buttons[s.key] = button
        self.trap_label = QLabel(translate("LessonPane", "Traps"))
        self.followup_label = QLabel(translate("LessonPane", "Follow-ups"))
        grid.addWidget(self.trap_label, 0, 0)
        grid.addWidget(self.followup_label, 0, 1)
        self._scenario_grid = grid

        # Axes that fit their titles (a long language shrinks them instead of cutting them).
        self.chart = pg.PlotWidget(axisItems={name: RememberingAxis(name) for name in ("left", "bottom")})
        self.chart.setObjectName("evidenceChart")
        self.chart.setMinimumHeight(150)
        self.chart.setMaximumHeight(220)
        style.style_plot(self.chart.getPlotItem(), left=translate("LessonPane", "÷√d_k ÷ raw"), bottom="d_k")
        self.chart.setLogMode(x=True, y=True)
        set_dk_ticks(self.chart.getPlotItem())
        self.chart_curve = self.chart.plot(symbol="o")
        self.chart.hide()
        self._chart_title = ""
        on_resize(self.chart, self._fit_chart_title)
        # The box's words wrap to its own width, which follows the pane's only after the pane's
        # resize (moved into the presenter view, it was sized for the narrow dock).
        self._predict_width: int | None = None  # the width the box was last fitted for
        on_resize(self.predict_words.viewport(), self._fit_predict_to_width)

        self.previous_button = QPushButton(standard_icon("ArrowBack"), translate("LessonPane", "Previous"))
        self.next_button = QPushButton(standard_icon("ArrowForward"), translate("LessonPane", "Next"))
        self.next_button.setLayoutDirection(Qt.LayoutDirection.RightToLeft)  # the arrow after the word
        self.previous_button.setObjectName("previous")
        self.next_button.setObjectName("next")
        self.previous_button.setToolTip(translate("LessonPane", "Previous step (←, Page Up)"))
        self.next_button.setToolTip(translate("LessonPane", "Next page: the next step, trap or follow-up (→, Space, "
                                                            "Page Down; at an open question those reveal first)"))
        self.previous_button.clicked.connect(self.previous_clicked)
        self.next_button.clicked.connect(self.next_clicked)
        nav = QHBoxLayout()
        nav.addWidget(self.previous_button)
        nav.addWidget(self.next_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.caption)
        layout.addWidget(self.title)
        self.title.hide()  # the step's own HTML carries its heading; this label names it for tests
        layout.addWidget(self.text, 1)
        layout.addWidget(self.chart)
        layout.addWidget(self.predict)
        layout.addWidget(self.scenarios)
        layout.addLayout(nav)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.apply_style()
        self.show_intro()

    # --- look -----------------------------------------------------------------------------
    def apply_style(self) -> None:
        s = self.style_
        self.setFont(s.font(13))
        self.caption.setFont(s.font(12))
        p = s.palette
        self.caption.setStyleSheet(f"color: {p.muted};")
        self.predict_box.setStyleSheet(f"QFrame#predict {{ background: {p.predict_bg}; border: 2px solid "
                                   f"{p.highlight}; border-radius: 6px; }} QLabel {{ color: {p.fg}; }}")
        self.chart.setBackground(p.bg)
        s.style_plot(self.chart.getPlotItem())
        self.chart_curve.setPen(s.pen(p.scaled, 3))
        self.chart_curve.setSymbolBrush(p.scaled)
        self.chart_curve.setSymbolSize(s.line(7))
        self.text.setStyleSheet(f"QTextBrowser {{ background: {p.bg}; color: {p.fg}; }}")
        self.title.setFont(s.font(18, bold=True))
        self.predict_caption.setFont(s.font(12, bold=True))
        for button in (self.reveal_button, self.previous_button, self.next_button):
            button.setFont(s.font(13))
        for button in self.scenario_buttons.values():  # two columns in a narrow dock
            button.setFont(s.font(11))
            button.setStyleSheet("QPushButton { padding: 3px 2px; }")
        self.question.setFont(s.font(14))
        self.answer.setFont(s.font(14))
        self.guesses.setFont(s.font(13))
        self._fit_guess_row()
        self.verdict.setFont(s.font(14))
        for label in (self.trap_label, self.followup_label):
            label.setFont(s.font(12, bold=True))
        self._fit_chart_title()
        self.text.document().setDefaultFont(s.font(14))
        self.text.document().setDefaultStyleSheet(
            f"h2 {{ font-size: {s.pt(16)}pt; }} h3 {{ font-size: {s.pt(15)}pt; }} "
            f"p {{ margin-bottom: {s.pt(8)}px; }} td, th {{ font-size: {s.pt(13)}pt; }}")
        self._rerender()

    def _rerender(self) -> None:
        # A changed default style sheet (or palette) applies to newly set HTML only.
        shown = getattr(self, "_shown_scenario", None)
        if shown is not None:
            scenario, evidence = shown
            self._html = self._scenario_html(scenario) + self._evidence_html(evidence)
        current = getattr(self, "_html", None)
        if current is not None:
            self.text.setHtml(current)

    def _set_html(self, text: str) -> None:
        self._html = text
        self.text.setHtml(text)

    # --- content ----------------------------------------------------------------------------
    def show_intro(self) -> None:
        self._shown_scenario: tuple[Scenario, Evidence | None] | None = None
        self._shown_step: Step | None = None
        self._full_step_html: str | None = None
        self.caption.setText(translate("LessonPane", "Introduction"))
        self.title.setText(translate("LessonPane", "Why divide by √d_k?"))
        self._set_html(intro_html(self._plan))
        self.predict.hide()
        self.scenarios.hide()
        self.chart.hide()

    def show_closing(self) -> None:
        """After the last follow-up: the chain in short and where the handout is."""
        self._shown_scenario = None
        self._shown_step = None
        self._full_step_html = None
        self.caption.setText(translate("LessonPane", "The end"))
        self.title.setText(_(CLOSING_TITLE))
        self._set_html(f"<h2>{html.escape(_(CLOSING_TITLE))}</h2><p>{html.escape(_(CLOSING_SUMMARY))}</p>"
                       f"<p><i>{html.escape(_(HANDOUT_HINT))}</i></p>")
        self.predict.hide()
        self.scenarios.show()
        for button in self.scenario_buttons.values():
            button.setChecked(False)
        self.chart.hide()

    def set_plan(self, plan: LessonPlan) -> None:
        """Offer the scenarios of ``plan``, in its order (a column each for traps and follow-ups)."""
        self._plan = plan
        grid = self._scenario_grid
        for button in self.scenario_buttons.values():
            grid.removeWidget(button)
            button.hide()
        rows = {"trap": 0, "follow-up": 0}
        for s in plan.scenarios:
            rows[s.kind] += 1
            grid.addWidget(self.scenario_buttons[s.key], rows[s.kind], 0 if s.kind == "trap" else 1)
            self.scenario_buttons[s.key].show()
        self.trap_label.setVisible(rows["trap"] > 0)
        self.followup_label.setVisible(rows["follow-up"] > 0)

    def set_navigation(self, back: bool, forward: bool) -> None:
        """Previous and Next enabled where the lesson can go back and on (the presenter says)."""
        self.previous_button.setEnabled(back)
        self.next_button.setEnabled(forward)

    def _scenario_html(self, scenario: Scenario) -> str:
        raw = lesson_source(scenario.resource)
        return fill(raw) + notes_html(sample_notes(raw, self._seed), self._seed)

    def _step_html(self, step: Step) -> tuple[str, str]:
        """The step's whole text and the part that may be read while its question is open,
        each with a note for every quoted figure this sample falls outside of."""
        raw = lesson_source(step.resource)
        before = before_reveal(raw)
        open_notes = sample_notes(before + _(step.question), self._seed)
        seen = {n.key for n in open_notes}
        later = [n for n in sample_notes(raw + _(step.answer), self._seed) if n.key not in seen]
        return (fill(raw) + notes_html(open_notes + later, self._seed),
                fill(before) + notes_html(open_notes, self._seed))

    def set_seed(self, seed: int) -> None:
        """The sample on screen changed: say again where it falls outside the quoted ranges."""
        if seed == self._seed:
            return
        self._seed = seed
        if getattr(self, "_shown_scenario", None) is not None:
            self._rerender()
        elif getattr(self, "_shown_step", None) is not None:
            self._full_step_html, before = self._step_html(cast(Step, self._shown_step))
            self._set_html(self._full_step_html if self.answer_visible else before)

    def show_step(self, step: Step, count: int, seed: int | None = None, number: int | None = None,
                  question: str | None = None) -> None:
        """Step ``step``, as step ``number`` (default: its own) of ``count``, with its question
        (``question``: a teacher's wording, as rich text) and its answer hidden."""
        self._shown_scenario = None
        self._shown_step = step
        if seed is not None:
            self._seed = seed
        number = step.number if number is None else number
        self.caption.setText(translate("LessonPane", "Step {number} of {count}").format(number=number,
                                                                                      count=count))
        self.title.setText(_(step.title).replace("d_k", "dₖ"))
        # Blind: the part of the text after the reveal mark would answer the question.
        self._full_step_html, before = self._step_html(step)
        self._set_html(before)
        # Translated before its figures are filled in; a teacher's own wording is shown as written.
        self.question.setText(fill(_(step.question)) if question is None else question)
        self.answer.setText(fill(_(step.answer)))
        self.answer.hide()
        self.verdict.hide()
        self.guesses.clear()
        self.guesses.setEnabled(True)
        self.reveal_button.show()
        self.predict.show()
        self.chart.hide()
        self.scenarios.setVisible(number == count and bool(self._plan.scenarios))
        self._fit_predict()
        for button in self.scenario_buttons.values():
            button.setChecked(False)

    def show_scenario(self, scenario: Scenario, evidence: Evidence | None, seed: int | None = None,
                      failed: str = "") -> None:
        """A trap or follow-up with its evidence table (None: being measured, a note instead;
        ``failed``: why it could not be measured)."""
        self._full_step_html = None
        self._shown_step = None
        if seed is not None:
            self._seed = seed
        self.caption.setText(translate("LessonPane", "Trap") if scenario.kind == "trap"
                             else translate("LessonPane", "Follow-up"))
        self.title.setText(_(scenario.title))
        self._shown_scenario = (scenario, evidence)
        self._failed = failed
        self._set_html(self._scenario_html(scenario) + self._evidence_html(evidence))
        self.predict.hide()
        self.scenarios.show()
        for key, button in self.scenario_buttons.items():
            button.setChecked(key == scenario.key)
        if evidence is not None and evidence.chart is not None:
            x, y = evidence.chart
            self.chart_curve.setData(x, y)
            self._chart_title = evidence.chart_label
            self._fit_chart_title()
            self.chart.show()
        else:
            self.chart.hide()

    def _fit_guess_row(self) -> None:
        # The guesses box above Reveal where, beside it, its example would be cut.
        example = self.guesses.fontMetrics().horizontalAdvance(self.guesses.placeholderText()) + 24
        beside = example + self.reveal_button.sizeHint().width() + self._guess_layout.spacing()
        # The pane's width now (the box follows it later): less its margins and the box's.
        outer, inner = (cast(QVBoxLayout, self.layout()).contentsMargins(),
                        cast(QVBoxLayout, self.predict_box.layout()).contentsMargins())
        room = (self.contentsRect().width() - outer.left() - outer.right() - inner.left() - inner.right()
                - 2 * self.predict_box.frameWidth() - 8)
        self._guess_layout.setDirection(QBoxLayout.Direction.LeftToRight if beside <= room
                                        else QBoxLayout.Direction.TopToBottom)

    def _fit_chart_title(self) -> None:
        fit_plot_title(self.chart.getPlotItem(), self._chart_title, self.style_.pt(11),
                       self.chart.width())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_guess_row()
        self._fit_predict()
        shown = getattr(self, "_shown_scenario", None)
        if shown is not None and self._stacked(shown[1]) != self._shown_stacked:
            self._rerender()  # the table started (or stopped) fitting the pane

    def _stacked(self, evidence: Evidence | None) -> bool:
        if evidence is None:
            return False
        font = self.text.document().defaultFont()
        font.setPointSize(self.style_.pt(13))  # the td, th size of the lesson's style sheet
        return not table_fits(evidence, QFontMetrics(font), self.text.viewport().width() - 12)

    def _evidence_html(self, evidence: Evidence | None) -> str:
        self._shown_stacked = self._stacked(evidence)
        if evidence is None:
            note = (translate("LessonPane", "The table could not be measured: {error}").format(error=self._failed)
                    if self._failed else translate("LessonPane", "Measuring the table for these parameters…"))
            return f"<p><i>{html.escape(note)}</i></p>"
        return evidence_html(evidence, self.style_.palette, stacked=self._shown_stacked)

    def _fit_predict_to_width(self) -> None:
        width = self.predict_words.viewport().width()
        if width != self._predict_width:  # a new width, not the height it just set
            self._predict_width = width
            self._fit_predict()

    def _fit_predict(self) -> None:
        # As tall as its words need, but the step's text keeps over a third of the pane.
        inner = cast(QWidget, self.predict_words.widget())  # the words, set in __init__
        width = self.predict_words.viewport().width()
        need_words = cast(QVBoxLayout, inner.layout()).totalHeightForWidth(width) \
            if cast(QVBoxLayout, inner.layout()).hasHeightForWidth() \
            else inner.sizeHint().height()
        chrome = self.predict_box.sizeHint().height() - self.predict_words.sizeHint().height()
        share = 0.4 if not self.scenarios.isHidden() else 0.62  # step 5 also shows its buttons
        self.predict_box.setFixedHeight(min(chrome + need_words + 6, max(160, int(share * self.height()))))

    def _follow_link(self, url: QUrl) -> None:
        if url.scheme() == "scenario" and url.path() in self.scenario_buttons:
            self.scenario_clicked.emit(url.path())
        elif url.scheme() == "bug" and url.path():  # a trap's bug card in practice mode
            self.bug_clicked.emit(url.path())

    def guess_text(self) -> str:
        return self.guesses.text()

    def show_answer(self, quantity: str, measured: float, digits: int, guesses: Sequence[tuple[float, float]]) -> None:
        """The answer, and each guess against the measured value ("×1.3 off"); closest in bold."""
        self.verdict.setText(verdict_html(quantity, measured, digits, guesses))
        self.verdict.show()
        # The reveal, said: the measured value and the guesses against it.
        announce(self, QTextDocumentFragment.fromHtml(self.verdict.text()).toPlainText())
        self.guesses.setEnabled(False)
        self.reveal()
        self.predict_words.ensureWidgetVisible(self.verdict)

    def reveal(self) -> None:
        self.answer.show()
        self.reveal_button.hide()
        self._fit_predict()
        self.predict_words.ensureWidgetVisible(self.answer)  # the answer in view, not below it
        full = getattr(self, "_full_step_html", None)
        if full is not None and self._shown_scenario is None:
            self._set_html(full)

    def set_slide_mode(self, on: bool) -> None:
        """A slide shows the step, its question and answer, but no guesses box or buttons."""
        self.guess_row.setVisible(not on)
        for button in (self.previous_button, self.next_button):
            button.setVisible(not on)
        self._fit_predict()

    @property
    def answer_visible(self) -> bool:
        return not self.answer.isHidden()
