"""Practice mode's tab in the main window: built on first use, it borrows the instrument
(the summary strip and the panels) and shows each item's case in it.

A mixin so that main_window.py stays about assembly and wiring; it needs the window's
``tabs``, ``controller``, ``panels``, ``undo``, ``veil``, ``style_``, ``statusBar`` and the
``_practice_*`` attributes main_window.py creates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from sqrtdk_gui.gui.panels.summary import CELLS

if TYPE_CHECKING:
    from sqrtdk_gui.gui.practice import PracticePage

__all__ = ["PracticeTab", "SUMMARY_CELLS"]

SUMMARY_CELLS = tuple(cell[0] for cell in CELLS)

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


class PracticeTab:
    """Mixed into MainWindow: practice mode's page, its settings and its case in the panels."""

    @property
    def practice_page(self) -> PracticePage:
        """Practice mode's page, built on first use (its progress from the settings)."""
        if self._practice_page is None:
            from sqrtdk_gui.gui.practice import PracticePage  # its modules only when it is opened: start-up

            self.controller.result_changed.connect(self._practice_case_computed)
            self._practice_page = PracticePage(self.style_, self._show_practice_case,
                                               lambda: self.controller.params.seed, self._save_practice)
            self._practice_holder.layout().addWidget(self._practice_page)
            self._practice_page.show()
            store = self.practice_store
            self._practice_page.presenter.load(None if store is None else store.practice)
        return self._practice_page

    def practice_active(self) -> bool:
        return self.tabs.currentWidget() is self._practice_holder

    def toggle_practice(self) -> None:
        """I: practice mode, and back to the live panels."""
        self.tabs.setCurrentWidget(self.live_page if self.practice_active() else self._practice_holder)
        if self.live_active():
            self.focus_home()

    def open_practice(self, key: str | None = None) -> None:
        """Practice mode in front, on item ``key`` (a bug card from a trap page's link)."""
        self.tabs.setCurrentWidget(self._practice_holder)
        if key:
            self.practice_page.presenter.open(key)

    def practice_command(self, which: str) -> None:
        """Practice mode in front, then its "due", "interview" or "retry" (the menu and the
        palette; on the page its buttons' Alt+D, Alt+K and Alt+T do the same)."""
        self.tabs.setCurrentWidget(self._practice_holder)
        presenter = self.practice_page.presenter
        {"due": presenter.review_due, "interview": presenter.start_interview, "retry": presenter.retry_missed}[which]()

    def set_practice_store(self, store) -> None:
        """Where practice progress is kept (``settings.Settings``); read again if already shown."""
        self.practice_store = store
        if self._practice_page is not None:
            self._practice_page.presenter.load(store.practice)

    def _save_practice(self, text: str) -> None:
        if self.practice_store is not None:
            warning = self.practice_store.save_practice(text)
            if warning:
                self.statusBar().showMessage(warning, 8000)

    def _show_practice_case(self, params, panels) -> None:
        """A practice item's case: None covers the panels until the commitment; else the
        item's parameters in the live panels (one undo step) with its panels large."""
        self._practice_panels = tuple(panels)
        names = tuple(self.panels) + tuple(f"summary.{cell}" for cell in SUMMARY_CELLS)
        # The status line names the parameters on screen: the previous item's until the reveal.
        self._practice_covered = params is None
        self.status_label.setVisible(not self._practice_covered)
        self._practice_measuring = False
        if params is None:
            self.veil(names, reason="practice")
        else:
            with self.undo.step(translate("PracticeTab", "Practice: show the case")):
                self.controller.replace_params(params)
            result = self.controller.result
            # Until the case is computed the panels would show the previous one under the
            # answer: they say it is being measured instead, and open when it arrives.
            self._practice_measuring = result is None or result.params != self.controller.params
            self.veil(names if self._practice_measuring else (), reason="measuring")
        self._arrange_for_lesson()

    def _practice_case_computed(self, result) -> None:
        """The controller's result arrived: a practice case waiting for it is shown."""
        if self._practice_measuring and self.practice_active() and result.params == self.controller.params:
            self._practice_measuring = False
            self.veil(())
