"""What the result store cost to compute, from its records: core-seconds per experiment and the
largest units. A record carries the wall seconds its unit took on one core (``elapsed_seconds``)
and, since records of 2026-11-28, the CPU seconds of its worker (``cpu_seconds``), which a loaded
machine stretches far less: a unit's cost is its CPU seconds where the record has them, else its
wall seconds, and each line says how many of its units were read from wall seconds.

    python tools/cost.py [--results DIR] [--paper KEY] [--top 15] [--against OTHER_DIR] [--limit 60]

Prints one line per experiment (units, core-seconds, share of the total, the largest unit and its
seconds), the total in core-minutes, then the ``--top`` largest units and every unit above
``--limit`` seconds. With ``--against``, a second store (say a scratch recompute) is read too and
each experiment gets its core-seconds there and the ratio, over the units both stores hold.

Only the standard library: it reads the JSON records and computes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def records(root: Path, paper: str | None = None) -> tuple[dict[tuple[str, str, str], float], set]:
    """``({(paper, experiment, unit): seconds}, wall_only)`` of every readable record under
    ``root``: its CPU seconds, or its wall seconds for a record without them (those units are
    ``wall_only``)."""
    out, wall_only = {}, set()
    pattern = f"{paper}/*/*.json" if paper else "*/*/*.json"
    for path in sorted(root.glob(pattern)):
        if ".quarantine" in path.parts:
            continue
        try:
            data = json.loads(path.read_text())
            name = (data["paper"], data["experiment"], data["unit"])
            if "cpu_seconds" in data:
                out[name] = float(data["cpu_seconds"])
            else:
                out[name] = float(data["elapsed_seconds"])
                wall_only.add(name)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"skipped {path}: {exc}", file=sys.stderr)
    return out, wall_only


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", type=Path, default=ROOT / "data" / "results", help="result root")
    parser.add_argument("--paper", default=None, help="one paper key (default: all)")
    parser.add_argument("--top", type=int, default=15, help="how many of the largest units to list")
    parser.add_argument("--limit", type=float, default=60.0, help="list every unit above this many seconds")
    parser.add_argument("--against", type=Path, default=None, help="a second result root to compare with")
    args = parser.parse_args(argv)

    base, wall_only = records(args.results, args.paper)
    if not base:
        print(f"no records under {args.results}", file=sys.stderr)
        return 1
    other = records(args.against, args.paper)[0] if args.against else {}
    per = defaultdict(list)
    for (paper, exp, unit), sec in base.items():
        per[paper, exp].append((sec, unit))
    total = sum(base.values())
    head = f"{'experiment':28s} {'units':>5s} {'wall':>4s} {'core-s':>8s} {'share':>6s} {'largest unit':>13s}"
    if other:
        head += f" {'core-s there':>13s} {'there/here':>10s}"
    print(head)
    for (paper, exp), items in sorted(per.items(), key=lambda kv: -sum(s for s, _ in kv[1])):
        cost = sum(s for s, _ in items)
        big, unit = max(items)
        wall = sum((paper, exp, u) in wall_only for _, u in items)
        line = f"{paper + '/' + exp:28s} {len(items):5d} {wall:4d} {cost:8.0f} {cost / total:6.1%} {big:12.1f}s  {unit}"
        if other:
            both = [(s, other[paper, exp, u]) for s, u in items if (paper, exp, u) in other]
            if both:
                here, there = sum(a for a, _ in both), sum(b for _, b in both)
                line += f"   {there:10.0f} ({len(both)} units) {there / here:6.2f}"
        print(line)
    walls = sum(name in wall_only for name in base)
    print(f"('wall': units whose records have only wall seconds, {walls} of {len(base)}; the others count CPU seconds)")
    print(
        f"total: {len(base)} units, {total:.0f} core-s = {total / 60:.1f} core-min ({total / 120:.1f} min on 2 cores)"
    )
    ranked = sorted(((s, f"{p}/{e}/{u}") for (p, e, u), s in base.items()), reverse=True)
    print(f"\nlargest {args.top} units:")
    for sec, name in ranked[: args.top]:
        print(f"  {sec:7.1f} s  {name}")
    above = [(s, n) for s, n in ranked if s > args.limit]
    print(f"\n{len(above)} units above {args.limit:g} s" + (":" if above else ""))
    for sec, name in above:
        print(f"  {sec:7.1f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
