"""How long the window's event loop stalls while it exports the lesson. Prints JSON.

    python benchmarks/export_stalls.py [--export slides|handout|both] [--size 1920x1080]
                                       [--slide-size "1280 × 720"] [--keep DIR]

Opens the main window as the program does (offscreen, the sweep thread on), then runs
File → Export lesson slides and File → Export lesson handout through the window's own
commands, with the file dialogs answered. A 10 ms timer ticks meanwhile; the gap between
two ticks is how long the event loop could not run (a click, a repaint, the Cancel button
waited that long). Reported per export: ``longest_stall_ms`` (the longest gap), ``p99_gap_ms``,
``stalls_over_100ms`` (gaps above 100 ms: a noticeable freeze), ``stalled_s`` (their total)
and ``export_s`` (start to the status line's "Wrote …").

Each export runs in a fresh process (``--export both`` starts one per export), so neither
finds the caches the other filled. The same script measures any version of the program: run
it with ``PYTHONPATH`` set to another checkout to compare (a version whose export blocks
returns from the menu command only when it is done; its ticks show the same stalls).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

TICK_MS = 10


def _export(window, app, kind: str, folder: str, slide_size: str) -> dict:
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    QFileDialog.getExistingDirectory = staticmethod(lambda *a, **k: folder)
    QFileDialog.getSaveFileName = staticmethod(lambda *a, **k: (os.path.join(folder, "lesson.html"), ""))
    QInputDialog.getItem = staticmethod(lambda *a, **k: (slide_size, True))
    gaps: list[float] = []
    last = [time.perf_counter()]
    loop = QEventLoop()
    done_prefix = "Wrote the handout" if kind == "handout" else "Wrote "

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now
        if window.statusBar().currentMessage().startswith(done_prefix):
            loop.quit()

    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.timeout.connect(tick)
    window.statusBar().clearMessage()
    QTimer.singleShot(900_000, loop.quit)  # a hung export: reported by its export_s
    start = time.perf_counter()
    last[0] = start
    timer.start(TICK_MS)
    (window.exports.handout_dialog if kind == "handout" else window.export_slides_dialog)()
    loop.exec()  # an export that blocks has finished before this: the first tick quits
    elapsed = time.perf_counter() - start
    timer.stop()
    ordered = sorted(gaps)
    over = [g for g in gaps if g > 0.1]
    return {"longest_stall_ms": round(1e3 * ordered[-1], 1),
            "p99_gap_ms": round(1e3 * ordered[int(0.99 * (len(ordered) - 1))], 1),
            "stalls_over_100ms": len(over), "stalled_s": round(sum(over), 2),
            "export_s": round(elapsed, 2), "ticks": len(gaps)}


def run(kinds: list[str], size: tuple[int, int], slide_size: str, keep: str | None) -> dict:
    """The window as the program opens it, and each export of ``kinds`` from its menu."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import sqrtdk_gui
    from sqrtdk_gui.gui.launch.bootstrap import application

    app = application()
    from sqrtdk_gui.gui.window.main_window import MainWindow

    window = MainWindow()  # as the program opens it: the sweeps in their thread
    window.resize(*size)
    window.show()
    window.render_ready()
    report = {"version": sqrtdk_gui.__version__, "package": os.path.dirname(sqrtdk_gui.__file__),
              "window": f"{size[0]}x{size[1]}", "slide_size": slide_size, "tick_ms": TICK_MS,
              "loadavg_1min": round(os.getloadavg()[0], 2)}
    try:
        for kind in kinds:
            folder = os.path.join(keep, kind) if keep else tempfile.mkdtemp(prefix=f"sqrtdk-{kind}-")
            os.makedirs(folder, exist_ok=True)
            report[kind] = _export(window, app, kind, folder, slide_size)
    finally:
        window.close()
        window.deleteLater()
        app.processEvents()
    report["loadavg_1min_after"] = round(os.getloadavg()[0], 2)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--export", choices=("slides", "handout", "both"), default="both")
    parser.add_argument("--size", default="1920x1080", help="the window's size (default 1920x1080)")
    parser.add_argument("--slide-size", default="1920 × 1080", help='as the size menu offers it, e.g. "1280 × 720"')
    parser.add_argument("--keep", metavar="DIR", help="write the exports into DIR/slides, DIR/handout")
    args = parser.parse_args()
    if args.export == "both":  # one fresh process per export
        report: dict = {}
        for kind in ("slides", "handout"):
            argv = [sys.executable, __file__, "--export", kind, "--size", args.size, "--slide-size", args.slide_size]
            done = subprocess.run(argv + (["--keep", args.keep] if args.keep else []), check=True,
                                  capture_output=True, text=True)
            one = json.loads(done.stdout.strip().splitlines()[-1])
            report.update({k: v for k, v in one.items() if k not in report or k == kind})
            report[f"loadavg_1min_{kind}"] = one["loadavg_1min"]
        report.pop("loadavg_1min", None)
        report.pop("loadavg_1min_after", None)
        print(json.dumps(report))
        return 0
    w, h = (int(v) for v in args.size.lower().split("x"))
    print(json.dumps(run([args.export], (w, h), args.slide_size, args.keep)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
