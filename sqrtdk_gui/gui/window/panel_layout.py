"""Which live panels the window shows, and how large.

Four panels two by two where each keeps a readable plot; on a small page (a 1024×768 desk
beside the lesson, a projector, practice) fewer panels, larger: the lesson step's own, or the
ones picked with the numbered buttons beside the panel tabs (or D).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QToolButton, QWidget

from sqrtdk_gui.gui.panels import LIVE_PANELS, PAGE_PANELS

__all__ = ["OPENING_PANELS", "PanelLayout"]

translate = QCoreApplication.translate

# What a slide without panels of its own (the introduction) shows on a small projector.
OPENING_PANELS = ("histogram", "weights")
# The page a desk window needs, per zoom step, for two panels side by side / one above the
# other with plots of about 150 px or more (measured with the shipped fonts at zoom 1).
DESK_TWO_COLUMNS = 600
DESK_TWO_ROWS = 640


class PanelLayout(QObject):
    """Arranges the live panels in the window's grid and keeps the panel picker."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self._w = window
        self.arranged: tuple[str, ...] = ()
        self._columns = 0
        self.picked: int | None = None  # the first panel the user picked on a small page
        self.picker = QWidget()
        self.picker.setObjectName("panelPicker")
        row = QHBoxLayout(self.picker)
        row.setContentsMargins(0, 0, 4, 0)
        row.setSpacing(2)
        self.buttons = QButtonGroup(self)
        self.buttons.setExclusive(False)  # a group of two lights two buttons
        for i, cls in enumerate(LIVE_PANELS):
            button = QToolButton()
            button.setText(str(i + 1))
            button.setCheckable(True)
            button.setAccessibleName(translate("PanelLayout", "Show panel {number}").format(number=i + 1))
            button.setToolTip(window.panels[cls.name].full_title)
            self.buttons.addButton(button, i)
            row.addWidget(button)
        self.buttons.idClicked.connect(self.pick)
        self.picker.hide()
        # Which panels, and one above the other or side by side, once the page has its new size.
        self._again = QTimer(self)
        self._again.setSingleShot(True)
        self._again.timeout.connect(window._arrange_for_lesson)
        window.panel_pages.installEventFilter(self)

    def schedule(self) -> None:
        """Arrange again once what is under way is laid out."""
        self._again.start(0)

    def flush(self) -> None:
        """Arrange now what a resize of the page asked for (headless renders, slides)."""
        if self._again.isActive():
            self._again.stop()
            self._w._arrange_for_lesson()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Resize:
            self._again.start(0)
        return False

    # --- the room -------------------------------------------------------------------------
    def grid_shape(self) -> tuple[int, int]:
        """(rows, columns) of readable panels the desk page holds now."""
        page, z = self._w.panel_pages, self._w.style_.zoom
        columns = 2 if page.width() >= round(DESK_TWO_COLUMNS * z) else 1
        rows = 2 if page.height() >= round(DESK_TWO_ROWS * z) else 1
        return rows, columns

    def room(self) -> int:
        rows, columns = self.grid_shape()
        return rows * columns

    def compact(self) -> bool:
        """Whether the desk page is too small for all four panels."""
        return self.room() < len(LIVE_PANELS)

    # --- what the desk shows --------------------------------------------------------------
    def desk_panels(self, highlighted: Iterable[str]) -> tuple[str, ...]:
        """The panels a desk window shows: all four, or on a small page the picked group, the
        lesson step's own or the first group."""
        live = [cls.name for cls in LIVE_PANELS]
        room = self.room()
        if room >= len(live):
            return tuple(live)
        if self.picked is None:
            own = [n for n in live if n in set(highlighted)]
            if own:
                return tuple(own[:room])
            first = 0
        else:
            first = self.picked - self.picked % room
        return tuple(live[first:first + room])

    def pick(self, index: int) -> None:
        """Show the group of panels holding panel ``index`` (0-based) on a small page."""
        self.picked = index
        self._w.show_panel_page(None)
        self._w._arrange_for_lesson()

    def forget_pick(self) -> None:
        """A lesson move: its own panels again."""
        self.picked = None

    def cycle(self) -> None:
        """D: on a small page the next group of panels, then the σ dial, then the first group;
        with room for all four, the σ dial and back."""
        w = self._w
        on_dial = w.panel_pages.currentIndex() != 0
        if not self.compact() or w.presentation.active or w.slide_mode:
            w.show_panel_page(None if on_dial else PAGE_PANELS[0].name)
            return
        live = [cls.name for cls in LIVE_PANELS]
        shown = [live.index(n) for n in self.arranged if n in live]
        following = (max(shown) + 1) if shown else 0
        if on_dial:
            self.pick(0)
        elif following >= len(live):
            w.show_panel_page(PAGE_PANELS[0].name)
        else:
            self.pick(following)

    def show_picker(self, on: bool) -> None:
        live = [cls.name for cls in LIVE_PANELS]
        for i, name in enumerate(live):
            self.buttons.button(i).setChecked(name in self.arranged)
        self.picker.setVisible(on)

    # --- the grid -------------------------------------------------------------------------
    def arrange(self, names: Iterable[str], narrow: bool) -> None:
        """Show these live panels in the grid, large: one fills it, two side by side (one
        above the other when ``narrow``), three as two and one below, four as two by two."""
        w = self._w
        live = [cls.name for cls in LIVE_PANELS]
        names = tuple(n for n in live if n in set(names)) or tuple(live)
        columns = 1 if len(names) == 1 or (len(names) == 2 and narrow) else 2
        if (names, columns) == (self.arranged, self._columns):
            return
        self.arranged, self._columns = names, columns
        grid = w.panel_grid
        for name in live:
            grid.removeWidget(w.panels[name])
            w.panels[name].setVisible(name in names)
        for i in range(3):
            grid.setRowStretch(i, 0)
            grid.setColumnStretch(i, 0)
        wide = columns == 2 and len(names) % 2  # an odd last panel spans both columns
        for i, name in enumerate(names):
            row, col = divmod(i, columns)
            span = 2 if wide and i == len(names) - 1 else 1
            grid.addWidget(w.panels[name], row, col, 1, span)
            grid.setRowStretch(row, 1)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1 if columns > 1 else 0)
