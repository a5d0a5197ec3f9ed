"""Runs that share one result store (issue 27): each unit is claimed before it is computed, so two
`reproduce` processes on one store compute every unit once; a claim of a run that stopped is taken
over; quarantining the same record twice is harmless.

Scenarios with processes of their own run on a throw-away copy of bandit_lib with a toy chapter
(the ``library_copy`` fixture of conftest.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest
from conftest import DEADLINE

from bandit_lib.infra import store as store_module
from bandit_lib.infra.experiment import Experiment, Unit
from bandit_lib.infra.reproduce import _check
from bandit_lib.infra.store import ResultStore, read_claim

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


def _claim_file(results_dir, key="mean=0.7"):
    return results_dir / "quick" / "testpaper" / "toy" / f".{key}.claim"


def _write_claim(path, **owner):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"token": "someone-else", "since": "earlier", **owner}))


def _here(pid):
    return {
        "pid": pid,
        "pid_start": store_module._process_start(pid),
        "host": store_module.socket.gethostname(),
        "boot": store_module._boot_id(),
    }


# --- claims, one process ------------------------------------------------------------------------


def test_a_claim_is_taken_by_one_run_only_and_released_to_the_next(tmp_path):
    store = ResultStore(tmp_path)
    with store.claims("p", "e") as first, store.claims("p", "e") as second:
        assert first.take("u") and first.take("u")  # taking one's own claim again is fine
        assert not second.take("u")
        holder = second.holder("u")
        assert holder is not None and holder.stale is None and str(os.getpid()) in holder.owner
        assert first.holder("u") is None  # one's own claim holds nobody up
        second.release("u")  # not second's: must not remove first's claim
        assert store.claim_path("p", "e", "u").exists()
        first.release("u")
        assert not store.claim_path("p", "e", "u").exists()
        assert second.take("u")
    assert not store.claim_path("p", "e", "u").exists()  # leaving the block released it
    assert not list((tmp_path / "p" / "e").glob("*.tmp"))


def test_a_closed_claim_set_takes_nothing(tmp_path):
    claims = ResultStore(tmp_path).claims("p", "e")
    claims.close()
    assert not claims.take("u") and not ResultStore(tmp_path).claim_path("p", "e", "u").exists()


def test_a_unit_claimed_by_a_live_run_is_left_to_it_then_taken_over_when_it_dies(results_dir, caplog, capsys):
    exp = toy()
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        _write_claim(_claim_file(results_dir), **_here(sleeper.pid))
        toy_compute.CALLS.clear()
        report = exp.update("quick", wait=False)
        assert report.waiting == ("mean=0.7",) and sorted(report.computed) == ["mean=0.2", "mean=0.9"]
        assert toy_compute.CALLS == [0.2, 0.9]
        assert _check([exp], "quick") == 1
        out = capsys.readouterr().out
        assert (
            f"being computed now by another run: unit mean=0.7 of testpaper/toy, claimed by process {sleeper.pid}"
            in out
        )
        assert f"(alive: its process {sleeper.pid} is running); if that run hangs or is gone, stop process" in out
    finally:
        sleeper.kill()
        sleeper.wait()
    toy_compute.CALLS.clear()
    report = exp.update("quick")  # the owner is gone from this host: its claim is stale at once
    assert report.computed == ("mean=0.7",) and toy_compute.CALLS == [0.7]
    assert "taking over unit mean=0.7" in caplog.text and f"process {sleeper.pid} is no longer running" in caplog.text
    assert not _claim_file(results_dir).exists()


def test_a_killed_runs_claim_on_a_finished_unit_is_removed_by_the_next_run(results_dir, caplog):
    # killed between saving the record and releasing its claim: no later run takes the unit over
    exp = toy()
    exp.run("quick")
    dead = subprocess.Popen(["true"])
    dead.wait()
    _write_claim(_claim_file(results_dir, "mean=0.2"), **_here(dead.pid))
    _write_claim(_claim_file(results_dir, "mean=0.9"), **_here(os.getpid()))  # alive: left alone
    toy_compute.CALLS.clear()
    report = exp.update("quick")
    assert report.computed == () and toy_compute.CALLS == []
    assert not _claim_file(results_dir, "mean=0.2").exists()
    assert _claim_file(results_dir, "mean=0.9").exists()
    assert "removing the claim on finished unit mean=0.2" in caplog.text


def test_check_lists_live_and_stale_claims(results_dir, capsys):
    exp = toy()
    exp.run("quick")
    _write_claim(_claim_file(results_dir, "mean=0.2"), **_here(os.getpid()))
    _write_claim(_claim_file(results_dir, "mean=0.9"), pid=123, host="elsewhere.example", boot=None)
    old = time.time() - store_module.STALE_AFTER_SECONDS - 60
    os.utime(_claim_file(results_dir, "mean=0.9"), (old, old))
    assert _check([exp], "quick") == 0  # claims on fresh records change no verdict
    out = capsys.readouterr().out
    assert f"being computed now by another run: unit mean=0.2 of testpaper/toy, claimed by process {os.getpid()}" in out
    assert "stale claim (a run that stopped: it has not been refreshed for" in out and "mean=0.9.claim" in out


def test_a_claim_from_another_host_is_trusted_until_its_heartbeat_stops(results_dir):
    exp = toy()
    path = _claim_file(results_dir)
    _write_claim(path, pid=1, host="elsewhere.example", boot="x")
    toy_compute.CALLS.clear()
    assert exp.update("quick", wait=False).waiting == ("mean=0.7",)
    old = time.time() - store_module.STALE_AFTER_SECONDS - 1
    os.utime(path, (old, old))
    assert exp.update("quick", wait=False).computed == ("mean=0.7",)
    assert toy_compute.CALLS == [0.2, 0.9, 0.7] and not path.exists()


def test_an_unreadable_or_incomplete_claim_is_stale_at_once(tmp_path):
    path = tmp_path / ".u.claim"
    for text, why in (
        ("", "it is empty"),
        ("\x00\xff garbage", "not a claim"),
        ("[1, 2]", "not a claim (JSON list"),
        ('{"pid": 1, "host": "h"}', "incomplete (no valid token, since)"),
        ('{"pid": "1", "host": "h", "token": "t", "since": "x"}', "incomplete (no valid pid)"),
    ):
        path.write_text(text)
        claim = read_claim(path)
        assert claim.stale and why in claim.stale, (text, claim.stale)
        assert claim.age < 60  # fresh, yet stale: no run can be shown to hold it


def test_a_same_host_claim_without_its_process_start_time_is_stale_at_once(tmp_path):
    # pid 1 is always alive; without the start time nothing shows that process 1 holds the claim
    path = tmp_path / ".u.claim"
    _write_claim(path, pid=1, host=store_module.socket.gethostname())
    assert "lacks the start time of process 1" in read_claim(path).stale
    _write_claim(path, **_here(os.getpid()))
    assert read_claim(path).stale is None and "is running" in read_claim(path).alive


def test_the_heartbeat_keeps_a_held_claim_fresh(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "HEARTBEAT_SECONDS", 0.05)
    store = ResultStore(tmp_path)
    with store.claims("p", "e") as claims:
        assert claims.take("u")
        path = store.claim_path("p", "e", "u")
        old = time.time() - 3600
        os.utime(path, (old, old))
        deadline = time.monotonic() + 10
        while read_claim(path).age > 60 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert read_claim(path).age < 60


def test_breaking_a_stale_claim_never_removes_a_fresh_one_put_there_since(tmp_path, caplog):
    store = ResultStore(tmp_path)
    path = store.claim_path("p", "e", "u")
    _write_claim(path, pid=1, host="elsewhere.example")
    old = time.time() - store_module.STALE_AFTER_SECONDS - 1
    os.utime(path, (old, old))
    judged = read_claim(path)
    assert judged.stale
    late, quick = store.claims("p", "e"), store.claims("p", "e")
    assert quick.take("u")  # another run breaks the stale claim and claims the unit first
    late._break(path, judged, "u")  # this run acts on what it saw before
    assert read_claim(path).data["token"] == quick.token and not late.take("u")
    assert not list(path.parent.glob("*.tmp"))
    quick.close()
    late.close()


def test_a_waiting_run_takes_the_record_another_run_writes(results_dir):
    exp = toy()
    exp.run("quick")
    record = results_dir / "quick" / "testpaper" / "toy" / "mean=0.7.json"
    saved = record.read_bytes()
    record.unlink()
    other = ResultStore(results_dir / "quick").claims("testpaper", "toy")
    assert other.take("mean=0.7")

    def finish():
        time.sleep(1.5)
        record.write_bytes(saved)
        other.release("mean=0.7")

    helper = threading.Thread(target=finish)
    helper.start()
    toy_compute.CALLS.clear()
    report = exp.update("quick")  # waits for the other run's unit instead of computing it
    helper.join()
    assert toy_compute.CALLS == [] and report.computed == () and report.elsewhere == ("mean=0.7",)
    assert record.read_bytes() == saved


def test_a_waiting_run_computes_a_unit_the_other_run_gave_up(results_dir):
    exp = toy()
    other = ResultStore(results_dir / "quick").claims("testpaper", "toy")
    assert other.take("mean=0.7")
    threading.Timer(1.0, other.close).start()  # stops (an error, say) without writing the record
    toy_compute.CALLS.clear()
    report = exp.update("quick")
    assert sorted(toy_compute.CALLS) == [0.2, 0.7, 0.9] and len(report.computed) == 3


def test_an_interrupted_run_releases_its_claims(results_dir):
    exp = toy()
    toy_compute.CALLS.clear()
    toy_compute.FAIL_AT["n"] = 2
    try:
        with pytest.raises(KeyboardInterrupt):
            exp.run("quick")
    finally:
        toy_compute.FAIL_AT["n"] = None
    folder = results_dir / "quick" / "testpaper" / "toy"
    assert [p.name for p in folder.glob("*.json")] == ["mean=0.2.json"]
    assert not list(folder.glob(".*.claim"))


def test_quarantining_a_record_twice_is_harmless_and_keeps_every_copy(tmp_path):
    store = ResultStore(tmp_path)
    path = store.path("p", "e", "u")
    path.parent.mkdir(parents=True)
    path.write_text("{")
    first = store.quarantine(path)
    assert first is not None and first.read_text() == "{"
    assert store.quarantine(path) is None  # the other process had moved it already
    path.write_text("[")
    second = store.quarantine(path)
    assert second != first and second.read_text() == "[" and first.read_text() == "{"


# --- two processes on one store ------------------------------------------------------------------


def _reproduce_together(library_copy, jobs=(2, 1), **env):
    """Start one `python -m bandit_lib.reproduce` per entry of ``jobs`` at once on the copy's store;
    return their (returncode, stdout, stderr) and the log of computations (unit -> processes)."""
    log = library_copy.store.parent / "computed.log"
    env = {**library_copy.env, "TOY_LOG": str(log), **env}
    command = [sys.executable, "-m", "bandit_lib.reproduce", "--paper", "toybook", "--profile", "quick"]
    procs = [
        subprocess.Popen(
            [*command, "--jobs", str(j)],
            cwd=library_copy.root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for j in jobs
    ]
    try:
        outs = [(*p.communicate(timeout=DEADLINE), p.returncode) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    computed = Counter(line.split()[0] for line in log.read_text().splitlines()) if log.exists() else Counter()
    return [(rc, out, err) for out, err, rc in outs], computed


def _computed_here(stdout):
    (line,) = [line for line in stdout.splitlines() if line.startswith("toybook/lazy") and "s wall" in line]
    return int(line.split("; ")[1].split(" computed here")[0])


@pytest.mark.slow
def test_two_reproduce_runs_on_one_store_compute_each_unit_once(library_copy):
    units = 12
    runs, computed = _reproduce_together(library_copy, TOY_SLEEP="1.0", TOY_UNITS=str(units))
    for rc, out, err in runs:
        assert rc == 0 and "Traceback" not in err, out + err
    assert computed == Counter({f"x={x}": 1 for x in range(units)}), f"units computed more than once: {computed}"
    here = [_computed_here(out) for _, out, _ in runs]
    print(f"units computed by the run with --jobs 2 and by the run with --jobs 1: {here}")
    assert sum(here) == units, here
    assert all(n > 0 for n in here), f"one run did all the work: {here}"  # the work was shared
    folder = library_copy.store / "quick" / "toybook" / "lazy"
    assert len(list(folder.glob("*.json"))) == units and not list(folder.glob(".*"))


def test_two_runs_on_a_store_of_corrupt_records_quarantine_each_once(library_copy):
    units = 6
    first = library_copy(
        'from bandit_lib.toybook.experiments import LAZY\nLAZY.run("quick", progress=False)', TOY_UNITS=str(units)
    )
    assert first.returncode == 0, first.stderr
    folder = library_copy.store / "quick" / "toybook" / "lazy"
    for path in folder.glob("*.json"):
        path.write_text(path.read_text()[:20])  # truncated
    runs, computed = _reproduce_together(library_copy, jobs=(1, 1), TOY_SLEEP="0.3", TOY_UNITS=str(units))
    for rc, out, err in runs:
        assert rc == 0 and "Traceback" not in err, out + err
    assert computed == Counter({f"x={x}": 1 for x in range(units)}), computed
    quarantined = list((library_copy.store / "quick" / ".quarantine" / "toybook" / "lazy").glob("*.json"))
    assert len(quarantined) == units and all(len(p.read_text()) == 20 for p in quarantined)
    assert all(json.loads(p.read_text())["payload"] for p in folder.glob("*.json"))


# --- the runner takes a task only shortly before a worker can start it (so claims are late) -------


def _taken_before_first_result(seconds=0.3, **backend):
    from bandit_lib.infra.parallel import run_many

    taken, seen = [], []

    def tasks():
        for _ in range(24):
            taken.append(1)
            yield {"seconds": seconds}

    out = run_many(toy_compute.nap, tasks(), progress=False, on_result=lambda i, r: seen.append(len(taken)), **backend)
    assert out == [seconds] * 24 and len(taken) == 24
    return seen[0]


@pytest.mark.slow
def test_joblib_workers_take_their_tasks_lazily():
    # jobs=1 runs the tasks one after the other in this process (no clock involved): short naps
    # (24 naps of 0.3 s were 7 s of the test's 11)
    assert _taken_before_first_result(0.01, jobs=1) == 1
    assert _taken_before_first_result(jobs=2) <= 8  # joblib looks a few tasks ahead, not all 24


@pytest.mark.slow
@pytest.mark.dask
def test_dask_workers_take_their_tasks_lazily():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    ) as cluster:
        assert _taken_before_first_result(scheduler=cluster.scheduler_address) <= 5  # twice the 2 threads, +1
