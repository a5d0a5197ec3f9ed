"""Experiments: named units of work whose results are cached in the result store.

An :class:`Experiment` says *what* to compute for a figure or table: a list of units for each
profile (``plan(profile)``), and a module-level ``compute(seed, **params)`` that turns one unit's
parameters into a JSON-serialisable payload. Running it computes only the units whose record is
missing or stale, in parallel, saving each record as soon as it is done; an interrupted run
resumes where it stopped. Runs sharing a store claim each unit before computing it (see
:mod:`bandit_lib.infra.store`), so each unit is computed once. Loading never computes: it refuses
missing or stale records.

Each unit's seed is derived from the experiment's root entropy and the unit's key alone, so the
numbers do not depend on which other units exist, on their order, or on the workers.

The code that runs is the code that is stamped: before computing, the calling process checks
that the code it imported is the code on disk, and every worker (the calling process, a joblib
process or a Dask worker) checks that the code it has loaded has the plan's fingerprint. Either
mismatch refuses the run with :class:`~bandit_lib.infra.fingerprint.StaleCode`, saying to restart
the kernel or the workers (reloading modules in place is not attempted: numba-compiled functions
and objects held by other modules would keep the old code).

An experiment's *grid* is the few parameters its ``plan`` builds the units from (the sizes, the
number of cases and runs...), with their values in each profile (``grid``); :meth:`Experiment.parameters`
lists them. Any of them can be changed for one call: ``ARMS.run(n=(50, 300), cases=3)`` plans
the units of that grid and computes them into *your* store (:func:`~bandit_lib.infra.profiles.user_results_root`:
``$BANDIT_USER_RESULTS``, by default ``~/.cache/bandit_lib/results``), never into the book's
``data/results``, so the book's results never go stale because of it; units the book's store
already holds fresh (the same key, parameters, seed and code) are copied from it rather than
computed again. ``store=`` names another store.

A typical notebook cell::

    res = FIG1.run()            # profile from BANDIT_PROFILE; computes what is missing
    df = res.table()            # one row per payload["rows"] entry, with the unit's params
    mine = ARMS.run(n=(50, 300), cases=3)   # another grid, into the user's store
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from bandit_lib.checks import check_int, check_nonnegative
from bandit_lib.infra import store as store_module
from bandit_lib.infra.environment import environment
from bandit_lib.infra.fingerprint import StaleCode, changed_since_import, code_fingerprint, loaded_fingerprint
from bandit_lib.infra.parallel import run_many
from bandit_lib.infra.profiles import PROFILES, check_profile, current_profile, results_root, user_results_root
from bandit_lib.infra.store import (
    ClaimWaitExpired,
    CorruptResult,
    MissingResult,
    ResultStore,
    StaleResult,
    _write_atomically,
    check_key,
    compute_seconds,
    git_commit,
)
from bandit_lib.seeding import derive, describe

if TYPE_CHECKING:
    import pandas as pd

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Unit:
    """One unit of work: a key (its file name) and the parameters passed to ``compute``."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_key("unit key", self.key)


@dataclass(frozen=True)
class Figure:
    """A figure or table of the book drawn from an experiment (for the reproduction page)."""

    label: str
    caption: str


def _compute_unit(
    compute: Callable[..., Any], seed: np.random.SeedSequence, params: Mapping[str, Any], code: str
) -> tuple[Any, float, dict[str, Any], float]:
    """Compute one unit in a worker, after checking that the worker runs the plan's code; return
    the payload, the wall seconds it took, the worker's environment and the CPU seconds it took.

    The CPU seconds are the worker process's (every unit runs with BLAS at one thread), which a
    loaded machine stretches far less than wall seconds: they are what the store's cost is read from."""
    loaded = loaded_fingerprint(compute.__module__, compute.__name__)
    if loaded != code:
        raise StaleCode(
            f"worker process {os.getpid()} has loaded code with fingerprint {loaded} for {compute.__module__}, "
            f"but the run was planned with {code}: the worker started before the code changed. Restart the "
            "workers (Dask: restart the cluster or `client.restart()`; joblib: start a new Python process) "
            "and run again."
        )
    start, cpu_start = time.perf_counter(), time.process_time()
    payload = compute(seed=seed, **params)
    return payload, time.perf_counter() - start, environment(), time.process_time() - cpu_start


#: How often a run waiting for units that another run is computing looks again (seconds).
POLL_SECONDS = 1.0


@dataclass(frozen=True)
class RunReport:
    """What one :meth:`Experiment.update` did: the units it computed, the units another run sharing
    the store computed meanwhile, and (``wait=False``) the units another run is still computing."""

    computed: tuple[str, ...] = ()
    elsewhere: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()

    def __add__(self, other: RunReport) -> RunReport:
        return RunReport(self.computed + other.computed, self.elsewhere + other.elsewhere, other.waiting)


class _Run:
    """The rounds of one :meth:`Experiment.update`: hand out the pending units whose claim this run
    gets, save each result as it comes and release its claim; a round returns the units another
    run holds."""

    def __init__(self, exp, store, fingerprint, commit, recompute, since, jobs, scheduler, progress):
        self.exp, self.store, self.fingerprint, self.commit = exp, store, fingerprint, commit
        self.recompute, self.since = recompute, since
        self.jobs, self.scheduler, self.progress = jobs, scheduler, progress
        self.code = fingerprint.rsplit(".v", 1)[0]
        self.computed: list[str] = []
        self.elsewhere: list[str] = []

    def round(self, pending: list[Unit], claims) -> list[Unit]:
        exp, taken, held = self.exp, [], []

        def tasks():
            # Runs where the backend takes its next task (joblib: one of its threads), just before
            # a worker is free for it: the claim is taken as late as possible.
            for unit in pending:
                if not claims.take(unit.key):
                    held.append(unit)
                    continue
                state, _ = exp._state(self.store, unit, self.fingerprint, self.recompute, self.since)
                if state == "done":  # another run finished it between our look and our claim
                    claims.release(unit.key)
                    self.elsewhere.append(unit.key)
                    continue
                if state == "corrupt":
                    moved = self.store.quarantine(self.store.path(exp.paper, exp.name, unit.key))
                    if moved is not None:
                        log.warning("%s/%s: moved the corrupt record to %s", exp.id, unit.key, moved)
                taken.append(unit)
                yield {"compute": exp.compute, "seed": exp.seed(unit), "params": dict(unit.params), "code": self.code}

        def save(index: int, result: tuple[Any, float, dict[str, Any], float]) -> None:
            unit = taken[index]
            payload, elapsed, env, cpu = result
            self.store.write(
                exp.paper,
                exp.name,
                unit.key,
                params=unit.params,
                seed=describe(exp.seed(unit)),
                fingerprint=self.fingerprint,
                payload=payload,
                elapsed=elapsed,
                cpu=cpu,
                commit=self.commit,
                environment=env,
            )
            claims.release(unit.key)
            self.computed.append(unit.key)

        run_many(
            _compute_unit,
            tasks(),
            total=len(pending),
            jobs=self.jobs,
            scheduler=self.scheduler,
            desc=exp.id,
            progress=self.progress,
            on_result=save,
        )
        return held


#: Keywords of :meth:`Experiment.run`, ``load`` and ``status``: no grid parameter may be named so.
_RESERVED = frozenset({"profile", "jobs", "scheduler", "store", "progress", "recompute", "wait", "keys", "since"})


def _check_change(exp_id: str, name: str, value: Any, default: Any) -> None:
    """A changed grid value must have the shape of its default (a sequence for a sequence, a whole
    number for a whole number...): a plan fed another shape would fail far from the cause."""
    shapes = ((bool, (bool,)), (int, (int,)), (float, (int, float)), (str, (str,)), ((tuple, list), (tuple, list)))
    for kind, accepted in shapes:
        if isinstance(default, kind):
            wrong = not isinstance(value, accepted) or (kind is not bool and isinstance(value, bool))
            if wrong:
                raise ValueError(
                    f"{exp_id}: the grid parameter {name} must be {'a sequence' if kind == (tuple, list) else 'a ' + type(default).__name__} "
                    f"like its default {default!r}; got {name}={value!r}"
                )
            return


@dataclass(frozen=True)
class Experiment:
    """See the module docstring. ``chapter`` is the notebook (e.g. ``notebooks/zhuang17``).

    ``grid`` gives, for each profile, the values of the parameters ``plan`` takes
    (``plan(**grid[profile])``); an experiment without one has ``plan(profile)`` and no parameters."""

    paper: str
    name: str
    title: str
    compute: Callable[..., Any]
    plan: Callable[..., list[Unit]]
    entropy: int
    chapter: str
    figures: tuple[Figure, ...] = ()
    version: int = 1
    grid: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_key("paper", self.paper)
        check_key("experiment name", self.name)
        check_int("entropy", self.entropy, minimum=0)
        if "<locals>" in self.compute.__qualname__ or self.compute.__name__ == "<lambda>":
            raise ValueError(
                f"compute must be a module-level function (workers import it); got {self.compute.__qualname__!r}"
            )
        if self.grid:
            if set(self.grid) != set(PROFILES):
                raise ValueError(f"{self.id}: grid must give every profile {PROFILES}; got {sorted(self.grid)}")
            names = {profile: set(values) for profile, values in self.grid.items()}
            if len({frozenset(n) for n in names.values()}) != 1:
                raise ValueError(f"{self.id}: every profile's grid must name the same parameters; got {names}")
            bad = sorted(n for n in names[PROFILES[0]] if n in _RESERVED or not n.isidentifier())
            if bad:
                raise ValueError(f"{self.id}: grid parameters may not be named {bad} (keywords of run)")

    @property
    def id(self) -> str:
        return f"{self.paper}/{self.name}"

    def parameters(self, profile: str | None = None) -> dict[str, Any]:
        """The grid's parameters and their values in ``profile``: what ``run(name=value, ...)``
        may change (empty for an experiment without a grid)."""
        profile = check_profile(profile or current_profile())
        return dict(self.grid.get(profile, {}))

    def with_grid(self, profile: str | None = None, **changes: Any) -> Experiment:
        """This experiment with the grid parameters ``changes`` set in ``profile`` (the same
        name, seeds and code: a unit it shares with the original is the same computation)."""
        if not changes:
            return self
        profile = check_profile(profile or current_profile())
        known = self.parameters(profile)
        unknown = sorted(set(changes) - set(known))
        if unknown:
            raise ValueError(
                f"{self.id} has no grid parameter {', '.join(unknown)}; its parameters are "
                f"{', '.join(f'{k}={v!r}' for k, v in known.items()) or 'none'} (profile {profile})"
            )
        for name, value in changes.items():
            _check_change(self.id, name, value, known[name])
        return replace(self, grid={**self.grid, profile: {**known, **changes}})

    def units(self, profile: str | None = None, **changes: Any) -> list[Unit]:
        """The units of ``profile``'s grid (with ``changes`` to it; see :meth:`with_grid`)."""
        profile = check_profile(profile or current_profile())
        exp = self.with_grid(profile, **changes)
        units = exp.plan(**exp.grid[profile]) if exp.grid else exp.plan(profile)
        keys = [u.key for u in units]
        if len(set(keys)) != len(keys):
            dup = next(k for k in keys if keys.count(k) > 1)
            raise ValueError(f"{self.id}: unit keys must be unique; {dup!r} appears twice")
        return units

    def fingerprint(self) -> str:
        """The digest of the code ``compute`` needs (not of its whole module: another experiment's
        code or grid beside it is not part of it; :mod:`~bandit_lib.infra.fingerprint`), and the
        experiment's version."""
        return f"{code_fingerprint(self.compute.__module__, self.compute.__name__)}.v{self.version}"

    def seed(self, unit: Unit) -> np.random.SeedSequence:
        return derive(self.entropy, self.paper, self.name, unit.key)

    def store(self, profile: str | None = None) -> ResultStore:
        return ResultStore(results_root(profile))

    def user_store(self, profile: str | None = None) -> ResultStore:
        """The store of runs with a changed grid (:func:`~bandit_lib.infra.profiles.user_results_root`)."""
        return ResultStore(user_results_root(profile))

    def reuse(self, profile: str | None = None, *, store: ResultStore, source: ResultStore | None = None) -> int:
        """Copy into ``store`` the fresh records of ``source`` (default: the profile's own store,
        ``data/results`` at paper scale) for units that ``store`` lacks or holds stale: a record
        is the same computation wherever it is kept. Returns how many were copied."""
        profile = check_profile(profile or current_profile())
        source = source or self.store(profile)
        if Path(source.root).resolve() == Path(store.root).resolve():
            return 0
        fingerprint, copied = self.fingerprint(), 0
        for unit in self.units(profile):
            seed = describe(self.seed(unit))
            try:
                mine = store.read(self.paper, self.name, unit.key)
                theirs = (
                    None
                    if mine and not mine.stale_reason(params=unit.params, seed=seed, fingerprint=fingerprint)
                    else source.read(self.paper, self.name, unit.key)
                )
            except CorruptResult:
                continue  # a corrupt record of the user's is quarantined by the run; one of the source is not copied
            if theirs is not None and not theirs.stale_reason(params=unit.params, seed=seed, fingerprint=fingerprint):
                _write_atomically(store.path(self.paper, self.name, unit.key), theirs.data)
                copied += 1
        if copied:
            log.info("%s: %d record(s) copied from %s (the same units, fresh)", self.id, copied, source.root)
        return copied

    def status(self, profile: str | None = None, store: ResultStore | None = None, **changes: Any) -> dict[str, Any]:
        """Unit keys grouped as ``fresh``, ``stale``, ``missing`` and ``corrupt``, under ``why``
        the reason of each stale or corrupt one, and under ``made_in`` the environment each fresh
        record was computed in (None if it predates recorded environments). Never raises on a bad
        record. With grid ``changes``, of that grid in the user's store (or ``store``)."""
        if changes:
            profile = check_profile(profile or current_profile())
            return self.with_grid(profile, **changes).status(profile, store or self.user_store(profile))
        store = store or self.store(profile)
        fingerprint = self.fingerprint()
        out: dict[str, Any] = {"fresh": [], "stale": [], "missing": [], "corrupt": [], "why": {}, "made_in": {}}
        for unit in self.units(profile):
            try:
                record = store.read(self.paper, self.name, unit.key)
            except CorruptResult as exc:
                out["corrupt"].append(unit.key)
                out["why"][unit.key] = f"{exc.path}: {exc.reason}"
                continue
            reason = record and record.stale_reason(
                params=unit.params, seed=describe(self.seed(unit)), fingerprint=fingerprint
            )
            if record is None:
                out["missing"].append(unit.key)
            elif reason:
                out["stale"].append(unit.key)
                out["why"][unit.key] = reason
            else:
                out["fresh"].append(unit.key)
                out["made_in"][unit.key] = record.data.get("environment")
        return out

    def check_code(self) -> None:
        """Raise :class:`~bandit_lib.infra.fingerprint.StaleCode` if this process imported code of the experiment that has
        changed on disk since (results would be computed with the old code and stamped as new)."""
        changed = changed_since_import(self.compute.__module__, self.compute.__name__)
        if changed:
            raise StaleCode(
                f"{self.id}: {', '.join(changed)} changed on disk after this Python process imported "
                f"{'it' if len(changed) == 1 else 'them'}, so it would compute with the old code. Restart the "
                "kernel (Jupyter: Kernel > Restart) or the Python process, and run again."
            )

    def _state(
        self, store: ResultStore, unit: Unit, fingerprint: str, recompute: bool, since: float
    ) -> tuple[str, str | None]:
        """A unit's record as a run sees it: ``done`` (fresh; with ``recompute``, also written after
        ``since``), ``missing``, ``stale``, ``corrupt`` or ``recompute``, and why."""
        try:
            record = store.read(self.paper, self.name, unit.key)
        except CorruptResult as exc:
            return "corrupt", str(exc)
        if record is None:
            return "missing", None
        reason = record.stale_reason(params=unit.params, seed=describe(self.seed(unit)), fingerprint=fingerprint)
        if reason:
            return "stale", reason
        if recompute:
            try:
                if record.path.stat().st_mtime < since:
                    return "recompute", "recompute requested"
            except OSError:
                return "missing", None
        return "done", None

    def update(
        self,
        profile: str | None = None,
        *,
        jobs: int = 1,
        scheduler: str | None = None,
        store: ResultStore | None = None,
        progress: bool | None = None,
        recompute: bool = False,
        wait: bool = True,
        keys: Iterable[str] | None = None,
        since: float | None = None,
        wait_limit: float | None = None,
    ) -> RunReport:
        """Compute the units whose record is missing, stale or corrupt (all of them if
        ``recompute``) and save each record as soon as it is done; a corrupt record is moved to the
        store's quarantine folder first.

        Each unit is computed under a claim (:class:`~bandit_lib.infra.store.UnitClaims`), taken
        just before a worker starts it, so that runs sharing the store compute each unit once: a
        unit another run is computing is left to it, and at the end this run waits until it is
        done (or taken over, if that run stopped), or, with ``wait=False``, returns it under
        ``waiting``. ``keys`` limits the units looked at (the ``waiting`` of an earlier call: those
        found done count as computed elsewhere); with ``recompute``, a record written after the
        time ``since`` (seconds since the epoch; default now) counts as recomputed.

        A claim counts only while its holder is provably alive (:func:`~bandit_lib.infra.store.read_claim`):
        an unreadable, incomplete or dead run's claim is taken over at once. The wait for live
        holders says what it waits for (unit, holder, age, claim file) and how to break it, and
        ends with :class:`~bandit_lib.infra.store.ClaimWaitExpired` after ``wait_limit`` seconds
        (default :data:`~bandit_lib.infra.store.WAIT_LIMIT_SECONDS`) in which none of the units
        waited for was finished."""
        started = time.time()
        since = started if since is None else since
        profile = check_profile(profile or current_profile())
        store = store or self.store(profile)
        fingerprint = self.fingerprint()
        units = self.units(profile)
        if keys is not None:
            wanted = set(keys)
            units = [u for u in units if u.key in wanted]
        todo, corrupt, finished = [], False, []
        for unit in units:
            state, why = self._state(store, unit, fingerprint, recompute, since)
            if state == "done":
                finished.append(unit.key)
                continue
            if state == "corrupt":
                corrupt = True
                log.warning(
                    "%s/%s: %s; moving it to the quarantine folder and computing it again", self.id, unit.key, why
                )
            elif state == "stale" and not recompute:
                log.warning("%s/%s: refusing the stale result and recomputing it (%s)", self.id, unit.key, why)
            todo.append(unit)
        # leftovers of writes killed between writing and renaming, whether or not there is work; a
        # minute's grace for another process that is writing right now
        try:
            store.remove_stray_temporaries(self.paper, self.name, before=started - 60)
            # and the claims that killed runs left on finished units, which no run would take over
            with store.claims(self.paper, self.name) as claims:
                claims.sweep(finished)
        except OSError:
            pass  # a read-only store: nothing to tidy, and nothing to compute may follow
        # the units a caller names in ``keys`` were being computed by another run: those done now are its work
        elsewhere = tuple(finished) if keys is not None else ()
        if not todo:
            return RunReport(elsewhere=elsewhere)
        self.check_code()
        store.check_writable(self.paper, self.name)
        if corrupt:
            store.quarantine_folder(self.paper, self.name)  # usable, before anything is computed
        commit = git_commit()
        if commit is None or commit.endswith("+dirty"):
            log.warning(
                "%s: the code in bandit_lib/ is not committed (%s), so the records are stamped %s: commit the "
                "code and run `python tools/restamp.py --commits` to give them a commit a reader can check out",
                self.id,
                "no git checkout" if commit is None else "uncommitted changes",
                commit,
            )
        run = _Run(self, store, fingerprint, commit, recompute, since, jobs, scheduler, progress)
        limit = store_module.WAIT_LIMIT_SECONDS if wait_limit is None else check_nonnegative("wait_limit", wait_limit)
        with store.claims(self.paper, self.name) as claims:
            pending, held, announced = todo, [], set()
            progress_at = time.monotonic()
            while True:
                if pending:
                    held += run.round(pending, claims)
                if not held or not wait:
                    break
                pending, still, holders = [], [], []
                for unit in held:
                    holder = claims.holder(unit.key)
                    if holder is None:
                        pending.append(unit)  # released (done, or given up) or stale: look again
                    else:
                        still.append(unit)
                        holders.append(holder)
                if pending:
                    progress_at = time.monotonic()
                held = still
                for holder in holders:
                    if holder.identity not in announced:
                        announced.add(holder.identity)
                        log.warning(  # a warning, so that a notebook shows why it waits
                            "%s: waiting for %s (alive: %s); if that run stops, this run takes the unit over, "
                            "and it gives up after %.0f s without progress; %s",
                            self.id,
                            holder.describe(),
                            holder.alive,
                            limit,
                            holder.how_to_break(),
                        )
                if holders and time.monotonic() - progress_at > limit:
                    raise ClaimWaitExpired(
                        f"{self.id}: waited {time.monotonic() - progress_at:.0f} s (the limit) for {len(holders)} "
                        "unit(s) that another run holds and that none of them finished meanwhile: "
                        + "; ".join(f"{h.describe()} (alive: {h.alive}); {h.how_to_break()}" for h in holders)
                    )
                if not pending:
                    time.sleep(POLL_SECONDS)
        return RunReport(tuple(run.computed), elsewhere + tuple(run.elsewhere), tuple(u.key for u in held))

    def run(
        self,
        profile: str | None = None,
        *,
        jobs: int = 1,
        scheduler: str | None = None,
        store: ResultStore | None = None,
        progress: bool | None = None,
        recompute: bool = False,
        **changes: Any,
    ) -> Results:
        """Compute the units that are missing, stale or corrupt (all of them if ``recompute``;
        :meth:`update`, waiting for units another run is computing), then load all.

        ``changes`` set grid parameters (:meth:`parameters`) for this run, e.g.
        ``ARMS.run(n=(50, 300), cases=3)``: its results go to the user's store
        (:meth:`user_store`; or ``store``), never to the book's, after copying from the
        profile's own store the fresh records of the units the two grids share (:meth:`reuse`)."""
        profile = check_profile(profile or current_profile())
        if changes:
            exp = self.with_grid(profile, **changes)
            store = store or self.user_store(profile)
            if not recompute:
                exp.reuse(profile, store=store)
            return exp.run(profile, jobs=jobs, scheduler=scheduler, store=store, progress=progress, recompute=recompute)
        store = store or self.store(profile)
        report = self.update(
            profile, jobs=jobs, scheduler=scheduler, store=store, progress=progress, recompute=recompute
        )
        return replace(self.load(profile, store=store), report=report)

    def load(self, profile: str | None = None, *, store: ResultStore | None = None, **changes: Any) -> Results:
        """All units' payloads; raises MissingResult, StaleResult or CorruptResult (naming the
        file) instead of computing. With grid ``changes``, that grid's from the user's store (or
        ``store``), as :meth:`run` with them left it."""
        profile = check_profile(profile or current_profile())
        if changes:
            return self.with_grid(profile, **changes).load(profile, store=store or self.user_store(profile))
        store = store or self.store(profile)
        fingerprint = self.fingerprint()
        entries, paths = [], []
        for unit in self.units(profile):
            record = store.read(self.paper, self.name, unit.key)
            if record is None:
                raise MissingResult(
                    f"{self.id}: no result for unit {unit.key!r} in {store.root} "
                    f"(run `make reproduce PAPER={self.paper} EXPERIMENT={self.name}`)"
                )
            reason = record.stale_reason(params=unit.params, seed=describe(self.seed(unit)), fingerprint=fingerprint)
            if reason:
                raise StaleResult(f"{self.id}: the result {record.path} is stale: {reason}")
            entries.append((unit, record.data))
            paths.append(record.path)
        return Results(self, profile, entries, paths)


@dataclass(frozen=True)
class Results:
    """The loaded records of an experiment, in unit order."""

    experiment: Experiment
    profile: str
    entries: list[tuple[Unit, dict[str, Any]]]
    paths: list[Path] = field(default_factory=list)
    report: RunReport = field(default_factory=RunReport)  # what the run that loaded them computed

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[tuple[Unit, Any]]:
        return ((unit, data["payload"]) for unit, data in self.entries)

    def payload(self, key: str) -> Any:
        for unit, data in self.entries:
            if unit.key == key:
                return data["payload"]
        raise KeyError(f"{self.experiment.id} has no unit {key!r}")

    def table(self, rows: str = "rows") -> pd.DataFrame:
        """Concatenate ``payload[rows]`` (a list of dicts) over units, with each unit's parameters."""
        import pandas as pd  # here, not at the top: workers and the reproduce command never draw tables

        frames = []
        for i, (unit, data) in enumerate(self.entries):
            records = data["payload"].get(rows) if isinstance(data["payload"], dict) else None
            if not isinstance(records, list):
                where = self.paths[i] if i < len(self.paths) else f"{self.experiment.id}/{unit.key}"
                raise ValueError(
                    f"the result {where} has no list {rows!r} in its payload; got {type(records).__name__}"
                )
            frame = pd.DataFrame.from_records(records)
            for name, value in unit.params.items():
                if name not in frame.columns and not isinstance(value, (list, dict)):
                    frame[name] = value
            frame["unit"] = unit.key
            frames.append(frame)
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    @property
    def elapsed_seconds(self) -> float:
        """The wall seconds of the records (a loaded machine stretches them; see compute_seconds)."""
        return float(sum(data.get("elapsed_seconds", 0.0) for _, data in self.entries))

    @property
    def compute_seconds(self) -> float:
        """What the records say the units cost: CPU seconds where a record has them, else wall
        seconds (:func:`bandit_lib.infra.store.compute_seconds`)."""
        return float(sum(compute_seconds(data) for _, data in self.entries))

    def provenance(self) -> Provenance:
        """Code versions and dates of the records (for a figure's caption or a table): a dict that
        prints as a sentence."""
        commits = sorted({str(d.get("code", {}).get("git")) for _, d in self.entries})
        created = sorted(d.get("created", "") for _, d in self.entries)
        return Provenance(
            {
                "experiment": self.experiment.id,
                "profile": self.profile,
                "units": len(self.entries),
                "fingerprint": self.experiment.fingerprint(),
                "commits": commits,
                "created": (created[0], created[-1]) if created else None,
                "compute_seconds": round(self.compute_seconds, 1),
            }
        )


class Provenance(dict):
    """Where a table's numbers come from (:meth:`Results.provenance`), printed as a sentence."""

    def __str__(self) -> str:
        created = self.get("created")
        when = ""
        if created:
            first, last = (c[:10] for c in created)
            when = f", computed {first}" + (f" to {last}" if last != first else "")
        commits = [c.split("+")[0][:10] + ("+dirty" if c.endswith("+dirty") else "") for c in self.get("commits", [])]
        code = f" by commit {commits[0]}" if len(commits) == 1 else f" by {len(commits)} commits" if commits else ""
        seconds = float(self.get("compute_seconds", 0.0))
        cost = f"{seconds / 60:.1f} CPU min" if seconds >= 90 else f"{seconds:.0f} CPU s"
        return (
            f"{self['experiment']}: {self['units']} units of the {self['profile']} profile{when}{code} "
            f"(code fingerprint {str(self['fingerprint'])[:12]}), {cost} of compute"
        )

    __repr__ = __str__
