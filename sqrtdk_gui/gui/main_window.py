"""The main window: builds the controls, the panels and the menus, and wires them up.

No mathematics here: controls → controller → model; the controller's signals → panels,
each of which binds itself (see docs/architecture.md).
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QIcon, QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractSpinBox, QApplication, QDockWidget, QGridLayout, QHBoxLayout, QLabel,
                               QMainWindow, QMessageBox, QScrollArea, QTabWidget, QVBoxLayout, QWidget)

from sqrtdk_gui.gui import resources_rc  # noqa: F401  (registers :/ resources)
from sqrtdk_gui.gui.animation import DkAnimator
from sqrtdk_gui.gui.controller import Controller
from sqrtdk_gui.gui.lab import LabPage
from sqrtdk_gui.gui.lesson.pane import LessonPane
from sqrtdk_gui.gui.lesson.presenter import LessonPresenter
from sqrtdk_gui.core.model import SWEEP_MAX_ROWS, Params, Result
from sqrtdk_gui.gui.controls import ControlsPanel
from sqrtdk_gui.gui.conventions import DesktopActions
from sqrtdk_gui.gui.file_actions import FileActions
from sqrtdk_gui.gui.menus import SHORTCUTS, build_menus
from sqrtdk_gui.gui.panels import LIVE_PANELS, PAGE_PANELS
from sqrtdk_gui.gui.panels.summary import SummaryStrip
from sqrtdk_gui.gui.presentation import Presentation
from sqrtdk_gui.gui.accessibility import describe_widgets
from sqrtdk_gui.gui.recent import RecentPresets
from sqrtdk_gui.gui.undo import UndoHistory, route_undo_keys
from sqrtdk_gui.gui.style import SCALING_LABELS, Style, qt_palette
from sqrtdk_gui.gui.plot_items import fit_pixmap_cache

APP_NAME = "sqrtdk-gui"
ICON = ":/icons/sqrtdk-gui.svg"
DEFAULT_SIZE = (1600, 900)
ZOOM_STEP = 1.15


def configure_pyqtgraph() -> None:
    """Global pyqtgraph look: white background (projectors wash out dark ones)."""
    pg.setConfigOptions(background="w", foreground="k", antialias=True)


class MainWindow(DesktopActions, FileActions, QMainWindow):
    """The live window: controls column, summary strip and four panels."""

    default_size = DEFAULT_SIZE

    def __init__(self, params: Params | None = None, threaded: bool = True,
                 theme: str = "light", zoom: float = 1.0) -> None:
        super().__init__()
        configure_pyqtgraph()
        self.style_ = Style(zoom=zoom, theme=theme)
        self.controller = Controller(params, threaded=threaded, parent=self)
        self.setWindowTitle(APP_NAME)
        self.setWindowIcon(QIcon(ICON))
        self.resize(*DEFAULT_SIZE)

        self.controls = ControlsPanel(self.style_)
        scroll = QScrollArea()
        scroll.setWidget(self.controls)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(240)
        scroll.setMaximumWidth(360)
        self.controls_scroll = scroll

        self.summary = SummaryStrip(self.style_)
        # name -> panel, in the order they are placed (two per row), then the page panels.
        self.panels = {cls.name: cls(self.style_) for cls in LIVE_PANELS}

        grid = QGridLayout()
        grid.setSpacing(8)
        for i, panel in enumerate(self.panels.values()):
            grid.addWidget(panel, i // 2, i % 2)
            grid.setRowStretch(i // 2, 1)
            grid.setColumnStretch(i % 2, 1)
        right = QVBoxLayout()
        right.setSpacing(8)
        right.addWidget(self.summary)
        # Panels 1-4 on one page; each page panel (the σ dial) on a page of its own beside them.
        self.panel_pages = QTabWidget()
        self.panel_pages.setObjectName("panelPages")
        self.panel_pages.setDocumentMode(True)
        grid_page = QWidget()
        grid_page.setLayout(grid)
        grid.setContentsMargins(0, 4, 0, 0)
        self.panel_pages.addTab(grid_page, f"Panels 1–{len(LIVE_PANELS)}")
        for cls in PAGE_PANELS:
            panel = self.panels[cls.name] = cls(self.style_)
            self.panel_pages.addTab(panel, getattr(panel, "short_title", cls.name))
        right.addWidget(self.panel_pages, 1)
        live = QWidget()
        outer = QHBoxLayout(live)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.addWidget(scroll)
        outer.addLayout(right, 1)
        self.live_page = live
        # Tabs: the live instrument first; other views (the training lab) add pages here.
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(live, "Live")
        # The lab is built when first opened: most lessons never need it, start-up does.
        self._lab_page = None
        self._lab_holder = QWidget()
        QVBoxLayout(self._lab_holder).setContentsMargins(0, 0, 0, 0)
        self.tabs.addTab(self._lab_holder, "Training lab")
        self.tabs.currentChanged.connect(self._on_tab)
        self.setCentralWidget(self.tabs)

        # The lesson: a dock beside the panels, so the class sees text and plots together.
        self.animator = DkAnimator(self.controller, self)
        self.lesson_pane = LessonPane(self.style_)
        self.lesson_dock = QDockWidget("Lesson", self)
        self.lesson_dock.setObjectName("lessonDock")
        self.lesson_dock.setWidget(self.lesson_pane)
        self.lesson_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                                     | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.lesson_dock.setMinimumWidth(260)
        self.lesson_dock.setMaximumWidth(560)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.lesson_dock)
        self.lesson = LessonPresenter(self.controller, self.lesson_pane, self.highlight, self.animator, self,
                                      veil=self.veil)
        self.lesson.changed.connect(self._show_lesson_title)
        # A permanent label for the state; showMessage stays free for warnings and notices.
        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label, 1)
        self._status_text = ""
        self._status_timer = QTimer(self)
        self._status_timer.setSingleShot(True)
        self._status_timer.setInterval(250)
        self._status_timer.timeout.connect(lambda: self.status_label.setText(self._status_text))
        self.presentation = Presentation(self)
        # --- undo, Open recent, accessibility (gui/undo.py, recent.py, accessibility.py) ---
        self.undo = UndoHistory(self)
        self.actions = build_menus(self)
        self.recent = RecentPresets(self.actions.recent_menu, self.open_recent,
                                    lambda text: self.statusBar().showMessage(text, 8000), self)
        spins = self.controls.findChildren(QAbstractSpinBox)
        self._undo_keys = route_undo_keys([*spins, *(s.lineEdit() for s in spins)])
        describe_widgets(self)
        # --- end ---
        self._build_lesson_keys()
        self.animator.running_changed.connect(self.controls.show_autoplay)
        self.controls.autoplay_toggled.connect(self.set_autoplay)
        self.controls.autoplay_seconds.connect(self.animator.set_seconds)

        c = self.controller
        self.controls.params_edited.connect(self.apply_edit)
        self.controls.row_edited.connect(c.set_row)
        c.params_changed.connect(self.controls.show_params)
        c.row_changed.connect(self.controls.show_row)
        for view in self.views():
            view.bind(c)
        c.result_changed.connect(self._show_status)
        self.controls.show_params(c.params)
        self.controls.show_row(c.row)
        self.apply_style()
        c.flush()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_columns(event.size().width())
        fit_pixmap_cache(event.size().width(), event.size().height(), self.devicePixelRatioF())

    def _fit_columns(self, width: int) -> None:
        # Side columns grow with the window (and the zoom) but leave the plots most of a
        # small projector; the controls never get narrower than their content.
        z = self.style_.zoom
        need = self.controls.minimumSizeHint().width() + self.controls_scroll.verticalScrollBar().sizeHint().width() + 4
        self.controls_scroll.setFixedWidth(min(round(360 * z), max(need, round(0.19 * width))))
        self.lesson_dock.setMaximumWidth(round(560 * z))
        self.resizeDocks([self.lesson_dock], [min(round(480 * z), max(260, round(0.23 * width * z ** 0.5)))],
                         Qt.Orientation.Horizontal)

    def _build_lesson_keys(self) -> None:
        # Page Up/Down are what presentation clickers send: they always navigate, even when a
        # slider has focus. Arrows, Space, Home/End and digits navigate only when no control
        # wants them (see keyPressEvent), so sliders stay operable from the keyboard.
        for key, slot in ((Qt.Key.Key_PageDown, self.lesson.next), (Qt.Key.Key_PageUp, self.lesson.previous)):
            QShortcut(QKeySequence(key), self, activated=slot)

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt API
        key = event.key()
        actions = {
            Qt.Key.Key_Right: self.lesson.next,
            Qt.Key.Key_Space: self.lesson.next,
            Qt.Key.Key_Left: self.lesson.previous,
            Qt.Key.Key_Home: self.lesson.first,
            Qt.Key.Key_End: self.lesson.last,
        }
        if key in actions:
            actions[key]()
        elif Qt.Key.Key_1 <= key <= Qt.Key.Key_0 + self.lesson.count:
            self.lesson.go_to(key - Qt.Key.Key_0)
        else:
            super().keyPressEvent(event)

    def views(self) -> list:
        """Everything that draws the controller's numbers: the summary strip and the panels."""
        return [self.summary, *self.panels.values()]

    def veil(self, targets) -> None:
        """Hide what answers the lesson's open question: views by name, summary cells as
        "summary.<cell>"; an empty list uncovers everything."""
        targets = set(targets)
        for panel in self.panels.values():
            panel.set_veiled(panel.name in targets)
        self.summary.set_veiled_cells(t.split(".", 1)[1] for t in targets if t.startswith("summary."))

    def highlight(self, names) -> None:
        """Point the class at some views (lesson steps); others lose their accent border.

        A highlighted page panel (the σ dial) comes to the front; any other lesson position
        shows panels 1-4 (D still switches by hand).
        """
        names = set(names)
        for view in self.views():
            view.set_highlighted(view.name in names)
        self.show_panel_page(next((cls.name for cls in PAGE_PANELS if cls.name in names), None))

    def show_panel_page(self, name: str | None) -> None:
        """Bring the page of panel ``name`` to the front (None: panels 1-4)."""
        self.panel_pages.setCurrentWidget(self.panels[name] if name else self.panel_pages.widget(0))

    def toggle_dial(self) -> None:
        """D: the σ dial's page, and back to panels 1-4."""
        self.show_panel_page(None if self.panel_pages.currentIndex() else "sigma_dial")

    def _show_lesson_title(self, text: str) -> None:
        self.setWindowTitle(f"{APP_NAME} — {text}" if text else APP_NAME)

    @property
    def lab_page(self) -> LabPage:
        """The training-lab page, built on first use."""
        if self._lab_page is None:
            self._lab_page = LabPage(self.style_)
            self._lab_holder.layout().addWidget(self._lab_page)
            self._lab_page.show()  # a child added to a shown parent is not shown by itself
        return self._lab_page

    def _on_tab(self, index: int) -> None:
        # The lab needs the width the lesson dock takes; the dock comes back with the Live tab.
        if self.tabs.widget(index) is self._lab_holder:
            self.lab_page  # noqa: B018 - builds it
            self._dock_was_visible = not self.lesson_dock.isHidden()
            self.lesson_dock.hide()
        elif getattr(self, "_dock_was_visible", False):
            self.lesson_dock.show()
            self._dock_was_visible = False

    # --- look: theme, zoom, presentation ----------------------------------------------------
    def apply_style(self) -> None:
        """Re-apply theme and zoom to every widget and redraw the current numbers."""
        s = self.style_
        app = QApplication.instance()
        app.setPalette(qt_palette(s.palette))
        base = app.font()
        base.setPointSize(s.pt(11))
        app.setFont(base)  # menus, dialogs, status bar
        for widget in (self.controls, *self.views(), self.lesson_pane):
            widget.apply_style()
        # A slim tab bar: the panels below need the height on a 720-line projector.
        self.panel_pages.tabBar().setFont(s.font(11, bold=True))
        self.panel_pages.setStyleSheet(f"QTabBar::tab {{ padding: {s.pt(2)}px {s.pt(12)}px; }}")
        if self._lab_page is not None:
            self._lab_page.apply_style()
        for view in self.views():
            view.refresh()
        if hasattr(self, "actions"):  # apply_style also runs before the menus exist
            for name, action in self.actions.themes.items():
                action.setChecked(name == s.theme)
        self._fit_columns(self.width())

    def set_theme(self, theme: str) -> None:
        self.style_.set_theme(theme)
        self.apply_style()

    def set_zoom(self, zoom: float) -> None:
        """Scale every font and line width together (Ctrl+= / Ctrl+- / Ctrl+0)."""
        self.style_.set_zoom(zoom)
        self.apply_style()

    def zoom_in(self) -> None:
        self.set_zoom(self.style_.zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.style_.zoom / ZOOM_STEP)

    def zoom_reset(self) -> None:
        self.set_zoom(1.0)

    def set_controls_visible(self, visible: bool) -> None:
        """Hide the controls column (H): the plots then take the whole width."""
        self.controls_scroll.setVisible(visible)
        if hasattr(self, "actions"):
            self.actions.controls.setText("&Hide controls" if visible else "Show &controls")

    def toggle_autoplay(self) -> None:
        self.set_autoplay(not self.animator.running)

    def set_autoplay(self, on: bool) -> None:
        """Sweep d_k from 1 to 4096 and back until paused, so the histogram breathes."""
        if on:
            self.animator.run(1, 4096, self.controls.speed.value(), ping_pong=True)
        else:
            self.animator.stop()

    def show_shortcuts(self) -> None:
        rows = "".join(f"<tr><td><b>{keys}</b></td><td>&nbsp;&nbsp;{what}</td></tr>" for keys, what in SHORTCUTS)
        QMessageBox.information(self, "Keyboard shortcuts", f"<table>{rows}</table>")

    # --- wiring --------------------------------------------------------------------------
    def apply_edit(self, changes: dict) -> None:
        """A change the user made: it stops any sweep animation, then reaches the model."""
        self.animator.stop()  # the teacher took over: the lesson's sweep must not fight back
        before = self.undo.snapshot()
        try:
            self.controller.set_params(**changes)
        except ValueError as exc:  # widgets are range-limited; this is a last line of defence
            self.statusBar().showMessage(str(exc), 5000)
            return
        self.undo.record_edit(before, changes)  # a drag of one control merges into one step

    def _show_status(self, result: Result) -> None:
        p = result.params
        queries = (f"{result.rows} of {p.queries} queries sampled, keys streamed" if result.streamed
                   else f"{p.queries} queries")
        precision = ""
        if p.dtype != "float64":  # the evaluated weights against float64 (issue 12)
            err = result.rel_error_summary.p90
            precision = (f" · {p.dtype}: worst weight error per row {100 * err:.2g} % (90th percentile)"
                         if err == err else f" · {p.dtype}: overflow")
        self._status_text = (
            f"d_k = {p.d_k} · {SCALING_LABELS[p.scaling]} · τ = {p.temperature:.2f} · "
            f"n = {p.keys} keys · {queries}{precision} · computed in "
            f"{self.controller.last_compute_ms:.1f} ms")
        if result.rows_sampled_for_display and not result.streamed:  # bounded memory
            self._status_text += (f" · histogram and selectable rows from the first "
                                  f"{result.shown_rows:,} queries")
        if p.queries > SWEEP_MAX_ROWS:  # say that the sweeps are subsampled (bounded work)
            self._status_text += f" · curves versus d_k from the first {SWEEP_MAX_ROWS:,} queries"
        if not self._status_timer.isActive():  # a few times a second is plenty for a status line
            self._status_timer.start()

    def render_ready(self) -> None:
        """Bring every panel up to date synchronously (headless rendering, slides)."""
        self.animator.finish()  # a lesson sweep is shown at its end state
        self.controller.flush()
        self.controller.wait_for_sweeps()
        self._status_timer.stop()
        self.status_label.setText(self._status_text)
        QApplication.processEvents()
        for view in self.views():  # views that defer some drawing (the σ dial's table)
            if hasattr(view, "flush"):
                view.flush()

    def warm_lesson_figures(self) -> None:
        """Compute the lesson's figures (ranges over 8 seeds, ~5 s) off the UI thread, so that
        the first visit of a step does not stall the projector for up to a second."""
        import threading

        from sqrtdk_gui.core.lesson import figures

        if getattr(self, "_warm", None) is None:
            self._warm_stop = threading.Event()
            self._warm = threading.Thread(target=figures.warm, args=(self._warm_stop.is_set,),
                                          name="sqrtdk-lesson-figures")
            self._warm.start()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API
        if getattr(self, "_warm", None) is not None:
            self._warm_stop.set()
            self._warm.join()  # at most the figure in progress (≤ 1 s)
        self.presentation.leave()
        if self._lab_page is not None:
            self._lab_page.shutdown()
        self.animator.stop()
        self.controller.shutdown()
        super().closeEvent(event)
