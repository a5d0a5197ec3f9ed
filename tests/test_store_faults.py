"""Failures of the result store end in the project's own errors, naming the file, and lose nothing
(issue 27): a full disk, a file-size limit, an unusable quarantine folder, a store with no free
space, a record nested too deep to parse, fields outside the payload hash edited by hand, and the
book guard's message.

Scenarios with processes of their own run on a throw-away copy of bandit_lib with a toy chapter
(the ``library_copy`` fixture of conftest.py).
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys

import pytest
from conftest import DEADLINE

from bandit_lib.infra import store as store_module
from bandit_lib.infra.experiment import Experiment, Unit
from bandit_lib.infra.reproduce import _check, _pending
from bandit_lib.infra.store import CorruptResult, ResultStore, StoreNotWritable

import toy_compute

REPRODUCE = [sys.executable, "-m", "bandit_lib.reproduce", "--paper", "toybook", "--profile", "quick", "--jobs", "1"]


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


def _leftovers(folder):
    """Temporary files and claims left in an experiment's folder."""
    return sorted(p.name for p in folder.glob(".*"))


# --- writes that fail -----------------------------------------------------------------------------


def _limit_file_size(limit):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return set_limit


# slow (make test-slow, run in CI): make test keeps within 7 minutes
@pytest.mark.slow
def test_a_file_size_limit_ends_in_a_clear_error_naming_the_file_and_keeps_the_records(library_copy):
    env = {**library_copy.env, "TOY_UNITS": "3", "TOY_BIG": "1"}  # x=1's record is about 3 MB
    folder = library_copy.store / "quick" / "toybook" / "lazy"
    done = subprocess.run(
        REPRODUCE,
        cwd=library_copy.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        preexec_fn=_limit_file_size(512 * 1024),
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"error: cannot write the result {folder / 'x=1.json'} (File too large" in done.stderr
    assert "ulimit -f" in done.stderr and "the records written before are kept" in done.stderr
    assert sorted(p.name for p in folder.glob("*.json")) == ["x=0.json"] and _leftovers(folder) == []
    before = (folder / "x=0.json").stat().st_mtime_ns
    again = subprocess.run(REPRODUCE, cwd=library_copy.root, env=env, capture_output=True, text=True, timeout=DEADLINE)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in folder.glob("*.json")) == ["x=0.json", "x=1.json", "x=2.json"]
    assert (folder / "x=0.json").stat().st_mtime_ns == before  # kept, not computed again


def test_a_file_size_limit_below_the_probe_fails_before_anything_is_computed(library_copy):
    done = subprocess.run(
        REPRODUCE,
        cwd=library_copy.root,
        env={**library_copy.env, "TOY_LOG": str(library_copy.store.parent / "log")},
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        preexec_fn=_limit_file_size(1024),
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"cannot write results to {library_copy.store / 'quick'} (File too large" in done.stderr
    assert not (library_copy.store.parent / "log").exists()


def test_a_store_with_no_free_space_fails_the_writability_probe(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "_free_bytes", lambda folder: 0)
    with pytest.raises(StoreNotWritable, match=r"cannot write results to .* has 0 bytes free \(at least 1 MiB"):
        ResultStore(tmp_path).check_writable()
    monkeypatch.setattr(store_module, "_free_bytes", lambda folder: 10 * 1024**2)
    ResultStore(tmp_path).check_writable()


def _tiny_filesystem_works(tmp_path) -> bool:
    if not shutil.which("unshare"):
        return False
    mount = tmp_path / "probe-mount"
    mount.mkdir()
    probe = subprocess.run(
        ["unshare", "-Urm", "sh", "-c", f"mount -t tmpfs -o size=64k none {mount} && touch {mount}/x"],
        capture_output=True,
        timeout=30,
    )
    return probe.returncode == 0


def _on_a_tiny_filesystem(library_copy, size, script, **env):
    """Run the shell ``script`` in a private mount namespace (no root needed) in which the copy's
    store is a tmpfs of ``size``; it vanishes with the namespace."""
    mount = library_copy.store
    mount.mkdir(exist_ok=True)
    return subprocess.run(
        ["unshare", "-Urm", "sh", "-c", f"mount -t tmpfs -o size={size} none {mount} && {script}"],
        cwd=library_copy.root,
        env={**library_copy.env, **env},
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )


def test_a_full_disk_ends_in_a_clear_error_naming_the_file_and_keeps_the_records(library_copy, tmp_path):
    if not _tiny_filesystem_works(tmp_path):
        pytest.skip("cannot mount a tiny file system here (unshare -Urm: no user namespaces)")
    folder = library_copy.store / "quick" / "toybook" / "lazy"
    command = " ".join(REPRODUCE)
    script = f"{command}; echo rc=$?; ls -a {folder}; {sys.executable} -c 'import json; json.load(open(\"{folder}/x=0.json\"))'"
    done = _on_a_tiny_filesystem(library_copy, "2m", script, TOY_UNITS="3", TOY_BIG="1")
    assert "rc=2" in done.stdout, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"error: cannot write the result {folder / 'x=1.json'} (No space left on device" in done.stderr
    listing = done.stdout.split("rc=2", 1)[1].split()
    assert sorted(listing) == [".", "..", "x=0.json"], listing  # no temporary, no claim left; x=0 intact


def test_a_full_disk_fails_the_writability_probe_before_anything_is_computed(library_copy, tmp_path):
    if not _tiny_filesystem_works(tmp_path):
        pytest.skip("cannot mount a tiny file system here (unshare -Urm: no user namespaces)")
    store = library_copy.store
    fill = f"mkdir -p {store}/quick && (dd if=/dev/zero of={store}/filler bs=4k 2>/dev/null; true)"
    log = library_copy.store.parent / "log"
    done = _on_a_tiny_filesystem(
        library_copy, "1m", f"{fill} && df -B1 {store} && {' '.join(REPRODUCE)}", TOY_LOG=str(log)
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stdout + done.stderr
    assert f"cannot write results to {store / 'quick'} (No space left on device" in done.stderr
    assert not log.exists()


def test_a_file_where_the_quarantine_folder_should_be_is_named_and_nothing_is_moved(results_dir):
    exp = toy()
    exp.run("quick")
    path = _record_path(results_dir)
    path.write_text("{")
    blocker = results_dir / "quick" / ".quarantine"
    blocker.write_text("not a folder")
    toy_compute.CALLS.clear()
    with pytest.raises(StoreNotWritable, match=r"cannot move corrupt records to the quarantine folder") as info:
        exp.run("quick")
    assert f"{blocker} is a file where a folder should be" in str(info.value)
    assert toy_compute.CALLS == [] and path.read_text() == "{"  # nothing computed, nothing lost
    blocker.unlink()
    exp.run("quick")
    assert toy_compute.CALLS == [0.7]


def test_the_cli_reports_an_unusable_quarantine_without_a_traceback(library_copy):
    first = library_copy('from bandit_lib.toybook.experiments import LAZY\nLAZY.run("quick", progress=False)')
    assert first.returncode == 0, first.stderr
    (library_copy.store / "quick" / "toybook" / "lazy" / "x=0.json").write_text("[")
    (library_copy.store / "quick" / ".quarantine").write_text("")
    done = subprocess.run(REPRODUCE, cwd=library_copy.root, env=library_copy.env, capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "error: cannot move corrupt records to the quarantine folder" in done.stderr
    assert f"{library_copy.store / 'quick' / '.quarantine'} is a file where a folder should be" in done.stderr


# --- damaged records ------------------------------------------------------------------------------


def _nest(path):
    path.write_text("[" * 100_000 + "]" * 100_000)


def _nest_in_payload(path):
    data = json.loads(path.read_text())
    text = json.dumps(data).replace('"payload": ', '"payload": ' + "[" * 100_000, 1)
    path.write_text(text[:-1] + "]" * 100_000 + "}")


def _set(field, value):
    def edit(path):
        data = json.loads(path.read_text())
        data[field] = value
        path.write_text(json.dumps(data))

    return edit


def _set_environment_packages(path):
    data = json.loads(path.read_text())
    data["environment"]["packages"] = "numpy 2"
    path.write_text(json.dumps(data))


def _nest_params(path):
    data = json.loads(path.read_text())
    data["params"] = {"mean": 0.7, "pulls": 50, "extra": json.loads("[" * 900 + "]" * 900)}
    path.write_text(json.dumps(data))


DAMAGE = {
    "nested 100 000 deep": (_nest, "nested too deep"),
    "params nested 900 deep": (_nest_params, "params is nested more than 64 deep"),
    "payload nested 100 000 deep": (_nest_in_payload, "not valid JSON|nested too deep"),
    "environment a string": (_set("environment", "my laptop"), "environment must be an object"),
    "environment.packages a string": (_set_environment_packages, "environment.packages must be an object"),
    "elapsed_seconds a string": (_set("elapsed_seconds", "3 s"), "elapsed_seconds must be a number"),
    "elapsed_seconds negative": (_set("elapsed_seconds", -1.0), "elapsed_seconds must be a number"),
    "elapsed_seconds NaN": (_set("elapsed_seconds", float("nan")), "elapsed_seconds must be a number"),
    "elapsed_seconds true": (_set("elapsed_seconds", True), "elapsed_seconds must be a number"),
    "cpu_seconds a string": (_set("cpu_seconds", "3 s"), "cpu_seconds must be a number"),
    "cpu_seconds negative": (_set("cpu_seconds", -1.0), "cpu_seconds must be a number"),
    "created a number": (_set("created", 2026), "created must be a string"),
    "code a list": (_set("code", ["0.1.0"]), "code must map names to versions"),
    "fingerprint a number": (_set("fingerprint", 7), "fingerprint must be a string"),
    "restamped a string": (_set("restamped", "yes"), "restamped must be a list"),
}


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_record_is_reported_by_check_and_pending_then_quarantined_and_recomputed(results_dir, capsys, kind):
    damage, reason = DAMAGE[kind]
    exp = toy()
    exp.run("quick")
    path = _record_path(results_dir)
    original = json.loads(path.read_text())["payload"]
    damage(path)
    with pytest.raises(CorruptResult, match=reason) as info:
        exp.load("quick")
    assert str(path) in str(info.value)
    assert _check([exp], "quick") == 1
    out = capsys.readouterr().out
    assert "corrupt    1" in out and f"corrupt: {path}: " in out
    assert _pending([exp], "quick") == 3
    err = capsys.readouterr().err
    assert "testpaper/toy: 1 corrupt" in err and "about 0 core" not in err
    toy_compute.CALLS.clear()
    healed = exp.run("quick")
    assert toy_compute.CALLS == [0.7] and healed.payload("mean=0.7") == original
    assert healed.elapsed_seconds >= 0
    record = json.loads(path.read_text())
    assert 0 <= record["cpu_seconds"] and "cpu_seconds" not in record["payload"]  # the worker's CPU time
    assert len(list((results_dir / "quick" / ".quarantine" / "testpaper" / "toy").glob("mean=0.7.*"))) == 1


@pytest.mark.slow
def test_the_cli_survives_a_record_nested_100000_deep(library_copy):
    first = library_copy('from bandit_lib.toybook.experiments import LAZY\nLAZY.run("quick", progress=False)')
    assert first.returncode == 0, first.stderr
    path = library_copy.store / "quick" / "toybook" / "lazy" / "x=1.json"
    _nest(path)
    base = [sys.executable, "-m", "bandit_lib.reproduce", "--paper", "toybook", "--profile", "quick"]
    for flag, code in (("--check", 1), ("--pending", 3)):
        done = subprocess.run(
            [*base, flag], cwd=library_copy.root, env=library_copy.env, capture_output=True, text=True
        )
        assert done.returncode == code and "Traceback" not in done.stderr, done.stdout + done.stderr
    assert (
        f"{path}: nested too deep to be a record"
        in subprocess.run(
            [*base, "--check"], cwd=library_copy.root, env=library_copy.env, capture_output=True, text=True
        ).stdout
    )
    done = subprocess.run(
        [*base, "--jobs", "1"], cwd=library_copy.root, env=library_copy.env, capture_output=True, text=True
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert json.loads(path.read_text())["payload"] == {"rows": [{"y": 2}]}


# --- the book guard's message ----------------------------------------------------------------------


def test_book_guard_names_the_experiments_and_never_says_about_0(results_dir, capsys):
    exp = toy()
    assert _pending([exp], "quick") == 3  # an empty store: no record to predict from
    err = capsys.readouterr().err
    assert "3 result units are missing or stale (testpaper/toy: 3 missing)" in err
    assert "no record says how long they take" in err and "about 0" not in err
    exp.run("quick")
    path = _record_path(results_dir)
    record = json.loads(path.read_text())
    record["fingerprint"] = "0" * 16 + ".v1"  # made stale by hand; its unit took a few milliseconds
    path.write_text(json.dumps(record))
    assert _pending([exp], "quick") == 3
    err = capsys.readouterr().err
    assert "(testpaper/toy: 1 stale)" in err and "under a core-second by the records" in err and "about 0" not in err
    record["elapsed_seconds"] = 42.0
    record["cpu_seconds"] = 40.0  # a record's cost is its CPU seconds where it has them
    path.write_text(json.dumps(record))
    assert _pending([exp], "quick") == 3
    assert "about 40 core-seconds by the records" in capsys.readouterr().err
    del record["cpu_seconds"]  # an older record: its wall seconds
    path.write_text(json.dumps(record))
    assert _pending([exp], "quick") == 3
    assert "about 42 core-seconds by the records" in capsys.readouterr().err
