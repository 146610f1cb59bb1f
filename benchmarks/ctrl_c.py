"""Ctrl+C at random moments of every Qt command: how the program ends, and how fast. Prints JSON.

    python benchmarks/ctrl_c.py [--moments 40] [--seed 1] [--jobs 1] [--only NAME ...]
                                [--program PATH --from-start] [--trials]

Each trial is a fresh process of a command that starts Qt (the window, a screenshot, the smoke
test, the slides and the handout exports), sent one SIGINT at a moment drawn uniformly from
the command's first ``WINDOW_S`` seconds (or its whole run, if shorter: measured once first).
By default the program is ``python -m sqrtdk_gui`` and a moment counts from when the
program's own code runs (the interpreter's start-up before it is Python's, not the program's);
``--program`` with ``--from-start`` tests a built bundle from the instant it starts.

Each trial records the exit status, whether stderr holds a traceback (or a bare
"KeyboardInterrupt" that Qt printed and dropped), and ``exit_s``: from the signal to the
process's end, and ``cpu_after_s``: the processor time the process used after the signal
(all its threads; not slowed by the machine's load, as ``exit_s`` is). Target, for every trial: status 130 (or killed by SIGINT, which a shell
reports as 130; or 0 if the run had done its work and was leaving: it had printed or written
its result and ended within ``ENDING_S``), no traceback, ``exit_s`` ≤ 1.5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

TARGET_S = 1.5
WINDOW_S = 6.0  # the moments: start-up, Qt's start, the first renders
# name -> (arguments, a file or folder it writes)
COMMANDS = {
    "window": ([], None),
    "screenshot": (["--screenshot", "shot.png"], "shot.png"),
    "smoke_test": (["--smoke-test"], None),
    "export_slides": (["export-slides", "slides", "--size", "1024x768"], "slides"),
    "export_handout": (["export-handout", "handout.html"], "handout.html"),
}
GONE = (130, -signal.SIGINT)
ENDING_S = 0.25  # a run whose work is done takes up to this long to leave (unmapping its memory)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background job starts with SIGINT ignored


def _catches_sigint(pid: int) -> bool | None:
    """Whether the process catches SIGINT now (None: cannot tell, no /proc)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            caught = next(line for line in f if line.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return None
    return bool(int(caught.split()[1], 16) >> (signal.SIGINT - 1) & 1)


def _wait_for_the_program_s_code(process: subprocess.Popen, bound_s: float = 30.0) -> None:
    """Until the program's own code runs: Python's start-up catches SIGINT, the program's first
    import lets it end the process instead."""
    deadline = time.monotonic() + bound_s  # a bound on waiting, not a measurement
    seen_python = False
    while process.poll() is None and time.monotonic() < deadline:
        caught = _catches_sigint(process.pid)
        if caught is None:
            return
        if caught:
            seen_python = True
        elif seen_python:
            return
        time.sleep(0.002)


def cpu_seconds(pid: int) -> float | None:
    """Processor time the process has used, all threads (None: cannot tell, no /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def communicate_counting_cpu(process: subprocess.Popen, timeout: float) -> tuple[str, str, float | None]:
    """``process.communicate()`` (killed after ``timeout`` seconds), and the processor time
    the process used from now until it ended (None: cannot tell, no /proc). It is read until
    the process is reaped, a few milliseconds apart: at most that much of it is missed."""
    before = cpu_seconds(process.pid)
    last = before
    said: list[tuple[str, str]] = []

    def talk() -> None:
        try:
            said.append(process.communicate(timeout=timeout))
        except subprocess.TimeoutExpired:
            process.kill()
            said.append(process.communicate())

    talker = threading.Thread(target=talk)
    talker.start()
    while talker.is_alive():
        now = cpu_seconds(process.pid)
        if now is not None:  # a zombie keeps its times until it is reaped
            last = now
        talker.join(0.005)
    out, err = said[0]
    return out, err, None if before is None or last is None else last - before


def _start(program: list[str], argv: list[str], folder: str) -> subprocess.Popen:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=folder, HOME=folder)
    env.pop("SQRTDK_GUI_DEBUG", None)
    return subprocess.Popen([*program, *argv], cwd=folder, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)


def run_length(program: list[str], name: str, from_start: bool) -> float:
    """Seconds an uninterrupted run takes (the window's: WINDOW_S, it runs until closed)."""
    argv, _ = COMMANDS[name]
    if name == "window":
        return WINDOW_S
    with tempfile.TemporaryDirectory() as folder:
        process = _start(program, argv, folder)
        if not from_start:
            _wait_for_the_program_s_code(process)
        started = time.monotonic()
        process.communicate(timeout=600)
        return time.monotonic() - started


def trial(program: list[str], name: str, moment: float, from_start: bool) -> dict:
    argv, target = COMMANDS[name]
    folder = tempfile.mkdtemp(prefix="sqrtdk-ctrl-c-")
    try:
        process = _start(program, argv, folder)
        if not from_start:
            _wait_for_the_program_s_code(process)
        time.sleep(moment)
        ended_first = process.poll() is not None
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err, cpu_after = communicate_counting_cpu(process, 60)
        exit_s = time.monotonic() - sent
        whole = True
        wrote = target is not None and os.path.exists(os.path.join(folder, target))
        if target == "shot.png" and os.path.exists(os.path.join(folder, target)):
            with open(os.path.join(folder, target), "rb") as f:
                data = f.read()
            whole = data.startswith(b"\x89PNG") and data.endswith(b"IEND\xaeB`\x82")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    status = process.returncode
    traceback = "Traceback" in err or "KeyboardInterrupt" in err or "internal error" in err
    # Status 0: the run had done its work and was ending (its last words printed, gone at once).
    finished = status == 0 and (ended_first or exit_s <= ENDING_S and (bool(out.strip()) or wrote))
    ok = (status in GONE or finished) and not traceback and whole and exit_s <= TARGET_S
    out = {"moment_s": round(moment, 3), "status": status, "exit_s": round(exit_s, 3),
           "cpu_after_s": None if cpu_after is None else round(cpu_after, 3), "ok": ok}
    if traceback or not whole or status not in (*GONE, 0):
        out["stderr"] = err.strip()[-400:]
    return out


def run_command(program: list[str], name: str, moments: int, rng: random.Random, jobs: int,
                from_start: bool) -> dict:
    length = min(WINDOW_S, run_length(program, name, from_start))
    when = [rng.uniform(0.0, length) for _ in range(moments)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        trials = list(pool.map(lambda m: trial(program, name, m, from_start), when))
    exits = [t["exit_s"] for t in trials]
    return {
        "moments": moments, "window_s": round(length, 2), "ok": sum(t["ok"] for t in trials),
        "statuses": {str(s): sum(t["status"] == s for t in trials) for s in sorted({t["status"] for t in trials})},
        "tracebacks": sum("stderr" in t and "Traceback" in t["stderr"] for t in trials),
        "exit_s_median": round(statistics.median(exits), 3), "exit_s_max": round(max(exits), 3),
        "target_s": TARGET_S, "failed": [t for t in trials if not t["ok"]][:5], "trials": trials,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moments", type=int, default=40, help="trials per command (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the moments (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="trials run side by side (default 1)")
    parser.add_argument("--only", nargs="+", choices=sorted(COMMANDS), help="these commands only")
    parser.add_argument("--program", help="the program to run (default: this Python's -m sqrtdk_gui)")
    parser.add_argument("--from-start", action="store_true",
                        help="count moments from the process's start, not from the program's code")
    parser.add_argument("--trials", action="store_true", help="list every trial, not only the first failures")
    parser.add_argument("--json", action="store_true", help="print JSON only (the default output too)")
    args = parser.parse_args()
    program = [args.program] if args.program else [sys.executable, "-m", "sqrtdk_gui"]
    rng = random.Random(args.seed)
    out = {name: run_command(program, name, args.moments, rng, args.jobs, args.from_start)
           for name in (args.only or COMMANDS)}
    for summary in out.values():
        if not args.trials:
            del summary["trials"]
    print(json.dumps({"seed": args.seed, "from_start": args.from_start, "commands": out}, indent=2))
    return 0 if all(c["ok"] == c["moments"] for c in out.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
