"""The window's command palette (Ctrl+Shift+P): its entries and the one palette open at a time.

The entries are every menu command of the table in commands.py (and the Open recent
entries), each lesson step, trap and follow-up, and a few settings, in the current language;
the palette itself (command_palette.py) only filters and runs them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, cast

import shiboken6
from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from sqrtdk_gui.core.attention.params import DTYPES, SOFTMAX_VARIANTS
from sqrtdk_gui.core.attention.scaling import SCALINGS
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.gui.style import SCALING_LABELS
from sqrtdk_gui.gui.window.command_palette import Command, CommandPalette
from sqrtdk_gui.gui.window.commands import COMMANDS, MENUS, key_hint, shown

__all__ = ["PaletteHost", "PALETTE_DKS", "PALETTE_KEYS"]

PALETTE_DKS = (1, 8, 16, 64, 128, 512, 1024, 4096)
PALETTE_KEYS = (16, 64, 256, 1024)

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# The stub says it returns object; it returns its text.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

# The palette's names of the softmax variants and of the kinds of lesson pages.
_SOFTMAX_WORDS = {"stable": QT_TRANSLATE_NOOP("DesktopActions", "stable"),
                  "naive": QT_TRANSLATE_NOOP("DesktopActions", "naive")}
_PAGE_KINDS = {"trap": QT_TRANSLATE_NOOP("DesktopActions", "Trap"),
               "follow-up": QT_TRANSLATE_NOOP("DesktopActions", "Follow-up")}


def _clean(text: str) -> str:
    """A menu text without its mnemonic ampersands and trailing dots."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


class PaletteHost:
    """The palette of one window: ``actions`` (the window's menu actions by command name),
    its ``lesson`` presenter, ``controller`` and ``panels``; ``show_status(text, ms)`` says
    what ran."""

    def __init__(self, parent: QWidget, actions: Any, lesson: Any, controller: Any, panels: Mapping[str, Any],
                 show_status: Callable[[str, int], None]) -> None:
        self._parent = parent
        self._actions, self._lesson, self._controller, self._panels = actions, lesson, controller, panels
        self._show_status = show_status
        self.open: CommandPalette | None = None  # the palette on screen, if any

    def commands(self) -> list[Command]:
        """Every menu command (the table of commands, and the Open recent entries), lesson
        step, trap, follow-up and setting, for the palette, in the current language."""
        commands: list[Command] = []

        def add(action: QAction, where: str, hint: str = "") -> None:
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
                for action in self._actions.recent_menu.actions():
                    if not action.isSeparator():
                        add(action, f"{where} › {_clean(shown(cmd.text))}")
                continue
            add(getattr(self._actions, cmd.name), where, key_hint(cmd))
        lesson, controller = self._lesson, self._controller
        step_kind = translate("DesktopActions", "Lesson")
        setting = translate("DesktopActions", "Setting")
        for step in STEPS:
            commands.append(Command(translate("DesktopActions", "Step {number}: {title}")
                                    .format(number=step.number, title=_(step.title)), step_kind,
                                    partial(lesson.go_to, step.number),
                                    keywords=translate("DesktopActions", "lesson step go to"), lesson_page=True))
        for s in SCENARIOS:
            kind = _PAGE_KINDS.get(s.kind)
            commands.append(Command(_(s.title), translate("DesktopActions", kind) if kind else s.kind.capitalize(),
                                    partial(lesson.choose_scenario, s.key),
                                    keywords=_(s.button) + " " + translate("DesktopActions", "lesson step 5"),
                                    lesson_page=True))
        for scaling in SCALINGS:
            commands.append(Command(translate("DesktopActions", "Scaling: {label}")
                                    .format(label=SCALING_LABELS[scaling]), setting,
                                    partial(controller.edit, scaling=scaling), keywords=scaling))
        for variant in SOFTMAX_VARIANTS:
            word = _SOFTMAX_WORDS.get(variant)
            commands.append(Command(translate("DesktopActions", "Softmax: {variant}")
                                    .format(variant=translate("DesktopActions", word) if word else variant), setting,
                                    partial(controller.edit, softmax=variant), keywords=variant))
        for dtype in DTYPES:
            commands.append(Command(translate("DesktopActions", "Float type: {dtype}").format(dtype=dtype), setting,
                                    partial(controller.edit, dtype=dtype),
                                    keywords=translate("DesktopActions", "precision dtype")))
        for d_k in PALETTE_DKS:
            commands.append(Command(f"d_k = {d_k}", setting, partial(controller.edit, d_k=d_k),
                                    keywords=translate("DesktopActions", "head size dk")))
        for n in PALETTE_KEYS:
            commands.append(Command(translate("DesktopActions", "keys n = {n}").format(n=n), setting,
                                    partial(controller.edit, keys=n),
                                    keywords=translate("DesktopActions", "sequence length")))
        for panel in self._panels.values():
            commands.append(Command(translate("DesktopActions", "Numbers of {panel}").format(panel=panel.title.text()),
                                    translate("DesktopActions", "Data view"), panel.numbers_button.toggle,
                                    keywords=translate("DesktopActions", "table data show hide")))
        return commands

    def _action_runner(self, action: QAction, title: str, where: str) -> Callable[[], None]:
        """Trigger ``action``, or, if its menu was rebuilt since the palette opened (File →
        Open recent makes new actions each time), the action now in its place."""
        def run() -> None:
            if shiboken6.isValid(action):
                action.trigger()
                return
            for command in self.commands():
                if command.title == title and command.kind == where:
                    command.run()
                    return
            self._show_status(translate("DesktopActions", "{title}: no longer in the menu").format(title=title), 5000)

        return run

    def show(self) -> CommandPalette:
        """The palette, with the commands as they are now; one at a time (a second Ctrl+Shift+P
        replaces the open one)."""
        old = self.open
        if old is not None and shiboken6.isValid(old) and old.isVisible():
            old.close()
        palette = CommandPalette(self.commands(), self._parent)
        palette.ran.connect(lambda title: self._show_status(title, 3000))
        palette.finished.connect(palette.deleteLater)
        self.open = palette
        palette.popup()
        return palette
