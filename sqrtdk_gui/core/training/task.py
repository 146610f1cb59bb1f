"""Associative-recall task and a stack of attention layers with a hand-written backward pass.

numpy + stdlib only (no Qt). Everything is float64 so that the backward pass can be
checked against central finite differences.

Task: each example has ``n`` keys x_j (d_model wide, N(0, 1) entries), each carrying a
value v_j (d_v wide, N(0, 1)). The query is a noisy copy of key t: x_q = x_t + noise*eps.

One layer (the default): q = x_q W_q, k_j = x_j W_k, z_j = scale * q.k_j (or
gain * cos(q, k_j) with QK-norm), p = softmax(z), o = (sum_j p_j v_j) W_v. With
``loss="mse"`` the loss is the mean squared error of o against v_t, so the softmax Jacobian
diag(p) - p p^T sits on the gradient path to W_q and W_k (*where* the head looks) but not
to W_v (*what* it reads); with ``loss="ce"`` cross-entropy on the logits (target t) gives
dL/dz = p - onehot(t) and the Jacobian drops out.

Several layers: the query carries a residual stream h (d_model wide), h_0 = x_q. Layer
l < L attends from h_{l-1} to the same keys and adds what it read:
h_l = h_{l-1} + (sum_j p_j x_j) W_v^l. The last layer queries with h_{L-1} and reads the
values as above. Every W_v starts at the identity, so at initialisation one layer is the
plain lookup and each extra layer first adds the key content it attends to.

Parameters are a dict: layer 1 is ``W_q``, ``W_k``, ``W_v``; layer i >= 2 is ``W_q{i}``,
``W_k{i}``, ``W_v{i}``. A missing W_v means the identity, not learned (the original
one-layer model). Arrays may carry leading "run" axes (e.g. seeds x learning rates) in
front of their matrix axes, and batch arrays leading axes that broadcast against them:
many runs then train in one set of numpy calls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sqrtdk_gui.core.attention.scaling import TRAINED_SCALINGS

__all__ = [
    "LOSSES",
    "MAX_LAYERS",
    "Batch",
    "Forward",
    "make_batch",
    "init_params",
    "param_name",
    "param_kind",
    "logit_scale",
    "loss_and_grad",
    "forward_backward",
]

LOSSES = ("mse", "ce")
MAX_LAYERS = 4
_TINY = 1e-300  # floor for |q|, |k| so an all-zero row cannot divide by zero


@dataclass(frozen=True)
class Batch:
    """One batch of associative-recall examples (optionally with leading run axes)."""

    keys: np.ndarray  # (..., B, n, d_model)
    values: np.ndarray  # (..., B, n, d_v)
    query: np.ndarray  # (..., B, d_model)
    target: np.ndarray  # (..., B) index of the key the query copies


@dataclass(frozen=True)
class Forward:
    """Result of :func:`loss_and_grad` / :func:`forward_backward`.

    ``loss`` is a float for plain (2-D) parameters, an array over the run axes otherwise.
    """

    loss: float | np.ndarray
    logits: np.ndarray  # (..., B, n), the last layer's, after scaling
    grads: dict[str, np.ndarray] | None  # same keys and shapes as params
    layer_logits: tuple[np.ndarray, ...] = ()  # every layer's scaled logits, first to last


def make_batch(
    rng: np.random.Generator, batch: int, n_keys: int, d_model: int, d_v: int, noise: float
) -> Batch:
    """Draw a fresh batch from ``rng`` (the draw order is fixed, so a seed fixes the data)."""
    keys = rng.standard_normal((batch, n_keys, d_model))
    values = rng.standard_normal((batch, n_keys, d_v))
    target = rng.integers(0, n_keys, size=batch)
    query = keys[np.arange(batch), target] + noise * rng.standard_normal((batch, d_model))
    return Batch(keys, values, query, target)


def param_name(kind: str, layer: int) -> str:
    """``param_name("W_q", 1) == "W_q"``, ``param_name("W_v", 3) == "W_v3"``."""
    return kind if layer == 1 else f"{kind}{layer}"


def param_kind(name: str) -> str:
    """"W_q", "W_k" or "W_v" for any layer's parameter name."""
    return name[:3]


def init_params(
    seed: int, d_model: int, d_k: int, d_v: int | None = None, layers: int = 1
) -> dict[str, np.ndarray]:
    """W_q, W_k with N(0, 1/d_model) entries (q and k entries have unit variance).

    The stream depends only on (seed, d_model, d_k): every scaling, optimiser, loss and
    learning rate starts from the same weights, which is what makes raw vs scaled
    comparisons fair. Layer 1's W_q, W_k are drawn first, so they do not depend on the
    depth. With ``d_v`` given, every layer also gets a learned W_v starting at the identity
    (d_model x d_model below the last layer, d_v x d_v in it); without, W_v is the fixed
    identity.
    """
    if not 1 <= layers <= MAX_LAYERS:
        raise ValueError(f"layers must be an integer in 1..{MAX_LAYERS}, got {layers!r}")
    rng = np.random.default_rng([seed, 0])
    std = 1.0 / math.sqrt(d_model)
    params: dict[str, np.ndarray] = {}
    for layer in range(1, layers + 1):
        params[param_name("W_q", layer)] = rng.standard_normal((d_model, d_k)) * std
        params[param_name("W_k", layer)] = rng.standard_normal((d_model, d_k)) * std
        if d_v is not None:
            width = d_v if layer == layers else d_model
            params[param_name("W_v", layer)] = np.eye(width)
    return params


def logit_scale(scaling: str, d_k: int, gain: float) -> float:
    """Factor in front of q.k (for qk_norm: in front of the cosine)."""
    if scaling == "none":
        return 1.0
    if scaling == "sqrt_dk":
        return 1.0 / math.sqrt(d_k)
    if scaling == "qk_norm":
        return float(gain)
    raise ValueError(f"scaling must be one of {TRAINED_SCALINGS}, got {scaling!r}")


def _t(a: np.ndarray) -> np.ndarray:
    return np.swapaxes(a, -1, -2)


def _mv(m: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Batched matrix @ vector: (..., r, c) @ (..., c) -> (..., r)."""
    product: np.ndarray = np.matmul(m, v[..., None])[..., 0]
    return product


def _vm(v: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Batched vector @ matrix: (..., r) @ (..., r, c) -> (..., c)."""
    product: np.ndarray = np.matmul(v[..., None, :], m)[..., 0, :]
    return product


def _logits(
    h: np.ndarray, x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, scaling: str, s: float
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Scaled logits of one layer and the intermediates its backward pass needs.

    q.k_j = x_j.(W_k q) and |k_j|^2 = x_j^T (W_k W_k^T) x_j, so the n keys (B*n*d_k numbers)
    are never built: a step costs O(B*d_model*d_k + B*n*d_model^2) instead of
    O(B*n*d_model*d_k), which keeps d_k = 1024 as fast as d_k = 64.
    """
    if scaling != "qk_norm" and _through_m(h, w_q):
        # q.k_j = h M x_j with M = W_q W_k^T: fewer multiplications when d_k > d_model, and
        # the backward pass needs neither q nor the keys.
        m = w_q @ _t(w_k)  # (..., d_model, d_model)
        return s * _mv(x, h @ m), {"m": m}
    q = h @ w_q  # (..., B, d_k)
    u = q @ _t(w_k)  # (..., B, d_model)
    a = _mv(x, u)  # (..., B, n): q.k_j
    cache = {"q": q}
    if scaling != "qk_norm":
        return s * a, cache
    g = w_k @ _t(w_k)  # (..., d_model, d_model)
    # |k_j|^2 = x_j^T G x_j over all B*n keys as one product per run (not B small ones), and
    # the row sums by einsum (no (..., B*n, d_model) temporary to reduce).
    b, n, d_model = x.shape[-3:]
    xf = x.reshape(*x.shape[:-3], b * n, d_model)
    rk2 = np.einsum("...ij,...ij->...i", np.matmul(xf, g), xf)
    rk2 = rk2.reshape(*rk2.shape[:-1], b, n)  # (..., B, n)
    rk = np.maximum(np.sqrt(np.maximum(rk2, 0.0)), _TINY)
    rq = np.maximum(np.sqrt(np.sum(q * q, axis=-1)), _TINY)  # (..., B)
    z = s * a / (rq[..., None] * rk)  # gain * cos(q, k_j)
    cache.update(rq=rq, rk=rk, z=z)
    return z, cache


def _through_m(h: np.ndarray, w_q: np.ndarray) -> bool:
    """Whether one layer's products cost less through M = W_q W_k^T (d_model x d_model).

    Per run: through q, 5 products of B*d_model*d_k (q, u, dL/dq, both gradients); through
    M, 3 of d_model^2*d_k (M, both gradients) and 2 of B*d_model^2 (h M, dL/dh) plus one
    more for dL/dW_q's left factor.
    """
    b, (d_model, d_k) = h.shape[-2], w_q.shape[-2:]
    return bool(3 * d_model * d_model * d_k + 3 * b * d_model * d_model < 5 * b * d_model * d_k)


def _logits_backward(
    d_z: np.ndarray,
    h: np.ndarray,
    x: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    scaling: str,
    s: float,
    cache: dict[str, np.ndarray],
    need_dh: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Gradients of W_q, W_k (and of the layer's input h) from dL/dz."""
    if "m" in cache:  # z = s * h M x^T with M = W_q W_k^T
        d_u = _vm(s * d_z, x)  # (..., B, d_model): dL/d(h M)
        p = _t(h) @ d_u  # (..., d_model, d_model): dL/dM
        d_h = d_u @ _t(cache["m"]) if need_dh else None
        return p @ w_k, _t(p) @ w_q, d_h
    q = cache["q"]
    if scaling != "qk_norm":
        d_a = s * d_z
        d_q_norm = 0.0
    else:
        rq, rk, z = cache["rq"], cache["rk"], cache["z"]
        d_a = s * d_z / (rq[..., None] * rk)
        # z = s*a/(|q| |k|):  dz/d|q| = -z/|q|,  dz/d|k| = -z/|k|
        d_rq = -np.sum(d_z * z, axis=-1) / rq  # (..., B)
        d_rk = -d_z * z / rk  # (..., B, n)
        d_q_norm = (d_rq / rq)[..., None] * q  # d|q|/dq = q/|q|
        c = d_rk / (2.0 * rk)  # d|k|/d|k|^2
        b, n, d_model = x.shape[-3:]
        xf = x.reshape(*x.shape[:-3], b * n, d_model)
        # dL/d(W_k W_k^T) = sum_j c_j x_j x_j^T (symmetric); a contiguous left factor keeps
        # the product in one BLAS call per run.
        xt = np.ascontiguousarray(_t(xf))
        d_g = (xt * c.reshape(*c.shape[:-2], 1, b * n)) @ xf
    d_u = _vm(d_a, x)  # (..., B, d_model)
    d_q = d_u @ w_k + d_q_norm
    g_k = _t(d_u) @ q
    if scaling == "qk_norm":
        g_k = g_k + 2.0 * (d_g @ w_k)  # d(W W^T) -> dW = (dG + dG^T) W
    g_q = _t(h) @ d_q
    d_h = d_q @ _t(w_q) if need_dh else None
    return g_q, g_k, d_h


def _softmax(z: np.ndarray) -> np.ndarray:
    # Shifting by the row max changes nothing but keeps exp from overflowing.
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    p: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return p


def _jacobian_vp(p: np.ndarray, d_p: np.ndarray) -> np.ndarray:
    """(diag(p) - p p^T) d_p row by row: it vanishes as p goes one-hot."""
    jvp: np.ndarray = p * (d_p - np.sum(p * d_p, axis=-1, keepdims=True))
    return jvp


def _layers(params: dict[str, np.ndarray]) -> int:
    layers = 1
    while param_name("W_q", layers + 1) in params:
        layers += 1
    return layers


def forward_backward(
    params: dict[str, np.ndarray],
    batch: Batch,
    scaling: str = "sqrt_dk",
    loss: str = "mse",
    gain: float = 10.0,
    need_grad: bool = True,
) -> Forward:
    """Loss (one per run) and gradients of a stack of attention layers.

    Parameter arrays may have leading run axes; batch arrays leading axes that broadcast
    against them. ``loss`` is then an array over the run axes.
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")
    layers = _layers(params)
    x, v, t = batch.keys, batch.values, batch.target
    b = t.shape[-1]
    s = logit_scale(scaling, params["W_q"].shape[-1], gain)
    # Huge weights (a diverging SGD run) may overflow; the caller checks finiteness.
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        hs = [batch.query]  # the query's stream entering each layer
        caches, probs, reads, zs = [], [], [], []
        for layer in range(1, layers + 1):
            w_q = params[param_name("W_q", layer)]
            w_k = params[param_name("W_k", layer)]
            w_v = params.get(param_name("W_v", layer))
            z, cache = _logits(hs[-1], x, w_q, w_k, scaling, s)
            p = _softmax(z)
            zs.append(z)
            caches.append(cache)
            probs.append(p)
            if layer < layers:
                r = _vm(p, x)  # (..., B, d_model): the key content read
                reads.append(r)
                hs.append(hs[-1] + (r if w_v is None else r @ w_v))
        z, p = zs[-1], probs[-1]
        w_v = params.get(param_name("W_v", layers))
        if loss == "mse":
            pv = _vm(p, v)  # (..., B, d_v)
            o = pv if w_v is None else pv @ w_v
            right = np.take_along_axis(v, t[..., None, None], axis=-2)[..., 0, :]
            err = o - right
            value = np.mean(err * err, axis=(-2, -1))
        else:
            m = z.max(axis=-1)
            lse = m + np.log(np.sum(np.exp(z - m[..., None]), axis=-1))
            value = np.mean(lse - np.take_along_axis(z, t[..., None], axis=-1)[..., 0], axis=-1)
        if np.ndim(value) == 0:
            value = float(value)
        if not need_grad:
            return Forward(value, z, None, tuple(zs))

        grads: dict[str, np.ndarray] = {}
        if loss == "mse":
            d_o = (2.0 / (b * err.shape[-1])) * err  # (..., B, d_v)
            if w_v is not None:
                grads[param_name("W_v", layers)] = _t(pv) @ d_o
                d_pv = d_o @ _t(w_v)
            else:
                d_pv = d_o
            d_z = _jacobian_vp(p, _mv(v, d_pv))  # d_p_j = v_j . dL/d(pv)
        else:
            # Cross-entropy on the logits: the Jacobian cancels, dz = p - onehot(t).
            shape = np.broadcast_shapes(p.shape, t.shape + p.shape[-1:])
            d_z = np.broadcast_to(p, shape).copy()
            idx = np.broadcast_to(t[..., None], shape[:-1] + (1,))
            np.put_along_axis(d_z, idx, np.take_along_axis(d_z, idx, axis=-1) - 1.0, axis=-1)
            d_z /= b
            if w_v is not None:
                grads[param_name("W_v", layers)] = np.zeros_like(w_v)
        d_h: np.ndarray | None = None  # None until the last layer's pass has run
        for layer in range(layers, 0, -1):
            w_q = params[param_name("W_q", layer)]
            w_k = params[param_name("W_k", layer)]
            if layer < layers:  # h_l = h_{l-1} + r_l W_v: d_h is dL/dh_l here
                assert d_h is not None  # set by the layer above
                w_v = params.get(param_name("W_v", layer))
                r = reads[layer - 1]
                if w_v is not None:
                    grads[param_name("W_v", layer)] = _t(r) @ d_h
                    d_r = d_h @ _t(w_v)
                else:
                    d_r = d_h
                d_z = _jacobian_vp(probs[layer - 1], _mv(x, d_r))
            g_q, g_k, d_in = _logits_backward(d_z, hs[layer - 1], x, w_q, w_k, scaling, s,
                                              caches[layer - 1], need_dh=layer > 1)
            grads[param_name("W_q", layer)] = g_q
            grads[param_name("W_k", layer)] = g_k
            if layer > 1:
                assert d_in is not None  # asked for: need_dh
                d_h = d_in if d_h is None else d_h + d_in  # the residual carries d_h on
        grads = {name: _match(grads[name], params[name]) for name in params}
    return Forward(value, z, grads, tuple(zs))


def _match(g: np.ndarray, w: np.ndarray) -> np.ndarray:
    """A gradient with its parameter's shape (run axes only the batch had are summed)."""
    if g.ndim > w.ndim:
        g = g.sum(axis=tuple(range(g.ndim - w.ndim)))
    return g if g.shape == w.shape else np.broadcast_to(g, w.shape).copy()


# The name the training loop and tests know: the same function.
loss_and_grad = forward_backward
