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


def _application():
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "sqrtdk-gui"])
    app.setApplicationName("sqrtdk-gui")
    app.setOrganizationName("sqrtdk-gui")
    install_message_filter()
    return app


def open_lesson(window, args, animate: bool = True) -> None:
    """Enter ``--step`` or ``--scenario``, then re-apply the parameter flags on top."""
    from sqrtdk_gui.cli import given_params

    if getattr(args, "scenario", None):
        window.lesson.choose_scenario(args.scenario)
    elif getattr(args, "step", None):
        window.lesson.go_to(args.step, animate=animate)
    else:
        return
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


def run(args) -> int:
    """The window (or a headless screenshot) for parsed command-line ``args``."""
    from sqrtdk_gui.cli import params_from_args

    params = params_from_args(args)  # raises ValueError for impossible combinations
    screenshot = getattr(args, "screenshot", None)
    if screenshot:
        problem = check_output_path(screenshot)
        if problem:
            print(f"sqrtdk-gui: error: {problem}", file=sys.stderr)
            return 2
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed
    app = _application()
    from sqrtdk_gui.main_window import MainWindow

    window = MainWindow(params, threaded=not screenshot)
    open_lesson(window, args, animate=not screenshot)
    try:
        if screenshot:
            if not render_to_file(window, screenshot, args.size):
                print(f"sqrtdk-gui: error: could not write {screenshot!r}", file=sys.stderr)
                return 2
            return 0
        window.show()
        return app.exec()
    finally:
        # Closing and deleting the window before the interpreter exits avoids a crash at
        # exit seen with PySide6 6.11 when a pyqtgraph window is left open (FACTS.md).
        window.close()
        window.deleteLater()
        app.processEvents()
        del window
