"""Bounded work: sweeps keep only what they draw, use a bounded number of rows, can be
cancelled between d_k points, and closing the window never waits for them; a remembered
state that would be slow starts smaller; ``train`` shows progress and reports on Ctrl+C.

No timing assertions: "does not wait" is shown by a sweep point that is still blocked
(deterministically, on an event) when the window has already closed.
"""

from __future__ import annotations

import gc
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import weakref

import numpy as np
import pytest

from sqrtdk_gui.cli import train as train_cli
from sqrtdk_gui.cli.progress import Progress, StopOnInterrupt, format_duration
from sqrtdk_gui.core.attention import dense
from sqrtdk_gui.core.attention import sweep as sweeps
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.sweep import DK_GRID, SWEEP_MAX_ROWS, SweepCancelled, sweep
from sqrtdk_gui.core.io import presets


@pytest.fixture(autouse=True)
def fresh_sweeps():
    sweeps.clear_cache()
    yield
    sweeps.clear_cache()


# --- the model's sweep -------------------------------------------------------------------------

def test_a_sweep_holds_one_full_result_at_a_time_and_keeps_only_summaries(monkeypatch):
    alive = []
    real = dense.compute_dense

    def tracking(params, keep):
        gc.collect()
        still = [ref for ref in alive if ref() is not None]
        assert not still, f"{len(still)} earlier full results still alive during the sweep"
        result = real(params, keep)
        alive.append(weakref.ref(result))
        return result

    monkeypatch.setattr(dense, "compute_dense", tracking)
    s = sweep(Params(keys=16, queries=128))
    assert len(alive) == len(DK_GRID)
    arrays = [s.d_k, s.logit_std, s.theory_std, s.saturated_fraction, s.overflow_count]
    arrays += [a for stats in s.rows.values() for a in stats.values()]
    assert all(isinstance(a, np.ndarray) and a.shape == (len(DK_GRID),) for a in arrays)
    gc.collect()
    assert all(ref() is None for ref in alive)  # the sweep kept no full result


def test_a_sweep_uses_at_most_the_first_sweep_max_rows_and_says_so():
    big = sweep(Params(queries=4 * SWEEP_MAX_ROWS, keys=8), d_ks=(4, 64))
    capped = sweep(Params(queries=SWEEP_MAX_ROWS, keys=8), d_ks=(4, 64))
    small = sweep(Params(queries=100, keys=8), d_ks=(4, 64))
    assert big.rows_used == capped.rows_used == SWEEP_MAX_ROWS and small.rows_used == 100
    # Nested sampling: the first rows of the large sample are the capped sample itself.
    np.testing.assert_array_equal(big.stat("entropy", "median"), capped.stat("entropy", "median"))
    assert not np.array_equal(small.stat("entropy", "median"), capped.stat("entropy", "median"))


def test_a_sweep_stops_between_points_when_cancelled_and_caches_nothing(monkeypatch):
    calls = []
    real = dense.compute_dense
    monkeypatch.setattr(dense, "compute_dense", lambda p, keep: (calls.append(p.d_k), real(p, keep))[1])
    params = Params(keys=8, queries=32)
    with pytest.raises(SweepCancelled):
        sweep(params, cancelled=lambda: len(calls) >= 3)
    assert calls == list(DK_GRID[:3])
    calls.clear()
    full = sweep(params, cancelled=lambda: False)  # not served from a half-done cache entry
    assert len(calls) == len(DK_GRID) and full.d_k.tolist() == list(DK_GRID)
    assert sweep(params) is full


# --- the controller's worker -------------------------------------------------------------------

class _Gate:
    """Makes the worker's first sweep point wait until released (the main thread never waits)."""

    def __init__(self, monkeypatch):
        self.entered, self.release = threading.Event(), threading.Event()
        self.worker_points, self.started_after_request = [], []
        real = dense.compute_dense
        main = threading.main_thread()

        self.requested = threading.Event()  # set once the newer request has been made

        def gated(params, keep):
            if threading.current_thread() is not main:
                self.worker_points.append(params)
                self.started_after_request.append(self.requested.is_set())
                if len(self.worker_points) == 1:
                    self.entered.set()
                    assert self.release.wait(30), "the test never released the sweep"
            return real(params, keep)

        monkeypatch.setattr(dense, "compute_dense", gated)


def test_an_overtaken_sweep_is_abandoned_at_its_next_point(qtbot, monkeypatch):
    from sqrtdk_gui.gui.window.controller import Controller

    gate = _Gate(monkeypatch)
    controller = Controller(Params(keys=8, queries=32), threaded=True)
    try:
        controller.flush()
        # The sweep starts once the controls rest: the worker is then inside its first point.
        qtbot.waitUntil(gate.entered.is_set, timeout=20000)
        controller.set_params(temperature=0.5)
        controller.flush()  # a newer request: the first sweeps are now stale
        gate.requested.set()
        gate.release.set()
        final = controller.params.replace(d_k=1)
        qtbot.waitUntil(lambda: controller.sweeps_for == final, timeout=30000)
        # The compared scalings sweep side by side; each stale one stopped after the point it
        # was in: no stale point began after the newer request.
        stale_after = [p for p, after in zip(gate.worker_points, gate.started_after_request)
                       if after and p.temperature == 1.0]
        assert stale_after == []
        assert any(p.temperature == 1.0 for p in gate.worker_points)
    finally:
        gate.release.set()
        controller.shutdown()


CLOSE_DURING_SWEEP = textwrap.dedent(r"""
    import atexit, json, os, sys, threading
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    points, after_close, report = [], [], {}

    @atexit.register  # registered first, so it runs last: after any wait for the sweep thread
    def print_report():
        report.update(points_before_close=len(points) - len(after_close),
                      points_after_close=len(after_close))
        print(json.dumps(report), flush=True)

    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from sqrtdk_gui.core.attention import dense
    from sqrtdk_gui.core.attention.sweep import DK_GRID
    from sqrtdk_gui.core.attention.params import Params
    from sqrtdk_gui.gui.window.main_window import MainWindow

    gated = sys.argv[1] == "gated"
    entered, release, closed = threading.Event(), threading.Event(), threading.Event()
    real = dense.compute_dense

    def counting(params, keep):
        if threading.current_thread() is not threading.main_thread():
            points.append(params.d_k)
            if closed.is_set():
                after_close.append(params.d_k)
            entered.set()
            if gated:
                release.wait(60)
        return real(params, keep)

    dense.compute_dense = counting
    # The largest sizes the controls allow; the sweep starts once the controls rest.
    w = MainWindow(Params(queries=8192, keys=1024, d_k=4096), threaded=True)
    w.show()
    while not entered.is_set():
        app.processEvents()
        entered.wait(0.05)
    w.close()
    closed.set()
    report.update(close_returned_while_blocked=gated and not release.is_set(),
                  grid=2 * len(DK_GRID))
    release.set()
    w.deleteLater()
    app.processEvents()
    sys.exit(0)
""")


@pytest.mark.parametrize("mode", ["gated", "free"])
def test_closing_during_a_big_sweep_exits_promptly_with_status_0(mode):
    # gated: the sweep point cannot finish before the window has closed, so close() returned
    # without waiting for it; the process still exits cleanly (status 0, no thread aborts it).
    # free: a real sweep at the largest sizes is abandoned at its next point.
    done = subprocess.run([sys.executable, "-c", CLOSE_DURING_SWEEP, mode], capture_output=True,
                          text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "QThread" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["points_after_close"] <= 1, report  # at most the point it was in
    assert report["points_before_close"] + report["points_after_close"] < report["grid"], report
    if mode == "gated":
        assert report["close_returned_while_blocked"], report


# --- a remembered state that would be slow ------------------------------------------------------

def test_a_remembered_state_that_would_be_slow_starts_smaller_with_a_warning(qtbot, tmp_path,
                                                                            monkeypatch, capsys):
    from sqrtdk_gui.gui.launch.app import Launch, prepare_window
    from sqrtdk_gui.gui.window.settings import RESTORE_MAX_LOGITS, Settings, restorable

    big = presets.State(params=Params(queries=8192, keys=1024, d_k=4096, scaling="none"), step=2)
    ini = tmp_path / "settings.ini"
    from PySide6.QtCore import QByteArray

    Settings(str(ini)).save(QByteArray(), big)
    monkeypatch.setenv("SQRTDK_GUI_SETTINGS", str(ini))
    window, _ = prepare_window(Launch(), interactive=True)
    qtbot.addWidget(window)
    p = window.controller.params
    assert p.queries * p.keys <= RESTORE_MAX_LOGITS and p.queries == 1024
    assert p.replace(queries=8192) == big.params and window.lesson.step == 2
    err = capsys.readouterr().err
    assert "8,192 queries" in err and "1,024 queries" in err and len(err.splitlines()) == 1
    # Asked for explicitly (a flag or a preset), the same size is not cut.
    window2, _ = prepare_window(Launch(params={"queries": 8192}), interactive=True)
    qtbot.addWidget(window2)
    assert window2.controller.params.queries == 8192
    assert restorable(presets.State())[1] is None
    window.close()
    window2.close()


def test_the_status_line_says_when_sweeps_are_subsampled(make_window):
    window = make_window(Params(queries=2 * SWEEP_MAX_ROWS, keys=8), threaded=False)
    window.render_ready()
    assert f"curves versus d_k from the first {SWEEP_MAX_ROWS:,} queries" in window.status_label.text()
    assert window.controller.sweeps["none"].rows_used == SWEEP_MAX_ROWS
    window.controller.set_params(queries=SWEEP_MAX_ROWS)
    window.render_ready()
    assert "curves versus d_k" not in window.status_label.text()


# --- train: progress and Ctrl+C --------------------------------------------------------------------

class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_progress_on_a_terminal_is_one_bar_redrawn_and_erased():
    stream, clock = io.StringIO(), _Clock()
    bar = Progress(100_000, stream, label="train: ", tty=True, clock=clock)
    bar.update(10)  # before the first second: nothing
    assert stream.getvalue() == ""
    clock.now = 2.0
    bar.update(1_000)
    clock.now = 2.05
    bar.update(1_001)  # within a tenth of a second of the last draw: not redrawn
    clock.now = 4.0
    bar.update(2_000)
    bar.finish()
    text = stream.getvalue()
    assert "\n" not in text and text.count("\r\x1b[2K") == 3  # two draws, one erase
    assert "step 1,000 of 100,000 (1.0 %)" in text and "about 3 min 18 s left" in text
    assert "[" + "." * Progress.BAR + "]" in text and text.endswith("\r\x1b[2K")


def test_progress_elsewhere_is_a_line_every_ten_seconds_and_nothing_for_quick_runs():
    stream, clock = io.StringIO(), _Clock()
    log = Progress(1_000, stream, tty=False, clock=clock)
    for step in range(1, 100):
        clock.now = step * 0.05
        log.update(step)
    log.finish()
    assert stream.getvalue() == ""  # a 5-second run prints nothing
    for step in range(100, 1_000):
        clock.now = step * 0.05
        log.update(step)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4 and lines[0].startswith("step 200 of 1,000 (20.0 %), 10 s elapsed")
    assert format_duration(70_000) == "19 h 26 min" and format_duration(42) == "42 s"


def test_ctrl_c_during_train_prints_the_partial_result_and_exits_130(monkeypatch, capsys):
    class InterruptAtFive(Progress):
        def update(self, done, *rest):
            if done == 5:
                os.kill(os.getpid(), signal.SIGINT)  # as the terminal's Ctrl+C would
            super().update(done, *rest)

    monkeypatch.setattr(train_cli, "Progress", InterruptAtFive)
    before = signal.getsignal(signal.SIGINT)
    from sqrtdk_gui.cli import main as cli

    assert cli.main(["train", "--steps", "100000", "--json", "--batch", "8"]) == 130
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["cancelled"] is True and result["steps_done"] == 5
    assert len(result["loss_curve"]) == 5 and result["config"]["steps"] == 100_000
    assert err.strip() == "sqrtdk-gui: interrupted after 5 of 100,000 steps; the partial result is above"
    assert signal.getsignal(signal.SIGINT) is before  # the handler is put back


def test_a_second_ctrl_c_interrupts_at_once():
    with StopOnInterrupt() as stop:
        os.kill(os.getpid(), signal.SIGINT)
        assert stop.requested()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
