"""The two profiles and where results live.

``BANDIT_PROFILE`` chooses the profile (documented in the README and the book):

* ``full`` (default): paper scale. Notebooks read cached results from ``data/results/`` and
  compute only what is missing or stale (``make reproduce`` computes everything ahead of time).
* ``quick``: small instances, each notebook in under a minute; used by ``make test`` (nbval) and
  CI. Its results go to a scratch store (``.cache/results-quick/``), never to ``data/``.

``BANDIT_RESULTS`` overrides the result root for either profile (tests point it at a temporary
directory). A run with a changed grid (``ARMS.run(n=(50, 300))``) writes to the user's store,
``$BANDIT_USER_RESULTS/<profile>`` (default ``~/.cache/bandit_lib/results/<profile>``, or under
``$XDG_CACHE_HOME``): never to ``data/results``. ``BANDIT_PROGRESS=0`` turns progress bars off (the book build and the tests do).

Real data sets live in ``data/raw/<name>/`` (HCB is committed there; ``make data`` fetches
polblogs there), or in ``BANDIT_DATA/<name>/`` when that variable names a folder: see
:func:`find_data`. Which copy was read never changes a number: each data set's loader checks the
content against the content the code pins (and refuses any other).
"""

from __future__ import annotations

import os
from pathlib import Path

from bandit_lib.checks import check_choice

PROFILES = ("quick", "full")
PROFILE_ENV = "BANDIT_PROFILE"
RESULTS_ENV = "BANDIT_RESULTS"
USER_RESULTS_ENV = "BANDIT_USER_RESULTS"
PROGRESS_ENV = "BANDIT_PROGRESS"
DATA_ENV = "BANDIT_DATA"


def repo_root() -> Path:
    """The repository holding this package (``bandit_lib`` is installed in editable mode)."""
    return Path(__file__).resolve().parents[2]


def check_profile(profile: str) -> str:
    return check_choice("profile", profile, PROFILES)


def current_profile() -> str:
    """The profile named by ``BANDIT_PROFILE`` (``full`` when unset)."""
    value = os.environ.get(PROFILE_ENV, "full").strip()
    if value not in PROFILES:
        raise ValueError(f"{PROFILE_ENV} must be one of {PROFILES}; got {PROFILE_ENV}={value!r}")
    return value


def committed_results_root() -> Path:
    """``data/results``: the paper-scale results the book is drawn from."""
    return repo_root() / "data" / "results"


def results_root(profile: str | None = None) -> Path:
    """Root of the result store for ``profile`` (honours ``BANDIT_RESULTS``)."""
    profile = check_profile(profile or current_profile())
    override = os.environ.get(RESULTS_ENV)
    if override:
        return Path(override).expanduser().resolve() / profile
    if profile == "full":
        return committed_results_root()
    return repo_root() / ".cache" / "results-quick"


def user_results_root(profile: str | None = None) -> Path:
    """Root of the user's store for ``profile``, where runs with a changed grid go:
    ``$BANDIT_USER_RESULTS/<profile>``, by default ``<cache>/bandit_lib/results/<profile>`` with
    ``<cache>`` ``$XDG_CACHE_HOME`` or ``~/.cache``. Never the book's ``data/results``."""
    profile = check_profile(profile or current_profile())
    configured = os.environ.get(USER_RESULTS_ENV)
    if configured:
        root = Path(configured).expanduser().resolve()
    else:
        cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        root = Path(cache).expanduser().resolve() / "bandit_lib" / "results"
    if root == committed_results_root() or committed_results_root() in root.parents:
        raise ValueError(
            f"{USER_RESULTS_ENV} must not point into the book's store; got {USER_RESULTS_ENV}={configured!r}"
        )
    return root / profile


def progress_enabled() -> bool:
    """False when ``BANDIT_PROGRESS=0``."""
    return os.environ.get(PROGRESS_ENV, "1").strip() not in {"0", "false", "no", "off"}


def data_dirs() -> list[Path]:
    """Where real data sets are looked for, in order: ``$BANDIT_DATA`` (if set), ``data/raw``."""
    dirs = []
    override = os.environ.get(DATA_ENV)
    if override:
        dirs.append(Path(override).expanduser().resolve())
    dirs.append(repo_root() / "data" / "raw")
    return dirs


def find_data(name: str, *files: str) -> Path | None:
    """The folder ``<dir>/<name>`` of the first data directory (see :func:`data_dirs`) that holds
    every one of ``files``, or None when no copy is there."""
    for folder in data_dirs():
        candidate = folder / name
        if all((candidate / f).is_file() for f in files):
            return candidate
    return None
