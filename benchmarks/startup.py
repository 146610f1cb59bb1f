"""Start-up time: process start -> first painted frame of the main window. Prints JSON.

    python benchmarks/startup.py [--runs 5] [--json]

Each run is a fresh interpreter (``sys.executable``, so the installed package of this
environment), offscreen. The clock starts when the kernel created the child process: the
driver reads the process start time from ``/proc/self/stat`` (field 22, in clock ticks since
boot) and compares it with ``CLOCK_BOOTTIME``; so interpreter start-up, ``site`` and every
import are included. It stops when the first Paint event of a widget of the main window has
been delivered and Qt's paint pass of that window is over (a zero-delay timer armed from an
event filter on the Paint event; the same method as ``sqrtdk-gui --first-frame``).

Two measurements, each the median of ``--runs`` runs after one discarded warm-up run (which
fills the OS file cache and writes .pyc files):

* ``first_frame_s``: the benchmark's own driver (below), which also reports where the time
  goes (``phases_s``: interpreter ready, imports, QApplication, MainWindow(), first frame).
* ``cli_first_frame_s``: the real entry point, ``python -m sqrtdk_gui --first-frame`` (argument
  parsing and all), when this version of the program has that hidden flag.

``wall_to_exit_s`` is timed by this parent process from spawning the child to its exit
(includes closing the window and interpreter shutdown), as a cross-check of the clock;
``cpu_to_exit_s`` is the child's user + system CPU time over the same span, which a busy
machine inflates less than wall time. ``loadavg_1min`` says how busy the machine was.
Target: ``first_frame_s`` <= 0.6 s on a 2-core machine (the bundle: <= 1 s, ``bundle.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

TARGET_S = 0.6

# Runs in the child. Only the standard library before the first mark, so that the marks
# show what the program's own imports cost.
DRIVER = r'''
import os, sys, time
def age():
    with open("/proc/self/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    return time.clock_gettime(time.CLOCK_BOOTTIME) - int(fields[19]) / os.sysconf("SC_CLK_TCK")
marks = {"interpreter": age()}
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
import sqrtdk_gui  # noqa: F401  (pins BLAS threads before numpy, as the program does)
from PySide6.QtWidgets import QApplication, QWidget
from PySide6.QtCore import QEvent, QObject, QTimer
marks["import_qt"] = age()
import pyqtgraph  # noqa: F401
marks["import_pyqtgraph"] = age()
from sqrtdk_gui.gui.window.main_window import MainWindow
marks["import_program"] = age()
app = QApplication([sys.argv[0]])
from sqrtdk_gui.gui.launch.bootstrap import install_message_filter
install_message_filter()
marks["qapplication"] = age()
window = MainWindow()
marks["main_window"] = age()
state = {}
class Watcher(QObject):
    def eventFilter(self, obj, event):
        if ("painted" not in state and event.type() == QEvent.Type.Paint
                and isinstance(obj, QWidget) and obj.window() is window):
            state["painted"] = True
            QTimer.singleShot(0, lambda: (state.__setitem__("age", age()), app.quit()))
        return False
watcher = Watcher()
app.installEventFilter(watcher)
QTimer.singleShot(30000, app.quit)
window.show()
app.exec()
app.removeEventFilter(watcher)
marks["first_frame"] = state.get("age", float("nan"))
window.close()
window.deleteLater()
app.processEvents()
print("MARKS " + " ".join(f"{k}={v:.4f}" for k, v in marks.items()), flush=True)
'''


def _env() -> dict:
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _driver_run() -> tuple[dict, float, float]:
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", DRIVER], capture_output=True, text=True,
                          env=_env(), timeout=120)
    wall = time.perf_counter() - start
    cpu = _children_cpu() - cpu
    line = next((l for l in done.stdout.splitlines() if l.startswith("MARKS ")), None)
    if done.returncode != 0 or line is None:
        raise SystemExit(f"startup driver failed (status {done.returncode}): {done.stderr.strip()}")
    marks = {k: float(v) for k, v in (item.split("=") for item in line.split()[1:])}
    return marks, wall, cpu


def _has_first_frame_flag() -> bool:
    probe = ("import sys; from sqrtdk_gui.cli.main import build_parser; "
             "sys.exit(0 if '--first-frame' in build_parser()._option_string_actions else 1)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=_env(), timeout=60)
    return done.returncode == 0


def _cli_run() -> float:
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "--first-frame"],
                          capture_output=True, text=True, env=_env(), timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"--first-frame failed (status {done.returncode}): {done.stderr.strip()}")
    return float(done.stdout.split()[-2])  # "first frame 0.812 s"


def run(runs: int) -> dict:
    _driver_run()  # warm-up: file cache and .pyc files
    marks, walls, cpus = [], [], []
    for _ in range(runs):
        m, wall, cpu = _driver_run()
        marks.append(m)
        walls.append(wall)
        cpus.append(cpu)
    first = [m["first_frame"] for m in marks]
    order = list(marks[0])
    # Median duration of each phase (mark minus the previous mark), in start-up order.
    phases = {}
    for prev, name in zip([None] + order[:-1], order):
        phases[name] = round(statistics.median(
            m[name] - (m[prev] if prev else 0.0) for m in marks), 3)
    out = {
        "first_frame_s": round(statistics.median(first), 3),
        "first_frame_runs_s": [round(v, 3) for v in first],
        "target_s": TARGET_S,
        "meets_target": statistics.median(first) <= TARGET_S,
        "phases_s": phases,
        "wall_to_exit_s": round(statistics.median(walls), 3),
        "cpu_to_exit_s": round(statistics.median(cpus), 3),
        "clock": "child: now(CLOCK_BOOTTIME) - start time from /proc/self/stat",
        "runs": runs,
        "platform": "offscreen",
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "loadavg_1min": round(os.getloadavg()[0], 2),
    }
    if _has_first_frame_flag():
        _cli_run()
        cli = [_cli_run() for _ in range(runs)]
        out["cli_first_frame_s"] = round(statistics.median(cli), 3)
        out["cli_first_frame_runs_s"] = [round(v, 3) for v in cli]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON (the default)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not os.path.exists("/proc/self/stat"):
        print(json.dumps({"error": "needs Linux /proc for the process start time"}))
        return 1
    print(json.dumps(run(args.runs), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
