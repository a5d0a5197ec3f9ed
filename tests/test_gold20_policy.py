"""GOLD (bandit_lib.gold20.gold): the fast engine takes exactly the reference's decisions, and
the spec's §7 checks that concern the algorithm (constants, initial graph, bookkeeping, errors).

Exactness: same tape, same pulls per arm, same stopping pull, same cap flag, same ranking, and
also the same S-scores, community sizes at terminal status, deleted-edge log (T, i, j, m_i, m_j),
final communities, sweeps, ``stop_reached`` and ``left_interval``. The reference re-tests *every*
edge after every pull (UPDATE_G as printed), so these tests also check spec §2.4 fact 2 (only the
pulled arm's edges can fail) on every run.
"""

import math

import numpy as np
import pytest
from _examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

from bandit_lib.gold20._engine import BERNOULLI_WIDTH, HOEFFDING_WIDTH, beta_nb, level_nb, width_scale_nb
from bandit_lib.gold20.gold import gold, gold_reference
from bandit_lib.gold20.problem import detected_set, label_groups, ranking_correct
from bandit_lib.runner import Instance, run_policy
from bandit_lib.tapes import bernoulli_tape, gaussian_tape, replay_tape

WIDTHS = ("bernoulli", "hoeffding")
READINGS = ("inclusive", "strict")


def same_everything(ref, fast):
    assert fast.pulls == ref.pulls, (ref.pulls, fast.pulls)
    assert fast.capped == ref.capped
    np.testing.assert_array_equal(fast.counts, ref.counts)
    np.testing.assert_array_equal(fast.output, ref.output)
    for key in ("S", "terminal_size", "terminal", "communities"):
        np.testing.assert_array_equal(fast.info[key], ref.info[key], err_msg=key)
    for key in ("stop_reached", "left_interval", "edges_left", "sweeps", "K", "stop_count", "small_limit"):
        assert fast.info[key] == ref.info[key], key
    if "edge_log" in ref.info:
        np.testing.assert_array_equal(fast.info["edge_log"], ref.info["edge_log"])


def both(tape, **kw):
    ref = gold(tape, engine="reference", **kw)
    fast = gold(tape.rewind(), engine="fast", **kw)
    return ref, fast


def planted(rng, n, K, kind):
    """Normal arms in [0.2, 0.6]; K outliers above (upper), below (lower) or between two normal groups."""
    normal = np.sort(rng.uniform(0.2, 0.6, n - K))
    out = rng.uniform(0.0, 0.03, K)
    if kind == "upper":
        y = np.r_[normal, 0.9 + out]
    elif kind == "lower":
        y = np.r_[normal * 0.5 + 0.5, 0.05 + out]
    else:
        half = (n - K) // 2
        y = np.r_[normal[:half] - 0.15, 0.5 + out, normal[half:] + 0.35]
    return np.clip(y, 0.0, 1.0)


# --------------------------------------------------------------------------- exactness


@given(
    st.integers(4, 14),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["upper", "lower", "middle", "random"]),
    st.sampled_from(WIDTHS),
    st.sampled_from(READINGS),
    st.sampled_from([0.6, 0.75, 0.8, 0.9]),
    st.sampled_from([0.5, 1.0, 2.5, 5.0]),
    st.sampled_from([0.01, 0.1, 0.5]),
    st.sampled_from([None, 40, 500, 5000]),
)
# slow (make test-slow, run in CI): a long equivalence or statistical case; make test keeps within 7 minutes
@pytest.mark.slow
@settings(max_examples=examples(40))
def test_fast_equals_reference_bernoulli(n, seed, kind, width, reading, rho, eps, delta, cap):
    rng = np.random.default_rng(seed)
    K = (1 - rho) * n
    if math.floor(K + 1e-9) < 2:  # need a non-trivial budget: more arms
        n = int(math.ceil(2 / (1 - rho))) + 1
        K = (1 - rho) * n
    k = max(1, int(math.floor(K + 1e-9)))
    y = rng.uniform(0, 1, n) if kind == "random" else planted(rng, n, k, kind)
    y = y[rng.permutation(n)]
    cap = 20_000 if cap is None else max(cap, n)
    ref, fast = both(
        bernoulli_tape(y, seed), eps=eps, rho=rho, delta=delta, cap=cap, width=width, reading=reading, log_edges=True
    )
    same_everything(ref, fast)


@given(
    st.integers(5, 12),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["gaussian", "replay", "replay01"]),
    st.sampled_from(READINGS),
    st.sampled_from([1000, 8000]),
)
# slow (make test-slow, run in CI): a long equivalence or statistical case; make test keeps within 7 minutes
@pytest.mark.slow
@settings(max_examples=examples(30))
def test_fast_equals_reference_other_tapes(n, seed, kind, reading, cap):
    rng = np.random.default_rng(seed)
    y = planted(rng, n, 2, "upper")
    width = "hoeffding"
    if kind == "gaussian":
        tape = gaussian_tape(y, 0.2, seed)
    elif kind == "replay":
        tape = replay_tape([rng.normal(v, 0.1, size=7) for v in y], seed)
    else:
        tape = replay_tape([(rng.uniform(size=9) < v).astype(float) for v in y], seed)
        width = "bernoulli"
    ref, fast = both(tape, eps=2.5, rho=0.6, delta=0.1, cap=cap, width=width, reading=reading, R=1.5, log_edges=True)
    same_everything(ref, fast)


# the three longest cases are slow (make test-slow, run in CI): make test keeps within 7 minutes
_SLOW_COMPLETE = {("middle", "hoeffding"), ("upper", "hoeffding"), ("middle", "bernoulli")}


@pytest.mark.parametrize(
    "kind,width",
    [
        pytest.param(kind, width, marks=pytest.mark.slow) if (kind, width) in _SLOW_COMPLETE else (kind, width)
        for width in WIDTHS
        for kind in ["upper", "lower", "middle"]
    ],
)
def test_fast_equals_reference_complete_runs(width, kind):
    """Runs that end by GOLD's own rule (not the cap), n = 20 and 30, K = 2 and 3 outliers."""
    for n, seed in [(20, 1), (30, 2)]:
        rng = np.random.default_rng(seed)
        y = planted(rng, n, n // 10, kind)[rng.permutation(n)]
        ref, fast = both(bernoulli_tape(y, seed), eps=2.5, rho=0.9, delta=0.1, cap=10**6, width=width, log_edges=True)
        assert not ref.capped
        same_everything(ref, fast)
        # most pulls of these runs skip the test of the pulled arm's edges on a guard
        assert fast.info["guarded_pulls"] > 0.2 * fast.pulls, fast.info["guarded_pulls"]


@pytest.mark.slow
def test_fast_equals_reference_at_the_cap_inside_and_at_the_end_of_a_sweep():
    rng = np.random.default_rng(5)
    n = 20
    y = planted(rng, n, 2, "upper")
    full = gold(bernoulli_tape(y, 5), eps=5, rho=0.9, delta=0.1, cap=10**6)
    T = full.pulls
    for cap in (n, n + 1, T - 1, T, T + 1, full.info["stop_reached"], full.info["stop_reached"] - 1):
        ref, fast = both(bernoulli_tape(y, 5), eps=5, rho=0.9, delta=0.1, cap=cap, log_edges=True)
        same_everything(ref, fast)
        assert ref.pulls <= cap
    assert not gold(bernoulli_tape(y, 5), eps=5, rho=0.9, delta=0.1, cap=T).capped
    assert gold(bernoulli_tape(y, 5), eps=5, rho=0.9, delta=0.1, cap=T - 1).capped


def test_gold_reference_is_the_reference_engine():
    y = planted(np.random.default_rng(3), 20, 2, "upper")
    a = gold_reference(bernoulli_tape(y, 3), eps=5, rho=0.9, delta=0.1, cap=10**6)
    b = gold(bernoulli_tape(y, 3), eps=5, rho=0.9, delta=0.1, cap=10**6)
    assert a.info["engine"] == "reference" and b.info["engine"] == "fast"
    assert a.same_decisions(b)


# --------------------------------------------------------------------------- constants (§7.1)


def test_level_and_quantile():
    assert level_nb(10.0, 20, 0.1) == 6 * 0.1 / (math.pi**2 * 20 * 100.0)
    z = width_scale_nb(BERNOULLI_WIDTH, 1e7, 400, 0.1)
    assert math.isfinite(z) and round(z, 2) == 6.21
    assert z == special.erfcinv(6 * 0.1 / (math.pi**2 * 400 * 1e14))
    L = width_scale_nb(HOEFFDING_WIDTH, 1e3, 20, 0.1)
    assert L == pytest.approx(math.log(math.pi**2 * 20 / (6 * 0.1)) + 2 * math.log(1e3), rel=1e-14)
    assert beta_nb(HOEFFDING_WIDTH, L, 3.0, 4.0, 2.0) == 2.0 * math.sqrt(L / 8.0)
    p = (3.0 + z * z / 2) / (4.0 + z * z)
    assert beta_nb(BERNOULLI_WIDTH, z, 3.0, 4.0, 1.0) == pytest.approx(z * math.sqrt(p * (1 - p) / 4.0), rel=1e-15)


# --------------------------------------------------------------------------- initial graph (§7.2)


@pytest.mark.parametrize("n", [2, 20, 400])
@pytest.mark.parametrize("width", [BERNOULLI_WIDTH, HOEFFDING_WIDTH])
def test_initial_graph_is_complete(n, width):
    """After one pull each (T = n), even the worst pair (rewards 0 and 1) passes the test with b -> 1."""
    sc = width_scale_nb(width, float(n), n, 0.999)
    for s_i in (0.0, 1.0):
        for s_j in (0.0, 1.0):
            gap = abs(s_i - s_j)
            assert gap <= 1.0 * (beta_nb(width, sc, s_i, 1.0, 1.0) + beta_nb(width, sc, s_j, 1.0, 1.0))


@pytest.mark.parametrize("n", [20, 400])
@pytest.mark.parametrize("width", WIDTHS)
def test_initial_graph_is_complete_in_a_run(n, width):
    y = np.linspace(0.0, 1.0, n)
    out = gold(bernoulli_tape(y, 7), eps=10, rho=0.9, delta=0.1, cap=n, width=width, log_edges=True)
    assert out.capped and out.pulls == n
    assert out.info["edges_left"] == n * (n - 1) // 2
    assert len(out.info["edge_log"]) == 0
    assert np.all(out.info["communities"] == 0)


# --------------------------------------------------------------------------- bookkeeping (§7.10)


@pytest.mark.parametrize("kind", ["upper", "lower", "middle"])
@pytest.mark.parametrize("width", WIDTHS)
def test_bookkeeping_and_correct_ranking(kind, width):
    n, K = 40, 4
    rng = np.random.default_rng(11)
    y = planted(rng, n, K, kind)[perm := rng.permutation(n)]
    out = gold(bernoulli_tape(y, 11), eps=2.5, rho=0.9, delta=0.1, cap=10**7, width=width, log_edges=True)
    info = out.info
    assert not out.capped
    assert out.pulls == out.counts.sum() and out.counts.min() >= 1  # T includes the n initial pulls
    assert len(info["terminal"]) >= K  # |Psi| >= K at the end
    assert info["stop_reached"] <= out.pulls < info["stop_reached"] + n  # the loop stops between sweeps
    S = info["S"]
    assert np.all(S[info["terminal"]] <= out.pulls)
    terminal = np.isfinite(S)
    assert np.all(~terminal[out.output[terminal.sum() :]])  # unterminated arms ranked last
    assert np.all(np.diff(np.minimum(S[out.output], 1e300)) >= 0)  # ascending S
    assert np.all(info["terminal_size"][terminal] <= K) and np.all(info["terminal_size"][~terminal] == 0)
    # each pair deleted at most once, deletions in time order, never re-added
    log = info["edge_log"]
    pairs = {(i, j) for _, i, j, _, _ in log}
    assert len(pairs) == len(log) == n * (n - 1) // 2 - info["edges_left"]
    assert np.all(np.diff(log[:, 0]) >= 0)
    # the planted K outliers come first
    truth = label_groups(y, 2.5, 0.9)
    assert truth.outliers.size == K
    assert ranking_correct(out.output, truth.groups)
    np.testing.assert_array_equal(detected_set(out.output, K), truth.outliers)
    half = (n - K) // 2
    planted_at = np.arange(half, half + K) if kind == "middle" else np.arange(n - K, n)
    np.testing.assert_array_equal(np.flatnonzero(np.isin(perm, planted_at)), truth.outliers)


def test_terminal_arms_stop_being_pulled():
    n = 30
    rng = np.random.default_rng(4)
    y = planted(rng, n, 3, "upper")
    out = gold(bernoulli_tape(y, 4), eps=2.5, rho=0.9, delta=0.1, cap=10**7)
    S = out.info["S"]
    normal = ~np.isfinite(S)
    # an arm that became terminal at pull S was pulled at most once more (later in that sweep)
    for i in np.flatnonzero(~normal):
        before = gold(bernoulli_tape(y, 4), eps=2.5, rho=0.9, delta=0.1, cap=int(S[i])).counts[i]
        assert out.counts[i] - before <= 1
    assert out.counts[normal].min() >= out.counts[~normal].max()


def test_strict_reading_is_costlier_on_K_injected_outliers():
    """§7.11: with exactly K = 2 injected outliers the strict rule must split the outlier block or
    isolate normal arms as well; the inclusive rule stops right after isolating the block."""
    rng = np.random.default_rng(8)
    y = planted(rng, 20, 2, "upper")
    inc = gold(bernoulli_tape(y, 8), eps=5, rho=0.9, delta=0.1, cap=10**7, reading="inclusive")
    strict = gold(bernoulli_tape(y, 8), eps=5, rho=0.9, delta=0.1, cap=10**7, reading="strict")
    assert inc.info["small_limit"] == 2 and strict.info["small_limit"] == 1
    assert strict.pulls > 3 * inc.pulls


def test_works_through_run_policy_and_info_types():
    inst = Instance(planted(np.random.default_rng(2), 20, 2, "upper"))
    out = run_policy(gold, inst, 9, cap=10**6, eps=5, rho=0.9, delta=0.1)
    assert out.output.dtype == np.int64 and sorted(out.output.tolist()) == list(range(20))
    assert out.info["K"] == "2" and out.info["stop_count"] == 2 and out.info["b"] == pytest.approx(1.4314, abs=1e-4)
    assert out.info["S"].dtype == np.float64 and out.info["terminal_size"].dtype == np.int64
    assert "edge_log" not in out.info


# --------------------------------------------------------------------------- errors


def test_bad_arguments_are_named():
    y = planted(np.random.default_rng(1), 20, 2, "upper")
    kw = dict(eps=5, rho=0.9, delta=0.1, cap=10**5)
    cases = [
        (dict(eps=0.05), ValueError, "eps"),
        (dict(rho=0.5), ValueError, "rho"),
        (dict(rho=1.0), ValueError, "rho"),
        (dict(delta=0.0), ValueError, "delta"),
        (dict(delta=1.5), ValueError, "delta"),
        (dict(cap=10), ValueError, "cap"),
        (dict(cap=1e5 + 0.5), ValueError, "cap"),
        (dict(width="gauss"), ValueError, "width"),
        (dict(reading="loose"), ValueError, "reading"),
        (dict(engine="slow"), ValueError, "engine"),
        (dict(R=0.0), ValueError, "R"),
        (dict(log_edges=1), TypeError, "log_edges"),
    ]
    for change, exc, name in cases:
        with pytest.raises(exc, match=name):
            gold(bernoulli_tape(y, 1), **{**kw, **change})
    with pytest.raises(TypeError, match="tape"):
        gold(y, **kw)
    with pytest.raises(ValueError, match="bernoulli"):
        gold(gaussian_tape(y, 0.1, 1), **kw)
    with pytest.raises(ValueError, match="small"):
        gold(bernoulli_tape(y[:9], 1), **kw)  # K = 0.9 < 1: no community is ever small
    with pytest.raises(ValueError, match="small"):
        gold(bernoulli_tape(y[:10], 1), **kw, reading="strict")  # K = 1, strict: size < 1 impossible
    tape = bernoulli_tape(y, 1)
    gold(tape, **kw)
    with pytest.raises(ValueError, match="rewind"):
        gold(tape, **kw)  # a used tape
