"""Closing the window while it computes at the largest sizes: how long until it is gone and
until the process has exited. Prints JSON.

    python benchmarks/close.py [--json] [--only NAME ...]

Each case is a fresh process (offscreen) that opens the real window (the application made as
the program makes it), lets it start its work and then closes it at a moment when work is
under way:

- ``sweep_*``: a worker inside a sweep point at d_k ≥ 1,024 (or the worker's warm-up at
  d_k 4,096), at the largest dense size and with QK-norm and alignment;
- ``edit_*``: the same, and a d_k edit right before closing (its compute pending);
- ``long_context_*``: 131,072 keys, streamed.

``close_s`` is ``window.close()`` in the GUI thread; ``exit_s`` the time from calling it to
the process's exit (the interpreter's shutdown waits for worker threads still inside a
numpy kernel). Target: ``exit_s`` ≤ 1.5 s for every case.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

TARGET_S = 1.5
BIG = {"d_k": 4096, "keys": 1024, "queries": 8192}
CASES = {
    "sweep_8192q_1024k_dk4096": (BIG, "sweep"),
    "sweep_qknorm_aligned": (dict(BIG, scaling="qk_norm", alignment=0.5), "sweep"),
    "edit_8192q_1024k_dk4096": (BIG, "edit"),
    "long_context_8192q_131072k_dk4096": ({"d_k": 4096, "keys": 131072, "queries": 8192}, "sweep"),
}

SCRIPT = r"""
import json, os, sys, threading, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
import sqrtdk_gui
from sqrtdk_gui.core.attention import sweep
from sqrtdk_gui.gui.window import controller
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.gui.launch.bootstrap import application
from sqrtdk_gui.gui.window.main_window import MainWindow

app = application()
params, moment = Params(**json.loads(sys.argv[1])), sys.argv[2]
busy = threading.Event()  # a worker thread is inside a large sweep point or a compute
def watch(module, name, large):
    real = getattr(module, name)
    def wrapped(p, *args, **kwargs):
        if threading.current_thread() is not threading.main_thread() and large(p):
            busy.set()
        return real(p, *args, **kwargs)
    setattr(module, name, wrapped)
watch(sweep, "_sweep_point", lambda p: p.d_k >= 1024)  # the slow end of the d_k grid
watch(controller, "compute", lambda p: True)  # the worker's warm-up at d_k 4,096
w = MainWindow(params)
w.resize(1920, 1080)
w.show()
deadline = time.monotonic() + 120
while not busy.is_set() and time.monotonic() < deadline:
    app.processEvents()
    busy.wait(0.02)
if moment == "edit":
    w.controller.set_params(d_k=params.d_k - 64)
    app.processEvents()
start = time.perf_counter()
w.close()
close_s = time.perf_counter() - start
print(json.dumps({"busy": busy.is_set(), "close_s": round(close_s, 3), "t": time.time()}), flush=True)
"""


def run_case(params: dict, moment: str) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, json.dumps(params), moment],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    proc.wait(timeout=600)
    ended = time.time()
    err = proc.stderr.read()
    if not line:
        return {"error": f"exit status {proc.returncode}: {err[-500:]}"}
    report = json.loads(line)
    exit_s = ended - report.pop("t") + report["close_s"]
    report.update(exit_s=round(exit_s, 3), status=proc.returncode, target_s=TARGET_S,
                  ok=report["busy"] and proc.returncode == 0 and exit_s <= TARGET_S)
    if err.strip():
        report["stderr"] = err.strip()[-300:]
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--only", nargs="+", choices=sorted(CASES), help="run these cases only")
    args = parser.parse_args()
    out = {name: run_case(*CASES[name]) for name in (args.only or CASES)}
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
