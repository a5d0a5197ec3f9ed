r"""Thompson sampling (Thompson 1933) with a Beta(1, 1) prior, optionally on a subset of arms.

``model="bernoulli"`` (the paper's "Beta prior and Bernoulli likelihood"): arm j keeps
:math:`S_j` successes and :math:`F_j` failures; each round draws
:math:`\theta_j \sim \mathrm{Beta}(1 + S_j, 1 + F_j)` and plays :math:`\arg\max_j \theta_j`.
A reward x outside {0, 1} is first binarised, :math:`b \sim \mathrm{Bernoulli}(\mathrm{clip}(x, 0, 1))`
(Agrawal and Goyal 2012); this is exact for Bernoulli rewards and keeps the order of the arms
for Gaussian ones, since :math:`E[\mathrm{clip}(X, 0, 1)]` increases with the mean (the paper does
not say how it fed Gaussian rewards to a Beta-Bernoulli sampler; the UIG chapter's reproduction
notes, row N5).

``model="gaussian"`` (a sensitivity run): :math:`\theta_j \sim N(s_j/(n_j+1), \sigma^2/(n_j+1))`, the
posterior under a N(0, σ²) prior.

No forced initialisation. Random draws come from the policy's own numpy Generator; ties of
continuous samples have probability 0 and go to the lowest id. :func:`replay_ts_fast` replays
logged data with numba, drawing from the same Generator in the same order (numba's
``Generator.beta`` reproduces numpy's), so it takes the reference's decisions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandit_lib.checks import check_choice, check_int, check_positive
from bandit_lib.uig.protocol import check_arms, check_generator

MODELS = ("bernoulli", "gaussian")


def binarise(reward: float, rng: np.random.Generator) -> int:
    """A Bernoulli(clip(reward, 0, 1)) draw (one uniform from ``rng``, always consumed)."""
    return int(rng.random() < min(max(reward, 0.0), 1.0))


class ThompsonSampling:
    """Thompson sampling on ``arms`` (all arms when None); ``model="bernoulli"`` (Beta posteriors,
    rewards binarised) or ``"gaussian"`` (variance ``sigma**2``).

    Example (seven Gaussian arms; 300 rounds; the plays of each arm):

    >>> import numpy as np
    >>> from bandit_lib.tapes import decision_stream, gaussian_tape
    >>> means = [0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9]
    >>> from bandit_lib.uig import ThompsonSampling, simulate
    >>> policy = ThompsonSampling(7, np.random.default_rng(1), model="gaussian", sigma=0.5)
    >>> arms = simulate(policy, gaussian_tape(means, 0.5, seed=1), 300)
    >>> np.bincount(arms, minlength=7).tolist()
    [1, 4, 6, 15, 20, 32, 222]
    """

    def __init__(
        self, n_arms: int, stream: np.random.Generator, *, arms=None, model: str = "bernoulli", sigma: float = 1.0
    ):
        n_arms = check_int("n_arms", n_arms, minimum=1)
        self.arms = np.arange(n_arms) if arms is None else check_arms("arms", arms, n_arms)
        self.rng = check_generator(stream, "stream")
        self.model = check_choice("model", model, MODELS)
        self.sigma = check_positive("sigma", sigma)
        self.successes = np.zeros(n_arms)
        self.failures = np.zeros(n_arms)
        self.n = np.zeros(n_arms)
        self.s = np.zeros(n_arms)

    def select(self) -> int:
        a = self.arms
        if self.model == "bernoulli":
            theta = self.rng.beta(1.0 + self.successes[a], 1.0 + self.failures[a])
        else:
            theta = self.rng.normal(self.s[a] / (self.n[a] + 1.0), self.sigma / np.sqrt(self.n[a] + 1.0))
        return int(a[np.argmax(theta)])

    def update(self, arm: int, reward: float) -> None:
        if self.model == "bernoulli":
            b = binarise(reward, self.rng)
            self.successes[arm] += b
            self.failures[arm] += 1 - b
        self.n[arm] += 1
        self.s[arm] += reward


@njit(cache=True)
def _ts_replay(R, order, arms, rng):
    n_arms = R.shape[1]
    successes = np.zeros(n_arms)
    failures = np.zeros(n_arms)
    out = np.empty(order.shape[0], dtype=np.int64)
    users = np.empty(order.shape[0], dtype=np.int64)
    t = 0
    for u in order:
        # As ThompsonSampling.select: one Beta draw per arm in order, the first maximum wins.
        best = -1.0
        arm = arms[0]
        for a in arms:
            theta = rng.beta(1.0 + successes[a], 1.0 + failures[a])
            if theta > best:
                best = theta
                arm = a
        x = R[u, arm]
        if x == x:
            b = 1.0 if rng.random() < min(max(x, 0.0), 1.0) else 0.0
            successes[arm] += b
            failures[arm] += 1.0 - b
            out[t] = arm
            users[t] = u
            t += 1
    return out[:t], users[:t]


def replay_ts_fast(R, order, rng: np.random.Generator, *, arms=None) -> tuple[np.ndarray, np.ndarray]:
    """Replay of Bernoulli Thompson sampling on logged rewards (numba, drawing from ``rng`` exactly
    as :class:`ThompsonSampling` does): the arms and users of the valid events."""
    R = np.asarray(R, dtype=np.float64)
    if R.ndim != 2:
        raise ValueError(f"R must be a 2-D array (users, arms); got shape {R.shape}")
    arms = np.arange(R.shape[1]) if arms is None else check_arms("arms", arms, R.shape[1])
    return _ts_replay(R, np.asarray(order, dtype=np.int64), arms.astype(np.int64), check_generator(rng))
