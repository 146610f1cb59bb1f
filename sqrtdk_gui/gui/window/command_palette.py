"""The command palette (Ctrl+Shift+P, Help menu): find any action, lesson step, trap,
follow-up or setting by typing a few letters of it, and run it with Return.

Matching is forgiving: every word typed must occur in the entry (its title, its kind or its
keywords), in any order, ignoring case, quotes and accents such as "÷√"; entries whose
title starts with what was typed come first. "stable soft" finds the trap “Stable softmax
fixes it” and the setting "Softmax: stable". The entries are in the current language, and so
is what is matched.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

__all__ = ["Command", "match", "CommandPalette", "normalise"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


@dataclass(frozen=True)
class Command:
    title: str  # all texts as shown, in the current language
    kind: str  # a menu, "Lesson", "Trap", "Follow-up", "Setting", ...
    run: Callable[[], None] = field(compare=False)
    keywords: str = ""
    shortcut: str = ""
    lesson_page: bool = False  # a lesson step, trap or follow-up (first on a tie)


_DROP = re.compile(r"[“”\"'‘’&…]")
_WORD = re.compile(r"\w+")


def normalise(text: str) -> str:
    """Lower case, quotes and menu ampersands dropped, accents folded (é → e), d_k kept."""
    text = _DROP.sub("", text).lower()
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _score(command: Command, words: list[str], query: str) -> tuple[bool, int, bool, bool, int] | None:
    title = normalise(command.title)
    hay = " ".join((title, normalise(command.kind), normalise(command.keywords)))
    if not all(w in hay for w in words):
        return None
    title_words = _WORD.findall(title)
    at_start = sum(any(t.startswith(w) for t in title_words) for w in words)
    # On a tie the lesson's own pages come before settings and actions: "d_model" finds the
    # trap before the scaling setting of the same name.
    return (not title.startswith(query), -at_start, not all(w in title for w in words), not command.lesson_page,
            len(title))


def match(commands: list[Command], query: str, limit: int = 200) -> list[Command]:
    """The commands that match ``query``, best first (all of them, in order, for "")."""
    query = normalise(query).strip()
    words = query.split()
    if not words:
        return list(commands)[:limit]
    scored = []
    for i, command in enumerate(commands):
        score = _score(command, words, query)
        if score is not None:
            scored.append((score, i, command))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [c for _, _, c in scored[:limit]]


class CommandPalette(QDialog):
    """A search field above the matching commands. Up/Down choose, Return runs, Esc closes."""

    ran = Signal(str)  # the title of the command that ran

    def __init__(self, commands: list[Command], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("CommandPalette", "Command palette"))
        self.setObjectName("commandPalette")
        self.commands = list(commands)
        self.field = QLineEdit()
        self.field.setObjectName("paletteField")
        self.field.setPlaceholderText(translate("CommandPalette",
                                                "Type a command, a lesson step, a trap or a setting…"))
        self.field.setAccessibleName(translate("CommandPalette", "Command palette search"))
        self.field.setAccessibleDescription(translate("CommandPalette", "Type to find actions, lesson steps, traps, "
                                                      "follow-ups and settings; Up and Down choose, Return runs, "
                                                      "Escape closes"))
        self.field.setClearButtonEnabled(True)
        self.list = QListWidget()
        self.list.setObjectName("paletteList")
        self.list.setAccessibleName(translate("CommandPalette", "Matching commands"))
        self.list.setUniformItemSizes(True)
        self.hint = QLabel()
        self.hint.setObjectName("paletteHint")
        layout = QVBoxLayout(self)
        layout.addWidget(self.field)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.hint)
        self.field.textChanged.connect(self.filter)
        self.field.returnPressed.connect(self.run_current)
        self.list.itemActivated.connect(lambda item: self.run_current())
        self.field.installEventFilter(self)
        self.filter("")

    def filter(self, text: str) -> None:
        self.list.clear()
        found = match(self.commands, text)
        for command in found:
            label = f"{command.title}    — {command.kind}"
            if command.shortcut:
                label += f"  ·  {command.shortcut}"
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, command)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{command.title}, {command.kind}")
            self.list.addItem(item)
        if found:
            self.list.setCurrentRow(0)
        self.hint.setText(translate("CommandPalette", "{found} of {total} · ↑↓ choose · Return runs · Esc closes")
                          .format(found=len(found), total=len(self.commands))
                          if found else translate("CommandPalette", "Nothing matches: try fewer letters"))

    def current(self) -> Command | None:
        item = self.list.currentItem()
        return cast(Command, item.data(Qt.ItemDataRole.UserRole)) if item is not None else None  # set by filter()

    def run_current(self) -> None:
        command = self.current()
        if command is None:
            return
        self.accept()
        command.run()
        self.ran.emit(command.title)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        # Up, Down, Page Up/Down move the choice while the typing stays in the field.
        if obj is self.field and event.type() == event.Type.KeyPress:
            key = cast(QKeyEvent, event).key()  # a KeyPress event
            moves: dict[int, int] = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1,
                                     Qt.Key.Key_PageDown: 8, Qt.Key.Key_PageUp: -8}
            if key in moves and self.list.count():
                row = min(max(self.list.currentRow() + moves[key], 0), self.list.count() - 1)
                self.list.setCurrentRow(row)
                return True
        return super().eventFilter(obj, event)

    def popup(self) -> None:
        """Show above the middle of the parent window, with an empty field."""
        parent = self.parentWidget()
        self.field.clear()
        if parent is not None:
            width = min(760, max(420, parent.width() // 2))
            self.resize(width, min(520, max(300, parent.height() // 2)))
            top = parent.mapToGlobal(parent.rect().topLeft())
            self.move(top.x() + (parent.width() - width) // 2, top.y() + 60)
        self.show()
        self.activateWindow()
        self.field.setFocus()
