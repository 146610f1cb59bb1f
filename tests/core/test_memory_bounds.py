"""Bounded memory: per-row statistics over every query, full arrays for the first rows only."""

from __future__ import annotations

import numpy as np

from sqrtdk_gui.core.attention import dense, geometry
from sqrtdk_gui.core.attention.compute import compute, selectable_rows
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import DISPLAY_ROWS, MEDIAN_ROW
from sqrtdk_gui.core.attention.sampling import pool


def test_many_queries_keep_all_row_statistics_and_the_first_rows_arrays():
    big = compute(Params(queries=DISPLAY_ROWS + 300, keys=8, d_k=16))
    small = compute(Params(queries=DISPLAY_ROWS, keys=8, d_k=16))
    assert big.rows == DISPLAY_ROWS + 300 and big.shown_rows == DISPLAY_ROWS
    assert big.rows_sampled_for_display and not small.rows_sampled_for_display
    assert big.logits.shape == big.p.shape == big.weights.shape == (DISPLAY_ROWS, 8)
    # Nested pools: the first rows are the same queries, row by row the same numbers.
    for name in ("max_weight", "entropy", "jacobian_fro", "grad_q", "row_sums"):
        np.testing.assert_allclose(getattr(big, name)[:DISPLAY_ROWS], getattr(small, name), rtol=1e-12)
    np.testing.assert_array_equal(big.logits, small.logits)


def test_the_median_row_can_be_shown_wherever_it_is():
    r = compute(Params(queries=3 * DISPLAY_ROWS, keys=16, d_k=8, alignment=0.4))
    row = r.resolve_row(MEDIAN_ROW)
    p, w = r.p_row(row), r.weights_row(row)
    assert p.shape == w.shape == (16,)
    assert np.isclose(p.max(), r.max_weight[row]) and np.isclose(w.sum(), r.row_sums[row])
    block, _ = r.jacobian_block(row, 4)
    assert block.shape == (4, 4)
    assert r.resolve_row(5 * DISPLAY_ROWS) == DISPLAY_ROWS - 1  # explicit rows: the kept ones
    assert selectable_rows(r.params) == DISPLAY_ROWS


def test_rows_computed_in_parts_agree_with_the_whole(monkeypatch):
    p = Params(queries=700, keys=50, d_k=130, alignment=0.3, scaling="qk_norm")
    whole = compute(p)
    monkeypatch.setattr(geometry, "_MAX_POOL_FLOATS", 1)  # draw the pools block by block
    monkeypatch.setattr(geometry, "_MAX_PREFIX_FLOATS", 1)
    monkeypatch.setattr(dense, "PART_ROWS", 96)
    parts = compute(p)
    for name in ("max_weight", "entropy", "jacobian_fro", "grad_q", "row_sums"):
        np.testing.assert_allclose(getattr(parts, name), getattr(whole, name), rtol=1e-9)
    assert np.isclose(parts.logit_std, whole.logit_std, rtol=1e-12)


def test_query_rows_are_the_products_of_the_pools():
    dots, q_sq = geometry.query_rows(3, 20, 150, 40, 90)
    q, k = pool(3, "q", 90, 150)[40:], pool(3, "k", 20, 150)
    np.testing.assert_allclose(dots, q @ k.T, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(q_sq, (q * q).sum(axis=1), rtol=1e-12)
    np.testing.assert_allclose(geometry.key_gram(3, 20, 150), k @ k.T, rtol=1e-12, atol=1e-12)


def test_a_new_pool_is_drawn_after_making_room_for_it(monkeypatch):
    """The pool cache's bound holds while a pool is drawn, not only after it is stored."""
    from sqrtdk_gui.core.attention import sampling

    sampling.clear_cache()
    monkeypatch.setattr(sampling._cache, "max_weight", 4 << 20)  # the module's own cache, a smaller bound
    for seed in range(4):  # 4 × 1 MB cached
        pool(seed, "k", 256, 512)
    drawn = []
    real_block = sampling._block

    def block(*args):
        drawn.append(sampling.cached_bytes())
        return real_block(*args)

    monkeypatch.setattr(sampling, "_block", block)
    big = pool(9, "k", 256, 1536)  # 3 MB: only one of the older pools may stay beside it
    assert drawn and max(drawn) + big.nbytes <= 4 << 20
    monkeypatch.setattr(sampling, "_block", real_block)
    sampling.clear_cache()
    assert np.array_equal(big, pool(9, "k", 256, 1536))  # filled in place: the same numbers


def test_running_sums_stay_within_their_bound_in_all(monkeypatch):
    from sqrtdk_gui.core.threads import drain

    drain()  # an earlier test's background work (a practice item's spread) must not add its sets here
    geometry.clear_cache()
    monkeypatch.setattr(geometry._prefixes, "max_weight", 2_000_000)  # the module's own cache, a smaller bound
    monkeypatch.setattr(geometry, "_MAX_PREFIX_FLOATS", 2_000_000)
    for seed in (1, 2):  # each 64 × 100 set at d 4096: 65 × (6,400 + 64 + 10,000) ≈ 1.07 M floats
        geometry.geometry(seed, 64, 100, 4096)
    kept = list(geometry._prefixes.values())
    assert len(kept) == 1 and kept[0].seed == 2  # two would hold 2.1 M > 2 M
    assert sum(p.floats() for p in kept) <= 2_000_000
