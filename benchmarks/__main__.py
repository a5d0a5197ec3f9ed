"""`python -m benchmarks [name ...]`: run every benchmarks/bench_*.py module (or the named ones)."""

from __future__ import annotations

import importlib
import pkgutil
import platform
import sys
import time
from pathlib import Path

import pandas as pd


def header() -> str:
    """What the numbers were measured on: Python, the CPU and its cores, and the numerical kernels
    (numba's are compiled for this CPU; OpenBLAS's and numpy's are pinned only under the Makefile's
    ``KERNELS``, see bandit_lib/infra/kernels.py)."""
    from bandit_lib.infra.environment import environment

    env = environment()
    kernels = env["kernels"]
    loops = ", ".join(kernels["numpy_simd"]) or "baseline"
    return (
        f"python {env['python']} on {platform.machine()}, {env['cpu']}, {env['cores']} cores; "
        f"OpenBLAS {'/'.join(kernels['openblas']) or 'not loaded'}, numpy loops {loops}"
        f"{' (pinned)' if kernels['pinned'] else ''}"
    )


def main(argv: list[str]) -> int:
    names = sorted(m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if m.name.startswith("bench_"))
    if argv:
        unknown = sorted(set(argv) - set(names))
        if unknown:
            print(f"unknown benchmark(s) {unknown}; known: {names}", file=sys.stderr)
            return 2
        names = argv
    print(header())
    for name in names:
        start = time.perf_counter()
        rows = importlib.import_module(f"benchmarks.{name}").run()
        print(f"\n== {name} ({time.perf_counter() - start:.1f} s)")
        print(pd.DataFrame(rows).to_string(index=False, float_format=lambda x: f"{x:,.3g}"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
