"""ADE (ade20): the fast engine takes exactly the reference's decisions; radii, schedule, bad input."""

import math

import numpy as np
import pytest
from _examples import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bandit_lib.ade20.ade import PI2, ade, ade_radii, ade_reference, default_stream, level_log, variance_constant
from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers
from bandit_lib.runner import Instance, run_policy
from bandit_lib.tapes import bernoulli_tape, decision_stream, gaussian_tape, replay_tape

FAST_FIELDS = ("m_th", "m_a", "t", "normals", "undecided")


def assert_same_run(ref, fast):
    assert ref.same_decisions(fast), (ref.pulls, fast.pulls, ref.output, fast.output)
    for name in FAST_FIELDS:
        assert ref.info[name] == fast.info[name], name
    for name in ("m_i", "decision_round"):
        assert np.array_equal(ref.info[name], fast.info[name]), name
    for name in ("theta_hat", "sigma_hat", "U", "r_th", "r_a"):
        assert ref.info[name] == fast.info[name], name  # bit for bit


@st.composite
def any_instance(draw):
    """Arbitrary means: most runs are hard and stop at the cap."""
    n = draw(st.integers(2, 8))
    means = draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))
    return np.array(means)


@st.composite
def easy_instance(draw):
    """Low arms in [0, 0.15], high arms in [0.85, 1] and k putting theta in [0.4, 0.6]: every gap is
    at least 0.25 and runs finish within about 1e5 pulls."""
    low = draw(st.lists(st.floats(0, 0.15), min_size=1, max_size=4))
    high = draw(st.lists(st.floats(0.85, 1.0), min_size=1, max_size=3))
    means = np.array(draw(st.permutations(low + high)))
    theta = draw(st.floats(0.4, 0.6))
    k = (theta - means.mean()) / means.std()
    assume(0.1 <= k <= 0.5)
    return means, k


@settings(max_examples=examples(40))
@given(easy_instance(), st.floats(0.1, 0.6), st.integers(0, 2**32 - 1), st.sampled_from(["1/delta", "6/delta"]))
def test_fast_engine_matches_reference_on_runs_that_finish(instance, delta, seed, variance_log):
    means, k = instance
    tape = bernoulli_tape(means, seed)
    kw = dict(k=k, delta=delta, cap=150_000, variance_log=variance_log)
    ref = ade_reference(tape.rewind(), trace=True, **kw)
    fast = ade(tape.rewind(), trace_points=5, **kw)
    assert_same_run(ref, fast)
    assert not ref.capped and not ref.info["undecided"]
    assert sorted(ref.output.tolist() + ref.info["normals"]) == list(range(len(means)))
    # every UPDATE the fast engine traced is the reference's UPDATE of the same round, bit for bit
    rows = {int(t): j for j, t in enumerate(ref.info["trace"]["t"])}
    for j, t in enumerate(fast.info["trace"]["t"]):
        r = rows[int(t)]
        for name in ("m_th", "m_a", "theta_hat", "sigma_hat", "U", "r_th", "r_a", "n_active"):
            assert fast.info["trace"][name][j] == ref.info["trace"][name][r], (name, t)


def test_both_finishing_and_capped_runs_are_covered():
    means = np.array([0.0, 0.05, 0.1, 0.9, 0.95, 1.0])
    tape = bernoulli_tape(means, 4)
    done = ade_reference(tape.rewind(), k=0.3, delta=0.2)
    assert not done.capped and done.output.tolist() == ksigma_outliers(means, 0.3, inclusive=True).tolist()
    assert_same_run(done, ade(tape.rewind(), k=0.3, delta=0.2))
    cap = done.pulls // 2
    ref = ade_reference(tape.rewind(), k=0.3, delta=0.2, cap=cap)
    fast = ade(tape.rewind(), k=0.3, delta=0.2, cap=cap)
    assert ref.capped and ref.pulls <= cap
    assert_same_run(ref, fast)


def test_replay_tape_in_the_unit_interval():
    tape = replay_tape([[0.0, 0.1], [0.0, 0.5, 0.2], [1.0, 0.9], [0.95, 1.0, 1.0]], 8)
    ref = ade_reference(tape.rewind(), k=0.2, delta=0.3)
    assert not ref.capped
    assert_same_run(ref, ade(tape.rewind(), k=0.2, delta=0.3))


def test_run_through_the_runner_and_pull_accounting():
    inst = Instance(np.array([0.0, 0.05, 0.1, 0.9, 0.95, 1.0]))
    out = run_policy(ade, inst, 5, cap=10**7, k=0.3, delta=0.2)
    info = out.info
    assert out.pulls == info["pulls_threshold"] + info["pulls_arms"] == out.counts.sum()
    assert info["pulls_threshold"] == 2 * info["m_th"]
    assert info["t"] == info["m_th"] + info["m_a"] + 1  # spec A2: the round counter
    # an arm is swept while undecided: m_i = number of sweeps up to its decision
    assert info["m_i"].max() == info["m_a"]


def test_first_update_radii_by_hand():
    # Bernoulli, n = 30, delta = 0.1, t = 3, one pair (1, 0), one sweep (spec 4.5: r_a ~ 2.2, r_th ~ 9)
    L = math.log(34 * math.pi**2 * 9 / 0.3)
    r = ade_radii(30, 3, 1, 1, 1.0, 0.0, 0.0, k=2.0, delta=0.1)
    assert r["L"] == pytest.approx(L, rel=1e-14)
    assert r["r_a"] == pytest.approx(math.sqrt(L / 2), rel=1e-14)
    assert r["sigma_hat"] == 0.0 and r["theta_hat"] == 1.0  # V = 0 exactly with one pair
    eps = 3 * math.sqrt(L / 2)
    assert r["eps"] == pytest.approx(eps, rel=1e-14) and r["U"] == pytest.approx(eps, rel=1e-14)
    assert r["r_th"] == pytest.approx((1 + math.sqrt(2) * 2 * 3 / math.sqrt(eps)) * math.sqrt(L / 2), rel=1e-13)
    assert 2.1 < r["r_a"] < 2.2 and 9 < r["r_th"] < 9.5
    # the variance-log ablation only widens eps (and so r_th)
    r6 = ade_radii(30, 3, 1, 1, 1.0, 0.0, 0.0, k=2.0, delta=0.1, variance_log="6/delta")
    assert r6["eps"] == pytest.approx(3 * math.sqrt((L + math.log(6)) / 2), rel=1e-13)
    # the running minimum never increases
    assert ade_radii(30, 4, 2, 1, 1.0, 1.0, 1.0, k=2.0, delta=0.1, U_prev=0.5)["U"] <= 0.5


def test_estimator_of_the_threshold():
    # pairs (1,1), (0,0), (1,1), (0,0): mu_hat = 1/2, V = 2/4 - (2/4)(2/4) = 1/4
    r = ade_radii(10, 7, 4, 2, 2.0, 2.0, 2.0, k=2.0, delta=0.1)
    assert r["sigma_hat"] == 0.5 and r["theta_hat"] == 0.5 + 2 * 0.5
    # pairs (1,0), (0,1): the products vanish and V = 0 - 1/4 < 0; sigma_hat uses |V| (spec A10)
    assert ade_radii(10, 5, 2, 2, 1.0, 1.0, 0.0, k=2.0, delta=0.1)["sigma_hat"] == 0.5


def test_union_bound_schedule_sums_to_delta():
    n, delta = 17, 0.1
    t = np.arange(1, 2_000_001, dtype=float)
    delta_t = 3 * delta / ((n + 4) * PI2 * t**2)
    tail = 3 * delta / ((n + 4) * PI2) / t[-1]  # sum over t > T of 1/t^2 is about 1/T
    assert (2 * n + 8) * (delta_t.sum() + tail) == pytest.approx(delta, rel=1e-9)
    assert level_log(n, 5, delta) == pytest.approx(-math.log(delta_t[4]), rel=1e-14)


def test_threshold_arms_come_from_the_decision_stream():
    tape = bernoulli_tape([0.2] * 5, 1)
    a = ade(tape.rewind(), k=1.0, delta=0.1, cap=400)
    b = ade(tape.rewind(), k=1.0, delta=0.1, cap=400, stream=decision_stream(1, "other"))
    c = ade(tape.rewind(), k=1.0, delta=0.1, cap=400, stream=default_stream(tape))
    assert a.same_decisions(c) and not np.array_equal(a.counts, b.counts)


def test_theory_monitors_agree_with_the_reference_trace():
    means = np.array([0.0, 0.1, 0.15, 0.9, 1.0])
    k, delta = 0.3, 0.2
    tape = bernoulli_tape(means, 12)
    ref = ade_reference(tape.rewind(), k=k, delta=delta, trace=True)
    fast = ade(tape.rewind(), k=k, delta=delta, monitor=True)
    tr = ref.info["trace"]
    theta, s2 = means.mean() + k * means.std(), means.var()
    assert fast.info["violations"]["theta"] == int(np.sum(np.abs(theta - tr["theta_hat"]) > tr["r_th"]))
    assert fast.info["violations"]["variance"] == int(np.sum(np.abs(tr["sigma_hat"] ** 2 - s2) > tr["eps"]))
    assert fast.info["violations"]["U"] == int(np.sum(tr["U"] < s2))
    assert fast.info["updates"] == len(tr["t"])
    assert np.all(np.diff(tr["U"]) <= 0)  # the running minimum
    # after the first sweep of the loop, the threshold radius never falls below half the arm radius
    after = tr["t"] >= fast.info["first_switch_t"]
    assert fast.info["min_rth_over_ra_after_switch"] == pytest.approx(np.min(tr["r_th"][after] / tr["r_a"][after]))
    assert fast.info["min_rth_over_ra_after_switch"] >= 0.5


def test_gap_lemma_holds_at_the_last_trigger():
    means = np.array([0.0, 0.1, 0.3, 0.9, 1.0, 0.05])
    k = 0.3
    out = ade(bernoulli_tape(means, 2), k=k, delta=0.2)
    gaps = ksigma_gaps(means, k)
    swept = ~np.isnan(out.info["r_a_last_trigger"])
    assert swept.any()
    bound = 2 * (out.info["r_a_last_trigger"] + out.info["r_th_last_trigger"])
    assert np.all(gaps[swept] < bound[swept])


@pytest.mark.parametrize("engine", [ade, ade_reference])
def test_bad_input_names_the_value(engine):
    tape = bernoulli_tape([0.1, 0.2, 0.9], 1)  # two arms with k = 1 put one on the threshold
    with pytest.raises(ValueError, match="delta=1.5"):
        engine(tape.rewind(), k=1.0, delta=1.5)
    with pytest.raises(ValueError, match="k=-1"):
        engine(tape.rewind(), k=-1.0, delta=0.1)
    with pytest.raises(ValueError, match="variance_log='log'"):
        engine(tape.rewind(), k=1.0, delta=0.1, variance_log="log")
    with pytest.raises(ValueError, match="cap=3"):
        engine(tape.rewind(), k=1.0, delta=0.1, cap=3)
    with pytest.raises(ValueError, match="a=-1"):
        engine(tape.rewind(), k=1.0, delta=0.1, a=-1.0)
    with pytest.raises(ValueError, match="a=0.0, b=0.5"):
        engine(tape.rewind(), k=1.0, delta=0.1, b=0.5)
    with pytest.raises(ValueError, match="gaussian"):
        engine(gaussian_tape([0.0, 1.0], 1.0, 1), k=1.0, delta=0.1)
    with pytest.raises(ValueError, match=r"values in \[0.0, 2.0\]"):
        engine(replay_tape([[0.0, 2.0], [1.0]], 1), k=1.0, delta=0.1)
    with pytest.raises(TypeError, match="tape="):
        engine([0.1, 0.9], k=1.0, delta=0.1)
    with pytest.raises(TypeError, match="stream="):
        engine(tape.rewind(), k=1.0, delta=0.1, stream=3)
    used = tape.rewind()
    used.pull(0)
    with pytest.raises(ValueError, match="already read"):
        engine(used, k=1.0, delta=0.1)


def test_bad_input_of_the_helpers():
    with pytest.raises(ValueError, match="m_th=0"):
        ade_radii(5, 3, 0, 1, 0.0, 0.0, 0.0, k=1.0, delta=0.1)
    with pytest.raises(ValueError, match="U_prev=0"):
        ade_radii(5, 3, 1, 1, 0.0, 0.0, 0.0, k=1.0, delta=0.1, U_prev=0.0)
    with pytest.raises(ValueError, match="S1=-1"):
        ade_radii(5, 3, 1, 1, -1.0, 0.0, 0.0, k=1.0, delta=0.1)
    with pytest.raises(ValueError, match="t=0"):
        level_log(5, 0, 0.1)
    with pytest.raises(ValueError, match="a=2.0, b=1.0"):
        variance_constant(2.0, 1.0)
    with pytest.raises(TypeError, match="tape="):
        default_stream("tape")
    assert variance_constant() == (1.0, 3.0)
