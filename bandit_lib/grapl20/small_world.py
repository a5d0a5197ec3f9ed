r"""The Newman–Watts small-world graph with a smooth signal, GRAPL20's Fig. 2 (§4.2).

The graph is a ring of N arms, each linked to its k nearest neighbours, plus for every ring edge
a shortcut with probability p (``networkx.newman_watts_strogatz_graph``; nothing is removed, so
it is connected). The signal is a low-pass filtered Gaussian vector:

.. math::

    &y \sim N(0, I_N), \quad \mu_0 = (L + I/N^2)^{-1} y,\\
    &\mu_0 \leftarrow \frac{\mu_0 - \mathrm{median}(\mu_0)}{5\,\mathrm{std}(\mu_0)}, \quad
    \mu = \mathrm{clip}(\mu_0 + 0.5, 0, 1),

so μ has median 0.5 and standard deviation 0.2 before clipping (population std). Rewards are
Bernoulli(μ_i). ``ridge`` adds :math:`\lambda I` inside the filter, as the authors' "Compute
optimal gamma" notebook did (:math:`(L + \lambda I + I/N^2)^{-1}`); the figure uses ``ridge=0``.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp

from bandit_lib.checks import check_in_range, check_int, check_nonnegative
from bandit_lib.grapl20.dense import spd_solve
from bandit_lib.grapl20.estimator import laplacian
from bandit_lib.grapl20.sbm import nx_seed
from bandit_lib.seeding import SeedLike, derive


def smooth_signal(graph: nx.Graph, seed: SeedLike, ridge: float = 0.0) -> np.ndarray:
    """The normalised, clipped low-pass signal of the module docstring on ``graph``."""
    ridge = check_nonnegative("ridge", ridge)
    L = laplacian(graph)
    n = L.shape[0]
    y = np.random.default_rng(derive(seed, "signal")).standard_normal(n)
    # A dense Cholesky solve in numba loops, not SuperLU (which calls BLAS, whose kernels depend on
    # the machine): the signal is every trial's ground truth, and its last bits must not move.
    mu0 = spd_solve((L + (ridge + 1.0 / n**2) * sp.eye_array(n)).toarray(), y)
    mu0 = (mu0 - np.median(mu0)) / (5.0 * np.std(mu0))
    return np.clip(mu0 + 0.5, 0.0, 1.0)


def newman_watts_smooth(
    n_arms: int, seed: SeedLike, *, k: int = 4, p: float = 0.01, ridge: float = 0.0
) -> tuple[nx.Graph, np.ndarray]:
    """``(graph, means)`` of the Fig. 2 instance (k = 4 neighbours, shortcut probability 0.01)."""
    n_arms = check_int("n_arms", n_arms, minimum=3)
    k = check_int("k", k, minimum=2, maximum=n_arms - 1)
    p = check_in_range("p", p, 0.0, 1.0, low_open=False, high_open=False)
    graph = nx.newman_watts_strogatz_graph(n_arms, k, p, seed=nx_seed(derive(seed, "graph")))
    return graph, smooth_signal(graph, seed, ridge)
