"""Soak test: thousands of parameter changes through every control; RSS before and after.

    python benchmarks/soak.py [--changes 10000] [--warmup 1000] [--size 1600x900] [--json]

Drives the real MainWindow (offscreen, sweep worker thread on) through its widgets, the way
a teacher does: d_k slider and spin box, temperature slider and reset, raw / ÷√d_k switch,
the scaling drop-down, keys, seed and *New sample*, query row, heads, gain, alignment,
softmax variant and float type, each to a random value of its whole range (seeded, so every
run makes the same changes). After every change the event loop runs (the coalescing timer
computes, the panels take the new data and repaint) and ``Controller.flush()`` makes sure the
model ran; every ``--settle-every`` changes ``render_ready()`` also computes the "versus d_k"
sweeps, so those panels repaint too (the worker thread computes them on its own whenever the
sweep parameters rest for 120 ms).

Memory is the resident set size (VmRSS in /proc/self/status; VmHWM for the peak).
The model keeps bounded caches whose size depends on the *current* parameters (sampled pools:
48 MB; running sums per (seed, queries, keys): 2 sets, 32 MiB in all; 32 sweeps; the window
adds 8 MB of recent small results and Qt's pixmap cache), so
two snapshots with caches in them differ by whatever the last few parameter sets cached.
What counts as start, therefore: after a warm-up of ``--warmup`` changes with the same
generator (first computations, glyph caches, pyqtgraph's item pools, Qt's style caches
allocate legitimately), the model's three caches are emptied, the garbage collector runs and
glibc returns free heap pages (``malloc_trim``), once the sweep worker thread is idle; then
``rss_start_mb`` is read. ``rss_end_mb``
is read the same way after the measured changes and a final ``render_ready()``: a leak in
the window, the panels, the controller or the model shows up as growth, a full cache does
not. The same reading is taken every ``--checkpoint-every`` changes
(``rss_checkpoints_mb``); their least-squares slope, ``rss_trend_mb_per_1000_changes``, tells a
leak (steady growth) from allocator noise (glibc arenas and pyqtgraph's symbol atlas, which
grows to ~1000 symbols and is then rebuilt, move single readings by ±10 MB).
``python_objects_start`` / ``_end`` count the objects the garbage collector tracks. ``rss_start_cached_mb`` / ``rss_end_cached_mb`` are the readings just before emptying.
``rss_peak_mb`` is the peak of the whole process (VmHWM), ``rss_max_sampled_mb`` the largest
VmRSS during the measured phase (sampled every 100 changes). Targets: growth <= 5 MB,
peak RSS <= 300 MB. Qt warnings, Python warnings and exceptions raised inside slots are counted
(all should be 0).
``--max-keys`` limits the keys control (default 1024, the keys every pair is computed for;
up to 131 072 with ``--max-keys 131072``, where keys are streamed for a sample of rows).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
import warnings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sqrtdk_gui  # noqa: E402,F401  (before numpy: one BLAS thread, as in the app)

GROWTH_TARGET_MB = 5.0
RSS_TARGET_MB = 300.0  # the peak, for any parameters the controls allow


def _status_mb(field: str) -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0  # kB
    raise KeyError(field)


def rss_mb() -> float:
    return _status_mb("VmRSS")


def _release_caches(controller=None) -> float:
    """Empty the model's caches, collect garbage, give free heap back; the RSS afterwards."""
    import ctypes

    if controller is not None:
        # A sweep in progress holds large temporaries (with 1024 keys, tens of MB); a reading
        # taken meanwhile says nothing about leaks: wait for every worker pool's queue.
        from sqrtdk_gui.core.threads import drain

        drain()

    from sqrtdk_gui.core.attention import geometry, sampling
    from sqrtdk_gui.core.attention import sweep as sweeps

    sampling.clear_cache()
    geometry.clear_cache()
    sweeps.clear_cache()
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    return rss_mb()


def _slope(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of y over x (MB per change)."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def _log_uniform_int(rng: random.Random, lo: int, hi: int) -> int:
    return max(lo, min(hi, round(lo * (hi / lo) ** rng.random())))


class Changer:
    """One random edit of one control per call, through the widget's own API."""

    def __init__(self, window, seed: int, max_keys: int | None = None) -> None:
        from sqrtdk_gui.core.attention.params import FLOAT_RANGES, INT_RANGES
        from sqrtdk_gui.gui.window.controls import DK_MAX_POS, TEMP_MAX_POS, TEMP_MIN_POS

        c = window.controls
        self.rng = rng = random.Random(seed)
        keys_lo, keys_hi = INT_RANGES["keys"]
        keys_hi = min(keys_hi, max_keys or keys_hi)
        heads_lo, heads_hi = INT_RANGES["heads"]
        gain_lo, gain_hi = FLOAT_RANGES["gain"]
        self.window = window
        # name -> action; each control has the same chance
        self.actions = {
            "dk_slider": lambda: c.dk_slider.setValue(rng.randint(0, DK_MAX_POS)),
            "dk_spin": lambda: c.dk_spin.setValue(_log_uniform_int(rng, 1, 4096)),
            "temp_slider": lambda: c.temp_slider.setValue(rng.randint(TEMP_MIN_POS, TEMP_MAX_POS)),
            "temp_reset": lambda: c.temp_reset.click(),
            "raw_button": lambda: c.raw_button.click(),
            "scaled_button": lambda: c.scaled_button.click(),
            "scaling_combo": lambda: c.scaling_combo.setCurrentIndex(
                rng.randrange(c.scaling_combo.count())),
            "keys": lambda: c.keys_spin.setValue(_log_uniform_int(rng, keys_lo, keys_hi)),
            "seed": lambda: c.seed_spin.setValue(rng.randint(0, 10_000)),
            "new_sample": lambda: c.new_sample.click(),
            "row": lambda: c.row_spin.setValue(rng.randint(0, c.row_spin.maximum())),
            "heads": lambda: c.heads_spin.setValue(rng.randint(heads_lo, heads_hi)),
            "gain": lambda: c.gain_spin.setValue(round(_log_uniform(rng, gain_lo, gain_hi), 2)),
            "alignment": lambda: c.align_spin.setValue(round(rng.random(), 2)),
            "softmax": lambda: c.softmax_combo.setCurrentIndex(rng.randrange(2)),
            "dtype": lambda: c.dtype_combo.setCurrentIndex(rng.randrange(3)),
        }
        self.names = list(self.actions)
        self.counts = dict.fromkeys(self.names, 0)

    def __call__(self) -> str:
        name = self.rng.choice(self.names)
        self.actions[name]()
        self.counts[name] += 1
        return name


def _log_uniform(rng: random.Random, lo: float, hi: float) -> float:
    return lo * (hi / lo) ** rng.random()


def run(changes: int, warmup: int, size: tuple[int, int], settle_every: int, seed: int,
        max_keys: int | None = None, checkpoint_every: int = 1000) -> dict:
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.gui.launch.bootstrap import BENIGN_MESSAGES as _BENIGN
    from sqrtdk_gui.gui.launch.bootstrap import release_memory_promptly
    from sqrtdk_gui.gui.window.main_window import MainWindow

    release_memory_promptly()  # as the program does at start (bootstrap.application)
    app = QApplication.instance() or QApplication([])
    problems: list[str] = []

    def handler(kind, context, message):
        if kind != QtMsgType.QtDebugMsg and kind != QtMsgType.QtInfoMsg and message not in _BENIGN:
            problems.append(f"Qt: {message}")

    qInstallMessageHandler(handler)
    warnings.simplefilter("always")
    previous_showwarning = warnings.showwarning
    warnings.showwarning = lambda message, category, *rest: problems.append(
        f"{category.__name__}: {message}")
    previous_hook = sys.excepthook
    sys.excepthook = lambda kind, value, tb: problems.append(f"{kind.__name__}: {value}")

    window = MainWindow()
    window.resize(*size)
    window.show()
    window.render_ready()

    from paint_counter import PaintCounter  # beside this script

    counter = PaintCounter().watch_panels(window, window.summary)

    controller = window.controller

    checkpoints: list[tuple[int, float]] = []  # (changes done, RSS with caches emptied)

    def drive(changer: Changer, n: int, samples: list | None = None) -> None:
        for i in range(1, n + 1):
            changer()
            app.processEvents()
            controller.flush()
            app.processEvents()
            if i % settle_every == 0:
                window.render_ready()
            if samples is not None and i % 100 == 0:
                samples.append(rss_mb())
            if samples is not None and i % checkpoint_every == 0 and i < n:
                window.render_ready()
                checkpoints.append((i, _release_caches(controller)))

    drive(Changer(window, seed + 1, max_keys), warmup)
    window.render_ready()
    gc.collect()
    rss_start_cached = rss_mb()
    rss_start = _release_caches(controller)
    objects_start = len(gc.get_objects())
    checkpoints.append((0, rss_start))

    changer = Changer(window, seed, max_keys)
    computes, paints = controller.compute_count, counter.count
    samples: list[float] = []
    start = time.perf_counter()
    drive(changer, changes, samples)
    window.render_ready()
    seconds = time.perf_counter() - start
    gc.collect()
    rss_end_cached = rss_mb()
    rss_end = _release_caches(controller)
    objects_end = len(gc.get_objects())
    checkpoints.append((changes, rss_end))
    trend = _slope(checkpoints) * 1000.0
    computes = controller.compute_count - computes
    paints = counter.count - paints
    half = samples[len(samples) // 2] if samples else rss_end
    final_params = controller.params

    window.close()
    window.deleteLater()
    app.processEvents()
    sys.excepthook = previous_hook
    warnings.showwarning = previous_showwarning
    qInstallMessageHandler(None)
    growth = rss_end - rss_start
    return {
        "changes": changes,
        "warmup_changes": warmup,
        "computes": computes,
        "panel_paints": paints,
        "seconds": round(seconds, 1),
        "ms_per_change": round(1e3 * seconds / changes, 2),
        "rss_start_mb": round(rss_start, 1),
        "rss_end_mb": round(rss_end, 1),
        "rss_start_cached_mb": round(rss_start_cached, 1),
        "rss_mid_cached_mb": round(half, 1),
        "rss_end_cached_mb": round(rss_end_cached, 1),
        "rss_growth_mb": round(growth, 1),
        "rss_checkpoints_mb": [round(r, 1) for _, r in checkpoints],
        "rss_trend_mb_per_1000_changes": round(trend, 2),
        "python_objects_start": objects_start,
        "python_objects_end": objects_end,
        "rss_max_sampled_mb": round(max(samples + [rss_end]), 1),
        "rss_peak_mb": round(max([_status_mb("VmHWM"), rss_end_cached] + samples), 1),
        "meets_growth_target": growth <= GROWTH_TARGET_MB,
        "meets_growth_target_by_trend": trend * changes / 1000.0 <= GROWTH_TARGET_MB,
        "meets_rss_target": _status_mb("VmHWM") <= RSS_TARGET_MB,
        "problems": len(problems),
        "first_problems": problems[:5],
        "changes_per_control": changer.counts,
        "final_params": repr(final_params),
        "size": f"{size[0]}x{size[1]}",
        "max_keys": max_keys or 1024,
        "loadavg_1min": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON (the default)")
    parser.add_argument("--changes", type=int, default=10_000)
    parser.add_argument("--warmup", type=int, default=1_000)
    parser.add_argument("--settle-every", type=int, default=50,
                        help="compute the sweeps synchronously every N changes")
    parser.add_argument("--size", default="1600x900")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checkpoint-every", type=int, default=1000)
    parser.add_argument("--max-keys", type=int, default=1024,
                        help="upper end of the keys control (default 1024; the control reaches 131072)")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    result = run(args.changes, args.warmup, (w, h), args.settle_every, args.seed, args.max_keys,
                 args.checkpoint_every)
    print(json.dumps(result, indent=2))
    return 0 if result["problems"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
