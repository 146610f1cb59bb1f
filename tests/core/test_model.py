"""The attention model against theory, finite differences and its own contracts (no Qt)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.dense import VALUE_DIM
from sqrtdk_gui.core.attention.params import DTYPES, SOFTMAX_VARIANTS, Params
from sqrtdk_gui.core.attention.sampling import pool
from sqrtdk_gui.core.attention.scaling import SCALINGS, scale_factor
from sqrtdk_gui.core.attention.softmax import jacobian_matrix
from sqrtdk_gui.core.attention.sweep import DK_GRID, sweep

# --- Params -------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "name,value,allowed",
    [("d_k", 0, "1..4096"), ("d_k", 4097, "1..4096"), ("keys", 1, "2..131072"), ("keys", 131073, "2..131072"),
     ("temperature", 0.0, "[0.05, 10]"), ("temperature", 11, "[0.05, 10]"),
     ("queries", 0, "1..8192"), ("heads", 0, "1..128"), ("gain", 0.0, "[0.1, 100]"),
     ("q_std", -1.0, "[0.1, 10]"), ("alignment", 1.5, "[0, 1]"), ("seed", -1, "0..4294967295")],
)
def test_out_of_range_params_name_parameter_value_and_range(name, value, allowed):
    for make in (lambda: Params(**{name: value}), lambda: Params().replace(**{name: value})):
        with pytest.raises(ValueError) as info:
            make()
        message = str(info.value)
        assert name in message and str(value) in message and allowed in message


@pytest.mark.parametrize("name,value", [("scaling", "d_model"), ("softmax", "fast"), ("dtype", "int8"),
                                        ("d_k", 2.5), ("d_k", True), ("temperature", "1"),
                                        ("temperature", float("nan"))])
def test_wrong_kinds_are_rejected(name, value):
    with pytest.raises(ValueError, match=name):
        Params(**{name: value})
    with pytest.raises(ValueError, match=name):  # replace checks only the changed fields
        Params().replace(**{name: value})


def test_params_are_frozen_and_hashable():
    import dataclasses
    import pickle

    p = Params()
    with pytest.raises(AttributeError):
        p.d_k = 3
    assert p.replace(d_k=8) == Params(d_k=8) and hash(p.replace(d_k=8)) == hash(Params(d_k=8))
    # replace normalises like the constructor, keeps the other fields, rejects unknown names
    q = p.replace(d_k=np.int64(8), temperature=2, scaling="none")
    assert q == Params(d_k=8, temperature=2.0, scaling="none") and type(q.d_k) is int
    assert type(q.temperature) is float and hash(q) == hash(Params(d_k=8, temperature=2.0, scaling="none"))
    assert dataclasses.asdict(q) == dataclasses.asdict(Params(d_k=8, temperature=2.0, scaling="none"))
    with pytest.raises(TypeError):
        p.replace(d_q=3)
    # the remembered hash stays in its process (a string's hash differs between processes)
    hash(q)
    copy = pickle.loads(pickle.dumps(q))
    assert copy == q and "_hash" not in copy.__dict__ and hash(copy) == hash(q)


# --- variance: sigma grows like sqrt(d_k) --------------------------------------------------

@pytest.mark.parametrize("d_k,expected", [(64, 8.0), (512, 22.63)])
def test_unscaled_logit_std_is_sqrt_dk(d_k, expected):
    r = compute(Params(d_k=d_k, scaling="none", keys=64, queries=1024))
    assert r.logit_std == pytest.approx(expected, rel=0.04)
    assert r.theory_std == pytest.approx(expected, rel=1e-3)


@pytest.mark.parametrize("d_k", [1, 16, 64, 512, 4096])
def test_sqrt_dk_scaling_gives_unit_std(d_k):
    r = compute(Params(d_k=d_k, scaling="sqrt_dk", keys=64, queries=1024))
    assert r.theory_std == 1.0
    assert r.logit_std == pytest.approx(1.0, rel=0.1 if d_k == 1 else 0.04)


@pytest.mark.parametrize("scaling", SCALINGS)
@pytest.mark.parametrize("d_k", [16, 256])
def test_theory_std_matches_empirical_for_every_mode(scaling, d_k):
    p = Params(d_k=d_k, scaling=scaling, keys=128, queries=1024, temperature=0.7,
               q_std=1.3, k_std=0.8, heads=4, gain=3.0)
    r = compute(p)
    assert r.logit_std == pytest.approx(r.theory_std, rel=0.05)


@pytest.mark.parametrize("rho", [0.3, 0.8])
def test_theory_std_with_alignment(rho):
    r = compute(Params(d_k=256, scaling="none", alignment=rho, keys=32, queries=2048))
    assert r.logit_std == pytest.approx(r.theory_std, rel=0.05)


def test_changing_the_number_of_keys_leaves_the_spread_unchanged():
    stds = [compute(Params(d_k=256, scaling="none", keys=n, queries=512)).logit_std
            for n in (16, 128, 1024)]
    assert max(stds) / min(stds) < 1.05
    # ...which is why a scale derived from n is wrong: it moves sigma with n instead.
    seq = [compute(Params(d_k=256, scaling="seq_len", keys=n, queries=512)).logit_std for n in (16, 1024)]
    assert seq[0] / seq[1] == pytest.approx(8.0, rel=0.05)


# --- nested sampling ------------------------------------------------------------------------

def test_raising_dk_adds_dimensions_to_the_same_vectors():
    small = compute(Params(d_k=100, scaling="none", keys=8, queries=16))
    big = compute(Params(d_k=101, scaling="none", keys=8, queries=16))
    q, k = pool(0, "q", 16, 101), pool(0, "k", 8, 101)
    np.testing.assert_allclose(big.dots - small.dots, np.outer(q[:, 100], k[:, 100]), atol=1e-10)
    np.testing.assert_allclose(small.dots, q[:, :100] @ k[:, :100].T, atol=1e-10)


def test_more_queries_keep_the_first_ones():
    np.testing.assert_array_equal(pool(0, "q", 5, 70), pool(0, "q", 9, 70)[:5])  # the same vectors
    a = compute(Params(d_k=70, queries=5, keys=4))
    b = compute(Params(d_k=70, queries=9, keys=4))
    # The same dot products, up to the last bits BLAS rounds differently for other shapes.
    np.testing.assert_allclose(a.dots, b.dots[:5], rtol=1e-13, atol=1e-12)
    assert not np.array_equal(a.dots, compute(Params(d_k=70, queries=5, keys=4, seed=1)).dots)


# --- gradients against finite differences ------------------------------------------------

def _reference_loss(params: Params, i: int, q_row: np.ndarray) -> float:
    """L_i = <G_i, w_i V>, evaluated from scratch for query row i (complex-step friendly)."""
    m, n, d = params.queries, params.keys, params.d_k
    k = params.k_std * pool(params.seed, "k", n, d)
    dots = (q_row / np.sqrt(np.sum(q_row * q_row))) @ (k / np.linalg.norm(k, axis=1)[:, None]).T \
        if params.scaling == "qk_norm" else q_row @ k.T
    z = scale_factor(params) / params.temperature * dots
    e = np.exp(z - np.max(z.real))
    w = e / e.sum()
    if params.scaling == "after_softmax":
        w = w / math.sqrt(d)
    g = pool(params.seed, "g", m, VALUE_DIM)[i]
    v = pool(params.seed, "v", n, VALUE_DIM)
    return g @ (w @ v)


def _query(params: Params, i: int) -> np.ndarray:
    q = pool(params.seed, "q", params.queries, params.d_k)[i]
    if params.alignment:
        rho = params.alignment
        q = rho * pool(params.seed, "k", params.keys, params.d_k)[i % params.keys] \
            + math.sqrt(1 - rho * rho) * q
    return params.q_std * q


@pytest.mark.parametrize("scaling", SCALINGS)
def test_query_gradient_matches_central_differences(scaling):
    p = Params(d_k=12, scaling=scaling, keys=6, queries=4, temperature=1.5, q_std=0.9,
               k_std=1.1, heads=2, gain=2.0, alignment=0.2)
    r = compute(p)
    h = 1e-6
    for i in range(p.queries):
        q = _query(p, i)
        fd = np.array([(_reference_loss(p, i, q + h * e) - _reference_loss(p, i, q - h * e)) / (2 * h)
                       for e in np.eye(p.d_k)])
        assert r.grad_q[i] == pytest.approx(np.linalg.norm(fd), rel=1e-6)


@pytest.mark.parametrize("scaling", ["none", "qk_norm"])
def test_query_gradient_of_saturated_rows_matches_complex_step(scaling):
    # Central differences cannot resolve gradients of 1e-12; the complex step can.
    p = Params(d_k=512, scaling=scaling, keys=8, queries=6, gain=100.0, temperature=0.1)
    r = compute(p)
    assert r.summary["max_weight"].median > 0.999
    for i in range(p.queries):
        q = _query(p, i).astype(complex)
        cs = np.array([_reference_loss(p, i, q + 1e-30j * e).imag / 1e-30 for e in np.eye(p.d_k)])
        assert r.grad_q[i] == pytest.approx(np.linalg.norm(cs), rel=1e-6)


def test_result_jacobian_norms_are_those_of_the_explicit_matrix():
    r = compute(Params(d_k=32, scaling="none", keys=10, queries=8))
    for i in range(8):
        J = jacobian_matrix(r.p[i])
        np.testing.assert_allclose(J.sum(axis=1), 0.0, atol=1e-15)
        assert r.jacobian_fro[i] == pytest.approx(np.linalg.norm(J), rel=1e-9, abs=1e-15)


# --- the traps --------------------------------------------------------------------------

def test_stable_and_naive_give_identical_weights_without_overflow():
    a = compute(Params(d_k=64, softmax="stable", dtype="float32"))
    b = compute(Params(d_k=64, softmax="naive", dtype="float32"))
    assert a.overflow_count == b.overflow_count == 0
    np.testing.assert_allclose(a.weights, b.weights, rtol=1e-5, atol=1e-7)


def test_max_subtraction_prevents_overflow_but_not_saturation():
    base = Params(d_k=512, scaling="none", dtype="float16", keys=16, queries=512)
    naive, stable = compute(base.replace(softmax="naive")), compute(base.replace(softmax="stable"))
    assert naive.overflow_count > 0 and stable.overflow_count == 0
    assert np.isfinite(stable.weights).all()
    # The same saturation either way; the stable float16 weights agree with the exact ones.
    np.testing.assert_array_equal(naive.max_weight, stable.max_weight)
    assert naive.saturated_fraction == stable.saturated_fraction > 0.5
    # (float16 rounds logits near 40 to steps of 1/32, so weights agree to about 1e-2.)
    np.testing.assert_allclose(stable.weights.max(axis=1), stable.max_weight, atol=1e-2)


def test_scaling_after_softmax_leaves_rows_summing_to_one_over_sqrt_dk():
    r = compute(Params(d_k=256, scaling="after_softmax"))
    np.testing.assert_allclose(r.row_sums, 1 / 16, rtol=1e-12)
    assert r.row_sum_max_error == pytest.approx(1 - 1 / 16)
    assert r.saturated_fraction == compute(Params(d_k=256, scaling="none")).saturated_fraction


def test_dividing_by_sqrt_dmodel_flattens_attention_towards_uniform():
    per_head = compute(Params(d_k=64, scaling="sqrt_dk", heads=8))
    d_model = compute(Params(d_k=64, scaling="sqrt_dmodel", heads=8))
    assert d_model.logit_std == pytest.approx(per_head.logit_std / math.sqrt(8), rel=1e-12)
    assert d_model.summary["entropy"].median > 0.98 * d_model.log_n
    assert per_head.summary["entropy"].median < 0.93 * per_head.log_n
    one_head = compute(Params(d_k=64, scaling="sqrt_dmodel", heads=1))
    np.testing.assert_array_equal(one_head.logits, per_head.logits)


@pytest.mark.parametrize("d_k", DK_GRID)
def test_qk_norm_logits_stay_within_the_gain(d_k):
    r = compute(Params(d_k=d_k, scaling="qk_norm", gain=5.0, temperature=1.0, queries=64))
    assert np.abs(r.logits).max() <= 5.0 * (1 + 1e-12)


def test_alignment_makes_dots_grow_like_dk_and_one_over_dk_holds_the_spread():
    def std(scaling, d):
        return compute(Params(d_k=d, scaling=scaling, alignment=0.7, keys=16, queries=512)).logit_std
    assert std("dk", 4096) / std("dk", 256) == pytest.approx(1.0, abs=0.15)
    assert std("sqrt_dk", 4096) / std("sqrt_dk", 256) > 3.0


# --- the story across d_k --------------------------------------------------------------

def test_unscaled_jacobian_median_collapses_while_the_mean_lingers():
    s = sweep(Params(scaling="none", keys=16, queries=2048))
    big = s.d_k >= 16
    median = s.stat("jacobian_fro", "median")[big]
    assert np.all(np.diff(median) < 0)
    assert np.all(np.diff(s.saturated_fraction[big]) > 0)
    assert s.saturated_fraction[-1] > 0.8 and median[-1] < 1e-6
    mean = s.stat("jacobian_fro", "mean")[big]
    assert mean[-1] > 1e3 * median[-1]  # rare near-ties keep the mean up
    grad = s.stat("grad_q", "median")[big]
    assert grad[-1] < 1e-4 * grad[0]


def test_scaled_curves_stay_flat_across_dk():
    s = sweep(Params(scaling="sqrt_dk", keys=16, queries=2048))
    keep = s.d_k >= 4
    for quantity in ("jacobian_fro", "entropy", "grad_q"):
        median = s.stat(quantity, "median")[keep]
        assert median.max() / median.min() < 1.4, quantity  # unscaled: a factor 1e8
    assert s.saturated_fraction.max() < 0.02


def test_sweep_is_cached_per_parameter_set_without_dk():
    assert sweep(Params(d_k=3, keys=12)) is sweep(Params(d_k=999, keys=12))
    assert sweep(Params(keys=12)) is not sweep(Params(keys=13))
    s = sweep(Params(keys=12), d_ks=(4, 8))
    assert s.logit_std[1] == compute(Params(d_k=8, keys=12)).logit_std


# --- every summary is finite except the counted overflow ------------------------------

@settings(max_examples=60, deadline=None)
@given(
    d_k=st.integers(1, 4096),
    temperature=st.floats(0.05, 10),
    keys=st.integers(2, 300),
    queries=st.integers(1, 64),
    scaling=st.sampled_from(SCALINGS),
    softmax=st.sampled_from(SOFTMAX_VARIANTS),
    dtype=st.sampled_from(DTYPES),
    q_std=st.floats(0.1, 10),
    heads=st.integers(1, 128),
    gain=st.floats(0.1, 100),
    alignment=st.floats(0, 1),
    seed=st.integers(0, 3),
)
def test_every_summary_is_finite_except_counted_overflow(**kw):
    r = compute(Params(**kw))
    for name, s in r.summary.items():
        assert all(math.isfinite(getattr(s, f)) for f in ("mean", "median", "p10", "p90")), name
    assert 0 <= r.saturated_fraction <= 1 and math.isfinite(r.logit_std)
    assert np.all((r.max_weight >= 1 / kw["keys"] - 1e-12) & (r.max_weight <= 1))
    assert np.all((r.entropy >= 0) & (r.entropy <= math.log(kw["keys"]) + 1e-9))
    if r.overflow_count == 0:
        assert math.isfinite(r.row_sum_max_error) and np.isfinite(r.weights).all()
    else:
        assert not np.isfinite(r.weights).all()
    assert math.isfinite(r.theory_std) or (kw["scaling"] == "qk_norm" and kw["alignment"] > 0)


# --- what the panels draw comes from the model ----------------------------------------------

@pytest.mark.parametrize("scaling,other,spread", [("none", "sqrt_dk", 1.0), ("sqrt_dk", "none", 32.0),
                                                  ("qk_norm", "none", 32.0)])
def test_comparison_logits_are_the_same_vectors_under_the_other_scaling(scaling, other, spread):
    # QK-norm's own logits are gain·cosines; its ghost must still be the raw q·k (σ ≈ √d_k),
    # not the cosines (σ ≈ 0.03) that the panel once rebuilt from ``dots``.
    r = compute(Params(d_k=1024, keys=32, queries=128, scaling=scaling))
    q, k = pool(0, "q", 128, 1024), pool(0, "k", 32, 1024)
    name, ghost = r.comparison
    assert name == other
    expected = (q @ k.T) / (math.sqrt(1024) if other == "sqrt_dk" else 1.0)
    np.testing.assert_allclose(ghost, expected, rtol=1e-9, atol=1e-9)
    assert abs(np.std(ghost) / spread - 1) < 0.1


def test_jacobian_block_is_the_full_jacobian_on_the_top_keys():
    r = compute(Params(d_k=16, keys=40, queries=8, scaling="none"))
    for row in range(8):
        block, order = r.jacobian_block(row, 12)
        full = jacobian_matrix(r.p[row])
        np.testing.assert_allclose(block, full[np.ix_(order, order)], atol=1e-15)
        assert np.all(np.diff(r.p[row][order]) <= 0) and order.size == 12


def test_summaries_of_several_rows_at_once_equal_one_at_a_time():
    from sqrtdk_gui.core.attention.result import Summary

    rng = np.random.default_rng(3)
    rows = {name: rng.lognormal(size=301) for name in ("a", "b", "c")}
    rows["b"][7] = np.inf
    together = Summary.of_each(rows)
    for name, x in rows.items():
        alone = Summary.of(x)
        assert together[name] == alone  # exactly: the same percentiles, not a close copy
    uneven = Summary.of_each({"a": rows["a"], "short": rows["c"][:10]})
    assert uneven["short"] == Summary.of(rows["c"][:10])
