"""The "Rerun this chapter" box at the top of every chapter, generated from the experiment registry.

The box is short (the chapter's first screen belongs to its answer): what the page was built from,
the two commands that rerun it (quickly, ``make chapter``; at paper scale, ``make reproduce``,
with what the cached results cost), and the one-line call that reruns one experiment with
parameters of the reader's own (into the reader's store, never the book's). Folded beneath: every
experiment's parameters in both profiles, its result folder and records, and the interactive route
(``make lab``). Everything in it comes from the registry and the records, so it cannot drift from
what the chapter runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from bandit_lib.infra.profiles import committed_results_root, current_profile, repo_root
from bandit_lib.infra.registry import select
from bandit_lib.infra.store import CorruptResult, ResultStore, compute_seconds

#: Marks the box in the built HTML (``tools/check_book.py`` looks for it on every chapter page).
MARKER = "rerun-this-chapter"


@dataclass(frozen=True)
class ChapterCost:
    """What the chapter's cached paper-scale results hold."""

    experiments: tuple[tuple[str, int], ...]  # (experiment name, records)
    compute_seconds: float
    records: int


def chapter_cost(paper: str) -> ChapterCost:
    """The paper-scale records of a chapter in ``data/results`` and their total compute time."""
    store = ResultStore(committed_results_root())
    experiments, seconds, records = [], 0.0, 0
    for exp in select(paper):
        units = exp.units("full")
        found = 0
        for unit in units:
            try:
                record = store.read(exp.paper, exp.name, unit.key)
            except CorruptResult:
                continue
            if record is not None:
                found += 1
                seconds += compute_seconds(record.data)
        experiments.append((exp.name, found))
        records += found
    return ChapterCost(tuple(experiments), seconds, records)


def _duration(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


def _short(value, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _bound_name(exp) -> str:
    """The name an experiment is bound to in its module (``ARMS``), for an import line."""
    for name, value in vars(_module_of(exp)).items():
        if value is exp:
            return name
    raise LookupError(f"{exp.id} is not bound at the top level of its module")


def _module_of(exp):
    import importlib

    from bandit_lib.infra.registry import experiment_modules

    for module in experiment_modules(exp.paper):
        if any(value is exp for value in vars(module).values()):
            return module
    return importlib.import_module(exp.compute.__module__)


def example_call(paper: str) -> str:
    """A one-line rerun of one of the chapter's experiments with parameters spelled out: the
    shortest call naming an experiment's single-valued parameters (their quick-profile values, a
    call of seconds to a minute; the dropdown lists every parameter)."""
    calls = []
    for exp in select(paper):
        params = exp.parameters("quick")
        scalars = {k: v for k, v in params.items() if isinstance(v, (int, float, str))} or params
        if not scalars:
            continue
        name = _bound_name(exp)
        args = ", ".join(f"{k}={v!r}" for k, v in scalars.items())
        calls.append(f"from {_module_of(exp).__name__} import {name}; {name}.run({args})")
    return min(calls, key=len)


def rerun_markdown(paper: str, *, jobs: int = 2) -> str:
    """The box as MyST Markdown (an admonition, its details folded in a dropdown)."""
    cost = chapter_cost(paper)
    profile = current_profile()
    built = (
        f"paper scale, from {cost.records} cached records"
        if profile == "full"
        else "small instances computed on the spot (the book itself is at paper scale)"
    )
    store = committed_results_root().relative_to(repo_root())
    rows = []
    for exp, (name, found) in zip(select(paper), cost.experiments):
        quick, full = exp.parameters("quick"), exp.parameters("full")
        grid = "<br>".join(
            f"`{k}`: `{_short(quick[k])}`" + ("" if quick[k] == full[k] else f" / `{_short(full[k])}`") for k in full
        )
        rows.append(f"| `{_bound_name(exp)}` | {grid or '(none)'} | `{store}/{paper}/{name}/` ({found}) |")
    table = "\n".join(rows)
    return f"""
::::{{admonition}} Rerun this chapter
:class: tip {MARKER}

Built with the **{profile}** profile: {built}. Rerun: `make chapter CHAPTER={paper}` (quick, under a
minute) or `make reproduce PAPER={paper}` (paper scale, about {_duration(cost.compute_seconds / jobs)} on
{jobs} cores). Your own parameters, into your store (never the book's): `{example_call(paper)}`.

:::{{admonition}} Parameters, result files and commands
:class: dropdown

Each experiment's `run` takes its parameters by name (values: quick profile / paper scale, where
they differ); results with changed parameters go to `$BANDIT_USER_RESULTS` (default
`~/.cache/bandit_lib/results`), and the units the book already holds are copied from it.

| experiment | parameters | paper-scale records |
|---|---|---|
{table}

- **Quick**: `make chapter CHAPTER={paper}` writes the executed notebook and its HTML page under
  `build/chapters/quick/`; `PROFILE=full` draws the book's cached records instead.
- **Paper scale**: `make reproduce PAPER={paper}` computes what is missing or stale; recomputing
  everything (`--recompute`) took {_duration(cost.compute_seconds)} of compute in the cached records
  (about {_duration(cost.compute_seconds / jobs)} of wall time on {jobs} cores).
- **Interactive**: `make lab`, then open `notebooks/{paper}.md` (it opens as a notebook).
:::
::::
"""


def rerun_box(paper: str, *, jobs: int = 2):
    """The box for a notebook cell (``IPython.display.Markdown``)."""
    from IPython.display import Markdown

    return Markdown(rerun_markdown(paper, jobs=jobs))
