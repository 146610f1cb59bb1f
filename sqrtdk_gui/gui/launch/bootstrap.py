"""Process-wide Qt set-up: the QApplication, its fonts, the Qt message filter, memory behaviour."""

from __future__ import annotations

import ctypes
import os
import sys
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from PySide6.QtCore import QMessageLogContext
    from PySide6.QtWidgets import QApplication

__all__ = ["BENIGN_MESSAGES", "application", "install_message_filter", "release_memory_promptly"]

# Messages of Qt's own that say nothing about this program: the offscreen platform plugin
# prints these on every show() and raise(). Everything else still reaches stderr.
BENIGN_MESSAGES = ("This plugin does not support propagateSizeHints()", "This plugin does not support raise()")


def install_message_filter() -> None:
    """Drop Qt's known-benign platform chatter; pass every other message to stderr."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    names = {QtMsgType.QtDebugMsg: "debug", QtMsgType.QtInfoMsg: "info",
             QtMsgType.QtWarningMsg: "warning", QtMsgType.QtCriticalMsg: "critical",
             QtMsgType.QtFatalMsg: "fatal"}

    def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if message not in BENIGN_MESSAGES:
            print(f"qt.{names.get(kind, 'message')}: {message}", file=sys.stderr)

    qInstallMessageHandler(handler)


def release_memory_promptly() -> None:
    """glibc only: allocate large arrays with mmap so that freeing them returns the memory.

    By default glibc raises its mmap threshold after large frees and then keeps up to
    hundreds of MB of freed numpy arrays in its arenas (the soak benchmark peaked at 630 MB
    with 1,024 keys while live data was ~150 MB). A fixed threshold of 1 MiB and two arenas
    keep the resident size close to what is really in use. Elsewhere this does nothing.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        # glibc only, asked without a shell-out (ctypes.util.find_library runs ldconfig).
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return
        libc = ctypes.CDLL(None)  # the process's own symbols: libc's mallopt among them
        m_mmap_threshold, m_arena_max = -3, -8
        libc.mallopt(m_mmap_threshold, 1 << 20)
        libc.mallopt(m_arena_max, 2)
    except (OSError, AttributeError, ValueError):  # not glibc (musl has no mallopt)
        pass


def application() -> QApplication:
    """The QApplication (created once), named for QSettings, in the shipped fonts, with the
    message filter."""
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.gui.assets import install_fonts, point_offscreen_at_shipped_fonts

    release_memory_promptly()
    point_offscreen_at_shipped_fonts()
    # The stub types instance() as QCoreApplication; the application is a QApplication.
    app = cast("QApplication | None", QApplication.instance()) or QApplication(
        [sys.argv[0] if sys.argv else "sqrtdk-gui"])
    app.setApplicationName("sqrtdk-gui")
    app.setOrganizationName("sqrtdk-gui")
    install_message_filter()
    install_fonts(app)
    return app
