"""*Say it*: the clock, the box for a typed answer, the rubric to tick and the rating.

A rehearsal goes: ready (the question read, the clock full) → running (Return or typing
starts it; it counts down, then on into overtime in the warning colour, never cutting the
candidate off) → done (Ctrl+Return or *Done*): the rubric's links, those the typed words
match already ticked, Space ticks more, and 1–4 rate it (Again, Hard, Good, Easy). The
widget only shows and reports: ``finished(typed, seconds)`` and ``rated(ticked, rating)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QElapsedTimer, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.practice.model import Question
from sqrtdk_gui.gui.style import Style

__all__ = ["RehearsalPanel", "RATING_NAMES"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

# FSRS's four ratings, as the candidate rates a rehearsal (shown through translate).
# QT_TRANSLATE_NOOP returns its text (the stub says object).
RATING_NAMES = cast("dict[int, str]", {
    1: QT_TRANSLATE_NOOP("RehearsalPanel", "Again"), 2: QT_TRANSLATE_NOOP("RehearsalPanel", "Hard"),
    3: QT_TRANSLATE_NOOP("RehearsalPanel", "Good"), 4: QT_TRANSLATE_NOOP("RehearsalPanel", "Easy")})


def clock_text(seconds: float) -> str:
    """"1:30" for what is left; "+0:05" once the time is over."""
    whole = int(abs(seconds) + (0.999 if seconds > 0 else 0))
    return f"{'+' if seconds < 0 else ''}{whole // 60}:{whole % 60:02d}"


class _Typed(QPlainTextEdit):
    """The typed answer: the first key starts the clock, Ctrl+Return ends the rehearsal."""

    def __init__(self, panel: RehearsalPanel) -> None:
        super().__init__()
        self._panel = panel

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and \
                event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self._panel.done()
            return
        if event.text() and self._panel.state == "ready":
            self._panel.start()
        super().keyPressEvent(event)


class _Rubric(QListWidget):
    """The links to tick; 1–4 rate the rehearsal."""

    def __init__(self, panel: RehearsalPanel) -> None:
        super().__init__()
        self._panel = panel

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._panel.fit_rubric()  # wrapped links change height with the width

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if Qt.Key.Key_1 <= event.key() <= Qt.Key.Key_4:
            self._panel.rate(event.key() - Qt.Key.Key_0)
        elif event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentItem() is not None:
            item = self.currentItem()
            item.setCheckState(Qt.CheckState.Unchecked if item.checkState() == Qt.CheckState.Checked
                               else Qt.CheckState.Checked)
        else:
            super().keyPressEvent(event)


class RehearsalPanel(QWidget):
    """One rehearsal: the clock, the typed answer, then the rubric and the rating."""

    finished = Signal(str, float)  # the typed answer, the seconds on the clock
    rated = Signal(list, int)  # the links ticked, the rating (1–4)

    def __init__(self, style: Style) -> None:
        super().__init__()
        self.style_ = style
        self.state = "ready"
        self.limit = 60
        self._taken = 0.0
        self._elapsed = QElapsedTimer()
        self._tick = QTimer(self)
        self._tick.setInterval(250)
        self._tick.timeout.connect(self._show_clock)
        self.clock = QLabel()
        self.clock.setObjectName("rehearsalClock")
        self.clock.setAccessibleName(translate("RehearsalPanel", "Time left"))
        self.start_button = QPushButton(translate("RehearsalPanel", "&Start the clock"))
        self.start_button.clicked.connect(self.start)
        self.start_button.setAutoDefault(True)  # Return on it starts the clock
        self.done_button = QPushButton(translate("RehearsalPanel", "Done: show the &model answer"))
        self.done_button.setToolTip(translate("RehearsalPanel", "Ctrl+Return"))
        self.done_button.clicked.connect(self.done)
        self.typed = _Typed(self)
        self.typed.setObjectName("rehearsalTyped")
        self.typed.setAccessibleName(translate("RehearsalPanel", "Your answer"))
        self.typed.setPlaceholderText(translate("RehearsalPanel", "Say it aloud, or type it here (the first key "
                                                "starts the clock; Ctrl+Return when done)."))
        self.rubric = _Rubric(self)
        self.rubric.setObjectName("rehearsalRubric")
        self.rubric.setAccessibleName(translate("RehearsalPanel", "The links of a complete answer"))
        self.rubric.setWordWrap(True)
        self.rubric.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.rubric.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # As tall as its links (fit_rubric): a scroll bar would only narrow them into more lines.
        self.rubric.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.rate_label = QLabel()
        self.rate_label.setWordWrap(True)
        self.rate_buttons = {}
        rate_row = QHBoxLayout()
        for value, name in RATING_NAMES.items():
            button = QPushButton(f"{value} {translate('RehearsalPanel', name)}")
            button.setMinimumWidth(0)
            button.clicked.connect(lambda _checked=False, v=value: self.rate(v))
            self.rate_buttons[value] = button
            rate_row.addWidget(button)
        top = QHBoxLayout()
        top.addWidget(self.clock)
        top.addStretch(1)
        top.addWidget(self.start_button)
        top.addWidget(self.done_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.typed, 1)
        layout.addWidget(self.rubric)
        layout.addWidget(self.rate_label)
        layout.addLayout(rate_row)
        self._rate_row = rate_row
        self.apply_style()

    # --- the states ----------------------------------------------------------------------------
    def show_item(self, q: Question) -> None:
        """A new rehearsal, ready: the clock full, nothing typed."""
        self._tick.stop()
        self.state, self.limit = "ready", q.limit
        self.typed.clear()
        self.typed.setReadOnly(False)
        self.typed.show()
        self.rubric.clear()
        self.rubric.hide()
        self._set_rating_visible(False)
        self.start_button.show()
        self.start_button.setEnabled(True)
        self.done_button.show()
        self.clock.show()
        self._show_clock()

    def stop(self) -> None:
        """The rehearsal left before it ended: the clock stops, ready for the next one."""
        self._tick.stop()
        self.state = "ready"

    def start(self) -> None:
        if self.state != "ready":
            return
        self.state = "running"
        self._elapsed.start()
        self._tick.start()
        self.start_button.setEnabled(False)
        self._show_clock()
        self.typed.setFocus(Qt.FocusReason.OtherFocusReason)

    def seconds(self) -> float:
        return self._elapsed.elapsed() / 1000 if self.state != "ready" else 0.0

    def done(self) -> None:
        if self.state == "done":
            return
        seconds = self.seconds()
        self._tick.stop()
        self.state = "done"
        self.typed.setReadOnly(True)
        self.start_button.hide()
        self.done_button.hide()
        self.clock.hide()  # the time taken goes into the rating's line: the rubric needs the room
        self._taken = seconds
        self.finished.emit(self.typed.toPlainText(), seconds)

    def show_rubric(self, q: Question, said: Sequence[int], typed: bool) -> None:
        """The links, those in ``said`` ticked, and the rating row."""
        self.rubric.clear()
        for i, link in enumerate(q.options):
            item = QListWidgetItem(_(link))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if i in said else Qt.CheckState.Unchecked)
            self.rubric.addItem(item)
        self.typed.setVisible(False)  # the model answer and the rubric need its room
        self.rubric.show()
        self.rubric.setCurrentRow(0)
        self.fit_rubric()
        taken = translate("RehearsalPanel", "You took {taken} of {limit}.").format(
            taken=clock_text(self._taken), limit=clock_text(self.limit))
        note = (translate("RehearsalPanel", "Ticked: the links your typed words name (a word match, not a "
                          "grade).") if typed else "")
        self.rate_label.setText(" ".join(t for t in (taken, note, translate(
            "RehearsalPanel", "Tick what you said (Space), then rate it 1–4: that sets when it comes back.")) if t))
        self._set_rating_visible(True)
        self.rubric.setFocus(Qt.FocusReason.OtherFocusReason)

    def fit_rubric(self) -> None:
        """The rubric as tall as its links: every link readable without scrolling."""
        if not self.rubric.count():
            return
        self.rubric.doItemsLayout()
        rows = sum(self.rubric.visualItemRect(self.rubric.item(i)).height() for i in range(self.rubric.count()))
        self.rubric.setFixedHeight(rows + 2 * self.rubric.frameWidth() + 2)

    def ticked(self) -> list[int]:
        return [i for i in range(self.rubric.count())
                if self.rubric.item(i).checkState() == Qt.CheckState.Checked]

    def rate(self, rating: int) -> None:
        if self.state == "done" and self.rate_buttons[1].isVisible():
            self.rated.emit(self.ticked(), rating)

    def show_rated(self) -> None:
        """Rated: the rubric stays as ticked, read-only; the reveal says what happens next."""
        self._set_rating_visible(False)
        for i in range(self.rubric.count()):
            self.rubric.item(i).setFlags(Qt.ItemFlag.ItemIsEnabled)

    def _set_rating_visible(self, visible: bool) -> None:
        self.rate_label.setVisible(visible)
        for button in self.rate_buttons.values():
            button.setVisible(visible)

    def _show_clock(self) -> None:
        left = self.limit - self.seconds()
        self.clock.setText(clock_text(left))
        colour = self.style_.palette.warn if left < 0 else self.style_.palette.fg
        self.clock.setStyleSheet(f"color: {colour};")

    def apply_style(self) -> None:
        s = self.style_
        self.clock.setFont(s.font(22, bold=True))
        self.typed.setFont(s.font(12))
        self.rubric.setFont(s.font(11))
        self.rate_label.setFont(s.font(10))
        self.rate_label.setStyleSheet(f"color: {s.palette.muted};")
        self.rubric.setStyleSheet(f"QListWidget#rehearsalRubric::item {{ padding: {s.pt(2)}px 0px; }}")
        self._show_clock()
