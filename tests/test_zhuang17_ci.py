"""ZHUANG17: interval families, l(k), rho*, hardness and bounds (spec rr_wrr.md 1.4-1.9, 5)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import special

from bandit_lib.ksigma import is_active_nb, ksigma_threshold
from bandit_lib.zhuang17.intervals import (
    AgrestiCoullCI,
    HoeffdingCI,
    delta_prime,
    evaluate_kernel,
    l_of_k,
    rho_star,
    z_value_nb,
)
from bandit_lib.zhuang17.theory import H1, H2, H_RR, H_WRR, bound_rr, bound_wrr, wrr_rr_ratio

# spec 1.9: (n, k) -> (l(k), rho*) at delta = 0.1
TABLE = {
    (15, 2.5): (10.293, 2.670),
    (20, 2.0): (6.682, 3.780),
    (20, 2.5): (10.082, 3.296),
    (20, 3.0): (14.179, 2.942),
    (47, 2.0): (6.239, 6.974),
    (47, 2.5): (9.522, 6.057),
    (47, 3.0): (13.496, 5.392),
    (50, 2.0): (6.211, 7.285),
    (50, 2.5): (9.486, 6.326),
    (50, 3.0): (13.452, 5.630),
    (100, 2.0): (5.939, 11.818),
    (100, 2.5): (9.127, 10.240),
    (100, 3.0): (12.999, 9.102),
    (200, 2.0): (5.725, 19.053),
    (200, 2.5): (8.841, 16.485),
    (200, 3.0): (12.630, 14.637),
}


@pytest.mark.parametrize("n,k", sorted(TABLE))
def test_l_of_k_and_rho_star_reproduce_the_spec_table(n, k):
    lk, rho = TABLE[(n, k)]
    assert l_of_k(n, k, 0.1) == pytest.approx(lk, abs=6e-4)
    assert rho_star(n, k, 0.1) == pytest.approx(rho, abs=6e-4)


def test_ade_reference_values_of_rho_star():
    # ade.md 3.3
    for (n, k), rho in {(400, 2.5): 26.44, (1000, 2.5): 49.20, (900, 2.0): 53.06, (722, 3.0): 35.00}.items():
        assert rho_star(n, k, 0.1) == pytest.approx(rho, abs=6e-3)


def test_delta_prime_is_equation_1():
    assert delta_prime(20, 20, 0.1) == pytest.approx(6 * 0.1 / (math.pi**2 * 21 * 400), rel=1e-15)


@pytest.mark.parametrize(
    "n,T,z_literal,z_normal",
    [
        (20, 20, 3.28, 4.49),
        (20, 10**5, 5.23, 7.30),
        (20, 10**7, 6.03, 8.45),
        (200, 10**5, 5.44, 7.60),
        (200, 10**7, 6.22, 8.71),
    ],
)
def test_z_table_and_no_overflow_at_the_cap(n, T, z_literal, z_normal):
    dp = delta_prime(T, n, 0.1)
    assert z_value_nb(dp, 0) == pytest.approx(z_literal, abs=0.006)
    assert z_value_nb(dp, 1) == pytest.approx(z_normal, abs=0.006)
    assert z_value_nb(dp, 1) == pytest.approx(-special.ndtri(dp / 2), rel=1e-14)
    assert special.erfinv(1 - dp / 2) == np.inf or T < 10**7  # the literal formula overflows by 1e7


def test_radii_stay_finite_at_1e7_pulls_for_n_200():
    ci = AgrestiCoullCI()
    rng = np.random.default_rng(0)
    m = rng.integers(1000, 100000, size=200)
    s = rng.binomial(m, 0.3).astype(float)
    state = ci.evaluate(s, m, 10**7, 2.5, 0.1)
    assert np.isfinite(state.beta).all() and math.isfinite(state.beta_th)


def test_hoeffding_threshold_radius_is_sqrt_l_times_arm_radius_with_equal_counts():
    m = np.full(12, 37)
    s = np.arange(12, dtype=float)
    st_ = HoeffdingCI().evaluate(s, m, int(m.sum()), 2.5, 0.1)
    assert np.allclose(st_.beta, st_.beta[0])
    assert st_.beta_th == pytest.approx(math.sqrt(l_of_k(12, 2.5, 0.1)) * st_.beta[0], rel=1e-12)
    assert st_.beta[0] == pytest.approx(math.sqrt(-math.log(delta_prime(int(m.sum()), 12, 0.1)) / (2 * 37)), rel=1e-13)


@given(st.lists(st.floats(0.0, 1.0), min_size=3, max_size=30), st.floats(0.0, 4.0))
def test_delta_method_weights_satisfy_the_unit_identity(y, k):
    # sum_i (1 + k z_i)^2 = n (1 + k^2): equal arm radii b give beta_th = b sqrt((1 + k^2)/n)
    y = np.array(y)
    if y.std() < 1e-6:
        return
    z = (y - y.mean()) / y.std()
    assert np.sum((1 + k * z) ** 2) == pytest.approx(len(y) * (1 + k * k), rel=1e-9)


@given(
    st.integers(3, 25),
    st.integers(0, 2**31),
    st.sampled_from(["delta", "as_printed"]),
    st.sampled_from(["erfinv", "normal"]),
)
def test_agresti_coull_kernel_matches_a_numpy_transcription(n, seed, th, zm):
    rng = np.random.default_rng(seed)
    m = rng.integers(1, 500, size=n)
    s = rng.binomial(m, rng.uniform(0, 1, size=n)).astype(float)
    T = int(m.sum())
    ci = AgrestiCoullCI(z_mode=zm, threshold_ci=th)
    state = ci.evaluate(s, m, T, 2.0, 0.1)
    dp = 6 * 0.1 / (math.pi**2 * (n + 1) * T**2)
    z = special.erfcinv(dp / 2) if zm == "erfinv" else -special.ndtri(dp / 2)
    p = (s + z * z / 2) / (m + z * z)
    beta = z * np.sqrt(p * (1 - p) / m)
    y = s / m
    sig = y.std()
    if sig == 0:
        c = np.full(n, 1 / n)
    elif th == "delta":
        c = (1 + 2.0 * (y - y.mean()) / sig) / n
    else:
        c = (1 + 2.0 * y / math.sqrt(sig)) / n
    assert np.allclose(state.beta, beta, rtol=1e-12)
    assert state.beta_th == pytest.approx(math.sqrt(np.sum(c * c * beta * beta)), rel=1e-10)
    assert state.theta == pytest.approx(ksigma_threshold(y, 2.0), rel=1e-12, abs=1e-15)
    np.testing.assert_array_equal(state.output, np.flatnonzero(y > state.theta))


def test_active_rule_is_strict_with_ties_to_the_second_branch():
    # above theta: active iff y - b < theta + bt (strict)
    assert not is_active_nb(1.0, 0.25, 0.5, 0.25)
    assert is_active_nb(1.0, 0.25 + 1e-12, 0.5, 0.25)
    # below theta: active iff y + b > theta - bt (strict)
    assert not is_active_nb(0.0, 0.25, 0.5, 0.25)
    # a tie y == theta takes the second branch, where any positive radius makes it active
    assert is_active_nb(0.5, 1e-9, 0.5, 0.0)
    assert not is_active_nb(0.5, 0.0, 0.5, 0.0)


def test_hardness_inequalities_and_bounds():
    y = np.array([0.1, 0.15, 0.2, 0.25, 0.3, 0.32, 0.35, 0.4, 0.45, 0.9])
    h1, h2 = H1(y, 2.0), H2(y, 2.0)
    assert h1 / len(y) <= h2 <= h1
    assert H_WRR(y, 2.0, 0.1, 1.0) == pytest.approx(H_RR(y, 2.0, 0.1), rel=1e-12)
    rho = rho_star(len(y), 2.0, 0.1)
    assert bound_wrr(y, 2.0, 0.1, 1.0) == pytest.approx(bound_rr(y, 2.0, 0.1) - 4 * len(y) + 6 * len(y), rel=1e-12)
    assert bound_rr(y, 2.0, 0.1) > 8 * H_RR(y, 2.0, 0.1)
    # Eq. (7) with H2/H1 = 1 gives no saving for any rho
    y_eq = np.array([0.1] * 9 + [0.9])
    lk = l_of_k(10, 2.0, 0.1)
    ratio = ((1 + math.sqrt(lk * rho)) / (1 + math.sqrt(lk))) ** 2 * (
        1 / rho + (rho - 1) / rho * H2(y, 2.0) / H1(y, 2.0)
    )
    assert wrr_rr_ratio(y, 2.0, 0.1, rho) == pytest.approx(ratio, rel=1e-12)
    assert H1(y_eq, 2.0) > 0


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: HoeffdingCI(R=0.0), "R="),
        (lambda: HoeffdingCI(l_inner="t"), "l_inner="),
        (lambda: AgrestiCoullCI(z_mode="probit"), "z_mode="),
        (lambda: AgrestiCoullCI(threshold_ci="x"), "threshold_ci="),
        (lambda: l_of_k(1, 2.0, 0.1), "n="),
        (lambda: l_of_k(10, -1.0, 0.1), "k="),
        (lambda: rho_star(10, 2.0, 1.0), "delta="),
        (lambda: delta_prime(0, 10, 0.1), "T="),
        (lambda: HoeffdingCI().evaluate([1.0, 2.0], [1, 0], 3, 2.0, 0.1), r"m\[1\]=0"),
        (lambda: HoeffdingCI().evaluate([1.0, np.nan], [1, 1], 3, 2.0, 0.1), r"s\[1\]"),
        (lambda: AgrestiCoullCI().evaluate([1.0, 3.0], [1, 2], 3, 2.0, 0.1), r"s\[1\]=3.0"),
        (lambda: H1([0.0, 0.0, 1.0, 1.0], 1.0), r"y\[2\]=1.0\) sits exactly on the threshold"),
        (lambda: H_WRR([0.1, 0.2, 0.9], 1.0, 0.1, 0.5), "rho="),
        (lambda: bound_rr([0.1, 0.2, 0.9], 1.0, 0.1, R=-1), "R="),
    ],
)
def test_bad_inputs_raise_clear_errors(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_evaluate_kernel_is_what_the_state_reports():
    rng = np.random.default_rng(3)
    m = rng.integers(1, 50, size=7)
    s = rng.binomial(m, 0.4).astype(float)
    ci = HoeffdingCI(l_inner="delta_prime")
    yhat, beta, active = np.empty(7), np.empty(7), np.empty(7, dtype=bool)
    out = evaluate_kernel(s, m, int(m.sum()), 1.5, 0.2, *ci.codes(7, 1.5, 0.2), yhat, beta, active)
    state = ci.evaluate(s, m, int(m.sum()), 1.5, 0.2)
    assert out[2] == state.theta and out[3] == state.beta_th and out[4] == state.active.sum()
    # the ADE20 restatement puts delta' inside l(k), which lowers l below Zhuang's
    dp = delta_prime(int(m.sum()), 7, 0.2)
    l_ade = ((1 + 1.5 * math.sqrt(6)) / math.sqrt(7) + 1.5 / math.sqrt(2 * math.log(math.pi**2 * 343 / (6 * dp)))) ** 2
    assert state.beta_th == pytest.approx(math.sqrt(l_ade * -math.log(dp) / 2 * np.mean(1 / m)), rel=1e-12)
