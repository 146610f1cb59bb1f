"""``train --lr-sweep`` is bounded before it starts, reports progress and stops on Ctrl+C.

The memory estimate (``lr_sweep.sweep_bytes``) must be at least what a sweep really takes:
each case below is measured as the peak RSS of a fresh process; a sweep the estimate puts
above the budget is refused with one line and status 2 before any training.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from sqrtdk_gui.cli import train as train_cli
from sqrtdk_gui.cli.main import main
from sqrtdk_gui.cli.progress import Progress
from sqrtdk_gui.core.training.loop import TrainConfig
from sqrtdk_gui.core.training.lr_sweep import MEMORY_BUDGET, check_grid, sweep_bytes, sweep_threads

# Measures the peak of one `train --lr-sweep` in a child of a fresh interpreter (the peak of
# RUSAGE_CHILDREN is that child's alone), in KiB.
_PEAK = ("import resource, subprocess, sys\n"
         "done = subprocess.run([sys.executable, '-m', 'sqrtdk_gui', *sys.argv[1:]], capture_output=True)\n"
         "assert done.returncode == 0, done.stderr.decode()\n"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")

CASES = [  # (flags, TrainConfig fields, runs, scalings trained at once)
    (["--dk", "2048", "--d-model", "384", "--d-v", "1", "--batch", "1", "--n-keys", "2",
      "--lrs", "0.1", "0.2"], dict(d_k=2048, d_model=384, d_v=1, batch=1, n_keys=2), 2, 2),
    (["--dk", "1024", "--d-model", "384", "--d-v", "1", "--batch", "1", "--n-keys", "2",
      "--optimizer", "adam", "--lrs", "0.001", "0.01"],
     dict(d_k=1024, d_model=384, d_v=1, batch=1, n_keys=2, optimizer="adam"), 2, 2),
    (["--dk", "512", "--d-model", "256", "--layers", "2", "--scaling", "qk_norm", "--lrs", "0.1", "1"],
     dict(d_k=512, d_model=256, layers=2, scaling="qk_norm"), 2, 1),
    (["--dk", "16", "--d-model", "160", "--batch", "64", "--lrs", "0.1", "0.2", "0.5", "1", "2",
      "--seeds", "0", "1", "2", "3", "4", "5"], dict(d_k=16, d_model=160, batch=64), 30, 2),
]


@pytest.mark.parametrize("flags, fields, runs, parallel", CASES)
def test_the_memory_estimate_is_above_the_measured_peak(flags, fields, runs, parallel):
    if (os.cpu_count() or 1) < parallel:
        pytest.skip("the case trains two scalings at once: it needs two cores")
    argv = [sys.executable, "-c", _PEAK, "train", "--lr-sweep", "--steps", "3", "--json", *flags]
    peak = int(subprocess.run(argv, capture_output=True, text=True, check=True, timeout=120).stdout) * 1024
    estimate = sweep_bytes(TrainConfig(**fields), runs, parallel)
    assert peak <= estimate <= 2 * peak, (peak / 2**20, estimate / 2**20)


def test_a_sweep_that_does_not_fit_is_refused_in_one_line_before_it_starts(capsys):
    # 25 runs of d_k 4096 × d_model 1024 took 7.6 GB; refused at once, exit status 2.
    argv = ["train", "--lr-sweep", "--dk", "4096", "--d-model", "1024", "--d-v", "1", "--batch", "1",
            "--n-keys", "2", "--lrs", "0.1", "0.2", "0.5", "1", "2", "--seeds", "0", "1", "2", "3", "4"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith("sqrtdk-gui: error: this sweep would need about ") and "the limit is 500 MB" in err


def test_a_sweep_trains_as_many_scalings_at_once_as_fit_the_budget():
    rates, seeds = [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20], range(5)
    default = TrainConfig(d_k=256)  # the lab's default sweep: two scalings at once
    assert sweep_threads(default, 45, 2, 3) == 2 and sweep_bytes(default, 45, 2) <= MEMORY_BUDGET
    widest = TrainConfig(d_k=1024)  # the lab's widest: measured 574 MiB with two at once
    assert sweep_threads(widest, 45, 2, 3) == 1 and sweep_bytes(widest, 45, 1) <= MEMORY_BUDGET
    check_grid(widest, rates, seeds)  # allowed, one scaling at a time
    with pytest.raises(ValueError, match="would need about"):
        check_grid(TrainConfig(d_k=4096, d_model=1024, d_v=1, batch=1, n_keys=2), [0.1, 0.2], [0, 1])


def test_ctrl_c_during_a_sweep_prints_the_finished_scalings_and_exits_130(monkeypatch, capsys):
    steps = 40

    class InterruptInTheSecond(Progress):
        def update(self, done, *rest):
            if done == steps + 5:  # five steps into the second scaling
                os.kill(os.getpid(), signal.SIGINT)  # as the terminal's Ctrl+C would
            super().update(done, *rest)

    monkeypatch.setattr(train_cli, "Progress", InterruptInTheSecond)
    monkeypatch.setattr(train_cli, "default_workers", lambda: 1)  # scalings one after another
    before = signal.getsignal(signal.SIGINT)
    argv = ["train", "--lr-sweep", "--dk", "8", "--steps", str(steps), "--batch", "8",
            "--lrs", "0.1", "1", "--json"]
    assert main(argv) == 130
    out, err = capsys.readouterr()
    assert list(json.loads(out)["scalings"]) == ["none"]
    assert err.strip() == "sqrtdk-gui: interrupted after 1 of 3 scalings; the finished ones are above"
    assert signal.getsignal(signal.SIGINT) is before
