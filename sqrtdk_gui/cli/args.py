"""What the command lines share: one-line errors, the parameter flags, sizes, paths, outputs.

Every flag's range and choices come from the model's ``Params`` (one flag per field), so the
command line cannot drift from what the window accepts.
"""

from __future__ import annotations

import argparse
import dataclasses
import locale
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, cast

from sqrtdk_gui.core.attention.params import CHOICES, FLOAT_RANGES, INT_RANGES, Params
from sqrtdk_gui.core.i18n import LANGUAGES, N_, _, match_language, speaks, system_languages
from sqrtdk_gui.core.io import lesson_file, safe_io
from sqrtdk_gui.core.lesson.clips import ANIMATION_FORMATS, SUFFIX_HINT
from sqrtdk_gui.core.lesson.plan import LessonPlan
from sqrtdk_gui.core.validation import SHOWN_MAX, float_arg, int_arg, shown
from sqrtdk_gui.gui.launch import ctrl_c  # (no Qt: the standard library only)

__all__ = ["OneLineParser", "add_lesson_flag", "read_lesson",
           "PARAM_FLAGS", "add_param_flags", "given_params", "params_from_args",
           "size_arg", "path_arg", "fail", "check_output_path", "silence_stdout", "interrupt_ends_at_once",
           "the_process_ends_after_the_command",
           "IMAGE_SUFFIXES", "HANDOUT_SUFFIXES", "ANIMATION_SUFFIXES", "SLIDES_PDF_SUFFIXES", "PROG", "error_line",
           "language_arg", "cli_language"]

# flag -> Params field, one per field (d_k's flag is --dk).
PARAM_FLAGS = {("dk" if f.name == "d_k" else f.name): f.name for f in dataclasses.fields(Params)}
# (the file name endings allowed, what to say otherwise: English, shown through _())
IMAGE_SUFFIXES = ((".png", ".jpg", ".jpeg", ".bmp"), N_("use a .png, .jpg or .bmp file name"))
HANDOUT_SUFFIXES = ((".html", ".htm", ".md", ".pdf"), N_("a handout file name ends in .html, .md or .pdf"))
SLIDES_PDF_SUFFIXES = ((".pdf",), N_("a slides file name ends in .pdf"))
ANIMATION_SUFFIXES = (tuple(ANIMATION_FORMATS), SUFFIX_HINT)
CONCEPT_TEST_SUFFIXES = ((".html", ".htm", ".md", ".pdf", ".json"),
                         N_("a concept test file name ends in .html, .md, .pdf or .json"))
PROG = "sqrtdk-gui"
# What path_arg says about an empty name, by what the name names.
_EMPTY_NAME = {"file": N_("{what} wants a file name, got {text}"),
               "folder": N_("{what} wants a folder name, got {text}")}


def error_line(message: str) -> str:
    """The one line a usage error prints: 'sqrtdk-gui: error: ...' (no newline)."""
    return _("{prog}: error: {message}").format(prog=PROG, message=message)


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line (and exit status 2), quoting each
    argument it names in at most ``SHOWN_MAX`` characters (a 10 KB argument must not become a
    10 KB error line)."""

    _given: tuple[str, ...] = ()  # the arguments being parsed: what a message may quote

    # One signature for argparse's overloaded ones (a namespace given or not): always a Namespace here.
    def parse_known_args(  # type: ignore[override]  # noqa: D102 - argparse API
            self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        self._given = tuple(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def parse_args(  # type: ignore[override]  # noqa: D102 - argparse API
            self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None,
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            listed = " ".join(_quoted(arg) for arg in extras[:_LISTED])
            if len(extras) > _LISTED:
                listed = _("{arguments} and {count} more").format(arguments=listed, count=len(extras) - _LISTED)
            self.error(_("unrecognized arguments: {arguments}").format(arguments=listed))
        return parsed

    def error(self, message: str) -> NoReturn:  # noqa: D102 - argparse API
        for arg in sorted(set(self._given), key=len, reverse=True):
            if len(arg) > SHOWN_MAX:
                message = message.replace(repr(arg), shown(arg)).replace(arg, shown(arg))
        self.exit(2, error_line(message) + "\n")


_LISTED = 3  # unrecognised arguments a message names; the rest are counted


def _quoted(arg: str) -> str:
    """An argument as a message names it: as typed, or cut short with its length."""
    return arg if len(arg) <= SHOWN_MAX else shown(arg)


def language_arg(text: str) -> str:
    """An argparse ``type=`` for ``--lang``: a language the program speaks (or ``pseudo``)."""
    if speaks(text):
        return text
    raise argparse.ArgumentTypeError(_("--lang wants one of {languages}, got {value}").format(
        languages=", ".join(LANGUAGES), value=shown(text)))


def cli_language(argv: list[str], environ: Mapping[str, str]) -> str:
    """The language of the command line's own texts (help, messages), chosen before parsing:
    a valid ``--lang`` among ``argv``, else the system's (POSIX variables, then the locale)."""
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg[len("--lang="):] \
            if arg.startswith("--lang=") else None
        if value is not None and speaks(value):
            return value
    tags = system_languages(environ)
    if not tags:
        found = match_language(locale.getlocale()[0] or "")
        tags = [found] if found else []
    return tags[0] if tags else "en"


def add_param_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per model parameter; unset flags stay None (the caller's defaults win)."""
    lo: int | float  # an int range's bounds, then a float range's
    hi: int | float
    for flag, name in PARAM_FLAGS.items():
        option = "--" + flag.replace("_", "-")
        if name in INT_RANGES:
            lo, hi = INT_RANGES[name]
            parser.add_argument(option, dest=flag, type=int_arg(option[2:], lo, hi), metavar="N",
                                default=argparse.SUPPRESS,
                                help=f"{name} ({lo}..{hi})")
        elif name in FLOAT_RANGES:
            lo, hi = FLOAT_RANGES[name]
            parser.add_argument(option, dest=flag, type=float_arg(option[2:], lo, hi), metavar="X",
                                default=argparse.SUPPRESS,
                                help=f"{name} ({lo:g}..{hi:g})")
        else:
            parser.add_argument(option, dest=flag, choices=CHOICES[name], help=name,
                                default=argparse.SUPPRESS)


def given_params(args: argparse.Namespace) -> dict[str, Any]:
    """The parameters the user set with flags, by Params field name."""
    return {name: getattr(args, flag) for flag, name in PARAM_FLAGS.items()
            if getattr(args, flag, None) is not None}


def params_from_args(args: argparse.Namespace, base: Params | None = None) -> Params:
    """``base`` (default: the model's defaults) with every flag the user gave applied."""
    return (base or Params()).replace(**given_params(args))


def size_arg(text: str) -> tuple[int, int]:
    try:
        if not text.isascii():  # int() would also read other scripts' digits
            raise ValueError
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("--size wants WIDTHxHEIGHT such as 1920x1080, got {text}").format(text=repr(text))) from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise argparse.ArgumentTypeError(_("--size={text} is out of range: 320x240 .. 7680x4320").format(text=text))
    return w, h


def path_arg(what: str, kind: str = "file") -> Callable[[str], str]:
    """An argparse ``type=`` that refuses an empty file or folder name (it would mean "here")."""
    def parse(text: str) -> str:
        if not text.strip():
            template = _(_EMPTY_NAME[kind]) if kind in _EMPTY_NAME else "{what} wants a {kind} name, got {text}"
            raise argparse.ArgumentTypeError(template.format(what=what, kind=kind, text=repr(text)))
        return text

    return parse


def add_lesson_flag(parser: argparse.ArgumentParser, help_text: str, top: bool = True) -> None:
    """``--lesson FILE``; on a subcommand (``top`` False) it leaves a --lesson given before the
    subcommand's name as it is (argparse would set the subcommand's default over it)."""
    parser.add_argument("--lesson", metavar="FILE", type=path_arg("--lesson"), help=help_text,
                        **cast("dict[str, Any]", {} if top else {"default": argparse.SUPPRESS}))


def read_lesson(path: str | None) -> LessonPlan | None:
    """The lesson file at ``path`` (None: none given); ValueError with one line naming the file."""
    if path is None:
        return None
    try:
        return lesson_file.load(path)
    except lesson_file.LessonError as exc:
        raise ValueError(_("lesson {file}: {problem}").format(file=repr(path), problem=exc)) from None


def fail(message: str) -> int:
    """One line on stderr; exit status 2 (the user's input cannot be used)."""
    print(error_line(message), file=sys.stderr)
    return 2


def check_output_path(path: str, suffixes: tuple[tuple[str, ...], str] = IMAGE_SUFFIXES) -> str | None:
    """Why ``path`` cannot be written (as an image, by default), or None if it can.

    ``suffixes`` is (the file name endings allowed, what to say otherwise, marked with N_).
    """
    target = Path(path)
    allowed, hint = suffixes
    if target.suffix.lower() not in allowed:  # an empty name has no suffix either
        return _("cannot write {path}: {reason}").format(path=repr(path), reason=_(hint))
    try:  # a folder, device or FIFO is refused; a symlink is written through
        real = Path(safe_io.resolve_target(path))
    except OSError as exc:
        return str(exc)
    if not os.access(real.parent, os.W_OK) or (real.exists() and not os.access(real, os.W_OK)):
        return _("cannot write {path}: {reason}").format(path=repr(path), reason=_("permission denied"))
    return None


def the_process_ends_after_the_command() -> None:
    """The program's entry point says so: once a command has started Qt, Ctrl+C ends the process
    at once until it has ended, teardown included (Python's own handler would raise a
    KeyboardInterrupt inside Qt's teardown, which crashed or was dropped: exit status 0)."""
    ctrl_c.this_process_is_the_program()


@contextmanager
def interrupt_ends_at_once() -> Iterator[None]:
    """While active, Ctrl+C ends the process at once, as for any program that does not catch
    it (the shell reports 130). For the commands that start Qt: a KeyboardInterrupt raised
    inside Qt's start-up, a render or a worker thread's shutdown crashed or was lost. Files
    are never half-written (every write is a temporary file renamed into place); the
    interactive window and the exports install their own handlers (close like Quit; stop and
    say what was written) once they run. The previous handler comes back afterwards, unless
    the process ends after the command: then Ctrl+C keeps ending it at once."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if ctrl_c.is_the_program() else previous)


def silence_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit cannot fail a second time."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a file descriptor (embedded, tests)
        pass
