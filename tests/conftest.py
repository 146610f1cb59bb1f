"""Test setup: Qt renders offscreen unless a test run asks for a real display; shared fixtures."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The tests read the program's English texts; a machine set to another language must not change that.
os.environ["LANGUAGE"] = "en"

import pytest  # noqa: E402

# Groups left out unless asked for: CI runs each as its own step (.ci/run). Opt-in flags
# rather than a marker expression in addopts, so that ``-m`` stays free for the caller.
OPT_IN = {"slow": "stress runs of a minute or more", "render": "end-to-end renders of the slides and the handout",
          "claims": "every training figure the texts quote, recomputed (minutes)"}


def pytest_collection_modifyitems(config, items):
    wanted = {group for group in OPT_IN if config.getoption(f"run_{group}") or config.getoption("run_all")}
    kept, left_out = [], []
    for item in items:
        optional = any(item.get_closest_marker(g) for g in OPT_IN if g not in wanted)
        (left_out if optional else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def pytest_collection_finish(session):
    """What exists once the tests are collected (modules, the tests themselves) lives as long
    as the session: frozen, the collections below need not look through it again (they take
    about 60 % less time)."""
    import gc

    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item):
    """Delete the widgets the test closed (pytest-qt's deleteLater, an export's off-screen
    window) now, after the fixtures' teardown, then collect the test's garbage. Left to
    Python, a window caught in a reference cycle is deleted whenever the garbage collector
    next runs: in the middle of a later test's Qt call, such as pyqtgraph disconnecting a
    signal, that deadlocks on Qt's own lock. Collected here, outside any Qt call, it cannot."""
    import gc
    import sys

    if "PySide6.QtCore" not in sys.modules:
        return
    from PySide6.QtCore import QCoreApplication, QEvent

    if QCoreApplication.instance() is not None:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        gc.collect()


def pytest_addoption(parser):
    for group, what in OPT_IN.items():
        parser.addoption(f"--run-{group}", action="store_true", help=f"also run the tests marked {group}: {what}")
    parser.addoption("--run-all", action="store_true", help="also run the slow, render and claims tests")
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

    made = []

    def make(params=None, size=(1600, 900), **kwargs):
        window = MainWindow(params, **kwargs)
        qtbot.addWidget(window)
        made.append(window)
        window.resize(*size)
        window.show()
        qtbot.waitExposed(window)
        return window

    yield make
    # Closed now, and the shared worker that computes lesson pages ahead drained: a page's
    # neighbours still computing for a closed window must not slow the next test's work.
    from sqrtdk_gui.core.threads import pool

    for window in made:
        window.close()
    pool("prepare").submit(lambda: None).result(timeout=300)


@pytest.fixture
def window_params():
    """The parameters the ``window`` fixture opens with; a test module may override this."""
    return None


@pytest.fixture
def window(make_window, window_params):
    return make_window(window_params)
