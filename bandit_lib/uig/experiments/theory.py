"""UIG chapter: the theory checks.

* ``log_growth``: on a designed instance (Gaussian, σ = 1), LSDT-CSI's regret up to T = 10^6 and
  UCB1's up to 10^5, with Theorem 2's bound and Theorem 3's constant C1;
* ``log_growth_psi``: LSDT-PSI on a Bernoulli version of that instance with a random revelation
  (p = 0.8), one run per T, with Theorem 6's bound. It was part of ``log_growth`` (a unit of a minute)
  and still draws its repetitions from that unit's seed (:func:`log_growth_seed`), so the split
  changes no run; :func:`bandit_lib.uig.report.log_growth` joins the two payloads as they were.
* ``scaling_K``: the designed instance with more and more middle arms (the candidate set fixed):
  LSDT-CSI, UCB1 and UCB1 on B* at T = 10^4.
* ``clustered``: Theorem 5 and Corollary 1 on clustered instances (PSI-OFF only).
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.metrics import pseudo_regret
from bandit_lib.seeding import derive, generator
from bandit_lib.tapes import bernoulli_tape, decision_stream, gaussian_tape
from bandit_lib.uig.candidates import candidate_set_complete, eliminate_partial
from bandit_lib.uig.domination import exploration_values
from bandit_lib.uig.experiments.common import CHAPTER, PAPER
from bandit_lib.uig.instances import clustered_instance, instance_from_means, line_instance
from bandit_lib.uig.lower_bound import lower_bound_rates
from bandit_lib.uig.lsdt_csi import run_lsdt_csi_fast
from bandit_lib.uig.lsdt_psi import LSDTPSI
from bandit_lib.uig.problem import reveal, similarity_graph
from bandit_lib.uig.protocol import simulate
from bandit_lib.uig.ucb1 import run_ucb1_fast

PROFILES = {
    "quick": {
        "lsdt_T": [10, 30, 100, 300, 1000],
        "ucb_T": [100, 300, 1000],
        "log_reps": 3,
        "psi_T": [100, 300],
        "psi_reps": 2,
        "K": [10, 20],
        "K_T": 500,
        "K_reps": 3,
        "clusters": [3, 6],
        "cluster_reps": 20,
    },
    "full": {
        "lsdt_T": [1000, 3000, 10000, 30000, 100000, 300000, 1000000],
        "ucb_T": [1000, 3000, 10000, 30000, 100000],
        "log_reps": 100,
        "psi_T": [1000, 10000, 100000],
        "psi_reps": 25,
        "K": [10, 20, 50, 100, 200],
        "K_T": 10000,
        "K_reps": 50,
        "clusters": [5, 10, 20, 40],
        "cluster_reps": 200,
    },
}

# The designed instance: top class {1.0, 0.6} (gap 0.4), a connector at 0.55 similar to both, and
# middle arms evenly spread on [-1.5, 0.08], at eps = 0.5; the bottom arm is the bottom class alone,
# so |B*| = 3 whatever the number of arms.
DESIGN = {"top": (1.0, 0.6), "connector": 0.55, "middle_high": 0.08, "bottom": -1.5}
DESIGN_EPS = 0.5
DESIGN_K = 20
PSI_P = 0.8


def designed_means(K: int) -> np.ndarray:
    return line_instance(K, **DESIGN)


def theorem2_bound(means, top, bottom) -> float:
    """The constant of log T in Theorem 2 (sigma = 1): 32 max_{C_min} D / (min_{C_min} D -
    max_{C_max} D)^2 + sum over suboptimal arms of C_max of 32 / D."""
    gaps = means.max() - means
    suboptimal = top[gaps[top] > 0]
    return float(32 * gaps[bottom].max() / (gaps[bottom].min() - gaps[top].max()) ** 2 + (32 / gaps[suboptimal]).sum())


def theorem6_bound(means, B0, S, z, eps: float, T: int) -> float:
    """Theorem 6's bound without its O(``|B0|``) term (sigma = 1/2 rewards)."""
    gaps = means.max() - means
    closed = (S | np.eye(len(S), dtype=bool))[np.ix_(B0, B0)]
    total = 0.0
    for local, j in enumerate(B0):
        if gaps[j] == 0:
            continue
        if gaps[j] > 4 * eps:  # j in Q, far from the best
            d_hat = max(gaps[B0[closed[local]]].min() - 3 * eps, eps)
            total += gaps[j] * z[local] * 32 * math.log(T * d_hat**2) / d_hat**2
        else:
            total += gaps[j] * max(8 * math.log(T) / gaps[j] ** 2, 32 * z[local] * math.log(T * eps**2) / eps**2)
    return float(total)


def _log_growth(seed, cfg) -> dict:
    means = designed_means(DESIGN_K)
    inst = instance_from_means(means, DESIGN_EPS)
    top = next(c for c in inst.classes if int(np.argmax(means)) in c)
    bottom = next(c for c in inst.classes if int(np.argmin(means)) in c)
    rows = []
    for r in range(cfg["log_reps"]):
        rep = derive(seed, "rep", r)
        tape = gaussian_tape(means, 1.0, derive(rep, "rewards"))
        for name, horizons, run in (
            (
                "LSDT-CSI",
                cfg["lsdt_T"],
                lambda T: run_lsdt_csi_fast(tape.rewind(), T, decision_stream(rep, "l"), classes=inst.classes),
            ),
            ("UCB1", cfg["ucb_T"], lambda T: run_ucb1_fast(tape.rewind(), T, decision_stream(rep, "u"), alpha=8.0)),
        ):
            regret = pseudo_regret(means, run(max(horizons)))
            rows += [{"rep": r, "policy": name, "T": T, "regret": float(regret[T - 1])} for T in horizons]
    return {
        "rows": rows,
        "means": means.tolist(),
        "eps": DESIGN_EPS,
        "classes": [c.tolist() for c in inst.classes],
        "bound": theorem2_bound(means, top, bottom),
        "C1": lower_bound_rates(inst.A, means)[1],
        "psi_eps": psi_scale(means)[1],
        "p": PSI_P,
    }


def psi_scale(means: np.ndarray) -> tuple[np.ndarray, float]:
    """The designed instance mapped into [0.1, 0.9] (Bernoulli rewards) and ε scaled alike."""
    scale = 0.8 / (means.max() - means.min())
    return 0.1 + scale * (means - means.min()), DESIGN_EPS * scale


def log_growth_seed() -> np.random.SeedSequence:
    """The seed of the unit ``log_growth``, from which LSDT-PSI's repetitions are drawn too."""
    return THEORY.seed(Unit("log_growth"))


def _log_growth_psi(seed, cfg) -> dict:
    """LSDT-PSI's rows of ``log_growth``; ``seed`` (this unit's) is not used, see the module docstring."""
    seed = log_growth_seed()
    psi_means, psi_eps = psi_scale(designed_means(DESIGN_K))
    rows = []
    for r in range(cfg["psi_reps"]):
        rep = derive(seed, "psi rep", r)
        pinst = instance_from_means(psi_means, psi_eps, p=PSI_P, rng=generator(rep, "reveal"))
        tape = bernoulli_tape(psi_means, derive(rep, "rewards"))
        for T in cfg["psi_T"]:
            arms = simulate(
                LSDTPSI(pinst.S, decision_stream(rep, "p", T), candidates=pinst.B0, horizon=T, eps=psi_eps, z=pinst.z),
                tape.rewind(),
                T,
            )
            rows.append(
                {
                    "rep": r,
                    "policy": "LSDT-PSI",
                    "T": T,
                    "regret": float(pseudo_regret(psi_means, arms)[-1]),
                    "B0": len(pinst.B0),
                    "C2": float(pinst.z.sum()),
                    "bound": theorem6_bound(psi_means, pinst.B0, pinst.S, pinst.z, psi_eps, T),
                }
            )
    return {"rows": rows}


def _scaling_K(seed, cfg) -> dict:
    rows = []
    for K in cfg["K"]:
        means = designed_means(K)
        inst = instance_from_means(means, DESIGN_EPS)
        for r in range(cfg["K_reps"]):
            rep = derive(seed, "rep", r, K)
            tape = gaussian_tape(means, 1.0, derive(rep, "rewards"))
            runs = {
                "LSDT-CSI": run_lsdt_csi_fast(
                    tape.rewind(), cfg["K_T"], decision_stream(rep, "l"), classes=inst.classes
                ),
                "UCB1": run_ucb1_fast(tape.rewind(), cfg["K_T"], decision_stream(rep, "u"), alpha=8.0),
                "UCB1 on B*": run_ucb1_fast(
                    tape.rewind(), cfg["K_T"], decision_stream(rep, "b"), arms=inst.candidates, alpha=8.0
                ),
            }
            rows += [
                {
                    "rep": r,
                    "K": K,
                    "B*": len(inst.candidates),
                    "policy": name,
                    "regret": float(pseudo_regret(means, arms)[-1]),
                }
                for name, arms in runs.items()
            ]
    return {"rows": rows, "T": cfg["K_T"]}


def _clustered(seed, cfg) -> dict:
    eps, p, m = 0.1, 0.8, 6
    rows = []
    for N in cfg["clusters"]:
        means, cluster = clustered_instance(m, N, eps)
        A = similarity_graph(means, eps)
        B = candidate_set_complete(A, order=np.argsort(means, kind="stable"))
        middle = np.flatnonzero((cluster > 0) & (cluster < m - 1))
        bottom = np.flatnonzero(cluster == 0)
        for r in range(cfg["cluster_reps"]):
            S, D = reveal(A, p, p, generator(seed, "reveal", N, r))
            B0 = eliminate_partial(S, D)
            z = dict(zip(B0.tolist(), exploration_values(S[np.ix_(B0, B0)])))
            rows.append(
                {
                    "N": N,
                    "rep": r,
                    "K": m * N,
                    "B*": len(B),
                    "B0": len(B0),
                    "survivors": int(np.isin(middle, B0).sum()),
                    "middle": len(middle),
                    "C2 on C_min": float(sum(z.get(i, 0.0) for i in bottom)),
                }
            )
    return {"rows": rows, "p": p, "eps": eps, "clusters": m}


CHECKS = {
    "log_growth": _log_growth,
    "log_growth_psi": _log_growth_psi,
    "scaling_K": _scaling_K,
    "clustered": _clustered,
}


def compute_theory(seed, check: str, **cfg) -> dict:
    if check not in CHECKS:
        raise ValueError(f"unknown theory check {check!r}; known: {sorted(CHECKS)}")
    return CHECKS[check](seed, cfg)


def plan_theory(**cfg) -> list[Unit]:
    keys = {
        "log_growth": ("lsdt_T", "ucb_T", "log_reps"),
        "log_growth_psi": ("psi_T", "psi_reps"),
        "scaling_K": ("K", "K_T", "K_reps"),
        "clustered": ("clusters", "cluster_reps"),
    }
    return [Unit(check, {"check": check, **{k: cfg[k] for k in names}}) for check, names in keys.items()]


THEORY = Experiment(
    paper=PAPER,
    chapter=CHAPTER,
    name="theory",
    title="Theory checks",
    compute=compute_theory,
    plan=plan_theory,
    grid={profile: PROFILES[profile] for profile in PROFILES},
    entropy=6122,
    figures=(Figure("Theory", "Regret against log T and n; Theorem 5 on clustered arms"),),
)
