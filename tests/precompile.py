"""Compile the library's largest numba kernels into numba's on-disk cache before the tests start.

    python tests/precompile.py [--jobs 2]

On a fresh clone numba's cache is empty, and ``make test``'s two pytest workers each compile the
kernels their own tests need: the big ones (the arena's block engine and secular solver, its box
certificate, ZHUANG17's and GOLD20's engines) are needed by test files on both workers, so each was
compiled twice, at about a minute of CPU apiece for the largest. Here every kernel is compiled once,
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


#: Groups, the most expensive first (CPU seconds to compile on the book's 2-core machine, roughly).
GROUPS = (arena_samplers, arena_bounds, zhuang17_engines, other_engines, arena_detectors)


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
