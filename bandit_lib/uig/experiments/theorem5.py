"""UIG chapter: Theorem 5 and Corollary 1 on clustered instances that satisfy their hypotheses.

m clusters of N equal arms at means 0.1 + 0.07 k (ε = 0.1: consecutive clusters similar, clusters
two apart not, so every cluster is an equivalence class and Assumption 3 holds), revealed at
p_S = p_D = 0.8. Assumption 5 then needs κ ≥ 2.79, and Assumption 4 the smallest class at least
κ ln K arms (:mod:`bandit_lib.uig.theory` checks both):

* ``m=3,N=10`` (K = 30): enough repetitions (4000) to decide the statement's joint event ("every
  arm outside B* is eliminated") against 1/K² = 1/900 with an exact 95% interval;
* ``m=7,N=20`` and ``m=7,N=40`` (K = 140, 280): enough repetitions to decide the per-arm event
  (the proof's Eqs. (58)–(59)) against 1/K²; seven clusters put the bottom class 0.42 > 4ε below
  the top, as Corollary 1 requires, and the dominating-set LP of the first repetitions gives the
  exploration mass on the bottom class (its proof's Eq. (94)).

PSI-OFF only (no pulls): each repetition is one revelation, its B0 and its surviving middle arms.
"""

from __future__ import annotations

import numpy as np

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.seeding import generator
from bandit_lib.uig.candidates import candidate_set_complete, eliminate_partial
from bandit_lib.uig.domination import exploration_values
from bandit_lib.uig.experiments.common import CHAPTER, PAPER
from bandit_lib.uig.instances import clustered_instance
from bandit_lib.uig.problem import reveal, similarity_graph

EPS, P = 0.1, 0.8

PROFILES = {
    "quick": [
        {"m": 3, "N": 10, "reps": 50, "lp_reps": 0},
        {"m": 7, "N": 20, "reps": 20, "lp_reps": 5},
    ],
    "full": [
        {"m": 3, "N": 10, "reps": 4000, "lp_reps": 0},
        {"m": 7, "N": 20, "reps": 800, "lp_reps": 200},
        {"m": 7, "N": 40, "reps": 1500, "lp_reps": 200},
    ],
}


def compute_theorem5(seed, m: int, N: int, reps: int, lp_reps: int, eps: float, p: float) -> dict:
    means, cluster = clustered_instance(m, N, eps)
    A = similarity_graph(means, eps)
    B = candidate_set_complete(A, order=np.argsort(means, kind="stable"))
    middle = np.flatnonzero((cluster > 0) & (cluster < m - 1))
    bottom = np.flatnonzero(cluster == 0)
    survivors, sizes, mass = [], [], []
    for r in range(reps):
        S, D = reveal(A, p, p, generator(seed, "reveal", r))
        B0 = eliminate_partial(S, D)
        survivors.append(int(np.isin(middle, B0).sum()))
        sizes.append(len(B0))
        if r < lp_reps:
            z = dict(zip(B0.tolist(), exploration_values(S[np.ix_(B0, B0)])))
            mass.append(round(float(sum(z.get(i, 0.0) for i in bottom)), 9))
    return {
        "means": means.tolist(),
        "K": len(means),
        "B*": len(B),
        "middle": len(middle),
        "survivors": survivors,
        "B0": sizes,
        "C2 on C_min": mass,
    }


def plan_theorem5(configs) -> list[Unit]:
    return [Unit(f"m={c['m']},N={c['N']}", {**c, "eps": EPS, "p": P}) for c in configs]


THEOREM5 = Experiment(
    paper=PAPER,
    chapter=CHAPTER,
    name="theorem5",
    title="Theorem 5 and Corollary 1 on instances that satisfy Assumptions 3-5",
    compute=compute_theorem5,
    plan=plan_theorem5,
    grid={profile: {"configs": PROFILES[profile]} for profile in PROFILES},
    entropy=6133,
    figures=(Figure("Theory", "Theorem 5 and Corollary 1 inside their hypotheses"),),
)
