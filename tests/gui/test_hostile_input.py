"""Hostile input, as an unlucky teacher or a malicious file would give it: one clear line (or
one dialog), never a traceback, a hang or a damaged file.

* The command line in its own processes: empty paths, digits of other scripts, no display,
  a preset or target that is a FIFO, a full disk, ``stats > /dev/full``, names too long.
* Every export of the window on a full disk (a file-size limit in a child process): each
  fails with one sentence and leaves the file it would have replaced byte for byte.
* The settings file: hostile contents, a FIFO, a symlink to a device, too large.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import resource
import stat
import subprocess
import sys
import textwrap
import threading

import pytest

from sqrtdk_gui.cli import main as cli
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.environment.display import display_problem, platform_problem
from sqrtdk_gui.core.io import presets

PROG = "sqrtdk-gui: error: "
ROOT = os.geteuid() == 0
OLD = b"\x89PNG the teacher's old file, not to be lost " * 500


def _env(**changes) -> dict:
    env = dict(os.environ)
    for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY", cli.DEBUG_ENV):
        env.pop(name, None)
    env.update(changes)
    return env


def _free_display() -> str:
    """A local X display number nothing listens on (no socket file, no abstract socket)."""
    try:
        with open("/proc/net/unix", encoding="ascii", errors="replace") as f:
            listed = f.read()
    except OSError:
        listed = ""
    for n in range(97, 200):
        path = f"/tmp/.X11-unix/X{n}"
        if not os.path.exists(path) and path not in listed:
            return f":{n}"
    pytest.skip("no free X display number")


def _limit_file_size(limit: int):
    def preexec():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # the program ignores SIGXFSZ

    return preexec


def _preset(**fields) -> str:
    return json.dumps({"format": presets.FORMAT, "version": 1, **fields})


# (id, argv, text the one line must contain, options). "{tmp}" is a scratch folder holding
# the files made by `scratch` below. Options: env (changes to the environment without a
# display), stdout (a file to write it to), limit (a file-size limit in bytes), close_stdout
# (the program starts with no standard output).
CASES = [
    # empty paths: a window that waited forever, 13 slides in the current folder, nothing
    ("screenshot-empty", ["--screenshot", ""], "--screenshot wants a file name", {}),
    ("preset-empty", ["--preset", ""], "--preset wants a file name", {}),
    ("slides-empty", ["export-slides", ""], "wants a folder name", {}),
    ("slides-blank", ["export-slides", "  "], "wants a folder name", {}),
    # digits of other scripts, which int() and float() accept
    ("dk-arabic-indic", ["--dk", "٣"], "digits 0-9", {}),
    ("stats-dk-arabic-indic", ["stats", "--dk", "٣"], "digits 0-9", {}),
    ("stats-keys-fullwidth", ["stats", "--keys", "１６"], "digits 0-9", {}),
    ("stats-temperature-arabic-indic", ["stats", "--temperature", "٠.٥"], "digits 0-9", {}),
    ("train-steps-devanagari", ["train", "--steps", "५"], "digits 0-9", {}),
    ("size-arabic-indic", ["--screenshot", "{tmp}/a.png", "--size", "١٩٢٠x١٠٨٠"], "--size", {}),
    # no display: Qt aborted with status 134 and five lines
    ("no-display", ["--dk", "8"], "DISPLAY is not set", {}),
    ("dead-display", ["--dk", "8"], "no X server", {"env": {"DISPLAY": "{free_display}"}}),
    ("bad-display", [], "not a display name", {"env": {"DISPLAY": "nonsense"}}),
    ("xcb-without-display", [], "DISPLAY", {"env": {"QT_QPA_PLATFORM": "xcb"}}),
    # targets and presets that are not regular files
    ("screenshot-to-fifo", ["--screenshot", "{tmp}/fifo.png"], "FIFO", {}),
    ("screenshot-via-symlink-to-fifo", ["--screenshot", "{tmp}/link-to-fifo.png"], "FIFO", {}),
    ("preset-fifo", ["--preset", "{tmp}/fifo.json", "--screenshot", "{tmp}/b.png"], "FIFO", {}),
    ("preset-folder", ["--preset", "{tmp}", "--screenshot", "{tmp}/b.png"], "folder", {}),
    ("preset-nested", ["--preset", "{tmp}/nested.json", "--screenshot", "{tmp}/b.png"], "nested", {}),
    ("preset-scenario-list", ["--preset", "{tmp}/scenario-list.json"], "lesson.scenario", {}),
    ("preset-scenario-object", ["--preset", "{tmp}/scenario-object.json"], "lesson.scenario", {}),
    ("preset-huge-integer", ["--preset", "{tmp}/huge-int.json"], "digits", {}),
    ("preset-huge-theme", ["--preset", "{tmp}/huge-theme.json"], "unknown theme", {}),
    ("preset-huge-dtype", ["--preset", "{tmp}/huge-dtype.json"], "characters) is not one of", {}),
    ("preset-huge-name", ["--preset", "{tmp}/huge-name.json"], "unknown parameter", {}),
    # output that cannot be written
    ("stats-to-dev-full", ["stats"], "No space left on device", {"stdout": "/dev/full"}),
    ("stats-json-to-dev-full", ["stats", "--json", "--queries", "8"], "No space left on device",
     {"stdout": "/dev/full"}),
    ("train-to-dev-full", ["train", "--steps", "3"], "No space left on device", {"stdout": "/dev/full"}),
    ("stats-stdout-closed", ["stats"], "standard output is closed", {"close_stdout": True}),
    ("stats-json-stdout-closed", ["stats", "--json", "--queries", "8"], "standard output is closed",
     {"close_stdout": True}),
    ("train-stdout-closed", ["train", "--steps", "3"], "standard output is closed", {"close_stdout": True}),
    ("screenshot-name-too-long", ["--screenshot", "{tmp}/" + "a" * 300 + ".png"], "too long", {}),
    ("screenshot-disk-full", ["--screenshot", "{tmp}/old.png", "--size", "1024x768"],
     "File too large", {"limit": 40_000}),
    ("slides-disk-full", ["export-slides", "{tmp}/slides", "--size", "640x480"], "File too large",
     {"limit": 40_000}),
]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    os.mkfifo(tmp / "fifo.png")
    os.mkfifo(tmp / "fifo.json")
    (tmp / "link-to-fifo.png").symlink_to(tmp / "fifo.png")
    (tmp / "nested.json").write_text("[" * 100_000)
    (tmp / "scenario-list.json").write_text(_preset(lesson={"scenario": [1]}))
    (tmp / "scenario-object.json").write_text(_preset(lesson={"scenario": {"a": 1}}))
    (tmp / "huge-int.json").write_text('{"format": "sqrtdk-gui preset", "version": ' + "9" * 5000 + "}")
    huge = "x" * 900_000  # a 900 KB value: the message quotes a short prefix of it
    (tmp / "huge-theme.json").write_text(_preset(theme=huge))
    (tmp / "huge-dtype.json").write_text(_preset(params={"dtype": huge}))
    (tmp / "huge-name.json").write_text(_preset(params={huge: 1}))
    (tmp / "old.png").write_bytes(OLD)
    (tmp / "slides").mkdir()
    from sqrtdk_gui.gui.export.view import slide_plan

    for name, _, _ in slide_plan():
        (tmp / "slides" / name).write_bytes(OLD)
    return tmp


def _run_case(argv, options, fill, cwd):
    env = _env(**{k: v.format(**fill) for k, v in options.get("env", {}).items()})
    kwargs = {}
    if "limit" in options:
        kwargs["preexec_fn"] = _limit_file_size(options["limit"])
    if options.get("close_stdout"):  # `stats >&-`: the program starts with no fd 1
        kwargs["preexec_fn"] = lambda: os.close(1)
    stdout = open(options["stdout"], "w") if "stdout" in options else subprocess.PIPE  # noqa: SIM115
    try:
        done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", *[a.format(**fill) for a in argv]],
                              stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120,
                              env=env, cwd=cwd, **kwargs)
    finally:
        if stdout is not subprocess.PIPE:
            stdout.close()
    return done


@pytest.fixture(scope="module")
def outcomes(scratch):
    """Every CASES row in its own process, two at a time (a hang fails by its timeout)."""
    fill = {"tmp": str(scratch), "free_display": _free_display()}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {case: pool.submit(_run_case, argv, options, fill, scratch)
                   for case, argv, _, options in CASES}
        return {case: f.result() for case, f in futures.items()}


@pytest.mark.parametrize("case,argv,needle,options", CASES, ids=[c[0] for c in CASES])
def test_hostile_command_lines_exit_2_with_one_line(outcomes, case, argv, needle, options):
    done = outcomes[case]
    report = f"status {done.returncode}, stderr:\n{done.stderr}"
    assert done.returncode == 2, report
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(PROG) and needle in lines[0], report
    assert "Traceback" not in done.stderr and "libpng" not in done.stderr


@pytest.mark.parametrize("case", ["preset-huge-theme", "preset-huge-dtype", "preset-huge-name"])
def test_a_huge_bad_value_is_quoted_short(outcomes, case):
    assert len(outcomes[case].stderr) < 400, outcomes[case].stderr[:400]


def test_hostile_command_lines_leave_every_file_as_it_was(outcomes, scratch):
    assert stat.S_ISFIFO(os.stat(scratch / "fifo.png").st_mode)
    assert stat.S_ISFIFO(os.stat(scratch / "fifo.json").st_mode)
    assert (scratch / "link-to-fifo.png").is_symlink()
    assert (scratch / "old.png").read_bytes() == OLD  # the full disk did not cut it short
    assert all(f.read_bytes() == OLD for f in (scratch / "slides").iterdir())
    assert not (scratch / "b.png").exists()
    stray = [p.name for p in scratch.rglob("*") if p.name.startswith(".") or p.suffix == ".tmp"]
    assert stray == []


def test_the_same_screenshot_without_the_limit_is_written(scratch, tmp_path):
    # The control for "screenshot-disk-full": only the limit made it fail.
    target = tmp_path / "old.png"
    target.write_bytes(OLD)
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "--screenshot", str(target),
                           "--size", "1024x768"], capture_output=True, text=True, timeout=120, env=_env())
    assert done.returncode == 0, done.stderr
    assert target.read_bytes() != OLD and target.stat().st_size > 40_000


# --- every export of the window on a full disk ---------------------------------------------

EXPORTS = textwrap.dedent(r"""
    import json, os, resource, signal, sys
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from sqrtdk_gui.core.io import presets
    from sqrtdk_gui.core.attention.params import Params
    from sqrtdk_gui.gui.export import view as exporting
    from sqrtdk_gui.gui.window import export_actions, file_dialogs
    from sqrtdk_gui.gui.window.main_window import MainWindow
    from sqrtdk_gui.gui.window.settings import Settings

    folder, limit = sys.argv[1], int(sys.argv[2])
    w = MainWindow(Params(queries=1024, keys=16), threaded=False)
    w.resize(1280, 720); w.show(); w.render_ready()
    settings = Settings(os.path.join(folder, "settings.ini"))
    settings.load()
    dialogs = []
    file_dialogs.QMessageBox.warning = lambda parent, title, text: dialogs.append(text)
    export_actions.QInputDialog.getItem = staticmethod(lambda *a, **k: ("1920 × 1080", True))
    chosen = {}
    export_actions.QFileDialog.getSaveFileName = staticmethod(lambda *a, **k: (chosen["path"], ""))

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # as the program's main() does
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
    report = {}

    def attempt(name, write):
        try:
            result = write()
            report[name] = ["no error", repr(result)]
        except OSError as exc:
            report[name] = [type(exc).__name__, str(exc)]

    p = lambda name: os.path.join(folder, name)
    attempt("png", lambda: exporting.export_png(w, p("view.png"), (1920, 1080)))
    attempt("svg", lambda: exporting.export_svg(w, p("view.svg")))
    attempt("csv", lambda: exporting.export_csv(w.controller.result, p("numbers.csv")))
    attempt("slides", lambda: exporting.export_slides(w, p("slides"), (1280, 720)))
    attempt("preset", lambda: presets.save(w.current_state(), p("lesson.json")))
    report["settings"] = settings.save(w.saveGeometry(), w.current_state())
    for action, name in (("export_png", "menu.png"), ("export_svg", "menu.svg"),
                         ("export_csv", "menu.csv"), ("save_preset", "menu.json")):
        chosen["path"] = p(name)
        getattr(w.actions, action).trigger()
    report["dialogs"] = dialogs
    w.close(); w.deleteLater(); app.processEvents()
    print(json.dumps(report))
""")

EXPORTED = ["view.png", "view.svg", "numbers.csv", "lesson.json", "settings.ini", "menu.png",
            "menu.svg", "menu.csv", "menu.json"]


def _old_files(folder, content: bytes) -> dict:
    (folder / "slides").mkdir()
    from sqrtdk_gui.gui.export.view import slide_plan

    names = EXPORTED + [f"slides/{name}" for name, _, _ in slide_plan()]
    for name in names:
        (folder / name).write_bytes(content)
        (folder / name).chmod(0o644)
    return {name: content for name in names}


# What each attempt writes: the small files (preset, settings) fit under 20 kB, the images
# and the 1,024-row CSV do not; under 300 bytes nothing fits.
SMALL = {"preset": "lesson.json", "menu.json": "menu.json", "settings": "settings.ini"}


@pytest.mark.parametrize("limit", [300, 20_000], ids=["300-bytes", "20-kB"])
def test_every_export_on_a_full_disk_fails_clearly_and_keeps_the_old_file(tmp_path, limit):
    old = _old_files(tmp_path, b"old" * 10)
    done = subprocess.run([sys.executable, "-c", EXPORTS, str(tmp_path), str(limit)],
                          capture_output=True, text=True, timeout=300, env=_env())
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and "libpng" not in done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    small_fit = limit > 10_000
    for name in ("png", "svg", "csv", "slides") + (() if small_fit else ("preset",)):
        kind, message = report[name]
        assert kind == "IOFailure" and "File too large" in message, (name, report[name])
    if small_fit:
        assert report["preset"][0] == "no error" and report["settings"] is None
    else:
        assert report["settings"].startswith("settings not saved")
    assert len(report["dialogs"]) == (3 if small_fit else 4), report["dialogs"]
    assert all("File too large" in d and "\n" not in d for d in report["dialogs"])
    for name, content in old.items():  # byte for byte, or (if it fitted) replaced; still 0644
        written = small_fit and name in SMALL.values()
        assert ((tmp_path / name).read_bytes() != content) == written, name
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o644, name
    stray = [p.name for p in tmp_path.rglob("*") if p.name.startswith(".")]
    assert stray == []


# --- the File menu with hostile files --------------------------------------------------------

@pytest.fixture
def window_params():
    return Params(queries=64, keys=16)


@pytest.mark.parametrize("content,why", [("[" * 100_000, "nested"),
                                         (_preset(lesson={"scenario": [1]}), "lesson.scenario"),
                                         (_preset(lesson={"scenario": {}}), "lesson.scenario")])
def test_file_open_with_a_hostile_preset_shows_one_dialog(window, tmp_path, monkeypatch, content, why):
    path = tmp_path / "p.json"
    path.write_text(content)
    before = window.current_state()
    shown = []
    monkeypatch.setattr("sqrtdk_gui.gui.window.preset_actions.QFileDialog.getOpenFileName",
                        lambda *a, **k: (str(path), ""))
    monkeypatch.setattr("sqrtdk_gui.gui.window.file_dialogs.QMessageBox.warning",
                        lambda parent, title, text: shown.append(text))
    window.actions.open_preset.trigger()
    assert len(shown) == 1 and why in shown[0] and "Nothing was changed" in shown[0]
    assert window.current_state() == before and path.read_text() == content


def test_file_open_with_a_fifo_shows_one_dialog_and_does_not_block(window, tmp_path, monkeypatch):
    fifo = tmp_path / "p.json"
    os.mkfifo(fifo)
    rescued = []

    def rescue():  # if the read blocked, give it a writer: the test then fails, not hangs
        if not done.wait(10):
            rescued.append(True)
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    done = threading.Event()
    threading.Thread(target=rescue, daemon=True).start()
    shown = []
    monkeypatch.setattr("sqrtdk_gui.gui.window.preset_actions.QFileDialog.getOpenFileName",
                        lambda *a, **k: (str(fifo), ""))
    monkeypatch.setattr("sqrtdk_gui.gui.window.file_dialogs.QMessageBox.warning",
                        lambda parent, title, text: shown.append(text))
    try:
        window.actions.open_preset.trigger()
    finally:
        done.set()
    assert not rescued and len(shown) == 1 and "FIFO" in shown[0]


@pytest.mark.parametrize("action,name", [("export_png", "v.png"), ("export_svg", "v.svg"),
                                         ("export_csv", "v.csv"), ("save_preset", "v.json")])
def test_file_menu_refuses_a_fifo_target_with_one_dialog(window, tmp_path, monkeypatch, action, name):
    target = tmp_path / name
    os.mkfifo(target)
    shown = []
    monkeypatch.setattr("sqrtdk_gui.gui.window.export_actions.QFileDialog.getSaveFileName",
                        lambda *a, **k: (str(target), ""))
    monkeypatch.setattr("sqrtdk_gui.gui.window.export_actions.QInputDialog.getItem",
                        lambda *a, **k: ("1280 × 720", True))
    monkeypatch.setattr("sqrtdk_gui.gui.window.file_dialogs.QMessageBox.warning",
                        lambda parent, title, text: shown.append(text))
    window.render_ready()
    getattr(window.actions, action).trigger()
    assert len(shown) == 1 and "FIFO" in shown[0] and "\n" not in shown[0]
    assert stat.S_ISFIFO(os.stat(target).st_mode)


# --- the settings file -----------------------------------------------------------------------

def _settings_with_state(path, text: str) -> None:
    from PySide6.QtCore import QSettings

    qs = QSettings(str(path), QSettings.Format.IniFormat)
    qs.setValue("state/preset", text)
    qs.sync()
    del qs


@pytest.mark.parametrize("text,why", [("[" * 100_000, "nested"),
                                      (_preset(lesson={"scenario": [1]}), "lesson.scenario"),
                                      (_preset(lesson={"scenario": {"x": 1}}), "lesson.scenario")])
def test_a_hostile_remembered_state_starts_with_defaults_and_a_warning(qtbot, tmp_path, monkeypatch,
                                                                       capsys, text, why):
    from sqrtdk_gui.gui.launch.app import Launch, prepare_window

    ini = tmp_path / "settings.ini"
    _settings_with_state(ini, text)
    monkeypatch.setenv("SQRTDK_GUI_SETTINGS", str(ini))
    window, settings = prepare_window(Launch())
    qtbot.addWidget(window)
    assert window.current_state() == presets.State()
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "warning" in err and why in err and "defaults" in err
    assert settings.save(window.saveGeometry(), window.current_state()) is None
    assert settings.load()[2] is None  # the next start is clean again


def test_a_settings_fifo_neither_blocks_nor_becomes_a_file(qtbot, tmp_path, monkeypatch, capsys):
    from sqrtdk_gui.gui.launch.app import Launch, prepare_window

    fifo = tmp_path / "settings.ini"
    os.mkfifo(fifo)
    done = threading.Event()
    rescued = []

    def rescue():
        if not done.wait(10):
            rescued.append(True)
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    threading.Thread(target=rescue, daemon=True).start()
    monkeypatch.setenv("SQRTDK_GUI_SETTINGS", str(fifo))
    try:
        window, settings = prepare_window(Launch())
        qtbot.addWidget(window)
        assert settings.save(window.saveGeometry(), window.current_state()) is None
    finally:
        done.set()
    assert not rescued, "reading the settings blocked on the FIFO"
    assert window.current_state() == presets.State()
    assert "FIFO" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.skipif(not ROOT, reason="creating a device node needs root (the case the issue saw)")
def test_a_settings_symlink_to_a_device_leaves_the_device_alone(qtbot, tmp_path, capsys):
    from sqrtdk_gui.gui.window.settings import Settings

    device = tmp_path / "null-twin"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    link = tmp_path / "settings.ini"
    link.symlink_to(device)
    settings = Settings(str(link))
    geometry, state, warning = settings.load()
    assert state is None and "device" in warning
    from PySide6.QtCore import QByteArray

    from sqrtdk_gui.core.io.presets import State

    assert settings.save(QByteArray(b"geometry"), State()) is None
    assert stat.S_ISCHR(os.lstat(device).st_mode) and link.is_symlink()
    # Even a settings object that never read the file does not write through to a device.
    assert "device" in Settings(str(link)).save(QByteArray(b"g"), State())
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_a_settings_symlink_to_a_file_is_written_through_with_its_permissions(qtbot, tmp_path):
    from PySide6.QtCore import QByteArray

    from sqrtdk_gui.gui.window.settings import Settings

    real = tmp_path / "real.ini"
    real.write_text("[other]\nkept=yes\n")
    real.chmod(0o640)
    link = tmp_path / "settings.ini"
    link.symlink_to(real)
    settings = Settings(str(link))
    assert settings.load() == (None, None, None)
    state = presets.State(params=Params(d_k=300))
    assert settings.save(QByteArray(b"geometry"), state) is None
    assert link.is_symlink() and stat.S_IMODE(real.stat().st_mode) == 0o640
    text = real.read_text()
    assert "kept=yes" in text  # keys this version does not know survive a save
    assert Settings(str(link)).load()[1] == state


def test_a_huge_settings_file_is_neither_read_nor_replaced(qtbot, tmp_path):
    from PySide6.QtCore import QByteArray

    from sqrtdk_gui.gui.window.settings import MAX_BYTES, Settings

    ini = tmp_path / "settings.ini"
    content = b"[a]\nb=" + b"x" * MAX_BYTES + b"\n"
    ini.write_bytes(content)
    settings = Settings(str(ini))
    geometry, state, warning = settings.load()
    assert state is None and "more than" in warning
    assert settings.save(QByteArray(b"g"), presets.State()) is None
    assert ini.read_bytes() == content


def test_a_settings_file_that_became_a_fifo_is_not_written_through(qtbot, tmp_path):
    from PySide6.QtCore import QByteArray

    from sqrtdk_gui.gui.window.settings import Settings

    path = tmp_path / "settings.ini"
    settings = Settings(str(path))
    assert settings.load() == (None, None, None)  # no file yet: fine
    os.mkfifo(path)  # something else appeared there while the window was open
    warning = settings.save(QByteArray(b"g"), presets.State())
    assert warning.startswith("settings not saved") and "FIFO" in warning and "\n" not in warning
    assert stat.S_ISFIFO(os.stat(path).st_mode)


def test_the_default_settings_path_is_the_one_qsettings_uses(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QSettings

    from sqrtdk_gui.gui.window.settings import default_path

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    qs = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "sqrtdk-gui", "sqrtdk-gui")
    assert default_path() == qs.fileName()


# --- no display ------------------------------------------------------------------------------

def test_display_problem_is_none_where_a_window_can_open(tmp_path):
    sockets = tmp_path / "x11"
    sockets.mkdir()
    os.mknod(sockets / "X5", stat.S_IFSOCK | 0o777)  # what a running X server leaves
    assert display_problem({"DISPLAY": ":5"}, "linux", str(sockets)) is None
    assert display_problem({"DISPLAY": ":5.0"}, "linux", str(sockets)) is None
    assert display_problem({"DISPLAY": "unix:5"}, "linux", str(sockets)) is None
    assert display_problem({"DISPLAY": "localhost:10.0"}, "linux", str(sockets)) is None  # ssh -X
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux", str(sockets)) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux", str(sockets)) is None
    assert display_problem({}, "win32", str(sockets)) is None
    assert display_problem({}, "darwin", str(sockets)) is None


def test_display_problem_says_what_to_do_where_qt_would_abort(tmp_path):
    sockets = tmp_path / "x11"
    sockets.mkdir()
    (sockets / "X6").write_text("a file, not a socket")
    cases = {
        "DISPLAY is not set": {},
        "nothing listens": {"DISPLAY": ":6"},
        "not a display name": {"DISPLAY": "six"},
        "WAYLAND_DISPLAY is not set": {"QT_QPA_PLATFORM": "wayland"},
    }
    for why, env in cases.items():
        message = display_problem(env, "linux", str(sockets))
        assert message and why in message and "--screenshot" in message and "\n" not in message


def test_an_unknown_platform_plugin_name_is_one_line_not_an_abort():
    assert "names no platform plugin" in platform_problem({"QT_QPA_PLATFORM": "foo"})
    assert "offscreen" in platform_problem({"QT_QPA_PLATFORM": "foo"})  # it lists the ones there are
    assert platform_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert platform_problem({"QT_QPA_PLATFORM": "foo;offscreen"}) is None  # Qt falls back to it
    assert platform_problem({}) is None


@pytest.mark.parametrize("platform, argv, needle", [
    ("foo", ["--screenshot", "shot.png"], "names no platform plugin"),
    ("foo", [], "names no platform plugin"),
    ("xcb", ["--screenshot", "shot.png"], "needs a display"),
    ("wayland;foo", ["--smoke-test"], "needs a display"),  # Qt skips foo and tries wayland
])
def test_a_platform_that_cannot_start_here_is_refused_in_one_line(tmp_path, platform, argv, needle):
    env = _env(QT_QPA_PLATFORM=platform)  # and no DISPLAY, no WAYLAND_DISPLAY
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", *argv], capture_output=True, text=True,
                          timeout=60, env=env, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(PROG) and needle in done.stderr and len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "shot.png").exists()
