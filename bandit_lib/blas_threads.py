"""Dense linear algebra on a single BLAS thread, so that its results do not depend on the machine.

OpenBLAS splits a factorisation differently for different thread counts, and the last bits of the
result change with the split. ``make reproduce JOBS=2`` runs each unit in a worker with one BLAS
thread while ``JOBS=1`` (and a notebook) runs it in a process with one thread per core: without
care the inverse of a 1000 x 1000 Laplacian differs in its last bits between the two, and a
GrAPL run whose index has an exact tie (two leaves of the same vertex, say) can then break it
differently. :func:`single_blas_thread` pins every OpenBLAS library loaded in the process to one
thread for the duration of a block (what threadpoolctl does), so those results are the same for
any number of workers.

It finds the libraries through ``/proc/self/maps`` (Linux, where the book is built); elsewhere,
or for a BLAS other than OpenBLAS, it does nothing and :func:`pinned` says so.
"""

from __future__ import annotations

import contextlib
import ctypes
from functools import lru_cache

_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads", "openblas_set_num_threads64_",
            "openblas_set_num_threads")
_GETTERS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads", "openblas_get_num_threads64_",
            "openblas_get_num_threads")


def _loaded_openblas_paths() -> list[str]:
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower() and ".so" in line}
    except OSError:
        return []
    return sorted(paths)


@lru_cache(maxsize=None)
def _controls(paths: tuple[str, ...]) -> tuple:
    controls = []
    for path in paths:
        lib = ctypes.CDLL(path)
        setter = next((getattr(lib, s) for s in _SETTERS if hasattr(lib, s)), None)
        getter = next((getattr(lib, g) for g in _GETTERS if hasattr(lib, g)), None)
        if setter is not None and getter is not None:
            getter.restype = ctypes.c_int
            setter.argtypes = [ctypes.c_int]
            controls.append((getter, setter))
    return tuple(controls)


def pinned() -> bool:
    """Whether :func:`single_blas_thread` can control the BLAS libraries of this process."""
    return bool(_controls(tuple(_loaded_openblas_paths())))


@contextlib.contextmanager
def single_blas_thread():
    """Within the block, every loaded OpenBLAS uses one thread; the previous counts are restored."""
    import numpy  # noqa: F401  (load the libraries before looking for them)
    import scipy.linalg  # noqa: F401

    controls = _controls(tuple(_loaded_openblas_paths()))
    previous = [getter() for getter, _ in controls]
    for _, setter in controls:
        setter(1)
    try:
        yield
    finally:
        for (_, setter), count in zip(controls, previous):
            setter(count)
