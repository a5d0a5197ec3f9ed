"""ZHUANG17: pulls per second of the per-pull references and the exact fast engines (RR, WRR, IB).

Same instances for both engines (planted-outlier cases, Agresti–Coull intervals as in the paper's
figures); the reference runs a shorter stretch (its throughput does not depend on the length).
Target: fast >= 100x reference for RR and WRR at n = 20 and n = 200.
"""

from benchmarks.timing import compare
from bandit_lib.instances.planted import planted_outliers
from bandit_lib.ksigma_ci import AgrestiCoullCI
from bandit_lib.policies.ib import ib
from bandit_lib.policies.rr import rr
from bandit_lib.policies.wrr import wrr
from bandit_lib.tapes import bernoulli_tape

K = 2.5
DELTA = 0.1


def _row(name, policy, n, ref_cap, fast_cap, **kw):
    case = planted_outliers(n, K, 20170000 + n)
    tape = bernoulli_tape(case.means, 1)
    # both engines run the same capped stretch of the same run; the caps keep every run capped
    work = {}

    def run(engine, cap):
        out = policy(tape.rewind(), k=K, delta=DELTA, cap=cap, engine=engine, **kw)
        work[engine] = out.pulls

    run("reference", ref_cap)
    run("fast", fast_cap)
    row = compare(f"{name}, n={n}", "pulls", lambda: run("reference", ref_cap), work["reference"],
                  lambda: run("fast", fast_cap), work["fast"])
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
