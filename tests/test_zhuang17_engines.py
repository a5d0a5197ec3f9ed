"""ZHUANG17: what the engines guarantee beyond the shared conformance test (tests/test_engines.py).

The shared test checks the same decisions on random small instances. Here: ``verify=True``
recomputes the exact UPDATE() after every step of the RR/WRR engine and counts any certified value
or decision it contradicts; long verified runs on paper-like instances; WRR with rho = 1 is RR;
Gaussian and replay tapes; batches never pass the cap; IB's ties.
"""

import numpy as np
import pytest
from _examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bandit_lib.tapes import bernoulli_tape, gaussian_tape, replay_tape
from bandit_lib.zhuang17._engine import run_wrr_fast
from bandit_lib.zhuang17.ib import ib
from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI
from bandit_lib.zhuang17.rr import rr
from bandit_lib.zhuang17.wrr import wrr

CIS = [
    AgrestiCoullCI(),
    AgrestiCoullCI(z_mode="normal"),
    AgrestiCoullCI(threshold_ci="as_printed"),
    HoeffdingCI(),
    HoeffdingCI(l_inner="delta_prime"),
]


def means_strategy(min_n=3, max_n=8):
    """Means with a few high arms, so that runs end in a few thousand pulls or hit the cap."""
    return st.lists(st.floats(0.0, 1.0), min_size=min_n, max_size=max_n).map(np.array)


def _both(policy, tape, **kw):
    ref = policy(tape, engine="reference", **kw)
    fast = policy(tape.rewind(), engine="fast", **kw)
    return ref, fast


def _assert_same(ref, fast):
    assert fast.pulls == ref.pulls, (ref, fast)
    np.testing.assert_array_equal(fast.counts, ref.counts)
    np.testing.assert_array_equal(fast.output, ref.output)
    assert fast.capped == ref.capped


# --------------------------------------------------------------------------- RR / WRR


@given(
    means_strategy(3, 10),
    st.integers(0, 2**32 - 1),
    st.sampled_from(range(len(CIS))),
    st.floats(1.0, 6.0),
    st.sampled_from([1, 1, 5]),
)
@settings(max_examples=examples(30))
def test_certified_values_never_contradict_the_exact_update(y, seed, ci_index, rho, batch):
    tape = bernoulli_tape(y, seed)
    out = run_wrr_fast(
        tape, k=2.5, delta=0.1, cap=8000, ci=CIS[ci_index], rho=rho, batch=batch, init_pulls=1, verify=True
    )
    assert out.info["verification_failures"] == 0, out.info


def test_long_verified_runs_on_paper_like_instances():
    """A few thousand certified steps per run, on instances like the paper's (both families)."""
    from bandit_lib.zhuang17.instances import planted_outliers

    for n, seed in [(20, 1), (50, 2)]:
        case = planted_outliers(n, 2.5, seed)
        for ci in (AgrestiCoullCI(), HoeffdingCI()):
            for rho in (1.0, None):
                tape = bernoulli_tape(case.means, seed)
                rho_ = 1.0 if rho else 3.0
                out = run_wrr_fast(
                    tape, k=2.5, delta=0.1, cap=60000, ci=ci, rho=rho_, batch=1, init_pulls=1, verify=True
                )
                assert out.info["verification_failures"] == 0
                assert out.info["certified_steps"] > 0.9 * out.info["steps"]


@pytest.mark.slow
def test_wrr_with_rho_one_is_rr_pull_for_pull():
    y = np.array([0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.95])
    for ci in (AgrestiCoullCI(), HoeffdingCI()):
        tape = bernoulli_tape(y, 11)
        a = rr(tape, k=2.0, delta=0.1, cap=50000, ci=ci, engine="reference")
        b = wrr(tape.rewind(), k=2.0, delta=0.1, cap=50000, ci=ci, rho=1.0, engine="reference")
        _assert_same(a, b)


@given(
    st.lists(st.floats(-1.0, 2.0), min_size=3, max_size=7),
    st.integers(0, 2**32 - 1),
    st.floats(0.5, 3.0),
    st.floats(0.5, 4.0),
)
@settings(max_examples=examples(25))
def test_hoeffding_engines_agree_on_gaussian_rewards(y, seed, sigma, R):
    """The certified bounds hold for any rewards (here unbounded), not only for Bernoulli ones."""
    tape = gaussian_tape(y, sigma, seed)
    _assert_same(*_both(wrr, tape, k=1.5, delta=0.1, cap=4000, ci=HoeffdingCI(R=R), rho=2.5))


def test_engines_agree_on_replay_tapes_and_extreme_means():
    tape = replay_tape([[0, 0, 1], [0, 1], [1, 1, 1, 1, 0], [0], [1]], 3)
    _assert_same(*_both(rr, tape, k=1.0, delta=0.1, cap=5000, ci=AgrestiCoullCI()))
    for y in ([0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0], [0.999, 0.001, 0.5, 0.5]):
        tape = bernoulli_tape(y, 5)
        _assert_same(*_both(wrr, tape, k=1.0, delta=0.1, cap=5000, ci=AgrestiCoullCI()))


def test_batches_never_pass_the_cap():
    tape = bernoulli_tape([0.3, 0.31, 0.32, 0.33], 1)
    ref, fast = _both(rr, tape, k=2.0, delta=0.1, cap=1234, ci=HoeffdingCI(), batch=100)
    _assert_same(ref, fast)
    assert fast.pulls == 1234 and fast.capped


# --------------------------------------------------------------------------- NRR, IB


@pytest.mark.slow
def test_ib_engines_agree_with_ties_and_equal_arms():
    for y in ([0.5, 0.5, 0.5, 0.5, 0.9], [0.2, 0.2, 0.8, 0.8], [0.0, 0.0, 0.0], [1.0, 0.0]):
        tape = bernoulli_tape(y, 2)
        ref, fast = _both(ib, tape, k=1.0, delta=0.1, cap=30000)
        _assert_same(ref, fast)


def test_ib_engines_agree_on_a_longer_run_with_many_arms():
    rng = np.random.default_rng(8)
    y = np.concatenate([rng.uniform(0, 0.5, 28), [0.85, 0.95]])
    tape = bernoulli_tape(y, 9)
    ref, fast = _both(ib, tape, k=2.0, delta=0.1, cap=40000)
    _assert_same(ref, fast)


def test_ib_engines_agree_where_clucb_equalises_the_challengers():
    """Many low, close means (a Twitter-like keyword): CLUCB pulls the challengers until their UCBs
    agree to within ~1e-9, the regime where the fast engine's tournament certificates are tightest
    and the exact floats decide the most comparisons."""
    rng = np.random.default_rng(47)
    y = rng.uniform(0.002, 0.012, 47)
    y[5] = 0.03
    tape = bernoulli_tape(y, 10)
    ref, fast = _both(ib, tape, k=2.5, delta=0.1, cap=60000)
    _assert_same(ref, fast)
    assert fast.info["removed"] == ref.info["removed"]


def test_ib_engines_agree_through_long_duels():
    """After the outlier leaves, two near-tied normals are leader and challenger for tens of
    thousands of pulls: the fast engine's duels (pulls made without the trees while the leader, the
    challenger and the open stop test stay certified) take the reference's decisions."""
    y = np.array([0.2, 0.3, 0.35, 0.4, 0.48, 0.5, 0.93])
    tape = bernoulli_tape(y, 12)
    ref, fast = _both(ib, tape, k=1.5, delta=0.1, cap=60000)
    _assert_same(ref, fast)
    assert fast.info["removed"] == ref.info["removed"]
    assert fast.info["duel_pulls"] > 40000, fast.info


def test_ib_engines_agree_with_hundreds_of_arms_and_leader_changes():
    rng = np.random.default_rng(300)
    y = rng.uniform(0.3, 0.7, 300)
    y[[7, 150]] = [0.72, 0.71]  # two close leaders: the leader changes hands
    tape = bernoulli_tape(y, 11)
    ref, fast = _both(ib, tape, k=1.0, delta=0.1, cap=25000)
    _assert_same(ref, fast)
    assert fast.info["removed"] == ref.info["removed"]


# --------------------------------------------------------------------------- stretches


@given(
    st.lists(st.floats(0.0, 0.6), min_size=8, max_size=40),
    st.integers(0, 2**32 - 1),
    st.sampled_from([0, 3]),
    st.sampled_from([1.0, 1.0, 2.0, 4.0]),
)
@settings(max_examples=examples(12))
def test_stretches_are_certified_pull_by_pull(y, seed, ci_index, rho):
    """verify=True pulls a certified stretch one reward at a time and checks the exact UPDATE()
    after every pull: the witness is active, and every arm WRR could pull again has the activity
    the stretch was planned with."""
    y = np.array(y)
    y[0] = 0.95  # an outlier, so that the run lasts and stretches form
    tape = bernoulli_tape(y, seed)
    out = run_wrr_fast(tape, k=2.0, delta=0.1, cap=60000, ci=CIS[ci_index], rho=rho, batch=1, init_pulls=1, verify=True)
    assert out.info["verification_failures"] == 0, out.info


@pytest.mark.slow
def test_stretches_happen_and_take_the_reference_decisions():
    """Long runs where most pulls are read in stretches (RR and WRR, both families): the same pulls
    per arm, stopping pull and output as the per-pull reference."""
    from bandit_lib.zhuang17.instances import planted_outliers

    case = planted_outliers(30, 2.5, 3)  # every run lasts 90000 pulls or more
    for policy in (rr, wrr):
        for ci in (AgrestiCoullCI(), HoeffdingCI()):
            tape = bernoulli_tape(case.means, 5)
            ref, fast = _both(policy, tape, k=2.5, delta=0.1, cap=120000, ci=ci)
            _assert_same(ref, fast)
            assert fast.info["stretches"] > 0, fast.info
