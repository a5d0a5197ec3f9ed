"""The "Rerun this chapter" box at the top of every chapter, generated from the experiment registry.

The box says how the page was built and how a reader reruns the chapter three ways: quickly
(small instances, under a minute), at paper scale (``make reproduce PAPER=<key>``, with the time
the cached results took to compute), and interactively (``make lab``). It lists the result files
the chapter's figures are drawn from. Everything in it comes from the registry and the records,
so it cannot drift from what the chapter runs.
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


def rerun_markdown(paper: str, *, jobs: int = 2) -> str:
    """The box as MyST Markdown (an admonition)."""
    cost = chapter_cost(paper)
    profile = current_profile()
    built = (
        "paper scale, drawn from the cached results listed below"
        if profile == "full"
        else "the quick profile (small instances computed on the spot; the book itself uses paper scale)"
    )
    notebook = f"notebooks/{paper}.md"
    files = ", ".join(f"`data/results/{paper}/{name}/` ({n} files)" for name, n in cost.experiments)
    return f"""
:::{{admonition}} Rerun this chapter
:class: tip {MARKER}

This page was built with the **{profile}** profile: {built}.

- **Quick** (small instances, under a minute): `make chapter CHAPTER={paper}`.
- **Paper scale**: `make reproduce PAPER={paper}` computes what is missing or stale; recomputing
  everything (`--recompute`) took {_duration(cost.compute_seconds)} of compute in the cached
  records, so about {_duration(cost.compute_seconds / jobs)} of wall time on {jobs} cores (an estimate:
  the compute divided by the {jobs} workers).
- **Interactive**: `make lab`, then open `{notebook}` (it opens as a notebook; change a
  parameter and run the cells).

Figures and tables come from {files} (in `{committed_results_root().relative_to(repo_root())}`).
:::
"""


def rerun_box(paper: str, *, jobs: int = 2):
    """The box for a notebook cell (``IPython.display.Markdown``)."""
    from IPython.display import Markdown

    return Markdown(rerun_markdown(paper, jobs=jobs))
