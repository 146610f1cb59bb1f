"""The scaling modes: one entry per mode, everything the program knows about it (numpy-free).

A mode is the factor c in ``z = c · (q·k) / τ`` (or, for the after-softmax trap, a division
of the weights), its names and its tooltip. Every view reads its labels from here, the
computation its factor, the training lab the modes it trains: adding a mode is one entry.

The strings are the English interface text, marked with ``N_`` for translation: whoever
shows a label, short label, tip or lab label passes it through ``core.i18n._``. Names that are
formulas (÷√d_k, ÷√n, QK-norm) are not marked: they read the same in every language. They
live with the maths so that a mode cannot exist without them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from sqrtdk_gui.core.i18n import N_

__all__ = ["ScalingMode", "MODES", "SCALINGS", "TRAINED_SCALINGS", "COMPARED", "LOG_N_TRAIN",
           "scale_factor", "post_factor", "log_n_factor", "compared_scalings", "comparison_scaling"]



class Params(Protocol):
    """What a factor reads of ``params.Params`` (which imports this module for its choices)."""

    @property
    def d_k(self) -> int: ...
    @property
    def d_model(self) -> int: ...
    @property
    def keys(self) -> int: ...
    @property
    def gain(self) -> float: ...
    @property
    def scaling(self) -> str: ...


# log_n: the "training length" n0 below which the factor is 1 (the app's default key count).
LOG_N_TRAIN = 64


def log_n_factor(keys: int, train: int = LOG_N_TRAIN) -> float:
    """The ``log_n`` mode's factor on the ÷√d_k logits: max(1, ln n / ln n0), n0 = 64.

    This is Qwen's "logn attention" (the query scaled by log_{n0} n beyond the training
    length n0) and scalable-softmax's s·ln n with s = 1/ln n0 (Nakanishi 2025,
    "Scalable-Softmax Is Superior for Attention"); Chiang & Cholak 2022 ("Overcoming a
    Theoretical Limitation of Self-Attention") multiply by log n for the same reason: the
    logits grow slowly with the context so that attention does not dilute as n grows.
    Unlike ÷√n (the ``seq_len`` trap) it keeps ÷√d_k, and with it σ = 1 at n0.
    """
    return max(1.0, math.log(keys) / math.log(train))


@dataclass(frozen=True)
class ScalingMode:
    """One scaling mode: its factor on q·k, its names, its tip, where else it appears."""

    key: str  # stored in presets and settings: never rename; never translated
    label: str  # menus, legends, the status line (English; shown through _())
    short: str  # tables and other one-line places (English; shown through _())
    tip: str  # the control's tooltip (English; shown through _())
    factor: Callable[[Params], float]  # c, multiplying q·k before the temperature
    after_softmax: bool = False  # the trap that divides the weights by √d_k instead
    unit_vectors: bool = False  # q and k normalised first (the logits are g·cos)
    lab_label: str | None = None  # the training lab's name for it (shown through _()); None: not trained


_ENTRIES = (
    ScalingMode("none", N_("raw logits"), N_("raw q·k"),
                N_("No scaling: logits are q·k, spread √d_k."),
                lambda p: 1.0, lab_label=N_("raw logits")),
    ScalingMode("sqrt_dk", "÷√d_k", "÷√d_k",
                N_("Divide q·k by √d_k: unit-variance logits for every head size."),
                lambda p: 1.0 / math.sqrt(p.d_k), lab_label="÷√d_k"),
    ScalingMode("dk", "÷d_k (μP)", "÷d_k (μP)",
                N_("μP: divide by d_k. Right once training aligns q with k; over-shrinks random vectors."),
                lambda p: 1.0 / p.d_k),
    ScalingMode("sqrt_dmodel", N_("÷√d_model (trap)"), "÷√d_model",
                N_("Trap: divide by √d_model = √(h·d_k) instead of the per-head √d_k."),
                lambda p: 1.0 / math.sqrt(p.d_model)),
    ScalingMode("seq_len", N_("÷√n (trap)"), "÷√n",
                N_("Trap: a scale from the sequence length n (÷√n); σ does not depend on n."),
                lambda p: 1.0 / math.sqrt(p.keys)),
    ScalingMode("after_softmax", N_("÷√d_k after softmax (trap)"), N_("after softmax"),
                N_("Trap: divide the softmax output by √d_k; rows no longer sum to 1."),
                lambda p: 1.0, after_softmax=True),
    ScalingMode("qk_norm", "QK-norm × g", "QK-norm",
                N_("QK-norm: unit-length q and k times a gain g; logits stay in [−g, g]."),
                lambda p: p.gain, unit_vectors=True, lab_label="QK-norm"),
    ScalingMode("log_n", "÷√d_k × log₆₄ n", "÷√d_k·log₆₄n",
                N_("Long context (Qwen's logn attention, scalable-softmax): ÷√d_k logits times "
                   "max(1, ln n / ln 64), so attention dilutes far less as n grows past 64 keys."),
                lambda p: log_n_factor(p.keys) / math.sqrt(p.d_k)),
)

MODES: dict[str, ScalingMode] = {mode.key: mode for mode in _ENTRIES}
SCALINGS = tuple(MODES)
TRAINED_SCALINGS = tuple(key for key, mode in MODES.items() if mode.lab_label is not None)

# The two scalings every "versus d_k" curve compares; any other mode is drawn as a third.
COMPARED = ("none", "sqrt_dk")


def scale_factor(params: Params) -> float:
    """The factor c that multiplies q·k before the temperature (qk_norm: the gain)."""
    return MODES[params.scaling].factor(params)


def post_factor(params: Params) -> float:
    """What multiplies the softmax's output: 1/√d_k for the after-softmax trap, else 1."""
    return 1.0 / math.sqrt(params.d_k) if MODES[params.scaling].after_softmax else 1.0


def compared_scalings(params: Params) -> tuple[str, ...]:
    """Scalings the "versus d_k" curves show: raw, ÷√d_k and the current mode if another."""
    return COMPARED if params.scaling in COMPARED else COMPARED + (params.scaling,)


def comparison_scaling(scaling: str) -> str:
    """The scaling drawn faintly behind the current logits: ÷√d_k behind raw, else raw."""
    return "sqrt_dk" if scaling == "none" else "none"
