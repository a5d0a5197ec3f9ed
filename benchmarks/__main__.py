"""`python -m benchmarks [name ...]`: run every benchmarks/bench_*.py module (or the named ones)."""

from __future__ import annotations

import importlib
import pkgutil
import platform
import sys
import time
from pathlib import Path

import pandas as pd


def main(argv: list[str]) -> int:
    names = sorted(m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if m.name.startswith("bench_"))
    if argv:
        unknown = sorted(set(argv) - set(names))
        if unknown:
            print(f"unknown benchmark(s) {unknown}; known: {names}", file=sys.stderr)
            return 2
        names = argv
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'unknown cpu'}")
    for name in names:
        start = time.perf_counter()
        rows = importlib.import_module(f"benchmarks.{name}").run()
        print(f"\n== {name} ({time.perf_counter() - start:.1f} s)")
        print(pd.DataFrame(rows).to_string(index=False, float_format=lambda x: f"{x:,.3g}"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
