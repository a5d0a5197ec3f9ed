"""ADE20's theory helpers: the explicit Theorem 2 bound and the balanced-radii cost model."""

import math

import numpy as np
import pytest

from bandit_lib.ade20.ade import ade
from bandit_lib.ade20.instances import uniform_window
from bandit_lib.ade20.theory import ade_cost_model, balance_factor, theorem2_bound
from bandit_lib.ksigma import ksigma_gaps
from bandit_lib.runner import Instance


def test_balance_factor_values():
    # spec 2.4: m_th / m_a is about 900 (k = 2), 1,400 (k = 2.5), 2,000 (k = 3) at sigma_y = 0.29
    assert balance_factor(0.29, 2.0) ** 2 == pytest.approx(900, rel=0.05)
    assert balance_factor(0.29, 2.5) ** 2 == pytest.approx(1400, rel=0.05)
    assert balance_factor(0.29, 3.0) ** 2 == pytest.approx(2000, rel=0.05)
    assert balance_factor(0.5, 1.0, a=0.0, b=2.0) == pytest.approx(1 + math.sqrt(2) * (4 - 0 + 2 * 2 * 2) / (2 * 0.5))


def test_theorem2_bound_matches_the_spec_example():
    # spec 5: n = 1000, Delta_min = 0.2 gives M of about 1.6e4 and a total of about 1.9e8
    y = uniform_window(1000, 2.5, 0.199, 0.201, 3, "thm2").means
    b = theorem2_bound(y, 2.5, 0.1)
    gaps = ksigma_gaps(y, 2.5)
    assert b["M_i"][np.argmin(gaps)] == pytest.approx(1.6e4, rel=0.1)
    assert b["total"] == pytest.approx(1.9e8, rel=0.15)
    assert np.all(np.diff(b["M_i"][np.argsort(gaps)]) <= 0)  # harder arms get larger bounds


def test_cost_model_predicts_a_run_within_fifteen_percent():
    y = uniform_window(200, 2.5, 0.1, 0.2, 4, "model").means
    model = ade_cost_model(y, 2.5, 0.1)
    out = ade(Instance(y).tape(1), k=2.5, delta=0.1)
    assert out.pulls == pytest.approx(model["total"], rel=0.15)
    assert out.info["m_a"] == pytest.approx(model["m_a"], rel=0.15)
    assert model["threshold"] > 0.9 * model["total"]  # threshold pulls dominate
    L = model["L"]  # a fixed point: L is the log level at the model's own final round
    t = model["m_th"] + model["m_a"] + 1
    assert L == pytest.approx(math.log((200 + 4) * math.pi**2 * t * t / 0.3), rel=1e-6)


def test_bad_input():
    with pytest.raises(ValueError, match="sigma_y=0"):
        balance_factor(0.0, 2.0)
    with pytest.raises(ValueError, match="k=-1"):
        balance_factor(0.3, -1.0)
    with pytest.raises(ValueError, match="Delta_min = 0"):
        theorem2_bound([0.0, 0.5, 1.0], 0.0, 0.1)  # k = 0: theta = 0.5, the middle arm sits on it
    with pytest.raises(ValueError, match="Delta_min = 0"):
        ade_cost_model([0.3, 0.3], 1.0, 0.1)  # equal means: sigma_y = 0 and every arm on theta
    with pytest.raises(ValueError, match="delta=2"):
        ade_cost_model([0.1, 0.9], 0.5, 2.0)
    with pytest.raises(ValueError, match="y must hold at least 2"):
        theorem2_bound([0.5], 1.0, 0.1)
