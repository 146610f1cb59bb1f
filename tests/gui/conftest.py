"""Window tests: the application as the program makes it, and no look left behind by a test.

One QApplication serves every test of a process, and a window's zoom or theme sets the
application's font and palette: a test that zoomed would otherwise hand the next test a
window that lays itself out again under its eyes. Each test starts from the font and palette
the program starts with (its shipped fonts, at their default size).
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont, QPalette


@pytest.fixture(scope="session")
def program_look(qapp):
    """The application's font and palette as the program sets them at start."""
    from sqrtdk_gui.gui.assets import install_fonts

    install_fonts(qapp)
    return QFont(qapp.font()), QPalette(qapp.palette())


@pytest.fixture(autouse=True)
def _restore_program_look(qapp, program_look):
    font, palette = program_look
    if qapp.font() != font:
        qapp.setFont(font)
    if qapp.palette() != palette:
        qapp.setPalette(palette)
    yield
    qapp.setFont(font)
    qapp.setPalette(palette)
