"""What the new user of issue 38 did, as a script: a bandits researcher who installed ``bandit_lib``
from a clone into a fresh virtual environment runs RR, WRR, GrAPL and every detector of the arena on
20 arms of their own (Bernoulli and Gaussian rewards), then reruns an ADE20 experiment with another
number of arms into a scratch store. It prints one JSON object; tests/test_new_user.py runs it in
such an environment and checks the answers.

    python tests/new_user_script.py     # with BANDIT_USER_RESULTS naming a scratch store
"""

from __future__ import annotations

import json
import sys

import networkx as nx
import numpy as np

import bandit_lib
from bandit_lib import bernoulli_tape, gaussian_tape, ksigma_outliers
from bandit_lib.ade20.experiments import ARMS
from bandit_lib.arena.suite import DETECTORS
from bandit_lib.grapl20 import grapl
from bandit_lib.zhuang17 import AgrestiCoullCI, HoeffdingCI, rr, wrr

# 20 arms of my own: 19 between 0.1 and 0.45, one at 0.95 (the one outlier at k = 2)
MEANS = np.concatenate([np.random.default_rng(2026).uniform(0.1, 0.45, 19), [0.95]])
K, DELTA = 2.0, 0.1


def main() -> dict:
    out = {"bandit_lib": bandit_lib.__file__, "prefix": sys.prefix, "truth": ksigma_outliers(MEANS, K).tolist()}

    # ZHUANG17's RR and WRR with both interval families
    out["zhuang17"] = {
        f"{policy.__name__} {type(ci).__name__}": policy(
            bernoulli_tape(MEANS, seed=1), k=K, delta=DELTA, ci=ci
        ).output.tolist()
        for policy in (rr, wrr)
        for ci in (AgrestiCoullCI(), HoeffdingCI(R=1.0))
    }

    # GrAPL on a path of 20 arms whose means rise along it (a signal smooth on the graph)
    signal = np.sort(MEANS)
    run = grapl(gaussian_tape(signal, 0.5, seed=1), nx.path_graph(20), 400, tau=0.5, eps=0.01, gamma=10.0, alpha=1.0)
    out["grapl"] = {
        "found": np.flatnonzero(run.mu_hat >= 0.5).tolist(),
        "truth": np.flatnonzero(signal >= 0.5).tolist(),
    }

    # every detector of the arena, configured as the book runs them, on Bernoulli and Gaussian tapes
    # TODO(issue 38, lead): after merging bandit_lib/arena/compare.py, also make the one call that sets
    # them against the lower bound here (e.g. `compare(MEANS, K, DELTA)`), and check its table in
    # tests/test_new_user.py (a row per detector, its pulls, answer and factor above T*).
    arena = {}
    for reward, make in (
        ("bernoulli", lambda: bernoulli_tape(MEANS, seed=1)),
        ("gaussian", lambda: gaussian_tape(MEANS, 0.5, seed=1)),
    ):
        for name, detector in DETECTORS.items():
            try:
                found = detector.run(make(), K, DELTA)
            except ValueError as refused:  # a detector that needs bounded rewards says so
                arena[f"{reward}/{name}"] = {"refused": str(refused)}
                continue
            arena[f"{reward}/{name}"] = {
                "found": found.output.tolist(),
                "pulls": int(found.pulls),
                "delta_correct": detector.delta_correct,
            }
    out["arena"] = arena

    # ADE20's Fig. 2(a) with another number of arms, into my store (BANDIT_USER_RESULTS)
    res = ARMS.run("quick", n=(50,), cases=1)
    table = res.table()
    out["ade20"] = {
        "computed": list(res.report.computed),
        "paths": [str(p) for p in res.paths],
        "n": sorted(table["n"].unique().tolist()),
        "methods": int(table["method"].nunique()),
        "all_correct": bool(table["correct"].all()),
    }
    return out


if __name__ == "__main__":
    print(json.dumps(main()))
