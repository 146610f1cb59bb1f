"""Follow-up · Low precision: bfloat16 and float8: the follow-up, its evidence table and the figures its text quotes."""

from __future__ import annotations

import math

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import RAW, SCALED, FigureSet, fused_kernel_error
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

PAGE = Scenario("precision", "follow-up", N_("Low precision: bfloat16 and float8"),
                "followup_precision.html", "bf16 / fp8",
                preset={"d_k": 1024, "scaling": "none", "dtype": "bfloat16"},
                highlight=("weights", "summary"),
                summary=N_("Rounding q and k to bfloat16 moves each logit by an amount that grows with the logits' "
                           "spread. At d_k = 1024 the largest weight errors are {kernel_raw_1024} raw against "
                           "{kernel_scaled_1024} with ÷√d_k."))


FIGURES = FigureSet()


_KERNEL = {RAW: N_("bfloat16 fused-kernel model (q, k, p rounded; S in float32), raw, d_k = 1024: p90 over rows "
                   "of the largest relative weight error"),
           SCALED: N_("bfloat16 fused-kernel model (q, k, p rounded; S in float32), ÷√d_k, d_k = 1024: p90 over "
                      "rows of the largest relative weight error")}
for _scaling, _name in ((RAW, "raw"), (SCALED, "scaled")):
    FIGURES.add(f"kernel_{_name}_1024", _KERNEL[_scaling], kind="percent")(
        lambda p, s=_scaling: fused_kernel_error(p.replace(d_k=1024), s))


def _percent(x: float) -> str:
    if not math.isfinite(x):
        return _("overflow")
    v = 100 * x
    return f"{v:.0f} %" if v >= 10 else (f"{v:.2g} %" if v >= 0.01 else "< 0.01 %")


PRECISION_TYPES = ("bfloat16", "float8_e4m3fn")


PRECISION_DKS = (4, 64, 256, 1024, 4096)


_SHORT = {"bfloat16": "bf16", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2"}


def evidence(p: Params) -> Evidence:
    """Weight error against float64 versus d_k: raw and ÷√d_k, with bfloat16 or float8 E4M3
    logits (an unfused pipeline), and in a bfloat16 fused kernel (q, k, p rounded).

    Each row's largest relative error over its weights >= 0.1/n, 90th percentile over rows.
    """
    rows = []
    base = Params(seed=p.seed, temperature=p.temperature)  # the kernel model: independent q, k
    for d in PRECISION_DKS:
        cells = [str(d)]
        for name in PRECISION_TYPES:
            for scaling in ("none", "sqrt_dk"):
                r = compute(p.replace(d_k=d, dtype=name, scaling=scaling))
                cells.append(_percent(r.rel_error_summary.p90))
        cells += [_percent(fused_kernel_error(base.replace(d_k=d), s)) for s in ("none", "sqrt_dk")]
        rows.append(tuple(cells))
    headers = ["d_k"]
    for n in PRECISION_TYPES:
        headers += [_("{type} raw").format(type=_SHORT[n]), f"{_SHORT[n]} ÷√d_k"]
    headers += [_("kernel raw"), _("kernel ÷√d_k")]
    return Evidence(tuple(headers), tuple(rows))
