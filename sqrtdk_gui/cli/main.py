"""Command line: start the window, or run a headless command.

``sqrtdk-gui [window flags]`` opens the window; ``sqrtdk-gui stats ...`` prints the model's
numbers without ever importing Qt. Bad input exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
from pathlib import Path

from sqrtdk_gui.cli import train as train_cli
from sqrtdk_gui.core.io import presets
from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.environment.display import display_problem
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.core.attention.model import CHOICES, FLOAT_RANGES, INT_RANGES, Params, compute, scale_factor
from sqrtdk_gui.core.attention.precision import type_info
from sqrtdk_gui.core.io.presets import THEMES, ZOOM_RANGE
from sqrtdk_gui.core.io.validation import float_arg, int_arg

__all__ = ["main", "build_parser", "params_from_args", "check_output_path"]

# flag -> Params field; every flag's range and choices come from the model.
PARAM_FLAGS = {
    "dk": "d_k",
    "keys": "keys",
    "queries": "queries",
    "temperature": "temperature",
    "scaling": "scaling",
    "softmax": "softmax",
    "dtype": "dtype",
    "heads": "heads",
    "gain": "gain",
    "seed": "seed",
    "q_std": "q_std",
    "k_std": "k_std",
    "alignment": "alignment",
}
SWEEP_DKS = tuple(2**i for i in range(13))  # 1 .. 4096


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line (and exit status 2)."""

    def error(self, message: str):  # noqa: D102 - argparse API
        self.exit(2, f"sqrtdk-gui: error: {message}\n")


def add_param_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per model parameter; unset flags stay None (the caller's defaults win)."""
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


def given_params(args: argparse.Namespace) -> dict:
    """The parameters the user set with flags, by Params field name."""
    return {name: getattr(args, flag) for flag, name in PARAM_FLAGS.items()
            if getattr(args, flag, None) is not None}


def params_from_args(args: argparse.Namespace, base: Params | None = None) -> Params:
    """``base`` (default: the model's defaults) with every flag the user gave applied."""
    return (base or Params()).replace(**given_params(args))


def stats_row(params: Params) -> dict:
    """The ``stats`` numbers of one computation (NaN becomes None: valid JSON)."""
    r = compute(params)
    row = {
        "d_k": params.d_k,
        "keys": params.keys,
        "queries": params.queries,
        "scaling": params.scaling,
        "temperature": params.temperature,
        "softmax": params.softmax,
        "dtype": params.dtype,
        "seed": params.seed,
        "heads": params.heads,
        "gain": params.gain,
        "logit_std": r.logit_std,
        "theory_std": r.theory_std,
        "log_n": r.log_n,
        "saturated_fraction": r.saturated_fraction,
        "row_sum_max_error": r.row_sum_max_error,
        "overflow_count": r.overflow_count,
    }
    for name, s in r.summary.items():
        for stat in ("mean", "median", "p10", "p90"):
            row[f"{name}_{stat}"] = getattr(s, stat)
    row.update(_precision_and_context(params, r))
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}


def _precision_and_context(params: Params, r) -> dict:
    """The float type's error against float64, and how the keys were computed."""
    return {
        # Against the exact float64 softmax: max |w − p| over all finite weights; per row the
        # largest |w/p − 1| among weights >= 0.1/n, and Σ|w − p| (bounds the output error),
        # summarised over the rows that did not overflow.
        "weight_max_abs_error": r.weight_max_abs_error,
        **{f"weight_rel_error_{k}": getattr(r.rel_error_summary, k) for k in ("median", "p10", "p90", "mean")},
        **{f"weight_l1_error_{k}": getattr(r.l1_error_summary, k) for k in ("median", "p10", "p90", "mean")},
        "dtype_max": type_info(params.dtype).max,  # logits beyond this overflow
        "scale_factor": scale_factor(params),  # c in z = c·q·k/τ (log_n: includes max(1, ln n/ln 64))
        "streamed": r.streamed,  # keys > 1024: sampled rows, keys streamed in blocks
        "rows_computed": r.rows,
    }


def _sigma_sweep(params: Params) -> dict:
    """The σ dial's curves for params.keys keys and where each scaling mode sits on them."""
    from sqrtdk_gui.core.attention import sigma_dial  # only this option needs it

    c = sigma_dial.curves(params.keys)
    lo, hi = c.window
    return {
        "keys": c.keys, "seeds": c.seeds, "rows": c.rows,
        "peak_sigma": c.peak_sigma, "responsive_window": [lo, hi],
        "modes": {s: (None if math.isnan(v) else v) for s, v in sigma_dial.mode_sigmas(params).items()},
        "params": {"d_k": params.d_k, "temperature": params.temperature, "q_std": params.q_std,
                   "k_std": params.k_std, "heads": params.heads, "gain": params.gain,
                   "alignment": params.alignment},
        "curves": c.rows_table(),
    }


def _format_sigma_sweep(data: dict) -> str:
    lines = [f"σ dial, n = {data['keys']} keys ({data['rows']} rows, {data['seeds']} seeds pooled): "
             "medians [10–90 %]",
             f"{'σ':>8} {'max p':>22} {'H / log n':>22} {'‖J‖_F':>22}"]
    for row in data["curves"]:
        cells = [f"{row[f'{q}_median']:.3f} [{row[f'{q}_p10']:.3f}–{row[f'{q}_p90']:.3f}]".rjust(22)
                 for q in ("max_weight", "entropy_ratio", "jacobian_fro")]
        lines.append(f"{row['sigma']:>8.3f} " + " ".join(cells))
    lo, hi = data["responsive_window"]
    lines.append(f"‖J‖_F peaks at σ ≈ {data['peak_sigma']:.2f}; at least half the peak for σ ≈ {lo:.2f} … {hi:.2f}")
    lines.append("modes here: " + ", ".join(f"{k} σ = {'n/a' if v is None else f'{v:.3g}'}"
                                          for k, v in data["modes"].items()))
    return "\n".join(lines)


_TABLE = [  # (key, header, format)
    ("d_k", "d_k", "{:>5d}"),
    ("logit_std", "σ", "{:>8.3f}"),
    ("theory_std", "σ theory", "{:>9.3f}"),
    ("max_weight_median", "max p med", "{:>10.4f}"),
    ("entropy_median", "H med", "{:>7.3f}"),
    ("jacobian_fro_median", "‖J‖ med", "{:>9.2e}"),
    ("jacobian_fro_mean", "‖J‖ mean", "{:>9.2e}"),
    ("saturated_fraction", "saturated", "{:>9.1%}"),
    ("grad_q_median", "‖∂L/∂q‖ med", "{:>12.2e}"),
    ("overflow_count", "overflow", "{:>8d}"),
]


def _format_table(rows: list[dict]) -> str:
    widths = [len(fmt.format(rows[0][key])) if rows[0][key] is not None else 8
              for key, _, fmt in _TABLE]
    head = " ".join(h.rjust(max(w, len(h))) for (_, h, _), w in zip(_TABLE, widths))
    lines = [head]
    for row in rows:
        cells = []
        for (key, h, fmt), w in zip(_TABLE, widths):
            text = "n/a" if row[key] is None else fmt.format(row[key])
            cells.append(text.rjust(max(w, len(h))))
        lines.append(" ".join(cells))
    return "\n".join(lines)


def _run_stats(args: argparse.Namespace) -> int:
    if sys.stdout is None:  # `stats >&-`: Python starts without a stdout
        return _fail("cannot write the output: standard output is closed")
    params = params_from_args(args)
    if args.sigma_sweep:
        data = _sigma_sweep(params)
        out = json.dumps(data, indent=2) if args.json else _format_sigma_sweep(data)
    elif args.sweep:
        rows = [stats_row(params.replace(d_k=d)) for d in SWEEP_DKS]
        out = json.dumps(rows, indent=2) if args.json else _format_table(rows)
    else:
        row = stats_row(params)
        out = json.dumps(row, indent=2) if args.json else "\n".join(
            f"{k:>22}: {v}" for k, v in row.items())
    try:
        print(out)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:  # e.g. `stats > /dev/full`
        _silence_stdout()
        return _fail(f"cannot write the output: {exc.strerror or exc}")
    return 0


def _size(text: str) -> tuple[int, int]:
    try:
        if not text.isascii():  # int() would also read other scripts' digits
            raise ValueError
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--size wants WIDTHxHEIGHT such as 1920x1080, got {text!r}")
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise argparse.ArgumentTypeError(f"--size={text} is out of range: 320x240 .. 7680x4320")
    return w, h


def _path(what: str, kind: str = "file"):
    """An argparse ``type=`` that refuses an empty file or folder name (it would mean "here")."""
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{what} wants a {kind} name, got {text!r}")
        return text

    return parse


class _VersionAction(argparse.Action):
    """``--version``: the lines Help → About shows (core.about), then exit 0."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from sqrtdk_gui.core.environment.about import version_lines

        print("\n".join(version_lines()))
        parser.exit(0)


def build_parser() -> OneLineParser:
    """The whole command line: window flags plus the headless subcommands."""
    parser = OneLineParser(
        prog="sqrtdk-gui",
        description="See why scaled dot-product attention divides its logits by √d_k.",
    )
    parser.add_argument("--version", action=_VersionAction,
                        help="print the version and the versions of Python, Qt, pyqtgraph and numpy "
                             "(what a bug report needs) and exit")
    add_param_flags(parser)
    parser.add_argument("--screenshot", metavar="PNG", type=_path("--screenshot"),
                        help="render the window offscreen to this image and exit")
    parser.add_argument("--size", type=_size, default=(1920, 1080), metavar="WxH",
                        help="window size for --screenshot (default 1920x1080)")
    parser.add_argument("--step", type=int_arg("step", 1, len(STEPS)), metavar="N",
                        help=f"open the lesson at step N (1..{len(STEPS)}); parameter flags apply on top")
    parser.add_argument("--scenario", choices=[s.key for s in SCENARIOS],
                        help="open a trap or follow-up of the lesson")
    parser.add_argument("--preset", metavar="FILE", type=_path("--preset"),
                        help="open with a saved preset (parameters, lesson step, theme)")
    parser.add_argument("--theme", choices=THEMES, help="light (projectors, default), dark or high-contrast (washed-out projectors)")
    parser.add_argument("--zoom", type=float_arg("zoom", *ZOOM_RANGE), metavar="X",
                        help=f"scale text and lines ({ZOOM_RANGE[0]}..{ZOOM_RANGE[1]})")
    parser.add_argument("--presentation", action="store_true",
                        help="start in presentation mode (full screen, large type)")
    parser.add_argument("--smoke-test", action="store_true",
                        help="build the window offscreen, check that it works, print one line "
                             "and exit (0 = passed)")
    parser.add_argument("--first-frame", action="store_true", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    stats = sub.add_parser("stats", help="print the model's numbers (no window)",
                           description="Print the attention statistics for one parameter set.")
    add_param_flags(stats)
    stats.add_argument("--json", action="store_true", help="one JSON object (a list with --sweep)")
    stats.add_argument("--sweep", action="store_true",
                       help="one row per d_k = 1, 2, 4, ..., 4096 (other flags fixed)")
    stats.add_argument("--sigma-sweep", action="store_true",
                       help="the σ dial: median max weight, entropy / log n and ‖J‖_F (10–90 %% "
                            "bands) against the logit spread σ for --keys N keys, and each "
                            "scaling mode's σ at the other flags")
    stats.set_defaults(func=_run_stats)
    train_cli.add_parser(sub)

    slides = sub.add_parser("export-slides", help="write one PNG per lesson step and scenario",
                            description="Render every lesson step, trap and follow-up to PNG files.")
    slides.add_argument("folder", metavar="DIR", type=_path("export-slides", "folder"), help="folder for the slides (created if missing)")
    slides.add_argument("--size", type=_size, default=(1920, 1080), metavar="WxH",
                        help="slide size (default 1920x1080)")
    slides.add_argument("--theme", choices=THEMES, default="light", help="light, dark or high-contrast")
    slides.add_argument("--zoom", type=float_arg("zoom", *ZOOM_RANGE), default=1.0, metavar="X",
                        help="scale text and lines")
    slides.add_argument("--presentation", action="store_true",
                        help="the type size of presentation mode for the slide height (e.g. "
                             "--size 1024x768 --presentation for a 4:3 projector)")
    slides.set_defaults(func=_run_export_slides)

    handout = sub.add_parser("export-handout", help="write the whole lesson as one HTML or Markdown file",
                             description="Write the lesson (steps, questions, answers, evidence and a "
                                         "picture of the panels for each) for students to take home. "
                                         "HTML embeds the pictures; Markdown writes them into FILE_files/.")
    handout.add_argument("file", metavar="FILE", help="the handout, ending in .html or .md")
    handout.set_defaults(func=_run_export_handout)
    return parser


IMAGE_SUFFIXES = ((".png", ".jpg", ".jpeg", ".bmp"), "use a .png, .jpg or .bmp file name")
HANDOUT_SUFFIXES = ((".html", ".htm", ".md"), "a handout file name ends in .html or .md")


def _run_export_handout(args: argparse.Namespace) -> int:
    problem = check_output_path(args.file, HANDOUT_SUFFIXES)
    if problem:
        return _fail(problem)
    from sqrtdk_gui.gui.launch.app import export_handout_headless  # Qt only for this command

    return export_handout_headless(args.file)


def _run_export_slides(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return _fail(f"cannot create {str(folder)!r}: {exc.strerror}")
    if not folder.is_dir():  # e.g. a symlink to a file
        return _fail(f"cannot write into {str(folder)!r}: not a folder")
    if not os.access(folder, os.W_OK):
        return _fail(f"cannot write into {str(folder)!r}: permission denied")
    from sqrtdk_gui.gui.launch.app import export_slides_headless  # Qt only for this command

    return export_slides_headless(str(folder), args.size, args.theme, args.zoom, args.presentation)


def _fail(message: str) -> int:
    """One line on stderr; exit status 2 (the user's input cannot be used)."""
    print(f"sqrtdk-gui: error: {message}", file=sys.stderr)
    return 2


def check_output_path(path: str, suffixes=IMAGE_SUFFIXES) -> str | None:
    """Why ``path`` cannot be written (as an image, by default), or None if it can.

    ``suffixes`` is (the file name endings allowed, what to say otherwise).
    """
    target = Path(path)
    allowed, hint = suffixes
    if target.suffix.lower() not in allowed:  # an empty name has no suffix either
        return f"cannot write {path!r}: {hint}"
    try:  # a folder, device or FIFO is refused; a symlink is written through
        real = Path(safe_io.resolve_target(path))
    except OSError as exc:
        return str(exc)
    if not os.access(real.parent, os.W_OK) or (real.exists() and not os.access(real, os.W_OK)):
        return f"cannot write {path!r}: permission denied"
    return None


def _run_window(args: argparse.Namespace) -> int:
    """The window, a headless screenshot, or the smoke test (Qt is imported only here)."""
    params = params_from_args(args)  # ValueError for combinations flags alone cannot reject
    if args.smoke_test or args.first_frame:
        from sqrtdk_gui.gui.launch import smoke

        return smoke.run_smoke(params) if args.smoke_test else smoke.run_first_frame(params)
    state = None
    if args.preset:
        try:
            state = presets.load(args.preset)
        except presets.PresetError as exc:
            return _fail(f"preset {args.preset!r}: {exc}")
    if args.screenshot is not None:
        problem = check_output_path(args.screenshot)
        if problem:
            return _fail(problem)
    else:
        problem = display_problem()  # Qt would abort (status 134) with a misleading message
        if problem:
            return _fail(problem)
    from sqrtdk_gui.gui.launch.app import Launch, run_window

    return run_window(Launch(params=given_params(args), preset=state, step=args.step,
                             scenario=args.scenario, theme=args.theme, zoom=args.zoom,
                             presentation=args.presentation, screenshot=args.screenshot,
                             size=args.size))


DEBUG_ENV = "SQRTDK_GUI_DEBUG"  # =1: let unexpected errors raise with their traceback


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit cannot fail a second time."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a file descriptor (embedded, tests)
        pass


def _io_message(exc: OSError) -> str:
    """One line for a failed read or write (safe_io's errors already are one sentence)."""
    if isinstance(exc, safe_io.IOFailure):
        return str(exc)
    where = f" ({exc.filename!r})" if exc.filename else ""
    return f"input/output failed: {exc.strerror or exc}{where}"


def main(argv: list[str] | None = None) -> int:
    if hasattr(signal, "SIGXFSZ"):
        # A file-size limit (ulimit -f) would kill the process mid-write; ignored, the write
        # fails with EFBIG instead, the old file stays intact and the user gets one line.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        func = getattr(args, "func", _run_window)
        try:
            status = func(args)
        except ValueError as exc:  # parameter combinations the flags alone cannot reject
            print(f"sqrtdk-gui: error: {exc}", file=sys.stderr)
            return 2
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk or closed pipe surfaces here, not after main()
        return status
    except KeyboardInterrupt:  # Ctrl+C: the usual shell status, no traceback
        return 130
    except BrokenPipeError:  # e.g. `sqrtdk-gui stats --sweep | head -1`
        _silence_stdout()
        return 141  # 128 + SIGPIPE, what a shell reports for a killed writer
    except OSError as exc:  # e.g. `stats > /dev/full`, a file name too long
        _silence_stdout()
        print(f"sqrtdk-gui: error: {_io_message(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a bug: one line for the user, not a traceback
        if os.environ.get(DEBUG_ENV) == "1":
            raise
        message = " ".join(str(exc).split())
        print(f"sqrtdk-gui: internal error: {type(exc).__name__}: {message} "
              f"(run with {DEBUG_ENV}=1 for the traceback)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
