"""Registry of every experiment of the book.

Each chapter's package ``bandit_lib.<paper>`` holds an ``experiments`` module (or package, whose
modules are all searched) defining module-level :class:`~bandit_lib.infra.experiment.Experiment`
objects. Adding one there is enough for ``make reproduce``, the freshness test and the book's
reproduction table to see it.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import bandit_lib
from bandit_lib.infra.experiment import Experiment


def experiment_modules(paper: str | None = None) -> list[ModuleType]:
    """The ``experiments`` module of every chapter package (or of ``paper``'s alone: a paper's key
    is its package's name), and the modules inside it if it is a package."""
    modules = []
    for info in pkgutil.iter_modules(bandit_lib.__path__):
        if not info.ispkg or info.name == "infra" or paper not in (None, info.name):
            continue
        try:
            module = importlib.import_module(f"bandit_lib.{info.name}.experiments")
        except ModuleNotFoundError as exc:
            if exc.name != f"bandit_lib.{info.name}.experiments":
                raise
            continue
        modules.append(module)
        if hasattr(module, "__path__"):
            modules += [
                importlib.import_module(f"{module.__name__}.{sub.name}")
                for sub in pkgutil.iter_modules(module.__path__)
            ]
    return modules


def all_experiments(paper: str | None = None) -> list[Experiment]:
    """Every Experiment defined at module level in an experiments module (of ``paper``'s package
    alone if given), sorted by (paper, name)."""
    found: dict[str, Experiment] = {}
    for module in experiment_modules(paper):
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
    # One paper's run imports that chapter's modules only (importing all seven took seconds in each
    # `make reproduce PAPER=...`); an unknown key falls back to all, to name the known ones.
    experiments = all_experiments(None if paper == "all" else paper)
    if paper != "all" and not any(e.paper == paper for e in experiments):
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
