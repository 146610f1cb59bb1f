"""Copy link text and Open state in the window, and --state on the command line."""

from __future__ import annotations

import subprocess
import sys

from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtWidgets import QInputDialog, QMessageBox

from sqrtdk_gui.core.io.state_line import decode


def test_copy_link_text_and_open_state_give_the_same_window(make_window, monkeypatch):
    teacher = make_window()
    teacher.lesson.go_to(2, animate=False)
    teacher.controller.set_params(seed=7, temperature=0.5)
    teacher.actions.copy_state.trigger()
    line = QGuiApplication.clipboard().text()
    assert line.startswith('sqrtdk-gui --state "') and "step=2" in line and "seed=7" in line
    assert "Copied:" in teacher.statusBar().currentMessage()
    student = make_window()
    monkeypatch.setattr(QInputDialog, "getText", lambda *args, **kwargs: (line, True))
    student.actions.open_state.trigger()
    assert student.controller.params == teacher.controller.params and student.lesson.step == 2
    assert decode(line) == teacher.current_state()


def test_a_bad_pasted_line_changes_nothing_and_says_why(window, monkeypatch):
    before = window.controller.params
    said = []
    monkeypatch.setattr(QInputDialog, "getText", lambda *args, **kwargs: ("d_k=0 seed=3", True))
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *rest: said.append(text))
    window.actions.open_state.trigger()
    assert window.controller.params == before and len(said) == 1 and "d_k" in said[0]
    assert "Nothing was changed" in said[0]


def test_the_command_line_opens_a_state_and_refuses_a_bad_one(tmp_path):
    shot = tmp_path / "shot.png"
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "--state", "step=2 d_k=512 scaling=none",
                           "--screenshot", str(shot), "--size", "1024x768"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert QImage(str(shot)).width() == 1024
    for args in (["--state", "d_k=0"], ["--state", "step=2", "--preset", str(tmp_path / "p.json")]):
        done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", *args, "--screenshot", str(shot)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
