"""The main window: builds the controls, the panels and the menus, and wires them up.

No mathematics here: controls → controller → panels (see DESIGN.md).
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence, QShortcut
from PySide6.QtWidgets import (QApplication, QDockWidget, QGridLayout, QHBoxLayout, QMainWindow,
                               QMessageBox, QScrollArea, QTabWidget, QVBoxLayout, QWidget)

from sqrtdk_gui import __version__, resources_rc  # noqa: F401  (registers :/ resources)
from sqrtdk_gui.animation import DkAnimator
from sqrtdk_gui.controller import Controller
from sqrtdk_gui.lesson.pane import LessonPane
from sqrtdk_gui.lesson.presenter import LessonPresenter
from sqrtdk_gui.model import Params, Result
from sqrtdk_gui.panels.controls import ControlsPanel
from sqrtdk_gui.panels.gradient import GradientPanel
from sqrtdk_gui.panels.histogram import HistogramPanel
from sqrtdk_gui.panels.jacobian import JacobianPanel
from sqrtdk_gui.panels.style import SCALING_LABELS, Style
from sqrtdk_gui.panels.summary import SummaryStrip
from sqrtdk_gui.panels.weights import WeightsPanel

APP_NAME = "sqrtdk-gui"
ICON = ":/icons/sqrtdk-gui.svg"
DEFAULT_SIZE = (1600, 900)


def configure_pyqtgraph() -> None:
    """Global pyqtgraph look: white background (projectors wash out dark ones)."""
    pg.setConfigOptions(background="w", foreground="k", antialias=True)


class MainWindow(QMainWindow):
    """The live window: controls column, summary strip and four panels."""

    def __init__(self, params: Params | None = None, threaded: bool = True) -> None:
        super().__init__()
        configure_pyqtgraph()
        self.style_ = Style()
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
        self.histogram = HistogramPanel(self.style_)
        self.weights = WeightsPanel(self.style_)
        self.jacobian = JacobianPanel(self.style_)
        self.gradient = GradientPanel(self.style_)
        self.panels = [self.histogram, self.weights, self.jacobian, self.gradient]

        grid = QGridLayout()
        grid.setSpacing(8)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(0, 1)
        grid.setRowStretch(1, 1)
        for i, panel in enumerate(self.panels):
            grid.addWidget(panel, i // 2, i % 2)
        right = QVBoxLayout()
        right.setSpacing(8)
        right.addWidget(self.summary)
        right.addLayout(grid, 1)
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
        self.lesson = LessonPresenter(self.controller, self.lesson_pane, self.highlight, self.animator, self)
        self.lesson.changed.connect(self._show_lesson_title)
        self._build_menus()
        self._build_lesson_keys()

        c = self.controller
        self.controls.params_edited.connect(self._apply_edit)
        self.controls.row_edited.connect(c.set_row)
        c.params_changed.connect(self.controls.show_params)
        c.row_changed.connect(self.controls.show_row)
        c.row_changed.connect(self._show_row)
        c.result_changed.connect(self._show_result)
        c.sweeps_changed.connect(self._show_sweeps)
        self.controls.show_params(c.params)
        c.flush()

    # --- menus ---------------------------------------------------------------------------
    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self.quit_action = QAction("&Quit", self, shortcut=QKeySequence.StandardKey.Quit,
                                   triggered=self.close)
        file_menu.addAction(self.quit_action)
        view = bar.addMenu("&View")
        self.lesson_action = self.lesson_dock.toggleViewAction()
        self.lesson_action.setText("&Lesson pane")
        self.lesson_action.setShortcut("F2")
        view.addAction(self.lesson_action)
        self.raw_action = QAction("&Raw logits", self, shortcut="R",
                                  triggered=lambda: self._apply_edit({"scaling": "none"}))
        self.scaled_action = QAction("Divide by &√d_k", self, shortcut="S",
                                     triggered=lambda: self._apply_edit({"scaling": "sqrt_dk"}))
        self.reset_temp_action = QAction("Reset &temperature", self, shortcut="T",
                                         triggered=lambda: self._apply_edit({"temperature": 1.0}))
        for action in (self.raw_action, self.scaled_action, self.reset_temp_action):
            view.addAction(action)
        help_menu = bar.addMenu("&Help")
        self.about_action = QAction("&About sqrtdk-gui", self, triggered=self.show_about)
        help_menu.addAction(self.about_action)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        # Side columns grow with the window but leave the plots most of a small projector.
        super().resizeEvent(event)
        width = event.size().width()
        need = self.controls.minimumSizeHint().width() + self.controls_scroll.verticalScrollBar().sizeHint().width() + 4
        self.controls_scroll.setFixedWidth(min(360, max(need, round(0.19 * width))))
        self.resizeDocks([self.lesson_dock], [min(480, max(260, round(0.23 * width)))],
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

    def highlight(self, names) -> None:
        """Point the class at some panels (lesson steps); others lose their accent border."""
        names = set(names)
        for name, panel in (("histogram", self.histogram), ("weights", self.weights),
                            ("jacobian", self.jacobian), ("gradient", self.gradient)):
            panel.set_highlighted(name in names)
        self.summary.set_highlighted("summary" in names)

    def _show_lesson_title(self, text: str) -> None:
        self.setWindowTitle(f"{APP_NAME} — {text}" if text else APP_NAME)

    def about_text(self) -> str:
        import numpy
        from PySide6 import __version__ as pyside_version

        return (f"<h2>sqrtdk-gui {__version__}</h2>"
                "<p>Why scaled dot-product attention divides its logits by √d_k.</p>"
                f"<p>PySide6 {pyside_version} · pyqtgraph {pg.__version__} · numpy {numpy.__version__}</p>"
                "<p>MIT licence.</p>")

    def show_about(self) -> None:
        QMessageBox.about(self, "About sqrtdk-gui", self.about_text())

    # --- wiring --------------------------------------------------------------------------
    def _apply_edit(self, changes: dict) -> None:
        self.animator.stop()  # the teacher took over: the lesson's sweep must not fight back
        try:
            self.controller.set_params(**changes)
        except ValueError as exc:  # widgets are range-limited; this is a last line of defence
            self.statusBar().showMessage(str(exc), 5000)

    def _show_result(self, result: Result) -> None:
        row = self.controller.row
        self.summary.show_result(result)
        self.histogram.show_result(result)
        self.weights.show_result(result, row)
        self.jacobian.show_result(result, row)
        self.gradient.show_result(result, row)
        p = result.params
        self.statusBar().showMessage(
            f"d_k = {p.d_k} · {SCALING_LABELS[p.scaling]} · τ = {p.temperature:.2f} · "
            f"n = {p.keys} keys · {p.queries} queries · computed in "
            f"{self.controller.last_compute_ms:.1f} ms")

    def _show_row(self, row: int) -> None:
        result = self.controller.result
        if result is not None:
            self.weights.show_result(result, row)
            self.jacobian.show_result(result, row)

    def _show_sweeps(self, sweeps: dict) -> None:
        self.jacobian.show_sweeps(sweeps)
        self.gradient.show_sweeps(sweeps)

    def render_ready(self) -> None:
        """Bring every panel up to date synchronously (headless rendering, slides)."""
        self.animator.finish()  # a lesson sweep is shown at its end state
        self.controller.flush()
        self.controller.wait_for_sweeps()
        QApplication.processEvents()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.animator.stop()
        self.controller.shutdown()
        super().closeEvent(event)
