"""Public helpers check their arguments like every other public function (issue 21, point 7): a bad
value gives an error that names it, never a silent number or an obscure error from inside."""

from __future__ import annotations

import numpy as np
import pytest

from bandit_lib.ade20.ade import ade_radii
from bandit_lib.arena.glr import glr_statistic, kk21_gaussian_threshold, kk21_threshold
from bandit_lib.arena.lower_bound import divergence_values, kl_bernoulli
from bandit_lib.grapl20.apt import apt
from bandit_lib.grapl20.grapl import grapl_index
from bandit_lib.tapes import bernoulli_tape


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: kl_bernoulli(1.5, 0.5), r"x in \[0, 1\].*x=1\.5"),
        (lambda: kl_bernoulli(float("nan"), 0.5), r"x=nan"),
        (lambda: kl_bernoulli(0.5, -0.1), r"y=-0\.1"),
        (lambda: divergence_values([0.1], [0.2], divergence="bogus"), r"divergence='bogus'"),
        (lambda: divergence_values([0.1], [0.2], sigma=0.0), r"sigma=0\.0"),
        (lambda: kk21_threshold(0, 5, 0.1), r"t=0"),
        (lambda: kk21_gaussian_threshold(3, 5, 0.1), r"t=3"),
        (lambda: kk21_threshold(10, 5, 2.0), r"delta=2\.0"),
        (lambda: ade_radii(5, 10, 4, 4, 10.0, 1.0, 1.0, k=2, delta=0.1), r"S1=10\.0"),
        (lambda: ade_radii(5, 10, 4, 4, 1.0, 1.0, 4.5, k=2, delta=0.1), r"S12=4\.5"),
        (lambda: glr_statistic(np.array([0.1, 0.2, 0.9]), np.zeros(3), 1.0, "gaussian", 1.0), r"counts=\[0\.0"),
        (lambda: apt(bernoulli_tape([0.1, 0.9], 1), 10**12, tau=0.5, eps=0.1), r"horizon=1000000000000 would need"),
        (lambda: grapl_index([0.1, 0.6], [1, 2, 3], tau=0.5, eps=0.1, alpha=1.0), r"mu_hat.*counts|same length"),
    ],
)
def test_bad_arguments_are_named(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_good_arguments_still_give_the_numbers():
    assert kl_bernoulli(0.2, 0.5) == pytest.approx(0.2 * np.log(0.4) + 0.8 * np.log(1.6))
    assert kl_bernoulli(0.0, 0.5) == pytest.approx(np.log(2))
    np.testing.assert_allclose(
        grapl_index([0.1, 0.6], [1, 2], tau=0.5, eps=0.1, alpha=1.0), [0.5 * np.sqrt(2), 0.2 * np.sqrt(3)]
    )
    assert kk21_threshold(5, 5, 0.1) > 0
