"""UIG chapter: the experiments' compute functions on small settings."""

import pytest

from bandit_lib.seeding import derive
from bandit_lib.uig.experiments import jester as uig_jester
from bandit_lib.uig.experiments import reduction as uig_reduction
from bandit_lib.uig.experiments import regret as uig_regret
from bandit_lib.uig.experiments import theory as uig_theory
from bandit_lib.uig.experiments import timing as uig_timing


def test_reduction_counts_every_arm_at_the_extremes():
    out = uig_reduction.compute_reduction(derive(1, "t"), figure="fig4a", K=20, eps=[0.0, 0.3, 1.0], reps=3)
    sizes = {(row["rep"], row["eps"]): row["size"] for row in out["rows"]}
    assert all(sizes[(r, 0.0)] == 20 and sizes[(r, 1.0)] == 20 for r in range(3))
    assert all(2 <= sizes[(r, 0.3)] < 20 for r in range(3))
    out = uig_reduction.compute_reduction(derive(1, "t"), figure="fig5a", K=30, eps=0.2, p=[0.3, 1.0], reps=2)
    for row in out["rows"]:
        assert row["csi"] <= row["psi_off"] and (row["size"] == row["csi"]) == (row["p"] == 1.0)


def test_regret_experiments_are_deterministic_and_complete():
    args = dict(K=15, eps=0.2, T=60, first=0, last=2, policies=list(uig_regret.CSI_POLICIES))
    a = uig_regret.compute_regret_csi(derive(2, "t"), **args)
    b = uig_regret.compute_regret_csi(derive(2, "t"), **args)
    assert a["regret"] == b["regret"] and set(a["regret"]) == set(uig_regret.CSI_POLICIES)
    assert a["grid"][-1] == 60 and all(len(v) == 2 and len(v[0]) == len(a["grid"]) for v in a["regret"].values())
    psi = uig_regret.compute_regret_psi(
        derive(3, "t"), K=15, eps=0.2, p=0.7, T=[30, 60], first=0, last=1, baselines=list(uig_regret.PSI_BASELINES)
    )
    assert len(psi["regret"]["LSDT-PSI"][0]) == 2 and psi["grid"] == [30, 60]
    ts = uig_regret.compute_ts_psi(
        derive(4, "t"), K=15, eps=0.2, p=0.7, T=60, first=0, last=1, policies=list(uig_regret.TS_PSI_POLICIES)
    )
    assert set(ts["regret"]) == set(uig_regret.TS_PSI_POLICIES)


def test_jester_replay_experiment_on_a_small_stand_in():
    out = uig_jester.compute_jester(
        derive(5, "t"),
        data="jester-like",
        n_users=1500,
        test=1000,
        train=0.1,
        alpha=0.1,
        first=0,
        last=1,
        policies=list(uig_jester.JESTER_POLICIES),
    )
    row = out["rows"][0]
    assert out["summary"]["users"] == 1500 and row["B0"] >= 1
    for name in uig_jester.JESTER_POLICIES:
        assert 0 < row[name] < 1 and 500 < row[f"{name} valid"] <= 1000
    with pytest.raises(ValueError, match="cannot hold"):
        uig_jester.compute_jester(
            derive(5, "t"),
            data="jester-like",
            n_users=500,
            test=1000,
            train=0.1,
            alpha=0.1,
            first=0,
            last=1,
            policies=["UCB1"],
        )


def test_the_jester_experiment_reads_a_local_copy(tmp_path, monkeypatch):
    from bandit_lib.uig.jester import write_jester_csv
    from bandit_lib.uig.jester_like import jester_like

    path = write_jester_csv(jester_like(9, n_users=1200), tmp_path / "jester-data-1.csv")
    monkeypatch.setenv(uig_jester.JESTER_ENV, str(path))
    units = uig_jester.JESTER.units("quick")
    assert all(u.params["data"] == str(path) for u in units)
    out = uig_jester.compute_jester(
        derive(6, "t"),
        data=str(path),
        n_users=0,
        test=800,
        train=0.1,
        alpha=0.1,
        first=0,
        last=1,
        policies=["UCB1", "LSDT-PSI"],
    )
    assert out["data"] == str(path) and out["summary"]["users"] == 1200


def test_theory_checks_run_and_the_designed_instance_keeps_its_candidate_set():
    out = uig_theory.compute_theory(derive(7, "t"), check="scaling_K", K=[10, 40], K_T=200, K_reps=2)
    assert {row["B*"] for row in out["rows"]} == {3}
    out = uig_theory.compute_theory(derive(7, "t"), check="log_growth", lsdt_T=[100, 300], ucb_T=[100], log_reps=2)
    assert out["bound"] > 0 and out["C1"] > 0
    assert {row["policy"] for row in out["rows"]} == {"LSDT-CSI", "UCB1"}
    psi = uig_theory.compute_theory(derive(7, "t"), check="log_growth_psi", psi_T=[100], psi_reps=1)
    assert [row["policy"] for row in psi["rows"]] == ["LSDT-PSI"]
    assert all(row["regret"] <= row["bound"] for row in psi["rows"])
    # the PSI repetitions come from the unsplit unit's seed, whatever seed the runner passes
    assert uig_theory.compute_theory(derive(8, "other"), check="log_growth_psi", psi_T=[100], psi_reps=1) == psi
    out = uig_theory.compute_theory(derive(7, "t"), check="clustered", clusters=[4], cluster_reps=3)
    assert all(row["B*"] == 8 and row["B0"] >= 8 for row in out["rows"])
    with pytest.raises(ValueError, match="unknown theory check"):
        uig_theory.compute_theory(derive(7, "t"), check="nope")


def test_plans_have_unique_keys_in_both_profiles():
    for exp in (
        uig_reduction.REDUCTION_CSI,
        uig_reduction.REDUCTION_PSI,
        uig_regret.REGRET_CSI,
        uig_regret.REGRET_PSI,
        uig_regret.TS_PSI,
        uig_jester.JESTER,
        uig_timing.TIMING,
        uig_theory.THEORY,
    ):
        for profile in ("quick", "full"):
            assert exp.units(profile)
    out = uig_timing.compute_timing(derive(8, "t"), setting="psi", first=0, last=1, K=15, eps=0.2, T=100, p=0.7)
    assert out["rows"][0]["LSDT-PSI (online)"] > 0


def test_timing_blocks_cover_every_run_once_and_keep_each_runs_seed():
    units = uig_timing.TIMING.units("full")
    for setting in uig_timing.SETTINGS:
        mine = [u for u in units if u.params["setting"] == setting]
        reps = [r for u in mine for r in range(u.params["first"], u.params["last"])]
        assert (
            reps == list(range(uig_timing.PROFILES["full"]["reps"])) and len(mine) == 100 // uig_timing.BLOCK[setting]
        )
        assert all(u.key == f"{setting},reps={u.params['first']}-{u.params['last'] - 1}" for u in mine)
        # repetition r's seed is the one it had when the setting was one unit keyed by its name
        for r in (0, 57):
            old = derive(derive(6111, "uig", "timing", setting), "rep", r)
            assert uig_timing.rep_seed(setting, r).spawn_key == old.spawn_key
    rows = uig_timing.compute_timing(derive(9, "b"), setting="psi", first=2, last=4, K=15, eps=0.2, T=60, p=0.7)["rows"]
    assert [row["rep"] for row in rows] == [2, 3]
    with pytest.raises(ValueError, match="unknown timing setting 'nope'"):
        uig_timing.rep_seed("nope", 0)
