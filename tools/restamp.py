"""Restamp cached results after a change of the fingerprint *algorithm*, or once their code is
committed, recomputing nothing.

    python tools/restamp.py --from REV            # dry run: what would be restamped, and why not
    python tools/restamp.py --from REV --apply    # rewrite the fingerprints
    python tools/restamp.py --commits [--apply]   # give "+dirty" records the commit of their code

``--commits``: a record computed from uncommitted code is stamped ``<commit>+dirty``, which a reader
cannot check out. Once the code is committed (bandit_lib/ clean at HEAD), every fresh record (its
fingerprint is the fingerprint of HEAD's code, which proves the code is HEAD's) whose stamp is
``+dirty`` or missing gets HEAD's commit; the old stamp is kept under ``restamped``.

A record may carry the fingerprint of the current code without being recomputed only if the code
that computed it is the current code. For each registered experiment this script proves that in
two steps, and restamps nothing that fails either:

1. *The record was fresh at REV.* REV's own code (a ``git archive`` export of REV, imported in a
   subprocess) gives each experiment's fingerprint, import closure, unit parameters and seeds.
   The record must carry exactly that fingerprint, and the parameters and seed that both REV's
   and the current plan give the unit.
2. *The code the current fingerprint covers is unchanged.* The current fingerprint algorithm
   (this checkout's ``bandit_lib/infra/fingerprint.py``, loaded alone in REV's subprocess) gives
   REV's code and the current code the same fingerprint: since a digest is a hash of the code it
   covers, that code is identical (comments and docstrings are all that may differ in it; code it
   does not cover, such as another experiment's grid, may differ). And it covers no module that
   REV's fingerprint did not: the current algorithm's import closure at REV is inside REV's own.

Then the record's payload, parameters, seed, commit and timings are kept, its ``fingerprint``
becomes the current one, and a ``restamped`` entry says from which fingerprint and REV.
Use it when the fingerprint is computed differently (as when it became a Merkle digest, and when
it came to cover an experiment's ``compute`` alone rather than its whole module), never to bless
a change of code: a code change is proved only by recomputing (``make reproduce``).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Runs inside REV's tree: REV's registry and fingerprint, whichever layout REV has.
_PROBE = r"""
import importlib.util, json, sys
from bandit_lib.infra.registry import all_experiments
from bandit_lib.infra.fingerprint import import_closure
from bandit_lib.infra.store import normalise
from bandit_lib.seeding import describe
# the current fingerprint algorithm (argv[1]), run over REV's code
spec = importlib.util.spec_from_file_location("_current_fingerprint", sys.argv[1])
current = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = current
spec.loader.exec_module(current)
out = {}
for e in all_experiments():
    module, name = e.compute.__module__, e.compute.__name__
    closure = {m: str(p) for m, p in import_closure(module).items()}
    out[e.id] = {
        "fingerprint": e.fingerprint(),
        "closure": closure,
        "current": f"{current.code_fingerprint(module, name)}.v{e.version}",
        "current_closure": sorted(current.import_closure(module, name)),
        "units": {u.key: {"params": normalise(u.params), "seed": normalise(describe(e.seed(u)))} for u in e.units("full")},
    }
json.dump(out, sys.stdout)
"""


def _code(path: Path) -> str:
    from bandit_lib.infra.fingerprint import _strip_docstrings

    return ast.dump(_strip_docstrings(ast.parse(path.read_text(), filename=str(path))))


def probe(rev: str, workdir: Path) -> tuple[str, dict]:
    """REV's full commit and what REV's code says of every experiment."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    archive = workdir / "rev.tar"
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), commit, "bandit_lib"], cwd=ROOT, check=True)
    tree = workdir / "tree"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    env = {**os.environ, "PYTHONPATH": str(tree), "BANDIT_PROGRESS": "0", "PYTHONDONTWRITEBYTECODE": "1"}
    current = ROOT / "bandit_lib" / "infra" / "fingerprint.py"
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(current)], cwd=tree, env=env, check=True, capture_output=True, text=True
    )
    return commit, json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="rev", help="the commit whose fingerprints the records carry")
    parser.add_argument("--commits", action="store_true", help="stamp fresh '+dirty' records with HEAD's commit")
    parser.add_argument("--apply", action="store_true", help="rewrite the records (default: dry run)")
    parser.add_argument("--results", type=Path, default=None, help="result root (default: data/results)")
    args = parser.parse_args(argv)
    if bool(args.rev) == args.commits:
        parser.error("give exactly one of --from REV and --commits")
    if args.commits:
        return stamp_commits(args.results, args.apply)

    from bandit_lib.infra.fingerprint import import_closure
    from bandit_lib.infra.profiles import committed_results_root
    from bandit_lib.infra.registry import all_experiments
    from bandit_lib.infra.store import ResultStore, normalise
    from bandit_lib.seeding import describe

    store = ResultStore(args.results or committed_results_root())
    with tempfile.TemporaryDirectory() as tmp:
        commit, old = probe(args.rev, Path(tmp))
        counts = {"restamped": 0, "already current": 0, "refused": 0}
        for exp in all_experiments():
            then = old.get(exp.id)
            if then is None:
                print(f"{exp.id}: not registered at {args.rev}; nothing to restamp")
                continue
            fingerprint = exp.fingerprint()
            changed = []
            if then["current"] != fingerprint:
                now_closure = import_closure(exp.compute.__module__, exp.compute.__name__)
                changed = sorted(set(now_closure) ^ set(then["current_closure"])) or [
                    m
                    for m in sorted(now_closure)
                    if m in then["closure"] and _code(now_closure[m]) != _code(Path(then["closure"][m]))
                ]
                changed = changed or ["the code the fingerprint covers"]
            wider = sorted(set(then["current_closure"]) - set(then["closure"]))
            for unit in exp.units("full"):
                record = store.read(exp.paper, exp.name, unit.key)
                expected = {"params": normalise(unit.params), "seed": normalise(describe(exp.seed(unit)))}
                why = None
                if record is None:
                    why = "no record"
                elif record.data["fingerprint"] == fingerprint:
                    counts["already current"] += 1
                    continue
                elif changed:
                    why = f"code changed since {args.rev} in {changed[:4]}"
                elif wider:
                    why = f"the current fingerprint covers modules that {args.rev}'s did not: {wider[:4]}"
                elif then["units"].get(unit.key) != expected:
                    why = f"the unit's parameters or seed at {args.rev} differ from the current plan"
                elif record.data["fingerprint"] != then["fingerprint"]:
                    why = f"not fresh at {args.rev} (carries {record.data['fingerprint']}, {args.rev} computes {then['fingerprint']})"
                elif record.stale_reason(
                    params=unit.params, seed=describe(exp.seed(unit)), fingerprint=record.data["fingerprint"]
                ):
                    why = "the record's parameters or seed differ from the plan"
                if why:
                    counts["refused"] += 1
                    print(f"{exp.id}/{unit.key}: refused: {why}")
                    continue
                counts["restamped"] += 1
                if args.apply:
                    store.restamp(
                        record,
                        fingerprint=fingerprint,
                        note={"from_commit": commit, "why": "fingerprint algorithm changed; code identical"},
                    )
        verb = "restamped" if args.apply else "would restamp"
        print(
            f"{verb} {counts['restamped']}, already current {counts['already current']}, refused {counts['refused']}"
            f" (from {commit[:12]})"
        )
        return 1 if counts["refused"] else 0


def stamp_commits(results: Path | None, apply: bool) -> int:
    """See ``--commits`` in the module docstring; returns 1 when the code is not committed."""
    from bandit_lib.infra.profiles import committed_results_root
    from bandit_lib.infra.registry import all_experiments
    from bandit_lib.infra.store import CorruptResult, ResultStore, git_commit
    from bandit_lib.seeding import describe

    head = git_commit()
    if head is None or head.endswith("+dirty"):
        print(f"refused: bandit_lib/ has uncommitted changes (HEAD {head}); commit the code first")
        return 1
    store = ResultStore(results or committed_results_root())
    counts = {"stamped": 0, "already clean": 0, "not fresh": 0}
    for exp in all_experiments():
        fingerprint = exp.fingerprint()
        for unit in exp.units("full"):
            try:
                record = store.read(exp.paper, exp.name, unit.key)
            except CorruptResult:
                record = None
            if record is None or record.stale_reason(
                params=unit.params, seed=describe(exp.seed(unit)), fingerprint=fingerprint
            ):
                counts["not fresh"] += 1
                continue
            stamp = (record.data.get("code") or {}).get("git")
            if stamp and not stamp.endswith("+dirty"):
                counts["already clean"] += 1
                continue
            counts["stamped"] += 1
            if apply:
                store.stamp_commit(record, commit=head)
    verb = "stamped" if apply else "would stamp"
    print(
        f"{verb} {counts['stamped']} with {head[:12]}, already clean {counts['already clean']}, "
        f"not fresh (left alone) {counts['not fresh']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
