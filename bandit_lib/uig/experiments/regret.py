"""UIG chapter, Figs. 6, 7, 9 and 10: regret of LSDT and the baselines.

* ``regret_csi`` (Figs. 6 and 9): n = 100, means U[0.1, 1], ε = 0.1, Gaussian rewards (σ = 1);
  every policy on the same instance and reward tape; regret at a grid of T up to 1000.
* ``regret_psi`` (Fig. 7): n = 100, means U[0.1, 0.9], ε = 0.1, p = 0.5, Bernoulli rewards;
  LSDT-PSI is run once per horizon T (it depends on T), the anytime baselines once to 1000.
* ``ts_psi`` (Fig. 10): the Fig. 7 setting with n = 200, Thompson-sampling variants.

Each repetition draws a fresh instance (means, graph, side information) shared by every policy,
with one reward tape (common random numbers); policy randomness comes from streams named after
the policy. LSDT-CSI and UCB1 run on their numba engines (the same decisions as the readable
policies; the tests check this), the others as readable policies.
"""

from __future__ import annotations

import numpy as np

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.metrics import pseudo_regret
from bandit_lib.seeding import derive, generator
from bandit_lib.tapes import bernoulli_tape, decision_stream, gaussian_tape
from bandit_lib.uig.ckl_ucb import CKLUCB
from bandit_lib.uig.experiments.common import CHAPTER, PAPER, blocks, regret_at, regret_grid, timed
from bandit_lib.uig.instances import random_instance
from bandit_lib.uig.lower_bound import lower_bound_rates
from bandit_lib.uig.lsdt_csi import run_lsdt_csi_fast
from bandit_lib.uig.lsdt_psi import LSDTPSI
from bandit_lib.uig.lsdt_ts import LSDTTSComplete, LSDTTSPartial
from bandit_lib.uig.ossb import OSSB
from bandit_lib.uig.osub import OSUB
from bandit_lib.uig.protocol import simulate
from bandit_lib.uig.ts import ThompsonSampling
from bandit_lib.uig.ucb1 import run_ucb1_fast

PROFILES = {
    "quick": {
        "csi": {"K": 20, "eps": 0.2, "T": 200, "reps": 3, "block": 3},
        "psi": {"K": 20, "eps": 0.2, "p": 0.7, "T": [50, 100, 200], "reps": 3, "block": 3},
        "ts_psi": {"K": 30, "eps": 0.2, "p": 0.7, "T": 200, "reps": 3, "block": 3},
    },
    "full": {
        "csi": {"K": 100, "eps": 0.1, "T": 1000, "reps": 100, "block": 10},
        "psi": {"K": 100, "eps": 0.1, "p": 0.5, "T": list(range(100, 1001, 100)), "reps": 100, "block": 10},
        "ts_psi": {"K": 200, "eps": 0.1, "p": 0.5, "T": 1000, "reps": 100, "block": 20},
    },
}


CSI_POLICIES = (
    "LSDT-CSI",
    "LSDT-CSI (α=2)",
    "UCB1",
    "UCB1 (α=2)",
    "UCB1 on B*",
    "UCB1 on B* (α=2)",
    "TS",
    "TS (Gaussian)",
    "TS on B*",
    "LSDT-TS",
    "CKL-UCB",
    "CKL-UCB (1-hop, no init)",
    "CKL-UCB (hop, init)",
    "CKL-UCB (hop, no init)",
    "OSUB",
    "OSSB",
    "OSSB (leader in B*)",
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
        return run_lsdt_csi_fast(tape, T, stream, classes=inst.classes, alpha=2.0 if "α=2" in name else 8.0)
    if name.startswith("UCB1"):
        arms = inst.candidates if "B*" in name else None
        return run_ucb1_fast(tape, T, stream, arms=arms, alpha=2.0 if "α=2" in name else 8.0)
    if name.startswith("CKL-UCB"):
        metric, init = CKL_VARIANTS[name]
        policy = CKLUCB(inst.A, eps=inst.eps, kl="gaussian", metric=metric, init=init)
    elif name == "TS":
        policy = ThompsonSampling(K, rng)
    elif name == "TS (Gaussian)":
        policy = ThompsonSampling(K, rng, model="gaussian")
    elif name == "TS on B*":
        policy = ThompsonSampling(K, rng, arms=inst.candidates)
    elif name == "LSDT-TS":
        policy = LSDTTSComplete(K, rng, classes=inst.classes)
    elif name == "OSUB":
        policy = OSUB(inst.A, stream)
    elif name.startswith("OSSB"):
        policy = OSSB(inst.A, stream, candidates=inst.candidates, leader="candidates" if "B*" in name else "all")
    else:
        raise ValueError(f"unknown CSI policy {name!r}; known: {CSI_POLICIES}")
    return simulate(policy, tape, T)


def compute_regret_csi(seed, K: int, eps: float, T: int, first: int, last: int, policies) -> dict:
    grid = regret_grid(T)
    regret = {name: [] for name in policies}
    seconds = {name: [] for name in policies}
    rows = []
    for r in range(first, last):
        rep = derive(seed, "rep", r)
        inst = random_instance(generator(rep, "instance"), K, eps, low=0.1, high=1.0)
        tape = gaussian_tape(inst.means, 1.0, derive(rep, "rewards"))
        for name in policies:
            arms, elapsed = timed(lambda: csi_policy_run(name, inst, tape.rewind(), T, rep))
            regret[name].append(regret_at(inst.means, arms, grid))
            seconds[name].append(round(elapsed, 5))
        rows.append({"rep": r, **inst.summary(), "C1": lower_bound_rates(inst.A, inst.means)[1]})
    return {"rows": rows, "grid": grid, "regret": regret, "seconds": seconds}


def plan_regret_csi(**cfg) -> list[Unit]:
    return [
        Unit(
            f"reps={a}-{b - 1}",
            {"K": cfg["K"], "eps": cfg["eps"], "T": cfg["T"], "first": a, "last": b, "policies": list(CSI_POLICIES)},
        )
        for a, b in blocks(cfg["reps"], cfg["block"])
    ]


# --- Fig 7: regret with partial side information -------------------------------------------

PSI_BASELINES = (
    "UCB1",
    "UCB1 on B0",
    "TS",
    "CKL-UCB",
    "CKL-UCB (1-hop, no init)",
    "CKL-UCB (hop, init)",
    "CKL-UCB (hop, no init)",
)


def psi_policy_run(name: str, inst, tape, T: int, seed, *, lam: float = 1 / 8) -> np.ndarray:
    K = inst.n_arms
    stream = decision_stream(seed, name, T)
    if name == "LSDT-PSI":
        return simulate(
            LSDTPSI(inst.S, stream, candidates=inst.B0, horizon=T, eps=inst.eps, lam=lam, z=inst.z), tape, T
        )
    if name == "UCB1":
        return run_ucb1_fast(tape, T, stream)
    if name == "UCB1 on B0":
        return run_ucb1_fast(tape, T, stream, arms=inst.B0)
    if name == "TS":
        return simulate(ThompsonSampling(K, generator(seed, "policy", name)), tape, T)
    if name == "TS on B0":
        return simulate(ThompsonSampling(K, generator(seed, "policy", name), arms=inst.B0), tape, T)
    if name == "LSDT-TS":
        return simulate(
            LSDTTSPartial(inst.S, generator(seed, "policy", name), candidates=inst.B0, horizon=T, eps=inst.eps), tape, T
        )
    if name.startswith("CKL-UCB"):
        metric, init = CKL_VARIANTS[name]
        return simulate(CKLUCB(inst.S, eps=inst.eps, kl="bernoulli", metric=metric, init=init), tape, T)
    raise ValueError(f"unknown PSI policy {name!r}")


def compute_regret_psi(seed, K: int, eps: float, p: float, T, first: int, last: int, baselines) -> dict:
    horizons = list(T)
    grid = horizons
    regret = {name: [] for name in ["LSDT-PSI", *baselines]}
    seconds = {name: [] for name in ["LSDT-PSI", *baselines]}
    rows = []
    for r in range(first, last):
        rep = derive(seed, "rep", r)
        inst, offline = timed(lambda: random_instance(generator(rep, "instance"), K, eps, low=0.1, high=0.9, p=p))
        tape = bernoulli_tape(inst.means, derive(rep, "rewards"))
        curve, elapsed = [], 0.0
        for h in horizons:
            arms, dt = timed(lambda: psi_policy_run("LSDT-PSI", inst, tape.rewind(), h, rep))
            curve.append(round(float(pseudo_regret(inst.means, arms)[-1]), 4))
            elapsed += dt if h == horizons[-1] else 0.0
        regret["LSDT-PSI"].append(curve)
        seconds["LSDT-PSI"].append(round(elapsed, 5))
        for name in baselines:
            arms, dt = timed(lambda: psi_policy_run(name, inst, tape.rewind(), horizons[-1], rep))
            regret[name].append(regret_at(inst.means, arms, grid))
            seconds[name].append(round(dt, 5))
        rows.append({"rep": r, **inst.summary()})
    return {"rows": rows, "grid": grid, "regret": regret, "seconds": seconds}


def plan_regret_psi(**cfg) -> list[Unit]:
    return [
        Unit(
            f"reps={a}-{b - 1}",
            {
                "K": cfg["K"],
                "eps": cfg["eps"],
                "p": cfg["p"],
                "T": cfg["T"],
                "first": a,
                "last": b,
                "baselines": list(PSI_BASELINES),
            },
        )
        for a, b in blocks(cfg["reps"], cfg["block"])
    ]


# --- Fig 10: Thompson sampling with partial side information --------------------------------

TS_PSI_POLICIES = ("LSDT-TS", "TS", "TS on B0")


def compute_ts_psi(seed, K: int, eps: float, p: float, T: int, first: int, last: int, policies) -> dict:
    grid = regret_grid(T)
    regret = {name: [] for name in policies}
    rows = []
    for r in range(first, last):
        rep = derive(seed, "rep", r)
        inst = random_instance(generator(rep, "instance"), K, eps, low=0.1, high=0.9, p=p, with_z=False)
        tape = bernoulli_tape(inst.means, derive(rep, "rewards"))
        for name in policies:
            regret[name].append(regret_at(inst.means, psi_policy_run(name, inst, tape.rewind(), T, rep), grid))
        rows.append({"rep": r, "K": K, "B0": len(inst.B0), "B*": len(inst.candidates)})
    return {"rows": rows, "grid": grid, "regret": regret}


def plan_ts_psi(**cfg) -> list[Unit]:
    return [
        Unit(
            f"reps={a}-{b - 1}",
            {
                "K": cfg["K"],
                "eps": cfg["eps"],
                "p": cfg["p"],
                "T": cfg["T"],
                "first": a,
                "last": b,
                "policies": list(TS_PSI_POLICIES),
            },
        )
        for a, b in blocks(cfg["reps"], cfg["block"])
    ]


REGRET_CSI = Experiment(
    paper=PAPER,
    chapter=CHAPTER,
    name="regret_csi",
    title="Regret with complete side information",
    compute=compute_regret_csi,
    plan=plan_regret_csi,
    grid={profile: PROFILES[profile]["csi"] for profile in PROFILES},
    entropy=6063,
    figures=(
        Figure("Fig. 6", "Regret against T, complete side information"),
        Figure("Fig. 9", "LSDT-TS (CSI) against TS"),
    ),
)
REGRET_PSI = Experiment(
    paper=PAPER,
    chapter=CHAPTER,
    name="regret_psi",
    title="Regret with partial side information",
    compute=compute_regret_psi,
    plan=plan_regret_psi,
    grid={profile: PROFILES[profile]["psi"] for profile in PROFILES},
    entropy=6074,
    figures=(Figure("Fig. 7", "Regret against T, partial side information"),),
)
TS_PSI = Experiment(
    paper=PAPER,
    chapter=CHAPTER,
    name="ts_psi",
    title="Thompson sampling with partial side information (n = 200)",
    compute=compute_ts_psi,
    plan=plan_ts_psi,
    grid={profile: PROFILES[profile]["ts_psi"] for profile in PROFILES},
    entropy=6100,
    figures=(Figure("Fig. 10", "LSDT-TS (PSI) against TS"),),
)
