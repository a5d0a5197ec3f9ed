"""Compare the payloads of two result stores, unit by unit.

    python tools/compare_results.py NEW_ROOT [OLD_ROOT] [--paper P] [--experiment E]

OLD_ROOT defaults to data/results. Every record of NEW_ROOT (for example a scratch store that
`BANDIT_RESULTS=<dir> make reproduce` filled with the current code) is compared with the record
of the same unit in OLD_ROOT: identical payloads, different payloads (with the first path where
they differ), or no old record. Parameters and seeds must match for a comparison to count.
Use it to show that a change which should compute nothing differently does not: the exit status
is 1 if any payload differs. Wall-clock measurements differ from run to run by nature: payload
keys named ``wall_s``, ``seconds`` or ``... seconds`` are left out of the comparison, and so is
``uig/timing`` (the running times of UIG's Tables I-II), unless ``--timings`` is given.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


TIMING_EXPERIMENTS = {"uig/timing"}


def is_timing(key: str) -> bool:
    """A payload key that holds a wall-clock measurement."""
    # the arena's yardstick records its solvers' wall times beside their (iteration-budgeted) values
    return key in ("wall_s", "seconds", "certify_s", "gauss_s", "exact_s") or key.endswith(" seconds")


def first_difference(a: Any, b: Any, path: str = "payload", timings: bool = False) -> str | None:
    """The first path at which two JSON values differ, or None if they are equal (timings left
    out unless ``timings``)."""
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return f"{path}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if not timings and is_timing(key):
                continue
            if key not in a or key not in b:
                return f"{path}.{key}: only in {'new' if key in a else 'old'}"
            found = first_difference(a[key], b[key], f"{path}.{key}", timings)
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]", timings)
            if found:
                return found
        return None
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return None  # a NaN is the same result as a NaN (a row with no k, say)
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("new", type=Path, help="result root (or profile folder) with the records to check")
    parser.add_argument("old", type=Path, nargs="?", default=ROOT / "data" / "results")
    parser.add_argument("--paper", default=None)
    parser.add_argument("--experiment", default=None)
    parser.add_argument("--show", type=int, default=5, help="differences to print per experiment")
    parser.add_argument("--timings", action="store_true", help="compare wall-clock measurements too")
    args = parser.parse_args(argv)

    new_root = args.new / "full" if (args.new / "full").is_dir() else args.new
    counts: dict[str, Counter] = {}
    shown: Counter = Counter()
    for path in sorted(new_root.glob("*/*/*.json")):
        paper, experiment = path.parts[-3], path.parts[-2]
        if (args.paper and paper != args.paper) or (args.experiment and experiment != args.experiment):
            continue
        exp_id = f"{paper}/{experiment}"
        tally = counts.setdefault(exp_id, Counter())
        new = json.loads(path.read_text())
        old_path = args.old / paper / experiment / path.name
        if not old_path.exists():
            tally["no old record"] += 1
            continue
        old = json.loads(old_path.read_text())
        if (new["params"], new["seed"]) != (old["params"], old["seed"]):
            tally["parameters or seed differ"] += 1
            continue
        if exp_id in TIMING_EXPERIMENTS and not args.timings:
            tally["timings only (not compared)"] += 1
            continue
        diff = first_difference(new["payload"], old["payload"], timings=args.timings)
        if diff is None:
            tally["identical"] += 1
        else:
            tally["different"] += 1
            if shown[exp_id] < args.show:
                shown[exp_id] += 1
                print(f"  {exp_id}/{path.stem}: {diff[:200]}")
    for exp_id, tally in counts.items():
        print(f"{exp_id:40s} " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    return 1 if any(t["different"] or t["parameters or seed differ"] for t in counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
