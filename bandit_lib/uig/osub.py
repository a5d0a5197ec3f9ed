r"""OSUB (Combes and Proutière 2014), the unimodal-bandit baseline of the UIG paper (complete side
information only).

A connected UIG is unimodal: from every suboptimal arm a path of non-decreasing means leads to the
best arm, so the best arm is the one whose neighbours are all worse. OSUB exploits this around
the current *leader* :math:`L(t) = \arg\max_k \bar x_k`. With :math:`l_L` the number of rounds
in which L has been the leader (this one included) and :math:`\gamma` the maximum degree of the
graph:

* if :math:`(l_L - 1)` is a multiple of :math:`\gamma + 1`, play L;
* otherwise play the arm of :math:`N[L]` with the largest KL-UCB index
  :math:`\sup\{q : n_k\, \mathrm{KL}(\bar x_k, q) \le \log l_L\}`, which for Gaussian rewards
  with variance :math:`\sigma^2` is :math:`\bar x_k + \sqrt{2\sigma^2 \log l_L / n_k}`.

Choices of the book (the UIG chapter's reproduction notes, row N6): the log log term's constant c = 0; every arm is played once in
ascending id first, and leader counts start after that; ties at random.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.checks import check_positive
from bandit_lib.tapes import DecisionStream
from bandit_lib.uig.problem import check_adjacency, closed_neighbourhoods
from bandit_lib.uig.protocol import argmax_ties, check_stream


class OSUB:
    """OSUB on the unit interval graph ``graph`` (A; Gaussian KL-UCB with variance ``sigma**2``).

    Example (the arms of :class:`~bandit_lib.uig.ucb1.UCB1`'s example, with their graph; 300 rounds; the plays of each arm):

    >>> import numpy as np
    >>> from bandit_lib.tapes import decision_stream, gaussian_tape
    >>> means = [0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9]
    >>> from bandit_lib.uig import OSUB, similarity_graph, simulate
    >>> A = similarity_graph(means, 0.16)  # the unit interval graph at eps = 0.16
    >>> arms = simulate(OSUB(A, decision_stream(1), sigma=0.5), gaussian_tape(means, 0.5, seed=1), 300)
    >>> np.bincount(arms, minlength=7).tolist()
    [1, 2, 5, 12, 41, 238, 1]
    """

    def __init__(self, graph, stream: DecisionStream, *, sigma: float = 1.0):
        A = check_adjacency("graph", graph)
        self.closed = closed_neighbourhoods(A)
        self.gamma = int(A.sum(axis=1).max())
        self.sigma = check_positive("sigma", sigma)
        self.stream = check_stream(stream)
        K = len(A)
        self.n = np.zeros(K, dtype=np.int64)
        self.s = np.zeros(K)
        self.leader_count = np.zeros(K, dtype=np.int64)
        self._leader: int | None = None

    def select(self) -> int:
        self._leader = None
        if (self.n == 0).any():
            return int(np.argmax(self.n == 0))
        xbar = self.s / self.n
        leader = argmax_ties(xbar, self.stream)
        self._leader = leader
        count = self.leader_count[leader] + 1
        if (count - 1) % (self.gamma + 1) == 0:
            return leader
        around = np.flatnonzero(self.closed[leader])
        index = xbar[around] + np.sqrt(2.0 * self.sigma**2 * math.log(count) / self.n[around])
        return int(around[argmax_ties(index, self.stream)])

    def update(self, arm: int, reward: float) -> None:
        if self._leader is not None:
            self.leader_count[self._leader] += 1
        self.n[arm] += 1
        self.s[arm] += reward
