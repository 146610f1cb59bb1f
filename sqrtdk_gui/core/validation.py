"""Range checks shared by the parameter dataclasses and the command line (stdlib only).

Every message names the parameter, the offending value and what is allowed, on one line.
"""

from __future__ import annotations

import argparse
import math
import numbers
from collections.abc import Callable, Collection
from typing import TypeVar, cast

from sqrtdk_gui.core.i18n import _

__all__ = ["range_text", "shown", "check_int", "check_float", "check_choice", "int_arg", "float_arg"]

SHOWN_MAX = 60  # characters of a bad value a message quotes: a line, not the whole value

_T = TypeVar("_T")


def shown(value: object, limit: int = SHOWN_MAX) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters (a 900 KB name in a preset
    must not become a 900 KB error line or a dialog that takes seconds to lay out)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return _("{start}… ({count} characters)").format(start=text[:limit - 1], count=f"{len(text):,}")


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
        raise ValueError(_("{name} must be an integer in {allowed}, got {value}").format(
            name=name, allowed=range_text(lo, hi, integer=True), value=shown(value)))
    number = int(value)  # exact for an Integral
    if not lo <= number <= hi:
        raise ValueError(_("{name}={value} is out of range: allowed {allowed}").format(
            name=name, value=value, allowed=range_text(lo, hi, integer=True)))
    return number


def check_float(name: str, value: object, lo: float, hi: float, lo_inclusive: bool = True) -> float:
    """``value`` as a finite float in the range, or ValueError."""
    # The allowed range is written out only for a message: validating runs on every frame.
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(_("{name} must be a number in {allowed}, got {value}").format(
            name=name, allowed=range_text(lo, hi, lo_inclusive=lo_inclusive), value=shown(value)))
    # cast: numbers.Real's stub lacks the reflected comparisons with a float that every Real has.
    if not (math.isfinite(value) and _in_range(cast(float, value), lo, hi, lo_inclusive)):
        raise ValueError(_("{name}={value} is out of range: allowed {allowed}").format(
            name=name, value=shown(value), allowed=range_text(lo, hi, lo_inclusive=lo_inclusive)))
    return float(value)


def check_choice(name: str, value: _T, options: Collection[str]) -> _T:
    if value not in options:
        raise ValueError(_("{name}={value} is not one of: {options}").format(
            name=name, value=shown(value), options=", ".join(options)))
    return value


def int_arg(flag: str, lo: int, hi: int) -> Callable[[str], int]:
    """An argparse ``type=`` for an integer flag with a one-line error."""
    def parse(text: str) -> int:
        try:
            if not text.isascii():  # int() also reads other scripts' digits (e.g. '٣')
                raise ValueError(text)
            value = int(text)
        except ValueError:
            message = (_("--{flag} wants an integer in {allowed} written with the digits 0-9, got {value}")
                       if not text.isascii() else _("--{flag} wants an integer in {allowed}, got {value}"))
            raise argparse.ArgumentTypeError(message.format(
                flag=flag, allowed=range_text(lo, hi, integer=True), value=shown(text))) from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(_("--{flag}={value} is out of range: allowed {allowed}").format(
                flag=flag, value=value, allowed=range_text(lo, hi, integer=True)))
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
            message = (_("--{flag} wants a number in {allowed} written with the digits 0-9, got {value}")
                       if not text.isascii() else _("--{flag} wants a number in {allowed}, got {value}"))
            raise argparse.ArgumentTypeError(message.format(flag=flag, allowed=allowed, value=shown(text))) from None
        if not (math.isfinite(value) and _in_range(value, lo, hi, lo_inclusive)):
            raise argparse.ArgumentTypeError(_("--{flag}={value} is out of range: allowed {allowed}").format(
                flag=flag, value=shown(text)[1:-1], allowed=allowed))
        return value

    return parse
