r"""A seeded, Jester-like stand-in for Jester dataset 1 (which cannot be downloaded here).

Every figure drawn from it is labelled *synthetic stand-in*. The generator (the UIG chapter's reproduction notes, row N14):

* 24,983 users, 100 jokes, ratings in [-10, 10] rounded to 0.01;
* joke quality :math:`q_j \sim N(0.9, 1.6^2)` clipped to [-4, 4]; user bias
  :math:`b_u \sim N(0, 2^2)`; rank-3 taste :math:`U_u \sim N(0, I_3)`, :math:`V_j \sim N(0, 0.9^2 I_3)`;
  noise :math:`N(0, 4^2)`; :math:`r_{uj} = \mathrm{clip}(q_j + b_u + U_u \cdot V_j + \text{noise}, -10, 10)`;
* missingness: every user rates the ten "gauge" jokes 5, 7, 8, 13, 15, 16, 17, 18, 19, 20
  (1-based, as in Jester) and a uniformly random subset of the others, for a total
  :math:`n_u \sim \mathrm{Uniform}\{36, \dots, 100\}` (density about 0.68).

The result has the layout :func:`bandit_lib.uig.jester.load_jester` returns (NaN = not rated),
so the experiment runs unchanged on a real copy.
"""

from __future__ import annotations

import numpy as np

from bandit_lib.checks import check_int
from bandit_lib.seeding import SeedLike, generator

GAUGE = (5, 7, 8, 13, 15, 16, 17, 18, 19, 20)  # 1-based joke numbers
PARAMETERS = {
    "quality_mean": 0.9,
    "quality_sd": 1.6,
    "quality_clip": 4.0,
    "user_bias_sd": 2.0,
    "rank": 3,
    "taste_sd": 0.9,
    "noise_sd": 4.0,
    "min_rated": 36,
}


def jester_like(seed: SeedLike, n_users: int = 24983, n_jokes: int = 100) -> np.ndarray:
    """Ratings (users, jokes) in [-10, 10] with NaN for "not rated"; see the module docstring."""
    n_users = check_int("n_users", n_users, minimum=1)
    # every user rates at least min_rated jokes, the gauge jokes among them
    n_jokes = check_int("n_jokes", n_jokes, minimum=max(max(GAUGE), PARAMETERS["min_rated"]))
    p = PARAMETERS
    rng = generator(seed, "jester-like")
    quality = np.clip(rng.normal(p["quality_mean"], p["quality_sd"], n_jokes), -p["quality_clip"], p["quality_clip"])
    bias = rng.normal(0.0, p["user_bias_sd"], n_users)
    U = rng.normal(0.0, 1.0, (n_users, p["rank"]))
    V = rng.normal(0.0, p["taste_sd"], (n_jokes, p["rank"]))
    noise = rng.normal(0.0, p["noise_sd"], (n_users, n_jokes))
    # U V^T summed term by term in a fixed order, not by BLAS (whose kernels, fused multiply-adds or
    # not, depend on the processor): a last bit could move a rating across a rounding boundary.
    taste = np.zeros((n_users, n_jokes))
    for k in range(p["rank"]):
        taste += np.outer(U[:, k], V[:, k])
    R = np.round(np.clip(quality[None, :] + bias[:, None] + taste + noise, -10.0, 10.0), 2)
    gauge = np.array(GAUGE) - 1
    others = np.setdiff1d(np.arange(n_jokes), gauge)
    count = rng.integers(p["min_rated"], n_jokes + 1, n_users)
    # A uniformly random subset of count - 10 other jokes: the smallest ranks of random keys.
    ranks = np.argsort(np.argsort(rng.random((n_users, len(others))), axis=1), axis=1)
    rated = np.zeros((n_users, n_jokes), dtype=bool)
    rated[:, gauge] = True
    rated[:, others] = ranks < (count - len(gauge))[:, None]
    R[~rated] = np.nan
    return R
