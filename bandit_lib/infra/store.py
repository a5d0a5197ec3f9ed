"""The result store: one JSON record per unit of work, under ``<root>/<paper>/<experiment>/``.

A record holds the unit's parameters, its seed, the code fingerprint and version that produced
it, when and how long it took, and the payload (the numbers a figure is drawn from). Writes are
atomic (a temporary file renamed into place), so an interrupted run leaves either the whole
record or nothing. Reading checks the record against what the code would compute now: a record
whose parameters, seed or code fingerprint differ is *stale* and is never returned as valid.

A record also carries the sha256 of its canonical payload. A record that cannot be read, lacks a
field, has another format or whose payload does not match its hash (a hand-edited number, a
truncated file) is *corrupt*: reading it raises :class:`CorruptResult` naming the file and why,
and ``reproduce`` moves it to ``<root>/.quarantine/`` and computes the unit again. The fields
outside the hash are checked too (their types: a hand-edited ``elapsed_seconds`` or ``environment``
makes the record corrupt, not a crash later), and a record nested too deep to parse is corrupt.

Several runs may share one store (two ``make reproduce``, a notebook beside them, the machines of
a cluster writing to a shared folder): a run *claims* a unit before computing it
(:class:`UnitClaims`, a file ``.<unit>.claim`` beside the records, written whole under a
temporary name and then linked into place), so that each unit is computed once; the others wait
for it or take another unit. A claim names its owner (process, its start time, host) and is
refreshed every :data:`HEARTBEAT_SECONDS`. It is valid only while its holder is provably alive:
on the holder's host, its process with the same start time is running; from another host, the
claim was refreshed within :data:`STALE_AFTER_SECONDS`. Any other claim is *stale* and the next
run takes it over at once: a killed run's, an empty or unreadable one, one that lacks a field.
No wait is without an end: a run waits for a live run's units at most
:data:`WAIT_LIMIT_SECONDS` without progress, then stops with :class:`ClaimWaitExpired` naming
each claim and how to break it. Claims only save work: records are written atomically and a
unit's payload is determined by its seed, so the rare duplicate computation a race could cause
changes no number.

Every failure to write (a full disk, a file-size limit, a quota, a file where a folder should be)
raises :class:`StoreNotWritable` naming the file, and leaves the records already written intact.
"""

from __future__ import annotations

import datetime as _dt
import errno
import hashlib
import json
import logging
import math
import os
import re
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bandit_lib import __version__
from bandit_lib.infra.profiles import repo_root

log = logging.getLogger(__name__)

FORMAT = 2  # 2: records carry payload_sha256
QUARANTINE = ".quarantine"
CLAIM = ".claim"  # a claim is the file .<unit>.claim in the experiment's folder
#: How often a run refreshes the claims it holds (their modification time).
HEARTBEAT_SECONDS = 30.0
#: A claim from another host (or from this one, where the system does not say when a process
#: started) not refreshed for this long belongs to a run that stopped. Twenty missed heartbeats:
#: a unit computed in the claiming process itself (one worker) can hold the interpreter for a
#: minute or two (a numba kernel), and so delay its heartbeat.
STALE_AFTER_SECONDS = 600.0
#: How long a run waits for the units another live run holds, from the moment it starts waiting
#: or last saw one of them finished, before it gives up with :class:`ClaimWaitExpired` (no unit
#: of this project takes more than a minute of CPU).
WAIT_LIMIT_SECONDS = 1800.0
#: The writability probe writes this many bytes and wants this much free space: a store that
#: cannot take a file of the size of a large record fails before any unit is computed.
PROBE_BYTES = 64 * 1024
MIN_FREE_BYTES = 1024 * 1024
_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._=,+-]*$")


class ResultError(RuntimeError):
    """Base class of the store's errors."""


class MissingResult(ResultError):
    """A unit has no record in the store."""


class StaleResult(ResultError):
    """A record exists but no longer matches its configuration or the code."""


class CorruptResult(ResultError):
    """A record cannot be trusted: unreadable, not JSON, missing fields, another format, or a
    payload that does not match its hash. ``path`` is the file and ``reason`` says why."""

    def __init__(self, path: Path, reason: str):
        super().__init__(f"result file {path} is corrupt: {reason}")
        self.path, self.reason = Path(path), reason


MalformedResult = CorruptResult  # the name earlier code used


class ClaimWaitExpired(ResultError):
    """A run waited :data:`WAIT_LIMIT_SECONDS` for units that another live run holds, and gave up.
    The message names each claim (unit, holder, age, file) and how to break it."""


class StoreNotWritable(ResultError):
    """The result store's folder cannot be created or written: permissions, a full disk, a
    file-size limit, a file where a folder should be. The message names the file or folder."""


def _why(exc: OSError, path: Path | None = None) -> str:
    """An OSError met on ``path`` in words, with the advice its cause calls for."""
    reason = exc.strerror or str(exc)
    if exc.errno in (errno.ENOTDIR, errno.EEXIST) and path is not None:
        blocker = _blocker(path)
        if blocker is not None:
            return f"{reason}: {blocker}"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"{reason}: the disk or quota holding it is full; free some space"
    if exc.errno == errno.EFBIG:
        return f"{reason}: a limit on file sizes (ulimit -f) forbids the file; raise it"
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        return f"{reason}: a file stands where a folder should be; move it away"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"{reason}: fix the permissions or set BANDIT_RESULTS to a writable folder"
    return reason


def _blocker(path: Path) -> str | None:
    """What stands where ``path`` or one of its parents should be a folder, in words (a file, a
    dangling symbolic link, a special file), or None."""
    for p in reversed((path, *path.parents)):
        if p.is_dir() or not os.path.lexists(p):
            continue
        if p.is_symlink() and not p.exists():
            return f"{p} is a dangling symbolic link (to {os.readlink(p)!r}) where a folder should be; remove it"
        kind = "a file" if p.is_file() else "a special file"
        return f"{p} is {kind} where a folder should be; move it away"
    return None


def check_key(name: str, key: str) -> str:
    if not isinstance(key, str) or not _KEY.match(key) or len(key) > 150:
        raise ValueError(
            f"{name} must be 1-150 characters of letters, digits and . _ = , + - (starting with a "
            f"letter or digit); got {name}={key!r}"
        )
    return key


class _Encoder(json.JSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, np.ndarray):
            return o.tolist()
        if isinstance(o, np.integer):
            return int(o)
        if isinstance(o, np.floating):
            return float(o)
        if isinstance(o, np.bool_):
            return bool(o)
        if isinstance(o, (set, frozenset)):
            return sorted(o)
        return super().default(o)


def normalise(value: Any) -> Any:
    """The JSON round trip of ``value`` (how parameters compare with a stored record)."""
    return json.loads(json.dumps(value, cls=_Encoder, sort_keys=True))


def compute_seconds(data: Mapping[str, Any]) -> float:
    """What a record says its unit cost: the CPU seconds of its worker (``cpu_seconds``, in records
    since 2026-11-28) where it has them, else its wall seconds (``elapsed_seconds``). Wall seconds
    measured on a loaded machine overstate a unit's cost (1.3-3.9x on this project's 2-core
    machines), CPU seconds hardly; 0 where a record has neither."""
    value = data.get("cpu_seconds", data.get("elapsed_seconds", 0.0))
    return float(value)


def payload_digest(payload: Any) -> str:
    """sha256 of the canonical JSON of a payload (sorted keys, no spaces)."""
    text = json.dumps(normalise(payload), sort_keys=True, separators=(",", ":"), allow_nan=True)
    return hashlib.sha256(text.encode()).hexdigest()


#: What a record's commit vouches for: the code of the package. Other files (the results being
#: written, notebooks, the book) do not make a record's code "dirty".
CODE_PATHS = ("bandit_lib",)


def git_commit() -> str | None:
    """The current commit of the repository, with ``+dirty`` when the code (:data:`CODE_PATHS`:
    tracked changes or new files) differs from it; None outside a git checkout."""
    try:
        root = repo_root()
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=normal", "--", *CODE_PATHS],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        return commit + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return None


def _write_atomically(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as one JSON line to ``path`` through a temporary file renamed into place;
    :class:`StoreNotWritable` naming ``path`` if it cannot be written (the file as it was before
    stays, and no temporary file is left)."""
    text = json.dumps(data, cls=_Encoder, sort_keys=True, separators=(",", ":"))
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w") as handle:
            handle.write(text + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; results are meant to be shared
        os.replace(tmp, path)
    except OSError as exc:
        _discard(tmp)
        raise StoreNotWritable(
            f"cannot write the result {path} ({_why(exc, path.parent)}); the records written before are kept, and "
            "running the same command again computes only what is missing"
        ) from exc
    except BaseException:
        _discard(tmp)
        raise


def _discard(tmp: str | None) -> None:
    if tmp is not None:
        try:
            Path(tmp).unlink(missing_ok=True)
        except OSError:
            pass  # the next run removes a stray temporary


def _remove_older(folder: Path, pattern: str, before: float) -> list[Path]:
    """Delete the files of ``folder`` matching ``pattern`` last modified before the time ``before``
    (seconds since the epoch), and return them."""
    removed = []
    for tmp in folder.glob(pattern) if folder.is_dir() else ():
        try:
            if tmp.stat().st_mtime < before:
                tmp.unlink()
                removed.append(tmp)
        except FileNotFoundError:
            pass  # another process finished or removed it
    return removed


def _free_bytes(folder: Path) -> int | None:
    """Bytes an unprivileged process may still write on the file system of ``folder`` (None where
    the system cannot say)."""
    try:
        st = os.statvfs(folder)
    except (AttributeError, OSError):
        return None
    return st.f_bavail * st.f_frsize


@dataclass(frozen=True)
class Record:
    path: Path
    data: dict[str, Any]

    @property
    def payload(self) -> Any:
        return self.data["payload"]

    def stale_reason(self, *, params: Any, seed: Any, fingerprint: str) -> str | None:
        """Why this record does not match the expected identity, or None if it matches."""
        if self.data.get("params") != normalise(params):
            return f"parameters differ (stored {self.data.get('params')!r}, expected {normalise(params)!r})"
        if self.data.get("seed") != normalise(seed):
            return f"seed differs (stored {self.data.get('seed')!r}, expected {normalise(seed)!r})"
        if self.data.get("fingerprint") != fingerprint:
            return f"code changed (stored fingerprint {self.data.get('fingerprint')!r}, current {fingerprint!r})"
        return None


REQUIRED = ("format", "paper", "experiment", "unit", "params", "seed", "fingerprint", "payload", "payload_sha256")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


#: How deep the fields outside the payload may nest (the project's records nest at most 4 deep):
#: deeper ones would make comparing parameters hit Python's recursion limit.
MAX_DEPTH = 64


def _depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (without recursion)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            break
        if isinstance(item, dict):
            todo += [(v, level + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, level + 1) for v in item]
    return deepest


def _bad_fields(data: dict[str, Any]) -> list[str]:
    """What is wrong with the fields the payload hash does not cover (the code that reads a record
    relies on their types: a crash later would hide which file is damaged)."""
    bad = []
    for name in ("params", "seed", "environment", "code", "restamped"):
        if name in data and _depth(data[name]) > MAX_DEPTH:
            bad.append(f"{name} is nested more than {MAX_DEPTH} deep")
    for name in ("paper", "experiment", "unit", "fingerprint", "payload_sha256"):
        if not isinstance(data[name], str):
            bad.append(f"{name} must be a string, got {_short(data[name])}")
    if "created" in data and not isinstance(data["created"], str):
        bad.append(f"created must be a string, got {_short(data['created'])}")
    for name in ("elapsed_seconds", "cpu_seconds"):
        if name in data and not (_is_number(data[name]) and data[name] >= 0):
            bad.append(f"{name} must be a number of seconds >= 0, got {_short(data[name])}")
    code = data.get("code", {})
    if not isinstance(code, dict) or any(not isinstance(v, (str, type(None))) for v in code.values()):
        bad.append(f"code must map names to versions, got {_short(code)}")
    env = data.get("environment")
    if env is not None:
        if not isinstance(env, dict):
            bad.append(f"environment must be an object, got {_short(env)}")
        else:
            if not isinstance(env.get("packages", {}), dict):
                bad.append(f"environment.packages must be an object, got {_short(env['packages'])}")
            if not isinstance(env.get("blas", []), list):
                bad.append(f"environment.blas must be a list, got {_short(env['blas'])}")
    restamped = data.get("restamped", [])
    if not isinstance(restamped, list) or not all(isinstance(r, dict) for r in restamped):
        bad.append(f"restamped must be a list of objects, got {_short(restamped)}")
    return bad


class ResultStore:
    """Records under ``root``; see the module docstring."""

    def __init__(self, root: Path | str):
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"ResultStore({str(self.root)!r})"

    def path(self, paper: str, experiment: str, unit: str) -> Path:
        check_key("paper", paper)
        check_key("experiment", experiment)
        check_key("unit", unit)
        return self.root / paper / experiment / f"{unit}.json"

    def obstruction(self, paper: str, experiment: str) -> str | None:
        """What stands where the store's root or an experiment's folder should be (a file, a
        dangling link), in words, or None: its records cannot be read or written."""
        return _blocker(self.root / check_key("paper", paper) / check_key("experiment", experiment))

    def read(self, paper: str, experiment: str, unit: str) -> Record | None:
        """The record of a unit, or None if there is none; raises :class:`CorruptResult` if it
        cannot be trusted (see the module docstring)."""
        path = self.path(paper, experiment, unit)
        if not os.path.lexists(path):
            return None
        return Record(path, self._load(path))

    @staticmethod
    def _load(path: Path) -> dict[str, Any]:
        if not path.is_file():
            raise CorruptResult(path, "not a regular file" + (" (a directory)" if path.is_dir() else ""))
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise CorruptResult(path, f"cannot be read ({exc.strerror})") from exc
        if not raw.strip():
            raise CorruptResult(path, "empty file")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CorruptResult(path, f"not valid JSON ({exc})") from exc
        except RecursionError as exc:  # [[[[...]]]] 100 000 deep: no record of ours nests so
            raise CorruptResult(path, "nested too deep to be a record") from exc
        # valid JSON first (garbage is "not valid JSON", whatever bytes it holds), then its form
        body = raw[:-1] if raw.endswith(b"\n") else raw
        if body != body.strip() or b"\n" in body:
            # a record is one line of compact JSON (_write_atomically): padding is not ours
            extra = len(body) - len(body.strip()) + body.strip().count(b"\n")
            raise CorruptResult(
                path, f"not one line of JSON as the store writes it ({extra} bytes of padding or line breaks)"
            )
        if not isinstance(data, dict):
            raise CorruptResult(path, f"must hold a JSON object; got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise CorruptResult(path, f"has format {_short(data.get('format'))}; this code reads format {FORMAT}")
        missing = [k for k in REQUIRED if k not in data]
        if missing:
            raise CorruptResult(path, f"lacks the field(s) {missing}")
        bad = _bad_fields(data)
        if bad:
            raise CorruptResult(path, f"has damaged field(s) outside the payload: {'; '.join(bad)}")
        try:
            digest = payload_digest(data["payload"])
        except RecursionError as exc:
            raise CorruptResult(path, "its payload is nested too deep to be a result") from exc
        if digest != data["payload_sha256"]:
            raise CorruptResult(path, "its payload does not match payload_sha256 (edited or damaged)")
        return data

    def quarantine_folder(self, paper: str, experiment: str) -> Path:
        """Create (if need be) and return the quarantine folder of an experiment;
        :class:`StoreNotWritable`, naming it, if it cannot be made (a file where it should be)."""
        folder = self.root / QUARANTINE / check_key("paper", paper) / check_key("experiment", experiment)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreNotWritable(
                f"cannot move corrupt records to the quarantine folder {folder} ({_why(exc, folder)}); nothing was "
                "moved or overwritten"
            ) from exc
        return folder

    def quarantine(self, path: Path) -> Path | None:
        """Move a corrupt record out of the way, to ``<root>/.quarantine/<paper>/<experiment>/``
        under a name of its own (time stamp, process and a random tag: two processes never
        overwrite each other's copy), and return where it went; None if the file is gone already
        (another process moved it first). :class:`StoreNotWritable` naming the file if it cannot
        be moved: then it stays where it was."""
        path = Path(path)
        rel = path.relative_to(self.root)
        folder = self.quarantine_folder(rel.parts[0], rel.parts[1])
        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        target = folder / f"{rel.stem}.{stamp}.{os.getpid()}-{uuid.uuid4().hex[:8]}{rel.suffix}"
        try:
            os.replace(path, target)
        except FileNotFoundError:
            return None  # another process quarantined it between our read and now
        except OSError as exc:
            raise StoreNotWritable(
                f"cannot move the corrupt record {path} to {target} ({_why(exc)}); it stays where it is"
            ) from exc
        return target

    def remove_stray_temporaries(self, paper: str, experiment: str, *, before: float) -> list[Path]:
        """Delete the temporary files of writes that never finished (a process killed between
        writing and renaming) last modified before the time ``before`` (seconds since the epoch)."""
        return _remove_older(
            self.root / check_key("paper", paper) / check_key("experiment", experiment), ".*.tmp", before
        )

    def stray_temporaries(self) -> list[Path]:
        """Temporary files anywhere in the store that an unfinished write or writability probe left."""
        if not self.root.is_dir():
            return []
        found = list(self.root.glob(".write-probe.*.tmp")) + list(self.root.glob("*/*/.*.tmp"))
        return sorted(p for p in found if QUARANTINE not in p.parts)

    def check_writable(self, paper: str | None = None, experiment: str | None = None) -> None:
        """Raise :class:`StoreNotWritable` (naming the folder) unless records can be written here:
        in the store's root, or in one experiment's folder when ``paper`` and ``experiment`` are
        given (a root can be writable and one of its folders not). Probes left by a killed process
        more than a minute ago are removed."""
        folder = (
            self.root if paper is None else self.root / check_key("paper", paper) / check_key("experiment", experiment)
        )
        probe = None
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(dir=folder, prefix=".write-probe.", suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                handle.write(b"\0" * PROBE_BYTES)
                handle.flush()
                os.fsync(handle.fileno())
            os.unlink(probe)
            probe = None
            free = _free_bytes(folder)
        except OSError as exc:
            _discard(probe)
            raise StoreNotWritable(
                f"cannot write results to {folder} ({_why(exc, folder)}); set BANDIT_RESULTS to a "
                "writable folder or fix the cause"
            ) from exc
        if free is not None and free < MIN_FREE_BYTES:
            raise StoreNotWritable(
                f"cannot write results to {folder}: the disk holding it has {free} bytes free (at least "
                f"{MIN_FREE_BYTES // 1024**2} MiB are wanted); free some space or set BANDIT_RESULTS to "
                "a folder on another disk"
            )
        try:
            _remove_older(folder, ".write-probe.*.tmp", time.time() - 60)
        except OSError:
            pass  # another process's probe that cannot be removed: harmless

    def write(
        self,
        paper: str,
        experiment: str,
        unit: str,
        *,
        params: Any,
        seed: Any,
        fingerprint: str,
        payload: Any,
        elapsed: float,
        cpu: float | None = None,
        commit: str | None = None,
        environment: dict[str, Any] | None = None,
    ) -> Record:
        """Write a record atomically (temporary file, then rename). ``elapsed`` and ``cpu`` are the
        wall and CPU seconds the unit took (``cpu_seconds`` is left out when not given);
        ``environment`` is where the payload was computed
        (:func:`bandit_lib.infra.environment.environment` of the worker; this process's when not given)."""
        if environment is None:
            from bandit_lib.infra.environment import environment as current_environment

            environment = current_environment()
        path = self.path(paper, experiment, unit)
        data = {
            "format": FORMAT,
            "paper": paper,
            "experiment": experiment,
            "unit": unit,
            "params": normalise(params),
            "seed": normalise(seed),
            "fingerprint": fingerprint,
            "code": {"bandit_lib": __version__, "git": commit},
            "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "elapsed_seconds": round(float(elapsed), 3),
            **({} if cpu is None else {"cpu_seconds": round(float(cpu), 3)}),
            "environment": normalise(environment),
            "payload": normalise(payload),
            "payload_sha256": payload_digest(payload),
        }
        _write_atomically(path, data)
        return Record(path, data)

    def restamp(self, record: Record, *, fingerprint: str, note: dict[str, Any]) -> Record:
        """Give ``record`` a new code fingerprint, keeping its payload and provenance, and say
        why under ``restamped`` (a list, oldest first). Only ``tools/restamp.py`` calls this,
        after proving that the code which computed the record is the code of ``fingerprint``."""
        data = dict(record.data)
        data["restamped"] = [*data.get("restamped", []), {"from_fingerprint": data["fingerprint"], **note}]
        data["fingerprint"] = fingerprint
        _write_atomically(record.path, data)
        return Record(record.path, data)

    def stamp_commit(self, record: Record, *, commit: str) -> Record:
        """Replace a record's ``+dirty`` (or missing) commit by ``commit``, a clean commit whose
        code has the record's fingerprint, keeping the old stamp under ``restamped``. Only
        ``tools/restamp.py --commits`` calls this, after checking the fingerprint."""
        data = dict(record.data)
        old = (data.get("code") or {}).get("git")
        data["restamped"] = [
            *data.get("restamped", []),
            {"from_commit": old, "why": "code committed; fingerprint unchanged"},
        ]
        data["code"] = {**(data.get("code") or {}), "git": commit}
        _write_atomically(record.path, data)
        return Record(record.path, data)

    def units(self, paper: str, experiment: str) -> list[str]:
        """Keys of the units stored for an experiment."""
        folder = self.root / paper / experiment
        return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []

    # --- claims: several runs on one store (see the module docstring) ---------------------------

    def claim_path(self, paper: str, experiment: str, unit: str) -> Path:
        return self.path(paper, experiment, unit).with_name(f".{unit}{CLAIM}")

    def claims(self, paper: str, experiment: str) -> UnitClaims:
        """A new set of claims of one run on the units of an experiment (a context manager)."""
        return UnitClaims(self, check_key("paper", paper), check_key("experiment", experiment))

    def all_claims(self) -> list[Claim]:
        """Every claim in the store, live or stale (``reproduce --check`` lists them)."""
        if not self.root.is_dir():
            return []
        found = (read_claim(p) for p in sorted(self.root.glob(f"*/*/.*{CLAIM}")) if QUARANTINE not in p.parts)
        return [c for c in found if c is not None]


def _boot_id() -> str | None:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip() or None
    except OSError:
        return None


def _process_start(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, Linux), to tell it from a later process
    that got the same number; None where the system does not say."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    except (OSError, OverflowError, ValueError):
        return False
    return True


def _owner() -> dict[str, Any]:
    return {
        "pid": os.getpid(),
        "pid_start": _process_start(os.getpid()),
        "host": socket.gethostname(),
        "boot": _boot_id(),
    }


#: The fields every claim holds (``pid_start`` and ``boot`` may be null where the system does not say).
CLAIM_FIELDS = {"token": str, "pid": int, "host": str, "since": str}


@dataclass(frozen=True)
class Claim:
    """A claim file as found: its owner (``data``: token, pid, pid_start, host, boot, since; empty
    if the file could not be read), seconds since its owner last refreshed it, why it is stale
    (None while its owner is provably alive) and why its owner counts as alive."""

    path: Path
    data: dict[str, Any]
    age: float
    stale: str | None
    identity: tuple = field(default=(), compare=False)
    alive: str = field(default="", compare=False)

    @property
    def unit(self) -> str:
        """The unit claimed (the file is ``.<unit>.claim``)."""
        return self.path.name[1 : -len(CLAIM)]

    @property
    def experiment(self) -> str:
        """``<paper>/<experiment>`` of the unit."""
        return f"{self.path.parent.parent.name}/{self.path.parent.name}"

    @property
    def owner(self) -> str:
        d = self.data
        if not d:
            return "nobody (the claim file cannot be read)"
        return f"process {d.get('pid')} on host {d.get('host')} (claimed {d.get('since')})"

    def describe(self) -> str:
        """Unit, holder, age and file, in words (what a waiting run and ``reproduce --check`` print)."""
        age = "never refreshed" if math.isinf(self.age) else f"refreshed {self.age:.0f} s ago"
        return f"unit {self.unit} of {self.experiment}, claimed by {self.owner}, {age}: {self.path}"

    def how_to_break(self) -> str:
        """What to do if the holder is in fact gone (or hangs)."""
        d = self.data
        stop = f"stop process {d.get('pid')} on host {d.get('host')}, or " if d else ""
        return f"if that run hangs or is gone, {stop}delete {self.path} and run again"


def read_claim(path: Path) -> Claim | None:
    """The claim at ``path`` and whether it is stale; None if there is none."""
    try:
        st = os.stat(path)
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        st, raw, unreadable = None, b"", f"it cannot be read ({exc.strerror or exc})"
    else:
        unreadable = None
    data: Any = {}
    if unreadable is None:
        try:
            data = json.loads(raw.decode("utf-8")) if raw.strip() else {}
            if not raw.strip():
                unreadable = "it is empty (a run that stopped while creating it)"
        except (ValueError, RecursionError):
            unreadable = f"it is not a claim ({len(raw)} bytes that are not JSON)"
    if not isinstance(data, dict):
        unreadable = unreadable or f"it is not a claim (JSON {type(data).__name__}, not an object)"
        data = {}
    age = max(0.0, time.time() - st.st_mtime) if st is not None else math.inf
    identity = (data.get("token"), st.st_ino if st else None)
    if unreadable is None:
        stale, alive = _stale_reason(data, age)
    else:
        stale, alive = unreadable + ", so no run can be shown to hold it", ""
    return Claim(Path(path), data, age, stale, identity, alive)


def _incomplete(data: dict[str, Any]) -> str | None:
    bad = [
        name
        for name, kind in CLAIM_FIELDS.items()
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool)
    ]
    if bad:
        return f"it is incomplete (no valid {', '.join(bad)})"
    return None


def _stale_reason(data: dict[str, Any], age: float) -> tuple[str | None, str]:
    """(why a claim's owner is gone, or None if it is provably alive; why it counts as alive).

    A claim is valid only while its holder is *provably* alive. On the owner's host the process
    itself is asked: its number and its start time (numbers are reused), so a killed run's claim
    is taken over at once and a live run's claim never, however long its unit takes. A claim
    without the start time, on a host whose system tells start times, was not written by a run of
    this code there: stale at once. From another host (or on a system without start times) only
    the heartbeat can tell: alive while refreshed within :data:`STALE_AFTER_SECONDS`."""
    incomplete = _incomplete(data)
    if incomplete:
        return incomplete + ", so no run can be shown to hold it", ""
    me = _owner()
    pid = data["pid"]
    if data["host"] == me["host"]:
        if data.get("boot") and me["boot"] and data["boot"] != me["boot"]:
            return "its machine has restarted since", ""
        if not _pid_alive(pid):
            return f"its process {pid} is no longer running", ""
        now = _process_start(pid)
        if data.get("pid_start") and now:
            if now != data["pid_start"]:
                return f"its process {pid} ended (the number now belongs to another process)", ""
            return None, f"its process {pid} is running"
        if me["pid_start"] is not None and not data.get("pid_start"):
            return (
                f"it lacks the start time of process {pid}, which every claim made on this host carries, so "
                f"whether process {pid} is its holder cannot be told",
                "",
            )
    if age > STALE_AFTER_SECONDS:
        return (
            f"it has not been refreshed for {age:.0f} s (a live run refreshes it every {HEARTBEAT_SECONDS:.0f} s)",
            "",
        )
    return None, f"it was refreshed {age:.0f} s ago (a claim not refreshed for {STALE_AFTER_SECONDS:.0f} s is stale)"


class UnitClaims:
    """The claims one run holds on the units of one experiment.

    ``take(unit)`` claims a unit atomically (a file linked into place, so it is never seen half
    written; ``O_EXCL`` where links are not supported) and answers whether this run may compute
    it; a stale claim is taken over. A thread refreshes the held claims every
    :data:`HEARTBEAT_SECONDS`. ``release(unit)`` after the record is written; leaving the
    ``with`` block releases whatever is still held (an error, an interrupt), and no claim can be
    taken after that."""

    def __init__(self, store: ResultStore, paper: str, experiment: str):
        self.store, self.paper, self.experiment = store, paper, experiment
        self.token = uuid.uuid4().hex
        self._held: dict[str, Path] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._stop = threading.Event()
        self._beat: threading.Thread | None = None

    def __enter__(self) -> UnitClaims:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def held(self) -> list[str]:
        with self._lock:
            return sorted(self._held)

    def holder(self, unit: str) -> Claim | None:
        """The live claim of another run on ``unit``, or None if it is free (or stale)."""
        claim = read_claim(self.store.claim_path(self.paper, self.experiment, unit))
        if claim is None or claim.stale or claim.data.get("token") == self.token:
            return None
        return claim

    def take(self, unit: str) -> bool:
        """Claim ``unit``; False if another live run holds it. :class:`StoreNotWritable` naming
        the folder if the claim cannot be written."""
        path = self.store.claim_path(self.paper, self.experiment, unit)
        for _ in range(3):
            with self._lock:
                if self._closed:
                    return False
                if unit in self._held:
                    return True
                if self._create(path):
                    self._held[unit] = path
                    self._start_heartbeat()
                    return True
            existing = read_claim(path)
            if existing is None:
                continue  # released between our attempt and our look: try again
            if existing.data.get("token") == self.token:
                return True
            if not existing.stale:
                return False
            self._break(path, existing, unit)
        return False

    def _create(self, path: Path) -> bool:
        """Create the claim file ``path`` whole, or answer False if a claim exists. The claim is
        written to a temporary name first and then linked into place (atomic, fails if a claim
        exists), so no reader ever sees it half written; where the file system has no hard links,
        renamed into place without replacing (Linux's ``renameat2``); only where neither exists is it
        created with ``O_EXCL`` and written at once, and removed again if the write fails (a run
        killed in that instant leaves an empty claim, which is stale at once)."""
        text = json.dumps(
            {**_owner(), "token": self.token, "since": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")}
        ).encode()
        tmp = path.with_name(f"{path.name}.{self.token}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as handle:
                handle.write(text)
            try:
                os.link(tmp, path)  # atomic, fails if a claim exists, never shows a half-written file
                return True
            except FileExistsError:
                return False
            except OSError:
                pass  # a file system without hard links
            moved = _rename_no_replace(tmp, path)
            if moved is not None:
                return moved
            return _create_exclusive(path, text)
        except OSError as exc:
            raise StoreNotWritable(
                f"cannot claim a unit to compute in {path.parent} ({_why(exc, path.parent)})"
            ) from exc
        finally:
            _discard(str(tmp))

    def sweep(self, units: Iterable[str]) -> list[str]:
        """Remove the stale claims on ``units``, units already finished: a run killed between
        saving a record and releasing its claim leaves one, which no later run would take over
        (a stale claim on a unit still to compute is taken over by :meth:`take`). Live claims are
        left alone. Answers the units whose claim was removed."""
        swept = []
        for unit in units:
            path = self.store.claim_path(self.paper, self.experiment, unit)
            claim = read_claim(path)
            if claim is not None and claim.stale and claim.data.get("token") != self.token:
                self._break(path, claim, unit, doing="removing the claim on finished")
                swept.append(unit)
        return swept

    def _break(self, path: Path, stale: Claim, unit: str, doing: str = "taking over") -> None:
        """Remove the stale claim ``stale`` at ``path``: move it aside and check that what moved is
        that claim (another run may have broken it and claimed the unit in between: then its
        fresh claim goes back)."""
        aside = path.with_name(f"{path.name}.{self.token}.stale.tmp")
        try:
            os.replace(path, aside)
        except FileNotFoundError:
            return
        except OSError:
            return  # cannot remove it: take() answers False and the unit waits
        moved = read_claim(aside)
        if moved is not None and moved.identity[0] != stale.identity[0]:
            try:
                os.link(aside, path)
            except OSError:
                pass
        else:
            log.warning(
                "%s/%s: %s unit %s, claimed by %s: %s (%s)",
                self.paper,
                self.experiment,
                doing,
                unit,
                stale.owner,
                stale.stale,
                path,
            )
        _discard(str(aside))

    def release(self, unit: str) -> None:
        """Give up the claim on ``unit`` (kept if another run has taken it over since)."""
        with self._lock:
            path = self._held.pop(unit, None)
        if path is None:
            return
        claim = read_claim(path)
        if claim is not None and claim.data.get("token") == self.token:
            _discard(str(path))

    def close(self) -> None:
        """Release every claim still held; no claim can be taken after this."""
        with self._lock:
            self._closed = True
            units = list(self._held)
        self._stop.set()
        for unit in units:
            self.release(unit)

    def _start_heartbeat(self) -> None:
        if self._beat is None:
            self._beat = threading.Thread(target=self._heartbeat, name="claim-heartbeat", daemon=True)
            self._beat.start()

    def _heartbeat(self) -> None:
        while not self._stop.wait(HEARTBEAT_SECONDS):
            with self._lock:
                paths = list(self._held.values())
            for path in paths:
                try:
                    os.utime(path)
                except OSError:
                    pass  # released meanwhile, or taken over: nothing to refresh


def _rename_no_replace(src: Path, dst: Path) -> bool | None:
    """Rename ``src`` to ``dst`` unless ``dst`` exists (atomically: Linux's ``renameat2`` with
    ``RENAME_NOREPLACE``): True if renamed, False if ``dst`` exists, None where the system or the
    file system does not offer it."""
    rename = _renameat2()
    if rename is None:
        return None
    import ctypes

    if rename(-100, os.fsencode(src), -100, os.fsencode(dst), 1) == 0:  # AT_FDCWD, RENAME_NOREPLACE
        return True
    err = ctypes.get_errno()
    if err == errno.EEXIST:
        return False
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EPERM):
        return None
    raise OSError(err, os.strerror(err), str(dst))


def _renameat2():
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.renameat2
    except (OSError, AttributeError):
        return None


def _create_exclusive(path: Path, text: bytes) -> bool:
    """Create ``path`` with ``O_EXCL`` and write ``text`` at once: False if it exists; if the write
    fails, the file is removed before the error goes on (no empty claim is left)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False
    try:
        view = memoryview(text)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        _discard(str(path))
        raise
    os.close(fd)
    return True
