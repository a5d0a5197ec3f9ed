r"""ARENA: every detector against the lower bound (k-sigma outlier identification, fixed confidence).

* :mod:`~bandit_lib.arena.lower_bound` — the change-of-measure lower bound T*(mu) kl(delta, 1 - delta):
  the inner infimum over the alternative (certified for Gaussian arms), the optimal weights w*,
  and the closed form of thresholding with a fixed threshold;
* :mod:`~bandit_lib.arena.secular` — the Gaussian inner problem in O(n) per evaluation (diagonal
  plus rank two, no eigendecomposition; numba), its closed form for equal weights, and lower bounds
  on every arm's value at once from sums shared by all arms: the solver layer every other module
  calls;
* :mod:`~bandit_lib.arena.yardstick` — certified brackets on T* at every scale: the Gaussian bracket
  (a mixture certificate that needs no solver to check), and the box certificate of the Bernoulli
  T* where no arm can change side alone;
* :mod:`~bandit_lib.arena.glr` — the GLR stop (Kaufmann & Koolen 2021 thresholds) and RR-GLR,
  round-robin sampling with it;
* :mod:`~bandit_lib.arena.tracking` — D- or C-tracking of the optimal weights (the sampling rule of
  Track-and-Stop);
* :mod:`~bandit_lib.arena.toptwo` — Top-Two sampling (leader and challenger from the binding
  alternative, information-directed beta; beta = 1/2 as the ablation);
* :mod:`~bandit_lib.arena.frank_wolfe` — Frank-Wolfe sampling;
  the three under the GLR stop or the per-arm confidence sequences (``stop="glr" | "cs"``);
* :mod:`~bandit_lib.arena.anytime` — RR-CS and WRR-CS: per-arm time-uniform boxes from the same
  KK21 bound and no joint test (the threshold ablation: RR vs RR-CS vs RR-GLR);
* :mod:`~bandit_lib.arena.efficiency` — the samplers' asymptotic efficiency on Gaussian tapes: the
  allocation's :math:`F(N_t/t)\,T^*` with the stop off, and :math:`\mathbb E[\tau]/(T^*\beta(\tau))`
  as delta -> 0;
* :mod:`~bandit_lib.arena.suite` — the instance suite, the detectors (sampling rule and stop), and
  the yardstick of every cell;
* :mod:`~bandit_lib.arena.experiments` — what ``make reproduce PAPER=arena`` computes (suite,
  bounds, delta-correctness of the book's detectors);
* :mod:`~bandit_lib.arena.report` — the chapter's tables (factors above the bound, cells with
  intervals, leaderboard, paired savings, the threshold ablation's decomposition, wall times).

``_samplers_engine`` holds the block engine and the numba pieces the samplers share (private).
Every detector has a readable reference and a numba engine that takes the same decisions on the
same tape (``engine="reference"`` / ``"fast"``).
Short imports (each with an example in its docstring)::

    from bandit_lib.arena import (rr_glr, track_and_stop, top_two, frank_wolfe, rr_cs, wrr_cs,
                                  lower_bound, optimal_weights)

``bandit_lib.arena.lower_bound`` and ``bandit_lib.arena.frank_wolfe`` are then the functions;
their modules stay importable by their full names (``from bandit_lib.arena.lower_bound import
kl_delta``).
"""

from bandit_lib.arena.anytime import rr_cs, wrr_cs
from bandit_lib.arena.frank_wolfe import frank_wolfe
from bandit_lib.arena.glr import rr_glr
from bandit_lib.arena.lower_bound import lower_bound, optimal_weights
from bandit_lib.arena.toptwo import top_two
from bandit_lib.arena.tracking import track_and_stop

__all__ = ["rr_glr", "track_and_stop", "top_two", "frank_wolfe", "rr_cs", "wrr_cs", "lower_bound", "optimal_weights"]
