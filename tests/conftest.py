"""Test setup: Qt renders offscreen unless a test run asks for a real display; shared fixtures."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The tests read the program's English texts; a machine set to another language must not change that.
os.environ["LANGUAGE"] = "en"

import pytest  # noqa: E402


def pytest_addoption(parser):
    # The pure-numpy tests (tests/core, tests/cli) run without PySide6 and pytest-qt; the
    # settings pyproject.toml gives pytest-qt must then still be known options.
    try:
        import pytestqt  # noqa: F401
    except ImportError:
        for name in ("qt_api", "qt_log_level_fail"):
            parser.addini(name, "pytest-qt's setting (pytest-qt is not installed)")
        parser.addini("qt_log_ignore", "pytest-qt's setting (pytest-qt is not installed)", type="linelist")

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
