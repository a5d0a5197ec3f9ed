"""GRAPL20: GrAPL, Algorithm 1, APT and the no-graph baseline; readable references against the
numba engines, pull for pull, and the behaviours the paper describes."""

import networkx as nx
import numpy as np
import pytest
from _examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bandit_lib.grapl20.algorithm1 import (
    algorithm1,
    algorithm1_reference,
    iid_uniform_schedule,
    permutation_schedule,
    round_robin_schedule,
)
from bandit_lib.grapl20.apt import apt, apt_reference
from bandit_lib.grapl20.estimator import graph_system
from bandit_lib.grapl20.grapl import grapl, grapl_index, grapl_reference
from bandit_lib.grapl20.karate import karate_club
from bandit_lib.grapl20.no_graph import no_graph
from bandit_lib.grapl20.sbm import two_block_sbm
from bandit_lib.grapl20.small_world import newman_watts_smooth
from bandit_lib.tapes import bernoulli_tape, gaussian_tape


def instance(n, seed, kind):
    rng = np.random.default_rng(seed)
    g = nx.gnp_random_graph(n, min(1.0, 3.0 / n), seed=seed)  # may be disconnected, as the paper's SBM
    if kind == "bernoulli":
        means = rng.uniform(0, 1, size=n)
        return g, means, bernoulli_tape(means, seed)
    if kind == "noise-free":
        means = rng.integers(0, 2, size=n).astype(float)
        return g, means, gaussian_tape(means, 0.0, seed)
    means = rng.choice([-1.0, 1.0], size=n)
    return g, means, gaussian_tape(means, 2.0, seed)


def same(a, b):
    assert a.same_decisions(b)
    assert np.array_equal(a.mu_hat, b.mu_hat)  # bit for bit
    assert np.array_equal(a.wrong_ref, b.wrong_ref) and np.array_equal(a.wrong_paper, b.wrong_paper)


def test_first_pull_is_arm_0_and_tiny_alpha_pulls_every_arm_once_first():
    graph, means = newman_watts_smooth(120, 4)
    tape = bernoulli_tape(means, 1)
    run = grapl(tape, graph, 240, tau=0.5, eps=0.01, gamma=100.0, alpha=1e-8)
    assert run.pulls[0] == 0
    assert np.array_equal(np.sort(run.pulls[:120]), np.arange(120))


def test_alpha_one_may_pull_an_arm_twice_before_all_once():
    graph, means = two_block_sbm(200, 5)
    run = grapl(gaussian_tape(means, 2.0, 5), graph, 200, tau=0.0, eps=0.01, gamma=10.0, alpha=1.0)
    assert np.unique(run.pulls).size < 200


def test_printed_index_pulls_unsampled_arms_in_index_order():
    """z = Delta * sqrt(n) + alpha is alpha for every unsampled arm: the argmin is the lowest unsampled index."""
    graph, means = karate_club()
    run = grapl(gaussian_tape(means, 0.0, 0), graph, 34, tau=0.5, eps=0.01, gamma=1e-3, alpha=1e-8, index="printed")
    assert np.array_equal(run.pulls, np.arange(34))
    z = grapl_index(np.array([0.5, 0.9]), np.array([0, 4]), 0.5, 0.01, 1.0, "printed")
    assert np.allclose(z, [1.0, 0.41 * 2 + 1.0])


def test_karate_club_is_learned_exactly_by_t_equal_n_with_little_smoothing():
    graph, means = karate_club()
    tape = gaussian_tape(means, 0.0, 0)
    kw = dict(tau=0.5, eps=0.01, gamma=1e-3)
    run = grapl_reference(tape, graph, 34, alpha=1e-8, **kw)
    assert run.pulls[0] == 0 and np.array_equal(np.sort(run.pulls), np.arange(34))
    assert run.wrong_ref[-1] == 0 and np.array_equal(run.output(), np.flatnonzero(means == 1))
    alg1 = algorithm1(tape.rewind(), graph, permutation_schedule(34, 34, 0), **kw)
    assert alg1.wrong_ref[-1] == 0


def test_sbm_smoke_grapl_beats_apt():
    """Spec §6.2: N = 200, sigma = 2, gamma = 10, T = 800, 3 trials."""
    grapl_final, apt_final = [], []
    for trial in range(3):
        graph, means = two_block_sbm(200, trial)
        tape = gaussian_tape(means, 2.0, 100 + trial)
        grapl_final.append(grapl(tape, graph, 800, tau=0.0, eps=0.01, gamma=10.0, alpha=1.0).errors()[-1])
        apt_final.append(apt(tape.rewind(), 800, tau=0.0, eps=0.01).errors()[-1])
    assert np.median(grapl_final) < np.median(apt_final) and np.median(grapl_final) <= 0.05


def test_small_world_smoke_grapl_at_least_as_good_as_apt():
    grapl_final, apt_final = [], []
    for trial in range(3):
        graph, means = newman_watts_smooth(200, trial, p=0.05)
        tape = bernoulli_tape(means, 100 + trial)
        run = grapl(tape, graph, 600, tau=0.5, eps=0.01, gamma=100.0, alpha=1e-8)
        assert np.array_equal(np.sort(run.pulls[:200]), np.arange(200))
        grapl_final.append(run.errors()[-1])
        apt_final.append(apt(tape.rewind(), 600, tau=0.5, eps=0.01).errors()[-1])
    assert np.median(grapl_final) <= np.median(apt_final)


def test_no_graph_baseline_is_n_minus_t_over_n_under_e_ref():
    graph, means = karate_club()
    schedule = permutation_schedule(34, 34, 3)
    run = no_graph(gaussian_tape(means, 0.0, 0), schedule, tau=0.5, eps=0.01)
    assert np.array_equal(run.wrong_ref, 34 - np.arange(1, 35))
    below_unseen = [(means[schedule[t + 1 :]] == 0).sum() for t in range(34)]
    assert np.array_equal(run.wrong_paper, below_unseen)


def test_schedules():
    a, b = iid_uniform_schedule(10, 500, 3), iid_uniform_schedule(10, 500, 3)
    assert np.array_equal(a, b) and a.min() >= 0 and a.max() <= 9 and np.unique(a).size == 10
    p = permutation_schedule(7, 20, 1)
    assert len(p) == 20 and all(np.array_equal(np.sort(p[k : k + 7]), np.arange(7)) for k in (0, 7))
    assert np.array_equal(round_robin_schedule(3, 7), [0, 1, 2, 0, 1, 2, 0])


def test_engines_leave_the_tape_read_as_far_as_they_pulled():
    graph, means = karate_club()
    tape = gaussian_tape(means, 1.0, 0)
    run = grapl(tape, graph, 50, tau=0.5, eps=0.01, gamma=1.0, alpha=1.0)
    assert np.array_equal(tape.counts, run.counts)
    with pytest.raises(ValueError, match="already read"):
        grapl(tape, graph, 5, tau=0.5, eps=0.01, gamma=1.0, alpha=1.0)


G3 = nx.path_graph(3)
T3 = lambda: gaussian_tape([0.0, 1.0, 2.0], 1.0, 0)  # noqa: E731


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: grapl_reference(T3(), G3, 0, tau=0.0, eps=0.01, gamma=1.0, alpha=1.0), "horizon=0"),
        (lambda: grapl_reference(T3(), G3, 5, tau=0.0, eps=0.01, gamma=-1.0, alpha=1.0), "gamma=-1.0"),
        (lambda: grapl_reference(T3(), G3, 5, tau=0.0, eps=0.01, gamma=1.0, alpha=-1.0), "alpha=-1.0"),
        (lambda: grapl_reference(T3(), G3, 5, tau=0.0, eps=0.01, gamma=1.0, alpha=1.0, index="sqrt"), "index='sqrt'"),
        (lambda: grapl(T3(), G3, 5, tau=0.0, eps=0.01, gamma=1.0, alpha=1.0, solver="lu"), "solver='lu'"),
        (lambda: grapl_reference(T3(), nx.path_graph(4), 5, tau=0.0, eps=0.01, gamma=1.0, alpha=1.0), "4 nodes"),
        (lambda: grapl_reference([0.0, 1.0], G3, 5, tau=0.0, eps=0.01, gamma=1.0, alpha=1.0), "RewardTape"),
        (
            lambda: grapl_reference(T3(), "graph", 5, tau=0.0, eps=0.01, gamma=1.0, alpha=1.0),
            "networkx graph or a GraphSystem",
        ),
        (
            lambda: grapl_reference(T3(), graph_system(G3, 1e-3), 5, tau=0.0, eps=0.01, gamma=1.0, alpha=1.0, lam=0.1),
            "lam=0.1",
        ),
        (lambda: algorithm1_reference(T3(), G3, [0, 1, 3], tau=0.0, eps=0.01, gamma=1.0), "got 3"),
        (lambda: algorithm1(T3(), G3, [0.0, 1.0], tau=0.0, eps=0.01, gamma=1.0), "arm indices"),
        (lambda: algorithm1_reference(T3(), G3, [0, 1], tau=0.0, eps=0.01, gamma=1.0, horizon=3), "horizon=3"),
        (lambda: apt_reference(T3(), 5, tau=0.0, eps=0.01, warmup=0), "warmup=0"),
        (lambda: apt(T3(), 5, tau=float("nan"), eps=0.01), "tau=nan"),
        (lambda: no_graph(T3(), [0, 5], tau=0.0, eps=0.01), "0..2"),
        (lambda: iid_uniform_schedule(0, 5, 1), "n_arms=0"),
        (lambda: permutation_schedule(3, 0, 1), "horizon=0"),
        (lambda: grapl_index([0.5], [1], 0.5, 0.01, 1.0, "other"), "index='other'"),
    ],
)
def test_bad_policy_inputs_raise_naming_the_value(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()


@pytest.mark.parametrize("solver", ["exact", "cg"])
def test_engine_and_reference_agree_on_a_paper_like_instance(solver):
    graph, means = two_block_sbm(200, 11)
    tape = gaussian_tape(means, 2.0, 11)
    kw = dict(tau=0.0, eps=0.01, gamma=10.0, alpha=1.0, solver=solver)
    same(grapl_reference(tape, graph, 500, **kw), grapl(tape.rewind(), graph, 500, **kw))


@settings(max_examples=examples(30))
@given(st.integers(2, 30), st.integers(0, 10_000), st.integers(1, 90))
def test_no_graph_running_totals_equal_a_full_recount(n, seed, horizon):
    from bandit_lib.grapl20.problem import wrong_counts

    rng = np.random.default_rng(seed)
    means = rng.choice([0.0, 0.495, 0.5, 0.505, 1.0], size=n)
    schedule = rng.integers(n, size=horizon)
    run = no_graph(bernoulli_tape(means, seed), schedule, tau=0.5, eps=0.01)
    tape = bernoulli_tape(means, seed)
    sums, counts, mu_hat = np.zeros(n), np.zeros(n), np.full(n, 0.5)
    for t, i in enumerate(schedule):
        sums[i] += tape.pull(int(i))
        counts[i] += 1
        mu_hat[i] = sums[i] / counts[i]
        assert (run.wrong_ref[t], run.wrong_paper[t]) == wrong_counts(mu_hat, means, 0.5, 0.01)
