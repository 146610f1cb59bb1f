"""Why not fold 1/√d_k into W_Q's initialisation? Same forward pass, a different optimisation.

Two parametrisations of the training lab's attention layer (``training_task``):

* **explicit**: z = (x_q W_Q)·(x_j W_K) / √d_k, W_Q with N(0, 1/d_model) entries;
* **folded**: z = (x_q W_Q')·(x_j W_K), W_Q' = W_Q / √d_k (the same numbers, divided once).

At initialisation every logit, weight and loss is the same. The gradients are not: with
c = 1/√d_k and G = x_qᵀ (∂L/∂z) K the same matrix in both, ∂L/∂W_Q = c·G and ∂L/∂W_Q' = G,
while the logits feel W_Q through c and W_Q' directly. One SGD step of rate η therefore moves
the logits through W_Q by η c² ‖·‖ in the explicit form and by η ‖·‖ folded: **d_k times more**
folded. Adam's first step has the size η per entry whatever the gradient's scale, so folded it
moves the logits **√d_k times more**.
W_K's gradient and its effect on the logits are the same in both. A learning rate tuned for
one parametrisation is wrong for the other by d_k (SGD) or √d_k (Adam) on W_Q: the reason the
lab's "one shared rate" comparison sweeps the rate, and μP's parametrisation argument.

:func:`one_step` measures this on the lab's own model (its hand-written backward pass), with
a small rate so the step stays in the first-order regime. Pure: numpy and ``sqrtdk_gui.core``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sqrtdk_gui.core.training.loop import SGD, Adam
from sqrtdk_gui.core.training.task import forward_backward, init_params, make_batch

__all__ = ["FoldStep", "one_step", "theory_ratio", "FOLD_LR"]

FOLD_LR = 1e-4  # small enough that one step changes the logits to first order


@dataclass(frozen=True)
class FoldStep:
    """How far one optimiser step moves the logits, explicit ÷√d_k against folded into W_Q."""

    d_k: int
    optimizer: str
    init_gap: float  # max |z_explicit − z_folded| at initialisation (rounding only)
    explicit_q: float  # RMS logit change from updating W_Q alone, explicit ÷√d_k
    folded_q: float  # the same, with 1/√d_k folded into W_Q's initialisation
    explicit_k: float  # RMS logit change from updating W_K alone
    folded_k: float

    @property
    def ratio_q(self) -> float:
        return self.folded_q / self.explicit_q

    @property
    def ratio_k(self) -> float:
        return self.folded_k / self.explicit_k


def theory_ratio(d_k: int, optimizer: str) -> float:
    """The first-order ratio of W_Q's logit change, folded over explicit: d_k (SGD), √d_k (Adam)."""
    return float(d_k) if optimizer == "sgd" else math.sqrt(d_k)


def _step(params: dict[str, np.ndarray], grads: dict[str, np.ndarray], name: str, optimizer: str,
          lr: float) -> dict[str, np.ndarray]:
    moved = {k: v.copy() for k, v in params.items()}
    opt = SGD(lr) if optimizer == "sgd" else Adam(lr)
    opt.step(moved, {name: grads[name]})
    return moved


def one_step(d_k: int, optimizer: str = "sgd", seed: int = 0, lr: float = FOLD_LR,
             d_model: int = 64, n_keys: int = 16, batch: int = 64) -> FoldStep:
    """One step of ``optimizer`` ("sgd" or "adam") from the lab's initialisation, both ways."""
    if optimizer not in ("sgd", "adam"):
        raise ValueError(f"optimizer must be 'sgd' or 'adam', got {optimizer!r}")
    explicit = init_params(seed, d_model, d_k)
    folded = dict(explicit, W_q=explicit["W_q"] / math.sqrt(d_k))
    data = make_batch(np.random.default_rng([seed, 1]), batch, n_keys, d_model, 16, 0.5)
    forms = {"explicit": (explicit, "sqrt_dk"), "folded": (folded, "none")}
    start = {name: forward_backward(p, data, scaling) for name, (p, scaling) in forms.items()}
    moved = {}
    for name, (p, scaling) in forms.items():
        grads = start[name].grads
        assert grads is not None  # forward_backward computes them by default
        for w in ("W_q", "W_k"):
            after = forward_backward(_step(p, grads, w, optimizer, lr), data, scaling,
                                     need_grad=False)
            moved[name, w] = float(np.sqrt(np.mean((after.logits - start[name].logits) ** 2)))
    gap = float(np.max(np.abs(start["explicit"].logits - start["folded"].logits)))
    return FoldStep(d_k, optimizer, gap, moved["explicit", "W_q"], moved["folded", "W_q"],
                    moved["explicit", "W_k"], moved["folded", "W_k"])
