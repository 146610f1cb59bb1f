"""The status line's permanent part: the parameters of the numbers shown and how they were
computed (d_k, scaling, τ, keys and queries, the precision's error, the time taken, what
was sampled), so a screenshot or a projected page says what it shows."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from sqrtdk_gui.core import i18n
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.attention.sweep import SWEEP_MAX_ROWS
from sqrtdk_gui.core.i18n import format_number
from sqrtdk_gui.gui.style import SCALING_LABELS
from sqrtdk_gui.gui.window.controller import Controller

__all__ = ["StatusLine", "status_text"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
THROTTLE_MS = 100  # a few updates a second, never far behind a sweep


def status_text(result: Result, compute_ms: float) -> str:
    """The line for ``result``, computed in ``compute_ms`` milliseconds."""
    p = result.params
    keys, queries = p.keys, p.queries  # (lupdate takes a plural's count as a plain name only)
    parts = [f"d_k = {p.d_k}", SCALING_LABELS[p.scaling], f"τ = {format_number(p.temperature, '.2f')}",
             translate("MainWindow", "n = %n keys", None, keys)]
    if result.streamed:
        parts.append(translate("MainWindow", "{rows} of %n queries sampled, keys streamed", None, queries)
                     .format(rows=result.rows))
    else:
        parts.append(translate("MainWindow", "%n queries", None, queries))
    if p.dtype != "float64":  # the evaluated weights against float64
        err = result.rel_error_summary.p90
        parts.append(translate("MainWindow", "{dtype}: worst weight error per row {error} % (90th percentile)")
                     .format(dtype=p.dtype, error=format_number(100 * err, ".2g")) if err == err
                     else translate("MainWindow", "{dtype}: overflow").format(dtype=p.dtype))
    parts.append(translate("MainWindow", "computed in {ms} ms").format(ms=format_number(compute_ms, ".1f")))
    if result.rows_sampled_for_display and not result.streamed:  # bounded memory
        parts.append(translate("MainWindow", "histogram and selectable rows from the first {rows} queries")
                     .format(rows=f"{result.shown_rows:,}"))
    if p.queries > SWEEP_MAX_ROWS:  # say that the sweeps are subsampled (bounded work)
        parts.append(translate("MainWindow", "curves versus d_k from the first {rows} queries")
                     .format(rows=f"{SWEEP_MAX_ROWS:,}"))
    return i18n.localize_number(" · ".join(parts))


class StatusLine(QLabel):
    """Shows ``status_text`` of the controller's results, a few times a second at most."""

    def __init__(self, controller: Controller, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._text = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(THROTTLE_MS)
        self._timer.timeout.connect(lambda: self.setText(self._text))
        controller.result_changed.connect(self._show)

    def _show(self, result: Result) -> None:
        self._text = status_text(result, self._controller.last_compute_ms)
        if not self._timer.isActive():  # a few times a second is plenty for a status line
            self._timer.start()

    def flush(self) -> None:
        """Show the newest line now (headless rendering, slides)."""
        self._timer.stop()
        self.setText(self._text)
