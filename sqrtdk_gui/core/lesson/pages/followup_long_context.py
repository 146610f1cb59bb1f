"""Follow-up · Long context: ÷√n versus × log n: the follow-up and its evidence table."""

from __future__ import annotations

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_
from sqrtdk_gui.core.lesson.measure import FigureSet, fmt
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

PAGE = Scenario("long_context", "follow-up", N_("Long context: ÷√n versus × log n"),
                "followup_long_context.html", N_("Long context"),
                preset={"d_k": 64, "keys": 131072, "scaling": "log_n"},
                highlight=("weights", "summary"),
                summary=N_("At a fixed σ, more keys dilute attention. ÷√n instead of ÷√d_k is a bug; keeping ÷√d_k "
                           "and multiplying by a slowly growing log n is one long-context technique (most rescale "
                           "the rotary positions instead)."))


FIGURES = FigureSet()


LONG_CONTEXT_KEYS = (64, 1024, 16384, 131072)


def evidence(p: Params) -> Evidence:
    """Dilution and its cures against n: entropy of ÷√d_k against log n; σ and the median
    largest weight for ÷√d_k (dilutes), ÷√n (the bug: goes uniform), × log₆₄ n (holds)."""
    rows = []
    for n in LONG_CONTEXT_KEYS:
        cells = [str(n)]
        for scaling in ("sqrt_dk", "seq_len", "log_n"):
            r = compute(p.replace(keys=n, scaling=scaling, queries=64))
            if scaling == "sqrt_dk":
                cells.append(f"{fmt(r.summary['entropy'].median)} / {fmt(r.log_n)}")
            cells.append(f"{r.logit_std:.2g} / {r.summary['max_weight'].median:.2g}")
        rows.append(tuple(cells))
    return Evidence(("n", "÷√d_k: H / log n", "÷√d_k: σ / max p", "÷√n: σ / max p", "× log₆₄ n: σ / max p"),
                    tuple(rows))
