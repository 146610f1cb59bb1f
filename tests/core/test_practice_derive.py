"""The derivations: each step's accepted answer is the closed form, and the model confirms it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.softmax import jacobian_matrix
from sqrtdk_gui.core.practice import find
from sqrtdk_gui.core.practice.derive import DERIVATIONS, SIGMA_GRID, peak_sigma
from sqrtdk_gui.core.practice.scoring import grade


def _steps(key):
    return find(key).steps


def test_the_variance_steps_accept_the_closed_form_and_not_the_unit_variance_answer():
    s = _steps("derive_variance")
    q_std, k_std, d_k = 2.0, 0.5, 64
    assert s[0].grade(q_std**2 * k_std**2) and not s[0].grade(q_std * k_std + 1)
    assert s[1].grade(d_k * q_std**2 * k_std**2) and not s[1].grade(16.0)  # d_k·σ_q·σ_k: variances, not σs
    assert s[2].grade(math.sqrt(d_k) * q_std * k_std) and not s[2].grade(64.0)
    assert s[3].grade(0) and not s[3].grade(1)


def test_the_jacobian_steps_are_its_entries():
    s = _steps("derive_jacobian")
    j = jacobian_matrix(np.array([0.7, 0.2, 0.1]))
    assert s[1].grade(float(j[0, 0])) and s[2].grade(float(j[0, 1])) and s[3].grade(float(j[0].sum()))
    assert not s[1].grade(0.7) and not s[2].grade(0.14)  # p₁ itself; the sign of −p₁p₂


def test_the_saturation_steps_follow_the_closed_form():
    s = _steps("derive_saturation")
    p10 = 1 / (1 + 63 * math.exp(-10))
    assert s[1].grade(p10) and s[2].grade(p10 * (1 - p10))
    assert s[3].grade(1 / (1 + 63 * math.exp(-10 / math.sqrt(512)))) and not s[3].grade(1 / 64)


def test_the_backward_step_is_the_chain_rules_factor():
    assert _steps("derive_backward")[1].grade(1 / math.sqrt(64)) and not _steps("derive_backward")[1].grade(8.0)


@pytest.mark.parametrize("seed", range(8, 16))
def test_the_peak_lies_inside_the_accepted_band_on_seeds_the_band_was_not_built_from(seed):
    # The band (3–5.5) was set from the σ dial's figures; seeds 8–15 are new to it.
    sigma, norm = peak_sigma(Params(d_k=64, seed=seed))
    assert _steps("derive_peak")[2].grade(sigma) and SIGMA_GRID[0] < sigma < SIGMA_GRID[-1]
    assert 0.3 < norm < 0.36 and _steps("derive_peak")[0].grade(math.sqrt(63) / 64)


def test_a_derivation_is_right_when_every_step_is():
    q = find("derive_jacobian")
    assert grade(q, tuple(range(5))) and not grade(q, (0, 1, 2, 3)) and q.correct == tuple(range(5))
    assert all(len(d.steps) >= 3 for d in DERIVATIONS) and len(DERIVATIONS) >= 5
