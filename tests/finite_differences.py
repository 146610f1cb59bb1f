"""Central finite differences of the training loss: the independent check of its gradient."""

from __future__ import annotations

import numpy as np

from sqrtdk_gui.core.training.loop import loss_and_grad


def fd_grad(params, batch, scaling, loss, gain, h=1e-6):
    """Central finite differences of the loss for every parameter entry."""
    out = {}
    for name, w in params.items():
        g = np.zeros_like(w)
        for idx in np.ndindex(w.shape):
            old = w[idx]
            w[idx] = old + h
            up = loss_and_grad(params, batch, scaling, loss, gain, need_grad=False).loss
            w[idx] = old - h
            down = loss_and_grad(params, batch, scaling, loss, gain, need_grad=False).loss
            w[idx] = old
            g[idx] = (up - down) / (2 * h)
        out[name] = g
    return out
