"""Every command of the main window in one table: its text, keys, tip and what it runs.

The menus (``menus.build_menus``), Help → Keyboard shortcuts (``shortcut_sheet``), the
command palette and the lesson keys (``lesson_keys.LessonKeys``) are all built from
``COMMANDS``: a command added here appears in all four.

Two kinds of keys: ``shortcuts`` are Qt shortcuts of the command's menu action (Ctrl+…, F11,
and single letters, which a focused widget may take first), ``lesson_keys`` are taken by the
window's key router *whatever has focus* (a clicker's Page Down must never move a slider),
so their menu entries only name them after a tab.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from sqrtdk_gui.core.lesson.content import STEPS

__all__ = ["Cmd", "COMMANDS", "MENUS", "THEME_TEXTS", "find", "key_hint", "keys_label", "shortcut_sheet"]

K = Qt.Key
SK = QKeySequence.StandardKey
Window = Any  # the MainWindow (gui/window/main_window.py); a command only calls its methods

MENUS = {"file": "&File", "edit": "&Edit", "lesson": "Less&on", "view": "&View", "help": "&Help"}
THEME_TEXTS = {"light": "Light theme (projectors)", "dark": "Dark theme",
               "high-contrast": "High-contrast theme (washed-out projectors)"}


@dataclass(frozen=True)
class Cmd:
    """One command. ``menu`` "" is a key only (Esc, the step numbers, Tab)."""

    name: str  # its action in ``window.actions``
    menu: str  # a key of MENUS, or ""
    text: str  # the menu text, with its mnemonic
    run: Callable[[Window], object] | None = None  # what it does (None: the widget's own key)
    shortcuts: tuple[str | QKeySequence.StandardKey, ...] = ()
    lesson_keys: tuple[int, ...] = ()
    keys: str = ""  # how the sheet names the keys ("" : from the shortcuts)
    tip: str = ""  # the status tip, and words the palette finds it by
    sheet: str = ""  # its line in Help → Keyboard shortcuts ("" : not listed)
    checkable: bool = False
    separator: bool = False  # a separator before it in its menu
    # Lesson keys only: taken only when this says so (Esc: only with something to leave) ...
    when: Callable[[Window], bool] | None = None
    # ... also while typing and on the lab's page (Esc) ...
    anywhere: bool = False
    # ... and the first press after a blank screen only brings the picture back (not B itself).
    wakes: bool = True
    make: Callable[[Window], Any] | None = None  # builds the action itself (undo, redo, a dock's)


def _escape(w: Window) -> None:
    if w.blanked:
        w.set_blank(False)
    else:
        w.presentation.leave()


def _go_to(number: int) -> Callable[[Window], object]:
    return lambda w: w.lesson.go_to(number)


def _theme(name: str) -> Callable[[Window], object]:
    return lambda w: w.set_theme(name)


def _steps() -> tuple[Cmd, ...]:
    """The number keys 1–9 for the lesson's steps (the palette lists the steps by title)."""
    return tuple(Cmd(f"step_{s.number}", "", f"Step {s.number}", _go_to(s.number),
                     lesson_keys=(K.Key_0 + s.number,), keys=f"1–{len(STEPS)}" if s.number == 1 else "",
                     sheet="a given lesson step" if s.number == 1 else "")
                 for s in STEPS[:9])


COMMANDS: tuple[Cmd, ...] = (
    # --- File ---------------------------------------------------------------------------
    Cmd("open_preset", "file", "&Open preset…", lambda w: w.open_preset_dialog(), (SK.Open,),
        tip="Load parameters, lesson step and theme from a preset file", sheet="open a preset"),
    Cmd("recent_menu", "file", "Open &recent"),  # a submenu, filled by recent.py
    Cmd("save_preset", "file", "&Save preset…", lambda w: w.save_preset_dialog(), (SK.Save,),
        tip="Save parameters, lesson step and theme to a preset file", sheet="save a preset"),
    Cmd("export_png", "file", "Export view as &PNG…", lambda w: w.export_png_dialog(), ("Ctrl+E",),
        tip="The window as it is now, as a PNG image", sheet="export the view as PNG", separator=True),
    Cmd("export_svg", "file", "Export view as S&VG…", lambda w: w.export_svg_dialog(),
        tip="The window as it is now, as an SVG drawing"),
    Cmd("export_csv", "file", "Export numbers as &CSV…", lambda w: w.export_csv_dialog(),
        tip="Every panel's numbers as CSV tables"),
    Cmd("export_slides", "file", "Export lesson &slides…", lambda w: w.export_slides_dialog(),
        tip="Every lesson step, trap and follow-up as a PNG slide"),
    Cmd("export_handout", "file", "Export lesson &handout…", lambda w: w.export_handout_dialog(),
        tip="The whole lesson as one HTML or Markdown file for students"),
    Cmd("export_concept_test", "file", "Export concept &test…", lambda w: w.export_concept_test_dialog(),
        tip="Practice mode's questions and bug cards as a pre/post concept test with an answer key (HTML or Markdown)"),
    Cmd("quit", "file", "&Quit", lambda w: w.close(), ("Ctrl+Q",), sheet="quit", separator=True),
    # --- Edit ---------------------------------------------------------------------------
    Cmd("undo", "edit", "&Undo", shortcuts=(SK.Undo,),
        sheet="undo a change or a lesson move (a drag is one step)",
        make=lambda w: w.undo.stack.createUndoAction(w, "&Undo")),
    Cmd("redo", "edit", "&Redo", shortcuts=("Ctrl+Shift+Z", "Ctrl+Y"), sheet="redo",
        make=lambda w: w.undo.stack.createRedoAction(w, "&Redo")),
    Cmd("restore_params", "edit", "Restore default &parameters", lambda w: w.restore_default_parameters(),
        tip="Every model parameter back to its default (undo brings them back)", separator=True),
    Cmd("reset_settings", "edit", "Reset &all settings…", lambda w: w.reset_all_settings(),
        tip="Forget theme, zoom, window size, last state, Open recent and practice progress (asks first)"),
    # --- Lesson (its keys work whatever has focus) ----------------------------------------
    Cmd("lesson_next", "lesson", "&Next (reveal, then the next step)", lambda w: w.lesson.advance(),
        lesson_keys=(K.Key_PageDown, K.Key_Right, K.Key_Space), keys="Page Down  →  Space",
        tip="At an open question: reveal the answer; then the next step",
        sheet="next: reveal an open question's answer, then move on (a clicker's forward key)"),
    Cmd("lesson_back", "lesson", "&Back", lambda w: w.lesson.back(), lesson_keys=(K.Key_PageUp, K.Key_Left),
        keys="Page Up  ←", tip="The previous step", sheet="back one step"),
    Cmd("lesson_reveal", "lesson", "&Reveal the answer", lambda w: w.lesson.reveal(),
        lesson_keys=(K.Key_Return, K.Key_Enter), keys="Return",
        tip="Show the answer, the covered panels and the step's animation",
        sheet="reveal the answer and play the step's animation"),
    Cmd("lesson_first", "lesson", "&First step", lambda w: w.lesson.first(), lesson_keys=(K.Key_Home,),
        keys="Home", sheet="the first lesson step"),
    Cmd("lesson_last", "lesson", "La&st step", lambda w: w.lesson.last(), lesson_keys=(K.Key_End,),
        keys="End", sheet="the last step (then its traps and follow-ups)"),
    *_steps(),
    Cmd("blank", "lesson", "B&lank the screen", lambda w: w.set_blank(not w.blanked),
        lesson_keys=(K.Key_B, K.Key_Period), keys="B  .", wakes=False, separator=True,
        tip="A black screen; any lesson key brings the picture back",
        sheet="blank the screen (any lesson key brings it back)"),
    Cmd("escape", "", "Leave", _escape, lesson_keys=(K.Key_Escape,), keys="Esc", anywhere=True,
        when=lambda w: w.blanked or w.presentation.active, sheet="leave presentation mode or a blank screen"),
    Cmd("lab", "lesson", "&Training lab", lambda w: w.toggle_lab(), ("L",), separator=True,
        tip="The training lab tab, and back to the live panels",
        sheet="the training lab, and back to the live panels"),
    Cmd("lab_run", "lesson", "R&un the training lab", lambda w: w.run_lab(), ("Ctrl+R",),
        tip="Open the training lab and run it (default: one high rate, a few seconds)",
        sheet="run the training lab (quick default: one high rate)"),
    Cmd("practice", "lesson", "&Practice mode (interview questions, spot the bug)", lambda w: w.toggle_practice(),
        ("I",), tip="Interview practice: commit to an answer, then see it measured in the live panels; bug cards",
        sheet="practice mode: interview questions and spot the bug, and back to the live panels"),
    # --- View ---------------------------------------------------------------------------
    Cmd("lesson", "view", "&Lesson pane", shortcuts=("F2",), sheet="hide or show the lesson pane",
        make=lambda w: w.lesson_dock.toggleViewAction()),
    Cmd("presentation", "view", "&Presentation mode", lambda w: w.presentation.toggle(), ("F11",),
        checkable=True, tip="Full screen, large type, the step's own panels",
        sheet="presentation mode (full screen, large type)"),
    Cmd("controls", "view", "&Hide controls", lambda w: w.set_controls_visible(w.controls_scroll.isHidden()),
        ("H",), sheet="hide or show the controls column"),
    Cmd("dial", "view", "σ &dial page", lambda w: w.toggle_dial(), ("D",),
        tip="Where softmax responds as a function of σ, and where each scaling puts σ",
        sheet="the σ dial page, and back to panels 1–4"),
    Cmd("numbers", "view", "&Numbers instead of charts",
        lambda w: w.set_numbers_shown_all(w.actions.numbers.isChecked()), ("Ctrl+Shift+N",), checkable=True,
        tip="Every panel shows the data it draws as a sortable table (Ctrl+C copies)",
        sheet="numbers instead of charts: each panel's data as a table"),
    Cmd("autoplay", "view", "&Autoplay d_k", lambda w: w.toggle_autoplay(), ("P",), separator=True,
        sheet="autoplay: sweep d_k up and down"),
    Cmd("raw", "view", "&Raw logits", lambda w: w.controller.edit(scaling="none"), ("R",), sheet="raw logits"),
    Cmd("scaled", "view", "Divide by &√d_k", lambda w: w.controller.edit(scaling="sqrt_dk"), ("S",),
        sheet="divide by √d_k"),
    Cmd("reset_temp", "view", "Reset &temperature", lambda w: w.controller.edit(temperature=1.0), ("T",),
        sheet="reset the temperature to 1"),
    # Ctrl++ is what many keyboards send for "=" with Shift: both zoom in.
    Cmd("zoom_in", "view", "&Larger text and lines", lambda w: w.zoom_in(), ("Ctrl+=", "Ctrl++"),
        keys="Ctrl+=", separator=True, sheet="larger text and lines"),
    Cmd("zoom_out", "view", "S&maller text and lines", lambda w: w.zoom_out(), ("Ctrl+-",),
        sheet="smaller text and lines"),
    Cmd("zoom_reset", "view", "&Normal size", lambda w: w.zoom_reset(), ("Ctrl+0",), sheet="normal size"),
    *(Cmd(f"theme_{name}", "view", text, _theme(name), checkable=True,
          separator=i == 0) for i, (name, text) in enumerate(THEME_TEXTS.items())),
    # --- Help ---------------------------------------------------------------------------
    Cmd("palette", "help", "&Command palette…", lambda w: w.show_command_palette(), ("Ctrl+Shift+P",),
        tip="Find any action, lesson step, trap, follow-up or setting by typing",
        sheet="command palette: type to find any action, step, trap or setting"),
    Cmd("shortcuts", "help", "&Keyboard shortcuts", lambda w: w.show_shortcuts(), ("F1",),
        sheet="this list of keys"),
    Cmd("about", "help", "&About sqrtdk-gui", lambda w: w.show_about()),
    Cmd("focus", "", "Move between controls", keys="Tab  Shift+Tab",
        sheet="move between controls; the arrows move a focused slider"),
)


def find(name: str) -> Cmd:
    """The command called ``name``."""
    return next(c for c in COMMANDS if c.name == name)


def keys_label(cmd: Cmd) -> str:
    """The keys of ``cmd`` as the sheet shows them: "Page Down  →  Space", "Ctrl+Shift+Z  Ctrl+Y"."""
    if cmd.keys:
        return cmd.keys
    return "  ".join(QKeySequence(s).toString(QKeySequence.SequenceFormat.NativeText) for s in cmd.shortcuts)


def key_hint(cmd: Cmd) -> str:
    """The first of a command's lesson keys, which its menu entry names after a tab ("" : none)."""
    return keys_label(cmd).split("  ")[0] if cmd.lesson_keys else ""


def shortcut_sheet() -> tuple[tuple[str, str], ...]:
    """Help → Keyboard shortcuts: (keys, what they do), the lesson's keys first."""
    listed = [c for c in COMMANDS if c.sheet]
    lesson = [c for c in listed if c.lesson_keys]
    return tuple((keys_label(c), c.sheet) for c in (*lesson, *(c for c in listed if not c.lesson_keys)))
