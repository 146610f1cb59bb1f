"""File menu behaviour of the main window: presets, exports and lesson slides.

A mixin so that main_window.py stays about assembly and wiring. Every failure becomes a
dialog with one sentence; nothing the user saved is overwritten by a failed load, and every
file is written through ``safe_io`` (a failed write leaves the old file as it was).

The lesson exports (slides, handout) run from the event loop (``export.run.ExportRun``)
behind a window-modal progress dialog: the window keeps painting, Cancel is taken at once,
and the window is as it was afterwards.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QStandardPaths, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io import presets, state_line
from sqrtdk_gui.core.io.concept_test import write_concept_test
from sqrtdk_gui.gui.export import view as exporting
from sqrtdk_gui.gui.export.dialog import ExportDialog
from sqrtdk_gui.gui.export.pdf import PDF_SUFFIX, concept_test_pdf
from sqrtdk_gui.gui.export.run import ExportRun, Refused
from sqrtdk_gui.gui.window.presentation import presentation_zoom

__all__ = ["FileActions", "EXPORT_SIZES", "SLIDE_SIZES", "slide_sizes", "suggested"]

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


def suggested(name: str) -> str:
    """Where a file dialog starts: the user's documents folder on every system (a program
    started from a menu has no meaningful working directory, e.g. C:\\Windows\\System32)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if not folder or not Path(folder).is_dir():
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.HomeLocation)
    return str(Path(folder) / name) if name else folder


class FileActions:
    """Mixed into MainWindow: needs controller, lesson, style_, set_theme, set_zoom,
    language_choice and choose_language."""

    # --- state ---------------------------------------------------------------------------
    def current_state(self) -> presets.State:
        lesson = self.lesson
        return presets.State(params=self.controller.params, step=lesson.step,
                             scenario=lesson.scenario.key if lesson.scenario else None,
                             theme=self.style_.theme, zoom=round(self.style_.zoom, 4),
                             language=self.language_choice)

    def apply_state(self, state: presets.State) -> None:
        """Parameters, lesson position (without its preset), theme and zoom, all at once."""
        p = state.params
        self.controller.replace_params(p)
        self.lesson.restore(state.step, state.scenario)
        self.lesson_files.enforce()  # what the lesson open locks is the page's, not the state's
        self.style_.set_theme(state.theme)
        self.set_zoom(state.zoom)
        if state.language is not None:  # a preset's language; None keeps the one spoken
            self.choose_language(state.language)

    def load_preset(self, path: str) -> None:
        """Apply a preset file; raises PresetError (and changes nothing) if it is unusable."""
        self.apply_state(presets.load(path))
        self.statusBar().showMessage(translate("FileActions", "Loaded preset {path}").format(path=path), 5000)

    # --- dialogs -------------------------------------------------------------------------
    def _fail(self, title: str, message: str) -> None:
        QMessageBox.warning(self, title, message)

    def open_preset_dialog(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, translate("FileActions", "Open preset"), suggested(""),
                                                    translate("FileActions", "sqrtdk-gui presets (*.json)"))
        if path:
            try:
                self.load_preset(path)
            except presets.PresetError as exc:
                self._fail(translate("FileActions", "Cannot open preset"),
                           translate("FileActions", "{name}: {reason}. Nothing was changed.")
                           .format(name=Path(path).name, reason=_(str(exc))))

    def copy_state_line(self) -> str:
        """Edit → Copy link text: the command that opens the app as it is now, on the clipboard
        (a teacher pastes it to students; no network involved)."""
        text = state_line.command(self.current_state())
        QGuiApplication.clipboard().setText(text)
        self.statusBar().showMessage(translate("FileActions", "Copied: {line}").format(line=text), 8000)
        return text

    def open_state_dialog(self) -> None:
        """File → Open state: a pasted line (or the whole command) applied at once."""
        text, ok = QInputDialog.getText(self, translate("FileActions", "Open state"),
                                        translate("FileActions", "Paste the line a teacher sent (sqrtdk-gui --state "
                                                  "\"…\"):"))
        if ok and text.strip():
            try:
                self.apply_state(state_line.decode(text))
            except presets.PresetError as exc:
                self._fail(translate("FileActions", "Cannot open state"),
                           translate("FileActions", "{reason}. Nothing was changed.").format(reason=_(str(exc))))

    def save_preset_dialog(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self, translate("FileActions", "Save preset"),
                                                    suggested("lesson.json"),
                                                    translate("FileActions", "sqrtdk-gui presets (*.json)"))
        if path:
            try:
                presets.save(self.current_state(), path)
            except OSError as exc:  # safe_io.IOFailure: one sentence naming the file
                self._fail(translate("FileActions", "Cannot save preset"),
                           translate("FileActions", "{reason}. Nothing was changed.").format(reason=_(str(exc))))
            else:
                self.statusBar().showMessage(translate("FileActions", "Saved preset {path}").format(path=path), 5000)
                self.preset_saved(path)

    def preset_saved(self, path: str) -> None:
        """A hook: the preset at ``path`` was just written (File → Open recent lists it)."""

    def export_png_dialog(self) -> None:
        choice, ok = QInputDialog.getItem(self, translate("FileActions", "Export view as PNG"),
                                          translate("FileActions", "Image size:"), list(EXPORT_SIZES), 1, False)
        if not ok:
            return
        path, _filter = QFileDialog.getSaveFileName(self, translate("FileActions", "Export view as PNG"),
                                                    suggested("sqrtdk-gui.png"),
                                                    translate("FileActions", "PNG images (*.png)"))
        if path:
            self._export(lambda: exporting.export_png(self, path, EXPORT_SIZES[choice]))

    def export_svg_dialog(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self, translate("FileActions", "Export view as SVG"),
                                                    suggested("sqrtdk-gui.svg"),
                                                    translate("FileActions", "SVG drawings (*.svg)"))
        if path:
            self._export(lambda: exporting.export_svg(self, path))

    def _export(self, write) -> bool:
        """Run one export; a failure is a dialog with one sentence (the old file is intact)."""
        try:
            write()
        except OSError as exc:  # safe_io.IOFailure names the file and the reason
            self._fail(translate("FileActions", "Export failed"),
                       translate("FileActions", "{reason}. Any earlier file of that name is unchanged.")
                       .format(reason=_(str(exc))))
            return False
        return True

    def export_csv_dialog(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self, translate("FileActions", "Export numbers as CSV"),
                                                    suggested("sqrtdk-gui.csv"),
                                                    translate("FileActions", "CSV files (*.csv)"))
        if path:
            self._export(lambda: exporting.export_csv(self.controller.result, path, self.controller.dial))

    # --- lesson exports ------------------------------------------------------------------
    @property
    def running_export(self) -> ExportRun | None:
        """The lesson export in progress, if any."""
        return getattr(self, "_export_run", None)

    def abort_export(self) -> None:
        """End a running lesson export now, the window restored (the window closes)."""
        run = self.running_export
        if run is not None:
            run.abort()

    def _offscreen_twin(self, zoom: float = 1.0):
        """A new window in this one's language and theme that is never on screen: the lesson
        exports draw their pages in it, so this window, perhaps on a projector, shows nothing
        of them, and the pictures are the ones ``sqrtdk-gui export-slides`` draws."""
        # Made as the command line makes its window (gui/launch/app.py): the same pictures.
        twin = type(self)(threaded=False, theme=self.style_.theme, zoom=zoom)
        twin.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
        twin.show()
        if not self.lesson.plan.is_full:  # the slides of the teacher's lesson open
            twin.lesson_files.apply(self.lesson.plan)
        return twin

    def _start_export(self, steps, title: str, unit: str, count: int, done, failed, twin=None) -> ExportRun:
        """Run an export's steps behind a progress dialog (``title`` shown as it is; ``unit``, "Page"
        or "Slide", as export.dialog.ExportDialog takes it); ``done(value, cancelled)`` after
        it ends without an error; an OSError or Refused is a dialog with the sentence ``failed(error)``.
        ``twin``: the off-screen window the steps draw in, closed when the export ends."""
        run = ExportRun(steps, self)
        dialog = ExportDialog(title, unit, count, run, self)

        def finished(value, error) -> None:
            self._export_run = None
            run.deleteLater()
            if twin is not None:
                twin.close()
                twin.deleteLater()
            if isinstance(error, (OSError, Refused)):  # the files written before stay; the failed one is unchanged
                self._fail(translate("FileActions", "Export failed"), failed(error))
            elif value is not None:  # None: aborted, the window closes
                done(value, run.cancelled)

        run.finished.connect(finished)
        self._export_run = run
        dialog.show()
        run.start()
        return run

    def export_handout_dialog(self) -> None:
        from sqrtdk_gui.gui.export.handout import handout_pages, handout_steps

        path, _filter = QFileDialog.getSaveFileName(self, translate("FileActions", "Export lesson handout"),
                                                    suggested("sqrtdk-gui-handout.html"),
                                                    translate("FileActions", "Web page (*.html);;PDF (*.pdf);;"
                                                                             "Markdown (*.md)"))
        if not path or self.running_export is not None:
            return
        if not path.lower().endswith((".html", ".htm", ".md", PDF_SUFFIX)):
            path += ".html"

        def done(written, cancelled) -> None:
            if written:
                self.statusBar().showMessage(translate("FileActions", "Wrote the handout to {path}")
                                             .format(path=written[0]), 8000)
            else:
                self.statusBar().showMessage(translate("FileActions", "Handout export cancelled: nothing was written"),
                                             8000)

        twin = self._offscreen_twin()
        self._start_export(handout_steps(twin, path), translate("FileActions", "Exporting the lesson handout"),
                           "Page", len(handout_pages()), done,
                           lambda exc: f"{path}: {exc.strerror or exc}", twin)

    def export_concept_test_dialog(self) -> None:
        """File → Export concept test: practice mode's items as a test with its answer key."""
        path, _filter = QFileDialog.getSaveFileName(self, translate("FileActions", "Export concept test"),
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
        self.statusBar().showMessage(translate("FileActions", "Wrote the concept test to {path}").format(path=written),
                                     8000)

    def export_animation_dialog(self) -> None:
        """File → Export animation: a sweep of the lesson as an animated GIF or APNG, drawn
        off-screen in this window's language and theme."""
        from sqrtdk_gui.core.lesson import clips
        from sqrtdk_gui.gui.export.animation import animation_steps
        from sqrtdk_gui.gui.export.animation_dialog import AnimationChoice

        if self.running_export is not None:
            return
        lesson = self.lesson
        screen = self.screen()
        sizes = {label: size for label, size in slide_sizes(None if screen is None else (
            screen.geometry().width(), screen.geometry().height())).items() if not clips.frame_size_problem(size)}
        choice = AnimationChoice(sizes, clips.suggested_clip(None if lesson.scenario else lesson.step,
                                                             self.animator.running), self)
        if not choice.exec():
            return
        path, _filter = QFileDialog.getSaveFileName(self, translate("FileActions", "Export animation"),
                                                    suggested(f"sqrtdk-gui-{choice.clip}.gif"),
                                                    translate("FileActions", "Animated GIF (*.gif);;"
                                                                             "Animated PNG (*.png *.apng)"))
        if not path or self.running_export is not None:
            return
        if not path.lower().endswith(tuple(clips.ANIMATION_FORMATS)):  # the filter chosen says which
            path += ".png" if "png" in _filter.lower() else ".gif"
        clip = clips.clip(choice.clip, self.controller.params)

        def done(written, cancelled) -> None:
            self.statusBar().showMessage(
                translate("FileActions", "Wrote the animation to {path}").format(path=written[0]) if written
                else translate("FileActions", "Animation export cancelled: nothing was written"), 8000)

        zoom = presentation_zoom(choice.frame_size[1])
        twin = self._offscreen_twin(zoom)
        self._start_export(animation_steps(twin, path, clip, choice.frame_size, zoom=zoom),
                           translate("FileActions", "Drawing the animation"), "Frame", len(clip.frames), done,
                           lambda exc: f"{exc}.", twin)

    def export_slides_pdf_dialog(self) -> None:
        """File → Export slides as PDF: the slides as the pages of one PDF."""
        path, _filter = QFileDialog.getSaveFileName(self, translate("FileActions", "Export lesson slides as PDF"),
                                                    suggested("sqrtdk-gui-slides.pdf"),
                                                    translate("FileActions", "PDF (*.pdf)"))
        if path and not path.lower().endswith(PDF_SUFFIX):
            path += PDF_SUFFIX
        self.export_slides_dialog(path)

    def export_slides_dialog(self, target: str | None = None) -> None:
        """File → Export slides: one PNG per slide into a folder (``target``: or a PDF file)."""
        folder = target if target is not None else QFileDialog.getExistingDirectory(
            self, translate("FileActions", "Export lesson slides into folder"), suggested(""))
        if not folder or self.running_export is not None:
            return
        screen = self.screen()
        sizes = slide_sizes(None if screen is None else (screen.geometry().width(),
                                                         screen.geometry().height()))
        choice, ok = QInputDialog.getItem(self, translate("FileActions", "Export lesson slides"),
                                          translate("FileActions", "Slide size (4:3, 16:9 or 16:10; presentation "
                                                    "type for its height):"), list(sizes), 0, False)
        if not ok:
            return
        count = len(exporting.slide_plan(self.lesson.plan))
        size = sizes[choice]

        def done(written, cancelled) -> None:
            self.statusBar().showMessage(translate("FileActions", "Wrote {written} of {count} slides to {folder}")
                                         .format(written=len(written), count=count, folder=folder), 8000)

        zoom = presentation_zoom(size[1])
        twin = self._offscreen_twin(zoom)
        self._start_export(exporting.slide_steps(twin, folder, size, zoom=zoom),
                           translate("FileActions", "Rendering lesson slides"), "Slide",
                           count, done, lambda exc: f"{exc}.", twin)
