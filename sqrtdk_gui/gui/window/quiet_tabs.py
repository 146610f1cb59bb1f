"""A tab widget that lays out and repaints its pages only when their place changes."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QStackedWidget, QTabWidget, QWidget


class QuietTabWidget(QTabWidget):
    """QTabWidget without the repaint of everything in it at each change of a size hint inside.

    A widget anywhere in a page that changes its size hint (a label's new text, a key that
    takes another line) ends in a layout request to the tab widget, and QTabWidget answers
    every one by placing its bar and pages again and repainting itself, which repaints every
    widget on the page: a lesson page's new readouts repainted the whole window two to five
    times. Where the bar and pages go depends only on the widget's size and the bar, so a
    request that leaves those as they were is dropped; when the pages' size hints changed,
    the widget's own hints are passed on to its parent (the window's minimum size follows).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._stack: QStackedWidget | None = None
        self._placed_for: tuple[object, ...] | None = None
        self._pages_hints: tuple[object, ...] | None = None

    def _placement_key(self) -> tuple[object, ...]:
        """What QTabWidget places its bar and pages by: its size, its tabs and the bar's hints."""
        bar = self.tabBar()
        return (self.size(), self.count(), self.currentIndex(), bar.isVisibleTo(self), bar.sizeHint(),
                bar.minimumSizeHint())

    def _hints(self) -> tuple[object, ...]:
        if self._stack is None:
            self._stack = self.findChild(QStackedWidget, "qt_tabwidget_stackedwidget")
        return () if self._stack is None else (self._stack.sizeHint(), self._stack.minimumSizeHint())

    # QTabWidget places its bar and pages at these too, without a layout request.
    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._placed_for = self._placement_key()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self._placed_for = self._placement_key()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            placement, hints = self._placement_key(), self._hints()
            if placement == self._placed_for:
                if hints != self._pages_hints:
                    self._pages_hints = hints
                    self.updateGeometry()  # the window's minimum size may follow; nothing moves here
                return True
            self._placed_for, self._pages_hints = placement, hints
        return super().event(event)
