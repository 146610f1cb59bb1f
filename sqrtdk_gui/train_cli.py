"""``sqrtdk-gui train``: run the training lab headless and print a table or JSON.

stdlib + the training modules only, so it works without a display or Qt.
"""

from __future__ import annotations

import json
import sys

from sqrtdk_gui.core.training import (
    DEFAULT_LR,
    FLOAT_RANGES,
    INT_RANGES,
    LOSSES,
    OPTIMIZERS,
    SCALINGS,
    TrainConfig,
    TrainResult,
    train,
)
from sqrtdk_gui.core.validation import float_arg, int_arg
from sqrtdk_gui.progress import Progress, StopOnInterrupt

__all__ = ["add_parser", "run", "format_table"]

_PROG = "sqrtdk-gui"


def add_parser(subparsers) -> None:
    """Register the ``train`` subcommand on an argparse subparsers object."""
    p = subparsers.add_parser(
        "train",
        help="train one attention layer headless (raw vs scaled logits)",
        description="Train one attention layer on associative recall and report the "
        "loss curve, accuracy, steps to 90 %% accuracy and the share of stuck rows.",
    )
    ints, floats = INT_RANGES, FLOAT_RANGES

    def _int_in(name: str):
        return int_arg(name.replace("_", "-"), *ints[name])

    def _float_in(name: str):
        return float_arg(name.replace("_", "-"), *floats[name])

    p.add_argument("--dk", dest="d_k", type=_int_in("d_k"), default=64,
                   help="key/query width d_k (default 64)")
    p.add_argument("--d-model", type=_int_in("d_model"), default=64,
                   help="key/query input width (default 64)")
    p.add_argument("--n-keys", type=_int_in("n_keys"), default=16,
                   help="keys per example (default 16)")
    p.add_argument("--d-v", type=_int_in("d_v"), default=16,
                   help="value width (default 16)")
    p.add_argument("--batch", type=_int_in("batch"), default=64,
                   help="examples per step (default 64)")
    p.add_argument("--noise", type=_float_in("noise"), default=0.5,
                   help="std of the noise added to the query (default 0.5)")
    p.add_argument("--scaling", choices=SCALINGS, default="sqrt_dk",
                   help="logit scaling (default sqrt_dk)")
    p.add_argument("--optimizer", choices=OPTIMIZERS, default="sgd",
                   help="optimiser (default sgd)")
    p.add_argument("--lr", type=_float_in("lr"), default=None,
                   help="learning rate (default: sgd %g, adam %g)"
                   % (DEFAULT_LR["sgd"], DEFAULT_LR["adam"]))
    p.add_argument("--steps", type=_int_in("steps"), default=400,
                   help="training steps (default 400)")
    p.add_argument("--seed", type=_int_in("seed"), default=0,
                   help="seed for weights and data (default 0)")
    p.add_argument("--loss", choices=LOSSES, default="mse",
                   help="mse: through the attention weights; ce: on the logits (default mse)")
    p.add_argument("--gain", type=_float_in("gain"), default=10.0,
                   help="logit gain for qk_norm (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def format_table(result: TrainResult, rows: int = 10) -> str:
    """A short human-readable report: a few curve samples and the summary."""
    c = result.config
    lines = [
        f"d_k={c.d_k} scaling={c.scaling} optimizer={c.optimizer} lr={c.lr:g} "
        f"loss={c.loss} steps={c.steps} seed={c.seed}",
        f"{'step':>6} {'loss':>9} {'accuracy':>9} {'entropy':>8} {'saturated':>10} {'stuck':>6}",
    ]
    n = result.steps_done
    picks = sorted({round(i * (n - 1) / max(rows - 1, 1)) for i in range(rows)}) if n else []
    for i in picks:
        lines.append(
            f"{i + 1:>6} {result.loss[i]:>9.4f} {result.accuracy[i]:>9.3f} "
            f"{result.entropy[i]:>8.3f} {result.saturated[i]:>10.3f} {result.stuck[i]:>6.3f}"
        )
    s90 = result.steps_to_90
    lines += [
        f"final loss      {result.final_loss:.4f}   (mean of the last 20 steps)",
        f"final accuracy  {result.final_accuracy:.3f}",
        f"steps to 90 %   {s90 if s90 is not None else 'not reached'}",
        f"stuck rows      {result.stuck_fraction:.3f}   (saturated on a wrong key)",
        f"wall time       {result.wall_time:.2f} s",
    ]
    if result.diverged:
        lines.append(f"diverged after {n} steps (non-finite loss or gradient)")
    if result.cancelled:
        lines.append(f"cancelled after {n} steps")
    return "\n".join(lines)


def run(args) -> int:
    """Run the ``train`` subcommand; returns the exit status."""
    try:
        config = TrainConfig(
            d_k=args.d_k, d_model=args.d_model, n_keys=args.n_keys, d_v=args.d_v,
            batch=args.batch, noise=args.noise, scaling=args.scaling,
            optimizer=args.optimizer, lr=args.lr, steps=args.steps, seed=args.seed,
            loss=args.loss, gain=args.gain,
        )
    except ValueError as exc:
        print(f"{_PROG}: error: {exc}", file=sys.stderr)
        return 2
    # Progress on stderr (a bar on a terminal); the first Ctrl+C stops after the current step
    # and the partial result is printed as usual ("cancelled": true), then status 130.
    progress = Progress(config.steps, sys.stderr, label=f"{_PROG} train: ")
    try:
        with StopOnInterrupt() as stop:
            result = train(config, progress=progress.update, should_stop=stop.requested,
                           progress_every=1)
    except KeyboardInterrupt:  # a second Ctrl+C
        progress.finish()
        print(f"{_PROG}: interrupted", file=sys.stderr)
        return 130
    progress.finish()
    if args.json:
        print(json.dumps(result.summary(), allow_nan=False))
    else:
        print(format_table(result))
    if stop.interrupted:
        print(f"{_PROG}: interrupted after {result.steps_done:,} of {config.steps:,} steps; "
              "the partial result is above", file=sys.stderr)
        return 130
    return 0
