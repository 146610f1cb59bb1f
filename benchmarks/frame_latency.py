"""Frame latency of the live window: value set -> model -> all panels repainted. Prints JSON.

    python benchmarks/frame_latency.py --json [--size 1920x1080] [--zoom 1.5]

Drives the real MainWindow (offscreen) through the whole d_k slider range up and down, and
then drags the temperature (which also restarts the sweeps in the worker thread). Each
frame is timed from ``setValue`` until the event loop has run the coalesced computation,
``setData`` on every panel and the repaint of everything that changed; an event filter
counts the paint events so ``painted_share`` proves each frame really reached the screen.
``--full-repaint`` instead forces a repaint of every widget (an upper bound).
``--zoom Z`` calls ``MainWindow.set_zoom(Z)`` first (presentation sizes: larger fonts and
thicker lines), when the window has that method. ``--page dial`` measures with the σ dial's
page in front instead of panels 1-4 (``painted_share`` counts the panels on screen).
``--presentation`` measures in presentation mode (the lecture's layout) at ``--size``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sqrtdk_gui  # noqa: E402,F401  (before numpy: one BLAS thread, as in the app)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(size: tuple[int, int], passes: int, full_repaint: bool = False,
        zoom: float | None = None, page: str | None = None, presentation: bool = False) -> dict:
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.gui.launch.bootstrap import install_message_filter
    from sqrtdk_gui.gui.window.controls import DK_MAX_POS, TEMP_MAX_POS, TEMP_MIN_POS
    from sqrtdk_gui.gui.window.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    install_message_filter()
    window = MainWindow()
    if zoom is not None:
        window.set_zoom(zoom)
    shown_zoom = getattr(getattr(window, "style_", None), "zoom", 1.0)  # after clamping
    window.resize(*size)
    window.show()
    if presentation:  # the lecture's layout: larger type, no menus, the window's own size
        window.presentation.enter(full_screen=False)
        shown_zoom = window.style_.zoom
    if page == "dial":
        window.show_panel_page("sigma_dial")
    window.render_ready()
    app.processEvents()
    on_screen = [p for p in window.panels.values() if p.isVisible()]

    from paint_counter import PaintCounter  # beside this script

    counter = PaintCounter().watch_panels(window)
    painted = []

    cpu_times: list[float] = []  # the UI thread's own CPU time: what a less busy VM would see

    def frames(slider, positions) -> list[float]:
        times = []
        for pos in positions:
            before = counter.count
            start, cpu_start = time.perf_counter(), time.thread_time()
            slider.setValue(pos)
            app.processEvents()  # coalescing timer: compute, setData, then the repaint
            if full_repaint:
                window.repaint()
            times.append(1e3 * (time.perf_counter() - start))
            cpu_times.append(1e3 * (time.thread_time() - cpu_start))
            painted.append(counter.count - before >= len(on_screen))
        return times

    sweep_up = list(range(0, DK_MAX_POS + 1))
    dk_positions = (sweep_up + sweep_up[::-1]) * passes
    dk_times = frames(window.controls.dk_slider, dk_positions)
    temps = list(range(TEMP_MIN_POS, TEMP_MAX_POS + 1, 2))
    temp_times = frames(window.controls.temp_slider, temps + temps[::-1])
    window.close()
    window.deleteLater()
    app.processEvents()
    all_times = dk_times + temp_times
    return {
        "size": f"{size[0]}x{size[1]}",
        "frames": len(all_times),
        "painted_share": round(sum(painted) / len(painted), 3),
        "full_repaint": full_repaint,
        "zoom": shown_zoom,
        "page": page or "panels",
        "p50_ms": round(statistics.median(all_times), 2),
        "p95_ms": round(_percentile(all_times, 0.95), 2),
        "ui_cpu_p50_ms": round(statistics.median(cpu_times), 2),
        "ui_cpu_p95_ms": round(_percentile(cpu_times, 0.95), 2),
        "dk_p50_ms": round(statistics.median(dk_times), 2),
        "dk_p95_ms": round(_percentile(dk_times, 0.95), 2),
        "temperature_p50_ms": round(statistics.median(temp_times), 2),
        "temperature_p95_ms": round(_percentile(temp_times, 0.95), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON (the default)")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--full-repaint", action="store_true",
                        help="force a repaint of every widget each frame (upper bound)")
    parser.add_argument("--zoom", type=float, default=None,
                        help="MainWindow.set_zoom(ZOOM) before measuring (e.g. 1.5)")
    parser.add_argument("--page", choices=["dial"], default=None,
                        help="measure with the σ dial's page in front")
    parser.add_argument("--presentation", action="store_true",
                        help="measure in presentation mode (the lecture's layout) at --size")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    if args.zoom is not None:
        from sqrtdk_gui.gui.window.main_window import MainWindow

        if not hasattr(MainWindow, "set_zoom"):
            parser.error("--zoom needs MainWindow.set_zoom, which this version lacks")
    print(json.dumps(run((w, h), args.passes, args.full_repaint, args.zoom, args.page,
                         args.presentation), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
