"""UIG chapter (Xu, Vakili, Zhao and Swami): bandits on partially revealed unit interval graphs.

Experiments (full profile = paper scale, 100 repetitions; quick = small, for the tests):

* ``reduction_csi`` (Fig. 4): |B*| against ε (K = 100) and |B*|/K against K (ε = 0.2).
* ``reduction_psi`` (Fig. 5): |B0| against p (K = 100, ε = 0.2) and |B0|/K against K (p = 0.5).
* ``regret_csi`` (Figs. 6 and 9): K = 100, means U[0.1, 1], ε = 0.1, Gaussian rewards (σ = 1),
  every policy on the same instance and reward tape; regret at a grid of T up to 1000.
* ``regret_psi`` (Fig. 7): K = 100, means U[0.1, 0.9], ε = 0.1, p = 0.5, Bernoulli rewards;
  LSDT-PSI is run once per horizon T (it depends on T), the anytime baselines once to 1000.
* ``ts_psi`` (Fig. 10): the Fig. 7 setting with K = 200, Thompson-sampling variants.
* ``jester`` (Fig. 8): the recommendation replay on the Jester-like stand-in (or a local copy of
  Jester dataset 1 named by the environment variable ``UIG_JESTER``).
* ``timing`` (Tables I and II): running times per run of every policy, measured here.
* ``theory``: regret against log T (LSDT-CSI, LSDT-PSI), against K with a fixed candidate set,
  the Theorem 2 bound and the Theorem 3 constant, and the Theorem 5 check on clustered instances.

Each repetition draws a fresh instance (means, graph, side information) shared by every policy,
with one reward tape (common random numbers); policy randomness comes from streams named after
the policy.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

import numpy as np

from bandit_lib.data.jester import jester_summary, load_jester, normalise
from bandit_lib.experiment import Experiment, Figure, Unit
from bandit_lib.graphs.candidates import candidate_set_complete, eliminate_partial
from bandit_lib.graphs.domination import exploration_values
from bandit_lib.graphs.lower_bound import lower_bound_rates
from bandit_lib.graphs.uig import reveal, similarity_graph, umbrella_ordering
from bandit_lib.instances.jester_like import jester_like
from bandit_lib.instances.uig_instances import clustered_instance, instance_from_means, line_instance, random_instance
from bandit_lib.metrics import pseudo_regret
from bandit_lib.policies.base import simulate
from bandit_lib.policies.ckl_ucb import CKLUCB
from bandit_lib.policies.lsdt_csi import LSDTCSI, run_lsdt_csi_fast
from bandit_lib.policies.lsdt_psi import LSDTPSI
from bandit_lib.policies.lsdt_ts import LSDTTSComplete, LSDTTSPartial
from bandit_lib.policies.osub import OSUB
from bandit_lib.policies.ossb import OSSB
from bandit_lib.policies.ts import ThompsonSampling, replay_ts_fast
from bandit_lib.policies.ucb1 import UCB1, replay_ucb1_fast, run_ucb1_fast
from bandit_lib.recommendation import pair_distances, replay, replay_outcome, select_epsilon, side_information
from bandit_lib.seeding import derive, generator
from bandit_lib.tapes import bernoulli_tape, decision_stream, gaussian_tape

PAPER = "uig"
CHAPTER = "notebooks/uig"
JESTER_ENV = "UIG_JESTER"
JESTER_DATA_SEED = 20010401  # the stand-in data set is one fixed data set, like the real one

PROFILES = {
    "quick": {
        "fig4a": {"K": 30, "eps": [round(0.1 * i, 2) for i in range(11)], "reps": 5},
        "fig4b": {"K": [10, 30, 60], "eps": 0.2, "reps": 5},
        "fig5a": {"K": 30, "eps": 0.2, "p": [0.2, 0.5, 0.8, 1.0], "reps": 5},
        "fig5b": {"K": [10, 30, 60], "eps": 0.2, "p": 0.5, "reps": 5},
        "csi": {"K": 20, "eps": 0.2, "T": 200, "reps": 3, "block": 3},
        "psi": {"K": 20, "eps": 0.2, "p": 0.7, "T": [50, 100, 200], "reps": 3, "block": 3},
        "ts_psi": {"K": 30, "eps": 0.2, "p": 0.7, "T": 200, "reps": 3, "block": 3},
        "jester": {"n_users": 2000, "test": 1500, "reps": 2, "block": 2},
        "timing": {"reps": 1},
        "theory": {"log_T": [100, 300, 1000], "log_reps": 3, "psi_T": [100, 300], "K": [10, 20],
                   "K_T": 500, "K_reps": 3, "clusters": [3, 6], "cluster_reps": 20},
    },
    "full": {
        "fig4a": {"K": 100, "eps": [round(0.01 * i, 2) for i in range(101)], "reps": 100},
        "fig4b": {"K": list(range(10, 201, 10)), "eps": 0.2, "reps": 100},
        "fig5a": {"K": 100, "eps": 0.2, "p": [round(0.1 * i, 1) for i in range(1, 11)], "reps": 100},
        "fig5b": {"K": list(range(10, 151, 10)), "eps": 0.2, "p": 0.5, "reps": 100},
        "csi": {"K": 100, "eps": 0.1, "T": 1000, "reps": 100, "block": 10},
        "psi": {"K": 100, "eps": 0.1, "p": 0.5, "T": list(range(100, 1001, 100)), "reps": 100, "block": 10},
        "ts_psi": {"K": 200, "eps": 0.1, "p": 0.5, "T": 1000, "reps": 100, "block": 20},
        "jester": {"n_users": 24983, "test": 20000, "reps": 100, "block": 10},
        "timing": {"reps": 10},
        "theory": {"log_T": [1000, 3000, 10000, 30000, 100000], "log_reps": 100, "psi_T": [1000, 10000, 100000],
                   "K": [10, 20, 50, 100, 200], "K_T": 10000, "K_reps": 50, "clusters": [5, 10, 20, 40],
                   "cluster_reps": 200},
    },
}


def _grid(T: int) -> list[int]:
    """Horizons at which anytime regret is recorded: 10, 20, .., 100, then every 50."""
    return sorted({t for t in list(range(10, 101, 10)) + list(range(150, T + 1, 50)) if t <= T} | {T})


def _blocks(reps: int, block: int) -> list[tuple[int, int]]:
    return [(start, min(start + block, reps)) for start in range(0, reps, block)]


def _regret_at(means, arms, grid) -> list[float]:
    regret = pseudo_regret(means, arms)
    return [round(float(regret[t - 1]), 4) for t in grid]


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


# --- Figs 4 and 5: reduction of the action space -------------------------------------------

def compute_reduction(seed, figure: str, K, eps, reps: int, p=None) -> dict:
    """|B*| (CSI-OFF) or |B0| (PSI-OFF; at p = 1 CSI-OFF, the paper's rule) over repetitions.

    Fig. 4a and 5a sweep eps or p over the same arms (and the same revelation uniforms) in each
    repetition, so the curves are paired; Fig. 4b and 5b draw fresh arms for every K.
    """
    rows = []
    for r in range(reps):
        if figure in ("fig4a", "fig5a"):
            means = generator(seed, "means", r).uniform(0.0, 1.0, K)
            order = np.argsort(means, kind="stable")
            if figure == "fig4a":
                for e in eps:
                    A = similarity_graph(means, e)
                    rows.append({"rep": r, "eps": e, "K": K, "size": len(candidate_set_complete(A, order=order))})
            else:
                A = similarity_graph(means, eps)
                csi = len(candidate_set_complete(A, order=order))
                for q in p:
                    S, D = reveal(A, q, q, generator(seed, "reveal", r))
                    psi = len(eliminate_partial(S, D))
                    rows.append({"rep": r, "p": q, "K": K, "size": csi if q == 1.0 else psi, "psi_off": psi, "csi": csi})
        else:
            for k in K:
                rng = generator(seed, "instance", r, k)
                means = rng.uniform(0.0, 1.0, k)
                A = similarity_graph(means, eps)
                csi = len(candidate_set_complete(A, order=np.argsort(means, kind="stable")))
                row = {"rep": r, "K": k, "eps": eps, "csi": csi}
                if figure == "fig5b":
                    S, D = reveal(A, p, p, rng)
                    row["size"] = len(eliminate_partial(S, D))
                else:
                    row["size"] = csi
                rows.append(row)
    return {"rows": rows}


def plan_reduction_csi(profile: str) -> list[Unit]:
    cfg = PROFILES[profile]
    return [Unit("fig4a", {"figure": "fig4a", **cfg["fig4a"]}), Unit("fig4b", {"figure": "fig4b", **cfg["fig4b"]})]


def plan_reduction_psi(profile: str) -> list[Unit]:
    cfg = PROFILES[profile]
    return [Unit("fig5a", {"figure": "fig5a", **cfg["fig5a"]}), Unit("fig5b", {"figure": "fig5b", **cfg["fig5b"]})]


# --- Figs 6 and 9: regret with complete side information -----------------------------------

CSI_POLICIES = (
    "LSDT-CSI", "LSDT-CSI (α=2)", "UCB1", "UCB1 (α=2)", "UCB1 on B*", "UCB1 on B* (α=2)",
    "TS", "TS (Gaussian)", "TS on B*", "LSDT-TS", "CKL-UCB", "CKL-UCB (1-hop, no init)",
    "CKL-UCB (hop, init)", "CKL-UCB (hop, no init)", "OSUB", "OSSB", "OSSB (leader in B*)",
)
CKL_VARIANTS = {
    "CKL-UCB": ("one_hop", True),
    "CKL-UCB (1-hop, no init)": ("one_hop", False),
    "CKL-UCB (hop, init)": ("hop", True),
    "CKL-UCB (hop, no init)": ("hop", False),
}


def csi_policy_run(name: str, inst, tape, T: int, seed) -> np.ndarray:
    """Arms played by policy ``name`` (a CSI_POLICIES entry) over T rounds on ``tape``."""
    K = inst.n_arms
    stream = decision_stream(seed, name)
    rng = generator(seed, "policy", name)
    if name.startswith("LSDT-CSI"):
        return run_lsdt_csi_fast(tape, inst.classes, T, stream, alpha=2.0 if "α=2" in name else 8.0)
    if name.startswith("UCB1"):
        arms = inst.candidates if "B*" in name else None
        return run_ucb1_fast(tape, T, stream, arms=arms, alpha=2.0 if "α=2" in name else 8.0)
    if name.startswith("CKL-UCB"):
        metric, init = CKL_VARIANTS[name]
        policy = CKLUCB(inst.A, inst.eps, kl="gaussian", metric=metric, init=init)
    elif name == "TS":
        policy = ThompsonSampling(K, rng)
    elif name == "TS (Gaussian)":
        policy = ThompsonSampling(K, rng, model="gaussian")
    elif name == "TS on B*":
        policy = ThompsonSampling(K, rng, arms=inst.candidates)
    elif name == "LSDT-TS":
        policy = LSDTTSComplete(inst.classes, K, rng)
    elif name == "OSUB":
        policy = OSUB(inst.A, stream)
    elif name.startswith("OSSB"):
        policy = OSSB(inst.A, stream, candidates=inst.candidates, leader="candidates" if "B*" in name else "all")
    else:
        raise ValueError(f"unknown CSI policy {name!r}; known: {CSI_POLICIES}")
    return simulate(policy, tape, T)


def compute_regret_csi(seed, K: int, eps: float, T: int, first: int, last: int, policies) -> dict:
    grid = _grid(T)
    regret = {name: [] for name in policies}
    seconds = {name: [] for name in policies}
    rows = []
    for r in range(first, last):
        rep = derive(seed, "rep", r)
        inst = random_instance(generator(rep, "instance"), K, eps, low=0.1, high=1.0)
        tape = gaussian_tape(inst.means, 1.0, derive(rep, "rewards"))
        for name in policies:
            arms, elapsed = _timed(lambda: csi_policy_run(name, inst, tape.rewind(), T, rep))
            regret[name].append(_regret_at(inst.means, arms, grid))
            seconds[name].append(round(elapsed, 5))
        rows.append({"rep": r, **inst.summary(), "C1": lower_bound_rates(inst.A, inst.means)[1]})
    return {"rows": rows, "grid": grid, "regret": regret, "seconds": seconds}


def plan_regret_csi(profile: str) -> list[Unit]:
    cfg = PROFILES[profile]["csi"]
    return [Unit(f"reps={a}-{b - 1}", {"K": cfg["K"], "eps": cfg["eps"], "T": cfg["T"], "first": a, "last": b,
                                       "policies": list(CSI_POLICIES)})
            for a, b in _blocks(cfg["reps"], cfg["block"])]


# --- Fig 7: regret with partial side information -------------------------------------------

PSI_BASELINES = ("UCB1", "UCB1 on B0", "TS", "CKL-UCB", "CKL-UCB (1-hop, no init)", "CKL-UCB (hop, init)",
                 "CKL-UCB (hop, no init)")


def psi_policy_run(name: str, inst, tape, T: int, seed, *, lam: float = 1 / 8) -> np.ndarray:
    K = inst.n_arms
    stream = decision_stream(seed, name, T)
    if name == "LSDT-PSI":
        return simulate(LSDTPSI(inst.B0, inst.S, T, inst.eps, stream, lam=lam, z=inst.z), tape, T)
    if name == "UCB1":
        return run_ucb1_fast(tape, T, stream)
    if name == "UCB1 on B0":
        return run_ucb1_fast(tape, T, stream, arms=inst.B0)
    if name == "TS":
        return simulate(ThompsonSampling(K, generator(seed, "policy", name)), tape, T)
    if name == "TS on B0":
        return simulate(ThompsonSampling(K, generator(seed, "policy", name), arms=inst.B0), tape, T)
    if name == "LSDT-TS":
        return simulate(LSDTTSPartial(inst.B0, inst.S, T, inst.eps, generator(seed, "policy", name)), tape, T)
    if name.startswith("CKL-UCB"):
        metric, init = CKL_VARIANTS[name]
        return simulate(CKLUCB(inst.S, inst.eps, kl="bernoulli", metric=metric, init=init), tape, T)
    raise ValueError(f"unknown PSI policy {name!r}")


def compute_regret_psi(seed, K: int, eps: float, p: float, T, first: int, last: int, baselines) -> dict:
    horizons = list(T)
    grid = horizons
    regret = {name: [] for name in ["LSDT-PSI", *baselines]}
    seconds = {name: [] for name in ["LSDT-PSI", *baselines]}
    rows = []
    for r in range(first, last):
        rep = derive(seed, "rep", r)
        inst, offline = _timed(lambda: random_instance(generator(rep, "instance"), K, eps, low=0.1, high=0.9, p=p))
        tape = bernoulli_tape(inst.means, derive(rep, "rewards"))
        curve, elapsed = [], 0.0
        for h in horizons:
            arms, dt = _timed(lambda: psi_policy_run("LSDT-PSI", inst, tape.rewind(), h, rep))
            curve.append(round(float(pseudo_regret(inst.means, arms)[-1]), 4))
            elapsed += dt if h == horizons[-1] else 0.0
        regret["LSDT-PSI"].append(curve)
        seconds["LSDT-PSI"].append(round(elapsed, 5))
        for name in baselines:
            arms, dt = _timed(lambda: psi_policy_run(name, inst, tape.rewind(), horizons[-1], rep))
            regret[name].append(_regret_at(inst.means, arms, grid))
            seconds[name].append(round(dt, 5))
        rows.append({"rep": r, **inst.summary()})
    return {"rows": rows, "grid": grid, "regret": regret, "seconds": seconds}


def plan_regret_psi(profile: str) -> list[Unit]:
    cfg = PROFILES[profile]["psi"]
    return [Unit(f"reps={a}-{b - 1}", {"K": cfg["K"], "eps": cfg["eps"], "p": cfg["p"], "T": cfg["T"], "first": a,
                                       "last": b, "baselines": list(PSI_BASELINES)})
            for a, b in _blocks(cfg["reps"], cfg["block"])]


# --- Fig 10: Thompson sampling with partial side information --------------------------------

TS_PSI_POLICIES = ("LSDT-TS", "TS", "TS on B0")


def compute_ts_psi(seed, K: int, eps: float, p: float, T: int, first: int, last: int, policies) -> dict:
    grid = _grid(T)
    regret = {name: [] for name in policies}
    rows = []
    for r in range(first, last):
        rep = derive(seed, "rep", r)
        inst = random_instance(generator(rep, "instance"), K, eps, low=0.1, high=0.9, p=p, with_z=False)
        tape = bernoulli_tape(inst.means, derive(rep, "rewards"))
        for name in policies:
            regret[name].append(_regret_at(inst.means, psi_policy_run(name, inst, tape.rewind(), T, rep), grid))
        rows.append({"rep": r, "K": K, "B0": len(inst.B0), "B*": len(inst.candidates)})
    return {"rows": rows, "grid": grid, "regret": regret}


def plan_ts_psi(profile: str) -> list[Unit]:
    cfg = PROFILES[profile]["ts_psi"]
    return [Unit(f"reps={a}-{b - 1}", {"K": cfg["K"], "eps": cfg["eps"], "p": cfg["p"], "T": cfg["T"], "first": a,
                                       "last": b, "policies": list(TS_PSI_POLICIES)})
            for a, b in _blocks(cfg["reps"], cfg["block"])]


# --- Fig 8: joke recommendation -------------------------------------------------------------

JESTER_POLICIES = ("LSDT-PSI", "UCB1", "TS", "CKL-UCB", "UCB1 on B0")
JESTER_SPLITS = {0.05: 0.2, 0.10: 0.1}  # training fraction -> alpha (UIG decision 8.9)


def jester_ratings(data: str, n_users: int) -> np.ndarray:
    """The ratings the experiment runs on: the stand-in, or a local copy of Jester dataset 1."""
    if data == "jester-like":
        return jester_like(JESTER_DATA_SEED, n_users=n_users)
    return load_jester(Path(data))


def compute_jester(seed, data: str, n_users: int, test: int, train: float, alpha: float, first: int, last: int,
                   policies, lam: float = 1 / 32) -> dict:
    raw = jester_ratings(data, n_users)
    R = normalise(raw)
    n_train = round(train * len(R))
    if n_train + test > len(R):
        raise ValueError(f"{len(R)} users cannot hold {n_train} training and {test} test users")
    rows, traces = [], []
    for r in range(first, last):
        rep = derive(seed, "rep", r)
        users = generator(rep, "split").permutation(len(R))
        train_users, test_users = users[:n_train], users[n_train:n_train + test]
        d = pair_distances(R[train_users])
        (eps, trace), offline = _timed(lambda: select_epsilon(d, alpha))
        S, D = side_information(d, eps, alpha)
        B0 = eliminate_partial(S, D)
        z = exploration_values(S[np.ix_(B0, B0)])
        test_ratings = R[test_users]
        joke_means = np.nanmean(test_ratings, axis=0)
        order = generator(rep, "order").permutation(test)
        row = {"rep": r, "train": train, "alpha": alpha, "eps": eps, "B0": len(B0),
               "best joke in B0": bool(np.argmax(joke_means) in B0), "best joke": float(joke_means.max()),
               "S edges": int(S.sum() // 2), "D edges": int(D.sum() // 2), "offline seconds": round(offline, 4)}
        for name in policies:
            (arms, users), elapsed = _timed(lambda: jester_run(name, test_ratings, order, B0, S, eps, z, lam, rep))
            out = replay_outcome(test_ratings, arms, users)
            row[name] = out["mean_reward"]
            row[f"{name} valid"] = out["valid"]
            row[f"{name} seconds"] = round(elapsed, 3)
        rows.append(row)
        if r == first:
            traces.append({"rep": r, "trace": [[e, s] for e, s in trace]})
    summary = jester_summary(raw) if first == 0 else None
    return {"rows": rows, "traces": traces, "data": data, "summary": summary}


def jester_run(name: str, ratings, order, B0, S, eps: float, z, lam: float, seed) -> tuple[np.ndarray, np.ndarray]:
    """Replay of policy ``name`` (a JESTER_POLICIES entry): the arms and users of its valid events.

    UCB1 and TS run on their numba replay engines, which take the readable policies' decisions
    under :func:`bandit_lib.recommendation.replay` (the tests check this).
    """
    stream = decision_stream(seed, name)
    if name == "UCB1":
        return replay_ucb1_fast(ratings, order, stream)
    if name == "UCB1 on B0":
        return replay_ucb1_fast(ratings, order, stream, arms=B0)
    if name == "TS":
        return replay_ts_fast(ratings, order, generator(seed, "policy", name))
    if name == "LSDT-PSI":
        policy = LSDTPSI(B0, S, len(order), eps, stream, lam=lam, z=z)
    elif name == "CKL-UCB":
        policy = CKLUCB(S, eps, kl="squared", metric="one_hop", init=True)
    else:
        raise ValueError(f"unknown Jester policy {name!r}; known: {JESTER_POLICIES}")
    out = replay(policy, ratings, order)
    return out["arms"], out["users"]


def plan_jester(profile: str) -> list[Unit]:
    cfg = PROFILES[profile]["jester"]
    data = os.environ.get(JESTER_ENV, "jester-like")
    return [Unit(f"train={train:g},reps={a}-{b - 1}",
                 {"data": data, "n_users": cfg["n_users"], "test": cfg["test"], "train": train, "alpha": alpha,
                  "first": a, "last": b, "policies": list(JESTER_POLICIES)})
            for train, alpha in JESTER_SPLITS.items() for a, b in _blocks(cfg["reps"], cfg["block"])]


# --- Tables I and II: running times ---------------------------------------------------------

def compute_timing(seed, setting: str, reps: int, K: int, eps: float, T: int, p: float) -> dict:
    """Wall time per run of each policy, readable reference engines unless noted.

    Runs one after another in one process; the notebook reports medians over repetitions.
    """
    rows = []
    for r in range(reps):
        rep = derive(seed, "rep", r)
        row = {"rep": r}
        if setting == "csi":
            inst = random_instance(generator(rep, "instance"), K, eps, low=0.1, high=1.0)
            tape = gaussian_tape(inst.means, 1.0, derive(rep, "rewards"))
            stream = lambda name: decision_stream(rep, name)  # noqa: E731
            _, row["UIG recognition"] = _timed(lambda: umbrella_ordering(inst.A))
            _, row["LSDT-CSI (offline)"] = _timed(lambda: candidate_set_complete(inst.A, check=False))
            runs = {
                "UCB1": lambda: simulate(UCB1(K, stream("u"), alpha=8.0), tape.rewind(), T),
                "UCB1 (numba)": lambda: run_ucb1_fast(tape.rewind(), T, stream("u"), alpha=8.0),
                "TS": lambda: simulate(ThompsonSampling(K, generator(rep, "ts")), tape.rewind(), T),
                "CKL-UCB (numba index)": lambda: simulate(CKLUCB(inst.A, eps), tape.rewind(), T),
                "OSUB": lambda: simulate(OSUB(inst.A, stream("osub")), tape.rewind(), T),
                "OSSB (closed form)": lambda: simulate(OSSB(inst.A, stream("ossb"), candidates=inst.candidates),
                                                       tape.rewind(), T),
                "OSSB (linprog)": lambda: simulate(OSSB(inst.A, stream("ossb"), candidates=inst.candidates,
                                                        solver="linprog"), tape.rewind(), T),
                "LSDT-CSI (online)": lambda: simulate(LSDTCSI(inst.classes, K, stream("l")), tape.rewind(), T),
                "LSDT-CSI (online, numba)": lambda: run_lsdt_csi_fast(tape.rewind(), inst.classes, T, stream("l")),
                "UCB1 on B*": lambda: simulate(UCB1(K, stream("b"), arms=inst.candidates, alpha=8.0), tape.rewind(), T),
            }
            arms = {}
            for name, fn in runs.items():
                arms[name], row[name] = _timed(fn)
            row["OSSB solvers agree"] = bool(np.array_equal(arms["OSSB (closed form)"], arms["OSSB (linprog)"]))
            row["numba engines agree"] = bool(np.array_equal(arms["UCB1"], arms["UCB1 (numba)"])
                                              and np.array_equal(arms["LSDT-CSI (online)"], arms["LSDT-CSI (online, numba)"]))
        else:
            rng = generator(rep, "instance")
            means = rng.uniform(0.1, 0.9, K)
            A = similarity_graph(means, eps)
            S, D = reveal(A, p, p, rng)
            B0, row["LSDT-PSI (offline)"] = _timed(lambda: eliminate_partial(S, D))
            tape = bernoulli_tape(means, derive(rep, "rewards"))
            runs = {
                "UCB1": lambda: simulate(UCB1(K, decision_stream(rep, "u")), tape.rewind(), T),
                "TS": lambda: simulate(ThompsonSampling(K, generator(rep, "ts")), tape.rewind(), T),
                "CKL-UCB (numba index)": lambda: simulate(CKLUCB(S, eps, kl="bernoulli"), tape.rewind(), T),
                "LSDT-PSI (online)": lambda: simulate(LSDTPSI(B0, S, T, eps, decision_stream(rep, "l")), tape.rewind(), T),
                "UCB1 on B0": lambda: simulate(UCB1(K, decision_stream(rep, "b"), arms=B0), tape.rewind(), T),
            }
            for name, fn in runs.items():
                _, row[name] = _timed(fn)
        rows.append({k: (round(v * 1000, 3) if isinstance(v, float) else v) for k, v in row.items()})
    return {"rows": rows, "unit": "milliseconds per run"}


def plan_timing(profile: str) -> list[Unit]:
    """The Fig. 6 and Fig. 7 settings at T = 1000 (the paper's tables); smaller in the quick profile."""
    cfg = PROFILES[profile]
    reps = cfg["timing"]["reps"]
    csi, psi = cfg["csi"], cfg["psi"]
    return [Unit("csi", {"setting": "csi", "reps": reps, "K": csi["K"], "eps": csi["eps"], "T": csi["T"], "p": 1.0}),
            Unit("psi", {"setting": "psi", "reps": reps, "K": psi["K"], "eps": psi["eps"], "T": max(psi["T"]),
                         "p": psi["p"]})]


# --- Theory checks ---------------------------------------------------------------------------

THEORY_EPS = 0.3
THEORY_TOP = (1.0, 0.9)


def theorem2_bound(means, top, bottom) -> float:
    """The constant of log T in Theorem 2 (sigma = 1): 32 max_{C_min} D / (min_{C_min} D -
    max_{C_max} D)^2 + sum_{C_max minus optimal} 32 / D."""
    gaps = means.max() - means
    suboptimal = top[gaps[top] > 0]
    return float(32 * gaps[bottom].max() / (gaps[bottom].min() - gaps[top].max()) ** 2 + (32 / gaps[suboptimal]).sum())


def compute_theory(seed, check: str, **cfg) -> dict:
    rows = []
    if check == "log_growth":
        # Designed instance with gaps >= 0.1: top class {1.0, 0.9}, middle arms on [0, 0.6], K = 20.
        means = line_instance(20, top=THEORY_TOP)
        inst = instance_from_means(means, THEORY_EPS)
        top = inst.classes[[int(np.argmax(means)) in c for c in inst.classes].index(True)]
        bottom = inst.classes[[int(np.argmin(means)) in c for c in inst.classes].index(True)]
        Tmax = max(cfg["log_T"])
        for r in range(cfg["log_reps"]):
            rep = derive(seed, "rep", r)
            tape = gaussian_tape(means, 1.0, derive(rep, "rewards"))
            for name, run in (("LSDT-CSI", lambda t: run_lsdt_csi_fast(t, inst.classes, Tmax, decision_stream(rep, "l"))),
                              ("UCB1", lambda t: run_ucb1_fast(t, Tmax, decision_stream(rep, "u"), alpha=8.0))):
                regret = pseudo_regret(means, run(tape.rewind()))
                rows += [{"rep": r, "policy": name, "T": T, "regret": float(regret[T - 1])} for T in cfg["log_T"]]
        # LSDT-PSI on a Bernoulli version (means scaled into [0.1, 0.9]) with p = 0.8, one run per T.
        psi_means = 0.1 + 0.8 * means
        for r in range(max(1, cfg["log_reps"] // 4)):
            rep = derive(seed, "psi rep", r)
            pinst = instance_from_means(psi_means, THEORY_EPS * 0.8, p=0.8, rng=generator(rep, "reveal"))
            tape = bernoulli_tape(psi_means, derive(rep, "rewards"))
            for T in cfg["psi_T"]:
                arms = psi_policy_run("LSDT-PSI", pinst, tape.rewind(), T, rep)
                rows.append({"rep": r, "policy": "LSDT-PSI", "T": T, "regret": float(pseudo_regret(psi_means, arms)[-1]),
                             "B0": len(pinst.B0), "C2": float(pinst.z.sum())})
        return {"rows": rows, "means": means.tolist(), "eps": THEORY_EPS, "classes": [c.tolist() for c in inst.classes],
                "bound": theorem2_bound(means, top, bottom), "C1": lower_bound_rates(inst.A, means)[1]}
    if check == "scaling_K":
        for K in cfg["K"]:
            means = line_instance(K, top=THEORY_TOP)
            inst = instance_from_means(means, THEORY_EPS)
            for r in range(cfg["K_reps"]):
                rep = derive(seed, "rep", r, K)
                tape = gaussian_tape(means, 1.0, derive(rep, "rewards"))
                for name, arms in (("LSDT-CSI", run_lsdt_csi_fast(tape.rewind(), inst.classes, cfg["K_T"], decision_stream(rep, "l"))),
                                   ("UCB1", run_ucb1_fast(tape.rewind(), cfg["K_T"], decision_stream(rep, "u"), alpha=8.0)),
                                   ("UCB1 on B*", run_ucb1_fast(tape.rewind(), cfg["K_T"], decision_stream(rep, "b"),
                                                                arms=inst.candidates, alpha=8.0))):
                    rows.append({"rep": r, "K": K, "B*": len(inst.candidates), "policy": name,
                                 "regret": float(pseudo_regret(means, arms)[-1])})
        return {"rows": rows, "T": cfg["K_T"]}
    if check == "clustered":
        eps, p, m = 0.1, 0.8, 6
        for N in cfg["clusters"]:
            means, cluster = clustered_instance(m, N, eps)
            A = similarity_graph(means, eps)
            B = candidate_set_complete(A, order=np.argsort(means, kind="stable"))
            middle = np.flatnonzero((cluster > 0) & (cluster < m - 1))
            bottom = np.flatnonzero(cluster == 0)
            for r in range(cfg["cluster_reps"]):
                S, D = reveal(A, p, p, generator(seed, "reveal", N, r))
                B0 = eliminate_partial(S, D)
                z = exploration_values(S[np.ix_(B0, B0)])
                zmap = dict(zip(B0.tolist(), z))
                rows.append({"N": N, "rep": r, "K": m * N, "B*": len(B), "B0": len(B0),
                             "survivors": int(np.isin(middle, B0).sum()), "middle": len(middle),
                             "C2 on C_min": float(sum(zmap.get(i, 0.0) for i in bottom))})
        return {"rows": rows, "p": p, "eps": eps, "clusters": m}
    raise ValueError(f"unknown theory check {check!r}")


def plan_theory(profile: str) -> list[Unit]:
    cfg = PROFILES[profile]["theory"]
    return [Unit("log_growth", {"check": "log_growth", "log_T": cfg["log_T"], "log_reps": cfg["log_reps"],
                                "psi_T": cfg["psi_T"]}),
            Unit("scaling_K", {"check": "scaling_K", "K": cfg["K"], "K_T": cfg["K_T"], "K_reps": cfg["K_reps"]}),
            Unit("clustered", {"check": "clustered", "clusters": cfg["clusters"], "cluster_reps": cfg["cluster_reps"]})]


# --- registry -------------------------------------------------------------------------------

_COMMON = {"paper": PAPER, "chapter": CHAPTER}

REDUCTION_CSI = Experiment(name="reduction_csi", title="Size of the candidate set under complete side information",
                           compute=compute_reduction, plan=plan_reduction_csi, entropy=6041, **_COMMON,
                           figures=(Figure("Fig. 4", "|B*| against ε and |B*|/K against K"),))
REDUCTION_PSI = Experiment(name="reduction_psi", title="Size of the offline set under partial side information",
                           compute=compute_reduction, plan=plan_reduction_psi, entropy=6052, **_COMMON,
                           figures=(Figure("Fig. 5", "|B0| against p and |B0|/K against K"),))
REGRET_CSI = Experiment(name="regret_csi", title="Regret with complete side information",
                        compute=compute_regret_csi, plan=plan_regret_csi, entropy=6063, **_COMMON,
                        figures=(Figure("Fig. 6", "Regret against T, complete side information"),
                                 Figure("Fig. 9", "LSDT-TS (CSI) against TS")))
REGRET_PSI = Experiment(name="regret_psi", title="Regret with partial side information",
                        compute=compute_regret_psi, plan=plan_regret_psi, entropy=6074, **_COMMON,
                        figures=(Figure("Fig. 7", "Regret against T, partial side information"),))
TS_PSI = Experiment(name="ts_psi", title="Thompson sampling with partial side information (K = 200)",
                    compute=compute_ts_psi, plan=plan_ts_psi, entropy=6100, **_COMMON,
                    figures=(Figure("Fig. 10", "LSDT-TS (PSI) against TS"),))
JESTER = Experiment(name="jester", title="Joke recommendation replay (Jester-like stand-in)",
                    compute=compute_jester, plan=plan_jester, entropy=6080, **_COMMON,
                    figures=(Figure("Fig. 8", "Average rating per user on the Jester-like stand-in"),))
TIMING = Experiment(name="timing", title="Running times per run", compute=compute_timing, plan=plan_timing,
                    entropy=6111, **_COMMON, figures=(Figure("Table I", "Running times, complete side information"),
                                                      Figure("Table II", "Running times, partial side information")))
THEORY = Experiment(name="theory", title="Theory checks", compute=compute_theory, plan=plan_theory, entropy=6122,
                    **_COMMON, figures=(Figure("Theory", "Regret against log T and K; Theorem 5 on clustered arms"),))
