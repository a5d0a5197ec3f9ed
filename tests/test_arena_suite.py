"""The arena's suite (bandit_lib.arena.suite): named instances, the yardstick, one row per run."""

import numpy as np
import pytest

from bandit_lib.arena import suite as sx
from bandit_lib.arena.lower_bound import kl_delta, single_arm_bound
from bandit_lib.arena.suite import (
    DELTA,
    DETECTORS,
    GAUSS_RTOL,
    INSTANCES,
    PLANTED_MIN_GAP,
    instance,
    run_detector,
    yardstick,
)
from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers
from bandit_lib.runner import Instance
from bandit_lib.seeding import derive
from bandit_lib.zhuang17.instances import planted_outliers


def test_instances_are_named_by_family_n_and_case():
    a, b, c = instance("planted", 20, 0), instance("planted", 20, 0), instance("planted", 20, 1)
    assert np.array_equal(a.means, b.means) and not np.array_equal(a.means, c.means)
    assert a.k == 2.5 and a.n == 20 and ksigma_outliers(a.means, a.k).size >= 1
    w = instance("window", 50, 0)
    assert w.n == 50 and 0.1 <= np.min(np.abs(w.means - (w.means.mean() + 2.5 * w.means.std()))) <= 0.2
    with pytest.raises(ValueError, match="family"):
        instance("planet", 20, 0)
    with pytest.raises(ValueError, match="hcb has one instance"):
        instance("hcb", 100, 0)


def test_yardstick_is_the_best_certified_bound_times_kl():
    cell = instance("planted", 200, 1)  # beyond CERTIFY_MAX_N: the single-arm bound alone
    st = yardstick(cell, gauss=False)
    t1 = single_arm_bound(cell.means, cell.k, divergence="bernoulli")
    assert st["T1"] == t1 and st["bound"] == pytest.approx(t1 * kl_delta(DELTA)) and st["bound_kind"] == "single-arm"
    assert st["n_outliers"] == ksigma_outliers(cell.means, cell.k).size and np.isnan(st["T_cert"])
    assert np.isnan(st["G_lo"]) and np.isnan(st["T_upper"])
    # at n = 20 the certificate tightens it, and the Gaussian bracket (an upper value of the
    # Bernoulli T*, by Pinsker) lies above both, within GAUSS_RTOL
    small = yardstick(instance("planted", 20, 1))
    assert small["T1"] < small["T_cert"] == small["T_lower"] < small["G_lo"] <= small["G_hi"] == small["T_upper"]
    assert small["G_lo"] >= (1 - GAUSS_RTOL) * small["G_hi"]
    assert (
        small["bound"] == pytest.approx(small["T_cert"] * kl_delta(DELTA)) and small["bound_kind"] == "cutting planes"
    )


@pytest.mark.slow
def test_planted_cases_keep_the_draws_above_the_gap_floor_and_window_gets_a_box_bound(monkeypatch):
    gaps = [ksigma_gaps(instance("planted", 20, c).means, 2.5).min() for c in range(3)]
    assert min(gaps) >= PLANTED_MIN_GAP
    # draw 2 of the generator at n = 20 has Delta_min 0.012: it is skipped, so case 2 is draw 3
    assert np.array_equal(
        instance("planted", 20, 2).means, planted_outliers(20, 2.5, derive(INSTANCES, "planted", 20, 3)).means
    )
    # the window family: no arm can change side alone (T1 = 0), but moving several arms inside
    # [0, 1] gives a positive certified bound, below the Gaussian upper value
    # (a small iteration budget keeps the test short; the budget, not a clock, decides where it stops)
    monkeypatch.setattr(sx, "BOX_MAX_ITER", 6)
    st = yardstick(instance("window", 20, 0))
    assert st["T1"] == 0 and st["n_outliers"] == 0 and st["bound_kind"] == "box cutting planes"
    assert 0 < st["T_box"] == st["T_lower"] < st["T_upper"] and st["bound"] > 0
    # the tightest certified upper value: the box's own (conic dual), below the Gaussian G_hi
    assert st["upper_kind"] == "box (Bernoulli, conic dual)" and st["T_upper"] == st["T_box_up"] < st["G_hi"]
    hcb = yardstick(instance("hcb", 722, 0), gauss=False)  # error rates of exactly 0 are taken as they are
    assert hcb["T1"] > 0 and hcb["bound_kind"] == "single-arm"


@pytest.mark.parametrize(
    "name",
    [
        "RR (Agresti–Coull)",
        "WRR (Agresti–Coull)",
        "NRR (heuristic)",
        "RR (Hoeffding)",
        "RR (anytime CS)",
        "RR-GLR",
        "D-Tracking",
        "Top-Two",
        "Frank–Wolfe",
        "Top-Two (β = ½)",
        "D-Tracking (CS)",
        "Top-Two (CS)",
        "Frank–Wolfe (CS)",
    ],
)
def test_run_detector_gives_one_reproducible_row(name):
    cell = instance("planted", 20, 0)
    tape = Instance(cell.means).tape(np.random.SeedSequence(5))
    row = run_detector(name, cell, tape)
    again = run_detector(name, cell, tape.rewind())
    assert {k: v for k, v in row.items() if k != "wall_s"} == {k: v for k, v in again.items() if k != "wall_s"}
    assert row["pulls"] >= cell.n and not row["capped"]
    if DETECTORS[name].delta_correct:
        assert row["correct"]
    with pytest.raises(ValueError, match="detector"):
        run_detector("UCB", cell, tape.rewind())


def test_the_full_plan_runs_every_detector_ten_times_per_cell_and_every_sampler_with_both_stops():
    from collections import Counter

    from bandit_lib.arena import experiments as ax

    units = ax.SUITE_EXPERIMENT.units("full")
    runs = Counter()
    for u in units:
        assert u.params["runs"] == (10 if u.params["n"] <= ax.SMALL_N else 1), u.key
        for d in u.params["detectors"]:
            runs[(u.params["family"], u.params["n"], u.params["case"], d)] += u.params["runs"]
    assert set(runs.values()) == {10}, runs  # ten runs of every detector in every cell where it runs
    assert len({u.key for u in units}) == len(units)
    big = {d for u in units if u.params["n"] == 10_000 for d in u.params["detectors"]}
    assert {"D-Tracking (CS)", "Top-Two (CS)", "RR (anytime CS)"} <= big, big
    # each adaptive sampler meets both stops wherever its GLR row runs
    for glr, cs in sx.SAMPLER_PAIRS.values():
        glr_cells = {key[:3] for key in runs if key[3] == glr}
        cs_cells = {key[:3] for key in runs if key[3] == cs}
        assert glr_cells and glr_cells <= cs_cells, (glr, glr_cells - cs_cells)
        assert max(n for _, n, _ in glr_cells) == 1000
    # every detector the book adds is checked for delta-correctness
    assert set(ax.CORRECTNESS_RUNS["full"]) == set(sx.GLR) | set(sx.ANYTIME) | set(sx.ADAPTIVE_CS)
    assert all(r >= 1000 for r in ax.CORRECTNESS_RUNS["full"].values())


def test_the_efficiency_plan_covers_two_generators_and_delta_down_to_1e_300():
    from bandit_lib.arena import efficiency as ef
    from bandit_lib.arena import experiments as ax

    units = ax.EFFICIENCY.units("full")
    assert {u.params["family"] for u in units} == {"planted", "window"}
    assert {u.params["sampler"] for u in units} == set(ef.SAMPLERS)
    assert all(min(u.params["deltas"]) == 1e-300 and u.params["runs"] >= 20 for u in units)
    assert len({u.key for u in units}) == len(units)
