"""The window's exports: the view as PNG, SVG or CSV, the concept test, and the lesson's
slides, handout and animation.

Every failure becomes a dialog with one sentence, and every file is written through
``safe_io`` (a failed write leaves the old file as it was).

The lesson exports (slides, handout) run from the event loop (``export.run.ExportRun``)
behind a window-modal progress dialog: the window keeps painting, Cancel is taken at once,
and the window is as it was afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QInputDialog, QWidget

from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io.concept_test import write_concept_test
from sqrtdk_gui.gui.export import view as exporting
from sqrtdk_gui.gui.export.dialog import ExportDialog
from sqrtdk_gui.gui.export.pdf import PDF_SUFFIX, concept_test_pdf
from sqrtdk_gui.gui.export.run import ExportRun, Refused, Steps
from sqrtdk_gui.gui.lesson.presenter import LessonPresenter
from sqrtdk_gui.gui.window.animation import DkAnimator
from sqrtdk_gui.gui.window.controller import Controller
from sqrtdk_gui.gui.window.file_dialogs import fail, suggested
from sqrtdk_gui.gui.window.presentation import presentation_zoom

__all__ = ["ExportActions", "EXPORT_SIZES", "SLIDE_SIZES", "slide_sizes"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

EXPORT_SIZES = {"1280 × 720": (1280, 720), "1920 × 1080": (1920, 1080),
                "2560 × 1440": (2560, 1440), "3840 × 2160": (3840, 2160)}
# Projectors: 4:3, 16:10 and 16:9.
SLIDE_SIZES = {"1024 × 768": (1024, 768), "1280 × 720": (1280, 720), "1280 × 800": (1280, 800),
               "1920 × 1080": (1920, 1080), "3840 × 2160": (3840, 2160)}


def slide_sizes(screen_size: tuple[int, int] | None) -> dict[str, tuple[int, int]]:
    """The slide sizes offered: this screen's first, then the common projector sizes."""
    sizes = {}
    if screen_size is not None:
        sizes[translate("FileActions", "This screen: {width} × {height}")
              .format(width=screen_size[0], height=screen_size[1])] = screen_size
    return {**sizes, **SLIDE_SIZES}


class ExportActions:
    """The File menu's exports of the window ``window`` (what PNG and SVG draw, and the parent
    of every dialog).

    ``make_twin(zoom)`` makes the off-screen window the lesson exports draw in (closed when
    the export ends); ``notify(text, ms)`` says in the status bar what was written."""

    def __init__(self, window: QWidget, controller: Controller, presenter: LessonPresenter, animator: DkAnimator,
                 make_twin: Callable[[float], Any], notify: Callable[[str, int], None]) -> None:
        self._window = window
        self._controller = controller
        self._presenter = presenter
        self._animator = animator
        self._make_twin = make_twin
        self._notify = notify
        self._run: ExportRun | None = None

    @property
    def running(self) -> ExportRun | None:
        """The lesson export in progress, if any."""
        return self._run

    def abort(self) -> None:
        """End a running lesson export now, the window restored (the window closes)."""
        if self._run is not None:
            self._run.abort()

    def _fail(self, title: str, message: str) -> None:
        fail(self._window, title, message)

    def _screen_size(self) -> tuple[int, int] | None:
        screen = self._window.screen()
        return None if screen is None else (screen.geometry().width(), screen.geometry().height())

    # --- the view -------------------------------------------------------------------------
    def png_dialog(self) -> None:
        window = self._window
        choice, ok = QInputDialog.getItem(window, translate("FileActions", "Export view as PNG"),
                                          translate("FileActions", "Image size:"), list(EXPORT_SIZES), 1, False)
        if not ok:
            return
        path, _filter = QFileDialog.getSaveFileName(window, translate("FileActions", "Export view as PNG"),
                                                    suggested("sqrtdk-gui.png"),
                                                    translate("FileActions", "PNG images (*.png)"))
        if path:
            self._export(lambda: exporting.export_png(window, path, EXPORT_SIZES[choice]))

    def svg_dialog(self) -> None:
        window = self._window
        path, _filter = QFileDialog.getSaveFileName(window, translate("FileActions", "Export view as SVG"),
                                                    suggested("sqrtdk-gui.svg"),
                                                    translate("FileActions", "SVG drawings (*.svg)"))
        if path:
            self._export(lambda: exporting.export_svg(window, path))

    def csv_dialog(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self._window, translate("FileActions", "Export numbers as CSV"),
                                                    suggested("sqrtdk-gui.csv"),
                                                    translate("FileActions", "CSV files (*.csv)"))
        result = self._controller.result  # there is one from the window's first frame on
        if path and result is not None:
            self._export(lambda: exporting.export_csv(result, path, self._controller.dial))

    def _export(self, write: Callable[[], object]) -> bool:
        """Run one export; a failure is a dialog with one sentence (the old file is intact)."""
        try:
            write()
        except OSError as exc:  # safe_io.IOFailure names the file and the reason
            self._fail(translate("FileActions", "Export failed"),
                       translate("FileActions", "{reason}. Any earlier file of that name is unchanged.")
                       .format(reason=_(str(exc))))
            return False
        return True

    def concept_test_dialog(self) -> None:
        """File → Export concept test: practice mode's items as a test with its answer key."""
        path, _filter = QFileDialog.getSaveFileName(self._window, translate("FileActions", "Export concept test"),
                                                    suggested("sqrtdk-gui-concept-test.html"),
                                                    translate("FileActions", "Web page (*.html);;PDF (*.pdf);;"
                                                                             "Markdown (*.md)"))
        if not path:
            return
        try:
            if path.lower().endswith(PDF_SUFFIX):
                written = concept_test_pdf(path)
            else:
                written = write_concept_test(path)
        except OSError as exc:
            self._fail(translate("FileActions", "Export failed"), f"{path}: {exc.strerror or exc}")
            return
        self._notify(translate("FileActions", "Wrote the concept test to {path}").format(path=written), 8000)

    # --- the lesson -------------------------------------------------------------------------
    def start(self, steps: Steps, title: str, unit: str, count: int,
              done: Callable[[Any, bool], None], failed: Callable[[Exception], str],
              twin: QWidget | None = None) -> ExportRun:
        """Run an export's steps behind a window-modal progress dialog (``title`` shown as it
        is; ``unit``, "Page" or "Slide", as export.dialog.ExportDialog takes it): the window
        keeps painting and Cancel is taken at once. ``done(value, cancelled)`` after it ends
        without an error; an OSError or Refused is a dialog with the sentence ``failed(error)``.
        ``twin``: the off-screen window the steps draw in, closed when the export ends."""
        run = ExportRun(steps, self._window)
        dialog = ExportDialog(title, unit, count, run, self._window)

        def finished(value: Any, error: Exception | None) -> None:
            self._run = None
            run.deleteLater()
            if twin is not None:
                twin.close()
                twin.deleteLater()
            if isinstance(error, (OSError, Refused)):  # the files written before stay; the failed one is unchanged
                self._fail(translate("FileActions", "Export failed"), failed(error))
            elif value is not None:  # None: aborted, the window closes
                done(value, run.cancelled)

        run.finished.connect(finished)
        self._run = run
        dialog.show()
        run.start()
        return run

    def handout_dialog(self) -> None:
        from sqrtdk_gui.gui.export.handout import handout_pages, handout_steps

        path, _filter = QFileDialog.getSaveFileName(self._window, translate("FileActions", "Export lesson handout"),
                                                    suggested("sqrtdk-gui-handout.html"),
                                                    translate("FileActions", "Web page (*.html);;PDF (*.pdf);;"
                                                                             "Markdown (*.md)"))
        if not path or self._run is not None:
            return
        if not path.lower().endswith((".html", ".htm", ".md", PDF_SUFFIX)):
            path += ".html"

        def done(written: list[str], cancelled: bool) -> None:
            self._notify(translate("FileActions", "Wrote the handout to {path}").format(path=written[0]) if written
                         else translate("FileActions", "Handout export cancelled: nothing was written"), 8000)

        twin = self._make_twin(1.0)
        self.start(handout_steps(twin, path), translate("FileActions", "Exporting the lesson handout"),
                   "Page", len(handout_pages()), done, lambda exc: f"{path}: {getattr(exc, 'strerror', None) or exc}",
                   twin)

    def animation_dialog(self) -> None:
        """File → Export animation: a sweep of the lesson as an animated GIF or APNG, drawn
        off-screen in this window's language and theme."""
        from sqrtdk_gui.core.lesson import clips
        from sqrtdk_gui.gui.export.animation import animation_steps
        from sqrtdk_gui.gui.export.animation_dialog import AnimationChoice

        if self._run is not None:
            return
        lesson = self._presenter
        sizes = {label: size for label, size in slide_sizes(self._screen_size()).items()
                 if not clips.frame_size_problem(size)}
        choice = AnimationChoice(sizes, clips.suggested_clip(None if lesson.scenario else lesson.step,
                                                             self._animator.running), self._window)
        if not choice.exec():
            return
        path, chosen = QFileDialog.getSaveFileName(self._window, translate("FileActions", "Export animation"),
                                                   suggested(f"sqrtdk-gui-{choice.clip}.gif"),
                                                   translate("FileActions", "Animated GIF (*.gif);;"
                                                                            "Animated PNG (*.png *.apng)"))
        if not path or self._run is not None:
            return
        if not path.lower().endswith(tuple(clips.ANIMATION_FORMATS)):  # the filter chosen says which
            path += ".png" if "png" in chosen.lower() else ".gif"
        clip = clips.clip(choice.clip, self._controller.params)

        def done(written: list[str], cancelled: bool) -> None:
            self._notify(translate("FileActions", "Wrote the animation to {path}").format(path=written[0]) if written
                         else translate("FileActions", "Animation export cancelled: nothing was written"), 8000)

        zoom = presentation_zoom(choice.frame_size[1])
        twin = self._make_twin(zoom)
        self.start(animation_steps(twin, path, clip, choice.frame_size, zoom=zoom),
                   translate("FileActions", "Drawing the animation"), "Frame", len(clip.frames), done,
                   lambda exc: f"{exc}.", twin)

    def slides_pdf_dialog(self) -> None:
        """File → Export slides as PDF: the slides as the pages of one PDF."""
        path, _filter = QFileDialog.getSaveFileName(
            self._window, translate("FileActions", "Export lesson slides as PDF"), suggested("sqrtdk-gui-slides.pdf"),
            translate("FileActions", "PDF (*.pdf)"))
        if path and not path.lower().endswith(PDF_SUFFIX):
            path += PDF_SUFFIX
        self.slides_dialog(path)

    def slides_dialog(self, target: str | None = None) -> None:
        """File → Export slides: one PNG per slide into a folder (``target``: or a PDF file)."""
        folder = target if target is not None else QFileDialog.getExistingDirectory(
            self._window, translate("FileActions", "Export lesson slides into folder"), suggested(""))
        if not folder or self._run is not None:
            return
        sizes = slide_sizes(self._screen_size())
        choice, ok = QInputDialog.getItem(self._window, translate("FileActions", "Export lesson slides"),
                                          translate("FileActions", "Slide size (4:3, 16:9 or 16:10; presentation "
                                                    "type for its height):"), list(sizes), 0, False)
        if not ok:
            return
        count = len(exporting.slide_plan(self._presenter.plan))
        size = sizes[choice]

        def done(written: list[str], cancelled: bool) -> None:
            self._notify(translate("FileActions", "Wrote {written} of {count} slides to {folder}")
                         .format(written=len(written), count=count, folder=folder), 8000)

        zoom = presentation_zoom(size[1])
        twin = self._make_twin(zoom)
        self.start(exporting.slide_steps(twin, folder, size, zoom=zoom),
                   translate("FileActions", "Rendering lesson slides"), "Slide", count, done, lambda exc: f"{exc}.",
                   twin)
