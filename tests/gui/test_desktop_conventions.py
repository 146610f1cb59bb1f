"""What desktop users expect: undo/redo, defaults, Open recent, About, the command palette,
the numbers behind every chart, never colour alone, accessible names and keyboard-only use,
and a high-contrast theme."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from pens import line_look
from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QImage, QPen
from PySide6.QtWidgets import QApplication, QMessageBox

from sqrtdk_gui import __version__
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.environment.about import version_lines
from sqrtdk_gui.core.io import presets
from sqrtdk_gui.gui.launch.app import Launch, prepare_window
from sqrtdk_gui.gui.panels.data_view import to_tsv
from sqrtdk_gui.gui.style import PALETTES, Style, series_look, set_line_style
from sqrtdk_gui.gui.window import undo as undo_module
from sqrtdk_gui.gui.window.about import about_html
from sqrtdk_gui.gui.window.accessibility import interactive_widgets
from sqrtdk_gui.gui.window.command_palette import match
from sqrtdk_gui.gui.window.controls import dk_from_pos, pos_from_dk


@pytest.fixture
def window_params():
    return Params(queries=64, keys=16)


def settle(window):
    window.render_ready()
    QApplication.processEvents()


# --- undo / redo -----------------------------------------------------------------------------

def test_a_slider_drag_is_one_undo_step_and_undo_restores_it(window, qtbot):
    stack = window.undo.stack
    start = window.controller.params
    slider = window.controls.dk_slider
    for pos in range(slider.value() + 1, slider.value() + 30):  # hundreds of values in a real drag
        slider.setValue(pos)
    dragged = window.controller.params.d_k
    assert dragged != start.d_k and stack.count() == 1
    assert window.actions.undo.text().replace("&", "") == f"Undo d_k → {dragged}"
    window.actions.undo.trigger()
    assert window.controller.params == start
    assert window.controls.dk_slider.value() == pos_from_dk(start.d_k)  # the control follows
    assert window.controls.dk_spin.value() == start.d_k
    window.actions.redo.trigger()
    assert window.controller.params.d_k == dragged


def test_edits_of_other_controls_or_after_a_pause_are_separate_steps(window, monkeypatch):
    stack = window.undo.stack
    window.controls.dk_slider.setValue(pos_from_dk(128))
    window.controls.temp_slider.setValue(window.controls.temp_slider.value() + 10)  # another control
    assert stack.count() == 2
    monkeypatch.setattr(undo_module, "MERGE_MS", -1)  # as if the teacher paused
    window.controls.temp_slider.setValue(window.controls.temp_slider.value() + 10)
    assert stack.count() == 3
    for _ in range(3):
        window.actions.undo.trigger()
    assert window.controller.params == Params(queries=64, keys=16)
    assert not window.actions.undo.isEnabled()


def test_a_drag_back_to_where_it_started_leaves_nothing_to_undo(window):
    slider = window.controls.dk_slider
    start = slider.value()
    slider.setValue(start + 5)
    slider.setValue(start)
    assert window.undo.stack.count() == 0 or not window.actions.undo.isEnabled()


def test_lesson_moves_are_steps_and_undo_restores_the_lesson_position(window, qtbot):
    stack = window.undo.stack
    window.controls.dk_slider.setValue(pos_from_dk(100))
    window.lesson.go_to(1, animate=False)
    window.lesson_pane.next_button.click()  # step 2, through the pane
    window.lesson.choose_scenario("stable_softmax")
    assert stack.count() == 4
    assert window.lesson.scenario.key == "stable_softmax"
    window.actions.undo.trigger()
    assert (window.lesson.step, window.lesson.scenario) == (2, None)
    assert window.controller.params == Params(**window.lesson.current().preset)
    window.actions.undo.trigger()
    window.actions.undo.trigger()
    assert window.lesson.step == 0 and window.controller.params.d_k == dk_from_pos(pos_from_dk(100))
    window.actions.redo.trigger()
    assert window.lesson.step == 1


def test_ctrl_z_undoes_from_the_keyboard_even_in_a_spin_box(window, qtbot):
    window.activateWindow()
    keys = window.controls.keys_spin
    keys.setValue(40)
    assert window.controller.params.keys == 40
    keys.setFocus()
    qtbot.keyClick(keys, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.controller.params.keys == 16 and keys.value() == 16
    qtbot.keyClick(keys, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.controller.params.keys == 40


def test_restore_default_parameters_is_one_step_and_keeps_the_lesson(window):
    window.lesson.go_to(2, animate=False)
    window.controls.keys_spin.setValue(100)
    window.actions.restore_params.trigger()
    assert window.controller.params == Params() and window.lesson.step == 2
    window.actions.undo.trigger()
    assert window.controller.params.keys == 100


def test_presets_open_as_one_undo_step(window, tmp_path):
    path = tmp_path / "p.json"
    presets.save(presets.State(params=Params(d_k=300, keys=20), step=3), path)
    window.presets.load(str(path))
    assert window.controller.params.d_k == 300 and window.lesson.step == 3
    window.actions.undo.trigger()
    assert window.controller.params == Params(queries=64, keys=16) and window.lesson.step == 0


# --- defaults and settings --------------------------------------------------------------------

@pytest.mark.parametrize("answer", [QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Reset])
def test_reset_all_settings_asks_first(window, monkeypatch, tmp_path, answer):
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or answer)
    window.set_theme("dark")
    window.set_zoom(1.5)
    window.lesson.go_to(3, animate=False)
    window.recent.add(str(tmp_path / "x.json"))
    (tmp_path / "x.json").write_text("{}")
    window.recent.set_paths([str(tmp_path / "x.json")])
    window.actions.numbers.trigger()
    window.actions.reset_settings.trigger()
    assert len(asked) == 1
    if answer == QMessageBox.StandardButton.Cancel:
        assert window.style_.theme == "dark" and window.lesson.step == 3 and window.recent.paths
        return
    assert window.style_.theme == "light" and window.style_.zoom == 1.0
    assert window.controller.params == Params() and window.lesson.step == 0
    assert window.recent.paths == [] and not window.actions.numbers.isChecked()
    assert not any(p.numbers_shown for p in window.panels.values())
    # Undo brings back what the step changed: parameters, lesson, theme and zoom (the menu
    # says the Open recent list is not part of it).
    assert "Open recent" in window.actions.undo.text()
    window.actions.undo.trigger()
    assert window.style_.theme == "dark" and window.style_.zoom == 1.5 and window.lesson.step == 3
    window.actions.redo.trigger()
    assert window.style_.theme == "light" and window.style_.zoom == 1.0


def test_undoing_a_preset_brings_back_the_theme_but_not_a_zoom_chosen_since(window, tmp_path):
    path = tmp_path / "p.json"
    presets.save(presets.State(params=Params(d_k=300), theme="dark"), path)
    window.presets.load(str(path))
    assert window.style_.theme == "dark"
    window.actions.undo.trigger()
    assert window.style_.theme == "light"
    window.actions.redo.trigger()
    window.set_zoom(1.25)  # not an undo step
    window.controller.edit(d_k=40)
    window.actions.undo.trigger()  # the d_k edit: the zoom stays
    assert window.style_.zoom == 1.25 and window.style_.theme == "dark"


def test_open_recent_lists_presets_and_drops_missing_files_with_a_message(window, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    presets.save(presets.State(params=Params(d_k=33)), a)
    window.presets.load(str(a))
    presets.save(presets.State(params=Params(d_k=44)), b)
    window.recent.add(str(b))  # what File -> Save preset does after writing
    assert window.recent.paths == [str(b), str(a)]
    labels = [x.text() for x in window.recent.actions()]
    assert labels == ["&1 b.json", "&2 a.json"]
    window.recent.actions()[1].trigger()
    assert window.controller.params.d_k == 33
    b.unlink()
    window.actions.recent_menu.aboutToShow.emit()
    assert window.recent.paths == [str(a)]
    assert "no longer there: b.json" in window.statusBar().currentMessage()


def test_a_recent_file_that_became_unreadable_drops_out_with_a_dialog(window, tmp_path, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    window.recent.set_paths([str(bad)])
    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: said.append(text))
    window.recent.actions()[0].trigger()
    assert window.recent.paths == [] and "removed from Open recent" in said[0]


def test_open_recent_is_remembered_between_runs(qtbot, tmp_path, monkeypatch):
    ini = tmp_path / "settings.ini"
    monkeypatch.setenv("SQRTDK_GUI_SETTINGS", str(ini))
    preset = tmp_path / "lesson.json"
    presets.save(presets.State(params=Params(d_k=77)), preset)
    first, settings = prepare_window(Launch())
    qtbot.addWidget(first)
    first.presets.load(str(preset))
    assert settings.save(first.saveGeometry(), first.current_state(), first.recent.paths) is None
    first.close()
    second, _ = prepare_window(Launch())
    qtbot.addWidget(second)
    assert second.recent.paths == [str(preset)]
    second.close()


def test_open_recent_keeps_absolute_paths_only_and_each_once(tmp_path):
    from sqrtdk_gui.gui.window.settings import Settings

    a = str(tmp_path / "a.json")
    ini = tmp_path / "s.ini"
    # A relative path would be read against the next start's folder; the same file twice.
    ini.write_text("[recent]\npresets=" + json.dumps(json.dumps(["lesson.json", a, str(tmp_path / "x" / ".." / "a.json")])) + "\n")
    settings = Settings(str(ini))
    settings.load()
    assert settings.recent == [a]


def test_a_huge_recent_entry_costs_only_itself_and_is_reported(tmp_path):
    from sqrtdk_gui.gui.window.settings import Settings

    good = str(tmp_path / "good.json")
    ini = tmp_path / "s.ini"
    ini.write_text("[recent]\npresets=" + json.dumps(json.dumps(["/" + "x" * 900_000, good])) + "\n")
    settings = Settings(str(ini))
    _, _, warning = settings.load()
    assert settings.recent == [good]
    assert warning == "1 damaged entry left out of Open recent (not a file name this program can reopen)"


def test_two_windows_on_one_settings_file_merge_their_open_recent_lists(tmp_path):
    from sqrtdk_gui.gui.window.settings import Settings

    ini = str(tmp_path / "s.ini")
    state = presets.State(params=Params())
    first, second = Settings(ini), Settings(ini)
    first.load(), second.load()
    a, b, c = (str(tmp_path / f"{name}.json") for name in "abc")
    assert first.save(QByteArray(), state, [a]) is None  # the first window quits
    assert second.save(QByteArray(), state, [b, c]) is None  # the second quits last: a kept
    third = Settings(ini)
    third.load()
    assert third.recent == [b, c, a]
    # A list cleared in one window stays cleared: only what another added since comes back.
    assert third.save(QByteArray(), state, []) is None
    fourth = Settings(ini)
    fourth.load()
    assert fourth.recent == []


def test_a_damaged_recent_list_is_ignored(qtbot, tmp_path):
    from sqrtdk_gui.gui.window.settings import Settings

    ini = tmp_path / "s.ini"
    ini.write_text('[recent]\npresets="[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\n')
    settings = Settings(str(ini))
    settings.load()
    assert settings.recent == []


# --- about and --version -------------------------------------------------------------------------

def test_about_and_version_give_what_a_bug_report_needs(window, monkeypatch):
    lines = version_lines()
    assert lines[0] == f"sqrtdk-gui {__version__}"
    names = [line.split(":")[0] for line in lines[1:]]
    assert names == ["Python", "PySide6 (Qt)", "pyqtgraph", "numpy", "system"]
    assert not [line for line in lines if line.endswith(("unknown", "not installed"))]
    html = about_html()
    for needed in ("MIT", "cite", "Python", "pyqtgraph", "numpy", "Qt runtime", __version__):
        assert needed in html
    from sqrtdk_gui.gui.window.about import AboutDialog, about_lines

    dialog = AboutDialog(window)
    dialog.copy()
    assert QApplication.clipboard().text().splitlines() == about_lines()
    dialog.close()


def test_version_flag_prints_the_same_lines():
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "--version"], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines() == version_lines()


# --- command palette -------------------------------------------------------------------------------

def test_palette_opens_with_ctrl_shift_p_and_jumps_to_stable_softmax(window, qtbot):
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    palette = window.palette_host.open
    assert palette.isVisible()
    qtbot.keyClicks(palette.field, "stable soft")
    assert palette.current().title == "“Stable softmax fixes it”"
    qtbot.keyClick(palette.field, Qt.Key.Key_Return)
    assert window.lesson.scenario.key == "stable_softmax" and not palette.isVisible()
    window.actions.undo.trigger()  # a palette jump is an undo step like any other
    assert window.lesson.scenario is None


def test_palette_finds_every_action_step_scenario_and_setting(window):
    commands = window.palette_host.commands()
    titles = {c.title.split(" (o")[0] for c in commands}
    for name in ("Open preset", "Restore default parameters", "Presentation mode",
                 "High-contrast theme (washed-out projectors)", "About sqrtdk-gui", "Export view as PNG",
                 "Step 3: What reaches the queries", "QK-normalisation", "Scaling: raw logits",
                 "Softmax: naive", "Float type: float16", "d_k = 512", "Numbers instead of charts"):
        assert any(t.startswith(name) for t in titles), name
    assert [c.title for c in match(commands, "reaches")][0] == "Step 3: What reaches the queries"
    assert match(commands, "qk norm")[0].title == "QK-normalisation"
    # on a tie the lesson's page comes before the setting of the same name
    found = match(commands, "d_model")
    assert found[0].kind == "Trap" and any(c.kind == "Setting" for c in found[1:])
    assert match(commands, "zzzz") == []


def test_palette_keys_choose_and_escape_closes(window, qtbot):
    palette = window.palette_host.show()
    qtbot.keyClicks(palette.field, "step")
    first = palette.current()
    qtbot.keyClick(palette.field, Qt.Key.Key_Down)
    assert palette.current() is not first
    qtbot.keyClick(palette.field, Qt.Key.Key_Escape)
    assert not palette.isVisible()


def test_palette_runs_an_open_recent_entry_whose_menu_was_rebuilt(window, qtbot, tmp_path):
    from sqrtdk_gui.core.io import presets

    path = tmp_path / "lecture.json"
    window.controller.set_params(d_k=77)
    presets.save(window.current_state(), str(path))
    window.controller.set_params(d_k=5)
    window.recent.set_paths([str(path)])
    window.recent.rebuild()
    palette = window.palette_host.show()
    (entry,) = [c for c in palette.commands if "lecture.json" in c.title]
    window.recent.rebuild()  # what opening the File menu does: every action is new
    entry.run()  # no "Internal C++ object already deleted": the new action runs
    assert window.controller.params.d_k == 77


def test_a_second_ctrl_shift_p_replaces_the_open_palette(window, qtbot):
    first = window.palette_host.show()
    second = window.palette_host.show()
    assert not first.isVisible() and second.isVisible()
    palettes = [w for w in window.findChildren(type(second)) if w.isVisible()]
    assert palettes == [second]


def test_palette_runs_a_setting(window, qtbot):
    palette = window.palette_host.show()
    qtbot.keyClicks(palette.field, "float16")
    qtbot.keyClick(palette.field, Qt.Key.Key_Return)
    assert window.controller.params.dtype == "float16"


# --- the numbers behind every chart -------------------------------------------------------------

def test_every_panel_shows_its_numbers_as_a_table(window, qtbot):
    settle(window)
    window.actions.numbers.trigger()
    settle(window)
    for panel in window.panels.values():
        assert panel.numbers_shown and panel.numbers_button.isChecked()
        assert all(c.isHidden() for c in panel.canvases())
        views = panel.data_view.tables
        assert views and all(v.model().rowCount() > 0 for v in views), panel.name
        assert all(v.accessibleName() for v in views)
    window.actions.numbers.trigger()
    assert not any(p.numbers_shown for p in window.panels.values())
    assert all(not c.isHidden() for p in window.panels.values() for c in p.canvases())


def test_the_histogram_table_is_what_the_bars_draw(window):
    settle(window)
    panel = window.panels["histogram"]
    (table,) = panel.data_tables()
    x, y = panel.bars.getData()
    assert len(table.rows) == len(y) == 61
    assert np.allclose([r[2] for r in table.rows], y)
    assert np.allclose([r[0] for r in table.rows] + [table.rows[-1][1]], panel.bars.xData)


def test_the_weights_and_gradient_tables_are_what_the_plots_draw(window):
    settle(window)
    weights = window.panels["weights"]
    (table,) = weights.data_tables()
    assert np.allclose([r[1] for r in table.rows], weights.bars.heights)
    gradient = window.panels["gradient"]
    (table,) = gradient.data_tables()
    median = gradient.versus.series["sqrt_dk"].median
    xs, ys = median.getData()  # log mode: setData got d_k and the median itself
    rows = [r for r in table.rows if r[0] == "÷√d_k"]
    assert np.allclose([np.log10(r[1]) for r in rows], xs)
    jac = window.panels["jacobian"]
    block, sweep = jac.data_tables()
    assert len(block.rows) == min(12, 16) and sweep.headers[-1] == "saturated %"


def test_a_shown_table_follows_the_controls_sorts_by_number_and_copies_tsv(window, qtbot):
    settle(window)
    panel = window.panels["weights"]
    panel.numbers_button.click()
    view = panel.data_view.tables[0]
    window.controls.keys_spin.setValue(40)
    settle(window)
    qtbot.waitUntil(lambda: view.model().rowCount() == 40, timeout=60_000)
    view.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    shown = [float(view.model().index(r, 1).data(Qt.ItemDataRole.UserRole + 1)) for r in range(40)]
    assert shown == sorted(shown)
    view.selectAll()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    text = QApplication.clipboard().text()
    lines = text.splitlines()
    assert lines[0] == "rank (largest first)\tweight\tuniform 1/n" and len(lines) == 41
    assert [float(line.split("\t")[1]) for line in lines[1:]] == shown  # full precision, order shown
    assert to_tsv(("a", "b"), [(1, 0.1)]) == "a\tb\n1\t0.1\n"


def test_the_predict_first_veil_also_covers_the_tables(window):
    window.set_numbers_shown_all(True)
    window.lesson.go_to(1, animate=False)
    hidden = [p for p in window.panels.values() if p.veiled]
    assert hidden
    for panel in hidden:
        assert panel.veil.geometry().contains(panel.data_view.geometry().center())


# --- never colour alone ---------------------------------------------------------------------------

def test_raw_and_scaled_differ_in_line_style_and_marker_in_every_panel(window):
    settle(window)
    looks = series_look("none"), series_look("sqrt_dk")
    assert looks[0].pen_style != looks[1].pen_style and looks[0].symbol != looks[1].symbol
    for name in ("jacobian", "gradient"):
        series = window.panels[name].versus.series
        raw, scaled = series["none"].median, series["sqrt_dk"].median
        assert line_look(raw.opts["pen"]) != line_look(scaled.opts["pen"])
        assert raw.opts["symbol"] != scaled.opts["symbol"]
        key = window.panels[name].key.text()
        assert looks[0].key in key and looks[1].key in key
    sat = window.panels["jacobian"].sat_curves
    assert line_look(sat["none"].opts["pen"]) != line_look(sat["sqrt_dk"].opts["pen"])
    hist = window.panels["histogram"]
    assert line_look(hist.bars.pen()) != line_look(hist.ghost.pen())
    window.actions.raw.trigger()
    settle(window)
    assert line_look(hist.bars.pen()) == line_look(set_line_style(QPen(), Qt.PenStyle.DashLine))


def _grab_array(window) -> np.ndarray:
    image = window.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    buf = np.frombuffer(image.constBits(), np.uint8).reshape(h, image.bytesPerLine())
    return buf[:, : 3 * w].reshape(h, w, 3).astype(float) / 255


def test_series_stay_apart_in_greyscale_and_under_deuteranopia(window):
    """Rendered, the two colours alone would not carry the meaning: their markers do."""
    settle(window)
    img = _grab_array(window)
    deutan = np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                       [-0.011820, 0.042940, 0.968881]])  # Machado et al. 2009, severity 1
    for palette in PALETTES.values():
        raw, scaled = (np.array([int(c[i:i + 2], 16) for i in (1, 3, 5)]) / 255
                       for c in (palette.raw, palette.scaled))
        lum = [float(c @ [0.2126, 0.7152, 0.0722]) for c in (raw, scaled)]
        seen = [deutan @ c for c in (raw, scaled)]
        # The hues stay apart for a deuteranope (Okabe-Ito) ...
        assert np.abs(seen[0] - seen[1]).max() > 0.25, palette.name
        # ... but in greyscale they nearly meet: that is why the line styles and markers exist.
        assert abs(lum[0] - lum[1]) < 0.2, palette.name
    assert img.shape[0] > 100  # the window rendered


# --- high contrast ---------------------------------------------------------------------------------

def test_high_contrast_theme_is_black_on_white_with_thicker_lines(window):
    thin = window.panels["gradient"].versus.series["sqrt_dk"].median.opts["pen"].widthF()
    window.actions.themes["high-contrast"].trigger()
    p = window.style_.palette
    assert (p.bg, p.fg, p.window, p.border) == ("#FFFFFF", "#000000", "#FFFFFF", "#000000")
    thick = window.panels["gradient"].versus.series["sqrt_dk"].median.opts["pen"].widthF()
    assert thick == pytest.approx(1.5 * thin)
    assert window.actions.themes["high-contrast"].isChecked()
    state = window.current_state()
    assert presets.from_json(presets.to_json(state)).theme == "high-contrast"
    old = json.dumps({"format": presets.FORMAT, "version": 1, "theme": "dark"})
    assert presets.from_json(old).theme == "dark"  # presets from before stay valid


def _contrast(a: str, b: str) -> float:
    def lum(c):
        rgb = np.array([int(c[i:i + 2], 16) for i in (1, 3, 5)]) / 255
        lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        return float(lin @ [0.2126, 0.7152, 0.0722])
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_high_contrast_colours_keep_their_meaning_and_reach_5_to_1():
    hc, light = PALETTES["high-contrast"], PALETTES["light"]
    for role in ("raw", "scaled", "other", "accent", "fg", "warn"):
        assert _contrast(getattr(hc, role), hc.bg) >= 5.0, role
        assert _contrast(getattr(hc, role), hc.bg) >= _contrast(getattr(light, role), light.bg), role
    assert Style(theme="high-contrast").line(2) == pytest.approx(1.5 * Style().line(2))


# --- accessible names and the keyboard ---------------------------------------------------------------

def test_tab_walks_every_control_and_each_has_an_accessible_name(window, qtbot):
    window.activateWindow()
    window.lesson.go_to(2, animate=False)  # the predict-first box and both nav buttons are live
    QApplication.processEvents()
    first = window.controls.dk_spin
    first.setFocus()
    QApplication.processEvents()
    reached = []
    for _ in range(300):
        widget = QApplication.focusWidget()
        reached.append(widget)
        window.focusNextChild()
        QApplication.processEvents()
        if QApplication.focusWidget() is first:
            break
    else:
        pytest.fail("the tab order never came back to the first control")
    expected = [w for w in interactive_widgets(window) if w.isVisible()]
    missing = [w.objectName() or type(w).__name__ for w in expected if w not in reached]
    assert not missing
    for name in ("dk_slider", "scaling_none", "scaling_sqrt_dk", "temp_slider", "keys_spin", "scaling_combo", "dtype_combo", "new_sample",
                 "reveal", "guesses", "next", "previous"):
        assert any(w.objectName() == name for w in reached), name
    for widget in reached:
        assert widget.accessibleName().strip(), widget.objectName() or type(widget).__name__
    for widget in expected:
        if widget.toolTip():
            assert widget.accessibleDescription(), widget.objectName()
    assert sum(w.objectName() == "numbersButton" for w in reached) == 4


def test_the_scaling_switch_works_from_the_keyboard(window, qtbot):
    window.activateWindow()
    for button, scaling in ((window.controls.raw_button, "none"), (window.controls.scaled_button, "sqrt_dk")):
        assert button.focusPolicy() & Qt.FocusPolicy.TabFocus, scaling  # checked or not
        button.setFocus()
        qtbot.keyClick(button, Qt.Key.Key_Space)
        assert window.controller.params.scaling == scaling
