r"""Per-arm reward tapes: the j-th pull of arm i returns the same value whatever the pull order.

A tape is a *function* of (arm, pull index), not a stream consumed in order. Arm ``i`` owns a
128-bit key derived from the run's SeedSequence; its j-th pull (0-based) is computed from the
uniform

.. math:: u_{i,j} = \bigl(\lfloor X_{i,j} / 2^{11} \rfloor + \tfrac12\bigr)\, 2^{-53} \in (0, 1),

where :math:`X_{i,j}` is the j-th 64-bit output of numpy's ``Philox(key=key_i)`` bit generator
(Philox4x64-10, Salmon et al. 2011). A test checks our kernel against ``numpy.random.Philox``
output for output. Rewards are then

* Bernoulli(y_i):      ``1.0 if u < y_i else 0.0``;
* Gaussian(y_i, s^2):  ``y_i + s * ndtri(u)`` (scipy's normal quantile, via its C API);
* replay of a data column ``c_i``: ``c_i[min(floor(u * len(c_i)), len(c_i) - 1)]`` (sampling
  with replacement).

Consequences the experiments rely on (decision 3 of the specs):

* a per-pull reference engine and a fast engine see the same rewards pull for pull, whatever
  order they pull arms in, so their decisions can be compared exactly;
* all methods of one comparison can share one tape (common random numbers);
* nothing is stored: a run of 10^7 pulls needs no memory for its rewards, and numba kernels
  compute rewards on the fly with :func:`tape_reward`.

The same counter-based construction gives *decision streams* (:class:`DecisionStream`) for a
policy's own randomness (ADE's random arm, random tie-breaking), so those are exact too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from bandit_lib.checks import MAX_PULLS, check_index, check_int, check_nonnegative, check_vector
from bandit_lib.seeding import SeedLike, as_seed_sequence, derive, describe
from bandit_lib.special import ndtri_nb

# Philox4x64-10 constants (Random123; identical to numpy's philox.h).
_M0 = np.uint64(0xD2E7470EE14C6C93)
_M1 = np.uint64(0xCA5A826395121157)
_W0 = np.uint64(0x9E3779B97F4A7C15)
_W1 = np.uint64(0xBB67AE8584CAA73B)
_S11 = np.uint64(11)
_ONE = np.uint64(1)
_FOUR = np.uint64(4)
_TWO_M53 = 1.0 / 9007199254740992.0

# Tape kinds, as integers so that numba kernels can branch on them.
BERNOULLI, GAUSSIAN, REPLAY = 0, 1, 2
KIND_NAMES = {BERNOULLI: "bernoulli", GAUSSIAN: "gaussian", REPLAY: "replay"}

# Domain tags keep the keys of tapes and of decision streams apart even under the same seed.
_TAPE_DOMAIN = "reward-tape"
_DECISION_DOMAIN = "decision-stream"


@intrinsic
def _mulhilo(typingctx, a, b):
    """High and low 64-bit words of the 128-bit product a*b, as one native multiply.

    numba has no 128-bit integer type, but LLVM does: widening both operands to i128 compiles to
    a single ``mul`` on x86-64 (and ``umulh``/``mul`` on arm64).
    """
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i64, i128 = ir.IntType(64), ir.IntType(128)
        product = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        lo = builder.trunc(product, i64)
        hi = builder.trunc(builder.lshr(product, ir.Constant(i128, 64)), i64)
        return context.make_tuple(builder, signature.return_type, [hi, lo])

    return sig, codegen


@njit(cache=True, inline="always")
def philox_block(k0: np.uint64, k1: np.uint64, block) -> tuple:
    """Outputs ``4*block .. 4*block + 3`` of ``numpy.random.Philox(key=[k0, k1])``, as a 4-tuple.

    numpy increments its 256-bit counter before each block of four outputs, so block b is the
    Philox4x64-10 bijection of the counter ``b + 1`` under the key.
    """
    c0 = np.uint64(block) + _ONE
    c1 = np.uint64(0)
    c2 = np.uint64(0)
    c3 = np.uint64(0)
    for _ in range(10):
        hi0, lo0 = _mulhilo(_M0, c0)
        hi1, lo1 = _mulhilo(_M1, c2)
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
        k0 = k0 + _W0
        k1 = k1 + _W1
    return c0, c1, c2, c3


@njit(cache=True)
def philox_raw(k0: np.uint64, k1: np.uint64, r: np.uint64) -> np.uint64:
    """The r-th (0-based) 64-bit output of ``numpy.random.Philox(key=[k0, k1])``."""
    c0, c1, c2, c3 = philox_block(k0, k1, r // _FOUR)
    w = r % _FOUR
    if w == 0:
        return c0
    if w == 1:
        return c1
    if w == 2:
        return c2
    return c3


@njit(cache=True, inline="always")
def uniform_of(x: np.uint64) -> float:
    """The tape's uniform in (0, 1) from a 64-bit Philox output: ``(x >> 11 + 1/2) / 2**53``.

    ``x >> 11 < 2**53``, so converting it through a signed integer is exact (and cheaper).
    """
    return (np.float64(np.int64(x >> _S11)) + 0.5) * _TWO_M53


@njit(cache=True)
def counter_uniform(k0: np.uint64, k1: np.uint64, j: np.int64) -> float:
    """u_j in the open interval (0, 1) from the stream keyed (k0, k1)."""
    return uniform_of(philox_raw(k0, k1, np.uint64(j)))


@njit(cache=True)
def reward_from_u(
    kind: int, means: np.ndarray, scale: float, values: np.ndarray, offsets: np.ndarray, arm: int, u: float
) -> float:
    """The reward of ``arm`` for the uniform ``u`` (the mapping of the module docstring)."""
    if kind == BERNOULLI:
        return 1.0 if u < means[arm] else 0.0
    if kind == GAUSSIAN:
        return means[arm] + scale * ndtri_nb(u)
    start = offsets[arm]
    length = offsets[arm + 1] - start
    index = np.int64(u * length)
    if index >= length:  # u * length rounds up to length when u is within 2^-53 of 1
        index = length - 1
    return values[start + index]


@njit(cache=True)
def tape_reward(
    kind: int,
    keys: np.ndarray,
    means: np.ndarray,
    scale: float,
    values: np.ndarray,
    offsets: np.ndarray,
    arm: int,
    j: int,
) -> float:
    """Reward of the j-th (0-based) pull of ``arm``; the arrays are :attr:`RewardTape.arrays`."""
    return reward_from_u(kind, means, scale, values, offsets, arm, counter_uniform(keys[arm, 0], keys[arm, 1], j))


# ---------------------------------------------------------------- sequential reading, for fast engines
# tape_reward computes a whole Philox block (four outputs) for one reward. A fast engine reads each
# arm's rewards in order, so it keeps each arm's last block in a cache and computes a new block every
# fourth pull of that arm: the same values, about four times cheaper.


def new_cache(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Empty block cache for n arms: ``(block index per arm, -1 for none; four words per arm)``."""
    n = check_int("n", n, minimum=1)
    return np.full(n, -1, dtype=np.int64), np.zeros((n, 4), dtype=np.uint64)


@njit(cache=True)
def pull_sum(kind, keys, means, scale, values, offsets, blocks, words, arm, start, count, s):
    """``s`` plus the rewards of pulls ``start .. start+count-1`` of ``arm``, added one at a time
    in pull order (as a per-pull reference adds them, so the float sums agree), reading through the
    block cache ``(blocks, words)`` of :func:`new_cache`.

    The hot loops of three engines (RR/WRR in ``zhuang17._engine``, IB, GOLD) write the Bernoulli
    case of this read out with :func:`philox_block` and :func:`uniform_of` instead of calling a
    helper. A shared ``@njit(inline="always")`` helper was measured (``make bench``, 2-core machine,
    2026-11-24, against the written-out read on the same machine minutes apart): RR n = 20 at
    2.98e7 pulls/s against 3.58e7 (-17%), RR n = 200 at 3.25e7 against 3.88e7 (-16%), IB n = 20 at
    1.96e7 against 2.37e7 (-17%); through ``pull_sum`` itself, -23% to -45%. That is beyond the 5%
    the project allows, so the read stays written out in those three loops.
    """
    mean = means[arm]
    for j in range(start, start + count):
        b = j >> 2
        if blocks[arm] != b:
            c0, c1, c2, c3 = philox_block(keys[arm, 0], keys[arm, 1], b)
            words[arm, 0] = c0
            words[arm, 1] = c1
            words[arm, 2] = c2
            words[arm, 3] = c3
            blocks[arm] = b
        u = uniform_of(words[arm, j & 3])
        if kind == BERNOULLI:
            s += 1.0 if u < mean else 0.0
        else:
            s += reward_from_u(kind, means, scale, values, offsets, arm, u)
    return s


@njit(cache=True)
def _fill_rewards(kind, keys, means, scale, values, offsets, arm, start, out):
    """Rewards ``start, start+1, ...`` of ``arm`` into ``out``: the values of :func:`tape_reward`,
    with one Philox block computed per four consecutive pulls (not one per pull)."""
    k0 = keys[arm, 0]
    k1 = keys[arm, 1]
    blk = -1
    c0 = c1 = c2 = c3 = np.uint64(0)
    for t in range(out.shape[0]):
        j = start + t
        if (j >> 2) != blk:
            blk = j >> 2
            c0, c1, c2, c3 = philox_block(k0, k1, blk)
        w = j & 3
        x = c0 if w == 0 else (c1 if w == 1 else (c2 if w == 2 else c3))
        out[t] = reward_from_u(kind, means, scale, values, offsets, arm, uniform_of(x))


@njit(cache=True)
def _fill_uniforms(k0, k1, start, out):
    for t in range(out.shape[0]):
        out[t] = counter_uniform(k0, k1, start + t)


def _arm_keys(seed: np.random.SeedSequence, n: int, domain: str) -> np.ndarray:
    keys = np.empty((n, 2), dtype=np.uint64)
    for i in range(n):
        keys[i] = derive(seed, domain, i).generate_state(2, dtype=np.uint64)
    return keys


@dataclass(eq=False)
class RewardTape:
    """Rewards of every arm, addressed by (arm, pull index).

    Build one with :func:`bernoulli_tape`, :func:`gaussian_tape` or :func:`replay_tape`.
    ``pull(i)`` serves the next unread value of arm i (what a per-pull reference engine uses);
    ``reward(i, j)`` and ``rewards(i, start, stop)`` read any position; fast engines pass
    :attr:`arrays` to numba kernels that call :func:`tape_reward`.
    """

    kind: int
    keys: np.ndarray
    means: np.ndarray
    scale: float
    values: np.ndarray
    offsets: np.ndarray
    seed: dict
    counts: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.counts = np.zeros(len(self.keys), dtype=np.int64)

    @property
    def n_arms(self) -> int:
        return len(self.keys)

    @property
    def kind_name(self) -> str:
        return KIND_NAMES[self.kind]

    @property
    def arrays(self) -> tuple:
        """``(kind, keys, means, scale, values, offsets)``: the arguments of :func:`tape_reward`."""
        return (self.kind, self.keys, self.means, self.scale, self.values, self.offsets)

    @property
    def total_pulls(self) -> int:
        return int(self.counts.sum())

    def reward(self, arm: int, j: int) -> float:
        """Reward of the j-th (0-based) pull of ``arm``; does not move the read position."""
        arm = check_index("arm", arm, self.n_arms)
        j = check_int("j", j, minimum=0, maximum=MAX_PULLS)
        return float(tape_reward(*self.arrays, arm, j))

    def rewards(self, arm: int, start: int, stop: int) -> np.ndarray:
        """Rewards of pulls ``start .. stop-1`` of ``arm``."""
        arm = check_index("arm", arm, self.n_arms)
        start = check_int("start", start, minimum=0, maximum=MAX_PULLS)
        stop = check_int("stop", stop, minimum=start, maximum=MAX_PULLS)
        out = np.empty(stop - start, dtype=np.float64)
        _fill_rewards(*self.arrays, arm, start, out)
        return out

    def pull(self, arm: int) -> float:
        """The next unread reward of ``arm`` (advances that arm's read position)."""
        arm = check_index("arm", arm, self.n_arms)
        x = float(tape_reward(*self.arrays, arm, int(self.counts[arm])))
        self.counts[arm] += 1
        return x

    def rewind(self) -> "RewardTape":  # noqa: UP037  (unchanged: an edit of the syntax tree would make cached results stale)
        """A copy of this tape with every read position back at 0 (same rewards)."""
        return RewardTape(self.kind, self.keys, self.means, self.scale, self.values, self.offsets, self.seed)

    def require_fresh(self) -> None:
        """Raise if any reward was already read (fast engines start at pull 0 of every arm)."""
        if self.counts.any():
            raise ValueError(
                f"this tape was already read ({self.total_pulls} pulls); pass tape.rewind() to start afresh"
            )


def check_tape(tape: Any, *, min_arms: int = 1, fresh: bool = False, problem: str = "this problem") -> RewardTape:
    """``tape`` itself if it is a :class:`RewardTape` with at least ``min_arms`` arms (and, with
    ``fresh``, no reward read yet: fast engines start at pull 0 of every arm)."""
    if not isinstance(tape, RewardTape):
        raise TypeError(f"tape must be a RewardTape (see bandit_lib.tapes); got tape={tape!r}")
    if tape.n_arms < min_arms:
        raise ValueError(f"{problem} needs at least {min_arms} arms; got a tape with n={tape.n_arms}")
    if fresh:
        tape.require_fresh()
    return tape


def _base(kind: int, keys: np.ndarray, means: np.ndarray, scale: float, seed, values=None, offsets=None):
    n = len(keys)
    return RewardTape(
        kind=kind,
        keys=keys,
        means=means,
        scale=float(scale),
        values=np.zeros(1) if values is None else values,
        offsets=np.zeros(n + 1, dtype=np.int64) if offsets is None else offsets,
        seed=describe(seed),
    )


def bernoulli_tape(means: Sequence[float] | np.ndarray, seed: SeedLike | None) -> RewardTape:
    """Tape of Bernoulli(y_i) rewards; ``means`` must lie in [0, 1].

    The same seed gives the same rewards, whatever order the arms are pulled in: arm i's j-th pull
    is a function of the seed, i and j.

    Example:

    >>> from bandit_lib import bernoulli_tape
    >>> tape = bernoulli_tape([0.1, 0.9], seed=1)
    >>> [tape.pull(1) for _ in range(5)], tape.counts.tolist()
    ([0.0, 1.0, 1.0, 1.0, 1.0], [0, 5])
    """
    means = check_vector("means", means, low=0.0, high=1.0)
    ss = as_seed_sequence(seed)
    return _base(BERNOULLI, _arm_keys(ss, len(means), _TAPE_DOMAIN), means, 0.0, ss)


def gaussian_tape(means: Sequence[float] | np.ndarray, sigma: float, seed: SeedLike | None) -> RewardTape:
    """Tape of N(y_i, sigma^2) rewards.

    Example:

    >>> from bandit_lib import gaussian_tape
    >>> tape = gaussian_tape([0.0, 1.0], 0.5, seed=1)
    >>> round(tape.pull(0), 3), tape.n_arms
    (-0.256, 2)
    """
    means = check_vector("means", means)
    sigma = check_nonnegative("sigma", sigma)
    ss = as_seed_sequence(seed)
    return _base(GAUSSIAN, _arm_keys(ss, len(means), _TAPE_DOMAIN), means, sigma, ss)


def replay_tape(columns: Sequence[Sequence[float]], seed: SeedLike | None) -> RewardTape:
    """Tape that replays recorded rewards: a pull of arm i draws uniformly from ``columns[i]``.

    Sampling is with replacement, so an arm never runs out of data; the arm's mean is the
    column mean (kept in ``tape.means``).
    """
    if len(columns) == 0:
        raise ValueError("columns must hold at least one arm; got an empty sequence")
    cols = [check_vector(f"columns[{i}]", c) for i, c in enumerate(columns)]
    offsets = np.zeros(len(cols) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(c) for c in cols])
    values = np.concatenate(cols)
    means = np.array([c.mean() for c in cols])
    ss = as_seed_sequence(seed)
    return _base(REPLAY, _arm_keys(ss, len(cols), _TAPE_DOMAIN), means, 0.0, ss, values, offsets)


@dataclass(eq=False)
class DecisionStream:
    """Counter-based uniforms for a policy's own randomness: ``u(l)`` is the l-th draw.

    Like a tape, the l-th draw is fixed by the seed, so a reference engine and a fast engine that
    make their l-th random choice from ``u(l)`` make the same choice. In numba kernels use
    ``counter_uniform(stream.key[0], stream.key[1], l)``.
    """

    key: np.ndarray
    seed: dict
    position: int = 0

    def uniform(self, l: int) -> float:
        """The l-th (0-based) uniform in (0, 1)."""
        l = check_int("l", l, minimum=0, maximum=MAX_PULLS)
        return float(counter_uniform(self.key[0], self.key[1], l))

    def uniforms(self, start: int, stop: int) -> np.ndarray:
        start = check_int("start", start, minimum=0, maximum=MAX_PULLS)
        stop = check_int("stop", stop, minimum=start, maximum=MAX_PULLS)
        out = np.empty(stop - start, dtype=np.float64)
        _fill_uniforms(self.key[0], self.key[1], start, out)
        return out

    def next_uniform(self) -> float:
        """The next unread uniform (advances the position)."""
        u = self.uniform(self.position)
        self.position += 1
        return u

    def next_index(self, n: int) -> int:
        """A uniform index in 0..n-1 from the next uniform: ``floor(u * n)``."""
        n = check_int("n", n, minimum=1)
        return min(int(self.next_uniform() * n), n - 1)


def decision_stream(seed: SeedLike | None, *keys) -> DecisionStream:
    """Decision stream named by ``keys`` under ``seed`` (distinct from any tape's arm streams)."""
    ss = as_seed_sequence(seed)
    child = derive(ss, _DECISION_DOMAIN, *keys)
    return DecisionStream(key=child.generate_state(2, dtype=np.uint64), seed=describe(child))
