"""``python -m bandit_lib.reproduce``: compute the cached results at paper scale.

``make reproduce [PAPER=<key>] [EXPERIMENT=<name>] [JOBS=n] [SCHEDULER=tcp://host:port]`` calls it.
Only missing or stale records are computed (``--recompute`` forces all); stop it at any time and
run it again to resume. ``--check`` only reports the state of the store.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time

from bandit_lib.infra.registry import select
from bandit_lib.infra.profiles import PROFILES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bandit_lib.reproduce", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--paper", default="all", help="paper key (e.g. zhuang17) or 'all'")
    parser.add_argument("--experiment", default=None, help="one experiment of the paper")
    parser.add_argument("--profile", default="full", choices=PROFILES)
    parser.add_argument("--jobs", type=int, default=2, help="local worker processes")
    parser.add_argument("--scheduler", default=None, help="address of a Dask scheduler (overrides --jobs)")
    parser.add_argument("--recompute", action="store_true", help="recompute fresh records too")
    parser.add_argument("--check", action="store_true", help="report fresh/stale/missing units and exit")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    experiments = select(args.paper, args.experiment)
    if args.check:
        bad = 0
        for exp in experiments:
            status = exp.status(args.profile)
            counts = {k: len(v) for k, v in status.items()}
            bad += counts["stale"] + counts["missing"]
            print(
                f"{exp.id:40s} fresh {counts['fresh']:4d}  stale {counts['stale']:4d}  missing {counts['missing']:4d}"
            )
        return 1 if bad else 0

    total = time.perf_counter()
    for exp in experiments:
        start = time.perf_counter()
        results = exp.run(args.profile, jobs=args.jobs, scheduler=args.scheduler, recompute=args.recompute)
        print(
            f"{exp.id:40s} {len(results):4d} units  {time.perf_counter() - start:8.1f} s wall  "
            f"({results.elapsed_seconds:.1f} s of compute in the records)"
        )
    print(f"total {time.perf_counter() - total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
