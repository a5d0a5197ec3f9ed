"""ZHUANG17: pulls per second of the per-pull references and the exact fast engines (RR, WRR, IB).

Same instances for both engines (five planted-outlier cases, Agresti–Coull intervals as in the paper's
figures); the reference runs a shorter capped stretch of each (its throughput does not depend on the
length), the fast engine each whole run up to 3e6 pulls.
Target: fast >= 100x reference for RR and WRR at n = 20 and n = 200.
"""

from bandit_lib.tapes import bernoulli_tape
from bandit_lib.zhuang17.ib import ib
from bandit_lib.zhuang17.instances import planted_outliers
from bandit_lib.zhuang17.intervals import AgrestiCoullCI
from bandit_lib.zhuang17.rr import rr
from bandit_lib.zhuang17.wrr import wrr
from benchmarks.timing import compare

K = 2.5
DELTA = 0.1
CASES = 5


def _row(name, policy, n, ref_cap, fast_cap, cases=CASES, **kw):
    # Several planted cases, not one: a run that stops after a few thousand pulls measures the
    # engine's per-run set-up (exact O(n) updates, first windows), a capped run its steady state;
    # the experiments see both, so the throughput is total pulls over total time across the cases.
    tapes = [bernoulli_tape(planted_outliers(n, K, 20170000 + n + 1000 * c).means, 1) for c in range(cases)]
    work = {}

    def run(engine, cap):
        work[engine] = sum(policy(t.rewind(), k=K, delta=DELTA, cap=cap, engine=engine, **kw).pulls for t in tapes)

    run("reference", ref_cap)
    run("fast", fast_cap)
    row = compare(
        f"{name}, n={n}",
        "pulls",
        lambda: run("reference", ref_cap),
        work["reference"],
        lambda: run("fast", fast_cap),
        work["fast"],
    )
    row["fast pulls per case"] = work["fast"] / cases
    row["target (ratio >= 100)"] = "met" if row["ratio"] >= 100 else "MISSED"
    return row


def run() -> list[dict]:
    ci = AgrestiCoullCI()
    rows = []
    for n in (20, 200):
        rows.append(_row("RR, Agresti–Coull", rr, n, 20_000, 3_000_000, ci=ci))
        rows.append(_row("WRR (rho*), Agresti–Coull", wrr, n, 20_000, 3_000_000, ci=ci))
    for n in (20, 200):
        row = _row("IB (CLUCB)", ib, n, 20_000, 3_000_000)
        row["target (ratio >= 100)"] = "(no target)"
        rows.append(row)
    return rows
