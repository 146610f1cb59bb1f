"""The pen on the projected page: strokes over the whole window, keys that keep working,
undo and erase, cleared on a page change, never in a picture of the page."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor

from sqrtdk_gui.gui.export.view import render_image


def _stroke(qtbot, ink, points):
    qtbot.mousePress(ink, Qt.MouseButton.LeftButton, pos=QPoint(*points[0]))
    for point in points[1:]:
        qtbot.mouseMove(ink, QPoint(*point))
    qtbot.mouseRelease(ink, Qt.MouseButton.LeftButton, pos=QPoint(*points[-1]))


def test_the_pen_draws_over_the_page_and_the_keys_keep_working(window, qtbot):
    ink = window.ink
    window.lesson.go_to(1, animate=False)
    window.actions.pen.trigger()  # Ctrl+P
    assert ink.active and window.actions.pen.isChecked() and ink.geometry() == window.rect()
    assert ink.focusPolicy() == Qt.FocusPolicy.NoFocus
    _stroke(qtbot, ink, [(300, 300), (400, 320), (500, 360)])
    _stroke(qtbot, ink, [(300, 500), (600, 520)])
    assert [len(s) for s in ink.strokes] == [3, 2]
    screen, picture = window.grab().toImage(), render_image(window)
    strokes = list(ink.strokes)
    ink.clear()
    assert window.grab().toImage() != screen  # the strokes are on the screen ...
    assert render_image(window) == picture  # ... and in no picture of the page
    ink.strokes.extend(strokes)
    qtbot.keyClick(window, Qt.Key.Key_Backspace)  # the last stroke goes
    assert [len(s) for s in ink.strokes] == [3]
    qtbot.keyClick(window, Qt.Key.Key_E)  # every stroke goes
    assert ink.strokes == []
    _stroke(qtbot, ink, [(300, 300), (320, 330)])
    qtbot.keyClick(window, Qt.Key.Key_PageDown)  # the clicker still moves the lesson: reveal ...
    qtbot.keyClick(window, Qt.Key.Key_PageDown)  # ... then the next step, which clears the page
    assert window.lesson.step == 2 and ink.strokes == [] and ink.active
    window.actions.pen.trigger()
    assert not ink.active and not window.actions.pen.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_E)  # pen off: E is not the pen's
    assert window.lesson.step == 2


def test_the_pen_follows_the_window_and_the_theme(window, qtbot):
    window.toggle_pen()
    window.resize(1100, 700)
    qtbot.waitUntil(lambda: window.ink.geometry() == window.rect())
    window.set_theme("dark")
    assert window.ink.colour == QColor(window.style_.palette.highlight)
    assert window.ink.width == 6.0 * window.style_.zoom


def test_no_export_contains_the_strokes_and_the_pen_works_on_every_tab(window, qtbot, tmp_path):
    from sqrtdk_gui.gui.export.view import export_svg

    window.toggle_pen()
    _stroke(qtbot, window.ink, [(300, 300), (500, 400)])
    export_svg(window, str(tmp_path / "with.svg"))
    strokes = list(window.ink.strokes)
    window.ink.clear()
    export_svg(window, str(tmp_path / "without.svg"))
    assert (tmp_path / "with.svg").read_bytes() == (tmp_path / "without.svg").read_bytes()
    window.ink.strokes.extend(strokes)
    window.actions.practice.trigger()  # another page: the strokes were about the last one
    assert window.ink.strokes == [] and window.ink.active
    _stroke(qtbot, window.ink, [(300, 300), (500, 400)])
    _stroke(qtbot, window.ink, [(300, 500), (500, 600)])
    qtbot.keyClick(window, Qt.Key.Key_Backspace)  # the pen's keys work on the practice page too
    assert len(window.ink.strokes) == 1
    qtbot.keyClick(window, Qt.Key.Key_E)
    assert window.ink.strokes == []


def _hold(qtbot, widget, key, repeats=4):
    """A key held down: a press, then the presses the keyboard repeats, then the release."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    qtbot.keyPress(widget, key)
    for _ in range(repeats):
        QApplication.sendEvent(widget, QKeyEvent(QEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier, "",
                                                 True))
    qtbot.keyRelease(widget, key)


def test_holding_a_clickers_blank_button_turns_the_pen_on_and_off(window, qtbot):
    window.lesson.go_to(1, animate=False)
    qtbot.waitUntil(lambda: window.live_page.hasFocus() or window.isActiveWindow(), timeout=60_000)
    target = window.live_page
    _hold(qtbot, target, Qt.Key.Key_B)
    assert window.ink.active and window.actions.pen.isChecked() and not window.blanked
    qtbot.keyClick(target, Qt.Key.Key_PageDown)  # the clicker still moves the lesson
    assert window.lesson.revealed
    _hold(qtbot, target, Qt.Key.Key_Period, repeats=7)
    assert not window.ink.active and not window.blanked
    qtbot.keyClick(target, Qt.Key.Key_B)  # a press, not a hold: the screen goes black, the pen stays off
    assert window.blanked and not window.ink.active
    qtbot.keyClick(target, Qt.Key.Key_B)
    assert not window.blanked
