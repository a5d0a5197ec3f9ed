"""Registry of every experiment of the book: one module per paper (``foundations``,
``zhuang17``, ``ade20``, ``gold20``, ``uig``, ``grapl20``), each defining module-level
:class:`~bandit_lib.experiment.Experiment` objects. Adding a module here is enough for
``make reproduce``, the freshness test and the book's reproduction table to see it.
"""

from __future__ import annotations

import importlib
import pkgutil

from bandit_lib.experiment import Experiment


def all_experiments() -> list[Experiment]:
    """Every Experiment defined at module level in this package, sorted by (paper, name)."""
    found: dict[str, Experiment] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, Experiment):
                if value.id in found and found[value.id] is not value:
                    raise ValueError(f"two experiments are registered as {value.id!r}")
                found[value.id] = value
    return sorted(found.values(), key=lambda e: (e.paper, e.name))


def papers() -> list[str]:
    return sorted({e.paper for e in all_experiments()})


def select(paper: str = "all", name: str | None = None) -> list[Experiment]:
    """Experiments of one paper (or all), optionally one by name; errors name the bad key."""
    experiments = all_experiments()
    if paper != "all":
        known = sorted({e.paper for e in experiments})
        if paper not in known:
            raise ValueError(f"unknown paper {paper!r}; known papers: {known}")
        experiments = [e for e in experiments if e.paper == paper]
    if name is not None:
        names = [e.name for e in experiments]
        if name not in names:
            raise ValueError(f"unknown experiment {name!r} for paper {paper!r}; known: {names}")
        experiments = [e for e in experiments if e.name == name]
    return experiments
