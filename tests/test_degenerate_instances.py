"""Degenerate instances are refused at once (issue 21): with all means equal, or an arm exactly on
the k-sigma threshold, no fixed-confidence detector can stop, and without an explicit cap each
would run to its 10^9-pull default (minutes for a fast engine, hours for a reference one)."""

from __future__ import annotations

import time

import pytest

from bandit_lib.ade20.ade import ade, ade_reference
from bandit_lib.arena.glr import rr_glr
from bandit_lib.arena.tracking import track_and_stop
from bandit_lib.gold20.gold import gold, gold_reference
from bandit_lib.ksigma import degenerate_reason
from bandit_lib.tapes import bernoulli_tape
from bandit_lib.zhuang17.ib import ib, ib_reference
from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI
from bandit_lib.zhuang17.nrr import nrr, nrr_reference
from bandit_lib.zhuang17.rr import rr, rr_reference
from bandit_lib.zhuang17.wrr import wrr, wrr_reference

K = 1.5
DETECTORS = {
    "rr": lambda t, **c: rr(t, k=K, delta=0.1, ci=HoeffdingCI(), **c),
    "rr (reference)": lambda t, **c: rr_reference(t, k=K, delta=0.1, ci=HoeffdingCI(), **c),
    "wrr": lambda t, **c: wrr(t, k=K, delta=0.1, ci=AgrestiCoullCI(), **c),
    "wrr (reference)": lambda t, **c: wrr_reference(t, k=K, delta=0.1, ci=AgrestiCoullCI(), rho=1.0, **c),
    "ib": lambda t, **c: ib(t, k=K, delta=0.1, **c),
    "ib (reference)": lambda t, **c: ib_reference(t, k=K, delta=0.1, **c),
    "nrr": lambda t, **c: nrr(t, k=K, delta=0.1, **c),
    "nrr (reference)": lambda t, **c: nrr_reference(t, k=K, delta=0.1, **c),
    "ade": lambda t, **c: ade(t, k=K, delta=0.1, **c),
    "ade (reference)": lambda t, **c: ade_reference(t, k=K, delta=0.1, **c),
    "gold": lambda t, **c: gold(t, eps=0.1, rho=0.7, delta=0.1, **c),
    "gold (reference)": lambda t, **c: gold_reference(t, eps=0.1, rho=0.7, delta=0.1, **c),
    "rr_glr": lambda t, **c: rr_glr(t, k=K, delta=0.1, **c),
    # Gaussian weights: the exact Bernoulli weights (the default) re-solve w* by SLSQP per arm, about
    # 20 s on a tape's first estimates of equal means (0 or 1 each); the refusal is the same check.
    "track_and_stop": lambda t, **c: track_and_stop(t, k=K, delta=0.1, weights="gaussian", sub_gaussian=0.5, **c),
    "track_and_stop (reference)": lambda t, **c: track_and_stop(
        t, k=K, delta=0.1, weights="gaussian", sub_gaussian=0.5, engine="reference", **c
    ),
}


@pytest.mark.parametrize("name", list(DETECTORS))
def test_equal_means_are_refused_at_once_unless_a_cap_is_given(name):
    run = DETECTORS[name]
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"all 5 means are equal \(0\.4\).*Pass cap=<pulls>"):
        run(bernoulli_tape([0.4] * 5, 1))
    assert time.perf_counter() - start < 1.0
    out = run(bernoulli_tape([0.4] * 5, 1), cap=200)  # an explicit cap: the caller asked for it
    assert out.pulls <= 200


def test_an_arm_exactly_on_the_threshold_is_refused():
    means = [0.2, 0.5, 0.8]  # k = 0: the threshold is the mean, 0.5
    assert "arm 1 sits exactly on the threshold" in degenerate_reason(means, 0.0)
    with pytest.raises(ValueError, match="arm 1 sits exactly on the threshold"):
        rr(bernoulli_tape(means, 1), k=0.0, delta=0.1, ci=HoeffdingCI())
    assert degenerate_reason([0.2, 0.5, 0.9], 0.0) is None
    assert degenerate_reason([0.3, 0.3], None) is not None and degenerate_reason([0.3, 0.4], None) is None
