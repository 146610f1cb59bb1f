"""Lesson exports: the window keeps running while it exports, Cancel is taken at once and
the window is as it was afterwards; the command line shows progress and stops on Ctrl+C.

The two end-to-end tests below check that the event loop is free while an export from the
window runs: the model's heavy work (a page's result, its sweeps over d_k, the σ dial's
curves, the lesson's numbers) is never done in the GUI thread, and the progress dialog
shows every page and takes a Cancel while the export runs. An export that computed in the
GUI thread stalled the window for 5–25 s at each slow slide on a 2-core machine. How long
it stalls now is measured by ``benchmarks/export_stalls.py``, not here.
"""

import functools
import os
import signal
import subprocess
import sys
from concurrent.futures import Future

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.sigma_dial import compute_curves
from sqrtdk_gui.core.attention.sweep import compute_sweep
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.gui.export import view as exporting
from sqrtdk_gui.gui.export.run import Cancelled, ExportRun, Page, run_blocking
from sqrtdk_gui.gui.lesson.presenter import prepare_page
from sqrtdk_gui.gui.window import export_actions

PNG_END = b"IEND\xaeB`\x82"


class LoopWatch:
    """A 20 ms timer in the GUI thread: the texts the modal dialog showed while the export
    ran, and a click on its Cancel button once a text containing ``cancel_at`` shows."""

    def __init__(self, cancel_at=None):
        self.cancel_at, self.texts, self.clicked = cancel_at, [], False
        self._timer = QTimer()
        self._timer.setInterval(20)
        self._timer.timeout.connect(self._tick)
        self._timer.start()

    def _tick(self):
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            return
        for label in dialog.findChildren(QLabel):
            text = label.text()
            if text and text not in self.texts:
                self.texts.append(text)
            if self.cancel_at and self.cancel_at in text and not self.clicked:
                self.clicked = True
                next(b for b in dialog.findChildren(QPushButton) if b.text().replace("&", "") == "Cancel").click()

    def stop(self):
        self._tick()
        self._timer.stop()


class GuiThreadWork:
    """The model's heavy entry points called in the GUI thread while it is installed
    (``sys.setprofile`` sees only the thread that sets it: here, the GUI thread)."""

    HEAVY = {f.__code__: f.__name__ for f in (compute, compute_sweep, compute_curves, prepare_page)}

    def __init__(self):
        self.calls: list[str] = []
        sys.setprofile(self._profile)

    def _profile(self, frame, event, arg):
        if event == "call" and frame.f_code in self.HEAVY:
            # The off-screen window an export draws in starts, as any new window, from the
            # default parameters' numbers (a millisecond): no page of the export.
            if not (frame.f_code is compute.__code__ and frame.f_locals.get("params") == Params()):
                self.calls.append(self.HEAVY[frame.f_code])

    def stop(self):
        sys.setprofile(None)


def _state(window):
    return (window.controller.params, window.lesson.step, window.lesson.scenario, window.tabs.currentIndex(),
            window.controls_scroll.isHidden(), window.size(), window.style_.zoom, window.menuBar().isVisible())


def _wait_for_status(qtbot, window, *prefixes):
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith(prefixes), timeout=900_000)


@pytest.mark.render  # nine slides from the window (~15 s)
def test_slides_from_the_window_keep_it_running_and_cancel_keeps_the_slides_so_far(make_window, tmp_path,
                                                                                   monkeypatch, qtbot):
    window = make_window()
    window.lesson.go_to(3, animate=False)
    window.controller.edit(seed=4)
    window.tabs.setCurrentIndex(1)  # the training lab in front: slides are drawn from the lesson
    window.render_ready()
    before = _state(window)
    monkeypatch.setattr(export_actions.QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp_path)))
    monkeypatch.setattr(export_actions.QInputDialog, "getItem", staticmethod(lambda *a, **k: ("1280 × 720", True)))
    plan = exporting.slide_plan()
    watch = LoopWatch(cancel_at=f"Slide 10 of {len(plan)}")  # the trap whose sweeps take seconds
    work = GuiThreadWork()
    try:
        window.exports.slides_dialog()
        _wait_for_status(qtbot, window, "Wrote")
    finally:
        work.stop()
        watch.stop()
    assert watch.clicked, watch.texts
    assert work.calls == []  # every page's numbers were computed off the GUI thread
    assert window.statusBar().currentMessage() == f"Wrote 9 of {len(plan)} slides to {tmp_path}"
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == [name for name, _, _ in plan[:9]]  # nothing after the Cancel
    for f in files:  # each whole
        assert f.read_bytes().endswith(PNG_END) and QImage(str(f)).size().toTuple() == (1280, 720)
    assert _state(window) == before
    assert QApplication.activeModalWidget() is None and window.exports.running is None


@pytest.mark.render  # ten handout pages from the window (~15 s)
def test_the_handout_from_the_window_shows_its_pages_and_cancel_writes_nothing(make_window, tmp_path,
                                                                               monkeypatch, qtbot):
    window = make_window()
    window.lesson.choose_scenario("qk_norm")
    window.render_ready()
    before = _state(window)
    target = tmp_path / "lesson.html"
    target.write_text("the old handout")
    monkeypatch.setattr(export_actions.QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    titles = [page.title for page in (*STEPS, *SCENARIOS)]  # the handout's pages, in order
    watch = LoopWatch(cancel_at=f"Page 10 of {len(titles)}")
    work = GuiThreadWork()
    try:
        window.exports.handout_dialog()
        _wait_for_status(qtbot, window, "Wrote the handout", "Handout export cancelled")
    finally:
        work.stop()
        watch.stop()
    shown = [t for t in watch.texts if t.startswith("Page ")]
    expected = [f"Page {i} of {len(titles)}: {title}" for i, title in enumerate(titles, start=1)]
    assert shown and shown == [t for t in expected if t in shown]  # in order, each page named
    assert shown[0] == expected[0] and shown[-1] == expected[9]
    assert work.calls == []  # every page's numbers were computed off the GUI thread
    assert window.statusBar().currentMessage() == "Handout export cancelled: nothing was written"
    assert target.read_text() == "the old handout" and [p.name for p in tmp_path.iterdir()] == ["lesson.html"]
    assert _state(window) == before


def test_closing_the_window_during_an_export_puts_it_back_first(make_window, tmp_path, monkeypatch, qtbot):
    window = make_window()
    window.lesson.go_to(2, animate=False)
    window.render_ready()
    before = window.current_state()
    monkeypatch.setattr(export_actions.QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp_path)))
    monkeypatch.setattr(export_actions.QInputDialog, "getItem", staticmethod(lambda *a, **k: ("1024 × 768", True)))
    window.exports.slides_dialog()
    run = window.exports.running
    qtbot.waitUntil(lambda: run.running and len(list(tmp_path.iterdir())) >= 1, timeout=120_000)
    window.close()  # the settings then save the user's state, not a slide's
    assert not run.running and run.cancelled and window.exports.running is None
    assert window.current_state() == before and not window.slide_mode


# --- the drivers ----------------------------------------------------------------------------

def _waiting_export(log, never):
    """Steps that wait for work that never ends, then report how they ended."""
    try:
        if not (yield Page(0, 2, "first")):
            return ["stopped"]
        try:
            yield never
        except Cancelled:
            log.append("cancelled while waiting")
            yield Page(1, 2, "")
            return ["kept"]
        return ["finished"]
    finally:
        log.append("restored")


def test_cancel_reaches_an_export_in_the_middle_of_its_work(qtbot):
    log, never = [], Future()
    run = ExportRun(_waiting_export(log, never))
    with qtbot.waitSignal(run.progressed, timeout=60_000) as page:
        run.start()
    assert page.args == [0, 2, "first"]
    qtbot.wait(30)  # the export now waits for its work, which never ends
    with qtbot.waitSignal(run.finished, timeout=60_000) as finished:
        run.cancel()
    assert finished.args == [["kept"], None] and run.cancelled and not run.running
    assert log == ["cancelled while waiting", "restored"] and not never.done()


def test_an_export_that_cannot_write_reports_the_error_once(qtbot):
    def failing():
        yield Page(0, 1, "only")
        raise OSError(28, "No space left on device")

    run = ExportRun(failing())
    with qtbot.waitSignal(run.finished, timeout=60_000) as finished:
        run.start()
    value, error = finished.args
    assert value is None and isinstance(error, OSError) and error.errno == 28 and not run.cancelled


def test_abort_ends_an_export_within_the_call(qtbot):
    log, never = [], Future()
    run = ExportRun(_waiting_export(log, never))
    with qtbot.waitSignal(run.progressed, timeout=60_000):
        run.start()
    with qtbot.waitSignal(run.finished, timeout=0, raising=False) as finished:
        run.abort()
    assert finished.signal_triggered and finished.args == [None, None]
    assert log == ["restored"] and not run.running


def test_run_blocking_stops_at_once_when_asked_even_while_work_runs():
    log, never = [], Future()
    asked = []

    def should_stop():
        asked.append(True)
        return len(asked) > 3  # asked again and again while it waits

    assert run_blocking(_waiting_export(log, never), should_stop=should_stop, poll=0.01) == ["kept"]
    assert log == ["cancelled while waiting", "restored"]
    assert run_blocking(_waiting_export([], never), progress=lambda i, n, name: False) == ["stopped"]


# --- the command line ---------------------------------------------------------------------

def _interrupt_at(monkeypatch, index):
    """Ctrl+C as the terminal sends it, when the export reaches page ``index``; progress
    lines from the first page on (not after 10 s)."""
    from sqrtdk_gui.cli import export as export_cli
    from sqrtdk_gui.cli.progress import Progress

    monkeypatch.setattr(export_cli, "Progress", functools.partial(Progress, first=0.0, every=0.0))
    real = export_cli.ExportReport.page
    sent = []

    def page(self, i, n, name):
        if i == index and not sent:  # once: a second Ctrl+C would end the process
            sent.append(i)
            os.kill(os.getpid(), signal.SIGINT)
        return real(self, i, n, name)

    monkeypatch.setattr(export_cli.ExportReport, "page", page)


def test_export_slides_shows_progress_and_ctrl_c_keeps_the_slides_so_far(qapp, tmp_path, monkeypatch, capsys):
    from sqrtdk_gui.cli import main as cli

    _interrupt_at(monkeypatch, 2)
    before = signal.getsignal(signal.SIGINT)
    assert cli.main(["export-slides", str(tmp_path), "--size", "640x480"]) == 130
    out, err = capsys.readouterr()
    n = len(exporting.slide_plan())
    lines = err.splitlines()
    assert lines[0].startswith(f"sqrtdk-gui export-slides: slide 0 of {n} (0.0 %)")
    assert any(line.startswith(f"sqrtdk-gui export-slides: slide 1 of {n} ({100 / n:.1f} %)") for line in lines)
    assert lines[-1] == f"sqrtdk-gui: interrupted after 2 of {n} slides; the 2 written are in {tmp_path}"
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == [name for name, _, _ in exporting.slide_plan()[:2]]
    assert signal.getsignal(signal.SIGINT) is before  # the handler is put back


def test_export_handout_shows_progress_and_ctrl_c_writes_nothing(qapp, tmp_path, monkeypatch, capsys):
    from sqrtdk_gui.cli import main as cli

    _interrupt_at(monkeypatch, 1)
    assert cli.main(["export-handout", str(tmp_path / "lesson.html")]) == 130
    out, err = capsys.readouterr()
    n = len(STEPS) + len(SCENARIOS)
    assert err.splitlines()[0].startswith(f"sqrtdk-gui export-handout: page 0 of {n}")
    assert err.splitlines()[-1] == "sqrtdk-gui: interrupted; the handout was not written"
    assert out == "" and list(tmp_path.iterdir()) == []


def test_a_second_ctrl_c_during_an_export_ends_the_process_at_once():
    code = ("import os, signal, time\n"
            "from sqrtdk_gui.cli.progress import StopOnInterrupt\n"
            "with StopOnInterrupt(end_at_second=True) as stop:\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    time.sleep(0.05)\n"
            "    assert stop.requested()\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    time.sleep(5)\n"
            "print('not ended')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert done.returncode == -signal.SIGINT and done.stdout == "" and "Traceback" not in done.stderr


@pytest.mark.render  # every slide, from the window while it presents (~20 s)
def test_slides_from_the_window_are_drawn_off_screen_and_never_shown_in_the_window(make_window, tmp_path,
                                                                                  monkeypatch, qtbot):
    window = make_window(size=(1024, 768))
    window.presentation.enter(full_screen=False)  # a teacher exporting while the projector shows the lesson
    window.lesson.go_to(2, animate=False)
    window.render_ready()
    before = _state(window)
    monkeypatch.setattr(export_actions.QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp_path)))
    monkeypatch.setattr(export_actions.QInputDialog, "getItem", staticmethod(lambda *a, **k: ("1024 × 768", True)))
    seen = []  # what the window showed at each slide: the class's slide of step 2, always
    window.exports.slides_dialog()
    window.exports.running.progressed.connect(
        lambda *_: seen.append((window.lesson_dock.widget() is window.slide, window.lesson.step,
                                window.slide.title.text(), window.slide_mode)))
    _wait_for_status(qtbot, window, "Wrote")
    plan = exporting.slide_plan()
    assert len(seen) >= len(plan) and set(seen) == {(True, 2, seen[0][2], False)}
    assert _state(window) == before and window.presentation.active
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(name for name, _, _ in plan)
    for f in tmp_path.iterdir():  # each whole, as large as asked
        assert f.read_bytes().endswith(PNG_END) and QImage(str(f)).size().toTuple() == (1024, 768)
    # ... and they are the command line's slides, pixel for pixel (though the event loop may
    # have painted the window's off-screen twin before and between its slides).
    from sqrtdk_gui.gui.launch.app import export_slides_headless

    cli = tmp_path / "cli"
    cli.mkdir()
    assert export_slides_headless(str(cli), (1024, 768), "light", 1.0, presentation=True, lang="en") == 0
    differing = [f.name for f in sorted(cli.iterdir()) if QImage(str(f)) != QImage(str(tmp_path / f.name))]
    assert len(list(cli.iterdir())) == len(plan) and differing == []
