"""Predict first, blind: what each step's question hides and the value the class guesses.

While a step's question is open, the views and summary cells that would answer it are
hidden (``hides``) and its animation waits; *Reveal* shows them, plays the animation and
sets the class's guesses against ``measure``, computed by the model for the step's own
parameters. Pure: numpy and the model only.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import decimal_mark
from sqrtdk_gui.core.lesson.page import Prediction
from sqrtdk_gui.core.lesson.pages import PAGES

__all__ = ["PREDICTIONS", "measured", "parse_guesses", "compare"]


PREDICTIONS: dict[int, Prediction] = {m.PAGE.number: m.PREDICTION for m in PAGES if hasattr(m, "PREDICTION")}
_PRESETS: dict[int, dict[str, Any]] = {m.PAGE.number: m.PAGE.preset for m in PAGES if hasattr(m, "PREDICTION")}


def measured(number: int, params: Params | None = None) -> float:
    """The measured answer to step ``number``'s question: its prediction's ``measure`` for
    ``params`` (default: the step's own parameters; a teacher's lesson may set others), cached:
    the same for every reveal, the handout and the slides."""
    return _measured(number, Params(**_PRESETS[number]) if params is None else params)


@functools.lru_cache(maxsize=64)
def _measured(number: int, params: Params) -> float:
    return PREDICTIONS[number].measure(params)


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # "1,500": one number
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d)")  # "22,6": one number in German or Spanish
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def parse_guesses(text: str, limit: int = 8, decimal: str | None = None) -> list[float]:
    """The numbers in a line of guesses (at most ``limit``), read in the language's convention.

    Only ASCII digits count. With a decimal point (English, Chinese): '8, 20.5; 1,500 1e3' —
    a comma before exactly three digits groups thousands; any other comma, semicolon or space
    separates guesses. With a decimal comma (``decimal`` ",", German, Spanish): '8; 22,6 0,998'
    — a comma between digits is the decimal mark (so is a point, as printed in papers), and
    semicolons and spaces separate guesses ("8, 20" are still two guesses: a comma then a space).
    """
    mark = decimal_mark() if decimal is None else decimal
    text = "".join(c if c.isascii() else " " for c in text.replace("\u202f", "").replace("\u00a0", ""))
    text = _DECIMAL_COMMA.sub(".", text) if mark == "," else _THOUSANDS.sub("", text)
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
