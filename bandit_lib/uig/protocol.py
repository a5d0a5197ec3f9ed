"""What every regret-minimising policy shares: the select/update protocol, a simulator on a
reward tape, and random tie-breaking.

A policy is an object with ``select() -> arm`` and ``update(arm, reward)``. ``select`` may draw
the policy's own random numbers but changes no statistics; ``update`` records the reward of the
arm just selected. The same objects then run in simulation (:func:`simulate`, every selection is
played) and in the replay evaluation of logged data (:func:`bandit_lib.uig.recommendation.replay`, a selection is
played only when the log holds that arm's reward).

Every policy is built the same way: ``Policy(structure, stream, *, options)``.

* ``structure`` is what the policy knows of the arms: their number ``n_arms`` (UCB1, Thompson
  sampling, LSDT with complete side information, whose classes are an option) or a graph over
  them (``graph``: the unit interval graph itself for OSUB and OSSB, which assume complete side
  information; the revealed similarity graph S for LSDT-PSI, LSDT-TS (PSI) and CKL-UCB);
* ``stream`` is the source of the policy's random choices: a :class:`~bandit_lib.tapes.DecisionStream`
  for tie-breaking, or a numpy Generator for the Thompson-sampling policies, which draw from
  posteriors; CKL-UCB makes no random choice unless given a stream (its ties then go to the
  fewest-pulled, lowest-numbered arm, as in its paper);
* everything else is a keyword option.

A regret policy returns nothing itself: :func:`simulate` returns the arms played, in order (an
int array, the one result type of the regret problems), and the experiments turn it into regret
with :mod:`bandit_lib.metrics`.

Ties (the UIG chapter's reproduction notes, row N18): the argmax of an index breaks ties uniformly at random with
the policy's :class:`~bandit_lib.tapes.DecisionStream`: with n tied arms (ascending ids), the next
uniform u picks the ``min(floor(u n), n - 1)``-th. A uniform is consumed only when there is a
tie, so a numba engine that does the same makes the same choices.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from bandit_lib.checks import check_index_set, check_int
from bandit_lib.tapes import DecisionStream, RewardTape, check_tape


class RegretPolicy(Protocol):
    def select(self) -> int: ...

    def update(self, arm: int, reward: float) -> None: ...


def argmax_ties(values: np.ndarray, stream: DecisionStream) -> int:
    """Index of the largest value, ties broken with the next uniform of ``stream``."""
    top = np.flatnonzero(values == values.max())
    if len(top) == 1:
        return int(top[0])
    return int(top[stream.next_index(len(top))])


def argmin_ties(values: np.ndarray, stream: DecisionStream) -> int:
    """Index of the smallest value, ties broken with the next uniform of ``stream``."""
    low = np.flatnonzero(values == values.min())
    if len(low) == 1:
        return int(low[0])
    return int(low[stream.next_index(len(low))])


def check_arms(name: str, arms, n_arms: int) -> np.ndarray:
    """A non-empty sorted set of arm indices in 0..n_arms-1."""
    n_arms = check_int("n_arms", n_arms, minimum=1)
    arms = check_index_set(name, arms, n_arms)
    if arms.size == 0:
        raise ValueError(f"{name} must hold at least one arm; got {name}=[]")
    return arms


def check_stream(stream) -> DecisionStream:
    if not isinstance(stream, DecisionStream):
        raise TypeError(f"stream must be a DecisionStream (bandit_lib.tapes.decision_stream); got {stream!r}")
    return stream


def check_generator(rng, name: str = "rng") -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"{name} must be a numpy Generator (bandit_lib.seeding.generator); got {name}={rng!r}")
    return rng


def simulate(policy: RegretPolicy, tape: RewardTape, horizon: int) -> np.ndarray:
    """Play ``horizon`` rounds of ``policy`` on ``tape``; return the arms played, in order.

    Example: see :class:`~bandit_lib.uig.ucb1.UCB1`'s; in short,

    >>> from bandit_lib.tapes import decision_stream, gaussian_tape
    >>> from bandit_lib.uig import UCB1, simulate
    >>> simulate(UCB1(2, decision_stream(1)), gaussian_tape([0.0, 1.0], 0.5, seed=1), 6).tolist()
    [0, 1, 1, 1, 1, 1]
    """
    horizon = check_int("horizon", horizon, minimum=0)
    check_tape(tape)
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arm = policy.select()
        policy.update(arm, tape.pull(arm))
        arms[t] = arm
    return arms
