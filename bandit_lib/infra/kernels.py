"""The same numbers on every x86-64 machine: OpenBLAS's kernels and numpy's SIMD loops pinned.

OpenBLAS (numpy's and scipy's copies) chooses its kernels for the CPU it loads on, and numpy its
SIMD loops; a dot product accumulated in AVX-512 lanes and one accumulated in AVX2 lanes differ in
their last bits. Most results never notice, but an optimiser's path does: scipy's SLSQP calls BLAS,
and the arena's yardsticks (Kelley's cutting planes after SLSQP) stop at another iteration. Seen on
two AMD EPYC machines of this project, one with AVX-512 (OpenBLAS chose its SkylakeX kernels) and
one without (Haswell kernels): ``arena/bounds`` planted n = 20 gave G_lo 705.1790034686652 against
705.1790034686653 and took 277 CPU s against 38; ``arena/efficiency``'s T_hi differed from the
eighth digit. Every other experiment sampled gave identical payloads on both.

Both libraries read their choice from the environment once, when they load, so the pin is two
environment variables that must be set before Python imports numpy:

* ``OPENBLAS_CORETYPE=Nehalem``: OpenBLAS's SSE4.2 kernels, which every x86-64 CPU since 2008 runs
  (numpy's own baseline, x86-64-v2, asks for the same);
* ``NPY_DISABLE_CPU_FEATURES``: numpy's dispatched AVX2 and AVX-512 loops off, so every ufunc runs
  its baseline loop.

With both, a record computed on one x86-64 machine is computed again bit for bit on another with
the same pins (the library's JIT-compiled engines need no pin: without ``fastmath`` LLVM keeps IEEE
order whatever the vector width). ``python -m bandit_lib.reproduce`` and ``tools/recompute_sample.py`` re-execute
themselves with the pin when it is missing; the Makefile sets it for ``make test`` and
``make book``. Elsewhere (other CPU architectures, where these names mean nothing) nothing is
pinned, and a record's ``environment["kernels"]`` says what its process ran.

This module imports nothing heavy: it must run before numpy loads (so it must not import the JIT
compiler either, which loads numpy; tests/test_kernels.py checks that it loads without numpy).
"""

from __future__ import annotations

import os
import platform
import sys

#: the pin, by environment variable
PIN = {
    "OPENBLAS_CORETYPE": "Nehalem",
    "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR",
}


def applies() -> bool:
    """Whether this machine is one the pin is for (x86-64)."""
    return platform.machine().lower() in ("x86_64", "amd64")


def pinned_environment(env: dict[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's environment) with the pin set, on x86-64."""
    env = dict(os.environ if env is None else env)
    if applies():
        env.update(PIN)
    return env


def requested() -> bool:
    """Whether this process's environment asks for the pin (it takes effect only if it was set
    before numpy loaded: :func:`state` says what the loaded libraries run)."""
    return not applies() or all(os.environ.get(name) == value for name, value in PIN.items())


def _reexec(target: list[str], what: str) -> None:
    """Replace this process by ``python <target> <same arguments>`` with the pin, unless it is already
    requested (then return at once)."""
    if requested():
        return
    if "numpy" in sys.modules:
        raise RuntimeError(
            f"numpy was imported before {what} could pin its kernels: set "
            + " ".join(f"{k}={v!r}" for k, v in PIN.items())
        )
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *target, *sys.argv[1:]], pinned_environment())


def exec_pinned(module: str) -> None:
    """Re-execute ``python -m module`` with the same arguments and the pin, unless it is already
    requested (then return at once). Call it before anything imports numpy."""
    _reexec(["-m", module], module)


def exec_pinned_script(path: str) -> None:
    """:func:`exec_pinned` for a script run by path (``python tools/x.py ...``)."""
    _reexec([path], path)


def state() -> dict:
    """What the loaded libraries run: OpenBLAS's kernel set per copy, and numpy's dispatched SIMD
    targets in use (empty: its baseline loops only). Imports numpy."""
    import numpy  # noqa: F401
    import scipy.linalg  # noqa: F401
    from numpy._core import _multiarray_umath as umath
    from threadpoolctl import threadpool_info

    blas = sorted({str(i.get("architecture")) for i in threadpool_info() if i.get("internal_api") == "openblas"})
    simd = [name for name in umath.__cpu_dispatch__ if umath.__cpu_features__.get(name)]
    return {"pinned": requested() and applies(), "openblas": blas, "numpy_simd": simd}


def in_effect(current: dict | None = None) -> bool:
    """Whether the loaded libraries run the pinned kernels, by ``current`` (default: :func:`state`);
    always True where the pin does not apply."""
    if not applies():
        return True
    current = state() if current is None else current
    return current["openblas"] == [PIN["OPENBLAS_CORETYPE"]] and current["numpy_simd"] == []


def checked() -> tuple[dict, bool]:
    """``(current, pinned)``: what this process runs (:func:`state`, read once) and whether it is the
    pin (:func:`in_effect`); ``reproduce`` asks it of itself and of each Dask worker. Imports numpy."""
    current = state()
    return current, in_effect(current)
