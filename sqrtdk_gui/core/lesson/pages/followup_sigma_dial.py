"""Follow-up · Why σ ≈ 1 and not 3: the σ dial: the follow-up and its evidence table."""

from __future__ import annotations

from sqrtdk_gui.core.attention import sigma_dial
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import fmt
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

# The σ dial, low precision and long context (each with its evidence table).
PAGE = Scenario("sigma_dial", "follow-up", N_("Why σ ≈ 1 and not 3: the σ dial"),
                "followup_sigma_dial.html", N_("σ dial"), preset={"d_k": 256, "scaling": "none"},
                highlight=("sigma_dial",),
                summary=N_("Softmax only sees the spread σ of its logits and is responsive in a window of σ (for 64 "
                           "keys from about 1 to 8). ÷√d_k puts every head size at σ = 1; raw logits slide out of "
                           "the window as d_k grows."))


def evidence(p: Params) -> Evidence:
    """The dial's medians at a few σ for the current n; raw logits reach σ at d_k = σ²."""
    c = sigma_dial.curves(p.keys)
    rows = []
    for sigma in (0.25, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0):
        raw_dk = sigma * sigma  # unit q, k entries, τ = 1: raw σ = √d_k
        rows.append((f"{sigma:g}", fmt(c.at("max_weight", sigma), 3), fmt(c.at("entropy_ratio", sigma)),
                     fmt(c.at("jacobian_fro", sigma), 3), f"{raw_dk:g}" if raw_dk >= 1 else "–"))
    return Evidence(("σ", "max p", "H / log n", "‖J‖_F", _("raw at d_k")), tuple(rows))
