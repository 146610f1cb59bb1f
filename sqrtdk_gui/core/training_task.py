"""Associative-recall task and one attention layer with a hand-written backward pass.

numpy + stdlib only (no Qt). Everything is float64 so that the backward pass can be
checked against central finite differences.

Task: each example has ``n`` keys x_j (d_model wide, N(0, 1) entries), each carrying a
value v_j (d_v wide, N(0, 1)). The query is a noisy copy of key t: x_q = x_t + noise*eps.
Model: q = x_q W_q, k_j = x_j W_k, z_j = scale * q.k_j (or gain * cos(q, k_j) with
QK-norm), p = softmax(z), o = sum_j p_j v_j. With ``loss="mse"`` the loss is the mean
squared error of o against v_t, so the softmax Jacobian diag(p) - p p^T sits on the
gradient path; with ``loss="ce"`` cross-entropy on the logits (target t) gives
dL/dz = p - onehot(t) and the Jacobian drops out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = [
    "SCALINGS",
    "LOSSES",
    "Batch",
    "Forward",
    "make_batch",
    "init_params",
    "logit_scale",
    "loss_and_grad",
]

SCALINGS = ("none", "sqrt_dk", "qk_norm")
LOSSES = ("mse", "ce")
_TINY = 1e-300  # floor for |q|, |k| so an all-zero row cannot divide by zero


@dataclass(frozen=True)
class Batch:
    """One batch of associative-recall examples."""

    keys: np.ndarray  # (B, n, d_model)
    values: np.ndarray  # (B, n, d_v)
    query: np.ndarray  # (B, d_model)
    target: np.ndarray  # (B,) index of the key the query copies


@dataclass(frozen=True)
class Forward:
    """Result of :func:`loss_and_grad`."""

    loss: float
    logits: np.ndarray  # (B, n), after scaling
    grads: dict[str, np.ndarray] | None  # same keys and shapes as params


def make_batch(
    rng: np.random.Generator, batch: int, n_keys: int, d_model: int, d_v: int, noise: float
) -> Batch:
    """Draw a fresh batch from ``rng`` (the draw order is fixed, so a seed fixes the data)."""
    keys = rng.standard_normal((batch, n_keys, d_model))
    values = rng.standard_normal((batch, n_keys, d_v))
    target = rng.integers(0, n_keys, size=batch)
    query = keys[np.arange(batch), target] + noise * rng.standard_normal((batch, d_model))
    return Batch(keys, values, query, target)


def init_params(seed: int, d_model: int, d_k: int) -> dict[str, np.ndarray]:
    """W_q, W_k with N(0, 1/d_model) entries, so q and k entries have unit variance.

    The stream depends only on (seed, d_model, d_k): every scaling, optimiser and loss
    starts from the same weights, which is what makes raw vs scaled comparisons fair.
    """
    rng = np.random.default_rng([seed, 0])
    std = 1.0 / math.sqrt(d_model)
    w_q = rng.standard_normal((d_model, d_k)) * std
    w_k = rng.standard_normal((d_model, d_k)) * std
    return {"W_q": w_q, "W_k": w_k}


def logit_scale(scaling: str, d_k: int, gain: float) -> float:
    """Factor in front of q.k (for qk_norm: in front of the cosine)."""
    if scaling == "none":
        return 1.0
    if scaling == "sqrt_dk":
        return 1.0 / math.sqrt(d_k)
    if scaling == "qk_norm":
        return float(gain)
    raise ValueError(f"scaling must be one of {SCALINGS}, got {scaling!r}")


def _logits(w_q, w_k, batch: Batch, scaling: str, s: float) -> tuple[np.ndarray, dict]:
    """Scaled logits and the intermediates the backward pass needs.

    q.k_j = x_j.(W_k q) and |k_j|^2 = x_j^T (W_k W_k^T) x_j, so the n keys (B*n*d_k numbers)
    are never built: a step costs O(B*d_model*d_k + B*n*d_model^2) instead of
    O(B*n*d_model*d_k), which keeps d_k = 1024 as fast as d_k = 64.
    """
    x, xq = batch.keys, batch.query
    q = xq @ w_q  # (B, d_k)
    u = q @ w_k.T  # (B, d_model)
    a = np.matmul(x, u[:, :, None])[:, :, 0]  # (B, n): q.k_j
    cache = {"q": q}
    if scaling != "qk_norm":
        return s * a, cache
    g = w_k @ w_k.T  # (d_model, d_model)
    rk2 = np.sum(np.matmul(x, g) * x, axis=-1)  # (B, n): |k_j|^2
    rk = np.maximum(np.sqrt(np.maximum(rk2, 0.0)), _TINY)
    rq = np.maximum(np.sqrt(np.sum(q * q, axis=-1)), _TINY)  # (B,)
    z = s * a / (rq[:, None] * rk)  # gain * cos(q, k_j)
    cache.update(rq=rq, rk=rk, z=z)
    return z, cache


def _logits_backward(d_z, w_k, batch: Batch, scaling: str, s: float, cache: dict):
    """Gradients of W_q, W_k from dL/dz (the reverse of :func:`_logits`)."""
    x, xq, q = batch.keys, batch.query, cache["q"]
    b, n, d_model = x.shape
    if scaling != "qk_norm":
        d_a = s * d_z
        d_q_norm = 0.0
    else:
        rq, rk, z = cache["rq"], cache["rk"], cache["z"]
        d_a = s * d_z / (rq[:, None] * rk)
        # z = s*a/(|q| |k|):  dz/d|q| = -z/|q|,  dz/d|k| = -z/|k|
        d_rq = -np.sum(d_z * z, axis=1) / rq  # (B,)
        d_rk = -d_z * z / rk  # (B, n)
        d_q_norm = (d_rq / rq)[:, None] * q  # d|q|/dq = q/|q|
        c = d_rk / (2.0 * rk)  # d|k|/d|k|^2
        xf = x.reshape(b * n, d_model)
        d_g = (xf * c.reshape(-1, 1)).T @ xf  # dL/d(W_k W_k^T), symmetric
    d_u = np.matmul(d_a[:, None, :], x)[:, 0]  # (B, d_model)
    d_q = d_u @ w_k + d_q_norm
    g_k = d_u.T @ q
    if scaling == "qk_norm":
        g_k = g_k + 2.0 * (d_g @ w_k)  # d(W W^T) -> dW = (dG + dG^T) W
    return xq.T @ d_q, g_k


def loss_and_grad(
    params: dict[str, np.ndarray],
    batch: Batch,
    scaling: str = "sqrt_dk",
    loss: str = "mse",
    gain: float = 10.0,
    need_grad: bool = True,
) -> Forward:
    """Loss of the attention layer on ``batch`` and its gradient w.r.t. W_q and W_k."""
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")
    w_q, w_k = params["W_q"], params["W_k"]
    v, t = batch.values, batch.target
    b = v.shape[0]
    s = logit_scale(scaling, w_q.shape[1], gain)
    rows = np.arange(b)
    # Huge weights (a diverging SGD run) may overflow; the caller checks finiteness.
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        z, cache = _logits(w_q, w_k, batch, scaling, s)
        # Shifting by the row max changes nothing but keeps exp from overflowing.
        m = z.max(axis=1, keepdims=True)
        e = np.exp(z - m)
        se = e.sum(axis=1, keepdims=True)
        p = e / se
        if loss == "mse":
            o = np.matmul(p[:, None, :], v)[:, 0]  # (B, d_v)
            err = o - v[rows, t]
            value = float(np.mean(err * err))
        else:
            lse = m[:, 0] + np.log(se[:, 0])
            value = float(np.mean(lse - z[rows, t]))
        if not need_grad:
            return Forward(value, z, None)

        if loss == "mse":
            d_o = (2.0 / err.size) * err  # (B, d_v)
            d_p = np.matmul(v, d_o[:, :, None])[:, :, 0]  # (B, n): v_j . dL/do
            # Softmax Jacobian: dz = (diag(p) - p p^T) dp; it vanishes as p goes one-hot.
            d_z = p * (d_p - np.sum(p * d_p, axis=1, keepdims=True))
        else:
            # Cross-entropy on the logits: the Jacobian cancels, dz = p - onehot(t).
            d_z = p.copy()
            d_z[rows, t] -= 1.0
            d_z /= b
        g_q, g_k = _logits_backward(d_z, w_k, batch, scaling, s, cache)
    return Forward(value, z, {"W_q": g_q, "W_k": g_k})
