"""The training lab tab: what it trains is exactly what the core trains, off the UI thread."""

import threading
import time

import numpy as np
import pyqtgraph as pg
import pytest
from pens import line_look
from PySide6.QtCore import QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.scaling import TRAINED_SCALINGS as SCALINGS
from sqrtdk_gui.core.training.loop import DEFAULT_LR, TrainConfig, train
from sqrtdk_gui.core.training.lr_sweep import run_sweep
from sqrtdk_gui.gui.lab import LabPage
from sqrtdk_gui.gui.lab import worker as lab_worker
from sqrtdk_gui.gui.lab.controls import DEFAULTS, HIGH_LR_PRESET, LR_LADDER
from sqrtdk_gui.gui.lab.plots import fmt_accuracy, fmt_loss, fmt_steps, fmt_stuck
from sqrtdk_gui.gui.lab.worker import TrainJob, TrainWorker
from sqrtdk_gui.gui.style import Style
from sqrtdk_gui.gui.window.main_window import MainWindow

pytestmark = pytest.mark.training  # CI also runs these under several BLAS kernels


@pytest.fixture
def page(qtbot):
    p = LabPage(Style())
    qtbot.addWidget(p)  # closing it at teardown also stops its worker thread
    p.resize(1400, 900)
    p.show()
    qtbot.waitExposed(p)
    return p


def run_to_end(qtbot, page, timeout=60000):
    with qtbot.waitSignal(page.run_finished, timeout=timeout) as blocker:
        page.run_button.click()
    return blocker.args[0]  # cancelled


def test_curves_and_readouts_equal_the_core(qtbot, page):
    page.controls.set_values(mode="single", d_k=16, steps=60, seed=3, qk_norm=True, lr=0.5)
    assert run_to_end(qtbot, page) is False
    assert page.run_button.isEnabled() and not page.cancel_button.isEnabled()
    for s in SCALINGS:
        want = train(TrainConfig(d_k=16, steps=60, seed=3, scaling=s))
        x, loss = page.loss_panel.curves[s].getData()
        np.testing.assert_array_equal(x, np.arange(60))
        # yData: the data as given (getData is log10 on the log-scale loss plot).
        np.testing.assert_array_equal(page.loss_panel.curves[s].yData, want.loss)
        np.testing.assert_array_equal(page.accuracy_panel.curves[s].getData()[1], want.accuracy)
        np.testing.assert_array_equal(page.stuck_panel.curves[s].getData()[1], 100 * want.stuck)
        np.testing.assert_array_equal(page.results[s].loss, want.loss)
        cells = page.table.cells[s]
        assert cells["loss"].text() == fmt_loss(want.final_loss)
        assert cells["accuracy"].text() == f"{want.final_accuracy:.3f}"
        assert cells["accuracy"].text() == fmt_accuracy(want.final_accuracy)
        assert cells["steps"].text() == fmt_steps(want.steps_to_90)
        assert cells["stuck"].text() == fmt_stuck(want.stuck_fraction)
        assert cells["status"].text() == "done"
        # the over-training row shows the same run
        assert np.array_equal(page.logit_panel.curves[s].yData, np.log10(want.max_logit))
        assert np.array_equal(page.entropy_panel.curves[s].yData, want.entropy)
    assert page.progress.value() == page.progress.maximum() == 3 * 60
    low, high = page.loss_panel.plot.viewRange()[1]  # log10 units: whole decades, 1e-6 … 1e4
    assert -6.5 < low < high < 4.5
    assert "d_k = 16" in page.trained_with.text() and "60 steps" in page.trained_with.text()


def test_readout_formats():
    assert fmt_loss(1.8079) == "1.81" and fmt_loss(2.76e-4) == "2.8e-4"
    assert fmt_steps(None) == "not reached" and fmt_steps(None, finished=False) == "not yet"
    assert fmt_steps(21) == "21" and fmt_stuck(0.912) == "91.2 %" and fmt_accuracy(1.0) == "1.000"


def _turns_while_running(qtbot, page) -> bool:
    """Whether a zero-delay callback queued now runs while the worker is still training.

    A run in the UI thread would block the event loop until it finished, so the callback
    would only see a finished runner.
    """
    seen = []
    QTimer.singleShot(0, lambda: seen.append(page.runner.is_running and not page.runner.running.done()))
    qtbot.waitUntil(lambda: bool(seen), timeout=20000)
    return seen[0]


def test_cancel_is_prompt_and_the_ui_thread_keeps_running(qtbot, page, monkeypatch):
    threads = set()

    def spy(config, progress=None, should_stop=None, **kwargs):
        threads.add(threading.get_ident())
        done = [0]

        def report(steps, curves):
            done[0] = steps
            progress(steps, curves)

        def held():
            # Past step 200 a run waits for Cancel: on a loaded machine the UI thread may see
            # the progress late, and no run may finish before the test presses Cancel.
            deadline = time.monotonic() + 60
            while done[0] >= 200 and not should_stop() and time.monotonic() < deadline:
                time.sleep(0.005)
            return should_stop()

        return train(config, progress=report, should_stop=held, **kwargs)

    monkeypatch.setattr(lab_worker, "train", spy)
    page.controls.set_values(mode="single", d_k=1024, steps=2000, qk_norm=True)  # ~20 s
    progress = []
    page.runner.progress.connect(lambda i, done, curves: progress.append((i, done)))
    page.run_button.click()
    assert page.cancel_button.isEnabled() and not page.run_button.isEnabled()
    assert not page.controls.isEnabled()
    # The event loop keeps turning while the worker trains, and progress arrives during the
    # run (a run in the UI thread would deliver neither until it finished).
    assert _turns_while_running(qtbot, page)
    qtbot.waitUntil(lambda: page.progress.value() >= 150, timeout=60000)
    assert threads and threading.get_ident() not in threads  # trained off the UI thread
    assert len(progress) >= 2
    for run in {i for i, _ in progress}:  # runs train side by side, each in order
        steps = [done for i, done in progress if i == run]
        assert steps == sorted(steps)
    with qtbot.waitSignal(page.run_finished, timeout=10000) as blocker:
        page.cancel_button.click()
    assert blocker.args == [True]
    assert page.run_button.isEnabled() and page.controls.isEnabled()
    assert not page.runner.is_running
    n = page.loss_panel.curves["none"].yData.size
    assert 0 < n < 2000
    assert page.table.cells["none"]["status"].text() == f"cancelled at step {n}"
    assert page.table.cells["qk_norm"]["status"].text() == "cancelled"
    # The same page runs again after a cancel.
    page.controls.set_values(mode="single", d_k=8, steps=50, qk_norm=False)
    assert run_to_end(qtbot, page) is False
    assert page.loss_panel.curves["none"].yData.size == 50


def test_changing_the_optimiser_resets_the_learning_rate(qtbot, page):
    c = page.controls
    c.set_values(optimizer="sgd")  # the optimiser's own default rate (the demo's is 5)
    assert c.lr_spin.value() == DEFAULT_LR["sgd"]
    c.lr_spin.setValue(0.02)
    c.optimizer_combo.setCurrentIndex(c.optimizer_combo.findData("adam"))
    assert c.lr_spin.value() == DEFAULT_LR["adam"] and c.config_for("none").lr == DEFAULT_LR["adam"]
    c.lr_spin.setValue(0.05)
    c.optimizer_combo.setCurrentIndex(c.optimizer_combo.findData("sgd"))
    assert c.lr_spin.value() == DEFAULT_LR["sgd"]


def test_learning_rate_steps_through_a_log_ladder(qtbot, page):
    spin = page.controls.lr_spin
    assert DEFAULT_LR["sgd"] in LR_LADDER and DEFAULT_LR["adam"] in LR_LADDER and 5.0 in LR_LADDER
    spin.setValue(0.5)
    spin.stepBy(1)
    assert spin.value() == 1.0
    spin.stepBy(-2)
    assert spin.value() == 0.3
    spin.setValue(0.007)  # off the ladder: the arrows go to the next rung
    spin.stepBy(1)
    assert spin.value() == 0.01
    assert spin.text() == "0.01"


def test_dk_slider_and_spin_box(qtbot, page):
    c = page.controls
    c.dk_slider.setValue(8)
    assert c.dk_spin.value() == 256 and c.config_for("none").d_k == 256
    c.dk_spin.setValue(300)  # any integer; the knob goes to the nearest power of two
    assert c.dk_slider.value() == 8 and c.config_for("none").d_k == 300
    c.dk_spin.setValue(4)
    assert c.dk_slider.value() == c.dk_slider.minimum()


def test_controls_map_to_the_configs_the_worker_receives(qtbot, page):
    c = page.controls
    c.set_values(mode="single")
    c.dk_spin.setValue(48)
    c.optimizer_combo.setCurrentIndex(c.optimizer_combo.findData("adam"))
    c.lr_spin.setValue(0.01)
    c.steps_spin.setValue(100)
    c.seed_spin.setValue(7)
    c.loss_combo.setCurrentIndex(c.loss_combo.findData("ce"))
    want = tuple(TrainConfig(d_k=48, optimizer="adam", lr=0.01, steps=100, seed=7, loss="ce",
                             scaling=s) for s in ("none", "sqrt_dk"))
    assert c.configs() == want
    c.qk_check.setChecked(True)
    want += (TrainConfig(d_k=48, optimizer="adam", lr=0.01, steps=100, seed=7, loss="ce",
                         scaling="qk_norm"),)
    assert c.configs() == want
    # raw and ÷√d_k cannot be switched off
    assert not c.scaling_checks["none"].isEnabled() and not c.scaling_checks["sqrt_dk"].isEnabled()
    with qtbot.waitSignal(page.runner.job_started, timeout=10000) as blocker:
        page.run_button.click()
    assert blocker.args[0] == want
    qtbot.waitUntil(lambda: not page.runner.is_running, timeout=60000)
    assert "cross-entropy" in page.loss_panel.title.text().lower()


def test_high_rate_preset_shows_the_stall_and_says_what_it_is(qtbot, page):
    assert "lr 5" in page.stall_button.text() and "10× default" in page.stall_button.text()
    with qtbot.waitSignal(page.run_finished, timeout=60000):
        page.stall_button.click()
    c = page.controls
    assert c.mode() == "single"
    cfg = c.config_for("none")
    assert (cfg.d_k, cfg.optimizer, cfg.lr, cfg.loss) == tuple(HIGH_LR_PRESET[k] for k in
                                                              ("d_k", "optimizer", "lr", "loss"))
    # What it shows is the core's run (that raw stalls there on every seed and BLAS kernel
    # is a claim of core/lab_claims.py, checked over seeds in test_lab_claims.py).
    for s in ("none", "sqrt_dk"):
        want = train(c.config_for(s))
        np.testing.assert_array_equal(page.results[s].accuracy, want.accuracy)
        assert page.table.cells[s]["steps"].text() == fmt_steps(want.steps_to_90)
    raw, scaled = page.results["none"], page.results["sqrt_dk"]
    if raw.steps_to_90 is None and scaled.steps_to_90 is not None:
        assert "raw logits <b>never did</b>" in page.table.verdict.text()
    c.set_values(mode="sweep", lr=0.5, n_seeds=3)
    c.defaults_button.click()  # the default is this demo again
    assert c.mode() == "single" and c.seeds() == tuple(range(DEFAULTS["n_seeds"]))
    assert c.config_for("none") == TrainConfig(d_k=DEFAULTS["d_k"], scaling="none", lr=5.0)


def test_editing_after_a_run_marks_the_curves_as_stale(qtbot, page):
    page.controls.set_values(mode="single", d_k=8, steps=50)
    run_to_end(qtbot, page)
    assert "press Run" not in page.trained_with.text()
    page.controls.seed_spin.setValue(5)
    assert "press Run" in page.trained_with.text() and "seed 0" in page.trained_with.text()


class FakeClock:
    """Advances by ``tick`` seconds at every reading: the throttle is counted, not timed."""

    def __init__(self, tick: float) -> None:
        self.tick, self.readings = tick, 0

    def __call__(self) -> float:
        self.readings += 1
        return (self.readings - 1) * self.tick


def test_worker_throttles_progress_and_returns_the_core_result(qtbot):
    # Called directly (same thread, direct connections): the throttle is the worker's own.
    # The core reports every step; with the clock advancing 0.02 s per report and a 0.05 s
    # interval, every third report is sent. One training thread: the reports come in order.
    clock = FakeClock(0.02)
    worker = TrainWorker(min_interval=0.05, clock=clock, workers=1)
    events, results, finished = [], [], []
    worker.progress.connect(lambda job, i, done, curves: events.append((i, done)))
    worker.result_ready.connect(lambda job, i, result: results.append(result))
    worker.job_finished.connect(lambda job, cancelled: finished.append(cancelled))
    configs = (TrainConfig(d_k=32, steps=300, scaling="none"),
               TrainConfig(d_k=32, steps=300, scaling="sqrt_dk"))
    worker.run(TrainJob(1, configs))
    assert finished == [False] and clock.readings == 600
    assert events == [(i, done) for i in (0, 1) for done in range(1, 301, 3)]
    for config, result in zip(configs, results):
        np.testing.assert_array_equal(result.loss, train(config).loss)


def test_sweep_worker_throttles_but_always_reports_the_last_step(qtbot):
    from sqrtdk_gui.gui.lab.worker import SweepJob

    worker = TrainWorker(min_interval=0.05, clock=FakeClock(0.02), workers=1)
    events = []
    worker.progress.connect(lambda job, i, done, curves: events.append((i, done)))
    worker.run(SweepJob(1, TrainConfig(d_k=8, steps=20, batch=8), ("none", "sqrt_dk"),
                        (0.1, 1.0), (0,)))
    # Reports 1..20 per scaling on one clock: every third, plus each scaling's final step.
    assert events == ([(0, d) for d in (1, 4, 7, 10, 13, 16, 19, 20)]
                      + [(1, d) for d in (3, 6, 9, 12, 15, 18, 20)])


def test_two_training_threads_report_every_run_with_the_numbers_of_one(qtbot):
    from sqrtdk_gui.gui.lab.worker import SweepJob

    worker = TrainWorker(min_interval=0.0, workers=2)  # every report sent
    events, results, sweeps = [], {}, {}
    worker.progress.connect(lambda job, i, done, curves: events.append((i, done)))
    worker.result_ready.connect(lambda job, i, result: results.__setitem__(i, result))
    worker.sweep_ready.connect(lambda job, i, sweep: sweeps.__setitem__(i, sweep))
    configs = tuple(TrainConfig(d_k=32, steps=60, scaling=s) for s in SCALINGS)
    worker.run(TrainJob(1, configs))
    qtbot.waitUntil(lambda: len(results) == 3 and len(events) == 180, timeout=60_000)  # queued from the threads
    for i, config in enumerate(configs):  # each run as trained alone, all its steps reported
        np.testing.assert_array_equal(results[i].loss, train(config).loss)
        assert sorted(d for j, d in events if j == i) == list(range(1, 61))
    job = SweepJob(2, TrainConfig(d_k=8, steps=30, batch=8), SCALINGS, (0.1, 1.0), (0, 1))
    worker.run(job)
    qtbot.waitUntil(lambda: len(sweeps) == 3, timeout=60_000)
    alone = run_sweep(job.config, job.scalings, job.lrs, job.seeds, workers=1)
    assert sorted(sweeps) == [0, 1, 2]
    for i, s in enumerate(SCALINGS):
        for mine, theirs in zip(sweeps[i].runs, alone.scalings[s].runs):
            for a, b in zip(mine, theirs):
                np.testing.assert_array_equal(a.loss, b.loss)


def test_worker_reports_failure_and_still_finishes(qtbot):
    worker = TrainWorker()
    failed, finished = [], []
    worker.job_failed.connect(lambda job, message: failed.append(message))
    worker.job_finished.connect(lambda job, cancelled: finished.append(cancelled))
    worker.run(TrainJob(1, ("not a config",)))
    assert failed and finished == [False]


def test_theme_and_zoom_restyle_the_page(qtbot, page):
    page.controls.set_values(mode="single", d_k=8, steps=50)
    run_to_end(qtbot, page)
    page.style_.set_theme("dark")
    page.style_.set_zoom(1.5)
    page.apply_style()
    dark = page.style_.palette
    for s in SCALINGS:
        assert page.accuracy_panel.curves[s].opts["pen"].color().name().upper() == \
            page.style_.colour_for(s).upper()
    assert page.style_.colour_for("sqrt_dk") == dark.scaled
    assert page.run_button.font().pointSize() == page.style_.pt(15)
    assert dark.strip in page.table.styleSheet()
    # the numbers survive a restyle
    assert page.table.cells["none"]["status"].text() == "done"


def test_closing_the_window_mid_run_stops_the_thread(qtbot):
    window = MainWindow(Params(queries=64, keys=16))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.tabs.tabText(1) == "Training lab"
    window.tabs.setCurrentIndex(1)  # the page is built when its tab is first opened
    page = window.lab_page
    qtbot.waitUntil(page.isVisible, timeout=60_000)  # a widget added to a shown layout is shown queued
    page.controls.set_values(d_k=1024, steps=2000)
    with qtbot.waitSignal(page.runner.progress, timeout=20000):
        page.run_button.click()
    run = page.runner.running
    assert not run.done()
    window.close()
    assert run.done() and not page.runner.is_running
    assert page.runner.running is None


# --- learning-rate sweeps -----------------------------------------------------------------

def test_the_quick_demo_is_the_default_and_the_sweep_shows_what_the_core_computes(qtbot, page):
    from sqrtdk_gui.core.training.lr_sweep import LR_GRID, band, run_sweep, verdict

    c = page.controls
    # The default finishes in seconds in front of a class: one run per scaling at lr 5.
    assert c.mode() == "single" and c.config_for("none") == TrainConfig(d_k=256, scaling="none", lr=5.0)
    c.set_values(mode="sweep")
    assert "Run sweep" in page.run_button.text() and "s a seed" in c.sweep_button.toolTip()
    assert not c.lr_spin.isVisible() and c.grid_label.isVisible()
    c.set_values(d_k=16, steps=50, n_seeds=2)
    with qtbot.waitSignal(page.runner.job_started, timeout=10000) as started:
        page.run_button.click()
    assert [cfg.scaling for cfg in started.args[0]] == ["none", "sqrt_dk"]
    qtbot.waitUntil(lambda: not page.runner.is_running, timeout=60000)
    want = run_sweep(TrainConfig(d_k=16, steps=50), ("none", "sqrt_dk"), LR_GRID["sgd"], (0, 1))
    assert list(page.sweeps) == ["none", "sqrt_dk"]
    j = page.curve_lr.currentIndex()
    assert page.curve_lr.currentData() == LR_GRID["sgd"][j] == 5.0
    for s, sw in want.scalings.items():
        got = page.sweeps[s]
        np.testing.assert_array_equal(got.steps_to_90(), sw.steps_to_90())
        np.testing.assert_array_equal(got.final_loss(), sw.final_loss())
        x, y = page.steps_lr_panel.curves[s].getData()
        np.testing.assert_allclose(x, np.log10(LR_GRID["sgd"]))
        s90 = np.where(np.isnan(sw.steps_to_90()), np.inf, sw.steps_to_90())
        med = np.minimum(np.log10(band(s90)[0]), page.steps_lr_panel.never_y())
        np.testing.assert_allclose(y, med)
        cells = page.sweep_table.cells[s]
        w = sw.working_lrs()
        assert cells["works"].text() == f"{min(sw.working_counts())}" + (
            "" if len(set(sw.working_counts())) == 1 else f"–{max(sw.working_counts())}") + " of 9"
        assert cells["range"].text() == (f"{w[0]:g} … {w[-1]:g}" if len(w) > 1 else
                                         f"{w[0]:g}" if w else "none")
        # the over-training row: the median over the seeds at the chosen rate
        med_logit = band(sw.curves("max_logit", j))[0]
        np.testing.assert_allclose(page.logit_panel.curves[s].yData, np.log10(med_logit))
        np.testing.assert_allclose(page.entropy_panel.curves[s].yData,
                                   band(sw.curves("entropy", j))[0])
    assert page.sweep_table.verdict.text() == verdict(want.scalings)
    assert "seeds 0–1" in page.trained_with.text() and "9 rates" in page.trained_with.text()
    # choosing another rate redraws the over-training row from the stored sweep
    page.curve_lr.setCurrentIndex(0)
    np.testing.assert_allclose(page.logit_panel.curves["none"].yData,
                               np.log10(band(want.scalings["none"].curves("max_logit", 0))[0]))
    assert page.steps_lr_panel.selected.value() == pytest.approx(np.log10(0.05))


def test_sweep_cancel_is_prompt_and_keeps_finished_scalings(qtbot, page):
    page.controls.set_values(mode="sweep", d_k=1024, steps=2000, n_seeds=5, qk_norm=True)  # minutes if left
    page.run_button.click()
    assert not page.controls.isEnabled() and page.cancel_button.isEnabled()
    assert _turns_while_running(qtbot, page)  # the event loop kept turning
    qtbot.waitUntil(lambda: page.progress.value() >= 20, timeout=60000)
    with qtbot.waitSignal(page.run_finished, timeout=10000) as blocker:
        page.cancel_button.click()
    assert blocker.args == [True] and page.sweeps == {}
    assert page.sweep_table.cells["none"]["best"].text() == "cancelled"
    assert page.progress.format() == "cancelled" and page.run_button.isEnabled()


def test_modes_swap_the_rate_and_seed_controls(qtbot, page):
    c = page.controls
    c.set_values(mode="single")
    assert c.lr_spin.isVisible() and not c.grid_label.isVisible()
    assert c.seed_spin.isVisible() and not c.seeds_spin.isVisible()
    assert page.top_stack.currentIndex() == 1 and page.run_button.text() == "▶  Run"
    c.set_values(mode="sweep", optimizer="adam", n_seeds=4, layers=3, learn_v=True)
    assert c.grid_label.text() == "0.0001 … 1 (9 rates)"
    config, scalings, lrs, seeds = c.sweep_request()
    assert (config.layers, config.learn_v, config.optimizer) == (3, True, "adam")
    assert scalings == ("none", "sqrt_dk") and seeds == (0, 1, 2, 3) and len(lrs) == 9
    assert page.top_stack.currentIndex() == 0


def test_lab_curves_differ_in_line_style_not_colour_alone(page):
    # Raw against ÷√d_k (and QK-norm): each scaling has its own pen style, and the sweep
    # plots their own markers, so a greyscale projector still tells them apart.
    for panel in (page.loss_panel, page.accuracy_panel, page.steps_lr_panel, page.logit_panel):
        styles = {s: line_look(c.opts["pen"]) for s, c in panel.curves.items()}
        assert len(set(styles.values())) == len(styles), (panel, styles)
    symbols = {s: c.opts["symbol"] for s, c in page.steps_lr_panel.curves.items()}
    assert len(set(symbols.values())) == len(symbols)


def test_the_selected_rate_is_a_dashed_line_with_no_words_across_the_curves(page):
    # The rate of the over-training plots is marked by a dashed line; what it means is the
    # panel's subtitle, not words in the plot (left of a cliff every height has a curve).
    page.resize(1280, 720)
    page.show()
    QApplication.processEvents()
    panel = page.steps_lr_panel
    panel.select(20.0)
    assert panel.selected.isVisible() and panel.selected.value() == pytest.approx(np.log10(20.0))
    assert not [i for i in panel.plot.items if isinstance(i, pg.TextItem)]
    assert not [c for c in panel.selected.childItems() if isinstance(c, pg.InfLineLabel)]
    assert "rate plotted below" in panel.subtitle
    panel.select(None)
    assert not panel.selected.isVisible()


def test_a_reference_line_s_label_shrinks_then_ends_in_an_ellipsis_never_cut(qtbot):
    import pyqtgraph as pg
    from PySide6.QtGui import QFont

    from sqrtdk_gui.gui.plotting.fit import SMALLEST, fit_line_labels

    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    line = pg.InfiniteLine(pos=0.5, angle=0)
    label = pg.InfLineLabel(line, text="gleichverteilt über alle Keys", position=0.98, anchors=[(1, 0), (1, 0)])
    widget.addItem(line)
    box = widget.getPlotItem().getViewBox()
    font = QFont()
    font.setPointSize(12)
    full = QFontMetrics(font).horizontalAdvance("gleichverteilt über alle Keys")
    widget.show()
    for room, shrinks, elided in ((full + 40, False, False), (0.85 * full, True, False), (0.5 * full, True, True)):
        widget.resize(900, 200)
        QApplication.processEvents()
        widget.resize(int(900 - box.width() + room + 6), 200)  # the plot's own room: room
        QApplication.processEvents()
        fit_line_labels(box, [label], font)
        used = label.textItem.font().pointSizeF()
        assert (used < 12) == shrinks and used >= 12 * SMALLEST
        assert label.format.endswith("…") == elided
        assert label.toolTip() == ("gleichverteilt über alle Keys" if elided else "")
        drawn = QFontMetrics(label.textItem.font()).horizontalAdvance(label.format)
        assert drawn <= box.width() - 6 + 1

