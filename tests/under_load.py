"""Run the test suite while other processes compete for every core, as on a shared machine.

    .venv/bin/python tests/under_load.py                 # the suite (-n auto), two busy processes
    .venv/bin/python tests/under_load.py --busy 4 -- -x  # four busy processes; pytest's own flags after --

Starts ``--busy`` CPU-bound processes (a tight Python loop each), runs ``python -m pytest -n auto``
with any extra arguments (random order as always: pytest-randomly prints the seed first, and
``--randomly-seed=N`` replays it), then ends the busy processes by their PIDs, whatever the
outcome. Prints the busy PIDs, the suite's wall time and its exit status, and exits with it.
Too slow to gate every change; run it before handing work in.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUSY = "while True: pass"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=2, help="CPU-bound processes to start (default 2)")
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest (after --)")
    args = parser.parse_args(argv)
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(max(0, args.busy))]
    print(f"under_load: {len(busy)} busy processes, PIDs {' '.join(str(p.pid) for p in busy)}", flush=True)
    started = time.monotonic()
    try:
        status = subprocess.call([sys.executable, "-m", "pytest", "-n", "auto", *args.pytest_args], cwd=ROOT)
    finally:
        for proc in busy:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGTERM)
            proc.wait()
    minutes, seconds = divmod(time.monotonic() - started, 60)
    print(f"under_load: pytest exited {status} after {int(minutes)} min {seconds:.0f} s; "
          f"busy processes {' '.join(str(p.pid) for p in busy)} ended", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
