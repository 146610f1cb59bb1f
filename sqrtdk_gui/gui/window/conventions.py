"""What desktop users expect, as window behaviour: undo steps for presets and defaults,
restore defaults, Open recent, About and "numbers instead of charts" (the command palette:
palette_host.py).

A mixin so that main_window.py stays about assembly and wiring; it needs the window's
``controller``, ``lesson_files``, ``undo`` (gui/undo.py), ``recent`` (gui/recent.py),
``panels``, ``actions`` and the FileActions methods.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io import presets

__all__ = ["DesktopActions"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


class DesktopActions:
    """Mixed into MainWindow before FileActions (it extends load_preset)."""

    # --- presets: undo steps and Open recent ----------------------------------------------
    def load_preset(self, path: str) -> None:
        """Apply a preset file as one undo step; it joins File → Open recent."""
        with self.undo.step(translate("DesktopActions", "Open preset {name}").format(name=Path(path).name)):
            super().load_preset(path)
        self.recent.add(path)

    def preset_saved(self, path: str) -> None:
        self.recent.add(path)

    def open_recent(self, path: str) -> None:
        """File → Open recent: a file that is gone or unreadable drops out of the list."""
        try:
            self.load_preset(path)
        except presets.PresetError as exc:
            self.recent.forget(path)
            self._fail(translate("DesktopActions", "Cannot open preset"),
                       translate("DesktopActions", "{name}: {reason}. Nothing was changed; it was removed from "
                                 "Open recent.").format(name=Path(path).name, reason=_(str(exc))))

    # --- defaults -------------------------------------------------------------------------
    def restore_default_parameters(self) -> None:
        """Every model parameter back to its default (one undo step); the lesson stays."""
        with self.undo.step(translate("DesktopActions", "Restore default parameters")):
            self.controller.replace_params(Params())
            self.lesson_files.enforce()  # what the lesson open locks stays the page's
        self.statusBar().showMessage(translate("DesktopActions", "Parameters restored to their defaults "
                                               "(Ctrl+Z undoes)"), 5000)

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
        self.statusBar().showMessage(translate("DesktopActions", "All settings reset to their defaults (Ctrl+Z "
                                               "brings back parameters, lesson, theme and zoom)"), 5000)
        return True

    # --- about ------------------------------------------------------------------------------
    def about_text(self) -> str:
        from sqrtdk_gui.gui.window.about import about_html

        return about_html()

    def show_about(self) -> None:
        from sqrtdk_gui.gui.window.about import AboutDialog

        AboutDialog(self).exec()

    # --- numbers instead of charts ----------------------------------------------------------
    def set_numbers_shown_all(self, on: bool) -> None:
        """Every panel shows its numbers as a table (View → Numbers instead of charts)."""
        for panel in self.panels.values():
            panel.set_numbers_shown(on)
        if self.actions.numbers.isChecked() != on:
            self.actions.numbers.setChecked(on)
