"""Training-lab benchmark: wall time per run and the raw-vs-scaled story table.

    python benchmarks/train_lab.py                 # JSON on stdout (seed 0)
    python benchmarks/train_lab.py --seeds 0 1 2   # the same over three seeds
    python benchmarks/train_lab.py --markdown      # also a markdown table on stderr

Every run uses the library defaults (TrainConfig()) except the swept fields; nothing here
is tuned per cell. The learning rate is the per-optimiser default for every scaling. The
"sgd_lr_range" section (first seed only) repeats raw vs ÷√d_k at three SGD rates.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqrtdk_gui.core.training import SCALINGS, TrainConfig, train  # noqa: E402

D_KS = (4, 16, 64, 256, 1024)
OPTIMIZERS = ("sgd", "adam")


def _cells() -> list[dict]:
    cells = [
        {"d_k": d_k, "scaling": s, "optimizer": o, "loss": "mse"}
        for d_k in D_KS
        for o in OPTIMIZERS
        for s in SCALINGS
    ]
    cells += [{"d_k": 256, "scaling": s, "optimizer": o, "loss": "ce"}
              for o in OPTIMIZERS for s in SCALINGS]
    return cells


def _run_cell(cell: dict, seeds: list[int], steps: int) -> dict:
    runs = []
    for seed in seeds:
        r = train(TrainConfig(steps=steps, seed=seed, **cell))
        runs.append({
            "seed": seed,
            "final_loss": round(r.final_loss, 5),
            "final_accuracy": round(r.final_accuracy, 4),
            "steps_to_90": r.steps_to_90,
            "stuck_fraction": round(r.stuck_fraction, 4),
            "saturated_fraction": round(r.saturated_fraction, 4),
            "init_stuck": round(float(r.stuck[0]), 4),
            "init_saturated": round(float(r.saturated[0]), 4),
            "init_grad_norm": float(f"{r.grad_norm[0]:.3e}"),
            "diverged": r.diverged,
            "wall_s": round(r.wall_time, 3),
        })
    s90 = [x["steps_to_90"] for x in runs]
    reached = [s for s in s90 if s is not None]
    return {
        **cell,
        "lr": TrainConfig(**cell).lr,
        "final_accuracy": round(statistics.fmean(x["final_accuracy"] for x in runs), 4),
        "final_loss": round(statistics.fmean(x["final_loss"] for x in runs), 5),
        "stuck_fraction": round(statistics.fmean(x["stuck_fraction"] for x in runs), 4),
        "init_stuck": round(statistics.fmean(x["init_stuck"] for x in runs), 4),
        "init_saturated": round(statistics.fmean(x["init_saturated"] for x in runs), 4),
        "steps_to_90": s90,
        "reached_90": f"{len(reached)}/{len(runs)}",
        "wall_s": round(statistics.fmean(x["wall_s"] for x in runs), 3),
        "runs": runs,
    }


def _lr_range(seed: int, steps: int) -> list[dict]:
    """Extra: is the raw layer's usable SGD rate range narrower? (÷√d_k works for 0.05..5.)"""
    out = []
    for d_k in (64, 1024):
        for lr in (0.05, 0.5, 5.0):
            for s in ("none", "sqrt_dk"):
                r = train(TrainConfig(d_k=d_k, scaling=s, optimizer="sgd", lr=lr, steps=steps,
                                      seed=seed))
                out.append({"d_k": d_k, "lr": lr, "scaling": s,
                            "final_accuracy": round(r.final_accuracy, 4),
                            "steps_to_90": r.steps_to_90,
                            "stuck_fraction": round(r.stuck_fraction, 4)})
    return out


def _speed(repeats: int) -> list[dict]:
    out = []
    for s in SCALINGS:
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            train(TrainConfig(d_k=256, batch=64, n_keys=16, steps=400, scaling=s))
            times.append(time.perf_counter() - t0)
        out.append({"scaling": s, "d_k": 256, "steps": 400, "batch": 64, "n_keys": 16,
                    "median_s": round(statistics.median(times), 3),
                    "all_s": [round(t, 3) for t in times]})
    return out


def _markdown(rows: list[dict]) -> str:
    head = ("| loss | d_k | opt | scaling | final acc | steps to 90 | reached | "
            "stuck (init→final) | s/run |")
    lines = [head, "|" + "---|" * 9]
    for r in rows:
        s90 = ",".join("—" if s is None else str(s) for s in r["steps_to_90"])
        lines.append(
            f"| {r['loss']} | {r['d_k']} | {r['optimizer']} {r['lr']:g} | {r['scaling']} | "
            f"{r['final_accuracy']:.3f} | {s90} | {r['reached_90']} | "
            f"{r['init_stuck']:.2f}→{r['stuck_fraction']:.3f} | {r['wall_s']:.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--speed-repeats", type=int, default=3)
    ap.add_argument("--markdown", action="store_true", help="also print a table to stderr")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    speed = _speed(args.speed_repeats)
    rows = [_run_cell(c, args.seeds, args.steps) for c in _cells()]
    out = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "platform": platform.platform()},
        "defaults": TrainConfig().to_dict(),
        "speed": speed,
        "table": rows,
        "sgd_lr_range": _lr_range(args.seeds[0], args.steps),
        "total_s": round(time.perf_counter() - t0, 1),
    }
    print(json.dumps(out, indent=1))
    if args.markdown:
        print(_markdown(rows), file=sys.stderr)
        for r in out["sgd_lr_range"]:
            print(f"lr-range d_k={r['d_k']} lr={r['lr']:g} {r['scaling']}: "
                  f"acc {r['final_accuracy']:.3f}, steps to 90 {r['steps_to_90']}, "
                  f"stuck {r['stuck_fraction']:.3f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
