"""ARENA: every detector against the lower bound (k-sigma outlier identification, fixed confidence).

* :mod:`~bandit_lib.arena.lower_bound` — the change-of-measure lower bound T*(mu) kl(delta, 1 - delta):
  the inner infimum over the alternative (certified for Gaussian arms), the optimal weights w*,
  and the closed form of thresholding with a fixed threshold;
* :mod:`~bandit_lib.arena.glr` — RR-GLR: round-robin sampling with a GLR stopping rule and the
  anytime-valid thresholds it uses;
* :mod:`~bandit_lib.arena.tracking` — Track-and-Stop (C- or D-tracking of w*(mu_hat), same GLR stop);
* :mod:`~bandit_lib.arena.suite` — the instance suite, the detectors with their interval families,
  and the yardstick (the closed-form single-arm bound, certified below T* at every n);
* :mod:`~bandit_lib.arena.report` — the chapter's tables (cells with intervals, leaderboard, wall times).

Status (issue 13): the library core and the suite. The chapter, its experiments and fast engines
for the GLR pair are not built yet. :func:`~bandit_lib.arena.lower_bound.optimal_weights` takes
0.2-2 s at n = 20, about 6 s at n = 50 and 78 s at n = 100 with ``rtol=1e-3`` (n
eigendecompositions of n x n matrices per evaluation), so T* itself is out of reach at n = 10^4:
the single-arm bound is the yardstick there. The GLR thresholds' constants are still to be checked
against the paper.
"""
