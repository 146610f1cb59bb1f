"""Export the view (PNG, SVG), the numbers (CSV) and a folder of lesson slides.

Images are rendered from the live widgets, so they show exactly what the window shows:
PNG through QWidget.render on a scaled painter (text and lines stay sharp at any size), SVG
through Qt's QSvgGenerator (the whole window, all panels, as one vector drawing). The CSV
holds the numbers behind the panels, per query row, as the model computed them.

Every file is encoded in memory first and then written by ``safe_io.write_bytes`` (temporary
file, checked, renamed over the target): a full disk never leaves half an image where the
old one was, and a failure raises ``safe_io.IOFailure`` with one sentence instead of
reporting success.

The slides are an export of many pages (``slide_steps``, run by ``export_slides`` in the
calling thread or by ``run.ExportRun`` from the window's event loop): each slide's numbers
are computed in worker threads, the GUI thread lays the slide out and draws it into an
image, and the export's own thread encodes and writes it while the next slide is prepared.
"""

from __future__ import annotations

import csv
import errno
import io
import math
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pyqtgraph as pg
from PySide6.QtCore import QBuffer, QCoreApplication, QEvent, QIODevice, QPoint, QRectF, QSize
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsItem, QWidget

from sqrtdk_gui import __version__
from sqrtdk_gui.core.attention.result import ROW_QUANTITIES, Result
from sqrtdk_gui.core.attention.scaling import scale_factor
from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.lesson.page import Step
from sqrtdk_gui.core.lesson.plan import FULL, LessonPlan
from sqrtdk_gui.gui.export.pdf import PDF_SUFFIX, PdfPages
from sqrtdk_gui.gui.export.run import (
    Cancelled,
    Page,
    Steps,
    Writes,
    enter_page,
    export_pool,
    run_blocking,
    shielded,
    single,
    wait_for,
)
from sqrtdk_gui.gui.ink import without_ink
from sqrtdk_gui.gui.lesson.presenter import prepare_page
from sqrtdk_gui.gui.plotting.plot_items import RememberingAxis

if TYPE_CHECKING:
    from _csv import Writer

    from PySide6.QtGui import QPixmap

    from sqrtdk_gui.core.attention.sigma_dial import DialCurves

__all__ = ["export_png", "export_svg", "export_csv", "save_image", "render_image", "settled_image", "slide_plan",
           "slide_layout",
           "slide_steps", "export_slides"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

_IMAGE_FORMATS = {".png": "PNG", ".jpg": "JPG", ".jpeg": "JPG", ".bmp": "BMP"}


def save_image(image: QImage | QPixmap, path: str, fmt: str | None = None) -> None:
    """Encode a QImage or QPixmap in memory (format from the suffix, default PNG) and write
    it safely; IOFailure with one sentence if anything fails."""
    fmt = fmt or _IMAGE_FORMATS.get(Path(path).suffix.lower(), "PNG")
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # QImage.save's stub types the format as bytes; PySide6 takes a str (QPixmap's stub says so).
    if image.isNull() or not image.save(buffer, fmt):  # type: ignore[call-overload]
        raise safe_io.IOFailure(errno.EIO, "write", path,
                                translate("Export", "the image could not be encoded as {format}").format(format=fmt))
    # QByteArray has the buffer protocol; its stub declares no __buffer__.
    safe_io.write_bytes(path, bytes(buffer.data()))  # type: ignore[call-overload]


def render_image(widget: QWidget, size: tuple[int, int] | None = None) -> QImage:
    """``widget`` drawn into an image of ``size`` pixels (default: its own size) on a scaled
    painter, so text and lines stay sharp at any size. GUI thread; the image is its own (no
    other owner), so another thread may encode it."""
    w, h = size or (widget.width(), widget.height())
    image = QImage(w, h, QImage.Format.Format_ARGB32)
    image.fill(widget.palette().window().color())
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.scale(w / widget.width(), h / widget.height())
        with without_ink(widget):  # the pen's strokes are for the room, not for files
            widget.render(painter, QPoint())
    finally:
        painter.end()
    return image


def settled_image(window: QWidget, size: tuple[int, int]) -> QImage:
    """``render_image`` of a page just laid out: a plot's axes learn how wide their tick labels
    are only while they are drawn, and a fresh window's first drawing has axes with no room
    for them; drawn once, laid out again, then drawn for the picture.

    Drawn as if for the first time: the axes forget the room their widest labels once took
    and every pixmap cache is dropped, so a page's picture depends on that page alone, not
    on what was drawn before it (the window's export, whose off-screen window the event loop
    may already have painted, and the command line's give the same pixels)."""
    no_cache = QGraphicsItem.CacheMode.NoCache
    for view in window.findChildren(pg.GraphicsView):
        for item in view.scene().items():
            if isinstance(item, RememberingAxis):
                item.start_afresh()
            mode = item.cacheMode()
            if mode != no_cache:
                item.setCacheMode(no_cache)
                item.setCacheMode(mode)
    render_image(window, size)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    QCoreApplication.processEvents()
    return render_image(window, size)


def export_png(widget: QWidget, path: str, size: tuple[int, int] | None = None) -> bool:
    """Render ``widget`` to a PNG of ``size`` pixels (default: its own size); True, or IOFailure."""
    save_image(render_image(widget, size), path, "PNG")
    return True


def export_svg(widget: QWidget, path: str) -> bool:
    """Render ``widget`` as an SVG drawing (vector lines and text); True, or IOFailure."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(widget.width(), widget.height()))
    generator.setViewBox(QRectF(0, 0, widget.width(), widget.height()))
    generator.setTitle("sqrtdk-gui")
    generator.setDescription(f"sqrtdk-gui {__version__}: {widget.windowTitle()}")
    painter = QPainter()
    if not painter.begin(generator):
        raise safe_io.IOFailure(errno.EIO, "write", path, translate("Export", "the SVG drawing could not be started"))
    try:
        with without_ink(widget):  # the pen's strokes are for the room, not for files
            widget.render(painter, QPoint())
    finally:
        painter.end()
    # QByteArray has the buffer protocol; its stub declares no __buffer__.
    data = bytes(buffer.data())  # type: ignore[call-overload]
    if b"</svg>" not in data[-64:]:
        raise safe_io.IOFailure(errno.EIO, "write", path, translate("Export", "the SVG drawing came out incomplete"))
    safe_io.write_bytes(path, data)
    return True


def export_csv(result: Result, path: str, dial: DialCurves | None = None) -> None:
    """The current numbers: parameters, summaries, then one line per query row (IOFailure).

    ``dial`` (a ``sigma_dial.DialCurves``) adds the σ dial's curves and every scaling mode's
    σ as ``# sigma_dial`` lines. Above 1024 keys the rows are the sampled ones.
    """
    p = result.params
    with io.StringIO(newline="") as f:
        out = csv.writer(f)
        out.writerow(["# sqrtdk-gui", __version__])
        for name in p.__dataclass_fields__:
            out.writerow(["# param", name, getattr(p, name)])
        for name, value in (("logit_std", result.logit_std), ("theory_std", result.theory_std),
                            ("saturated_fraction", result.saturated_fraction),
                            ("row_sum_max_error", result.row_sum_max_error),
                            ("overflow_count", result.overflow_count)):
            out.writerow(["# summary", name, "" if isinstance(value, float) and math.isnan(value) else value])
        for name, s in result.summary.items():
            out.writerow(["# summary", f"{name}_median", s.median])
            out.writerow(["# summary", f"{name}_mean", s.mean])
        _write_error_summary(out, result)
        if dial is not None and dial.keys == p.keys:
            _write_dial(out, result, dial)
        out.writerow(["query", *ROW_QUANTITIES, "row_sum", *PRECISION_COLUMNS])
        for i in range(result.rows):
            out.writerow([i, *(repr(float(getattr(result, q)[i])) for q in ROW_QUANTITIES),
                          repr(float(result.row_sums[i])),
                          *(repr(float(getattr(result, q)[i])) for q in PRECISION_COLUMNS)])
        text = f.getvalue()
    safe_io.write_text(path, text)



# Per row: the evaluated weights against float64 (max relative error over weights >= 0.1/n,
# and Σ|w − p|); NaN where the row overflowed.
PRECISION_COLUMNS = ("weight_rel_error", "weight_l1_error")


def _blank_nan(value: object) -> object:
    return "" if isinstance(value, float) and math.isnan(value) else value


def _write_error_summary(out: Writer, result: Result) -> None:
    """Precision errors, how the keys were computed, the scale factor."""
    rel, l1 = result.rel_error_summary, result.l1_error_summary
    for name, value in (("weight_max_abs_error", result.weight_max_abs_error),
                        ("weight_rel_error_median", rel.median), ("weight_rel_error_p90", rel.p90),
                        ("weight_l1_error_median", l1.median), ("weight_l1_error_p90", l1.p90),
                        ("scale_factor", scale_factor(result.params)),
                        ("streamed", int(result.streamed)), ("rows_computed", result.rows)):
        out.writerow(["# summary", name, _blank_nan(value)])


def _write_dial(out: Writer, result: Result, dial: DialCurves) -> None:
    """The σ dial's curves (one line per σ) and every scaling mode's σ here."""
    rows = dial.rows_table()
    out.writerow(["# sigma_dial", "keys", dial.keys, "rows", dial.rows, "seeds", dial.seeds,
                  "peak_sigma", dial.peak_sigma, "window", *dial.window])
    out.writerow(["# sigma_dial", *rows[0].keys()])
    for row in rows:
        out.writerow(["# sigma_dial", *(repr(v) for v in row.values())])
    for scaling, sigma in result.mode_sigmas.items():
        out.writerow(["# sigma_dial_mode", scaling, _blank_nan(sigma)])


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("√", "sqrt-").replace("÷", "")).strip("-")


def slide_plan(lesson: LessonPlan = FULL) -> list[tuple[str, str, int | str]]:
    """(file name, kind, step number or scenario key) for every slide of ``lesson``, in its order."""
    plan: list[tuple[str, str, int | str]] = []
    for i, entry in enumerate(lesson.pages, start=1):
        page = entry.page
        if isinstance(page, Step):
            plan.append((f"{i:02d}-step{page.number}-{_slug(page.title)}.png", "step", page.number))
        else:
            plan.append((f"{i:02d}-{page.kind}-{page.key.replace('_', '-')}.png", "scenario", page.key))
    return plan


@contextmanager
def slide_layout(window: Any, size: tuple[int, int], zoom: float | None = None) -> Iterator[None]:
    """The window laid out as a slide of ``size`` pixels for the duration: the live page and
    the lesson in front whatever page was, no menu, status line, controls or guesses box,
    the step's own panels large, text at ``zoom`` (default: as it is). Everything on screen
    is as it was afterwards: size, zoom, page, controls, lesson position and parameters,
    with the numbers it showed (taken back, not recomputed; sweeps that had not arrived yet
    come as they would have). The panels are brought up to date by ``render_ready``."""
    controller, lesson = window.controller, window.lesson
    saved = {"size": window.size(), "zoom": window.style_.zoom, "params": controller.params,
             "computed": controller.computed(), "step": lesson.step, "scenario": lesson.scenario,
             "answered": lesson.answer_shown}
    try:
        window.set_slide_mode(True)
        if zoom is not None:
            window.set_zoom(zoom)
        # The slide's own, smaller minimum size reaches the window in turns (nested layouts):
        # a window whose controls column needed more height (a long language at the
        # presentation zoom, on a real screen) would otherwise keep it, squeezed into the picture.
        for _ in range(3):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            window.resize(*size)
            if (window.width(), window.height()) == tuple(size):
                break
            QCoreApplication.processEvents()
        yield
    finally:
        window.set_slide_mode(False)
        window.set_zoom(saved["zoom"])
        window.resize(saved["size"])
        # Parameters first: a scenario's evidence is computed from them when it is restored.
        controller.replace_params(saved["params"])
        if saved["computed"] is not None:
            controller.adopt(saved["computed"])
        lesson.restore(saved["step"], saved["scenario"], answered=saved["answered"])
        controller.flush()


def restore_numbers(window: Any, pool: ThreadPoolExecutor) -> None:
    """Queue in ``pool`` the lesson numbers that restoring the window's page computes (a
    scenario's evidence for the current parameters; usually cached already)."""
    scenario = window.lesson.scenario
    if scenario is not None:
        pool.submit(prepare_page, scenario=scenario.key, params=window.controller.params)


def slide_steps(window: Any, folder: str, size: tuple[int, int], zoom: float | None = None) -> Steps:
    """The slides export as steps (see ``run``): one PNG per lesson step and per scenario in
    ``folder`` — or, when ``folder`` ends in ".pdf", one PDF with a page per slide — each
    drawn in :func:`slide_layout` (the step with its answer revealed, its own panels, no
    window furniture) at ``size``, text at ``zoom`` (default: as the window has it). Its
    value: the slides written. Stopped or cancelled, the slides written so far stay (each
    whole: every file is written safely; a PDF stopped by its progress has the pages so far,
    a cancelled one is not written and an older file stays); IOFailure stops it with one
    sentence."""
    target = Path(folder)
    title = window.lesson.plan.title or translate("Export", "Why divide attention's logits by √d_k? — slides")
    pdf = PdfPages(folder, title) if target.suffix.lower() == PDF_SUFFIX else None
    if pdf is None:
        target.mkdir(parents=True, exist_ok=True)
    plan = slide_plan(window.lesson.plan)
    pool = export_pool()
    writes = Writes(pool)
    cancelled = False
    try:
        restore_numbers(window, pool)
        with slide_layout(window, size, zoom):
            try:
                for i, (name, kind, which) in enumerate(plan):
                    if not (yield Page(i, len(plan), name)):
                        break
                    yield from enter_page(window, kind, which, pool)
                    image = settled_image(window, size)
                    yield from writes.wait()  # the previous slide is written (or its error stops here)
                    if pdf is not None:  # a page, drawn in the export's thread like a file's encoding
                        writes.submit(name, pdf.add, image)
                        continue
                    path = str(target / name)
                    writes.submit(path, save_image, image, path, "PNG")
            except Cancelled:
                cancelled = True
            yield from shielded(cast("Steps", writes.wait()))  # the slide being written is finished either way
            if pdf is not None:  # whole, or (cancelled) ended unwritten: an older file stays
                yield from shielded(wait_for(pool.submit(pdf.discard if cancelled or not pdf.pages else pdf.write)))
            yield from shielded(single(Page(len(writes.written), len(plan), "")))
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    return [] if pdf is not None and cancelled else writes.written  # a cancelled PDF: nothing written


def export_slides(window: Any, folder: str, size: tuple[int, int],
                  progress: Callable[[int, int, str], object] | None = None,
                  zoom: float | None = None, should_stop: Callable[[], bool] | None = None) -> list[str]:
    """One PNG per lesson step and scenario (:func:`slide_steps`), in this thread; returns
    the files written. ``progress(i, n, name)`` -> False stops after the slides so far;
    ``should_stop()`` true cancels at once (see ``run.run_blocking``). The window's panels
    are up to date afterwards."""
    try:
        return cast("list[str]", run_blocking(slide_steps(window, folder, size, zoom), progress, should_stop))
    finally:
        window.render_ready()
