"""``sweep``: the summaries of ``compute`` over a grid of head sizes (the "versus d_k" curves).

Only per-point numbers are kept, never a point's full result; finished sweeps are cached
(they are small) and a sweep can be cancelled between two points.

The sweeps of every parameter set the lesson shows are computed once, by this module's own
code, into :mod:`sqrtdk_gui.core.attention.curve_data` (``packaging/build_curves.py``; the
tests recompute them): the long-context page's sweeps take about eleven seconds of CPU, and a lecture
or an export of the slides would otherwise wait for them. Any other parameter set, another
seed included, is computed when asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from sqrtdk_gui.core.attention import dense
from sqrtdk_gui.core.attention.long_context import DENSE_MAX_KEYS
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import ROW_QUANTITIES, Summary
from sqrtdk_gui.core.attention.streamed import streamed_spec, streamed_summaries
from sqrtdk_gui.core.attention.theory import theory_std
from sqrtdk_gui.core.cache import BoundedCache

__all__ = ["DK_GRID", "SWEEP_MAX_ROWS", "Sweep", "SweepCancelled", "sweep", "sweep_at_hand", "sweep_base",
           "compute_sweep",
           "clear_cache", "use_stored", "store_key", "encode", "decode"]

# Integers spaced by sqrt(2) from 1 to 4096: smooth curves on a log axis.
DK_GRID = tuple(sorted({round(2 ** (k / 2)) for k in range(25)}))


# A sweep computes every d_k of the grid, so it runs on at most this many query rows (the
# first ones: pools are nested, so they are the same vectors the window shows). Its cost is
# then bounded (1,024 x 1,024 keys: about 0.5 s per point at d_k = 4,096). Measured against
# 8,192 rows (16 and 256 keys): the ÷√d_k curves agree within 15 %; the raw curves, which
# fall by ten orders of magnitude, within a third of a decade for the median and 0.7 of a
# decade for the 10 % edge at the largest d_k, where a few rows decide that percentile.
SWEEP_MAX_ROWS = 1024


class SweepCancelled(Exception):
    """``sweep`` was told to stop (between two d_k points); nothing was cached."""


@dataclass(frozen=True)
class Sweep:
    """Summaries of ``compute`` over a grid of d_k values (all other parameters fixed).

    Only these per-point numbers are kept, never the points' full results.
    """

    d_k: npt.NDArray[np.int_]
    logit_std: npt.NDArray[np.float64]
    theory_std: npt.NDArray[np.float64]
    saturated_fraction: npt.NDArray[np.float64]
    overflow_count: npt.NDArray[np.int_]
    # quantity -> statistic ("mean", "median", "p10", "p90") -> array over d_k
    rows: dict[str, dict[str, npt.NDArray[np.float64]]] = field(repr=False)
    rows_used: int = 0  # query rows each point was computed on (at most SWEEP_MAX_ROWS)

    def stat(self, quantity: str, statistic: str) -> npt.NDArray[np.float64]:
        return self.rows[quantity][statistic]


def sweep(params: Params, d_ks: Iterable[int] = DK_GRID, cancelled: Callable[[], bool] | None = None) -> Sweep:
    """``compute`` at every d_k in ``d_ks`` on the first ``SWEEP_MAX_ROWS`` query rows.

    Cached per parameter set without d_k. ``cancelled()``, if given, is asked before every
    point; when it returns True the sweep raises SweepCancelled.
    """
    return _sweep_cached(sweep_base(params), tuple(int(d) for d in d_ks), cancelled)


def sweep_at_hand(params: Params, d_ks: Iterable[int] = DK_GRID) -> Sweep | None:
    """``sweep(params, d_ks)`` if it needs no computing (finished before, or stored), else None:
    cheap enough for the GUI thread."""
    return _sweep_cached.peek(sweep_base(params), tuple(int(d) for d in d_ks))


def sweep_base(params: Params) -> Params:
    """The parameter set a sweep of ``params`` is computed (and cached, and stored) for."""
    return params.replace(d_k=1, queries=min(params.queries, SWEEP_MAX_ROWS))


@dataclass(frozen=True)
class _SweepPoint:
    """What a sweep keeps of one computation."""

    summary: dict[str, Summary]
    logit_std: float
    theory_std: float
    saturated_fraction: float
    overflow_count: int


def _sweep_point(params: Params) -> _SweepPoint:
    """``compute``'s summaries: dense without display rows; streamed, the first pass only."""
    if params.keys <= DENSE_MAX_KEYS:
        r = dense.compute_dense(params, keep=0)
        return _SweepPoint(r.summary, r.logit_std, r.theory_std, r.saturated_fraction, r.overflow_count)
    summary, logit_std, saturated, overflow = streamed_summaries(params)
    return _SweepPoint(summary=summary, logit_std=logit_std, theory_std=theory_std(params),
                       saturated_fraction=saturated, overflow_count=overflow)


class _SweepCache:
    """The newest finished sweeps (they are small: a few arrays of 24 numbers each)."""

    def __init__(self, size: int) -> None:
        self._items: BoundedCache[tuple[Params, tuple[int, ...]], Sweep] = BoundedCache(size)

    def __call__(self, base: Params, d_ks: tuple[int, ...], cancelled: Callable[[], bool] | None = None) -> Sweep:
        key = (base, d_ks)
        have = self._items.get(key)
        if have is not None:
            return have
        # Computed outside the lock (seconds; a cancelled one raises): two threads, first one wins.
        return self._items.setdefault(key, _stored(base, d_ks) or compute_sweep(base, d_ks, cancelled))

    def peek(self, base: Params, d_ks: tuple[int, ...]) -> Sweep | None:
        """The finished or stored sweep, or None (nothing is computed)."""
        key = (base, d_ks)
        have = self._items.get(key)
        if have is not None:
            return have
        stored = _stored(base, d_ks)
        return None if stored is None else self._items.setdefault(key, stored)

    def cache_clear(self) -> None:
        self._items.clear()


_sweep_cached = _SweepCache(32)


_use_stored = True


def clear_cache() -> None:
    """Forget every finished sweep (tests and benchmarks start from nothing)."""
    _sweep_cached.cache_clear()


def use_stored(enabled: bool) -> None:
    """Whether sweeps stored at build time are taken (default) or computed like any other
    (benchmarks that time the computation, tests of cancelling it)."""
    global _use_stored
    _use_stored = bool(enabled)
    _sweep_cached.cache_clear()


def compute_sweep(base: Params, d_ks: tuple[int, ...] = DK_GRID,
                  cancelled: Callable[[], bool] | None = None) -> Sweep:
    """The sweep of ``base`` (a :func:`sweep_base`) computed now, point by point, uncached."""
    stats = ("mean", "median", "p10", "p90")
    rows = {name: {stat: np.empty(len(d_ks)) for stat in stats} for name in ROW_QUANTITIES}
    scalars = {name: np.empty(len(d_ks)) for name in ("logit_std", "theory_std", "saturated_fraction")}
    overflow = np.zeros(len(d_ks), dtype=int)
    for i, d in enumerate(d_ks):
        if cancelled is not None and cancelled():
            raise SweepCancelled
        r = _sweep_point(base.replace(d_k=d))  # one result at a time, summarised, dropped
        for name in ROW_QUANTITIES:
            for stat in stats:
                rows[name][stat][i] = getattr(r.summary[name], stat)
        for name in scalars:
            scalars[name][i] = getattr(r, name)
        overflow[i] = r.overflow_count
        del r
    used = base.queries if base.keys <= DENSE_MAX_KEYS else streamed_spec(base).rows
    d_k = np.array(d_ks)
    for a in (d_k, overflow, *scalars.values(), *(v for stats in rows.values() for v in stats.values())):
        a.flags.writeable = False  # shared between threads and windows, as a stored sweep
    return Sweep(d_k=d_k, overflow_count=overflow, rows=rows, rows_used=used, **scalars)


# The stored sweeps (curve_data.SWEEPS): keyed by the base parameters' fields in order, each a
# flat dict of tuples over DK_GRID; NaN and infinities are written as names, since repr()
# of them is not a Python literal.
_SCALARS = ("logit_std", "theory_std", "saturated_fraction")
_STATS = ("mean", "median", "p10", "p90")


def store_key(base: Params) -> tuple[object, ...]:
    """``base``'s fields in order: what a stored sweep is looked up by."""
    return tuple(base.__getstate__().values())


def encode(s: Sweep) -> dict[str, object]:
    """A sweep as plain numbers (what ``curve_data`` stores)."""
    out: dict[str, object] = {"rows_used": s.rows_used, "d_k": tuple(int(d) for d in s.d_k),
                              "overflow_count": tuple(int(c) for c in s.overflow_count)}
    out.update({name: tuple(float(x) for x in getattr(s, name)) for name in _SCALARS})
    out.update({f"{q}.{stat}": tuple(float(x) for x in s.rows[q][stat])
                for q in ROW_QUANTITIES for stat in _STATS})
    return out


def decode(entry: dict[str, object]) -> Sweep:
    """The :class:`Sweep` that :func:`encode` wrote (read-only arrays: sweeps are shared)."""

    def array(name: str, dtype: type = float) -> np.ndarray:
        a: np.ndarray = np.array(entry[name], dtype=dtype)
        a.flags.writeable = False
        return a

    rows = {q: {stat: array(f"{q}.{stat}") for stat in _STATS} for q in ROW_QUANTITIES}
    return Sweep(d_k=array("d_k", int), overflow_count=array("overflow_count", int), rows=rows,
                 rows_used=int(entry["rows_used"]),  # type: ignore[call-overload]
                 **{name: array(name) for name in _SCALARS})


def _stored(base: Params, d_ks: tuple[int, ...]) -> Sweep | None:
    if not _use_stored or d_ks != DK_GRID:
        return None
    # Imported on first use, in the thread that sweeps: the numbers are not needed at start.
    from sqrtdk_gui.core.attention import curve_data

    if curve_data.FIELDS != tuple(base.__getstate__()) or curve_data.D_KS != DK_GRID:
        return None  # written for other parameters (the tests say it is stale)
    entry = curve_data.SWEEPS.get(store_key(base))
    return None if entry is None else decode(entry)

