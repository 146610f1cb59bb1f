"""Practice mode's tab in the main window: built on first use, it borrows the instrument
(the summary strip and the panels) and shows each item's case in it.

The window hands it what it uses: the tab widget, the controller, the style, the names of
the panels, and callables for what stays the window's (covering panels, one undo step, the
status line, laying the panels out, going back to the live page).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from sqrtdk_gui.core.practice.scoring import progress_to_json
from sqrtdk_gui.gui.panels.summary import CELLS

if TYPE_CHECKING:
    from sqrtdk_gui.core.attention.params import Params
    from sqrtdk_gui.core.attention.result import Result
    from sqrtdk_gui.gui.practice import PracticePage
    from sqrtdk_gui.gui.style import Style
    from sqrtdk_gui.gui.window.controller import Controller

__all__ = ["PracticeTab", "SUMMARY_CELLS"]

SUMMARY_CELLS = tuple(cell[0] for cell in CELLS)

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


class PracticeTab:
    """Practice mode's page, its settings and its case in the panels.

    ``veil(names, reason=...)`` covers panels (and summary cells) of the instrument;
    ``undo_step(text)`` is a context manager making one undo step; ``show_status(visible)``
    shows or hides the status line's parameters; ``notify(text)`` says something in the
    status bar; ``arrange()`` lays the panels out for what is in front; ``go_live()`` brings
    the live page to the front with the keyboard focus on it.
    """

    def __init__(self, tabs: QTabWidget, controller: Controller, style: Style, panel_names: tuple[str, ...], *,
                 veil: Callable[..., None], undo_step: Callable[[str], AbstractContextManager[Any]],
                 show_status: Callable[[bool], None], notify: Callable[[str], None],
                 arrange: Callable[[], None], go_live: Callable[[], None]) -> None:
        self._tabs, self._controller, self._style = tabs, controller, style
        self._names = (*panel_names, *(f"summary.{cell}" for cell in SUMMARY_CELLS))
        self._veil, self._undo_step, self._show_status = veil, undo_step, show_status
        self._notify, self._arrange, self._go_live = notify, arrange, go_live
        self.holder = QWidget()  # the tab's page; the practice page goes in when built
        QVBoxLayout(self.holder).setContentsMargins(0, 0, 0, 0)
        self.built: PracticePage | None = None
        self.store: Any = None  # the settings (Settings.practice / save_practice), if any
        self.panels: tuple[str, ...] = ()  # the current item's panels, shown large
        self.covered = False  # the case is covered until the commitment
        self.measuring = False  # ... and until it is computed

    @property
    def page(self) -> PracticePage:
        """Practice mode's page, built on first use (its progress from the settings)."""
        if self.built is None:
            from sqrtdk_gui.gui.practice import PracticePage  # its modules only when it is opened: start-up

            self._controller.result_changed.connect(self._case_computed)
            self.built = PracticePage(self._style, self._show_case, lambda: self._controller.params.seed, self._save)
            layout = self.holder.layout()
            assert layout is not None
            layout.addWidget(self.built)
            self.built.show()
            self.built.presenter.load(None if self.store is None else self.store.practice)
        return self.built

    def active(self) -> bool:
        return self._tabs.currentWidget() is self.holder

    def toggle(self) -> None:
        """I: practice mode, and back to the live panels."""
        if self.active():
            self._go_live()
        else:
            self._tabs.setCurrentWidget(self.holder)

    def open(self, key: str | None = None) -> None:
        """Practice mode in front, on item ``key`` (a bug card from a trap page's link)."""
        self._tabs.setCurrentWidget(self.holder)
        if key:
            self.page.presenter.open(key)

    def command(self, which: str) -> None:
        """Practice mode in front, then its "due", "interview" or "retry" (the menu and the
        palette; on the page its buttons' Alt+D, Alt+K and Alt+T do the same)."""
        self._tabs.setCurrentWidget(self.holder)
        presenter = self.page.presenter
        {"due": presenter.review_due, "interview": presenter.start_interview, "retry": presenter.retry_missed}[which]()

    def set_store(self, store: Any) -> None:
        """Where practice progress is kept (``settings.Settings``); read again if already shown."""
        self.store = store
        if self.built is not None:
            self.built.presenter.load(store.practice)

    def reset(self) -> None:
        """Practice progress forgotten, on screen and in the settings."""
        if self.built is not None:
            self.built.presenter.reset(confirm=False)
        else:
            self._save(progress_to_json({}))

    def _save(self, text: str) -> None:
        if self.store is not None:
            warning = self.store.save_practice(text)
            if warning:
                self._notify(warning)

    def _show_case(self, params: Params | None, panels: Iterable[str]) -> None:
        """A practice item's case: None covers the panels until the commitment; else the
        item's parameters in the live panels (one undo step) with its panels large."""
        self.panels = tuple(panels)
        # The status line names the parameters on screen: the previous item's until the reveal.
        self.covered = params is None
        self._show_status(not self.covered)
        self.measuring = False
        if params is None:
            self._veil(self._names, reason="practice")
        else:
            with self._undo_step(translate("PracticeTab", "Practice: show the case")):
                self._controller.replace_params(params)
            result = self._controller.result
            # Until the case is computed the panels would show the previous one under the
            # answer: they say it is being measured instead, and open when it arrives.
            self.measuring = result is None or result.params != self._controller.params
            self._veil(self._names if self.measuring else (), reason="measuring")
        self._arrange()

    def _case_computed(self, result: Result) -> None:
        """The controller's result arrived: a practice case waiting for it is shown."""
        if self.measuring and self.active() and result.params == self._controller.params:
            self.measuring = False
            self._veil(())
