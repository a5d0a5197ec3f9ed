r"""LSDT with Thompson sampling (Xu et al. 2020, Sec. 5.3 and Appendix A.1). The paper describes
both variants in prose only; these are the book's concrete versions (the UIG chapter's reproduction
notes, rows N8 and N9).

Rewards are binarised as for :class:`~bandit_lib.uig.ts.ThompsonSampling`
(:math:`b \sim \mathrm{Bernoulli}(\mathrm{clip}(x, 0, 1))`); arm j keeps successes :math:`S_j`
and failures :math:`F_j`; priors are Beta(1, 1).

**LSDT-TS (CSI)** (:class:`LSDTTSComplete`). The candidate classes of CSI-OFF. Each round: draw
:math:`\theta_c \sim \mathrm{Beta}(1 + \sum_{j \in c} S_j, 1 + \sum_{j \in c} F_j)` for every class,
take the class with the largest draw, then draw :math:`\theta_j \sim \mathrm{Beta}(1 + S_j, 1 + F_j)`
within it and play the largest. No forced initialisation.

**LSDT-TS (PSI)** (:class:`LSDTTSPartial`; the book's own design, the paper gives no algorithm).
Active set A = :math:`\mathcal B_0`. Each round: Thompson sampling on A. After every ``every`` = 10
rounds, an elimination check on the pooled posteriors
:math:`P_i = \mathrm{Beta}(1 + \sum_{j \in N'[i]} S_j, 1 + \sum_{j \in N'[i]} F_j)`: draw M = 200
joint samples, estimate :math:`q_i = P(\tilde\theta_i + \epsilon \ge \max_{k \in A} \tilde\theta_k)`,
and remove :math:`i^- = \arg\min_{i \in A} q_i` if :math:`q_{i^-} \le 1/T` and its pooled count
:math:`\sum_{j \in N'[i^-]} n_j \ge \lceil \lambda \log T / \epsilon^2 \rceil` (λ = 1/8: "explored
sufficiently"); never the last arm.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.checks import check_int, check_positive
from bandit_lib.uig.lsdt_csi import check_classes
from bandit_lib.uig.problem import check_adjacency
from bandit_lib.uig.protocol import check_arms, check_generator
from bandit_lib.uig.ts import binarise


class LSDTTSComplete:
    """LSDT-TS with complete side information: class draw, then arm draw (Beta posteriors).

    Example (the arms of :class:`~bandit_lib.uig.ucb1.UCB1`'s example as Bernoulli arms; 300 rounds; the plays of each arm):

    >>> import numpy as np
    >>> from bandit_lib.tapes import decision_stream, gaussian_tape
    >>> means = [0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9]
    >>> from bandit_lib.uig import LSDTTSComplete, candidate_set_complete, equivalence_classes, similarity_graph, simulate
    >>> A = similarity_graph(means, 0.16)  # the unit interval graph at eps = 0.16
    >>> classes = equivalence_classes(A, nodes=candidate_set_complete(A))
    >>> from bandit_lib.tapes import bernoulli_tape
    >>> policy = LSDTTSComplete(7, np.random.default_rng(1), classes=classes)
    >>> arms = simulate(policy, bernoulli_tape(means, seed=1), 300)
    >>> np.bincount(arms, minlength=7).tolist()
    [2, 0, 0, 0, 0, 3, 295]
    """

    def __init__(self, n_arms: int, stream: np.random.Generator, *, classes):
        self.classes = check_classes(classes, n_arms)
        self.rng = check_generator(stream, "stream")
        self.successes = np.zeros(n_arms)
        self.failures = np.zeros(n_arms)

    def select(self) -> int:
        a = np.array([1.0 + self.successes[c].sum() for c in self.classes])
        b = np.array([1.0 + self.failures[c].sum() for c in self.classes])
        members = self.classes[int(np.argmax(self.rng.beta(a, b)))]
        theta = self.rng.beta(1.0 + self.successes[members], 1.0 + self.failures[members])
        return int(members[np.argmax(theta)])

    def update(self, arm: int, reward: float) -> None:
        b = binarise(reward, self.rng)
        self.successes[arm] += b
        self.failures[arm] += 1 - b


class LSDTTSPartial:
    """LSDT-TS with partial side information: Thompson sampling with pooled-posterior elimination.

    Example (the arms of :class:`~bandit_lib.uig.ucb1.UCB1`'s example as Bernoulli arms, 80 % of their graph revealed; 300 rounds; the plays of each arm):

    >>> import numpy as np
    >>> from bandit_lib.tapes import decision_stream, gaussian_tape
    >>> means = [0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9]
    >>> from bandit_lib.uig import LSDTTSPartial, eliminate_partial, reveal, similarity_graph, simulate
    >>> A = similarity_graph(means, 0.16)  # the unit interval graph at eps = 0.16
    >>> S, D = reveal(A, 0.8, 0.8, np.random.default_rng(1))  # partial side information
    >>> candidates = eliminate_partial(S, D)
    >>> from bandit_lib.tapes import bernoulli_tape
    >>> policy = LSDTTSPartial(S, np.random.default_rng(1), candidates=candidates, horizon=300, eps=0.16)
    >>> arms = simulate(policy, bernoulli_tape(means, seed=1), 300)
    >>> np.bincount(arms, minlength=7).tolist()
    [2, 5, 0, 0, 0, 3, 290]
    """

    def __init__(
        self,
        graph,
        stream: np.random.Generator,
        *,
        candidates,
        horizon: int,
        eps: float,
        lam: float = 1 / 8,
        every: int = 10,
        samples: int = 200,
    ):
        S = check_adjacency("graph", graph)
        self.arms = check_arms("candidates", candidates, len(S))
        self.horizon = check_int("horizon", horizon, minimum=1)
        self.eps = check_positive("eps", eps)
        self.rng = check_generator(stream, "stream")
        self.every = check_int("every", every, minimum=1)
        self.samples = check_int("samples", samples, minimum=1)
        self.closed = (S | np.eye(len(S), dtype=bool))[np.ix_(self.arms, self.arms)].astype(np.float64)
        self.explored_enough = math.ceil(check_positive("lam", lam) * math.log(self.horizon) / self.eps**2)
        self.active = np.ones(len(self.arms), dtype=bool)
        self.successes = np.zeros(len(S))
        self.failures = np.zeros(len(S))
        self.t = 0
        self.removed: list[tuple[int, int]] = []  # (round, arm)

    def select(self) -> int:
        a = self.arms[self.active]
        theta = self.rng.beta(1.0 + self.successes[a], 1.0 + self.failures[a])
        return int(a[np.argmax(theta)])

    def _eliminate(self) -> None:
        if self.active.sum() <= 1:
            return
        # Counts of 0/1 outcomes: integer sums, exact in any order, so BLAS's order cannot matter.
        S = self.closed @ self.successes[self.arms]
        F = self.closed @ self.failures[self.arms]
        live = np.flatnonzero(self.active)
        draws = self.rng.beta(1.0 + S[live], 1.0 + F[live], size=(self.samples, len(live)))
        q = (draws + self.eps >= draws.max(axis=1, keepdims=True)).mean(axis=0)
        worst = int(np.argmin(q))
        if q[worst] <= 1.0 / self.horizon and S[live[worst]] + F[live[worst]] >= self.explored_enough:
            self.active[live[worst]] = False
            self.removed.append((self.t, int(self.arms[live[worst]])))

    def update(self, arm: int, reward: float) -> None:
        b = binarise(reward, self.rng)
        self.successes[arm] += b
        self.failures[arm] += 1 - b
        self.t += 1
        if self.t % self.every == 0:
            self._eliminate()
