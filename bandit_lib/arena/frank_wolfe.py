r"""Frank-Wolfe sampling for k-sigma outlier identification, with the GLR stop of :mod:`bandit_lib.arena.glr` or the
per-arm confidence sequences of :mod:`bandit_lib.arena.anytime`.

Frank-Wolfe sampling (FWS) is from Wang, Tzeng & Proutiere (2021, "Fast pure exploration via
Frank-Wolfe", NeurIPS). It climbs the concave characteristic function
:math:`F(w)=\min_jV_j(w)`, :math:`V_j(w)=\inf_{\lambda\in A_j}\sum_iw_i\,d(\hat\mu_i,\lambda_i)`
(arm j changes side; :mod:`~bandit_lib.arena.lower_bound`), at the empirical allocation
:math:`w=N/t`, by Frank-Wolfe steps on its r-subdifferential, since F is not smooth where several
:math:`V_j` tie.

**What is and is not proven.** Wang et al. prove asymptotic optimality
(:math:`\limsup\mathbb E[\tau]/\ln(1/\delta)\le T^*(\mu)`) for pure-exploration problems whose
characteristic function satisfies their assumptions (a concave F with a smooth or finitely
nonsmooth structure, continuity of the optimal allocations, ...), together with their own
forced-exploration and sampling steps. Those assumptions have **not** been checked for k-sigma
outliers (whose sets :math:`A_j` of outlier arms are not convex), and this implementation departs
from their algorithm (deterministic tracking, the suite's forced exploration, lazy re-solving), so
its sample complexity here is **not** proven. Its only guarantee is **delta-correctness**, from the
stop (GLR or confidence sequences: both valid for any sampling rule); the allocation's efficiency
is *measured* (:mod:`bandit_lib.arena.efficiency`).

**Gradients.** With :math:`\lambda^{(j)}` the minimiser of :math:`V_j`,
:math:`g^{(j)}_i=d(\hat\mu_i,\lambda^{(j)}_i)` is the gradient of the linear function
:math:`w\mapsto\sum_iw_id(\hat\mu_i,\lambda^{(j)}_i)`, which lies above :math:`V_j` and touches it at
w (envelope theorem). The divergence is Gaussian, :math:`d(x,y)=(x-y)^2/(2\sigma^2)`, with
:math:`\sigma=` ``sub_gaussian`` (1/2 for rewards in [0, 1]) or, with ``sub_gaussian=None``, a
Gaussian tape's own sigma.

::

    FWS(arms, k, delta, stop, every, lazy, m = check_every, T_max):
     1  pull every arm once; t <- n; S <- N; next <- n
     2  loop over blocks: the pulls from t to the next multiple of m (or T_max)
     3      if m | t and the stop holds (GLR: Z(t) > threshold(t, n, delta); CS: no active arm): return
     4      if t >= T_max: return Omega(mu_hat), t (capped)
     5      forced exploration: the arms with N_i < sqrt(t) - n/2 get the block's first pulls f; S <- S + f
     6      if t >= next:                                                  # re-solving
     7          w <- N / t; lb_j <- lower bounds on V_j(N) (within ~1% of V_j)
     8          H <- {j : lb_j <= (1 + r_t) min_i lb_i},  r_t = t^(-9/10)   # r-subdifferential (at most 16 arms)
     9          g^(j) <- (d(mu_hat_i, lam^(j)_i))_i for j in H (exact minimisers)
    10          if |H| = 1: z <- e_{argmax_i g^(j)_i}                      # the FW vertex
    11          else: z <- argmax_{z in simplex} min_{j in H} <z - w, g^(j)>   # small game, fixed scheme
    12          next <- t + max(every, ceil(lazy t))
    13      the block's R other pulls: S <- S + R z; C-tracking of S: the arms below S get the R pulls in
            proportion to (S_i - N_i - f_i)^+ (cumulative rounding)

Ties go to the lowest index (lines 8, 10). **Normalisation of r_t** (line 8): the paper's
radius is absolute on F at normalised weights; here it is relative to F, :math:`V_j(w)\le(1+r_t)F(w)`,
which is the same inequality for :math:`V_j(N)=tV_j(w)` and is unchanged when means and sigma are
rescaled together (an absolute radius would depend on the units of the means). The set is read
from lower bounds on the values (:func:`~bandit_lib.arena.secular.lower_bounds_nb`: exact values of
every arm near the minimum would cost O(n) each, and at the optimal allocation nearly all arms tie),
so it is the r-subdifferential of the lower model :math:`\min_j\mathrm{lb}_j`. **The game** (line
11) is solved by ``game_nb``: ``GAME_STEPS`` rounds of simultaneous optimistic Hedge, z the
average of the maximiser's iterates, a fixed deterministic scheme with no library solver.
**Sampling** (line 13): the paper's sampling step may be randomised (drawing the arm from the FW
iterate); here it is deterministic, C-tracking of the cumulative FW iterates :math:`S`, by blocks
(``bandit_lib.arena._samplers_engine``). Forced pulls add their own arm to S, so :math:`S-N`
moves only through the iterates.

**Re-solving** (``every``, ``lazy``): lines 7-11 cost :math:`O(nG)` for the bounds, one exact O(n)
solve per arm of H and the game (:math:`O(\text{GAME\_STEPS}\,|H|\,n)` when :math:`|H| > 1`), at most once
per ``every`` pulls (default n) and, once :math:`t>\text{every}/\text{lazy}`, once per growth of t
by the fraction ``lazy`` (:math:`\ln(T/t_0)/\text{lazy}` re-solves in all): the amortised cost per
pull falls as 1/t, and between re-solves a block costs O(n) bookkeeping (about a round of round
robin). The stop is checked at the end of every block (``check_every``, default n). Both stops are
valid for any allocation, so neither schedule touches delta-correctness.

**Engines.** ``engine="reference"`` runs the loop above in Python, pulling one reward at a time
with ``tape.pull``; its decisions use the numba pieces of ``bandit_lib.arena._samplers_engine``
(the same functions the fast engine calls) and its GLR stop is
:func:`bandit_lib.arena.glr.should_stop`. ``engine="fast"`` (default) runs the blocks in numba with
the same decisions (tested pull for pull). ``Outcome.info``: ``stop``, the last check's statistic
(GLR: ``Z`` and ``threshold``; CS: ``theta`` and ``beta_theta``), ``solves`` (re-solves),
``games`` (line-11 games), ``forced`` (forced pulls), ``checks``, ``engine``.
"""

from __future__ import annotations

from bandit_lib.arena import _samplers_engine as eng
from bandit_lib.arena.glr import Threshold
from bandit_lib.arena.toptwo import LAZY
from bandit_lib.checks import check_int
from bandit_lib.runner import Outcome
from bandit_lib.tapes import RewardTape


def frank_wolfe(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    every: int | None = None,
    check_every: int | None = None,
    game_steps: int = eng.GAME_STEPS,
    threshold: Threshold | None = None,
    sub_gaussian: float | None = 0.5,
    engine: str = "fast",
    stop: str = "glr",
    interval: str = "triangle",
    lazy: float = LAZY,
) -> Outcome:
    """Frank-Wolfe sampling (see the module docstring). ``stop``: ``"glr"`` (default), ``"cs"``
    (per-arm confidence sequences, threshold interval ``interval`` of :mod:`~bandit_lib.arena.anytime`)
    or ``"none"``; ``every`` (default n) and ``lazy``: the re-solve schedule; ``check_every``
    (default n): the block length, where the stop is checked; ``game_steps``: Hedge rounds of the
    game (line 11); ``threshold``: the GLR threshold (default KK21 Gaussian; any callable
    ``(t, n, delta) -> float``, which the fast engine then asks in Python at every check).

    Example (the instance of :func:`~bandit_lib.arena.tracking.track_and_stop`'s example):

    >>> from bandit_lib.arena import frank_wolfe
    >>> from bandit_lib.tapes import gaussian_tape
    >>> out = frank_wolfe(gaussian_tape([0.1, 0.2, 0.25, 0.3, 0.9], 0.5, seed=1), k=1.5, delta=0.1)
    >>> out.output.tolist(), out.pulls, out.capped
    ([4], 920, False)
    """
    custom = threshold is not None
    a = eng.check_sampler(tape, k, delta, cap, threshold, sub_gaussian, check_every, every, engine, stop, interval)
    params = {"game_steps": check_int("game_steps", game_steps, minimum=1), "lazy": eng.check_lazy(lazy)}
    if engine == "fast":
        return eng.run_fast("frank_wolfe", tape, a, params, custom)
    return eng.run_reference("frank_wolfe", tape, a, params)


__all__ = ["frank_wolfe"]
