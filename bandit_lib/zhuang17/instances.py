r"""Synthetic k-sigma test cases (ZHUANG17 §5.1; the ZHUANG17 chapter's reproduction notes, row N1).

The paper gives the grid (:math:`n \in \{20, 50, 100, 200\}`, :math:`k \in \{2, 2.5, 3\}`, 10 cases
each, Bernoulli rewards) but not how the means :math:`y_i` were drawn. Our default,
:func:`planted_outliers`, plants a few high outliers among normal arms::

    repeat:
        K ~ UniformInt{1, ..., max(1, round(frac * n))}      # Python's round (half to even)
        y = concat(Uniform(normal, n - K), Uniform(outlier, K)); shuffle(y)
    until ksigma_outliers(y, k) == the K planted arms and min_i |y_i - theta| >= min_gap

with ``normal=(0, 0.5)``, ``outlier=(0.6, 1)``, ``frac=0.05``, ``min_gap=0.01``. Rejection makes
the accepted ``K`` smaller than uniform (at most a fraction :math:`1/(1+k^2)` of arms can be
outliers). Two alternatives exist for sensitivity runs: :func:`natural` (i.i.d. right-skewed
Beta means, no planting; :math:`\Omega` may be empty and :math:`\Delta_{\min}` is uncontrolled)
and :func:`uniform_gap` (i.i.d. :math:`U[0,1]` means, rejected unless :math:`\Delta_{\min}` lies in
a window, the ADE20 recipe; for :math:`k \ge 2` its :math:`\Omega` is almost always empty).

The generators :func:`planted_outliers`, :func:`natural` and :func:`uniform_gap` return a
:class:`Case`. ``rng`` is a numpy Generator, or a seed from which one is derived.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bandit_lib.checks import check_in_range, check_int, check_nonnegative, check_positive
from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers, ksigma_threshold
from bandit_lib.seeding import generator
from bandit_lib.zhuang17.theory import H1, H2


@dataclass(frozen=True)
class Case:
    """A test case: arm means, the true outlier set, and how it was drawn."""

    means: np.ndarray
    k: float
    tries: int = 1

    @property
    def n(self) -> int:
        return len(self.means)

    @property
    def theta(self) -> float:
        return ksigma_threshold(self.means, self.k)

    @property
    def outliers(self) -> np.ndarray:
        return ksigma_outliers(self.means, self.k)

    @property
    def gap_min(self) -> float:
        return float(ksigma_gaps(self.means, self.k).min())

    def summary(self) -> dict:
        """``|Omega|``, Delta_min, H1, H2 and the number of draws (recorded with every result)."""
        return {
            "n": self.n,
            "k": self.k,
            "n_outliers": int(len(self.outliers)),
            "gap_min": self.gap_min,
            "H1": H1(self.means, self.k),
            "H2": H2(self.means, self.k),
            "tries": self.tries,
        }


def _rng(rng, name: str) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    return generator(rng, name)


def _check_interval(name: str, interval) -> tuple[float, float]:
    try:
        low, high = (float(v) for v in interval)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a pair (low, high); got {name}={interval!r}") from exc
    if not 0.0 <= low < high <= 1.0:
        raise ValueError(f"{name} must satisfy 0 <= low < high <= 1; got {name}={interval!r}")
    return low, high


def planted_outliers(
    n: int,
    k: float,
    rng,
    *,
    normal=(0.0, 0.5),
    outlier=(0.6, 1.0),
    frac: float = 0.05,
    min_gap: float = 0.01,
    max_tries: int = 100_000,
) -> Case:
    """A case with planted high outliers (see the module docstring); raises if none is accepted.

    Example (20 arms at k = 2.5, from seed 1; the planted outliers are the k-sigma set):

    >>> from bandit_lib.ksigma import ksigma_outliers
    >>> from bandit_lib.zhuang17 import planted_outliers
    >>> case = planted_outliers(20, 2.5, 1)
    >>> case.means.size, ksigma_outliers(case.means, 2.5).tolist()
    (20, [3])
    """
    n = check_int("n", n, minimum=3)
    k = check_nonnegative("k", k)
    normal = _check_interval("normal", normal)
    outlier = _check_interval("outlier", outlier)
    frac = check_in_range("frac", frac, 0.0, 1.0, high_open=False)
    min_gap = check_nonnegative("min_gap", min_gap)
    max_tries = check_int("max_tries", max_tries, minimum=1)
    gen = _rng(rng, "planted_outliers")
    k_max = max(1, round(frac * n))
    for tries in range(1, max_tries + 1):
        K = int(gen.integers(1, k_max + 1))
        y = np.concatenate([gen.uniform(*normal, size=n - K), gen.uniform(*outlier, size=K)])
        order = gen.permutation(n)
        y = y[order]
        planted = np.sort(np.flatnonzero(order >= n - K))
        if np.array_equal(ksigma_outliers(y, k), planted) and ksigma_gaps(y, k).min() >= min_gap:
            return Case(y, k, tries)
    raise RuntimeError(
        f"planted_outliers found no accepted case in max_tries={max_tries} draws (n={n}, k={k}, min_gap={min_gap})"
    )


def natural(n: int, k: float, rng, *, a: float = 2.0, b: float = 5.0) -> Case:
    """i.i.d. Beta(a, b) means (right-skewed for a < b), nothing planted."""
    n = check_int("n", n, minimum=3)
    k = check_nonnegative("k", k)
    a, b = check_positive("a", a), check_positive("b", b)
    return Case(_rng(rng, "natural").beta(a, b, size=n), k)


def uniform_gap(n: int, k: float, rng, *, gap=(0.1, 0.2), max_tries: int = 100_000) -> Case:
    """i.i.d. U[0, 1] means, redrawn until Delta_min lies in ``gap`` (the ADE20 recipe)."""
    n = check_int("n", n, minimum=3)
    k = check_nonnegative("k", k)
    low, high = _check_interval("gap", gap)
    max_tries = check_int("max_tries", max_tries, minimum=1)
    gen = _rng(rng, "uniform_gap")
    for tries in range(1, max_tries + 1):
        y = gen.uniform(0.0, 1.0, size=n)
        g = ksigma_gaps(y, k).min()
        if low <= g <= high:
            return Case(y, k, tries)
    raise RuntimeError(
        f"uniform_gap found no case with Delta_min in {gap} in max_tries={max_tries} draws (n={n}, k={k})"
    )
