"""``sqrtdk-gui train``: JSON and table output, one-line errors with exit status 2."""

from __future__ import annotations

import argparse
import json

import pytest

from sqrtdk_gui.cli.main import build_parser
from sqrtdk_gui.core.training.loop import DEFAULT_LR, TrainConfig
from sqrtdk_gui.core.training.lr_sweep import run_sweep

pytestmark = pytest.mark.training  # CI also runs these under several BLAS kernels


def _parser() -> argparse.ArgumentParser:
    return build_parser()  # the real command line, so train's flags live beside the others


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    return args.func(args)


def test_json_output_has_the_keys(capsys):
    argv = ["train", "--dk", "256", "--scaling", "none", "--optimizer", "sgd", "--lr", "0.2",
            "--steps", "25", "--seed", "0", "--json"]
    assert _main(argv) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    for key in ("final_loss", "final_accuracy", "steps_to_90", "stuck_fraction", "loss_curve",
                "config"):
        assert key in data
    assert len(data["loss_curve"]) == 25
    assert data["config"]["d_k"] == 256 and data["config"]["scaling"] == "none"
    assert data["config"]["lr"] == 0.2
    assert 0.0 <= data["final_accuracy"] <= 1.0


def test_json_is_reproducible_and_uses_default_lr(capsys):
    argv = ["train", "--dk", "16", "--optimizer", "adam", "--steps", "12", "--json"]
    _main(argv)
    first = json.loads(capsys.readouterr().out)
    _main(argv)
    second = json.loads(capsys.readouterr().out)
    assert first["loss_curve"] == second["loss_curve"]
    assert first["config"]["lr"] == DEFAULT_LR["adam"]


def test_table_output(capsys):
    assert _main(["train", "--dk", "8", "--steps", "30"]) == 0
    out = capsys.readouterr().out
    assert "final accuracy" in out and "steps to 90 %" in out and "stuck rows" in out


@pytest.mark.parametrize(
    "flags,flag",
    [
        (["--dk", "0"], "--dk"),
        (["--lr", "-1"], "--lr"),
        (["--steps", "abc"], "--steps"),
        (["--scaling", "bogus"], "--scaling"),
        (["--optimizer", "rmsprop"], "--optimizer"),
        (["--noise", "inf"], "--noise"),
        (["--lr", "nan"], "--lr"),
        (["--seed", "-3"], "--seed"),
        (["--gain", "0"], "--gain"),
    ],
)
def test_bad_flags_exit_2_with_one_line(capsys, flags, flag):
    with pytest.raises(SystemExit) as info:
        _main(["train", *flags])
    assert info.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("sqrtdk-gui: error: ")
    assert flag in lines[0] and flags[1] in lines[0]
    assert captured.out == ""


def test_config_value_error_becomes_one_line_and_status_2(capsys):
    # Each flag is in range, but together they exceed the memory guard in TrainConfig.
    status = _main(["train", "--batch", "4096", "--n-keys", "1024", "--dk", "1024"])
    assert status == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sqrtdk-gui: error: ")
    assert "exceeds" in lines[0] and "Traceback" not in captured.err


def test_json_has_the_per_step_curves(capsys):
    argv = ["train", "--dk", "16", "--steps", "15", "--layers", "2", "--learn-v", "--json"]
    assert _main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["max_logit_curve"]) == len(data["entropy_curve"]) == 15
    assert set(data["grad_norm_curves"]) == {"W_q", "W_k", "W_v"}
    assert all(len(c) == 15 and min(c) > 0 for c in data["grad_norm_curves"].values())
    assert data["config"]["layers"] == 2 and data["config"]["learn_v"] is True


def test_lr_sweep_json(capsys):
    argv = ["train", "--lr-sweep", "--lrs", "0.5", "5", "--seeds", "0", "1", "--dk", "64",
            "--steps", "60", "--batch", "32", "--json"]
    assert _main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lrs"] == [0.5, 5.0] and data["seeds"] == [0, 1]
    assert list(data["scalings"]) == ["none", "sqrt_dk", "qk_norm"]
    for s in data["scalings"].values():
        for key in ("best_lr", "best_steps_to_90", "working_lrs", "rates", "best_per_seed"):
            assert key in s
        assert [r["lr"] for r in s["rates"]] == [0.5, 5.0]
        assert all(len(r["runs"]) == 2 for r in s["rates"])
        assert set(s["working_lrs"]) <= {0.5, 5.0}
    # The JSON is the core's sweep of the same grid, run for run.
    want = run_sweep(TrainConfig(d_k=64, steps=60, batch=32), lrs=(0.5, 5.0), seeds=(0, 1))
    for s, sw in want.scalings.items():
        got = data["scalings"][s]
        assert got["working_lrs"] == list(sw.working_lrs())
        assert [[r["steps_to_90"] for r in rate["runs"]] for rate in got["rates"]] == [
            [None if v != v else int(v) for v in col] for col in sw.steps_to_90().T]


def test_lr_sweep_table_one_scaling(capsys):
    argv = ["train", "--lr-sweep", "--scaling", "sqrt_dk", "--lrs", "1", "--dk", "8",
            "--steps", "40"]
    assert _main(argv) == 0
    out = capsys.readouterr().out
    assert "sqrt_dk" in out and "none" not in out and "reaches 90 %" in out


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--lrs", "0.1"], "--lrs needs --lr-sweep"),
        (["--seeds", "1"], "--seeds needs --lr-sweep"),
        (["--lr-sweep", "--lr", "1"], "--lrs"),
        (["--lr-sweep", "--lrs", "0.1", "abc"], "--lrs"),
        (["--lr-sweep", "--lrs", "0"], "--lrs"),
        (["--lr-sweep", "--seeds", "-1"], "--seeds"),
        (["--layers", "9"], "--layers"),
        (["--lr-sweep", "--seeds", *map(str, range(12))], "exceeds"),
    ],
)
def test_bad_sweep_input_is_one_line_and_status_2(capsys, argv, needle):
    try:
        status = _main(["train", *argv])
    except SystemExit as exc:  # argparse's own errors
        status = exc.code
    assert status == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sqrtdk-gui: error: "), captured.err
    assert needle in lines[0] and captured.out == ""


@pytest.mark.parametrize("lang", ["en", "de", "es", "zh_CN"])
def test_help_prints_percent_signs_once_in_every_language(lang):
    # argparse %-formats help texts but not descriptions: "90 %%" printed as it stood.
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "--lang", lang, "train", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "90 %" in done.stdout, done.stderr
    assert "%%" not in done.stdout
