"""ARENA: every detector against the lower bound (k-sigma outlier identification, fixed confidence).

* :mod:`~bandit_lib.arena.lower_bound` — the change-of-measure lower bound T*(mu) kl(delta, 1 - delta):
  the inner infimum over the alternative (certified for Gaussian arms), the optimal weights w*,
  and the closed form of thresholding with a fixed threshold;
* :mod:`~bandit_lib.arena.glr` — RR-GLR: round-robin sampling with a GLR stopping rule and the
  anytime-valid thresholds it uses;
* :mod:`~bandit_lib.arena.anytime` — RR-CS and WRR-CS: per-arm time-uniform boxes from the same
  KK21 bound and no joint test (the threshold ablation: RR vs RR-CS vs RR-GLR);
* :mod:`~bandit_lib.arena.tracking` — Track-and-Stop (C- or D-tracking of w*(mu_hat), same GLR stop);
* :mod:`~bandit_lib.arena.suite` — the instance suite, the detectors with their interval families,
  and the yardstick (the single-arm bound at every n; up to 50 arms the cutting-plane certificate
  and a Gaussian upper value of T*);
* :mod:`~bandit_lib.arena.experiments` — what ``make reproduce PAPER=arena`` computes (suite,
  bounds, delta-correctness of the GLR pair);
* :mod:`~bandit_lib.arena.report` — the chapter's tables (factors above the bound, cells with
  intervals, leaderboard, paired savings, wall times).

* :mod:`~bandit_lib.arena.secular` — the Gaussian inner problem in O(n) per evaluation (numba),
  and its closed form for equal weights.

Status (issue 20): RR-GLR has a fast numba engine (``rr_glr(engine="fast")``, the default, for the
Gaussian divergence); Track-and-Stop does not yet. Status (issue 13): the chapter is built (``notebooks/arena.md``). Track-and-Stop has no fast engine:
:func:`~bandit_lib.arena.lower_bound.optimal_weights` takes 0.2-2 s at n = 20, about 6 s at n = 50
and 78 s at n = 100 with ``rtol=1e-3`` (n eigendecompositions of n x n matrices per evaluation),
so RR-GLR and Track-and-Stop run at n = 20 only, and T* itself is out of reach at n = 10^4. The
GLR thresholds' constants are still to be checked against the paper.
"""
