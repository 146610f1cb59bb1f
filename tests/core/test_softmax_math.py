"""Row statistics against explicit matrices, finite differences and high precision."""

from fractions import Fraction

import numpy as np
import pytest

from sqrtdk_gui.core.attention.softmax import jacobian_matrix, jacobian_vector, row_stats, softmax_evaluated


def _softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_jacobian_matches_central_differences():
    rng = np.random.default_rng(1)
    z = rng.normal(size=7) * 2
    h = 1e-6
    fd = np.empty((7, 7))
    for j in range(7):
        dz = np.zeros(7)
        dz[j] = h
        fd[:, j] = (_softmax(z + dz) - _softmax(z - dz)) / (2 * h)
    J = jacobian_matrix(_softmax(z))
    np.testing.assert_allclose(J, fd, atol=1e-9)
    np.testing.assert_allclose(J.sum(axis=1), 0.0, atol=1e-15)
    stats = row_stats(z[None, :])
    assert stats.jacobian_fro[0] == pytest.approx(np.linalg.norm(fd), rel=1e-7)


def test_uniform_row_has_textbook_norms():
    n = 10
    stats = row_stats(np.zeros((1, n)))
    assert stats.jacobian_fro[0] == pytest.approx(np.sqrt(n - 1) / n, rel=1e-14)
    assert stats.entropy[0] == pytest.approx(np.log(n), rel=1e-14)
    assert np.linalg.norm(jacobian_matrix(stats.p[0]), 2) == pytest.approx(1 / n, rel=1e-12)


def _exact_fro(z):
    """||J||_F of one row in exact rational arithmetic (exp rounded once, to float64)."""
    e = [Fraction(float(np.exp(x - max(z)))) for x in z]
    s = sum(e)
    p = [x / s for x in e]
    total = sum((p[i] * ((i == j) - p[j])) ** 2 for i in range(len(p)) for j in range(len(p)))
    return float(total) ** 0.5, float(1 - max(p))


@pytest.mark.parametrize("gap", [20.0, 30.0, 40.0, 60.0])
def test_nearly_one_hot_rows_keep_their_digits(gap):
    z = np.array([0.0, -gap, -gap - 1.5, -gap - 3.0, -gap - 0.25])
    exact_fro, exact_rest = _exact_fro(z)
    stats = row_stats(z[None, :])
    assert stats.jacobian_fro[0] == pytest.approx(exact_fro, rel=1e-12)
    assert stats.rest[0] == pytest.approx(exact_rest, rel=1e-12)
    # The textbook closed form has no digits left here: it is a difference of numbers near 1.
    p = stats.p[0]
    s2 = np.sum(p**2)
    closed = np.sqrt(max(s2 - 2 * np.sum(p**3) + s2 * s2, 0.0))
    assert abs(closed - exact_fro) > 0.5 * exact_fro


def test_entropy_of_nearly_one_hot_row_is_accurate():
    z = np.array([[0.0, -40.0, -41.0]])
    p = np.exp(z[0] - np.log(np.exp(z[0]).sum()))
    tiny = p[1:]
    exact = -(tiny * np.log(tiny)).sum() + np.log1p(tiny.sum() / p[0]) * p[0]
    assert row_stats(z).entropy[0] == pytest.approx(exact, rel=1e-12)


def _exact_jv(z, u):
    """(diag(p) - p p^T) u in exact rational arithmetic, p from float64 exponentials."""
    e = [Fraction(float(np.exp(x - max(z)))) for x in z]
    s = sum(e)
    p = [x / s for x in e]
    pu = sum(pi * Fraction(float(ui)) for pi, ui in zip(p, u))
    return np.array([float(pi * (Fraction(float(ui)) - pu)) for pi, ui in zip(p, u)])


def test_jacobian_vector_is_accurate_even_when_saturated():
    rng = np.random.default_rng(3)
    z = rng.normal(size=(5, 9)) * np.array([[1], [5], [20], [50], [200]])
    u = rng.normal(size=(5, 9))
    stats = row_stats(z)
    jv = jacobian_vector(stats, u)
    for i in range(5):
        np.testing.assert_allclose(jv[i], _exact_jv(z[i], u[i]), rtol=1e-9, atol=0)
        # Unsaturated rows also match the explicit matrix product.
        if i < 2:
            np.testing.assert_allclose(jv[i], jacobian_matrix(stats.p[i]) @ u[i], rtol=1e-9)
    np.testing.assert_allclose(jv.sum(axis=1), 0.0, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_stable_and_naive_agree_without_overflow(dtype):
    z = np.random.default_rng(0).normal(size=(20, 8))
    stable, n_stable = softmax_evaluated(z, "stable", np.dtype(dtype))
    naive, n_naive = softmax_evaluated(z, "naive", np.dtype(dtype))
    assert n_stable == n_naive == 0
    tol = {"float16": 2e-3, "float32": 1e-6, "float64": 1e-15}[dtype]
    np.testing.assert_allclose(naive, stable, atol=tol)


@pytest.mark.parametrize("dtype,limit", [("float16", 11.09), ("float32", 88.72), ("float64", 709.78)])
def test_naive_softmax_overflows_just_above_log_max(dtype, limit):
    below = np.array([[limit - 0.05, 0.0]])
    above = np.array([[limit + 0.05, 0.0]])
    assert softmax_evaluated(below, "naive", np.dtype(dtype))[1] == 0
    assert softmax_evaluated(above, "naive", np.dtype(dtype))[1] > 0
    assert softmax_evaluated(above, "stable", np.dtype(dtype))[1] == 0


def test_quadratic_rows_matches_the_direct_product_with_subnormal_entries_and_zero_rows():
    # delta G deltaᵀ per row, computed on rows scaled to their largest entry (a saturated
    # row's subnormal entries slow the product some 70-fold): the same numbers as the direct
    # product, including rows whose entries are all tiny and rows of zeros.
    from sqrtdk_gui.core.attention.dense import quadratic_rows

    rng = np.random.default_rng(3)
    a = rng.standard_normal((40, 64))
    gram = a.T @ a  # positive semi-definite, as K Kᵀ
    delta = rng.standard_normal((6, 64))
    delta[1, ::2] *= 1e-310  # subnormal beside normal entries
    delta[2] *= 1e-160  # a whole row tiny: its value is about 1e-320
    delta[3] = 0.0
    delta[4, 5] = 1e-300  # one normal entry among zeros
    delta[4, :5] = 0.0
    delta[4, 6:] = 0.0
    direct = np.einsum("ij,ij->i", delta @ gram, delta)
    fast = quadratic_rows(delta, gram)
    assert fast[3] == 0.0 and direct[3] == 0.0
    np.testing.assert_allclose(fast[[0, 1]], direct[[0, 1]], rtol=1e-12)
    # Below the smallest normal double the direct product loses digits in its subnormal
    # intermediates; against the row computed at full precision and scaled back, the scaled
    # product is right to the last subnormal step.
    up = delta[2] * 1e160
    reference = float(up @ gram @ up) * 1e-160 * 1e-160  # (1e-320 itself is a rounded subnormal)
    assert abs(fast[2] - reference) <= 1e-12 * reference + 1e-323 and abs(fast[2] - direct[2]) < 1e-3 * direct[2]
    assert fast[4] == direct[4] or abs(fast[4] - direct[4]) <= 1e-322
    assert (fast >= 0).all()
