"""What desktop users expect, as window behaviour: undo steps for presets and defaults,
restore defaults, Open recent, About, the command palette and "numbers instead of charts".

A mixin so that main_window.py stays about assembly and wiring; it needs the window's
``controller``, ``lesson``, ``undo`` (gui/undo.py), ``recent`` (gui/recent.py), ``panels``,
``actions`` and the FileActions methods.
"""

from __future__ import annotations

from pathlib import Path

import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMessageBox

from sqrtdk_gui.core.attention.params import DTYPES, SOFTMAX_VARIANTS, Params
from sqrtdk_gui.core.attention.scaling import SCALINGS
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io import presets
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.gui.style import SCALING_LABELS
from sqrtdk_gui.gui.window.command_palette import Command, CommandPalette
from sqrtdk_gui.gui.window.commands import COMMANDS, MENUS, key_hint, shown

__all__ = ["DesktopActions", "PALETTE_DKS", "PALETTE_KEYS"]

PALETTE_DKS = (1, 8, 16, 64, 128, 512, 1024, 4096)
PALETTE_KEYS = (16, 64, 256, 1024)

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

# The palette's names of the softmax variants and of the kinds of lesson pages.
_SOFTMAX_WORDS = {"stable": QT_TRANSLATE_NOOP("DesktopActions", "stable"),
                  "naive": QT_TRANSLATE_NOOP("DesktopActions", "naive")}
_PAGE_KINDS = {"trap": QT_TRANSLATE_NOOP("DesktopActions", "Trap"),
               "follow-up": QT_TRANSLATE_NOOP("DesktopActions", "Follow-up")}


def _clean(text: str) -> str:
    """A menu text without its mnemonic ampersands and trailing dots."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


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

    # --- command palette ---------------------------------------------------------------------
    def palette_commands(self) -> list[Command]:
        """Every menu command (the table of commands, and the Open recent entries), lesson
        step, trap, follow-up and setting, for the palette, in the current language."""
        commands: list[Command] = []

        def add(action, where: str, hint: str = "") -> None:
            if not action.isEnabled() or not action.text():
                return
            state = ""
            if action.isCheckable():
                state = translate("DesktopActions", " (on)") if action.isChecked() else \
                    translate("DesktopActions", " (off)")
            text = action.text().partition("\t")[0]  # "Reveal\tReturn": a key hint
            shortcut = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText) or hint
            title = _clean(text) + state
            commands.append(Command(title, where, self._action_runner(action, title, where),
                                    keywords=f"{action.statusTip()} {action.toolTip()}", shortcut=shortcut))

        for cmd in COMMANDS:
            if not cmd.menu or cmd.name == "palette":
                continue
            where = _clean(shown(MENUS[cmd.menu]))
            if cmd.name == "recent_menu":
                for action in self.actions.recent_menu.actions():
                    if not action.isSeparator():
                        add(action, f"{where} › {_clean(shown(cmd.text))}")
                continue
            add(getattr(self.actions, cmd.name), where, key_hint(cmd))
        lesson = self.lesson
        step_kind = translate("DesktopActions", "Lesson")
        setting = translate("DesktopActions", "Setting")
        for step in STEPS:
            commands.append(Command(translate("DesktopActions", "Step {number}: {title}")
                                    .format(number=step.number, title=_(step.title)), step_kind,
                                    lambda n=step.number: lesson.go_to(n),
                                    keywords=translate("DesktopActions", "lesson step go to"), lesson_page=True))
        for s in SCENARIOS:
            kind = _PAGE_KINDS.get(s.kind)
            commands.append(Command(_(s.title), translate("DesktopActions", kind) if kind else s.kind.capitalize(),
                                    lambda k=s.key: lesson.choose_scenario(k),
                                    keywords=_(s.button) + " " + translate("DesktopActions", "lesson step 5"),
                                    lesson_page=True))
        for scaling in SCALINGS:
            commands.append(Command(translate("DesktopActions", "Scaling: {label}")
                                    .format(label=SCALING_LABELS[scaling]), setting,
                                    lambda v=scaling: self.controller.edit(scaling=v), keywords=scaling))
        for variant in SOFTMAX_VARIANTS:
            word = _SOFTMAX_WORDS.get(variant)
            commands.append(Command(translate("DesktopActions", "Softmax: {variant}")
                                    .format(variant=translate("DesktopActions", word) if word else variant), setting,
                                    lambda v=variant: self.controller.edit(softmax=v), keywords=variant))
        for dtype in DTYPES:
            commands.append(Command(translate("DesktopActions", "Float type: {dtype}").format(dtype=dtype), setting,
                                    lambda v=dtype: self.controller.edit(dtype=v),
                                    keywords=translate("DesktopActions", "precision dtype")))
        for d_k in PALETTE_DKS:
            commands.append(Command(f"d_k = {d_k}", setting, lambda v=d_k: self.controller.edit(d_k=v),
                                    keywords=translate("DesktopActions", "head size dk")))
        for n in PALETTE_KEYS:
            commands.append(Command(translate("DesktopActions", "keys n = {n}").format(n=n), setting,
                                    lambda v=n: self.controller.edit(keys=v),
                                    keywords=translate("DesktopActions", "sequence length")))
        for panel in self.panels.values():
            commands.append(Command(translate("DesktopActions", "Numbers of {panel}").format(panel=panel.title.text()),
                                    translate("DesktopActions", "Data view"), panel.numbers_button.toggle,
                                    keywords=translate("DesktopActions", "table data show hide")))
        return commands

    def _action_runner(self, action, title: str, where: str):
        """Trigger ``action``, or, if its menu was rebuilt since the palette opened (File →
        Open recent makes new actions each time), the action now in its place."""
        def run() -> None:
            if shiboken6.isValid(action):
                action.trigger()
                return
            for command in self.palette_commands():
                if command.title == title and command.kind == where:
                    command.run()
                    return
            self.statusBar().showMessage(translate("DesktopActions", "{title}: no longer in the menu")
                                         .format(title=title), 5000)

        return run

    def show_command_palette(self) -> CommandPalette:
        """The palette, with the commands as they are now; one at a time (a second Ctrl+Shift+P
        replaces the open one)."""
        old = self.command_palette
        if old is not None and shiboken6.isValid(old) and old.isVisible():
            old.close()
        palette = CommandPalette(self.palette_commands(), self)
        palette.ran.connect(lambda title: self.statusBar().showMessage(title, 3000))
        palette.finished.connect(palette.deleteLater)
        self.command_palette = palette
        palette.popup()
        return palette
