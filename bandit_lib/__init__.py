"""bandit_lib: the shared engine of the outlier and thresholding bandits book.

Where things live (one rule, the same as the book's, the tests' and the results' folders)
-----------------------------------------------------------------------------------------
* ``bandit_lib/<paper>/`` holds everything a chapter introduces, under role names:
  ``problem`` (the definitions), one module per algorithm (its private fast engine beside it,
  ``_engine``), ``theory`` (bounds, lemma checks, cost models), ``instances`` and the stand-ins
  and real-data loaders, ``experiments`` (what ``make reproduce`` computes) and ``report``
  (tables, figure helpers and scorecard rows of the chapter). The chapters are
  :mod:`bandit_lib.foundations`, :mod:`bandit_lib.zhuang17`, :mod:`bandit_lib.ade20`,
  :mod:`bandit_lib.gold20`, :mod:`bandit_lib.uig`, :mod:`bandit_lib.grapl20` and
  :mod:`bandit_lib.arena` (every detector against the lower bound); each package's
  docstring indexes its modules.
* A later paper imports an earlier paper's baselines from that paper's package (ADE20 and GOLD20
  use :mod:`bandit_lib.zhuang17`'s RR and WRR); never the other way round.
* Paper-agnostic numerics stay at the top level: :mod:`~bandit_lib.tapes` (per-arm reward
  tapes), :mod:`~bandit_lib.seeding`, :mod:`~bandit_lib.special`, :mod:`~bandit_lib.radii`,
  :mod:`~bandit_lib.ksigma` (the k-sigma rule of the Foundations chapter and three papers),
  :mod:`~bandit_lib.metrics`, :mod:`~bandit_lib.checks`, :mod:`~bandit_lib.blas_threads` and the
  runner's data types (:mod:`~bandit_lib.runner`).
* Orchestration and drawing live in :mod:`bandit_lib.infra` (experiments, the result store,
  fingerprints, profiles, the registry, ``reproduce``, plotting). Its code never enters a
  result's fingerprint, and code that computes results never imports a chapter's ``report``.

``tests/test_layout.py`` enforces the rule.

Short imports
-------------
Each chapter's package exports its algorithms (each with an example in its docstring), and this
package the shared pieces::

    from bandit_lib import Instance, bernoulli_tape, gaussian_tape, ksigma_outliers, ksigma_threshold, ksigma_gaps
    from bandit_lib.zhuang17 import rr, wrr, nrr, ib, HoeffdingCI, AgrestiCoullCI
    from bandit_lib.ade20 import ade
    from bandit_lib.gold20 import gold
    from bandit_lib.grapl20 import grapl, algorithm1, apt
    from bandit_lib.uig import LSDTCSI, LSDTPSI, UCB1, simulate
    from bandit_lib.arena import rr_glr, track_and_stop, top_two, frank_wolfe, rr_cs, lower_bound

The library's own code imports each name from the module that defines it
(``from bandit_lib.tapes import bernoulli_tape``); a result's fingerprint
(:mod:`bandit_lib.infra.fingerprint`) follows a re-export to that module in any case. The shared
pieces load on first use, so that ``import bandit_lib`` stays light for the processes that only
orchestrate.
"""

from bandit_lib.infra.fingerprint import record_imports

__version__ = "0.1.0"

# Record the source of every module as it is imported, so that a result is stamped with the code
# that computed it even if the files change while this process runs (a kernel, a Dask worker).
record_imports()

#: The shared pieces this package exports, and the module that defines each.
_SHARED = {
    "Instance": "bandit_lib.runner",
    "bernoulli_tape": "bandit_lib.tapes",
    "gaussian_tape": "bandit_lib.tapes",
    "ksigma_outliers": "bandit_lib.ksigma",
    "ksigma_threshold": "bandit_lib.ksigma",
    "ksigma_gaps": "bandit_lib.ksigma",
}
__all__ = list(_SHARED)


def __getattr__(name: str):
    if name in _SHARED:
        import importlib

        return getattr(importlib.import_module(_SHARED[name]), name)
    raise AttributeError(f"module 'bandit_lib' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
