import json

import numpy as np
import pytest

import toy_compute
from bandit_lib.experiment import Experiment, Unit
from bandit_lib.experiments import all_experiments, select
from bandit_lib.experiments.foundations import compute_coverage
from bandit_lib.fingerprint import _module_digest, code_fingerprint, import_closure
from bandit_lib.runner import Instance, Outcome, run_many, run_policy
from bandit_lib.store import MalformedResult, MissingResult, ResultStore, StaleResult


def round_robin_budget(tape, *, cap, budget):
    """A toy pure-exploration policy: round robin for `budget` pulls, output the best arm."""
    n = tape.n_arms
    sums = np.zeros(n)
    for t in range(min(budget, cap)):
        sums[t % n] += tape.pull(t % n)
    best = int(np.argmax(sums / np.maximum(tape.counts, 1)))
    return Outcome(np.array([best]), int(tape.counts.sum()), budget > cap, tape.counts.copy())


def test_run_policy_uses_a_fresh_tape_and_checks_the_cap():
    inst = Instance(np.array([0.1, 0.9, 0.2]))
    a = run_policy(round_robin_budget, inst, 5, cap=300, budget=300)
    b = run_policy(round_robin_budget, inst, 5, cap=300, budget=300)
    assert a.same_decisions(b) and a.output.tolist() == [1] and a.pulls == 300
    assert run_policy(round_robin_budget, inst, 5, cap=10, budget=300).capped
    with pytest.raises(ValueError, match="cap=0"):
        run_policy(round_robin_budget, inst, 5, cap=0, budget=3)


def test_instances_validate_their_reward_model():
    with pytest.raises(ValueError, match="reward must be one of"):
        Instance(np.array([0.5]), reward="poisson")
    with pytest.raises(ValueError, match=r"means\[0\]=1.5"):
        Instance(np.array([1.5]))
    with pytest.raises(ValueError, match="sigma=0"):
        Instance(np.array([1.5]), reward="gaussian", sigma=0)
    replay = Instance(np.array([]), reward="replay", samples=([1.0, 3.0], [5.0]))
    assert replay.means.tolist() == [2.0, 5.0] and replay.tape(1).rewards(1, 0, 3).tolist() == [5.0] * 3


def _tasks():
    return [{"seed": np.random.SeedSequence(i), "reward": "bernoulli", "mean": 0.3, "reps": 50,
             "grid": [5, 20], "delta": 0.1} for i in range(6)]


def test_run_many_gives_the_same_results_for_any_number_of_workers():
    seen = []
    one = run_many(compute_coverage, _tasks(), jobs=1, progress=False)
    two = run_many(compute_coverage, _tasks(), jobs=2, progress=False, on_result=lambda i, r: seen.append(i))
    assert one == two and sorted(seen) == list(range(6))


@pytest.mark.dask
def test_run_many_on_a_dask_cluster_gives_the_same_results():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_dask = run_many(compute_coverage, _tasks(), scheduler=cluster.scheduler_address, progress=False)
    assert on_dask == run_many(compute_coverage, _tasks(), jobs=1, progress=False)


def toy_experiment(means=(0.2, 0.7), pulls=100, version=1):
    return Experiment(
        paper="testpaper", name="toy", title="toy", compute=toy_compute.mean_of_tape,
        plan=lambda profile: [Unit(f"mean={m}", {"mean": m, "pulls": pulls}) for m in means],
        entropy=99, chapter="notebooks/none", version=version,
    )


def test_store_round_trip_records_configuration_seed_and_code(results_dir):
    exp = toy_experiment()
    res = exp.run("quick", progress=False)
    assert len(res) == 2 and list(res.table()["mean"]) == [0.2, 0.7]
    record = json.loads((results_dir / "quick" / "testpaper" / "toy" / "mean=0.2.json").read_text())
    assert record["params"] == {"mean": 0.2, "pulls": 100}
    assert record["fingerprint"] == exp.fingerprint()
    assert record["seed"]["entropy"] == 99 and record["code"]["bandit_lib"]
    assert exp.status("quick")["fresh"] == ["mean=0.2", "mean=0.7"]
    # loading again computes nothing
    toy_compute.CALLS.clear()
    exp.run("quick", progress=False)
    assert toy_compute.CALLS == []


def test_stale_results_are_refused_and_recomputed(results_dir):
    toy_experiment(pulls=100).run("quick", progress=False)
    changed = toy_experiment(pulls=200)                      # same units, new configuration
    assert changed.status("quick")["stale"] == ["mean=0.2", "mean=0.7"]
    with pytest.raises(StaleResult, match="parameters differ"):
        changed.load("quick")
    toy_compute.CALLS.clear()
    res = changed.run("quick", progress=False)
    assert toy_compute.CALLS == [0.2, 0.7] and set(res.table()["pulls"]) == {200}
    new_code = toy_experiment(pulls=200, version=2)          # same configuration, new code
    with pytest.raises(StaleResult, match="code changed"):
        new_code.load("quick")


def test_an_interrupted_run_resumes_without_losing_finished_units(results_dir):
    exp = toy_experiment(means=(0.1, 0.2, 0.3, 0.4))
    toy_compute.CALLS.clear()
    toy_compute.FAIL_AT["n"] = 3
    try:
        with pytest.raises(KeyboardInterrupt):
            exp.run("quick", progress=False)
    finally:
        toy_compute.FAIL_AT["n"] = None
    assert exp.status("quick")["fresh"] == ["mean=0.1", "mean=0.2"]
    assert not list((results_dir / "quick").rglob("*.tmp"))   # no half-written file
    toy_compute.CALLS.clear()
    exp.run("quick", progress=False)
    assert toy_compute.CALLS == [0.3, 0.4]


def test_missing_and_malformed_results_raise_clear_errors(results_dir):
    exp = toy_experiment()
    with pytest.raises(MissingResult, match="make reproduce PAPER=testpaper EXPERIMENT=toy"):
        exp.load("quick")
    exp.run("quick", progress=False)
    path = results_dir / "quick" / "testpaper" / "toy" / "mean=0.7.json"
    path.write_text('{"format": 1, "paper": "testpaper"')
    with pytest.raises(MalformedResult, match="mean=0.7.json is not valid JSON"):
        exp.load("quick")
    path.write_text('{"format": 1}')
    with pytest.raises(MalformedResult, match="lacks the field"):
        exp.load("quick")


def test_unit_keys_and_store_paths_are_checked():
    with pytest.raises(ValueError, match="unit key"):
        Unit("../escape")
    with pytest.raises(ValueError, match="paper"):
        ResultStore("/tmp").path("a/b", "x", "y")
    with pytest.raises(ValueError, match="module-level"):
        Experiment("p", "n", "t", compute=lambda seed: 1, plan=lambda p: [], entropy=1, chapter="c")


def test_fingerprint_ignores_docstrings_and_comments_but_not_code(tmp_path):
    a = tmp_path / "a.py"
    a.write_text('"""Doc."""\nimport os\n\ndef f(x):\n    """Say hi."""\n    return x + 1  # comment\n')
    b = tmp_path / "b.py"
    b.write_text('"""Another doc."""\nimport os\n\n\ndef f(x):\n    # other comment\n    return x + 1\n')
    c = tmp_path / "c.py"
    c.write_text('import os\n\ndef f(x):\n    return x + 2\n')
    assert _module_digest(a, 0) == _module_digest(b, 0) != _module_digest(c, 0)


def test_fingerprint_follows_the_import_closure_and_skips_infrastructure():
    closure = import_closure("bandit_lib.experiments.foundations")
    assert {"bandit_lib.tapes", "bandit_lib.radii", "bandit_lib.special"} <= set(closure)
    assert "bandit_lib.store" not in closure and "bandit_lib.experiment" not in closure
    assert code_fingerprint("toy_compute") != code_fingerprint("bandit_lib.tapes")
    with pytest.raises(ValueError, match="module="):
        code_fingerprint("bandit_lib.store")


def test_registry_discovers_experiments_and_names_bad_keys():
    ids = [e.id for e in all_experiments()]
    assert "foundations/coverage" in ids and len(ids) == len(set(ids))
    with pytest.raises(ValueError, match="unknown paper 'nope'"):
        select("nope")
    with pytest.raises(ValueError, match="unknown experiment 'nope'"):
        select("foundations", "nope")
