"""GOLD20: pulls per second of GOLD's per-pull reference and its exact numba engine.

Same instances for both engines: the chapter's synthetic generator (spec §4.2; upper-side and
intermediate, ε = 5, ρ = 0.9, δ = 0.1, Bernoulli width), n = 100 and n = 400. GOLD's cost per
pull falls as edges are deleted, so the ratio is measured on the *same* stretch of the same run
(the first ``stretch`` pulls, where the graph is densest, for both engines); the last column is
the fast engine's throughput over the whole run (to its own stop).
"""

import time

from bandit_lib.gold20.gold import gold
from bandit_lib.gold20.instances import gold_synthetic
from bandit_lib.tapes import bernoulli_tape
from benchmarks.timing import compare

EPS, RHO, DELTA = 5.0, 0.9, 0.1
SEED = 2020


def _row(n: int, kind: str, stretch: int) -> dict:
    case = gold_synthetic(n, EPS, kind, SEED)
    tape = bernoulli_tape(case.means, SEED)
    work = {}

    def run(engine, cap):
        out = gold(tape.rewind(), eps=EPS, rho=RHO, delta=DELTA, cap=cap, engine=engine)
        work[engine] = out.pulls
        return out

    cap = n + stretch
    run("reference", cap)
    run("fast", cap)
    assert work["reference"] == work["fast"]
    row = compare(
        f"GOLD, {kind}, n={n}",
        "pulls",
        lambda: run("reference", cap),
        work["reference"],
        lambda: run("fast", cap),
        work["fast"],
    )
    run("fast", 10**8)  # warm, then time the whole run once
    start = time.perf_counter()
    full = run("fast", 10**8)
    row["fast pulls/s, whole run"] = full.pulls / (time.perf_counter() - start)
    row["whole run pulls"] = full.pulls
    return row


def run() -> list[dict]:
    return [
        _row(100, "upper", 4_000),
        _row(100, "intermediate", 4_000),
        _row(400, "upper", 2_000),
        _row(400, "intermediate", 2_000),
    ]
