r"""UCB1 (Auer, Cesa-Bianchi and Fischer 2002), optionally restricted to a subset of the arms.

After :math:`t` plays, with :math:`n_j` plays and reward sum :math:`s_j` of arm j, play

.. math:: \arg\max_j \; \frac{s_j}{n_j} + \sqrt{\frac{\alpha \log t}{n_j}}

after playing every arm once in ascending id (ties at random). Auer et al. use :math:`\alpha = 2`
for rewards in [0, 1]. The UIG chapter uses :math:`\alpha = 2` for Bernoulli rewards; for the Gaussian
σ = 1 experiment the paper leaves the constant open, and both readings run: the σ-scaled
:math:`\alpha = 8 = 8\sigma^2` (the constant LSDT-CSI uses) and :math:`\alpha = 2` (the chapter's
reproduction notes, row N2). ``arms`` restricts the policy to a set such as the
candidate set ("UCB1 on B*", "UCB1 on B0").

:class:`UCB1` is the readable reference; :func:`run_ucb1_fast` plays a whole horizon with numba
(and :func:`replay_ucb1_fast` replays logged data) and makes the same choices (it is LSDT-CSI's engine with one class per arm, whose class index
is then the arm index, computed with the same operations).
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.checks import check_int, check_positive
from bandit_lib.tapes import DecisionStream, RewardTape
from bandit_lib.uig.lsdt_csi import hierarchical_ucb_fast, hierarchical_ucb_replay
from bandit_lib.uig.protocol import argmax_ties, check_arms, check_stream


class UCB1:
    """UCB1 with constant ``alpha`` on ``arms`` (all arms when None).

    Example (seven Gaussian arms; 300 rounds; the plays of each arm):

    >>> import numpy as np
    >>> from bandit_lib.tapes import decision_stream, gaussian_tape
    >>> means = [0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9]
    >>> from bandit_lib.uig import UCB1, simulate
    >>> arms = simulate(UCB1(7, decision_stream(1)), gaussian_tape(means, 0.5, seed=1), 300)
    >>> np.bincount(arms, minlength=7).tolist()
    [9, 15, 13, 21, 32, 62, 148]
    """

    def __init__(self, n_arms: int, stream: DecisionStream, *, arms=None, alpha: float = 2.0):
        n_arms = check_int("n_arms", n_arms, minimum=1)
        self.arms = np.arange(n_arms) if arms is None else check_arms("arms", arms, n_arms)
        self.alpha = check_positive("alpha", alpha)
        self.stream = check_stream(stream)
        self.n = np.zeros(n_arms, dtype=np.int64)
        self.s = np.zeros(n_arms)
        self.t = 0

    def select(self) -> int:
        n = self.n[self.arms]
        if (n == 0).any():
            return int(self.arms[np.argmax(n == 0)])
        index = self.s[self.arms] / n + np.sqrt(self.alpha * math.log(self.t) / n)
        return int(self.arms[argmax_ties(index, self.stream)])

    def update(self, arm: int, reward: float) -> None:
        self.n[arm] += 1
        self.s[arm] += reward
        self.t += 1


def run_ucb1_fast(
    tape: RewardTape, horizon: int, stream: DecisionStream, *, arms=None, alpha: float = 2.0
) -> np.ndarray:
    """UCB1 for ``horizon`` rounds on ``tape`` (numba); same arms as :class:`UCB1`."""
    arms = np.arange(tape.n_arms) if arms is None else check_arms("arms", arms, tape.n_arms)
    return hierarchical_ucb_fast(tape, [np.array([a]) for a in arms], alpha, horizon, stream)


def replay_ucb1_fast(
    R, order, stream: DecisionStream, *, arms=None, alpha: float = 2.0
) -> tuple[np.ndarray, np.ndarray]:
    """Replay of UCB1 on logged rewards (numba): the arms and users of the valid events, as
    ``bandit_lib.uig.recommendation.replay(UCB1(...), R, order)``."""
    n_arms = np.asarray(R).shape[1]
    arms = np.arange(n_arms) if arms is None else check_arms("arms", arms, n_arms)
    return hierarchical_ucb_replay(R, order, [np.array([a]) for a in arms], alpha, stream)
