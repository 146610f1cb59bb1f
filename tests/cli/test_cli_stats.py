"""The headless ``stats`` command: JSON keys, figures, table and bad input."""

import json
import math
import subprocess
import sys

import pytest

from sqrtdk_gui.cli.main import main
from sqrtdk_gui.cli.stats import SWEEP_DKS

REQUIRED = {"d_k", "keys", "queries", "scaling", "temperature", "logit_std", "theory_std",
            "max_weight_mean", "entropy_mean", "jacobian_fro_mean", "jacobian_fro_median",
            "saturated_fraction", "grad_q_mean", "grad_q_median", "row_sum_max_error",
            "overflow_count"}


def _json(capsys, *argv):
    assert main(["stats", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_stats_json_has_the_documented_keys_and_figures(capsys):
    row = _json(capsys, "--dk", "512", "--keys", "16", "--queries", "4096", "--scaling", "none",
                "--temperature", "1", "--seed", "0")
    assert REQUIRED <= row.keys()
    assert (row["d_k"], row["keys"], row["queries"], row["scaling"]) == (512, 16, 4096, "none")
    assert row["logit_std"] == pytest.approx(22.63, rel=0.04)
    assert row["theory_std"] == pytest.approx(math.sqrt(512))
    assert row["saturated_fraction"] > 0.5 and row["overflow_count"] == 0
    assert row["jacobian_fro_median"] < 0.1 * row["jacobian_fro_mean"]


def test_stats_flags_reach_the_model(capsys):
    row = _json(capsys, "--dk", "512", "--scaling", "none", "--keys", "16",
                "--softmax", "naive", "--dtype", "float16", "--heads", "2", "--gain", "3")
    assert row["overflow_count"] > 0 and row["row_sum_max_error"] is None  # NaN -> null
    scaled = _json(capsys, "--dk", "64", "--scaling", "sqrt_dmodel", "--heads", "4")
    assert scaled["logit_std"] == pytest.approx(0.5, rel=0.05)


def test_sweep_prints_one_row_per_dk(capsys):
    rows = _json(capsys, "--sweep", "--scaling", "sqrt_dk", "--keys", "8", "--queries", "64")
    assert [r["d_k"] for r in rows] == list(SWEEP_DKS)
    assert main(["stats", "--sweep", "--keys", "8", "--queries", "64"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1 + len(SWEEP_DKS) and "σ" in lines[0]


def test_plain_stats_is_a_readable_table(capsys):
    assert main(["stats", "--dk", "4"]) == 0
    out = capsys.readouterr().out
    assert "logit_std:" in out and "saturated_fraction:" in out


@pytest.mark.parametrize("argv,needle", [
    (["--dk", "0"], "--dk"), (["--temperature", "0"], "--temperature"), (["--keys", "1"], "--keys"),
    (["--scaling", "bogus"], "--scaling"), (["--dk", "twelve"], "--dk"),
    (["--temperature", "nan"], "--temperature"), (["--dtype", "int8"], "--dtype"),
    (["--frobnicate"], "--frobnicate"),
])
def test_bad_input_exits_2_with_one_line(argv, needle):
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "stats", *argv],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in done.stderr
    assert done.stdout == ""


def _wrapped_interrupt() -> RuntimeError:
    # What Python 3.11 raises when Ctrl+C lands in a class's __set_name__ during an import.
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as inner:
            raise RuntimeError("Error calling __set_name__ on '_Field' instance") from inner
    except RuntimeError as outer:
        return outer


def test_ctrl_c_wrapped_in_another_error_is_still_ctrl_c(monkeypatch, capsys):
    from sqrtdk_gui.cli import main as cli_main
    from sqrtdk_gui.cli.interrupt import interrupted

    assert interrupted(_wrapped_interrupt())
    assert interrupted(KeyboardInterrupt())
    assert not interrupted(RuntimeError("a bug"))
    context = ValueError("raised while handling")
    context.__context__ = context  # a cycle ends the walk
    assert not interrupted(context)

    def interrupted_run(args):
        raise _wrapped_interrupt()

    monkeypatch.setattr(cli_main, "run_window", interrupted_run)
    assert main(["--smoke-test"]) == 130
    assert capsys.readouterr().err == ""  # no "internal error" line
    monkeypatch.setattr(cli_main, "run_window", lambda args: (_ for _ in ()).throw(RuntimeError("a bug")))
    assert main(["--smoke-test"]) == 1
    assert "internal error: RuntimeError: a bug" in capsys.readouterr().err
