"""Dot products of the sampled vectors at any d_k, from cached prefix sums.

Because the pools are nested (``sampling``), q~ . k~ at d_k columns is a running sum over
column blocks. Keeping the running sums at every block boundary makes any d_k cost one
partial block (at most 63 columns) instead of a full matrix product, so dragging the d_k
slider or sweeping all head sizes stays cheap. Pure numpy.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numpy as np

from sqrtdk_gui.core.attention.sampling import MAX_WIDTH, pool, pool_block
from sqrtdk_gui.core.cache import BoundedCache

__all__ = ["Geometry", "geometry", "streamed", "key_gram", "query_rows", "clear_cache"]

_BLOCK = 64
# Running sums per (seed, m, n) at the most 32 MiB, two sets kept and 32 MiB in all (the
# newest set always): the default 256 x 64 window needs 11 MiB; larger sets are computed
# directly (a classroom machine's memory matters more than their speed).
_MAX_PREFIX_FLOATS = 2**22
_CACHE_ENTRIES = 2
# The largest query pool the direct path builds whole (8 MiB); larger ones are drawn by block.
_MAX_POOL_FLOATS = 2**20


@dataclass(frozen=True)
class Geometry:
    """Inner products of m queries and n keys with unit-variance entries, d columns."""

    dots: np.ndarray  # (m, n) q~ . k~
    q_sq: np.ndarray  # (m,) |q~|^2
    gram: np.ndarray  # (n, n) k~ k~^T
    k_sq: np.ndarray  # (n,) |k~|^2 (the diagonal of gram)

    def aligned(self, rho: float) -> Geometry:
        """The same after q_i <- rho k_(i mod n) + sqrt(1 - rho^2) q_i."""
        if rho == 0.0:
            return self
        m, n = self.dots.shape
        t = np.arange(m) % n
        c = math.sqrt(1.0 - rho * rho)
        k_t_dots = self.gram[t]  # k_t . k_j
        q_dot_kt = self.dots[np.arange(m), t]  # q~_i . k_t
        return Geometry(
            dots=rho * k_t_dots + c * self.dots,
            q_sq=rho * rho * self.k_sq[t] + c * c * self.q_sq + 2.0 * rho * c * q_dot_kt,
            gram=self.gram,
            k_sq=self.k_sq,
        )


def _products(q: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, ...]:
    return (q @ k.T, np.einsum("ij,ij->i", q, q), k @ k.T)


class _Prefix:
    """Running sums of the block products of one (seed, m, n), extended on demand."""

    def __init__(self, seed: int, m: int, n: int) -> None:
        self.seed, self.m, self.n = seed, m, n
        self.sums: list[tuple[np.ndarray, ...]] = [
            (np.zeros((m, n)), np.zeros(m), np.zeros((n, n)))
        ]
        self.lock = threading.Lock()

    def floats(self) -> int:
        """How many numbers the running sums hold so far."""
        return len(self.sums) * (self.m * self.n + self.m + self.n * self.n)

    def at(self, d: int) -> tuple[np.ndarray, ...]:
        full, part = divmod(d, _BLOCK)
        with self.lock:
            if len(self.sums) <= full:
                q = pool(self.seed, "q", self.m, full * _BLOCK)
                k = pool(self.seed, "k", self.n, full * _BLOCK)
                for b in range(len(self.sums), full + 1):
                    cols = slice((b - 1) * _BLOCK, b * _BLOCK)
                    block = _products(q[:, cols], k[:, cols])
                    sums = tuple(s + x for s, x in zip(self.sums[-1], block))
                    for array in sums:
                        array.flags.writeable = False  # shared with every caller
                    self.sums.append(sums)
            base = self.sums[full]
        if part == 0:
            return base
        q = pool(self.seed, "q", self.m, d)[:, full * _BLOCK:]
        k = pool(self.seed, "k", self.n, d)[:, full * _BLOCK:]
        return tuple(s + x for s, x in zip(base, _products(q, k)))


# Rows of q per matrix product in ``_streamed_products`` (its temporary: rows × n floats).
_ROW_CHUNK = 1024


def _streamed_products(seed: int, m: int, n: int, d: int) -> tuple[np.ndarray, ...]:
    """``_products`` of the first d columns, summed over the column blocks in order."""
    gram = key_gram(seed, n, d)
    dots, q_sq = query_rows(seed, n, d, 0, m)
    return dots, q_sq, gram


def key_gram(seed: int, n: int, d: int) -> np.ndarray:
    """k~ k~^T of n keys over d columns, summed block by block (no pool kept)."""
    gram = np.zeros((n, n))
    for b in range(-(-d // _BLOCK)):
        k = pool_block(seed, "k", n, b)[:, :min(d - b * _BLOCK, _BLOCK)]
        gram += k @ k.T
    return gram


def query_rows(seed: int, n: int, d: int, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """q~ . k~ and |q~|^2 of queries start..stop−1, summed over the column blocks in order.

    Neither pool is built whole (8,192 queries × 4,096 columns are 268 MB): each block of 64
    columns is drawn (the first ``stop`` rows: pools are nested), used and dropped, so the
    memory is that of the (stop − start) × n result.
    """
    dots, q_sq = np.zeros((stop - start, n)), np.zeros(stop - start)
    for b in range(-(-d // _BLOCK)):
        width = min(d - b * _BLOCK, _BLOCK)
        q = pool_block(seed, "q", stop, b)[start:, :width]
        k = pool_block(seed, "k", n, b)[:, :width]
        for r in range(0, stop - start, _ROW_CHUNK):
            dots[r:r + _ROW_CHUNK] += q[r:r + _ROW_CHUNK] @ k.T
        q_sq += np.einsum("ij,ij->i", q, q)
    return dots, q_sq


def streamed(m: int, n: int, d: int) -> bool:
    """True when ``geometry`` would draw the pools block by block (too large to keep)."""
    blocks = MAX_WIDTH // _BLOCK + 1
    return (m * n + m + n * n) * blocks > _MAX_PREFIX_FLOATS and m * d > _MAX_POOL_FLOATS


# The running sums: at most two sets and the float bound (weighed as they have grown).
_prefixes: BoundedCache[tuple[int, int, int], _Prefix] = BoundedCache(_CACHE_ENTRIES, weigh=lambda p: p.floats(),
                                                                      max_weight=_MAX_PREFIX_FLOATS)


def clear_cache() -> None:
    """Forget every running sum (tests and benchmarks start from nothing)."""
    _prefixes.clear()


def geometry(seed: int, m: int, n: int, d: int) -> Geometry:
    """Inner products of the first d columns of this seed's m queries and n keys."""
    if not 1 <= d <= MAX_WIDTH:
        raise ValueError(f"d={d} is outside 1..{MAX_WIDTH}")
    blocks = MAX_WIDTH // _BLOCK + 1
    if (m * n + m + n * n) * blocks > _MAX_PREFIX_FLOATS:
        # Too large to keep every running sum: compute directly; with a query pool larger
        # than the pool cache (8,192 × 4,096 would be 268 MB), one column block at a time.
        if streamed(m, n, d):
            dots, q_sq, gram = _streamed_products(seed, m, n, d)
        else:
            dots, q_sq, gram = _products(pool(seed, "q", m, d), pool(seed, "k", n, d))
    else:
        key = (seed, m, n)
        with _prefixes.lock:
            prefix = _prefixes.get(key) or _prefixes.put(key, _Prefix(seed, m, n))
        dots, q_sq, gram = prefix.at(d)
        _prefixes.trim()  # the newest set may have grown past the others' share
    return Geometry(dots=dots, q_sq=q_sq, gram=gram, k_sq=np.diagonal(gram).copy())
