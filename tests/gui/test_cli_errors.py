"""Bad command lines and unexpected errors: exit status and one line on stderr, never a traceback.

Every bad input runs the real program (``python -m sqrtdk_gui``) in its own process; the
processes of the table run a few at a time, once per test module, and each table row is
then checked as its own test.
"""

import concurrent.futures
import os
import stat
import subprocess
import sys

import pytest

from sqrtdk_gui.cli import main as cli
from sqrtdk_gui.cli import stats as cli_stats

PROG = "sqrtdk-gui: error: "


def _environment() -> dict:
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)  # the program must choose offscreen itself
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    env.pop(cli.DEBUG_ENV, None)
    return env


def _run(argv, **kwargs):
    return subprocess.run([sys.executable, "-m", "sqrtdk_gui", *argv], capture_output=True,
                          text=True, timeout=120, env=_environment(), **kwargs)


# (id, argv, text the one line must contain). "{tmp}" is a scratch folder, "{ro}" a folder
# without write permission (for root, who may write anywhere, /proc, where nobody can create
# a file), "{dir_png}" an existing folder whose name ends in .png.
BAD = [
    # parameter flags of the window (out of range, wrong type, missing value)
    ("dk-zero", ["--dk", "0"], "--dk"),
    ("dk-too-big", ["--dk", "4097"], "--dk"),
    ("dk-fraction", ["--dk", "1.5"], "--dk"),
    ("dk-empty", ["--dk", ""], "--dk"),
    ("dk-no-value", ["--dk"], "--dk"),
    ("temperature-zero", ["--temperature", "0"], "--temperature"),
    ("temperature-too-big", ["--temperature", "10.5"], "--temperature"),
    ("temperature-nan", ["--temperature", "nan"], "--temperature"),
    ("temperature-inf", ["--temperature", "inf"], "--temperature"),
    ("temperature-word", ["--temperature", "hot"], "--temperature"),
    ("keys-one", ["--keys", "1"], "--keys"),
    ("keys-too-many", ["--keys", "131073"], "--keys"),
    ("queries-zero", ["--queries", "0"], "--queries"),
    ("queries-too-many", ["--queries", "8193"], "--queries"),
    ("heads-zero", ["--heads", "0"], "--heads"),
    ("heads-too-many", ["--heads", "129"], "--heads"),
    ("gain-zero", ["--gain", "0"], "--gain"),
    ("gain-too-big", ["--gain", "101"], "--gain"),
    ("seed-negative", ["--seed", "-1"], "--seed"),
    ("seed-too-big", ["--seed", str(2**32)], "--seed"),
    ("q-std-zero", ["--q-std", "0"], "--q-std"),
    ("k-std-too-big", ["--k-std", "11"], "--k-std"),
    ("alignment-negative", ["--alignment", "-0.5"], "--alignment"),
    ("alignment-too-big", ["--alignment", "1.5"], "--alignment"),
    ("scaling-unknown", ["--scaling", "sqrt"], "--scaling"),
    ("softmax-unknown", ["--softmax", "fast"], "--softmax"),
    ("dtype-unknown", ["--dtype", "int8"], "--dtype"),
    # lesson flags
    ("step-zero", ["--step", "0"], "--step"),
    ("step-too-big", ["--step", "99"], "--step"),
    ("step-word", ["--step", "one"], "--step"),
    ("scenario-unknown", ["--scenario", "nope"], "--scenario"),
    # --size
    ("size-too-small", ["--screenshot", "{tmp}/a.png", "--size", "10x10"], "--size"),
    ("size-too-big", ["--screenshot", "{tmp}/a.png", "--size", "99999x99999"], "--size"),
    ("size-word", ["--screenshot", "{tmp}/a.png", "--size", "big"], "--size"),
    ("size-half", ["--screenshot", "{tmp}/a.png", "--size", "1920x"], "--size"),
    ("size-three-numbers", ["--screenshot", "{tmp}/a.png", "--size", "1x2x3"], "--size"),
    ("size-fraction", ["--screenshot", "{tmp}/a.png", "--size", "1920.5x1080"], "--size"),
    ("size-negative", ["--screenshot", "{tmp}/a.png", "--size", "-5x-5"], "--size"),
    # --screenshot paths
    ("screenshot-no-folder", ["--screenshot", "{tmp}/missing/a.png"], "does not exist"),
    ("screenshot-parent-is-a-file", ["--screenshot", "{tmp}/file.txt/a.png"], "cannot write"),
    ("screenshot-wrong-suffix", ["--screenshot", "{tmp}/a.txt"], ".png"),
    ("screenshot-no-suffix", ["--screenshot", "{tmp}/a"], ".png"),
    ("screenshot-read-only-folder", ["--screenshot", "{ro}/a.png"], "write"),
    ("screenshot-target-is-a-folder", ["--screenshot", "{dir_png}"], "write"),
    ("screenshot-no-value", ["--screenshot"], "--screenshot"),
    # the command line as a whole
    ("unknown-flag", ["--frobnicate"], "--frobnicate"),
    ("ambiguous-flag", ["--s", "1"], "ambiguous"),
    ("unknown-subcommand", ["bogus"], "bogus"),
    # stats
    ("stats-dk-zero", ["stats", "--dk", "0"], "--dk"),
    ("stats-keys-too-many", ["stats", "--keys", "131073"], "--keys"),
    ("stats-queries-word", ["stats", "--queries", "many"], "--queries"),
    ("stats-temperature-negative", ["stats", "--temperature", "-1"], "--temperature"),
    ("stats-scaling-unknown", ["stats", "--scaling", "bogus"], "--scaling"),
    ("stats-json-with-value", ["stats", "--json=1"], "--json"),
    ("stats-extra-argument", ["stats", "extra"], "extra"),
    ("stats-unknown-flag", ["stats", "--frobnicate"], "--frobnicate"),
    ("stats-window-flag", ["stats", "--screenshot", "a.png"], "--screenshot"),
    # train
    ("train-dk-zero", ["train", "--dk", "0"], "--dk"),
    ("train-steps-zero", ["train", "--steps", "0"], "--steps"),
    ("train-steps-word", ["train", "--steps", "abc"], "--steps"),
    ("train-lr-negative", ["train", "--lr", "-1"], "--lr"),
    ("train-lr-nan", ["train", "--lr", "nan"], "--lr"),
    ("train-batch-zero", ["train", "--batch", "0"], "--batch"),
    ("train-noise-inf", ["train", "--noise", "inf"], "--noise"),
    ("train-optimizer-unknown", ["train", "--optimizer", "rmsprop"], "--optimizer"),
    ("train-loss-unknown", ["train", "--loss", "foo"], "--loss"),
    ("train-scaling-unknown", ["train", "--scaling", "bogus"], "--scaling"),
    ("train-too-large", ["train", "--batch", "4096", "--n-keys", "1024", "--dk", "1024"],
     "reduce batch"),
]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Run every row of BAD (four processes at a time); id -> CompletedProcess."""
    tmp = tmp_path_factory.mktemp("cli")
    (tmp / "file.txt").write_text("not a folder")
    ro = tmp / "read-only"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    dir_png = tmp / "folder.png"
    dir_png.mkdir()
    unwritable = "/proc" if getattr(os, "geteuid", lambda: -1)() == 0 else str(ro)
    fill = {"tmp": str(tmp), "ro": unwritable, "dir_png": str(dir_png)}
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            futures = {case: pool.submit(_run, [a.format(**fill) for a in argv], cwd=tmp)
                       for case, argv, _ in BAD}
            results = {case: f.result() for case, f in futures.items()}
    finally:
        ro.chmod(stat.S_IRWXU)
    return results


@pytest.mark.parametrize("case,argv,needle", BAD, ids=[c for c, _, _ in BAD])
def test_bad_input_exits_2_with_one_line(outcomes, case, argv, needle):
    done = outcomes[case]
    report = f"status {done.returncode}, stderr:\n{done.stderr}"
    assert "Traceback" not in done.stderr, report
    assert done.returncode == 2, report
    lines = done.stderr.splitlines()
    assert len(lines) == 1, report
    assert lines[0].startswith(PROG) and needle in lines[0], report
    assert done.stdout == ""


@pytest.mark.parametrize("argv, quoted", [
    (["x" * 10_000], "'" + "x" * 58 + "… (10,002 characters)"),  # read as a command
    (["--" + "x" * 10_000], "'--" + "x" * 56 + "… (10,004 characters)"),
    (["stats", "y" * 10_000], "'" + "y" * 58 + "… (10,002 characters)"),
    (["--dk", "8", "--" + "z" * 10_000, "--" + "z" * 9_000], "… (9,004 characters)"),
])
def test_an_unknown_argument_is_quoted_in_at_most_sixty_characters(capsys, argv, quoted):
    with pytest.raises(SystemExit) as stopped:
        cli.main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and quoted in err and len(err) < 300, err[:400]


def test_many_unknown_arguments_are_counted_not_listed(capsys):
    with pytest.raises(SystemExit):
        cli.main(["stats", *(f"extra{i}" for i in range(1000))])
    assert capsys.readouterr().err == f"{PROG}unrecognized arguments: extra0 extra1 extra2 and 997 more\n"


# --- unexpected errors inside the program ------------------------------------------------

def _explode(*args, **kwargs):
    raise RuntimeError("synthetic failure\nwith a second line")


def test_internal_error_is_one_line_and_status_1(monkeypatch, capsys):
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    monkeypatch.setattr(cli_stats, "compute", _explode)
    assert cli.main(["stats", "--dk", "4"]) == 1
    captured = capsys.readouterr()
    assert captured.err == ("sqrtdk-gui: internal error: RuntimeError: synthetic failure with a "
                            "second line (run with SQRTDK_GUI_DEBUG=1 for the traceback)\n")
    assert captured.out == ""


def test_debug_variable_lets_the_traceback_through(monkeypatch, capsys):
    monkeypatch.setenv(cli.DEBUG_ENV, "1")
    monkeypatch.setattr(cli_stats, "compute", _explode)
    with pytest.raises(RuntimeError, match="synthetic failure"):
        cli.main(["stats"])
    assert capsys.readouterr().err == ""


def test_internal_error_in_the_window_path_is_one_line(monkeypatch, capsys):
    # The window entry point (sqrtdk_gui.gui.launch.app.run_window) is imported lazily by main().
    import sqrtdk_gui.gui.launch.app

    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    monkeypatch.setattr(sqrtdk_gui.gui.launch.app, "run_window", lambda launch: {}["missing"])
    assert cli.main(["--dk", "8"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("sqrtdk-gui: internal error: KeyError: 'missing' (run with")
    assert len(err.splitlines()) == 1


def test_usage_errors_are_not_internal_errors(monkeypatch, capsys):
    monkeypatch.setattr(cli_stats, "compute", _explode)
    with pytest.raises(SystemExit) as info:
        cli.main(["stats", "--dk", "0"])
    assert info.value.code == 2
    assert "internal error" not in capsys.readouterr().err


def test_keyboard_interrupt_exits_130_quietly(monkeypatch, capsys):
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_stats, "compute", interrupt)
    assert cli.main(["stats"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""


_PROCESS_SCRIPT = """
import sys
from sqrtdk_gui.cli import main as cli
from sqrtdk_gui.cli import stats as cli_stats
def boom(*args, **kwargs):
    raise {error}
cli_stats.compute = boom
sys.exit(cli.main(["stats"]))
"""


@pytest.mark.parametrize("error,status,debug", [
    ("ZeroDivisionError('division by zero')", 1, False),
    ("KeyboardInterrupt()", 130, False),
    ("ZeroDivisionError('division by zero')", 1, True),
])
def test_whole_process_never_shows_a_traceback_unless_asked(error, status, debug):
    env = _environment()
    if debug:
        env[cli.DEBUG_ENV] = "1"
    done = subprocess.run([sys.executable, "-c", _PROCESS_SCRIPT.format(error=error)],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == status, done.stderr
    if debug:
        assert "Traceback" in done.stderr and "ZeroDivisionError: division by zero" in done.stderr
    elif status == 1:
        assert done.stderr.splitlines() == [
            "sqrtdk-gui: internal error: ZeroDivisionError: division by zero "
            "(run with SQRTDK_GUI_DEBUG=1 for the traceback)"]
    else:
        assert done.stderr == ""


def test_closed_stdout_is_quiet():
    # `sqrtdk-gui stats --sweep --json | head -1`: the reader goes away before the writer.
    proc = subprocess.Popen([sys.executable, "-m", "sqrtdk_gui", "stats", "--sweep", "--json",
                             "--queries", "64"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=_environment())
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    status = proc.wait(timeout=60)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert err == "" and status in (0, 141)


def test_broken_pipe_in_process_is_quiet(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli_stats, "compute", broken)
    assert cli.main(["stats"]) == 141
    assert capsys.readouterr().err == ""


def _window_handles_sigint(pid: int) -> bool:
    """Whether the process has Qt's widgets loaded and catches SIGINT: the window's own handler
    (until then Ctrl+C ends the program at once, as for any program that does not catch it)."""
    import re
    import signal
    from pathlib import Path

    try:
        status = Path(f"/proc/{pid}/status").read_text()
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False
    caught = int(re.search(r"^SigCgt:\s*([0-9a-f]+)", status, re.M).group(1), 16)
    return bool(caught >> (signal.SIGINT - 1) & 1) and "libQt6Widgets" in maps


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the process's signal mask in /proc")
def test_ctrl_c_closes_the_window_with_status_130(qtbot, tmp_path):
    import signal
    import subprocess
    import sys

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SQRTDK_GUI_SETTINGS=str(tmp_path / "s.ini"))
    proc = subprocess.Popen([sys.executable, "-m", "sqrtdk_gui"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        # However long a busy machine takes to start it: Ctrl+C once the window handles it.
        qtbot.waitUntil(lambda: proc.poll() is not None or _window_handles_sigint(proc.pid), timeout=120_000)
        assert proc.returncode is None, proc.stderr.read()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        assert "Traceback" not in proc.stderr.read()
        assert (tmp_path / "s.ini").exists()  # it closed properly: the state was saved
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
