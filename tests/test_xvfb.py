"""The program on a real X server (Xvfb, xcb platform plugin) as well as offscreen.

Offscreen is what every other test uses; a real X server differs in window activation,
keyboard focus, shortcuts and the platform plugin's system libraries (libxcb-cursor0 and
friends, which a fresh Debian lacks until they are installed). The Xvfb tests start their own Xvfb on a free display number (Xvfb
picks it: ``-displayfd``), run the program against it in subprocesses, and stop it again.
They are skipped, with the reason, when Xvfb is not installed.
"""

import json
import os
import select
import shutil
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage

XVFB = shutil.which("Xvfb")
NEEDS_XVFB = pytest.mark.skipif(
    XVFB is None, reason="Xvfb is not installed (Debian/Ubuntu: apt-get install xvfb "
                         "libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 "
                         "libxcb-image0 libxcb-render-util0 libxcb-shape0 libxcb-randr0 libxcb-xkb1)")


def _read_display(fd: int, proc: subprocess.Popen, timeout: float = 20.0) -> str:
    """The display number Xvfb writes to ``fd`` once it accepts connections."""
    data = b""
    while not data.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], timeout)
        chunk = os.read(fd, 64) if ready else b""
        if not chunk:
            err = proc.stderr.read().decode(errors="replace") if proc.poll() is not None else ""
            raise RuntimeError(f"Xvfb did not report a display within {timeout:.0f} s: {err[-2000:]}")
        data += chunk
    return ":" + data.decode().strip()


@pytest.fixture(scope="module")
def xvfb_display():
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        [XVFB, "-displayfd", str(write_fd), "-screen", "0", "1920x1080x24", "-nolisten", "tcp",
         "-noreset"],
        pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE)
    os.close(write_fd)
    try:
        yield _read_display(read_fd, proc)
    finally:
        os.close(read_fd)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stderr.close()


def _env(platform: str, display: str | None) -> dict:
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = platform
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("QT_SCALE_FACTOR", None)
    if display:
        env["DISPLAY"] = display
    else:
        env.pop("DISPLAY", None)
    return env


def _program(platform, display, *argv, cwd=None):
    return subprocess.run([sys.executable, "-m", "sqrtdk_gui", *argv], capture_output=True,
                          text=True, timeout=180, env=_env(platform, display), cwd=cwd)


# A short interactive session: real window, activation, key shortcuts, a frame. One JSON line.
_SESSION = r"""
import json, sys, warnings
warnings.simplefilter("error")
import sqrtdk_gui
from PySide6.QtCore import Qt, QtMsgType, qInstallMessageHandler
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from sqrtdk_gui.gui.bootstrap import BENIGN_MESSAGES as _BENIGN
problems = []
def handler(kind, context, message):
    if kind not in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg) and message not in _BENIGN:
        problems.append(f"Qt {kind.name}: {message}")
app = QApplication([])
qInstallMessageHandler(handler)
def hook(kind, value, tb):  # exceptions in slots; also reaches stderr for the test report
    problems.append(f"{kind.__name__}: {value}")
    sys.__excepthook__(kind, value, tb)
sys.excepthook = hook
from sqrtdk_gui.gui.main_window import MainWindow
from sqrtdk_gui.core.model import Params
out = {"platform": app.platformName()}
window = MainWindow(Params(queries=64, keys=16))
try:
    window.resize(1280, 720)
    window.show()
    out["exposed"] = QTest.qWaitForWindowExposed(window, 10000)
    window.activateWindow()
    out["active"] = QTest.qWaitForWindowActive(window, 10000)
    scalings = []
    for key in (Qt.Key.Key_R, Qt.Key.Key_S, Qt.Key.Key_R):
        QTest.keyClick(window, key)
        window.controller.flush()
        scalings.append(window.controller.params.scaling)
    out["scalings_after_R_S_R"] = scalings
    window.controls.dk_slider.setFocus()
    app.processEvents()
    out["slider_focused"] = window.controls.dk_slider.hasFocus()
    QTest.keyClick(window.controls.dk_slider, Qt.Key.Key_Right)  # one slider step: 64 -> 70
    window.controller.flush()
    out["dk_after_right"] = window.controller.params.d_k
    window.render_ready()
    image = window.grab().toImage()
    out["grab"] = [image.width(), image.height()]
    out["colours"] = len({image.pixel(x, y) for x in range(0, image.width(), 9)
                          for y in range(0, image.height(), 9)})
finally:
    window.close()
    window.deleteLater()
    app.processEvents()
out["problems"] = problems
print(json.dumps(out))
"""


def _session(platform: str, display: str | None) -> dict:
    done = subprocess.run([sys.executable, "-c", _SESSION], capture_output=True, text=True,
                          timeout=180, env=_env(platform, display))
    assert done.returncode == 0, f"exit status {done.returncode}\n{done.stderr[-4000:]}"
    assert done.stderr.strip() == "", done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _check_session(report: dict, platform: str) -> None:
    assert report["platform"] == platform
    assert report["problems"] == [], report["problems"]
    assert report["exposed"] and report["active"], report
    assert report["scalings_after_R_S_R"] == ["none", "sqrt_dk", "none"]
    # an arrow key goes to the focused slider, not to the lesson
    assert report["slider_focused"] and report["dk_after_right"] == 70
    assert report["grab"] == [1280, 720] and report["colours"] > 50


def test_interactive_session_offscreen():
    _check_session(_session("offscreen", None), "offscreen")


@NEEDS_XVFB
def test_interactive_session_under_xvfb(xvfb_display):
    _check_session(_session("xcb", xvfb_display), "xcb")


@NEEDS_XVFB
def test_screenshot_under_xvfb(xvfb_display, tmp_path):
    out = tmp_path / "xcb.png"
    done = _program("xcb", xvfb_display, "--screenshot", str(out), "--size", "1280x720",
                    "--dk", "512", "--scaling", "none")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and done.stdout == ""
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 720)
    colours = {image.pixel(x, y) for x in range(0, 1280, 7) for y in range(0, 720, 7)}
    assert len(colours) > 50


@NEEDS_XVFB
def test_smoke_test_under_xvfb(xvfb_display):
    done = _program("xcb", xvfb_display, "--smoke-test")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("smoke test passed") and done.stderr == ""
