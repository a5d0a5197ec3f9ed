"""ARENA: every detector against the lower bound (k-sigma outlier identification, fixed confidence).

* :mod:`~bandit_lib.arena.lower_bound` — the change-of-measure lower bound T*(mu) kl(delta, 1 - delta):
  the inner infimum over the alternative (certified for Gaussian arms), the optimal weights w*,
  and the closed form of thresholding with a fixed threshold;
* :mod:`~bandit_lib.arena.glr` — RR-GLR: round-robin sampling with a GLR stopping rule and the
  anytime-valid thresholds it uses;
* :mod:`~bandit_lib.arena.tracking` — Track-and-Stop (C- or D-tracking of w*(mu_hat), same GLR stop).

Status (issue 13): the library core only. The chapter, its instance suite, the experiments and
fast engines are not built yet; :func:`~bandit_lib.arena.lower_bound.optimal_weights` takes about
9 s at n = 20 and does not finish at n = 100 (n eigendecompositions of n x n matrices per
evaluation), and the GLR thresholds' constants are still to be checked against the paper.
"""
