"""What the projector shows and what the teacher's screen shows, in presentation mode.

The lesson dock holds the lesson pane at the desk; while the window presents (or draws
slides) it holds the class's slide instead, without a title bar, and the pane (the teacher's
notes) moves to the presenter view: a window of its own on the other screen when there are
two, else one key away. The window's tab bars and the panels' Numbers buttons are hidden
on a projected page: nothing there is pressed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget

from sqrtdk_gui.gui.lesson.presenter_view import PresenterView
from sqrtdk_gui.gui.lesson.slide import SlidePane

__all__ = ["Projection", "place_on"]


def place_on(window: QWidget, screen: QScreen, full_screen: bool) -> None:
    """Show the top-level ``window`` on ``screen``: full screen, or maximised in its available room."""
    if window.isVisible() and window.screen() is not screen:
        window.showNormal()  # a window changes screen in its normal state
    handle = window.windowHandle()
    if handle is not None:
        handle.setScreen(screen)
    window.setGeometry(screen.geometry() if full_screen else screen.availableGeometry())
    window.showFullScreen() if full_screen else window.showMaximized()


class Projection:
    """The slide, the presenter view and which screen shows which, for one main window
    (its ``lesson_dock``, ``lesson_scroll``, ``lesson``, ``tabs``, ``panel_pages``,
    ``panels`` and ``presentation``)."""

    def __init__(self, window: Any) -> None:  # the main window (duck-typed: no import cycle)
        self._window = window
        self.slide = SlidePane(window.style_)
        self.slide.hide()
        # A window of its own, not a child: a child window would follow the main one to the projector.
        self.view = PresenterView(window.style_)
        self.view.swap_requested.connect(self.swap_screens)
        window.destroyed.connect(self.view.deleteLater)
        self.projector_is_primary = False  # which screen the class sees (two screens)
        self.presenting = False  # presentation mode's slide and presenter view are up
        self.drawing_slides = False  # an export draws the window as slides

    # --- screens ------------------------------------------------------------------------------
    def screens(self) -> tuple[QScreen | None, QScreen | None]:
        """(projector, teacher's screen): with two screens or more, the class sees one that is
        not the primary (as presentation software does; Swap screens swaps them), the teacher
        the other; with one, both are it (None if the platform has no screens)."""
        screens = QGuiApplication.screens()
        if not screens:
            return None, None
        if len(screens) == 1:
            return screens[0], screens[0]
        primary = QGuiApplication.primaryScreen() or screens[0]
        other = next(s for s in screens if s is not primary)
        return (primary, other) if self.projector_is_primary else (other, primary)

    def two_screens(self) -> bool:
        projector, teacher = self.screens()
        return projector is not None and projector is not teacher

    # --- presenting ---------------------------------------------------------------------------
    def set_presenting(self, on: bool) -> None:
        """The slide in the dock and the notes in the presenter view (``on``), or the pane back."""
        self.presenting = on
        self.show_slide()
        if on:
            self.show_pages()
            self.view.start_clock()
            self.view.set_two_screens(self.two_screens())
        else:
            self.view.stop_clock()
            self.view.hide()

    def set_drawing_slides(self, on: bool) -> None:
        self.drawing_slides = on
        self.show_slide()

    def show_view_on_teachers_screen(self) -> None:
        """With two screens, the presenter view fills the teacher's (the window is on the projector)."""
        projector, teacher = self.screens()
        if projector is not None and teacher is not None and projector is not teacher:
            place_on(self.view, teacher, full_screen=False)

    def swap_screens(self) -> None:
        """The class's slide on the other screen, the presenter view on this one."""
        w = self._window
        if not w.presentation.active or not self.two_screens():
            return
        self.projector_is_primary = not self.projector_is_primary
        w.presentation.move_to(self.screens()[0])
        self.show_view_on_teachers_screen()
        w.activateWindow()

    def toggle_notes(self) -> None:
        """N in presentation mode: the presenter view, or back to the slide (one screen)."""
        if not self._window.presentation.active:
            return
        view = self.view
        if view.isVisible() and not self.two_screens():
            view.hide()
            self._window.activateWindow()
        else:
            view.show()
            view.raise_()
            view.activateWindow()

    def show_pages(self, _text: str = "") -> None:
        """What the projector shows now and what the next press brings, in the presenter view."""
        if self.presenting or self.view.isVisible():
            lesson = self._window.lesson
            self.view.set_pages(lesson.description(), lesson.following())

    # --- the dock ---------------------------------------------------------------------------
    def show_slide(self) -> None:
        """The slide in the dock while presenting or drawing slides, else the lesson pane."""
        w = self._window
        dock, view = w.lesson_dock, self.view
        want = self.presenting or self.drawing_slides
        if want and dock.widget() is not self.slide:
            view.hold(w.lesson_scroll)
            dock.setWidget(self.slide)
            self.slide.show()
            dock.setTitleBarWidget(QWidget())  # no title, no × on the projected page
            self.slide.apply_style()
        elif not want and dock.widget() is self.slide:
            dock.setWidget(view.release())
            self.slide.hide()
            dock.setTitleBarWidget(None)
        shown = not want  # tab bars and Numbers buttons only where they can be pressed
        for bar in (w.tabs.tabBar(), w.panel_pages.tabBar()):
            bar.setVisible(shown)
        for panel in w.panels.values():
            panel.numbers_button.setVisible(shown and panel.lists_numbers)
            panel.set_projected(want)
        if w._lab_page is not None:
            w._lab_page.set_projected(want)

    @property
    def projected(self) -> bool:
        """Whether the window is the class's slide (presenting, or drawing slides)."""
        return self.presenting or self.drawing_slides

    def apply_style(self) -> None:
        self.slide.apply_style()
        self.view.apply_style()
