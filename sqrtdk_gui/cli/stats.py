"""``sqrtdk-gui stats``: the model's numbers without a window (Qt is never imported).

One row per computation with every ``Params`` field, the statistics and their summaries
(``--json``: one object; ``--sweep``: one row per power-of-two d_k; ``--sigma-sweep``: the
σ dial's curves).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from typing import TYPE_CHECKING, Any

from sqrtdk_gui.cli.args import add_param_flags, fail, params_from_args, silence_stdout
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.precision import type_info
from sqrtdk_gui.core.attention.scaling import scale_factor
from sqrtdk_gui.core.i18n import N_, _, format_number

if TYPE_CHECKING:
    from sqrtdk_gui.core.attention.result import Result

__all__ = ["SWEEP_DKS", "stats_row", "add_parser", "run_stats"]

SWEEP_DKS = tuple(2**i for i in range(13))  # 1 .. 4096


def stats_row(params: Params) -> dict[str, Any]:
    """The ``stats`` numbers of one computation (NaN becomes None: valid JSON)."""
    r = compute(params)
    row = {
        **{f.name: getattr(params, f.name) for f in dataclasses.fields(Params)},  # every parameter
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


def _precision_and_context(params: Params, r: Result) -> dict[str, Any]:
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


def _sigma_sweep(params: Params) -> dict[str, Any]:
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
                   "alignment": params.alignment},  # what the modes' σ depend on
        "curves": c.rows_table(),
    }


def _format_sigma_sweep(data: dict[str, Any]) -> str:
    lines = [_("σ dial, n = {keys} keys ({rows} rows, {seeds} seeds pooled): medians [10–90 %]").format(
                 keys=data["keys"], rows=data["rows"], seeds=data["seeds"]),
             f"{'σ':>8} {'max p':>22} {'H / log n':>22} {'‖J‖_F':>22}"]
    for row in data["curves"]:
        cells = [f"{row[f'{q}_median']:.3f} [{row[f'{q}_p10']:.3f}–{row[f'{q}_p90']:.3f}]".rjust(22)
                 for q in ("max_weight", "entropy_ratio", "jacobian_fro")]
        lines.append(f"{row['sigma']:>8.3f} " + " ".join(cells))
    lo, hi = data["responsive_window"]
    lines.append(_("‖J‖_F peaks at σ ≈ {peak}; at least half the peak for σ ≈ {lo} … {hi}").format(
        peak=format_number(data['peak_sigma'], ".2f"), lo=format_number(lo, ".2f"), hi=format_number(hi, ".2f")))
    modes = ", ".join(f"{k} σ = {_('n/a') if v is None else f'{v:.3g}'}" for k, v in data["modes"].items())
    lines.append(_("modes here: {modes}").format(modes=modes))
    return "\n".join(lines)


_TABLE = [  # (key, header (English, shown through _()), format)
    ("d_k", "d_k", "{:>5d}"),
    ("logit_std", "σ", "{:>8.3f}"),
    ("theory_std", N_("σ theory"), "{:>9.3f}"),
    ("max_weight_median", N_("max p med"), "{:>10.4f}"),
    ("entropy_median", N_("H med"), "{:>7.3f}"),
    ("jacobian_fro_median", N_("‖J‖ med"), "{:>9.2e}"),
    ("jacobian_fro_mean", N_("‖J‖ mean"), "{:>9.2e}"),
    ("saturated_fraction", N_("saturated"), "{:>9.1%}"),
    ("grad_q_median", N_("‖∂L/∂q‖ med"), "{:>12.2e}"),
    ("overflow_count", N_("overflow"), "{:>8d}"),
]


def _format_table(rows: list[dict[str, Any]]) -> str:
    heads = [_(head) for _key, head, _fmt in _TABLE]
    widths = [max(len(fmt.format(rows[0][key])) if rows[0][key] is not None else 8, len(head))
              for (key, _head, fmt), head in zip(_TABLE, heads)]
    lines = [" ".join(head.rjust(w) for head, w in zip(heads, widths))]
    missing = _("n/a")
    for row in rows:
        cells = [(missing if row[key] is None else fmt.format(row[key])).rjust(w)
                 for (key, _head, fmt), w in zip(_TABLE, widths)]
        lines.append(" ".join(cells))
    return "\n".join(lines)


def run_stats(args: argparse.Namespace) -> int:
    if sys.stdout is None:  # `stats >&-`: Python starts without a stdout
        return fail(_("cannot write the output: standard output is closed"))
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
        silence_stdout()
        return fail(_("cannot write the output: {reason}").format(reason=exc.strerror or exc))
    return 0


def add_parser(sub: Any) -> None:  # argparse's subparsers action
    """The ``stats`` subcommand."""
    stats = sub.add_parser("stats", help=_("print the model's numbers (no window)"),
                           description=_("Print the attention statistics for one parameter set."))
    add_param_flags(stats)
    stats.add_argument("--json", action="store_true", help=_("one JSON object (a list with --sweep)"))
    stats.add_argument("--sweep", action="store_true",
                       help=_("one row per d_k = 1, 2, 4, ..., 4096 (other flags fixed)"))
    stats.add_argument("--sigma-sweep", action="store_true",
                       help=_("the σ dial: median max weight, entropy / log n and ‖J‖_F (10–90 %% "
                              "bands) against the logit spread σ for --keys N keys, and each "
                              "scaling mode's σ at the other flags"))
    stats.set_defaults(func=run_stats)
