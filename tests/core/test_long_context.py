"""Long context: streamed statistics against brute force, dilution, log_n, memory and time."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from sqrtdk_gui.core.attention import long_context as lc
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.long_context import DENSE_MAX_KEYS
from sqrtdk_gui.core.attention.params import DTYPES, Params
from sqrtdk_gui.core.attention.precision import numpy_dtype, weight_errors
from sqrtdk_gui.core.attention.scaling import log_n_factor, scale_factor
from sqrtdk_gui.core.attention.softmax import jacobian_matrix, row_stats, softmax_evaluated


def _logits(m=40, n=300, seed=0):
    """Rows from uniform to one-hot, plus exact ties and a row of equal logits."""
    rng = np.random.default_rng(seed)
    spreads = np.geomspace(0.01, 400, m)
    z = rng.standard_normal((m, n)) * spreads[:, None]
    z[3, [5, n - 3]] = z[3].max() + 1.0  # a tie for the top, in different blocks
    z[4] = 2.5  # all equal
    return z


def _stream(z, block):
    reducer = lc.RowReducer(z.shape[0], top_k=16)
    for start in range(0, z.shape[1], block):
        reducer.add(z[:, start:start + block])
    return reducer.result()


@pytest.mark.parametrize("block", [1, 7, 64, 299, 300, 1000])
def test_streamed_row_statistics_equal_brute_force(block):
    z = _logits()
    got, want = _stream(z, block), row_stats(z)
    for name in ("max_weight", "rest", "entropy", "jacobian_fro"):
        np.testing.assert_allclose(getattr(got, name), getattr(want, name), rtol=1e-12, atol=0, err_msg=name)
    lse = z.max(axis=1) + np.log(np.exp(z - z.max(axis=1, keepdims=True)).sum(axis=1))
    np.testing.assert_allclose(got.log_partition, lse, rtol=1e-13)
    np.testing.assert_array_equal(got.top_logits, -np.sort(-z, axis=1)[:, :16])
    np.testing.assert_array_equal(np.take_along_axis(z, got.top_index, axis=1), got.top_logits)
    np.testing.assert_allclose(got.logit_sum, z.sum(axis=1), rtol=1e-12, atol=1e-9)


def test_streamed_jacobian_norm_equals_the_explicit_matrix_even_when_one_hot():
    z = _logits(m=12, n=50, seed=3)
    got = _stream(z, 9)
    for i in range(z.shape[0]):
        p = row_stats(z[i:i + 1]).p[0]
        fro = np.linalg.norm(jacobian_matrix(p))
        if fro > 1e-6:  # where float64's explicit matrix is itself accurate
            assert got.jacobian_fro[i] == pytest.approx(fro, rel=1e-12)
    # nearly one-hot: the streamed norm keeps its tiny value (the closed form would give 0).
    # Reference: the explicit matrix with J_MM = p_M·(Σ_others p), where 1 − p_M would cancel.
    z = np.array([[0.0, -40.0, -41.0, -45.0]])
    e = np.exp(z[0])
    p = e / e.sum()
    j = -np.outer(p, p)
    np.fill_diagonal(j, p * (1 - p))
    j[0, 0] = p[0] * p[1:].sum()
    assert _stream(z, 2).jacobian_fro[0] == pytest.approx(np.linalg.norm(j), rel=1e-12)
    assert np.linalg.norm(j) < 1e-16


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("variant", ["stable", "naive"])
def test_streamed_evaluation_matches_the_dense_evaluation(dtype, variant):
    z = _logits(m=24, n=200)[:, :] / 4
    if dtype.startswith("float8") or dtype == "float16":
        z = z / 8  # mostly in range; the rows of largest spread still overflow
    exact = row_stats(z)
    stats = _stream(z, 64)
    ev = lc.EvaluatedSoftmax(z.shape[0], variant, numpy_dtype(dtype))
    for start in range(0, 200, 64):
        ev.first(z[:, start:start + 64])
    for start in range(0, 200, 64):
        ev.second(z[:, start:start + 64], start, stats)
    w, overflow = softmax_evaluated(z, variant, numpy_dtype(dtype))
    assert ev.overflow == overflow
    ok = np.isfinite(w).all(axis=1)
    # an online max and sum in the compute type round differently from one pass: close, not equal
    tol = {"float64": 1e-13, "float32": 1e-5}.get(str(ev.ctype), 5e-3)
    np.testing.assert_allclose(ev.row_sums[ok], w.astype(float).sum(axis=1)[ok], rtol=tol)
    dense = weight_errors(w, exact.p, z.shape[1])
    rel, l1, top = ev.errors()
    np.testing.assert_allclose(l1[ok], dense.l1[ok], rtol=0.05 if tol > 1e-4 else 1e-3, atol=tol)
    assert np.isnan(rel[~ok]).all() and np.isnan(l1[~ok]).all()
    shown = ev.top_weights()
    want = -np.sort(-np.where(np.isfinite(w), w, np.nan), axis=1)[:, :16]
    np.testing.assert_allclose(shown[ok][:, :4], want[ok][:, :4], rtol=max(tol, 1e-12))


def test_the_streamed_compute_is_its_own_blocks_through_brute_force():
    # n > 1024: compute streams; rebuilding its logits from the same blocks gives the same numbers.
    p = Params(d_k=48, keys=3000, queries=20, scaling="sqrt_dk", temperature=0.7, alignment=0.4)
    r = compute(p)
    assert r.streamed and r.rows == 20
    spec = lc.LongSpec(seed=0, rows=20, keys=3000, d_k=48, alignment=0.4)
    mult = scale_factor(p) / p.temperature
    z = mult * np.concatenate([dots for _, _, dots in lc.logit_blocks(spec)], axis=1)
    want = row_stats(z)
    for name in ("max_weight", "entropy", "jacobian_fro"):
        np.testing.assert_allclose(getattr(r, name), getattr(want, name), rtol=1e-12, err_msg=name)
    np.testing.assert_allclose(r.logits, z[:, :lc.SAMPLE_KEYS])
    np.testing.assert_allclose(r.p[:, :12], -np.sort(-want.p, axis=1)[:, :12], rtol=1e-12)
    assert r.logit_std == pytest.approx(np.std(z), rel=1e-10)
    block, _ = r.jacobian_block(0, 12)
    assert block.shape == (12, 12)
    # the aligned query's own key: its exact dot product, not a draw
    q = 0.4 * lc.pool(0, "k", 20, 48) + math.sqrt(1 - 0.16) * lc.pool(0, "q", 20, 48)
    own = np.einsum("ij,ij->i", q, lc.pool(0, "k", 20, 48))
    np.testing.assert_allclose(z[np.arange(20), np.arange(20)], mult * own, rtol=1e-12)
    assert np.isnan(r.grad_q).all()  # not computed when streamed


def test_streamed_rows_have_the_dense_model_distribution():
    # The same parameters on either side of the threshold: same law, different draws.
    dense = compute(Params(d_k=16, keys=DENSE_MAX_KEYS, queries=256, scaling="none"))
    spec = lc.LongSpec(seed=0, rows=256, keys=DENSE_MAX_KEYS, d_k=16)
    z = np.concatenate([dots for _, _, dots in lc.logit_blocks(spec)], axis=1)
    streamed = row_stats(z)
    assert np.std(z) == pytest.approx(dense.logit_std, rel=0.03)
    assert np.median(streamed.max_weight) == pytest.approx(dense.summary["max_weight"].median, rel=0.1)
    assert np.median(streamed.entropy) == pytest.approx(dense.summary["entropy"].median, rel=0.05)


def test_qk_norm_cosines_have_variance_one_over_dk():
    for d in (1, 16, 256):
        r = compute(Params(d_k=d, keys=4096, queries=64, scaling="qk_norm", gain=1.0))
        assert np.abs(r.dots).max() <= 1.0
        assert r.logit_std == pytest.approx(1 / math.sqrt(d), rel=0.03)


def test_dilution_max_weight_falls_and_entropy_grows_like_log_n():
    # Gaussian logits of spread σ = 1: H ≈ ln n − σ²/2 once n is large.
    prev = 1.0
    for n in (1024, 8192, 131072):
        r = compute(Params(d_k=64, keys=n, scaling="sqrt_dk"))
        h = r.summary["entropy"].median
        assert h == pytest.approx(math.log(n) - 0.5, abs=0.08)
        assert r.summary["max_weight"].median < prev / 3
        prev = r.summary["max_weight"].median


def test_log_n_factor_and_the_seq_len_trap():
    assert log_n_factor(2) == log_n_factor(64) == 1.0
    assert log_n_factor(4096) == pytest.approx(2.0)
    assert log_n_factor(131072) == pytest.approx(17 / 6)
    assert scale_factor(Params(d_k=64, keys=4096, scaling="log_n")) == pytest.approx(2 / 8)
    for n in (64, 4096, 131072):
        log_n = compute(Params(d_k=256, keys=n, scaling="log_n"))
        bug = compute(Params(d_k=256, keys=n, scaling="seq_len"))
        assert log_n.theory_std == pytest.approx(log_n_factor(n))
        assert log_n.logit_std == pytest.approx(log_n.theory_std, rel=0.03)
        assert bug.logit_std == pytest.approx(math.sqrt(256 / n), rel=0.03)


def test_sampled_rows_are_bounded():
    assert lc.sampled_rows(256, 1024) == 256
    assert lc.sampled_rows(8192, 2048) == lc.MAX_ROWS
    assert lc.sampled_rows(256, lc.MAX_KEYS) == 64
    assert lc.sampled_rows(10, lc.MAX_KEYS) == 10


# VmHWM, not getrusage: Linux carries ru_maxrss over from the parent (pytest) across exec.
_MEASURE = """
import json, sys, time
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
t = time.perf_counter()
r = compute(Params(d_k=4096, keys=131072, queries=8192, scaling=sys.argv[1], dtype="bfloat16"))
seconds = time.perf_counter() - t
hwm = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "rows": r.rows, "peak_mb": hwm / 1024,
                  "max_weight": r.summary["max_weight"].median}))
"""


@pytest.mark.parametrize("scaling", ["sqrt_dk", "qk_norm"])
def test_131072_keys_stay_well_under_500_mb(scaling):
    done = subprocess.run([sys.executable, "-c", _MEASURE, scaling], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["rows"] == 64 and out["peak_mb"] < 300, out


@pytest.mark.parametrize("dtype", ["float16", "float8_e4m3fn", "float8_e5m2", "float32"])
@pytest.mark.parametrize("variant", ["stable", "naive"])
def test_the_first_pass_knows_the_overflow_count(dtype, variant):
    z = _logits(m=30, n=500, seed=2) * 4  # spreads up to 1600: every type overflows somewhere
    ev = lc.EvaluatedSoftmax(30, variant, numpy_dtype(dtype))
    stats = _stream(z, 128)
    for start in range(0, 500, 128):
        ev.first(z[:, start:start + 128])
    predicted = ev.overflow_after_first(500)
    for start in range(0, 500, 128):
        ev.second(z[:, start:start + 128], start, stats)
    assert predicted == ev.overflow
    if variant == "naive" or dtype == "float8_e4m3fn":  # exp beyond the type / logits beyond 448
        assert ev.overflow > 0


def test_streamed_sweeps_summarise_the_same_computation():
    from sqrtdk_gui.core.attention.sweep import sweep

    base = Params(keys=5000, queries=32, scaling="none", dtype="float16", softmax="naive")
    s = sweep(base, d_ks=(16, 256))
    for i, d in enumerate((16, 256)):
        r = compute(base.replace(d_k=d))
        assert s.stat("max_weight", "median")[i] == r.summary["max_weight"].median
        assert s.stat("jacobian_fro", "p90")[i] == r.summary["jacobian_fro"].p90
        assert s.logit_std[i] == pytest.approx(r.logit_std, rel=1e-12)
        assert s.overflow_count[i] == r.overflow_count
    assert np.isnan(s.stat("grad_q", "median")).all()
