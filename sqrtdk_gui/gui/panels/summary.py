"""The summary strip: the five numbers of the current state in large type."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QWidget

from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.i18n import localize_number
from sqrtdk_gui.gui.panels.base import ControllerView, LabelSlot, repolish
from sqrtdk_gui.gui.style import Style

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "SummaryStrip"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

# key, caption, format, a widest-case sample. Columns have equal stretch, so a value never
# moves when its text changes; the value font shrinks until the widest sample fits a column.
# The entropy's caption names log n: "{log_n}" is filled in (at first with a sample).
CELLS = (
    # σ to 9999: beyond needs q_std·k_std ≫ 1
    ("sigma", QT_TRANSLATE_NOOP("SummaryStrip", "σ of logits"), "{:.2f}", "8888.88"),
    ("max_weight", QT_TRANSLATE_NOOP("SummaryStrip", "median max weight"), "{:.3f}", "0.888"),
    ("entropy", QT_TRANSLATE_NOOP("SummaryStrip", "median entropy (log n = {log_n})"), "{:.2f}", "8.88"),
    ("jacobian", QT_TRANSLATE_NOOP("SummaryStrip", "median ‖J‖_F"), "{:.1e}", "8.8e+88"),  # '+' is wider than '-'
    ("saturated", QT_TRANSLATE_NOOP("SummaryStrip", "saturated rows"), "{:.0f} %", "100 %"),
)
# The captions when the program's own weights overflowed: the statistics are the exact softmax's.
EXACT_CAPTIONS = {"max_weight": QT_TRANSLATE_NOOP("SummaryStrip", "max weight (exact)"),
                  "entropy": QT_TRANSLATE_NOOP("SummaryStrip", "entropy, exact (log n = {log_n})"),
                  "jacobian": QT_TRANSLATE_NOOP("SummaryStrip", "‖J‖_F (exact)"),
                  "saturated": QT_TRANSLATE_NOOP("SummaryStrip", "saturated (exact)")}
MIN_VALUE_PT = 6
MIN_READABLE_PT = 10  # below this in one row, the strip takes two rows (or three)
MIN_CAPTION_PT = 8  # a caption's smallest type, for a long compound in a narrow strip

TIPS = {
    "sigma": QT_TRANSLATE_NOOP("SummaryStrip", "Standard deviation of all logits (the softmax input) of the "
                                               "current sample."),
    "max_weight": QT_TRANSLATE_NOOP("SummaryStrip", "Largest attention weight of a query, median over all queries, "
                                                    "of the exact softmax (\"exact\" shows when the program's own "
                                                    "weights overflowed to NaN)."),
    "entropy": QT_TRANSLATE_NOOP("SummaryStrip", "Attention entropy, median over queries; log n is a uniform "
                                                 "softmax."),
    "jacobian": QT_TRANSLATE_NOOP("SummaryStrip", "Frobenius norm of the softmax Jacobian diag(p) − ppᵀ, median "
                                                  "over queries."),
    "saturated": QT_TRANSLATE_NOOP("SummaryStrip", "Share of queries whose largest weight exceeds 0.99."),
}


class SummaryStrip(ControllerView, QFrame):
    """Large, fixed-width readouts of σ, max weight, entropy, median ‖J‖_F and saturation."""

    name = "summary"

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.style_ = style
        self.setObjectName("summary")
        self._highlighted = False
        grid = QGridLayout(self)
        grid.setContentsMargins(12, 4, 12, 4)
        grid.setHorizontalSpacing(24)
        grid.setVerticalSpacing(0)
        self._colours: dict[str, str] = {}
        self.captions: dict[str, QLabel] = {}
        self.labels: dict[str, QLabel] = {}
        self.slots: dict[str, LabelSlot] = {}
        # Captions and tips in the language of the window (a new language rebuilds it).
        self._plain = {key: translate("SummaryStrip", caption) for key, caption, *_ in CELLS}
        self._exact = {key: translate("SummaryStrip", caption) for key, caption in EXACT_CAPTIONS.items()}
        self._tips = {key: translate("SummaryStrip", tip) for key, tip in TIPS.items()}
        self._failed_tip = translate("SummaryStrip", "The program returned NaN in {failed} of {rows} rows: this is "
                                                     "the exact softmax's value. {tip}")
        # Every word a caption may show (the "exact" captions too; log n to 99.99).
        self._caption_words = {word for caption in (*self._plain.values(), *self._exact.values())
                               for word in caption.format(log_n="88.88").split()}
        for key, caption in self._plain.items():
            cap = QLabel(caption.format(log_n="8.88"))
            val = QLabel("–")
            cap.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            cap.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            cap.setWordWrap(True)  # two short lines on a small projector, one on a large one
            val.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            val.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            val.setObjectName(f"summary_{key}")
            cap.setToolTip(self._tips[key])
            val.setToolTip(self._tips[key])
            self.captions[key], self.labels[key] = cap, val
            # Outside any layout: a new number never re-lays out (and repaints) the window.
            self.slots[key] = LabelSlot(val)
        self._per_row = 0
        self._veiled: set[str] = set()  # cells that show "?" while a question is open
        self._arrange(len(CELLS))
        self.apply_style()

    def _arrange(self, per_row: int) -> None:
        """Cells in rows of ``per_row`` (5 normally; 3 + 2 or 2 + 2 + 1 when the strip is narrow)."""
        if per_row == self._per_row:
            return
        grid = cast(QGridLayout, self.layout())
        for i, key in enumerate(self.labels):
            row, col = divmod(i, per_row)
            grid.addWidget(self.captions[key], 2 * row, col)  # addWidget moves a widget
            grid.addWidget(self.slots[key], 2 * row + 1, col)
        for col in range(len(CELLS)):
            grid.setColumnStretch(col, 1 if col < per_row else 0)
        self._per_row = per_row

    def set_veiled_cells(self, keys: Iterable[str]) -> None:
        """Show "?" in these cells (the lesson's open question) until called without them."""
        self._veiled = set(keys)
        self.refresh()

    @property
    def veiled_cells(self) -> frozenset[str]:
        """The cells showing "?" (what an open question hides)."""
        return frozenset(self._veiled)

    def set_highlighted(self, on: bool) -> None:
        self._highlighted = on
        p = self.style_.palette
        # Both looks in one sheet, chosen by a property (see base.repolish).
        sheet = (f"QFrame#summary {{ background: {p.strip}; border-radius: 6px; border: 4px solid {p.strip}; }}"
                 f"QFrame#summary[highlighted=\"true\"] {{ border: 4px solid {p.highlight}; }}")
        if sheet != self.styleSheet():
            self.setStyleSheet(sheet)
        repolish(self, "highlighted", on)

    def apply_style(self) -> None:
        s = self.style_
        for key in self.captions:
            self.captions[key].setFont(s.font(11))  # smaller if a word would not fit (_fit_values)
            self.captions[key].setStyleSheet(f"color: {s.palette.muted};")
        self.set_highlighted(self._highlighted)
        for slot in self.slots.values():
            slot.set_background(s.palette.strip)
        self._fit_values()
        self._colours = {}

    def _fit_values(self) -> None:
        """Largest value font (at most 24 pt at zoom 1) whose widest sample fits a column, in
        the most cells a row whose captions' words fit their column too (5, else 3, else 2)."""
        # Worst cases, not today's values: the font must not jump while a slider moves.
        samples = [sample for *_, sample in CELLS] + ["0.0e+00"]
        margins = cast(QGridLayout, self.layout()).contentsMargins()
        inner = (self.contentsRect().width() - margins.left() - margins.right())
        font = self.style_.font(24, bold=True)
        caption_metrics = QFontMetrics(self.style_.font(11))
        # A caption wraps at its spaces; its longest word (and the widest number it may
        # show, "log n = 88.88") must fit a column, else it is cut on both sides.
        longest_word = max(caption_metrics.horizontalAdvance(w) for w in self._caption_words)
        spacing = 24
        for per_row in (len(CELLS), 3, 2):
            # Equal stretch: every column gets the same share of the inner width (the labels
            # themselves are laid out only after this resize event).
            spacing = 24 if per_row == len(CELLS) else 12
            column = (inner - spacing * (per_row - 1)) // per_row
            size = self.style_.pt(24)
            while size > MIN_VALUE_PT:
                font.setPointSize(size)
                if max(QFontMetrics(font).horizontalAdvance(t) for t in samples) <= column - 2:
                    break
                size -= 1
            if size >= MIN_READABLE_PT and longest_word <= column:
                break
        cast(QGridLayout, self.layout()).setHorizontalSpacing(spacing)
        self._arrange(per_row)
        # A compound longer than even two columns ("Maximalgewicht" beside practice mode's
        # questions at 1024 × 768) takes a smaller caption type than be cut at both sides.
        caption_font = self.style_.font(11)
        while (longest_word > column and caption_font.pointSize() > MIN_CAPTION_PT
               and caption_font.pointSize() > 6):
            caption_font.setPointSize(caption_font.pointSize() - 1)
            longest_word = max(QFontMetrics(caption_font).horizontalAdvance(w) for w in self._caption_words)
        for caption in self.captions.values():
            if caption.font().pointSize() != caption_font.pointSize():
                caption.setFont(caption_font)
        height = QFontMetrics(font).height() + 4  # fixed: new numbers never relayout the window
        for key, value in self.labels.items():
            value.setFont(font)
            self.slots[key].set_height(height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_values()

    def show_result(self, result: Result, row: int) -> None:
        summary = result.summary
        texts = {
            "sigma": f"{result.logit_std:.2f}",
            "max_weight": f"{summary['max_weight'].median:.3f}",
            "entropy": f"{summary['entropy'].median:.2f}",
            "jacobian": f"{summary['jacobian_fro'].median:.1e}",
            "saturated": f"{100 * result.saturated_fraction:.0f} %",
        }
        # The statistics describe the exact softmax; say so on each of them when the program's
        # own weights are NaN (a naive softmax that overflowed), instead of quoting them as
        # its output. σ is the program's input and stays as it is.
        failed = result.failed_rows
        log_n = localize_number(f"{result.log_n:.2f}")
        changed = False
        for key, caption in (self._exact if failed else self._plain).items():
            if key not in EXACT_CAPTIONS:  # σ is the program's input: its caption stays
                continue
            caption = caption.format(log_n=log_n)
            label = self.captions[key]
            if label.text() != caption:  # a new text re-lays out the strip: only on a change
                label.setText(caption)
                changed = True
            tip = (self._failed_tip.format(failed=failed, rows=result.rows, tip=self._tips[key]) if failed
                   else self._tips[key])
            if label.toolTip() != tip:
                label.setToolTip(tip)
        if changed:  # wrapped captions: the grid must ask their heights for the new texts again
            cast(QGridLayout, self.layout()).invalidate()
            self.updateGeometry()
        colour, neutral = self.style_.colour_for(result.params.scaling), self.style_.palette.fg
        for key, text in texts.items():
            veiled = key in self._veiled
            self.labels[key].setText(localize_number("?" if veiled else text))
            wanted = neutral if veiled else colour  # a "?" in the scaling's colour would give it away
            if self._colours.get(key) != wanted:  # a style sheet change re-polishes: only on change
                self._colours[key] = wanted
                self.labels[key].setStyleSheet(f"color: {wanted};")
