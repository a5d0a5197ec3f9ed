r"""OSSB (Combes, Magureanu and Proutière 2017), the structured-bandit baseline of the UIG paper
(complete side information only).

OSSB plays so as to match the exploration rates :math:`\eta` of the regret lower bound computed at
the estimated means. Each round, with :math:`t` plays so far:

1. compute :math:`\eta` from the plug-in lower-bound LP P1 (:mod:`bandit_lib.uig.lower_bound`)
   at the estimates :math:`\bar x`, around :math:`\hat\imath = \arg\max_{i \in \mathcal B^*} \bar x_i`;
2. if :math:`n_x \ge (1 + \gamma_o)\, \eta_x \log t` for every arm x, *exploit*: play the leader
   :math:`\arg\max_x \bar x_x` (``leader="all"``, the default), or :math:`\hat\imath`
   (``leader="candidates"``, an ablation);
3. otherwise count an exploration round s; if :math:`\min_x n_x \le \epsilon_o s` play
   :math:`\arg\min_x n_x` ("estimation"), else play :math:`\arg\min_x n_x / \eta_x` (:math:`\eta_x = 0`
   counts as infinite).

Choices of the book (the UIG chapter's reproduction notes, row N6): :math:`\epsilon_o = \gamma_o = 0`; every arm once in ascending id
first; ties at random. The leader of step 2 is the empirical best of all arms, as in OSSB itself
(often, early on, a middle arm with one lucky sample, which exploiting corrects); the ablation
``leader="candidates"`` exploits the arm the plug-in LP is built around instead, and can get stuck:
an arm whose estimate lies above the leader's has plug-in gap 0, so the LP never asks for more of
its samples. The plug-in LP is the book's construction of "OSSB solves an LP each step"
(gaps clipped at 0). ``solver="closed_form"`` (default) uses its closed-form optimum,
``solver="linprog"`` solves it with HiGHS every round (much slower; the tests check that both
take the same decisions, pull for pull). Clipped gaps of 0 give the LP several optima whose rates
differ by orders of magnitude; OSSB's paper speaks of *the* solution and does not say which to
take, so both solvers take the same canonical one, the optimum of least total exploration
:math:`\sum_x \eta_x` (then the lowest arm id among arms the LP cannot tell apart): the tie rule
of :mod:`bandit_lib.uig.lower_bound`.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.checks import check_choice, check_nonnegative, check_positive
from bandit_lib.tapes import DecisionStream
from bandit_lib.uig.candidates import candidate_set_complete
from bandit_lib.uig.lower_bound import LowerBoundLP
from bandit_lib.uig.problem import check_adjacency
from bandit_lib.uig.protocol import argmax_ties, argmin_ties, check_stream

SOLVERS = ("closed_form", "linprog")
LEADERS = ("candidates", "all")


class OSSB:
    """OSSB on the unit interval graph ``graph`` (A) with Gaussian rewards of variance ``sigma**2``.

    Example (the arms of :class:`~bandit_lib.uig.ucb1.UCB1`'s example, with their graph; 300 rounds; the plays of each arm):

    >>> import numpy as np
    >>> from bandit_lib.tapes import decision_stream, gaussian_tape
    >>> means = [0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9]
    >>> from bandit_lib.uig import OSSB, similarity_graph, simulate
    >>> A = similarity_graph(means, 0.16)  # the unit interval graph at eps = 0.16
    >>> arms = simulate(OSSB(A, decision_stream(1), sigma=0.5), gaussian_tape(means, 0.5, seed=1), 300)
    >>> np.bincount(arms, minlength=7).tolist()
    [1, 2, 3, 12, 1, 11, 270]
    """

    def __init__(
        self,
        graph,
        stream: DecisionStream,
        *,
        sigma: float = 1.0,
        solver: str = "closed_form",
        eps_o: float = 0.0,
        gamma_o: float = 0.0,
        candidates=None,
        leader: str = "all",
    ):
        self.A = check_adjacency("graph", graph)
        self.candidates = candidate_set_complete(self.A) if candidates is None else np.asarray(candidates)
        self.sigma = check_positive("sigma", sigma)
        self.solver = check_choice("solver", solver, SOLVERS)
        self.lp = LowerBoundLP(self.A)
        self._rates = self.lp.solve if solver == "closed_form" else self.lp.solve_linprog
        self.leader = check_choice("leader", leader, LEADERS)
        self.eps_o = check_nonnegative("eps_o", eps_o)
        self.gamma_o = check_nonnegative("gamma_o", gamma_o)
        self.stream = check_stream(stream)
        K = len(self.A)
        self.n = np.zeros(K, dtype=np.int64)
        self.s = np.zeros(K)
        self.explorations = 0
        self._explored = False

    def rates(self) -> np.ndarray:
        xbar = self.s / self.n
        best = int(self.candidates[np.argmax(xbar[self.candidates])])
        eta, _ = self._rates(xbar, best, self.sigma)
        return eta

    def select(self) -> int:
        self._explored = False
        if (self.n == 0).any():
            return int(np.argmax(self.n == 0))
        eta = self.rates()
        if (self.n >= (1.0 + self.gamma_o) * eta * math.log(self.n.sum())).all():
            xbar = self.s / self.n
            if self.leader == "all":
                return argmax_ties(xbar, self.stream)
            return int(self.candidates[argmax_ties(xbar[self.candidates], self.stream)])
        self._explored = True
        if self.n.min() <= self.eps_o * (self.explorations + 1):
            return argmin_ties(self.n.astype(np.float64), self.stream)
        with np.errstate(divide="ignore"):
            ratio = np.where(eta > 0, self.n / eta, np.inf)
        return argmin_ties(ratio, self.stream)

    def update(self, arm: int, reward: float) -> None:
        self.explorations += self._explored
        self._explored = False
        self.n[arm] += 1
        self.s[arm] += reward
