"""RR-CS and WRR-CS (bandit_lib.arena.anytime): formulas, the box property, engines pull for pull,
delta-correctness, argument errors."""

import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bandit_lib.arena.anytime import (
    TRIANGLE,
    radius,
    radius_nb,
    rr_cs,
    rr_cs_kernel,
    threshold_interval,
    wrr_cs,
)
from bandit_lib.arena.glr import c_gauss
from bandit_lib.ksigma import ksigma_outliers, ksigma_threshold
from bandit_lib.tapes import bernoulli_tape, gaussian_tape, replay_tape
from bandit_lib.zhuang17.intervals import rho_star

MU = np.array([0.1, 0.2, 0.15, 0.9, 0.3, 0.25])
K = 1.5


# ------------------------------------------------------------------------------------------
# formulas


def test_radius_matches_the_direct_formula_and_kk21_per_arm_bound():
    for m, delta, n, sigma in [(1, 0.1, 2, 0.5), (7, 0.05, 10, 0.5), (1000, 0.1, 10_000, 1.0), (10**7, 0.01, 3, 2.0)]:
        C = c_gauss(math.log(n / delta))
        b = 2.0 * math.log(4.0 + math.log(m)) + C
        r = radius(m, delta, n, sigma)
        assert r == pytest.approx(sigma * math.sqrt(2.0 * b / m), rel=1e-14)
        # the radius solves N (mu_hat - mu)^2 / (2 sigma^2) = 2 ln(4 + ln N) + C^G(ln(n / delta))
        assert m * r * r / (2.0 * sigma * sigma) == pytest.approx(b, rel=1e-12)
    assert radius(10, 0.1, 5) > radius(20, 0.1, 5) and radius(10, 0.01, 5) > radius(10, 0.1, 5)
    assert radius(10, 0.1, 50) > radius(10, 0.1, 5)  # the union bound over arms


def _ball_bruteforce(r, k):
    """max over m in [0, mean r] of m + k sqrt(mean r^2 - m^2), on a fine grid."""
    Q = float(np.mean(r * r))
    m = np.linspace(0.0, float(np.mean(r)), 200_001)
    return float(np.max(m + k * np.sqrt(np.maximum(Q - m * m, 0.0))))


def test_threshold_interval_matches_a_direct_computation():
    rng = np.random.default_rng(0)
    for _ in range(50):
        n = int(rng.integers(2, 30))
        mu_hat = rng.uniform(-1, 2, n)
        r = rng.uniform(0, 0.5, n) ** rng.uniform(0.5, 3)
        k = float(rng.uniform(0.1, 3))
        theta, beta = threshold_interval(mu_hat, r, k)
        assert theta == pytest.approx(ksigma_threshold(mu_hat, k), rel=1e-12, abs=1e-12)
        assert beta == pytest.approx(np.mean(r) + k * math.sqrt(np.mean(r * r)), rel=1e-12)
        theta_b, beta_b = threshold_interval(mu_hat, r, k, "ball")
        assert theta_b == theta and beta_b <= beta * (1 + 1e-12)
        assert beta_b == pytest.approx(_ball_bruteforce(r, k), rel=1e-8)
    # equal radii: the ball bound is sqrt(1 + k^2) r, the triangle one (1 + k) r
    assert threshold_interval(MU, np.full(6, 0.1), 2.0, "ball")[1] == pytest.approx(math.sqrt(5) * 0.1)
    assert threshold_interval(MU, np.full(6, 0.1), 2.0)[1] == pytest.approx(0.3)


def _theta_of(lam, k):
    return float(np.mean(lam) + k * np.std(lam))


@given(
    st.integers(2, 12).flatmap(
        lambda n: st.tuples(
            st.lists(st.floats(-2, 2), min_size=n, max_size=n),
            st.lists(st.floats(0, 1), min_size=n, max_size=n),
            st.lists(st.floats(-1, 1), min_size=n, max_size=n),
        )
    ),
    st.floats(0.05, 3.0),
)
def test_every_point_of_the_boxes_has_its_threshold_in_the_interval(data, k):
    mu_hat, r, u = (np.array(v) for v in data)
    lam = mu_hat + u * r
    corner = mu_hat + np.where(u >= 0, r, -r)  # the vertices, where the extremes of a convex theta lie
    for interval in ("triangle", "ball"):
        theta, beta = threshold_interval(mu_hat, r, k, interval)
        for point in (lam, corner):
            assert abs(_theta_of(point, k) - theta) <= beta + 1e-9


def test_the_ball_bound_is_close_to_the_supremum_over_the_box_with_equal_radii():
    n, k, r0 = 11, 2.0, 0.1
    mu_hat = np.linspace(0, 1, n)
    r = np.full(n, r0)
    _, beta = threshold_interval(mu_hat, r, k, "ball")
    best = 0.0
    rng = np.random.default_rng(1)
    for _ in range(4000):
        signs = rng.choice([-1.0, 1.0], n)
        best = max(best, abs(_theta_of(mu_hat + signs * r, k) - ksigma_threshold(mu_hat, k)))
    assert best <= beta + 1e-12 and best > 0.85 * beta  # the triangle bound (0.3) is well above both


# ------------------------------------------------------------------------------------------
# engines


def _random_case(rng):
    n = int(rng.integers(3, 13))
    kind = rng.choice(["easy", "easy", "planted", "ties", "near", "flat"])
    if kind == "easy":  # stops within a few thousand pulls
        mu = rng.uniform(0.0, 0.1, n)
        mu[int(rng.integers(n))] = 1.0
    elif kind == "ties":
        mu = rng.choice([0.2, 0.3, 0.9], n)
    elif kind == "flat":
        mu = np.full(n, 0.4)
    else:
        mu = rng.uniform(0.05, 0.5, n)
        mu[int(rng.integers(n))] = rng.uniform(0.8, 0.99)
        if kind == "near":  # one arm just below its leave-one-out crossing
            mu[0] = min(0.99, ksigma_threshold(mu, 1.0) - 0.01)
    k = float(rng.uniform(0.3, min(2.0, math.sqrt(n - 1) - 0.05)))
    if rng.random() < 0.5:
        tape = bernoulli_tape(mu, int(rng.integers(10**6)))
        sigma = 0.5
    else:
        scale = float(rng.choice([0.1, 0.3]))
        tape = gaussian_tape(mu, scale, int(rng.integers(10**6)))
        sigma = scale * float(rng.choice([1.0, 1.5]))
    cap = int(rng.choice([n, n + 1, 3 * n + 2, 1500, 20_000, 20_000]))
    return tape, k, float(rng.choice([0.05, 0.3])), cap, sigma


# slow (make test-slow, run in CI): make test keeps within 7 minutes
@pytest.mark.slow
def test_fast_engines_take_the_references_decisions_pull_for_pull():
    rng = np.random.default_rng(20)
    stopped = capped = 0
    for case in range(100):
        tape, k, delta, cap, sigma = _random_case(rng)
        interval = "ball" if case % 3 == 0 else "triangle"
        rho = None if case % 2 else float(rng.uniform(1.0, 4.0))
        runs = [
            (rr_cs, {}),
            (wrr_cs, {"rho": rho}),
        ]
        for detector, extra in runs:
            common = dict(k=k, delta=delta, cap=cap, sigma=sigma, interval=interval, **extra)
            ref_tape, fast_tape = tape.rewind(), tape.rewind()
            ref = detector(ref_tape, engine="reference", **common)
            fast = detector(fast_tape, engine="fast", **common)
            assert fast.same_decisions(ref), (case, detector.__name__, ref, fast)
            assert np.array_equal(ref_tape.counts, fast_tape.counts) and ref.pulls == ref.counts.sum()
            assert ref.info["theta"] == fast.info["theta"] and ref.info["checks"] == fast.info["checks"]
            assert ref.pulls <= cap and (ref.counts >= 1).all()
            stopped += not ref.capped
            capped += ref.capped
    assert stopped >= 30 and capped >= 30  # both kinds of ending are exercised


def test_rr_cs_is_round_based_and_wrr_cs_with_rho_one_makes_the_same_decisions():
    for seed in range(5):
        a = rr_cs(bernoulli_tape(MU, seed), k=K, delta=0.1)
        assert a.pulls % 6 == 0 and (a.counts == a.pulls // 6).all() and not a.capped
        assert np.array_equal(a.output, ksigma_outliers(MU, K)) and a.info["checks"] == a.pulls // 6
        # rho = 1: one pull per visit, so at every full check all counts are equal, as in RR-CS
        b = wrr_cs(bernoulli_tape(MU, seed), k=K, delta=0.1, rho=1.0)
        assert b.same_decisions(a)
        # the default rho* > 1 gives the outlier extra pulls
        c = wrr_cs(bernoulli_tape(MU, seed), k=K, delta=0.1)
        assert c.counts[3] > c.counts.min() and np.array_equal(c.output, a.output)
    capped = rr_cs(bernoulli_tape(MU, 0), k=K, delta=0.1, cap=23)
    assert capped.capped and capped.pulls == 18  # as RR-GLR: no round that would pass the cap
    capped = wrr_cs(bernoulli_tape(MU, 0), k=K, delta=0.1, cap=23)
    assert capped.capped and capped.pulls == 23


def test_the_ball_interval_stops_no_later_than_the_triangle():
    for seed in range(5):
        a = rr_cs(bernoulli_tape(MU, seed), k=K, delta=0.1)
        b = rr_cs(bernoulli_tape(MU, seed), k=K, delta=0.1, interval="ball")
        assert b.pulls < a.pulls and np.array_equal(a.output, b.output)


# ------------------------------------------------------------------------------------------
# delta-correctness

MU_HARD = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 1.0])  # theta(mu) = 0.853 at k = 1.5: the outlier is 0.147 above it
DELTA = 0.3


def _errors(run, tape_of, runs):
    truth = ksigma_outliers(MU_HARD, K)
    errors = 0
    for seed in range(runs):
        out = run(tape_of(seed))
        assert not out.capped
        errors += not np.array_equal(out.output, truth)
    return errors


# slow (make test-slow, run in CI): make test keeps within 7 minutes
@pytest.mark.slow
@pytest.mark.parametrize("detector", [rr_cs, wrr_cs])
def test_delta_correct_on_1500_runs(detector):
    # delta = 0.3 per run, but the bound is conservative: no error is expected on these fixed seeds
    run = lambda t: detector(t, k=K, delta=DELTA)  # noqa: E731
    assert _errors(run, lambda s: bernoulli_tape(MU_HARD, s), 1000) == 0
    assert _errors(run, lambda s: gaussian_tape(MU_HARD, 0.5, 10**6 + s), 500) == 0


def test_the_error_count_would_see_radii_that_are_too_small():
    # the same harness with sigma = 0.02 in place of 1/2 (radii 25 times too small): errors appear
    n = len(MU_HARD)
    C = c_gauss(math.log(n / DELTA))

    def run(tape):
        s, m = np.zeros(n), np.zeros(n, dtype=np.int64)
        _, capped, _ = rr_cs_kernel(*tape.arrays, K, 10**6, 0.02, C, TRIANGLE, s, m)
        yhat = s / m
        return SimpleNamespace(capped=capped, output=ksigma_outliers(yhat, K))

    assert _errors(run, lambda s: bernoulli_tape(MU_HARD, s), 300) > 10


# ------------------------------------------------------------------------------------------
# arguments


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rr_cs(bernoulli_tape(MU, 0), k=K, delta=1.0), "delta=1.0"),
        (lambda: rr_cs(bernoulli_tape(MU, 0), k=0.0, delta=0.1), "k=0.0"),
        (lambda: rr_cs(bernoulli_tape(MU, 0), k=3.0, delta=0.1), "k=3.0"),
        (lambda: rr_cs(bernoulli_tape(MU[:1], 0), k=K, delta=0.1), "n=1"),
        (lambda: rr_cs(bernoulli_tape(MU, 0), k=K, delta=0.1, cap=5), "cap=5"),
        (lambda: rr_cs(bernoulli_tape(MU, 0), k=K, delta=0.1, sigma=0.4), "sigma=0.4"),
        (lambda: rr_cs(bernoulli_tape(MU, 0), k=K, delta=0.1, sigma=-1.0), "sigma=-1.0"),
        (lambda: rr_cs(gaussian_tape(MU, 1.0, 0), k=K, delta=0.1), "sigma=0.5"),
        (lambda: rr_cs(replay_tape([[0.0, 3.0]] * 3, 0), k=0.5, delta=0.1), "sigma=0.5"),
        (lambda: rr_cs(bernoulli_tape(MU, 0), k=K, delta=0.1, interval="box"), "interval='box'"),
        (lambda: rr_cs(bernoulli_tape(MU, 0), k=K, delta=0.1, engine="gpu"), "engine='gpu'"),
        (lambda: rr_cs(bernoulli_tape(np.full(4, 0.3), 0), k=1.0, delta=0.1), "cap="),
        (lambda: wrr_cs(bernoulli_tape(MU, 0), k=K, delta=0.1, rho=0.5), "rho=0.5"),
        (lambda: wrr_cs(bernoulli_tape(MU, 0), k=K, delta=0.1, rho="2"), "rho='2'"),
        (lambda: radius(0, 0.1, 5), "m=0"),
        (lambda: threshold_interval(MU, np.ones(5), K), "got 5"),
        (lambda: threshold_interval(MU, -np.ones(6), K), "r"),
    ],
)
def test_argument_errors_name_the_bad_value(call, message):
    with pytest.raises((ValueError, TypeError)) as err:
        call()
    assert message in str(err.value)


def test_a_read_tape_is_refused():
    tape = bernoulli_tape(MU, 0)
    tape.pull(0)
    with pytest.raises(ValueError, match="already read"):
        wrr_cs(tape, k=K, delta=0.1)


def test_radius_nb_is_the_kernel_both_engines_use():
    assert radius_nb(5, 0.5, 3.0) == radius_nb(np.int64(5), 0.5, 3.0)
    assert rho_star(6, K, 0.1) == wrr_cs(bernoulli_tape(MU, 0), k=K, delta=0.1).info["rho"]
