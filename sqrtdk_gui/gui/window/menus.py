"""The main window's menus, built from the table of commands (commands.py), in the current language."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from sqrtdk_gui.gui.window.commands import COMMANDS, LANGUAGE_MENU, MENUS, Cmd, key_hint, keys_label, shown

__all__ = ["build_menus"]


def _action(w: Any, cmd: Cmd) -> QAction:  # w: the MainWindow (commands.Window)
    if cmd.make is not None:
        action: QAction = cmd.make(w)
        action.setText(shown(cmd.text))
    else:
        # A language is named in itself, whatever the window speaks.
        native = cmd.name.startswith("language_") and cmd.name != "language_system"
        text = cmd.text if native else shown(cmd.text)
        if cmd.lesson_keys:  # the key router takes these keys: the menu only names them
            text += "\t" + key_hint(cmd)
        elif cmd.mnemonic and keys_label(cmd):  # a page's own keys (practice mode's Alt+letters)
            text += "\t" + keys_label(cmd)
        action = QAction(text, w)
        action.setCheckable(cmd.checkable)
        run = cmd.run
        if run is not None:
            action.triggered.connect(lambda *_, run=run: run(w))
    if cmd.shortcuts:
        action.setShortcuts([QKeySequence(s) for s in cmd.shortcuts])
    if cmd.tip:
        action.setStatusTip(shown(cmd.tip))
    return action


def build_menus(w: Any) -> SimpleNamespace:  # w: the MainWindow (commands.Window)
    """The menus of the window ``w`` in the order of COMMANDS; returns its actions by name
    (``themes``: the theme actions by theme name; ``languages``: the language actions by code,
    None for the system's)."""
    a = SimpleNamespace(themes={}, languages={})
    bar = w.menuBar()
    menus = {key: bar.addMenu(shown(title)) for key, title in MENUS.items()}
    themes = QActionGroup(w)
    languages = QActionGroup(w)
    for cmd in COMMANDS:
        if not cmd.menu:
            continue
        menu = menus[cmd.menu]
        if cmd.name.startswith("language_"):  # View -> Language, a submenu of its own
            if not hasattr(a, "language_menu"):
                menu.addSeparator()
                a.language_menu = menu.addMenu(shown(LANGUAGE_MENU))
            menu = a.language_menu
        if cmd.separator:
            menu.addSeparator()
        if cmd.name == "recent_menu":
            a.recent_menu = menu.addMenu(shown(cmd.text))  # filled by recent.py
            a.recent_menu.setToolTipsVisible(True)
            continue
        action = _action(w, cmd)
        menu.addAction(action)
        setattr(a, cmd.name, action)
        if cmd.name.startswith("theme_"):
            theme = cmd.name.removeprefix("theme_")
            action.setChecked(theme == w.style_.theme)
            themes.addAction(action)
            a.themes[theme] = action
        if cmd.name.startswith("language_"):
            code: str | None = cmd.name.removeprefix("language_")
            code = None if code == "system" else code
            action.setChecked(code == w.language_choice)
            languages.addAction(action)
            a.languages[code] = action
    w.presentation.changed.connect(a.presentation.setChecked)
    # Shortcuts keep working while presentation mode hides the menu bar.
    for menu in menus.values():
        w.addActions([action for action in menu.actions() if not action.isSeparator()])
    return a
