import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from bandit_lib.radii import (
    agresti_coull_radius,
    hoeffding_level,
    hoeffding_radius,
    subgaussian_radius,
    z_erfinv,
    z_normal,
)


def test_hand_values():
    assert hoeffding_radius(50, 0.1) == pytest.approx(math.sqrt(math.log(10) / 100))
    assert hoeffding_radius(50, 0.1, R=2.0, two_sided=True) == pytest.approx(2 * math.sqrt(math.log(20) / 100))
    assert subgaussian_radius(8, 0.05, sigma=0.5) == pytest.approx(hoeffding_radius(8, 0.05))
    # Agresti-Coull at s = 3 of m = 10, z = 2: p~ = (3 + 2) / 14
    assert agresti_coull_radius(3, 10, 2.0) == pytest.approx(2 * math.sqrt((5 / 14) * (9 / 14) / 10))
    assert z_normal(0.025) == pytest.approx(1.959963984540054)
    assert z_erfinv(0.05) == pytest.approx(1.3859038243496777)


def test_zhuang17_quantile_table():
    # rr_wrr.md section 1.7: z literal / normal at delta' = 6 delta / (pi^2 (n+1) T^2)
    for n, T, lit, nor in [(20, 20, 3.28, 4.49), (20, 1e5, 5.23, 7.30), (200, 1e7, 6.22, 8.71)]:
        d = 6 * 0.1 / (math.pi**2 * (n + 1) * T**2)
        assert z_erfinv(d / 2) == pytest.approx(lit, abs=0.01)
        assert z_normal(d / 2) == pytest.approx(nor, abs=0.01)


@given(st.integers(1, 10**7), st.floats(1e-300, 0.99))
def test_radii_shrink_with_pulls_and_grow_with_confidence(m, delta):
    assert hoeffding_radius(m + 1, delta) < hoeffding_radius(m, delta)
    assert subgaussian_radius(m + 1, delta) < subgaussian_radius(m, delta)
    assert hoeffding_radius(m, delta / 2) > hoeffding_radius(m, delta)
    assert np.isfinite(hoeffding_radius(m, delta))


@given(st.integers(1, 10**6), st.floats(0, 1), st.floats(0.5, 9.0))
def test_agresti_coull_radius_is_finite_and_shrinks(m, frac, z):
    s = math.floor(frac * m)
    r = agresti_coull_radius(s, m, z)
    assert 0 < r < z and np.isfinite(r)
    assert agresti_coull_radius(2 * s, 2 * m, z) < r


def test_hoeffding_level_inverts_the_radius():
    m, d = np.array([3, 40, 500]), np.array([0.2, 1e-5, 1e-40])
    np.testing.assert_allclose(hoeffding_level(m, hoeffding_radius(m, d)), d, rtol=1e-9)


@given(st.floats(0.01, 0.99), st.integers(1, 400), st.sampled_from([0.2, 0.1, 0.01]))
def test_hoeffding_covers_every_bernoulli_arm_exactly(p, m, delta):
    # Exact coverage over the binomial law of s: never below the nominal 1 - delta.
    s = np.arange(m + 1)
    r = hoeffding_radius(m, delta, two_sided=True)
    coverage = stats.binom.pmf(s, m, p)[np.abs(s / m - p) <= r].sum()
    assert coverage >= 1 - delta - 1e-12


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: hoeffding_radius(10, 1.0), "delta=1.0"),
        (lambda: hoeffding_radius(10, 0.0), "delta=0.0"),
        (lambda: hoeffding_radius(0, 0.1), "m=0.0"),
        (lambda: hoeffding_radius(10, 0.1, R=0), "R=0"),
        (lambda: subgaussian_radius([5, 3, -1], 0.1), "m=-1.0"),
        (lambda: agresti_coull_radius(11, 10, 2.0), "s=11.0"),
        (lambda: agresti_coull_radius(1, 10, float("inf")), "z=array"),
        (lambda: z_erfinv(0.0), "x=0.0"),
        (lambda: z_normal(1.5), "x=1.5"),
    ],
)
def test_bad_inputs_name_the_bad_value(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()
