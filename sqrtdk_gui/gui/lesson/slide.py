"""The projected page of presentation mode: what the class reads, sized to fit, never scrolled.

A slide holds what fits a projector at the presentation type size: the page's caption and
heading, a step's question and, after the reveal, the measured value with the class's
guesses and the short answer; a trap's or follow-up's summary; the lesson's chain before
step 1 and after the last follow-up. Everything else (the explanation, the evidence table,
what to ask) is the teacher's notes (the lesson pane, in the presenter view) and the
handout's. The words take the largest type that fits the slide's room, down to a floor
(20 px at 1024×768); ``fits`` says whether they fit at all, which the page-walk test checks
for every page, language and projector size.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.lesson.content import (
    CLOSING_SUMMARY,
    CLOSING_TITLE,
    HANDOUT_HINT,
    INTRO_SUMMARY,
    INTRO_TITLE,
    SCENARIOS,
)
from sqrtdk_gui.core.lesson.figures import fill
from sqrtdk_gui.core.lesson.page import Evidence, Scenario, Step
from sqrtdk_gui.core.lesson.plan import FULL, LessonPlan
from sqrtdk_gui.gui.lesson.pane import verdict_html
from sqrtdk_gui.gui.style import Style

if TYPE_CHECKING:
    from PySide6.QtGui import QResizeEvent

__all__ = ["SlidePane", "BODY_PT", "FLOOR_PT"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

# Type sizes in points before the window's zoom: the body starts large and steps down until
# the slide fits, never below the floor (12 pt at presentation zoom 1.25 is 20 px, the tick
# labels' size: readable from the back of a room on a 768-line projector).
BODY_PT, FLOOR_PT = 20.0, 12.0
TITLE_SCALE, CAPTION_SCALE = 1.35, 0.8


def _chain_counts() -> dict[str, int]:
    return {"traps": sum(s.kind == "trap" for s in SCENARIOS),
            "followups": sum(s.kind == "follow-up" for s in SCENARIOS)}


# What a line cannot break inside: a run of letters, digits and signs; a CJK character
# stands alone (Chinese breaks between any two of them).
_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"
_UNBREAKABLE = re.compile(f"[{_CJK}]|[^\\s{_CJK}-]+-?|-")  # (a line may also break after a hyphen)


def _widest_word(label: QLabel) -> int:
    """The widest unbreakable piece of a label's text in its font."""
    text = re.sub(r"<[^>]+>", " ", label.text()) if label.textFormat() != Qt.TextFormat.PlainText else label.text()
    metrics = QFontMetrics(label.font())
    return max((metrics.horizontalAdvance(word) for word in _UNBREAKABLE.findall(html.unescape(text))), default=0)


class SlidePane(QWidget):
    """The class's view of the current lesson page (presentation mode); it shows what the
    lesson presenter hands it, as the lesson pane does, and reports nothing."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.style_ = style
        self._plan = FULL
        self.setObjectName("slidePane")
        self.caption = QLabel()
        self.caption.setObjectName("slideCaption")
        self.title = QLabel()
        self.title.setObjectName("slideTitle")
        self.question = QLabel()
        self.question.setObjectName("slideQuestion")
        self.verdict = QLabel()
        self.verdict.setObjectName("slideVerdict")
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        self.answer = QLabel()
        self.answer.setObjectName("slideAnswer")
        self.note = QLabel()  # the closing page's pointer to the handout
        self.note.setObjectName("slideNote")
        # No layout: the words are placed by ``fit`` (a layout would make the slide, and so the
        # window, as tall as the words at their largest size).
        for label in self.labels():
            label.setParent(self)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        self.setMinimumSize(160, 120)
        self.fits = True
        self.body_pt = 0
        self._seed = 0
        self._step: Step | None = None
        self.apply_style()
        self.show_intro()

    def labels(self) -> list[QLabel]:
        return [self.caption, self.title, self.question, self.verdict, self.answer, self.note]

    # --- look -----------------------------------------------------------------------------
    def apply_style(self) -> None:
        p = self.style_.palette
        self.setStyleSheet(f"QWidget#slidePane {{ background: {p.bg}; }} QLabel {{ color: {p.fg}; }} "
                           f"QLabel#slideCaption, QLabel#slideNote {{ color: {p.muted}; }} "
                           f"QLabel#slideVerdict {{ background: {p.predict_bg}; border-left: 4px solid "
                           f"{p.highlight}; padding: 4px 8px; }}")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.fit()

    def fit(self) -> None:
        """The largest body size (in whole points) at which every shown word fits the slide's
        height and no word is wider than it, the heading a third larger and the caption a fifth
        smaller (neither below the floor); at the floor, whatever still does not fit makes
        ``fits`` false."""
        s = self.style_
        margin, gap = round(12 * s.zoom), round(10 * s.zoom)
        width = self.width() - 2 * margin
        room = self.height() - 2 * margin
        shown = [label for label in self.labels() if not label.isHidden() and label.text()]
        floor = s.pt(FLOOR_PT)
        # Largest first: the body down to the floor with the heading a third larger, then at the
        # floor the heading down to it too.
        body = max(s.pt(BODY_PT), floor)
        tries = [(size, max(floor, round(size * TITLE_SCALE))) for size in range(body, floor - 1, -1)]
        tries += [(floor, title) for title in range(tries[-1][1] - 1, floor - 1, -1)]
        for size, title in tries:
            self._set_sizes(size, title, floor)
            heights = [label.heightForWidth(width) for label in shown]
            need = sum(heights) + gap * (len(shown) - 1)
            words_fit = all(_widest_word(label) <= width for label in shown)
            if (need <= room and words_fit) or width <= 0:
                break
        self.body_pt = size
        self.fits = width > 0 and need <= room and words_fit
        y = margin
        for label, height in zip(shown, heights):
            label.setGeometry(margin, y, max(width, 0), height)
            y += height + gap

    def _set_sizes(self, body: int, title: int, floor: int) -> None:
        small = max(floor, round(body * CAPTION_SCALE))
        sizes = {self.title: title, self.caption: small, self.note: small}
        for label in self.labels():
            font = label.font()
            font.setPointSize(sizes.get(label, body))
            font.setBold(label is self.title)
            if font != label.font():
                label.setFont(font)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.fit()

    def _show(self, caption: str, title: str, question: str = "", answer: str = "", note: str = "") -> None:
        self.caption.setText(caption)
        self.title.setText(title)
        for label, text in ((self.question, question), (self.answer, answer), (self.note, note)):
            label.setText(text)
            label.setVisible(bool(text))
        self.verdict.clear()
        self.verdict.hide()
        self.fit()

    # --- content (the lesson presenter's calls, as to the lesson pane) ----------------------
    def set_plan(self, plan: LessonPlan) -> None:
        self._plan = plan

    def show_intro(self) -> None:
        self._step = None
        plan = self._plan
        if plan.is_full:
            self._show(translate("SlidePane", "Introduction"), _(INTRO_TITLE).replace("d_k", "dₖ"),
                       answer=_(INTRO_SUMMARY).format(**_chain_counts()))
        else:  # a teacher's lesson: its title and its pages in order, each by its short name
            names = (_(p.page.title) if isinstance(p.page, Step) else _(p.page.button) for p in plan.pages)
            self._show(translate("SlidePane", "Introduction"), plan.title or _(INTRO_TITLE).replace("d_k", "dₖ"),
                       answer=" · ".join(names).replace("d_k", "dₖ"))

    def show_closing(self) -> None:
        self._step = None
        self._show(translate("SlidePane", "The end"), _(CLOSING_TITLE), answer=_(CLOSING_SUMMARY),
                   note=_(HANDOUT_HINT))

    def show_step(self, step: Step, count: int, seed: int | None = None, number: int | None = None,
                  question: str | None = None) -> None:
        self._step = step
        if seed is not None:
            self._seed = seed
        caption = translate("SlidePane", "Step {number} of {count}").format(
            number=step.number if number is None else number, count=count)
        self._show(caption, _(step.title).replace("d_k", "dₖ"),
                   question=fill(_(step.question)) if question is None else question)
        self._answer = fill(_(step.answer))

    def show_scenario(self, scenario: Scenario, evidence: Evidence | None, seed: int | None = None,
                      failed: str = "") -> None:
        self._step = None
        if seed is not None:
            self._seed = seed
        caption = translate("SlidePane", "Trap") if scenario.kind == "trap" else translate("SlidePane", "Follow-up")
        self._show(caption, _(scenario.title), answer=fill(_(scenario.summary)))

    def set_seed(self, seed: int) -> None:
        self._seed = seed

    def show_answer(self, quantity: str, measured: float, digits: int, guesses: Sequence[tuple[float, float]]) -> None:
        self.verdict.setText(verdict_html(quantity, measured, digits, guesses))
        self.verdict.show()
        self.reveal()

    def reveal(self) -> None:
        if self._step is not None:
            self.answer.setText(self._answer)
            self.answer.show()
        self.fit()

    def words(self) -> str:
        """Every word the slide shows now, as plain text (tests, the accessibility name)."""
        return "\n".join(html.unescape(label.text()) for label in self.labels()
                         if not label.isHidden() and label.text())

