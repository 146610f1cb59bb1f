"""Trap · A scale from the sequence length: the trap, its evidence table and the figures its text quotes."""

from __future__ import annotations

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import Result
from sqrtdk_gui.core.attention.scaling import log_n_factor
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import SCALED, FigureSet, fmt, med, run
from sqrtdk_gui.core.lesson.page import Evidence, Scenario

PAGE = Scenario("seq_len", "trap", N_("A scale from the sequence length"), "trap_seq_len.html",
                N_("Scale from n"),
                preset={"d_k": 256, "keys": 1024, "scaling": "seq_len"},
                highlight=("histogram", "summary"),
                summary=N_("A logit's variance comes from its d_k terms; the number of keys n does not enter it. ÷√n "
                           "instead of ÷√d_k gives σ = √(d_k/n): too wide for short contexts, too flat for long "
                           "ones."))


FIGURES = FigureSet()


def _seq(p: Params, n: int, factor: float = 1.0) -> Result:
    # A factor multiplying the logits is a temperature of 1/factor.
    return run(p, d_k=256, keys=n, scaling=SCALED, temperature=1.0 / factor)


@FIGURES.add("seqlen_maxp_16", N_("median max p with ÷√d_k, d_k = 256, n = 16 keys"))
def _seqlen_maxp_16(p: Params) -> float:
    return med(_seq(p, 16), "max_weight")


@FIGURES.add("seqlen_maxp_1024", N_("median max p with ÷√d_k, d_k = 256, n = 1024 keys"))
def _seqlen_maxp_1024(p: Params) -> float:
    return med(_seq(p, 1024), "max_weight")


@FIGURES.add("seqlen_maxp_logn_1024", N_("median max p with ÷√d_k × log_64 n, d_k = 256, n = 1024 keys"))
def _seqlen_maxp_logn_1024(p: Params) -> float:
    return med(_seq(p, 1024, log_n_factor(1024)), "max_weight")


def evidence(p: Params) -> Evidence:
    """σ under ÷√d_k and ÷√n, and how thin the top weight gets as n grows (÷√d_k, then × log n)."""
    rows = []
    for n in (16, 64, 256, 1024):
        q = p.replace(keys=n, temperature=1.0)
        scaled = compute(q.replace(scaling="sqrt_dk"))
        # Multiplying the logits by log_64 n is a temperature of 1 / log_64 n: no new scaling mode.
        logn = compute(q.replace(scaling="sqrt_dk", temperature=1.0 / log_n_factor(n)))
        rows.append((str(n), fmt(scaled.logit_std), fmt(compute(q.replace(scaling="seq_len")).logit_std),
                     fmt(scaled.summary["max_weight"].median, 3), fmt(logn.summary["max_weight"].median, 3)))
    return Evidence((_("keys n"), "σ ÷√d_k", "σ ÷√n", "max p ÷√d_k", "max p × log₆₄ n"), tuple(rows))
