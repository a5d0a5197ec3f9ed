"""The result store: one JSON record per unit of work, under ``<root>/<paper>/<experiment>/``.

A record holds the unit's parameters, its seed, the code fingerprint and version that produced
it, when and how long it took, and the payload (the numbers a figure is drawn from). Writes are
atomic (a temporary file renamed into place), so an interrupted run leaves either the whole
record or nothing. Reading checks the record against what the code would compute now: a record
whose parameters, seed or code fingerprint differ is *stale* and is never returned as valid.

A record also carries the sha256 of its canonical payload. A record that cannot be read, lacks a
field, has another format or whose payload does not match its hash (a hand-edited number, a
truncated file) is *corrupt*: reading it raises :class:`CorruptResult` naming the file and why,
and ``reproduce`` moves it to ``<root>/.quarantine/`` and computes the unit again.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bandit_lib import __version__
from bandit_lib.infra.profiles import repo_root

FORMAT = 2  # 2: records carry payload_sha256
QUARANTINE = ".quarantine"
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


class StoreNotWritable(ResultError):
    """The result store's folder cannot be created or written."""


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
    """Write ``data`` as one JSON line to ``path`` through a temporary file renamed into place."""
    text = json.dumps(data, cls=_Encoder, sort_keys=True, separators=(",", ":"))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(text + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; results are meant to be shared
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
        if not isinstance(data, dict):
            raise CorruptResult(path, f"must hold a JSON object; got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise CorruptResult(path, f"has format {data.get('format')!r}; this code reads format {FORMAT}")
        missing = [k for k in REQUIRED if k not in data]
        if missing:
            raise CorruptResult(path, f"lacks the field(s) {missing}")
        if payload_digest(data["payload"]) != data["payload_sha256"]:
            raise CorruptResult(path, "its payload does not match payload_sha256 (edited or damaged)")
        return data

    def quarantine(self, path: Path) -> Path:
        """Move a corrupt record out of the way, to ``<root>/.quarantine/<paper>/<experiment>/``
        with a time stamp, and return where it went."""
        path = Path(path)
        rel = path.relative_to(self.root)
        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        target = self.root / QUARANTINE / rel.parent / f"{rel.stem}.{stamp}{rel.suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
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
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(dir=folder, prefix=".write-probe.", suffix=".tmp")
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            raise StoreNotWritable(
                f"cannot write results to {folder} ({exc.strerror or exc}); set BANDIT_RESULTS to a "
                "writable folder or fix the permissions"
            ) from exc
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
        commit: str | None = None,
        environment: dict[str, Any] | None = None,
    ) -> Record:
        """Write a record atomically (temporary file, then rename). ``environment`` is where the
        payload was computed (:func:`bandit_lib.infra.environment.environment` of the worker;
        this process's when not given)."""
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
