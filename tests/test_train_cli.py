"""``sqrtdk-gui train``: JSON and table output, one-line errors with exit status 2."""

from __future__ import annotations

import argparse
import json

import pytest

from sqrtdk_gui.cli import build_parser
from sqrtdk_gui.core.training import DEFAULT_LR


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
