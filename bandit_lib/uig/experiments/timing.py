"""UIG chapter, Tables I and II: running time per run of every policy, measured here.

The Fig. 6 setting (complete side information, Gaussian rewards) and the Fig. 7 setting (partial,
Bernoulli) at T = 1000, readable policies in one process one after another, numba engines where a
row says so. The paper's times are MATLAB's; only orderings compare.

Each setting's 100 runs are cut into units of :data:`BLOCK` repetitions (``csi,reps=0-4``, ...), so
that no unit runs for minutes; a repetition draws its instance and tapes from :func:`rep_seed`, the
seed it had when the setting was one unit, so the split changes no run.
"""

from __future__ import annotations

import numpy as np

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.seeding import derive, generator
from bandit_lib.tapes import bernoulli_tape, decision_stream, gaussian_tape
from bandit_lib.uig.candidates import candidate_set_complete, eliminate_partial
from bandit_lib.uig.ckl_ucb import CKLUCB
from bandit_lib.uig.experiments.common import CHAPTER, PAPER, blocks, timed
from bandit_lib.uig.instances import random_instance
from bandit_lib.uig.lsdt_csi import LSDTCSI, run_lsdt_csi_fast
from bandit_lib.uig.lsdt_psi import LSDTPSI
from bandit_lib.uig.ossb import OSSB
from bandit_lib.uig.osub import OSUB
from bandit_lib.uig.problem import reveal, similarity_graph, umbrella_ordering
from bandit_lib.uig.protocol import simulate
from bandit_lib.uig.ts import ThompsonSampling
from bandit_lib.uig.ucb1 import UCB1, run_ucb1_fast

PROFILES = {
    "quick": {"reps": 1, "csi": {"K": 20, "eps": 0.2, "T": 200}, "psi": {"K": 20, "eps": 0.2, "T": 200, "p": 0.7}},
    "full": {"reps": 100, "csi": {"K": 100, "eps": 0.1, "T": 1000}, "psi": {"K": 100, "eps": 0.1, "T": 1000, "p": 0.5}},
}
SETTINGS = ("csi", "psi")
#: repetitions per unit, per setting: a run of the Fig. 6 setting took about 3.1 s by the records
#: (the whole setting, 311 s, was one unit before) and 7 s on a loaded machine, a run of the
#: Fig. 7 setting about 0.24 s; so a unit takes well under a minute even under load
BLOCK = {"csi": 5, "psi": 20}


def rep_seed(setting: str, r: int):
    """The seed of repetition ``r`` of ``setting``: derived from the seed the unit keyed ``setting``
    has (each setting was one unit before it was cut into blocks), not from the block's, so a
    repetition draws the same instance and tapes whichever block runs it."""
    if setting not in SETTINGS:
        raise ValueError(f"unknown timing setting {setting!r}; known: {SETTINGS}")
    return derive(TIMING.seed(Unit(setting)), "rep", r)


def compute_timing(seed, setting: str, first: int, last: int, K: int, eps: float, T: int, p: float) -> dict:
    """Wall time per run of each policy, repetitions ``first`` to ``last`` - 1, readable reference
    engines unless noted.

    Runs one after another in one process; the notebook reports medians over repetitions. ``seed``
    (the block's) is not used: each repetition's randomness comes from :func:`rep_seed`.
    """
    rows = []
    for r in range(first, last):
        rep = rep_seed(setting, r)
        row = {"rep": r}
        if setting == "csi":
            inst = random_instance(generator(rep, "instance"), K, eps, low=0.1, high=1.0)
            tape = gaussian_tape(inst.means, 1.0, derive(rep, "rewards"))
            stream = lambda name: decision_stream(rep, name)  # noqa: E731
            _, row["UIG recognition"] = timed(lambda: umbrella_ordering(inst.A))
            _, row["LSDT-CSI (offline)"] = timed(lambda: candidate_set_complete(inst.A, check=False))
            runs = {
                "UCB1": lambda: simulate(UCB1(K, stream("u"), alpha=8.0), tape.rewind(), T),
                "UCB1 (numba)": lambda: run_ucb1_fast(tape.rewind(), T, stream("u"), alpha=8.0),
                "TS": lambda: simulate(ThompsonSampling(K, generator(rep, "ts")), tape.rewind(), T),
                "CKL-UCB (numba index)": lambda: simulate(CKLUCB(inst.A, eps=eps), tape.rewind(), T),
                "OSUB": lambda: simulate(OSUB(inst.A, stream("osub")), tape.rewind(), T),
                "OSSB (closed form)": lambda: simulate(
                    OSSB(inst.A, stream("ossb"), candidates=inst.candidates), tape.rewind(), T
                ),
                "OSSB (linprog)": lambda: simulate(
                    OSSB(inst.A, stream("ossb"), candidates=inst.candidates, solver="linprog"), tape.rewind(), T
                ),
                "LSDT-CSI (online)": lambda: simulate(LSDTCSI(K, stream("l"), classes=inst.classes), tape.rewind(), T),
                "LSDT-CSI (online, numba)": lambda: run_lsdt_csi_fast(
                    tape.rewind(), T, stream("l"), classes=inst.classes
                ),
                "UCB1 on B*": lambda: simulate(UCB1(K, stream("b"), arms=inst.candidates, alpha=8.0), tape.rewind(), T),
            }
            arms = {}
            for name, fn in runs.items():
                arms[name], row[name] = timed(fn)
            row["OSSB solvers agree"] = bool(np.array_equal(arms["OSSB (closed form)"], arms["OSSB (linprog)"]))
            row["numba engines agree"] = bool(
                np.array_equal(arms["UCB1"], arms["UCB1 (numba)"])
                and np.array_equal(arms["LSDT-CSI (online)"], arms["LSDT-CSI (online, numba)"])
            )
        else:
            rng = generator(rep, "instance")
            means = rng.uniform(0.1, 0.9, K)
            A = similarity_graph(means, eps)
            S, D = reveal(A, p, p, rng)
            B0, row["LSDT-PSI (offline)"] = timed(lambda: eliminate_partial(S, D))
            tape = bernoulli_tape(means, derive(rep, "rewards"))
            runs = {
                "UCB1": lambda: simulate(UCB1(K, decision_stream(rep, "u")), tape.rewind(), T),
                "TS": lambda: simulate(ThompsonSampling(K, generator(rep, "ts")), tape.rewind(), T),
                "CKL-UCB (numba index)": lambda: simulate(CKLUCB(S, eps=eps, kl="bernoulli"), tape.rewind(), T),
                "LSDT-PSI (online)": lambda: simulate(
                    LSDTPSI(S, decision_stream(rep, "l"), candidates=B0, horizon=T, eps=eps), tape.rewind(), T
                ),
                "UCB1 on B0": lambda: simulate(UCB1(K, decision_stream(rep, "b"), arms=B0), tape.rewind(), T),
            }
            for name, fn in runs.items():
                _, row[name] = timed(fn)
        rows.append({k: (round(v * 1000, 3) if isinstance(v, float) else v) for k, v in row.items()})
    return {"rows": rows, "unit": "milliseconds per run"}


def plan_timing(**cfg) -> list[Unit]:
    """The Fig. 6 and Fig. 7 settings at T = 1000 (the paper's tables); smaller in the quick profile."""
    csi, psi = cfg["csi"], cfg["psi"]
    settings = {"csi": {"p": 1.0, **csi}, "psi": psi}
    return [
        Unit(f"{setting},reps={a}-{b - 1}", {"setting": setting, "first": a, "last": b, **params})
        for setting, params in settings.items()
        for a, b in blocks(cfg["reps"], BLOCK[setting])
    ]


TIMING = Experiment(
    paper=PAPER,
    chapter=CHAPTER,
    name="timing",
    title="Running times per run",
    compute=compute_timing,
    plan=plan_timing,
    grid={profile: PROFILES[profile] for profile in PROFILES},
    entropy=6111,
    figures=(
        Figure("Table I", "Running times, complete side information"),
        Figure("Table II", "Running times, partial side information"),
    ),
)
