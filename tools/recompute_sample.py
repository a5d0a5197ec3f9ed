"""Recompute some units of an experiment in this process and compare their payloads with the
records in the store, byte for byte (their canonical sha256): a check that a result does not depend
on the environment (run it under another scipy, numpy or Python).

    python tools/recompute_sample.py arena/correctness [--units 4] [--results DIR]

Prints, for each unit, whether the recomputed payload equals the stored one (or does apart from its
wall-clock fields, as tools/compare_results.py judges them; else the first path that differs), the
wall and CPU seconds it took here beside the seconds its record gives (a unit runs with BLAS at one
thread and the kernels pinned, as `reproduce` runs it), and the versions it ran under; exits 1 if any differs. Nothing is
written to the store.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

if __name__ == "__main__":  # the kernels `reproduce` computes with, before numpy loads
    from bandit_lib.infra.kernels import exec_pinned_script

    exec_pinned_script(__file__)

# Which payload keys are wall-clock measurements, and the first path where two payloads differ: the
# rule of tools/compare_results.py, so that both tools leave out the same fields.
from compare_results import first_difference  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("experiment", help="paper/name, e.g. arena/correctness")
    parser.add_argument("--units", type=int, default=None, help="how many units, spread over the plan (default: all)")
    parser.add_argument("--key", action="append", default=[], help="only these unit keys (repeatable)")
    parser.add_argument("--results", type=Path, default=None, help="result root (default: data/results)")
    args = parser.parse_args(argv)

    from bandit_lib.blas_threads import single_blas_thread
    from bandit_lib.infra.environment import environment
    from bandit_lib.infra.profiles import committed_results_root
    from bandit_lib.infra.registry import select
    from bandit_lib.infra.store import ResultStore, normalise, payload_digest

    paper, _, name = args.experiment.partition("/")
    (exp,) = select(paper, name)
    store = ResultStore(args.results or committed_results_root())
    units = exp.units("full")
    if args.key:
        units = [u for u in units if u.key in args.key]
    if args.units:
        step = max(1, len(units) // args.units)
        units = units[::step][: args.units]
    env = environment()
    print(
        f"{exp.id}: {len(units)} units under Python {env['python']}, "
        + ", ".join(f"{k} {v}" for k, v in env["packages"].items())
    )
    differ = 0
    for unit in units:
        record = store.read(exp.paper, exp.name, unit.key)
        start, cpu = time.perf_counter(), time.process_time()
        with single_blas_thread():
            payload = exp.compute(seed=exp.seed(unit), **unit.params)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        exact = record is not None and payload_digest(payload) == record.data["payload_sha256"]
        where = None if exact or record is None else first_difference(normalise(payload), record.payload)
        same = exact or (record is not None and where is None)
        differ += not same
        word = (
            "identical"
            if exact
            else ("identical apart from wall times" if same else f"DIFFERS ({where or 'no record'})")
        )
        if record is None:
            recorded = "no record"
        else:
            data = record.data
            recorded = f"recorded {data.get('cpu_seconds', data['elapsed_seconds']):.1f} s " + (
                "CPU" if "cpu_seconds" in data else "wall"
            )
        print(f"  {unit.key}: {word} (here {wall:.1f} s wall, {cpu:.1f} s CPU; {recorded})", flush=True)
    print(f"{len(units) - differ} of {len(units)} identical")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
