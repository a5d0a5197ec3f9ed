"""ADE20's use of the ZHUANG17 baselines: the B3 ablation (T counted in batches inside delta')."""

import numpy as np
import pytest
from _examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bandit_lib.tapes import bernoulli_tape
from bandit_lib.zhuang17.intervals import HoeffdingCI
from bandit_lib.zhuang17.rr import rr
from bandit_lib.zhuang17.wrr import wrr

CI = HoeffdingCI(R=1.0)


@settings(max_examples=examples(25))
@given(
    st.lists(st.floats(0, 1), min_size=4, max_size=8),
    st.integers(2, 30),
    st.integers(0, 2**32 - 1),
    st.sampled_from([rr, wrr]),
    st.integers(200, 4000),
)
def test_batch_counting_keeps_the_engines_exact(means, batch, seed, policy, cap):
    tape = bernoulli_tape(means, seed)
    kw = dict(k=1.0, delta=0.1, cap=cap, ci=CI, batch=batch, count="batches")
    ref = policy(tape.rewind(), engine="reference", **kw)
    fast = policy(tape.rewind(), engine="fast", **kw)
    assert ref.same_decisions(fast)


def test_batch_counting_is_the_pull_count_with_batch_one_and_cheaper_with_batches():
    means = np.array([0.05, 0.1, 0.2, 0.25, 0.3, 0.95])
    tape = bernoulli_tape(means, 5)
    for policy in (rr, wrr):
        a = policy(tape.rewind(), k=1.5, delta=0.1, cap=10**8, ci=CI, batch=1, count="batches")
        b = policy(tape.rewind(), k=1.5, delta=0.1, cap=10**8, ci=CI, batch=1)
        assert a.same_decisions(b)
        pulls = policy(tape.rewind(), k=1.5, delta=0.1, cap=10**8, ci=CI, batch=5)
        batches = policy(tape.rewind(), k=1.5, delta=0.1, cap=10**8, ci=CI, batch=5, count="batches")
        assert not pulls.capped and not batches.capped
        assert np.array_equal(pulls.output, batches.output) and batches.pulls < pulls.pulls


def test_batch_counting_bad_input():
    tape = bernoulli_tape([0.1, 0.5, 0.9], 1)
    with pytest.raises(ValueError, match="count='trials'"):
        rr(tape.rewind(), k=1.0, delta=0.1, cap=1000, ci=CI, count="trials")
    with pytest.raises(ValueError, match="batch=1000"):
        wrr(tape.rewind(), k=1.0, delta=0.1, cap=10**6, ci=CI, batch=1000, count="batches")
