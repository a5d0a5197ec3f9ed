"""A block-caching reader of reward tapes for the fast engines.

:func:`bandit_lib.tapes.tape_reward` computes one Philox4x64-10 block (four 64-bit outputs) per
reward and keeps one word. The fast engines read each arm's rewards in order (pull 0, 1, 2, ...),
so :func:`pull_sum` keeps each arm's last block and computes a new block only every fourth
pull of that arm. The values are *the same* as ``tape_reward``'s: the block function below is
Philox4x64-10 with numpy's counter convention (output r is word r % 4 of the block at counter
r // 4 + 1), and the reward mapping is the tape's; ``tests/test_zhuang17_engines.py`` checks
both against :mod:`bandit_lib.tapes` and ``numpy.random.Philox`` output for output.

Public API (for the fast engines): ``new_cache(n) -> (blocks, words)``,
``pull_sum(kind, keys, means, scale, values, offsets, blocks, words, arm, start, count, s)`` (any
tape), and ``philox_block(k0, k1, block)`` + ``uniform_of(x)`` for hot loops: numba adds
reference-count operations around every array passed to a helper, so the engines' Bernoulli
loops index the cache arrays themselves and call only these scalar helpers (the same code as
``pull_sum``; the tests compare all of them with ``tape_reward``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandit_lib.special import ndtri_nb
from bandit_lib.tapes import BERNOULLI, GAUSSIAN, _mulhilo

_M0 = np.uint64(0xD2E7470EE14C6C93)
_M1 = np.uint64(0xCA5A826395121157)
_W0 = np.uint64(0x9E3779B97F4A7C15)
_W1 = np.uint64(0xBB67AE8584CAA73B)
_S11 = np.uint64(11)
_ONE = np.uint64(1)
_TWO_M53 = 1.0 / 9007199254740992.0


@njit(cache=True, inline="always")
def philox_block(k0, k1, block):
    """Words 4*block .. 4*block+3 of ``numpy.random.Philox(key=[k0, k1])``, as a 4-tuple."""
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


@njit(cache=True, inline="always")
def uniform_of(x):
    """The tape's uniform in (0, 1) from a 64-bit Philox output x.

    x >> 11 < 2**53, so the signed conversion is exact (and much cheaper than the unsigned one).
    """
    return (np.float64(np.int64(x >> _S11)) + 0.5) * _TWO_M53


def new_cache(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Empty cache for n arms: (block index per arm, -1 = none; four words per arm)."""
    return np.full(n, -1, dtype=np.int64), np.zeros((n, 4), dtype=np.uint64)


@njit(cache=True)
def reward_from_u(kind, means, scale, values, offsets, arm, u):
    """The tape's reward for uniform u (as :func:`bandit_lib.tapes.tape_reward` maps it)."""
    if kind == BERNOULLI:
        return 1.0 if u < means[arm] else 0.0
    if kind == GAUSSIAN:
        return means[arm] + scale * ndtri_nb(u)
    start = offsets[arm]
    length = offsets[arm + 1] - start
    index = np.int64(u * length)
    if index >= length:
        index = length - 1
    return values[start + index]


@njit(cache=True)
def pull_sum(kind, keys, means, scale, values, offsets, blocks, words, arm, start, count, s):
    """s + the rewards of pulls start .. start+count-1 of ``arm``, added one at a time (the
    reference adds them one at a time too, so the float sums agree)."""
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
