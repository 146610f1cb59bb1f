"""Command line: start the window, or run a headless command.

``sqrtdk-gui [window flags]`` opens the window; ``sqrtdk-gui stats ...`` prints the model's
numbers without ever importing Qt. Bad input exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from sqrtdk_gui.cli import animation, export, practice, stats
from sqrtdk_gui.cli import train as train_cli
from sqrtdk_gui.cli.args import (
    OneLineParser,
    add_lesson_flag,
    add_param_flags,
    cli_language,
    error_line,
    language_arg,
    path_arg,
    silence_stdout,
    size_arg,
)
from sqrtdk_gui.cli.interrupt import interrupted
from sqrtdk_gui.cli.window import run_window
from sqrtdk_gui.core import i18n
from sqrtdk_gui.core.i18n import LANGUAGES, _
from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.io.presets import THEMES, ZOOM_RANGE
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.core.validation import float_arg, int_arg

__all__ = ["main", "build_parser"]


class _VersionAction(argparse.Action):
    """``--version``: the lines Help → About shows (core.about), then exit 0."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, default: Any = argparse.SUPPRESS,
                 help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        from sqrtdk_gui.core.environment.about import version_lines

        print("\n".join(version_lines()))
        parser.exit(0)


def build_parser() -> OneLineParser:
    """The whole command line: window flags plus the headless subcommands."""
    parser = OneLineParser(
        prog="sqrtdk-gui",
        description=_("See why scaled dot-product attention divides its logits by √d_k."),
    )
    parser.add_argument("--version", action=_VersionAction,
                        help=_("print the version and the versions of Python, Qt, pyqtgraph and numpy "
                               "(what a bug report needs) and exit"))
    add_param_flags(parser)
    parser.add_argument("--screenshot", metavar="PNG", type=path_arg("--screenshot"),
                        help=_("render the window offscreen to this image and exit"))
    parser.add_argument("--size", type=size_arg, default=(1920, 1080), metavar="WxH",
                        help=_("window size for --screenshot (default 1920x1080)"))
    parser.add_argument("--step", type=int_arg("step", 1, len(STEPS)), metavar="N",
                        help=_("open the lesson at step N (1..{last}); parameter flags apply on top").format(
                            last=len(STEPS)))
    parser.add_argument("--scenario", choices=[s.key for s in SCENARIOS],
                        help=_("open a trap or follow-up of the lesson"))
    parser.add_argument("--preset", metavar="FILE", type=path_arg("--preset"),
                        help=_("open with a saved preset (parameters, lesson step, theme)"))
    parser.add_argument("--state", metavar="LINE",
                        help=_('open as a state line describes it ("step=2 d_k=512 scaling=none", as Edit → '
                               'Copy link text gives it)'))
    add_lesson_flag(parser, _("teach from a lesson file (its pages, samples, questions, hidden and locked "
                              "controls; File → New lesson from current makes one)"))
    parser.add_argument("--theme", choices=THEMES,
                        help=_("light (projectors, default), dark or high-contrast (washed-out projectors)"))
    parser.add_argument("--zoom", type=float_arg("zoom", *ZOOM_RANGE), metavar="X",
                        help=_("scale text and lines ({lo}..{hi})").format(lo=ZOOM_RANGE[0], hi=ZOOM_RANGE[1]))
    parser.add_argument("--presentation", action="store_true",
                        help=_("start in presentation mode (full screen, large type)"))
    parser.add_argument("--lang", type=language_arg, metavar="LANG",
                        help=_("speak LANG: {languages} (default: the language chosen in View → Language, "
                               "else the system's)").format(languages=", ".join(LANGUAGES)))
    parser.add_argument("--smoke-test", action="store_true",
                        help=_("build the window offscreen, check that it works, print one line "
                               "and exit (0 = passed)"))
    parser.add_argument("--first-frame", action="store_true", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    stats.add_parser(sub)
    train_cli.add_parser(sub)
    export.add_parsers(sub)
    animation.add_parser(sub)
    practice.add_parser(sub)
    return parser


DEBUG_ENV = "SQRTDK_GUI_DEBUG"  # =1: let unexpected errors raise with their traceback


def _io_message(exc: OSError) -> str:
    """One line for a failed read or write (safe_io's errors already are one sentence)."""
    if isinstance(exc, safe_io.IOFailure):
        return str(exc)
    if exc.filename:
        return _("input/output failed: {reason} ({file})").format(reason=exc.strerror or exc, file=repr(exc.filename))
    return _("input/output failed: {reason}").format(reason=exc.strerror or exc)


def main(argv: list[str] | None = None) -> int:
    if hasattr(signal, "SIGXFSZ"):
        # A file-size limit (ulimit -f) would kill the process mid-write; ignored, the write
        # fails with EFBIG instead, the old file stays intact and the user gets one line.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        # The command line's own texts (help, errors) in the language asked for or the system's;
        # the window then also weighs the language chosen in it before.
        i18n.set_language(cli_language(sys.argv[1:] if argv is None else argv, os.environ))
        parser = build_parser()
        args = parser.parse_args(argv)
        func = getattr(args, "func", run_window)
        try:
            status = func(args)
        except ValueError as exc:  # parameter combinations the flags alone cannot reject
            print(error_line(str(exc)), file=sys.stderr)
            return 2
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk or closed pipe surfaces here, not after main()
        return status
    except KeyboardInterrupt:  # Ctrl+C: the usual shell status, no traceback
        return 130
    except BrokenPipeError:  # e.g. `sqrtdk-gui stats --sweep | head -1`
        silence_stdout()
        return 141  # 128 + SIGPIPE, what a shell reports for a killed writer
    except OSError as exc:  # e.g. `stats > /dev/full`, a file name too long
        silence_stdout()
        print(error_line(_io_message(exc)), file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a bug: one line for the user, not a traceback
        if interrupted(exc):  # Ctrl+C while a module loaded, wrapped by Python in another error
            return 130
        if os.environ.get(DEBUG_ENV) == "1":
            raise
        message = " ".join(str(exc).split())
        print(_("{prog}: internal error: {error}: {message} (run with {variable}=1 for the traceback)").format(
            prog="sqrtdk-gui", error=type(exc).__name__, message=message, variable=DEBUG_ENV), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
