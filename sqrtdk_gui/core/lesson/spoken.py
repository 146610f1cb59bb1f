"""What a screen reader says once the numbers settle: one short sentence (numpy only).

The sentence names what the summary strip shows (σ, the median largest weight, the median
Jacobian norm) and, for any scaling other than ÷√d_k, how far the Jacobian norm is from what
÷√d_k gives at the same d_k: the one comparison the lesson is about.
"""

from __future__ import annotations

import math

import numpy as np

from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.attention.sweep import Sweep
from sqrtdk_gui.core.i18n import _, format_number

__all__ = ["SCALED", "QUANTITIES", "scaled_jacobian", "spoken_numbers"]

SCALED = "sqrt_dk"
SAME = 1.5  # within this factor of ÷√d_k's ‖J‖ the sentence says "about as with ÷√d_k"


def scaled_jacobian(sweep: Sweep | None, d_k: int) -> float | None:
    """The median ‖J‖_F under ÷√d_k at ``d_k``, from the ÷√d_k sweep of the same other
    parameters (log-log interpolation between its grid points); None without one."""
    if sweep is None or not len(sweep.d_k):
        return None
    values = sweep.stat("jacobian_fro", "median")
    grid = np.log2(sweep.d_k.astype(float))
    if not (grid[0] <= math.log2(d_k) <= grid[-1]) or not np.all(values > 0):
        return None
    return float(2 ** np.interp(math.log2(d_k), grid, np.log2(values)))


QUANTITIES = ("sigma", "max_weight", "jacobian")  # what the sentence may name (summary cells)


def spoken_numbers(result: Result, scaled: float | None = None, hidden: frozenset[str] = frozenset()) -> str:
    """"σ 22.6; median largest weight 0.998; median Jacobian norm 0.0036, 50 times below
    ÷√d_k." in the current language; ``scaled``: ÷√d_k's median ‖J‖_F at this d_k;
    ``hidden``: quantities an open question covers, left unsaid ("" if nothing is left)."""
    summary = result.summary
    jacobian = summary["jacobian_fro"].median
    parts = []
    if "sigma" not in hidden:
        parts.append(_("σ {value}").format(value=format_number(result.logit_std, ".3g")))
    if "max_weight" not in hidden:
        parts.append(_("median largest weight {value}").format(
            value=format_number(summary["max_weight"].median, ".3g")))
    if "jacobian" in hidden:
        return "; ".join(parts) + "." if parts else ""
    parts.append(_("median Jacobian norm {value}").format(value=format_number(jacobian, ".2g")))
    if scaled is not None and result.params.scaling != SCALED and jacobian > 0:
        ratio = scaled / jacobian
        if ratio >= SAME:
            parts[-1] += ", " + _("{factor} times below ÷√d_k").format(factor=_factor(ratio))
        elif ratio <= 1 / SAME:
            parts[-1] += ", " + _("{factor} times above ÷√d_k").format(factor=_factor(1 / ratio))
        else:
            parts[-1] += ", " + _("about as with ÷√d_k")
    return "; ".join(parts) + "."


def _factor(ratio: float) -> str:
    """Two significant digits, as a listener takes them in: 1.7, 50, 1 500."""
    rounded = float(f"{ratio:.2g}")
    if rounded >= 100:  # a thin space groups thousands in every language
        return f"{rounded:,.0f}".replace(",", "\u202f")
    return format_number(rounded, "g")
