"""Parameters as parameters (issue 38): an experiment's grid is an argument of its run, a run with
another grid goes to the user's store and never touches the book's, and a fingerprint covers the
code an experiment's ``compute`` needs, so that editing one experiment's grid or code stales that
experiment alone."""

from __future__ import annotations

import json

import pytest

from bandit_lib.infra import fingerprint
from bandit_lib.infra.experiment import Experiment, Unit
from bandit_lib.infra.fingerprint import code_fingerprint, import_closure
from bandit_lib.infra.profiles import USER_RESULTS_ENV, committed_results_root, user_results_root
from bandit_lib.infra.registry import all_experiments
from bandit_lib.infra.store import ResultStore

import toy_compute


def plan_means(means, pulls):
    return [Unit(f"mean={m}", {"mean": m, "pulls": pulls}) for m in means]


TOY = Experiment(
    "toygrid",
    "means",
    "toy",
    compute=toy_compute.mean_of_tape,
    plan=plan_means,
    grid={"quick": {"means": (0.2, 0.5), "pulls": 50}, "full": {"means": (0.2, 0.5, 0.8), "pulls": 400}},
    entropy=3,
    chapter="notebooks/none",
)


def test_every_experiment_of_the_book_has_a_grid_with_the_same_names_in_both_profiles():
    for exp in all_experiments():
        assert exp.parameters("quick") and set(exp.parameters("quick")) == set(exp.parameters("full")), exp.id
        assert exp.units("quick", **exp.parameters("quick")) == exp.units("quick"), exp.id


def test_a_changed_grid_plans_other_units_and_bad_changes_name_the_value():
    assert [u.key for u in TOY.units("quick", means=(0.3,))] == ["mean=0.3"]
    assert TOY.units("quick", pulls=7)[0].params == {"mean": 0.2, "pulls": 7}
    with pytest.raises(ValueError, match=r"no grid parameter cases; its parameters are means=\(0.2, 0.5\), pulls=50"):
        TOY.units("quick", cases=3)
    with pytest.raises(ValueError, match=r"means must be a sequence like its default \(0.2, 0.5\); got means=0.3"):
        TOY.run("quick", means=0.3)
    with pytest.raises(ValueError, match=r"pulls must be a int like its default 50; got pulls=2.5"):
        TOY.units("quick", pulls=2.5)
    with pytest.raises(ValueError, match="every profile"):
        Experiment("toygrid", "bad", "t", compute=toy_compute.mean_of_tape, plan=plan_means, grid={"quick": {}},
                   entropy=1, chapter="x")  # fmt: skip
    with pytest.raises(ValueError, match=r"may not be named \['jobs'\]"):
        Experiment("toygrid", "bad", "t", compute=toy_compute.mean_of_tape, plan=plan_means, entropy=1, chapter="x",
                   grid={"quick": {"jobs": 1}, "full": {"jobs": 1}})  # fmt: skip


def test_a_run_with_another_grid_goes_to_the_users_store_and_reuses_the_profiles_records(tmp_path, monkeypatch):
    monkeypatch.setenv("BANDIT_RESULTS", str(tmp_path / "book"))
    monkeypatch.setenv(USER_RESULTS_ENV, str(tmp_path / "mine"))
    monkeypatch.setenv("BANDIT_PROGRESS", "0")
    book = TOY.run("quick")
    assert len(book) == 2 and book.report.computed == ("mean=0.2", "mean=0.5")
    before = {p: p.read_bytes() for p in (tmp_path / "book").rglob("*.json")}
    mine = TOY.run("quick", means=(0.2, 0.7))
    # the shared unit is copied from the profile's store (the same computation), the new one computed
    assert mine.report.computed == ("mean=0.7",) and mine.paths[0].parent.parent.parent == tmp_path / "mine" / "quick"
    assert mine.payload("mean=0.2") == book.payload("mean=0.2")
    assert {p: p.read_bytes() for p in (tmp_path / "book").rglob("*.json")} == before  # the book's store untouched
    assert TOY.load("quick", means=(0.2, 0.7)).payload("mean=0.7") == mine.payload("mean=0.7")
    assert TOY.status("quick", means=(0.2, 0.7))["fresh"] == ["mean=0.2", "mean=0.7"]
    assert TOY.status("quick")["fresh"] == ["mean=0.2", "mean=0.5"]
    other = TOY.run("quick", store=ResultStore(tmp_path / "elsewhere"), pulls=60)
    assert other.report.computed == ("mean=0.2", "mean=0.5")  # other parameters: nothing to reuse


def test_the_users_store_is_never_the_books(monkeypatch, tmp_path):
    monkeypatch.delenv(USER_RESULTS_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert user_results_root("full") == tmp_path / "bandit_lib" / "results" / "full"
    monkeypatch.setenv(USER_RESULTS_ENV, str(committed_results_root()))
    with pytest.raises(ValueError, match="must not point into the book's store"):
        user_results_root("full")


# --- fingerprints cover what a compute needs ---------------------------------------------------------

MODULE = """
from toyslice.helpers import scale
from toyslice.infra_like import Experiment

GRID_A = {"quick": (1, 2), "full": (1, 2, 3)}
GRID_B = {"quick": (5,), "full": (5, 6)}
OFFSET = 1
_cache = None


def _warm():
    global _cache
    _cache = 2


def compute_a(seed, x):
    return scale(x) + OFFSET + (_cache or 0)


def compute_b(seed, x):
    return -x


def plan_a(xs):
    return xs


A = Experiment(compute=compute_a, plan=plan_a, grid=GRID_A, entropy=1)
B = Experiment(compute=compute_b, plan=plan_a, grid=GRID_B, entropy=2)


def compute_c(seed, x):
    return A.entropy + x
"""


@pytest.fixture
def toy_slices(tmp_path, monkeypatch):
    """Digests of compute_a, compute_b and compute_c of a toy package after an edit of its module."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(fingerprint, "PACKAGE", "toyslice")
    # the toy's own Experiment stands for the infra class (declarations drop their words)
    monkeypatch.setattr(fingerprint, "EXPERIMENT_CLASS", ("toyslice.infra_like", "Experiment"))
    count = iter(range(100))

    def digests(old: str = "", new: str = "") -> dict[str, str]:
        name = f"toyslice{next(count)}"
        folder = tmp_path / name
        folder.mkdir()
        (folder / "__init__.py").touch()
        helpers = "def scale(x):\n    return 2 * x\n\n\ndef other(x):\n    return x\n"
        (folder / "helpers.py").write_text(helpers.replace(old, new))
        (folder / "infra_like.py").write_text("def Experiment(**kw):\n    return kw\n")
        (folder / "a.py").write_text(MODULE.replace(old, new).replace("toyslice", name))
        monkeypatch.setattr(fingerprint, "PACKAGE", name)
        monkeypatch.setattr(fingerprint, "EXPERIMENT_CLASS", (f"{name}.infra_like", "Experiment"))
        return {f: code_fingerprint(f"{name}.a", f) for f in ("compute_a", "compute_b", "compute_c")}

    return digests


def test_a_fingerprint_covers_the_code_its_function_needs_and_nothing_else(toy_slices):
    base = toy_slices()
    assert len(set(base.values())) == 3
    changed = lambda old, new: {f for f, d in toy_slices(old, new).items() if d != base[f]}  # noqa: E731
    assert changed('"full": (1, 2, 3)', '"full": (1, 2, 3, 4)') == set()  # a grid is not code of a compute
    assert changed("return xs", "return list(xs)") == set()  # nor is a plan
    # a constant it reads; a function writing a global it reads (compute_c reads A, declared with compute_a)
    assert changed("OFFSET = 1", "OFFSET = 2") == changed("_cache = 2", "_cache = 3") == {"compute_a", "compute_c"}
    assert changed("return -x", "return x") == {"compute_b"}
    assert changed("entropy=1", "entropy=4") == {"compute_c"}  # a declaration's entropy is code of its readers
    assert changed("grid=GRID_A, entropy=1", "grid=GRID_B, entropy=1") == set()  # its grid is not
    assert changed("return 2 * x", "return 3 * x") == {"compute_a", "compute_c"}  # an imported function it needs
    assert changed("    return x\n", "    return x + 0\n") == set()  # another function of that module


def test_fingerprints_reach_fewer_modules_than_the_whole_module_closure():
    ade = {e.name: e for e in all_experiments("ade20")}
    closure = set(import_closure("bandit_lib.ade20.experiments", "compute_illustration"))
    assert closure < set(import_closure("bandit_lib.ade20.experiments"))
    assert "bandit_lib.zhuang17.rr" not in closure  # the illustration runs ADE alone
    assert ade["arms"].fingerprint() == ade["gaps"].fingerprint()  # one compute, two grids
    assert ade["arms"].fingerprint() != ade["crowd"].fingerprint()


# The edits of the scratch copy: one experiment's grid (ADE20's Fig. 2a gets n = 1200 and 50), and one
# experiment's code (the crowd run's rows get one more field).
EDIT_SCRIPT = r"""
import json, sys
from pathlib import Path
from bandit_lib.infra.registry import all_experiments
from bandit_lib.infra.store import ResultStore
store = ResultStore(Path(sys.argv[1]))
out = {}
for e in all_experiments("ade20"):
    status = e.status("full", store=store)
    out[e.name] = {k: len(status[k]) for k in ("fresh", "stale", "missing", "corrupt")}
print(json.dumps(out))
"""


@pytest.mark.slow
def test_editing_one_grid_or_one_compute_in_a_scratch_copy_stales_that_experiment_alone(library_copy):
    experiments = library_copy.root / "bandit_lib" / "ade20" / "experiments.py"
    text = experiments.read_text()
    store = str(committed_results_root())

    def statuses() -> dict:
        done = library_copy(EDIT_SCRIPT.replace("sys.argv[1]", repr(store)))
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout)

    before = {}
    for e in all_experiments("ade20"):
        status = e.status("full", store=ResultStore(committed_results_root()))
        before[e.name] = {k: len(status[k]) for k in ("fresh", "stale", "missing", "corrupt")}
    assert all(s["stale"] == s["missing"] == s["corrupt"] == 0 for s in before.values()), before
    grid = 'ARMS_N = {"quick": (100, 200), "full": (100, 200, 400, 600, 800, 1000)}'
    assert text.count(grid) == 1
    experiments.write_text(text.replace(grid, grid.replace("800, 1000)", "800, 1000, 1200)")))
    after = statuses()
    # ARMS, SENSITIVITY and TARGET share the grid constant: each gets the new n's units, missing; nothing stale
    assert {name for name in after if after[name] != before[name]} == {"arms", "sensitivity", "target"}
    assert all(after[name]["stale"] == 0 for name in after)
    assert after["arms"] == {**before["arms"], "missing": 10} and after["arms"]["stale"] == 0
    code = "row.update(run=run, data=data)"
    assert text.count(code) == 1
    experiments.write_text(text.replace(code, "row.update(run=run, data=data, edited=True)"))
    after = statuses()
    assert {name for name in after if after[name] != before[name]} == {"crowd"}
    assert after["crowd"]["stale"] == before["crowd"]["fresh"] > 0


def test_the_rerun_box_is_short_and_its_call_names_real_parameters():
    import ast
    import importlib

    from bandit_lib.infra.rerun import MARKER, rerun_markdown

    for paper in ("ade20", "arena"):
        text = rerun_markdown(paper)
        visible, folded = text.split(":::{admonition} Parameters")
        prose = [line for line in visible.splitlines() if line.strip() and not line.startswith(":")]
        assert MARKER in visible and len(prose) <= 4, prose
        call = visible.split("(never the book's): `")[1].split("`")[0]
        tree = ast.parse(call)  # one line of valid Python: an import and a run
        module, name = tree.body[0].module, tree.body[0].names[0].name
        exp = getattr(importlib.import_module(module), name)
        assert {k.arg for k in tree.body[1].value.keywords} <= set(exp.parameters("quick"))
        assert ":class: dropdown" in folded and f"data/results/{paper}/" in folded
