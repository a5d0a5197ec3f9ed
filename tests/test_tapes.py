import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from bandit_lib.tapes import (
    bernoulli_tape,
    counter_uniform,
    decision_stream,
    gaussian_tape,
    new_cache,
    philox_block,
    philox_raw,
    pull_sum,
    replay_tape,
    tape_reward,
    uniform_of,
)


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(0, 2**40))
def test_philox_kernel_matches_numpy_output_for_output(k0, k1, start):
    key = np.array([k0, k1], dtype=np.uint64)
    bitgen = np.random.Philox(key=key)
    bitgen.advance(start // 4)  # numpy advances in blocks of four outputs
    skip = start % 4
    expected = bitgen.random_raw(skip + 9)[skip:]
    ours = [philox_raw(key[0], key[1], np.uint64(start + r)) for r in range(9)]
    assert np.array_equal(np.array(ours, dtype=np.uint64), expected)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=60), st.integers(0, 1000))
def test_rewards_do_not_depend_on_pull_order(order, seed):
    means = [0.1, 0.4, 0.6, 0.95]
    tape = bernoulli_tape(means, seed)
    other = tape.rewind()
    first = {i: [] for i in range(4)}
    second = {i: [] for i in range(4)}
    for i in order:
        first[i].append(tape.pull(i))
    for i in sorted(order, reverse=True):
        second[i].append(other.pull(i))
    assert first == second
    for i in range(4):
        assert first[i] == tape.rewards(i, 0, len(first[i])).tolist()


def test_same_seed_same_tape_different_seed_different_tape():
    a = gaussian_tape([0.0, 1.0], 1.0, 5).rewards(1, 0, 50)
    b = gaussian_tape([0.0, 1.0], 1.0, 5).rewards(1, 0, 50)
    c = gaussian_tape([0.0, 1.0], 1.0, 6).rewards(1, 0, 50)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_arms_have_independent_streams():
    tape = bernoulli_tape([0.5, 0.5], 3)
    x, y = tape.rewards(0, 0, 20000), tape.rewards(1, 0, 20000)
    assert abs(np.corrcoef(x, y)[0, 1]) < 0.03


@pytest.mark.parametrize("p", [0.01, 0.3, 0.5, 0.97])
def test_bernoulli_rewards_have_the_right_mean(p):
    n = 200_000
    x = bernoulli_tape([p], 11).rewards(0, 0, n)
    assert set(np.unique(x)) <= {0.0, 1.0}
    # exact two-sided binomial test at level 1e-4: a wrong mapping from u to rewards fails it
    assert stats.binomtest(int(x.sum()), n, p).pvalue > 1e-4


def test_gaussian_rewards_are_normal():
    x = gaussian_tape([2.0], 3.0, 4).rewards(0, 0, 50_000)
    assert stats.kstest((x - 2.0) / 3.0, "norm").pvalue > 1e-4


def test_replay_draws_uniformly_from_each_column():
    cols = [[1.0, 2.0, 3.0], [7.0]]
    tape = replay_tape(cols, 9)
    x = tape.rewards(0, 0, 30_000)
    counts = np.array([(x == v).sum() for v in cols[0]])
    assert counts.sum() == 30_000
    assert stats.chisquare(counts).pvalue > 1e-4
    assert np.all(tape.rewards(1, 0, 10) == 7.0)
    assert tape.means.tolist() == [2.0, 7.0]


def test_tape_reward_kernel_equals_python_accessors():
    tape = gaussian_tape([0.5, -1.0, 3.0], 0.5, 12)
    for arm in range(3):
        for j in (0, 1, 7, 12345):
            assert tape_reward(*tape.arrays, arm, j) == tape.reward(arm, j)


@pytest.mark.parametrize(
    "make",
    [
        lambda: bernoulli_tape([0.1, 0.5, 0.93], 4),
        lambda: gaussian_tape([0.0, 1.0, -2.0], 0.7, 4),
        lambda: replay_tape([[0.0, 1.0, 0.5], [2.0], [3.0, -1.0]], 4),
    ],
)
def test_block_cached_reader_returns_the_tape_rewards(make):
    """pull_sum (what fast engines read through) adds exactly tape_reward's values, in pull order."""
    tape = make()
    blocks, words = new_cache(3)
    for arm in range(3):
        s = expected = 0.0
        for j in range(37):
            s = pull_sum(*tape.arrays, blocks, words, arm, j, 1, s)
            expected += tape_reward(*tape.arrays, arm, j)
            assert s == expected
    # a batch read equals the same pulls read one by one
    blocks, words = new_cache(3)
    assert pull_sum(*tape.arrays, blocks, words, 2, 5, 30, 0.0) == sum(
        tape_reward(*tape.arrays, 2, j) for j in range(5, 35)
    )


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(0, 2**40))
def test_philox_block_and_uniform_of_match_the_single_output_path(k0, k1, block):
    k0, k1 = np.uint64(k0), np.uint64(k1)
    words = [np.uint64(x) for x in philox_block(k0, k1, block)]  # numba returns Python ints
    for w in range(4):
        r = 4 * block + w
        assert words[w] == philox_raw(k0, k1, np.uint64(r))
        assert uniform_of(words[w]) == counter_uniform(k0, k1, r)
        assert 0.0 < uniform_of(words[w]) < 1.0


def test_pull_advances_and_rewind_restarts():
    tape = bernoulli_tape([0.5, 0.5], 1)
    values = [tape.pull(0) for _ in range(5)]
    assert tape.counts.tolist() == [5, 0]
    with pytest.raises(ValueError, match="already read"):
        tape.require_fresh()
    fresh = tape.rewind()
    fresh.require_fresh()
    assert [fresh.pull(0) for _ in range(5)] == values


def test_decision_stream_is_fixed_by_seed_and_name():
    a, b = decision_stream(3, "ade"), decision_stream(3, "ade")
    c = decision_stream(3, "other")
    assert a.uniforms(0, 5).tolist() == b.uniforms(0, 5).tolist()
    assert a.uniforms(0, 5).tolist() != c.uniforms(0, 5).tolist()
    draws = [a.next_index(7) for _ in range(2000)]
    assert min(draws) == 0 and max(draws) == 6
    # a decision stream never coincides with the tape of the same seed
    assert bernoulli_tape([0.5], 3).keys[0].tolist() != decision_stream(3).key.tolist()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: bernoulli_tape([], 1), "at least 1"),
        (lambda: bernoulli_tape([0.5, 1.2], 1), r"means\[1\]=1.2"),
        (lambda: bernoulli_tape([0.5, float("nan")], 1), r"means\[1\]=nan"),
        (lambda: gaussian_tape([0.0], -1.0, 1), "sigma=-1.0"),
        (lambda: replay_tape([], 1), "empty"),
        (lambda: replay_tape([[1.0], []], 1), r"columns\[1\]"),
        (lambda: bernoulli_tape([0.5], -3), "seed=-3"),
        (lambda: bernoulli_tape([0.5], 1).pull(1), "arm must be <= 0; got arm=1"),
        (lambda: bernoulli_tape([0.5], 1).rewards(0, 5, 2), "stop must be >= 5; got stop=2"),
        (lambda: bernoulli_tape([0.5], 1).reward(0, 1.5), "j=1.5"),
        (lambda: decision_stream(1).next_index(0), "n=0"),
    ],
)
def test_bad_inputs_name_the_bad_value(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_rewards_read_block_by_block_equal_the_reward_of_every_position():
    """RewardTape.rewards computes one Philox block per four pulls: the same values as
    tape_reward position by position, from any start, for every kind of tape."""
    for tape in (
        bernoulli_tape([0.3, 0.7], 5),
        gaussian_tape([0.0, 1.0], 2.0, 5),
        replay_tape([[1.0, 2.0, 3.0], [4.0, 5.0]], 5),
    ):
        for arm in (0, 1):
            for start in (0, 1, 2, 3, 5, 8):
                expected = [tape.reward(arm, start + t) for t in range(23)]
                np.testing.assert_array_equal(tape.rewards(arm, start, start + 23), expected)
