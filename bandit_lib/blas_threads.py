"""Dense linear algebra on a single BLAS thread, so that its results do not depend on the machine.

OpenBLAS splits a factorisation differently for different thread counts, and the last bits of the
result change with the split. ``make reproduce JOBS=2`` runs each unit in a worker with one BLAS
thread while ``JOBS=1`` (and a notebook) runs it in a process with one thread per core: without
care the inverse of a 1000 x 1000 Laplacian differs in its last bits between the two, and a
GrAPL run whose index has an exact tie (two leaves of the same vertex, say) can then break it
differently. :func:`single_blas_thread` limits every BLAS library loaded in the process to one
thread for the duration of a block (with threadpoolctl), so those results are the same for any
number of workers.
"""

from __future__ import annotations

import contextlib
from functools import lru_cache

from threadpoolctl import ThreadpoolController


@lru_cache(maxsize=1)
def _controller() -> ThreadpoolController:
    # Inspecting the loaded libraries is slow (milliseconds): do it once, after numpy's and
    # scipy's BLAS are loaded.
    import numpy  # noqa: F401
    import scipy.linalg  # noqa: F401

    return ThreadpoolController()


def blas_thread_counts() -> list[int]:
    """The current thread count of every BLAS library of this process."""
    return [lib.num_threads for lib in _controller().select(user_api="blas").lib_controllers]


def pinned() -> bool:
    """Whether :func:`single_blas_thread` controls at least one BLAS library of this process."""
    return bool(blas_thread_counts())


@contextlib.contextmanager
def single_blas_thread():
    """Within the block, every BLAS library uses one thread; the previous counts are restored."""
    with _controller().limit(limits=1, user_api="blas"):
        yield
