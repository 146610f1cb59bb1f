"""The curves stored at build time (curve_data) are the computation's, for every page's parameters."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from sqrtdk_gui.core.attention import curve_data, sigma_dial
from sqrtdk_gui.core.attention import sweep as sweeps
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.sweep import DK_GRID, compute_sweep, store_key, sweep, sweep_base
from sqrtdk_gui.core.lesson.content import shown_dials, shown_sweeps

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import build_curves  # noqa: E402

STALE = "run python packaging/build_curves.py"


@pytest.fixture(autouse=True)
def _fresh():
    sweeps.clear_cache()
    yield
    sweeps.use_stored(True)
    sigma_dial.use_stored(True)
    sweeps.clear_cache()


def test_every_page_has_its_curves_stored_and_nothing_else():
    assert set(curve_data.SWEEPS) == {store_key(b) for b in shown_sweeps()}, STALE
    assert set(curve_data.DIALS) == set(shown_dials()), STALE
    assert curve_data.FIELDS == tuple(Params().__getstate__()), STALE
    assert curve_data.D_KS == DK_GRID, STALE
    # Every page: the long-context page's 131 072 keys, the sequence-length trap's 1 024.
    assert {b.keys for b in shown_sweeps()} == {64, 1024, 131072}


def test_the_short_contexts_stored_curves_are_recomputed_alike():
    # The 64-key pages (16 of 22 sweeps, a second or two); the slow test below does them all.
    bases = [b for b in shown_sweeps() if b.keys == 64]
    assert len(bases) >= 10
    assert build_curves.stale(build_curves.compute_sweeps(bases), curve_data.SWEEPS, some=True) == [], STALE
    assert build_curves.stale(build_curves.compute_dials((64,)), curve_data.DIALS, some=True) == [], STALE


@pytest.mark.slow
def test_every_stored_curve_is_the_computation():
    assert build_curves.stale(build_curves.compute_sweeps(), curve_data.SWEEPS) == [], STALE
    assert build_curves.stale(build_curves.compute_dials(), curve_data.DIALS) == [], STALE


def test_a_page_sweep_comes_from_the_store_and_another_seed_is_computed(monkeypatch):
    computed = []
    real = sweeps.compute_sweep
    monkeypatch.setattr(sweeps, "compute_sweep", lambda *a, **k: computed.append(a[0]) or real(*a, **k))
    stored = sweep(Params(d_k=512))  # the window's default parameters at another d_k
    assert computed == []
    assert not stored.logit_std.flags.writeable  # shared between windows and threads
    other = sweep(Params(seed=1))
    assert computed == [sweep_base(Params(seed=1))]
    # The stored numbers are the computation's: recomputed, the same to the last digits a
    # BLAS kernel may change.
    fresh = compute_sweep(sweep_base(Params()))
    np.testing.assert_array_equal(stored.d_k, fresh.d_k)
    for name in ("logit_std", "theory_std", "saturated_fraction"):
        np.testing.assert_allclose(getattr(stored, name), getattr(fresh, name), rtol=1e-6)
    np.testing.assert_array_equal(stored.overflow_count, fresh.overflow_count)
    for q, stats in fresh.rows.items():
        for stat, values in stats.items():
            np.testing.assert_allclose(stored.rows[q][stat], values, rtol=1e-6, err_msg=f"{q} {stat}")
    assert stored.rows_used == fresh.rows_used == 256
    assert not np.allclose(other.logit_std, stored.logit_std)  # another sample, other numbers


def test_without_the_store_a_page_sweep_is_computed(monkeypatch):
    sweeps.use_stored(False)
    computed = []
    real = sweeps.compute_sweep
    monkeypatch.setattr(sweeps, "compute_sweep", lambda *a, **k: computed.append(a[0]) or real(*a, **k))
    sweep(Params(), d_ks=(4, 64))  # another grid is never stored either
    sweep(Params())
    assert len(computed) == 2


def test_a_stored_dial_is_the_computation():
    assert sigma_dial.stored_curves(64) is not None, STALE
    assert sigma_dial.stored_curves(65) is None  # no page has 65 keys
    stored = sigma_dial.curves(64)
    assert stored is sigma_dial.stored_curves(64)
    sigma_dial.use_stored(False)
    fresh = sigma_dial.curves(64)
    assert fresh is not stored
    np.testing.assert_array_equal(stored.sigma, fresh.sigma)
    assert (stored.rows, stored.seeds) == (fresh.rows, fresh.seeds)
    for q in sigma_dial.QUANTITIES:
        for st in sigma_dial.STATISTICS:
            np.testing.assert_allclose(stored.stat(q, st), fresh.stat(q, st), rtol=1e-6)
    assert stored.peak_sigma == fresh.peak_sigma
