"""``--smoke-test`` through the real command line (the frozen bundle runs the same code)."""

import os
import subprocess
import sys

PASSED = "smoke test passed: d_k=512"


def run(*argv, code=None):
    environment = dict(os.environ)
    environment.pop("QT_QPA_PLATFORM", None)  # the command must choose offscreen itself
    environment.pop("DISPLAY", None)
    cmd = [sys.executable, "-c", code, *argv] if code else [sys.executable, "-m", "sqrtdk_gui", *argv]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=environment)


def assert_one_clean_line(done):
    out = done.stdout + done.stderr
    assert "Traceback" not in out and "qt." not in out and "arning" not in out, out


def test_smoke_test_passes_with_one_line_and_exit_0():
    done = run("--smoke-test")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(PASSED), done.stdout
    assert "icon ok" in lines[0] and "ICU ok" in lines[0] and "first frame" in lines[0]
    assert_one_clean_line(done)


def test_smoke_test_honours_parameter_flags():
    done = run("--smoke-test", "--keys", "32", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(PASSED)


def test_a_broken_panel_fails_with_one_line_and_no_traceback():
    code = ("import sys\n"
            "import sqrtdk_gui.gui.panels.histogram as h\n"
            "def boom(self, result, row): raise RuntimeError('panel exploded')\n"
            "h.HistogramPanel.show_result = boom\n"
            "from sqrtdk_gui.cli.main import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    done = run("--smoke-test", code=code)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("sqrtdk-gui: smoke test failed:") and "panel exploded" in lines[0]
    assert "Traceback" not in done.stdout + done.stderr


def test_a_qt_warning_fails_the_smoke_test():
    code = ("import sys\n"
            "from PySide6.QtCore import qWarning\n"
            "import sqrtdk_gui.gui.panels.gradient as g\n"
            "shown = g.GradientPanel.show_sweeps\n"
            "warned = []\n"
            "def noisy(self, sweeps):\n"
            "    if not warned:  # once, however often the sweeps are drawn\n"
            "        warned.append(qWarning('something odd'))\n"
            "    shown(self, sweeps)\n"
            "g.GradientPanel.show_sweeps = noisy\n"
            "from sqrtdk_gui.cli.main import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    done = run("--smoke-test", code=code)
    assert done.returncode == 1
    assert done.stderr.strip() == "sqrtdk-gui: smoke test failed: Qt warning: something odd"


def test_first_frame_reports_seconds_and_exits_cleanly():
    done = run("--first-frame")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    words = done.stdout.split()
    assert words[:2] == ["first", "frame"] and 0 < float(words[2]) < 60


def test_first_frame_is_not_advertised_in_help():
    done = run("--help")
    assert "--smoke-test" in done.stdout and "--first-frame" not in done.stdout
