r"""Top-Two sampling for k-sigma outlier identification, with the GLR stop of
:mod:`bandit_lib.arena.glr` or the per-arm confidence sequences of :mod:`bandit_lib.arena.anytime`.

**What is and is not proven.** Top-Two algorithms were designed and analysed for *best-arm*
identification: Russo (2016, "Simple Bayesian algorithms for best arm identification"); Jourdan,
Degenne, Baudry, de Heide & Kaufmann (2022, "Top two algorithms revisited"); Jourdan & Degenne
(2023, TTUCB, "Non-asymptotic analysis of a UCB-based top two algorithm"); You, Qin, Wang & Yang
(2023, "Information-directed selection for top-two algorithms", IDS). This module adapts the idea
to k-sigma outliers. Its only guarantee here is **delta-correctness**, which comes from the stop
(GLR or confidence sequences: both valid for any sampling rule). Its sample complexity on this
problem -- asymptotic optimality or any bound -- is **not** proven; the allocation's efficiency is
*measured* (:mod:`bandit_lib.arena.efficiency`).

**Notation.** Counts :math:`N`, empirical means :math:`\hat\mu`, and for each arm j
:math:`V_j(N)=\inf_{\lambda\in A_j}\sum_iN_i\,d(\hat\mu_i,\lambda_i)` (arm j changes side;
:mod:`~bandit_lib.arena.lower_bound`), the binding alternative's minimiser :math:`\lambda^*` and
:math:`g_i=d(\hat\mu_i,\lambda^*_i)=\partial V_{\rm leader}/\partial N_i` (envelope theorem): how much
one more pull of arm i raises the leader's value. The divergence is Gaussian,
:math:`d(x,y)=(x-y)^2/(2\sigma^2)`, with :math:`\sigma=` ``sub_gaussian`` (1/2 for rewards in [0, 1])
or, with ``sub_gaussian=None``, a Gaussian tape's own sigma.

::

    TopTwo(arms, k, delta, stop, rule, beta, every, lazy, m = check_every, T_max):
     1  pull every arm once; t <- n; L <- 0; N^lead <- 0; B^lead <- 0; next <- n   # one counter per arm
     2  loop over blocks: the pulls from t to the next multiple of m (or T_max)
     3      if m | t and the stop holds (GLR: Z(t) > threshold(t, n, delta); CS: no active arm): return
     4      if t >= T_max: return Omega(mu_hat), t (capped)
     5      forced exploration: the arms with N_i < sqrt(t) - n/2 get the block's first pulls
     6      if t >= next:                                                   # re-solving
     7          H <- the arms whose lower bound lb_j on V_j(N) is within 5% of the smallest (at most 16)
     8          for j in H: lam^(j) <- minimiser of V_j; g^(j)_i <- d(mu_hat_i, lam^(j)_i); M_j <- V_j(N)
     9                      c_j <- argmax_{i != j} g^(j)_i; beta_j <- g^(j)_j / (g^(j)_j + g^(j)_{c_j})
    10          next <- t + max(every, ceil(lazy t))
    11      each remaining step of the block:
    12          leader <- argmin_{j in H} M_j; challenger <- c_leader; L(leader) += 1; B^lead(leader) += beta_leader
    13          pull the leader if N^lead(leader) < beta L(leader) ("fixed") or < B^lead(leader) ("ids")
    14          (then N^lead(leader) += 1), else the challenger; M_j += g^(j)_a for every j in H (a: the arm pulled)

Ties go to the lowest index. Line 13 is TTUCB's deterministic per-leader tracking in place of
Russo's coin of bias beta; with the "ids" rule the leader's target is the running sum of the
betas of the steps it led. **Between re-solves** the values of the candidate alternatives are
tracked by their tangent models :math:`M_j=\sum_iN_i\,d(\hat\mu_i,\lambda^{(j)}_i)` (line 14): exact at
the re-solve, an upper bound on :math:`V_j(N)` after it (the fixed point :math:`\lambda^{(j)}` stays
in :math:`A_j`), tight to first order; so the leader changes from step to step as it would if every
step re-solved (up to the drift of :math:`\hat\mu` and the curvature of :math:`V_j`), at O(``|H|``) a
step. The candidates come from lower bounds on all n values computed at once in :math:`O(nG)`
(:func:`~bandit_lib.arena.secular.lower_bounds_nb`, within about 1% of the values); the exact
minimisers are solved for the candidates only.

**Why rule "ids" (the default).** With rule "fixed" and beta = 1/2 (the book's first adaptation,
kept as the ablation ``rule="fixed"``), the leader is nearly always the same binding arm (the
outlier) and gets half of all pulls, where the optimal weights give it 0.25-0.28 at n = 5-20
and 0.04-0.05 at n = 50: the allocation stalls below the optimal value (measured: 0.79-0.83 of
F(w*)). Information-directed selection chooses between the two arms in proportion to how much a
pull of each raises the leader's value, :math:`\beta_t=g_L/(g_L+g_C)` (You et al. 2023 for
best-arm identification, where it makes Top-Two asymptotically optimal without tuning beta; here
it is a heuristic adaptation): an over-pulled leader's own gradient falls and it is pulled less.
What it reaches is measured by :func:`bandit_lib.arena.efficiency.allocation_efficiency`.

**Re-solving** (``every``, ``lazy``): lines 7-9 cost :math:`O(nG)` for the lower bounds of all
arms plus one exact O(n) solve per candidate (``bandit_lib.arena._samplers_engine``), at most once per
``every`` pulls (default n) and, once :math:`t>\text{every}/\text{lazy}`, once per growth of t by
the fraction ``lazy`` (:math:`\ln(T/t_0)/\text{lazy}` re-solves in all), so the amortised cost
per pull falls as 1/t; between re-solves a block costs O(n) bookkeeping (about a round of round
robin). The stop is checked at the end of every block (``check_every``, default n). Both stops are
valid for any allocation, so neither schedule touches delta-correctness.

**Engines.** ``engine="reference"`` runs the loop above in Python, pulling one reward at a time
with ``tape.pull``; its decisions use the numba pieces of
``bandit_lib.arena._samplers_engine`` (the same functions the fast engine calls) and its GLR
stop is :func:`bandit_lib.arena.glr.should_stop`. ``engine="fast"`` (default) runs the blocks in
numba with the same decisions (tested pull for pull), handing to ``should_stop`` the GLR checks
it cannot settle. ``Outcome.info``: ``stop``, the last check's statistic (GLR: ``Z`` and
``threshold``; CS: ``theta`` and ``beta_theta``), ``solves`` (re-solves), ``forced`` (forced
pulls), ``checks``, ``engine``.
"""

from __future__ import annotations

from bandit_lib.arena import _samplers_engine as eng
from bandit_lib.arena.glr import Threshold
from bandit_lib.checks import check_choice, check_real
from bandit_lib.runner import Outcome
from bandit_lib.tapes import RewardTape

#: Top-Two's rules for beta (``rule=``): the book's first adaptation (``"fixed"``, beta = 1/2
#: by default; the ablation) and information-directed selection (``"ids"``, the default).
RULES = ("ids", "fixed")
#: Default re-solve growth of Top-Two and Frank-Wolfe: re-solve at most once per growth of t by
#: this fraction once t > every / LAZY (see the module docstring).
LAZY = 1 / 256


def check_beta(beta) -> float:
    beta = check_real("beta", beta)
    if not 0.0 < beta < 1.0:
        raise ValueError(
            f"beta must lie in the open interval (0, 1) (the leader's share of its steps); got beta={beta!r}"
        )
    return beta


def top_two(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    beta: float = 0.5,
    every: int | None = None,
    check_every: int | None = None,
    threshold: Threshold | None = None,
    sub_gaussian: float | None = 0.5,
    engine: str = "fast",
    rule: str = "ids",
    stop: str = "glr",
    interval: str = "triangle",
    lazy: float = LAZY,
) -> Outcome:
    """Top-Two sampling (see the module docstring). ``rule``: ``"ids"`` (information-directed beta,
    default) or ``"fixed"`` (``beta`` for every leader; the ablation); ``stop``: ``"glr"`` (default),
    ``"cs"`` (per-arm confidence sequences, threshold interval ``interval`` of
    :mod:`~bandit_lib.arena.anytime`) or ``"none"``; ``every`` (default n) and ``lazy``: the
    re-solve schedule; ``check_every`` (default n): the block length, where the stop is checked;
    ``threshold``: the GLR threshold (default KK21 Gaussian; any callable ``(t, n, delta) -> float``,
    which the fast engine then asks in Python at every check).

    Example (the instance of :func:`~bandit_lib.arena.tracking.track_and_stop`'s example):

    >>> from bandit_lib.arena import top_two
    >>> from bandit_lib.tapes import gaussian_tape
    >>> out = top_two(gaussian_tape([0.1, 0.2, 0.25, 0.3, 0.9], 0.5, seed=1), k=1.5, delta=0.1)
    >>> out.output.tolist(), out.pulls, out.capped
    ([4], 890, False)
    """
    custom = threshold is not None
    a = eng.check_sampler(tape, k, delta, cap, threshold, sub_gaussian, check_every, every, engine, stop, interval)
    params = {"beta": check_beta(beta), "rule": check_choice("rule", rule, RULES), "lazy": eng.check_lazy(lazy)}
    if engine == "fast":
        return eng.run_fast("top_two", tape, a, params, custom)
    return eng.run_reference("top_two", tape, a, params)


__all__ = ["LAZY", "RULES", "check_beta", "top_two"]
