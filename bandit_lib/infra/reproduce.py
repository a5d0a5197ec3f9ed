"""``python -m bandit_lib.reproduce``: compute the cached results at paper scale.

``make reproduce [PAPER=<key>] [EXPERIMENT=<name>] [JOBS=n] [SCHEDULER=tcp://host:port]`` calls it.
Only missing, stale or corrupt records are computed (``--recompute`` forces all); a corrupt record
is moved to the store's ``.quarantine`` folder first. Stop it at any time (Ctrl-C or SIGTERM: the
workers are shut down and every finished unit is kept) and run it again to resume. ``--check``
(``make check``) only reports the state of the store: every experiment, corrupt files with their
reasons, stray temporary files, the environments the fresh records were made in, then the total
and one overall verdict (exit status 1 unless every unit is fresh). ``--pending`` (``make book``
runs it first) says in one message what would be computed, and how long the records predict it takes.

The profile is ``--profile`` if given, else ``BANDIT_PROFILE``, else ``full``.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time

from bandit_lib.infra.fingerprint import StaleCode
from bandit_lib.infra.parallel import interrupt_on_sigterm
from bandit_lib.infra.profiles import PROFILES, current_profile
from bandit_lib.infra.registry import select
from bandit_lib.infra.store import ResultError, StoreNotWritable, compute_seconds


def _check(experiments, profile: str) -> int:
    """One line per experiment, stray temporary files, the environments the fresh records were made
    in, then the total over all experiments and one overall verdict; 1 if any unit is not fresh (or
    an experiment cannot be checked), else 0."""
    from collections import Counter

    from bandit_lib.infra.environment import describe_difference, environment

    here = environment()
    total = {k: 0 for k in ("fresh", "stale", "missing", "corrupt")}
    unchecked, to_rerun = [], []
    elsewhere: Counter = Counter()
    for exp in experiments:
        try:
            status = exp.status(profile)
        except Exception as exc:  # a broken plan must not hide the other experiments' state
            print(f"{exp.id:40s} cannot be checked: {exc}")
            unchecked.append(exp.id)
            continue
        counts = {k: len(status[k]) for k in total}
        for k, v in counts.items():
            total[k] += v
        if counts["stale"] + counts["missing"] + counts["corrupt"]:
            to_rerun.append(exp)
        print(
            f"{exp.id:40s} fresh {counts['fresh']:4d}  stale {counts['stale']:4d}  "
            f"missing {counts['missing']:4d}  corrupt {counts['corrupt']:4d}"
        )
        for key in status["corrupt"]:
            print(f"    corrupt: {status['why'][key]}")
        for env in status["made_in"].values():
            difference = describe_difference(env, here)
            if difference:
                elsewhere[difference] += 1
    blocked = _obstructions(experiments, profile)
    for where in blocked:
        print(f"    cannot read records: {where}")
    strays = experiments[0].store(profile).stray_temporaries() if experiments else []
    for path in strays:
        print(f"    stray temporary file (an unfinished write; the next `reproduce` removes it): {path}")
    for claim in experiments[0].store(profile).all_claims() if experiments else []:
        if claim.stale:
            print(
                f"    stale claim (a run that stopped: {claim.stale}; the next `reproduce` takes it over): {claim.path}"
            )
        else:
            print(
                f"    being computed now by another run: {claim.describe()} (alive: {claim.alive}); {claim.how_to_break()}"
            )
    print(
        f"environment of the fresh records: {total['fresh'] - sum(elsewhere.values())} made in this one "
        f"(Python {here['python']}, numpy {here['packages']['numpy']}, scipy {here['packages']['scipy']}, "
        f"numba {here['packages']['numba']}, {here['cpu']})"
    )
    for difference, n in elsewhere.most_common():
        where = "made before records named their environment" if difference == "not recorded" else "made elsewhere"
        note = ""
        if "unpinned kernels" in difference:
            # a reader who was told that results are computed with pinned kernels deserves the why
            note = (
                " (computed before the kernels were pinned; units recomputed under the pin gave identical "
                "payloads: data/README.md)"
            )
        print(f"    {n:5d} {where}{'' if difference == 'not recorded' else ': ' + difference}{note}")
    units = sum(total.values())
    print(
        f"{'total: ' + str(len(experiments)) + ' experiments':40s} fresh {total['fresh']:4d}  stale {total['stale']:4d}  "
        f"missing {total['missing']:4d}  corrupt {total['corrupt']:4d}  ({units} units, profile {profile})"
        + (f", {len(strays)} stray temporary files" if strays else "")
    )
    if not to_rerun and not unchecked:
        book = ", and `make book` computes nothing" if profile == "full" else ""
        print(f"verdict: OK, all {units} units are fresh: the results match the code{book}")
        return 0
    papers = sorted({exp.paper for exp in to_rerun})
    bad = units - total["fresh"]
    verdict = f"verdict: NOT OK, {bad} of {units} units are stale, missing or corrupt"
    if unchecked:
        verdict += f" and {len(unchecked)} experiment(s) cannot be checked ({', '.join(unchecked)})"
    if blocked:
        verdict += f"; {blocked[0]}" + (f" (and {len(blocked) - 1} more such obstacles)" if len(blocked) > 1 else "")
    if papers:
        command = (
            "make reproduce PAPER={}"
            if profile == "full"
            else f"python -m bandit_lib.reproduce --profile {profile} --paper {{}}"
        )
        verdict += "; recompute them with " + " and ".join(f"`{command.format(p)}`" for p in papers)
    print(verdict)
    return 1


def _obstructions(experiments, profile: str) -> list[str]:
    """What stands where the store's folders should be (a file in place of the root or of an
    experiment's folder), in words, once each."""
    store = experiments[0].store(profile) if experiments else None
    found = []
    for exp in experiments:
        why = store.obstruction(exp.paper, exp.name)
        if why and why not in found:
            found.append(why)
    return found


def _live_claims(experiments, profile: str) -> list:
    """The live claims on the units of ``experiments`` (another run is computing them now)."""
    if not experiments:
        return []
    ids = {exp.id for exp in experiments}
    return [c for c in experiments[0].store(profile).all_claims() if not c.stale and c.experiment in ids]


def check(paper: str = "all", profile: str = "full") -> int:
    """What ``make check`` prints (``--check``), for ``paper`` (a key or "all"): one line per
    experiment, the environments of the records, the total and a verdict; 0 if everything is fresh."""
    return _check(select(paper), profile)


def _pending(experiments, profile: str) -> int:
    """Before a book build: if any unit is missing, stale or corrupt, print one message (how many,
    in which experiments, the compute time their records predict, the command to run) and return
    3; else 0."""
    units, seconds, unknown, where = 0, 0.0, 0, []
    for exp in experiments:
        status = exp.status(profile)
        todo = status["stale"] + status["missing"] + status["corrupt"]
        if not todo:
            continue
        units += len(todo)
        where.append(
            f"{exp.id}: " + ", ".join(f"{len(status[k])} {k}" for k in ("missing", "stale", "corrupt") if status[k])
        )
        store = exp.store(profile)
        known = {}
        for unit in exp.units(profile):
            try:
                record = store.read(exp.paper, exp.name, unit.key)
            except ResultError:  # a corrupt record predicts nothing
                continue
            if record is not None and ("cpu_seconds" in record.data or "elapsed_seconds" in record.data):
                known[unit.key] = compute_seconds(record.data)
        typical = sum(known.values()) / len(known) if known else None
        for key in todo:
            if key in known:
                seconds += known[key]
            elif typical is not None:
                seconds += typical
            else:
                unknown += 1
    if not units:
        return 0
    if unknown == units:
        guess = "no record says how long they take"
    else:
        if seconds >= 90:
            minutes = f"about {seconds / 60:.0f} core-minutes"
        else:
            minutes = f"about {seconds:.0f} core-seconds" if seconds >= 1 else "under a core-second"
        guess = f"{minutes} by the records" + (f" (and {unknown} units with no record to go by)" if unknown else "")
    named = "; ".join(where[:12]) + (f"; and {len(where) - 12} more experiments" if len(where) > 12 else "")
    live = _live_claims(experiments, profile)
    claimed = ""
    if live:
        shown = "; ".join(f"{c.describe()} (alive: {c.alive})" for c in live[:6])
        more = f"; and {len(live) - 6} more" if len(live) > 6 else ""
        claimed = (
            f" {len(live)} of them are being computed now by another run ({shown}{more}): wait for it to finish "
            f"(`make reproduce` waits for it, then computes the rest), or {live[0].how_to_break()}."
        )
    print(
        f"make book stopped before running any notebook: {units} result units are missing or stale ({named}), "
        f"{guess}.{claimed} The notebooks would compute them without showing progress. Run `make reproduce` first (it "
        "shows progress and can be interrupted and resumed), or `make book BOOK_COMPUTE=1` to run it and then "
        "the book.",
        file=sys.stderr,
    )
    return 3


def _report_line(exp, profile: str, report, wall: float) -> None:
    """One line per experiment: its units, the wall time, the compute time its records hold, and
    how many units this run computed (and another run sharing the store, if any)."""
    results = exp.load(profile)
    shared = f", {len(report.elsewhere)} by another run" if report.elsewhere else ""
    print(
        f"{exp.id:40s} {len(results):4d} units  {wall:8.1f} s wall  ({results.compute_seconds:.1f} s of compute "
        f"in the records; {len(report.computed)} computed here{shared})"
    )


def warn_if_unpinned() -> bool:
    """Warn (and return True) when this process computes with kernels other than the pinned ones
    (an OpenBLAS or numpy that ignored the pin, or a run of ``main`` from a process that loaded
    numpy first): its records may then differ in their last bits from another machine's."""
    from bandit_lib.infra.kernels import checked

    current, pinned = checked()
    if pinned:
        return False
    logging.getLogger(__name__).warning(
        "the numerical kernels are not pinned in this process (%s): the results it computes may differ in "
        "their last bits from another machine's (bandit_lib/infra/kernels.py)",
        current,
    )
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bandit_lib.reproduce", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--paper", default="all", help="paper key (e.g. zhuang17) or 'all'")
    parser.add_argument("--experiment", default=None, help="one experiment of the paper")
    parser.add_argument("--profile", default=None, choices=PROFILES, help="default: BANDIT_PROFILE, else full")
    parser.add_argument("--jobs", type=int, default=2, help="local worker processes")
    parser.add_argument("--scheduler", default=None, help="address of a Dask scheduler (overrides --jobs)")
    parser.add_argument("--recompute", action="store_true", help="recompute fresh records too")
    parser.add_argument("--check", action="store_true", help="report fresh/stale/missing/corrupt units and exit")
    parser.add_argument(
        "--pending", action="store_true", help="exit 3 with one message if any unit would be computed (make book)"
    )
    parser.add_argument(
        "--wait-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="give up waiting for units another live run computes after this long without progress "
        "(default: bandit_lib.infra.store.WAIT_LIMIT_SECONDS)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        profile = args.profile or current_profile()
        experiments = select(args.paper, args.experiment)
    except ValueError as exc:
        parser.error(str(exc))
    if args.wait_limit is not None and not 0 <= args.wait_limit < float("inf"):
        parser.error(f"--wait-limit must be a finite number of seconds >= 0; got {args.wait_limit!r}")
    if args.check:
        return _check(experiments, profile)
    if args.pending:
        return _pending(experiments, profile)

    warn_if_unpinned()
    total = time.perf_counter()
    begun = time.time()
    done = 0
    try:
        with interrupt_on_sigterm():
            if experiments:
                experiments[0].store(profile).check_writable()
            # First pass: every experiment, leaving the units another run (sharing the store) is
            # computing to it; second pass: wait for those, or take them over if that run stopped.
            later = []
            for exp in experiments:
                start = time.perf_counter()
                report = exp.update(
                    profile, jobs=args.jobs, scheduler=args.scheduler, recompute=args.recompute, wait=False, since=begun
                )
                if report.waiting:
                    print(
                        f"{exp.id:40s} {len(report.waiting):4d} units are being computed by another run: "
                        "coming back to them at the end"
                    )
                    later.append((exp, report, time.perf_counter() - start))
                    continue
                _report_line(exp, profile, report, time.perf_counter() - start)
                done += 1
            for exp, first, wall in later:
                start = time.perf_counter()
                report = first + exp.update(
                    profile,
                    jobs=args.jobs,
                    scheduler=args.scheduler,
                    recompute=args.recompute,
                    keys=first.waiting,
                    since=begun,
                    wait_limit=args.wait_limit,
                )
                _report_line(exp, profile, report, wall + time.perf_counter() - start)
                done += 1
    except KeyboardInterrupt as exc:
        print(
            f"\ninterrupted ({str(exc) or 'Ctrl-C'}) after {time.perf_counter() - total:.0f} s: {done} of "
            f"{len(experiments)} experiments complete; every unit that finished is saved in "
            f"{experiments[0].store(profile).root}. Run the same command again to resume.",
            file=sys.stderr,
        )
        return 130
    except (StaleCode, StoreNotWritable, ResultError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"total {time.perf_counter() - total:.1f} s")
    return 0
