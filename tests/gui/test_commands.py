"""The table of commands: the menus, the shortcuts sheet, the palette and the lesson keys all
come from it, and a user's edit reaches undo and the animator through the controller."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from sqrtdk_gui.core.lesson.content import STEPS
from sqrtdk_gui.gui.launch import translations
from sqrtdk_gui.gui.window.commands import COMMANDS, MENUS, find, key_hint, keys_label, shortcut_sheet
from sqrtdk_gui.gui.window.palette_host import _clean

MENU_COMMANDS = [c for c in COMMANDS if c.menu and c.name != "recent_menu"]


def _bound_keys(cmd) -> list[str]:
    return [QKeySequence(s).toString() for s in cmd.shortcuts] + [QKeySequence(k).toString() for k in cmd.lesson_keys]


def test_no_two_commands_share_a_key(qapp):
    seen: dict[str, str] = {}
    for cmd in COMMANDS:
        for key in _bound_keys(cmd):
            assert key not in seen, f"{key}: {seen.get(key)} and {cmd.name}"
            seen[key] = cmd.name
    assert len(seen) > 30


def test_every_key_a_command_has_is_on_the_sheet_with_its_line(qapp):
    sheet = dict(shortcut_sheet())
    for cmd in COMMANDS:
        if cmd.shortcuts or cmd.keys or cmd.mnemonic:
            if cmd.name.startswith("step_") and cmd.name != "step_1":
                continue  # "1–5" is one line
            assert sheet.get(keys_label(cmd)) == cmd.sheet, cmd.name
    assert "1–5" in sheet and len(STEPS) == 5
    # the clicker's keys come first: they are what a teacher looks for
    assert list(sheet)[0].startswith("Page Down")


def test_view_language_lists_the_system_then_each_language_in_itself(window):
    menu = window.actions.language_menu
    assert menu.menuAction() in window.menuBar().actions()[3].menu().actions()  # View
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert texts == ["System language", "English", "Deutsch", "Español", "简体中文"]
    assert [a.isChecked() for a in menu.actions() if not a.isSeparator()] == [True, False, False, False, False]


def test_a_language_added_to_the_table_has_its_menu_entry_and_tip(monkeypatch, qapp):
    from sqrtdk_gui.core import i18n
    from sqrtdk_gui.gui.window import commands

    french = i18n.Language("Français", i18n.N_("Switch the window to French"), decimal=",")
    monkeypatch.setattr(commands, "SPOKEN", {**i18n.SPOKEN, "fr": french})
    entries = {cmd.name: cmd for cmd in commands._languages()}
    assert entries["language_fr"].text == "Français" and entries["language_fr"].tip == french.tip
    translations.install("de")  # a tip of the table, in the window's language
    try:
        assert commands.shown(entries["language_de"].tip) == "Das Fenster auf Deutsch umstellen"
    finally:
        translations.install("en")


def test_the_menus_are_the_table(window):
    bar = window.menuBar()
    titles = [a.text() for a in bar.actions()]
    assert titles == list(MENUS.values())
    for key, title in MENUS.items():
        menu = next(a.menu() for a in bar.actions() if a.text() == title)
        shown = [a for a in menu.actions() if not a.isSeparator() and a.menu() is not window.actions.language_menu]
        expected = [c for c in COMMANDS if c.menu == key and not c.name.startswith("language_")]
        assert len(shown) == len(expected), key
        for action, cmd in zip(shown, expected):
            if cmd.name == "recent_menu":
                assert action.menu() is window.actions.recent_menu
                continue
            assert action is getattr(window.actions, cmd.name)
            text = action.text().partition("\t")[0]
            if cmd.name not in ("undo", "redo", "controls"):  # their texts follow the state
                assert text == cmd.text, cmd.name
            assert [s.toString() for s in action.shortcuts()] == [QKeySequence(s).toString()
                                                                 for s in cmd.shortcuts], cmd.name
            if cmd.tip:
                assert action.statusTip() == cmd.tip
            if cmd.lesson_keys:  # named after a tab, never a Qt shortcut a widget could take
                assert action.text().partition("\t")[2] == key_hint(cmd) != ""
                assert not action.shortcuts()


def test_the_palette_lists_every_menu_command_of_the_table(window):
    titles = {c.title.removesuffix(" (on)").removesuffix(" (off)") for c in window.palette_host.commands()}
    offered = 0
    for cmd in MENU_COMMANDS:
        action = getattr(window.actions, cmd.name)
        title = _clean(action.text().partition("\t")[0])
        if cmd.name == "palette":
            assert title not in titles  # the palette does not list itself
        elif action.isEnabled():  # (undo and redo are disabled with an empty history)
            assert title in titles, cmd.name
            offered += 1
    assert offered == len(MENU_COMMANDS) - 3


def _key(qtbot, key):
    qtbot.keyClick(QApplication.focusWidget() or QApplication.activeWindow(), key)


@pytest.mark.parametrize("name, start", [("lesson_last", 1), ("lesson_first", 4), ("step_3", 1),
                                         ("lesson_back", 3), ("lesson_reveal", 2)])
def test_each_lesson_key_of_the_table_runs_its_command_from_the_live_page(window, qtbot, name, start):
    window.lesson.go_to(start, animate=False)
    window.focus_home()
    qtbot.waitUntil(lambda: window.live_page.hasFocus(), timeout=60_000)
    expected = {"lesson_last": (len(STEPS), None), "lesson_first": (1, None), "step_3": (3, None),
                "lesson_back": (2, None), "lesson_reveal": (2, True)}[name]
    cmd = find(name)
    for key in cmd.lesson_keys:
        window.lesson.go_to(start, animate=False)
        window.focus_home()
        _key(qtbot, Qt.Key(key))
        assert window.lesson.step == expected[0], (name, key)
        if expected[1] is not None:
            assert window.lesson.revealed


def test_blank_and_escape_keys_come_from_the_table(window, qtbot):
    qtbot.waitUntil(lambda: window.live_page.hasFocus(), timeout=60_000)
    for key in find("blank").lesson_keys:
        _key(qtbot, Qt.Key(key))
        assert window.blanked
        _key(qtbot, Qt.Key.Key_Escape)
        assert not window.blanked
    _key(qtbot, Qt.Key.Key_Escape)  # nothing to leave: the key is not taken
    assert not window.blanked and not window.presentation.active


# --- a user's edit: through the controller to undo and the animator --------------------------

def test_an_edit_reaches_undo_and_stops_the_animation_through_the_controller(window, qtbot):
    c = window.controller
    edits = []
    c.edited.connect(lambda before, names: edits.append((before.d_k, names)))
    window.animator.run(1, 4096, 30.0)
    assert window.animator.running
    assert c.edit(temperature=2.0)
    assert not window.animator.running  # the teacher took over
    assert edits == [(c.params.d_k, frozenset({"temperature"}))]
    assert window.undo.stack.count() == 1
    assert window.actions.undo.text().replace("&", "") == "Undo τ → 2"
    window.actions.undo.trigger()
    assert c.params.temperature == 1.0


def test_a_refused_edit_changes_nothing_and_says_why(window, qtbot):
    c = window.controller
    before = c.params
    refused = []
    c.edit_refused.connect(refused.append)
    assert not c.edit(d_k=0)
    assert c.params == before and window.undo.stack.count() == 0
    assert refused and "d_k" in refused[0]
    assert "d_k" in window.statusBar().currentMessage()


def test_the_animators_own_frames_and_the_lessons_sweep_are_not_edits(window, qtbot):
    window.lesson.go_to(1)
    window.lesson.reveal()
    assert window.animator.running  # the step's sweep, started by the lesson
    count = window.undo.stack.count()
    qtbot.wait(200)
    assert window.animator.running and window.undo.stack.count() == count
    window.controller.replace_params(window.controller.params.replace(seed=3))  # a preset, undo
    assert not window.animator.running


@pytest.mark.parametrize("lang", ["en", "de", "es", "zh_CN"])
def test_the_shortcuts_sheet_fits_a_1024x768_projector_at_the_presentation_zoom(make_window, lang):
    from sqrtdk_gui.gui.window.presentation import presentation_zoom
    from sqrtdk_gui.gui.window.shortcuts_dialog import ShortcutsDialog

    translations.install(lang)  # Qt's own key names too ("Strg+Umschalt+Z")
    try:
        window = make_window(size=(1024, 768), zoom=presentation_zoom(768))
        dialog = window.show_shortcuts()
        assert dialog.width() <= 1024 and dialog.height() <= 768
        bar = dialog.scroll_area.verticalScrollBar()
        assert bar.maximum() == 0  # every line on screen: nothing to scroll to
        probe = ShortcutsDialog(window)
        first = probe.text.font().pointSizeF()
        probe.deleteLater()
        if lang == "en":  # the shortest language needs at most two steps down
            assert dialog.text.font().pointSizeF() >= 0.95 ** 2 * first - 0.01
        dialog.close()
    finally:
        translations.install("en")


def test_a_buttons_key_on_the_sheet_is_the_letter_of_the_language_spoken(qapp):
    # The practice buttons' Alt+letters come from their translated labels.
    try:
        for lang in ("en", "de", "es", "zh_CN"):
            translations.install(lang)
            for name, text in (("practice_due", "Review &due"), ("practice_interview", "Moc&k interview"),
                               ("practice_retry", "Re&try missed")):
                label = QCoreApplication.translate("PracticePage", text)
                letter = label[label.index("&") + 1].upper()
                assert keys_label(find(name)) == f"Alt+{letter}", (lang, name)
    finally:
        translations.install("en")
