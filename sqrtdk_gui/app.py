"""Start the window, or render it headless to an image (``--screenshot``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["run", "check_output_path", "install_message_filter"]

# Messages of Qt's own that say nothing about this program: the offscreen platform plugin
# prints this on every show(). Everything else still reaches stderr.
_BENIGN = ("This plugin does not support propagateSizeHints()",)


def install_message_filter() -> None:
    """Drop Qt's known-benign platform chatter; pass every other message to stderr."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    names = {QtMsgType.QtDebugMsg: "debug", QtMsgType.QtInfoMsg: "info",
             QtMsgType.QtWarningMsg: "warning", QtMsgType.QtCriticalMsg: "critical",
             QtMsgType.QtFatalMsg: "fatal"}

    def handler(kind, context, message):
        if message not in _BENIGN:
            print(f"qt.{names.get(kind, 'message')}: {message}", file=sys.stderr)

    qInstallMessageHandler(handler)


def check_output_path(path: str) -> str | None:
    """Why ``path`` cannot be written as an image, or None if it can."""
    target = Path(path)
    if target.suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp"):
        return f"cannot write {path!r}: use a .png, .jpg or .bmp file name"
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        return f"cannot write {path!r}: folder {str(parent)!r} does not exist"
    if not os.access(parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return f"cannot write {path!r}: permission denied"
    return None


def release_memory_promptly() -> None:
    """glibc only: allocate large arrays with mmap so that freeing them returns the memory.

    By default glibc raises its mmap threshold after large frees and then keeps up to
    hundreds of MB of freed numpy arrays in its arenas (the soak benchmark peaked at 630 MB
    with 1,024 keys while live data was ~150 MB). A fixed threshold of 1 MiB and two arenas
    keep the resident size close to what is really in use. Elsewhere this does nothing.
    """
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if not name or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(name)
        m_mmap_threshold, m_arena_max = -3, -8
        libc.mallopt(m_mmap_threshold, 1 << 20)
        libc.mallopt(m_arena_max, 2)
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        pass


def _application():
    from PySide6.QtWidgets import QApplication

    release_memory_promptly()
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "sqrtdk-gui"])
    app.setApplicationName("sqrtdk-gui")
    app.setOrganizationName("sqrtdk-gui")
    install_message_filter()
    return app


def open_lesson(window, args, animate: bool = True) -> None:
    """Enter ``--step`` or ``--scenario``, then apply the parameter flags on top."""
    from sqrtdk_gui.cli import given_params

    if getattr(args, "scenario", None):
        window.lesson.choose_scenario(args.scenario)
    elif getattr(args, "step", None):
        window.lesson.go_to(args.step, animate=animate)
    given = given_params(args)
    if given:
        window.animator.stop()
        window.controller.set_params(**given)


def render_to_file(window, path: str, size: tuple[int, int]) -> bool:
    """Lay the window out at ``size``, bring every panel up to date and save it."""
    from PySide6.QtWidgets import QApplication

    window.resize(*size)
    window.show()
    window.render_ready()
    QApplication.processEvents()
    return window.grab().save(path)


def _load_preset(path: str):
    """The preset's state, or None after printing one line (the caller exits with 2)."""
    from sqrtdk_gui import presets

    try:
        return presets.load(path)
    except presets.PresetError as exc:
        print(f"sqrtdk-gui: error: preset {path!r}: {exc}", file=sys.stderr)
        return None


def run(args) -> int:
    """The window (or a headless screenshot) for parsed command-line ``args``."""
    from sqrtdk_gui.cli import params_from_args

    params_from_args(args)  # raises ValueError for impossible combinations, before Qt starts
    if getattr(args, "smoke_test", False) or getattr(args, "first_frame", False):
        from sqrtdk_gui import smoke

        return smoke.run_smoke(args) if args.smoke_test else smoke.run_first_frame(args)
    state = None
    if getattr(args, "preset", None):
        state = _load_preset(args.preset)
        if state is None:
            return 2
    screenshot = getattr(args, "screenshot", None)
    if screenshot:
        problem = check_output_path(screenshot)
        if problem:
            print(f"sqrtdk-gui: error: {problem}", file=sys.stderr)
            return 2
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed
    app = _application()
    from sqrtdk_gui.presentation import presentation_zoom

    window, settings = prepare_window(args, state, interactive=not screenshot)
    try:
        if screenshot:
            if getattr(args, "presentation", False):  # no full screen offscreen: its layout
                window.set_zoom(max(window.style_.zoom, presentation_zoom(args.size[1])))
                window.set_controls_visible(False)
            if not render_to_file(window, screenshot, args.size):
                print(f"sqrtdk-gui: error: could not write {screenshot!r}", file=sys.stderr)
                return 2
            return 0
        window.show()
        if getattr(args, "presentation", False):
            window.presentation.enter()
        interrupted = _quit_on_sigint(app)
        status = app.exec()
        return 130 if interrupted else status
    finally:
        # Closing and deleting the window before the interpreter exits avoids a crash at
        # exit seen with PySide6 6.11 when a pyqtgraph window is left open (FACTS.md).
        window.close()
        if settings is not None:
            settings.save(window.saveGeometry(), window.current_state())
        window.deleteLater()
        app.processEvents()
        del window


def _quit_on_sigint(app) -> list:
    """Ctrl+C in the terminal closes the window like the Quit action (status 130).

    Qt's event loop does not return to Python while idle, so a timer hands it control a few
    times a second; that is when Python runs the signal handler.
    """
    import signal

    from PySide6.QtCore import QTimer

    interrupted: list = []

    def handler(signum, frame):
        interrupted.append(signum)
        app.quit()

    signal.signal(signal.SIGINT, handler)
    tick = QTimer(app)
    tick.timeout.connect(lambda: None)
    tick.start(200)
    return interrupted


def prepare_window(args, state=None, interactive: bool = True):
    """The main window in the state the command line asks for, and its settings store.

    Order: defaults < remembered state (interactive runs only) < --preset < --step or
    --scenario < parameter flags, --theme and --zoom. A damaged settings store gives
    defaults and a one-line warning (stderr and status bar), never a failure.
    """
    from sqrtdk_gui.main_window import MainWindow
    from sqrtdk_gui.settings import Settings

    # Interactive runs remember their state; headless renders are reproducible.
    settings = Settings(os.environ.get("SQRTDK_GUI_SETTINGS")) if interactive else None
    geometry = warning = None
    if settings is not None:
        geometry, saved, warning = settings.load()
        state = state or saved
    window = MainWindow(threaded=interactive)
    if geometry is not None:
        window.restoreGeometry(geometry)
    if state is not None:
        window.apply_state(state)
    open_lesson(window, args, animate=interactive)
    if getattr(args, "theme", None):
        window.set_theme(args.theme)
    if getattr(args, "zoom", None):
        window.set_zoom(args.zoom)
    if warning:
        print(f"sqrtdk-gui: warning: {warning}", file=sys.stderr)
        window.statusBar().showMessage(warning, 15000)
    return window, settings


def export_slides_headless(args) -> int:
    """``sqrtdk-gui export-slides DIR``: every lesson slide as PNG, offscreen."""
    from pathlib import Path

    folder = Path(args.folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"sqrtdk-gui: error: cannot create {str(folder)!r}: {exc.strerror}", file=sys.stderr)
        return 2
    if not os.access(folder, os.W_OK):
        print(f"sqrtdk-gui: error: cannot write into {str(folder)!r}: permission denied", file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = _application()
    from sqrtdk_gui.exporting import export_slides
    from sqrtdk_gui.main_window import MainWindow

    window = MainWindow(threaded=False, theme=args.theme, zoom=args.zoom)
    try:
        window.show()
        written = export_slides(window, str(folder), args.size)
        print(f"wrote {len(written)} slides to {folder}")
        return 0
    except OSError as exc:
        print(f"sqrtdk-gui: error: {exc}", file=sys.stderr)
        return 2
    finally:
        window.close()
        window.deleteLater()
        app.processEvents()
        del window
