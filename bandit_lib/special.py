"""Quantile functions callable from numba kernels, bit-identical to :mod:`scipy.special`.

The fast engines must compute exactly the numbers the readable references compute, so they do
not re-implement ``erfcinv``/``ndtri``: they call scipy's own C implementations through their
Cython C-API function pointers. ``erfcinv_nb(x)`` is therefore the very same computation as
``scipy.special.erfcinv(x)`` (a test asserts equality bit for bit).

Why ``erfcinv`` and never ``erfinv(1 - x)``: for x below ~1e-16, ``1 - x`` rounds to 1.0 in
float64 and ``erfinv(1.0)`` is ``inf``; a confidence radius then becomes NaN, every comparison is
False, and a run ends spuriously. ``erfcinv(x)`` stays finite down to the smallest doubles.
"""

from __future__ import annotations

import llvmlite.binding as llvm
import numpy as np
from numba import njit, types
from numba.extending import get_cython_function_address
from scipy import special as sp


def _link(name: str) -> types.ExternalFunction:
    """Expose scipy's C function ``name`` to numba under a fixed symbol.

    Registering the symbol (rather than closing over a ctypes pointer) lets numba cache the
    compiled kernels on disk: the cache refers to the symbol by name, and importing this module
    registers its address again in every new process before any cached kernel is loaded.
    """
    symbol = f"bandit_lib_scipy_{name}"
    llvm.add_symbol(symbol, get_cython_function_address("scipy.special.cython_special", name))
    return types.ExternalFunction(symbol, types.float64(types.float64))


_erfcinv_c = _link("erfcinv")
_ndtri_c = _link("ndtri")


@njit(cache=True)
def erfcinv_nb(x: float) -> float:
    """erfc^{-1}(x) = erf^{-1}(1 - x), for use inside numba kernels."""
    return _erfcinv_c(x)


@njit(cache=True)
def ndtri_nb(p: float) -> float:
    """Phi^{-1}(p), the standard normal quantile, for use inside numba kernels."""
    return _ndtri_c(p)


def erfinv_one_minus(x: float | np.ndarray) -> float | np.ndarray:
    """erf^{-1}(1 - x), computed stably as ``erfcinv(x)``; finite for every x in (0, 2)."""
    return sp.erfcinv(x)


def normal_upper_quantile(x: float | np.ndarray) -> float | np.ndarray:
    """Phi^{-1}(1 - x), the upper x-quantile of N(0, 1), computed stably as ``-ndtri(x)``."""
    return -sp.ndtri(x)
