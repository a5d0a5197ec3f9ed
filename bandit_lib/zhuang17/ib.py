r"""IB: Iterative Best-arm identification, ZHUANG17's second baseline (§5.2).

"We apply a state-of-the-art best arm identification algorithm [Chen et al. 2014] iteratively ...
until the current best arm is not in :math:`\hat\Omega`." The best-arm algorithm is CLUCB of
{cite}`chen2014combinatorial` with the decision class "single arms" (top-1)::

    IB(arms, k, delta, T_max, R_sg = 1/2):
     1  pull each arm once; T = n; S <- {0..n-1}        # statistics are shared across stages
     2  loop:
     3      b <- CLUCB_TOP1(S)                           # pulls only arms of S
     4      thetahat from ALL n arms' yhat
     5      if T >= T_max or yhat_b <= thetahat: break   # b is not in Omegahat: stop
     6      S <- S \ {b}; if S is empty: break
     7  return Omegahat = {i : yhat_i > thetahat} over all n arms, T

    CLUCB_TOP1(S):
     1  loop:
     2      if |S| == 1: return the arm of S
     3      a <- argmax_{i in S} yhat_i                   # ties: lowest index
     4      rad_i <- R_sg sqrt(2 ln(4 |S| t^3 / delta) / m_i),  t = T
     5      j <- argmax_{i in S, i != a} (yhat_i + rad_i) # ties: lowest index
     6      if yhat_a - rad_a >= yhat_j + rad_j: return a # the perturbed oracle agrees with a
     7      p <- a if rad_a >= rad_j else j                # the larger radius
     8      pull p; T += 1; if T >= T_max: return argmax_{i in S} yhat_i

Our reading of what the paper leaves open (the ZHUANG17 chapter's reproduction notes, row N7; GOLD20 uses the
same IB): samples are kept across stages (warm start), ``t`` is the
global pull count, each call uses the full :math:`\delta`, and :math:`R_{sg} = 1/2` (Bernoulli
rewards are 1/2-sub-Gaussian). The radius is that of CLUCB's Algorithm 1 with :math:`n = |S|`;
line 6 is its stopping rule :math:`\tilde w(\tilde M) = \tilde w(M)` for top-1, and line 7 its
"arm of the symmetric difference with the largest radius". IB has no overall guarantee: its stop
rule is heuristic, and its last stage must separate the best *normal* arm from the next one.

Fast engine (exact): only the leader ``a`` and the challenger ``j`` are ever pulled, and between
two pulls ``t`` grows by one, which moves every radius a little. The leader is the root of an
argmax tree over :math:`\hat y`; the challenger is the root of a *kinetic tournament*: a tree over
the other arms of S whose nodes each hold the winner of their two children's winners. Arm i's
float UCB is within a few ulps of the line :math:`\hat y_i + c/\sqrt{m_i}` in
:math:`c = R\sqrt{2\ln(4|S|t^3/\delta)}`, so a node's winner is certified over a short window of
pulls (:data:`WINDOW`) by the difference of two lines at the window's ends, and stays the winner
until the root of that difference, which the node records. A pull changes one leaf (its path to
the root is recomputed); a node whose root c may be passed in the window is recomputed; a
comparison the lines cannot settle, within a margin of 16 ulps, is made with the reference's own
floats at that ``t``. Every comparison that decides something is thus the reference's own float
comparison, or a certified equivalent of it. Cost: O(log n) per pull (the old engine's rescan of
the candidates was O(n) per window, and exact for every arm whose UCB interval reached the best
one: on the Twitter-like keywords, where CLUCB equalises the challengers' UCBs to within 1e-9,
that was most of them at every pull).

*Duels.* Where one challenger j holds for many pulls (two near-tied arms in the last stage, the
common case on the synthetic instances), CLUCB pulls a and j alternately. Once j has held over a
pull, the engine pulls on without touching the trees while every state is certified to keep a the
leader (against the best other yhat), j the challenger (its UCB's lower bound above a bound on every
other challenger's UCB up to a horizon T_end, taken from the tree's certified subtrees) and the stop
test false (LCB_a's upper bound below UCB_j's lower bound); then the trees are brought up to date.

``Outcome.info``: ``stages`` (CLUCB calls), ``removed`` (arms removed, in order), ``last_best``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from bandit_lib.checks import check_positive
from bandit_lib.ksigma import cap_or_refuse, threshold_nb
from bandit_lib.runner import DEFAULT_CAP, Outcome
from bandit_lib.tapes import BERNOULLI, RewardTape, philox_block, pull_sum, uniform_of
from bandit_lib.zhuang17._engine import FN_MARGIN, U, check_common

#: Pulls per window of the fast engine: over a window, every arm's UCB moves with Lg, while the
#: challengers' UCBs, which CLUCB equalises, are often only ~1e-9 apart; short windows keep the
#: certificates able to separate them (measured: 64 * 2^-10 T pulls left most comparisons to the
#: exact floats on the Twitter-like keywords).
WINDOW = 16


@njit(cache=True)
def clucb_log_nb(size: int, t: int, delta: float) -> float:
    """``ln(4 |S| t^3 / delta)``."""
    tf = float(t)
    return math.log(4.0 * size * (tf * tf * tf) / delta)


@njit(cache=True)
def clucb_radius_nb(Lg: float, m: float, R: float) -> float:
    """CLUCB's radius R sqrt(2 Lg / m)."""
    return R * math.sqrt(2.0 * Lg / m)


@njit(cache=True)
def clucb_radii_nb(Lg, m, R, out):
    for i in range(m.shape[0]):
        out[i] = clucb_radius_nb(Lg, float(m[i]), R)


# ------------------------------------------------------------------------------------------
# reference


def _clucb_top1_reference(S: list, tape: RewardTape, s, m, T: int, cap: int, delta: float, R: float):
    """CLUCB_TOP1 on the (sorted) arm list S; returns (best arm, T)."""
    idx = np.array(S)
    rad = np.empty(len(S))
    while True:
        if len(S) == 1:  # line 2
            return S[0], T
        yhat = s[idx] / m[idx]
        ia = int(np.argmax(yhat))  # line 3 (first maximum)
        clucb_radii_nb(clucb_log_nb(len(S), T, delta), m[idx], R, rad)  # line 4
        ucb = yhat + rad
        ucb[ia] = -np.inf
        ij = int(np.argmax(ucb))  # line 5
        if yhat[ia] - rad[ia] >= ucb[ij]:  # line 6
            return S[ia], T
        p = idx[ia] if rad[ia] >= rad[ij] else idx[ij]  # line 7
        s[p] += tape.pull(p)  # line 8
        m[p] += 1
        T += 1
        if T >= cap:
            return S[int(np.argmax(s[idx] / m[idx]))], T


def ib_reference(tape: RewardTape, *, k: float, delta: float, cap: int | None = None, R_sg: float = 0.5) -> Outcome:
    """IB pull by pull (other arguments already checked by :func:`ib`; without a ``cap``, a degenerate instance is refused)."""
    cap = cap_or_refuse(cap, tape, k, default=DEFAULT_CAP, who="IB", delta=delta)
    n = tape.n_arms
    s = np.zeros(n)
    m = np.zeros(n, dtype=np.int64)
    for i in range(n):  # line 1
        s[i] += tape.pull(i)
        m[i] += 1
    T = n
    S = list(range(n))
    removed, stages = [], 0
    while True:  # line 2
        b, T = _clucb_top1_reference(S, tape, s, m, T, cap, delta, R_sg)  # line 3
        stages += 1
        yhat = s / m
        theta = threshold_nb(yhat, k)[2]  # line 4
        if T >= cap or yhat[b] <= theta:  # line 5
            break
        S.remove(b)  # line 6
        removed.append(b)
        if not S:
            break
    info = {"engine": "reference", "stages": stages, "removed": removed, "last_best": int(b)}
    return Outcome(np.flatnonzero(yhat > theta), T, T >= cap, m.copy(), info)


# ------------------------------------------------------------------------------------------
# fast engine


@njit(cache=True, inline="always")
def _ucb(y, Lg, m, R):
    return y + clucb_radius_nb(Lg, m, R)


@njit(cache=True, inline="always")
def _better(v1, i1, v2, i2):
    """(v1, i1) beats (v2, i2) in an argmax with ties to the lowest index."""
    return v1 > v2 or (v1 == v2 and i1 < i2)


@njit(cache=True, inline="always")
def _set_arg(tree, P, i, present, yhat):
    """Leaf i of an argmax tree over yhat (ties to the lower index; -1 = empty) := i or -1."""
    x = P + i
    tree[x] = i if present else -1
    x >>= 1
    while x >= 1:
        l = tree[2 * x]
        r = tree[2 * x + 1]
        if l < 0:
            tree[x] = r
        elif r < 0:
            tree[x] = l
        else:
            tree[x] = r if _better(yhat[r], r, yhat[l], l) else l
        x >>= 1


@njit(cache=True, inline="always")
def _window(T, cap, size, delta, R):
    """A new window [T, T_hi]: (T_hi, c_lo, c_hi), bounds on c = R sqrt(2 Lg) over it."""
    T_hi = min(T + WINDOW, cap)
    lg_lo = clucb_log_nb(size, T, delta) * (1.0 - FN_MARGIN)
    lg_hi = clucb_log_nb(size, T_hi, delta) * (1.0 + FN_MARGIN)
    return T_hi, R * math.sqrt(2.0 * lg_lo) * (1.0 - 4.0 * U), R * math.sqrt(2.0 * lg_hi) * (1.0 + 4.0 * U)


@njit(cache=True, inline="always")
def _rad_bounds(sg_lo, sg_hi, w):
    """Bounds on the reference's float radius fl(R sqrt(fl(2 Lg / m))) for every Lg of the window,
    from c = R sqrt(2 Lg) at the window's ends and w = fl(1/sqrt(m)): a few ulps of rounding each."""
    return sg_lo * w * (1.0 - 16.0 * U), sg_hi * w * (1.0 + 16.0 * U)


@njit(cache=True)
def _clucb_fast(
    kind,
    keys,
    means,
    scale,
    values,
    offsets,
    blocks,
    words,
    s,
    m,
    yhat,
    w,
    g,
    members,
    size,
    T,
    cap,
    delta,
    R,
    P,
    t_y,
    kt,
    ke,
    kmin,
    stack,
    order,
    stats,
):
    """CLUCB_TOP1 on members[:size]; returns (best arm, T). Exact; see the module docstring.

    ``t_y``: argmax tree of yhat over S (its root is the leader a). ``kt``: a kinetic tournament
    tree over the other arms of S, whose root is the challenger j = argmax UCB. Each internal node
    holds the winner of its two children's winners, certified up to a value ``ke`` of
    Lg = ln(4|S|t^3/delta) (-inf: decided by the exact floats for the current t only), and ``kmin``
    the smallest such value in its subtree. A pull changes one leaf (its path to the root is
    recomputed); t grows, so a node is recomputed when Lg may pass its value.

    The comparison of two arms: the float UCB of arm i lies within 4u(``|yhat_i|`` + rho_i) of the
    real y_i + c/sqrt(m_i), c = R sqrt(2 Lg), and ``w`` holds fl(1/sqrt(m_i)) (2u), so a real
    difference D(c) = dy + c dw > M, with M 16u times the magnitudes (twice what the roundings,
    those of D's own evaluation included, need), decides the float comparison strictly. D is
    linear in c: checking both ends of the window [c_lo, c_hi] certifies the whole window, and its
    root says until when. Two arms with equal (yhat, m) have equal UCBs at every t: the lower index
    wins. Anything else is decided by the reference's own floats (the exact Lg at this t).

    The pulled arm is a iff m_a <= m_j: rad is strictly decreasing in m in floats too (distinct
    m < 2^52 differ by far more than an ulp). The loop is written out in one function: numba
    increments and decrements the reference count of every array passed to a helper, which
    measured several times the cost of the comparisons themselves.
    """
    if size == 1:
        return members[0], T
    c_cap = R * math.sqrt(2.0 * clucb_log_nb(size, cap, delta) * (1.0 + FN_MARGIN)) * (1.0 + 4.0 * U)
    T_hi, c_lo, c_hi = _window(T, cap, size, delta, R)
    stats[1] += 1
    lg_T = -1
    lg_v = 0.0
    a = t_y[1]
    # the challenger tree over S minus the leader, built bottom-up by the recompute loop below
    for x in range(P, 2 * P):
        kt[x] = -1
        kmin[x] = np.inf
    for r in range(size):
        i = members[r]
        g[i] = abs(yhat[i]) + c_cap * w[i]
        if i != a:
            kt[P + i] = i
    cnt = 0
    for x in range(P - 1, 0, -1):
        order[cnt] = x
        cnt += 1
    early = -2  # >= 0: order holds the path of this leaf alone, and may stop where nothing changes
    prev_j = -1
    next_duel = 0
    duel_wait = 8
    duel_len = 0
    leaves = np.empty(3, dtype=np.int64)
    refreshed = -1
    rl, rh = _rad_bounds(c_lo, c_hi, w[a])
    la_lo = yhat[a] - rh  # bounds on the leader's float LCB over the window
    la_hi = yhat[a] - rl
    while True:
        # recompute the nodes of order[:cnt], children before parents
        for q in range(cnt):
            x = order[q]
            l = 2 * x
            i = kt[l]
            j = kt[l + 1]
            if i < 0:
                wnr = j
                e = np.inf
            elif j < 0:
                wnr = i
                e = np.inf
            else:
                yi = yhat[i]
                yj = yhat[j]
                if yi == yj and m[i] == m[j]:
                    wnr = min(i, j)
                    e = np.inf
                else:
                    M = 16.0 * U * (g[i] + g[j])
                    dy = yi - yj
                    dw = w[i] - w[j]
                    d_lo = dy + c_lo * dw
                    d_hi = dy + c_hi * dw
                    i_wins = min(d_lo, d_hi) > M
                    if i_wins or max(d_lo, d_hi) < -M:
                        # the winner stays ahead while c < (|dy| - 2M) / (loser's w - winner's w)
                        wnr = i if i_wins else j
                        sg = 1.0 if i_wins else -1.0
                        num = sg * dy - 2.0 * M
                        den = -sg * dw
                        e = np.inf
                        if den > 0.0 and num < c_cap * den:
                            e = max(num / den * (1.0 - 8.0 * U), c_hi)
                    else:
                        if lg_T != T:
                            lg_T = T
                            lg_v = clucb_log_nb(size, T, delta)
                            stats[4] += 1
                        ui = yi + clucb_radius_nb(lg_v, float(m[i]), R)
                        uj = yj + clucb_radius_nb(lg_v, float(m[j]), R)
                        wnr = i if (ui > uj or (ui == uj and i < j)) else j
                        e = -np.inf
            km = min(e, min(kmin[l], kmin[l + 1]))
            if early >= 0 and wnr == kt[x] and wnr != early and e == ke[x] and km == kmin[x]:
                break
            kt[x] = wnr
            ke[x] = e
            kmin[x] = km
        cnt = 0
        if kmin[1] < c_hi and refreshed != T:
            # nodes whose certificate may not hold at this t: every node x with kmin[x] < Lg_hi,
            # collected depth first (parents first), then recomputed in the reverse order
            refreshed = T
            top = 1
            stack[0] = 1
            while top > 0:
                top -= 1
                x = stack[top]
                order[cnt] = x
                cnt += 1
                l = 2 * x
                if l < P:
                    if kmin[l] < c_hi:
                        stack[top] = l
                        top += 1
                    if kmin[l + 1] < c_hi:
                        stack[top] = l + 1
                        top += 1
            for q in range(cnt // 2):
                x = order[q]
                order[q] = order[cnt - 1 - q]
                order[cnt - 1 - q] = x
            early = -2
            continue
        j = kt[1]
        # stopping test LCB_a >= UCB_j, settled by the bounds when they do not overlap
        rl, rh = _rad_bounds(c_lo, c_hi, w[j])
        if la_lo >= yhat[j] + rh:
            return a, T
        if not (la_hi < yhat[j] + rl):
            if lg_T != T:
                lg_T = T
                lg_v = clucb_log_nb(size, T, delta)
                stats[4] += 1
            if yhat[a] - clucb_radius_nb(lg_v, float(m[a]), R) >= _ucb(yhat[j], lg_v, float(m[j]), R):
                return a, T
        # A duel: while j stays the challenger, CLUCB pulls a and j only (the one with fewer pulls).
        # When j held over the last pull, the pulls go on here without the trees, as long as every
        # state is certified to keep a the leader, j the challenger (above a bound on every other
        # challenger's UCB up to T_end) and the stop test false; then the trees are brought up to date.
        duel = j == prev_j and T >= next_duel
        prev_j = j
        T_end = T
        u_max = -np.inf
        y2 = -np.inf
        i2 = -1
        if duel:
            T_end = min(T + max(32, T >> 10), cap)
            c_end = R * math.sqrt(2.0 * clucb_log_nb(size, T_end, delta) * (1.0 + FN_MARGIN)) * (1.0 + 4.0 * U)
            # the other challengers: the subtrees beside j's path; a subtree whose nodes are all
            # certified up to c_end has its winner for maximum, any other is searched below
            top = 0
            x = P + j
            while x > 1:
                stack[top] = x ^ 1
                top += 1
                x >>= 1
            seen = 0
            while top > 0:
                top -= 1
                x = stack[top]
                r = kt[x]
                if r < 0:
                    continue
                if x >= P or kmin[x] > c_end:
                    u_max = max(u_max, yhat[r] + c_end * w[r] * (1.0 + 16.0 * U))
                else:
                    seen += 1
                    if seen > 64:
                        duel = False
                        break
                    stack[top] = 2 * x
                    stack[top + 1] = 2 * x + 1
                    top += 2
            # the best yhat of S apart from a and j: the winners of the subtrees beside both paths
            xa = P + a
            xj = P + j
            while xa > 1:
                for side in range(2):
                    x = xa if side == 0 else xj
                    sib = x ^ 1
                    on_path = False
                    z = P + a
                    while z >= sib:
                        if z == sib:
                            on_path = True
                        z >>= 1
                    z = P + j
                    while z >= sib:
                        if z == sib:
                            on_path = True
                        z >>= 1
                    r = t_y[sib]
                    if not on_path and r >= 0 and (i2 < 0 or yhat[r] > y2 or (yhat[r] == y2 and r < i2)):
                        y2 = yhat[r]
                        i2 = r
                xa >>= 1
                xj >>= 1
        pulled_a = False
        pulled_j = False
        while True:
            p = a if m[a] <= m[j] else j
            mp = m[p]
            if kind == BERNOULLI:
                blk = mp >> 2
                if blocks[p] != blk:
                    c0, c1, c2, c3 = philox_block(keys[p, 0], keys[p, 1], blk)
                    words[p, 0] = c0
                    words[p, 1] = c1
                    words[p, 2] = c2
                    words[p, 3] = c3
                    blocks[p] = blk
                s[p] += 1.0 if uniform_of(words[p, mp & 3]) < means[p] else 0.0
            else:
                s[p] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, p, mp, 1, s[p])
            m[p] = mp + 1
            yp = s[p] / m[p]
            yhat[p] = yp
            w[p] = 1.0 / math.sqrt(float(m[p]))
            g[p] = abs(yp) + c_cap * w[p]
            T += 1
            stats[0] += 1
            if p == a:
                pulled_a = True
            else:
                pulled_j = True
            if not duel or T >= cap or T >= T_end:
                break
            ya = yhat[a]
            yj = yhat[j]
            if not (ya > yj or (ya == yj and a < j)):
                break
            if i2 >= 0 and not (ya > y2 or (ya == y2 and a < i2)):
                break
            ucb_lo = yj + c_lo * w[j] * (1.0 - 16.0 * U)
            if not (ya - c_lo * w[a] * (1.0 - 16.0 * U) < ucb_lo and ucb_lo > u_max):
                break
            stats[5] += 1
            duel_len += 1
        if duel:
            # a duel that ended at once is not tried again for a while
            if duel_len < 4:
                next_duel = T + duel_wait
                duel_wait = min(2 * duel_wait, 4096)
            else:
                duel_wait = 8
        duel_len = 0
        # the leader tree (argmax of yhat, ties to the lower index): the paths of the pulled arms
        for side in range(2):
            if side == 0:
                if not pulled_a:
                    continue
                p = a
            else:
                if not pulled_j:
                    continue
                p = j
            x = (P + p) >> 1
            while x >= 1:
                l = t_y[2 * x]
                r = t_y[2 * x + 1]
                if l < 0:
                    b = r
                elif r < 0:
                    b = l
                else:
                    yl = yhat[l]
                    yr = yhat[r]
                    b = r if (yr > yl or (yr == yl and r < l)) else l
                if b == t_y[x] and b != p:  # nothing above depends on what changed
                    break
                t_y[x] = b
                x >>= 1
        if T >= cap:
            return t_y[1], T
        if T > T_hi:
            T_hi, c_lo, c_hi = _window(T, cap, size, delta, R)
            stats[1] += 1
        # the challenger tree: the paths of the leaves that changed (j's values; the leader, if it
        # changed hands: the old one joins the challengers, the new one leaves them), merged in
        # decreasing node order, which puts children before parents
        nl = 0
        if pulled_j:
            leaves[nl] = j
            nl += 1
        early = j if nl == 1 else -2
        if t_y[1] != a:
            old = a
            a = t_y[1]
            kt[P + a] = -1
            kt[P + old] = old
            leaves[nl] = a
            leaves[nl + 1] = old
            nl += 2
            early = -2
        for q in range(nl):
            x = (P + leaves[q]) >> 1
            while x >= 1:
                order[cnt] = x
                cnt += 1
                x >>= 1
        if nl > 1:
            # sort decreasing and drop repeats
            for q in range(1, cnt):
                v = order[q]
                z = q - 1
                while z >= 0 and order[z] < v:
                    order[z + 1] = order[z]
                    z -= 1
                order[z + 1] = v
            u = 0
            for q in range(cnt):
                if u == 0 or order[q] != order[u - 1]:
                    order[u] = order[q]
                    u += 1
            cnt = u
        rl, rh = _rad_bounds(c_lo, c_hi, w[a])
        la_lo = yhat[a] - rh
        la_hi = yhat[a] - rl


@njit(cache=True)
def ib_kernel(kind, keys, means, scale, values, offsets, k, delta, cap, R, s, m, removed, stats):
    """IB on a tape; fills s, m, removed[:stats[2]]; returns (T, theta, last best)."""
    n = s.shape[0]
    blocks = np.full(n, -1, dtype=np.int64)
    words = np.zeros((n, 4), dtype=np.uint64)
    yhat = np.empty(n)
    w = np.empty(n)
    g = np.empty(n)
    members = np.arange(n)
    P = 1
    while P < n:
        P *= 2
    t_y = np.full(2 * P, -1, dtype=np.int64)
    kt = np.full(2 * P, -1, dtype=np.int64)
    ke = np.full(2 * P, np.inf)
    kmin = np.full(2 * P, np.inf)
    stack = np.empty(2 * P, dtype=np.int64)
    order = np.empty(2 * P, dtype=np.int64)
    for i in range(n):
        s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, 0, 1, 0.0)
        m[i] = 1
        yhat[i] = s[i] / m[i]
        w[i] = 1.0
    for i in range(n):
        _set_arg(t_y, P, i, True, yhat)
    T = n
    size = n
    while True:
        b, T = _clucb_fast(
            kind,
            keys,
            means,
            scale,
            values,
            offsets,
            blocks,
            words,
            s,
            m,
            yhat,
            w,
            g,
            members,
            size,
            T,
            cap,
            delta,
            R,
            P,
            t_y,
            kt,
            ke,
            kmin,
            stack,
            order,
            stats,
        )
        stats[3] += 1
        theta = threshold_nb(yhat, k)[2]
        if T >= cap or yhat[b] <= theta:
            return T, theta, b
        # S <- S \ {b}, keeping members sorted
        r = 0
        while members[r] != b:
            r += 1
        for q in range(r, size - 1):
            members[q] = members[q + 1]
        size -= 1
        _set_arg(t_y, P, b, False, yhat)
        removed[stats[2]] = b
        stats[2] += 1
        if size == 0:
            return T, theta, b


def ib(
    tape: RewardTape, *, k: float, delta: float, cap: int | None = None, R_sg: float = 0.5, engine: str = "fast"
) -> Outcome:
    """Iterative best-arm identification with CLUCB (the paper's second baseline; see the module
    docstring): best-arm identification repeated until the best remaining arm is not an outlier.
    No overall guarantee. ``R_sg=0.5``: Bernoulli rewards are 1/2-sub-Gaussian.

    Example:

    >>> from bandit_lib.tapes import bernoulli_tape
    >>> from bandit_lib.zhuang17 import ib
    >>> out = ib(bernoulli_tape([0.1, 0.2, 0.25, 0.3, 0.9], seed=1), k=1.5, delta=0.1)
    >>> out.output.tolist(), out.pulls
    ([4], 57621)
    """
    n, k, delta, cap, _, _ = check_common(tape, k, delta, cap, engine=engine)
    R_sg = check_positive("R_sg", R_sg)
    if engine == "reference":
        return ib_reference(tape, k=k, delta=delta, cap=cap, R_sg=R_sg)
    s = np.zeros(n)
    m = np.zeros(n, dtype=np.int64)
    removed = np.zeros(n, dtype=np.int64)
    stats = np.zeros(6, dtype=np.int64)  # [pulls after init, windows, removed, stages, exact logs, duel pulls]
    T, theta, b = ib_kernel(*tape.arrays, k, delta, cap, R_sg, s, m, removed, stats)
    tape.counts[:] = m
    info = {
        "engine": "fast",
        "stages": int(stats[3]),
        "removed": removed[: stats[2]].tolist(),
        "last_best": int(b),
        "windows": int(stats[1]),
        "exact_logs": int(stats[4]),
        "duel_pulls": int(stats[5]),
    }
    return Outcome(np.flatnonzero(s / m > theta), int(T), bool(T >= cap), m, info)
