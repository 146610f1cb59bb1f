"""The exact law of q·k: a density, the right variance, the Monte Carlo histogram, the CLT."""

import math

import numpy as np
import pytest

from sqrtdk_gui.core.attention.variance_gamma import (
    dot_product_bin_average,
    dot_product_pdf,
    log_bessel_k,
    normal_limit_pdf,
)


def closed_form(x, d, scale=1.0):
    """|y|^nu K_nu(|y|) / (sqrt(pi) Gamma(d/2) 2^nu) / scale with y = x / scale, x != 0."""
    nu = 0.5 * (d - 1)
    y = np.abs(np.asarray(x, dtype=float)) / scale
    log_f = (nu * np.log(y) + log_bessel_k(nu, y)
             - (0.5 * math.log(math.pi) + math.lgamma(0.5 * d) + nu * math.log(2.0)))
    return np.exp(log_f) / scale


def fourier_inverse(x, d, scale=1.0, t_max=400.0, n=400_001):
    """(1/pi) int_0^T cos(t x) (1 + scale^2 t^2)^(-d/2) dt, the literal inversion (d >= 3)."""
    t = np.linspace(0.0, t_max, n)
    phi = (1.0 + (scale * t) ** 2) ** (-0.5 * d)
    w = np.full(n, t[1] - t[0])
    w[[0, -1]] *= 0.5
    return np.array([np.sum(w * phi * np.cos(t * xi)) for xi in np.atleast_1d(x)]) / math.pi


@pytest.mark.parametrize("d", [1, 2, 3, 8, 64, 1024])
@pytest.mark.parametrize("scale", [1.0, 0.37])
def test_integrates_to_one_with_variance_d_scale_squared(d, scale):
    sigma = math.sqrt(d) * scale
    half = (40.0 if d <= 2 else 14.0) * sigma  # heavy (exponential) tails at small d
    edges = np.linspace(-half, half, 8001)
    avg = dot_product_bin_average(edges, d, scale)
    mid, width = 0.5 * (edges[1:] + edges[:-1]), np.diff(edges)
    mass = float(np.sum(avg * width))
    var = float(np.sum(avg * width * mid * mid)) - float(np.sum(avg * width * width * width)) / 12
    assert mass == pytest.approx(1.0, abs=1e-7)
    assert var == pytest.approx(d * scale * scale, rel=1e-5)


@pytest.mark.parametrize("d", [1, 2, 3, 5, 8, 64, 1024])
def test_matches_the_closed_form_with_bessel_k(d):
    x = np.linspace(-6, 6, 241) * math.sqrt(d)
    x = x[x != 0]
    np.testing.assert_allclose(dot_product_pdf(x, d), closed_form(x, d), rtol=1e-9)
    np.testing.assert_allclose(dot_product_pdf(x, d, 2.5), closed_form(x, d, 2.5), rtol=1e-9)


def test_known_small_d_forms():
    x = np.linspace(-8, 8, 161)
    np.testing.assert_allclose(dot_product_pdf(x, 2), 0.5 * np.exp(-np.abs(x)), rtol=1e-10, atol=1e-15)
    # Even d gives a half-integer nu and an elementary K: d = 4 (nu = 3/2) is (1 + |x|) e^-|x| / 4.
    np.testing.assert_allclose(dot_product_pdf(x, 4), (1 + np.abs(x)) * np.exp(-np.abs(x)) / 4,
                               rtol=1e-10, atol=1e-15)
    assert dot_product_pdf(0.0, 3) == pytest.approx(1 / math.pi, rel=1e-12)
    assert dot_product_pdf(0.0, 2) == pytest.approx(0.5, rel=1e-12)


@pytest.mark.parametrize("d", [3, 8, 32])
def test_is_the_fourier_inverse_of_the_characteristic_function(d):
    x = np.linspace(-4, 4, 17) * math.sqrt(d)
    # The truncated tail int_T^inf t^-d dt is ~3e-6 of the peak at d = 3, T = 400.
    np.testing.assert_allclose(dot_product_pdf(x, d), fourier_inverse(x, d), rtol=1e-5, atol=1e-9)


@pytest.mark.parametrize("d", [1, 2, 8])
def test_matches_a_million_sample_histogram(d):
    rng = np.random.default_rng(2024 + d)
    n = 1_000_000
    x = np.zeros(n)
    for _ in range(d):
        x += rng.standard_normal(n) * rng.standard_normal(n)
    sigma = math.sqrt(d)
    edges = np.linspace(-5 * sigma, 5 * sigma, 81)  # 0 is an edge; the next test centres a bin on it
    counts, _ = np.histogram(x, edges)
    p = dot_product_bin_average(edges, d) * np.diff(edges)
    z = (counts - n * p) / np.sqrt(n * p * (1 - p))
    assert np.max(np.abs(z)) < 5.5, np.max(np.abs(z))
    # The normal approximation fails this at small d, by a wide margin.
    mid = 0.5 * (edges[1:] + edges[:-1])
    q = normal_limit_pdf(mid, d) * np.diff(edges)
    z_normal = (counts - n * q) / np.sqrt(n * q * (1 - q))
    if d <= 2:
        assert np.max(np.abs(z_normal)) > 50


def test_d1_singularity_is_finite_and_matches_the_central_bin():
    rng = np.random.default_rng(7)
    n = 1_000_000
    x = rng.standard_normal(n) * rng.standard_normal(n)
    grid = np.linspace(-6, 6, 241)  # 0 is a grid point; spacing 0.05
    f = dot_product_pdf(grid, 1)
    assert np.all(np.isfinite(f))
    centre = f[120]
    share = np.mean(np.abs(x) < 0.025)  # the bin of width 0.05 centred on 0
    assert centre == pytest.approx(share / 0.05, rel=0.02)
    # The density really is K_0(|x|)/pi: far above the normal's 0.40 near 0.
    assert centre > 1.5 and f[121] > 0.9


def test_converges_to_the_normal_limit():
    prev = math.inf
    for d in (16, 64, 256, 1024, 4096):
        x = np.linspace(-5, 5, 201) * math.sqrt(d)
        gap = np.max(np.abs(dot_product_pdf(x, d) - normal_limit_pdf(x, d))) / normal_limit_pdf(0, d)
        assert gap < prev
        prev = gap
    assert prev < 2e-4


def test_bad_arguments():
    with pytest.raises(ValueError):
        dot_product_pdf([1.0], 0)
    with pytest.raises(ValueError):
        dot_product_pdf([1.0], 4, scale=0.0)
    with pytest.raises(ValueError):
        dot_product_bin_average([1.0, 0.0], 4)
