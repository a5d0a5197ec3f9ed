"""RR-GLR and Track-and-Stop (bandit_lib.arena): determinism, structure, correctness, delta-correctness."""

import numpy as np
import pytest

from bandit_lib.arena.glr import kk21_gaussian_threshold, rr_glr
from bandit_lib.arena.lower_bound import lower_bound
from bandit_lib.arena.tracking import track_and_stop
from bandit_lib.ksigma import ksigma_outliers
from bandit_lib.metrics import error_rate_within
from bandit_lib.tapes import bernoulli_tape, gaussian_tape, replay_tape

MU = np.array([0.0, 0.1, 0.2, 0.3, 3.0])
K = 1.5
TRUTH = ksigma_outliers(MU, K)


def test_rr_glr_is_deterministic_and_round_based():
    for seed in range(3):
        a = rr_glr(gaussian_tape(MU, 1.0, seed), k=K, delta=0.1)
        b = rr_glr(gaussian_tape(MU, 1.0, seed), k=K, delta=0.1)
        assert a.same_decisions(b)
        assert a.pulls % len(MU) == 0 and (a.counts == a.pulls // len(MU)).all()
        assert np.array_equal(a.output, TRUTH) and not a.capped
        # the screen only skips rounds where Z cannot exceed beta: same decisions as computing Z every round
        assert a.same_decisions(rr_glr(gaussian_tape(MU, 1.0, seed), k=K, delta=0.1, screen=False))


@pytest.mark.slow
def test_rr_glr_cap_and_bernoulli():
    capped = rr_glr(gaussian_tape(MU, 1.0, 0), k=K, delta=0.1, cap=23)
    assert capped.capped and capped.pulls == 20
    # Bernoulli kl: the reference engine (SLSQP each round); this instance stops after 540 pulls
    # ([0.1, 0.15, 0.2, 0.25, 0.95] took 850 pulls and four times the CPU)
    mb = np.array([0.2, 0.25, 0.3, 0.35, 0.99])
    out = rr_glr(bernoulli_tape(mb, 0), k=K, delta=0.1)
    assert np.array_equal(out.output, ksigma_outliers(mb, K)) and out.pulls % 5 == 0
    assert out.info["engine"] == "reference" and not out.capped


@pytest.mark.slow
def test_track_and_stop_is_deterministic_and_correct():
    a = track_and_stop(gaussian_tape(MU, 1.0, 1), k=K, delta=0.1)
    b = track_and_stop(gaussian_tape(MU, 1.0, 1), k=K, delta=0.1)
    assert a.same_decisions(b) and np.array_equal(a.output, TRUTH) and not a.capped
    assert a.pulls == a.counts.sum() and (a.counts >= 1).all()
    c = track_and_stop(gaussian_tape(MU, 1.0, 1), k=K, delta=0.1, tracking="C")
    assert np.array_equal(c.output, TRUTH)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rr_glr(gaussian_tape(MU, 1.0, 0), k=K, delta=1.0), "delta=1.0"),
        (lambda: rr_glr(gaussian_tape(MU, 1.0, 0), k=0.0, delta=0.1), "k=0.0"),
        (lambda: rr_glr(gaussian_tape(MU[:1], 1.0, 0), k=K, delta=0.1), "n=1"),
        (lambda: rr_glr(gaussian_tape(MU, 1.0, 0), k=K, delta=0.1, cap=3), "cap=3"),
        (lambda: rr_glr(replay_tape([[0.0, 1.0]] * 3, 0), k=0.5, delta=0.1), "replay"),
        (lambda: rr_glr(gaussian_tape(MU, 1.0, 0), k=K, delta=0.1, threshold=3.0), "threshold=3.0"),
        (lambda: track_and_stop(gaussian_tape(MU, 1.0, 0), k=K, delta=0.1, ratio=1.0), "ratio=1.0"),
        (lambda: track_and_stop(gaussian_tape(MU, 1.0, 0), k=K, delta=0.1, tracking="E"), "tracking='E'"),
    ],
)
def test_argument_errors_name_the_bad_value(call, message):
    with pytest.raises((ValueError, TypeError)) as err:
        call()
    assert message in str(err.value)


def test_threshold_grows_with_t_and_log_inverse_delta():
    assert kk21_gaussian_threshold(500, 5, 0.1) > kk21_gaussian_threshold(50, 5, 0.1)
    assert kk21_gaussian_threshold(50, 5, 0.01) > kk21_gaussian_threshold(50, 5, 0.1) > np.log(1 / 0.1)


@pytest.mark.slow
def test_rr_glr_delta_correct_and_above_the_lower_bound():
    """1000 runs, n = 5, delta = 0.1: the error count does not reject p <= delta, and the mean
    number of pulls is above T* kl(delta, 1 - delta) (which holds in expectation for any
    delta-correct algorithm)."""
    delta, runs = 0.1, 1000
    outs = [rr_glr(gaussian_tape(MU, 1.0, seed), k=K, delta=delta) for seed in range(runs)]
    errors = sum(not np.array_equal(o.output, TRUTH) for o in outs)
    assert not any(o.capped for o in outs)
    assert error_rate_within(errors, runs, delta)
    assert np.mean([o.pulls for o in outs]) >= lower_bound(MU, K, delta)


@pytest.mark.slow
def test_track_and_stop_above_the_lower_bound_on_average():
    delta = 0.1
    pulls = [track_and_stop(gaussian_tape(MU, 1.0, s), k=K, delta=delta).pulls for s in range(4)]
    assert np.mean(pulls) >= lower_bound(MU, K, delta)


def test_sub_gaussian_option_uses_the_gaussian_statistic_on_bernoulli_arms():
    from bandit_lib.arena.glr import check_detector

    mb = np.array([0.1, 0.15, 0.2, 0.25, 0.95])
    *_, divergence, sigma, threshold = check_detector(bernoulli_tape(mb, 0), K, 0.1, 10**6, None, 0.5)
    assert (divergence, sigma, threshold) == ("gaussian", 0.5, kk21_gaussian_threshold)
    a = rr_glr(bernoulli_tape(mb, 0), k=K, delta=0.1, sub_gaussian=0.5)
    assert a.same_decisions(rr_glr(bernoulli_tape(mb, 0), k=K, delta=0.1, sub_gaussian=0.5))
    assert np.array_equal(a.output, ksigma_outliers(mb, K)) and a.pulls % 5 == 0
    with pytest.raises(ValueError, match="sub_gaussian"):
        rr_glr(bernoulli_tape(mb, 0), k=K, delta=0.1, sub_gaussian=0.0)


def test_track_and_stop_checks_every_m_pulls_and_takes_gaussian_weights():
    mb = np.array([0.1, 0.15, 0.2, 0.25, 0.95])
    out = track_and_stop(bernoulli_tape(mb, 1), k=K, delta=0.1, sub_gaussian=0.5, weights="gaussian", check_every=5)
    assert np.array_equal(out.output, ksigma_outliers(mb, K)) and out.pulls % 5 == 0 and not out.capped
    with pytest.raises(ValueError, match="weights"):
        track_and_stop(bernoulli_tape(mb, 1), k=K, delta=0.1, weights="bernoulli")
    with pytest.raises(ValueError, match="check_every"):
        track_and_stop(bernoulli_tape(mb, 1), k=K, delta=0.1, check_every=0)


def _rr_glr_case(rng):
    n = int(rng.integers(3, 13))
    k = float(rng.uniform(0.5, min(2.5, np.sqrt(n - 1) - 0.1)))
    y = rng.uniform(0, 1, n)
    if rng.random() < 0.5:
        y[rng.integers(n)] = 0.97
    if rng.random() < 0.3:
        y = np.round(y * 4) / 4  # ties
    kw = {"k": k, "delta": float(rng.choice([0.05, 0.3])), "cap": int(rng.choice([n * 3, 500, 5000, 50000]))}
    if rng.random() < 0.5:
        return bernoulli_tape(y, int(rng.integers(2**31))), {**kw, "sub_gaussian": 0.5}
    return gaussian_tape(y, 0.3, int(rng.integers(2**31))), kw


@pytest.mark.slow
def test_rr_glr_fast_engine_takes_the_reference_decisions():
    rng = np.random.default_rng(20)
    capped = []
    for case in range(40):
        tape, kw = _rr_glr_case(rng)
        if case % 8 == 0:  # a custom threshold: evaluated in Python once per round
            kw["threshold"] = lambda t, n, delta: 2.0 * n + np.log(t / delta)
        ref = rr_glr(tape.rewind(), engine="reference", **kw)
        fast = rr_glr(tape.rewind(), engine="fast", **kw)
        assert ref.same_decisions(fast), (case, ref, fast)
        assert fast.info["engine"] == "fast" and fast.info["Z"] == pytest.approx(ref.info["Z"], rel=1e-8) or ref.capped
        capped.append(ref.capped)
    assert 0 < sum(capped) < len(capped), capped


def test_rr_glr_fast_engine_falls_back_to_the_reference_for_bernoulli_kl():
    out = rr_glr(bernoulli_tape([0.1, 0.15, 0.2, 0.25, 0.95], 0), k=K, delta=0.1, cap=50)
    assert out.info["engine"] == "reference"


def _tas_case(rng):
    n = int(rng.integers(3, 11))
    k = float(rng.uniform(0.5, min(2.5, np.sqrt(n - 1) - 0.1)))
    y = rng.uniform(0, 1, n)
    if rng.random() < 0.6:
        y[rng.integers(n)] = 0.97
    if rng.random() < 0.3:
        y = np.round(y * 4) / 4  # ties
    check_every = int(rng.choice([1, n]))
    kw = {
        "k": k,
        "delta": float(rng.choice([0.05, 0.3])),
        "cap": int(rng.choice([n + 1, 200, 1500 if check_every > 1 else 400])),
        "tracking": str(rng.choice(["D", "C"])),
        "check_every": check_every,
        "weights": "gaussian",
    }
    if rng.random() < 0.5:
        return bernoulli_tape(y, int(rng.integers(2**31))), {**kw, "sub_gaussian": 0.5}
    return gaussian_tape(y, 0.3, int(rng.integers(2**31))), kw


def test_track_and_stop_fast_engine_takes_the_reference_decisions():
    """A few random tapes (D- and C-tracking, checks after every pull or every n, a custom threshold,
    capped and stopped runs); tests/test_arena_samplers.py runs both stops on more."""
    rng = np.random.default_rng(2016)
    capped, tracks, checks = [], set(), set()
    for case in range(12):
        tape, kw = _tas_case(rng)
        if case % 6 == 0:  # a custom threshold: evaluated in Python at every check
            kw["threshold"] = lambda t, n, delta: 2.0 * n + np.log(t / delta)
        ref = track_and_stop(tape.rewind(), engine="reference", **kw)
        fast = track_and_stop(tape.rewind(), engine="fast", **kw)
        assert ref.same_decisions(fast), (case, kw, ref, fast)
        assert fast.info["engine"] == "fast" and fast.info["w_updates"] == ref.info["w_updates"]
        capped.append(ref.capped)
        tracks.add(kw["tracking"])
        checks.add(kw["check_every"] == 1)
    assert 0 < sum(capped) < len(capped) and tracks == {"D", "C"} and checks == {True, False}, capped


def test_track_and_stop_fast_engine_falls_back_to_the_reference():
    mb = [0.1, 0.15, 0.2, 0.25, 0.95]
    # exact weights (optimal_weights; Gaussian here: under Bernoulli kl, 1-pull means cost minutes of SLSQP)
    assert track_and_stop(gaussian_tape(mb, 0.5, 0), k=K, delta=0.1, cap=30).info["engine"] == "reference"
    out = track_and_stop(bernoulli_tape(mb, 0), k=K, delta=0.1, cap=30, weights="gaussian")  # kl stop
    assert out.info["engine"] == "reference"
    with pytest.raises(ValueError, match="engine='slow'"):
        track_and_stop(bernoulli_tape(mb, 0), k=K, delta=0.1, weights="gaussian", engine="slow")
