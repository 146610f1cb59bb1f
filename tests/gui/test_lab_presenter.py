"""The training lab's presenter against an autospec'd page and a fake runner: which view
methods a run calls, with which arguments, in which order (no window shown, nothing trained
in a thread)."""

import inspect
from unittest.mock import call, create_autospec

import numpy as np
import pytest
from PySide6.QtCore import QObject, Signal

from sqrtdk_gui.core.training.loop import TrainConfig, TrainResult, train
from sqrtdk_gui.core.training.lr_sweep import LR_GRID
from sqrtdk_gui.gui.lab.controls import HIGH_LR_PRESET, LAB_LABELS, LabControls
from sqrtdk_gui.gui.lab.lab_page import LabPage
from sqrtdk_gui.gui.lab.presenter import OVER_TRAINING, STALE_NOTE, LabPresenter, LabView, describe, describe_sweep
from sqrtdk_gui.gui.style import Style

RAW, SCALED, QK = LAB_LABELS["none"], LAB_LABELS["sqrt_dk"], LAB_LABELS["qk_norm"]


class FakeRunner(QObject):
    """TrainRunner's signals and calls; the test says when a job starts, reports and ends."""

    job_started = Signal(object)
    progress = Signal(int, int, object)
    result_ready = Signal(int, object)
    job_finished = Signal(bool)
    job_failed = Signal(str)
    sweep_ready = Signal(int, object)

    def __init__(self) -> None:
        super().__init__()
        self.is_running = False
        self.calls: list[tuple] = []

    def start(self, configs) -> int:
        self.calls.append(("start", tuple(configs)))
        self.is_running = True
        return len(self.calls)

    def start_sweep(self, config, scalings, lrs, seeds) -> int:
        self.calls.append(("start_sweep", config, tuple(scalings), tuple(lrs), tuple(seeds)))
        self.is_running = True
        return len(self.calls)

    def cancel(self) -> None:
        self.calls.append(("cancel",))

    def shutdown(self) -> None:
        self.calls.append(("shutdown",))
        self.is_running = False

    def finish(self, cancelled: bool = False) -> None:
        """As TrainRunner does: no longer running when job_finished arrives."""
        self.is_running = False
        self.job_finished.emit(cancelled)


class FakeSweep:
    """A finished ScalingSweep as the presenter uses it: its scaling and curves at rate j."""

    def __init__(self, scaling: str, seeds: int = 2, steps: int = 50) -> None:
        self.scaling = scaling
        self.shape = (seeds, steps)

    def curves(self, metric: str, j: int) -> np.ndarray:
        return np.full(self.shape, 100.0 * j + OVER_TRAINING.index(metric))


def live_curves(rates: int = 9, seeds: int = 2, steps: int = 50) -> dict[str, np.ndarray]:
    """A sweep's progress: (seeds, rates, steps done) per metric, each rate its own values."""
    rate = np.arange(rates, dtype=float)[None, :, None]
    return {m: np.broadcast_to(rate + i / 10, (seeds, rates, steps)).copy()
            for i, m in enumerate(("loss", "accuracy", *OVER_TRAINING))}


@pytest.fixture
def controls(qtbot):
    c = LabControls(Style())
    qtbot.addWidget(c)
    return c


@pytest.fixture
def view():
    v = create_autospec(LabPage, instance=True)
    v.chosen_rate.return_value = None  # no grid chosen: the first rate
    return v


@pytest.fixture
def runner():
    return FakeRunner()


@pytest.fixture
def presenter(view, controls, runner):
    p = LabPresenter(view, controls, runner)
    view.reset_mock()
    view.chosen_rate.return_value = None
    return p


def single(controls, **values):
    controls.set_values(mode="single", d_k=16, steps=60, seed=3, lr=0.5, **values)
    return controls.configs()


def sweep(controls, **values):
    controls.set_values(mode="sweep", d_k=16, steps=50, n_seeds=2, **values)
    return controls.sweep_request()


def names(view) -> list[str]:
    return [c[0] for c in view.method_calls]


def test_the_view_protocol_is_what_the_page_has():
    members = [n for n, v in vars(LabView).items() if inspect.isfunction(v) and not n.startswith("_")]
    assert len(members) >= 20
    for name in members:
        mine = inspect.signature(getattr(LabView, name)).parameters.values()
        page = inspect.signature(getattr(LabPage, name)).parameters.values()
        assert [(p.name, p.kind, p.default) for p in mine] == \
            [(p.name, p.kind, p.default) for p in page], name


def test_a_new_presenter_shows_the_idle_page(view, controls, runner):
    controls.set_values(mode="sweep", optimizer="adam", steps=120)
    controls.set_values(mode="single")
    LabPresenter(view, controls, runner)
    assert view.method_calls == [
        call.set_running(False),
        call.show_mode("single"),
        call.show_curves_header(controls.configs()[0].lr),
        call.prepare_axes(LR_GRID["adam"], 120),
    ]


def test_run_in_single_mode_prepares_the_view_and_starts_the_runs(presenter, view, controls, runner):
    configs = single(controls, qk_norm=True, loss="ce")
    presenter.run()
    assert runner.calls == [("start", configs)]
    assert [c.scaling for c in configs] == ["none", "sqrt_dk", "qk_norm"]
    text = describe(configs[0])
    assert "d_k = 16" in text and "lr 0.5" in text and "cross-entropy" in text and "seed 3" in text
    assert view.method_calls == [
        call.show_mode("single"),
        call.prepare_single(("none", "sqrt_dk", "qk_norm"), 60, "ce", False),
        call.show_trained_with(text),
        call.show_curves_header(0.5),
        call.start_progress(3 * 60),
        call.say(""),
        call.set_running(True),
    ]
    assert presenter.results == {} and presenter.last_run_seconds is None


def test_run_in_sweep_mode_prepares_the_view_and_starts_the_sweep(presenter, view, controls, runner):
    config, scalings, lrs, seeds = sweep(controls, layers=2, learn_v=True)
    presenter.run()
    assert runner.calls == [("start_sweep", config, ("none", "sqrt_dk"), LR_GRID["sgd"], (0, 1))]
    text = describe_sweep(config, lrs, seeds)
    assert "9 rates" in text and "seeds 0–1" in text and "2 layers" in text and "W_v learned" in text
    assert view.method_calls == [
        call.show_mode("sweep"),
        call.prepare_sweep(("none", "sqrt_dk"), LR_GRID["sgd"], 50, True),
        call.show_trained_with(text),
        call.show_curves_header(None),
        call.start_progress(2 * 50),
        call.say(""),
        call.set_running(True),
    ]
    runner.job_started.emit(tuple(TrainConfig(scaling=s) for s in scalings))
    assert view.say.call_args == call("Training 18 runs per scaling (9 rates × 2 seeds) at once, "
                                      "one scaling after another…")


def test_a_second_run_while_running_is_ignored(presenter, view, controls, runner):
    configs = single(controls)
    presenter.run()
    view.reset_mock()
    presenter.run()
    presenter.show_stall()  # neither sets the demo's values nor runs
    assert runner.calls == [("start", configs)] and view.method_calls == []
    assert controls.mode() == "single" and controls.configs() == configs
    presenter.mode_changed("sweep")  # the page keeps showing the running mode
    assert view.method_calls == []


def test_cancel_asks_the_runner_only_while_running(presenter, view, controls, runner):
    presenter.cancel()
    assert runner.calls == [] and view.method_calls == []
    single(controls)
    presenter.run()
    view.reset_mock()
    presenter.cancel()
    assert runner.calls[-1] == ("cancel",)
    assert view.method_calls == [call.show_cancelling()]


def test_single_progress_shows_partial_runs_and_names_those_still_training(presenter, view, controls, runner):
    configs = single(controls, qk_norm=True)
    presenter.run()
    runner.job_started.emit(configs)
    assert view.say.call_args == call("Training 3 scalings one after another…")
    want = train(configs[0])
    partial = {k: v[:20] for k, v in want.curves.items()}
    view.reset_mock()
    runner.progress.emit(0, 20, partial)
    assert names(view) == ["show_curves", "show_over_training", "show_result", "set_progress"]
    scaling, curves = view.show_curves.call_args.args
    assert scaling == "none" and curves is partial
    scaling, rows = view.show_over_training.call_args.args
    assert scaling == "none" and rows["max_logit"].shape == (1, 20)
    np.testing.assert_array_equal(rows["entropy"][0], want.entropy[:20])
    scaling, result, finished = view.show_result.call_args.args
    assert (scaling, result.steps_done, finished) == ("none", 20, False)
    np.testing.assert_array_equal(result.loss, want.loss[:20])
    assert view.set_progress.call_args == call(f"{RAW} 20 / 60 steps", 20)
    runner.progress.emit(2, 7, {k: v[:7] for k, v in want.curves.items()})
    assert view.set_progress.call_args == call(f"{RAW} 20 · {QK} 7 / 60 steps", 27)
    runner.result_ready.emit(0, want)  # a finished run counts all its steps, names no more
    assert view.show_result.call_args == call("none", want, True)
    assert view.set_progress.call_args == call(f"{QK} 7 / 60 steps", 67)
    diverged = TrainResult(configs[2], **{k: v[:40] for k, v in want.curves.items()}, diverged=True)
    runner.result_ready.emit(2, diverged)  # so does one that stopped early: nothing is left of it
    assert view.set_progress.call_args == call(f"{QK} 60 / 60 steps", 120)


def test_sweep_progress_shows_the_chosen_rate_of_the_scalings_still_training(presenter, view, controls, runner):
    sweep(controls)
    presenter.run()
    view.chosen_rate.return_value = LR_GRID["sgd"][3]
    curves = live_curves(steps=12)
    view.reset_mock()
    runner.progress.emit(1, 12, curves)
    assert names(view) == ["chosen_rate", "show_over_training", "set_sweep_status", "set_progress"]
    scaling, shown = view.show_over_training.call_args.args
    assert scaling == "sqrt_dk" and set(shown) == set(curves)
    for metric, values in shown.items():
        np.testing.assert_array_equal(values, curves[metric][:, 3, :])
    assert view.set_sweep_status.call_args == call("sqrt_dk", "step 12/50")
    assert view.set_progress.call_args == call(f"{SCALED} 12 / 50 steps", 12)
    runner.progress.emit(0, 50, live_curves())  # done: the label names the one still running
    assert view.set_progress.call_args == call(f"{SCALED} 12 / 50 steps", 62)


def test_results_arriving_in_any_order_are_kept_in_config_order(presenter, controls, runner):
    configs = single(controls, qk_norm=True)
    presenter.run()
    results = [train(c) for c in configs]
    runner.result_ready.emit(2, results[2])
    assert list(presenter.results) == ["qk_norm"]
    runner.result_ready.emit(0, results[0])
    assert list(presenter.results) == ["none", "qk_norm"]
    runner.result_ready.emit(1, results[1])
    assert list(presenter.results) == ["none", "sqrt_dk", "qk_norm"]
    assert all(presenter.results[c.scaling] is r for c, r in zip(configs, results))


def test_sweeps_arriving_in_any_order_are_kept_in_config_order(presenter, view, controls, runner):
    sweep(controls, qk_norm=True)
    presenter.run()
    runner.progress.emit(2, 5, live_curves(steps=5))
    qk, raw = FakeSweep("qk_norm"), FakeSweep("none")
    runner.sweep_ready.emit(2, qk)
    assert view.show_sweep.call_args == call(qk)
    scaling, shown = view.show_over_training.call_args.args  # from the sweep, at rate 0
    assert scaling == "qk_norm" and set(shown) == set(OVER_TRAINING)
    np.testing.assert_array_equal(shown["entropy"], qk.curves("entropy", 0))
    runner.sweep_ready.emit(0, raw)
    assert list(presenter.sweeps) == ["none", "qk_norm"]
    assert presenter.sweeps["none"] is raw


def test_choosing_another_rate_redraws_the_sweeps_and_the_live_curves(presenter, view, controls, runner):
    sweep(controls)
    presenter.run()
    raw, curves = FakeSweep("none"), live_curves(steps=30)
    runner.progress.emit(0, 50, live_curves())
    runner.sweep_ready.emit(0, raw)  # its curves come from the sweep, no longer the live ones
    runner.progress.emit(1, 30, curves)
    view.chosen_rate.return_value = LR_GRID["sgd"][5]
    view.reset_mock()
    presenter.rate_changed(5)
    cleared = [c.args[0] for c in view.clear_over_training.call_args_list]
    assert cleared == ["none", "sqrt_dk"]
    (s1, first), (s2, second) = (c.args for c in view.show_over_training.call_args_list)
    assert (s1, s2) == ("none", "sqrt_dk")
    np.testing.assert_array_equal(first["max_logit"], raw.curves("max_logit", 5))
    np.testing.assert_array_equal(second["max_logit"], curves["max_logit"][:, 5, :])
    single(controls)  # a one-rate run shown: the chooser changes nothing
    runner.finish()
    presenter.run()
    view.reset_mock()
    presenter.rate_changed(2)
    assert view.method_calls == []


def test_a_finished_run_shows_done_then_announces_it(presenter, view, controls, runner):
    configs = single(controls)
    presenter.run()
    for i, config in enumerate(configs):
        runner.result_ready.emit(i, train(config))
    seen = []
    presenter.run_finished.connect(lambda cancelled: seen.append((cancelled, list(view.method_calls))))
    view.reset_mock()
    runner.finish(False)
    assert len(seen) == 1 and seen[0][0] is False
    shown = seen[0][1]  # everything below was shown before run_finished
    assert isinstance(presenter.last_run_seconds, float) and presenter.last_run_seconds >= 0
    done = f"done in {presenter.last_run_seconds:.1f} s"
    assert shown == [
        call.set_running(False),
        call.show_run_verdict(presenter.results["none"], presenter.results["sqrt_dk"]),
        call.set_progress(done),
        call.say(""),
        call.show_mode("single"),
    ]


def test_a_failure_then_finish_shows_failed_and_not_done(presenter, view, controls, runner):
    configs = single(controls)
    presenter.run()
    runner.job_failed.emit("ValueError: boom")
    assert view.show_failure.call_args == call("ValueError: boom") and presenter.failed
    seen = []
    presenter.run_finished.connect(seen.append)
    view.reset_mock()
    runner.finish(False)
    assert seen == [False]
    assert view.set_run_status.call_args_list == [call(c.scaling, "not run") for c in configs]
    assert view.show_run_verdict.call_args == call(None, None)
    assert not view.set_progress.called  # the bar keeps saying "failed"
    assert not view.say.called  # and the status line the failure
    presenter.run()  # the next run starts afresh
    assert not presenter.failed


def test_a_cancelled_single_run_marks_the_unfinished_scalings(presenter, view, controls, runner):
    configs = single(controls, qk_norm=True)
    presenter.run()
    runner.result_ready.emit(0, train(configs[0]))
    seen = []
    presenter.run_finished.connect(lambda cancelled: seen.append((cancelled, list(view.method_calls))))
    view.reset_mock()
    runner.finish(True)
    assert [c.args for c in view.set_run_status.call_args_list] == [("sqrt_dk", "cancelled"),
                                                                   ("qk_norm", "cancelled")]
    assert seen and seen[0][0] is True
    assert call.set_progress("cancelled") in seen[0][1]
    assert call.say("Cancelled: the plots show what had finished.") in seen[0][1]
    assert not any(c == call.set_progress(f"done in {presenter.last_run_seconds:.1f} s")
                   for c in view.method_calls)


def test_a_cancelled_sweep_marks_the_unfinished_scalings(presenter, view, controls, runner):
    sweep(controls, qk_norm=True)
    presenter.run()
    raw = FakeSweep("none")
    runner.sweep_ready.emit(0, raw)
    seen = []
    presenter.run_finished.connect(seen.append)
    view.reset_mock()
    runner.finish(True)
    assert [c.args for c in view.set_sweep_status.call_args_list] == [("sqrt_dk", "cancelled"),
                                                                     ("qk_norm", "cancelled")]
    assert view.show_sweep_verdict.call_args == call({"none": raw})
    assert view.set_progress.call_args == call("cancelled") and seen == [True]


def test_settings_changed_after_a_run_marks_the_shown_run_stale(presenter, view, controls, runner):
    presenter.settings_changed()  # nothing shown yet: nothing to grey
    assert not view.mark_stale.called and not presenter.stale
    configs = single(controls)
    presenter.run()
    controls.set_values(seed=5)
    presenter.settings_changed()  # while running: the line says what is training
    assert not view.mark_stale.called
    runner.finish()
    presenter.settings_changed()
    assert view.mark_stale.call_args == call(describe(configs[0]) + STALE_NOTE)
    text = view.mark_stale.call_args.args[0]
    assert "seed 3" in text and "seed 5" not in text and "press Run" in text and presenter.stale
    presenter.run()
    assert not presenter.stale and view.show_trained_with.call_args == call(describe(controls.configs()[0]))


def test_settings_changed_before_a_sweep_moves_the_rate_axes(presenter, view, controls, runner):
    controls.set_values(mode="sweep", optimizer="adam", steps=150)
    presenter.settings_changed()
    assert view.prepare_axes.call_args == call(LR_GRID["adam"], 150)
    presenter.run()
    runner.sweep_ready.emit(0, FakeSweep("none"))
    runner.finish()
    view.reset_mock()
    controls.set_values(steps=300)
    presenter.settings_changed()  # a sweep is shown: its axes stay
    assert not view.prepare_axes.called and view.mark_stale.called


def test_the_high_rate_demo_sets_its_values_and_runs(presenter, controls, runner):
    controls.set_values(mode="sweep", d_k=16, optimizer="adam")
    presenter.show_stall()
    assert controls.mode() == "single"
    kind, configs = runner.calls[0]
    assert kind == "start" and configs == controls.configs()
    config = configs[0]
    assert (config.d_k, config.optimizer, config.lr, config.loss) == tuple(
        HIGH_LR_PRESET[k] for k in ("d_k", "optimizer", "lr", "loss"))


def test_shutdown_stops_the_runner_and_frees_the_buttons(presenter, view, controls, runner):
    single(controls)
    presenter.run()
    view.reset_mock()
    presenter.shutdown()
    assert runner.calls[-1] == ("shutdown",) and not runner.is_running
    assert view.method_calls == [call.set_running(False)]
