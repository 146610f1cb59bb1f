"""Predict first, blind: what each step's question hides and the value the class guesses.

While a step's question is open, the views and summary cells that would answer it are
hidden (``hides``) and its animation waits; *Reveal* shows them, plays the animation and
sets the class's guesses against ``measure``, computed by the model for the step's own
parameters. Pure: numpy and the model only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params

__all__ = ["Prediction", "PREDICTIONS", "parse_guesses", "compare"]


@dataclass(frozen=True)
class Prediction:
    """What one step's question asks the class to predict."""

    quantity: str  # what the guesses are of, as the pane labels it
    measure: Callable[[Params], float]  # the measured value for the step's parameters
    hides: tuple[str, ...]  # view names ("histogram") and summary cells ("summary.sigma")
    digits: int = 2  # decimals shown for the measured value


def _sigma(p: Params) -> float:
    return compute(p).logit_std


def _median_max_weight(p: Params) -> float:
    return compute(p).summary["max_weight"].median


def _gradient_ratio(p: Params) -> float:
    """How many times smaller the raw median ‖∂L/∂q‖ is than the ÷√d_k one."""
    raw = compute(p.replace(scaling="none")).summary["grad_q"].median
    scaled = compute(p.replace(scaling="sqrt_dk")).summary["grad_q"].median
    return scaled / raw


PREDICTIONS: dict[int, Prediction] = {
    1: Prediction("σ of the logits", _sigma, ("histogram", "summary.sigma")),
    2: Prediction("median largest weight", _median_max_weight,
                  ("weights", "summary.max_weight", "summary.entropy", "summary.saturated",
                   "summary.jacobian"), digits=3),
    3: Prediction("÷√d_k gradient ÷ raw gradient", _gradient_ratio,
                  ("jacobian", "gradient", "summary.jacobian"), digits=0),
    4: Prediction("σ after ÷√d_k", _sigma, ("histogram", "gradient", "summary.sigma")),
}

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # "1,500": one number
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def parse_guesses(text: str, limit: int = 8) -> list[float]:
    """The numbers in a line such as '8, 20.5; 1,500 1e3' (at most ``limit``).

    Only ASCII digits count. A comma before exactly three digits groups thousands; any
    other comma, semicolon or space separates guesses; the decimal mark is a point.
    """
    text = _THOUSANDS.sub("", "".join(c if c.isascii() else " " for c in text))
    guesses = []
    for token in _NUMBER.findall(text):
        value = float(token)
        if math.isfinite(value):
            guesses.append(value)
        if len(guesses) == limit:
            break
    return guesses


def compare(guesses: list[float], measured: float) -> list[tuple[float, float]]:
    """(guess, factor off) per guess: factor ≥ 1, how many times too large or too small."""
    out = []
    for g in guesses:
        if g > 0 and measured > 0:
            out.append((g, max(g / measured, measured / g)))
        else:
            out.append((g, math.inf))
    return out
