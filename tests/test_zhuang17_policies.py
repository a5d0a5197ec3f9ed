"""ZHUANG17: behaviour of RR, WRR, NRR, IB and of the instance generators (spec rr_wrr.md 2-4, 7)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers
from bandit_lib.metrics import error_rate_within
from bandit_lib.runner import Instance, run_policy
from bandit_lib.tapes import bernoulli_tape, gaussian_tape
from bandit_lib.zhuang17.ib import ib
from bandit_lib.zhuang17.instances import natural, planted_outliers, uniform_gap
from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI, rho_star
from bandit_lib.zhuang17.nrr import nrr
from bandit_lib.zhuang17.rr import rr
from bandit_lib.zhuang17.twitter_like import twitter_like
from bandit_lib.zhuang17.wrr import wrr

Y = np.array([0.2, 0.22, 0.25, 0.3, 0.32, 0.35, 0.38, 0.4, 0.42, 0.95])


def test_rr_pulls_round_robin_from_arm_1():
    out = rr(bernoulli_tape(Y, 1), k=2.0, delta=0.1, cap=10 + 13, ci=AgrestiCoullCI(), engine="reference")
    # 10 initial pulls, then arms 1..9, 0, 1, 2, 3
    np.testing.assert_array_equal(out.counts, [2, 3, 3, 3, 2, 2, 2, 2, 2, 2])
    assert out.capped and out.pulls == 23


def test_wrr_gives_active_arms_about_rho_times_more_pulls():
    out = wrr(bernoulli_tape(Y, 2), k=2.0, delta=0.1, cap=10**6, ci=AgrestiCoullCI(), rho=4.0)
    rr_out = rr(bernoulli_tape(Y, 2), k=2.0, delta=0.1, cap=10**6, ci=AgrestiCoullCI())
    assert not out.capped and not rr_out.capped
    # the arm nearest the threshold is active longest and gets the most pulls
    nearest = int(np.argmin(ksigma_gaps(Y, 2.0)))
    assert out.counts.argmax() == nearest
    assert out.counts[nearest] > 2 * np.median(out.counts)
    assert np.ptp(rr_out.counts) <= 1
    np.testing.assert_array_equal(out.output, ksigma_outliers(Y, 2.0))


def test_wrr_first_visit_of_an_active_arm_makes_ceil_rho_extra_pulls():
    # c_i starts at 0 and m_i at 1: with rho = 3.3 the first visit of an active arm ends at m_i = 4
    out = wrr(bernoulli_tape(Y, 3), k=2.0, delta=0.1, cap=10 + 3, ci=AgrestiCoullCI(), rho=3.3, engine="reference")
    assert out.counts[1] == 4 and out.pulls == 13


def test_batches_count_pulls_and_credit_rho_times_batch():
    ref = wrr(
        bernoulli_tape(Y, 4), k=2.0, delta=0.1, cap=10**6, ci=HoeffdingCI(), rho=2.0, batch=50, engine="reference"
    )
    assert ((ref.counts - 1) % 50 == 0).all()
    assert ref.info["rho"] == 2.0


def test_nrr_stops_after_ten_unchanged_pulls():
    out = nrr(bernoulli_tape(Y, 5), k=2.0, delta=0.1, cap=10**5)
    assert out.pulls >= 10 + 10 and not out.capped
    assert nrr(bernoulli_tape(Y, 5), k=2.0, delta=0.1, cap=12).capped


def test_ib_removes_outliers_then_stops_on_a_normal_arm():
    y = np.array([0.1, 0.2, 0.4, 0.15, 0.25, 0.05, 0.95, 0.9, 0.12, 0.22, 0.18, 0.28, 0.08, 0.02, 0.3])
    out = ib(bernoulli_tape(y, 6), k=1.5, delta=0.1, cap=10**7)
    assert not out.capped
    assert sorted(out.info["removed"]) == ksigma_outliers(y, 1.5).tolist()
    assert out.info["stages"] == len(out.info["removed"]) + 1
    np.testing.assert_array_equal(out.output, ksigma_outliers(y, 1.5))


@pytest.mark.parametrize("policy", [rr, wrr])
def test_hoeffding_runs_are_correct_with_probability_at_least_1_minus_delta(policy):
    """Theorem 1 on an easy instance: 60 runs, every one must stop (no cap) and be correct."""
    y = np.array([0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.9])
    truth = ksigma_outliers(y, 1.5)
    errors = 0
    for seed in range(60):
        out = run_policy(policy, Instance(y), seed, cap=10**7, k=1.5, delta=0.1, ci=HoeffdingCI())
        assert not out.capped
        errors += not np.array_equal(out.output, truth)
    assert error_rate_within(errors, 60, 0.1)


def test_runner_integration_and_fresh_tape_rule():
    out = run_policy(rr, Instance(Y), 7, cap=10**6, k=2.0, delta=0.1, ci=AgrestiCoullCI())
    assert out.pulls <= 10**6
    tape = bernoulli_tape(Y, 7)
    rr(tape, k=2.0, delta=0.1, cap=10**6, ci=AgrestiCoullCI())
    assert tape.total_pulls == out.pulls  # the fast engine consumed the tape like the reference
    with pytest.raises(ValueError, match="already read"):
        rr(tape, k=2.0, delta=0.1, cap=10**6, ci=AgrestiCoullCI())


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda t: rr(t, k=2.0, delta=0.1, cap=5, ci=AgrestiCoullCI()), "cap=5"),
        (lambda t: rr(t, k=2.0, delta=0.1, cap=1.5e3, ci=AgrestiCoullCI()), None),
        (lambda t: rr(t, k=2.0, delta=0.1, cap=1000.5, ci=AgrestiCoullCI()), "cap=1000.5"),
        (lambda t: rr(t, k=-1.0, delta=0.1, cap=1000, ci=AgrestiCoullCI()), "k="),
        (lambda t: rr(t, k=2.0, delta=1.5, cap=1000, ci=AgrestiCoullCI()), "delta="),
        (lambda t: rr(t, k=2.0, delta=0.1, cap=1000, ci="hoeffding"), "ci="),
        (lambda t: rr(t, k=2.0, delta=0.1, cap=1000, ci=HoeffdingCI(), batch=0), "batch="),
        (lambda t: rr(t, k=2.0, delta=0.1, cap=1000, ci=HoeffdingCI(), engine="slow"), "engine="),
        (lambda t: wrr(t, k=2.0, delta=0.1, cap=1000, ci=HoeffdingCI(), rho=0.5), "rho=0.5"),
        (lambda t: wrr(t, k=2.0, delta=0.1, cap=1000, ci=HoeffdingCI(), init_pulls=0), "init_pulls="),
        (lambda t: nrr(t, k=2.0, delta=0.0, cap=1000), "delta="),
        (lambda t: ib(t, k=2.0, delta=0.1, cap=1000, R_sg=0.0), "R_sg="),
        (lambda t: ib([0.1, 0.2], k=2.0, delta=0.1, cap=1000), "tape="),
    ],
)
def test_bad_arguments_raise_errors_naming_the_value(call, match):
    tape = bernoulli_tape(Y, 1)
    if match is None:
        assert call(tape).pulls <= 1500  # an integral float cap is accepted
        return
    with pytest.raises((ValueError, TypeError), match=match):
        call(tape)


def test_agresti_coull_refuses_unbounded_rewards():
    with pytest.raises(ValueError, match="gaussian tape"):
        rr(gaussian_tape(Y, 1.0, 1), k=2.0, delta=0.1, cap=1000, ci=AgrestiCoullCI())


# --------------------------------------------------------------------------- generators


@given(st.sampled_from([15, 20, 50, 200]), st.sampled_from([2.0, 2.5, 3.0]), st.integers(0, 2**32 - 1))
def test_planted_cases_have_exactly_the_planted_outliers_and_a_gap(n, k, seed):
    case = planted_outliers(n, k, seed)
    assert len(case.outliers) >= 1
    assert (case.means[case.outliers] >= 0.6).all()
    assert ksigma_gaps(case.means, k).min() >= 0.01
    summary = case.summary()
    assert summary["H1"] / n <= summary["H2"] <= summary["H1"]


def test_generators_are_reproducible_and_check_their_arguments():
    a = planted_outliers(20, 2.5, 42)
    b = planted_outliers(20, 2.5, 42)
    np.testing.assert_array_equal(a.means, b.means)
    assert natural(30, 2.0, 1).n == 30
    assert uniform_gap(30, 1.0, 1, gap=(0.05, 0.5)).gap_min >= 0.05
    with pytest.raises(ValueError, match="normal="):
        planted_outliers(20, 2.5, 1, normal=(0.5, 0.1))
    with pytest.raises(RuntimeError, match="max_tries=3"):
        planted_outliers(20, 3.0, 1, min_gap=0.4, max_tries=3)
    with pytest.raises(ValueError, match="n="):
        planted_outliers(2, 2.5, 1)


def test_twitter_like_stand_in():
    data = twitter_like(3, n_keywords=5)
    assert len(data.region_sizes) == 47 and (data.region_sizes >= 5000).all()
    assert len(data.keywords) == 5 and data.label == "Twitter-like (synthetic stand-in)"
    for kw in data.keywords:
        assert len(kw.means) == 47 and len(kw.outliers(2.5)) >= 1
        assert ((kw.means >= 0) & (kw.means <= 0.95)).all()
        np.testing.assert_array_equal(kw.means, kw.counts / data.region_sizes)
    # keyword w does not depend on how many keywords are drawn
    more = twitter_like(3, n_keywords=8)
    np.testing.assert_array_equal(more.keywords[4].means, data.keywords[4].means)
    with pytest.raises(ValueError, match="n_keywords="):
        twitter_like(3, n_keywords=0)


def test_rho_star_is_used_by_default():
    out = wrr(bernoulli_tape(Y, 1), k=2.0, delta=0.1, cap=1000, ci=AgrestiCoullCI())
    assert out.info["rho"] == pytest.approx(rho_star(10, 2.0, 0.1))


def test_tweet_loader_on_a_fixture(tmp_path):
    from bandit_lib.zhuang17.tweets import keyword_instances, load_tweets

    rng = np.random.default_rng(0)
    rows = []
    size = 2 / 60
    for c, (n_tweets, rate) in enumerate([(40, 0.1), (60, 0.5), (30, 0.0), (5, 1.0)]):
        for t in range(n_tweets):
            lat, lon = 40.7 + (c + 0.5) * size, -74.0 + 0.5 * size
            text = "Go Yankees tonight" if t < rate * n_tweets else "yankee stadium? no: Yank"
            rows.append({"lat": lat + rng.uniform(-0.4, 0.4) * size, "lon": lon, "text": text})
    path = tmp_path / "tweets.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    data = keyword_instances(path, ["yankees", "stadium"], min_tweets=10)
    np.testing.assert_array_equal(np.sort(data.region_sizes), [30, 40, 60])  # the 5-tweet cell is dropped
    by_size = dict(zip(data.region_sizes, data.keywords[0].means))
    assert by_size[40] == pytest.approx(0.1) and by_size[60] == pytest.approx(0.5) and by_size[30] == 0.0
    assert data.keywords[1].counts.sum() == (40 - 4) + (60 - 30) + 30  # whole words, any case
    with pytest.raises(ValueError, match="missing"):
        load_tweets(pd.DataFrame({"lat": [1.0], "text": ["x"]}))
    with pytest.raises(ValueError, match="min_tweets=1000"):
        keyword_instances(path, ["yankees"], min_tweets=1000)
    with pytest.raises(FileNotFoundError, match="no tweets CSV file"):
        load_tweets(tmp_path / "absent.csv")
