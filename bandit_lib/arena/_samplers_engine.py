r"""The block engine shared by the arena's adaptive samplers (D- and C-tracking, Top-Two,
Frank-Wolfe) and round robin, under either stop (the GLR statistic or the per-arm confidence
sequences), and the numeric pieces their decisions rest on.

**Blocks.** Every sampler here decides once per *block*: the pulls from t to the next multiple of
``check_every`` (m, default n; the last block ends at the cap). At a block's start it checks the
stop (line "stop" of each sampler), then decides how many pulls :math:`x_i` each arm gets in the
block (:math:`\sum_ix_i` = the block's length), re-solving its inner problem first when its
schedule says so; then the block is pulled, arm by arm in index order. Nothing inside a block
depends on the order of its pulls (the tapes are per arm, and the statistics are read at block
ends only), so a block costs O(n) bookkeeping plus its tape reads: with m = n, about as much as a
round of round robin. The per-step rules of the papers (forced exploration, D- and C-tracking,
Top-Two's per-leader tracking, C-tracking of the Frank-Wolfe iterates) are applied to the block as
a whole:

* *forced exploration* (``forced_nb``): the arms with :math:`N_i<\sqrt t-n/2` are brought up to
  :math:`\lceil\sqrt t-n/2\rceil` first (if that needs more than the block, the block is shared in
  proportion to the shortfalls);
* *tracking a target* :math:`c` (``track_nb``; D-tracking: :math:`c=(t+B)w`; C-tracking: the
  running sum of the projected weights; Frank-Wolfe: the running sum S of its iterates): the block's
  other R pulls go to the arms below their target in proportion to the shortfalls
  :math:`(c_i-N_i)^+`, rounded by cumulative (systematic) rounding (``round_nb``: integers that
  sum to R, each within one of its share);
* *Top-Two* (``top_two_block_nb``): its R steps are taken one by one (O(1) each) with the
  leader and challenger of the last re-solve.

**Re-solving and its cost.** The inner values :math:`V_j(N)` are not all solved: every re-solve
first bounds all n of them from below in :math:`O(nG)` (:func:`~bandit_lib.arena.secular.lower_bounds_nb`,
G = :data:`NODES` multipliers shared by all arms, within about 1% of the values on the suite's
instances), chooses from the bounds, and solves exactly (:mod:`bandit_lib.arena.secular`, O(n)
each) only the arms whose minimiser it needs: the leader (Top-Two), the near-binding set
(Frank-Wolfe), the binding arm of each supergradient step (the D-tracking target). Top-Two and
Frank-Wolfe re-solve at the first block start with :math:`t\ge` ``next``, then set
``next`` :math:`=t+\max(\text{every},\lceil\text{lazy}\cdot t\rceil)`: about
:math:`t/\text{every}` re-solves while :math:`t<\text{every}/\text{lazy}`, then
:math:`\ln(t)/\text{lazy}` more; each costs :math:`O(nG)` plus a few O(n) solves, so the
amortised cost per pull falls as 1/t once t passes every / lazy. D-tracking re-solves on the
geometric schedule (ratio 2): :math:`\log_2(t/n)` target computations of ``steps`` supergradient
steps, each :math:`O(nG)`, from the better of the last target and the fixed-threshold weights.

**Stops.** ``stop="glr"``: the GLR statistic against the KK21 threshold
(:mod:`~bandit_lib.arena.glr`), checked at every block end. The engine decides "go on" by itself
when the single-arm screen, or the exact value of one arm, lies below the threshold by the relative
:data:`STOP_MARGIN`; every other check (a possible stop, a value within the margin, or a custom
threshold) is handed to :func:`~bandit_lib.arena.glr.should_stop` in Python, so every stop is
certified by the reference's own exact statistic. ``stop="cs"``: the per-arm time-uniform
confidence sequences of :mod:`~bandit_lib.arena.anytime` (stop when no arm's box overlaps the
threshold interval), computed by that module's kernels in both engines. ``stop="none"``: no stop
(runs to the cap; for the allocation measurements of :mod:`~bandit_lib.arena.efficiency`). Both
stops are delta-correct whatever the sampling.

**One set of numeric pieces for both engines.** Every number a decision reads is computed by a
numba function of this module (or of :mod:`~bandit_lib.arena.secular` and
:mod:`~bandit_lib.arena.anytime`), which the readable references call through Python and the fast
engine calls inside its loop; the references' control flow (blocks, schedules, pulls one at a time
through ``tape.pull``, the stop through ``should_stop``) is plain Python.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import njit

from bandit_lib.arena.anytime import any_active_nb, check_sigma_for_tape, exact_nb, radius_nb, theta_beta_nb
from bandit_lib.arena.anytime import c_gauss as cs_constant_of
from bandit_lib.arena.glr import c_gauss, check_detector, should_stop
from bandit_lib.arena.secular import arm_solve_nb, lower_bounds_nb, multiplier_of_node
from bandit_lib.checks import check_choice, check_engine, check_int, check_real
from bandit_lib.ksigma import ksigma_outliers, threshold_nb
from bandit_lib.runner import Outcome
from bandit_lib.tapes import new_cache, pull_sum

#: Relative distance to the threshold within which a fast engine hands a GLR check to Python.
STOP_MARGIN = 1e-7
#: Rounds of the fixed optimistic multiplicative-weights scheme of ``game_nb``.
GAME_STEPS = 400
#: Exponent of the r-subdifferential radius r_t = t^(-KAPPA) of Frank-Wolfe sampling.
KAPPA = 0.9
#: Multipliers of the normal arms' lower bounds (:func:`~bandit_lib.arena.secular.lower_bounds_nb`):
#: rho = (k^2 D_geo / n) 10^x for NODES values of x evenly spaced in [-NODE_SPAN, NODE_SPAN] decades
#: (D_geo the geometric mean of D; the multipliers of the normal arms' minimisers lie near k^2 D_j / n).
NODES = 32
NODE_SPAN = 2.0
#: The near-binding sets (Frank-Wolfe's H, Top-Two's candidates) hold at most this many arms
#: (those of smallest bound).
H_MAX = 16
#: Top-Two's candidate leaders: the arms whose lower bound lies within this fraction of the smallest.
TT_SLACK = 0.05
DEBUG_EXACT = False

# codes of the samplers, stops and Top-Two rules, as the kernels see them
RR, D_TRACKING, C_TRACKING, TOP_TWO, FRANK_WOLFE = range(5)
SAMPLER_CODES = {
    "rr": RR,
    "d_tracking": D_TRACKING,
    "c_tracking": C_TRACKING,
    "top_two": TOP_TWO,
    "frank_wolfe": FRANK_WOLFE,
}
GLR, CS, NO_STOP = range(3)
STOPS = {"glr": GLR, "cs": CS, "none": NO_STOP}
TT_FIXED, TT_IDS = range(2)
TT_RULES = {"fixed": TT_FIXED, "ids": TT_IDS}

# return codes of the kernels
STOPPED, CAPPED, ASK = 0, 1, 2
# integer state (ist) and float state (fst)
_T, _NEXT, _SOLVES, _FORCED, _SKIP, _GAMES, _RR, _STEPS, _CHECKS, _CAND, _NIST = range(11)
_STAT, _LEVEL, _NFST = range(3)


# ------------------------------------------------------------------------------------------
# small pieces


@njit(cache=True)
def outlier_mask_nb(mu, k, out):
    """out[i] = arm i is an outlier of mu (mu_i - mean > k * population std, sums in index order)."""
    m, sig, _ = threshold_nb(mu, k)
    bar = k * sig
    for i in range(mu.shape[0]):
        out[i] = (mu[i] - m) > bar


@njit(cache=True)
def centre_nb(mu, out):
    """out = mu - mean(mu) (summed in index order)."""
    n = mu.shape[0]
    m = 0.0
    for i in range(n):
        m += mu[i]
    m /= n
    for i in range(n):
        out[i] = mu[i] - m


@njit(cache=True)
def grid_nb(D, k, rhos):
    """The normal arms' multipliers of :func:`~bandit_lib.arena.secular.lower_bounds_nb` (:data:`NODES`)."""
    n = D.shape[0]
    lg = 0.0
    for i in range(n):
        lg += math.log(D[i])
    centre = k * k * math.exp(lg / n) / n
    g = rhos.shape[0]
    for c in range(g):
        x = -NODE_SPAN + 2.0 * NODE_SPAN * c / (g - 1) if g > 1 else 0.0
        rhos[c] = centre * 10.0**x


@njit(cache=True)
def gradient_nb(mu, lam, sigma, out):
    """out[i] = d(mu_i, lam_i) = (mu_i - lam_i)^2 / (2 sigma^2): dV_j/dN_i at the minimiser lam of V_j."""
    two_s2 = 2.0 * sigma * sigma
    for i in range(mu.shape[0]):
        x = mu[i] - lam[i]
        out[i] = x * x / two_s2


@njit(cache=True)
def challenger_nb(g, leader):
    """argmax_{i != leader} g_i, ties to the lowest index."""
    best = -1
    for i in range(g.shape[0]):
        if i != leader and (best < 0 or g[i] > g[best]):
            best = i
    return best


@njit(cache=True)
def argmax_nb(x):
    """argmax_i x_i, ties to the lowest index."""
    best = 0
    for i in range(1, x.shape[0]):
        if x[i] > x[best]:
            best = i
    return best


@njit(cache=True)
def argmin_nb(x):
    """argmin_i x_i, ties to the lowest index."""
    best = 0
    for i in range(1, x.shape[0]):
        if x[i] < x[best]:
            best = i
    return best


@njit(cache=True)
def radius_fw_nb(t):
    """r_t = t^(-KAPPA), the relative radius of Frank-Wolfe's r-subdifferential."""
    return float(t) ** -KAPPA


@njit(cache=True)
def round_nb(y, total, x):
    """Cumulative (systematic) rounding: integers x >= 0 with sum ``total``, x_i within one of
    total * y_i / sum(y) (y >= 0, sum(y) > 0), summed in index order."""
    n = y.shape[0]
    s = 0.0
    for i in range(n):
        s += y[i]
    acc = 0.0
    prev = 0
    last = 0
    for i in range(n):
        acc += y[i]
        cur = int(math.floor(acc * total / s + 0.5))
        x[i] = cur - prev
        prev = cur
        if y[i] > 0.0:
            last = i
    if prev != total:  # rounding of the last partial sum (never seen; kept exact)
        x[last] += total - prev


@njit(cache=True)
def forced_nb(counts, t, block, f, y):
    """Forced exploration for a block of ``block`` pulls at t: f_i pulls for each arm with
    N_i < sqrt(t) - n/2, bringing it up to ceil(sqrt(t) - n/2), or, if that needs more than the
    block, the block shared in proportion to the shortfalls (``round_nb``). Returns sum(f)."""
    n = counts.shape[0]
    bar = math.sqrt(t) - n / 2.0
    need = 0
    for i in range(n):
        f[i] = 0
        y[i] = 0.0
        if counts[i] < bar:
            d = int(math.ceil(bar)) - counts[i]
            f[i] = d
            y[i] = float(d)
            need += d
    if need > block:
        round_nb(y, block, f)
        return block
    return need


@njit(cache=True)
def track_nb(c, counts, f, rest, x, y):
    """x: the block's ``rest`` tracking pulls, shared among the arms below their target c in
    proportion to the shortfalls (c_i - N_i - f_i)^+ (``round_nb``; equal shares if no arm is below)."""
    n = counts.shape[0]
    s = 0.0
    for i in range(n):
        d = c[i] - counts[i] - f[i]
        y[i] = d if d > 0.0 else 0.0
        s += y[i]
    if not s > 0.0:
        for i in range(n):
            y[i] = 1.0
    round_nb(y, rest, x)


@njit(cache=True)
def top_two_block_nb(rest, rule, beta, tt, f, x):
    r"""Top-Two's ``rest`` steps of a block, after its forced pulls f. The values of the candidate
    alternatives H are tracked by their tangent models :math:`M_j=\sum_iN_id(\hat\mu_i,\lambda^{(j)}_i)`
    (exact at the re-solve, an upper bound on :math:`V_j(N)` after it, updated by
    :math:`g^{(j)}_a` when arm a is pulled: O(``|H|``) a step). At each step the leader is the candidate
    of smallest model (ties to the first of H), the challenger and the IDS beta are its own (from the
    re-solve); L(leader) += 1 and the leader is pulled iff N^lead(leader) < beta L(leader) (rule
    ``fixed``: TTUCB's per-leader tracking) or N^lead(leader) < the running sum of the betas of its
    steps (rule ``ids``), else the challenger. Adds the pulls to x. ``tt``: (L, N^lead, B^lead,
    gradients of H, H, models, challengers, betas, ``|H|`` in a one-element array)."""
    lead_steps, lead_pulls, lead_target, Gm, Hm, Mv, Cm, Bm, mm = tt
    m = mm[0]
    n = x.shape[0]
    for i in range(n):  # the forced pulls first
        if f[i] > 0:
            for r in range(m):
                Mv[r] += f[i] * Gm[r, i]
    for _ in range(rest):
        best = 0
        for r in range(1, m):
            if Mv[r] < Mv[best]:
                best = r
        leader = Hm[best]
        lead_steps[leader] += 1
        if rule == TT_FIXED:
            take = lead_pulls[leader] < beta * lead_steps[leader]
        else:
            lead_target[leader] += Bm[best]
            take = lead_pulls[leader] < lead_target[leader]
        if take:
            lead_pulls[leader] += 1
            arm = leader
        else:
            arm = Cm[best]
        x[arm] += 1
        for r in range(m):
            Mv[r] += Gm[r, arm]


@njit(cache=True)
def top_two_resolve_nb(mu, counts, k, sigma, tt, wk):
    """Top-Two's re-solve: the candidates H (the arms whose lower bound on V_j lies within
    :data:`TT_SLACK` of the smallest, at most :data:`H_MAX`, those of smallest bound, in index
    order), and for each its exact minimiser, gradient g^(j), value (the model's start),
    challenger argmax_{i != j} g^(j)_i and IDS beta g^(j)_j / (g^(j)_j + g^(j)_challenger). Returns ``|H|``."""
    fl, rhos, node, sums, outlier = wk[0], wk[1], wk[2], wk[3], wk[4]
    lead_steps, lead_pulls, lead_target, Gm, Hm, Mv, Cm, Bm, mm = tt
    n = mu.shape[0]
    D = fl[_D]
    lb = fl[_LB]
    lam = fl[_LAM]
    for i in range(n):
        D[i] = counts[i] / (2.0 * sigma * sigma)
    j0 = bounds_nb(mu, D, k, outlier, lb, fl, rhos, node, sums)
    m = near_set_nb(lb, lb[j0] * (1.0 + TT_SLACK), Hm)
    two_s2 = 2.0 * sigma * sigma
    mc = fl[_MC]
    for r in range(m):
        j = Hm[r]
        solve_nb(D, j, k, wk)
        v = 0.0
        for i in range(n):
            d = mc[i] - lam[i]
            Gm[r, i] = d * d / two_s2
            v += D[i] * d * d
        Mv[r] = v
        c = challenger_nb(Gm[r], j)
        Cm[r] = c
        gl = Gm[r, j]
        gc = Gm[r, c]
        Bm[r] = gl / (gl + gc) if gl + gc > 0.0 else 0.5
    mm[0] = m
    return m


@njit(cache=True)
def near_set_nb(lb, bar, H):
    """The arms with lb_j <= bar, in index order, at most :data:`H_MAX` (those of smallest lb, ties to
    the lowest index) written to H; returns how many."""
    n = lb.shape[0]
    m = 0
    for j in range(n):
        if lb[j] <= bar:
            m += 1
    if m > H_MAX:
        order = np.argsort(lb, kind="mergesort")
        m = 0
        for j in range(n):
            if _rank_ok(order, j, H_MAX):
                H[m] = j
                m += 1
        return m
    m = 0
    for j in range(n):
        if lb[j] <= bar:
            H[m] = j
            m += 1
    return m


@njit(cache=True)
def game_nb(G, m, w, steps, z):
    r"""max over the simplex of min_{r < m} <z - w, G[r]>, approximately, by a fixed scheme: ``steps``
    rounds of optimistic Hedge (multiplicative weights whose step uses twice the current payoff minus
    the previous one; Rakhlin & Sridharan 2013) for both players at once, the row player (a
    distribution q over the m rows) minimising and the column player (z) maximising the payoff
    :math:`A_{ri}=G_{ri}-\langle w,G_r\rangle`, both with learning rate 1/R, R the payoff range;
    z is the average of the column player's iterates (measured against a grid on 3-4 arms: within
    0.5% of R after 400 rounds). A zero range (every payoff equal) gives the uniform z. Writes z;
    returns its value :math:`\min_r\langle z-w,G_r\rangle`."""
    n = w.shape[0]
    A = np.empty((m, n))
    lo = math.inf
    hi = -math.inf
    for r in range(m):
        base = 0.0
        for i in range(n):
            base += w[i] * G[r, i]
        for i in range(n):
            a = G[r, i] - base
            A[r, i] = a
            if a < lo:
                lo = a
            if a > hi:
                hi = a
    rng = hi - lo
    for i in range(n):
        z[i] = 0.0
    if not rng > 0.0:
        for i in range(n):
            z[i] = 1.0 / n
    else:
        eta = 1.0 / rng
        lz = np.zeros(n)
        lq = np.zeros(m)
        gz = np.zeros(n)  # the column player's previous gains
        gq = np.zeros(m)  # the row player's previous losses
        p = np.empty(n)
        q = np.empty(m)
        for _ in range(steps):
            mx = lz[0]
            for i in range(1, n):
                if lz[i] > mx:
                    mx = lz[i]
            s = 0.0
            for i in range(n):
                p[i] = math.exp(lz[i] - mx)
                s += p[i]
            for i in range(n):
                p[i] /= s
            mx = lq[0]
            for r in range(1, m):
                if lq[r] > mx:
                    mx = lq[r]
            s = 0.0
            for r in range(m):
                q[r] = math.exp(lq[r] - mx)
                s += q[r]
            for r in range(m):
                q[r] /= s
            for i in range(n):
                z[i] += p[i]
                gain = 0.0
                for r in range(m):
                    gain += q[r] * A[r, i]
                lz[i] += eta * (2.0 * gain - gz[i])
                gz[i] = gain
            for r in range(m):
                loss = 0.0
                for i in range(n):
                    loss += A[r, i] * p[i]
                lq[r] -= eta * (2.0 * loss - gq[r])
                gq[r] = loss
        for i in range(n):
            z[i] /= steps
    value = math.inf
    for r in range(m):
        v = 0.0
        for i in range(n):
            v += z[i] * A[r, i]
        if v < value:
            value = v
    return value


# ------------------------------------------------------------------------------------------
# work arrays (allocated once per run of the fast engine, once per block by the reference)

# rows of the float block of new_work
_MU, _LB, _LAM, _G, _BESTW, _C, _D, _MC, _Y, _W, _YHAT, _W1, _W2, _NF = range(14)


@njit(cache=True)
def new_work(n):
    """The kernels' work arrays: (floats (rows _MU .. _YHAT, n each), multipliers, nodes, shared
    sums, outlier mask, Frank-Wolfe's gradients, its near-binding set, two int vectors of n)."""
    return (
        np.empty((_NF, n)),
        np.empty(NODES),
        np.empty(n, dtype=np.int64),
        np.empty(16),
        np.empty(n, dtype=np.bool_),
        np.empty((H_MAX, n)),
        np.empty(H_MAX, dtype=np.int64),
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.int64),
    )


# ------------------------------------------------------------------------------------------
# re-solves


@njit(cache=True)
def bounds_nb(mu, D, k, outlier, lb, fl, rhos, node, sums):
    """Lower bounds on every V_j (D = N / (2 sigma^2)) by :func:`~bandit_lib.arena.secular.lower_bounds_nb`
    on the :func:`grid_nb` multipliers (fills the outlier mask); returns the lowest index of the
    smallest bound. ``fl``: the float work block (its row _MC is used). The bounds of the arms above
    the single-arm upper value (:func:`single_arm_nb`, with a margin) are not tightened: they
    cannot be near the smallest."""
    mc = fl[_MC]
    outlier_mask_nb(mu, k, outlier)
    centre_nb(mu, mc)
    grid_nb(D, k, rhos)
    cutoff = single_arm_nb(mu, D, k) * (1.0 + 2.0 * TT_SLACK)
    lower_bounds_nb(mc, D, k, outlier, rhos, lb, node, sums, cutoff)
    return argmin_nb(lb)


@njit(cache=True)
def single_arm_nb(mu, D, k):
    """min_j D_j (mu_j - t_j)^2, t_j the leave-one-out threshold of arm j: the cost of moving one arm
    alone onto the threshold, an upper value on min_j V_j (:func:`~bandit_lib.arena.glr.glr_upper_bound`)."""
    n = mu.shape[0]
    s = 0.0
    for i in range(n):
        s += mu[i]
    m = s / n
    ss = 0.0
    for i in range(n):
        ss += (mu[i] - m) * (mu[i] - m)
    best = math.inf
    for j in range(n):
        c = mu[j] - m
        a = -c / (n - 1)
        v = max((ss - c * c) / (n - 1) - a * a, 0.0)
        tj = m + a + k * math.sqrt(n * v / (n - 1 - k * k))
        x = D[j] * (mu[j] - tj) * (mu[j] - tj)
        if x < best:
            best = x
    return best


@njit(cache=True)
def solve_nb(D, j, k, wk):
    """V_j exactly, after :func:`bounds_nb` (its centred means, nodes and outlier mask in ``wk``),
    warm-started from the multiplier of arm j's best node (:func:`~bandit_lib.arena.secular.arm_solve_nb`);
    the centred minimiser in the row _LAM of the float work block."""
    fl, rhos, node, outlier = wk[0], wk[1], wk[2], wk[4]
    guess = multiplier_of_node(j, node, rhos, D, k, outlier)
    return arm_solve_nb(fl[_MC], D, j, k, outlier[j], guess, fl[_LAM], fl[_W1], fl[_W2])


@njit(cache=True)
def fw_direction_nb(mu, counts, t, k, sigma, game_steps, z, wk):
    """Frank-Wolfe's re-solve: the iterate z (written); returns ``|H|``. H = the arms whose lower bound
    lies within (1 + r_t) of the smallest (at most :data:`H_MAX`: those of smallest bound; index
    order), with the gradients g^(j) at their exact minimisers; z = the vertex e_argmax g if
    ``|H|`` = 1, else the game of :func:`game_nb` at w = N / t."""
    fl, rhos, node, sums, outlier, G, H = wk[0], wk[1], wk[2], wk[3], wk[4], wk[5], wk[6]
    n = mu.shape[0]
    D = fl[_D]
    w = fl[_W]
    lb = fl[_LB]
    for i in range(n):
        D[i] = counts[i] / (2.0 * sigma * sigma)
        w[i] = counts[i] / t
    j0 = bounds_nb(mu, D, k, outlier, lb, fl, rhos, node, sums)
    m = near_set_nb(lb, lb[j0] * (1.0 + radius_fw_nb(t)), H)
    mc = fl[_MC]
    lam = fl[_LAM]
    for r in range(m):
        solve_nb(D, H[r], k, wk)
        gradient_nb(mc, lam, sigma, G[r])
    if m == 1:
        for i in range(n):
            z[i] = 0.0
        z[argmax_nb(G[0])] = 1.0
    else:
        game_nb(G, m, w, game_steps, z)
    return m


@njit(cache=True)
def _rank_ok(order, j, top):
    """Whether arm j is among the first ``top`` of ``order``."""
    for r in range(top):
        if order[r] == j:
            return True
    return False


@njit(cache=True)
def fixed_threshold_start_nb(mu, k, w):
    """w_i proportional to 1 / (mu_i - theta)^2, theta the k-sigma threshold of mu (the optimum with the
    threshold held fixed); uniform if an arm sits on the threshold."""
    n = mu.shape[0]
    _, _, theta = threshold_nb(mu, k)
    s = 0.0
    for i in range(n):
        d = (mu[i] - theta) * (mu[i] - theta)
        if not d > 0.0:
            for l in range(n):
                w[l] = 1.0 / n
            return
        w[i] = 1.0 / d
        s += w[i]
    for i in range(n):
        w[i] /= s


@njit(cache=True)
def start_nb(mu, k, w, warm, wk):
    """The start of a target computation, in w: the fixed-threshold weights of mu, or (``warm``) the
    last target w if its smallest lower bound is at least theirs. Returns whether w is the last target."""
    fl, rhos, node, sums, outlier = wk[0], wk[1], wk[2], wk[3], wk[4]
    n = mu.shape[0]
    cold = fl[_W]
    fixed_threshold_start_nb(mu, k, cold)
    if warm:
        D = fl[_D]
        lb = fl[_LB]
        for i in range(n):
            D[i] = w[i] / 0.5
        f_warm = lb[bounds_nb(mu, D, k, outlier, lb, fl, rhos, node, sums)]
        for i in range(n):
            D[i] = cold[i] / 0.5
        f_cold = lb[bounds_nb(mu, D, k, outlier, lb, fl, rhos, node, sums)]
        if f_warm >= f_cold:
            return True
    for i in range(n):
        w[i] = cold[i]
    return False


@njit(cache=True)
def target_steps_nb(mu, k, sigma, w, s0, steps, wk):
    r"""``steps`` multiplicative supergradient steps on :math:`F(w)=\min_jV_j(w)` from ``w`` (in
    place, then replaced by the best iterate), numbered from s0 + 1: with j the arm of smallest
    lower bound (:func:`bounds_nb`) and :math:`g_i=d(\mu_i,\lambda^{(j)}_i)` at its exact minimiser
    (a supergradient of :math:`V_j`), :math:`w_i\leftarrow w_i\,(1-\tfrac{1}{2\sqrt s}\,(\max g-g_i)/(\max g-\min g))`,
    floored at 1e-12 and renormalised. The best iterate is the one of largest :math:`\min_j`
    (lower bound) (the first among equals); returns that bound."""
    fl, rhos, node, sums, outlier = wk[0], wk[1], wk[2], wk[3], wk[4]
    n = mu.shape[0]
    D = fl[_D]
    lb = fl[_LB]
    lam = fl[_LAM]
    g = fl[_G]
    best_w = fl[_BESTW]
    best = -math.inf
    for i in range(n):
        best_w[i] = w[i]
    for s in range(s0 + 1, s0 + steps + 1):
        for i in range(n):
            D[i] = w[i] / (2.0 * sigma * sigma)
        j = bounds_nb(mu, D, k, outlier, lb, fl, rhos, node, sums)
        if lb[j] > best:
            best = lb[j]
            for i in range(n):
                best_w[i] = w[i]
        solve_nb(D, j, k, wk)
        gradient_nb(fl[_MC], lam, sigma, g)
        gmax = g[0]
        gmin = g[0]
        for i in range(1, n):
            gmax = max(gmax, g[i])
            gmin = min(gmin, g[i])
        span = gmax - gmin
        if not span > 0.0:
            break
        tot = 0.0
        for i in range(n):
            w[i] = max(w[i] * (1.0 - (0.5 / math.sqrt(s)) * (gmax - g[i]) / span), 1e-12)
            tot += w[i]
        for i in range(n):
            w[i] /= tot
    for i in range(n):
        w[i] = best_w[i]
    return best


# ------------------------------------------------------------------------------------------
# the stops


@njit(cache=True)
def screen_nb(mu, counts, k, sigma):
    """min_j N_j d(mu_j, t_j), t_j the leave-one-out threshold of arm j (glr.glr_upper_bound, Gaussian):
    an upper bound on the GLR statistic Z."""
    n = mu.shape[0]
    s = 0.0
    for i in range(n):
        s += mu[i]
    m = s / n
    ss = 0.0
    for i in range(n):
        ss += (mu[i] - m) * (mu[i] - m)
    two_s2 = 2.0 * sigma * sigma
    best = math.inf
    for j in range(n):
        c = mu[j] - m
        a = -c / (n - 1)
        v = max((ss - c * c) / (n - 1) - a * a, 0.0)
        tj = m + a + k * math.sqrt(n * v / (n - 1 - k * k))
        x = counts[j] * (mu[j] - tj) * (mu[j] - tj) / two_s2
        if x < best:
            best = x
    return best


@njit(cache=True)
def glr_check_nb(mu, counts, k, sigma, level, margin, cand, wk):
    """The fast GLR check: (code, statistic, candidate). Code 0: go on, since an upper bound on Z
    (the screen, or the exact value of one arm) lies below level (1 - margin); code 2: Python
    decides (should_stop). The arm ``cand`` (the one found below the level at the last check; -1:
    none) is solved first; then the arms in increasing order of their lower bound, until one is
    below the level or every remaining bound is above level (1 + margin)."""
    fl, rhos, node, sums, outlier = wk[0], wk[1], wk[2], wk[3], wk[4]
    ub = screen_nb(mu, counts, k, sigma)
    lo_bar = level * (1.0 - margin)
    if ub < lo_bar:
        return 0, ub, cand
    n = mu.shape[0]
    D = fl[_D]
    for i in range(n):
        D[i] = counts[i] / (2.0 * sigma * sigma)
    if cand >= 0:  # the arm found below the level last time, first (no guess yet: a cold solve)
        outlier_mask_nb(mu, k, outlier)
        centre_nb(mu, fl[_MC])
        v = arm_solve_nb(fl[_MC], D, cand, k, outlier[cand], 0.0, fl[_LAM], fl[_W1], fl[_W2])
        if v < lo_bar:
            return 0, v, cand
    lb = fl[_LB]
    bounds_nb(mu, D, k, outlier, lb, fl, rhos, node, sums)
    order = np.argsort(lb, kind="mergesort")
    hi_bar = level * (1.0 + margin)
    z = math.inf
    for r in range(n):
        j = order[r]
        if lb[j] > hi_bar:
            break
        if j == cand:
            continue
        v = solve_nb(D, j, k, wk)
        z = min(z, v)
        if v < lo_bar:
            return 0, v, j
    return 2, min(z, ub), cand


@njit(cache=True)
def cs_check_nb(sums, counts, sigma, C, k, interval, yhat, r):
    """The per-arm confidence-sequence stop of :mod:`~bandit_lib.arena.anytime` at the current
    counts: (stop, theta_hat, beta_theta). ``r`` holds radius_nb(N_i) (kept current by the caller)."""
    n = sums.shape[0]
    c0, d1, d2, r1, r2 = exact_nb(sums, counts, sigma, C, yhat, r, True)
    theta, beta = theta_beta_nb(c0, d1, d2, r1, r2, n, k, interval)
    return not any_active_nb(yhat, r, theta, beta), theta, beta


# ------------------------------------------------------------------------------------------
# one block's decision (shared by the reference and the fast engine)


@njit(cache=True)
def block_nb(
    sampler, sums, counts, t, block, A, Bv, tt, ist, fst,
    k, sigma, every, lazy, ratio, steps, beta, tt_rule, game_steps, x, f, wk,
):  # fmt: skip
    """The allocation x + f (f: forced pulls) of the block of ``block`` pulls starting at t, after
    the re-solve its schedule asks for. State: A, Bv (D/C-tracking: target weights and running sum;
    Frank-Wolfe: S and the iterate z), tt (Top-Two's, ``top_two_block_nb``), ist / fst
    (integer and float state)."""
    n = sums.shape[0]
    fl = wk[0]
    y = fl[_Y]
    nf = forced_nb(counts, t, block, f, y)
    ist[_FORCED] += nf
    rest = block - nf
    for i in range(n):
        x[i] = 0
    if sampler == FRANK_WOLFE:
        for i in range(n):
            A[i] += f[i]  # forced pulls add their own arm to S
    if rest == 0:
        if sampler == TOP_TWO and tt[8][0] > 0:
            top_two_block_nb(0, tt_rule, beta, tt, f, x)  # the models see the forced pulls
        return
    if sampler == RR:
        p = ist[_RR]
        for _ in range(rest):
            x[p] += 1
            p = (p + 1) % n
        ist[_RR] = p
        return
    if t >= ist[_NEXT]:
        mu = fl[_MU]
        for i in range(n):
            mu[i] = sums[i] / counts[i]
        ist[_SOLVES] += 1
        if sampler == D_TRACKING or sampler == C_TRACKING:
            # from the last target, the step sizes go on shrinking (a refinement); from the
            # fixed-threshold weights they start again
            if not start_nb(mu, k, A, ist[_SOLVES] > 1, wk):
                ist[_STEPS] = 0
            target_steps_nb(mu, k, 0.5, A, ist[_STEPS], steps, wk)
            ist[_STEPS] += steps
            ist[_NEXT] = int(math.ceil(ratio * t))
        elif sampler == TOP_TWO:
            top_two_resolve_nb(mu, counts, k, sigma, tt, wk)
            ist[_NEXT] = t + max(every, int(math.ceil(lazy * t)))
        else:
            if fw_direction_nb(mu, counts, t, k, sigma, game_steps, Bv, wk) > 1:
                ist[_GAMES] += 1
            ist[_NEXT] = t + max(every, int(math.ceil(lazy * t)))
    if sampler == TOP_TWO:
        top_two_block_nb(rest, tt_rule, beta, tt, f, x)
        return
    c = fl[_C]
    if sampler == D_TRACKING:
        for i in range(n):
            c[i] = (t + block) * A[i]
    elif sampler == C_TRACKING:
        eps = 0.5 / math.sqrt(n * n + t)
        tot = 0.0
        for i in range(n):
            tot += max(A[i], eps)
        for i in range(n):
            Bv[i] += rest * (max(A[i], eps) / tot)
            c[i] = Bv[i]
    else:
        for i in range(n):
            A[i] += rest * Bv[i]
            c[i] = A[i]
    track_nb(c, counts, f, rest, x, y)


# ------------------------------------------------------------------------------------------
# the fast engine


@njit(cache=True)
def _check_nb(stop, t, n, cap, m, ist, fst, sums, counts, k, sigma, cg, C, interval, margin, python_stop, r, wk):
    """The stop check at t: -1 = go on, else a return code (STOPPED, CAPPED or ASK)."""
    if (t % m == 0 or t >= cap) and t != ist[_SKIP]:
        ist[_CHECKS] += 1
        fl = wk[0]
        if stop == GLR:
            if python_stop:
                return ASK
            level = n * 2.0 * math.log(4.0 + math.log(max(t / n, 1.0))) + cg
            mu = fl[_MU]
            for i in range(n):
                mu[i] = sums[i] / counts[i]
            code, stat, cand = glr_check_nb(mu, counts, k, sigma, level, margin, ist[_CAND], wk)
            ist[_CAND] = cand
            fst[_STAT] = stat
            fst[_LEVEL] = level
            if code == 2:
                return ASK
        elif stop == CS:
            done, theta, beta_th = cs_check_nb(sums, counts, sigma, C, k, interval, fl[_YHAT], r)
            fst[_STAT] = theta
            fst[_LEVEL] = beta_th
            if done:
                return STOPPED
    if t >= cap:
        return CAPPED
    return -1


@njit(cache=True)
def blocks_nb(
    kind, keys, means, scale, tv, offsets, blocks, words,
    sums, counts, A, Bv, tt, ist, fst, r,
    sampler, stop, k, sigma, cap, m, every, lazy, ratio, steps, beta, tt_rule, game_steps,
    cg, C, interval, margin, python_stop,
):  # fmt: skip
    """Blocks from t = ist[_T] until a stop, the cap, or a check handed to Python (returns the code)."""
    n = sums.shape[0]
    wk = new_work(n)
    x = wk[7]
    f = wk[8]
    t = ist[_T]
    while True:
        code = _check_nb(
            stop, t, n, cap, m, ist, fst, sums, counts, k, sigma, cg, C, interval, margin, python_stop, r, wk
        )
        if code >= 0:
            ist[_T] = t
            return code
        block = min(m - t % m, cap - t)
        block_nb(
            sampler, sums, counts, t, block, A, Bv, tt, ist, fst,
            k, sigma, every, lazy, ratio, steps, beta, tt_rule, game_steps, x, f, wk,
        )  # fmt: skip
        for i in range(n):
            c = x[i] + f[i]
            if c > 0:
                sums[i] = pull_sum(kind, keys, means, scale, tv, offsets, blocks, words, i, counts[i], c, sums[i])
                counts[i] += c
                if stop == CS:
                    r[i] = radius_nb(counts[i], sigma, C)
        t += block


@njit(cache=True)
def _initial_pulls_nb(kind, keys, means, scale, tv, offsets, blocks, words, sums, counts):
    for i in range(sums.shape[0]):
        sums[i] = pull_sum(kind, keys, means, scale, tv, offsets, blocks, words, i, 0, 1, 0.0)
        counts[i] = 1


# ------------------------------------------------------------------------------------------
# Python: arguments, state, the fast engine's driver, the outcome


def check_sampler(
    tape, k, delta, cap, threshold, sub_gaussian, check_every, every, engine, stop="glr", interval="triangle"
):
    """Validate the arguments the samplers share; returns the dict of ``sampler_setup``.

    The samplers need the Gaussian divergence: ``sub_gaussian=s`` (default 1/2, rewards in [0, 1])
    or, with ``sub_gaussian=None``, a Gaussian tape and its own sigma. ``stop``: ``"glr"`` (the
    GLR statistic, KK21 threshold), ``"cs"`` (per-arm confidence sequences; sigma must not be below
    what the tape needs, :func:`~bandit_lib.arena.anytime.check_sigma_for_tape`) or ``"none"``."""
    n, k, delta, cap, divergence, sigma, threshold = check_detector(tape, k, delta, cap, threshold, sub_gaussian)
    if divergence != "gaussian":
        raise ValueError(
            "the samplers use the Gaussian divergence: pass sub_gaussian=s (s = 1/2 for rewards in [0, 1]) with a "
            f"{tape.kind_name} tape; got sub_gaussian={sub_gaussian!r}"
        )
    check_every = n if check_every is None else check_int("check_every", check_every, minimum=1)
    every = n if every is None else check_int("every", every, minimum=1)
    check_engine(engine)
    return sampler_setup(tape, n, k, delta, cap, sigma, threshold, check_every, every, stop, interval)


def sampler_setup(tape, n, k, delta, cap, sigma, threshold, check_every, every, stop, interval) -> dict:
    """The run's settings (the other arguments already checked): n, k, delta, cap, sigma,
    threshold, m (= check_every), every, stop and, for ``stop="cs"``, the constant C^G(ln(n / delta))
    and the interval's code (sigma checked against the tape)."""
    from bandit_lib.arena.anytime import INTERVALS

    stop = check_choice("stop", stop, tuple(STOPS))
    interval = check_choice("interval", interval, tuple(INTERVALS))
    C = 0.0
    if stop == "cs":
        sigma = check_sigma_for_tape(sigma, tape)
        C = cs_constant_of(math.log(n / delta))
    return {
        "n": n, "k": k, "delta": delta, "cap": cap, "sigma": sigma, "threshold": threshold, "m": check_every,
        "every": every, "stop": stop, "C": C, "interval": INTERVALS[interval],
    }  # fmt: skip


def check_lazy(lazy) -> float:
    lazy = check_real("lazy", lazy)
    if not 0.0 <= lazy <= 1.0:
        raise ValueError(f"lazy must lie in [0, 1] (re-solve after a fraction lazy of t more pulls); got lazy={lazy!r}")
    return lazy


def game(G, w, steps: int = GAME_STEPS) -> tuple[np.ndarray, float]:
    """(z, its value) for the game of :func:`game_nb` on the rows of G."""
    G = np.ascontiguousarray(G, dtype=np.float64)
    w = np.ascontiguousarray(w, dtype=np.float64)
    steps = check_int("steps", steps, minimum=1)
    if G.ndim != 2 or G.shape[1] != len(w) or G.shape[0] < 1:
        raise ValueError(f"G must be an (m, n) array with n = len(w) = {len(w)}; got G.shape={G.shape}")
    z = np.empty(len(w))
    value = game_nb(G, G.shape[0], w, steps, z)
    return z, float(value)


@functools.lru_cache(maxsize=64)
def threshold_constant(n: int, delta: float) -> float:
    """n C^G(ln(1/delta) / n), the t-free part of :func:`~bandit_lib.arena.glr.kk21_gaussian_threshold`."""
    return n * c_gauss(math.log(1.0 / delta) / n)


class State:
    """The state of one run, shared by the reference and the fast engine (arrays the kernels update)."""

    def __init__(self, n: int):
        self.sums = np.zeros(n)
        self.counts = np.zeros(n, dtype=np.int64)
        self.A = np.zeros(n)
        self.Bv = np.zeros(n)
        self.tt = (
            np.zeros(n, dtype=np.int64),  # L: steps led
            np.zeros(n, dtype=np.int64),  # N^lead: leader pulls
            np.zeros(n),  # B^lead: running sums of beta
            np.zeros((H_MAX, n)),  # gradients of the candidates
            np.zeros(H_MAX, dtype=np.int64),  # the candidates H
            np.zeros(H_MAX),  # their models
            np.zeros(H_MAX, dtype=np.int64),  # their challengers
            np.zeros(H_MAX),  # their IDS betas
            np.zeros(1, dtype=np.int64),  # |H|
        )
        self.ist = np.zeros(_NIST, dtype=np.int64)
        self.fst = np.zeros(_NFST)
        self.r = np.zeros(n)
        self.ist[_SKIP] = -1
        self.ist[_CAND] = -1

    def start(self, sampler: int, n: int):
        """After the initial pulls: t = n, the first re-solve due at once, S = N for Frank-Wolfe."""
        self.ist[_T] = n
        self.ist[_NEXT] = n
        if sampler == FRANK_WOLFE:
            self.A[:] = self.counts


def sampler_args(sampler: str, a: dict, params: dict) -> dict:
    """The kernels' keyword arguments for ``sampler`` (codes and defaults)."""
    return {
        "sampler": SAMPLER_CODES[sampler],
        "stop": STOPS[a["stop"]],
        "k": a["k"],
        "sigma": a["sigma"],
        "every": a["every"],
        "lazy": float(params.get("lazy", 0.0)),
        "ratio": float(params.get("ratio", 2.0)),
        "steps": int(params.get("steps", 50)),
        "beta": float(params.get("beta", 0.5)),
        "tt_rule": TT_RULES[params.get("rule", "fixed")],
        "game_steps": int(params.get("game_steps", GAME_STEPS)),
    }


def run_fast(sampler: str, tape, a: dict, params: dict, custom: bool, margin: float = None) -> Outcome:
    """The fast engine of ``sampler`` (arguments checked by the caller: ``a`` from
    :func:`check_sampler`, ``params`` the sampler's own): numba blocks, with the GLR checks it
    cannot settle handed to :func:`~bandit_lib.arena.glr.should_stop`."""
    margin = STOP_MARGIN if margin is None else float(margin)
    n, cap, m = a["n"], a["cap"], a["m"]
    kw = sampler_args(sampler, a, params)
    st = State(n)
    blocks, words = new_cache(n)
    arrays = tape.arrays
    _initial_pulls_nb(*arrays, blocks, words, st.sums, st.counts)
    st.start(kw["sampler"], n)
    if a["stop"] == "cs":
        st.r[:] = [radius_nb(1, a["sigma"], a["C"])] * n
    cg = 0.0 if custom else threshold_constant(n, a["delta"])
    python_stop = custom
    while True:
        code = blocks_nb(
            *arrays, blocks, words, st.sums, st.counts, st.A, st.Bv, st.tt, st.ist, st.fst,
            st.r, kw["sampler"], kw["stop"], kw["k"], kw["sigma"], cap, m, kw["every"], kw["lazy"], kw["ratio"],
            kw["steps"], kw["beta"], kw["tt_rule"], kw["game_steps"], cg, a["C"], a["interval"], margin,
            python_stop,
        )  # fmt: skip
        if code == ASK:
            t = int(st.ist[_T])
            level = float(a["threshold"](t, n, a["delta"]))
            stop, stat = should_stop(st.sums / st.counts, st.counts, a["k"], "gaussian", a["sigma"], level)
            st.fst[_STAT], st.fst[_LEVEL] = stat, level
            if stop:
                code = STOPPED
            else:
                st.ist[_SKIP] = t  # resume at t, past its check
                continue
        break
    tape.counts[:] = st.counts  # the tape is consumed exactly as the reference would have consumed it
    return outcome(sampler, a, st, code == CAPPED, "fast")


def run_trajectory(sampler: str, tape, a: dict, params: dict, checkpoints) -> list[np.ndarray]:
    """The fast engine with the stop switched off (``a["stop"] == "none"``): the counts after each
    of ``checkpoints`` pulls (increasing, at least n, each a multiple of the block length so that
    the run is the one to the last checkpoint, read on the way)."""
    n, m = a["n"], a["m"]
    if a["stop"] != "none":
        raise ValueError(f"a trajectory runs with the stop switched off (stop='none'); got stop={a['stop']!r}")
    kw = sampler_args(sampler, a, params)
    st = State(n)
    blocks, words = new_cache(n)
    arrays = tape.arrays
    _initial_pulls_nb(*arrays, blocks, words, st.sums, st.counts)
    st.start(kw["sampler"], n)
    out = []
    last = n
    for cap in checkpoints:
        cap = check_int("checkpoint", cap, minimum=last)
        if cap % m and cap != n:
            raise ValueError(f"every checkpoint must be a multiple of the block length {m}; got {cap}")
        blocks_nb(
            *arrays, blocks, words, st.sums, st.counts, st.A, st.Bv, st.tt, st.ist, st.fst,
            st.r, kw["sampler"], NO_STOP, kw["k"], kw["sigma"], cap, m, kw["every"], kw["lazy"], kw["ratio"],
            kw["steps"], kw["beta"], kw["tt_rule"], kw["game_steps"], 0.0, 0.0, 0, STOP_MARGIN, False,
        )  # fmt: skip
        out.append(st.counts.copy())
        last = cap
    tape.counts[:] = st.counts
    return out


def outcome(sampler: str, a: dict, st: State, capped: bool, engine: str) -> Outcome:
    """The run's Outcome: output Omega(mu_hat) (GLR, none) or {i : yhat_i > theta_hat} (CS, as
    :mod:`~bandit_lib.arena.anytime` outputs); info: engine, stop, the statistic and level of the last
    check (GLR: Z and the threshold; CS: theta_hat and beta_theta), re-solves, forced pulls, checks."""
    n = a["n"]
    mu_hat = st.sums / st.counts
    if a["stop"] == "cs":
        yhat, r = np.empty(n), np.empty(n)
        theta, beta_th = theta_beta_nb(
            *exact_nb(st.sums, st.counts, a["sigma"], a["C"], yhat, r, False), n, a["k"], a["interval"]
        )
        output = np.flatnonzero(yhat > theta)
        stat = {"theta": float(theta), "beta_theta": float(beta_th)}
    else:
        output = ksigma_outliers(mu_hat, a["k"])
        stat = {"Z": float(st.fst[_STAT]), "threshold": float(st.fst[_LEVEL])}
    info = {"engine": engine, "stop": a["stop"], **stat, "solves": int(st.ist[_SOLVES]), "forced": int(st.ist[_FORCED])}
    info["checks"] = int(st.ist[_CHECKS])
    if sampler == "frank_wolfe":
        info["games"] = int(st.ist[_GAMES])
    return Outcome(output, int(st.ist[_T]), bool(capped), st.counts.copy(), info)


def run_reference(
    sampler: str, tape, a: dict, params: dict, weights=None, divergence: str = "gaussian", screen: bool = True
) -> Outcome:
    """The readable reference of every sampler: blocks in Python, pulls one at a time
    (``tape.pull``, in index order within a block), the stop by :func:`~bandit_lib.arena.glr.should_stop`
    (GLR, under ``divergence``, with its ``screen``) or the anytime kernels (CS), each block's
    allocation by ``block_nb`` (``weights``: a callable mu_hat -> target weights replacing the
    Gaussian target of D/C-tracking, re-solved on the same schedule)."""
    n, cap, m, k, sigma, delta = a["n"], a["cap"], a["m"], a["k"], a["sigma"], a["delta"]
    kw = sampler_args(sampler, a, params)
    st = State(n)
    for i in range(n):  # pull every arm once
        st.sums[i] += tape.pull(i)
        st.counts[i] += 1
    st.start(kw["sampler"], n)
    wk = new_work(n)
    x, f = wk[7], wk[8]
    t = n
    while True:
        # the stop, at every multiple of m and at the cap
        if t % m == 0 or t >= cap:
            st.ist[_CHECKS] += 1
            if a["stop"] == "glr":
                level = float(a["threshold"](t, n, delta))
                stop, stat = should_stop(st.sums / st.counts, st.counts, k, divergence, sigma, level, screen=screen)
                st.fst[_STAT], st.fst[_LEVEL] = stat, level
                if stop:
                    st.ist[_T] = t
                    return outcome(sampler, a, st, False, "reference")
            elif a["stop"] == "cs":
                yhat, r = np.empty(n), np.empty(n)
                c0, d1, d2, r1, r2 = exact_nb(st.sums, st.counts, sigma, a["C"], yhat, r, False)
                theta, beta_th = theta_beta_nb(c0, d1, d2, r1, r2, n, k, a["interval"])
                st.fst[_STAT], st.fst[_LEVEL] = theta, beta_th
                if not any_active_nb(yhat, r, theta, beta_th):
                    st.ist[_T] = t
                    return outcome(sampler, a, st, False, "reference")
        if t >= cap:
            st.ist[_T] = t
            return outcome(sampler, a, st, True, "reference")
        block = min(m - t % m, cap - t)
        if weights is not None and t >= st.ist[_NEXT] and kw["sampler"] in (D_TRACKING, C_TRACKING):
            # a target from Python (exact weights): the same schedule, then no kernel re-solve
            st.A[:] = weights(st.sums / st.counts)
            st.ist[_NEXT] = int(math.ceil(kw["ratio"] * t))
            st.ist[_SOLVES] += 1
            st.ist[_STEPS] = 1
        block_nb(
            kw["sampler"], st.sums, st.counts, t, block, st.A, st.Bv, st.tt, st.ist,
            st.fst, k, sigma, kw["every"], kw["lazy"], kw["ratio"], kw["steps"], kw["beta"],
            kw["tt_rule"], kw["game_steps"], x, f, wk,
        )  # fmt: skip
        for i in range(n):
            for _ in range(int(x[i] + f[i])):
                st.sums[i] += tape.pull(i)
                st.counts[i] += 1
        t += block


__all__ = [
    "GAME_STEPS",
    "H_MAX",
    "KAPPA",
    "NODES",
    "SAMPLER_CODES",
    "STOPS",
    "STOP_MARGIN",
    "TT_RULES",
    "check_sampler",
    "game",
    "game_nb",
    "run_fast",
    "run_reference",
]
