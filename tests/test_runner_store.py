import importlib
import json

import numpy as np
import pytest

from bandit_lib.foundations.experiments import compute_coverage
from bandit_lib.infra import fingerprint
from bandit_lib.infra.experiment import Experiment, Unit
from bandit_lib.infra.fingerprint import code_fingerprint, import_closure, module_digest
from bandit_lib.infra.parallel import run_many
from bandit_lib.infra.registry import all_experiments, select
from bandit_lib.infra.store import CorruptResult, MissingResult, ResultStore, StaleResult
from bandit_lib.runner import Instance, Outcome, run_policy

import toy_compute


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
    return [
        {
            "seed": np.random.SeedSequence(i),
            "reward": "bernoulli",
            "mean": 0.3,
            "reps": 50,
            "grid": [5, 20],
            "delta": 0.1,
        }
        for i in range(6)
    ]


def test_run_many_gives_the_same_results_for_any_number_of_workers():
    seen = []
    one = run_many(compute_coverage, _tasks(), jobs=1, progress=False)
    two = run_many(compute_coverage, _tasks(), jobs=2, progress=False, on_result=lambda i, r: seen.append(i))
    assert one == two and sorted(seen) == list(range(6))


@pytest.mark.slow
@pytest.mark.dask
def test_run_many_on_a_dask_cluster_gives_the_same_results():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        on_dask = run_many(compute_coverage, _tasks(), scheduler=cluster.scheduler_address, progress=False)
    assert on_dask == run_many(compute_coverage, _tasks(), jobs=1, progress=False)


@pytest.mark.dask
def test_a_dask_worker_that_computes_unpinned_is_named_in_a_warning(monkeypatch, caplog):
    distributed = pytest.importorskip("distributed")
    from bandit_lib.infra import kernels, parallel

    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster,
        distributed.Client(cluster) as client,
    ):
        (address,) = client.nthreads()
        # an in-process worker runs what this process runs (make test pins it)
        assert set(parallel.warn_unpinned_workers(client)) == (set() if kernels.in_effect() else {address})
        caplog.clear()
        monkeypatch.setattr(kernels, "in_effect", lambda current=None: False)
        assert set(parallel.warn_unpinned_workers(client)) == {address}
        assert address in caplog.text and "OPENBLAS_CORETYPE='Nehalem'" in caplog.text
        caplog.clear()
        run_many(compute_coverage, _tasks()[:1], scheduler=cluster.scheduler_address, progress=False)
        assert f"the Dask worker {address} computes with kernels other than the pinned ones" in caplog.text


def toy_experiment(means=(0.2, 0.7), pulls=100, version=1):
    return Experiment(
        paper="testpaper",
        name="toy",
        title="toy",
        compute=toy_compute.mean_of_tape,
        plan=lambda profile: [Unit(f"mean={m}", {"mean": m, "pulls": pulls}) for m in means],
        entropy=99,
        chapter="notebooks/none",
        version=version,
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
    changed = toy_experiment(pulls=200)  # same units, new configuration
    assert changed.status("quick")["stale"] == ["mean=0.2", "mean=0.7"]
    with pytest.raises(StaleResult, match="parameters differ"):
        changed.load("quick")
    toy_compute.CALLS.clear()
    res = changed.run("quick", progress=False)
    assert toy_compute.CALLS == [0.2, 0.7] and set(res.table()["pulls"]) == {200}
    new_code = toy_experiment(pulls=200, version=2)  # same configuration, new code
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
    assert not list((results_dir / "quick").rglob("*.tmp"))  # no half-written file
    toy_compute.CALLS.clear()
    exp.run("quick", progress=False)
    assert toy_compute.CALLS == [0.3, 0.4]


def test_missing_and_corrupt_results_raise_clear_errors(results_dir):
    exp = toy_experiment()
    with pytest.raises(MissingResult, match="make reproduce PAPER=testpaper EXPERIMENT=toy"):
        exp.load("quick")
    exp.run("quick", progress=False)
    path = results_dir / "quick" / "testpaper" / "toy" / "mean=0.7.json"
    path.write_text('{"format": 2, "paper": "testpaper"')
    with pytest.raises(CorruptResult, match="mean=0.7.json is corrupt: not valid JSON"):
        exp.load("quick")
    path.write_text('{"format": 2}')
    with pytest.raises(CorruptResult, match="lacks the field"):
        exp.load("quick")


def test_unit_keys_and_store_paths_are_checked():
    with pytest.raises(ValueError, match="unit key"):
        Unit("../escape")
    with pytest.raises(ValueError, match="paper"):
        ResultStore("/tmp").path("a/b", "x", "y")
    with pytest.raises(ValueError, match="module-level"):
        Experiment("p", "n", "t", compute=lambda seed: 1, plan=lambda p: [], entropy=1, chapter="c")


def _toy_package(root, name, files):
    """Write the modules ``files`` ({relative path: source}) of a package ``name`` under ``root``."""
    for rel, text in {"__init__.py": "", **files}.items():
        path = root / name / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        for folder in path.relative_to(root / name).parents:  # every folder is a regular package
            (root / name / folder / "__init__.py").touch()
    importlib.invalidate_caches()


@pytest.fixture
def toy_package(tmp_path, monkeypatch):
    """The fingerprint's package name pointed at throw-away packages under tmp_path."""
    monkeypatch.syspath_prepend(str(tmp_path))

    class Toy:
        def __init__(self, name, files):
            _toy_package(tmp_path, name, files)
            self.name = name

        def digest(self, module="a"):
            monkeypatch.setattr(fingerprint, "PACKAGE", self.name)
            return module_digest(f"{self.name}.{module}")

        def closure(self, module="a"):
            monkeypatch.setattr(fingerprint, "PACKAGE", self.name)
            return set(import_closure(f"{self.name}.{module}"))

    return Toy


def test_fingerprint_ignores_docstrings_and_comments_but_not_code(toy_package):
    base = {"b.py": "def g(x):\n    return 2 * x\n"}
    a = toy_package(
        "toy_doc1",
        {
            **base,
            "a.py": '"""Doc."""\nfrom toy_doc1.b import g\n\ndef f(x):\n    """Hi."""\n    return g(x) + 1  # c\n',
        },
    )
    b = toy_package(
        "toy_doc2", {**base, "a.py": "from toy_doc2.b import g\n\n\ndef f(x):\n    # other\n    return g(x) + 1\n"}
    )
    c = toy_package("toy_doc3", {**base, "a.py": "from toy_doc3.b import g\n\ndef f(x):\n    return g(x) + 2\n"})
    assert a.digest() == b.digest() != c.digest()


def test_fingerprint_survives_a_move_but_not_a_change_of_an_imported_module(toy_package):
    b = "import math\n\ndef g(x):\n    return math.sqrt(x)\n\ndef h(x):\n    return x\n"
    a = "from {p}{m} import g\nfrom {p} import helpers\n\ndef f(x):\n    return helpers.k(g(x))\n"
    helpers = "def k(x):\n    return x + 1\n"
    here = toy_package("toy_m1", {"b.py": b, "helpers.py": helpers, "a.py": a.format(p="toy_m1", m=".b")})
    # b moved into a subpackage, helpers imported through a re-export of the package
    moved = toy_package(
        "toy_m2",
        {
            "deep/place/b.py": b,
            "util/helpers.py": helpers,
            "__init__.py": "from toy_m2.util import helpers\n",
            "a.py": a.format(p="toy_m2", m=".deep.place.b"),
        },
    )
    assert here.digest() == moved.digest()
    changed = toy_package(
        "toy_m3", {"b.py": b.replace("sqrt", "exp"), "helpers.py": helpers, "a.py": a.format(p="toy_m3", m=".b")}
    )
    assert changed.digest() != here.digest()
    other_name = toy_package(
        "toy_m4",
        {"b.py": b, "helpers.py": helpers, "a.py": a.format(p="toy_m4", m=".b").replace("import g", "import h as g")},
    )
    assert other_name.digest() != here.digest()
    m = moved.name
    # the re-export is followed to where helpers is defined
    assert moved.closure() == {f"{m}.a", f"{m}.deep.place.b", f"{m}.util.helpers"}


def test_fingerprint_ignores_how_imports_are_grouped_and_ordered_but_not_what_they_bind(toy_package):
    b = "def g(x):\n    return x\n\ndef h(x):\n    return -x\n"
    code = "\n\ndef f(x):\n    return np.sum(g(x)) + h(x)\n"
    one = toy_package("toy_i1", {"b.py": b, "a.py": "import numpy as np\nfrom toy_i1.b import g, h" + code})
    two = toy_package(
        "toy_i2", {"b.py": b, "a.py": "from toy_i2.b import h\nfrom toy_i2.b import g\n\nimport numpy as np" + code}
    )
    three = toy_package("toy_i3", {"b.py": b, "a.py": "import numpy as np\nfrom toy_i3.b import h as g, g as h" + code})
    assert one.digest() == two.digest() != three.digest()


def test_fingerprint_follows_the_import_closure_and_skips_infrastructure():
    closure = import_closure("bandit_lib.foundations.experiments")
    assert {"bandit_lib.tapes", "bandit_lib.radii", "bandit_lib.special"} <= set(closure)
    assert "bandit_lib.infra.store" not in closure and "bandit_lib.infra.experiment" not in closure
    assert code_fingerprint("toy_compute") != code_fingerprint("bandit_lib.tapes")
    with pytest.raises(ValueError, match="module="):
        code_fingerprint("bandit_lib.infra.store")


def test_registry_discovers_experiments_and_names_bad_keys():
    ids = [e.id for e in all_experiments()]
    assert "foundations/coverage" in ids and len(ids) == len(set(ids))
    with pytest.raises(ValueError, match="unknown paper 'nope'"):
        select("nope")
    with pytest.raises(ValueError, match="unknown experiment 'nope'"):
        select("foundations", "nope")


def test_a_records_cost_is_its_cpu_seconds_where_it_has_them():
    from bandit_lib.infra.store import compute_seconds

    assert compute_seconds({"elapsed_seconds": 9.5, "cpu_seconds": 3.5}) == 3.5
    assert compute_seconds({"elapsed_seconds": 9.5}) == 9.5
    assert compute_seconds({}) == 0.0
