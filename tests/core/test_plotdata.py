"""The histogram's counts and the theory curve: the fast paths against their plain definitions."""

from __future__ import annotations

import numpy as np
import pytest

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.plotdata import density_histogram, uniform_bin_counts


@pytest.mark.parametrize("seed", range(6))
def test_bin_counts_are_numpys_even_at_the_edges(seed):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        half = float(rng.choice([1e-3, 0.1, 1.0, 3.7, 32.0, 250.0])) * rng.uniform(0.5, 2.0)
        bins = int(rng.integers(1, 100))
        edges = np.linspace(-half, half, bins + 1)
        # every edge, the floats either side of it, values outside, NaN and both infinities
        values = np.concatenate([rng.normal(size=500) * half, edges, np.nextafter(edges, np.inf),
                                 np.nextafter(edges, -np.inf), [np.nan, np.inf, -np.inf]])
        rng.shuffle(values)
        want, want_edges = np.histogram(values[np.isfinite(values)], bins=bins, range=(-half, half))
        np.testing.assert_array_equal(uniform_bin_counts(values, edges), want)
        got_edges, density = density_histogram(values, half, bins)
        np.testing.assert_array_equal(got_edges, want_edges)
        finite = np.count_nonzero(np.isfinite(values))
        np.testing.assert_allclose(density * finite * (edges[1] - edges[0]), want, rtol=1e-12)


def test_bin_counts_reject_empty_bins():
    with pytest.raises(ValueError, match="positive width"):
        uniform_bin_counts(np.zeros(3), np.array([1.0, 1.0]))


@pytest.mark.parametrize("params", [Params(d_k=1), Params(d_k=64, scaling="none"),
                                    Params(d_k=64, scaling="qk_norm"),
                                    Params(d_k=3, temperature=0.3), Params(d_k=8, alignment=0.5)],
                         ids=["dk1", "raw64", "qknorm64", "dk3-T0.3", "aligned"])
@pytest.mark.parametrize("n", [240, 241])
def test_the_remembered_theory_curve_is_the_law_on_the_grid(params, n):
    """The mirrored, remembered curve equals the density computed at each x afresh."""
    result = compute(params)
    x, pdf = result.theory_curve(7.5, n)
    np.testing.assert_allclose(x, np.linspace(-7.5, 7.5, n), rtol=0, atol=1e-14)
    assert np.array_equal(x, -x[::-1])
    if params.alignment:
        assert pdf is None and result.theory_pdf(x) is None
        return
    np.testing.assert_allclose(pdf, result.theory_pdf(x), rtol=1e-12)
    assert result.theory_curve(7.5, n)[1] is pdf  # remembered, and read-only since shared
    assert not pdf.flags.writeable
    # another sample from the same law: the same curve
    assert compute(params.replace(seed=params.seed + 1)).theory_curve(7.5, n)[1] is pdf


@pytest.mark.parametrize("seed", range(4))
def test_percentiles_are_numpys_to_the_last_bit(seed):
    """Ties, NaN, ±inf, one value, huge and tiny magnitudes: np.percentile's numbers."""
    import warnings

    from sqrtdk_gui.core.attention.quantiles import percentiles

    rng = np.random.default_rng(seed)
    for _ in range(300):
        n = int(rng.choice([1, 2, 3, 4, 5, 10, 99, 256, 1000]))
        x = rng.normal(size=(int(rng.integers(1, 6)), n)) * 10.0 ** rng.uniform(-300, 300)
        if rng.random() < 0.3:
            x = np.round(x * 3) / 3  # ties
        for value, chance in ((np.nan, 0.2), (np.inf, 0.2), (-np.inf, 0.1)):
            if rng.random() < chance:
                x.flat[rng.integers(0, x.size)] = value
        q = [10, 50, 90] if rng.random() < 0.7 else list(rng.uniform(0, 100, size=4))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # inf - inf inside numpy's interpolation
            want, got = np.percentile(x, q, axis=-1), percentiles(x, q)
            one_row = np.percentile(x[0], q), percentiles(x[0], q)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)  # NaN where numpy's is NaN, the rest bit for bit
        np.testing.assert_array_equal(one_row[1], one_row[0])


def test_bin_counts_of_many_values_are_numpys_block_by_block():
    from sqrtdk_gui.core.attention import plotdata

    values = np.random.default_rng(7).standard_normal(3 * plotdata._BIN_BLOCK + 123) * 3
    values[::997] = np.nan
    edges = np.linspace(-4, 4, 62)
    want, _ = np.histogram(values[np.isfinite(values)], bins=61, range=(-4, 4))
    np.testing.assert_array_equal(uniform_bin_counts(values, edges), want)
