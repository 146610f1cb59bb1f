"""Training lab core: gradients, reproducibility, cancellation, metrics, learning."""

from __future__ import annotations

import math

import numpy as np
import pytest
from finite_differences import fd_grad
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import sqrtdk_gui.core.training.loop as training
from sqrtdk_gui.core.attention.scaling import TRAINED_SCALINGS
from sqrtdk_gui.core.training.loop import (
    DEFAULT_LR,
    LOSSES,
    METRIC_NAMES,
    Adam,
    TrainConfig,
    TrainResult,
    attention_metrics,
    init_params,
    loss_and_grad,
    make_batch,
    train,
)

pytestmark = pytest.mark.training  # CI also runs these under several BLAS kernels


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("scaling", TRAINED_SCALINGS)
@pytest.mark.parametrize("d_model,d_k", [(6, 3), (5, 8)])  # d_k below and above d_model
def test_backward_matches_central_finite_differences(scaling, loss, d_model, d_k):
    rng = np.random.default_rng(7)
    batch = make_batch(rng, batch=5, n_keys=4, d_model=d_model, d_v=3, noise=0.5)
    params = init_params(3, d_model, d_k)
    # Move off the initial point so every term of the gradient is exercised.
    params = {k: v + 0.3 * rng.standard_normal(v.shape) for k, v in params.items()}
    fwd = loss_and_grad(params, batch, scaling, loss, gain=3.0)
    fd = fd_grad(params, batch, scaling, loss, gain=3.0)
    for name in ("W_q", "W_k"):
        assert fwd.grads[name].shape == params[name].shape
        err = np.linalg.norm(fwd.grads[name] - fd[name]) / np.linalg.norm(fd[name])
        assert err < 1e-5, (name, err)


def test_ce_gradient_on_logits_is_p_minus_onehot_and_mse_is_bounded():
    rng = np.random.default_rng(0)
    batch = make_batch(rng, 4, 5, 6, 3, 0.5)
    params = init_params(0, 6, 4)
    ce = loss_and_grad(params, batch, "none", "ce")
    z = ce.logits
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    expected = np.mean(-np.log(p[np.arange(4), batch.target]))
    assert ce.loss == pytest.approx(expected, rel=1e-12)


def test_logit_scales_and_qk_norm_bound():
    rng = np.random.default_rng(1)
    batch = make_batch(rng, 8, 16, 64, 4, 0.5)
    params = init_params(0, 64, 256)
    raw = loss_and_grad(params, batch, "none", need_grad=False).logits
    scaled = loss_and_grad(params, batch, "sqrt_dk", need_grad=False).logits
    np.testing.assert_allclose(scaled, raw / 16.0, rtol=1e-12)
    normed = loss_and_grad(params, batch, "qk_norm", gain=10.0, need_grad=False).logits
    assert np.all(np.abs(normed) <= 10.0 + 1e-9)


def test_initial_raw_logits_have_std_sqrt_dk():
    # Unit-variance q, k entries give Var[q.k] = d_k; init N(0, 1/d_model) achieves it.
    d_k = 256
    rng = np.random.default_rng(2)
    batch = make_batch(rng, 256, 16, 64, 1, noise=0.0)
    z = loss_and_grad(init_params(5, 64, d_k), batch, "none", need_grad=False).logits
    others = np.ones_like(z, dtype=bool)
    others[np.arange(z.shape[0]), batch.target] = False
    assert np.std(z[others]) == pytest.approx(math.sqrt(d_k), rel=0.1)


def test_seeded_runs_reproduce_exactly():
    cfg = TrainConfig(d_k=32, steps=40, optimizer="adam", scaling="qk_norm")
    a, b = train(cfg), train(cfg)
    for name in METRIC_NAMES:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    for name in a.params:
        assert np.array_equal(a.params[name], b.params[name])
    c = train(TrainConfig(d_k=32, steps=40, optimizer="adam", scaling="qk_norm", seed=1))
    assert not np.array_equal(a.loss, c.loss)


def test_same_seed_same_initial_weights_and_data_across_scalings():
    a, b = init_params(4, 64, 128), init_params(4, 64, 128)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    # Through train(): step 0 is measured before any update. Raw and ÷√d_k logits differ
    # only by a positive factor, so their argmax (accuracy) must agree if weights and batch do.
    runs = {s: train(TrainConfig(d_k=128, steps=1, scaling=s, seed=4)) for s in TRAINED_SCALINGS}
    assert runs["none"].accuracy[0] == runs["sqrt_dk"].accuracy[0]
    assert runs["none"].entropy[0] < runs["sqrt_dk"].entropy[0]


def test_should_stop_returns_promptly_with_partial_curves():
    calls = {"n": 0}

    def should_stop():
        calls["n"] += 1
        return calls["n"] > 7  # flips to True on the 8th poll, i.e. before step 8

    r = train(TrainConfig(d_k=64, steps=10_000), should_stop=should_stop)
    assert r.cancelled and not r.diverged
    assert 7 <= r.steps_done <= 9
    for name in METRIC_NAMES:
        assert getattr(r, name).shape == (r.steps_done,)
    assert math.isfinite(r.final_loss)


def test_progress_reports_stable_read_only_growing_curves():
    seen = []

    def progress(step, curves):
        assert set(curves) == set(METRIC_NAMES)
        assert all(v.shape == (step,) for v in curves.values())
        with pytest.raises(ValueError):
            curves["loss"][0] = -1.0  # read-only: a GUI thread cannot corrupt the run
        seen.append((step, curves, {k: v.copy() for k, v in curves.items()}))

    r = train(TrainConfig(d_k=8, steps=25), progress=progress, progress_every=10)
    assert [s for s, _, _ in seen] == [10, 20, 25]
    for step, views, snapshot in seen:  # what was reported never changes afterwards
        for name in METRIC_NAMES:
            assert np.array_equal(views[name], snapshot[name])
            assert np.array_equal(views[name], getattr(r, name)[:step])


def test_divergence_stops_the_run(monkeypatch):
    real = training.loss_and_grad
    calls = {"n": 0}

    def flaky(*args, **kwargs):
        calls["n"] += 1
        fwd = real(*args, **kwargs)
        if calls["n"] == 4:
            return training.Forward(float("nan"), fwd.logits, fwd.grads)
        return fwd

    monkeypatch.setattr(training, "loss_and_grad", flaky)
    r = train(TrainConfig(d_k=8, steps=50))
    assert r.diverged and not r.cancelled and r.steps_done == 3
    assert r.summary()["steps_done"] == 3


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(d_k=4, scaling="none", optimizer="sgd"),
        dict(d_k=1024, scaling="none", optimizer="sgd", lr=10.0),  # saturated, stuck rows
        dict(d_k=256, scaling="qk_norm", optimizer="adam", loss="ce"),
    ],
)
def test_metrics_stay_in_range(kwargs):
    r = train(TrainConfig(steps=30, batch=32, **kwargs))
    n = r.config.n_keys
    assert np.all((r.accuracy >= 0) & (r.accuracy <= 1))
    assert np.all((r.entropy >= 0) & (r.entropy <= math.log(n)))
    assert np.all((r.saturated >= 0) & (r.saturated <= 1))
    assert np.all(r.stuck <= r.saturated)
    assert np.all(np.isfinite(r.loss)) and np.all(r.grad_norm >= 0)


def test_attention_metrics_extremes():
    target = np.array([0, 1, 2])
    uniform = attention_metrics(np.zeros((3, 4)), target)
    assert uniform["entropy"] == pytest.approx(math.log(4))
    assert uniform["saturated"] == 0.0 and uniform["stuck"] == 0.0
    onehot = np.full((3, 4), -1e6)
    onehot[:, 0] = 1e6  # every row saturated on key 0; only row 0 is right
    m = attention_metrics(onehot, target)
    assert m["entropy"] == 0.0 and m["saturated"] == 1.0
    assert m["accuracy"] == pytest.approx(1 / 3) and m["stuck"] == pytest.approx(2 / 3)


@settings(max_examples=60, deadline=None)
@given(
    z=arrays(np.float64, (5, 7), elements=st.floats(-1e4, 1e4)),
    target=arrays(np.int64, (5,), elements=st.integers(0, 6)),
)
def test_attention_metrics_invariants(z, target):
    m = attention_metrics(z, target)
    assert 0.0 <= m["accuracy"] <= 1.0
    assert 0.0 <= m["entropy"] <= math.log(7)
    assert 0.0 <= m["stuck"] <= m["saturated"] <= 1.0


def test_small_head_with_sqrt_dk_learns():
    cfg = TrainConfig(d_k=16, scaling="sqrt_dk", optimizer="sgd", steps=150)
    for row in training.train_grid(cfg, (cfg.lr,), (0, 1, 2, 3)):  # every seed
        r = row[0]
        assert r.final_accuracy > 0.8  # chance is 1/16
        assert r.final_loss < 0.3 * float(np.mean(r.loss[:10]))
        assert r.steps_to_90 is not None and r.steps_to_90 < 150


def test_steps_to_90_uses_trailing_window():
    n = 60
    acc = np.zeros(n)
    acc[30:] = 1.0  # window [k-20, k) mean reaches 0.9 once 18 of its 20 steps are ones
    curves = {name: np.zeros(n) for name in METRIC_NAMES}
    curves["accuracy"] = acc
    r = TrainResult(TrainConfig(steps=n), **curves)
    assert r.steps_to_90 == 48
    short = TrainResult(TrainConfig(steps=n), **{k: v[:10] for k, v in curves.items()})
    assert short.steps_to_90 is None
    assert r.final_accuracy == 1.0


def test_adam_first_step_moves_by_lr_times_sign():
    params = {"w": np.array([1.0, -2.0, 3.0])}
    Adam(lr=0.1).step(params, {"w": np.array([1e-3, -5.0, 0.0])})
    np.testing.assert_allclose(params["w"], [0.9, -1.9, 3.0], atol=1e-6)


def test_config_defaults_and_normalisation():
    cfg = TrainConfig()
    assert cfg.lr == DEFAULT_LR["sgd"]
    assert TrainConfig(optimizer="adam").lr == DEFAULT_LR["adam"]
    assert TrainConfig(d_k=np.int64(8), lr=1).d_k == 8
    assert isinstance(TrainConfig(lr=1).lr, float)
    assert cfg.scale == pytest.approx(1 / 8)


@pytest.mark.parametrize(
    "field,value",
    [
        ("d_k", 0), ("d_k", 5000), ("d_k", 2.5), ("d_k", True), ("n_keys", 1),
        ("batch", 0), ("steps", 0), ("seed", -1), ("noise", -0.1), ("noise", float("nan")),
        ("lr", 0.0), ("lr", -1.0), ("lr", float("inf")), ("gain", 0.0),
        ("scaling", "bogus"), ("optimizer", "rmsprop"), ("loss", "l1"),
    ],
)
def test_config_rejects_bad_values_naming_them(field, value):
    with pytest.raises(ValueError) as info:
        TrainConfig(**{field: value})
    msg = str(info.value)
    assert field in msg and repr(value).strip("'") in msg and "\n" not in msg


def test_config_rejects_oversized_runs():
    with pytest.raises(ValueError, match="exceeds"):
        TrainConfig(batch=4096, n_keys=1024, d_k=1024)


def test_summary_is_json_ready():
    import json

    r = train(TrainConfig(d_k=8, steps=5))
    s = r.summary()
    json.dumps(s, allow_nan=False)
    assert len(s["loss_curve"]) == 5 and s["steps_to_90"] is None
