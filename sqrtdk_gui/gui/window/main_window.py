"""The main window: builds the controls, the panels and the menus, and wires them up.

No mathematics here: controls → controller → model; the controller's signals → panels,
each of which binds itself (see docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QLocale, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QDockWidget,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from sqrtdk_gui.core import i18n
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io import presets
from sqrtdk_gui.core.lesson.clips import clip
from sqrtdk_gui.gui import assets
from sqrtdk_gui.gui.announce import Announcer
from sqrtdk_gui.gui.ink import InkOverlay
from sqrtdk_gui.gui.lesson.pane import LessonPane
from sqrtdk_gui.gui.lesson.presenter import LessonPresenter
from sqrtdk_gui.gui.panels import LIVE_PANELS, PAGE_PANELS
from sqrtdk_gui.gui.panels.base import Panel
from sqrtdk_gui.gui.panels.histogram import HistogramPanel
from sqrtdk_gui.gui.panels.summary import SummaryStrip
from sqrtdk_gui.gui.plotting.plot_items import fit_pixmap_cache
from sqrtdk_gui.gui.style import Style, qt_palette
from sqrtdk_gui.gui.window.accessibility import describe_widgets
from sqrtdk_gui.gui.window.animation import DkAnimator
from sqrtdk_gui.gui.window.commands import find, shown
from sqrtdk_gui.gui.window.controller import Controller
from sqrtdk_gui.gui.window.controls import ControlsPanel
from sqrtdk_gui.gui.window.export_actions import ExportActions
from sqrtdk_gui.gui.window.file_dialogs import suggested
from sqrtdk_gui.gui.window.focus_ring import FocusRing
from sqrtdk_gui.gui.window.lesson_files import LessonFiles
from sqrtdk_gui.gui.window.lesson_keys import LessonKeys
from sqrtdk_gui.gui.window.menus import build_menus
from sqrtdk_gui.gui.window.palette_host import PaletteHost
from sqrtdk_gui.gui.window.panel_layout import OPENING_PANELS, PanelLayout
from sqrtdk_gui.gui.window.practice_tab import PracticeTab
from sqrtdk_gui.gui.window.presentation import Presentation
from sqrtdk_gui.gui.window.preset_actions import PresetActions
from sqrtdk_gui.gui.window.projection import Projection
from sqrtdk_gui.gui.window.quiet_tabs import QuietTabWidget
from sqrtdk_gui.gui.window.shortcuts_dialog import ShortcutsDialog
from sqrtdk_gui.gui.window.status_line import StatusLine
from sqrtdk_gui.gui.window.undo import UndoHistory, route_undo_keys

if TYPE_CHECKING:
    from sqrtdk_gui.gui.lab import LabPage

APP_NAME = "sqrtdk-gui"
DEFAULT_SIZE = (1600, 900)
ZOOM_STEP = 1.15
# After the window's first frame, when the page panels (the σ dial) make their plots.
PAGE_PANELS_AFTER_MS = 800
MIN_PLOT = (180, 150)  # pixels of a plot canvas below which Ctrl+= refuses to zoom further

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


def configure_pyqtgraph() -> None:
    """Global pyqtgraph look: white background (projectors wash out dark ones)."""
    pg.setConfigOptions(background="w", foreground="k", antialias=True)


class MainWindow(QMainWindow):
    """The live window: controls column, summary strip and four panels."""

    default_size = DEFAULT_SIZE
    # The commands' actions by name (menus.build_menus), in place of QWidget.actions().
    actions: SimpleNamespace  # type: ignore[assignment]
    # View -> Language chose a language other than the one spoken (None: the system's): the
    # launcher rebuilds the window in it, with its state (gui/launch/app.py).
    language_requested = Signal(object)

    def __init__(self, params: Params | None = None, threaded: bool = True,
                 theme: str = "light", zoom: float = 1.0) -> None:
        super().__init__()
        self.language_choice: str | None = None  # None: the system's language
        self._autoplaying = False
        self._highlighted: tuple[str, ...] = ()
        self._slide_mode = False
        self._shown_once = False
        self._dock_was_visible = False  # the lesson dock, while the lab has its width
        configure_pyqtgraph()
        assets.install_fonts()  # what must fit is measured in the fonts the program ships
        self.style_ = Style(zoom=zoom, theme=theme)
        self.controller = Controller(params, threaded=threaded, parent=self)
        self.setWindowTitle(APP_NAME)
        self.setWindowIcon(assets.icon())
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
        self.panels: dict[str, Panel] = {cls.name: cls(self.style_) for cls in LIVE_PANELS}
        self.histogram = cast(HistogramPanel, self.panels["histogram"])

        grid = self.panel_grid = QGridLayout()
        grid.setSpacing(8)
        right = QVBoxLayout()
        right.setSpacing(8)
        right.addWidget(self.summary)
        # Panels 1-4 on one page; each page panel (the σ dial) on a page of its own beside them.
        self.panel_pages = QuietTabWidget()
        self.panel_pages.setObjectName("panelPages")
        self.panel_pages.setDocumentMode(True)
        grid_page = QWidget()
        grid_page.setLayout(grid)
        grid.setContentsMargins(0, 4, 0, 0)
        self.panel_pages.addTab(grid_page, translate("MainWindow", "Panels 1–{count}").format(count=len(LIVE_PANELS)))
        for cls in PAGE_PANELS:
            panel = self.panels[cls.name] = cls(self.style_)
            self.panel_pages.addTab(panel, getattr(panel, "short_title", cls.name))
        self.panel_layout = PanelLayout(self)
        self.panel_pages.setCornerWidget(self.panel_layout.picker)
        self.arrange_panels(tuple(self.panels))
        right.addWidget(self.panel_pages, 1)
        # The instrument (summary strip and panels) as one widget: practice mode borrows it.
        self.instrument = QWidget()
        self.instrument.setObjectName("instrument")
        right.setContentsMargins(0, 0, 0, 0)
        self.instrument.setLayout(right)
        live = QWidget()
        outer = QHBoxLayout(live)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.addWidget(scroll)
        outer.addWidget(self.instrument, 1)
        self._live_layout = outer
        self.live_page = live
        # Tabs: the live instrument first; other views (the training lab) add pages here.
        self.tabs = QuietTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(live, translate("MainWindow", "Live"))
        # The lab is built when first opened: most lessons never need it, start-up does.
        self._lab_page: LabPage | None = None
        # Its page scrolls rather than make the window taller than a small projector when a
        # long language needs more lines than the screen has.
        self._lab_holder = QScrollArea()
        self._lab_holder.setWidgetResizable(True)
        self._lab_holder.setFrameShape(QScrollArea.Shape.NoFrame)
        self._lab_holder.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        lab_inner = QWidget()
        self._lab_inner = QVBoxLayout(lab_inner)
        self._lab_inner.setContentsMargins(0, 0, 0, 0)
        self._lab_holder.setWidget(lab_inner)
        self.tabs.addTab(self._lab_holder, translate("MainWindow", "Training lab"))
        self._page_policies: dict[QWidget, QSizePolicy] = {}  # each tab page's own size policy (see _on_tab)
        # Practice mode, built when first opened (gui/practice): it borrows the instrument.
        self.practice = PracticeTab(self.tabs, self.controller, self.style_, tuple(self.panels),
                                    veil=self.veil, undo_step=lambda text: self.undo.step(text),
                                    show_status=lambda shown: self.status_label.setVisible(shown),
                                    notify=lambda text: self.notify(text, 8000),
                                    arrange=self._arrange_for_lesson, go_live=self._go_live)
        self.tabs.addTab(self.practice.holder, translate("MainWindow", "Practice"))
        self.tabs.currentChanged.connect(self._on_tab)
        self.setCentralWidget(self.tabs)

        # The lesson: a dock beside the panels, so the class sees text and plots together.
        self.animator = DkAnimator(self.controller, self)
        self.lesson_pane = LessonPane(self.style_)
        self.lesson_dock = QDockWidget(translate("MainWindow", "Lesson"), self)
        self.lesson_dock.setObjectName("lessonDock")
        # In a scroll area: on a small projector at presentation size the pane's parts scroll
        # into view instead of being squeezed over one another.
        pane_scroll = QScrollArea()
        pane_scroll.setObjectName("lessonScroll")
        pane_scroll.setWidget(self.lesson_pane)
        pane_scroll.setWidgetResizable(True)
        pane_scroll.setFrameShape(QFrame.Shape.NoFrame)
        pane_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.lesson_dock.setWidget(pane_scroll)
        self.lesson_scroll = pane_scroll
        # Presentation mode: the dock shows the class's slide, and the pane (the teacher's
        # notes) moves to the presenter view, on the other screen or one key away.
        self.projection = Projection(self)
        self.slide, self.presenter_view = self.projection.slide, self.projection.view
        self.lesson_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                                     | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.lesson_dock.setMinimumWidth(260)
        self.lesson_dock.setMaximumWidth(560)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.lesson_dock)
        self.lesson = LessonPresenter(self.controller, self.lesson_pane, self.highlight, self.animator, self,
                                      veil=self.veil, hold_axis=self.histogram.set_fixed_half,
                                      slide=self.slide)
        self.lesson.changed.connect(self._show_lesson_title)
        self.lesson.changed.connect(self.projection.show_pages)
        self.lesson_pane.bug_clicked.connect(self.practice.open)  # a trap page's "bug:KEY" link
        # A teacher's lesson file: its pages, parameters, questions, hidden and locked controls.
        self.lesson_files = LessonFiles(self, self.lesson, self.controller, self.controls,
                                        stop_autoplay=lambda: self.set_autoplay(False),
                                        forget_undo=lambda: self.undo.stack.clear(),
                                        show_status=lambda text: self.notify(text, 8000),
                                        suggested=suggested)
        # A permanent line for the state; showMessage stays free for warnings and notices.
        self.status_label = StatusLine(self.controller)
        self.statusBar().addPermanentWidget(self.status_label, 1)
        self.presentation = Presentation(self)
        self.presentation.changed.connect(self._presentation_changed)
        # --- undo, the File menu's commands, accessibility ---
        self.undo = UndoHistory(self)
        self.actions = build_menus(self)
        self.palette_host = PaletteHost(self, self.actions, self.lesson, self.controller, self.panels,
                                        self.notify)
        self.presets = PresetActions(self, self, self.undo, self.notify, self.actions.recent_menu)
        self.recent = self.presets.recent
        self.exports = ExportActions(self, self.controller, self.lesson, self.animator, self.offscreen_twin,
                                     self.notify)
        spins = self.controls.findChildren(QAbstractSpinBox)
        self._undo_keys = route_undo_keys([*spins, *(s.lineEdit() for s in spins)])
        describe_widgets(self)
        # --- end ---
        self._build_lesson_keys()
        self.animator.running_changed.connect(self.controls.show_autoplay)
        self.animator.running_changed.connect(self._hold_for_autoplay)
        self.controls.autoplay_toggled.connect(self.set_autoplay)
        self.controls.autoplay_seconds.connect(self.animator.set_seconds)

        c = self.controller
        self.controls.params_edited.connect(lambda changes: c.edit(**changes))
        c.edit_refused.connect(lambda text: self.notify(_(text), 5000))  # the core's message
        self.controls.row_edited.connect(c.set_row)
        c.params_changed.connect(self.controls.show_params)
        c.row_changed.connect(self.controls.show_row)
        for view in self.views():
            view.bind(c)
        # A screen reader hears what a change did, once the numbers settle.
        self.announcer = Announcer(self, c, self.panels, self.summary)
        self.ink = InkOverlay(self)  # the pen on the projected page (off until Ctrl+P)
        self.lesson.about_to_move.connect(self.ink.clear)
        self.controls.show_params(c.params)
        self.controls.show_row(c.row)
        self.apply_style()
        c.flush()

    def _presentation_changed(self, on: bool) -> None:
        self._arrange_for_lesson()
        self._fit_columns(self.width())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if self.blanked:
            self.blank.setGeometry(self.rect())
        self._fit_columns(event.size().width())
        fit_pixmap_cache(event.size().width(), event.size().height(), self.devicePixelRatioF())

    def _refit_columns(self) -> None:
        self._fit_columns(self.width())

    def _fit_columns(self, width: int) -> None:
        # Side columns grow with the window (and the zoom) but leave the plots most of a
        # small projector; the controls never get narrower than their content (a longer
        # language widens them past 360 px, up to a third of the window).
        z = self.style_.zoom
        need = self.controls.minimumSizeHint().width() + self.controls_scroll.verticalScrollBar().sizeHint().width() + 4
        self.controls_scroll.setFixedWidth(min(max(round(360 * z), need), max(need, round(0.19 * width)),
                                               max(round(360 * z), round(width / 3))))
        self.lesson_dock.setMaximumWidth(round(560 * z))
        presenting = self.presentation.active
        if presenting or self._slide_mode:  # one or two large panels: a wide pane
            dock = min(round(560 * z), max(300, round(0.34 * width)))
        else:
            dock = min(round(480 * z), max(260, round(0.23 * width * z ** 0.5)))
        self.resizeDocks([self.lesson_dock], [dock], Qt.Orientation.Horizontal)

    def _build_lesson_keys(self) -> None:
        # The lesson keys work whatever has focus (lesson_keys.py); the tab bars take no
        # focus, so a first arrow key can never switch pages instead of moving the lesson.
        self.lesson_keys = LessonKeys(self)
        self.focus_ring = FocusRing(self)
        for bar in (self.tabs.tabBar(), self.panel_pages.tabBar()):
            bar.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.live_page.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.live_page.setAccessibleName(translate("MainWindow", "Live panels"))
        self.live_page.setAccessibleDescription(translate("MainWindow", "The lesson keys work here: Page Down reveals "
                                                          "and moves on"))
        self.blank = QWidget(self)  # B or "." (a clicker's blank key): a black screen
        self.blank.setObjectName("blankScreen")
        self.blank.setStyleSheet("QWidget#blankScreen { background: black; }")
        self.blank.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.blank.hide()

    def live_active(self) -> bool:
        """Whether the live page (with the lesson) is in front."""
        return self.tabs.currentWidget() is self.live_page

    @property
    def blanked(self) -> bool:
        return not self.blank.isHidden()

    def toggle_pen(self) -> None:
        """Ctrl+P: the pen on the projected page, and off (the strokes stay until erased or
        the page changes)."""
        self.ink.set_active(not self.ink.active)
        self.actions.pen.setChecked(self.ink.active)

    def set_blank(self, on: bool) -> None:
        """Black out the window (B, "."), or bring it back."""
        if on:
            self.blank.setGeometry(self.rect())
            self.blank.raise_()
        self.blank.setVisible(on)

    def _go_live(self) -> None:
        """The live panels in front, the keyboard on them (leaving practice mode)."""
        self.tabs.setCurrentWidget(self.live_page)
        if self.live_active():
            self.focus_home()

    def focus_home(self) -> None:
        """Give the keyboard focus back to the live page (after a lesson move or a reveal), so
        no slider or button keeps keys meant for the lesson."""
        if self.live_active():
            self.live_page.setFocus(Qt.FocusReason.OtherFocusReason)

    def views(self) -> list[SummaryStrip | Panel]:
        """Everything that draws the controller's numbers: the summary strip and the panels."""
        return [self.summary, *self.panels.values()]

    def veil(self, targets: Iterable[str], covered: Iterable[str] = (), reason: str = "") -> None:
        """Hide what answers the lesson's open question (``targets``) and what would answer a
        later one (``covered``): views by name, summary cells as "summary.<cell>"; empty
        lists uncover everything. ``reason``: why else they are covered (``set_veiled``)."""
        targets, covered = set(targets), set(covered)
        for panel in self.panels.values():
            panel.set_veiled(panel.name in targets | covered,
                             later=panel.name in covered and panel.name not in targets, reason=reason)
        self.summary.set_veiled_cells(t.split(".", 1)[1] for t in targets | covered
                                      if t.startswith("summary."))

    def highlight(self, names: Iterable[str], slide: Iterable[str] | None = None) -> None:
        """Point the class at some views (lesson steps); others lose their accent border.

        A highlighted page panel (the σ dial) comes to the front; any other lesson position
        shows panels 1-4 (D still switches by hand).
        """
        names = set(names)
        self._highlighted = tuple(names if slide is None else slide)  # what a slide shows
        self.panel_layout.forget_pick()
        for view in self.views():
            view.set_highlighted(view.name in names)
        self.show_panel_page(next((cls.name for cls in PAGE_PANELS if cls.name in names), None))
        self._arrange_for_lesson()

    def arrange_panels(self, names: Iterable[str]) -> None:
        """Show these live panels in the grid, large (see panel_layout.py)."""
        self.panel_layout.arrange(names, narrow=self._narrow_page())

    def _narrow_page(self) -> bool:
        """Whether the panels' page is too narrow for two panels side by side."""
        return self.panel_pages.width() < round(880 * self.style_.zoom)

    def _short_page(self) -> bool:
        """Whether the panels' page is too short for two panels one above the other."""
        return self.panel_pages.height() < round(640 * self.style_.zoom)

    def _arrange_for_lesson(self) -> None:
        layout = self.panel_layout
        if self.practice.active():  # practice shows its item's panels, large
            # ... on the page of panels they are on (a lesson page may have left the σ dial's in front)
            self.show_panel_page(next((cls.name for cls in PAGE_PANELS if cls.name in self.practice.panels), None))
            panels = tuple(n for n in self.practice.panels if n in {cls.name for cls in LIVE_PANELS})
            if len(panels) == 2 and self._narrow_page() and self._short_page():
                panels = panels[:1]  # its first: one above the other, neither plot would be readable
            self.arrange_panels(panels)
            self.summary.setVisible(True)
            layout.show_picker(False)
            return
        slide = self.presentation.active or self._slide_mode
        if not slide:  # the desk: all four, or fewer and larger on a small page
            layout.arrange(layout.desk_panels(self._highlighted), narrow=layout.grid_shape()[1] == 1)
            self.summary.setVisible(True)
            layout.show_picker(layout.compact())
            return
        layout.show_picker(False)
        shown = self._highlighted
        # A slide shows the summary strip only where the step is about its numbers.
        self.summary.setVisible("summary" in shown or not shown)
        if not shown and (self._narrow_page() or self._short_page()):
            # No page of its own (the introduction) on a small projector: the lesson's first
            # two panels, readable, rather than four too small to read.
            shown = OPENING_PANELS
        self.arrange_panels(shown)

    @property
    def slide_mode(self) -> bool:
        return self._slide_mode

    def set_slide_mode(self, on: bool) -> None:
        """The window as a slide (exports): the live page in front with the lesson, no menu,
        status line, controls or guesses box, and only the step's own panels, large."""
        if on == self._slide_mode:
            return
        if on:
            self._before_slide = (self.tabs.currentIndex(), not self.controls_scroll.isHidden())
            self.tabs.setCurrentWidget(self.live_page)
        self._slide_mode = on
        self.menuBar().setVisible(not on)
        self.statusBar().setVisible(not on)
        self.projection.set_drawing_slides(on)
        self.lesson_pane.set_slide_mode(on)
        self._fit_columns(self.width())
        if on:
            self.set_controls_visible(False)
        else:
            tab, controls = self._before_slide
            self.set_controls_visible(controls)
            self.tabs.setCurrentIndex(tab)
        self._arrange_for_lesson()

    def show_panel_page(self, name: str | None) -> None:
        """Bring the page of panel ``name`` to the front (None: panels 1-4)."""
        self.panel_pages.setCurrentWidget(self.panels[name] if name else self.panel_pages.widget(0))  # type: ignore[arg-type]  # page 0 exists

    def toggle_dial(self) -> None:
        """D: the σ dial's page and back to panels 1-4 (on a small page: the next panels first)."""
        self.panel_layout.cycle()

    def toggle_lab(self) -> None:
        """L: the training lab, and back to the live panels."""
        self.tabs.setCurrentIndex(0 if self.tabs.currentWidget() is self._lab_holder else 1)
        if self.live_active():
            self.focus_home()

    def run_lab(self) -> None:
        """Ctrl+R: the training lab in front, running what its controls say (if idle)."""
        self.tabs.setCurrentWidget(self._lab_holder)
        page = self.lab_page
        if page.run_button.isEnabled():
            page.run_button.click()

    # --- the projected page and the presenter view (gui/window/projection.py) ------------------
    def toggle_notes(self) -> None:
        self.projection.toggle_notes()

    def lesson_windows(self) -> tuple[QWidget, ...]:
        """The windows whose keys drive the lesson: this one and its presenter view."""
        return (self, self.presenter_view)

    def _show_lesson_title(self, text: str) -> None:
        self.setWindowTitle(f"{APP_NAME} — {text}" if text else APP_NAME)

    @property
    def lab_page(self) -> LabPage:
        """The training-lab page, built on first use."""
        page = self._lab_page
        if page is None:
            from sqrtdk_gui.gui.lab import LabPage  # its modules only when it is opened: start-up

            page = self._lab_page = LabPage(self.style_)
            page.set_projected(self.projection.projected)
            self._lab_inner.addWidget(page)
            page.show()  # a child added to a shown parent is not shown by itself
        return page

    def _on_tab(self, index: int) -> None:
        # The lab and practice need the width the lesson dock takes; the dock comes back with
        # the Live tab. Practice borrows the instrument and gives it back when it is left.
        page = self.tabs.widget(index)
        # A page behind the others sets no minimum size: the live page laid out in a long
        # language must not make the window taller than a small projector while the lab or
        # practice is in front (a tab widget is as large as the largest of its pages).
        policies = self._page_policies
        for other in (self.tabs.widget(i) for i in range(self.tabs.count())):
            assert other is not None  # an index below count()
            policies.setdefault(other, other.sizePolicy())
            other.setSizePolicy(policies[other] if other is page else
                                QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored))
        if page in (self._lab_holder, self.practice.holder):
            if page is self._lab_holder:
                self.lab_page  # noqa: B018 - builds it
            if not self.lesson_dock.isHidden():
                self._dock_was_visible = True
            self.lesson_dock.hide()
        self.ink.clear()  # another page: the pen's strokes were about this one
        if page is not self.practice.holder:
            self.practice.measuring = False  # a practice case still computing: not this page's
        if page is self.practice.holder:
            self.practice.page.hold_instrument(self.instrument)
            self._arrange_for_lesson()
        elif self.instrument.parent() is not self.live_page:
            self._live_layout.addWidget(self.instrument, 1)
            self.instrument.show()
            # The lesson's own covers and highlights, as they were (practice changed them).
            lesson = self.lesson
            lesson.restore(lesson.step, lesson.scenario, answered=lesson.answer_shown)
            self.lesson_files.enforce()  # practice set parameters the lesson locks
            self.panel_layout.arranged = ()
            self._arrange_for_lesson()
        self.status_label.setVisible(page is not self.practice.holder or not self.practice.covered)
        if page not in (self._lab_holder, self.practice.holder) and self._dock_was_visible:
            # Last, once the pages' new size policies are laid out: showing the dock lays the
            # window out at once, and with the page just left still counting its minimum
            # width (practice's, in a long language) beside the dock's, the window would grow
            # past a small projector, for good.
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            self.lesson_dock.show()
            self._dock_was_visible = False

    # --- look: theme, zoom, presentation ----------------------------------------------------
    def apply_style(self) -> None:
        """Re-apply theme and zoom to every widget and redraw the current numbers."""
        s = self.style_
        app = cast(QApplication, QApplication.instance())
        app.setPalette(qt_palette(s.palette))
        base = app.font()
        base.setPointSize(s.pt(11))
        app.setFont(base)  # menus, dialogs, status bar
        for widget in (self.controls, *self.views(), self.lesson_pane):
            widget.apply_style()
        self.ink.set_style(s.palette.highlight, s.zoom)  # the lesson's pointer colour, seen on projectors
        # A slim tab bar: the panels below need the height on a 720-line projector.
        self.panel_pages.tabBar().setFont(s.font(11, bold=True))
        self.panel_pages.setStyleSheet(f"QTabBar::tab {{ padding: {s.pt(2)}px {s.pt(12)}px; }}")
        # The panel picker (a small page): the panels shown, as plain as the tab they are on.
        self.panel_layout.picker.setStyleSheet(
            f"QToolButton {{ font-weight: bold; font-size: {s.pt(11)}pt; padding: 0px {s.pt(5)}px; }}"
            f"QToolButton:checked {{ background: {s.palette.scaled}; color: white; border: none; }}")
        # The page tabs as tall as their words: the style's own lowered unselected tab cut the
        # dots of "Übung" at zoom 1.
        self.tabs.tabBar().setStyleSheet(f"QTabBar::tab {{ padding: {s.pt(3)}px {s.pt(12)}px; "
                                         f"font-size: {s.pt(11)}pt; }}")
        if self._lab_page is not None:
            self._lab_page.apply_style()
        if self.practice.built is not None:
            self.practice.built.apply_style()
        for view in self.views():
            view.refresh()
        self.projection.apply_style()
        self.focus_ring.apply_style(s.palette.highlight, max(3, round(3 * s.zoom)))
        for name, action in self.actions.themes.items():
            action.setChecked(name == s.theme)
        self._fit_columns(self.width())
        # Again once the new fonts' layouts have settled (their size hints lag a turn behind).
        QTimer.singleShot(0, self._refit_columns)

    def set_theme(self, theme: str) -> None:
        self.style_.set_theme(theme)
        self.apply_style()

    def show_language_choice(self, code: str | None, remember: bool = True) -> None:
        """Tick ``code`` in View -> Language (None: the system's) and, unless ``remember`` is
        false (``--lang``: for one run), remember it as the language chosen; no rebuild (the
        window already speaks it)."""
        if remember:
            self.language_choice = code
        for key, action in self.actions.languages.items():
            action.setChecked(key == code)

    def choose_language(self, code: str | None) -> None:
        """Speak ``code`` (None: the system's language): remembered with the state, and asked of
        the launcher, which rebuilds the window in it when it differs from the one spoken."""
        self.show_language_choice(code)
        wanted = code if code is not None else i18n.first_supported(QLocale.system().uiLanguages())
        if wanted != i18n.language():
            self.notify(
                translate("MainWindow", "Switching the language: the window is rebuilt with its state"), 5000)
            self.language_requested.emit(code)

    def set_zoom(self, zoom: float) -> None:
        """Scale every font and line width together (Ctrl+= / Ctrl+- / Ctrl+0)."""
        self.style_.set_zoom(zoom)
        self.apply_style()
        # Larger type: perhaps fewer panels, each still readable; decided once the new style
        # is laid out (arranged in the middle of it, the window could keep a passing height).
        self.panel_layout.schedule()

    def zoom_in(self) -> None:
        """Ctrl+=: larger text and lines, unless a plot would then be squeezed below
        MIN_PLOT pixels (the window cannot grow beyond the screen)."""
        before = self.style_.zoom
        self.set_zoom(before * ZOOM_STEP)
        self._settle()
        # With a tenth to spare: a readout that wraps once more after this takes a line.
        squeezed = [p for p in self.panels.values() if p.isVisible()
                    and (p.canvas.width() < 1.1 * MIN_PLOT[0] or p.canvas.height() < 1.1 * MIN_PLOT[1])]
        if squeezed and self.isVisible():
            self.set_zoom(before)
            self._settle()  # exactly the layout it had
            self.notify(translate("MainWindow", "Text and lines are as large as this window allows "
                                                   "without squeezing the plots (H hides the controls)"), 6000)

    def _settle(self) -> None:
        """Lay out now: the layouts, then the columns refitted once their hints settled."""
        self.panel_layout.flush()
        for _round in range(3):
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            self._refit_columns()
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

    def zoom_out(self) -> None:
        self.set_zoom(self.style_.zoom / ZOOM_STEP)

    def zoom_reset(self) -> None:
        self.set_zoom(1.0)

    def set_controls_visible(self, visible: bool) -> None:
        """Hide the controls column (H): the plots then take the whole width."""
        self.controls_scroll.setVisible(visible)
        self.actions.controls.setText(shown(find("controls").text) if visible
                                      else translate("MainWindow", "Show &controls"))

    def toggle_autoplay(self) -> None:
        self.set_autoplay(not self.animator.running)

    def set_autoplay(self, on: bool) -> None:
        """Sweep d_k from 1 to 4096 and back until paused, so the histogram breathes."""
        if on and "d_k" in self.controller.locked:  # the lesson open locks d_k
            self.controls.show_autoplay(False)
            self.notify(translate("MainWindow", "d_k is locked by the lesson open"), 5000)
        elif on:
            self._autoplaying = True
            self.animator.run(1, 4096, self.controls.speed.value(), ping_pong=True)
        else:
            self.animator.stop()

    def _hold_for_autoplay(self, running: bool) -> None:
        # Autoplay holds the logit axis at the widest logits it reaches (d_k 4096 raw, d_k 1
        # under ÷d_k: as its exported clip does), so the histogram widens or narrows on
        # screen; when it stops, the lesson's own hold (or none) returns.
        if running and self._autoplaying:
            self.histogram.set_fixed_half(clip("autoplay", self.controller.params).held_half)
        elif not running and self._autoplaying:
            self._autoplaying = False
            self.histogram.set_fixed_half(self.lesson.held_half)

    def show_shortcuts(self) -> ShortcutsDialog:
        """Help → Keyboard shortcuts (F1)."""
        dialog = ShortcutsDialog(self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.popup()
        return dialog

    # --- the window's state: presets, defaults, a first start --------------------------------
    def notify(self, text: str, ms: int) -> None:
        """Say ``text`` in the status bar for ``ms`` milliseconds."""
        self.statusBar().showMessage(text, ms)

    def current_state(self) -> presets.State:
        lesson = self.lesson
        return presets.State(params=self.controller.params, step=lesson.step,
                             scenario=lesson.scenario.key if lesson.scenario else None,
                             theme=self.style_.theme, zoom=round(self.style_.zoom, 4),
                             language=self.language_choice)

    def apply_state(self, state: presets.State) -> None:
        """Parameters, lesson position (without its preset), theme and zoom, all at once."""
        self.controller.replace_params(state.params)
        self.lesson.restore(state.step, state.scenario)
        self.lesson_files.enforce()  # what the lesson open locks is the page's, not the state's
        self.style_.set_theme(state.theme)
        self.set_zoom(state.zoom)
        if state.language is not None:  # a preset's language; None keeps the one spoken
            self.choose_language(state.language)

    def restore_default_parameters(self) -> None:
        """Every model parameter back to its default (one undo step); the lesson stays."""
        with self.undo.step(translate("DesktopActions", "Restore default parameters")):
            self.controller.replace_params(Params())
            self.lesson_files.enforce()  # what the lesson open locks stays the page's
        self.notify(translate("DesktopActions", "Parameters restored to their defaults (Ctrl+Z undoes)"), 5000)

    def reset_all_settings(self, confirm: bool = True) -> bool:
        """After a confirmation: parameters, lesson position, theme, zoom, window size, the
        Open recent list and the numbers tables back to a first start. True if done."""
        if confirm:
            answer = QMessageBox.question(
                self, translate("DesktopActions", "Reset all settings"),
                translate("DesktopActions", "Forget every remembered setting? Parameters, lesson position, theme, "
                          "zoom, window size, the Open recent list and practice progress go back to how a first "
                          "start has them."),
                QMessageBox.StandardButton.Reset | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Reset:
                return False
        if self.presentation.active:
            self.presentation.leave()
        with self.undo.step(translate("DesktopActions", "Reset all settings (the Open recent list stays cleared)")):
            self.apply_state(presets.State())
        self.choose_language(None)
        self.set_controls_visible(True)
        self.set_numbers_shown_all(False)
        self.recent.clear()
        self.practice.reset()
        self.showNormal()
        self.resize(*self.default_size)
        self.notify(translate("DesktopActions", "All settings reset to their defaults (Ctrl+Z brings back "
                              "parameters, lesson, theme and zoom)"), 5000)
        return True

    def set_numbers_shown_all(self, on: bool) -> None:
        """Every panel shows its numbers as a table (View → Numbers instead of charts)."""
        for panel in self.panels.values():
            panel.set_numbers_shown(on)
        if self.actions.numbers.isChecked() != on:
            self.actions.numbers.setChecked(on)

    def offscreen_twin(self, zoom: float = 1.0) -> MainWindow:
        """A new window in this one's language, theme and lesson that is never on screen: the
        lesson exports draw their pages in it, so this window, perhaps on a projector, shows
        nothing of them, and the pictures are the ones ``sqrtdk-gui export-slides`` draws."""
        # Made as the command line makes its window (gui/launch/app.py): the same pictures.
        twin = type(self)(threaded=False, theme=self.style_.theme, zoom=zoom)
        twin.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
        twin.show()
        if not self.lesson.plan.is_full:  # the slides of the teacher's lesson open
            twin.lesson_files.apply(self.lesson.plan)
        return twin

    def render_ready(self) -> None:
        """Bring every shown panel up to date synchronously (headless rendering, slides): what
        ``controller.prepare()`` computed off the GUI thread is taken as it is, anything
        still missing is computed here. A panel the window hides draws when it is shown."""
        self.animator.finish()  # a lesson sweep is shown at its end state
        self.controller.flush()
        self.controller.wait_for_sweeps()
        self.lesson.wait_for_evidence()
        if self.practice.built is not None:
            self.practice.built.presenter.wait_for_spread()
        self.status_label.flush()
        QApplication.processEvents()
        self.panel_layout.flush()
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        for view in self.views():  # views that defer some drawing (the σ dial's table)
            if hasattr(view, "flush"):
                view.flush()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        if not self._shown_once:
            self._shown_once = True
            self.fit_to_screen()
            QTimer.singleShot(0, self.focus_home)  # a fresh start: no control holds the keys
            # The page panels (the σ dial) make their plots once the first frame is up and
            # before the class gets to them, off the start-up and off their first visit.
            QTimer.singleShot(PAGE_PANELS_AFTER_MS, self, self._make_page_panels)
        super().showEvent(event)

    def _make_page_panels(self) -> None:
        for panel in self.panels.values():
            if isinstance(panel, PAGE_PANELS):
                panel.make_plots()

    def fit_to_screen(self) -> None:
        """Shrink the window to the screen it opens on (a 1024×768 projector, a laptop)."""
        screen = self.screen()
        # The offscreen platform's 800×800 "screen" is no screen: headless renders and tests
        # keep the size they ask for.
        if (screen is None or self.isFullScreen() or self.isMaximized()
                or QApplication.platformName() == "offscreen"):
            return
        avail = screen.availableGeometry()
        # Room for a window manager's frame and title bar, which geometry() does not include.
        width, height = min(self.width(), avail.width() - 16), min(self.height(), avail.height() - 40)
        if (width, height) != (self.width(), self.height()):
            self.resize(max(width, 320), max(height, 240))
            self.move(avail.topLeft())

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        self.exports.abort()  # first: the window as it was (settings save its state)
        self.presenter_view.close()
        self.lesson_keys.remove()
        self.focus_ring.remove()
        self.presentation.leave()
        if self._lab_page is not None:
            self._lab_page.shutdown()
        self.animator.stop()
        self.controller.shutdown()
        super().closeEvent(event)
