"""Instances, outcomes, and running a policy on an instance.

* :class:`Instance` is what a bandit problem is made of (arm means and a reward model);
  ``instance.tape(seed)`` gives its per-arm reward tape.
* :class:`Outcome` is what a pure-exploration policy returns (its output, its pull count, whether
  it hit the cap, the pulls per arm).
* :func:`run_policy` runs one policy on one instance with a pull cap.

One result type per problem family, so that one comparison serves every algorithm of a family:
pure exploration (RR, WRR, NRR, IB, ADE, GOLD, the arena's detectors) returns an :class:`Outcome`;
fixed-budget thresholding (GrAPL, Algorithm 1, APT, the no-graph baseline) a
:class:`~bandit_lib.grapl20.problem.ThresholdRun`; regret minimisation (the UIG policies) the
arms played, in order (:func:`bandit_lib.uig.protocol.simulate`).

Running many tasks in parallel is orchestration: :func:`bandit_lib.infra.parallel.run_many`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from bandit_lib.checks import check_choice, check_int, check_positive, check_vector
from bandit_lib.seeding import SeedLike
from bandit_lib.tapes import RewardTape, bernoulli_tape, gaussian_tape, replay_tape

REWARD_MODELS = ("bernoulli", "gaussian", "replay")

#: The pull cap of every fixed-confidence policy (RR, WRR, NRR, IB, ADE, GOLD, ...) when none is
#: given: a run that has not stopped after 10^9 pulls stops there, with ``Outcome.capped`` set.
#: A fast engine makes 10^9 pulls in about a minute; pass a larger ``cap`` for longer runs.
DEFAULT_CAP = 10**9


@dataclass(frozen=True, eq=False)
class Instance:
    """A bandit instance: the arm means and how rewards are drawn.

    ``reward="bernoulli"`` (means in [0, 1]), ``"gaussian"`` (with ``sigma``) or ``"replay"``
    (rewards drawn with replacement from ``samples[i]``; the means are the sample means).
    ``instance.tape(seed)`` is a fresh reward tape of it (one per run).

    Example:

    >>> from bandit_lib import Instance
    >>> inst = Instance([0.1, 0.2, 0.25, 0.3, 0.9])
    >>> tape = inst.tape(seed=1)
    >>> tape.n_arms, tape.pull(4), tape.counts.tolist()
    (5, 1.0, [0, 0, 0, 0, 1])
    >>> try:
    ...     Instance([0.1, 1.5])
    ... except ValueError as error:
    ...     print(error)
    means must be finite within [0.0, 1.0]; got means[1]=1.5
    """

    means: np.ndarray
    reward: str = "bernoulli"
    sigma: float = 1.0
    samples: tuple[np.ndarray, ...] | None = None

    def __post_init__(self) -> None:
        check_choice("reward", self.reward, REWARD_MODELS)
        if self.reward == "replay":
            if not self.samples:
                raise ValueError("a replay instance needs samples (one array of rewards per arm); got none")
            cols = tuple(check_vector(f"samples[{i}]", c) for i, c in enumerate(self.samples))
            object.__setattr__(self, "samples", cols)
            object.__setattr__(self, "means", np.array([c.mean() for c in cols]))
            return
        low, high = (0.0, 1.0) if self.reward == "bernoulli" else (None, None)
        object.__setattr__(self, "means", check_vector("means", self.means, low=low, high=high))
        if self.reward == "gaussian":
            check_positive("sigma", self.sigma)

    @property
    def n_arms(self) -> int:
        return len(self.means)

    def tape(self, seed: SeedLike | None) -> RewardTape:
        if self.reward == "bernoulli":
            return bernoulli_tape(self.means, seed)
        if self.reward == "gaussian":
            return gaussian_tape(self.means, self.sigma, seed)
        return replay_tape(self.samples, seed)


@dataclass
class Outcome:
    """Result of one pure-exploration run.

    ``output`` is the returned set (sorted arm indices) or ranking; ``pulls`` the total number of
    pulls including initialisation; ``capped`` whether the run stopped at the pull cap;
    ``counts`` the pulls per arm; ``info`` anything policy-specific (e.g. ADE's threshold pulls).
    """

    output: np.ndarray
    pulls: int
    capped: bool
    counts: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)

    def same_decisions(self, other: "Outcome") -> bool:  # noqa: UP037  (unchanged: an edit of the syntax tree would make cached results stale)
        """Same output, same stopping pull, same pulls per arm, same cap flag."""
        return (
            self.pulls == other.pulls
            and self.capped == other.capped
            and np.array_equal(self.output, other.output)
            and np.array_equal(self.counts, other.counts)
        )


class Policy(Protocol):
    def __call__(self, tape: RewardTape, *, cap: int, **params: Any) -> Outcome: ...


def run_policy(policy: Policy, instance: Instance, seed: SeedLike, *, cap: int, **params: Any) -> Outcome:
    """Run ``policy`` on a fresh tape of ``instance`` until it stops or makes ``cap`` pulls."""
    cap = check_int("cap", cap, minimum=1)
    outcome = policy(instance.tape(seed), cap=cap, **params)
    if not isinstance(outcome, Outcome):
        raise TypeError(f"a policy must return an Outcome; {policy!r} returned {type(outcome).__name__}")
    if outcome.pulls > cap:
        raise RuntimeError(f"{policy!r} made {outcome.pulls} pulls, above its cap={cap}")
    return outcome
