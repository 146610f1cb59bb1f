"""Every figure the lesson and the training lab quote, in one table for reviewers.

Each row: what is quoted, the text it is quoted as, how it is computed, over which seeds,
and the test that checks it. The handout ends with this table: the one place an expert can
audit every number the program teaches. Pure: the figure and claim registries only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from sqrtdk_gui.core.i18n import N_, _, localize_number
from sqrtdk_gui.core.lesson import figures
from sqrtdk_gui.core.training import claims as lab_claims

__all__ = ["ClaimRow", "claim_rows"]

# The test file that checks a row, and what it checks (translated where the table is made).
FIGURES_TEST = ("tests/core/test_figures.py",
                N_("seeds 64–127 span the quote, widened by 15 % on each side; at least 97 % of seeds 0–63 fall "
                   "in it; headline figures by an independent path; stored values recomputed on two OpenBLAS "
                   "kernels"))
LAB_TEST = ("tests/core/test_lab_claims.py", N_("every seed in the interval; CI: two OpenBLAS kernels"))


class ClaimRow(NamedTuple):
    quoted: str  # the text as the lesson or README prints it
    what: str  # what it measures, and how
    seeds: str
    test: str  # the test file first, then what it checks in parentheses


def _seeds(seeds: Iterable[int]) -> str:
    seeds = list(seeds)
    return f"{seeds[0]}–{seeds[-1]}" if len(seeds) > 1 else str(seeds[0])


def _test(test: tuple[str, str]) -> str:
    path, checks = test
    return _("{path} ({checks})").format(path=path, checks=_(checks))


def claim_rows() -> list[ClaimRow]:
    """The lesson's figures (quoted from the model at initialisation), then the lab's claims;
    their words in the current language."""
    figures_test, lab_test = _test(FIGURES_TEST), _test(LAB_TEST)
    rows = [ClaimRow(localize_number(figures.quote(key)), f.describe(), _seeds(figures.SEEDS), figures_test)
            for key, f in figures.FIGURES.items()]
    for c in lab_claims.LAB_CLAIMS:
        seeds = re.search(r"seeds (\d+–\d+)", c.description())  # each description names its seeds
        # The rates filled in ({lr}) in the language's decimal mark, as the translated words around them.
        rows.append(ClaimRow(_(c.phrase).replace("dk", "d_k"), localize_number(c.description(_)),
                             seeds.group(1) if seeds else "", lab_test))
    return rows
