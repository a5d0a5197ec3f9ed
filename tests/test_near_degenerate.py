"""Near-degenerate instances and bad stops (issue 27): a detector called without a cap estimates the
run's cost at the start and refuses an instance on which it exceeds the default cap (an arm 1e-13
off the threshold ran to the 10^9 cap before: minutes for RR, hours for Top-Two); NaN thresholds,
``should_stop(beta=nan)`` and Gaussian tapes with sigma = 0 are refused."""

from __future__ import annotations

import math
import time
import warnings

import numpy as np
import pytest

from bandit_lib.ade20.ade import ade, ade_reference
from bandit_lib.arena.anytime import rr_cs, wrr_cs
from bandit_lib.arena.frank_wolfe import frank_wolfe
from bandit_lib.arena.glr import rr_glr, should_stop
from bandit_lib.arena.lower_bound import kl_delta, single_arm_bound
from bandit_lib.arena.toptwo import top_two
from bandit_lib.arena.tracking import track_and_stop
from bandit_lib.gold20.gold import first_split_pulls, gold, gold_reference
from bandit_lib.ksigma import LONG_RUN_PULLS, LongRunWarning, cap_or_refuse, pulls_lower_estimate
from bandit_lib.tapes import bernoulli_tape, gaussian_tape
from bandit_lib.zhuang17.ib import ib, ib_reference
from bandit_lib.zhuang17.intervals import HoeffdingCI
from bandit_lib.zhuang17.nrr import nrr, nrr_reference
from bandit_lib.zhuang17.rr import rr, rr_reference
from bandit_lib.zhuang17.wrr import wrr, wrr_reference

K = 1.0
#: k = 1: mean 1/2, std 1/4, theta = 3/4 exactly; arm 2 is moved 1e-13 off it (to rounding: on it)
NEAR = [0.25, 0.25, 0.75 + 1e-13, 0.75]
#: arm 2 about 3e-5 off the threshold (estimate 3.7e8 pulls at delta = 0.1: between the warning and the cap)
FAR = [0.25, 0.25, 0.75006, 0.75]
D = 0.1
DETECTORS = {
    "rr": lambda t, **c: rr(t, k=K, delta=D, ci=HoeffdingCI(), **c),
    "rr (reference)": lambda t, **c: rr_reference(t, k=K, delta=D, ci=HoeffdingCI(), **c),
    "wrr": lambda t, **c: wrr(t, k=K, delta=D, ci=HoeffdingCI(), **c),
    "wrr (reference)": lambda t, **c: wrr_reference(t, k=K, delta=D, ci=HoeffdingCI(), rho=1.0, **c),
    "ib": lambda t, **c: ib(t, k=K, delta=D, **c),
    "ib (reference)": lambda t, **c: ib_reference(t, k=K, delta=D, **c),
    "ade": lambda t, **c: ade(t, k=K, delta=D, **c),
    "ade (reference)": lambda t, **c: ade_reference(t, k=K, delta=D, **c),
    "rr_glr": lambda t, **c: rr_glr(t, k=K, delta=D, sub_gaussian=0.5, **c),
    "track_and_stop": lambda t, **c: track_and_stop(t, k=K, delta=D, sub_gaussian=0.5, **c),
    "top_two": lambda t, **c: top_two(t, k=K, delta=D, **c),
    "frank_wolfe": lambda t, **c: frank_wolfe(t, k=K, delta=D, **c),
    "rr_cs": lambda t, **c: rr_cs(t, k=K, delta=D, **c),
    "wrr_cs": lambda t, **c: wrr_cs(t, k=K, delta=D, **c),
}


@pytest.mark.parametrize("name", list(DETECTORS))
def test_an_arm_a_hair_off_the_threshold_is_refused_at_once_with_the_estimate(name):
    run = DETECTORS[name]
    start = time.perf_counter()  # a refusal at the start, not a run to the cap: generous on a loaded machine
    with pytest.raises(ValueError, match=r"refuses this instance without a cap: it needs at least .* pulls .*T1 kl"):
        run(bernoulli_tape(NEAR, 1))
    assert time.perf_counter() - start < 10.0
    out = run(bernoulli_tape(NEAR, 1), cap=400)  # an explicit cap: the caller asked for it
    assert out.pulls <= 400 and out.capped


def test_a_long_but_feasible_run_warns_once_at_the_start():
    est = pulls_lower_estimate(FAR, K, D)
    assert LONG_RUN_PULLS < est < 1e9
    with pytest.warns(LongRunWarning, match=r"X: this instance needs at least about 3\.66e\+08 pulls") as record:
        assert cap_or_refuse(None, bernoulli_tape(FAR, 1), K, default=10**9, who="X", delta=D) == 10**9
    assert len(record) == 1


def test_the_estimate_is_the_single_arm_bound_times_kl():
    mu = [0.1, 0.2, 0.3, 0.25, 0.9]
    est = pulls_lower_estimate(mu, 1.2, 0.05)
    assert est == pytest.approx(single_arm_bound(mu, 1.2, divergence="bernoulli") * kl_delta(0.05), rel=1e-12)
    est_g = pulls_lower_estimate(mu, 1.2, 0.05, sigma=0.3)
    assert est_g == pytest.approx(single_arm_bound(mu, 1.2, sigma=0.3) * kl_delta(0.05), rel=1e-12)
    assert pulls_lower_estimate(NEAR, K, D) == math.inf  # on the threshold to rounding
    assert pulls_lower_estimate([0.1, 0.9], 2.0, D) == 0.0  # k^2 >= n - 1: no arm can be an outlier


def test_a_gaussian_tape_uses_its_sigma_and_a_replay_tape_gets_no_estimate():
    tape = gaussian_tape(FAR, 0.01, 1)  # sigma = 0.01: 2500 times fewer pulls than sigma = 0.5
    assert cap_or_refuse(None, tape, K, default=10**9, who="X", delta=D) == 10**9
    with pytest.raises(ValueError, match="refuses"):
        cap_or_refuse(None, gaussian_tape(NEAR, 0.01, 1), K, default=10**9, who="X", delta=D)


def test_nrr_has_no_confidence_to_wait_for_and_is_not_refused():
    for run in (nrr, nrr_reference):
        out = run(bernoulli_tape(NEAR, 1), k=K, delta=D)
        assert not out.capped


@pytest.mark.parametrize("run", [gold, gold_reference])
def test_gold_refuses_means_a_hair_apart_with_its_own_estimate(run):
    means = [0.4, 0.4 + 1e-12, 0.4, 0.4 + 2e-12, 0.4]
    with pytest.raises(ValueError, match=r"GOLD refuses this instance without a cap.*own estimate"):
        run(bernoulli_tape(means, 1), eps=0.1, rho=0.7, delta=D)
    assert run(bernoulli_tape(means, 1), eps=0.1, rho=0.7, delta=D, cap=100).capped


def test_golds_estimate_is_where_the_widest_edge_can_first_go():
    from bandit_lib.gold20._engine import WIDTH_CODES, beta_nb, width_scale_nb
    from bandit_lib.gold20.problem import width_multiplier

    means, b, code = np.array([0.1, 0.5, 0.52, 0.9]), width_multiplier(0.1), WIDTH_CODES["bernoulli"]
    pulls = first_split_pulls(means, b, D, code, 1.0)
    m = int(pulls) // 4

    def width(m):
        z = width_scale_nb(code, float(4 * m), 4, D)
        return b * (beta_nb(code, z, 0.9 * m, float(m), 1.0) + beta_nb(code, z, 0.1 * m, float(m), 1.0))

    assert width(m) < 0.8 <= width(m - 1)


def test_nan_thresholds_and_nan_beta_are_refused_not_run_to_the_cap():
    def nan_threshold(t, n, delta):
        return math.nan

    for run in (rr_glr, track_and_stop, top_two, frank_wolfe):
        start = time.perf_counter()
        with pytest.raises(ValueError, match=r"threshold\(t, n, delta\) must be a number, not NaN"):
            run(
                bernoulli_tape([0.1, 0.2, 0.3, 0.25, 0.9], 1), k=1.2, delta=D, threshold=nan_threshold, sub_gaussian=0.5
            )
        assert time.perf_counter() - start < 10.0
    with pytest.raises(ValueError, match="beta must be a number, not NaN"):
        should_stop([0.1, 0.2, 0.3, 0.25, 0.9], [10] * 5, 1.2, "gaussian", 0.5, math.nan)
    # +inf is a threshold too: the test never stops
    assert should_stop([0.1, 0.2, 0.3, 0.25, 0.9], [10] * 5, 1.2, "gaussian", 0.5, math.inf)[0] is False


def test_gaussian_tapes_with_sigma_zero_are_refused_by_the_glr_detectors():
    tape = gaussian_tape([0.1, 0.2, 0.3, 0.25, 0.9], 0.0, 1)
    for run in (rr_glr, track_and_stop):
        with pytest.raises(ValueError, match=r"sigma > 0.*sigma=0\.0"):
            run(tape, k=1.2, delta=D, cap=1000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # the anytime pair takes the rewards' sub-Gaussian sigma as an argument: deterministic rewards
        # are sigma-sub-Gaussian for every sigma, so it runs and stops
        assert not rr_cs(gaussian_tape([0.1, 0.2, 0.3, 0.25, 0.9], 0.0, 1), k=1.2, delta=D).capped
