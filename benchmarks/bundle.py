"""Size and start-up time of the standalone bundle. Prints JSON with --json.

    python benchmarks/bundle.py --json [--build] [--runs 5]

- ``onedir_mb``: bytes of the files in ``dist/sqrtdk-gui/`` (symlinks once), in MB (10^6).
- ``archive_mb``: the compressed archive ``packaging/build.py`` made (``archive`` names it).
- ``first_frame_s``: median over ``--runs`` starts of the built executable with the hidden
  ``--first-frame`` flag (offscreen, after one warm-up start so the files are in the page
  cache): from just before the process is spawned until it reports, on stdout, that the
  main window's first frame has been painted. ``first_frame_self_s`` is the same interval
  as the process measures it itself (from its start time in /proc, 10 ms resolution).

Budgets: onedir ≤ 160 MB, archive ≤ 60 MB, first frame ≤ 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import build  # noqa: E402  (packaging/build.py)

BUDGETS = {"onedir_mb": 160.0, "archive_mb": 60.0, "first_frame_s": 1.0}


def first_frame(exe: Path, timeout: float = 60.0) -> tuple[float, float]:
    """(seconds from spawn to the first-frame line, the app's own figure)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    start = time.perf_counter()
    proc = subprocess.Popen([str(exe), "--first-frame"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd="/")
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    _, err = proc.communicate(timeout=timeout)
    if proc.returncode != 0 or not line.startswith("first frame "):
        raise SystemExit(f"{exe} --first-frame failed ({proc.returncode}): {line}{err}")
    return elapsed, float(line.split()[2])


def measure(runs: int) -> dict:
    name, version = build.project()
    folder = build.DIST / name
    exe = folder / name
    if not exe.exists():
        raise SystemExit(f"no bundle at {folder}: run python packaging/build.py (or pass --build)")
    archive = next((build.archive_path(f) for f in ("xz", "gz") if build.archive_path(f).exists()),
                   None)
    first_frame(exe)  # warm-up: page cache, fontconfig cache
    samples = [first_frame(exe) for _ in range(runs)]
    outside = [s[0] for s in samples]
    result = {
        "version": version,
        "onedir_mb": round(build.folder_size(folder) / 1e6, 1),
        "archive_mb": round(archive.stat().st_size / 1e6, 1) if archive else None,
        "archive": archive.name if archive else None,
        "first_frame_s": round(statistics.median(outside), 3),
        "first_frame_self_s": round(statistics.median(s[1] for s in samples), 3),
        "first_frame_runs_s": [round(v, 3) for v in outside],
        "files": sum(1 for p in folder.rglob("*") if p.is_file()),
    }
    result["within_budget"] = all(result[k] is not None and result[k] <= v
                                  for k, v in BUDGETS.items())
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--build", action="store_true", help="run packaging/build.py first")
    parser.add_argument("--runs", type=int, default=5, help="first-frame starts (median)")
    args = parser.parse_args()
    if args.build:
        subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py")], check=True)
    result = measure(max(1, args.runs))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            budget = f"  (budget {BUDGETS[key]:g})" if key in BUDGETS else ""
            print(f"{key:>20}: {value}{budget}")
    return 0 if result["within_budget"] else 1


if __name__ == "__main__":
    sys.exit(main())
