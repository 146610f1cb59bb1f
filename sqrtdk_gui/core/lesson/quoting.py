"""How a range of measured values is written in the lesson: outward-rounded, never wrapping.

Pure: stdlib only.
"""

from __future__ import annotations

import math

__all__ = ["THIN", "DASH", "KINDS", "format_range", "format_value"]

THIN = "\u202f"  # narrow no-break space: thousands separator and before % (never wraps)
DASH = "\u2013"
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")

KINDS = ("range", "percent", "int", "decades")


def _sig_round(x: float, digits: int, up: bool) -> float:
    """Round x to ``digits`` significant digits, down (towards -inf) or up."""
    if x == 0.0:
        return 0.0
    e = math.floor(math.log10(abs(x))) - digits + 1
    q = x / 10.0**e
    q = math.ceil(q - 1e-9) if up else math.floor(q + 1e-9)
    return q * 10.0**e if e >= 0 else q / 10.0**-e


def _decimals(x: float, digits: int) -> int:
    return 0 if x == 0 else max(0, digits - 1 - math.floor(math.log10(abs(x))))


def _plain(x: float, digits: int) -> str:
    text = f"{x:.{_decimals(x, digits)}f}"
    whole, dot, frac = text.partition(".")
    if len(whole) > 3:  # 6900 -> 6 900
        groups: list[str] = []
        while len(whole) > 3:
            whole, groups = whole[:-3], [whole[-3:]] + groups
        whole = THIN.join([whole] + groups)
    return whole + dot + frac


def _sci(x: float, digits: int) -> str:
    if x == 0:
        return "0"
    e = math.floor(math.log10(abs(x)))
    m = x / 10.0**e
    if round(m, digits - 1) >= 10:
        e, m = e + 1, m / 10
    return f"{m:.{digits - 1}f}·10{str(e).translate(_SUPERSCRIPT)}"


def format_range(lo: float, hi: float, kind: str = "range", unit: str = "",
                 digits: int = 2) -> tuple[str, float, float]:
    """Text for a range [lo, hi] and the (outward-rounded) bounds that text states.

    "range": ``digits`` significant digits, lower bound rounded down and upper bound up, so
    the stated interval always contains [lo, hi]; scientific notation (6.2·10⁴) when the
    upper bound reaches 1e5 or the lower one is below 1e-3. "percent": lo, hi are fractions.
    "int": exact integers. "decades" (heavy tails, spread over more than a factor of ten): one
    significant digit, outward ("7–300×", "2·10⁻⁵–3·10⁻²"). Equal ends collapse to one number.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    if kind == "percent":
        lo, hi = 100.0 * lo, 100.0 * hi
    if kind == "int":
        lo_r, hi_r = float(math.floor(lo)), float(math.ceil(hi))
        parts = [str(int(lo_r)), str(int(hi_r))]
    elif kind == "decades":
        # One significant digit, outward: 7–230× reads "7–300×" (whole decades said "1–1 000×":
        # a lower bound of 1× reads as "maybe no difference"), 2.6·10⁻⁵ stays 2·10⁻⁵.
        lo_r, hi_r = _sig_round(lo, 1, up=False), _sig_round(hi, 1, up=True)
        parts = [_plain(x, 1) if 0.01 <= x < 1e4 else _sci(x, 1) for x in (lo_r, hi_r)]
    else:
        lo_r, hi_r = _sig_round(lo, digits, up=False), _sig_round(hi, digits, up=True)
        if kind == "percent":
            lo_r, hi_r = max(lo_r, 0.0), min(hi_r, 100.0)
        fmt = _sci if (hi_r >= 1e5 or 0 < lo_r < 1e-3) else _plain
        parts = [fmt(lo_r, digits), fmt(hi_r, digits)]
    text = parts[0] if parts[0] == parts[1] else f"{parts[0]}{DASH}{parts[1]}"
    text += f"{THIN}%" if kind == "percent" else unit
    return text, lo_r, hi_r


def format_value(x: float, kind: str = "range", unit: str = "", digits: int = 2) -> str:
    """One measured value in the style of :func:`format_range` (nearest, not outward)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    if kind == "percent":
        return f"{_plain(100.0 * x, digits) if x else '0'}{THIN}%"
    if kind == "int":
        return f"{x:.0f}{unit}"
    sci = (kind == "decades" and not 0.01 <= abs(x) < 1e4) or abs(x) >= 1e5 or 0 < abs(x) < 1e-3
    return (_sci(x, digits) if sci else _plain(float(f"{x:.{digits}g}"), digits)) + unit
