"""Nested random pools: the same seed always gives the same vectors.

Queries, keys, values and loss weights are drawn once per seed, 4096 columns wide, in
column blocks with their own generators. A matrix of d_k columns is the first d_k columns
of its pool, and a matrix of r rows the first r rows; raising d_k therefore *adds
dimensions to the same vectors* instead of resampling, so sweeping d_k is continuous.
"""

from __future__ import annotations

import numpy as np

from sqrtdk_gui.core.cache import BoundedCache

__all__ = ["MAX_WIDTH", "pool", "pool_block", "clear_cache", "cached_bytes"]

MAX_WIDTH = 4096
_BLOCK = 64
_TAGS = {"q": 1, "k": 2, "v": 3, "g": 4}
# Pools kept for reuse (the newest one whatever its size): one seed's pools at 1,024 keys
# are 41 MB (queries 8, keys 32); more would only raise the window's peak memory.
_CACHE_BYTES = 48 << 20

# (Thread-safe: the GUI computes sweeps in a worker thread.)
_cache: BoundedCache[tuple[int, str, int], np.ndarray] = BoundedCache(weigh=lambda a: a.nbytes,
                                                                      max_weight=_CACHE_BYTES)


def clear_cache() -> None:
    """Forget every pool (tests and benchmarks start from nothing)."""
    _cache.clear()


def cached_bytes() -> int:
    """The bytes of the pools kept now."""
    return _cache.weight()


def _block(seed: int, tag: str, rows: int, index: int) -> np.ndarray:
    rng = np.random.default_rng([seed, _TAGS[tag], index])
    # Row-major fill: the first r rows are identical for every rows >= r.
    return rng.standard_normal((rows, _BLOCK))


def pool_block(seed: int, tag: str, rows: int, index: int) -> np.ndarray:
    """Columns 64·index … 64·index + 63 of ``pool(seed, tag, rows, ...)``, drawn afresh and
    not cached (for matrices too large to keep whole)."""
    if not 0 <= index < MAX_WIDTH // _BLOCK:
        raise ValueError(f"block {index} is outside 0..{MAX_WIDTH // _BLOCK - 1}")
    have = _cache.peek((seed, tag, rows))
    if have is not None and have.shape[1] >= (index + 1) * _BLOCK:
        return have[:, index * _BLOCK:(index + 1) * _BLOCK]
    return _block(seed, tag, rows, index)


def pool(seed: int, tag: str, rows: int, width: int) -> np.ndarray:
    """A read-only (rows, width) view of standard normals, nested in rows and width."""
    if not 1 <= width <= MAX_WIDTH:
        raise ValueError(f"width={width} is outside 1..{MAX_WIDTH}")
    key = (seed, tag, rows)
    with _cache.lock:  # one thread draws a pool; another asking for it waits and takes it
        have = _cache.pop(key)
        have_width = 0 if have is None else have.shape[1]
        if have_width < width:
            need = -(-width // _BLOCK) * _BLOCK
            # Room first (the peak is the cache's bound, not that plus the new pool), and the
            # wider pool filled in place (not blocks and then their concatenated copy).
            _cache.make_room(rows * need * 8)
            wider = np.empty((rows, need))
            if have is not None:
                wider[:, :have_width] = have
            for i in range(have_width // _BLOCK, need // _BLOCK):
                wider[:, i * _BLOCK:(i + 1) * _BLOCK] = _block(seed, tag, rows, i)
            have = wider
            have.flags.writeable = False
        assert have is not None  # cached wide enough, or just made
        _cache.put(key, have)  # (the newest pool stays, whatever its size)
    return have[:, :width]
