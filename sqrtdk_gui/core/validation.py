"""Range checks shared by the parameter dataclasses and the command line (stdlib only).

Every message names the parameter, the offending value and what is allowed, on one line.
"""

from __future__ import annotations

import argparse
import math
import numbers
from collections.abc import Callable, Collection
from typing import TypeVar, cast

__all__ = ["range_text", "shown", "check_int", "check_float", "check_choice", "int_arg", "float_arg"]

SHOWN_MAX = 60  # characters of a bad value a message quotes: a line, not the whole value

_T = TypeVar("_T")


def shown(value: object, limit: int = SHOWN_MAX) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters (a 900 KB name in a preset
    must not become a 900 KB error line or a dialog that takes seconds to lay out)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit - 1]}… ({len(text):,} characters)"


def range_text(lo: float, hi: float, integer: bool = False, lo_inclusive: bool = True) -> str:
    """'1..4096' for integers, '[0.05, 10]' or '(0, 100]' for numbers."""
    if integer:
        return f"{lo}..{hi}"
    return f"{'[' if lo_inclusive else '('}{lo:g}, {hi:g}]"


def _in_range(value: float, lo: float, hi: float, lo_inclusive: bool) -> bool:
    return (lo <= value if lo_inclusive else lo < value) and value <= hi


def check_int(name: str, value: object, lo: int, hi: int) -> int:
    """``value`` as an int in lo..hi, or ValueError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer in {range_text(lo, hi, integer=True)}, got {shown(value)}")
    number = int(value)  # exact for an Integral
    if not lo <= number <= hi:
        raise ValueError(f"{name}={value} is out of range: allowed {range_text(lo, hi, integer=True)}")
    return number


def check_float(name: str, value: object, lo: float, hi: float, lo_inclusive: bool = True) -> float:
    """``value`` as a finite float in the range, or ValueError."""
    # The allowed range is written out only for a message: validating runs on every frame.
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number in {range_text(lo, hi, lo_inclusive=lo_inclusive)}, "
                         f"got {shown(value)}")
    # cast: numbers.Real's stub lacks the reflected comparisons with a float that every Real has.
    if not (math.isfinite(value) and _in_range(cast(float, value), lo, hi, lo_inclusive)):
        raise ValueError(f"{name}={shown(value)} is out of range: allowed "
                         f"{range_text(lo, hi, lo_inclusive=lo_inclusive)}")
    return float(value)


def check_choice(name: str, value: _T, options: Collection[str]) -> _T:
    if value not in options:
        raise ValueError(f"{name}={shown(value)} is not one of: {', '.join(options)}")
    return value


_ASCII_NOTE = " written with the digits 0-9"


def int_arg(flag: str, lo: int, hi: int) -> Callable[[str], int]:
    """An argparse ``type=`` for an integer flag with a one-line error."""
    def parse(text: str) -> int:
        try:
            if not text.isascii():  # int() also reads other scripts' digits (e.g. '٣')
                raise ValueError(text)
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"--{flag} wants an integer in {range_text(lo, hi, integer=True)}"
                f"{_ASCII_NOTE if not text.isascii() else ''}, got {shown(text)}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(
                f"--{flag}={value} is out of range: allowed {range_text(lo, hi, integer=True)}")
        return value

    return parse


def float_arg(flag: str, lo: float, hi: float, lo_inclusive: bool = True) -> Callable[[str], float]:
    """An argparse ``type=`` for a number flag with a one-line error."""
    allowed = range_text(lo, hi, lo_inclusive=lo_inclusive)

    def parse(text: str) -> float:
        try:
            if not text.isascii():  # float() also reads other scripts' digits
                raise ValueError(text)
            value = float(text)
        except ValueError:
            note = _ASCII_NOTE if not text.isascii() else ""
            raise argparse.ArgumentTypeError(f"--{flag} wants a number in {allowed}{note}, got {shown(text)}") from None
        if not (math.isfinite(value) and _in_range(value, lo, hi, lo_inclusive)):
            raise argparse.ArgumentTypeError(f"--{flag}={shown(text)[1:-1]} is out of range: allowed {allowed}")
        return value

    return parse
