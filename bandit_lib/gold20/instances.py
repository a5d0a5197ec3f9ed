r"""GOLD20 synthetic data: a tight block of (ε, ρ)-outliers injected among random normal arms.

The paper (§6.1) draws ρ·n normal means "randomly from [0, 1]" and injects (1−ρ)·n outlier arms
"until they satisfy the corresponding criterion of (ε, ρ)-outlier arm group", for two types:
*upper-side* (all outliers above every normal arm) and *intermediate* (outliers between two
normal groups). That recipe fixes neither where the outliers go, nor their spread, nor how the
result becomes Bernoulli means. This generator makes it precise (row N12 of the GOLD20 chapter's
reproduction notes)::

    K = round((1 - rho) n);  m = n - K
    upper:        u ~ U(0,1)^m;  D = max_i nbd(i, u);  g = (1+eps) D (1+margin)
                  o = max(u) + g + spread * D * U(0,1)^K              # a tight block of K outliers
    intermediate: u_l ~ U(0,1)^floor(m/2),  u_u ~ U(0,1)^ceil(m/2)
                  D = max(max nbd in u_l, max nbd in u_u);  g = (1+eps) D (1+margin)
                  o = max(u_l) + g + spread * D * U(0,1)^K
                  u_u <- max(o) + g + (u_u - min(u_u))               # upper group above the block
    y = lo + (hi - lo) (raw - min raw) / (max raw - min raw)           # affine map into [lo, hi]
    shuffle the arm order; the injected block is the outlier set

where ``nbd(i, N)`` is the neighbourhood distance of Definition 3.1 (the larger of i's two
adjacent gaps inside N). The definition is invariant under affine maps of the means, so the map
into [0.02, 0.98] keeps the labels. "Just beyond the boundary" (``margin = 0.25``) is what makes ε
matter for the data; a tight block (``spread = 1``) is what lets the k-sigma baselines succeed on
upper-side data at all. Both are *our* parameters, recorded with every instance.

Every instance is checked against the labelling procedures of :mod:`bandit_lib.gold20.problem`:
under the inclusive reading (``|G| <= K``) the injected block is the one and only valid group,
and under the literal strict reading (``|G| < K``) there is none (reproduction note N2). A draw that
fails the check (it cannot with the default parameters, but could with ``margin <= 0``) is
redrawn; the number of draws is recorded.

The generator is :func:`gold_synthetic`; a case is a :class:`GoldCase`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bandit_lib.checks import check_choice, check_in_range, check_int, check_nonnegative, check_positive, check_real
from bandit_lib.gold20.problem import label_groups, max_neighbourhood_distance, outlier_budget
from bandit_lib.seeding import SeedLike, generator

KINDS = ("upper", "intermediate")


@dataclass(frozen=True)
class GoldCase:
    """A GOLD20 test case: arm means, the true outlier set, and how it was drawn.

    ``outliers`` is the ground truth O (sorted arm indices); ``groups`` the valid (ε, ρ)-outlier
    groups found by the labelling procedure (a chain; the largest is O); ``labelling`` names the
    procedure (``"def3.2"`` = :func:`~bandit_lib.gold20.problem.label_groups`, ``"def3.1"`` = :func:`~bandit_lib.gold20.problem.label_arms` per arm); ``params`` the
    generator's parameters (recorded with every result).
    """

    means: np.ndarray
    outliers: np.ndarray
    groups: tuple[tuple[int, ...], ...]
    eps: float
    rho: float
    labelling: str
    params: dict = field(default_factory=dict)
    tries: int = 1

    @property
    def n(self) -> int:
        return len(self.means)

    def summary(self) -> dict:
        """JSON-friendly description (recorded with every result)."""
        y = self.means
        o = self.outliers
        normal = np.setdiff1d(np.arange(self.n), o)
        if len(o) and len(normal):
            gap = float(np.min(np.abs(y[o][:, None] - y[normal][None, :])))
        else:
            gap = float("nan")
        return {
            "n": self.n,
            "eps": self.eps,
            "rho": self.rho,
            "n_outliers": int(len(o)),
            "groups": [list(g) for g in self.groups],
            "labelling": self.labelling,
            "tries": self.tries,
            "min_outlier_normal_gap": gap,
            **self.params,
        }


def injected_count(n: int, rho: float) -> int:
    """K = (1 − ρ)·n, which the generator requires to be a positive integer (exact arithmetic)."""
    K = outlier_budget(n, rho)
    if K.denominator != 1 or K < 1:
        raise ValueError(
            f"the synthetic generator injects K = (1 - rho) * n outliers, which must be a positive "
            f"integer; got n={n}, rho={rho} (K = {float(K):g})"
        )
    return int(K)


def _raw(gen: np.random.Generator, n: int, eps: float, K: int, kind: str, margin: float, spread: float):
    """Raw values (before the affine map) and the positions of the K injected outliers."""
    m = n - K
    if kind == "upper":
        u = gen.uniform(0.0, 1.0, size=m)
        D = max_neighbourhood_distance(u)
        g = (1 + eps) * D * (1 + margin)
        o = u.max() + g + spread * D * gen.uniform(0.0, 1.0, size=K)
        return np.r_[u, o], np.arange(m, n)
    ul = gen.uniform(0.0, 1.0, size=m // 2)
    uu = gen.uniform(0.0, 1.0, size=m - m // 2)
    D = max(max_neighbourhood_distance(ul), max_neighbourhood_distance(uu))
    g = (1 + eps) * D * (1 + margin)
    o = ul.max() + g + spread * D * gen.uniform(0.0, 1.0, size=K)
    uu = o.max() + g + (uu - uu.min())
    return np.r_[ul, o, uu], np.arange(len(ul), len(ul) + K)


def gold_synthetic(
    n: int,
    eps: float,
    kind: str,
    seed: SeedLike | np.random.Generator,
    *,
    rho: float = 0.9,
    margin: float = 0.25,
    spread: float = 1.0,
    lo: float = 0.02,
    hi: float = 0.98,
    n_outliers: int | None = None,
    max_tries: int = 100,
) -> GoldCase:
    """One synthetic GOLD20 instance (see the module docstring).

    ``n_outliers`` (default K) injects fewer outliers, e.g. K − 1 for the strict-reading ablation;
    then the block must be the only group under both readings.

    Example: see :func:`~bandit_lib.gold20.gold.gold`'s; alone:

    >>> from bandit_lib.gold20 import gold_synthetic
    >>> case = gold_synthetic(20, 2.5, "upper", 1)
    >>> case.means.size, case.outliers.tolist(), case.rho
    (20, [4, 6], 0.9)
    """
    n = check_int("n", n, minimum=4)
    eps = check_positive("eps", eps)
    kind = check_choice("kind", kind, KINDS)
    rho = check_in_range("rho", rho, 0.5, 1.0)
    margin = check_real("margin", margin)
    spread = check_nonnegative("spread", spread)
    lo = check_in_range("lo", lo, 0.0, 1.0, low_open=False)
    hi = check_in_range("hi", hi, lo, 1.0, high_open=False)
    max_tries = check_int("max_tries", max_tries, minimum=1)
    K = injected_count(n, rho)
    n_out = K if n_outliers is None else check_int("n_outliers", n_outliers, minimum=1, maximum=K)
    if kind == "intermediate" and (n - n_out) // 2 <= K:
        raise ValueError(f"intermediate data needs each normal group larger than K = {K}; got n={n}, rho={rho}")
    gen = seed if isinstance(seed, np.random.Generator) else generator(seed, "gold_synthetic", kind, n, float(eps))
    params = {"kind": kind, "margin": margin, "spread": spread, "lo": lo, "hi": hi, "injected": n_out}
    for tries in range(1, max_tries + 1):
        raw, block = _raw(gen, n, eps, n_out, kind, margin, spread)
        y = lo + (hi - lo) * (raw - raw.min()) / (raw.max() - raw.min())
        perm = gen.permutation(n)  # arm a holds raw value perm[a]
        means = y[perm]
        inv = np.empty(n, dtype=np.int64)
        inv[perm] = np.arange(n)
        truth = np.sort(inv[block])
        groups = label_groups(means, eps, rho, reading="inclusive").groups
        strict = label_groups(means, eps, rho, reading="strict").groups
        strict_ok = len(strict) == 0 if n_out == K else (len(strict) == 1 and np.array_equal(strict[0], truth))
        if len(groups) == 1 and np.array_equal(groups[0], truth) and strict_ok:
            return GoldCase(
                means, truth, (tuple(int(a) for a in truth),), float(eps), float(rho), "def3.2", params, tries
            )
    raise RuntimeError(
        f"gold_synthetic(n={n}, eps={eps}, kind={kind!r}): no draw in {max_tries} tries had the "
        f"injected block as its only (eps, rho)-outlier group; margin={margin} is probably too small"
    )
