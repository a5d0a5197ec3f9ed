"""Compile the library's largest numba kernels into numba's on-disk cache before the tests start.

    python tests/precompile.py [--jobs 2]

On a fresh clone numba's cache is empty, and ``make test``'s two pytest workers each compile the
kernels their own tests need: the big ones (the arena's block engine and secular solver, its box
certificate, ZHUANG17's and GOLD20's engines) are needed by test files on both workers, so each was
compiled twice, at about a minute of CPU apiece for the largest. Since the notebooks run in the
same pytest session, the engines their quick runs need (GRAPL20's, UIG's, the arena's anytime
stops) are compiled here too: a notebook and a test file on the other worker would otherwise
compile them at the same moment. Here every kernel is compiled once,
by small calls of the public functions that use them, in ``--jobs`` processes at once; the workers
then load them from the cache (``bandit_lib.infra.fingerprint.numba_cache_root``). Nothing is
asserted: the calls only compile, and the tests check what the functions return.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def arena_samplers() -> None:
    from bandit_lib.arena.frank_wolfe import frank_wolfe
    from bandit_lib.arena.toptwo import top_two
    from bandit_lib.arena.tracking import track_and_stop
    from bandit_lib.tapes import gaussian_tape

    means = [0.1, 0.2, 0.25, 0.3, 0.9]
    for stop in ("glr", "cs", "none"):
        track_and_stop(gaussian_tape(means, 0.5, 1), k=1.5, delta=0.1, weights="gaussian", stop=stop, cap=60)
        top_two(gaussian_tape(means, 0.5, 1), k=1.5, delta=0.1, stop=stop, cap=60)
        frank_wolfe(gaussian_tape(means, 0.5, 1), k=1.5, delta=0.1, stop=stop, cap=60)


def arena_bounds() -> None:
    from bandit_lib.arena import suite
    from bandit_lib.arena.lower_bound import certified_lower_T, optimal_weights

    mu = [0.1, 0.2, 0.25, 0.3, 0.9]
    optimal_weights(mu, 1.5)
    certified_lower_T(mu, 1.5)
    suite.BOX_MAX_ITER = 3
    suite.yardstick(suite.instance("window", 20, 0))


def arena_detectors() -> None:
    from bandit_lib.arena.glr import rr_glr
    from bandit_lib.tapes import bernoulli_tape, gaussian_tape

    means = [0.1, 0.2, 0.25, 0.3, 0.9]
    rr_glr(gaussian_tape(means, 0.5, 1), k=1.5, delta=0.1, cap=200)
    rr_glr(bernoulli_tape(means, 1), k=1.5, delta=0.1, cap=200)


def zhuang17_engines() -> None:
    from bandit_lib.tapes import bernoulli_tape
    from bandit_lib.zhuang17.ib import ib
    from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI
    from bandit_lib.zhuang17.nrr import nrr
    from bandit_lib.zhuang17.rr import rr
    from bandit_lib.zhuang17.wrr import wrr

    means = [0.1, 0.2, 0.25, 0.3, 0.9]
    for ci in (HoeffdingCI(), AgrestiCoullCI()):
        rr(bernoulli_tape(means, 1), k=1.5, delta=0.1, ci=ci, cap=500)
        wrr(bernoulli_tape(means, 1), k=1.5, delta=0.1, ci=ci, cap=500)
    ib(bernoulli_tape(means, 1), k=1.5, delta=0.1, cap=500)
    nrr(bernoulli_tape(means, 1), k=1.5, delta=0.1, cap=500)


def other_engines() -> None:
    from bandit_lib.ade20.ade import ade
    from bandit_lib.gold20.gold import gold
    from bandit_lib.tapes import bernoulli_tape

    means = [0.1, 0.2, 0.25, 0.3, 0.9]
    gold(bernoulli_tape(means, 1), eps=0.1, rho=0.7, delta=0.1, cap=500)
    ade(bernoulli_tape(means, 1), k=1.5, delta=0.1, cap=500)


def arena_anytime() -> None:
    from bandit_lib.arena.anytime import rr_cs, wrr_cs
    from bandit_lib.arena.efficiency import allocation_value, characteristic_time
    from bandit_lib.arena.secular import arm_values_fast
    from bandit_lib.tapes import bernoulli_tape, gaussian_tape

    means = [0.1, 0.2, 0.25, 0.3, 0.9]
    for tape in (gaussian_tape(means, 0.5, 1), bernoulli_tape(means, 1)):
        rr_cs(tape.rewind(), k=1.5, delta=0.1, cap=500)
        wrr_cs(tape.rewind(), k=1.5, delta=0.1, cap=500)
    w = [0.2, 0.2, 0.2, 0.2, 0.2]
    arm_values_fast(means, w, 1.5)
    characteristic_time(means, 1.5)
    allocation_value(means, 1.5, [3, 3, 3, 3, 3])


def grapl20_engines() -> None:
    import networkx as nx

    from bandit_lib.grapl20.algorithm1 import algorithm1, iid_uniform_schedule
    from bandit_lib.grapl20.apt import apt
    from bandit_lib.grapl20.estimator import graph_system
    from bandit_lib.grapl20.grapl import grapl
    from bandit_lib.grapl20.theory import eigenvalues
    from bandit_lib.tapes import bernoulli_tape, gaussian_tape

    means = [0.1, 0.2, 0.3, 0.45, 0.55, 0.7, 0.8, 0.9]
    system = graph_system(nx.path_graph(len(means)), 1e-3)
    eigenvalues(system)
    common = dict(tau=0.5, eps=0.05, gamma=1.0)
    for tape in (gaussian_tape(means, 0.5, 1), bernoulli_tape(means, 1)):
        for solver in ("exact", "cg"):
            grapl(tape.rewind(), system, 30, alpha=1e-3, solver=solver, **common)
            schedule = iid_uniform_schedule(len(means), 30, 1)
            algorithm1(tape.rewind(), system, schedule, solver=solver, **common)
        apt(tape.rewind(), 30, tau=0.5, eps=0.05, warmup=2)


def uig_engines() -> None:
    import numpy as np

    from bandit_lib.tapes import bernoulli_tape, decision_stream
    from bandit_lib.uig import ckl_ucb, lsdt_csi, ts
    from bandit_lib.uig.candidates import candidate_set_from_means
    from bandit_lib.uig.problem import reveal, similarity_graph
    from bandit_lib.uig.protocol import simulate
    from bandit_lib.uig.recommendation import pair_distances

    rng = np.random.default_rng(1)
    means = np.array([0.1, 0.2, 0.25, 0.3, 0.9])
    _, classes = candidate_set_from_means(means, 0.05)
    lsdt_csi.run_lsdt_csi_fast(bernoulli_tape(means, 1), 50, decision_stream(1, "l"), classes=classes)
    R = rng.uniform(0, 1, (40, 5))
    R[rng.random(R.shape) < 0.4] = np.nan
    order = rng.permutation(40)
    lsdt_csi.replay_lsdt_csi_fast(R, order, decision_stream(1, "l"), classes=classes)
    ts.replay_ts_fast(R, order, np.random.default_rng(1))
    pair_distances(R)
    S, _ = reveal(similarity_graph(means, 0.15), 0.6, 0.6, rng)
    for kl in ("gaussian", "bernoulli"):
        simulate(ckl_ucb.CKLUCB(S, eps=0.15, kl=kl, metric="hop"), bernoulli_tape(means, 1), 30)


#: Groups, the most expensive first (CPU seconds to compile on the book's 2-core machine, roughly).
GROUPS = (
    arena_samplers,
    arena_bounds,
    grapl20_engines,
    zhuang17_engines,
    uig_engines,
    other_engines,
    arena_anytime,
    arena_detectors,
)


def _run(name: str) -> tuple[str, float, str]:
    start = time.process_time()
    try:
        globals()[name]()
    except Exception as exc:  # noqa: BLE001 - a failing call only leaves a kernel for the tests to compile
        return name, time.process_time() - start, f"{type(exc).__name__}: {exc}"[:200]
    return name, time.process_time() - start, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=2, help="processes compiling at once (default 2)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, cpu, error in pool.map(_run, [g.__name__ for g in GROUPS]):
            note = f" (left to the tests: {error})" if error else ""
            print(f"precompiled {name}: {cpu:.0f} CPU s{note}", flush=True)
    print(f"precompiled the numba kernels in {time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
