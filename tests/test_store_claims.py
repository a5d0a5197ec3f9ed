"""No wait without an end (issue 40): a claim counts only while it is readable and its holder
provably alive; claims are written whole before they become visible, on every path; a run waiting
for another run's units says what it waits for and gives up after a limit; ``make check`` and the
``make book`` guard name live claims; a store whose folders are blocked says by what; a padded
record is not read as fresh.

Each scenario runs in this process on the toy experiment of tests/test_store_sharing.py (no
subprocess, no library copy: a few seconds in all).
"""

from __future__ import annotations

import errno
import json
import subprocess
import time

import pytest
from test_store_sharing import _claim_file, _here, _write_claim, toy

from bandit_lib.infra import store as store_module
from bandit_lib.infra.reproduce import _check, _pending
from bandit_lib.infra.store import ClaimWaitExpired, CorruptResult, ResultStore, StoreNotWritable, read_claim

import toy_compute

# --- stuck claims of each kind: a run ends or proceeds within the stated limit ------------------

STUCK = {
    "garbage": lambda path: path.parent.mkdir(parents=True) or path.write_bytes(b"\x00\x17garbage\xff"),
    "empty": lambda path: path.parent.mkdir(parents=True) or path.write_bytes(b""),
    "live pid without start time": lambda path: _write_claim(path, pid=1, host=store_module.socket.gethostname()),
    "incomplete (no host)": lambda path: _write_claim(path, pid=1),
}


@pytest.mark.parametrize("kind", list(STUCK))
def test_a_stuck_claim_that_no_live_run_can_be_shown_to_hold_is_taken_over_at_once(results_dir, caplog, kind):
    exp = toy()
    STUCK[kind](_claim_file(results_dir))
    toy_compute.CALLS.clear()
    start = time.monotonic()
    report = exp.update("quick", wait_limit=60)
    assert time.monotonic() - start < 30  # no waiting: the unit is computed here
    assert sorted(report.computed) == ["mean=0.2", "mean=0.7", "mean=0.9"] and 0.7 in toy_compute.CALLS
    assert "taking over unit mean=0.7" in caplog.text and not _claim_file(results_dir).exists()
    assert str(_claim_file(results_dir)) in caplog.text  # the message names the claim's file


def test_a_live_foreign_claim_is_waited_for_with_its_name_then_given_up_at_the_limit(results_dir, caplog):
    exp = toy()
    path = _claim_file(results_dir)
    _write_claim(path, pid=4242, host="elsewhere.example", boot="x")  # fresh: alive by its heartbeat
    start = time.monotonic()
    with pytest.raises(ClaimWaitExpired) as info:
        exp.update("quick", wait_limit=1.5)
    waited = time.monotonic() - start
    assert 1.5 <= waited < 30
    message = str(info.value)
    for part in ("unit mean=0.7 of testpaper/toy", "process 4242 on host elsewhere.example", "refreshed", str(path)):
        assert part in message and part in caplog.text, part
    assert f"delete {path} and run again" in message and "waited" in message
    assert "gives up after 2 s without progress" in caplog.text
    assert path.exists()  # a live claim is never broken, only waited for


def test_a_foreign_claim_whose_heartbeat_stopped_is_taken_over(results_dir, monkeypatch):
    monkeypatch.setattr(store_module, "STALE_AFTER_SECONDS", 1.0)
    exp = toy()
    path = _claim_file(results_dir)
    _write_claim(path, pid=4242, host="elsewhere.example", boot="x")
    start = time.monotonic()
    report = exp.update("quick", wait_limit=60)  # waits until the claim is 1 s old, then takes it over
    assert time.monotonic() - start < 30 and "mean=0.7" in report.computed and not path.exists()


def test_the_wait_limit_is_checked():
    with pytest.raises(ValueError, match="wait_limit"):
        toy().update("quick", wait_limit=float("inf"))


# --- claims are written whole before they are visible -------------------------------------------


def _no_links(*args, **kwargs):
    raise OSError(errno.EPERM, "Operation not permitted (no hard links here)")


def test_without_hard_links_a_claim_is_renamed_into_place_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module.os, "link", _no_links)
    store = ResultStore(tmp_path)
    with store.claims("p", "e") as first, store.claims("p", "e") as second:
        assert first.take("u") and not second.take("u")
        claim = read_claim(store.claim_path("p", "e", "u"))
        assert claim.stale is None and claim.data["token"] == first.token
    assert not list((tmp_path / "p" / "e").iterdir())


def test_the_last_fallback_leaves_no_empty_claim_when_its_write_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module.os, "link", _no_links)
    monkeypatch.setattr(store_module, "_rename_no_replace", lambda src, dst: None)
    store = ResultStore(tmp_path)
    with store.claims("p", "e") as claims:
        assert claims.take("u")  # O_EXCL and one write
        assert read_claim(store.claim_path("p", "e", "u")).data["token"] == claims.token

    def full_disk(fd, data):  # the temporary file is written through a file object, the claim with os.write
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store_module.os, "write", full_disk)
    with store.claims("p", "e") as claims, pytest.raises(StoreNotWritable, match="No space left"):
        claims.take("v")
    assert not store.claim_path("p", "e", "v").exists()


# --- make check and the make book guard name live claims -----------------------------------------


def test_check_and_the_book_guard_name_a_live_claim_with_its_holder_age_and_remedy(results_dir, capsys):
    exp = toy()
    exp.run("quick")
    (results_dir / "quick" / "testpaper" / "toy" / "mean=0.7.json").unlink()
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        _write_claim(_claim_file(results_dir), **_here(sleeper.pid))
        assert _check([exp], "quick") == 1
        out = capsys.readouterr().out
        assert _pending([exp], "quick") == 3
        err = capsys.readouterr().err
    finally:
        sleeper.kill()
        sleeper.wait()
    for text in (out, err):
        assert f"unit mean=0.7 of testpaper/toy, claimed by process {sleeper.pid} on host" in text, text
        assert "refreshed 0 s ago" in text or "refreshed 1 s ago" in text
        assert f"its process {sleeper.pid} is running" in text
    assert "1 of them are being computed now by another run" in err and f"stop process {sleeper.pid}" in err


# --- a store whose folders are blocked; padded records ------------------------------------------


@pytest.mark.parametrize("where", ["root", "experiment folder"])
def test_check_names_a_file_that_stands_where_a_folder_of_the_store_should_be(results_dir, capsys, where):
    exp = toy()
    blocker = results_dir / "quick" if where == "root" else results_dir / "quick" / "testpaper" / "toy"
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("not a folder")
    assert _check([exp], "quick") == 1
    out = capsys.readouterr().out
    assert f"cannot read records: {blocker} is a file where a folder should be; move it away" in out
    assert out.splitlines()[-1].startswith("verdict: NOT OK") and str(blocker) in out.splitlines()[-1]


def test_a_dangling_quarantine_link_is_called_what_it_is(results_dir):
    store = ResultStore(results_dir / "quick")
    store.root.mkdir()
    (store.root / ".quarantine").symlink_to(results_dir / "gone")
    with pytest.raises(StoreNotWritable, match=r"\.quarantine is a dangling symbolic link \(to .*gone'\)"):
        store.quarantine_folder("p", "e")


@pytest.mark.parametrize("padding", ["trailing spaces", "leading newline", "line breaks"])
def test_a_record_padded_with_whitespace_is_corrupt_not_fresh(results_dir, padding):
    exp = toy()
    exp.run("quick")
    path = results_dir / "quick" / "testpaper" / "toy" / "mean=0.7.json"
    raw = path.read_bytes()
    assert raw.endswith(b"}\n") and raw.count(b"\n") == 1  # what the store writes
    padded = {
        "trailing spaces": raw + b" " * 100_000,
        "leading newline": b"\n" + raw,
        "line breaks": raw.replace(b",", b",\n", 3),
    }[padding]
    path.write_bytes(padded)
    assert json.loads(padded) == json.loads(raw)  # the same data, yet not a record the store wrote
    with pytest.raises(CorruptResult, match="not one line of JSON as the store writes it"):
        ResultStore(results_dir / "quick").read("testpaper", "toy", "mean=0.7")
    assert exp.status("quick")["corrupt"] == ["mean=0.7"]


def test_reproduce_ends_a_wait_for_a_live_foreign_claim_at_its_limit_naming_it(library_copy):
    from test_store_faults import REPRODUCE

    claim = library_copy.store / "quick" / "toybook" / "lazy" / ".x=1.claim"
    _write_claim(claim, pid=4242, host="elsewhere.example", boot="x")
    start = time.monotonic()
    done = subprocess.run(
        [*REPRODUCE, "--wait-limit", "2"], cwd=library_copy.root, env=library_copy.env, capture_output=True, text=True
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert time.monotonic() - start < 60
    assert "toybook/lazy: waited" in done.stderr and "unit x=1 of toybook/lazy" in done.stderr
    assert f"delete {claim} and run again" in done.stderr
    assert (library_copy.store / "quick" / "toybook" / "lazy" / "x=0.json").exists()  # the free unit was computed


# The reproduction, end to end: `reproduce` on a store holding a stuck claim of each kind
# ends or proceeds within the stated limit (here --wait-limit 2), naming the claim. Where the claim
# proves no live holder the unit is taken over at once; a foreign host's fresh claim is waited for
# until the limit (the test above). On the code before issue 40 the first three waited 600 s from
# the claim's mtime or forever.
E2E_STUCK = {
    "garbage": (lambda path: path.write_bytes(b"\x00\x17garbage\xff"), "bytes that are not JSON"),
    "empty": (lambda path: path.write_bytes(b""), "it is empty"),
    "live pid without start time": (
        lambda path: path.write_text(
            json.dumps({"pid": 1, "host": store_module.socket.gethostname(), "token": "t", "since": "x"})
        ),
        "it lacks the start time of process 1",
    ),
}


@pytest.mark.parametrize("kind", list(E2E_STUCK))
def test_reproduce_takes_over_a_stuck_claim_of_each_kind_at_once_naming_it(library_copy, kind):
    from test_store_faults import REPRODUCE

    make, why = E2E_STUCK[kind]
    claim = library_copy.store / "quick" / "toybook" / "lazy" / ".x=1.claim"
    claim.parent.mkdir(parents=True)
    make(claim)
    start = time.monotonic()
    done = subprocess.run(
        [*REPRODUCE, "--wait-limit", "2"],
        cwd=library_copy.root,
        env=library_copy.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert time.monotonic() - start < 60
    assert "toybook/lazy: taking over unit x=1" in done.stderr and why in done.stderr, done.stderr
    assert str(claim) in done.stderr
    assert "waited" not in done.stderr  # proceeded at once
    assert sorted(p.name for p in claim.parent.iterdir()) == ["x=0.json", "x=1.json"]  # no claim left
