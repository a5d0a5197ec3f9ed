r"""The two-block stochastic block model of GRAPL20's Fig. 1 (§4.1).

N arms in two communities of N/2: an edge joins two arms of the same community with probability
:math:`p_{in} = \log(N/2)/(N/2)` and two arms of different communities with probability
:math:`p_{out} = \log(N/2)/(N/2)^{3/2}`; unweighted, undirected, and (as in the authors' code)
not restricted to its largest component, so a few isolated arms are expected. The means are
:math:`\mu_i = +1` in the first community (arms 0..N/2−1) and −1 in the second.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from bandit_lib.checks import check_int
from bandit_lib.seeding import SeedLike, as_seed_sequence


def nx_seed(seed: SeedLike) -> int:
    """An int seed for networkx's generators, drawn from a SeedSequence."""
    return int(as_seed_sequence(seed).generate_state(1, dtype=np.uint32)[0])


def two_block_sbm(n_arms: int, seed: SeedLike) -> tuple[nx.Graph, np.ndarray]:
    """``(graph, means)`` of the Fig. 1 instance; ``n_arms`` must be even and at least 4.

    Example:

    >>> from bandit_lib.grapl20 import two_block_sbm
    >>> graph, means = two_block_sbm(20, seed=1)
    >>> graph.number_of_nodes(), means[:2].tolist(), means[-2:].tolist()
    (20, [1.0, 1.0], [-1.0, -1.0])
    """
    n_arms = check_int("n_arms", n_arms, minimum=4)
    if n_arms % 2:
        raise ValueError(f"n_arms must be even (two communities of n_arms/2); got n_arms={n_arms}")
    half = n_arms // 2
    p_in = np.log(half) / half
    p_out = np.log(half) / half**1.5
    graph = nx.stochastic_block_model([half, half], [[p_in, p_out], [p_out, p_in]], seed=nx_seed(seed))
    graph = nx.Graph(graph)  # drop the partition attributes; nodes stay 0..N-1
    means = np.concatenate([np.ones(half), -np.ones(half)])
    return graph, means
