"""A teacher's lesson file in the window: the clicker walks its pages, its parameters and
questions are shown, its controls hidden or locked; File menu, presenter view, slides, CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from sqrtdk_gui.core import i18n
from sqrtdk_gui.core.io import lesson_file
from sqrtdk_gui.core.lesson.content import STEPS
from sqrtdk_gui.core.lesson.plan import FULL

LESSON = {
    "format": "sqrtdk-gui lesson", "version": 1, "title": "Attention in 20 minutes",
    "pages": [{"page": "step:2", "params": {"seed": 7},
               "question": {"en": "How much weight will the largest key take?"}},
              {"page": "dmodel", "params": {"seed": 5}}, "step:1", "temperature"],
    "hide": ["more"], "lock": ["scaling", "d_k"],
}


def _write(tmp_path, data=LESSON, name="lesson.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _key(qtbot, key):
    qtbot.keyClick(QApplication.focusWidget() or QApplication.activeWindow(), key)


def _where(window):
    lesson = window.lesson
    return "end" if lesson.closing else lesson.scenario.key if lesson.scenario else lesson.step


def test_the_clicker_walks_the_lessons_pages_in_its_order_and_back(window, qtbot, tmp_path):
    window.lesson_files.open(str(_write(tmp_path)))
    qtbot.waitUntil(lambda: window.live_page.hasFocus() or window.isActiveWindow(), timeout=60_000)
    pane = window.lesson_pane
    assert "Attention in 20 minutes" in pane.text.toPlainText() and _where(window) == 0
    seen = []
    for _ in range(8):
        _key(qtbot, Qt.Key.Key_PageDown)
        seen.append((_where(window), window.lesson.answer_shown))
    assert seen == [(2, False), (2, True), ("dmodel", True), (1, False), (1, True), ("temperature", True),
                    ("end", True), ("end", True)]
    back = []
    for _ in range(5):
        _key(qtbot, Qt.Key.Key_PageUp)
        back.append(_where(window))
    assert back == ["temperature", 1, "dmodel", 2, 2]  # the first page has nothing before it


def test_a_page_shows_its_sample_number_and_the_teachers_question(window, tmp_path):
    from sqrtdk_gui.core.attention.params import Params
    from sqrtdk_gui.core.lesson.content import scenario
    from sqrtdk_gui.core.lesson.predict import PREDICTIONS, measured

    window.lesson_files.open(str(_write(tmp_path)))
    window.lesson.forward()
    pane = window.lesson_pane
    assert window.controller.params == Params(**STEPS[1].preset, seed=7)
    assert pane.caption.text() == "Step 1 of 2" and window.slide.caption.text() == "Step 1 of 2"
    assert pane.question.text() == "How much weight will the largest key take?" == window.slide.question.text()
    assert window.lesson.description() == "Step 1/2: Softmax of wide logits"
    # The answer is measured for the lesson's sample, not the page's own.
    window.lesson.reveal(animate=False)
    expected = measured(2, Params(**STEPS[1].preset, seed=7))
    digits = PREDICTIONS[2].digits
    assert expected != measured(2) and f"= {expected:.{digits}f}</b>" in pane.verdict.text()
    # The presenter view says what comes next in the lesson's order, which sets its parameters.
    assert window.lesson.following() == f"Trap: {scenario('dmodel').title}"
    window.lesson.advance()
    assert window.controller.params == Params(**scenario("dmodel").preset, seed=5)
    assert window.lesson.following() == "Step 2/2: A logit is a sum of d_k terms"


def test_a_question_in_another_language_falls_back_to_the_lessons_own_wording(make_window, tmp_path):
    from sqrtdk_gui.gui.launch import translations

    translations.install("de")
    try:
        window = make_window()
        window.lesson_files.open(str(_write(tmp_path)))
        window.lesson.forward()
        from sqrtdk_gui.core.lesson.figures import fill

        assert window.lesson_pane.question.text() == fill(i18n._(STEPS[1].question))
        assert "Wie viel Gewicht" in window.lesson_pane.question.text()  # the lesson's own German wording
        assert window.lesson_pane.caption.text() == "Schritt 1 von 2"
    finally:
        translations.install("en")


def test_hidden_and_locked_controls_stay_so_until_the_lesson_is_closed(window, tmp_path):
    window.lesson_files.open(str(_write(tmp_path)))
    groups = window.controls.groups
    assert not groups["more"].isVisibleTo(window.controls) and groups["sample"].isVisibleTo(window.controls)
    assert not groups["scaling"].isEnabled() and not groups["d_k"].isEnabled() and groups["temperature"].isEnabled()
    before = window.controller.params
    assert window.controller.edit(scaling="none") is False and window.controller.params == before
    assert "locked" in window.statusBar().currentMessage()
    window.set_autoplay(True)
    assert not window.animator.running and window.controller.params == before
    assert window.controller.edit(temperature=2.0) is True  # not locked
    window.actions.close_lesson.trigger()
    assert window.lesson.plan == FULL and window.controller.locked == frozenset()
    assert all(g.isEnabled() and g.isVisibleTo(window.controls) for g in groups.values())
    assert window.controller.edit(scaling="none") is True


def test_open_lesson_refuses_a_bad_file_with_one_sentence_and_changes_nothing(window, tmp_path, monkeypatch):
    bad = _write(tmp_path, {**LESSON, "pages": ["step:1", "step:7"]}, "bad.json")
    window.lesson.go_to(3)
    before = (window.controller.params, window.lesson.step, window.lesson.plan)
    said = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *rest: said.append(text))
    window.actions.open_lesson.trigger()
    assert (window.controller.params, window.lesson.step, window.lesson.plan) == before
    assert len(said) == 1 and "step:7" in said[0] and "Nothing was changed" in said[0] and "\n" not in said[0]
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(_write(tmp_path)), ""))
    window.actions.open_lesson.trigger()
    assert len(window.lesson.plan.pages) == 4 and window.lesson.step == 0 and len(said) == 1


def test_new_lesson_from_current_writes_a_file_that_opens_as_shown(window, tmp_path, monkeypatch):
    from sqrtdk_gui.core.attention.params import Params
    from sqrtdk_gui.core.lesson.content import scenario

    window.lesson.choose_scenario("temperature")
    window.controller.edit(seed=11, keys=24)  # the sample is kept; the keys the page's text quotes are not
    written = tmp_path / "monday-class.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(written), ""))
    window.actions.new_lesson.trigger()
    plan = lesson_file.load(written)
    assert plan.title == "monday class" and len(plan.pages) == len(FULL.pages)
    assert plan.entry(scenario("temperature")).params == {"seed": 11}
    window.lesson_files.open(str(written))
    window.lesson.choose_scenario("temperature")
    assert window.controller.params == Params(**scenario("temperature").preset, seed=11)


def test_exported_slides_follow_the_lesson(tmp_path):
    lesson = _write(tmp_path)
    out = tmp_path / "slides"
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "export-slides", str(out), "--size", "1024x768",
                           "--lesson", str(lesson)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        "01-step2-softmax-of-wide-logits.png", "02-trap-dmodel.png", "03-step1-a-logit-is-a-sum-of-d-k-terms.png",
        "04-follow-up-temperature.png"]
    assert all(QImage(str(p)).size().width() == 1024 for p in out.iterdir())


def test_the_command_line_opens_a_lesson_and_refuses_a_bad_one_in_one_line(tmp_path):
    shot, plain = tmp_path / "intro.png", tmp_path / "plain.png"
    for argv in (["--lesson", str(_write(tmp_path)), "--screenshot", str(shot)], ["--screenshot", str(plain)]):
        done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", *argv, "--size", "1280x720"], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    # The lesson's introduction (its outline) and its hidden controls: another picture.
    assert QImage(str(shot)).size() == QImage(str(plain)).size() and QImage(str(shot)) != QImage(str(plain))
    bad = _write(tmp_path, {**LESSON, "lock": ["everything"]}, "bad.json")
    for argv in (["--lesson", str(bad), "--screenshot", str(shot)],
                 ["export-slides", str(tmp_path / "s"), "--lesson", str(bad)],
                 ["--lesson", str(tmp_path / "missing.json"), "--screenshot", str(shot)]):
        done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", *argv], capture_output=True, text=True,
                              timeout=120)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and "lesson" in lines[0] and "Traceback" not in done.stderr
    assert not (tmp_path / "s").exists()


REBUILD_SCRIPT = """
import json, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from sqrtdk_gui.core import i18n
from sqrtdk_gui.gui.launch.app import Launch, run_window

seen, tries = [], [0]

def shown():
    return [w for w in QApplication.topLevelWidgets() if type(w).__name__ == "MainWindow" and w.isVisible()]

def choose():
    window = shown()[0]
    window.lesson_files.open(sys.argv[1])
    window.lesson.forward()  # step 2, the lesson's first page
    window.choose_language("de")
    QTimer.singleShot(50, check)

def check():
    windows = shown()
    tries[0] += 1
    if (windows and i18n.language() == "de") or tries[0] > 400:
        if windows:
            w = windows[0]
            seen.append([len(w.lesson.plan.pages), w.lesson.step, w.lesson_pane.caption.text(),
                         w.controls.groups["more"].isVisibleTo(w.controls), w.lesson_files.path])
        QApplication.instance().quit()
    else:
        QTimer.singleShot(50, check)

QTimer.singleShot(0, choose)
status = run_window(Launch())
print(json.dumps({"status": status, "seen": seen}))
"""


def test_switching_the_language_keeps_the_lesson_and_its_page(tmp_path):
    import os

    lesson = _write(tmp_path)
    env = dict(os.environ, SQRTDK_GUI_SETTINGS=str(tmp_path / "settings.ini"), QT_QPA_PLATFORM="offscreen",
               LANGUAGE="en")
    done = subprocess.run([sys.executable, "-c", REBUILD_SCRIPT, str(lesson)], capture_output=True, text=True,
                          timeout=180, env=env)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out == {"status": 0, "seen": [[4, 2, "Schritt 1 von 2", False, str(lesson)]]}


def test_no_user_path_changes_what_the_lesson_locks_and_the_pages_still_set_it(window, tmp_path):
    from sqrtdk_gui.core.attention.params import Params
    from sqrtdk_gui.core.io import presets
    from sqrtdk_gui.core.lesson.content import scenario

    window.controller.edit(scaling="none", d_k=16)  # before the lesson: undo must not bring it back
    window.lesson_files.open(str(_write(tmp_path)))
    c = window.controller
    assert c.params == Params() and not window.undo.stack.canUndo()  # its introduction, fresh
    window.lesson.forward()
    window.lesson.forward()  # the d_model trap: its own scaling
    assert c.params.scaling == "sqrt_dmodel"
    # Practice mode sets its own cases; back on the Live tab the page's values return.
    window.tabs.setCurrentWidget(window.practice.holder)
    c.replace_params(Params(d_k=2048, scaling="none"))  # as a practice case does
    window.tabs.setCurrentIndex(0)
    assert (c.params.scaling, c.params.d_k) == (scenario("dmodel").preset["scaling"], 64)
    window.restore_default_parameters()
    assert c.params.scaling == "sqrt_dmodel" and c.params.heads == Params().heads
    # A preset or a state line: its page and its other parameters, the page's locked ones.
    window.apply_state(presets.State(params=Params(scaling="none", d_k=4096, keys=8), scenario="dmodel"))
    assert (c.params.scaling, c.params.d_k, c.params.keys) == ("sqrt_dmodel", 64, 8)
    window.apply_state(presets.State(params=Params(scaling="none", d_k=4096), step=0))  # the introduction's
    assert (c.params.scaling, c.params.d_k) == (Params().scaling, Params().d_k)
    window.undo.stack.undo()  # the parameters before the defaults, the locked ones the page's
    page = window.lesson.page_values()
    assert (c.params.scaling, c.params.d_k, c.params.heads) == (page.scaling, page.d_k, 8)


def test_the_buttons_and_number_keys_follow_an_interleaved_lesson(window, qtbot, tmp_path):
    data = {**LESSON, "pages": ["step:3", "qk_norm", "step:1", "temperature"], "lock": []}
    window.lesson_files.open(str(_write(tmp_path, data)))
    lesson, pane = window.lesson, window.lesson_pane
    lesson.choose_scenario("qk_norm")
    pane.previous_button.click()  # the page before it, not the lesson's last step
    assert _where(window) == 3
    assert not pane.previous_button.isEnabled()  # the first page
    from sqrtdk_gui.gui.window.commands import find

    find("step_2").run(window)  # key 2: the lesson's second step
    assert _where(window) == 1 and pane.caption.text() == "Step 2 of 2"
    find("step_3").run(window)  # no third step: nothing moves
    assert _where(window) == 1
    lesson.go_to(4, animate=False)  # a step outside the lesson (a preset, a state line) counts as shipped
    assert pane.caption.text() == "Step 4 of 5" and not pane.scenarios.isVisibleTo(pane)
    lesson.forward()  # and goes on with the lesson's first page that comes later in the whole lesson
    assert _where(window) == "qk_norm"


def test_a_lesson_given_before_export_slides_is_its_lesson(tmp_path):
    out = tmp_path / "slides"
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "--lesson", str(_write(tmp_path)), "export-slides",
                           str(out), "--size", "1024x768"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert len(list(out.iterdir())) == 4


@pytest.mark.render  # four slides from the window (~10 s)
def test_slides_exported_from_the_window_are_the_lessons(window, tmp_path, monkeypatch, qtbot):
    from PySide6.QtWidgets import QInputDialog

    window.lesson_files.open(str(_write(tmp_path)))
    out = tmp_path / "slides"
    out.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(out)))
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *a, **k: ("1024 × 768", True)))
    window.exports.slides_dialog()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Wrote"), timeout=300_000)
    assert window.statusBar().currentMessage() == f"Wrote 4 of 4 slides to {out}"
    assert [p.name[:3] + p.name.split("-")[1] for p in sorted(out.iterdir())] == [
        "01-step2", "02-trap", "03-step1", "04-follow"]
