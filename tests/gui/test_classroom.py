"""Classroom features: presentation mode, zoom, themes, autoplay, exports, presets, settings."""

import csv
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtCore import QByteArray, QEvent, QPointF, Qt
from PySide6.QtGui import QImage, QMouseEvent
from PySide6.QtWidgets import QAbstractButton, QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox, QDialog

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.io import presets
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.gui.export import view as exporting
from sqrtdk_gui.gui.launch.app import Launch, prepare_window
from sqrtdk_gui.gui.style import DARK, LIGHT, Style
from sqrtdk_gui.gui.window.commands import shortcut_sheet
from sqrtdk_gui.gui.window.settings import Settings
from tests.gui.pdf_check import pdf_pages


@pytest.fixture
def window_params():
    return Params(queries=64, keys=16)


# --- presentation mode, zoom, themes -------------------------------------------------------

def test_presentation_mode_toggles_and_restores_the_layout(window, qtbot):
    assert not window.isFullScreen() and not window.controls_scroll.isHidden()
    zoom = window.style_.zoom
    window.actions.presentation.trigger()
    assert window.presentation.active and window.actions.presentation.isChecked()
    assert window.windowState() & Qt.WindowState.WindowFullScreen
    assert window.style_.zoom >= zoom and window.controls_scroll.isHidden()
    window.actions.controls.trigger()  # H brings the controls back while presenting
    assert not window.controls_scroll.isHidden()
    window.actions.presentation.trigger()
    assert not window.presentation.active
    assert not window.windowState() & Qt.WindowState.WindowFullScreen
    assert window.style_.zoom == zoom and not window.controls_scroll.isHidden()


def test_idle_cursor_is_hidden_in_presentation_mode_and_comes_back_on_movement(window, qtbot):
    window.presentation.enter()
    window.presentation._idle.setInterval(50)
    window.presentation._idle.start()
    qtbot.waitUntil(lambda: window.presentation.cursor_hidden, timeout=60_000)
    assert QApplication.overrideCursor().shape() == Qt.CursorShape.BlankCursor
    move = QMouseEvent(QEvent.Type.MouseMove, QPointF(5, 5), QPointF(5, 5), Qt.MouseButton.NoButton,
                       Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, move)
    assert not window.presentation.cursor_hidden and QApplication.overrideCursor() is None
    window.presentation.leave()


def test_zoom_scales_fonts_and_lines_together(window):
    def ticks():
        return window.panels["histogram"].plot.getAxis("bottom").style["tickFont"].pointSize()

    tick = ticks()
    marker = window.panels["gradient"].versus.marker.pen().widthF()
    window.actions.zoom_in.trigger()
    window.actions.zoom_in.trigger()
    assert ticks() > tick
    assert window.panels["gradient"].versus.marker.pen().widthF() == pytest.approx(marker * 1.15 ** 2)
    assert window.controls.dk_label.font().pointSize() > Style().pt(15)
    window.actions.zoom_out.trigger()
    window.actions.zoom_reset.trigger()
    assert window.style_.zoom == 1.0 and ticks() == tick


def test_zoom_never_squeezes_a_plot(window, qtbot):
    from sqrtdk_gui.gui.window.main_window import MIN_PLOT

    window.render_ready()  # every number in (a readout that takes another line takes room)
    said = []
    window.statusBar().messageChanged.connect(said.append)
    for _ in range(30):
        window.zoom_in()
    window.render_ready()
    assert 1.15 <= window.style_.zoom < Style.MAX_ZOOM  # it grew (a step at least), then stopped
    for panel in window.panels.values():
        if panel.isVisible():
            assert panel.canvas.width() >= MIN_PLOT[0] and panel.canvas.height() >= MIN_PLOT[1], panel.name
    assert any("as large as" in text for text in said)  # (shown for a few seconds)
    window.set_controls_visible(False)  # more room: it may grow again
    zoom = window.style_.zoom
    window.zoom_in()
    assert window.style_.zoom >= zoom


def test_dark_theme_recolours_panels_and_keeps_the_numbers(window):
    window.controller.flush()
    text = window.summary.labels["sigma"].text()
    window.actions.themes["dark"].trigger()
    assert window.style_.theme == "dark"
    assert window.panels["histogram"].canvas.backgroundBrush().color().name() == DARK.bg.lower()
    assert QApplication.palette().window().color().name() == DARK.window.lower()
    assert window.summary.labels["sigma"].text() == text
    assert window.panels["gradient"].versus.series["sqrt_dk"].median.opts["pen"].color().name() == DARK.scaled.lower()
    window.set_theme("light")
    assert window.panels["histogram"].canvas.backgroundBrush().color().name() == LIGHT.bg.lower()


# --- autoplay ------------------------------------------------------------------------------

def test_autoplay_moves_dk_and_stops_on_pause(window, qtbot):
    seen = set()
    window.controller.params_changed.connect(lambda p: seen.add(p.d_k))
    window.controls.speed.setValue(3)
    window.controls.autoplay.click()
    assert window.animator.running and window.controls.autoplay.isChecked()
    qtbot.waitUntil(lambda: len(seen) > 10, timeout=60_000)  # a bound on waiting: a busy machine paints fewer frames
    window.controls.autoplay.click()
    assert not window.animator.running and not window.controls.autoplay.isChecked()
    d_k = window.controller.params.d_k
    qtbot.wait(150)
    assert window.controller.params.d_k == d_k
    window.actions.autoplay.trigger()  # P
    assert window.animator.running
    window.controls.temp_reset.click()  # any other control stops it
    assert not window.animator.running and not window.controls.autoplay.isChecked()


# --- exports -------------------------------------------------------------------------------

def test_png_export_has_the_chosen_size(window, tmp_path):
    window.render_ready()
    path = tmp_path / "view.png"
    assert exporting.export_png(window, str(path), (1920, 1080))
    image = QImage(str(path))
    assert (image.width(), image.height()) == (1920, 1080)
    colours = {image.pixel(x, y) for x in range(0, 1920, 37) for y in range(0, 1080, 37)}
    assert len(colours) > 30


def test_svg_export_is_a_vector_drawing_with_the_labels(window, tmp_path):
    window.render_ready()
    path = tmp_path / "view.svg"
    assert exporting.export_svg(window, str(path))
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    text = path.read_text(encoding="utf-8")
    assert "Softmax weights" in text and path.stat().st_size > 20_000


def test_csv_export_holds_the_models_numbers(window, tmp_path):
    window.controller.set_params(d_k=300, scaling="none")
    window.render_ready()
    path = tmp_path / "numbers.csv"
    exporting.export_csv(window.controller.result, str(path))
    with path.open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    expected = compute(window.controller.params)
    params = {r[1]: r[2] for r in rows if r[0] == "# param"}
    assert params["d_k"] == "300" and params["scaling"] == "none"
    summary = {r[1]: float(r[2]) for r in rows if r[0] == "# summary" and r[2]}
    assert summary["logit_std"] == expected.logit_std
    table = [r for r in rows if not r[0].startswith("#")]
    assert table[0] == ["query", "max_weight", "entropy", "jacobian_fro", "grad_q", "row_sum",
                        "weight_rel_error", "weight_l1_error"]
    values = np.array([[float(c) for c in r[1:]] for r in table[1:]])
    assert values.shape == (64, 7)
    np.testing.assert_array_equal(values[:, 2], expected.jacobian_fro)
    np.testing.assert_array_equal(values[:, 3], expected.grad_q)


@pytest.mark.render  # 17 slides in a subprocess (~40 s): CI's render step
def test_export_slides_writes_one_image_per_step_and_scenario(tmp_path):
    folder = tmp_path / "slides"
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "export-slides", str(folder),
                           "--size", "1280x720"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == sorted(name for name, _, _ in exporting.slide_plan())
    assert len(files) == len(STEPS) + len(SCENARIOS)
    sizes = {(QImage(str(f)).width(), QImage(str(f)).height()) for f in files}
    assert sizes == {(1280, 720)}
    assert QImage(str(files[0])) != QImage(str(files[3]))


def test_export_slides_can_be_cancelled_and_restores_the_lesson(window, tmp_path):
    window.lesson.go_to(2, animate=False)
    before = window.controller.params
    written = exporting.export_slides(window, str(tmp_path), (800, 600),
                                      progress=lambda i, n, name: i < 3)
    assert len(written) == 3
    assert window.lesson.step == 2 and window.controller.params == before


def test_export_slides_as_a_pdf_has_a_page_per_slide_at_the_slides_size(window, tmp_path):
    target = tmp_path / "slides.pdf"
    target.write_bytes(b"an older file")
    written = exporting.export_slides(window, str(target), (800, 600), progress=lambda i, n, name: i < 3)
    assert len(written) == 3 and written[0].startswith("01-step1")
    boxes = pdf_pages(target.read_bytes())
    assert boxes == [(600.0, 450.0)] * 3  # 800 × 600 pixels at 96 dpi, in points
    assert not (tmp_path / "01-step1").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["slides.pdf"]


def test_a_cancelled_slides_pdf_leaves_the_older_file_alone(window, tmp_path):
    target = tmp_path / "slides.pdf"
    target.write_bytes(b"the older, whole slides")
    started = []
    written = exporting.export_slides(window, str(target), (800, 600),
                                      progress=lambda i, n, name: started.append(i) or True,
                                      should_stop=lambda: len(started) >= 3)  # Ctrl+C after two pages
    assert started[:3] == [0, 1, 2] and written == []  # cancelled on the third page: nothing written
    assert target.read_bytes() == b"the older, whole slides"


def test_export_slides_to_an_unwritable_place_exits_2(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "export-slides", str(blocker / "sub")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


# --- presets -------------------------------------------------------------------------------

def test_preset_round_trip_restores_identical_state(window, tmp_path):
    window.lesson.choose_scenario("qk_norm")
    window.controller.set_params(gain=6.5, seed=3, temperature=0.7)
    window.set_theme("dark")
    window.set_zoom(1.3)
    state = window.current_state()
    path = tmp_path / "p.json"
    presets.save(state, path)
    window.lesson.go_to(1, animate=False)
    window.set_theme("light")
    window.set_zoom(1.0)
    window.presets.load(str(path))
    assert window.current_state() == state
    assert window.lesson.scenario.key == "qk_norm" and window.style_.theme == "dark"
    window.render_ready()
    assert window.controller.result.params == state.params


BAD = {
    "not_json": "{ this is not json",
    "wrong_type": json.dumps({"format": presets.FORMAT, "version": 1, "params": {"d_k": "big"}}),
    "params_not_object": json.dumps({"format": presets.FORMAT, "version": 1, "params": [1, 2]}),
    "out_of_range": json.dumps({"format": presets.FORMAT, "version": 1, "params": {"d_k": 0}}),
    "unknown_version": json.dumps({"format": presets.FORMAT, "version": 7}),
    "foreign": json.dumps({"name": "some other program's file"}),
    "unknown_param": json.dumps({"format": presets.FORMAT, "version": 1, "params": {"dk": 8}}),
    "bad_step": json.dumps({"format": presets.FORMAT, "version": 1, "lesson": {"step": 9}}),
    "bad_theme": json.dumps({"format": presets.FORMAT, "version": 1, "theme": "neon"}),
}
WHY = {"not_json": "not a JSON file", "wrong_type": "d_k", "params_not_object": "\"params\"",
       "out_of_range": "out of range", "unknown_version": "newer", "foreign": "not a sqrtdk-gui preset",
       "unknown_param": "unknown parameter", "bad_step": "step", "bad_theme": "theme"}


@pytest.mark.parametrize("kind", BAD)
def test_bad_presets_are_rejected_with_a_message_and_no_change(window, tmp_path, kind, monkeypatch):
    path = tmp_path / f"{kind}.json"
    path.write_text(BAD[kind], encoding="utf-8")
    original = path.read_bytes()
    before = window.current_state()
    with pytest.raises(presets.PresetError, match=WHY[kind]):
        window.presets.load(str(path))
    assert window.current_state() == before
    # Through the menu: a dialog with one sentence, the state and the file untouched.
    shown = []
    monkeypatch.setattr("sqrtdk_gui.gui.window.preset_actions.QFileDialog.getOpenFileName", lambda *a, **k: (str(path), ""))
    monkeypatch.setattr("sqrtdk_gui.gui.window.file_dialogs.QMessageBox.warning", lambda parent, title, text: shown.append(text))
    window.actions.open_preset.trigger()
    assert len(shown) == 1 and WHY[kind] in shown[0] and "Nothing was changed" in shown[0]
    assert window.current_state() == before and path.read_bytes() == original


@pytest.mark.parametrize("kind", ["not_json", "out_of_range", "unknown_version", "foreign"])
def test_bad_preset_on_the_command_line_exits_2_with_one_line(tmp_path, kind):
    path = tmp_path / "bad.json"
    path.write_text(BAD[kind], encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "--preset", str(path), "--screenshot",
                           str(tmp_path / "x.png")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and WHY[kind] in lines[0] and "Traceback" not in done.stderr
    assert path.read_text(encoding="utf-8") == BAD[kind] and not (tmp_path / "x.png").exists()


def test_preset_on_the_command_line_sets_the_state(tmp_path):
    state = presets.State(params=Params(d_k=300, scaling="none"), step=3, theme="dark", zoom=1.2)
    path = tmp_path / "good.json"
    presets.save(state, path)
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "--preset", str(path), "--screenshot",
                           str(tmp_path / "x.png"), "--size", "1280x720"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    image = QImage(str(tmp_path / "x.png"))
    assert QImage(str(tmp_path / "x.png")).pixelColor(3, image.height() // 2).lightness() < 80  # dark


def test_saving_never_leaves_a_half_written_file(tmp_path, monkeypatch):
    path = tmp_path / "keep.json"
    presets.save(presets.State(), path)
    original = path.read_bytes()
    monkeypatch.setattr(presets, "to_json", lambda state: (_ for _ in ()).throw(OSError("disk full")))
    with pytest.raises(OSError):
        presets.save(presets.State(params=Params(d_k=5)), path)
    assert path.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]


def test_every_theme_a_preset_names_has_a_palette():
    from sqrtdk_gui.gui.style import PALETTES

    assert tuple(PALETTES) == presets.THEMES == ("light", "dark", "high-contrast")
    assert [p.name for p in PALETTES.values()] == list(presets.THEMES)


# --- settings ------------------------------------------------------------------------------

def _args(**kw):
    return Launch(**kw)


def test_settings_remember_geometry_theme_zoom_and_state(qtbot, tmp_path, monkeypatch):
    ini = tmp_path / "settings.ini"
    monkeypatch.setenv("SQRTDK_GUI_SETTINGS", str(ini))
    first, settings = prepare_window(_args())
    qtbot.addWidget(first)
    first.resize(700, 500)  # within the offscreen screen, which restoreGeometry respects
    first.lesson.go_to(3, animate=False)
    first.set_theme("dark")
    first.set_zoom(1.2)
    state = first.current_state()
    settings.save(first.saveGeometry(), state)
    second, _ = prepare_window(_args())
    qtbot.addWidget(second)
    assert second.current_state() == state
    assert second.size().width() == 700


@pytest.mark.parametrize("content", [b"\x00\xff garbage [[[ \n\x01", b"[state]\npreset=not json at all\n",
                                     b"[window]\ngeometry=@Variant(oops\n"])
def test_corrupt_settings_start_with_defaults_and_a_warning(qtbot, tmp_path, monkeypatch, capsys, content):
    ini = tmp_path / "settings.ini"
    ini.write_bytes(content)
    monkeypatch.setenv("SQRTDK_GUI_SETTINGS", str(ini))
    window, _ = prepare_window(_args())
    qtbot.addWidget(window)
    assert window.current_state() == presets.State()
    err = capsys.readouterr().err
    if b"preset" in content:
        assert "warning" in err and "defaults" in err
        assert "defaults" in window.statusBar().currentMessage()


def test_a_geometry_qt_cannot_decode_is_one_line_and_the_default_size(qtbot, tmp_path, monkeypatch, capsys, qtlog):
    ini = tmp_path / "settings.ini"  # an @Variant of a type no Qt knows: Qt reads it as nothing
    ini.write_bytes(b"[window]\ngeometry=@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\x10garbage)\n")
    monkeypatch.setenv("SQRTDK_GUI_SETTINGS", str(ini))
    window, _ = prepare_window(_args())
    qtbot.addWidget(window)
    message = "saved window geometry was damaged; using the default size"
    assert capsys.readouterr().err.splitlines() == [f"sqrtdk-gui: warning: {message}"]
    assert window.statusBar().currentMessage() == message
    assert not [r.message for r in qtlog.records if "QVariant" in r.message or "invalid type" in r.message]


def _damaged(blob: bytes, height: int, offset: int | None = None) -> bytes:
    """A real geometry with one rectangle's bottom edge moved to give ``height``: by default
    the last one (Qt 6's geometry rectangle, the one whose huge height crashed a start)."""
    import struct

    offset = len(blob) - 16 if offset is None else offset
    x1, y1, x2, _ = struct.unpack_from(">4i", blob, offset)
    return blob[:offset] + struct.pack(">4i", x1, y1, x2, y1 + height - 1) + blob[offset + 16:]


def test_a_damaged_geometry_is_not_restored_and_the_window_starts(qtbot, tmp_path, monkeypatch, capsys):
    from sqrtdk_gui.gui.window.settings import geometry_is_sane

    ini = tmp_path / "settings.ini"
    monkeypatch.setenv("SQRTDK_GUI_SETTINGS", str(ini))
    first, settings = prepare_window(_args())
    qtbot.addWidget(first)
    first.resize(700, 500)
    good = bytes(first.saveGeometry())
    assert geometry_is_sane(good)
    huge = _damaged(good, 2**31 - 1 - 8)  # a height near 2³¹: crashed every start before
    assert not geometry_is_sane(huge) and not geometry_is_sane(good[:20])
    assert not geometry_is_sane(b"\x00" * len(good)) and not geometry_is_sane(_damaged(good, 0))
    assert not geometry_is_sane(_damaged(good, 2**31 - 9, offset=8))  # the frame rectangle too
    settings.save(QByteArray(huge), first.current_state())
    capsys.readouterr()
    second, _ = prepare_window(_args())
    qtbot.addWidget(second)
    second.show()
    assert second.height() < 10_000
    err = capsys.readouterr().err
    assert "geometry was damaged" in err and "default size" in err


def test_unreadable_settings_fall_back_to_defaults(tmp_path):
    if os.geteuid() == 0:
        folder = tmp_path / "dir.ini"  # a directory where a file should be: unreadable as INI
        folder.mkdir()
        geometry, state, warning = Settings(str(folder)).load()
    else:
        ini = tmp_path / "s.ini"
        ini.write_text("[state]\npreset=x\n")
        ini.chmod(0)
        geometry, state, warning = Settings(str(ini)).load()
    assert state is None and geometry is None


# --- keyboard and accessibility --------------------------------------------------------------

def test_every_control_has_a_tooltip_and_takes_keyboard_focus(window):
    kinds = (QAbstractButton, QAbstractSlider, QAbstractSpinBox, QComboBox)
    widgets = [w for parent in (window.controls, window.lesson_pane) for k in kinds
               for w in parent.findChildren(k) if w.objectName() and not w.objectName().startswith("qt_")]
    assert len(widgets) > 20
    for w in widgets:
        assert w.toolTip(), w.objectName()
        assert w.focusPolicy() & Qt.FocusPolicy.TabFocus, w.objectName()


def test_shortcut_sheet_lists_every_menu_shortcut(window):
    sheet = " ".join(keys for keys, _ in shortcut_sheet())
    for action in window.findChildren(type(window.actions.quit)):
        for seq in action.shortcuts():
            text = seq.toString()
            if text:
                assert text.replace("Ctrl++", "Ctrl+=") in sheet or text in sheet, text
    window.actions.shortcuts.trigger()
    dialog = window.findChild(QDialog, "shortcutsDialog")
    assert dialog is not None and dialog.isVisible() and "presentation mode" in dialog.text.text()
    dialog.close()
