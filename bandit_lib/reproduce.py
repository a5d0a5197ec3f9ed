"""``python -m bandit_lib.reproduce``: the command-line entry of :mod:`bandit_lib.infra.reproduce`.

Run as a command it first re-executes itself with OpenBLAS's kernels and numpy's SIMD loops pinned
(:mod:`bandit_lib.infra.kernels`), so that the results it computes are the same on any x86-64
machine."""

import sys

if __name__ == "__main__":
    from bandit_lib.infra.kernels import exec_pinned

    exec_pinned("bandit_lib.reproduce")

from bandit_lib.infra.reproduce import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
