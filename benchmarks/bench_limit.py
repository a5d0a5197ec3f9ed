"""Every engine against the limit: each fast engine's pulls (or rounds) per second divided by the
tape's read rate, measured in the same run on the same arms (:func:`benchmarks.bench_tapes.read_rate`:
the block-cached read every fast engine does, in round robin, and nothing else).

A ratio near 1 means the engine costs little more than reading its rewards. Targets (issue 28): RR and
WRR at >= 0.5, every other engine at >= 0.2, or a reason: an O(n) (or worse) step per pull that the
algorithm itself prescribes, named in the ``reason`` column. The read rate is measured just after
each cell, on that cell's tape, and both are timed in CPU seconds of this process
(``time.process_time``; all engines here are single-threaded): on a shared machine wall time
measures the other sessions as much as the engine.

Cells: the k-sigma detectors on the arena's benchmark cells (:func:`benchmarks.bench_arena.cell`:
the suite's case 0 at n, made hard enough that every run reaches its pull cap, so a cell measures
throughput), plus ZHUANG17's Twitter-like keyword 10 (n = 47, the cell where CLUCB's challengers
equalise their UCBs), GOLD on its synthetic instance, GRAPL20's engines on Fig. 1's SBM (N = 1000,
Gaussian tape) and UIG's regret engines (K = 100, Gaussian tape). The arena's own samplers are
measured here as rows only (their engines belong to the arena chapter).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from bandit_lib.arena.suite import DELTA, DETECTORS
from bandit_lib.runner import Instance
from bandit_lib.tapes import bernoulli_tape, decision_stream, gaussian_tape
from benchmarks.bench_arena import cell
from benchmarks.bench_tapes import read_rate

#: targets: RR and WRR (ZHUANG17's engines) and everything else
TARGET_RR = 0.5
TARGET_OTHER = 0.2
SIZES = (20, 1000, 10_000)
#: pull caps per measured run of the arena's detectors (the samplers that re-solve get fewer pulls,
#: and are measured only where the suite runs them)
CAPS = {"IB": 3_000_000, "ADE": 2_000_000, "NRR (heuristic)": 200_000}
CAP = 10_000_000
#: the adaptive samplers (either stop), measured over CAP pulls like the others, re-solves included
RESOLVING = ()
ROUNDS_RESOLVING = 200

#: why an engine stays below its target: the step per pull its algorithm prescribes
REASONS = {
    "NRR (heuristic)": "recomputes the threshold and every arm's side after each pull: O(n) per pull (its stop rule)",
    "IB": "argmax of the challengers' UCBs, which all move with t at every pull: O(log n) per pull (kinetic tournament)",
    "GrAPL (exact)": "Sherman-Morrison update of V^-1 after each pull: N^2/2 multiply-subtracts, and E(t) over N arms",
    "GrAPL (CG)": "conjugate gradient on the N-node system after each pull, and E(t) over N arms",
    "Algorithm 1 (exact)": "Sherman-Morrison update of V^-1 after each pull: N^2/2 multiply-subtracts, and E(t) over N arms",
    "APT": "E(t), the error count over all N arms, after each pull (the experiments record it)",
    "LSDT-CSI": "the UCB index of every class and of every arm of the chosen class, each round",
    "UCB1 (alpha = 8)": "the UCB index of every arm, each round (its log t moves them all)",
    "GOLD": "UPDATE_G re-tests the pulled arm's edges after each pull (O(n)); guards skip most, but the edges near "
    "their threshold (about 16 per pull at n = 400, measured) are tested at every pull, and beta_i is recomputed",
}


def _time(fn, repeat: int = 2) -> tuple[float, object]:
    """(best CPU seconds of ``repeat`` calls after a warm-up, last result)."""
    out = fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        out = fn()
        best = min(best, time.process_time() - start)
    return best, out


def _row(engine: str, where: str, work: float, seconds: float, tape, target: float) -> dict:
    rate = work / seconds
    read = read_rate(tape, pulls=10_000_000, repeat=2, clock=time.process_time)
    ratio = rate / read
    met = ratio >= target
    print(f"  {engine}, {where}: {rate:.3g}/s, read {read:.3g}/s, ratio {ratio:.3f}", file=sys.stderr, flush=True)
    return {
        "engine": engine,
        "cell": where,
        "pulls/s": rate,
        "read/s": read,
        "ratio": ratio,
        "target": target,
        "met": "yes" if met else "no",
        "reason": "" if met else REASONS.get(engine, "(none yet)"),
    }


def _detector_rows() -> list[dict]:
    rows = []
    for name, det in DETECTORS.items():
        target = TARGET_RR if name.startswith(("RR (", "WRR (")) and "CS" not in name else TARGET_OTHER
        for n in SIZES:
            if n > det.max_n:
                continue
            means, k = cell(n)
            tape = Instance(means).tape(1)
            cap = ROUNDS_RESOLVING * n if name in RESOLVING else CAPS.get(name, CAP)
            seconds, out = _time(lambda tape=tape, cap=cap, k=k: det.run(tape.rewind(), k, DELTA, cap))
            rows.append(_row(name, f"arena cell, n={n:,}", out.pulls, seconds, tape, target))
    return rows


def _zhuang17_rows() -> list[dict]:
    from bandit_lib.zhuang17.experiments import DELTA as Z_DELTA
    from bandit_lib.zhuang17.experiments import TWITTER_SEED
    from bandit_lib.zhuang17.ib import ib
    from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI
    from bandit_lib.zhuang17.rr import rr
    from bandit_lib.zhuang17.twitter_like import twitter_like
    from bandit_lib.zhuang17.wrr import wrr

    y = twitter_like(TWITTER_SEED, n_keywords=20, k=2.5).keywords[10].means
    tape = bernoulli_tape(y, 3)
    rows = []
    for name, policy, kw, target in (
        ("RR (Agresti–Coull)", rr, {"ci": AgrestiCoullCI()}, TARGET_RR),
        ("RR (Hoeffding)", rr, {"ci": HoeffdingCI()}, TARGET_RR),
        ("WRR (Agresti–Coull)", wrr, {"ci": AgrestiCoullCI()}, TARGET_RR),
        ("WRR (Hoeffding)", wrr, {"ci": HoeffdingCI()}, TARGET_RR),
        ("IB", ib, {}, TARGET_OTHER),
    ):
        seconds, out = _time(
            lambda policy=policy, kw=kw: policy(tape.rewind(), k=2.5, delta=Z_DELTA, cap=5 * 10**6, **kw)
        )
        rows.append(_row(name, f"Twitter-like keyword 10, n={len(y)}", out.pulls, seconds, tape, target))
    return rows


def _gold_rows() -> list[dict]:
    from bandit_lib.gold20.gold import gold
    from bandit_lib.gold20.instances import gold_synthetic

    rows = []
    for n, kind in ((100, "upper"), (400, "intermediate")):
        case = gold_synthetic(n, 5.0, kind, 2020)
        tape = bernoulli_tape(case.means, 2020)
        seconds, out = _time(lambda tape=tape: gold(tape.rewind(), eps=5.0, rho=0.9, delta=0.1, cap=10**8))
        rows.append(_row("GOLD", f"synthetic {kind}, n={n}, whole run", out.pulls, seconds, tape, TARGET_OTHER))
    return rows


def _grapl_rows() -> list[dict]:
    from bandit_lib.grapl20.algorithm1 import algorithm1, iid_uniform_schedule
    from bandit_lib.grapl20.apt import apt
    from bandit_lib.grapl20.estimator import graph_system
    from bandit_lib.grapl20.experiments.synthetic import make_instance
    from bandit_lib.grapl20.grapl import grapl

    graph, _, tape, schedule_seed = make_instance("sbm", 0, 1000)
    system = graph_system(graph)
    _ = system.inverse  # built once, outside the timings
    kw = dict(tau=0.0, eps=0.01, gamma=10.0)
    steps = 2000
    schedule = iid_uniform_schedule(1000, steps, schedule_seed)
    rows = []
    for name, fn in (
        ("GrAPL (exact)", lambda: grapl(tape.rewind(), system, steps, alpha=1.0, solver="exact", **kw)),
        ("GrAPL (CG)", lambda: grapl(tape.rewind(), system, steps, alpha=1.0, solver="cg", **kw)),
        ("Algorithm 1 (exact)", lambda: algorithm1(tape.rewind(), system, schedule, solver="exact", **kw)),
        ("APT", lambda: apt(tape.rewind(), 20_000, tau=0.0, eps=0.01)),
    ):
        seconds, out = _time(fn, repeat=1)
        rows.append(_row(name, "SBM of Fig. 1, N=1000, Gaussian tape", len(out.pulls), seconds, tape, TARGET_OTHER))
    return rows


def _uig_rows() -> list[dict]:
    from bandit_lib.uig.instances import random_instance
    from bandit_lib.uig.lsdt_csi import run_lsdt_csi_fast
    from bandit_lib.uig.ucb1 import run_ucb1_fast

    inst = random_instance(np.random.default_rng(6), 100, 0.1, low=0.1, high=1.0)
    tape = gaussian_tape(inst.means, 1.0, 6)
    T = 1_000_000
    rows = []
    for name, fn in (
        ("LSDT-CSI", lambda: run_lsdt_csi_fast(tape.rewind(), T, decision_stream(1, "b"), classes=inst.classes)),
        ("UCB1 (alpha = 8)", lambda: run_ucb1_fast(tape.rewind(), T, decision_stream(1, "b"), alpha=8.0)),
    ):
        seconds, _ = _time(fn)
        rows.append(_row(name, "K=100, Gaussian tape (rounds)", T, seconds, tape, TARGET_OTHER))
    return rows


def run() -> list[dict]:
    return _detector_rows() + _zhuang17_rows() + _gold_rows() + _grapl_rows() + _uig_rows()
