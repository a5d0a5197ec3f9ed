r"""GOLD's numba engine and the float formulas it shares with the per-pull reference.

The reference (:func:`bandit_lib.gold20.gold.gold_reference`) and this engine compute the
widths with the *same* compiled functions (:func:`width_scale_nb`, :func:`beta_nb`), so every
neighbour test compares the same floats. The engine differs only in which tests it evaluates:

1. **Only the edges of the arm just pulled are tested**. For a pair not
   containing the pulled arm, :math:`\hat y_j, \hat y_k, m_j, m_k` are unchanged and
   :math:`\delta'(T)` decreased, so both widths grew (Hoeffding: :math:`\ln 1/\delta'` grows;
   Bernoulli: :math:`Z` grows and :math:`\tilde p` moves toward 1/2) and the test still passes.
2. **Certified passes.** ``bb[j]`` holds :math:`b\beta_j` from the last time it was computed
   (with the current :math:`s_j, m_j`): a lower bound of :math:`b\beta_j(T)` now, by the same
   monotonicity. If :math:`|\hat y_i-\hat y_j| \le (b\beta_i + bb_j)(1-10^{-10})` the reference's
   float test passes too: the exact width only grew since ``bb[j]`` was computed, and the margin
   covers the few ulps by which the float values (``erfcinv``/``log`` are accurate to a few ulps;
   β is a well-conditioned function of them) and the two float expressions can differ.
   Otherwise :math:`\beta_j(T)` is computed exactly and the reference's own float test decides.
   The pulled arm's own width in these passes is taken at the sweep's first T (a lower bound of
   its width at T: Z and L grow with T), so the exact scale (``erfcinv``/``log``) is computed only
   for a test that needs it, not at every pull.

   **Guards.** A full test of arm i's edges keeps, with i's mean and width then, the edges whose
   certified pass held by less than ``TIGHT`` times the movement per pull measured since i's
   previous full test (i's *tight* list), and the smallest margin among the others. Between two
   pulls of i each neighbour is pulled at most once (sweeps pull every undecided arm once, in
   index order), so what a neighbour's mean and width can have moved is bounded by the largest
   movement (change of mean plus drop of ``bb``, measured at the pull) among the arms pulled
   since i's last pull: the later arms of the last sweep (a suffix maximum kept per sweep) and
   the earlier ones of this sweep (a running maximum). While the kept margin exceeds the sum of
   these bounds since the full test (i's own change included), every edge not in the tight list
   still passes, and only the tight list is tested; a full test is made again when it does not,
   or after ``REFRESH`` pulls of i.
3. **Components change only when an edge is deleted**, and only by splitting the component of the
   pulled arm. For each deleted edge ``{i, j}`` still inside one component, a
   bidirectional breadth-first search from ``i`` and ``j`` (one node of each side in turn) stops
   at the first node reached from both (still connected; cheap in the dense normal cluster) or
   when one side runs out of nodes (that side is a whole new component, the smaller one up to a
   factor of about two). After all deletions of a pull, every component that changed is tested
   for "small" and its not yet terminal members get ``S = T`` (MARK_TERMINAL).
4. **Good event** (Lemma 5.2 check): an arm's interval can start missing its mean only when the
   arm is pulled (between its pulls :math:`\hat y` is fixed and :math:`\beta` grows), so only the
   pulled arm is checked (all arms at :math:`T=n`).

Adjacency is kept as per-arm neighbour lists with a position table (O(1) deletion); rewards are
read from the tape's Philox blocks in pull order (Bernoulli inline, other kinds via
:func:`bandit_lib.tapes.pull_sum`), exactly what ``tape.pull`` returns.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from bandit_lib.special import erfcinv_nb
from bandit_lib.tapes import BERNOULLI, philox_block, pull_sum, uniform_of

BERNOULLI_WIDTH, HOEFFDING_WIDTH = 0, 1
WIDTH_CODES = {"bernoulli": BERNOULLI_WIDTH, "hoeffding": HOEFFDING_WIDTH}
PI2 = math.pi * math.pi
SAFE = 1.0 - 1e-10  # certified-pass margin (item 2 of the module docstring)
TIGHT = 32.0  # an edge whose margin is below TIGHT mean movements per pull is tested at every pull
REFRESH = 64  # pulls of an arm between two full tests of its edges, at most (speed only)


@njit(cache=True)
def level_nb(T: float, n: int, delta: float) -> float:
    r"""GOLD's per-round level :math:`\delta'(T) = 6\delta / (\pi^2 n T^2)` (n, not n + 1)."""
    return 6.0 * delta / (PI2 * n * (T * T))


@njit(cache=True)
def width_scale_nb(width: int, T: float, n: int, delta: float) -> float:
    r"""The part of every width that depends on T only: :math:`Z = \mathrm{erfc}^{-1}(\delta'(T))`
    (Bernoulli) or :math:`L = \ln(1/\delta'(T))` (Hoeffding)."""
    d = level_nb(T, n, delta)
    if width == BERNOULLI_WIDTH:
        return erfcinv_nb(d)
    return -math.log(d)


@njit(cache=True)
def beta_nb(width: int, scale: float, s: float, m: float, R: float) -> float:
    r"""β(m, δ'): :math:`Z\sqrt{\tilde p(1-\tilde p)/m}` with :math:`\tilde p = (s + Z^2/2)/(m + Z^2)`
    (Bernoulli), or :math:`R\sqrt{L/(2m)}` (Hoeffding)."""
    if width == BERNOULLI_WIDTH:
        z2 = scale * scale
        p = (s + z2 / 2.0) / (m + z2)
        return scale * math.sqrt(p * (1.0 - p) / m)
    return R * math.sqrt(scale / (2.0 * m))


@njit(cache=True)
def widths_nb(width: int, scale: float, s: np.ndarray, m: np.ndarray, R: float, out: np.ndarray) -> None:
    """β_i for every arm (the reference's UPDATE_G line 1)."""
    for i in range(s.shape[0]):
        out[i] = beta_nb(width, scale, s[i], float(m[i]), R)


@njit(cache=True)
def _remove_edge(adj, pos, deg, i, j):
    """Delete j from i's neighbour list (swap with the last entry)."""
    k = pos[i, j]
    last = adj[i, deg[i] - 1]
    adj[i, k] = last
    pos[i, last] = k
    pos[i, j] = -1
    deg[i] -= 1


@njit(cache=True)
def _split(i, j, adj, deg, mark_a, mark_b, stamp, q_a, q_b):
    """Bidirectional BFS between i and j. Returns (0, 0) if they are connected; otherwise
    (1, size) when i's side ran out (q_a[:size] is i's whole component) or (2, size) for j's."""
    mark_a[i] = stamp
    mark_b[j] = stamp
    q_a[0] = i
    q_b[0] = j
    head_a = 0
    tail_a = 1
    head_b = 0
    tail_b = 1
    while True:
        if head_a == tail_a:
            return 1, tail_a
        x = q_a[head_a]
        head_a += 1
        for k in range(deg[x]):
            y = adj[x, k]
            if mark_b[y] == stamp:
                return 0, 0
            if mark_a[y] != stamp:
                mark_a[y] = stamp
                q_a[tail_a] = y
                tail_a += 1
        if head_b == tail_b:
            return 2, tail_b
        x = q_b[head_b]
        head_b += 1
        for k in range(deg[x]):
            y = adj[x, k]
            if mark_a[y] == stamp:
                return 0, 0
            if mark_b[y] != stamp:
                mark_b[y] = stamp
                q_b[tail_b] = y
                tail_b += 1


@njit(cache=True)
def _mark(cid, comp, csize, small_lim, S, tsize, terminal, T):
    """MARK_TERMINAL for one component: if small, its not yet terminal members get S = T.
    Returns the number of arms that became terminal."""
    if csize[cid] > small_lim:
        return 0
    new = 0
    for v in range(comp.shape[0]):
        if comp[v] == cid and not terminal[v]:
            terminal[v] = True
            S[v] = T
            tsize[v] = csize[cid]
            new += 1
    return new


@njit(cache=True)
def _edge_fails(width, sc, s, m, R, b, bb, i, j, diff):
    """The reference's exact test of edge {i, j}, whose certified pass failed, at the exact width
    scale ``sc`` of this T: refreshes j's width ``bb[j]`` on the way, True if the edge goes (the
    tight-list test and the full test of UPDATE_G share it)."""
    beta_i = beta_nb(width, sc, s[i], float(m[i]), R)
    beta_j = beta_nb(width, sc, s[j], float(m[j]), R)
    bb[j] = b * beta_j
    return diff > b * (beta_i + beta_j)


@njit(cache=True)
def gold_kernel(
    kind,
    keys,
    means,
    scale,
    values,
    offsets,
    width,
    b,
    delta,
    R,
    cap,
    stop_cnt,
    small_lim,
    log_edges,
    s,
    m,
    S,
    tsize,
    comp,
    edge_log,
    stats,
):
    """GOLD on a tape (Algorithm 1, as in :mod:`bandit_lib.gold20.gold`) with the shortcuts of the module docstring.

    Fills s, m (sums and pulls per arm), S (terminal pull, inf if never), tsize (community size
    when terminal), comp (final community labels), edge_log[:stats[1]] (T, i, j, m_i, m_j of each
    deleted edge, i < j, when log_edges). stats: [sweeps, deletions, exact widths, searches,
    first T with an arm outside its interval (0 if never), T at which ``|terminal|`` >= K first (0 if
    never), edges left, guarded pulls, tight-list tests, full-test edge tests]. Returns (T, capped).
    """
    n = s.shape[0]
    blocks = np.full(n, -1, dtype=np.int64)
    words = np.zeros((n, 4), dtype=np.uint64)
    yhat = np.empty(n)
    bb = np.empty(n)  # b * beta_j, last computed (a lower bound now)
    adj = np.empty((n, n), dtype=np.int32)
    pos = np.full((n, n), -1, dtype=np.int32)
    deg = np.zeros(n, dtype=np.int64)
    terminal = np.zeros(n, dtype=np.bool_)
    csize = np.zeros(2 * n + 1, dtype=np.int64)
    mark_a = np.zeros(n, dtype=np.int64)
    mark_b = np.zeros(n, dtype=np.int64)
    q_a = np.empty(n, dtype=np.int64)
    q_b = np.empty(n, dtype=np.int64)
    dels = np.empty(n, dtype=np.int64)
    affected = np.empty(2 * n + 2, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    stamp = 0
    count = 0
    # guards: after a full test of arm i's edges, gval[i] is the smallest margin by which a
    # certified pass held outside i's tight list (tight[i, :ntight[i]]), at i's mean yscan[i] and
    # b*beta_i bscan[i]; dacc[i] bounds how much the neighbours' means and widths moved since, over
    # npull[i] pulls of i (suf[i]: the largest movement of an arm after i in the last sweep).
    gval = np.full(n, -np.inf)
    yscan = np.zeros(n)
    bscan = np.zeros(n)
    dacc = np.zeros(n)
    tight = np.empty((n, n), dtype=np.int32)
    ntight = np.zeros(n, dtype=np.int64)
    npull = np.zeros(n, dtype=np.int64)
    suf = np.full(n, np.inf)
    mv_of = np.zeros(n)
    # ---- lines 5-6: one pull each
    T = 0
    for i in range(n):
        s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, 0, 1, 0.0)
        m[i] = 1
        T += 1
    # ---- lines 7-8: widths at T = n, the initial graph (every pair tested)
    sc = width_scale_nb(width, float(T), n, delta)
    for i in range(n):
        yhat[i] = s[i] / m[i]
        beta_i = beta_nb(width, sc, s[i], float(m[i]), R)
        bb[i] = b * beta_i
        if stats[4] == 0 and not (abs(yhat[i] - means[i]) <= beta_i):
            stats[4] = T
    for i in range(n):
        bi = beta_nb(width, sc, s[i], float(m[i]), R)
        for j in range(i + 1, n):
            bj = beta_nb(width, sc, s[j], float(m[j]), R)
            if abs(yhat[i] - yhat[j]) <= b * (bi + bj):
                pos[i, j] = deg[i]
                adj[i, deg[i]] = j
                deg[i] += 1
                pos[j, i] = deg[j]
                adj[j, deg[j]] = i
                deg[j] += 1
            elif log_edges:
                r = stats[1]
                edge_log[r, 0] = T
                edge_log[r, 1] = i
                edge_log[r, 2] = j
                edge_log[r, 3] = m[i]
                edge_log[r, 4] = m[j]
                stats[1] += 1
            else:
                stats[1] += 1
    # ---- line 9: components (BFS), MARK_TERMINAL(n)
    comp[:] = -1
    n_comp = 0
    for r in range(n):
        if comp[r] >= 0:
            continue
        comp[r] = n_comp
        q_a[0] = r
        head = 0
        tail = 1
        while head < tail:
            x = q_a[head]
            head += 1
            for k in range(deg[x]):
                y = adj[x, k]
                if comp[y] < 0:
                    comp[y] = n_comp
                    q_a[tail] = y
                    tail += 1
        csize[n_comp] = tail
        n_comp += 1
    for cid in range(n_comp):
        count += _mark(cid, comp, csize, small_lim, S, tsize, terminal, T)
    if count >= stop_cnt:
        stats[5] = T
    # ---- lines 10-16: sweeps
    capped = False
    while count < stop_cnt:
        if T >= cap:
            capped = True
            break
        n_a = 0
        for i in range(n):  # line 11: snapshot, index order
            if not terminal[i]:
                order[n_a] = i
                n_a += 1
        stats[0] += 1
        # the width scale at the sweep's first and last pull: every T of the sweep lies between
        # (delta'(T) decreases, so Z and L grow), and every width is increasing in it
        sc_lo = width_scale_nb(width, float(T + 1), n, delta)
        sc_T = -1
        cur = 0.0
        for r in range(n_a):
            i = order[r]
            # line 13: pull i
            mi = m[i]
            if kind == BERNOULLI:
                blk = mi >> 2
                if blocks[i] != blk:
                    c0, c1, c2, c3 = philox_block(keys[i, 0], keys[i, 1], blk)
                    words[i, 0] = c0
                    words[i, 1] = c1
                    words[i, 2] = c2
                    words[i, 3] = c3
                    blocks[i] = blk
                s[i] += 1.0 if uniform_of(words[i, mi & 3]) < means[i] else 0.0
            else:
                s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, mi, 1, s[i])
            m[i] = mi + 1
            T += 1
            yi = s[i] / m[i]
            y_old = yhat[i]
            bb_old = bb[i]
            yhat[i] = yi
            # line 14: UPDATE_G(T), only i's edges can fail. beta_i at the sweep's first T is a
            # lower bound of beta_i(T); the exact scale is computed when a test needs it
            beta_lo = beta_nb(width, sc_lo, s[i], float(m[i]), R)
            bi = b * beta_lo
            bb[i] = bi
            if stats[4] == 0 and not (abs(yi - means[i]) <= beta_lo):
                sc = width_scale_nb(width, float(T), n, delta)
                sc_T = T
                if not (abs(yi - means[i]) <= beta_nb(width, sc, s[i], float(m[i]), R)):
                    stats[4] = T
            n_del = 0
            skip = False
            # the most any arm pulled since i's last pull moved (each at most once: sweeps are in
            # index order): the later arms of the last sweep and the earlier ones of this one
            moved = max(suf[i], cur)
            mv = abs(yi - y_old) + max(bb_old - bi, 0.0)
            cur = max(cur, mv)
            mv_of[r] = mv
            if gval[i] > -np.inf and npull[i] < REFRESH:
                dacc[i] += moved
                npull[i] += 1
                own = abs(yi - yscan[i]) + max(bscan[i] - bi, 0.0)
                skip = gval[i] * (1.0 - 1e-9) > (own + dacc[i]) * (1.0 + 1e-9) + 1e-300
            if skip:
                # the loose edges still pass; the tight ones are tested as below
                stats[7] += 1
                stats[8] += ntight[i]
                for t in range(ntight[i] - 1, -1, -1):
                    j = tight[i, t]
                    if pos[i, j] < 0:  # deleted since (from j's side, or at i's last test)
                        ntight[i] -= 1
                        tight[i, t] = tight[i, ntight[i]]
                        continue
                    diff = abs(yi - yhat[j])
                    if (bi + bb[j]) * SAFE - diff >= 0.0:
                        continue
                    if sc_T != T:
                        sc = width_scale_nb(width, float(T), n, delta)
                        sc_T = T
                    stats[2] += 1
                    if _edge_fails(width, sc, s, m, R, b, bb, i, j, diff):
                        dels[n_del] = j
                        n_del += 1
            else:
                # full test of i's edges: those passing with slack below theta (a few pulls' worth
                # of movement) are kept in i's tight list and tested at each pull; the guard
                # gval[i] covers the others (the smallest slack among them)
                # theta: TIGHT times the mean movement per pull since i's last full test, or 1/m
                theta = TIGHT * dacc[i] / npull[i] if npull[i] > 0 else 0.0
                gmin = np.inf
                nt = 0
                stats[9] += deg[i]
                for k in range(deg[i] - 1, -1, -1):
                    j = adj[i, k]
                    diff = abs(yi - yhat[j])
                    slack = (bi + bb[j]) * SAFE - diff
                    if slack >= 0.0:
                        if slack < theta:
                            tight[i, nt] = j
                            nt += 1
                        else:
                            gmin = min(gmin, slack)
                        continue
                    if sc_T != T:
                        sc = width_scale_nb(width, float(T), n, delta)
                        sc_T = T
                    stats[2] += 1
                    if _edge_fails(width, sc, s, m, R, b, bb, i, j, diff):
                        dels[n_del] = j
                        n_del += 1
                    else:  # passed only by the exact test: tested at each pull until the next full test
                        tight[i, nt] = j
                        nt += 1
                ntight[i] = nt
                gval[i] = gmin
                yscan[i] = yi
                bscan[i] = bi
                dacc[i] = 0.0
                npull[i] = 0
            if n_del > 0:
                for d in range(n_del):
                    j = dels[d]
                    _remove_edge(adj, pos, deg, i, j)
                    _remove_edge(adj, pos, deg, j, i)
                    if log_edges:
                        rr = stats[1]
                        lo = i if i < j else j
                        hi = j if i < j else i
                        edge_log[rr, 0] = T
                        edge_log[rr, 1] = lo
                        edge_log[rr, 2] = hi
                        edge_log[rr, 3] = m[lo]
                        edge_log[rr, 4] = m[hi]
                    stats[1] += 1
                # line 15: MARK_TERMINAL(T); components only split, and only i's
                n_aff = 0
                for d in range(n_del):
                    j = dels[d]
                    if comp[j] != comp[i]:
                        continue
                    stamp += 1
                    stats[3] += 1
                    side, size = _split(i, j, adj, deg, mark_a, mark_b, stamp, q_a, q_b)
                    if side == 0:
                        continue
                    old = comp[i]
                    for v in range(size):
                        comp[q_a[v] if side == 1 else q_b[v]] = n_comp
                    csize[n_comp] = size
                    csize[old] -= size
                    affected[n_aff] = old
                    affected[n_aff + 1] = n_comp
                    n_aff += 2
                    n_comp += 1
                for a in range(n_aff):
                    count += _mark(affected[a], comp, csize, small_lim, S, tsize, terminal, T)
                if count >= stop_cnt and stats[5] == 0:
                    stats[5] = T
            if T >= cap:  # line 16
                if r < n_a - 1 or count < stop_cnt:
                    capped = True
                break
        if capped:
            break
        # suf[i]: the most that any arm after i in this sweep moved at its pull
        run = 0.0
        for r in range(n_a - 1, -1, -1):
            suf[order[r]] = run
            run = max(run, mv_of[r])
    e = 0
    for i in range(n):
        e += deg[i]
    stats[6] = e // 2
    return T, capped
