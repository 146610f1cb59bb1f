"""Long context: softmax statistics over up to 131 072 keys, streamed over key blocks.

Above ``DENSE_MAX_KEYS`` keys the model no longer builds (queries × keys) arrays. It takes a
bounded sample of query rows (``sampled_rows``: at most 256, and at most ``ROW_BUDGET``
logits in all, 64 rows at n = 131 072) and streams over blocks of ``BLOCK`` keys:

- ``RowReducer`` keeps, per row, the largest logit so far and sums taken relative to it —
  S1 = Σ e^(z−M), T = Σ e^(z−M)(M−z), S2, S3, S4 = Σ e^(k(z−M)) over the *other* keys —
  and merges a new block by rescaling (an online log-sum-exp). Every sum has non-negative
  terms, so nearly one-hot rows keep their tiny ‖J‖_F and 1 − p_max without cancellation.
  At the end: p_max = 1/(1+S1), entropy, ‖J‖_F from Σp², Σp³, Σp⁴, and the top weights.
- ``EvaluatedSoftmax`` repeats what a program in a given float type computes (logits
  rounded to the type, an online max and sum in the compute type, then a second pass that
  divides) and compares it with the exact float64 weights: non-finite count, row sums,
  largest absolute error and each row's Σ|w − p|.

Where the logits come from (``logit_blocks``): independent keys make the logits of one
query i.i.d. given the query — q·k_j ~ N(0, |q|²) for k_j ~ N(0, I) — so each sampled row
draws its n logits from that exact law instead of storing n key vectors (QK-norm: the cosine
of a random direction, x / √(x² + χ²_{d−1}); an aligned query's own key exactly). Per-row
statistics therefore have exactly the distribution of the dense model; rows do not share
keys. Pure numpy.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from sqrtdk_gui.core.attention.precision import REL_ERROR_FLOOR, compute_dtype, round_logits, weight_errors
from sqrtdk_gui.core.attention.sampling import pool
from sqrtdk_gui.core.cache import BoundedCache

__all__ = ["DENSE_MAX_KEYS", "MAX_KEYS", "ROW_BUDGET", "MAX_ROWS", "BLOCK", "TOP_K", "SAMPLE_KEYS",
           "sampled_rows", "StreamStats", "RowReducer", "EvaluatedSoftmax", "LongSpec",
           "logit_blocks", "normals"]

DENSE_MAX_KEYS = 1024  # up to here every (query, key) pair is computed, as always
MAX_KEYS = 131_072  # a long-context model's window
ROW_BUDGET = 2**23  # logits per streamed computation: 64 rows at 131 072 keys (32 MB float32)
MIN_ROWS, MAX_ROWS = 64, 256
BLOCK = 4096  # keys per block: a 256-row block of float64 is 8 MB
TOP_K = 64  # largest weights kept per row (panel 2's bars, the Jacobian block of 12)
SAMPLE_KEYS = 1024  # logits kept per row for the histogram


def sampled_rows(queries: int, keys: int) -> int:
    """How many query rows the model computes: all of them up to ``DENSE_MAX_KEYS`` keys."""
    if keys <= DENSE_MAX_KEYS:
        return queries
    return min(queries, MAX_ROWS, max(MIN_ROWS, ROW_BUDGET // keys))


# --- exact row statistics, one block at a time ------------------------------------------------

@dataclass(frozen=True)
class StreamStats:
    """Per-row statistics of the exact softmax over all streamed keys (float64)."""

    max_weight: np.ndarray  # (m,)
    rest: np.ndarray  # (m,) 1 − max_weight as the sum of the other weights
    entropy: np.ndarray  # (m,)
    jacobian_fro: np.ndarray  # (m,)
    log_partition: np.ndarray  # (m,) log Σ e^z (the log-sum-exp)
    top_logits: np.ndarray  # (m, min(TOP_K, n)) largest logits, largest first
    top_index: np.ndarray  # (m, min(TOP_K, n)) their key indices
    logit_sum: np.ndarray  # (m,) Σ z
    logit_sq_sum: np.ndarray  # (m,) Σ z²
    keys: int

    @property
    def top_weights(self) -> np.ndarray:
        """The largest weights of each row, largest first (exact, float64)."""
        weights: npt.NDArray[np.float64] = np.exp(self.top_logits - self.log_partition[:, None])
        return weights


class _Scratch:
    """Block-sized work arrays reused from block to block (a fresh 2 MB array is a page-fault
    storm when large allocations are mmapped, as the window sets glibc up to do)."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, int], dtype: npt.DTypeLike = np.float64) -> np.ndarray:
        a = self.arrays.get(name)
        if a is None or a.shape[0] != shape[0] or a.shape[1] < shape[1] or a.dtype != dtype:
            a = self.arrays[name] = np.empty(shape, dtype)
        return a[:, :shape[1]]


# M, S1, T, S2, S3, S4: a RowReducer's per-row running maximum and sums.
_Sums = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class RowReducer:
    """Streams blocks of logits (m × b, float64) into ``StreamStats`` (see the module doc).

    Merging two partial results with maxima M_H ≥ M_L, r = e^(M_L − M_H), Δ = M_H − M_L: the
    lower one's keys (its own top included, d = 0) now sit Δ further below the maximum:
    S1 ← S1_H + r(1 + S1_L), T ← T_H + r(Δ(1 + S1_L) + T_L), Sk ← Sk_H + rᵏ(1 + Sk_L).
    """

    def __init__(self, rows: int, top_k: int = TOP_K) -> None:
        self.m, self.top_k = rows, top_k
        self.keys = 0
        self.top = np.empty((rows, 0))  # the largest logits so far (unsorted) and their keys
        self.top_index = np.empty((rows, 0), dtype=np.int64)
        self.sums: _Sums | None = None  # M, S1, T, S2, S3, S4 (each (m,)), after the first block
        self.logit_sum = np.zeros(rows)
        self.logit_sq_sum = np.zeros(rows)
        self.scratch = _Scratch()

    def add(self, z: np.ndarray) -> None:
        z = np.asarray(z, dtype=np.float64)
        m, b = z.shape
        rows = np.arange(m)
        top = z.argmax(axis=1)
        big = z[rows, top]
        d = np.subtract(z, big[:, None], out=self.scratch.get("d", z.shape))  # <= 0
        e = np.exp(d, out=self.scratch.get("e", z.shape))
        tiny = e.min() <= 1e-77  # before the top is zeroed
        e[rows, top] = 0.0  # the block's own top is carried as "1"
        e2 = self.scratch.get("e2", z.shape)
        if not tiny:
            np.multiply(e, e, out=e2)
            s3, s4 = np.einsum("ij,ij->i", e2, e), np.einsum("ij,ij->i", e2, e2)
        else:
            # Powers only where they stay normal floats: e² < 1e-308 cannot reach ‖J‖² (its
            # own terms underflow there too), and underflowing products run ~100× slower.
            e2.fill(0.0)
            np.multiply(e, e, out=e2, where=e > 1e-154)
            ek = self.scratch.get("ek", z.shape)
            ek.fill(0.0)
            np.multiply(e2, e, out=ek, where=e > 1e-102)
            s3 = ek.sum(axis=1)
            ek.fill(0.0)
            np.multiply(e2, e2, out=ek, where=e > 1e-77)
            s4 = ek.sum(axis=1)
        block = (big, e.sum(axis=1), -np.einsum("ij,ij->i", e, d), e2.sum(axis=1), s3, s4)
        self.sums = block if self.sums is None else _merge(self.sums, block)
        self.logit_sum += z.sum(axis=1)
        self.logit_sq_sum += np.einsum("ij,ij->i", z, z)
        self._keep_top(z)
        self.keys += b

    def _keep_top(self, z: np.ndarray) -> None:
        m, b = z.shape
        if self.top_k == 0:  # statistics only (the σ dial)
            return
        if self.top.shape[1] < self.top_k:  # the first block(s): partition everything
            cols = np.broadcast_to(np.arange(self.keys, self.keys + b), z.shape)
            vals = np.concatenate([self.top, z], axis=1)
            idx = np.concatenate([self.top_index, cols], axis=1)
            if vals.shape[1] > self.top_k:
                pick = np.argpartition(-vals, self.top_k - 1, axis=1)[:, :self.top_k]
                vals, idx = np.take_along_axis(vals, pick, axis=1), np.take_along_axis(idx, pick, axis=1)
            self.top, self.top_index = vals, idx
            return
        # Later blocks: only logits above a row's current k-th largest can enter (few of them).
        r, c = np.nonzero(z > self.top.min(axis=1)[:, None])
        if r.size == 0:
            return
        k = self.top_k
        all_r = np.concatenate([np.repeat(np.arange(m), k), r])
        all_v = np.concatenate([self.top.ravel(), z[r, c]])
        all_i = np.concatenate([self.top_index.ravel(), c + self.keys])
        order = np.lexsort((-all_v, all_r))  # by row, largest first
        first = np.concatenate([[0], np.cumsum(k + np.bincount(r, minlength=m))[:-1]])
        keep = order[(first[:, None] + np.arange(k)).ravel()]
        self.top, self.top_index = all_v[keep].reshape(m, k), all_i[keep].reshape(m, k)

    def result(self) -> StreamStats:
        assert self.sums is not None  # add() has run: there is at least one block
        big, s1, t, s2, s3, s4 = self.sums
        den = 1.0 + s1
        max_weight = 1.0 / den
        rest = s1 / den
        log_den = np.log1p(s1)
        entropy = max_weight * log_den + (t + s1 * log_den) / den
        # Other keys only (each p <= 1/2): Σp²(1−p)² = Σp² − 2Σp³ + Σp⁴ loses at most a digit.
        p2, p3, p4 = s2 / den**2, s3 / den**3, s4 / den**4
        diag_other = np.maximum(p2 - 2.0 * p3 + p4, 0.0)
        fro_sq = (np.square(max_weight * rest) + diag_other + 2.0 * np.square(max_weight) * p2
                  + np.maximum(p2 * p2 - p4, 0.0))
        order = np.argsort(-self.top, axis=1, kind="stable")
        return StreamStats(
            max_weight=max_weight, rest=rest, entropy=entropy, jacobian_fro=np.sqrt(fro_sq),
            log_partition=big + log_den, top_logits=np.take_along_axis(self.top, order, axis=1),
            top_index=np.take_along_axis(self.top_index, order, axis=1),
            logit_sum=self.logit_sum.copy(), logit_sq_sum=self.logit_sq_sum.copy(), keys=self.keys)


def _merge(a: _Sums, b: _Sums) -> _Sums:
    """Two partial (M, S1, T, S2, S3, S4) merged; ``a`` keeps the top key on ties."""
    a_high = a[0] >= b[0]
    hi = tuple(np.where(a_high, x, y) for x, y in zip(a, b))
    lo = tuple(np.where(a_high, y, x) for x, y in zip(a, b))
    delta = hi[0] - lo[0]
    r = np.exp(-delta)
    return (hi[0],
            hi[1] + r * (1.0 + lo[1]),
            hi[2] + r * (delta * (1.0 + lo[1]) + lo[2]),
            hi[3] + r**2 * (1.0 + lo[3]),
            hi[4] + r**3 * (1.0 + lo[4]),
            hi[5] + r**4 * (1.0 + lo[5]))


# --- the softmax a program in a given float type computes -----------------------------------

class EvaluatedSoftmax:
    """Softmax evaluated in ``dtype`` (two passes), compared with the exact weights.

    Pass 1 (``first``): an online maximum and sum of exp in the compute type, as a fused
    kernel keeps them (``naive``: no maximum). Pass 2 (``second``): each weight
    exp(z − max)/sum, its error against exp(z − log Σe^z) in float64, the row sums, the
    non-finite count, and the evaluated weights of the keys with the largest exact weights.
    """

    def __init__(self, rows: int, variant: str, dtype: npt.DTypeLike) -> None:
        self.variant, self.dtype = variant, np.dtype(dtype)
        self.ctype = compute_dtype(self.dtype)
        self.mx = np.full(rows, -np.inf, dtype=self.ctype)
        self.total = np.zeros(rows, dtype=self.ctype)
        self.overflow = 0
        self.row_sums = np.zeros(rows)
        self.nonfinite_rows = np.zeros(rows, dtype=bool)
        self.l1_error = np.zeros(rows)  # Σ|w − p| over the finite weights
        self.rel_error = np.zeros(rows)  # max |w/p − 1| over the weights >= 0.1/n
        self.max_abs_error = np.full(rows, -np.inf)
        self.top: np.ndarray | None = None  # evaluated weights at the exact top keys, filled by ``second``
        self.inf_exp = np.zeros(rows, dtype=np.int64)  # naive: exp(z) = inf entries (pass 1)
        self.scratch = _Scratch()

    def first(self, z: np.ndarray) -> None:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            zt = round_logits(z, self.dtype)
            if self.variant == "stable":
                new = np.maximum(self.mx, zt.max(axis=1))
                scale = np.where(self.mx == new, self.ctype.type(1), np.exp(self.mx - new))
                e = np.subtract(zt, new[:, None], out=self.scratch.get("e", zt.shape, self.ctype))
                self.total = self.total * scale + np.exp(e, out=e).sum(axis=1)
                self.mx = new
            else:
                e = np.exp(zt)
                self.inf_exp += np.count_nonzero(np.isinf(e), axis=1)
                self.total = self.total + e.sum(axis=1)

    def overflow_after_first(self, keys: int) -> int:
        """The non-finite count pass 2 will find, known after pass 1 (for the sweeps).

        Stable: a row whose maximum is not finite or whose sum is NaN is NaN throughout.
        Naive: a NaN sum makes the whole row NaN; an infinite sum makes exactly the entries
        with exp(z) = inf NaN (inf/inf), the others 0.
        """
        if self.variant == "stable":
            bad = np.isnan(self.total) | ~np.isfinite(self.mx)
            return int(np.count_nonzero(bad)) * keys
        nan_rows = np.isnan(self.total)
        inf_rows = np.isinf(self.total) & ~nan_rows
        return int(np.count_nonzero(nan_rows)) * keys + int(self.inf_exp[inf_rows].sum())

    def second(self, z: np.ndarray, start: int, stats: StreamStats) -> None:
        """Pass 2 over the block of keys ``start`` … (the same blocks as pass 1)."""
        log_partition = stats.log_partition
        keys = stats.keys
        if self.top is None:
            self.top = np.full(stats.top_index.shape, np.nan, dtype=self.ctype)
        get = self.scratch.get
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            zt = round_logits(z, self.dtype)
            w = get("e", zt.shape, self.ctype)
            if self.variant == "stable":
                np.subtract(zt, self.mx[:, None], out=w)
            else:
                np.copyto(w, zt)
            np.exp(w, out=w)
            np.divide(w, self.total[:, None], out=w)  # the evaluated weights
            p = np.subtract(z, log_partition[:, None], out=get("p", z.shape))
            np.exp(p, out=p)  # the exact weights
            if np.isfinite(w).all():  # weight_errors' usual case, with reused work arrays
                w64 = w
                if w.dtype != np.float64:
                    w64 = get("w64", w.shape)
                    np.copyto(w64, w)
                err = np.subtract(w64, p, out=get("err", w.shape))
                np.abs(err, out=err)
                rel = get("rel", w.shape)
                rel.fill(0.0)
                np.divide(err, p, out=rel, where=p >= REL_ERROR_FLOOR / keys)
                self.row_sums += w64.sum(axis=1)
                self.l1_error += err.sum(axis=1)
                self.rel_error = np.maximum(self.rel_error, rel.max(axis=1))
                self.max_abs_error = np.maximum(self.max_abs_error, err.max(axis=1))
            else:
                errors = weight_errors(w, p, keys)
                self.overflow += int(w.size - np.count_nonzero(np.isfinite(w)))
                self.nonfinite_rows |= errors.nonfinite
                self.row_sums += w.astype(np.float64).sum(axis=1)
                self.l1_error += errors.l1
                self.rel_error = np.maximum(self.rel_error, errors.rel)
                self.max_abs_error = np.maximum(self.max_abs_error, errors.max_abs)
            local = stats.top_index - start
            inside = (local >= 0) & (local < w.shape[1])
            r, c = np.nonzero(inside)
            self.top[r, c] = w[r, local[r, c]]

    def top_weights(self) -> np.ndarray:
        """The evaluated weights of each row's top exact keys, largest first (NaN sorts last)."""
        assert self.top is not None  # second() has run
        return -np.sort(-self.top, axis=1)

    def errors(self) -> tuple[np.ndarray, np.ndarray, float]:
        """Per-row max relative error and Σ|w − p| (NaN where w overflowed), max |w − p|."""
        top = self.max_abs_error.max()
        return (np.where(self.nonfinite_rows, np.nan, self.rel_error),
                np.where(self.nonfinite_rows, np.nan, self.l1_error),
                float(top) if np.isfinite(top) else float("nan"))


# --- where the long-context logits come from ----------------------------------------------------

@dataclass(frozen=True)
class LongSpec:
    """One streamed computation: m sampled query rows against n independent keys."""

    seed: int
    rows: int
    keys: int
    d_k: int
    q_std: float = 1.0
    k_std: float = 1.0
    alignment: float = 0.0
    qk_norm: bool = False


_TAG_X, _TAG_R = 11, 12  # generator streams of the long-context draws (sampling uses 1..4)
_normals_cache: BoundedCache[tuple[int, int, int], np.ndarray] = BoundedCache(2)


def normals(seed: int, rows: int, keys: int) -> np.ndarray:
    """Read-only (rows, keys) float32 standard normals: q̂·k_j of each sampled row and key.

    Drawn in key blocks of ``BLOCK`` with their own generators, so the first keys are the
    same for any larger n (with the same number of rows). Two sets are cached (32 MB each at
    the largest n): dragging d_k or τ redraws nothing.
    """
    key = (seed, rows, keys)
    with _normals_cache.lock:  # drawn once when two threads ask together
        have = _normals_cache.get(key)
        if have is None:
            blocks = [np.random.default_rng([seed, _TAG_X, rows, b]).standard_normal((rows, BLOCK), np.float32)
                      for b in range(-(-keys // BLOCK))]
            have = np.concatenate(blocks, axis=1)[:, :keys].copy()
            have.flags.writeable = False
            _normals_cache.put(key, have)
    return have


def _row_geometry(spec: LongSpec) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """|q_i| of the sampled (possibly aligned) queries, and each aligned query's own-key dot.

    Returns (q_norm, own_dot, own_cos): own_dot = q_i·k_i and own_cos = q̂_i·k̂_i for
    alignment > 0 (query i leans towards key i, as in the dense model), else None.
    """
    m, d = spec.rows, spec.d_k
    q = pool(spec.seed, "q", m, d)
    if spec.alignment == 0.0:
        return np.sqrt(np.einsum("ij,ij->i", q, q)), None, None
    rho = spec.alignment
    k = pool(spec.seed, "k", m, d)  # the first m keys: key i is query i's own
    q = rho * k + math.sqrt(1.0 - rho * rho) * q
    q_norm = np.sqrt(np.einsum("ij,ij->i", q, q))
    own = np.einsum("ij,ij->i", q, k)
    return q_norm, own, own / (q_norm * np.sqrt(np.einsum("ij,ij->i", k, k)))


def logit_blocks(spec: LongSpec) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """(first key, raw q·k block, dots block) over all keys, deterministically.

    The dots are what ``mult`` multiplies: q·k, or the cosines for QK-norm (as in the dense
    model's ``Result.dots``); the logits are the scaling mode's factor times them.

    Non-own keys: q·k_j = |q|·x_j with x_j ~ N(0, 1) (``normals``); QK-norm's cosine is
    x_j / √(x_j² + χ²_{d−1}). Calling it twice yields the same blocks.
    """
    q_norm, own_dot, own_cos = _row_geometry(spec)
    x_all = normals(spec.seed, spec.rows, spec.keys)
    amp = spec.q_std * spec.k_std
    rows = np.arange(spec.rows)
    scale = (amp * q_norm)[:, None]
    for start in range(0, spec.keys, BLOCK):
        x32 = x_all[:, start:start + BLOCK]
        raw = scale * x32  # float64 (one new array per block: callers may keep the blocks)
        x = x32.astype(np.float64) if spec.qk_norm else None
        if x is not None:  # spec.qk_norm
            if spec.d_k > 1:
                rng = np.random.default_rng([spec.seed, _TAG_R, spec.rows, spec.d_k, start // BLOCK])
                chi2 = 2.0 * rng.standard_gamma(0.5 * (spec.d_k - 1), size=x.shape)
                dots = x / np.sqrt(x * x + chi2)
            else:
                dots = np.sign(x)
        if own_dot is not None:
            inside = rows[(rows >= start) & (rows < start + raw.shape[1])]
            if inside.size:
                raw[inside, inside - start] = amp * own_dot[inside]
                if spec.qk_norm:
                    assert own_cos is not None  # made with own_dot
                    dots[inside, inside - start] = own_cos[inside]
        yield start, raw, (dots if spec.qk_norm else raw)
