"""Seeds derived from :class:`numpy.random.SeedSequence`, never from global state.

Every random quantity of an experiment (an instance, a reward tape, a policy's coin flips)
comes from a SeedSequence whose ``spawn_key`` names it: ``derive(root, "fig1", n, k, case)``.
Deriving by name rather than by calling ``SeedSequence.spawn`` (which counts how many children
were spawned before) makes a stream depend only on *what* it is, not on the order or the worker
in which it was requested. That is what makes results identical for any number of workers.
"""

from __future__ import annotations

import hashlib
import numbers
from typing import Any

import numpy as np

SeedLike = int | np.random.SeedSequence

_WORD = 1 << 32


def _words(key: Any) -> tuple[int, ...]:
    """Map one key component to 32-bit words, stably across runs and platforms."""
    if isinstance(key, numbers.Integral) and not isinstance(key, bool) and 0 <= key < _WORD:
        return (int(key),)
    if isinstance(key, (str, bytes, float, numbers.Integral)) and not isinstance(key, bool):
        # Tag the type so that "3", 3.0 and a large integer 3 + 2**32 never collide.
        text = f"{type(key).__name__}:{key!r}".encode()
        digest = hashlib.sha256(text).digest()
        return tuple(int.from_bytes(digest[i : i + 4], "little") for i in (0, 4))
    raise TypeError(f"seed key components must be int, float, str or bytes; got {key!r} of type {type(key).__name__}")


def as_seed_sequence(seed: SeedLike | None) -> np.random.SeedSequence:
    """Accept an int (entropy) or a SeedSequence; ``None`` draws fresh OS entropy (recorded in it)."""
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= 0:
        return np.random.SeedSequence(int(seed))
    raise TypeError(f"seed must be a non-negative int or a numpy SeedSequence; got seed={seed!r}")


def derive(seed: SeedLike, *keys: Any) -> np.random.SeedSequence:
    """The child stream of ``seed`` named by ``keys`` (ints, floats, strings).

    ``derive(s, "a", 1)`` is the same SeedSequence wherever and whenever it is computed, and
    differs from ``derive(s, "a", 2)`` and from ``derive(s, "b", 1)``.
    """
    parent = as_seed_sequence(seed)
    words: list[int] = []
    for key in keys:
        words.extend(_words(key))
    return np.random.SeedSequence(
        entropy=parent.entropy, spawn_key=tuple(parent.spawn_key) + tuple(words), pool_size=parent.pool_size
    )


def generator(seed: SeedLike, *keys: Any) -> np.random.Generator:
    """A numpy Generator (PCG64) on the named child stream."""
    return np.random.default_rng(derive(seed, *keys))


def describe(seed: np.random.SeedSequence) -> dict[str, Any]:
    """JSON-serialisable record of a SeedSequence, enough to recreate it."""
    entropy = seed.entropy
    return {
        "entropy": int(entropy) if isinstance(entropy, numbers.Integral) else [int(e) for e in entropy],
        "spawn_key": [int(k) for k in seed.spawn_key],
    }


def from_description(record: dict[str, Any]) -> np.random.SeedSequence:
    """Inverse of :func:`describe`."""
    return np.random.SeedSequence(entropy=record["entropy"], spawn_key=tuple(record["spawn_key"]))
