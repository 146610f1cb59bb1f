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
from typing import Any, cast

from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeySequence

from sqrtdk_gui.core.i18n import SPOKEN, _
from sqrtdk_gui.core.lesson.content import STEPS
from sqrtdk_gui.gui.window import about

__all__ = ["Cmd", "COMMANDS", "KEY_NAMES", "LANGUAGE_MENU", "MENUS", "THEME_TEXTS", "find", "key_hint",
           "keys_label", "shortcut_sheet", "shown"]

K = Qt.Key
SK = QKeySequence.StandardKey
Window = Any  # the MainWindow (gui/window/main_window.py); a command only calls its methods

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text of the table for lupdate (context "Commands"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

MENUS = {"file": QT_TRANSLATE_NOOP("Commands", "&File"), "edit": QT_TRANSLATE_NOOP("Commands", "&Edit"),
         "lesson": QT_TRANSLATE_NOOP("Commands", "Less&on"), "view": QT_TRANSLATE_NOOP("Commands", "&View"),
         "help": QT_TRANSLATE_NOOP("Commands", "&Help")}
# The names of keys the table writes out (``keys``: names separated by two spaces), marked for
# lupdate one by one; ``keys_label`` shows each in the current language.
KEY_NAMES = (QT_TRANSLATE_NOOP("Commands", "Page Down"), QT_TRANSLATE_NOOP("Commands", "Page Up"),
             QT_TRANSLATE_NOOP("Commands", "Space"), QT_TRANSLATE_NOOP("Commands", "Return"),
             QT_TRANSLATE_NOOP("Commands", "Home"), QT_TRANSLATE_NOOP("Commands", "End"),
             QT_TRANSLATE_NOOP("Commands", "Esc"), QT_TRANSLATE_NOOP("Commands", "Tab"),
             QT_TRANSLATE_NOOP("Commands", "Shift+Tab"), QT_TRANSLATE_NOOP("Commands", "Backspace"))
# View -> Language: the system's, then each language by its own name (never translated: a
# reader finds their language whatever the window speaks); the tips name it in the window's.
LANGUAGE_MENU = QT_TRANSLATE_NOOP("Commands", "&Language")
SYSTEM_LANGUAGE_TIP = QT_TRANSLATE_NOOP("Commands", "Speak the language of the system")
THEME_TEXTS = {"light": QT_TRANSLATE_NOOP("Commands", "Light theme (projectors)"),
               "dark": QT_TRANSLATE_NOOP("Commands", "Dark theme"),
               "high-contrast": QT_TRANSLATE_NOOP("Commands", "High-contrast theme (washed-out projectors)")}


@dataclass(frozen=True)
class Cmd:
    """One command. ``menu`` "" is a key only (Esc, the step numbers, Tab)."""

    name: str  # its action in ``window.actions``
    menu: str  # a key of MENUS, or ""
    # The texts (text, tip, sheet) are English, marked with QT_TRANSLATE_NOOP("Commands", ...):
    # whoever shows one translates it with translate("Commands", ...) (``shown`` does).
    text: str  # the menu text, with its mnemonic
    run: Callable[[Window], object] | None = None  # what it does (None: the widget's own key)
    shortcuts: tuple[str | QKeySequence.StandardKey, ...] = ()
    lesson_keys: tuple[int, ...] = ()
    keys: str = ""  # how the sheet names the keys, two spaces apart ("" : from the shortcuts; see KEY_NAMES)
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
    # A button's Alt+letter, as (context, text) of its translated label: the key is that of the
    # language spoken ("Review &due" is Alt+D; its Chinese label may have another letter).
    mnemonic: tuple[str, str] | None = None


def _escape(w: Window) -> None:
    if w.blanked:
        w.set_blank(False)
    else:
        w.presentation.leave()


def _go_to(number: int) -> Callable[[Window], object]:
    return lambda w: w.lesson.go_to_nth(number)  # the lesson open's n-th step


def _theme(name: str) -> Callable[[Window], object]:
    return lambda w: w.set_theme(name)


def _language(code: str | None) -> Callable[[Window], object]:
    return lambda w: w.choose_language(code)


def _languages() -> tuple[Cmd, ...]:
    """View -> Language: "System language", then every language named in itself."""
    system = Cmd("language_system", "view", QT_TRANSLATE_NOOP("Commands", "System language"), _language(None),
                 checkable=True, tip=SYSTEM_LANGUAGE_TIP)
    return (system, *(Cmd(f"language_{code}", "view", language.name, _language(code), checkable=True,
                          tip=language.tip, separator=i == 0)
                      for i, (code, language) in enumerate(SPOKEN.items())))


def _steps() -> tuple[Cmd, ...]:
    """The number keys 1–9 for the lesson's steps (the palette lists the steps by title)."""
    return tuple(Cmd(f"step_{s.number}", "", f"Step {s.number}", _go_to(s.number),
                     lesson_keys=(K.Key_0 + s.number,), keys=f"1–{len(STEPS)}" if s.number == 1 else "",
                     sheet=QT_TRANSLATE_NOOP("Commands", "a given lesson step") if s.number == 1 else "")
                 for s in STEPS[:9])


COMMANDS: tuple[Cmd, ...] = (
    # --- File ---------------------------------------------------------------------------
    Cmd("open_preset", "file", QT_TRANSLATE_NOOP("Commands", "&Open preset…"), lambda w: w.presets.open_dialog(),
        (SK.Open,),
        tip=QT_TRANSLATE_NOOP("Commands", "Load parameters, lesson step and theme from a preset file"),
        sheet=QT_TRANSLATE_NOOP("Commands", "open a preset")),
    Cmd("recent_menu", "file", QT_TRANSLATE_NOOP("Commands", "Open &recent")),  # a submenu, filled by recent.py
    Cmd("open_state", "file", QT_TRANSLATE_NOOP("Commands", "Open st&ate…"), lambda w: w.presets.open_state_dialog(),
        tip=QT_TRANSLATE_NOOP("Commands", "Open the app as a pasted line describes it (Edit → Copy link text)")),
    Cmd("new_lesson", "file", QT_TRANSLATE_NOOP("Commands", "New &lesson from current…"),
        lambda w: w.lesson_files.new_from_current_dialog(), separator=True,
        tip=QT_TRANSLATE_NOOP("Commands", "Save the lesson's pages, with this page's sample, as a lesson file "
                                          "to edit: choose and order pages, reword questions, hide or lock "
                                          "controls")),
    Cmd("open_lesson", "file", QT_TRANSLATE_NOOP("Commands", "Open l&esson…"), lambda w: w.lesson_files.open_dialog(),
        tip=QT_TRANSLATE_NOOP("Commands", "Teach from a lesson file: its pages in its order, its questions, its "
                                          "controls")),
    Cmd("close_lesson", "file", QT_TRANSLATE_NOOP("Commands", "Close lesson &file"),
        lambda w: w.lesson_files.close(),
        tip=QT_TRANSLATE_NOOP("Commands", "Back to the whole lesson, every control shown")),
    Cmd("save_preset", "file", QT_TRANSLATE_NOOP("Commands", "&Save preset…"), lambda w: w.presets.save_dialog(),
        (SK.Save,),
        tip=QT_TRANSLATE_NOOP("Commands", "Save parameters, lesson step and theme to a preset file"),
        sheet=QT_TRANSLATE_NOOP("Commands", "save a preset")),
    Cmd("export_png", "file", QT_TRANSLATE_NOOP("Commands", "Export view as &PNG…"), lambda w: w.exports.png_dialog(),
        ("Ctrl+E",), separator=True,
        tip=QT_TRANSLATE_NOOP("Commands", "The window as it is now, as a PNG image"),
        sheet=QT_TRANSLATE_NOOP("Commands", "export the view as PNG")),
    Cmd("export_svg", "file", QT_TRANSLATE_NOOP("Commands", "Export view as S&VG…"), lambda w: w.exports.svg_dialog(),
        tip=QT_TRANSLATE_NOOP("Commands", "The window as it is now, as an SVG drawing")),
    Cmd("export_csv", "file", QT_TRANSLATE_NOOP("Commands", "Export numbers as &CSV…"),
        lambda w: w.exports.csv_dialog(),
        tip=QT_TRANSLATE_NOOP("Commands", "Every panel's numbers as CSV tables")),
    Cmd("export_slides", "file", QT_TRANSLATE_NOOP("Commands", "Export lesson &slides…"),
        lambda w: w.exports.slides_dialog(),
        tip=QT_TRANSLATE_NOOP("Commands", "Every lesson step, trap and follow-up as a PNG slide")),
    Cmd("export_slides_pdf", "file", QT_TRANSLATE_NOOP("Commands", "Export slides as P&DF…"),
        lambda w: w.exports.slides_pdf_dialog(),
        tip=QT_TRANSLATE_NOOP("Commands", "Every lesson step, trap and follow-up as a page of one PDF, to print "
                                          "or upload")),
    Cmd("export_animation", "file", QT_TRANSLATE_NOOP("Commands", "Export a&nimation…"),
        lambda w: w.exports.animation_dialog(),
        tip=QT_TRANSLATE_NOOP("Commands", "A sweep of the lesson as an animated GIF or APNG for your own slides")),
    Cmd("export_handout", "file", QT_TRANSLATE_NOOP("Commands", "Export lesson &handout…"),
        lambda w: w.exports.handout_dialog(),
        tip=QT_TRANSLATE_NOOP("Commands", "The whole lesson as one HTML, PDF or Markdown file for students")),
    Cmd("export_concept_test", "file", QT_TRANSLATE_NOOP("Commands", "Export concept &test…"),
        lambda w: w.exports.concept_test_dialog(),
        tip=QT_TRANSLATE_NOOP("Commands", "Practice mode's questions and bug cards as a pre/post concept test "
                                          "with an answer key (HTML, PDF or Markdown)")),
    Cmd("quit", "file", QT_TRANSLATE_NOOP("Commands", "&Quit"), lambda w: w.close(), ("Ctrl+Q",), separator=True,
        sheet=QT_TRANSLATE_NOOP("Commands", "quit")),
    # --- Edit ---------------------------------------------------------------------------
    Cmd("undo", "edit", QT_TRANSLATE_NOOP("Commands", "&Undo"), shortcuts=(SK.Undo,),
        sheet=QT_TRANSLATE_NOOP("Commands", "undo (a drag is one step)"),
        make=lambda w: w.undo.stack.createUndoAction(w, translate("Commands", "&Undo"))),
    Cmd("redo", "edit", QT_TRANSLATE_NOOP("Commands", "&Redo"), shortcuts=("Ctrl+Shift+Z", "Ctrl+Y"),
        sheet=QT_TRANSLATE_NOOP("Commands", "redo"),
        make=lambda w: w.undo.stack.createRedoAction(w, translate("Commands", "&Redo"))),
    Cmd("copy_state", "edit", QT_TRANSLATE_NOOP("Commands", "Copy &link text"), lambda w: w.presets.copy_state_line(),
        tip=QT_TRANSLATE_NOOP("Commands", "One line that opens the app exactly as now, to paste to students "
                                          "(sqrtdk-gui --state \"…\")")),
    Cmd("restore_params", "edit", QT_TRANSLATE_NOOP("Commands", "Restore default &parameters"),
        lambda w: w.restore_default_parameters(), separator=True,
        tip=QT_TRANSLATE_NOOP("Commands", "Every model parameter back to its default (undo brings them back)")),
    Cmd("reset_settings", "edit", QT_TRANSLATE_NOOP("Commands", "Reset &all settings…"),
        lambda w: w.reset_all_settings(),
        tip=QT_TRANSLATE_NOOP("Commands", "Forget theme, zoom, window size, last state, Open recent and practice "
                                          "progress (asks first)")),
    # --- Lesson (its keys work whatever has focus) ----------------------------------------
    Cmd("lesson_next", "lesson", QT_TRANSLATE_NOOP("Commands", "&Next (reveal, then the next step)"),
        lambda w: w.lesson.advance(), lesson_keys=(K.Key_PageDown, K.Key_Right, K.Key_Space),
        keys="Page Down  →  Space",
        tip=QT_TRANSLATE_NOOP("Commands", "At an open question: reveal the answer; then the next step"),
        sheet=QT_TRANSLATE_NOOP("Commands", "next: reveal an open question's answer, then move on "
                                            "(a clicker's forward key)")),
    Cmd("lesson_back", "lesson", QT_TRANSLATE_NOOP("Commands", "&Back"), lambda w: w.lesson.back(),
        lesson_keys=(K.Key_PageUp, K.Key_Left), keys="Page Up  ←",
        tip=QT_TRANSLATE_NOOP("Commands", "The previous step"),
        sheet=QT_TRANSLATE_NOOP("Commands", "back one step")),
    Cmd("lesson_reveal", "lesson", QT_TRANSLATE_NOOP("Commands", "&Reveal the answer"), lambda w: w.lesson.reveal(),
        lesson_keys=(K.Key_Return, K.Key_Enter), keys="Return",
        tip=QT_TRANSLATE_NOOP("Commands", "Show the answer, the covered panels and the step's animation"),
        sheet=QT_TRANSLATE_NOOP("Commands", "reveal the answer and play the step's animation")),
    Cmd("lesson_first", "lesson", QT_TRANSLATE_NOOP("Commands", "&First step"), lambda w: w.lesson.first(),
        lesson_keys=(K.Key_Home,), keys="Home",
        sheet=QT_TRANSLATE_NOOP("Commands", "the first lesson step")),
    Cmd("lesson_last", "lesson", QT_TRANSLATE_NOOP("Commands", "La&st step"), lambda w: w.lesson.last(),
        lesson_keys=(K.Key_End,), keys="End",
        sheet=QT_TRANSLATE_NOOP("Commands", "the last step (then its traps and follow-ups)")),
    *_steps(),
    Cmd("blank", "lesson", QT_TRANSLATE_NOOP("Commands", "B&lank the screen"), lambda w: w.set_blank(not w.blanked),
        lesson_keys=(K.Key_B, K.Key_Period), keys="B  .", wakes=False, separator=True,
        tip=QT_TRANSLATE_NOOP("Commands", "A black screen; any lesson key brings the picture back"),
        sheet=QT_TRANSLATE_NOOP("Commands", "blank the screen (any lesson key brings it back)")),
    Cmd("notes", "lesson", QT_TRANSLATE_NOOP("Commands", "Presenter &notes"), lambda w: w.toggle_notes(),
        lesson_keys=(K.Key_N,), keys="N", when=lambda w: w.presentation.active, wakes=False,
        tip=QT_TRANSLATE_NOOP("Commands", "In presentation mode: the page's whole text, what comes next and the "
                                          "lesson clock, on the teacher's screen"),
        sheet=QT_TRANSLATE_NOOP("Commands", "presenter notes (presentation mode)")),
    Cmd("pen", "lesson", QT_TRANSLATE_NOOP("Commands", "Pen on the pa&ge"), lambda w: w.toggle_pen(), ("Ctrl+P",),
        checkable=True,
        tip=QT_TRANSLATE_NOOP("Commands", "Draw on the projected page with the mouse or a pen tablet (from a clicker: "
                                          "hold its blank button); the keys keep working, a page change clears it, "
                                          "exports leave it out"),
        sheet=QT_TRANSLATE_NOOP("Commands", "pen on the page, and off")),
    Cmd("pen_erase", "", "Erase the pen's strokes", lambda w: w.ink.clear(), lesson_keys=(K.Key_E,), keys="E",
        when=lambda w: w.ink.active, wakes=False, anywhere=True,
        sheet=QT_TRANSLATE_NOOP("Commands", "pen on: erase every stroke")),
    Cmd("pen_undo", "", "Undo the last stroke", lambda w: w.ink.undo(), lesson_keys=(K.Key_Backspace,),
        keys="Backspace", when=lambda w: w.ink.active, wakes=False, anywhere=True,
        sheet=QT_TRANSLATE_NOOP("Commands", "pen on: undo the last stroke")),
    Cmd("escape", "", "Leave", _escape, lesson_keys=(K.Key_Escape,), keys="Esc",
        anywhere=True, when=lambda w: w.blanked or w.presentation.active,
        sheet=QT_TRANSLATE_NOOP("Commands", "leave presentation mode or a blank screen")),
    Cmd("lab", "lesson", QT_TRANSLATE_NOOP("Commands", "&Training lab"), lambda w: w.toggle_lab(), ("L",),
        separator=True,
        tip=QT_TRANSLATE_NOOP("Commands", "The training lab tab, and back to the live panels"),
        sheet=QT_TRANSLATE_NOOP("Commands", "the training lab, and back")),
    Cmd("lab_run", "lesson", QT_TRANSLATE_NOOP("Commands", "R&un the training lab"), lambda w: w.run_lab(),
        ("Ctrl+R",),
        tip=QT_TRANSLATE_NOOP("Commands", "Open the training lab and run it (default: one high rate, a few seconds)"),
        sheet=QT_TRANSLATE_NOOP("Commands", "run the training lab")),
    Cmd("practice", "lesson", QT_TRANSLATE_NOOP("Commands", "&Practice mode (interview questions, spot the bug)"),
        lambda w: w.practice.toggle(), ("I",),
        tip=QT_TRANSLATE_NOOP("Commands", "Interview practice: commit to an answer, then see it measured in the "
                                          "live panels; bug cards"),
        sheet=QT_TRANSLATE_NOOP("Commands", "practice mode, and back")),
    # Practice mode's own keys are its buttons' Alt+letters (no menu shortcut: two bindings of
    # one key would cancel each other); from the menu or the palette, practice mode opens first.
    Cmd("practice_due", "lesson", QT_TRANSLATE_NOOP("Commands", "Practice: review what is &due"),
        lambda w: w.practice.command("due"), mnemonic=("PracticePage", "Review &due"),
        tip=QT_TRANSLATE_NOOP("Commands", "Practice mode on the items the schedule brings back today"),
        sheet=QT_TRANSLATE_NOOP("Commands", "practice: review the items due today")),
    Cmd("practice_interview", "lesson", QT_TRANSLATE_NOOP("Commands", "Practice: mock &interview"),
        lambda w: w.practice.command("interview"), mnemonic=("PracticePage", "Moc&k interview"),
        tip=QT_TRANSLATE_NOOP("Commands", "The main question out loud, then follow-ups chosen by your answers"),
        sheet=QT_TRANSLATE_NOOP("Commands", "practice: a timed mock interview")),
    Cmd("practice_retry", "lesson", QT_TRANSLATE_NOOP("Commands", "Practice: retry the &missed items"),
        lambda w: w.practice.command("retry"), mnemonic=("PracticePage", "Re&try missed"),
        tip=QT_TRANSLATE_NOOP("Commands", "Practice mode on the items answered wrongly, with other numbers"),
        sheet=QT_TRANSLATE_NOOP("Commands", "practice: retry the items answered wrongly")),
    # --- View ---------------------------------------------------------------------------
    Cmd("lesson", "view", QT_TRANSLATE_NOOP("Commands", "&Lesson pane"), shortcuts=("F2",),
        sheet=QT_TRANSLATE_NOOP("Commands", "hide or show the lesson pane"),
        make=lambda w: w.lesson_dock.toggleViewAction()),
    Cmd("presentation", "view", QT_TRANSLATE_NOOP("Commands", "&Presentation mode"), lambda w: w.presentation.toggle(),
        ("F11",), checkable=True,
        tip=QT_TRANSLATE_NOOP("Commands", "Full screen, large type, the step's own panels"),
        sheet=QT_TRANSLATE_NOOP("Commands", "presentation mode (full screen, large type)")),
    Cmd("controls", "view", QT_TRANSLATE_NOOP("Commands", "&Hide controls"),
        lambda w: w.set_controls_visible(w.controls_scroll.isHidden()), ("H",),
        sheet=QT_TRANSLATE_NOOP("Commands", "hide or show the controls column")),
    Cmd("dial", "view", QT_TRANSLATE_NOOP("Commands", "σ &dial page"), lambda w: w.toggle_dial(), ("D",),
        tip=QT_TRANSLATE_NOOP("Commands", "Where softmax responds as a function of σ, and where each scaling puts σ"),
        sheet=QT_TRANSLATE_NOOP("Commands", "the σ dial page, and back to panels 1–4")),
    Cmd("numbers", "view", QT_TRANSLATE_NOOP("Commands", "&Numbers instead of charts"),
        lambda w: w.set_numbers_shown_all(w.actions.numbers.isChecked()), ("Ctrl+Shift+N",), checkable=True,
        tip=QT_TRANSLATE_NOOP("Commands", "Every panel shows the data it draws as a sortable table (Ctrl+C copies)"),
        sheet=QT_TRANSLATE_NOOP("Commands", "numbers instead of charts: each panel's data as a table")),
    Cmd("autoplay", "view", QT_TRANSLATE_NOOP("Commands", "&Autoplay d_k"), lambda w: w.toggle_autoplay(), ("P",),
        separator=True,
        sheet=QT_TRANSLATE_NOOP("Commands", "autoplay: sweep d_k up and down")),
    Cmd("raw", "view", QT_TRANSLATE_NOOP("Commands", "&Raw logits"), lambda w: w.controller.edit(scaling="none"),
        ("R",),
        sheet=QT_TRANSLATE_NOOP("Commands", "raw logits")),
    Cmd("scaled", "view", QT_TRANSLATE_NOOP("Commands", "Divide by &√d_k"),
        lambda w: w.controller.edit(scaling="sqrt_dk"), ("S",),
        sheet=QT_TRANSLATE_NOOP("Commands", "divide by √d_k")),
    Cmd("reset_temp", "view", QT_TRANSLATE_NOOP("Commands", "Reset &temperature"),
        lambda w: w.controller.edit(temperature=1.0), ("T",),
        sheet=QT_TRANSLATE_NOOP("Commands", "reset the temperature to 1")),
    # Ctrl++ is what many keyboards send for "=" with Shift: both zoom in.
    Cmd("zoom_in", "view", QT_TRANSLATE_NOOP("Commands", "&Larger text and lines"), lambda w: w.zoom_in(),
        ("Ctrl+=", "Ctrl++"), keys="Ctrl+=", separator=True,
        sheet=QT_TRANSLATE_NOOP("Commands", "larger text and lines")),
    Cmd("zoom_out", "view", QT_TRANSLATE_NOOP("Commands", "S&maller text and lines"), lambda w: w.zoom_out(),
        ("Ctrl+-",),
        sheet=QT_TRANSLATE_NOOP("Commands", "smaller text and lines")),
    Cmd("zoom_reset", "view", QT_TRANSLATE_NOOP("Commands", "&Normal size"), lambda w: w.zoom_reset(), ("Ctrl+0",),
        sheet=QT_TRANSLATE_NOOP("Commands", "normal size")),
    *(Cmd(f"theme_{name}", "view", text, _theme(name), checkable=True,
          separator=i == 0) for i, (name, text) in enumerate(THEME_TEXTS.items())),
    *_languages(),
    # --- Help ---------------------------------------------------------------------------
    Cmd("palette", "help", QT_TRANSLATE_NOOP("Commands", "&Command palette…"), lambda w: w.palette_host.show(),
        ("Ctrl+Shift+P",),
        tip=QT_TRANSLATE_NOOP("Commands", "Find any action, lesson step, trap, follow-up or setting by typing"),
        sheet=QT_TRANSLATE_NOOP("Commands", "command palette: find anything")),
    Cmd("shortcuts", "help", QT_TRANSLATE_NOOP("Commands", "&Keyboard shortcuts"), lambda w: w.show_shortcuts(),
        ("F1",),
        sheet=QT_TRANSLATE_NOOP("Commands", "this list of keys")),
    Cmd("about", "help", QT_TRANSLATE_NOOP("Commands", "&About sqrtdk-gui"), lambda w: about.AboutDialog(w).exec()),
    Cmd("focus", "", "Move between controls", keys="Tab  Shift+Tab",
        sheet=QT_TRANSLATE_NOOP("Commands", "move between controls")),
)


def find(name: str) -> Cmd:
    """The command called ``name``."""
    return next(c for c in COMMANDS if c.name == name)


def shown(text: str) -> str:
    """A text of the table (a menu text, tip, sheet line or keys) in the current language: from
    Qt's catalogue, else from the core's (the tips of the languages' table, ``i18n.SPOKEN``)."""
    if not text:
        return text
    translated = translate("Commands", text)
    return _(text) if translated == text else translated


def keys_label(cmd: Cmd) -> str:
    """The keys of ``cmd`` as the sheet shows them: "Page Down  →  Space", "Ctrl+Shift+Z  Ctrl+Y"
    (in the current language: the names of keys written out, and Qt's native key names)."""
    if cmd.mnemonic:
        return QKeySequence.mnemonic(translate(*cmd.mnemonic)).toString(QKeySequence.SequenceFormat.NativeText)
    if cmd.keys:
        return "  ".join(shown(key) for key in cmd.keys.split("  "))
    return "  ".join(QKeySequence(s).toString(QKeySequence.SequenceFormat.NativeText) for s in cmd.shortcuts)


def key_hint(cmd: Cmd) -> str:
    """The first of a command's lesson keys, which its menu entry names after a tab ("" : none)."""
    return keys_label(cmd).split("  ")[0] if cmd.lesson_keys else ""


def shortcut_sheet() -> tuple[tuple[str, str], ...]:
    """Help → Keyboard shortcuts: (keys, what they do) in the current language, the lesson's keys first."""
    # A button's Alt+letter has no key where Qt shows no mnemonics (macOS): no line then.
    listed = [c for c in COMMANDS if c.sheet and keys_label(c)]
    lesson = [c for c in listed if c.lesson_keys]
    return tuple((keys_label(c), shown(c.sheet)) for c in (*lesson, *(c for c in listed if not c.lesson_keys)))
