"""The program's named worker-thread pools, each made on first use (stdlib only)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["pool"]

_pools: dict[str, ThreadPoolExecutor] = {}
_lock = threading.Lock()


def pool(name: str, workers: int = 1) -> ThreadPoolExecutor:
    """The pool called ``name`` (its threads are ``sqrtdk-<name>_<i>``), made with ``workers``
    threads the first time it is asked for."""
    with _lock:
        if name not in _pools:
            _pools[name] = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"sqrtdk-{name}")
        return _pools[name]
