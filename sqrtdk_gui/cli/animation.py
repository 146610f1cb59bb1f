"""``export-animation``: one of the lesson's moving pictures as an animated GIF or APNG.

Drawn offscreen as the window's File → Export animation draws it; progress on stderr as for
the other exports. The first Ctrl+C stops it at once and nothing is written (an older file
of that name stays; exit 130).
"""

from __future__ import annotations

import argparse
from typing import Any

from sqrtdk_gui.cli.args import (
    ANIMATION_SUFFIXES,
    PARAM_FLAGS,
    add_param_flags,
    check_output_path,
    fail,
    given_params,
    interrupt_ends_at_once,
    params_from_args,
    path_arg,
    size_arg,
)
from sqrtdk_gui.cli.export import ExportReport, add_lang_flag, stop_on_interrupt
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io.presets import THEMES
from sqrtdk_gui.core.lesson.clips import CLIPS, FPS_RANGE, LESSON_SWEEPS, SECONDS_RANGE, clip, frame_size_problem
from sqrtdk_gui.core.validation import float_arg

__all__ = ["add_parser", "run_export_animation"]


def add_parser(sub: Any) -> None:  # argparse's subparsers action
    parser = sub.add_parser(
        "export-animation", help=_("write one of the lesson's sweeps as an animated GIF or APNG"),
        description=_("Draw a sweep of the lesson frame by frame on its slide, on the lesson's held "
                      "axis, and write it as an animated GIF (or APNG) for your own slides: dk (step 1: "
                      "d_k 1 → 512 on raw logits, the bell widens), dk-scaled (step 4: d_k 4 → 4096 "
                      "under ÷√d_k, it stays put), autoplay (d_k 1 → 4096 and back) or flip (raw logits "
                      "and ÷√d_k in turn). Autoplay and flip use the parameter flags; dk and dk-scaled "
                      "play their step's own parameters and take only --seed."))
    parser.add_argument("file", metavar="FILE", type=path_arg("export-animation"),
                        help=_("the animation, ending in .gif, .png or .apng"))
    parser.add_argument("--clip", choices=tuple(CLIPS), default="dk", help=_("which sweep (default dk)"))
    parser.add_argument("--size", type=size_arg, default=(1024, 768), metavar="WxH",
                        help=_("frame size, at least 1024x720 (default 1024x768)"))
    parser.add_argument("--seconds", type=float_arg("seconds", *SECONDS_RANGE), default=8.0, metavar="S",
                        help=_("how long one loop lasts (default 8)"))
    parser.add_argument("--fps", type=float_arg("fps", *FPS_RANGE), default=12.5, metavar="N",
                        help=_("frames a second at most (default 12.5)"))
    parser.add_argument("--theme", choices=THEMES, default="light", help=_("light, dark or high-contrast"))
    add_lang_flag(parser)
    add_param_flags(parser)
    parser.set_defaults(func=run_export_animation)


def run_export_animation(args: argparse.Namespace) -> int:
    problem = check_output_path(args.file, ANIMATION_SUFFIXES)
    if problem:
        return fail(problem)
    problem = frame_size_problem(args.size)
    if problem:
        return fail(problem)
    fixed = sorted(set(given_params(args)) - {"seed"}) if args.clip in LESSON_SWEEPS else []
    if fixed:
        flag_of = {name: flag for flag, name in PARAM_FLAGS.items()}
        flags = ", ".join("--" + flag_of[name].replace("_", "-") for name in fixed)
        return fail(_("--clip {clip} plays its lesson step's own parameters; {flags} apply to autoplay and flip")
                    .format(clip=args.clip, flags=flags))
    try:
        frames = clip(args.clip, params_from_args(args), args.seconds, args.fps)
    except ValueError as exc:
        return fail(str(exc))
    with interrupt_ends_at_once():
        from sqrtdk_gui.gui.launch.app import export_animation_headless  # Qt only for this command

        with stop_on_interrupt() as stop:
            return export_animation_headless(args.file, frames, args.size, args.theme,
                                             ExportReport("export-animation", "frame", stop), lang=args.lang)
