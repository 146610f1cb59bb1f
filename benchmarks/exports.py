"""How long the exports take from the command line, as a teacher runs them. Prints JSON.

    python benchmarks/exports.py [--runs 3] [--size 1920x1080]

Each run is a fresh process of the installed program (``sys.executable -m sqrtdk_gui``,
offscreen): ``export-slides DIR --size WxH`` (every lesson slide), the same as one PDF
(``export-slides slides.pdf``), ``export-handout lesson.html`` and ``lesson.pdf``, and the
concept test as a PDF, step 1's sweep as an animated GIF and as an APNG (1024×768, 8 s,
``export-animation``). The files' sizes are reported too. Reported per export: the median and
every run's wall time from spawning to exit, the peak resident memory of the process
(``wait4``) and the median as a multiple of one 1024×768 screenshot's process in the same run
(``x_screenshot``: start-up and one frame, the baseline). Targets on a 2-core machine:
slides ≤ 8 s, handout ≤ 10 s, animation ≤ 15 s (and ≤ 5 MB).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TARGETS_S = {"screenshot": 3.0, "slides": 8.0, "slides_pdf": 10.0, "handout": 10.0, "handout_pdf": 12.0,
             "concept_test_pdf": 3.0, "animation_gif": 15.0, "animation_apng": 15.0}


def _timed(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one process running ``args``."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: no limit on what it may write
        start = time.perf_counter()
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            text = err.read().decode(errors="replace")
            raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {text.strip()[-400:]}")
    return wall, usage.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--size", default="1920x1080", help="the slides' size (default 1920x1080)")
    args = parser.parse_args()
    program = [sys.executable, "-m", "sqrtdk_gui"]
    out: dict[str, object] = {"runs": args.runs, "slide_size": args.size, "cpus": os.cpu_count(),
                              "loadavg_1min": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory() as tmp:
        files = {"slides_pdf": os.path.join(tmp, "slides.pdf"), "handout_pdf": os.path.join(tmp, "lesson.pdf"),
                 "concept_test_pdf": os.path.join(tmp, "test.pdf"), "animation_gif": os.path.join(tmp, "sweep.gif"),
                 "animation_apng": os.path.join(tmp, "sweep.png")}
        commands = {"screenshot": program + ["--screenshot", os.path.join(tmp, "shot.png"), "--size", "1024x768"],
                    "slides": program + ["export-slides", os.path.join(tmp, "slides"), "--size", args.size],
                    "slides_pdf": program + ["export-slides", files["slides_pdf"], "--size", args.size],
                    "handout": program + ["export-handout", os.path.join(tmp, "lesson.html")],
                    "handout_pdf": program + ["export-handout", files["handout_pdf"]],
                    "concept_test_pdf": program + ["export-concept-test", files["concept_test_pdf"]],
                    "animation_gif": program + ["export-animation", files["animation_gif"]],
                    "animation_apng": program + ["export-animation", files["animation_apng"]]}
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(args.runs):  # alternating, so a drift of the machine's speed hits both
            for name, command in commands.items():
                results[name].append(_timed(command))
        sizes = {name: round(os.path.getsize(path) / 1e6, 2) for name, path in files.items()}
    baseline = statistics.median(w for w, _ in results["screenshot"])
    for name, runs in results.items():
        walls = [w for w, _ in runs]
        out[name] = {"median_s": round(statistics.median(walls), 2), "runs_s": [round(w, 2) for w in walls],
                     "x_screenshot": round(statistics.median(walls) / baseline, 2),
                     "peak_rss_mb": round(max(m for _, m in runs)), "target_s": TARGETS_S[name],
                     **({"file_mb": sizes[name]} if name in sizes else {})}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
