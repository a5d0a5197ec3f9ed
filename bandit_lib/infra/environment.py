"""Where a result was computed: the interpreter, the numerical libraries, the CPU and the BLAS.

Every record of the result store carries :func:`environment` of the process that computed it (a
joblib or Dask worker, not the process that saved it), so that a reader can tell which records
were made elsewhere, and :func:`describe_difference` says in what they differ. Results are
bit-identical within one environment, and across x86-64 CPUs when the kernels are pinned
(:mod:`bandit_lib.infra.kernels`, ``environment["kernels"]``); across library versions a
BLAS-bound or optimiser-bound computation may differ in its last bits (see ``data/README.md``).
"""

from __future__ import annotations

import os
import platform
from functools import lru_cache
from importlib import metadata
from typing import Any

#: The packages whose versions a record names.
PACKAGES = ("numpy", "scipy", "numba", "joblib", "pandas", "networkx")


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _memory_gib() -> float | None:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        return None


def _blas() -> list[dict[str, Any]]:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return []
    keep = ("internal_api", "version", "architecture", "threading_layer")
    return sorted(
        ({k: info.get(k) for k in keep} for info in threadpool_info() if info.get("user_api") == "blas"),
        key=lambda d: str(d),
    )


def _kernels() -> dict[str, Any]:
    from bandit_lib.infra.kernels import state

    return state()


@lru_cache(maxsize=1)
def environment() -> dict[str, Any]:
    """This process's environment, as a record stores it (computed once per process)."""
    import numpy  # noqa: F401  (loads the BLAS that threadpoolctl reports)

    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "os": f"{platform.system()} {platform.release()}",
        "machine": platform.machine(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": _memory_gib(),
        "packages": versions,
        "blas": _blas(),
        "kernels": _kernels(),
    }


def describe_difference(stored: dict[str, Any] | None, current: dict[str, Any]) -> str:
    """In what a stored environment differs from ``current``, in words ('' when they agree)."""
    if not stored:
        return "not recorded"
    parts = []
    if stored.get("python") != current.get("python"):
        parts.append(f"Python {stored.get('python')}")
    old, new = stored.get("packages") or {}, current.get("packages") or {}
    parts += [f"{name} {old.get(name)}" for name in PACKAGES if old.get(name) != new.get(name)]
    if stored.get("cpu") != current.get("cpu"):
        parts.append(f"CPU {stored.get('cpu')}")
    if stored.get("blas") != current.get("blas"):
        parts.append("another BLAS")
    pinned = (stored.get("kernels") or {}).get("pinned")
    if pinned != (current.get("kernels") or {}).get("pinned"):
        parts.append("pinned kernels" if pinned else "unpinned kernels")
    return ", ".join(parts)
