"""The main window's menus and keyboard shortcuts (actions only call window methods)."""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QKeySequence

__all__ = ["build_menus", "SHORTCUTS"]

# What Help -> Keyboard shortcuts lists; the lesson keys are handled by the window itself.
SHORTCUTS = (
    ("→  Space  Page Down", "next lesson step (Page Down: also from a focused slider)"),
    ("←  Page Up", "previous lesson step"),
    ("Home  End  1–5", "first / last / a given lesson step"),
    ("R  /  S", "raw logits  /  divide by √d_k"),
    ("T", "reset the temperature to 1"),
    ("P", "autoplay: sweep d_k up and down"),
    ("F11", "presentation mode (full screen, large type)"),
    ("H", "hide or show the controls column"),
    ("F2", "hide or show the lesson pane"),
    ("Ctrl+=  Ctrl+-  Ctrl+0", "larger / smaller / normal text and lines"),
    ("Ctrl+E", "export the view as PNG"),
    ("Ctrl+O  Ctrl+S", "open / save a preset"),
    ("Tab  Shift+Tab", "move between controls; arrows and Page Up/Down move a focused slider"),
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


def build_menus(w) -> None:
    """File, View and Help menus; actions become attributes of the window ``w``."""
    bar = w.menuBar()
    file_menu = bar.addMenu("&File")
    w.open_preset_action = _action(w, "&Open preset…", w.open_preset_dialog, QKeySequence.StandardKey.Open,
                                   "Load parameters, lesson step and theme from a preset file")
    w.save_preset_action = _action(w, "&Save preset…", w.save_preset_dialog, QKeySequence.StandardKey.Save,
                                   "Save parameters, lesson step and theme to a preset file")
    w.export_png_action = _action(w, "Export view as &PNG…", w.export_png_dialog, "Ctrl+E")
    w.export_svg_action = _action(w, "Export view as S&VG…", w.export_svg_dialog)
    w.export_csv_action = _action(w, "Export numbers as &CSV…", w.export_csv_dialog)
    w.export_slides_action = _action(w, "Export lesson &slides…", w.export_slides_dialog)
    w.quit_action = _action(w, "&Quit", w.close, QKeySequence.StandardKey.Quit)
    for item in (w.open_preset_action, w.save_preset_action, None, w.export_png_action,
                 w.export_svg_action, w.export_csv_action, w.export_slides_action, None, w.quit_action):
        file_menu.addSeparator() if item is None else file_menu.addAction(item)

    view = bar.addMenu("&View")
    w.lesson_action = w.lesson_dock.toggleViewAction()
    w.lesson_action.setText("&Lesson pane")
    w.lesson_action.setShortcut(QKeySequence("F2"))
    w.presentation_action = _action(w, "&Presentation mode", w.presentation.toggle, "F11")
    w.presentation_action.setCheckable(True)
    w.presentation.changed.connect(w.presentation_action.setChecked)
    w.controls_action = _action(w, "&Hide controls", lambda: w.set_controls_visible(w.controls_scroll.isHidden()), "H")
    w.autoplay_action = _action(w, "&Autoplay d_k", w.toggle_autoplay, "P")
    w.raw_action = _action(w, "&Raw logits", lambda: w.apply_edit({"scaling": "none"}), "R")
    w.scaled_action = _action(w, "Divide by &√d_k", lambda: w.apply_edit({"scaling": "sqrt_dk"}), "S")
    w.reset_temp_action = _action(w, "Reset &temperature", lambda: w.apply_edit({"temperature": 1.0}), "T")
    w.zoom_in_action = _action(w, "&Larger text and lines", w.zoom_in, QKeySequence("Ctrl+="))
    w.zoom_out_action = _action(w, "S&maller text and lines", w.zoom_out, QKeySequence("Ctrl+-"))
    w.zoom_reset_action = _action(w, "&Normal size", w.zoom_reset, QKeySequence("Ctrl+0"))
    # Ctrl++ is what many keyboards send for "=" with Shift: accept both.
    w.zoom_in_action.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
    themes = QActionGroup(w)
    w.theme_actions = {}
    for name, text in (("light", "Light theme (projectors)"), ("dark", "Dark theme")):
        action = _action(w, text, lambda _=False, n=name: w.set_theme(n))
        action.setCheckable(True)
        action.setChecked(name == w.style_.theme)
        themes.addAction(action)
        w.theme_actions[name] = action
    for item in (w.lesson_action, w.presentation_action, w.controls_action, None, w.autoplay_action,
                 w.raw_action, w.scaled_action, w.reset_temp_action, None, w.zoom_in_action,
                 w.zoom_out_action, w.zoom_reset_action, None, *w.theme_actions.values()):
        view.addSeparator() if item is None else view.addAction(item)

    help_menu = bar.addMenu("&Help")
    w.shortcuts_action = _action(w, "&Keyboard shortcuts", w.show_shortcuts, "F1")
    w.about_action = _action(w, "&About sqrtdk-gui", w.show_about)
    help_menu.addAction(w.shortcuts_action)
    help_menu.addAction(w.about_action)
