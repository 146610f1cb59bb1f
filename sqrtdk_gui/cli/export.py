"""``export-slides``, ``export-handout`` and ``export-concept-test``: the lesson and practice
mode as files (Qt imported only to render).

Progress goes to stderr as for ``train`` (a bar on a terminal, a line every 10 s elsewhere,
nothing for an export under 10 s). The first Ctrl+C once the export runs stops it at once,
even in the middle of a slide: the slides written so far stay (a handout is not written),
the program says so and exits 130; a second Ctrl+C ends it on the spot. Before that (while
Qt loads) Ctrl+C ends the program at once, and whatever the export is doing when Ctrl+C
comes, the process has ended a second later (status 130).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from sqrtdk_gui.cli.args import (
    CONCEPT_TEST_SUFFIXES,
    HANDOUT_SUFFIXES,
    SLIDES_PDF_SUFFIXES,
    add_lesson_flag,
    check_output_path,
    fail,
    interrupt_ends_at_once,
    language_arg,
    path_arg,
    read_lesson,
    size_arg,
)
from sqrtdk_gui.cli.progress import Progress, StopOnInterrupt
from sqrtdk_gui.core.i18n import LANGUAGES, _
from sqrtdk_gui.core.io.presets import THEMES, ZOOM_RANGE
from sqrtdk_gui.core.validation import float_arg

__all__ = ["add_parsers", "add_lang_flag", "stop_on_interrupt", "run_export_slides", "run_export_handout",
           "run_export_concept_test", "ExportReport"]

_PROG = "sqrtdk-gui"


class ExportReport:
    """What the headless export reports to: ``page(i, n, name)`` at each page and
    ``stopping()`` while it waits show the progress on stderr and say whether the first
    Ctrl+C came (then the export stops at once); ``finish()`` erases the bar before the
    outcome is printed; ``interrupted`` says whether Ctrl+C stopped it."""

    def __init__(self, command: str, unit: str, stop: StopOnInterrupt, stream: TextIO | None = None) -> None:
        self._label, self._unit, self._stop = f"{_PROG} {command}: ", unit, stop
        self._stream = sys.stderr if stream is None else stream
        self._progress: Progress | None = None
        self._done = 0
        self._finished = False

    @property
    def interrupted(self) -> bool:
        return self._stop.requested()

    def page(self, index: int, count: int, name: str) -> bool:
        if self._progress is None:
            self._progress = Progress(count, self._stream, label=self._label, unit=self._unit)
        self._done = index
        self._show()
        return not self.interrupted

    def stopping(self) -> bool:
        self._show()
        return self.interrupted

    def _show(self) -> None:
        if self._progress is not None and not self._finished:
            self._progress.update(self._done)

    def finish(self) -> None:
        if not self._finished and self._progress is not None:
            self._progress.finish()
        self._finished = True


def add_parsers(sub: Any) -> None:  # argparse's subparsers action
    """The ``export-slides`` and ``export-handout`` subcommands."""
    slides = sub.add_parser("export-slides", help=_("write one PNG per lesson step and scenario, or one PDF"),
                            description=_("Render every lesson step, trap and follow-up to PNG files in a "
                                          "folder, or to the pages of one PDF file."))
    slides.add_argument("folder", metavar="DIR|FILE.pdf", type=path_arg("export-slides", "folder"),
                        help=_("folder for the slides (created if missing), or a PDF file name"))
    slides.add_argument("--size", type=size_arg, default=(1920, 1080), metavar="WxH",
                        help=_("slide size (default 1920x1080)"))
    slides.add_argument("--theme", choices=THEMES, default="light", help=_("light, dark or high-contrast"))
    slides.add_argument("--zoom", type=float_arg("zoom", *ZOOM_RANGE), default=1.0, metavar="X",
                        help=_("scale text and lines"))
    slides.add_argument("--presentation", action="store_true",
                        help=_("the type size of presentation mode for the slide height (e.g. "
                               "--size 1024x768 --presentation for a 4:3 projector)"))
    add_lang_flag(slides)
    add_lesson_flag(slides, _("the slides of a lesson file, in its order (default: the whole lesson)"), top=False)
    slides.set_defaults(func=run_export_slides)

    handout = sub.add_parser("export-handout", help=_("write the whole lesson as one HTML or Markdown file"),
                             description=_("Write the lesson (steps, questions, answers, evidence and a "
                                           "picture of the panels for each) for students to take home. "
                                           "HTML embeds the pictures; Markdown writes them into FILE_files/."))
    handout.add_argument("file", metavar="FILE", help=_("the handout, ending in .html, .md or .pdf"))
    add_lang_flag(handout)
    handout.set_defaults(func=run_export_handout)

    test = sub.add_parser("export-concept-test", help=_("write practice mode's questions as a concept test"),
                          description=_("Write every practice question and bug card as a pre/post concept "
                                        "test for a class, with its answer key on the last page (no window)."))
    test.add_argument("file", metavar="FILE",
                      help=_("the test, ending in .html, .md, .pdf or .json (the items as data)"))
    test.set_defaults(func=run_export_concept_test)


def add_lang_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", type=language_arg, metavar="LANG",
                        help=_("write it in LANG: {languages} (default: the system's language)").format(
                            languages=", ".join(LANGUAGES)))


def run_export_concept_test(args: argparse.Namespace) -> int:
    problem = check_output_path(args.file, CONCEPT_TEST_SUFFIXES)
    if problem:
        return fail(problem)
    if args.file.lower().endswith(".pdf"):  # laid out by Qt: the only form that needs it
        with interrupt_ends_at_once():
            from sqrtdk_gui.gui.launch.app import concept_test_pdf_headless

            try:
                print(concept_test_pdf_headless(args.file))
            except OSError as exc:
                return fail(str(exc))
            return 0
    from sqrtdk_gui.core.io.concept_test import write_concept_test

    try:
        written = write_concept_test(args.file)
    except OSError as exc:  # safe_io.IOFailure: one sentence; an old file is untouched
        return fail(str(exc))
    print(written)
    return 0


@contextmanager
def stop_on_interrupt() -> Iterator[StopOnInterrupt]:
    """The first Ctrl+C stops the export, which says what it wrote; should the GUI thread be
    inside Qt for longer than a grace period, or the second Ctrl+C come, the process ends."""
    from sqrtdk_gui.gui.launch import ctrl_c

    ctrl_c.end_within_grace()
    with StopOnInterrupt(end_at_second=True) as stop:
        yield stop


def run_export_handout(args: argparse.Namespace) -> int:
    problem = check_output_path(args.file, HANDOUT_SUFFIXES)
    if problem:
        return fail(problem)
    with interrupt_ends_at_once():
        from sqrtdk_gui.gui.launch.app import export_handout_headless  # Qt only for this command

        with stop_on_interrupt() as stop:
            return export_handout_headless(args.file, ExportReport("export-handout", "page", stop), lang=args.lang)


def run_export_slides(args: argparse.Namespace) -> int:
    args.lesson_plan = read_lesson(getattr(args, "lesson", None))  # ValueError: one line, exit 2, nothing written
    folder = Path(args.folder)
    if folder.suffix.lower() in SLIDES_PDF_SUFFIXES[0]:  # one PDF, a page per slide
        problem = check_output_path(args.folder, SLIDES_PDF_SUFFIXES)
        if problem:
            return fail(problem)
        return _export_slides(args, str(folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return fail(_("cannot create {folder}: {reason}").format(folder=repr(str(folder)), reason=exc.strerror))
    if not folder.is_dir():  # e.g. a symlink to a file
        return fail(_("cannot write into {folder}: {reason}").format(folder=repr(str(folder)),
                                                                     reason=_("not a folder")))
    if not os.access(folder, os.W_OK):
        return fail(_("cannot write into {folder}: {reason}").format(folder=repr(str(folder)),
                                                                     reason=_("permission denied")))
    return _export_slides(args, str(folder))


def _export_slides(args: argparse.Namespace, target: str) -> int:
    with interrupt_ends_at_once():
        from sqrtdk_gui.gui.launch.app import export_slides_headless  # Qt only for this command

        with stop_on_interrupt() as stop:
            return export_slides_headless(target, args.size, args.theme, args.zoom, args.presentation,
                                          ExportReport("export-slides", "slide", stop), lang=args.lang,
                                          lesson=args.lesson_plan)
