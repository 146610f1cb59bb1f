"""The first visit of every lesson page, as a teacher steps through the lesson. Prints JSON.

    python benchmarks/lesson_pages.py [--size 1920x1080] [--presentation]

One window (offscreen, the program's own, its caches empty as at start), every step then
every trap and follow-up in the clicker's order, each visited once as Page Down does (without
the step's d_k animation), with ``--dwell`` seconds on each page as a teacher talks (the next
page's table is built meanwhile). Per page:

* ``shown_ms``: from the command to the page drawn with its own numbers: the lesson text with
  its quoted figures, the model's result for the page's parameters, the window repainted (the
  events the command posted processed, its paint among them).
* ``curves_ms``: from the command until the page's "versus d_k" curves and σ dial are there
  too (stored for every page, so normally the same frame; computed in the worker otherwise).
* ``table_ms``: until a trap's or follow-up's evidence table is in the pane (built in a
  worker when not at hand; the clicker's next page has it built while this one is on).

Target on a 2-core machine: every page shown in ≤ 100 ms.
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

TARGET_MS = 100.0
CURVES_TIMEOUT_S = 60.0
MEASURING = "Measuring the table"  # the pane's note while a table is being built


def _wait(app, done, start: float) -> float:
    while not done() and time.perf_counter() - start < CURVES_TIMEOUT_S:
        app.processEvents()
        time.sleep(0.001)
    return time.perf_counter() - start


def run(size: tuple[int, int], presentation: bool, dwell: float) -> dict:
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
    from sqrtdk_gui.gui.launch.bootstrap import install_message_filter
    from sqrtdk_gui.gui.window.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    install_message_filter()
    window = MainWindow()
    window.resize(*size)
    window.show()
    if presentation:
        window.presentation.enter(full_screen=False)
    window.render_ready()
    app.processEvents()
    controller, lesson = window.controller, window.lesson
    def advance() -> None:  # Page Down, past the step's question (revealed at once)
        if not lesson.answer_shown:
            lesson.reveal(animate=False)
        lesson.advance()

    pages = [(f"step {s.number}", advance) for s in STEPS] + [(s.key, advance) for s in SCENARIOS]
    rows = []
    for name, visit in pages:
        start = time.perf_counter()
        visit()
        controller.flush()  # the zero-delay recomputation, as the event loop runs it
        app.processEvents()  # layout and the window's paint
        shown = time.perf_counter() - start
        key = controller.params.replace(d_k=1)
        curves = _wait(app, lambda key=key: controller.sweeps_for == key and controller.dial is not None
                       and controller.dial.keys == key.keys, start)
        table = _wait(app, lambda: MEASURING not in window.lesson_pane.text.toPlainText(), start)
        rows.append({"page": name, "shown_ms": round(1e3 * shown, 1), "curves_ms": round(1e3 * curves, 1),
                     "table_ms": round(1e3 * table, 1)})
        _wait(app, lambda: False, time.perf_counter() - CURVES_TIMEOUT_S + dwell)  # the teacher talks
    window.close()
    app.processEvents()
    shown_all = [r["shown_ms"] for r in rows]
    curves_all = [r["curves_ms"] for r in rows]
    return {
        "size": f"{size[0]}x{size[1]}",
        "presentation": presentation,
        "pages": len(rows),
        "shown_max_ms": max(shown_all),
        "shown_median_ms": statistics.median(shown_all),
        "curves_max_ms": max(curves_all),
        "table_max_ms": max(r["table_ms"] for r in rows),
        "dwell_s": dwell,
        "target_ms": TARGET_MS,
        "slowest": max(rows, key=lambda r: r["shown_ms"])["page"],
        "per_page": rows,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--presentation", action="store_true", help="in presentation mode at --size")
    parser.add_argument("--dwell", type=float, default=2.0, help="seconds on each page (default 2)")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    print(json.dumps(run((w, h), args.presentation, args.dwell), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
