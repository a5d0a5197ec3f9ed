"""GRAPL20: thresholding graph bandits with GrAPL (LeJeune, Dasarathy & Baraniuk, AISTATS 2020).

* :mod:`~bandit_lib.grapl20.problem` — the thresholding problem: classes, errors, complexities;
* :mod:`~bandit_lib.grapl20.estimator` — the Laplacian-regularised estimator and its solvers;
  :mod:`~bandit_lib.grapl20.dense` — its dense linear algebra (Cholesky, inverse, solve,
  eigenvalues) in numba loops of a fixed order, so that the same bits come out on any machine;
* :mod:`~bandit_lib.grapl20.grapl` — GrAPL (Algorithm 2); :mod:`~bandit_lib.grapl20.algorithm1`
  — the non-adaptive Algorithm 1; ``bandit_lib.grapl20._engine`` (private) their exact
  numba engine;
* :mod:`~bandit_lib.grapl20.apt` — APT (Locatelli et al. 2016); :mod:`~bandit_lib.grapl20.no_graph`
  — the "no graph" line of Fig. 3;
* :mod:`~bandit_lib.grapl20.theory` — effective dimension, bounds, lemmas and γ*;
* instances: :mod:`~bandit_lib.grapl20.sbm` (Fig. 1), :mod:`~bandit_lib.grapl20.small_world`
  (Fig. 2), :mod:`~bandit_lib.grapl20.karate` (real data shipped with networkx),
  :mod:`~bandit_lib.grapl20.polblogs_like` (stand-in) and :mod:`~bandit_lib.grapl20.polblogs_gml`
  (loader of the real political-blogs graph);
* :mod:`~bandit_lib.grapl20.experiments` — the chapter's experiments (one module per experiment)
  and :mod:`~bandit_lib.grapl20.report` — its figures and tables;
  :mod:`~bandit_lib.grapl20.report.gates` — the calibration gates of the polblogs-like stand-in;
  :mod:`~bandit_lib.grapl20.report.hypotheses` — the theorems' hypotheses, checked in code on every instance.

Short imports (each with an example in its docstring)::

    from bandit_lib.grapl20 import grapl, algorithm1, apt, no_graph, permutation_schedule, two_block_sbm

``bandit_lib.grapl20.grapl`` (and ``algorithm1``, ``apt``, ``no_graph``) is then the function; its
module stays importable by its full name (``from bandit_lib.grapl20.grapl import grapl_reference``).
"""

from bandit_lib.grapl20.algorithm1 import algorithm1, permutation_schedule
from bandit_lib.grapl20.apt import apt
from bandit_lib.grapl20.grapl import grapl
from bandit_lib.grapl20.no_graph import no_graph
from bandit_lib.grapl20.sbm import two_block_sbm

__all__ = ["grapl", "algorithm1", "apt", "no_graph", "permutation_schedule", "two_block_sbm"]
