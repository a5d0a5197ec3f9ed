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

``tests/test_layout.py`` enforces the rule. Modules are imported explicitly
(``from bandit_lib.tapes import bernoulli_tape``); package files only index their contents and
re-export nothing, so that a result's fingerprint (:mod:`bandit_lib.infra.fingerprint`) covers
exactly the code it imports.
"""

from bandit_lib.infra.fingerprint import record_imports

__version__ = "0.1.0"

# Record the source of every module as it is imported, so that a result is stamped with the code
# that computed it even if the files change while this process runs (a kernel, a Dask worker).
record_imports()
