r"""LSDT-CSI, online step: a two-level UCB over the classes of the candidate set (Xu et al. 2020,
Sec. 3.2).

Input: the candidate set :math:`\mathcal B^*` split into neighbourhood-equivalence classes
:math:`C_1, \dots, C_m` (two for a connected, non-complete graph; at most two per component), and
a constant :math:`\alpha` (8 in the paper, for 1-sub-Gaussian rewards; any :math:`\alpha > 6\sigma^2`).
After :math:`t` plays, with :math:`n_j` plays and reward sum :math:`s_j` of arm j,

.. math::
    L_j(t) = \frac{s_j}{n_j} + \sqrt{\frac{\alpha \log t}{n_j}}, \qquad
    H_c(t) = \frac{\sum_{j \in C_c} s_j}{\sum_{j \in C_c} n_j}
             + \sqrt{\frac{\alpha \log t}{\sum_{j \in C_c} n_j}}.

1. Play each arm of :math:`\mathcal B^*` once, in ascending id.
2. Then at every round: take the class :math:`c^* = \arg\max_c H_c`, and play
   :math:`\arg\max_{j \in C_{c^*}} L_j` (ties at random, :mod:`bandit_lib.uig.protocol`).

Arms outside :math:`\mathcal B^*` are never played. With one class this is UCB with constant
:math:`\alpha` on :math:`\mathcal B^*`.

:class:`LSDTCSI` is the readable per-round reference. :func:`run_lsdt_csi_fast` is a numba engine
that plays a whole horizon on a reward tape and makes exactly the same choices: it keeps the same
running sums (class sums accumulated reward by reward, in the same order) and evaluates the
indices with the same floating-point operations, so equal indices tie in both.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from bandit_lib.checks import check_int, check_positive
from bandit_lib.tapes import DecisionStream, RewardTape, counter_uniform, tape_reward
from bandit_lib.uig.protocol import argmax_ties, check_arms, check_stream


def check_classes(classes, n_arms: int) -> list[np.ndarray]:
    """Disjoint, non-empty classes of arm indices; returned sorted by smallest member."""
    if len(classes) == 0:
        raise ValueError("classes must hold at least one class; got []")
    out = [check_arms(f"classes[{c}]", members, n_arms) for c, members in enumerate(classes)]
    seen = np.concatenate(out)
    if len(np.unique(seen)) != len(seen):
        dup = int(next(a for a in seen if (seen == a).sum() > 1))
        raise ValueError(f"classes must be disjoint; arm {dup} is in two classes")
    return sorted(out, key=lambda c: int(c[0]))


class LSDTCSI:
    """Two-level UCB over the candidate classes (the readable reference): LSDT with complete side
    information plays only the candidate set B* (the arms that can be optimal), by classes.
    ``alpha=8.0``: the paper's exploration constant.

    Example (the arms of :class:`~bandit_lib.uig.ucb1.UCB1`'s example, with their graph; 300 rounds; the plays of each arm):

    >>> import numpy as np
    >>> from bandit_lib.tapes import decision_stream, gaussian_tape
    >>> means = [0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9]
    >>> from bandit_lib.uig import LSDTCSI, candidate_set_complete, equivalence_classes, similarity_graph, simulate
    >>> A = similarity_graph(means, 0.16)  # the unit interval graph at eps = 0.16
    >>> classes = equivalence_classes(A, nodes=candidate_set_complete(A))
    >>> arms = simulate(LSDTCSI(7, decision_stream(1), classes=classes), gaussian_tape(means, 0.5, seed=1), 300)
    >>> np.bincount(arms, minlength=7).tolist()
    [31, 0, 0, 0, 0, 91, 178]
    """

    def __init__(self, n_arms: int, stream: DecisionStream, *, classes, alpha: float = 8.0):
        self.classes = check_classes(classes, n_arms)
        self.arms = np.sort(np.concatenate(self.classes))
        self.alpha = check_positive("alpha", alpha)
        self.stream = check_stream(stream)
        self.n = np.zeros(n_arms, dtype=np.int64)
        self.s = np.zeros(n_arms)
        self.class_of = np.full(n_arms, -1)
        for c, members in enumerate(self.classes):
            self.class_of[members] = c
        self.class_n = np.zeros(len(self.classes), dtype=np.int64)
        self.class_s = np.zeros(len(self.classes))
        self.t = 0

    def select(self) -> int:
        unplayed = self.arms[self.n[self.arms] == 0]
        if unplayed.size:
            return int(unplayed[0])
        width = self.alpha * math.log(self.t)
        H = self.class_s / self.class_n + np.sqrt(width / self.class_n)
        members = self.classes[argmax_ties(H, self.stream)]
        L = self.s[members] / self.n[members] + np.sqrt(width / self.n[members])
        return int(members[argmax_ties(L, self.stream)])

    def update(self, arm: int, reward: float) -> None:
        c = self.class_of[arm]
        if c < 0:
            raise ValueError(f"arm {arm} is not in the candidate set; LSDT-CSI never plays it")
        self.n[arm] += 1
        self.s[arm] += reward
        self.class_n[c] += 1
        self.class_s[c] += reward
        self.t += 1


@njit(cache=True)
def _argmax_ties_nb(values, count, k0, k1, position):
    """(index of the max of values[:count], next stream position): as base.argmax_ties."""
    best = values[0]
    for i in range(1, count):
        if values[i] > best:
            best = values[i]
    ties = 0
    for i in range(count):
        if values[i] == best:
            ties += 1
    pick = 0
    if ties > 1:
        u = counter_uniform(k0, k1, position)
        position += 1
        pick = min(np.int64(u * ties), ties - 1)
    seen = 0
    for i in range(count):
        if values[i] == best:
            if seen == pick:
                return i, position
            seen += 1
    return -1, position


@njit(cache=True)
def _choose(n, s, class_n, class_s, members, starts, arms, alpha, t, H, L, k0, k1, position):
    """The arm LSDT-CSI plays after t plays, and the next stream position (as LSDTCSI.select)."""
    for a in arms:
        if n[a] == 0:
            return a, position
    m = starts.shape[0] - 1
    width = alpha * math.log(t)
    for c in range(m):
        H[c] = class_s[c] / class_n[c] + math.sqrt(width / class_n[c])
    c_star, position = _argmax_ties_nb(H, m, k0, k1, position)
    size = starts[c_star + 1] - starts[c_star]
    for k in range(size):
        j = members[starts[c_star] + k]
        L[k] = s[j] / n[j] + math.sqrt(width / n[j])
    k_star, position = _argmax_ties_nb(L, size, k0, k1, position)
    return members[starts[c_star] + k_star], position


@njit(cache=True)
def _fresh_state(n_arms, members, starts):
    """Counts, sums, class sums, the class of each arm, the candidates sorted, work arrays."""
    m = starts.shape[0] - 1
    class_of = np.full(n_arms, -1)
    for c in range(m):
        for k in range(starts[c], starts[c + 1]):
            class_of[members[k]] = c
    return (
        np.zeros(n_arms, dtype=np.int64),
        np.zeros(n_arms),
        np.zeros(m, dtype=np.int64),
        np.zeros(m),
        class_of,
        np.sort(members),
        np.empty(m),
        np.empty(members.shape[0]),
    )


@njit(cache=True)
def _record(arm, x, n, s, class_n, class_s, class_of):
    """As LSDTCSI.update: the arm's and its class's running sums, reward by reward."""
    c = class_of[arm]
    n[arm] += 1
    s[arm] += x
    class_n[c] += 1
    class_s[c] += x


@njit(cache=True)
def _hierarchical_ucb(kind, keys, means, scale, values, offsets, members, starts, alpha, horizon, k0, k1):
    n, s, class_n, class_s, class_of, arms, H, L = _fresh_state(keys.shape[0], members, starts)
    out = np.empty(horizon, dtype=np.int64)
    position = 0
    for t in range(horizon):
        arm, position = _choose(n, s, class_n, class_s, members, starts, arms, alpha, t, H, L, k0, k1, position)
        _record(
            arm, tape_reward(kind, keys, means, scale, values, offsets, arm, n[arm]), n, s, class_n, class_s, class_of
        )
        out[t] = arm
    return out


@njit(cache=True)
def _hierarchical_ucb_replay(R, order, members, starts, alpha, k0, k1):
    """Replay (bandit_lib.uig.recommendation.replay) of LSDT-CSI's choices on logged rewards R."""
    n, s, class_n, class_s, class_of, arms, H, L = _fresh_state(R.shape[1], members, starts)
    out = np.empty(order.shape[0], dtype=np.int64)
    users = np.empty(order.shape[0], dtype=np.int64)
    t = 0
    position = 0
    for u in order:
        arm, position = _choose(n, s, class_n, class_s, members, starts, arms, alpha, t, H, L, k0, k1, position)
        x = R[u, arm]
        if x == x:  # the user rated this arm: a valid event
            _record(arm, x, n, s, class_n, class_s, class_of)
            out[t] = arm
            users[t] = u
            t += 1
    return out[:t], users[:t]


def _flatten(classes, n_arms: int) -> tuple[np.ndarray, np.ndarray]:
    classes = check_classes(classes, n_arms)
    members = np.concatenate(classes).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum([len(c) for c in classes])]).astype(np.int64)
    return members, starts


def _fresh(stream: DecisionStream) -> DecisionStream:
    check_stream(stream)
    if stream.position != 0:
        raise ValueError(f"the fast engine starts at position 0 of its decision stream; got position {stream.position}")
    return stream


def hierarchical_ucb_fast(
    tape: RewardTape, classes: list[np.ndarray], alpha: float, horizon: int, stream: DecisionStream
) -> np.ndarray:
    """The numba engine behind LSDT-CSI and UCB1: arms played over ``horizon`` rounds."""
    tape.require_fresh()
    members, starts = _flatten(classes, tape.n_arms)
    alpha = check_positive("alpha", alpha)
    horizon = check_int("horizon", horizon, minimum=0)
    stream = _fresh(stream)
    return _hierarchical_ucb(*tape.arrays, members, starts, alpha, horizon, stream.key[0], stream.key[1])


def hierarchical_ucb_replay(
    R, order, classes: list[np.ndarray], alpha: float, stream: DecisionStream
) -> tuple[np.ndarray, np.ndarray]:
    """Replay of LSDT-CSI / UCB1 on logged rewards (NaN: not logged): the arms and the users of
    the valid events, as :func:`bandit_lib.uig.recommendation.replay` with the reference policy."""
    R = np.asarray(R, dtype=np.float64)
    if R.ndim != 2:
        raise ValueError(f"R must be a 2-D array (users, arms); got shape {R.shape}")
    order = np.asarray(order, dtype=np.int64)
    members, starts = _flatten(classes, R.shape[1])
    alpha = check_positive("alpha", alpha)
    stream = _fresh(stream)
    return _hierarchical_ucb_replay(R, order, members, starts, alpha, stream.key[0], stream.key[1])


def run_lsdt_csi_fast(
    tape: RewardTape, horizon: int, stream: DecisionStream, *, classes, alpha: float = 8.0
) -> np.ndarray:
    """LSDT-CSI for ``horizon`` rounds on ``tape`` (numba); same arms as :class:`LSDTCSI`."""
    return hierarchical_ucb_fast(tape, classes, alpha, horizon, stream)


def replay_lsdt_csi_fast(
    R, order, stream: DecisionStream, *, classes, alpha: float = 8.0
) -> tuple[np.ndarray, np.ndarray]:
    """Replay of LSDT-CSI on logged rewards (numba): the arms and users of the valid events, as
    ``bandit_lib.uig.recommendation.replay(LSDTCSI(...), R, order)``."""
    return hierarchical_ucb_replay(R, order, classes, alpha, stream)
