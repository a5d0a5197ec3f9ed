"""UIG chapter, Figs. 4 and 5: how much of the action space the offline steps remove.

* ``reduction_csi`` (Fig. 4): ``|B*|`` against ε (n = 100) and ``|B*|``/n against n (ε = 0.2).
* ``reduction_psi`` (Fig. 5): ``|B0|`` against p (n = 100, ε = 0.2) and ``|B0|``/n against n (p = 0.5).
"""

from __future__ import annotations

import numpy as np

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.seeding import generator
from bandit_lib.uig.candidates import candidate_set_complete, eliminate_partial
from bandit_lib.uig.experiments.common import CHAPTER, PAPER
from bandit_lib.uig.problem import reveal, similarity_graph

PROFILES = {
    "quick": {
        "fig4a": {"K": 30, "eps": [round(0.1 * i, 2) for i in range(11)], "reps": 5},
        "fig4b": {"K": [10, 30, 60], "eps": 0.2, "reps": 5},
        "fig5a": {"K": 30, "eps": 0.2, "p": [0.2, 0.5, 0.8, 1.0], "reps": 5},
        "fig5b": {"K": [10, 30, 60], "eps": 0.2, "p": 0.5, "reps": 5},
    },
    "full": {
        "fig4a": {"K": 100, "eps": [round(0.01 * i, 2) for i in range(101)], "reps": 100},
        "fig4b": {"K": list(range(10, 201, 10)), "eps": 0.2, "reps": 100},
        "fig5a": {"K": 100, "eps": 0.2, "p": [round(0.1 * i, 1) for i in range(1, 11)], "reps": 100},
        "fig5b": {"K": list(range(10, 151, 10)), "eps": 0.2, "p": 0.5, "reps": 100},
    },
}


def compute_reduction(seed, figure: str, K, eps, reps: int, p=None) -> dict:
    """``|B*|`` (CSI-OFF) or ``|B0|`` (PSI-OFF; at p = 1 CSI-OFF, the paper's rule) over repetitions.

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
                    rows.append(
                        {"rep": r, "p": q, "K": K, "size": csi if q == 1.0 else psi, "psi_off": psi, "csi": csi}
                    )
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


def plan_reduction_csi(**cfg) -> list[Unit]:
    return [Unit("fig4a", {"figure": "fig4a", **cfg["fig4a"]}), Unit("fig4b", {"figure": "fig4b", **cfg["fig4b"]})]


def plan_reduction_psi(**cfg) -> list[Unit]:
    return [Unit("fig5a", {"figure": "fig5a", **cfg["fig5a"]}), Unit("fig5b", {"figure": "fig5b", **cfg["fig5b"]})]


REDUCTION_CSI = Experiment(
    paper=PAPER,
    chapter=CHAPTER,
    name="reduction_csi",
    title="Size of the candidate set under complete side information",
    compute=compute_reduction,
    plan=plan_reduction_csi,
    grid={profile: {f: PROFILES[profile][f] for f in ("fig4a", "fig4b")} for profile in PROFILES},
    entropy=6041,
    figures=(Figure("Fig. 4", "|B*| against ε and |B*|/n against n"),),
)
REDUCTION_PSI = Experiment(
    paper=PAPER,
    chapter=CHAPTER,
    name="reduction_psi",
    title="Size of the offline set under partial side information",
    compute=compute_reduction,
    plan=plan_reduction_psi,
    grid={profile: {f: PROFILES[profile][f] for f in ("fig5a", "fig5b")} for profile in PROFILES},
    entropy=6052,
    figures=(Figure("Fig. 5", "|B0| against p and |B0|/n against n"),),
)
