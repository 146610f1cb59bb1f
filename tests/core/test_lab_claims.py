"""Every figure the texts quote from the training lab holds on every seed, on this CPU's BLAS.

The phrase test is quick; the claim test trains (several minutes: every sweep the texts
quote), so it is marked ``claims`` and CI runs it as its own step under two OpenBLAS kernels.
"""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

import pytest

from sqrtdk_gui.core.training import claims as lab_claims
from sqrtdk_gui.core.training.claims import LAB_CLAIMS, LabClaim

ROOT = Path(__file__).resolve().parents[2]


def plain(text: str) -> str:
    """Text as a reader sees it: no tags or markdown marks, one space, d_k written dk."""
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    text = re.sub(r"[*`]", "", text).replace("d_k", "dk")
    return re.sub(r"\s+", " ", text)


def _source(path: str) -> str:
    text = (ROOT / path).read_text(encoding="utf-8")
    if path.endswith(".py"):  # a Python string constant spread over several literals
        text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text))
    return plain(text)


@pytest.mark.parametrize("claim", LAB_CLAIMS, ids=lambda c: c.key)
def test_every_claim_is_quoted_where_it_says(claim: LabClaim):
    assert claim.where and claim.how and claim.lo <= claim.hi
    if claim.log:
        assert claim.lo > 0 and math.log10(claim.lo).is_integer() and math.log10(claim.hi).is_integer()
    for path in claim.where:
        assert plain(claim.phrase).lower() in _source(path).lower(), (claim.key, path)


def test_no_training_figure_is_quoted_without_a_claim():
    # The old single-run figures must not come back: each was true for one seed on one CPU.
    for path in ("docs/user-guide/lab.md", "sqrtdk_gui/core/lesson/pages/step5.html", "sqrtdk_gui/gui/lab/controls.py"):
        text = _source(path)
        for stale in ("39–53", "0.44–0.54", "2·10⁻⁴–10⁻⁶", "6–16 %", "85–93 %", "in 50 steps and ÷√dk in 62"):
            assert stale not in text, (path, stale)


@pytest.mark.claims
@pytest.mark.parametrize("claim", LAB_CLAIMS, ids=lambda c: c.key)
def test_every_seed_lies_in_the_quoted_interval(claim: LabClaim):
    values = lab_claims.claim_values(claim)
    assert values, claim.key
    outside = lab_claims.check(claim)
    assert not outside, f"{claim.key}: {claim.phrase!r} states [{claim.lo:g}, {claim.hi:g}]; measured {values}"


def _unseen_outside(claim: LabClaim) -> list[float]:
    values = claim.unseen()
    assert values, claim.key
    outside = [v for v in values if not claim.lo <= v <= claim.hi]
    assert len(outside) <= 0.03 * len(values), (claim.key, claim.phrase, outside)
    return values


FIRST_BATCH = [c for c in LAB_CLAIMS if c.how.startswith("{start}")]  # no training: quick


@pytest.mark.parametrize("claim", FIRST_BATCH, ids=lambda c: c.key)
def test_97_in_100_seeds_the_first_batch_s_figures_were_not_built_from_lie_in_them(claim: LabClaim):
    # The first batch's figures need no training: built from seeds 0–63, checked on 64–127.
    assert claim.unseen and len(_unseen_outside(claim)) >= 32


@pytest.mark.claims
@pytest.mark.parametrize("claim", [c for c in LAB_CLAIMS if c.unseen and c not in FIRST_BATCH],
                         ids=lambda c: c.key)
def test_the_training_figures_hold_on_seeds_they_were_not_quoted_from(claim: LabClaim):
    # The SGD sweep's figures, quoted from seeds 0–4, on seeds 5–14 (a minute of training); the
    # single-rate runs', quoted from seeds 0–7, on seeds 8–23 (four minutes).
    assert len(_unseen_outside(claim)) >= len(lab_claims.DEPTH_CHECK_SEEDS)


def test_the_claims_table_lists_every_figure_and_claim_with_its_seeds_and_test():
    from sqrtdk_gui.core.lesson import figures
    from sqrtdk_gui.core.lesson.claims_table import claim_rows

    rows = claim_rows()
    assert len(rows) == len(figures.FIGURES) + len(LAB_CLAIMS)
    for row in rows:
        assert row.quoted and row.what and re.fullmatch(r"\d+–\d+", row.seeds), row
        assert (ROOT / row.test.split(" ")[0]).is_file()


@pytest.mark.parametrize("lang", ["de", "es", "zh_CN"])
def test_the_claims_table_speaks_the_language_of_the_handout(lang):
    # The handout's last page in German, Spanish or Chinese: every description translated
    # (with the rates in the language's decimal mark), the quoted phrases as their pages say
    # them (a few fragments, such as "→ 0.02–0.04)" in Chinese, read the same).
    from sqrtdk_gui.core import i18n
    from sqrtdk_gui.core.lesson.claims_table import claim_rows

    english = claim_rows()[-len(LAB_CLAIMS):]
    i18n.set_language(lang)
    try:
        rows = claim_rows()[-len(LAB_CLAIMS):]
    finally:
        i18n.set_language("en")
    assert all(row.what != en.what for row, en in zip(rows, english))
    assert sum(row.quoted != en.quoted for row, en in zip(rows, english)) >= 0.9 * len(rows)
    assert [row.seeds for row in rows] == [en.seeds for en in english]
    if i18n.decimal_mark(lang) == ",":
        assert not any(re.search(r"lr \d+\.\d", row.what) for row in rows)
