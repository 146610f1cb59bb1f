"""Training-lab benchmark: the learning-rate sweep, its timing, depth and the gradients.

    python benchmarks/train_lab.py                  # JSON on stdout, seeds 0-4
    python benchmarks/train_lab.py --seeds 0        # quicker
    python benchmarks/train_lab.py --markdown       # also a readable summary on stderr
    python benchmarks/train_lab.py --sequential     # also time 27 single runs one by one
    python benchmarks/train_lab.py --window         # only the window's Sweep rates, clicked

Sections of the JSON:

* ``sweep_speed``: the full sweep (3 scalings x 9 SGD rates x 400 steps at d_k 256) for 1, 3
  and 5 seeds, in one thread and with the scalings side by side; each scaling's 9 rates and
  seeds train in one set of numpy calls.
* ``window_sweep`` (``--window``): the lab's *Sweep rates* in the program's own window
  (offscreen) with its default scalings (raw and ÷√d_k; QK-norm is a tick away), 1, 3 and 5
  seeds: from the click to the page showing the outcome.
* ``sgd_sweep`` / ``adam_sweep``: every scaling at every rate of the optimiser's grid and
  every seed (d_k 256, 400 steps, MSE): per scaling each seed's best rate and steps to 90 %,
  the rates that reach 90 % for every seed, and the median steps per rate.
* ``depth``: raw and ÷√d_k with 1-4 layers (SGD grid), the same summaries.
* ``gradients``: at SGD lr 5 (d_k 256), the gradient reaching W_q, W_k and W_v late in
  training relative to its start, with W_v fixed and learned.
* ``shared_rate``: why one shared rate misleads (raw vs ÷√d_k at SGD lr 0.2, seed 0).

Nothing is tuned per cell: every run uses TrainConfig's defaults except the swept fields.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sqrtdk_gui  # noqa: E402,F401  (first: pins BLAS to one thread before numpy loads)

# isort: split
import numpy as np  # noqa: E402

from sqrtdk_gui.core.attention.scaling import TRAINED_SCALINGS  # noqa: E402
from sqrtdk_gui.core.training.loop import TrainConfig, train  # noqa: E402
from sqrtdk_gui.core.training.lr_sweep import LR_GRID, default_workers, run_sweep  # noqa: E402

D_K = 256


def _scaling_summary(sw) -> dict:
    s90 = sw.steps_to_90()
    best = [b for b in sw.best_per_seed()]
    reached = [b[1] for b in best if b is not None]
    return {
        "best_per_seed": [None if b is None else {"lr": b[0], "steps_to_90": b[1]} for b in best],
        "best_steps_range": [min(reached), max(reached)] if reached else None,
        "best_lrs": sw.best_lr_values(),
        "working_counts": sw.working_counts(),
        "working_lrs_all_seeds": list(sw.working_lrs()),
        "width_decades": None if sw.width_decades() is None else round(sw.width_decades(), 2),
        "median_steps_per_rate": [None if np.isnan(s90[:, j]).any() else
                                  float(np.median(s90[:, j])) for j in range(len(sw.lrs))],
        "median_final_loss_per_rate": [float(f"{np.nanmedian(v):.3e}") if
                                       np.isfinite(v).any() else None
                                       for v in sw.final_loss().T],
    }


def _sweep(optimizer: str, seeds, scalings=TRAINED_SCALINGS, layers: int = 1, quick: bool = False,
           learn_v: bool = False) -> dict:
    config = TrainConfig(d_k=D_K, optimizer=optimizer, layers=layers, learn_v=learn_v)
    t0 = time.perf_counter()
    result = run_sweep(config, scalings, LR_GRID[optimizer], seeds, stop_at_90=quick)
    out = {"optimizer": optimizer, "layers": layers, "learn_v": learn_v, "lrs": list(result.lrs),
           "seeds": list(seeds), "wall_s": round(time.perf_counter() - t0, 1),
           "stopped_at_90": quick}
    for s, sw in result.scalings.items():
        out[s] = _scaling_summary(sw)
        if quick:
            out[s].pop("median_final_loss_per_rate")
    return out


def _sweep_speed(sizes=(1, 3, 5)) -> dict:
    """The lab's Sweep rates for 1, 3 and 5 seeds: in one thread and with the scalings side by
    side (``workers``: one per core, at most two), and each scaling alone in one thread."""
    config = TrainConfig(d_k=D_K, optimizer="sgd")
    per = {}
    for s in TRAINED_SCALINGS:
        t = time.perf_counter()
        run_sweep(config, (s,), LR_GRID["sgd"], (0,), workers=1)
        per[s] = round(time.perf_counter() - t, 2)
    sweeps = []
    for n in sizes:
        row = {"seeds": n}
        for workers in (1, default_workers()):
            t = time.perf_counter()
            run_sweep(config, TRAINED_SCALINGS, LR_GRID["sgd"], tuple(range(n)), workers=workers)
            row[f"workers_{workers}_s"] = round(time.perf_counter() - t, 2)
        row["speed_up"] = round(row["workers_1_s"] / row[f"workers_{default_workers()}_s"], 2)
        sweeps.append(row)
    return {"what": "3 scalings x 9 SGD rates x 400 steps, d_k 256", "workers": default_workers(),
            "per_scaling_one_seed_s": per, "sweeps": sweeps}


def _window_sweep(sizes=(1, 3, 5)) -> dict:
    """Sweep rates in the window, clicked as a teacher does: one fresh window per size."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.gui.window.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    rows = []
    for n in sizes:
        window = MainWindow()
        window.resize(1920, 1080)
        window.show()
        window.render_ready()
        page = window.lab_page
        window.tabs.setCurrentWidget(window._lab_holder)
        page.controls.sweep_button.click()
        page.controls.seeds_spin.setValue(n)
        app.processEvents()
        done: list[bool] = []
        page.run_finished.connect(done.append)
        start = time.perf_counter()
        window.run_lab()
        while not done:
            app.processEvents()
            time.sleep(0.002)
        rows.append({"seeds": n, "scalings": list(page.controls.scalings()),
                     "seconds": round(time.perf_counter() - start, 2), "cancelled": done[0]})
        window.close()
        app.processEvents()
    return {"what": "Sweep rates clicked in the window, its default scalings (9 SGD rates x 400 steps, d_k 256)",
            "sweeps": rows}


def _sequential() -> dict:
    t0 = time.perf_counter()
    for s in TRAINED_SCALINGS:
        for lr in LR_GRID["sgd"]:
            train(TrainConfig(d_k=D_K, scaling=s, lr=lr))
    return {"what": "the same 27 runs, one train() call each",
            "total_s": round(time.perf_counter() - t0, 2)}


def _gradients(seeds) -> list[dict]:
    out = []
    late = slice(-50, None)
    for learn_v in (False, True):
        for s in ("none", "sqrt_dk"):
            rows = []
            for seed in seeds:
                r = train(TrainConfig(d_k=D_K, scaling=s, lr=5.0, learn_v=learn_v, seed=seed))
                rows.append({
                    "seed": seed,
                    "final_loss": round(r.final_loss, 4),
                    "final_accuracy": round(r.final_accuracy, 3),
                    "stuck_fraction": round(r.stuck_fraction, 3),
                    **{f"{k}_late_over_start": float(f"{np.median(getattr(r, k)[late]) / getattr(r, k)[0]:.2e}")
                       for k in ("grad_q", "grad_k", "grad_v")},
                    **{f"{k}_late_mean_over_start": float(f"{np.mean(getattr(r, k)[late]) / getattr(r, k)[0]:.2e}")
                       for k in ("grad_q", "grad_v")},
                    "max_logit_final": float(f"{r.max_logit[-1]:.3g}"),
                })
            out.append({"scaling": s, "learn_v": learn_v, "lr": 5.0, "runs": rows})
    return out


def _shared_rate() -> list[dict]:
    out = []
    for s in ("none", "sqrt_dk"):
        r = train(TrainConfig(d_k=D_K, scaling=s, lr=0.2))
        out.append({"scaling": s, "lr": 0.2, "steps_to_90": r.steps_to_90})
    return out


def _markdown(out: dict) -> str:
    lines = []
    for key in ("sgd_sweep", "adam_sweep"):
        sw = out[key]
        lines.append(f"## {key}: lrs {sw['lrs']}, seeds {sw['seeds']} ({sw['wall_s']} s)")
        for s in TRAINED_SCALINGS:
            d = sw[s]
            lines.append(f"- {s}: best steps {d['best_steps_range']} at lr {d['best_lrs']}; "
                         f"works at {d['working_counts']} of {len(sw['lrs'])} rates; all seeds: "
                         f"{d['working_lrs_all_seeds']}; median steps {d['median_steps_per_rate']}")
    lines.append("## depth (SGD)")
    for sw in out["depth"]:
        for s in ("none", "sqrt_dk"):
            d = sw[s]
            lines.append(f"- layers {sw['layers']} {s}: best {d['best_steps_range']} at "
                         f"{d['best_lrs']}, works at {d['working_counts']} of 9")
    lines.append("## gradients at lr 5 (median of the last 50 steps / step 0)")
    for g in out["gradients"]:
        for r in g["runs"]:
            lines.append(f"- {g['scaling']} learn_v={g['learn_v']} seed {r['seed']}: "
                         f"W_q {r['grad_q_late_over_start']:.1e} W_k "
                         f"{r['grad_k_late_over_start']:.1e} W_v {r['grad_v_late_over_start']:.1e}"
                         f" (mean W_q {r['grad_q_late_mean_over_start']:.1e}); acc "
                         f"{r['final_accuracy']}, stuck {r['stuck_fraction']}")
    lines.append(f"sweep speed: {out['sweep_speed']}")
    if "sequential" in out:
        lines.append(f"sequential: {out['sequential']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--depth-seeds", type=int, nargs="+", default=None,
                    help="seeds of the depth sweep (default: --seeds)")
    ap.add_argument("--sequential", action="store_true",
                    help="also time the 27 runs of the sweep as single train() calls")
    ap.add_argument("--markdown", action="store_true", help="also print a summary to stderr")
    ap.add_argument("--speed-only", action="store_true",
                    help="only the sweep_speed section (the lab's waits), a few minutes")
    ap.add_argument("--window", action="store_true", help="only the window_sweep section")
    args = ap.parse_args(argv)
    if args.window:
        print(json.dumps({"window_sweep": _window_sweep()}, indent=1))
        return 0
    t0 = time.perf_counter()
    out = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "platform": platform.platform(), "numpy": np.__version__},
        "defaults": TrainConfig(d_k=D_K).to_dict(),
        "sweep_speed": _sweep_speed(),
    }
    if args.speed_only:
        print(json.dumps(out, indent=1))
        return 0
    if args.sequential:
        out["sequential"] = _sequential()
    out["sgd_sweep"] = _sweep("sgd", args.seeds)
    out["adam_sweep"] = _sweep("adam", args.seeds, quick=True)
    out["depth"] = [_sweep("sgd", args.depth_seeds or args.seeds, ("none", "sqrt_dk"), layers=n,
                           quick=True) for n in (1, 2, 3, 4)]
    out["gradients"] = _gradients(args.seeds)
    out["shared_rate"] = _shared_rate()
    out["total_s"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(out, indent=1))
    if args.markdown:
        print(_markdown(out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
