"""The window's command line: open it, render a screenshot, or run the smoke test."""

from __future__ import annotations

import argparse
import os

from sqrtdk_gui.cli.args import (
    check_output_path,
    fail,
    given_params,
    interrupt_ends_at_once,
    params_from_args,
    read_lesson,
)
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.environment.display import display_problem, platform_problem
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io import presets, state_line

__all__ = ["run_window"]


def run_window(args: argparse.Namespace) -> int:
    """The window, a headless screenshot, or the smoke test (Qt is imported only here)."""
    params = params_from_args(args)  # ValueError for combinations flags alone cannot reject
    with interrupt_ends_at_once():
        return _run(args, params)


def _run(args: argparse.Namespace, params: Params) -> int:
    problem = platform_problem()  # an unknown QT_QPA_PLATFORM: Qt would abort (status 134)
    if problem is None and (args.screenshot is not None or args.smoke_test or args.first_frame) \
            and os.environ.get("QT_QPA_PLATFORM") and display_problem():
        # Offscreen by default; a display platform asked for by name needs a display.
        problem = _("QT_QPA_PLATFORM={value} needs a display and there is none here; unset it "
                    "(--screenshot and --smoke-test render offscreen by default)").format(
            value=repr(os.environ["QT_QPA_PLATFORM"][:60]))
    if problem:
        return fail(problem)
    if args.smoke_test or args.first_frame:
        from sqrtdk_gui.gui.launch import smoke

        return smoke.run_smoke(params) if args.smoke_test else smoke.run_first_frame(params)
    state = None
    if args.preset and args.state is not None:
        return fail(_("give --preset or --state, not both"))
    if args.preset:
        try:
            state = presets.load(args.preset)
        except presets.PresetError as exc:
            return fail(_("preset {file}: {problem}").format(file=repr(args.preset), problem=exc))
    if args.state is not None:
        try:
            state = state_line.decode(args.state)
        except presets.PresetError as exc:
            return fail(_("--state: {problem}").format(problem=exc))
    if args.screenshot is not None:
        problem = check_output_path(args.screenshot)
        if problem:
            return fail(problem)
    else:
        problem = display_problem()  # Qt would abort (status 134) with a misleading message
        if problem:
            return fail(problem)
    lesson = read_lesson(args.lesson)  # ValueError: one line, exit 2
    from sqrtdk_gui.gui.launch.app import Launch, run_window

    return run_window(Launch(params=given_params(args), preset=state, step=args.step,
                             scenario=args.scenario, theme=args.theme, zoom=args.zoom,
                             presentation=args.presentation, screenshot=args.screenshot,
                             size=args.size, lang=args.lang, lesson=lesson, lesson_path=args.lesson))
