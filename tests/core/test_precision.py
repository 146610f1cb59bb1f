"""bfloat16 and float8: rounding against independent references, errors against float64."""

import math

import ml_dtypes
import numpy as np
import pytest

from sqrtdk_gui.core.attention import precision
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import DTYPES, Params
from sqrtdk_gui.core.attention.precision import LOW_PRECISION, numpy_dtype, round_logits, spacing, type_info
from sqrtdk_gui.core.attention.softmax import row_stats, softmax_evaluated

LOW = tuple(LOW_PRECISION)


def _bf16_by_bits(x: np.ndarray) -> np.ndarray:
    """bfloat16 rounding from float32 bits (nearest, ties to even), written out by hand."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return rounded.astype(np.uint32).view(np.float32).astype(np.float64)


def _float8_values(exp_bits: int, man_bits: int, bias: int, ieee: bool) -> np.ndarray:
    """Every finite value of a float8 format, from its bit layout."""
    values = []
    for e in range(2**exp_bits):
        for m in range(2**man_bits):
            if ieee and e == 2**exp_bits - 1:
                continue  # inf / NaN
            if not ieee and e == 2**exp_bits - 1 and m == 2**man_bits - 1:
                continue  # e4m3fn's only NaN
            if e == 0:
                v = m / 2**man_bits * 2.0 ** (1 - bias)
            else:
                v = (1 + m / 2**man_bits) * 2.0 ** (e - bias)
            values += [v, -v]
    return np.unique(values)


def _round_to_grid(x: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Nearest grid value, ties to the one with an even last mantissa bit (even index)."""
    i = np.clip(np.searchsorted(grid, x), 1, len(grid) - 1)
    lo, hi = grid[i - 1], grid[i]
    pick_hi = (x - lo > hi - x) | ((x - lo == hi - x) & (i % 2 == 0))
    return np.where(pick_hi, hi, lo)


@pytest.fixture(scope="module")
def logits():
    rng = np.random.default_rng(5)
    return np.concatenate([rng.normal(0, s, 4000) for s in (0.3, 3, 30, 100)])


def test_the_float_types_are_listed_once_in_the_model():
    assert DTYPES == ("float64", "float32", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2")
    assert all(numpy_dtype(n) == np.dtype(getattr(ml_dtypes, n)) for n in LOW)


def test_bfloat16_rounding_matches_the_bit_pattern_rule(logits):
    x = logits.astype(np.float32).astype(np.float64)  # bf16 rounds float32 values
    np.testing.assert_array_equal(round_logits(x, numpy_dtype("bfloat16")), _bf16_by_bits(x))


@pytest.mark.parametrize("name,layout", [("float8_e4m3fn", (4, 3, 7, False)),
                                         ("float8_e5m2", (5, 2, 15, True))])
def test_float8_rounding_matches_a_table_of_every_value(logits, name, layout):
    grid = _float8_values(*layout)
    x = logits[np.abs(logits) <= grid.max()]
    np.testing.assert_array_equal(round_logits(x, numpy_dtype(name)), _round_to_grid(x, grid))
    # and ml-dtypes' round trip agrees with itself: a representable value survives exactly
    np.testing.assert_array_equal(grid.astype(numpy_dtype(name)).astype(np.float64), grid)


def test_overflow_thresholds():
    assert type_info("float8_e4m3fn").max == 448.0
    assert type_info("float8_e5m2").max == 57344.0
    assert type_info("bfloat16").max == pytest.approx(type_info("float32").max, rel=0.01)
    z = np.array([400.0, 470.0, 60000.0, 70000.0, 1e38])
    e4 = round_logits(z, numpy_dtype("float8_e4m3fn"))
    assert e4[0] == 384.0 and np.isnan(e4[1:]).all()  # no infinity in e4m3fn: NaN
    e5 = round_logits(z, numpy_dtype("float8_e5m2"))
    assert e5[2] == 57344.0 and np.isinf(e5[3:]).all()
    assert np.isfinite(round_logits(z, numpy_dtype("bfloat16"))).all()


def test_bfloat16_spacing_at_64_is_a_half_and_two_roundings_move_a_weight_by_up_to_65_percent():
    assert spacing("bfloat16", 64.0) == 0.5
    assert spacing("float32", 64.0) == 2.0**-17
    assert math.exp(spacing("bfloat16", 64.0)) - 1 == pytest.approx(0.649, abs=0.001)
    z = np.array([[64.0 + 0.24, 64.0, 0.0]])  # rounds down by 0.24: the first weight shrinks
    w, _ = softmax_evaluated(z, "stable", numpy_dtype("bfloat16"))
    exact = row_stats(z).p
    assert w[0, 0] / w[0, 1] == pytest.approx(1.0)
    assert exact[0, 0] / exact[0, 1] == pytest.approx(math.exp(0.24))
    # a weight's own logit rounds down while the largest rounds up: the ratio moves by e^0.48
    z = np.array([[64.24, 64.26, 0.0]])
    w, _ = softmax_evaluated(z, "stable", numpy_dtype("bfloat16"))
    exact = row_stats(z).p
    moved = (exact[0, 0] / exact[0, 1]) / (w[0, 0] / w[0, 1])
    assert moved == pytest.approx(math.exp(0.48), rel=1e-6) and moved - 1 > 0.6


def test_a_fused_kernel_model_rounds_q_and_k_not_the_logits():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((64, 256)), rng.standard_normal((32, 256))
    scale = 1 / 16
    w = precision.fused_kernel_weights(q, k, scale)
    # an independent reference: q, k through bfloat16, S in float64, p rounded to bfloat16
    bf = ml_dtypes.bfloat16
    s = (q.astype(bf).astype(np.float64) @ k.astype(bf).astype(np.float64).T) * scale
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(w, p.astype(bf).astype(np.float64), rtol=2**-7, atol=1e-6)
    assert np.allclose(w.sum(axis=1), 1, atol=0.02) and np.isfinite(w).all()
    exact = row_stats(q @ k.T * scale).p
    raw = precision.fused_kernel_weights(q, k, 1.0)
    err = lambda a, b: np.percentile(precision.weight_errors(a, b, 32).rel, 90)  # noqa: E731
    assert err(raw, row_stats(q @ k.T).p) > 5 * err(w, exact)  # raw logits: larger error


@pytest.mark.parametrize("name", LOW)
@pytest.mark.parametrize("variant", ["stable", "naive"])
def test_low_precision_softmax_is_float32_on_rounded_logits(logits, name, variant):
    z = logits.reshape(16, -1) / 8
    w, overflow = softmax_evaluated(z, variant, numpy_dtype(name))
    assert w.dtype == np.float32
    zt = z.astype(numpy_dtype(name)).astype(np.float32)  # an ml-dtypes round trip
    with np.errstate(all="ignore"):
        if variant == "stable":
            zt = zt - zt.max(axis=1, keepdims=True)
        e = np.exp(zt)
        expected = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_array_equal(w, expected)
    assert overflow == np.count_nonzero(~np.isfinite(expected))


@pytest.mark.parametrize("dtype", DTYPES)
def test_result_errors_against_an_exact_float64_reference(dtype):
    params = Params(d_k=256, keys=32, queries=64, scaling="none", dtype=dtype)
    r = compute(params)
    z = r.logits
    exact = np.exp(z - z.max(axis=1, keepdims=True))
    exact /= exact.sum(axis=1, keepdims=True)
    w = r.weights.astype(np.float64)
    ok = np.isfinite(w)
    assert r.weight_max_abs_error == pytest.approx(np.abs(w - exact)[ok].max(), rel=1e-9, abs=1e-15)
    floor = exact >= precision.REL_ERROR_FLOOR / params.keys
    rel = np.where(floor, np.abs(w - exact) / exact, 0).max(axis=1)
    np.testing.assert_allclose(r.weight_rel_error, rel, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(r.weight_l1_error, np.abs(w - exact).sum(axis=1), rtol=1e-9, atol=1e-15)


def test_scaled_logits_keep_the_bfloat16_error_small_at_every_head_size():
    rel = {}
    for scaling in ("none", "sqrt_dk"):
        for d in (16, 256, 4096):
            r = compute(Params(d_k=d, scaling=scaling, dtype="bfloat16"))
            rel[scaling, d] = r.rel_error_summary.p90
    assert all(rel["sqrt_dk", d] < 0.01 for d in (16, 256, 4096))  # about 2^-8 relative
    assert rel["none", 256] > 10 * rel["sqrt_dk", 256]
    assert rel["none", 4096] > 0.15  # |z| of tens: spacing 0.25-1, weights off by 15 % and more


def test_float8_e4m3fn_overflow_is_counted_not_raised():
    r = compute(Params(d_k=4096, scaling="none", q_std=2.0, k_std=2.0, dtype="float8_e4m3fn"))
    assert r.overflow_count > 0 and np.isnan(r.weights).any()
    assert r.logits.max() > 448
    e5 = compute(Params(d_k=4096, scaling="none", q_std=2.0, k_std=2.0, dtype="float8_e5m2"))
    assert e5.overflow_count == 0  # 57 344 is far above |z| ≈ 1 000


def test_float64_evaluation_matches_the_exact_softmax():
    r = compute(Params(d_k=64, keys=64, dtype="float64"))
    assert r.weight_max_abs_error < 1e-15 and r.rel_error_summary.p90 < 1e-13


def test_the_precision_table_models_a_fused_kernel_too():
    from sqrtdk_gui.core.lesson.evidence import evidence
    from sqrtdk_gui.core.lesson.measure import fused_kernel_error
    from sqrtdk_gui.core.lesson.pages.followup_precision import PRECISION_DKS

    ev = evidence("precision", Params(d_k=1024, dtype="bfloat16", scaling="none"))
    assert ev.headers[-2:] == ("kernel raw", "kernel ÷√d_k")
    raw = [fused_kernel_error(Params(d_k=d), "none") for d in PRECISION_DKS]
    scaled = [fused_kernel_error(Params(d_k=d), "sqrt_dk") for d in PRECISION_DKS]
    assert raw == sorted(raw) and raw[-1] > 10 * max(scaled)  # grows with the logits
    assert max(scaled) < 0.02 and max(scaled) / min(scaled) < 1.5  # ÷√d_k: flat, under 2 %
    assert ev.rows[3][-2] == f"{100 * raw[3]:.0f} %"
