"""The numbers behind a chart: a sortable, copyable table in place of the plot.

Each panel lists what it draws as ``Table``s (``Panel.data_tables()``), built from the same
arrays it passes to ``setData``. ``DataView`` shows them (one tab per table), sorts by any
column (numbers as numbers) and copies the selection with Ctrl+C as tab-separated text with
its column headers, at full precision, ready for a spreadsheet or notes. It is for
screen-reader users, for students who read numbers better than curves, and for notes.
While shown it follows the controller (coalesced: at most a few updates a second).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QSortFilterProxyModel, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLabel, QTableView, QTabWidget, QVBoxLayout, QWidget

from sqrtdk_gui.core.i18n import format_number

if TYPE_CHECKING:
    from PySide6.QtCore import QObject, QPersistentModelIndex
    from PySide6.QtGui import QKeyEvent, QShowEvent

__all__ = ["Table", "TableModel", "NumberTable", "DataView", "to_tsv", "cell_text"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
UPDATE_MS = 150  # while a slider moves, the tables follow a few times a second


@dataclass(frozen=True)
class Table:
    """One table: a title (its tab), column headers and rows of numbers or text."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]


def cell_text(value: object) -> str:
    """What a cell shows: 4 significant digits for floats (the copy has all of them)."""
    if value is None:
        return "–"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        return format_number(value, ".4g")
    return str(value)


def _copy_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back as the same number
    return str(value)


def to_tsv(headers: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    """Tab-separated text: a header line, then one line per row."""
    lines = ["\t".join(headers)] + ["\t".join(_copy_text(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


class TableModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.headers: tuple[str, ...] = ()
        self.rows: tuple[tuple[object, ...], ...] = ()

    def set_table(self, table: Table) -> None:
        self.beginResetModel()
        self.headers, self.rows = tuple(table.headers), tuple(table.rows)
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802,B008 - Qt API
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802,B008 - Qt API
        return 0 if parent.isValid() else len(self.headers)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        value = self.rows[index.row()][index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return cell_text(value)
        if role == SORT_ROLE:
            if isinstance(value, (int, float)):
                return -math.inf if value is None or math.isnan(value) else float(value)
            return -math.inf if value is None else str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(value, (int, float)):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt API
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.headers[section] if section < len(self.headers) else None
        return str(section + 1)


class NumberTable(QTableView):
    """A sortable table view; Ctrl+C copies the selected cells (or all) as TSV with headers."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = TableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.source)
        self.proxy.setSortRole(SORT_ROLE)
        self.setModel(self.proxy)
        self.setSortingEnabled(True)
        self.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the panel's own order until a click
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setTabKeyNavigation(False)  # Tab leaves the table: the window stays keyboard-usable
        self.horizontalHeader().setStretchLastSection(True)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.setAccessibleName(name)
        self.setAccessibleDescription(translate("DataView", "The numbers this chart draws. Click a column header "
                                                            "to sort; Ctrl+C copies the selection as tab-separated "
                                                            "text."))

    def set_table(self, table: Table) -> None:
        self.source.set_table(table)
        self.resizeColumnsToContents()

    def selected_tsv(self) -> str:
        """The selection (every cell if nothing is selected) as TSV, in the order shown."""
        indexes = self.selectionModel().selectedIndexes() if self.selectionModel() else []
        if not indexes:
            rows: Sequence[int] = range(self.proxy.rowCount())
            cols = list(range(self.proxy.columnCount()))
        else:
            rows = sorted({i.row() for i in indexes})
            cols = sorted({i.column() for i in indexes})
        headers = [self.source.headers[c] for c in cols]
        values: list[list[object]] = []
        for r in rows:
            source_row = self.proxy.mapToSource(self.proxy.index(r, 0)).row()
            values.append([self.source.rows[source_row][c] for c in cols])
        return to_tsv(headers, values)

    def copy(self) -> None:
        QApplication.clipboard().setText(self.selected_tsv())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy()
            event.accept()
            return
        super().keyPressEvent(event)


class DataView(QWidget):
    """The tables of one panel (tabs when there are several), kept up to date while shown."""

    # ``panel``: the PlotFrame whose tables these are (base.py imports this module: duck-typed).
    def __init__(self, panel: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panel = panel
        self.setObjectName("dataView")
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.note = QLabel(translate("DataView", "Ctrl+C copies the selected cells as tab-separated text · "
                                                 "click a header to sort"))
        self.note.setObjectName("dataViewNote")
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.note)
        self.tables: list[NumberTable] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(UPDATE_MS)
        self._timer.timeout.connect(self.update_tables)
        self._controller: object | None = None  # the window's controller (gui.window: not imported here)

    def follow(self, controller: Any) -> None:
        """Update whenever the controller publishes something (once bound, while shown)."""
        if controller is None or controller is self._controller:
            return
        self._controller = controller
        for signal in (controller.result_changed, controller.row_changed, controller.sweeps_changed):
            signal.connect(self._schedule)

    def _schedule(self, *_: object) -> None:
        if self.isVisible() and not self._timer.isActive():
            self._timer.start()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self.update_tables()

    def update_tables(self) -> None:
        tables = self.panel.data_tables()
        while len(self.tables) < len(tables):
            view = NumberTable("")
            self.tables.append(view)
            self.tabs.addTab(view, "")
        while len(self.tables) > len(tables):
            self.tabs.removeTab(len(self.tables) - 1)
            self.tables.pop().deleteLater()
        for i, (view, table) in enumerate(zip(self.tables, tables)):
            self.tabs.setTabText(i, table.title)
            view.setAccessibleName(translate("DataView", "{panel}: {table}").format(panel=self.panel.full_title,
                                                                                    table=table.title))
            view.set_table(table)
        self.tabs.tabBar().setVisible(len(tables) > 1)
