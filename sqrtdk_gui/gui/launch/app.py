"""Open the window, or render it headless: what the command line asks, as a ``Launch``.

The command line (``sqrtdk_gui.cli.main``) parses and validates; this module only receives a
``Launch`` and never imports the command line. What it prints and shows is in the current
language.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io.presets import State
from sqrtdk_gui.core.lesson.plan import FULL, LessonPlan
from sqrtdk_gui.gui.launch import ctrl_c
from sqrtdk_gui.gui.launch.bootstrap import application

if TYPE_CHECKING:  # Qt and the window are imported when first needed
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.core.lesson.clips import Clip
    from sqrtdk_gui.gui.window.main_window import MainWindow
    from sqrtdk_gui.gui.window.settings import Settings

    class _Report(Protocol):
        """The command line's ``ExportReport`` (cli/export.py: a layer above)."""

        @property
        def interrupted(self) -> bool: ...

        def page(self, index: int, count: int, name: str) -> bool: ...

        def stopping(self) -> bool: ...

        def finish(self) -> None: ...

__all__ = ["Launch", "run_window", "prepare_window", "render_to_file", "export_slides_headless",
           "export_handout_headless"]


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``QCoreApplication.translate`` (lupdate extracts translate("Context", "text")); Qt is
    imported when first needed, as everywhere in this module."""
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate(context, text, disambiguation, n)


@dataclass(frozen=True)
class Launch:
    """What to open: parameter overrides, lesson position, look, and headless output."""

    params: dict[str, Any] = field(default_factory=dict)  # Params field -> value, given by the user
    preset: State | None = None
    step: int | None = None
    scenario: str | None = None
    theme: str | None = None
    zoom: float | None = None
    presentation: bool = False
    screenshot: str | None = None  # render offscreen to this image and exit
    size: tuple[int, int] = (1920, 1080)
    lang: str | None = None  # --lang; None: the preset's, else the one chosen before, else the system's
    lesson: LessonPlan | None = None  # --lesson: a teacher's lesson file, read
    lesson_path: str | None = None


def open_lesson(window: MainWindow, launch: Launch, animate: bool = True) -> None:
    """Enter the step or scenario asked for, then apply the parameter overrides on top."""
    if launch.scenario:
        window.lesson.choose_scenario(launch.scenario)
    elif launch.step:
        window.lesson.go_to(launch.step, animate=animate)
    if launch.params:
        window.animator.stop()
        window.controller.set_params(**launch.params)


def _size_problem(window: MainWindow, size: tuple[int, int]) -> str | None:
    """Why the window cannot be laid out at ``size`` (smaller than its smallest layout), or
    None: a screenshot is the size asked for or not made at all."""
    from PySide6.QtWidgets import QApplication

    window.resize(*size)
    window.show()
    QApplication.processEvents()
    got = (window.width(), window.height())
    if got == tuple(size):
        return None
    return (translate("Launch", "--size {width}x{height} is smaller than the window can be laid out at this zoom "
                      "(it needs {need_width}x{need_height}); ask for at least that, or a smaller --zoom")
            .format(width=size[0], height=size[1], need_width=max(got[0], size[0]),
                    need_height=max(got[1], size[1])))


def render_to_file(window: MainWindow, path: str, size: tuple[int, int]) -> bool:
    """Lay the window out at ``size``, bring every panel up to date and save it safely
    (True; safe_io.IOFailure with one sentence if the file cannot be written)."""
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.gui.export.view import save_image

    window.resize(*size)
    window.show()
    window.render_ready()
    QApplication.processEvents()
    save_image(window.grab(), path)
    return True


def prepare_window(launch: Launch, interactive: bool = True) -> tuple[MainWindow, Settings | None]:
    """The main window in the state ``launch`` asks for, and its settings store.

    Order: defaults < remembered state (interactive runs only) < preset < step or
    scenario < parameter overrides, theme and zoom. A damaged settings store gives
    defaults and a one-line warning (stderr and status bar), never a failure; a remembered
    state too large to stay responsive starts with fewer queries, with a warning.
    """
    from sqrtdk_gui.gui.launch import translations
    from sqrtdk_gui.gui.window.main_window import MainWindow
    from sqrtdk_gui.gui.window.settings import Settings, restorable

    # Interactive runs remember their state; headless renders are reproducible.
    settings = Settings(os.environ.get("SQRTDK_GUI_SETTINGS")) if interactive else None
    geometry = warning = None
    state = launch.preset
    remembered_language = None
    if settings is not None:
        geometry, saved, warning = settings.load()
        if saved is not None and state is None:
            saved, slow = restorable(saved)
            warning = warning or slow
        remembered_language = saved.language if saved is not None else None
        state = state or saved
    # The language before any widget exists: every text is translated when it is built.
    translations.install(translations.resolve(launch.lang, (launch.preset and launch.preset.language)
                                              or remembered_language))
    window = MainWindow(threaded=interactive)
    # The language chosen before (or the preset's) is what the settings keep; --lang is for this run.
    window.show_language_choice(state.language if state is not None else None)
    if settings is not None:
        window.recent.set_paths(settings.recent)  # File -> Open recent
        window.practice.set_store(settings)  # practice mode's progress
    if geometry is not None and not window.restoreGeometry(geometry):
        warning = warning or translate("Launch", "saved window geometry could not be restored; using the "
                                       "default size")
    if state is not None:
        try:
            window.apply_state(state)
        except Exception as exc:  # noqa: BLE001 - a remembered state must never stop the start
            if state is launch.preset:
                raise
            window.apply_state(State())
            warning = translate("Launch", "saved state could not be applied ({error}); starting with "
                                "defaults").format(error=type(exc).__name__)
    if launch.lang:  # ticked in View -> Language for this run, not remembered
        window.show_language_choice(launch.lang, remember=False)
    if launch.lesson is not None:  # its introduction, unless --step or --scenario follow
        window.lesson_files.apply(launch.lesson, launch.lesson_path)
    open_lesson(window, launch, animate=interactive)
    if launch.theme:
        window.set_theme(launch.theme)
    if launch.zoom:
        window.set_zoom(launch.zoom)
    if warning:
        print(translate("Launch", "sqrtdk-gui: warning: {message}").format(message=warning), file=sys.stderr)
        window.statusBar().showMessage(warning, 15000)
    return window, settings


def run_window(launch: Launch) -> int:
    """The interactive window, or a headless screenshot; returns the exit status."""
    if launch.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed
    app = application()

    window: MainWindow | None  # None while the window is rebuilt
    window, settings = prepare_window(launch, interactive=not launch.screenshot)
    try:
        if launch.screenshot:
            if launch.presentation:  # presentation mode's layout at the picture's size (no full screen)
                window.resize(*launch.size)
                window.presentation.enter(full_screen=False)
            problem = _size_problem(window, launch.size)
            if problem:
                print(translate("Launch", "sqrtdk-gui: error: {message}").format(message=problem), file=sys.stderr)
                return 2
            try:
                render_to_file(window, launch.screenshot, launch.size)
            except OSError as exc:  # safe_io.IOFailure: the old file is untouched
                print(translate("Launch", "sqrtdk-gui: error: {message}").format(message=exc),
                      file=sys.stderr)
                return 2
            return 0
        interrupted = _quit_on_sigint(app)
        presentation = launch.presentation
        while True:
            window.show()
            if presentation:
                window.presentation.enter()
            outcome: list[str] = []  # what an export that ended before the rebuild said
            window.language_requested.connect(
                lambda _code, w=window, said=outcome: _rebuild_when_no_export(app, w, said))
            status = app.exec()
            if status != RELAUNCH or interrupted:
                return 130 if interrupted else status
            # View -> Language: the same state, geometry and mode, rebuilt in the new language.
            presentation = window.presentation.active
            lesson = window.lesson_files  # a teacher's lesson stays open, at the same page
            plan, plan_path, position = lesson.plan, lesson.path, lesson.position()
            closing, window = window, None
            _close(closing, settings)
            window, settings = prepare_window(Launch(), interactive=True)
            if not plan.is_full or plan_path is not None:
                window.lesson_files.apply(plan, plan_path, position=position)
            if outcome and outcome[0] and not window.statusBar().currentMessage():
                window.statusBar().showMessage(outcome[0], 15000)  # what the export said, still on show
    finally:
        if window is not None:
            _close(window, settings)


# app.exec()'s status when the window asks to be rebuilt in another language.
RELAUNCH = 0x5A71


def _rebuild_when_no_export(app: QApplication, window: MainWindow, outcome: list[str]) -> None:
    """View -> Language: rebuild the window now, or once the lesson export it runs has ended
    (rebuilding closes the window, which would abandon the export half done). The export
    finishes, or is cancelled from its dialog, and says so first; what it said becomes
    ``outcome``, for the rebuilt window's status bar."""
    run = window.exports.running
    if run is None:
        app.exit(RELAUNCH)
        return
    if outcome:
        return  # already waiting for this export
    outcome.append("")
    window.statusBar().showMessage(translate("Launch", "The window switches to the new language once the export "
                                             "has finished"))

    def ended(value: object, error: object) -> None:  # after the window's own handler: its message is on show
        if value is None and error is None:
            return  # aborted: the window is closing, and the program with it
        outcome[:] = [window.statusBar().currentMessage()]
        app.exit(RELAUNCH)

    run.finished.connect(ended)


def _close(window: MainWindow, settings: Settings | None) -> None:
    """Save what the window remembers, then close and delete it while Qt still runs: with
    PySide6 6.11 an interpreter that exits with a pyqtgraph window still open crashes (status
    139)."""
    from PySide6.QtWidgets import QApplication

    window.close()
    if settings is not None:
        problem = settings.save(window.saveGeometry(), window.current_state(), window.recent.paths)
        if problem:
            print(translate("Launch", "sqrtdk-gui: warning: {message}").format(message=problem), file=sys.stderr)
    window.deleteLater()
    QApplication.processEvents()


def _quit_on_sigint(app: QApplication) -> list[int]:
    """Ctrl+C in the terminal closes the window like the Quit action (status 130).

    Qt's event loop does not return to Python while idle, so a timer hands it control a few
    times a second; that is when Python runs the signal handler. Until this handler is
    installed, Ctrl+C ends the program at once (``cli.args.interrupt_ends_at_once``).
    """
    from PySide6.QtCore import QTimer

    interrupted: list[int] = []

    def handler(signum: int, frame: FrameType | None) -> None:
        interrupted.append(signum)
        # Queued: a Ctrl+C just before the event loop starts would be lost by quit() itself,
        # which does nothing while no loop runs.
        QTimer.singleShot(0, app, app.quit)

    signal.signal(signal.SIGINT, handler)
    tick = QTimer(app)
    tick.timeout.connect(lambda: None)
    tick.start(200)
    ctrl_c.end_within_grace()  # and whatever the GUI thread is doing, the process ends soon after
    return interrupted


@contextmanager
def _offscreen_window(lang: str | None = None, **options: Any) -> Iterator[MainWindow]:
    """A shown MainWindow for a headless export (in ``lang``, else the system's language),
    closed and deleted while Qt still runs."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = application()
    from sqrtdk_gui.gui.launch import translations
    from sqrtdk_gui.gui.window.main_window import MainWindow

    translations.install(translations.resolve(lang))
    window = MainWindow(threaded=False, **options)
    try:
        window.show()
        yield window
    finally:
        window.close()
        window.deleteLater()
        app.processEvents()


def concept_test_pdf_headless(path: str) -> str:
    """Practice mode's concept test as a PDF, laid out offscreen; the path written, or OSError."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    application()  # the shipped fonts: the same type as the window's, on every OS
    from sqrtdk_gui.gui.export.pdf import concept_test_pdf

    return concept_test_pdf(path)


def export_handout_headless(path: str, report: _Report | None = None, lang: str | None = None) -> int:
    """The lesson as a take-home HTML or Markdown file, with pictures rendered offscreen.
    ``report`` (the command line's): ``page(i, n, title)`` at each page and ``stopping()``
    while it waits (true: cancel, nothing is written, status 130), ``finish()`` once it
    has ended, ``interrupted``."""
    from sqrtdk_gui.gui.export.handout import export_handout

    try:
        with _offscreen_window(lang) as window, _reporting(report) as (progress, should_stop):
            written = export_handout(window, path, progress, should_stop)
    except OSError as exc:
        print(translate("Launch", "sqrtdk-gui: error: cannot write the handout {path}: {reason}")
              .format(path=repr(path), reason=exc.strerror or _(str(exc))), file=sys.stderr)
        return 2
    if report is not None and report.interrupted and not written:
        print(translate("Launch", "sqrtdk-gui: interrupted; the handout was not written"), file=sys.stderr)
        return 130
    pictures = len(written) - 1
    if pictures:
        print(translate("Launch", "wrote the handout to {path} and %n pictures", None, pictures).format(path=path))
    else:
        print(translate("Launch", "wrote the handout to {path}").format(path=path))
    # Ctrl+C as the last page was written: the handout is whole, and the status says Ctrl+C came.
    return 130 if report is not None and report.interrupted else 0


def export_slides_headless(folder: str, size: tuple[int, int], theme: str, zoom: float,
                           presentation: bool = False, report: _Report | None = None, lang: str | None = None,
                           lesson: LessonPlan | None = None) -> int:
    """Every lesson slide as PNG into ``folder`` (which must exist and be writable), offscreen;
    ``presentation``: at presentation mode's type size for the slide height; ``lesson``: the
    slides of a teacher's lesson (default: the whole lesson). ``report`` as for the handout
    (cancelled, the slides written so far stay)."""
    from sqrtdk_gui.gui.export.view import export_slides, slide_plan
    from sqrtdk_gui.gui.window.presentation import presentation_zoom

    if presentation:
        zoom = max(zoom, presentation_zoom(size[1]))
    try:
        with _offscreen_window(lang, theme=theme, zoom=zoom) as window, _reporting(report) as (progress, should_stop):
            if lesson is not None:
                window.lesson_files.apply(lesson)
            written = export_slides(window, folder, size, progress, should_stop=should_stop)
    except OSError as exc:
        print(translate("Launch", "sqrtdk-gui: error: {message}").format(message=exc), file=sys.stderr)
        return 2
    if report is not None and report.interrupted:
        if written:
            message = translate("Launch", "sqrtdk-gui: interrupted after {written} of {total} slides; the {written} "
                                "written are in {folder}")
        else:
            message = translate("Launch", "sqrtdk-gui: interrupted after {written} of {total} slides")
        print(message.format(written=len(written), total=len(slide_plan(lesson or FULL)),
                                  folder=folder), file=sys.stderr)
        return 130
    print(translate("Launch", "wrote {count} slides to {folder}").format(count=len(written), folder=folder))
    return 0


def export_animation_headless(path: str, clip: Clip, size: tuple[int, int], theme: str, report: _Report | None = None,
                              lang: str | None = None) -> int:
    """``clip`` (``core.lesson.clips``) as an animated GIF or APNG at ``path``, drawn offscreen
    at presentation mode's type size for the frame height. ``report`` as for the slides;
    cancelled, nothing is written (status 130)."""
    from sqrtdk_gui.gui.export.animation import export_animation
    from sqrtdk_gui.gui.export.run import Refused
    from sqrtdk_gui.gui.window.presentation import presentation_zoom

    zoom = presentation_zoom(size[1])
    try:
        with _offscreen_window(lang, theme=theme, zoom=zoom) as window, _reporting(report) as (progress, should_stop):
            written = export_animation(window, path, clip, size, progress, zoom=zoom, should_stop=should_stop)
    except (OSError, Refused) as exc:  # a file not written, a size too small: one sentence
        print(translate("Launch", "sqrtdk-gui: error: {message}").format(message=exc), file=sys.stderr)
        return 2
    if not written:
        print(translate("Launch", "sqrtdk-gui: interrupted; the animation was not written"), file=sys.stderr)
        return 130
    print(translate("Launch", "wrote {count} frames to {path}").format(count=len(clip.frames), path=path))
    return 0


@contextmanager
def _reporting(report: _Report | None) -> Iterator[tuple[Callable[[int, int, str], bool] | None,
                                                         Callable[[], bool] | None]]:
    """(progress, should_stop) of ``report`` for the export's duration, then its ``finish()``
    (before the outcome is printed)."""
    if report is None:
        yield None, None
        return
    try:
        yield report.page, report.stopping
    finally:
        report.finish()
