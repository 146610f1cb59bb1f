"""``sqrtdk-gui train``: run the training lab headless and print a table or JSON.

``--lr-sweep`` trains every scaling (or the one ``--scaling`` names) at every rate of a log
grid (``--lrs``) and seed (``--seeds``), the fair comparison. stdlib + the training modules
only, so it works without a display or Qt.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sqrtdk_gui.cli.progress import Progress, StopOnInterrupt
from sqrtdk_gui.core.attention.scaling import TRAINED_SCALINGS
from sqrtdk_gui.core.i18n import N_, _, format_number, ngettext
from sqrtdk_gui.core.training.loop import (
    DEFAULT_LR,
    FLOAT_RANGES,
    INT_RANGES,
    LOSSES,
    OPTIMIZERS,
    TrainConfig,
    TrainResult,
    train,
)
from sqrtdk_gui.core.training.lr_sweep import (
    LR_GRID,
    SweepResult,
    check_grid,
    default_workers,
    run_sweep,
    sweep_threads,
)
from sqrtdk_gui.core.validation import float_arg, int_arg

__all__ = ["add_parser", "run", "format_table", "format_sweep"]

_PROG = "sqrtdk-gui"

# The table's columns: (header (English, shown through _()), width).
_COLUMNS = ((N_("step"), 6), (N_("loss"), 9), (N_("accuracy"), 9), (N_("entropy"), 8), (N_("saturated"), 10),
            (N_("stuck"), 6), ("max |z|", 9), ("|dW_q|", 8), ("|dW_k|", 8), ("|dW_v|", 8))


def add_parser(subparsers: Any) -> None:  # argparse's subparsers action
    """Register the ``train`` subcommand on an argparse subparsers object."""
    p = subparsers.add_parser(
        "train",
        help=_("train one attention layer headless (raw vs scaled logits)"),
        description=_("Train one attention layer on associative recall and report the "
                      "loss curve, accuracy, steps to 90 % accuracy and the share of stuck rows. With "
                      "--lr-sweep, train every scaling at every rate of a log grid and compare each at its "
                      "best rate."),
    )
    ints, floats = INT_RANGES, FLOAT_RANGES

    def _int_in(name: str) -> Callable[[str], int]:
        return int_arg(name.replace("_", "-"), *ints[name])

    def _float_in(name: str) -> Callable[[str], float]:
        return float_arg(name.replace("_", "-"), *floats[name])

    p.add_argument("--dk", dest="d_k", type=_int_in("d_k"), default=64,
                   help=_("key/query width d_k (default 64)"))
    p.add_argument("--d-model", type=_int_in("d_model"), default=64,
                   help=_("key/query input width (default 64)"))
    p.add_argument("--n-keys", type=_int_in("n_keys"), default=16,
                   help=_("keys per example (default 16)"))
    p.add_argument("--d-v", type=_int_in("d_v"), default=16,
                   help=_("value width (default 16)"))
    p.add_argument("--batch", type=_int_in("batch"), default=64,
                   help=_("examples per step (default 64)"))
    p.add_argument("--noise", type=_float_in("noise"), default=0.5,
                   help=_("std of the noise added to the query (default 0.5)"))
    p.add_argument("--scaling", choices=TRAINED_SCALINGS, default=None,
                   help=_("logit scaling (default sqrt_dk; with --lr-sweep: all three)"))
    p.add_argument("--optimizer", choices=OPTIMIZERS, default="sgd",
                   help=_("optimiser (default sgd)"))
    p.add_argument("--lr", type=_float_in("lr"), default=None,
                   help=_("learning rate (default: sgd {sgd}, adam {adam})").format(
                       sgd=format_number(DEFAULT_LR['sgd']), adam=format_number(DEFAULT_LR['adam'])))
    p.add_argument("--steps", type=_int_in("steps"), default=400,
                   help=_("training steps (default 400)"))
    p.add_argument("--seed", type=_int_in("seed"), default=0,
                   help=_("seed for weights and data (default 0)"))
    p.add_argument("--loss", choices=LOSSES, default="mse",
                   help=_("mse: through the attention weights; ce: on the logits (default mse)"))
    p.add_argument("--gain", type=_float_in("gain"), default=10.0,
                   help=_("logit gain for qk_norm (default 10)"))
    p.add_argument("--layers", type=_int_in("layers"), default=1,
                   help=_("attention layers, residual on the query (default 1)"))
    p.add_argument("--learn-v", action="store_true",
                   help=_("learn W_v too (default: W_v is the fixed identity)"))
    p.add_argument("--lr-sweep", action="store_true",
                   help=_("train at every rate of --lrs and seed of --seeds; report each "
                          "scaling at its best rate and the rates that reach 90 %%"))
    p.add_argument("--lrs", type=float_arg("lrs", *floats["lr"]), nargs="+", default=None,
                   metavar="LR",
                   help=_("rates of the sweep (default: sgd {sgd}; adam {adam})").format(
                       sgd=" ".join(f"{x:g}" for x in LR_GRID["sgd"]),
                       adam=" ".join(f"{x:g}" for x in LR_GRID["adam"])))
    p.add_argument("--seeds", type=int_arg("seeds", *ints["seed"]), nargs="+", default=None,
                   metavar="SEED",
                   help=_("seeds of the sweep (default: --seed)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(func=run)


def format_table(result: TrainResult, rows: int = 10) -> str:
    """A short human-readable report: a few curve samples and the summary."""
    c = result.config
    lines = [
        f"d_k={c.d_k} scaling={c.scaling} optimizer={c.optimizer} lr={c.lr:g} "
        f"loss={c.loss} steps={c.steps} seed={c.seed}"
        + (f" layers={c.layers}" if c.layers > 1 else "") + (" learn_v" if c.learn_v else ""),
        " ".join(_(head).rjust(width) for head, width in _COLUMNS),
    ]
    n = result.steps_done
    picks = sorted({round(i * (n - 1) / max(rows - 1, 1)) for i in range(rows)}) if n else []
    for i in picks:
        lines.append(
            f"{i + 1:>6} {result.loss[i]:>9.4f} {result.accuracy[i]:>9.3f} "
            f"{result.entropy[i]:>8.3f} {result.saturated[i]:>10.3f} {result.stuck[i]:>6.3f} "
            f"{result.max_logit[i]:>9.3g} {result.grad_q[i]:>8.1e} {result.grad_k[i]:>8.1e} "
            f"{result.grad_v[i]:>8.1e}"
        )
    s90 = result.steps_to_90
    summary = [
        (_("final loss"), _("{value}   (mean of the last 20 steps)").format(
            value=format_number(result.final_loss, ".4f"))),
        (_("final accuracy"), f"{result.final_accuracy:.3f}"),
        (_("steps to 90 %"), str(s90) if s90 is not None else _("not reached")),
        (_("stuck rows"), _("{value}   (saturated on a wrong key)").format(
            value=format_number(result.stuck_fraction, ".3f"))),
        (_("wall time"), f"{result.wall_time:.2f} s"),
    ]
    width = max(16, *(len(label) + 2 for label, _value in summary))
    lines += [label.ljust(width) + value for label, value in summary]
    if result.diverged:
        lines.append(ngettext("diverged after {n} step (non-finite loss or gradient)",
                              "diverged after {n} steps (non-finite loss or gradient)", n).format(n=n))
    if result.cancelled:
        lines.append(ngettext("cancelled after {n} step", "cancelled after {n} steps", n).format(n=n))
    return "\n".join(lines)


def format_sweep(result: SweepResult) -> str:
    """Steps to 90 % per rate and scaling (median over seeds), then the summaries."""
    c = result.config
    seeds = ",".join(str(s) for s in result.seeds)
    names = list(result.scalings)
    lines = [
        _("learning-rate sweep: {settings}").format(
            settings=f"d_k={c.d_k} optimizer={c.optimizer} loss={c.loss} "
                     f"layers={c.layers} learn_v={c.learn_v} steps={c.steps} seeds={seeds}"),
        _("steps to 90 % (median over seeds; - = some seed never reached 90 %)"),
        f"{'lr':>8} " + " ".join(f"{n:>9}" for n in names),
    ]
    s90 = {n: sw.steps_to_90() for n, sw in result.scalings.items()}
    for j, lr in enumerate(result.lrs):
        cells = []
        for n in names:
            col = s90[n][:, j]
            cells.append(f"{'-' if np.isnan(col).any() else f'{np.median(col):g}':>9}")
        lines.append(f"{lr:>8g} " + " ".join(cells))
    for n, sw in result.scalings.items():
        best = sw.best()
        w = sw.working_lrs()
        best_text = _("never reached 90 %") if best is None else \
            _("best lr {lr} ({steps} steps)").format(lr=format_number(best[0]), steps=format_number(best[1]))
        if w:
            range_text = ngettext("reaches 90 % at {count} of {n} rate ({lo} … {hi})",
                                  "reaches 90 % at {count} of {n} rates ({lo} … {hi})", len(sw.lrs))
        else:
            range_text = ngettext("reaches 90 % at {count} of {n} rate", "reaches 90 % at {count} of {n} rates",
                                  len(sw.lrs))
        range_text = range_text.format(count=len(w), n=len(sw.lrs), lo=format_number(w[0]) if w else "",
                                       hi=format_number(w[-1]) if w else "")
        line = f"{n:>8}: {best_text}; {range_text}"
        if not sw.complete:  # cut short by Ctrl+C: what its runs did until then
            line += " " + _("(cancelled after {done} of {total} steps)").format(done=f"{sw.steps_done:,}",
                                                                            total=f"{c.steps:,}")
        lines.append(line)
    if result.cancelled:
        lines.append(_("cancelled"))
    lines.append(_("wall time {seconds} s").format(seconds=format_number(result.wall_time, ".1f")))
    return "\n".join(lines)


def _error(message: str) -> int:
    print(_("{prog}: error: {message}").format(prog=_PROG, message=message), file=sys.stderr)
    return 2


def _run_sweep(args: argparse.Namespace, config: TrainConfig, scalings: Sequence[str], lrs: Sequence[float],
               seeds: Sequence[int], workers: int) -> int:
    """``--lr-sweep``: progress on stderr as for one run; the first Ctrl+C stops after the
    current step and prints the partial result, as ``train`` does (the scalings finished, and
    those cut short with the steps they did), then status 130."""
    progress = Progress(len(scalings) * config.steps, sys.stderr, label=f"{_PROG} train --lr-sweep: ")
    steps: dict[int, int] = {}
    lock = threading.Lock()  # scalings train in worker threads

    def report(index: int, done: int, _curves: dict[str, np.ndarray]) -> None:
        with lock:
            steps[index] = done
            progress.update(sum(steps.values()))

    try:
        with StopOnInterrupt() as stop:
            result = run_sweep(config, scalings, lrs, seeds, progress=report, should_stop=stop.requested,
                               progress_every=1, workers=workers, keep_partial=True)
    except KeyboardInterrupt:  # a second Ctrl+C
        progress.finish()
        print(_("{prog}: interrupted").format(prog=_PROG), file=sys.stderr)
        return 130
    progress.finish()
    if result.scalings or not stop.interrupted:
        print(json.dumps(result.summary(), allow_nan=False) if args.json else format_sweep(result))
    if stop.interrupted:
        if result.scalings:
            message = ngettext("{prog}: interrupted with {done} of {total} scaling finished; the partial result "
                               "is above",
                               "{prog}: interrupted with {done} of {total} scalings finished; the partial result "
                               "is above", len(scalings))
        else:
            message = ngettext("{prog}: interrupted after {done} of {total} scaling",
                               "{prog}: interrupted after {done} of {total} scalings", len(scalings))
        done = sum(sweep.complete for sweep in result.scalings.values())
        print(message.format(prog=_PROG, done=done, total=len(scalings)), file=sys.stderr)
        return 130
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the ``train`` subcommand; returns the exit status."""
    if sys.stdout is None:  # `train >&-`: nowhere to put the result, so do not train
        return _error(_("cannot write the output: standard output is closed"))
    sweep = args.lr_sweep
    if not sweep:
        for flag, value in (("--lrs", args.lrs), ("--seeds", args.seeds)):
            if value is not None:
                return _error(_("{flag} needs --lr-sweep").format(flag=flag))
    elif args.lr is not None:
        return _error(_("--lr picks one rate; with --lr-sweep give the rates with --lrs"))
    try:
        config = TrainConfig(
            d_k=args.d_k, d_model=args.d_model, n_keys=args.n_keys, d_v=args.d_v,
            batch=args.batch, noise=args.noise, scaling=args.scaling or "sqrt_dk",
            optimizer=args.optimizer, lr=args.lr, steps=args.steps, seed=args.seed,
            loss=args.loss, gain=args.gain, layers=args.layers, learn_v=args.learn_v,
        )
        scalings = (args.scaling,) if args.scaling else TRAINED_SCALINGS
        if sweep:  # refused here, before any work, if even one scaling at a time would not fit
            lrs, seeds = check_grid(config, args.lrs or LR_GRID[config.optimizer], args.seeds or [args.seed],
                                    scalings=len(scalings))
            workers = sweep_threads(config, len(lrs) * len(seeds), default_workers(), len(scalings))
    except ValueError as exc:
        return _error(str(exc))
    if sweep:
        return _run_sweep(args, config, scalings, lrs, seeds, workers)
    # Progress on stderr (a bar on a terminal); the first Ctrl+C stops after the current step
    # and the partial result is printed as usual ("cancelled": true), then status 130.
    progress = Progress(config.steps, sys.stderr, label=f"{_PROG} train: ")
    try:
        with StopOnInterrupt() as stop:
            result = train(config, progress=progress.update, should_stop=stop.requested,
                           progress_every=1)
    except KeyboardInterrupt:  # a second Ctrl+C
        progress.finish()
        print(_("{prog}: interrupted").format(prog=_PROG), file=sys.stderr)
        return 130
    progress.finish()
    if args.json:
        print(json.dumps(result.summary(), allow_nan=False))
    else:
        print(format_table(result))
    if stop.interrupted:
        print(ngettext("{prog}: interrupted after {done} of {total} step; the partial result is above",
                       "{prog}: interrupted after {done} of {total} steps; the partial result is above",
                       config.steps).format(prog=_PROG, done=f"{result.steps_done:,}", total=f"{config.steps:,}"),
              file=sys.stderr)
        return 130
    return 0
