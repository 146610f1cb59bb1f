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
from contextlib import contextmanager

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
        _stop(proc)
        proc.stderr.close()


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


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
from sqrtdk_gui.gui.launch.bootstrap import BENIGN_MESSAGES as _BENIGN
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
from sqrtdk_gui.gui.window.main_window import MainWindow
from sqrtdk_gui.core.attention.params import Params
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


# --- a lecture at 1024×768: a window manager, a fresh settings folder, a clicker's keys ----
OPENBOX, XDOTOOL = shutil.which("openbox"), shutil.which("xdotool")
# A slide drawn from the window: its off-screen twin, made at the presentation zoom in German,
# needs a taller window for its controls column than the slide; the slide must still be the
# size asked for (else the picture is squeezed). Prints the sizes as JSON.
_SLIDE_SIZE = r"""
import json
from sqrtdk_gui.gui.launch.bootstrap import application
app = application()
from sqrtdk_gui.gui.launch import translations
translations.install("de")
from sqrtdk_gui.gui.export.view import slide_layout
from sqrtdk_gui.gui.window.main_window import MainWindow
from sqrtdk_gui.gui.window.presentation import presentation_zoom
window = MainWindow(threaded=False)
window.show()
app.processEvents()
zoom = presentation_zoom(768)
twin = window.offscreen_twin(zoom)
app.processEvents()
before = twin.minimumSize().height()
with slide_layout(twin, (1024, 768), zoom):
    size = twin.size().toTuple()
print(json.dumps({"twin_min_height": before, "slide": size}))
"""


NEEDS_LECTURE_TOOLS = pytest.mark.skipif(
    XVFB is None or OPENBOX is None or XDOTOOL is None,
    reason="a lecture under X needs Xvfb, openbox and xdotool (apt-get install xvfb openbox xdotool)")


@contextmanager
def _x_server(tmp_path, *screens: str):
    """An Xvfb server with these screens ("1024x768"), a window manager on each and a fresh
    settings folder: (env, display)."""
    read_fd, write_fd = os.pipe()
    layout = [arg for i, size in enumerate(screens) for arg in ("-screen", str(i), f"{size}x24")]
    xvfb = subprocess.Popen([XVFB, "-displayfd", str(write_fd), *layout, "-nolisten", "tcp"],
                            pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    os.close(write_fd)
    procs = [xvfb]
    try:
        display = _read_display(read_fd, xvfb)
        env = _env("xcb", display)
        env["XDG_CONFIG_HOME"] = str(tmp_path / "config")  # a fresh settings folder
        for screen in range(len(screens)):
            where = display if len(screens) == 1 else f"{display}.{screen}"
            procs.append(subprocess.Popen([OPENBOX], env=dict(env, DISPLAY=where),
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        yield env, display
    finally:
        os.close(read_fd)
        for proc in reversed(procs):
            _stop(proc)
        xvfb.stderr.close()


@NEEDS_LECTURE_TOOLS
def test_a_slide_from_the_window_is_the_size_asked_for_on_a_1024x768_screen(tmp_path):
    with _x_server(tmp_path, "1024x768") as (env, _display):
        done = subprocess.run([sys.executable, "-c", _SLIDE_SIZE], capture_output=True, text=True, timeout=180,
                              env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    sizes = json.loads(done.stdout.strip().splitlines()[-1])
    assert sizes["twin_min_height"] > 768  # the case itself: the window needed more height
    assert sizes["slide"] == [1024, 768]


@pytest.fixture
def projector(tmp_path):
    """A 1024×768 X screen with a window manager: what a classroom projector gives."""
    with _x_server(tmp_path, "1024x768") as (env, _display):
        yield env


def _end(app: subprocess.Popen) -> str:
    """Stop the program (killed if it does not end) and return what it wrote to stderr."""
    app.terminate()
    try:
        return app.communicate(timeout=20)[1]
    except subprocess.TimeoutExpired:
        app.kill()
        return app.communicate()[1]


def _xdotool(env, *args) -> str:
    done = subprocess.run([XDOTOOL, *args], capture_output=True, text=True, timeout=60, env=env)
    return done.stdout.strip()


@NEEDS_LECTURE_TOOLS
def test_a_lecture_with_a_clicker_at_1024x768(projector):
    import time

    env = projector
    app = subprocess.Popen([sys.executable, "-m", "sqrtdk_gui"], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60  # a bound on waiting for the window, not a measurement
        window = ""
        while not window and time.monotonic() < deadline and app.poll() is None:
            time.sleep(0.2)
            window = _xdotool(env, "search", "--onlyvisible", "--name", "^sqrtdk-gui")
        assert window, f"no window appeared (exit status {app.poll()})"
        window = window.splitlines()[0]
        geometry = _xdotool(env, "getwindowgeometry", "--shell", window)
        size = dict(line.split("=") for line in geometry.splitlines())
        assert int(size["WIDTH"]) <= 1024 and int(size["HEIGHT"]) <= 768  # it fits the screen

        def title_after(key: str) -> str:
            """The window title once the key's effect shows (or after a few seconds: a reveal
            leaves the title as it was). A bound on waiting, never a measurement."""
            before = _xdotool(env, "getwindowname", window)
            _xdotool(env, "key", key)  # XTEST: a real key press to the focused window
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                time.sleep(0.1)
                name = _xdotool(env, "getwindowname", window)
                if name != before:
                    return name
            return before

        _xdotool(env, "windowactivate", "--sync", window)
        title_after("F11")  # presentation mode, then the guide's first key
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "WIDTH=1024" not in _xdotool(
                env, "getwindowgeometry", "--shell", window):
            time.sleep(0.1)  # the window manager makes it full screen
        _xdotool(env, "windowactivate", "--sync", window)
        assert "Step 1/5" in title_after("Right")
        titles = [title_after("Next") for _ in range(10)]  # Next is Page Down to xdotool
        # Each step: one press reveals (the title stays), the next moves on.
        assert [t.split(":")[0].split("— ")[-1] for t in titles[:9]] == [
            "Step 1/5", "Step 2/5", "Step 2/5", "Step 3/5", "Step 3/5", "Step 4/5", "Step 4/5",
            "Step 5/5", "Step 5/5"]
        assert "Trap" in titles[9]  # and on into the traps
        assert "Step 5/5" in title_after("Prior")  # Page Up walks back
        title_after("Escape")  # leaves presentation mode
    finally:
        err = _end(app)
    assert "Traceback" not in err, err


# A ranking dragged into order with a real mouse (xdotool), then committed: one JSON line.
_DRAG = r"""
import json, subprocess, sys
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
app = QApplication([])
from sqrtdk_gui.gui.window.main_window import MainWindow
from sqrtdk_gui.core.attention.params import Params
window = MainWindow(Params(queries=64, keys=16))
window.resize(1000, 700)
window.show()
QTest.qWaitForWindowExposed(window, 10000)
window.activateWindow()
QTest.qWaitForWindowActive(window, 10000)
window.actions.practice.trigger()
page = window.practice.page
page.presenter.open("fu_long_context")  # shown: ÷√d_k, ÷√n, × log n; right: log n, ÷√d_k, ÷√n
QTest.qWait(200)
options = page.options
def at(row, share):
    rect = options.visualItemRect(options.item(row))
    return options.viewport().mapToGlobal(QPoint(rect.center().x(), rect.top() + int(share * rect.height())))
start, end = at(2, 0.5), at(0, 0.2)  # the third item, dropped on the top part of the first
moves = [f"sleep 0.05 mousemove {start.x()} {start.y() + k * (end.y() - start.y()) // 8}" for k in range(1, 9)]
drag = subprocess.Popen(f"{sys.argv[1]} mousemove {start.x()} {start.y()} mousedown 1 sleep 0.2 "
                        f"{' '.join(moves)} sleep 0.2 mouseup 1".split())
while drag.poll() is None:  # the drag runs its own event loop: keep ours turning meanwhile
    QTest.qWait(20)
QTest.qWait(200)
out = {"order": [options.item(i).data(Qt.ItemDataRole.UserRole) for i in range(options.count())]}
QTest.keyClick(options, Qt.Key.Key_Return)
out["right"] = page.presenter.revealed and page.presenter.progress["fu_long_context"].correct
window.close()
print(json.dumps(out))
"""


@NEEDS_LECTURE_TOOLS
def test_a_ranking_is_dragged_into_order_with_the_mouse(projector):
    done = subprocess.run([sys.executable, "-c", _DRAG, XDOTOOL], capture_output=True, text=True,
                          timeout=180, env=projector)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"order": [2, 0, 1], "right": True}, report


@pytest.fixture
def laptop_and_projector(tmp_path):
    """A teacher's laptop (1280×800, the primary screen) with a projector (1024×768) as a second
    screen: two X screens, a window manager on each."""
    with _x_server(tmp_path, "1280x800", "1024x768") as (env, display):
        yield env, display


def _window_on(env, display: str, name: str, seconds: float = 60) -> tuple[str, dict]:
    """The first visible window on X screen ``display`` (":N.s") whose name starts with ``name``
    (the main window: not the presenter view) and its geometry, once there (a bound on
    waiting, not a measurement)."""
    import time

    screen_env = dict(env, DISPLAY=display)
    screen = display.rsplit(".", 1)[1]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = _xdotool(screen_env, "search", "--screen", screen, "--onlyvisible", "--name", f"^{name}")
        for window in found.splitlines():
            title = _xdotool(screen_env, "getwindowname", window)
            if "presenter view" in name or "presenter view" not in title:
                shell = _xdotool(screen_env, "getwindowgeometry", "--shell", window)
                return window, dict(line.split("=") for line in shell.splitlines())
        time.sleep(0.2)
    return "", {}


@NEEDS_LECTURE_TOOLS
def test_with_a_projector_the_slide_goes_there_and_the_notes_stay_on_the_laptop(laptop_and_projector):
    import time

    env, display = laptop_and_projector
    app = subprocess.Popen([sys.executable, "-m", "sqrtdk_gui"], env=dict(env, DISPLAY=f"{display}.0"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    laptop, projector = f"{display}.0", f"{display}.1"
    try:
        window, _ = _window_on(env, laptop, "sqrtdk-gui")
        assert window, f"no window appeared (exit status {app.poll()})"
        for _attempt in range(2):  # a key sent while a loaded machine still maps the window may go astray
            _xdotool(dict(env, DISPLAY=laptop), "windowactivate", "--sync", window)
            _xdotool(dict(env, DISPLAY=laptop), "key", "F11")
            slide, geometry = _window_on(env, projector, "sqrtdk-gui", seconds=30)
            if slide:
                break
            if _window_on(env, laptop, "sqrtdk-gui — presenter view", seconds=1)[0]:
                # The key arrived (the notes are up): another F11 would leave the presentation.
                slide, geometry = _window_on(env, projector, "sqrtdk-gui", seconds=60)
                break
        assert slide, f"the slide did not go to the projector (exit status {app.poll()})"
        deadline = time.monotonic() + 20  # a bound on waiting for full screen, not a measurement
        while (geometry.get("WIDTH"), geometry.get("HEIGHT")) != ("1024", "768") and time.monotonic() < deadline:
            time.sleep(0.2)
            slide, geometry = _window_on(env, projector, "sqrtdk-gui")
        assert (geometry["WIDTH"], geometry["HEIGHT"]) == ("1024", "768")  # the whole projector
        notes, where = _window_on(env, laptop, "sqrtdk-gui — presenter view")
        assert notes and int(where["WIDTH"]) > 1000, "the presenter view is not on the laptop"
        # The clicker's keys work while the presenter view has the focus.
        _xdotool(dict(env, DISPLAY=laptop), "windowactivate", "--sync", notes)
        for _ in range(3):  # step 1's question, its answer, step 2
            _xdotool(dict(env, DISPLAY=laptop), "key", "Next")
            time.sleep(0.5)
        deadline = time.monotonic() + 10
        while "Step 2/5" not in _xdotool(dict(env, DISPLAY=projector), "getwindowname", slide) \
                and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "Step 2/5" in _xdotool(dict(env, DISPLAY=projector), "getwindowname", slide)
        _xdotool(dict(env, DISPLAY=laptop), "key", "Escape")
    finally:
        err = _end(app)
    assert "Traceback" not in err, err
