"""Test setup: Qt renders offscreen unless a test run asks for a real display; shared fixtures."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

import sqrtdk_gui  # noqa: E402,F401  (before numpy: it pins BLAS to one thread, as the app does)


@pytest.fixture
def make_window(qtbot):
    """A factory of shown main windows, closed (and their threads stopped) at teardown."""
    from sqrtdk_gui.gui.window.main_window import MainWindow

    def make(params=None, size=(1600, 900), **kwargs):
        window = MainWindow(params, **kwargs)
        qtbot.addWidget(window)
        window.resize(*size)
        window.show()
        qtbot.waitExposed(window)
        return window

    return make


@pytest.fixture
def window_params():
    """The parameters the ``window`` fixture opens with; a test module may override this."""
    return None


@pytest.fixture
def window(make_window, window_params):
    return make_window(window_params)
