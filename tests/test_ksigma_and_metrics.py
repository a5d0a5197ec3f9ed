import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers, ksigma_threshold, max_outlier_fraction
from bandit_lib.metrics import (
    binomial_interval,
    cost_reduction,
    error_rate_within,
    exactly_correct,
    pseudo_regret,
    set_scores,
    survival_curve,
)

means = st.lists(st.floats(0, 1), min_size=2, max_size=60)


def test_threshold_uses_the_population_std():
    y = [0.1, 0.2, 0.3, 0.9]
    assert ksigma_threshold(y, 2.0) == pytest.approx(np.mean(y) + 2 * np.std(y, ddof=0))
    assert ksigma_outliers(y, 1.5).tolist() == [3]
    assert ksigma_outliers([0.0, 1.0], 1.0).tolist() == []  # 1.0 sits exactly on theta
    assert ksigma_outliers([0.0, 1.0], 1.0, inclusive=True).tolist() == [1]
    np.testing.assert_allclose(ksigma_gaps([0.0, 1.0], 1.0), [1.0, 0.0])


@given(means, st.floats(0, 5))
def test_at_most_a_fraction_one_over_one_plus_k_squared_are_outliers(y, k):
    assert len(ksigma_outliers(y, k)) <= max_outlier_fraction(k) * len(y) + 1e-9


@given(means, st.floats(0.5, 4), st.floats(0.1, 10), st.floats(-5, 5))
def test_outliers_are_invariant_under_positive_affine_maps(y, k, a, b):
    y = np.array(y)
    theta = ksigma_threshold(y, k)
    if np.min(np.abs(y - theta)) < 1e-6:  # arms on the threshold may flip by rounding
        return
    assert ksigma_outliers(a * y + b, k).tolist() == ksigma_outliers(y, k).tolist()


def test_set_scores_follow_the_empty_set_conventions():
    assert set_scores([], []) == set_scores([], [])
    s = set_scores([], [])
    assert (s.precision, s.recall, s.f1, s.exact) == (1.0, 1.0, 1.0, True)
    s = set_scores([], [1])
    assert (s.precision, s.recall, s.f1, s.exact) == (1.0, 0.0, 0.0, False)
    s = set_scores([2], [])
    assert (s.precision, s.recall, s.f1) == (0.0, 1.0, 0.0)
    s = set_scores([1, 2], [2, 3])
    assert (s.precision, s.recall, s.f1) == (0.5, 0.5, 0.5)
    s = set_scores([0], [1])
    assert (s.precision, s.recall, s.f1) == (0.0, 0.0, 0.0)
    assert exactly_correct(np.array([3, 1]), {1, 3}) and not exactly_correct([1], [1, 2])


def test_costs_survival_and_regret():
    assert cost_reduction(25, 100) == 0.75
    np.testing.assert_allclose(cost_reduction([50, 150], [100, 100]), [0.5, -0.5])
    np.testing.assert_allclose(survival_curve([0.1, 0.5, 0.9], [0.0, 0.5, 1.0]), [1.0, 2 / 3, 0.0])
    np.testing.assert_allclose(pseudo_regret([0.2, 0.5, 0.9], [0, 2, 1, 2]), [0.7, 0.7, 1.1, 1.1])


def test_binomial_verdicts():
    lo, hi = binomial_interval(0, 1000)
    assert lo == 0.0 and 0.003 < hi < 0.004
    assert error_rate_within(95, 1000, 0.1)  # 9.5% errors is consistent with <= 10%
    assert not error_rate_within(140, 1000, 0.1)  # 14% is not


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ksigma_threshold([], 2), "at least 1"),
        (lambda: ksigma_threshold([0.1, np.inf], 2), r"y\[1\]=inf"),
        (lambda: ksigma_outliers([0.1, 0.2], -1), "k=-1"),
        (lambda: set_scores([0, -2], [1]), "-2"),
        (lambda: set_scores([0.5], [1]), "0.5"),
        (lambda: set_scores("ab", [1]), "estimate='ab'"),
        (lambda: cost_reduction(5, 0), "baseline_cost"),
        (lambda: pseudo_regret([0.1, 0.2], [0, 2]), "got 2"),
        (lambda: binomial_interval(5, 3), "successes=5"),
        (lambda: error_rate_within(1, 10, 1.5), "delta=1.5"),
    ],
)
def test_bad_inputs_name_the_bad_value(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_ksigma_underflow_example_found_by_hypothesis():
    """The squares of the deviations underflow: a plain std is 0 and arm 1 looks like an outlier."""
    assert ksigma_outliers([0.0, 2.599812844674477e-263], 2.0).tolist() == []
    assert ksigma_threshold([0.0, 2.599812844674477e-263], 2.0) == pytest.approx(1.5 * 2.599812844674477e-263)


def test_ksigma_overflow_gives_the_right_set_or_a_clear_error():
    assert ksigma_outliers([1e308, -1e308], 1).tolist() == []
    assert ksigma_outliers([1e308, -1e308], 0.5).tolist() == [0]
    assert ksigma_outliers([1e308] * 4 + [-1e308], 0.1).tolist() == [0, 1, 2, 3]
    assert ksigma_threshold([1e308, -1e308], 1) == 1e308
    with pytest.raises(OverflowError, match="max \\|y\\| = 1.7e\\+308"):
        ksigma_threshold([1.7e308, -1.7e308], 1.5)
    with pytest.raises(OverflowError, match="gaps"):
        ksigma_gaps([1.7e308, -1.7e308], 1.5)


@given(means, st.floats(0.5, 4), st.integers(-1000, 1000))
def test_outliers_do_not_depend_on_the_scale(y, k, e):
    """Scaling by a power of two is exact, so the decision must not move at any scale."""
    y = np.array(y)
    theta = ksigma_threshold(y, k)
    if np.min(np.abs(y - theta)) < 1e-9 * max(1.0, np.max(np.abs(y))):
        return
    c = 2.0**e
    if not np.all(np.isfinite(y * c)) or (np.any(y != 0) and np.max(np.abs(y * c)) < 1e-290):
        return  # below ~1e-290 the scaled means themselves lose digits (subnormals)
    assert ksigma_outliers(y * c, k).tolist() == ksigma_outliers(y, k).tolist()
