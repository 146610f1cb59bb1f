"""``sqrtdk-gui --smoke-test``: prove that this installation really works, headless.

Works the same from a checkout, a wheel and the frozen bundle: it builds the real main window
(offscreen unless ``QT_QPA_PLATFORM`` says otherwise), waits for its first painted frame,
pushes one parameter change through model → controller → panels, and checks what the panels
received against the model's numbers, that the compiled resources load, and that neither Qt
nor Python warned. It prints one line and exits 0, or one line with the reason and exits 1
(never a traceback), in the current language (Qt's and Python's own messages as they are).

``sqrtdk-gui --first-frame`` (hidden; for ``benchmarks/bundle.py``) opens the normal window,
prints the seconds from process start to its first painted frame, and exits (that line is
read by the benchmarks: never translated).
"""

from __future__ import annotations

import math
import os
import sys
import time
import warnings
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, cast

from sqrtdk_gui import __version__
from sqrtdk_gui.core.i18n import format_number

if TYPE_CHECKING:  # Qt is imported where used: without it, the smoke test says so
    from PySide6.QtCore import QMessageLogContext
    from PySide6.QtWidgets import QApplication, QWidget

    from sqrtdk_gui.core.attention.params import Params

__all__ = ["run_smoke", "run_first_frame", "process_age"]

_IMPORTED = time.perf_counter()
PAINT_TIMEOUT_S = 30.0
SMOKE_PARAMS = {"d_k": 512, "scaling": "none"}  # raw logits: σ ≈ √512 ≈ 22.6


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``QCoreApplication.translate`` (lupdate extracts translate("Context", "text")); the text as
    it is when Qt itself cannot be imported (what the smoke test then reports)."""
    try:
        from PySide6.QtCore import QCoreApplication
    except ImportError:
        return text.replace("%n", str(n))
    return QCoreApplication.translate(context, text, disambiguation, n)


class SmokeFailure(Exception):
    """One check failed; the message is the one-line reason."""


def process_age() -> float:
    """Seconds since this process started (Linux: from /proc; elsewhere: since this import)."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        start_ticks = int(fields[19])  # field 22 of stat(5); fields[0] is field 3
        return time.clock_gettime(time.CLOCK_BOOTTIME) - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return time.perf_counter() - _IMPORTED


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


class _Recorder:
    """Collects Qt messages (warnings and worse), Python warnings and exceptions raised in
    slots, which Qt would otherwise print as tracebacks and carry on."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self._previous_hook: Callable[[type[BaseException], BaseException, TracebackType | None], object] | None = None

    def install(self) -> None:
        from PySide6.QtCore import QtMsgType, qInstallMessageHandler

        from sqrtdk_gui.gui.launch.bootstrap import BENIGN_MESSAGES

        serious = {QtMsgType.QtWarningMsg: "Qt warning", QtMsgType.QtCriticalMsg: "Qt critical",
                   QtMsgType.QtFatalMsg: "Qt fatal"}

        def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
            if message in BENIGN_MESSAGES:
                return
            if kind in serious:
                self.problems.append(f"{serious[kind]}: {_one_line(message)}")

        self._handler = handler  # keep a reference: Qt holds only a borrowed one
        qInstallMessageHandler(handler)
        self._previous_hook = sys.excepthook
        sys.excepthook = self._excepthook

    def _excepthook(self, kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        self.problems.append(translate("Smoke", "exception in a Qt callback: {error}")
                             .format(error=f"{kind.__name__}: {_one_line(value)}"))

    def uninstall(self) -> None:
        from sqrtdk_gui.gui.launch.bootstrap import install_message_filter

        install_message_filter()  # the program's usual handler, for whatever Qt says at exit
        if self._previous_hook is not None:
            sys.excepthook = self._previous_hook

    def check(self) -> None:
        if self.problems:
            more = len(self.problems) - 1
            if more:
                raise SmokeFailure(translate("Smoke", "{problem} (and %n more)", None, more)
                                   .format(problem=self.problems[0]))
            raise SmokeFailure(self.problems[0])


def _wait_for_first_paint(window: QWidget, timeout_s: float = PAINT_TIMEOUT_S) -> float:
    """Show ``window`` and return ``process_age()`` once its first frame has been painted.

    The first Paint event of any widget in the window starts Qt's synchronous paint pass of
    the whole window; a zero-delay timer armed there fires once that pass (and its flush to
    the screen) is over.
    """
    from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QWidget

    app = cast(QApplication, QApplication.instance())  # created by _prepare
    loop = QEventLoop()
    state: dict[str, Any] = {"painted": False, "age": None}  # painted: bool, age: float | None

    def finished() -> None:
        state["age"] = process_age()
        loop.quit()

    class PaintWatcher(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
            if (not state["painted"] and event.type() == QEvent.Type.Paint
                    and isinstance(obj, QWidget) and obj.window() is window):
                state["painted"] = True
                QTimer.singleShot(0, finished)
            return False

    watcher = PaintWatcher()
    app.installEventFilter(watcher)
    timeout = QTimer()
    timeout.setSingleShot(True)
    timeout.timeout.connect(loop.quit)
    try:
        window.show()
        if state["age"] is None:
            timeout.start(int(timeout_s * 1000))
            loop.exec()
    finally:
        timeout.stop()
        app.removeEventFilter(watcher)
    if state["age"] is None:
        raise SmokeFailure(translate("Smoke", "the main window was not painted within {seconds} s")
                           .format(seconds=format_number(timeout_s, ".0f")))
    return cast(float, state["age"])


def _close(window: QWidget, app: QApplication) -> None:
    """Close and delete the window while QApplication still exists: PySide6 6.11 crashes at
    interpreter exit (status 139) when a pyqtgraph window is still open."""
    window.close()
    window.deleteLater()
    app.processEvents()


def _check_resources(window: QWidget) -> str:
    """The shipped files (fonts, window icon), Qt's ICU data and the fonts are usable."""
    from sqrtdk_gui.gui import assets

    registered = assets.register_fonts()
    missing = [name for name in assets.FONT_FILES if name not in registered]
    if missing:
        raise SmokeFailure(translate("Smoke", "shipped fonts did not load: {names} (the installation is "
                                     "incomplete)").format(names=", ".join(missing)))
    icon = window.windowIcon()
    if icon.isNull():
        raise SmokeFailure(translate("Smoke", "the window icon is null"))
    pixmap = icon.pixmap(64, 64)
    if pixmap.isNull():
        raise SmokeFailure(translate("Smoke", "the window icon does not render (SVG icon engine missing?)"))
    image = pixmap.toImage()
    colours = {image.pixel(x, y) for x in range(0, 64, 4) for y in range(0, 64, 4)}
    if len(colours) < 3:
        raise SmokeFailure(translate("Smoke", "the window icon renders blank"))
    # Qt Core's ICU (trimmed to root + English in the bundle) must still collate: with ICU,
    # "a" sorts before "B"; a missing ICU data library would fall back to code points.
    from PySide6.QtCore import QCollator, QLocale

    if QCollator(QLocale("en_US")).compare("a", "B") >= 0:
        raise SmokeFailure(translate("Smoke", "ICU collation does not work (is libicudata broken?)"))
    from PySide6.QtGui import QFontInfo

    used = QFontInfo(window.font()).family()
    if used != assets.SANS:
        raise SmokeFailure(translate("Smoke", "the window is set in {family}, not in the shipped {shipped}")
                           .format(family=used, shipped=assets.SANS))
    return translate("Smoke", "icon ok, ICU ok, fonts ok")


def _check_panels(window: Any) -> str:  # the MainWindow: its panels' own items
    """Push d_k = 512 with raw logits through the controller and check every panel."""
    import numpy as np

    c = window.controller
    c.set_params(**SMOKE_PARAMS)
    window.render_ready()  # flush the computation, compute the sweeps, process events
    result = c.result
    if result is None or any(getattr(result.params, k) != v for k, v in SMOKE_PARAMS.items()):
        raise SmokeFailure(translate("Smoke", "the controller did not compute {params}").format(params=SMOKE_PARAMS))
    sigma = result.logit_std
    if not (math.isfinite(sigma) and abs(sigma - result.theory_std) < 0.15 * result.theory_std):
        raise SmokeFailure(translate("Smoke", "model σ = {sigma}, expected ≈ {theory} (√512)")
                           .format(sigma=format_number(sigma, ".3f"), theory=format_number(result.theory_std, ".2f")))

    x, y = window.panels["histogram"].bars.getData()
    if x is None or y is None or len(y) == 0 or not np.all(np.isfinite(y)) or y.max() <= 0:
        raise SmokeFailure(translate("Smoke", "the histogram panel holds no bars"))
    shown = window.panels["histogram"].values.get("sigma")
    if shown != sigma:
        raise SmokeFailure(translate("Smoke", "the histogram shows σ = {shown}, the model says {sigma}")
                           .format(shown=shown, sigma=sigma))
    text = f"{sigma:.2f}"
    if text not in window.panels["histogram"].readout.text():
        raise SmokeFailure(translate("Smoke", "the histogram readout lacks σ = {sigma}").format(sigma=text))
    summary = window.summary.labels["sigma"].text()
    if summary != text:
        raise SmokeFailure(translate("Smoke", "the summary strip shows σ = {shown}, expected {expected}")
                           .format(shown=repr(summary), expected=repr(text)))
    row = result.resolve_row(c.row)
    bars = window.panels["weights"].bars
    if len(bars.heights) != result.params.keys or len(bars.rects()) != len(bars.heights):
        raise SmokeFailure(translate("Smoke", "the weights panel holds no bars"))
    if window.panels["weights"].values.get("max_weight") != float(result.max_weight[row]):
        raise SmokeFailure(translate("Smoke", "the weights panel disagrees with the model's max weight"))
    if window.panels["jacobian"].values.get("row_fro") != float(result.jacobian_fro[row]):
        raise SmokeFailure(translate("Smoke", "the Jacobian panel disagrees with the model's ‖J‖_F"))

    sweeps = c.sweeps or {}
    missing = {"none", "sqrt_dk"} - set(sweeps)
    if missing:
        raise SmokeFailure(translate("Smoke", "sweeps missing for {scalings}").format(scalings=sorted(missing)))
    points = min(len(sw.d_k) for sw in sweeps.values())
    for panel in (window.panels["jacobian"], window.panels["gradient"]):
        for scaling, series in panel.versus.series.items():
            sx, sy = series.median.getData()
            if sx is None or len(sx) != len(sweeps[scaling].d_k) or not np.all(np.isfinite(sy)):
                raise SmokeFailure(translate("Smoke", "{panel} has no {scaling} sweep curve")
                                   .format(panel=type(panel).__name__, scaling=scaling))
    return (translate("Smoke", "d_k=512 raw σ={sigma} (theory {theory}), {bins} histogram bins, sweeps {scalings} "
                      "× {points} d_k")
            .format(sigma=format_number(sigma, ".2f"), theory=format_number(result.theory_std, ".2f"), bins=len(y),
                    scalings="+".join(sorted(sweeps)), points=points))


def _check_picture(window: QWidget) -> None:
    image = window.grab().toImage()
    if image.isNull() or image.width() < 100:
        raise SmokeFailure(translate("Smoke", "grabbing the window gave no picture"))
    step = max(1, image.width() // 64)
    colours = {image.pixel(x, y) for x in range(0, image.width(), step)
               for y in range(0, image.height(), step)}
    if len(colours) < 20:
        raise SmokeFailure(translate("Smoke", "the painted window is nearly blank ({count} colours)")
                           .format(count=len(colours)))


def _prepare() -> QApplication:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed
    from sqrtdk_gui.gui.launch.bootstrap import application

    return application()


def run_smoke(params: Params | None = None) -> int:
    """The ``--smoke-test`` command: 0 and one line if everything works, else 1 and why."""
    window = app = None
    recorder = _Recorder()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                app = _prepare()
                recorder.install()
                from sqrtdk_gui.gui.window.about import about_html
                from sqrtdk_gui.gui.window.main_window import MainWindow

                window = MainWindow(params, threaded=True)
                first_frame = _wait_for_first_paint(window)
                resources = _check_resources(window)
                panels = _check_panels(window)
                _check_picture(window)
                if __version__ not in about_html():
                    raise SmokeFailure(translate("Smoke", "the About text lacks the version"))
            finally:
                if window is not None:
                    _close(window, cast("QApplication", app))  # made before the window
                    window = None
        for w in caught:
            raise SmokeFailure(translate("Smoke", "Python warning: {warning}")
                               .format(warning=f"{w.category.__name__}: {_one_line(w.message)}"))
        recorder.check()
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        reason = str(exc) if isinstance(exc, SmokeFailure) else \
            f"{type(exc).__name__}: {_one_line(exc)}"
        if recorder.problems and recorder.problems[0] not in reason:
            # the first cause comes first
            reason = translate("Smoke", "{cause} (then: {reason})").format(cause=recorder.problems[0], reason=reason)
        print(translate("Smoke", "sqrtdk-gui: smoke test failed: {reason}").format(reason=reason), file=sys.stderr)
        return 1
    finally:
        if app is not None:
            recorder.uninstall()
    if getattr(sys, "frozen", False):
        passed = translate("Smoke", "smoke test passed (frozen): {panels}, {resources}, first frame {seconds} s")
    else:
        passed = translate("Smoke", "smoke test passed: {panels}, {resources}, first frame {seconds} s")
    print(passed.format(panels=panels, resources=resources, seconds=format_number(first_frame, ".2f")), flush=True)
    return 0


def run_first_frame(params: Params | None = None) -> int:
    """Hidden ``--first-frame``: the normal window; print seconds to its first frame; exit."""
    window = app = None
    try:
        app = _prepare()
        from sqrtdk_gui.gui.window.main_window import MainWindow

        window = MainWindow(params, threaded=True)
        age = _wait_for_first_paint(window)
        print(f"first frame {age:.3f} s", flush=True)
        return 0
    except Exception as exc:  # noqa: BLE001
        print(f"sqrtdk-gui: first frame failed: {type(exc).__name__}: {_one_line(exc)}",
              file=sys.stderr)
        return 1
    finally:
        if window is not None:
            _close(window, cast("QApplication", app))  # made before the window
