"""Folding 1/√d_k into W_Q's initialisation: the same forward pass, a d_k (SGD) or √d_k (Adam)
larger step through W_Q, measured on the training lab's model."""

import math

import numpy as np
import pytest

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.lesson.evidence import evidence
from sqrtdk_gui.core.training import folding
from sqrtdk_gui.core.training.task import forward_backward, init_params, make_batch


@pytest.mark.parametrize("d_k", [4, 64, 1024])
@pytest.mark.parametrize("seed", [0, 7])
def test_the_gradients_differ_by_exactly_the_folded_factor(d_k, seed):
    explicit = init_params(seed, 64, d_k)
    folded = dict(explicit, W_q=explicit["W_q"] / math.sqrt(d_k))
    data = make_batch(np.random.default_rng(seed), 32, 16, 64, 16, 0.5)
    a, b = forward_backward(explicit, data, "sqrt_dk"), forward_backward(folded, data, "none")
    np.testing.assert_allclose(a.logits, b.logits, rtol=1e-12, atol=1e-14)  # same forward pass
    assert a.loss == pytest.approx(b.loss, rel=1e-12)
    # ∂L/∂W_Q = c·G explicit, G folded; W_K's gradient is the same in both
    np.testing.assert_allclose(a.grads["W_q"], b.grads["W_q"] / math.sqrt(d_k), rtol=1e-9, atol=1e-300)
    np.testing.assert_allclose(a.grads["W_k"], b.grads["W_k"], rtol=1e-9, atol=1e-300)


@pytest.mark.parametrize("d_k", [16, 64, 256, 1024])
@pytest.mark.parametrize("seed", range(3))
def test_one_step_moves_the_logits_dk_or_sqrt_dk_times_more_folded(d_k, seed):
    sgd, adam = folding.one_step(d_k, "sgd", seed), folding.one_step(d_k, "adam", seed)
    assert sgd.init_gap < 1e-12 and adam.init_gap < 1e-12
    # The logits are linear in W_Q, so the ratios are exact, not only first-order.
    assert sgd.ratio_q == pytest.approx(d_k, rel=1e-6)
    assert adam.ratio_q == pytest.approx(math.sqrt(d_k), rel=1e-4)  # Adam's ε is 1e-8
    assert sgd.ratio_k == pytest.approx(1, rel=1e-9) and adam.ratio_k == pytest.approx(1, rel=1e-9)
    assert folding.theory_ratio(d_k, "sgd") == d_k and folding.theory_ratio(d_k, "adam") == math.sqrt(d_k)


def test_a_step_stays_in_the_first_order_regime():
    # Through W_Q and W_K together the change is quadratic in the rate; alone, W_Q's is linear.
    small, double = folding.one_step(64, "sgd", lr=1e-4), folding.one_step(64, "sgd", lr=2e-4)
    assert double.folded_q == pytest.approx(2 * small.folded_q, rel=1e-9)
    assert double.explicit_k == pytest.approx(2 * small.explicit_k, rel=1e-9)


def test_unknown_optimizer_is_refused():
    with pytest.raises(ValueError, match="optimizer"):
        folding.one_step(64, "rmsprop")


def test_the_interview_table_shows_the_measured_ratios():
    ev = evidence("interview", Params(d_k=256))
    rows = {r[0]: r for r in ev.rows}
    assert rows["SGD, W_Q"][3].startswith("256×") and "(d_k = 256)" in rows["SGD, W_Q"][3]
    assert rows["Adam, W_Q"][3].startswith("16×") and "(√d_k = 16)" in rows["Adam, W_Q"][3]
    assert rows["SGD, W_K"][3] == "1×" and rows["Adam, W_K"][3] == "1×"
    assert len(ev.headers) == 4 and all(len(r) == 4 for r in ev.rows)


@pytest.mark.parametrize("d_k", [4, 64, 256])
def test_the_interview_table_prints_enough_digits_to_reproduce_its_ratios(d_k):
    for row in evidence("interview", Params(d_k=d_k)).rows:
        shown = float(row[2]) / float(row[1])
        assert shown == pytest.approx(float(row[3].split("×")[0]), rel=0.01)
