"""Faults of the result store and of long runs (issue 12): corrupt records, killed writes, code that
changes under a running kernel or a worker, interrupted runs, unwritable stores, bad profiles.

Scenarios that need a process of their own run in a subprocess on a throw-away copy of bandit_lib
(so editing "the library" never touches the repository), with a toy experiment added to it.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import DEADLINE, REPO

from bandit_lib.infra.experiment import Experiment, Unit
from bandit_lib.infra.fingerprint import numba_cache_dir
from bandit_lib.infra.reproduce import main as reproduce_main
from bandit_lib.infra.store import CorruptResult, payload_digest

import toy_compute


def toy(means=(0.2, 0.7, 0.9)):
    return Experiment(
        paper="testpaper",
        name="toy",
        title="toy",
        compute=toy_compute.mean_of_tape,
        plan=lambda profile: [Unit(f"mean={m}", {"mean": m, "pulls": 50}) for m in means],
        entropy=7,
        chapter="notebooks/none",
    )


def _record_path(results_dir, key="mean=0.7"):
    return results_dir / "quick" / "testpaper" / "toy" / f"{key}.json"


def _edit_payload(path):
    data = json.loads(path.read_text())
    data["payload"]["rows"][0]["estimate"] += 0.25
    path.write_text(json.dumps(data))


def _null_payload(path):
    data = json.loads(path.read_text())
    data["payload"] = None
    path.write_text(json.dumps(data))


def _directory(path):
    path.unlink()
    path.mkdir()


CORRUPTIONS = {
    "truncated": lambda p: p.write_text(p.read_text()[: len(p.read_text()) // 2]),
    "empty": lambda p: p.write_text(""),
    "not JSON": lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00"),
    "a list": lambda p: p.write_text("[1, 2]"),
    "old format": lambda p: p.write_text(p.read_text().replace('"format":2', '"format":1')),
    "edited payload": _edit_payload,
    "null payload": _null_payload,
    "a directory": _directory,
}
REASONS = {
    "truncated": "not valid JSON",
    "empty": "empty file",
    "not JSON": "not valid JSON",
    "a list": "JSON object",
    "old format": "format 1",
    "edited payload": "does not match payload_sha256",
    "null payload": "does not match payload_sha256",
    "a directory": "a directory",
}


@pytest.mark.parametrize("kind", CORRUPTIONS)
def test_a_corrupt_record_is_reported_then_quarantined_and_recomputed(results_dir, kind):
    exp = toy()
    exp.run("quick", progress=False)
    path = _record_path(results_dir)
    original = json.loads(path.read_text())["payload"]
    CORRUPTIONS[kind](path)
    with pytest.raises(CorruptResult, match=REASONS[kind]) as info:
        exp.load("quick")
    assert "mean=0.7.json" in str(info.value)
    status = exp.status("quick")  # never raises; every unit accounted for
    assert status["corrupt"] == ["mean=0.7"] and status["fresh"] == ["mean=0.2", "mean=0.9"]
    assert REASONS[kind] in status["why"]["mean=0.7"]
    toy_compute.CALLS.clear()
    healed = exp.run("quick", progress=False)
    assert toy_compute.CALLS == [0.7]  # only the corrupt unit is computed again
    assert healed.payload("mean=0.7") == original
    quarantined = list((results_dir / "quick" / ".quarantine" / "testpaper" / "toy").glob("mean=0.7.*"))
    assert len(quarantined) == 1


def test_payload_digest_covers_every_number():
    assert payload_digest({"a": [1, 2.5]}) == payload_digest({"a": [1, 2.5]})
    assert payload_digest({"a": [1, 2.5]}) != payload_digest({"a": [1, 2.5000001]})
    assert payload_digest(None) != payload_digest({})


def test_check_reports_every_experiment_and_lists_corrupt_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BANDIT_RESULTS", str(tmp_path))
    # an empty scratch store: every experiment of the book is reported (all missing), none hides another
    code = reproduce_main(["--check", "--profile", "quick", "--paper", "foundations"])
    out = capsys.readouterr().out
    assert code == 1 and "foundations/coverage" in out and "missing" in out
    bad = tmp_path / "quick" / "foundations" / "coverage"
    bad.mkdir(parents=True)
    (bad / "bernoulli,mean=0.5.json").write_text("{")
    reproduce_main(["--check", "--profile", "quick", "--paper", "foundations"])
    out = capsys.readouterr().out
    assert "corrupt    1" in out and "bernoulli,mean=0.5.json: not valid JSON" in out


def test_check_ends_with_a_total_and_an_overall_verdict(tmp_path, monkeypatch, capsys):
    from bandit_lib.infra.reproduce import _check

    monkeypatch.setenv("BANDIT_RESULTS", str(tmp_path))
    exp = toy()
    assert _check([exp], "quick") == 1
    last = capsys.readouterr().out.splitlines()[-2:]
    assert (
        last[0].startswith("total: 1 experiments")
        and "missing    3" in last[0]
        and "(3 units, profile quick)" in last[0]
    )
    assert last[1].startswith("verdict: NOT OK, 3 of 3 units") and "--paper testpaper" in last[1]
    exp.run("quick", progress=False)
    assert _check([exp], "quick") == 0
    last = capsys.readouterr().out.splitlines()[-2:]
    assert "fresh    3" in last[0] and last[1] == "verdict: OK, all 3 units are fresh: the results match the code"
    assert _check([exp], "full") == 1
    assert "`make reproduce PAPER=testpaper`" in capsys.readouterr().out.splitlines()[-1]


def test_the_cli_honours_bandit_profile_and_refuses_bad_values(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BANDIT_RESULTS", str(tmp_path))
    monkeypatch.setenv("BANDIT_PROFILE", "bogus")
    with pytest.raises(SystemExit) as info:
        reproduce_main(["--check", "--paper", "foundations"])
    assert info.value.code == 2 and "BANDIT_PROFILE='bogus'" in capsys.readouterr().err
    # the flag wins over the variable; the variable chooses the units when there is no flag
    assert reproduce_main(["--check", "--paper", "foundations", "--profile", "quick"]) == 1
    from bandit_lib.infra.registry import select

    key = select("foundations")[0].units("quick")[0].key
    folder = tmp_path / "quick" / "foundations" / "coverage"
    folder.mkdir(parents=True)
    (folder / f"{key}.json").write_text("{")
    capsys.readouterr()
    monkeypatch.setenv("BANDIT_PROFILE", "quick")
    reproduce_main(["--check", "--paper", "foundations"])
    assert "corrupt    1" in capsys.readouterr().out
    monkeypatch.setenv("BANDIT_PROFILE", "full")
    reproduce_main(["--check", "--paper", "foundations"])
    assert "corrupt    0" in capsys.readouterr().out


def test_an_unwritable_store_fails_before_any_unit_is_computed(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("BANDIT_RESULTS", str(blocker / "results"))
    toy_compute.CALLS.clear()
    code = reproduce_main(["--paper", "foundations", "--profile", "quick", "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot write results to" in err and str(blocker) in err
    assert "Traceback" not in err


# --- scenarios in a process of their own, on a copy of the library --------------------------------

EDIT_DEP = """
import pathlib
dep = pathlib.Path("bandit_lib/toybook/toy_dep.py")
dep.write_text(dep.read_text().replace("x + 1", "x + 2"))
"""


def test_a_kernel_that_imported_old_code_is_refused(library_copy):
    done = library_copy(
        """
        from bandit_lib.toybook.toy_dep import f  # the kernel imported the code
        from bandit_lib.toybook.experiments import LAZY
        LAZY.run("quick", progress=False)
        """,
        EDIT_DEP,
        """
        from bandit_lib.infra.fingerprint import StaleCode
        try:
            LAZY.run("quick", progress=False)   # the results are stale now: it must not compute with old code
        except StaleCode as exc:
            print("REFUSED", exc)
        """,
    )
    assert "REFUSED" in done.stdout, done.stdout + done.stderr
    assert "toy_dep changed on disk" in done.stdout and "Restart the kernel" in done.stdout


STALE_WORKER = (
    """
from bandit_lib.toybook.experiments import LAZY
from bandit_lib.infra.fingerprint import StaleCode
RUN = {run}
LAZY.run("quick", progress=False, **RUN)  # the workers import toy_dep as it is now
"""
    + EDIT_DEP
    + """
try:
    LAZY.run("quick", progress=False, recompute=True, **RUN)  # same workers, new code on disk
    print("COMPUTED")
except StaleCode as exc:
    print("REFUSED", exc)
"""
)


def test_a_joblib_worker_that_loaded_old_code_is_refused(library_copy):
    done = library_copy(STALE_WORKER.format(run='{"jobs": 2}'))
    assert "REFUSED" in done.stdout, done.stdout + done.stderr
    assert "Restart the workers" in done.stdout


# slow (make test-slow, run in CI): make test keeps within 7 minutes
@pytest.mark.slow
@pytest.mark.dask
def test_a_dask_worker_that_loaded_old_code_is_refused(library_copy):
    pytest.importorskip("distributed")
    script = (
        """
        from distributed import LocalCluster
        cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=":0")
        """,
        STALE_WORKER.format(run='{"scheduler": cluster.scheduler_address}'),
        "cluster.close()",
    )
    done = library_copy(*script)
    assert "REFUSED" in done.stdout, done.stdout + done.stderr
    assert "Restart the workers" in done.stdout


def test_a_write_killed_between_fsync_and_rename_leaves_a_temporary_that_the_next_run_removes(library_copy):
    done = library_copy(
        """
        import os, signal
        from bandit_lib.infra.store import ResultStore
        store = ResultStore(os.environ["BANDIT_RESULTS"] + "/quick")
        os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)  # dies after fsync, before rename
        store.write("toybook", "lazy", "x=0", params={"x": 0, "sleep": 0.0}, seed=None, fingerprint="f",
                    payload={"rows": []}, elapsed=0.0)
        """
    )
    assert done.returncode == -signal.SIGKILL
    folder = library_copy.store / "quick" / "toybook" / "lazy"
    (tmp,) = list(folder.glob(".*.tmp"))
    old = time.time() - 3600
    os.utime(tmp, (old, old))
    done = library_copy('from bandit_lib.toybook.experiments import LAZY\nLAZY.run("quick", progress=False)')
    assert done.returncode == 0, done.stderr
    assert not list(folder.glob(".*.tmp")) and sorted(p.name for p in folder.glob("*.json")) == ["x=0.json", "x=1.json"]


def _processes_in_group(pgid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid:
            found.append(int(stat.parent.name))
    return found


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# SIGINT in make test; SIGTERM and SIGKILL slow (make test-slow, run in CI)
@pytest.mark.parametrize(
    "sig",
    [
        pytest.param(signal.SIGTERM, marks=pytest.mark.slow),
        signal.SIGINT,
        pytest.param(signal.SIGKILL, marks=pytest.mark.slow),
    ],
    ids=["SIGTERM", "SIGINT", "SIGKILL"],
)
def test_a_stopped_run_shuts_its_workers_down_says_how_to_resume_and_resumes(library_copy, sig):
    env = {**library_copy.env, "TOY_SLEEP": "0.3", "TOY_UNITS": "12"}
    command = [sys.executable, "-m", "bandit_lib.reproduce", "--paper", "toybook", "--profile", "quick", "--jobs", "2"]
    proc = subprocess.Popen(
        command,
        cwd=library_copy.root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # A shell runs background jobs with SIGINT ignored, and a Python started so keeps ignoring
        # it (no KeyboardInterrupt): the child gets the default disposition whatever ran pytest.
        preexec_fn=_default_sigint,
    )
    folder = library_copy.store / "quick" / "toybook" / "lazy"
    deadline = time.monotonic() + DEADLINE
    while not list(folder.glob("*.json")) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    saved_before = {p.name: p.stat().st_mtime_ns for p in folder.glob("*.json")}
    assert saved_before, "no unit finished before the deadline"
    os.kill(proc.pid, sig)
    try:
        _, err = proc.communicate(timeout=DEADLINE)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    if sig == signal.SIGKILL:
        assert proc.returncode == -signal.SIGKILL  # no chance to clean up: the workers must notice
    else:
        assert proc.returncode == 130, err
        assert "Run the same command again to resume" in err and "Traceback" not in err
        assert "interrupted ()" not in err
    deadline = time.monotonic() + 30
    while _processes_in_group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    leftover = _processes_in_group(proc.pid)
    if leftover:
        os.killpg(proc.pid, signal.SIGKILL)
    assert not leftover, f"worker processes outlived the run: {leftover}"
    finished = sorted(p.name for p in folder.glob("*.json"))
    assert len(finished) < 12
    claims = list(folder.glob(".*.claim"))
    if sig != signal.SIGKILL:
        assert not claims, f"a stopped run left its claims: {claims}"  # released on the way out
    done = subprocess.run(command, cwd=library_copy.root, env=env, capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == 0, done.stderr
    assert len(list(folder.glob("*.json"))) == 12
    assert not list(folder.glob(".*.claim"))  # a killed run's claims were taken over, then released
    # the units saved before the stop were not computed again
    assert all(folder.joinpath(n).stat().st_mtime_ns == m for n, m in saved_before.items())


# --- the compiled code that runs is the code that is stamped (issue 21) ----------------------------

NUMBA_HELPER = """
from numba import njit


@njit(cache=True)
def helper(x):
    return x + 1
"""

NUMBA_USER = """
from numba import njit

from bandit_lib.toybook.numba_helper import helper


@njit(cache=True)
def user(x):
    return helper(x) * 10
"""

RUN_USER = """
import importlib
import json
from bandit_lib.toybook.numba_user import user
from bandit_lib.infra.fingerprint import code_fingerprint, numba_cache_dir
print(json.dumps({"value": user(1), "fingerprint": code_fingerprint("bandit_lib.toybook.numba_user"),
                  "cache": str(numba_cache_dir("bandit_lib.toybook.numba_user"))}))
"""


# slow (make test-slow, run in CI): make test keeps within 7 minutes
@pytest.mark.slow
def test_an_edit_of_a_numba_helper_in_another_file_reaches_the_next_run(library_copy, tmp_path):
    book = library_copy.root / "bandit_lib" / "toybook"
    (book / "numba_helper.py").write_text(NUMBA_HELPER)
    (book / "numba_user.py").write_text(NUMBA_USER)
    cache = {"BANDIT_NUMBA_CACHE": str(tmp_path / "numba")}
    first = library_copy(RUN_USER, **cache)
    assert first.returncode == 0, first.stderr
    before = json.loads(first.stdout)
    assert before["value"] == 20 and any(Path(before["cache"]).rglob("*.nbi")), "numba cached nothing"
    again = json.loads(library_copy(RUN_USER, **cache).stdout)
    assert again == before  # unchanged code: same folder, the cache is reused
    # Only the helper changes; numba alone would load user's machine code (helper inlined) from its cache.
    (book / "numba_helper.py").write_text(NUMBA_HELPER.replace("x + 1", "x + 2"))
    after = library_copy(RUN_USER, **cache)
    assert after.returncode == 0, after.stderr
    after = json.loads(after.stdout)
    assert after["value"] == 30, "stale compiled code ran under the new fingerprint"
    assert after["fingerprint"] != before["fingerprint"] and after["cache"] != before["cache"]


def test_every_cached_numba_function_of_the_library_lives_in_its_modules_digest_folder():
    """The loader gives a cache folder to the modules whose code imports numba (not to those that
    only name it): every cached kernel of bandit_lib must still be under its module's folder."""
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import bandit_lib

    checked, misplaced = 0, []
    for info in pkgutil.walk_packages(bandit_lib.__path__, "bandit_lib."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.__module__ == info.name and value._cache is not None:
                path = getattr(value._cache, "_cache_path", None)
                checked += 1
                if path is None or not Path(path).is_relative_to(numba_cache_dir(info.name)):
                    misplaced.append(f"{info.name}.{name}: {path}")
    assert checked > 100, f"only {checked} cached numba functions found"
    assert not misplaced, misplaced


def test_the_reproduce_command_loads_neither_numba_nor_pandas_before_it_computes():
    # about 1.2 s each per process: reproduce's parent and every worker would pay them
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, bandit_lib.reproduce; print(sorted({'numba', 'pandas'} & set(sys.modules)))",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_stale_pyc_with_the_same_size_and_time_never_runs(library_copy):
    module = library_copy.root / "bandit_lib" / "toybook" / "probe_value.py"
    module.write_text("VALUE = 1\n")
    stamp = module.stat()
    compiled = library_copy("import py_compile; py_compile.compile('bandit_lib/toybook/probe_value.py')")
    assert compiled.returncode == 0, compiled.stderr
    module.write_text("VALUE = 2\n")  # same size; then the same modification time as the .pyc records
    os.utime(module, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    plain = library_copy(
        "import sys; sys.path.insert(0, 'bandit_lib/toybook'); import probe_value; print(probe_value.VALUE)"
    )
    assert plain.stdout.strip() == "1", (
        "the scenario did not produce a stale .pyc (the check below would prove nothing)"
    )
    done = library_copy("from bandit_lib.toybook import probe_value; print(probe_value.VALUE)")
    assert done.stdout.strip() == "2", done.stderr


def test_records_say_where_they_were_made_and_check_summarises_it(results_dir, capsys):
    from bandit_lib.infra.environment import environment

    exp = toy()
    exp.run("quick")
    record = json.loads(_record_path(results_dir).read_text())
    assert record["environment"] == json.loads(json.dumps(environment()))
    assert {"python", "cpu", "blas", "packages"} <= set(record["environment"])
    record["environment"]["packages"]["scipy"] = "0.0.1"
    record["payload_sha256"] = payload_digest(record["payload"])
    _record_path(results_dir).write_text(json.dumps(record))
    from bandit_lib.infra.reproduce import _check

    assert _check([exp], "quick") == 0
    out = capsys.readouterr().out
    assert "2 made in this one" in out and "1 made elsewhere: scipy 0.0.1" in out
    total, verdict = out.strip().splitlines()[-2:]
    assert total.startswith("total: 1 experiments") and "fresh    3" in total and verdict.startswith("verdict: OK")


# --- the smaller holes of issue 21 (point 6) --------------------------------------------------------


def test_an_unwritable_experiment_folder_fails_before_its_units_are_computed(results_dir):
    exp = toy()
    folder = results_dir / "quick" / "testpaper"
    folder.mkdir(parents=True)
    (folder / "toy").write_text("a file where the experiment's folder should be")
    toy_compute.CALLS.clear()
    from bandit_lib.infra.store import StoreNotWritable

    with pytest.raises(StoreNotWritable, match="cannot write results to .*testpaper/toy"):
        exp.run("quick")
    assert toy_compute.CALLS == []


def test_stray_temporaries_are_reported_by_check_and_removed_by_a_run_with_no_work(results_dir, capsys):
    exp = toy()
    exp.run("quick")
    folder = _record_path(results_dir).parent
    strays = [folder / ".mean=0.7.json.abc123.tmp", results_dir / "quick" / ".write-probe.xyz.tmp"]
    for stray in strays:
        stray.write_text("{")
        os.utime(stray, (time.time() - 3600, time.time() - 3600))
    from bandit_lib.infra.reproduce import _check

    assert _check([exp], "quick") == 0
    out = capsys.readouterr().out
    assert all(str(s) in out for s in strays) and "2 stray temporary files" in out
    exp.run("quick")  # nothing to compute: the experiment's strays go all the same
    assert not strays[0].exists()
    exp.store("quick").check_writable()  # the root's old probe goes with the next probe
    assert not strays[1].exists()


KILLED_EARLY = """
import subprocess
from bandit_lib.infra.parallel import run_many
run_many(subprocess.call, [{"args": ["sleep", "31.25"]} for _ in range(4)], jobs=2, progress=False)
"""


def test_workers_of_a_parent_killed_before_any_task_reached_them_exit_within_seconds():
    parent = subprocess.Popen([sys.executable, "-c", KILLED_EARLY], cwd=REPO)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # kill as soon as the workers exist, before tasks arrive
            children = subprocess.run(["pgrep", "-P", str(parent.pid)], capture_output=True, text=True).stdout.split()
            if len(children) >= 2:
                break
            time.sleep(0.05)
        assert children, "no worker started"
        parent.kill()
        parent.wait()
        alive = children
        deadline = time.monotonic() + 10
        while alive and time.monotonic() < deadline:
            time.sleep(0.25)
            alive = [c for c in alive if subprocess.run(["kill", "-0", c], capture_output=True).returncode == 0]
        assert not alive, f"worker processes {alive} outlived their killed parent by 10 s"
    finally:
        subprocess.run(["pkill", "-f", "sleep 31.25"], capture_output=True)


def test_book_guard_names_the_pending_work_and_its_predicted_time(results_dir, capsys):
    from bandit_lib.infra.reproduce import _pending

    exp = toy()
    exp.run("quick")
    assert _pending([exp], "quick") == 0 and capsys.readouterr().err == ""
    path = _record_path(results_dir)
    record = json.loads(path.read_text())
    record["fingerprint"] = "0" * 16 + ".v1"  # made stale by hand
    record["elapsed_seconds"] = 600.0
    record["cpu_seconds"] = 590.0  # what a record's cost is read from where it has it
    path.write_text(json.dumps(record))
    assert _pending([exp], "quick") == 3
    err = capsys.readouterr().err
    assert "make book stopped before running any notebook: 1 result units are missing or stale" in err
    assert "about 10 core-minutes" in err and "make reproduce" in err and "BOOK_COMPUTE=1" in err


# slow (make test-slow, run in CI): make test keeps within 7 minutes
@pytest.mark.slow
def test_make_book_stops_before_any_notebook_when_results_are_missing(tmp_path):
    if not (REPO / ".venv" / ".pins-installed").exists():
        pytest.skip("needs the project's environment (.venv): run `make test` or `make book` once")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    start = time.monotonic()
    done = subprocess.run(
        ["make", "--no-print-directory", "book"],
        cwd=REPO,
        env={**env, "BANDIT_RESULTS": str(tmp_path / "empty-store")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and time.monotonic() - start < 60
    assert "make book stopped before running any notebook" in done.stderr and "make reproduce" in done.stderr
    assert "jupyter-book" not in done.stdout
