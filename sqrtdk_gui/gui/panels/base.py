"""The titled frame around a pyqtgraph canvas, and the protocol every live view follows.

``PlotFrame`` is the frame alone: title, readout, colour key, canvas, the Numbers toggle,
the lesson's veil and highlight, theme and zoom. The training lab's plots are plot frames.

``ControllerView`` is the live window's protocol: a view is bound to the controller once
(``bind``) and from then on draws whatever the controller publishes: ``show_result(result,
row)`` after every computation (and when the selected query row changes, for views that
show one row), ``show_sweeps(sweeps)`` when the "versus d_k" sweeps arrive. Views never
call the model or each other. ``Panel`` is a plot frame that follows that protocol: the
base of the live window's panels.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import pyqtgraph as pg
from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from sqrtdk_gui.gui.plotting.plot_items import make_canvas
from sqrtdk_gui.gui.style import Style, standard_icon

if TYPE_CHECKING:
    from sqrtdk_gui.core.attention.result import Result
    from sqrtdk_gui.core.attention.sweep import Sweep
    from sqrtdk_gui.gui.panels.data_view import DataView, Table

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "Panel"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)
_DIGIT = re.compile(r"[0-9]")

VEIL_OPEN = QT_TRANSLATE_NOOP("Panel", "Predict first\n\nhidden until the answer is revealed")
VEIL_LATER = QT_TRANSLATE_NOOP("Panel", "Later in the lesson\n\nthis panel answers a question still to come")
VEIL_PRACTICE = QT_TRANSLATE_NOOP("Panel", "Answer first\n\nshown once you commit")
VEIL_MEASURING = QT_TRANSLATE_NOOP("Panel", "Measuring this case…")


def repolish(widget: QWidget, name: str, value: bool) -> None:
    """Set a property its style sheet selects on, and restyle that widget alone."""
    if widget.property(name) == value:
        return
    widget.setProperty(name, value)
    widget.style().unpolish(widget)
    widget.style().polish(widget)
    # A frame takes its border's width from the style only on a style change: without one
    # its contents would keep the old margins under a wider or narrower border.
    QCoreApplication.sendEvent(widget, QEvent(QEvent.Type.StyleChange))
    widget.update()


_TABULAR: dict[str, bool] = {}  # font key -> whether its digits are equally wide


def _tabular_digits(font: QFont) -> bool:
    """Whether the font's ten digits are equally wide (most UI fonts; not every one)."""
    key = font.key()
    if key not in _TABULAR:
        metrics = QFontMetrics(font)
        _TABULAR[key] = len({metrics.horizontalAdvance(d) for d in "0123456789"}) == 1
    return _TABULAR[key]


class LabelSlot(QWidget):
    """A fixed-height holder for a label that changes every frame, outside any layout.

    QLabel.setText asks its parent's layout to lay out again (unless the label's size is
    fully fixed); that relayout propagated to the window and repainted every widget on every
    slider frame. A label placed by hand in a slot without a layout asks nobody.
    """

    def __init__(self, label: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        label.setParent(self)
        self._background: QColor | None = None

    def set_background(self, colour: str) -> None:
        """Paint this colour under the label (its parent's): slot and label are then opaque,
        and a new text repaints the label alone instead of the panel and the window under it."""
        if self._background is None:
            # The label fills its own background before drawing its text (a palette would
            # not do: a style sheet on the label replaces its palette's window colour).
            self.label.installEventFilter(self)
        self._background = QColor(colour)
        for widget in (self, self.label):  # the label covers the slot: neither shows through
            widget.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
            widget.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        if self._background is not None:
            QPainter(self).fillRect(event.rect(), self._background)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is self.label and event.type() == QEvent.Type.Paint:
            painter = QPainter(obj)
            painter.fillRect(cast(QPaintEvent, event).rect(), cast(QColor, self._background))
            painter.end()  # before the label's own painter begins
        return False

    def set_height(self, height: int) -> None:
        self.setFixedHeight(height)
        self.label.setGeometry(0, 0, self.width(), height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.label.setGeometry(self.rect())


class ControllerView:
    """Mixin: subscribe to a controller and redraw its current state on demand."""

    name = ""  # the lesson points at views by this name ("histogram", "summary", ...)
    uses_row = False  # True: the view shows the selected query row
    uses_sweeps = False  # True: the view draws the "versus d_k" sweeps

    def bind(self, controller: Any) -> None:  # the window's Controller (gui/window: a layer above)
        """Draw from ``controller`` now and after every change it announces."""
        self.controller = controller
        controller.result_changed.connect(self._on_result)
        if self.uses_row:
            controller.row_changed.connect(self._on_row)
        if self.uses_sweeps:
            controller.sweeps_changed.connect(self._on_sweeps)
        self.refresh()

    def refresh(self) -> None:
        """Redraw the controller's current numbers (after a theme or zoom change)."""
        c = getattr(self, "controller", None)
        if c is None:
            return
        if c.result is not None:
            self.show_result(c.result, c.row)
        if self.uses_sweeps and c.sweeps is not None:
            self.show_sweeps(c.sweeps)

    def _on_result(self, result: Result) -> None:
        self.show_result(result, self.controller.row)

    def _on_row(self, row: int) -> None:
        if self.controller.result is not None:
            self.show_result(self.controller.result, row)

    def _on_sweeps(self, sweeps: dict[str, Sweep]) -> None:
        self.show_sweeps(sweeps)

    def show_result(self, result: Result, row: int) -> None:
        raise NotImplementedError

    def show_sweeps(self, sweeps: dict[str, Sweep]) -> None:
        """``sweeps``: {scaling: model.Sweep} for the scalings the curves compare."""


class PlotFrame(QFrame):
    """Base of every plot panel: title, readout, canvas; can be highlighted by the lesson.

    Subclasses create their plot items, list their plots in ``plots()``, set theme- and
    zoom-dependent pens in ``restyle_items()`` and call ``apply_style()`` at the end of
    their constructor. A theme or zoom change calls ``apply_style()`` again.
    """

    covered_title: str | None = None  # see __init__
    _title_covered = False

    # The longest readout line this panel writes: narrower than that, the readout takes two lines.
    readout_sample = ""

    def __init__(self, title: str, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.style_ = style
        self.setObjectName("panel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel(title)
        self.title.setObjectName("panelTitle")
        # The title takes the room its row leaves and fits itself to it (smaller, then "…"):
        # its text never sets how wide the panel, and so the window, must be.
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._full_title = title  # the title as set; the label may show it ended in "…"
        self._shown_title: str | None = None  # what the label was last given to show
        self.readout = QLabel()
        self.readout.setObjectName("panelReadout")
        # Plain text: a rich-text label re-parses and re-lays out its HTML on every
        # slider frame (measured: 3 ms of a 15 ms frame for the four readouts).
        self.readout.setTextFormat(pg.QtCore.Qt.TextFormat.PlainText)
        # A colour key line instead of a legend inside the plot: it never hides data.
        self.key = QLabel()
        self.key.setObjectName("panelKey")
        self.key.setTextFormat(pg.QtCore.Qt.TextFormat.RichText)
        for label in (self.title, self.readout, self.key):
            # Long lines must not force the window wider than a 1280-pixel projector.
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.canvas = make_canvas()
        # A graphics view's size hint follows its scene, which grows with what it last drew:
        # ignored, so that the window's rows of panels share the height equally.
        self.canvas.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        self.canvas.ci.setContentsMargins(4, 4, 10, 4)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(2)
        # --- numbers toggle (data view): a button in the title row swaps chart and table ---
        self.numbers_button = QToolButton()
        self.numbers_button.setObjectName("numbersButton")
        self.numbers_button.setText(translate("Panel", "Numbers"))
        self.numbers_button.setIcon(standard_icon("FileDialogDetailedView"))
        self.numbers_button.setCheckable(True)
        self.numbers_button.setToolTip(translate("Panel", "Show the numbers this chart draws as a table "
                                                 "(sortable; Ctrl+C copies)"))
        self.numbers_button.setAccessibleName(translate("Panel", "Numbers of {title}").format(title=title))
        self.numbers_button.setAccessibleDescription(translate("Panel", "Show the data of this chart as a "
                                                               "sortable, copyable table"))
        self.numbers_button.toggled.connect(self.set_numbers_shown)
        self.data_view: DataView | None = None  # built on first use (gui/data_view.py)
        if not self.lists_numbers:
            self.numbers_button.hide()
        title_row = QHBoxLayout()
        title_row.setSpacing(4)
        title_row.addWidget(self.title, 1)
        title_row.addWidget(self.numbers_button)
        layout.addLayout(title_row)
        # --- end numbers toggle ---
        self.readout_slot = LabelSlot(self.readout)
        layout.addWidget(self.readout_slot)
        # The key too sits in a layout-free holder: its text names the τ the curves are drawn
        # at, which changes on every frame of a temperature drag.
        self.key_slot = LabelSlot(self.key)
        layout.addWidget(self.key_slot)
        self.body = QHBoxLayout()  # subclasses may put a second canvas beside the first
        self.body.setSpacing(0)
        self.body.addWidget(self.canvas, 1)
        layout.addLayout(self.body, 1)
        self._highlighted = False
        self._key_entries: list[tuple[str, str, str]] = []
        self._key_heights: dict[tuple[str, int, str], int] = {}
        # Predict first: while the lesson's question is open, a card covers what would
        # answer it (everything below the title); the plot keeps updating underneath.
        self._veil_texts = {"open": translate("Panel", VEIL_OPEN), "later": translate("Panel", VEIL_LATER),
                            "practice": translate("Panel", VEIL_PRACTICE),
                            "measuring": translate("Panel", VEIL_MEASURING)}
        # A title that changes with the case (the histogram's scaling) would name a practice
        # item's answer under its veil: covered for one, a panel shows this one instead (None:
        # its title is neutral). The lesson's veils keep the title: the controls show the mode.
        self.covered_title = None
        self._title_covered = False
        self.veil = QLabel(self._veil_texts["open"], self)
        self.veil.setObjectName("veil")
        self.veil.setAlignment(pg.QtCore.Qt.AlignmentFlag.AlignCenter)
        self.veil.setWordWrap(True)
        self.veil.hide()

    # --- hooks --------------------------------------------------------------------------
    def plots(self) -> list[pg.PlotItem]:
        return []

    def canvases(self) -> list[pg.GraphicsLayoutWidget]:
        return [self.canvas]

    def restyle_items(self) -> None:
        """Set the pens and brushes that depend on theme and zoom only."""

    def data_tables(self) -> list[Table]:
        """The numbers this panel draws, as ``data_view.Table``s (the same arrays as setData)."""
        return []

    # --- numbers instead of the chart (data view) ---------------------------------------
    @property
    def numbers_shown(self) -> bool:
        return self.data_view is not None and not self.data_view.isHidden()

    def set_numbers_shown(self, on: bool) -> None:
        """Show the table of the numbers in place of the chart, or the chart again."""
        if on and self.data_view is None:
            from sqrtdk_gui.gui.panels.data_view import DataView

            self.data_view = DataView(self)
            cast(QVBoxLayout, self.layout()).addWidget(self.data_view, 1)
            self.data_view.hide()
        if self.data_view is not None:
            self.data_view.follow(getattr(self, "controller", None))
            for canvas in self.canvases():
                canvas.setVisible(not on)
            cast(QVBoxLayout, self.layout()).setStretchFactor(self.body, 0 if on else 1)  # the table takes the room
            self.data_view.setVisible(on)
            if on:  # also on a page behind another (the σ dial): no showEvent arrives there
                self.data_view.update_tables()
        if self.numbers_button.isChecked() != on:
            self.numbers_button.setChecked(on)
        if self.veiled:
            self.veil.raise_()

    # --- predict first ------------------------------------------------------------------
    @property
    def veiled(self) -> bool:
        return not self.veil.isHidden()

    @property
    def lists_numbers(self) -> bool:
        """Whether the panel has a data table (its Numbers button); not every one does yet."""
        return type(self).data_tables is not PlotFrame.data_tables

    def set_veiled(self, on: bool, later: bool = False, reason: str = "") -> None:
        """Cover the readout and plots (the lesson's question is open; ``later``: a later
        step's question; ``reason`` "practice": a practice item not yet answered, "measuring":
        its case still being computed) or uncover them."""
        self.veil.setText(self._veil_texts[reason or ("later" if later else "open")])
        self.veil.setVisible(on)
        if on:
            self._place_veil()
            self.veil.raise_()
        covered = on and reason == "practice" and self.covered_title is not None
        if covered != self._title_covered:
            self._title_covered = covered
            self._fit_title()

    def _place_veil(self) -> None:
        top = self.readout_slot.geometry().top()
        self.veil.setGeometry(4, top, self.width() - 8, self.height() - top - 4)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_readout()
        self._fit_key()
        if self.veiled:
            self._place_veil()

    def _fit_readout(self) -> None:
        """One line, or two with word wrap when the widest readout would not fit the width.

        A fixed height, decided on resize and style changes only: a new number then never
        asks the window to lay itself out again (that cost 3 ms a frame).
        """
        metrics = self.readout.fontMetrics()
        # The width its holder has once laid out (the panel's less its margins before that).
        slot = self.readout_slot
        width = max(slot.width() if slot.isVisible() and slot.width() > 1 else self.width() - 16, 1)
        # The lines word wrap makes of the sample, or of the text shown if it needs more (a
        # longer language, a longer case); Chinese wraps between any two characters.
        texts = (self.readout_sample, self.readout.text())
        wrapped = max(metrics.boundingRect(QRect(0, 0, width, 10_000), Qt.TextFlag.TextWordWrap, text).height()
                      for text in texts)
        # Word wrap breaks between words, so allow a little more than the plain ratio too.
        need = max(metrics.horizontalAdvance(text) for text in texts)
        lines = min(3, max(1, round(wrapped / metrics.lineSpacing()), math.ceil(1.1 * need / width)))
        self.readout.setWordWrap(lines > 1)
        height = lines * metrics.lineSpacing() + 4
        if lines > 1:  # a fallback font's taller lines (Chinese glyphs) as the label lays them out
            height = max(height, self.readout.heightForWidth(width))
        self.readout_slot.set_height(height)
        self._fit_title()

    def show_readout(self, text: str) -> None:
        """The readout's text; its holder grows when a text needs more room than any before
        (a longer case or language, taller glyphs), and never shrinks for a shorter one (no
        jumping plots)."""
        self.readout.setText(text)
        metrics = self.readout.fontMetrics()
        if metrics.horizontalAdvance(text) > metrics.horizontalAdvance(self.readout_sample):
            self.readout_sample = text
            self._fit_readout()
        elif self.readout.wordWrap():
            height = self.readout.heightForWidth(self.readout.width())
            if height > self.readout_slot.height():
                self.readout_slot.set_height(height)

    def set_title(self, text: str) -> None:
        self._full_title = text
        self._fit_title()

    @property
    def full_title(self) -> str:
        """The whole title, whatever the label shows of it."""
        return self._full_title

    def _fit_title(self) -> None:
        """The title comes first: the Numbers button shows its icon only when both would not
        fit, a title still too long for a narrow panel steps down to 11 pt at zoom 1, and one
        too long even then (a long language) ends in "…", the whole title its tooltip (a
        second line would make the panel taller, and a small projector has no height to spare)."""
        margins = cast(QVBoxLayout, self.layout()).contentsMargins()  # inside the frame's border and padding
        width = self.contentsRect().width() - margins.left() - margins.right()
        button = self.numbers_button
        font = self.style_.font(15, bold=True)
        current = self.title.text()
        if self._shown_title is not None and current != self._shown_title:
            self._full_title = current  # set on the label itself: the new whole title
        # Always fitted from the whole title (it comes back with the room), or the covered one.
        text = self.covered_title if self._title_covered and self.covered_title is not None else self._full_title
        wide = (QFontMetrics(font).horizontalAdvance(text)
                + button.fontMetrics().horizontalAdvance(button.text()) + 64 <= width)
        style = Qt.ToolButtonStyle.ToolButtonTextOnly if wide else Qt.ToolButtonStyle.ToolButtonIconOnly
        if button.toolButtonStyle() != style:
            button.setToolButtonStyle(style)
            QTimer.singleShot(0, self._fit_title)  # again once the row has given the title its room
        # The room the row gives the title once laid out; before that, an estimate.
        room = self.title.width() if self.title.isVisible() and self.title.width() > 0 else \
            width - (0 if button.isHidden() else button.sizeHint().width() + 8)
        size = font.pointSize()
        rich = "<" in text  # the lab's titles carry rich-text subtitles and fit themselves
        while not rich and size > self.style_.pt(11) and QFontMetrics(font).horizontalAdvance(text) > room:
            size -= 1
            font.setPointSize(size)
        self.title.setFont(font)
        shown = text
        if not rich and QFontMetrics(font).horizontalAdvance(text) > room > 0:
            # Never emptied: at least its first letters or "…" (a squeezed panel grows again).
            shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, room) or "…"
        self._shown_title = shown
        if shown != current:
            self.title.setText(shown)
        self.title.setToolTip(text if shown != text else "")

    # --- look ---------------------------------------------------------------------------
    def set_projected(self, on: bool) -> None:
        """The panel on the projected page (presentation mode, slides) or back on the desk:
        a panel with detail only a desk reader needs drops it there."""

    def apply_style(self) -> None:
        s = self.style_
        self.readout.setFont(s.font(13))
        self._fit_readout()
        self.key.setFont(s.font(12))
        self.key.setWordWrap(True)  # a long colour key takes a second line, not the edge
        self.numbers_button.setFont(s.font(11))
        for label in (self.title, self.readout, self.key):
            label.setStyleSheet(f"color: {s.palette.fg};")
        for canvas in self.canvases():
            canvas.setBackground(s.palette.bg)
        for plot in self.plots():
            s.style_plot(plot)
        self.restyle_items()
        self.set_key(self._key_entries)
        self._fit_key()
        self.set_highlighted(self._highlighted)
        p = s.palette
        self.readout_slot.set_background(p.bg)
        self.key_slot.set_background(p.bg)
        self.veil.setFont(s.font(16, bold=True))
        self.veil.setStyleSheet(f"QLabel#veil {{ background: {p.predict_bg}; color: {p.fg}; "
                                f"border: 2px dashed {p.highlight}; border-radius: 6px; }}")

    def set_key(self, entries: list[tuple[str, str, str]]) -> None:
        """Colour key: (colour, symbol, text) per entry, e.g. ("#D55E00", "━", "raw")."""
        self._key_entries = list(entries)
        self.key.setText(" &nbsp; ".join(
            f"<span style='color:{colour}; font-weight:bold'>{symbol}</span>&nbsp;{text}"
            for colour, symbol, text in entries))
        self._fit_key(grow_only=True)

    def _fit_key(self, grow_only: bool = False) -> None:
        """The key's holder as tall as its wrapped text. A new text only ever makes it taller
        (a τ note that comes and goes in a drag must not make the plots jump); a resize or
        restyle fits it afresh."""
        if self.key.isHidden():
            self.key_slot.hide()
            return
        # The width its holder has once laid out (the panel's less its margins before that).
        width = self.key_slot.width() if self.key_slot.isVisible() and self.key_slot.width() > 1 else self.width() - 16
        height = self._key_height(max(width, 1)) if self.key.text() else 0
        if grow_only and not self.key_slot.isHidden():
            height = max(height, self.key_slot.height())
        if height != self.key_slot.height() or self.key_slot.isHidden():
            self.key_slot.set_height(max(height, 0))
            self.key_slot.setVisible(height > 0)

    def _key_height(self, width: int) -> int:
        """The wrapped key's height at ``width``. A drag changes only the numbers in the key
        ("τ = 0.53"); in a font whose digits are all equally wide one layout serves every
        value (laying out the rich text afresh costs ≈ 0.25 ms a panel in every frame)."""
        font = self.key.font()
        text = self.key.text()
        key = (_DIGIT.sub("0", text) if _tabular_digits(font) else text, width, font.key())
        height = self._key_heights.get(key)
        if height is None:
            if len(self._key_heights) >= 64:
                self._key_heights.clear()
            height = self._key_heights[key] = self.key.heightForWidth(width)
        return height

    def highlight_width(self) -> int:
        """Width of the highlight's border in pixels, and of the frame around the contents."""
        return max(3, round(4 * self.style_.zoom))

    def set_highlighted(self, on: bool) -> None:
        """A thick accent border: the lesson points the class at this panel."""
        self._highlighted = on
        p = self.style_.palette
        # Both looks in one sheet, chosen by a property: a new sheet would repolish the panel
        # and every widget in it (a few ms a panel at each lesson page), a property only it.
        # Border plus padding is the same in both, so the contents keep their place: a
        # highlight that resized the plots would lay out and redraw all of them.
        width = self.highlight_width()
        sheet = (f"QFrame#panel {{ border: 1px solid {p.border}; padding: {width - 1}px; border-radius: 6px; "
                 f"background: {p.bg}; }}"
                 f"QFrame#panel[highlighted=\"true\"] {{ border: {width}px solid {p.highlight}; padding: 0px; }}")
        if sheet != self.styleSheet():
            self.setStyleSheet(sheet)
        repolish(self, "highlighted", on)


class Panel(ControllerView, PlotFrame):
    """A plot frame bound to the live window's controller: the base of the live panels.

    A panel the shown window does not show (presentation mode shows a step's own panels; the
    σ dial's page covers panels 1-4) draws nothing until it is shown, and then the
    controller's current numbers: drawing it cost about a millisecond a frame.
    """

    _behind = False  # numbers arrived while hidden in a shown window: drawn when shown

    def _hidden_in_shown_window(self) -> bool:
        return not self.isVisible() and self.window().isVisible()

    def _on_result(self, result: Result) -> None:
        if self._hidden_in_shown_window():
            self._behind = True
        else:
            super()._on_result(result)

    def _on_row(self, row: int) -> None:
        if self._hidden_in_shown_window():
            self._behind = True
        else:
            super()._on_row(row)

    def _on_sweeps(self, sweeps: dict[str, Sweep]) -> None:
        if self._hidden_in_shown_window():
            self._behind = True
        else:
            self.show_sweeps(sweeps)

    def refresh(self) -> None:
        self._behind = False  # drawn now: nothing to catch up on when shown
        super().refresh()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if self._behind:
            self.refresh()
            if self.numbers_shown:  # its show event came first, with the numbers from before
                cast("DataView", self.data_view).update_tables()  # numbers_shown: it exists
