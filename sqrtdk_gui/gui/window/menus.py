"""The main window's menus and keyboard shortcuts (actions only call window methods)."""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from sqrtdk_gui.gui.lesson.keys import LESSON_KEYS

THEME_TEXTS = {"light": "Light theme (projectors)", "dark": "Dark theme",
               "high-contrast": "High-contrast theme (washed-out projectors)"}

__all__ = ["build_menus", "SHORTCUTS"]

# What Help -> Keyboard shortcuts lists; the lesson keys are handled by the window itself.
SHORTCUTS = (
    *LESSON_KEYS,
    ("L", "the training lab, and back to the live panels"),
    ("Ctrl+R", "run the training lab (its quick default: one high rate, a few seconds)"),
    ("R  /  S", "raw logits  /  divide by √d_k"),
    ("T", "reset the temperature to 1"),
    ("P", "autoplay: sweep d_k up and down"),
    ("F11", "presentation mode (full screen, large type)"),
    ("H", "hide or show the controls column"),
    ("D", "the σ dial page, and back to panels 1–4"),
    ("F2", "hide or show the lesson pane"),
    ("Ctrl+=  Ctrl+-  Ctrl+0", "larger / smaller / normal text and lines"),
    ("Ctrl+E", "export the view as PNG"),
    ("Ctrl+O  Ctrl+S", "open / save a preset"),
    ("Ctrl+Z  Ctrl+Shift+Z (Ctrl+Y)", "undo / redo a parameter change or lesson move (a slider drag is one step)"),
    ("Ctrl+Shift+P", "command palette: find any action, lesson step, trap or setting by typing"),
    ("Ctrl+Shift+N", "numbers instead of charts: every panel's data as a table (Ctrl+C copies)"),
    ("Tab  Shift+Tab", "move between controls; the arrows move a focused slider"),
    ("Ctrl+Q", "quit"),
)


def _action(window, text: str, slot, shortcut=None, tip: str = "") -> QAction:
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setStatusTip(tip)
    action.triggered.connect(slot)
    return action


def build_menus(w) -> SimpleNamespace:
    """File, Edit, View and Help menus of the window ``w``; returns its actions by name."""
    a = SimpleNamespace()
    bar = w.menuBar()
    file_menu = bar.addMenu("&File")
    a.open_preset = _action(w, "&Open preset…", w.open_preset_dialog, QKeySequence.StandardKey.Open,
                                   "Load parameters, lesson step and theme from a preset file")
    a.save_preset = _action(w, "&Save preset…", w.save_preset_dialog, QKeySequence.StandardKey.Save,
                                   "Save parameters, lesson step and theme to a preset file")
    a.export_png = _action(w, "Export view as &PNG…", w.export_png_dialog, "Ctrl+E")
    a.export_svg = _action(w, "Export view as S&VG…", w.export_svg_dialog)
    a.export_csv = _action(w, "Export numbers as &CSV…", w.export_csv_dialog)
    a.export_slides = _action(w, "Export lesson &slides…", w.export_slides_dialog)
    a.export_handout = _action(w, "Export lesson &handout…", w.export_handout_dialog,
                               tip="The whole lesson as one HTML or Markdown file for students")
    a.quit = _action(w, "&Quit", w.close, QKeySequence.StandardKey.Quit)
    a.recent_menu = file_menu.addMenu("Open &recent")  # filled by gui/recent.py
    a.recent_menu.setToolTipsVisible(True)
    for item in (a.open_preset, a.recent_menu, a.save_preset, None, a.export_png,
                 a.export_svg, a.export_csv, a.export_slides, a.export_handout, None, a.quit):
        if item is a.recent_menu:
            file_menu.addMenu(item)
        else:
            file_menu.addSeparator() if item is None else file_menu.addAction(item)

    edit = bar.addMenu("&Edit")
    a.undo = w.undo.stack.createUndoAction(w, "&Undo")
    a.undo.setShortcuts([QKeySequence(QKeySequence.StandardKey.Undo)])
    a.redo = w.undo.stack.createRedoAction(w, "&Redo")
    a.redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    a.restore_params = _action(w, "Restore default &parameters", w.restore_default_parameters,
                               tip="Every model parameter back to its default (undo brings them back)")
    a.reset_settings = _action(w, "Reset &all settings…", lambda: w.reset_all_settings(),
                               tip="Forget theme, zoom, window size, last state and Open recent (asks first)")
    for item in (a.undo, a.redo, None, a.restore_params, a.reset_settings):
        edit.addSeparator() if item is None else edit.addAction(item)

    # The lesson's keys are handled whatever has focus (gui/lesson/keys.py), so these actions
    # carry them as a hint after a tab, not as shortcuts that a focused widget could take.
    lesson_menu = bar.addMenu("Less&on")
    a.lesson_next = _action(w, "&Next (reveal, then the next step)\tPage Down", w.lesson.advance,
                            tip="At an open question: reveal the answer; then the next step")
    a.lesson_back = _action(w, "&Back\tPage Up", w.lesson.back, tip="The previous step")
    a.lesson_reveal = _action(w, "&Reveal the answer\tReturn", w.lesson.reveal,
                              tip="Show the answer, the covered panels and the step's animation")
    a.lesson_first = _action(w, "&First step\tHome", w.lesson.first)
    a.blank = _action(w, "B&lank the screen\tB", lambda: w.set_blank(not w.blanked),
                      tip="A black screen; any lesson key brings the picture back")
    a.lab = _action(w, "&Training lab", w.toggle_lab, "L",
                    "The training lab tab, and back to the live panels")
    a.lab_run = _action(w, "R&un the training lab", w.run_lab, "Ctrl+R",
                        "Open the training lab and run it (default: one high rate, a few seconds)")
    for item in (a.lesson_next, a.lesson_back, a.lesson_reveal, a.lesson_first, None, a.blank,
                 None, a.lab, a.lab_run):
        lesson_menu.addSeparator() if item is None else lesson_menu.addAction(item)

    view = bar.addMenu("&View")
    a.lesson = w.lesson_dock.toggleViewAction()
    a.lesson.setText("&Lesson pane")
    a.lesson.setShortcut(QKeySequence("F2"))
    a.presentation = _action(w, "&Presentation mode", w.presentation.toggle, "F11")
    a.presentation.setCheckable(True)
    w.presentation.changed.connect(a.presentation.setChecked)
    a.controls = _action(w, "&Hide controls", lambda: w.set_controls_visible(w.controls_scroll.isHidden()), "H")
    a.dial = _action(w, "σ &dial page", w.toggle_dial, "D",
                     "Where softmax responds as a function of σ, and where each scaling puts σ")
    a.autoplay = _action(w, "&Autoplay d_k", w.toggle_autoplay, "P")
    a.raw = _action(w, "&Raw logits", lambda: w.apply_edit({"scaling": "none"}), "R")
    a.scaled = _action(w, "Divide by &√d_k", lambda: w.apply_edit({"scaling": "sqrt_dk"}), "S")
    a.reset_temp = _action(w, "Reset &temperature", lambda: w.apply_edit({"temperature": 1.0}), "T")
    a.zoom_in = _action(w, "&Larger text and lines", w.zoom_in, QKeySequence("Ctrl+="))
    a.zoom_out = _action(w, "S&maller text and lines", w.zoom_out, QKeySequence("Ctrl+-"))
    a.zoom_reset = _action(w, "&Normal size", w.zoom_reset, QKeySequence("Ctrl+0"))
    # Ctrl++ is what many keyboards send for "=" with Shift: accept both.
    a.zoom_in.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
    themes = QActionGroup(w)
    a.themes = {}
    for name, text in THEME_TEXTS.items():
        action = _action(w, text, lambda _=False, n=name: w.set_theme(n))
        action.setCheckable(True)
        action.setChecked(name == w.style_.theme)
        themes.addAction(action)
        a.themes[name] = action
    a.numbers = _action(w, "&Numbers instead of charts", lambda on: w.set_numbers_shown_all(on), "Ctrl+Shift+N",
                        "Every panel shows the data it draws as a sortable table (Ctrl+C copies)")
    a.numbers.setCheckable(True)
    for item in (a.lesson, a.presentation, a.controls, a.dial, a.numbers, None, a.autoplay,
                 a.raw, a.scaled, a.reset_temp, None, a.zoom_in,
                 a.zoom_out, a.zoom_reset, None, *a.themes.values()):
        view.addSeparator() if item is None else view.addAction(item)

    help_menu = bar.addMenu("&Help")
    a.shortcuts = _action(w, "&Keyboard shortcuts", w.show_shortcuts, "F1")
    a.palette = _action(w, "&Command palette…", w.show_command_palette, "Ctrl+Shift+P",
                        "Find any action, lesson step, trap, follow-up or setting by typing")
    a.about = _action(w, "&About sqrtdk-gui", w.show_about)
    help_menu.addAction(a.palette)
    help_menu.addAction(a.shortcuts)
    help_menu.addAction(a.about)
    # Shortcuts keep working while presentation mode hides the menu bar.
    for menu in (file_menu, edit, lesson_menu, view, help_menu):
        w.addActions([action for action in menu.actions() if not action.isSeparator()])
    return a
