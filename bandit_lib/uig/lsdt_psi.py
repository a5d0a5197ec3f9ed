r"""LSDT-PSI, online step: epochs of elimination with neighbourhood-pooled confidence bounds,
then UCB (Xu et al. 2020, Sec. 4.2).

Input: the arms :math:`V' = \mathcal B_0` kept by the offline step, the similarity graph
:math:`G'` (type-S edges inside :math:`V'`, closed neighbourhoods :math:`N'[i]`), the exploration
values z of LP P2 (:mod:`bandit_lib.uig.domination`), the horizon T (the policy depends on
it), ε and λ > 0 (1/8 for the synthetic experiments, 1/32 for Jester).

With :math:`n_j, s_j` the plays and reward sum of arm j, the pooled statistics of arm i are
:math:`N_i = \sum_{j \in N'[i]} n_j`, :math:`\tilde\mu_i = \sum_{j \in N'[i]} s_j / N_i` and
:math:`w_i = \sqrt{\beta \log(T\tilde\Delta^2) / N_i}` with :math:`\beta = 1/2` (σ = 1/2
rewards such as Bernoulli; :math:`\beta \ge 2\sigma^2` in general). Set :math:`\tilde\Delta_0 = 1`,
:math:`B_0 = S_0 = V'` and

.. math:: m_f = \min\bigl\{\lceil \log_2(8 / (\sqrt{2\lambda}\,\epsilon)) \rceil,\;
                          \lfloor \tfrac12 \log_2(T/e) \rfloor\bigr\}.

For :math:`m = 0, \dots, m_f`:

1. if :math:`|B_m| = 1`, play its arm until T;
2. for each :math:`i \in S_m` in ascending id, play i until its *cumulative* count reaches
   :math:`\lceil \lambda z_i \log(T\tilde\Delta_m^2) / \tilde\Delta_m^2 \rceil`;
3. eliminate (eq. 16): keep :math:`i \in B_m` iff
   :math:`\tilde\mu_i + w_i + \epsilon > \max_{k \in B_m} (\tilde\mu_k - w_k)`, all with the same
   statistics (data of every arm of :math:`N'[i]`, eliminated or not);
4. :math:`S_{m+1}` = arms with a neighbour in :math:`B_{m+1}` (the survivors and their
   S-neighbours); :math:`\tilde\Delta_{m+1} = \tilde\Delta_m / 2`.

Then, to T: play :math:`\arg\max_{i \in B_{m_f+1}} \bar x_i + \sqrt{2 \log t / n_i}` (t plays so
far; individual statistics; an arm with :math:`n_i = 0`, possible when :math:`z_i = 0`, has an
infinite index: the UIG chapter's reproduction notes, row N7; ties at random). The policy never stops by itself: whoever runs
it stops at T, in any phase.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.checks import check_int, check_positive, check_vector
from bandit_lib.tapes import DecisionStream
from bandit_lib.uig.domination import exploration_values
from bandit_lib.uig.problem import check_adjacency
from bandit_lib.uig.protocol import argmax_ties, check_arms, check_stream


def final_epoch(horizon: int, eps: float, lam: float) -> int:
    r"""m_f; negative (no epochs) when T < e."""
    horizon = check_int("horizon", horizon, minimum=1)
    eps = check_positive("eps", eps)
    lam = check_positive("lam", lam)
    return min(math.ceil(math.log2(8.0 / (math.sqrt(2.0 * lam) * eps))), math.floor(0.5 * math.log2(horizon / math.e)))


def epoch_targets(z, horizon: int, m: int, lam: float) -> np.ndarray:
    r"""Cumulative play targets of epoch m: ceil(lam z log(T D^2) / D^2) with D = 2^-m."""
    delta2 = 0.25**m
    return np.ceil(lam * np.asarray(z) * math.log(horizon * delta2) / delta2).astype(np.int64)


class LSDTPSI:
    """LSDT-PSI's online step on ``candidates``, with the revealed similarity graph ``graph`` (S, over all arms).

    ``candidates`` is the offline step's B0 (:func:`~bandit_lib.uig.candidates.eliminate_partial`);
    the policy needs the ``horizon`` it will run for, and ``eps``. The paper's settings are the
    defaults: lam = 1/8 (its synthetic experiments; 1/32 for Jester), beta = 1/2.

    Example (the arms of :class:`~bandit_lib.uig.ucb1.UCB1`'s example, with 80 % of their graph revealed; 300 rounds; the plays of each arm):

    >>> import numpy as np
    >>> from bandit_lib.tapes import decision_stream, gaussian_tape
    >>> means = [0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9]
    >>> from bandit_lib.uig import LSDTPSI, eliminate_partial, reveal, similarity_graph, simulate
    >>> A = similarity_graph(means, 0.16)  # the unit interval graph at eps = 0.16
    >>> S, D = reveal(A, 0.8, 0.8, np.random.default_rng(1))  # partial side information
    >>> candidates = eliminate_partial(S, D)
    >>> policy = LSDTPSI(S, decision_stream(1), candidates=candidates, horizon=300, eps=0.16)
    >>> arms = simulate(policy, gaussian_tape(means, 0.5, seed=1), 300)
    >>> np.bincount(arms, minlength=7).tolist()
    [13, 15, 0, 0, 0, 71, 201]
    """

    def __init__(
        self,
        graph,
        stream: DecisionStream,
        *,
        candidates,
        horizon: int,
        eps: float,
        lam: float = 1 / 8,
        beta: float = 0.5,
        ucb_alpha: float = 2.0,
        z=None,
    ):
        S = check_adjacency("graph", graph)
        self.arms = check_arms("candidates", candidates, len(S))
        self.horizon = check_int("horizon", horizon, minimum=1)
        self.eps = check_positive("eps", eps)
        self.lam = check_positive("lam", lam)
        self.beta = check_positive("beta", beta)
        self.ucb_alpha = check_positive("ucb_alpha", ucb_alpha)
        self.stream = check_stream(stream)
        sub = S[np.ix_(self.arms, self.arms)]
        self.closed = sub | np.eye(len(self.arms), dtype=bool)
        if z is None:
            z = exploration_values(sub)
        self.z = check_vector("z", z, low=0.0)
        if len(self.z) != len(self.arms):
            raise ValueError(f"z must have one value per candidate ({len(self.arms)}); got {len(self.z)}")
        self.m_final = final_epoch(self.horizon, self.eps, self.lam)
        self.n = np.zeros(len(S), dtype=np.int64)
        self.s = np.zeros(len(S))
        self.t = 0
        # Epoch state, over local indices 0..|V'|-1.
        self.m = 0
        self.delta = 1.0
        self.active = np.ones(len(self.arms), dtype=bool)  # B_m
        self.play = np.ones(len(self.arms), dtype=bool)  # S_m
        self.epochs: list[dict] = []  # what each epoch did (for the book)
        self.phase = "epoch"
        self._start_epoch()

    def _start_epoch(self) -> None:
        if self.m > self.m_final:
            self.phase = "final"
        elif self.active.sum() == 1:
            self.phase = "single"
        else:
            self.target = np.where(self.play, epoch_targets(self.z, self.horizon, self.m, self.lam), 0)

    def pooled(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(N_i, pooled mean, width) of every candidate, with this epoch's log(T D^2)."""
        n = self.n[self.arms]
        N = self.closed.astype(np.int64) @ n  # integers: exact, and numpy's integer product uses no BLAS
        # Reward sums correctly rounded (math.fsum), not a BLAS product: with rewards that are not
        # integers (Jester's ratings) the last bits of a BLAS sum depend on the processor's kernel,
        # and the elimination compares the pooled means against a threshold. (With Bernoulli
        # rewards every sum is an integer and exact either way.)
        s = self.s[self.arms]
        G = np.array([math.fsum(s[row]) for row in self.closed])
        log_term = math.log(self.horizon * self.delta * self.delta)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(N > 0, G / N, 0.0)
            width = np.where(N > 0, np.sqrt(self.beta * log_term / N), np.inf)
        return N, mean, width

    def _end_epoch(self) -> None:
        _, mean, width = self.pooled()
        best = np.max(np.where(self.active, mean - width, -np.inf))
        survive = self.active & (mean + width + self.eps > best)
        self.epochs.append(
            {"m": self.m, "active": int(self.active.sum()), "played": int(self.t), "survivors": int(survive.sum())}
        )
        self.active = survive
        self.play = (self.closed & survive[None, :]).any(axis=1)
        self.m += 1
        self.delta /= 2.0
        self._start_epoch()

    def select(self) -> int:
        while self.phase == "epoch":
            need = np.flatnonzero(self.n[self.arms] < self.target)
            if need.size:
                return int(self.arms[need[0]])
            self._end_epoch()
        survivors = self.arms[self.active]
        if self.phase == "single":
            return int(survivors[0])
        n = self.n[survivors]
        if (n == 0).any():
            index = np.where(n == 0, np.inf, 0.0)
        else:
            index = self.s[survivors] / n + np.sqrt(self.ucb_alpha * math.log(self.t) / n)
        return int(survivors[argmax_ties(index, self.stream)])

    def update(self, arm: int, reward: float) -> None:
        self.n[arm] += 1
        self.s[arm] += reward
        self.t += 1
