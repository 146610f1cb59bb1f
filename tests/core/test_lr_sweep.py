"""Learned W_v, depth, the per-step curves, train_grid and learning-rate sweeps."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from finite_differences import fd_grad

import sqrtdk_gui.core.training.loop as training
from sqrtdk_gui.core.attention.scaling import TRAINED_SCALINGS
from sqrtdk_gui.core.training.loop import (
    LOSSES,
    METRIC_NAMES,
    TrainConfig,
    TrainResult,
    init_params,
    loss_and_grad,
    make_batch,
    train,
    train_grid,
)
from sqrtdk_gui.core.training.lr_sweep import LR_GRID, MAX_WORKERS, ScalingSweep, check_grid, default_workers, run_sweep
from sqrtdk_gui.core.training.task import param_name

pytestmark = pytest.mark.training  # CI also runs these under several BLAS kernels


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("scaling", TRAINED_SCALINGS)
@pytest.mark.parametrize("layers", [1, 2, 3])
@pytest.mark.parametrize("d_k", [4, 16])  # through q.k, and through M = W_q W_k^T (d_k > d_model)
def test_backward_with_w_v_and_depth_matches_finite_differences(layers, scaling, loss, d_k):
    rng = np.random.default_rng(11)
    batch = make_batch(rng, batch=4, n_keys=4, d_model=5, d_v=3, noise=0.5)
    params = init_params(2, d_model=5, d_k=d_k, d_v=3, layers=layers)
    assert set(params) == {param_name(k, i) for k in ("W_q", "W_k", "W_v")
                           for i in range(1, layers + 1)}
    assert params[param_name("W_v", layers)].shape == (3, 3)  # the last layer reads values
    params = {k: v + 0.3 * rng.standard_normal(v.shape) for k, v in params.items()}
    fwd = loss_and_grad(params, batch, scaling, loss, gain=3.0)
    fd = fd_grad(params, batch, scaling, loss, gain=3.0)
    for name in params:
        scale = np.linalg.norm(fd[name])
        if scale < 1e-10:  # cross-entropy never reaches the last W_v
            assert loss == "ce" and name == param_name("W_v", layers)
            assert np.all(fwd.grads[name] == 0.0)
            continue
        err = np.linalg.norm(fwd.grads[name] - fd[name]) / scale
        assert err < 1e-5, (name, err)


def test_identity_w_v_changes_nothing():
    rng = np.random.default_rng(3)
    batch = make_batch(rng, 6, 5, 7, 4, 0.5)
    with_v = init_params(1, 7, 6, d_v=4, layers=2)
    without = {k: v for k, v in with_v.items() if not k.startswith("W_v")}
    for scaling in TRAINED_SCALINGS:
        a = loss_and_grad(with_v, batch, scaling)
        b = loss_and_grad(without, batch, scaling)
        assert a.loss == b.loss
        for name in without:
            assert np.array_equal(a.grads[name], b.grads[name])


def test_run_axes_give_each_run_its_own_result():
    rng = np.random.default_rng(0)
    batches = [make_batch(np.random.default_rng(s), 4, 4, 5, 3, 0.5) for s in (0, 1)]
    runs = [[{k: v + 0.2 * rng.standard_normal(v.shape)
              for k, v in init_params(s, 5, 6, 3, 2).items()} for _ in range(3)] for s in (0, 1)]
    stacked = {k: np.array([[r[k] for r in row] for row in runs]) for k in runs[0][0]}
    batch = training.Batch(*(np.stack([getattr(b, f) for b in batches])[:, None]
                             for f in ("keys", "values", "query", "target")))
    fwd = loss_and_grad(stacked, batch, "qk_norm", "mse", 4.0)
    assert fwd.loss.shape == (2, 3)
    for i in range(2):
        for j in range(3):
            one = loss_and_grad(runs[i][j], batches[i], "qk_norm", "mse", 4.0)
            assert one.loss == fwd.loss[i, j]
            for name in one.grads:
                np.testing.assert_array_equal(one.grads[name], fwd.grads[name][i, j])


@pytest.mark.parametrize("kwargs", [
    dict(scaling="qk_norm", optimizer="adam", learn_v=True),
    dict(scaling="none", layers=2, loss="ce"),
])
def test_train_grid_runs_are_the_single_runs_bit_for_bit(kwargs):
    base = TrainConfig(d_k=12, d_model=8, steps=30, batch=16, **kwargs)
    lrs = (0.01, 0.3) if base.optimizer == "adam" else (0.1, 2.0)
    grid = train_grid(base, lrs, (0, 5))
    for i, seed in enumerate((0, 5)):
        for j, lr in enumerate(lrs):
            one = train(TrainConfig(**{**base.to_dict(), "lr": lr, "seed": seed}))
            got = grid[i][j]
            assert got.config == one.config
            for name in METRIC_NAMES:
                np.testing.assert_array_equal(getattr(got, name), getattr(one, name))
            for name in one.params:
                np.testing.assert_array_equal(got.params[name], one.params[name])


def test_step_zero_curves_are_the_initial_forward_pass():
    cfg = TrainConfig(d_k=32, d_model=16, n_keys=8, d_v=4, batch=32, steps=1, seed=7,
                      scaling="none", layers=2)
    r = train(cfg)
    params = init_params(7, 16, 32, d_v=4, layers=2)
    batch = make_batch(np.random.default_rng([7, 1]), 32, 8, 16, 4, cfg.noise)
    fwd = loss_and_grad(params, batch, "none")
    assert r.max_logit[0] == max(np.abs(z).max() for z in fwd.layer_logits)
    for curve, kind in (("grad_q", "W_q"), ("grad_k", "W_k"), ("grad_v", "W_v")):
        want = math.sqrt(sum(np.sum(g * g) for n, g in fwd.grads.items() if n.startswith(kind)))
        assert getattr(r, curve)[0] == pytest.approx(want, rel=1e-12)
    # grad_norm covers the learned parameters only: W_v is fixed unless learn_v
    want = math.sqrt(sum(np.sum(g * g) for n, g in fwd.grads.items() if not n.startswith("W_v")))
    assert r.grad_norm[0] == pytest.approx(want, rel=1e-12)


def test_w_v_is_learned_only_when_asked():
    fixed = train(TrainConfig(d_k=16, steps=20))
    learned = train(TrainConfig(d_k=16, steps=20, learn_v=True))
    assert np.array_equal(fixed.params["W_v"], np.eye(16))
    assert not np.array_equal(learned.params["W_v"], np.eye(16))
    assert np.all(fixed.grad_v > 0) and np.all(learned.grad_v > 0)  # recorded either way


def test_two_layers_with_sqrt_dk_learn():
    cfg = TrainConfig(d_k=16, layers=2, steps=200)
    for r in (row[0] for row in train_grid(cfg, (cfg.lr,), (0, 1, 2, 3))):  # every seed
        assert r.final_accuracy > 0.8 and r.steps_to_90 is not None


def test_saturation_freezes_where_the_head_looks_not_what_it_reads():
    # The mechanism on a constructed case, not a training run: scale W_q by c so the raw
    # logits widen by c, and follow the gradient each example sends back. As its row
    # saturates, the softmax Jacobian diag(p) - ppᵀ vanishes, and with it the gradient
    # reaching W_q and W_k (where the head looks), while the gradient reaching W_v (what it
    # reads, not through the Jacobian) keeps its size. Medians over examples: the rare
    # near-tie rows keep large gradients and would dominate a batch total.
    rng = np.random.default_rng(4)
    b = make_batch(rng, batch=64, n_keys=16, d_model=64, d_v=16, noise=0.5)
    base = init_params(0, d_model=64, d_k=256, d_v=16)
    base["W_v"] = base["W_v"] + 0.3 * rng.standard_normal(base["W_v"].shape)  # not a fixed point
    rows = {}
    for c in (1 / 16, 1.0, 4.0, 16.0):
        params = {**base, "W_q": c * base["W_q"]}
        per = []
        for i in range(64):
            one = training.Batch(b.keys[i:i + 1], b.values[i:i + 1], b.query[i:i + 1], b.target[i:i + 1])
            fwd = loss_and_grad(params, one, "none")
            p = np.exp(fwd.logits[0] - fwd.logits[0].max())
            p /= p.sum()
            per.append([np.linalg.norm(fwd.grads[n]) for n in ("W_q", "W_k", "W_v")]
                       + [1.0 - p.max()])  # the weight off the top key: ‖J‖ is O(this)
        rows[c] = np.median(np.array(per), axis=0)
    g_q, g_k, g_v, rest = np.array([rows[c] for c in sorted(rows)]).T
    assert rest[0] > 0.6 and rest[-1] < 1e-12  # from near-uniform to one-hot rows
    assert np.all(np.diff(g_q[1:]) < 0) and np.all(np.diff(g_k[1:]) < 0)
    assert g_q[-1] < 1e-9 * g_q[1] and g_k[-1] < 1e-9 * g_k[1]  # collapsed with J
    assert 0.3 < g_v[-1] / g_v[1] < 3.0  # W_v's gradient does not pass through J


def test_a_diverging_run_stops_alone(monkeypatch):
    real = training.loss_and_grad
    calls = {"n": 0}

    def flaky(*args, **kwargs):
        calls["n"] += 1
        fwd = real(*args, **kwargs)
        if calls["n"] == 4:
            loss = fwd.loss.copy()
            loss[0, 1] = np.nan
            return training.Forward(loss, fwd.logits, fwd.grads, fwd.layer_logits)
        return fwd

    monkeypatch.setattr(training, "loss_and_grad", flaky)
    grid = train_grid(TrainConfig(d_k=8, steps=12), (0.1, 0.5, 1.0), (0,))
    assert [r.diverged for r in grid[0]] == [False, True, False]
    assert [r.steps_done for r in grid[0]] == [12, 3, 12]
    assert all(np.all(np.isfinite(r.loss)) for r in grid[0])


def test_stop_at_90_keeps_steps_to_90():
    base = TrainConfig(d_k=16, steps=120, batch=32)
    lrs = (0.05, 0.5, 20.0)
    full = train_grid(replace_scaling(base, "none"), lrs, (0, 1))
    short = train_grid(replace_scaling(base, "none"), lrs, (0, 1), stop_at_90=True)
    for a, b in zip(full, short):
        for x, y in zip(a, b):
            assert x.steps_to_90 == y.steps_to_90
            assert y.steps_done == (y.steps_to_90 or base.steps)


def replace_scaling(config: TrainConfig, scaling: str) -> TrainConfig:
    return TrainConfig(**{**config.to_dict(), "scaling": scaling})


def _fake(cfg: TrainConfig, first_hit: int | None, diverged=False) -> TrainResult:
    n = cfg.steps
    acc = np.zeros(n)
    if first_hit is not None:
        acc[first_hit - 18:] = 1.0  # the 20-step mean reaches 0.9 at step first_hit
    curves = {name: np.zeros(n) for name in METRIC_NAMES}
    curves["accuracy"] = acc
    return TrainResult(cfg, **curves, diverged=diverged)


def test_best_rate_and_working_range_from_known_runs():
    cfg = TrainConfig(steps=100)
    lrs = (0.1, 1.0, 10.0)
    runs = ((_fake(cfg, 60), _fake(cfg, 30), _fake(cfg, None)),
            (_fake(cfg, 50), _fake(cfg, 40), _fake(cfg, 25, diverged=True)))
    sw = ScalingSweep("none", lrs, (0, 1), runs)
    assert sw.working_lrs() == (0.1, 1.0)
    assert sw.working_counts() == [2, 2]
    assert sw.best() == (1.0, 35.0)  # median of 30 and 40
    assert sw.best_per_seed() == [(1.0, 30), (1.0, 40)]
    assert sw.width_decades() == pytest.approx(1.0)
    s90 = sw.steps_to_90()
    assert s90[0, 2] != s90[0, 2] and s90[1, 2] != s90[1, 2]  # NaN: not reached / diverged
    summary = sw.summary()
    json.dumps(summary, allow_nan=False)
    assert summary["best_lr"] == 1.0 and summary["working_lrs"] == [0.1, 1.0]
    assert [r["works"] for r in summary["rates"]] == [True, True, False]


def test_sweep_result_covers_every_scaling_and_rate():
    cfg = TrainConfig(d_k=32, steps=40, batch=16)
    result = run_sweep(cfg, ("none", "sqrt_dk"), lrs=(0.2, 2.0), seeds=(0, 1))
    assert list(result.scalings) == ["none", "sqrt_dk"] and not result.cancelled
    for scaling, sw in result.scalings.items():
        for i, seed in enumerate((0, 1)):
            for j, lr in enumerate((0.2, 2.0)):
                r = sw.runs[i][j]
                assert (r.config.scaling, r.config.seed, r.config.lr) == (scaling, seed, lr)
                assert r.steps_done == 40
    data = result.summary()
    json.dumps(data, allow_nan=False)
    assert data["lrs"] == [0.2, 2.0] and data["seeds"] == [0, 1]


def test_sweep_progress_and_cancel():
    seen = []
    polls = {"n": 0}

    def stop():
        polls["n"] += 1
        return polls["n"] > 45  # during the second scaling

    result = run_sweep(TrainConfig(d_k=8, steps=30, batch=8), ("none", "sqrt_dk"),
                       lrs=(0.1, 1.0), seeds=(0,),
                       progress=lambda i, done, curves: seen.append((i, done, curves["loss"].shape)),
                       should_stop=stop, workers=1)  # one thread: the polls count in order
    assert result.cancelled and list(result.scalings) == ["none"]
    assert (0, 30, (1, 2, 30)) in seen and any(i == 1 for i, _, _ in seen)


def test_scalings_side_by_side_train_the_same_numbers_and_cancel():
    cfg, lrs, seeds = TrainConfig(d_k=16, steps=30, batch=8), (0.1, 1.0), (0, 1)
    alone = run_sweep(cfg, TRAINED_SCALINGS, lrs, seeds, workers=1)
    ready = []
    both = run_sweep(cfg, TRAINED_SCALINGS, lrs, seeds, workers=2, on_scaling=lambda i, sw: ready.append(i))
    assert list(both.scalings) == list(TRAINED_SCALINGS) and sorted(ready) == [0, 1, 2]
    for s in TRAINED_SCALINGS:
        for row_a, row_b in zip(alone.scalings[s].runs, both.scalings[s].runs):
            for a, b in zip(row_a, row_b):
                np.testing.assert_array_equal(a.loss, b.loss)
                np.testing.assert_array_equal(a.grad_norm, b.grad_norm)
    stopped = run_sweep(cfg, TRAINED_SCALINGS, lrs, seeds, workers=2, should_stop=lambda: True)
    assert stopped.cancelled and stopped.scalings == {}
    assert 1 <= default_workers() <= MAX_WORKERS


@pytest.mark.parametrize("kwargs,match", [
    (dict(lrs=()), "at least one"),
    (dict(lrs=(0.1, -1.0)), "lr"),
    (dict(seeds=()), "at least one seed"),
    (dict(seeds=tuple(range(20))), "exceeds"),
])
def test_bad_grids_are_refused(kwargs, match):
    args = {"lrs": LR_GRID["sgd"], "seeds": (0,), **kwargs}
    with pytest.raises(ValueError, match=match):
        check_grid(TrainConfig(), args["lrs"], args["seeds"])
