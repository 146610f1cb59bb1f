"""Peak memory for the worst-case parameter sets the window's controls allow. Prints JSON.

    python benchmarks/memory.py [--json] [--only NAME ...]

Each case runs in a fresh process (offscreen) and reports that process's peak resident set
size (VmHWM in /proc/self/status), so one case's caches never count against another:

- ``stats_*``: ``sqrtdk-gui stats --json`` at the largest sizes (no window).
- ``window_*``: the real MainWindow at 1920 × 1080 with the given parameters; the model runs,
  the "versus d_k" sweeps are computed (``render_ready``), then a d_k and a temperature
  change are computed and painted (what a drag does at that size).
- ``screenshot_*``: ``sqrtdk-gui --screenshot`` at the largest sizes.

Targets: every window and screenshot case ≤ 300 MB, ``stats`` ≤ 500 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WINDOW_TARGET_MB = 300.0
STATS_TARGET_MB = 500.0

BIG = {"d_k": 4096, "keys": 1024, "queries": 8192}
LONG = {"d_k": 4096, "keys": 131072, "queries": 8192}
CASES = {
    "stats_8192q_1024k_dk4096": ("stats", BIG),
    "stats_8192q_131072k_dk4096": ("stats", LONG),
    "window_8192q_1024k_dk4096": ("window", BIG),
    "window_8192q_1024k_dk4096_qknorm_aligned_float8": (
        "window", dict(BIG, scaling="qk_norm", alignment=0.5, dtype="float8_e4m3fn", softmax="naive")),
    "window_8192q_131072k_dk4096": ("window", LONG),
    "screenshot_8192q_1024k_dk4096": ("screenshot", BIG),
}

WINDOW_SCRIPT = r"""
import json, os, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
import sqrtdk_gui
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.gui.launch.bootstrap import application
from sqrtdk_gui.gui.window.main_window import MainWindow
app = application()  # as the program makes it: with its memory settings (glibc's mmap threshold)
params = Params(**json.loads(sys.argv[1]))
w = MainWindow(params)
w.resize(1920, 1080)
w.show()
w.render_ready()
w.controller.set_params(d_k=params.d_k - 1)
app.processEvents()
w.controller.set_params(temperature=1.3)
app.processEvents()
w.render_ready()
with open("/proc/self/status") as f:
    peak = next(float(l.split()[1]) / 1024 for l in f if l.startswith("VmHWM"))
w.close()
print(json.dumps({"peak_rss_mb": round(peak, 1)}))
"""

# Runs a command in this process (runpy) and reports its peak RSS afterwards.
WRAP_SCRIPT = r"""
import json, os, runpy, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.argv = ["sqrtdk-gui"] + json.loads(sys.argv[1])
try:
    runpy.run_module("sqrtdk_gui", run_name="__main__")
except SystemExit as e:
    code = e.code or 0
else:
    code = 0
with open("/proc/self/status") as f:
    peak = next(float(l.split()[1]) / 1024 for l in f if l.startswith("VmHWM"))
print("\n" + json.dumps({"peak_rss_mb": round(peak, 1), "exit": code}))
"""


def _flags(params: dict) -> list[str]:
    names = {"d_k": "--dk"}
    out = []
    for key, value in params.items():
        out += [names.get(key, "--" + key.replace("_", "-")), str(value)]
    return out


def run_case(kind: str, params: dict) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        if kind == "window":
            cmd = [sys.executable, "-c", WINDOW_SCRIPT, json.dumps(params)]
        elif kind == "stats":
            cmd = [sys.executable, "-c", WRAP_SCRIPT, json.dumps(["stats", *_flags(params), "--json"])]
        else:
            png = os.path.join(tmp, "shot.png")
            cmd = [sys.executable, "-c", WRAP_SCRIPT, json.dumps(["--screenshot", png, *_flags(params)])]
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    seconds = time.perf_counter() - start
    try:
        report = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {"error": done.stderr[-2000:], "returncode": done.returncode}
    target = STATS_TARGET_MB if kind == "stats" else WINDOW_TARGET_MB
    report.update(seconds=round(seconds, 1), target_mb=target, ok=report["peak_rss_mb"] <= target)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON (the default)")
    parser.add_argument("--only", nargs="*", choices=sorted(CASES), help="run these cases only")
    args = parser.parse_args()
    results = {name: run_case(*CASES[name]) for name in (args.only or CASES)}
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
