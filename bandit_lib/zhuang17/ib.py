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
two pulls ``t`` grows by one, which moves every radius a little. The kernel keeps, over a window
of pulls ``[T, T_hi]``, an interval ``[lo_i, hi_i]`` holding arm ``i``'s float UCB (the float
operations are monotone in ``ln(4|S|t^3/delta)``), a short list of candidates with the highest
``hi``, and the largest ``hi`` among the other arms. The exact argmax is then taken over the
candidates whose ``hi`` reaches the best ``lo``; when a non-candidate might compete, the leader
changes, or the window ends, the kernel rebuilds the list from an exact scan. Every comparison
that decides something is the reference's own float comparison.

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


@njit(cache=True)
def _ucb(y, Lg, m, R):
    return y + clucb_radius_nb(Lg, m, R)


@njit(cache=True)
def _better(v1, i1, v2, i2):
    """(v1, i1) beats (v2, i2) in an argmax with ties to the lowest index."""
    return v1 > v2 or (v1 == v2 and i1 < i2)


@njit(cache=True)
def _set_max(tree, P, i, v):
    """Leaf i of a max tree := v, and update its ancestors."""
    x = P + i
    tree[x] = v
    x >>= 1
    while x >= 1:
        tree[x] = max(tree[2 * x], tree[2 * x + 1])
        x >>= 1


@njit(cache=True)
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


@njit(cache=True)
def _rad_bounds(sg_lo, sg_hi, m):
    """Bounds on the reference's float radius fl(R sqrt(fl(2 Lg / m))) for every Lg of the window,
    from sg = R sqrt(2 g) (g = the window's ends of Lg): each side carries a few ulps of rounding."""
    inv = 1.0 / math.sqrt(m)
    return sg_lo * inv * (1.0 - 16.0 * U), sg_hi * inv * (1.0 + 16.0 * U)


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
    members,
    size,
    T,
    cap,
    delta,
    R,
    P,
    t_y,
    t_lo,
    t_hi,
    stack,
    stats,
):
    """CLUCB_TOP1 on members[:size]; returns (best arm, T). Exact; see the module docstring.

    t_y: argmax tree of yhat over S (its root is the leader a); t_lo, t_hi: max trees of the ends
    of intervals holding each challenger's float UCB for every t of the window [T, T_hi]. Float
    rounding is monotone, so UCB = fl(yhat + rad) lies in [fl(yhat + rad_lo), fl(yhat + rad_hi)].
    Only when the intervals cannot settle the challenger or the stopping test is the exact
    ln(4|S|t^3/delta) computed (the reference's own helpers). The pulled arm is a iff m_a <= m_j:
    rad is strictly decreasing in m in floats too (distinct m < 2^52 differ by far more than an ulp).
    """
    if size == 1:
        return members[0], T
    T_hi = -1
    sg_lo = sg_hi = 0.0
    a = t_y[1]
    la_lo = la_hi = 0.0  # bounds on the leader's float LCB over the window
    while True:
        if T > T_hi:
            # a new window: intervals holding each arm's float UCB for every t in [T, T_hi]
            stats[1] += 1
            T_hi = min(T + max(64, T >> 10), cap)
            sg_lo = R * math.sqrt(2.0 * clucb_log_nb(size, T, delta) * (1.0 - FN_MARGIN))
            sg_hi = R * math.sqrt(2.0 * clucb_log_nb(size, T_hi, delta) * (1.0 + FN_MARGIN))
            for r in range(size):
                i = members[r]
                if i == a:
                    t_lo[P + i] = -np.inf
                    t_hi[P + i] = -np.inf
                else:
                    rl, rh = _rad_bounds(sg_lo, sg_hi, float(m[i]))
                    t_lo[P + i] = yhat[i] + rl
                    t_hi[P + i] = yhat[i] + rh
            for x in range(P - 1, 0, -1):
                t_lo[x] = max(t_lo[2 * x], t_lo[2 * x + 1])
                t_hi[x] = max(t_hi[2 * x], t_hi[2 * x + 1])
            rl, rh = _rad_bounds(sg_lo, sg_hi, float(m[a]))
            la_lo = yhat[a] - rh
            la_hi = yhat[a] - rl
        # challenger: the arms whose UCB interval reaches the best lower end
        best_lo = t_lo[1]
        j = -1
        n_q = 0
        top = 1
        stack[0] = 1
        while top > 0:
            top -= 1
            x = stack[top]
            if t_hi[x] < best_lo:
                continue
            if x >= P:
                stack[2 * P + 2 + n_q] = x - P  # qualifying arms, kept after the stack's own room
                n_q += 1
            else:
                stack[top] = 2 * x + 1
                stack[top + 1] = 2 * x
                top += 2
        Lg = -1.0
        uj = 0.0
        if n_q == 1:
            j = stack[2 * P + 2]  # strictly above every other arm's UCB
        else:
            Lg = clucb_log_nb(size, T, delta)
            stats[4] += 1
            for q in range(n_q):
                i = stack[2 * P + 2 + q]
                u = _ucb(yhat[i], Lg, float(m[i]), R)
                if j < 0 or _better(u, i, uj, j):
                    j = i
                    uj = u
        # stopping test LCB_a >= UCB_j, settled by the intervals when they do not overlap
        if la_lo >= t_hi[P + j]:
            return a, T
        if not (la_hi < t_lo[P + j]):
            if Lg < 0.0:
                Lg = clucb_log_nb(size, T, delta)
                uj = _ucb(yhat[j], Lg, float(m[j]), R)
                stats[4] += 1
            if yhat[a] - clucb_radius_nb(Lg, float(m[a]), R) >= uj:
                return a, T
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
        yhat[p] = s[p] / m[p]
        T += 1
        stats[0] += 1
        _set_arg(t_y, P, p, True, yhat)
        if T >= cap:
            return t_y[1], T
        rl, rh = _rad_bounds(sg_lo, sg_hi, float(m[p]))
        if p != a:
            _set_max(t_lo, P, p, yhat[p] + rl)
            _set_max(t_hi, P, p, yhat[p] + rh)
        else:
            la_lo = yhat[a] - rh
            la_hi = yhat[a] - rl
        if t_y[1] != a:  # a new leader: the old one joins the challengers, the new one leaves them
            old = a
            a = t_y[1]
            rl, rh = _rad_bounds(sg_lo, sg_hi, float(m[old]))
            _set_max(t_lo, P, old, yhat[old] + rl)
            _set_max(t_hi, P, old, yhat[old] + rh)
            _set_max(t_lo, P, a, -np.inf)
            _set_max(t_hi, P, a, -np.inf)
            rl, rh = _rad_bounds(sg_lo, sg_hi, float(m[a]))
            la_lo = yhat[a] - rh
            la_hi = yhat[a] - rl


@njit(cache=True)
def ib_kernel(kind, keys, means, scale, values, offsets, k, delta, cap, R, s, m, removed, stats):
    """IB on a tape; fills s, m, removed[:stats[2]]; returns (T, theta, last best)."""
    n = s.shape[0]
    blocks = np.full(n, -1, dtype=np.int64)
    words = np.zeros((n, 4), dtype=np.uint64)
    yhat = np.empty(n)
    members = np.arange(n)
    P = 1
    while P < n:
        P *= 2
    t_y = np.full(2 * P, -1, dtype=np.int64)
    t_lo = np.full(2 * P, -np.inf)
    t_hi = np.full(2 * P, -np.inf)
    stack = np.empty(3 * P + 2, dtype=np.int64)  # descent stack, then the qualifying arms
    for i in range(n):
        s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, 0, 1, 0.0)
        m[i] = 1
        yhat[i] = s[i] / m[i]
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
            members,
            size,
            T,
            cap,
            delta,
            R,
            P,
            t_y,
            t_lo,
            t_hi,
            stack,
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
        _set_max(t_lo, P, b, -np.inf)
        _set_max(t_hi, P, b, -np.inf)
        removed[stats[2]] = b
        stats[2] += 1
        if size == 0:
            return T, theta, b


def ib(
    tape: RewardTape, *, k: float, delta: float, cap: int | None = None, R_sg: float = 0.5, engine: str = "fast"
) -> Outcome:
    """Iterative best-arm identification with CLUCB; see the module docstring."""
    n, k, delta, cap, _, _ = check_common(tape, k, delta, cap, engine=engine)
    R_sg = check_positive("R_sg", R_sg)
    if engine == "reference":
        return ib_reference(tape, k=k, delta=delta, cap=cap, R_sg=R_sg)
    s = np.zeros(n)
    m = np.zeros(n, dtype=np.int64)
    removed = np.zeros(n, dtype=np.int64)
    stats = np.zeros(5, dtype=np.int64)  # [pulls after init, windows, removed, stages, exact logs]
    T, theta, b = ib_kernel(*tape.arrays, k, delta, cap, R_sg, s, m, removed, stats)
    tape.counts[:] = m
    info = {
        "engine": "fast",
        "stages": int(stats[3]),
        "removed": removed[: stats[2]].tolist(),
        "last_best": int(b),
        "windows": int(stats[1]),
        "exact_logs": int(stats[4]),
    }
    return Outcome(np.flatnonzero(s / m > theta), int(T), bool(T >= cap), m, info)
