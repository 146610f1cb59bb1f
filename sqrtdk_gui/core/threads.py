"""The program's named worker-thread pools, each made on first use (stdlib only)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["pool", "drain"]

_pools: dict[str, ThreadPoolExecutor] = {}
_workers: dict[str, int] = {}
_lock = threading.Lock()


def pool(name: str, workers: int = 1) -> ThreadPoolExecutor:
    """The pool called ``name`` (its threads are ``sqrtdk-<name>_<i>``), made with ``workers``
    threads the first time it is asked for."""
    with _lock:
        if name not in _pools:
            _pools[name] = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"sqrtdk-{name}")
            _workers[name] = workers
        return _pools[name]


def drain(timeout: float = 300.0) -> None:
    """Wait until the work queued in every pool so far has run (a quiet point: nothing left
    over writes into a cache a caller is about to measure). Each pool gets one marker per
    worker that waits for the others: when all have met, every worker is past its queue."""
    with _lock:
        pools = [(_pools[name], _workers[name]) for name in _pools]
    markers = []
    for executor, workers in pools:
        meeting = threading.Barrier(workers)
        markers += [executor.submit(meeting.wait, timeout) for _ in range(workers)]
    for marker in markers:
        marker.result(timeout=timeout)
