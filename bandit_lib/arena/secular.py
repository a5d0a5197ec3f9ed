r"""The Gaussian inner problem of :mod:`bandit_lib.arena.lower_bound` in O(n) per evaluation, without
an eigendecomposition: the numba layer that :mod:`~bandit_lib.arena.lower_bound`,
:mod:`~bandit_lib.arena.yardstick`, :mod:`~bandit_lib.arena.glr`, :mod:`~bandit_lib.arena.tracking`
and the samplers' engine (``bandit_lib.arena._samplers_engine``) all call.

**Public API** (numba unless said). One arm: :func:`arm_value_nb`, :func:`arm_minimiser_nb` (any
means), :func:`arm_centred_nb` (centred means, caller's work arrays: no allocation),
:func:`arm_solve_nb` (the same from a guess of the multiplier), :func:`dual_lower_nb`,
:func:`apex_is_minimiser_nb`. Every arm: :func:`arm_values_nb`, :func:`arm_minimisers_nb`,
:func:`isotropic_values_nb` (equal weights, closed form), :func:`lower_bounds_nb` (lower bounds on
all n values in O(nG)) with :func:`node_sums_nb` and :func:`multiplier_of_node`. The pieces the
yardstick's certificates reuse: :func:`centred_nb`, :func:`mean_ss_nb`, :func:`q_nb`,
:func:`ss_nb`, :func:`cj_nb`, :func:`objective_nb`, :func:`halfspace_nb`,
:func:`stationary_point_nb`, :func:`positive_definite_nb`. Python: :func:`check_k_for`,
``check_weights``, :func:`outlier_mask`, :func:`arm_values_fast`, :func:`isotropic_values`.

Problem (see ``_gauss_arm``): :math:`V_j=\min_{\lambda\in A_j}
(\lambda-\mu)^\top D(\lambda-\mu)`, :math:`D=\mathrm{diag}(w)/(2\sigma^2)`, with the quadratic form
:math:`q(\lambda)=\lambda^\top Q\lambda`, :math:`Q=nu_ju_j^\top-k^2P`. The same case analysis as
``_gauss_arm`` (S-lemma for the outlier arm's piece :math:`\{q\le0\}`, its half-space piece
:math:`\{c_j\le0\}` in closed form, the hard case, the normal arm's KKT root, its wrong-nappe
root and the apex); only the linear algebra and the root finding differ.

**Diagonal plus rank two.** With :math:`a=\sqrt n\,u_j` and :math:`b=(k/\sqrt n)\mathbf 1`,
:math:`nu_ju_j^\top=aa^\top` and :math:`k^2P=k^2I-bb^\top`, so for a sign :math:`s=\pm1`

.. math:: M(\eta)=D+s\eta Q=E+s\eta UU^\top,\qquad E=\mathrm{diag}(D_i-s\eta k^2),\quad U=[a\ b],

and by Woodbury :math:`\lambda(\eta)=M^{-1}D\mu=y-\eta E^{-1}U(sI+\eta G)^{-1}U^\top y`, with
:math:`y=E^{-1}D\mu` and the 2x2 :math:`G=U^\top E^{-1}U`: O(n) per :math:`\eta`, and
:math:`q(\lambda(\eta))=nc_j^2-k^2\|c\|^2` (:math:`c` the centred :math:`\lambda`) in O(n) too.

**Bracket ends.** :math:`M(\eta)` is positive definite on an interval :math:`[0,\eta^*)` (it is
affine in :math:`\eta` and :math:`M(0)=D\succ0`), and the test "is :math:`M(\eta)\succ0`" costs O(n)
by Haynsworth's inertia additivity on :math:`\begin{pmatrix}E&U\\U^\top&-sI/\eta\end{pmatrix}`:

* normal arm (:math:`s=-1`): :math:`E\succ0`, so :math:`M\succ0` iff :math:`I-\eta G\succ0`; the end
  is :math:`1/\Lambda_+`, below :math:`D_j/Q_{jj}` (Rayleigh quotient at :math:`e_j`), the root of
  the smallest eigenvalue of :math:`I-\eta G(\eta)`, which decreases in :math:`\eta`;
* outlier arm (:math:`s=+1`): :math:`M\succ0` iff :math:`E` has as many negative entries as
  :math:`I+\eta G` has negative eigenvalues (at most two, and no zero). The end :math:`\eta_{\max}`
  lies in :math:`[\min_iD_i/k^2,\ D'_{(2)}/k^2]`: below the first pole :math:`M\succeq E\succ0`, and on
  :math:`\{x:x_j=0,\ \mathbf 1^\top x=0\}` (orthogonal to :math:`U`), :math:`M=E`, which is not positive
  there beyond the second smallest :math:`D'_{(2)}` of the :math:`D_i,\ i\ne j` (interlacing). Tied
  weights among the other arms put :math:`\eta_{\max}` exactly on the pole :math:`D_i/k^2` (uniform
  :math:`D`: :math:`\eta_{\max}=d/k^2`), where :math:`e_i-e_l` is a null vector; this end is found by
  bisection on the test.

**Roots.** In the eigenbasis of :math:`D^{-1/2}QD^{-1/2}` (inertia: one positive eigenvalue
:math:`\Lambda_+`, n - 2 negative, one zero), :math:`q(\lambda(\eta))=\sum_k\Lambda_kz_k^2/(1+s\eta\Lambda_k)^2`.
For a normal arm it increases on :math:`[0,1/\Lambda_+)` (every term's derivative is positive there),
and beyond :math:`1/\Lambda_+`, with :math:`\xi=1/\eta`, :math:`q=\xi^2r(\xi)` where
:math:`r(\xi)=\sum_k\Lambda_kz_k^2/(\xi-\Lambda_k)^2` increases on :math:`(0,\Lambda_+)`: at most one
root on each branch. For an outlier arm it decreases on :math:`[0,\eta_{\max})`. Multiplied by
:math:`(1-\eta/\text{pole})^2` (``_psi``) each branch's function loses its pole at the bracket's
end and stays monotone, so its root is found by a bracketing secant (Anderson-Bjoerck scaling,
Dekker's tolerance step, a bisection every fifth step) to four ulps, in 6-15 O(n) evaluations
where a fixed bisection took about 60; the second branch is searched in :math:`\xi` on
``_gauss_arm``'s bracket :math:`\eta\in e_1(1+10^{-12..12})`. These are fixed schemes, so the
result does not depend on any library version. :func:`arm_solve_nb` first tries a bracket around a
guess of the root (a factor 1.5, then 3.4, each side, on one branch): a root found there is a KKT
point of the normal arm's convex problem (with :math:`c_j>0`) or the S-lemma optimum of the
outlier's piece, so it certifies itself; else the full case analysis runs. One difference from
``_gauss_arm``: when no KKT root is found and the apex is the best candidate, ``_gauss_arm``
confirms it with a convex SLSQP solve; here the apex is returned (a point of :math:`A_j`, so its
value is an upper bound on :math:`V_j`), and :func:`apex_is_minimiser_nb` certifies in O(n) whether
it is the minimum (``lower_bound`` falls back to ``_gauss_arm`` where it is not).

**Every arm at once** (:func:`lower_bounds_nb`). For a multiplier :math:`\eta=\rho/k^2` the Lagrangian
dual :math:`g_j(\eta)=\mu^\top D\mu-r^\top M^{-1}r` (:math:`r=D\mu`) and the stationary point
:math:`\lambda(\eta)` of every arm depend on the arms only through a few sums over all arms
(:math:`\sum_i1/E_i`, :math:`\sum_iy_i`, ...; :func:`node_sums_nb`) plus arm j's own terms: O(1) per
arm once the sums are known. So for G multipliers shared by all arms, every arm gets in O(nG): the
dual bound (where :math:`M\succeq0`; weak duality), and, for a normal arm, the half-space bound
:math:`(b^\top\mu)^2/(b^\top D^{-1}b)`, :math:`b=\sqrt n\,u_j-ky` with :math:`y` the centred,
normalised :math:`\lambda(\eta)` (:math:`K_j` lies in that half-space for every unit :math:`y`);
the best over the nodes is a lower bound on :math:`V_j` in exact arithmetic, within about 1% of it
on the arena's instances (normal arms from the half-space bound, whose direction is exact at the
root; outliers from the dual, tight by the S-lemma). Measured on planted instances at n = 200 and
1000 under several allocations: median 0.994-0.9998 of :math:`V_j`, worst 0.93-0.97.

**Isotropic closed form** (:func:`isotropic_values_nb`, all weights equal, :math:`D=dI`). In centred
coordinates :math:`c=P\mu` the set :math:`K_j` is the circular cone around :math:`u_j` with
:math:`\cos\beta=k/\sqrt{n-1}` (:math:`c_j=u_j^\top c`, :math:`\|u_j\|^2=(n-1)/n`), and the free
direction :math:`\mathbf 1` costs nothing, so :math:`V_j/d` is the squared distance from :math:`c`
to the cone (normal arm, :math:`\alpha_j>\beta`) or to the closure of its complement (outlier,
:math:`\alpha_j<\beta`), :math:`\alpha_j=\angle(c,u_j)`: :math:`\|c\|^2\sin^2(\alpha_j-\beta)`, or
:math:`\|c\|^2` (the apex) when :math:`\alpha_j-\beta>\pi/2`. It is computed without cancellation as
:math:`\sin(\alpha-\beta)=(\cos^2\beta-\cos^2\alpha)/\sin(\alpha+\beta)=-q(c)/((n-1)\|c\|^2\sin(\alpha+\beta))`
when :math:`\cos\alpha\ge0`, and directly otherwise. (n = 2: the outlier's value is the half-space
piece :math:`d\|c\|^2`, as in ``_gauss_arm``.)

**Dual bound** (:func:`dual_lower_nb`): for any :math:`\eta\ge0` with :math:`M(\eta)\succeq0`,
:math:`\min_\lambda f+s\eta q=f(\lambda(\eta))+s\eta q(\lambda(\eta))` bounds the :math:`\{q\ge0\}`
(normal) or :math:`\{q\le0\}` (outlier) piece from below (weak duality); the outlier's bound is the
smaller of it and the half-space value. Outside the admissible range the bound is 0.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from bandit_lib.checks import check_int, check_positive, check_vector

#: The secular end is approached to hi = end * (1 - END_SHRINK), as in ``_gauss_arm``.
END_SHRINK = 1e-13
#: Halvings of the outlier end's bisection (it stops earlier when no float lies between its ends).
BISECT = 200
#: Steps of the bracketing secants (each stops earlier when no float lies strictly inside its bracket;
#: 12 to 30 steps on the arena's instances).
ROOT_STEPS = 200
#: The bracketing secants stop when the bracket is down to 4 * EPS_REL relative (two ulps each side).
EPS_REL = 2.220446049250313e-16


# ------------------------------------------------------------------------------------------
# O(n) pieces


@njit(cache=True)
def _ab(i, j, n, k):
    """(a_i, b_i) of U = [a b]: a = sqrt(n) u_j, b = (k / sqrt n) 1."""
    r = math.sqrt(n)
    a = (n - 1.0) / r if i == j else -1.0 / r
    return a, k / r


@njit(cache=True)
def _g(D, j, k, eta, s):
    """(G11, G12, G22, entries of E <= 0, entries of E == 0) with E = D - s eta k^2."""
    n = D.shape[0]
    g11 = 0.0
    g12 = 0.0
    g22 = 0.0
    neg = 0
    zero = 0
    for i in range(n):
        e = D[i] - s * eta * k * k
        if e <= 0.0:
            neg += 1
            if e == 0.0:
                zero += 1
                continue
        a, b = _ab(i, j, n, k)
        g11 += a * a / e
        g12 += a * b / e
        g22 += b * b / e
    return g11, g12, g22, neg, zero


@njit(cache=True)
def positive_definite_nb(D, j, k, eta, s):
    """Whether M(eta) = D + s eta Q is positive definite (inertia test, O(n))."""
    g11, g12, g22, neg, zero = _g(D, j, k, eta, s)
    if zero > 0 or neg > 2:
        return False
    h11 = s + eta * g11
    h22 = s + eta * g22
    h12 = eta * g12
    if s < 0:  # M PD iff -(sI + eta G) = I - eta G is PD
        h11, h22, h12 = -h11, -h22, -h12
        det = h11 * h22 - h12 * h12
        return det > 0.0 and h11 + h22 > 0.0
    det = h11 * h22 - h12 * h12
    if det == 0.0:
        return False
    if det < 0.0:
        nneg = 1
    elif h11 + h22 < 0.0:
        nneg = 2
    else:
        nneg = 0
    return nneg == neg


@njit(cache=True)
def _other_min(D, j):
    """The arm i != j of smallest D_i (lowest index): the only other arm whose pole
    D_i / k^2 can lie inside an outlier arm's bracket."""
    best = -1
    for i in range(D.shape[0]):
        if i != j and (best < 0 or D[i] < D[best]):
            best = i
    return best


@njit(cache=True)
def stationary_point_nb(mu, D, j, k, eta, s, out):
    """Fill out with lambda(eta) = M(eta)^{-1} D mu; return q(lambda(eta)).

    Woodbury with W = [e_j, 1, e_i1] (i1 = ``_other_min``): M = E' + W C W' where E' is
    E with the entries of j and i1 replaced by D_i + eta k^2 > 0, so that E' has no pole inside the
    outlier's bracket (E's entries D_i - eta k^2 of j and i1 can vanish there, and dividing by them
    would cancel catastrophically), and C (3x3) carries aa' + bb' (a 2x2 form on e_j, 1) and the
    shifts. M^{-1} r = y - E'^{-1} W C (I + P C)^{-1} W' y, y = E'^{-1} r, P = W' E'^{-1} W."""
    n = mu.shape[0]
    kk = k * k
    i1 = _other_min(D, j) if s > 0 else -1
    tau = eta * kk + s * eta * kk  # E'_i - E_i on j and i1 (0 for a normal arm)
    sy = 0.0
    sinv = 0.0
    for i in range(n):
        e = D[i] - s * eta * kk
        if i == j or i == i1:
            e += tau
        y = D[i] * mu[i] / e
        out[i] = y
        sy += y
        sinv += 1.0 / e
    ej = D[j] - s * eta * kk + tau
    e1 = D[i1] - s * eta * kk + tau if i1 >= 0 else 1.0
    # C in the basis (e_j, 1, e_i1)
    c11 = s * eta * n - tau
    c12 = -s * eta
    c22 = s * eta * (1.0 + kk) / n
    c33 = -tau if i1 >= 0 else 0.0
    # P = W' E'^{-1} W
    p11 = 1.0 / ej
    p12 = 1.0 / ej
    p22 = sinv
    p23 = 1.0 / e1 if i1 >= 0 else 0.0
    p33 = p23
    # A = I + P C (P13 = 0: j != i1)
    A = np.empty((3, 3))
    A[0, 0] = 1.0 + p11 * c11 + p12 * c12
    A[0, 1] = p11 * c12 + p12 * c22
    A[0, 2] = 0.0
    A[1, 0] = p12 * c11 + p22 * c12
    A[1, 1] = 1.0 + p12 * c12 + p22 * c22
    A[1, 2] = p23 * c33
    A[2, 0] = p23 * c12
    A[2, 1] = p23 * c22
    A[2, 2] = 1.0 + p33 * c33
    b = np.empty(3)
    b[0] = out[j]
    b[1] = sy
    b[2] = out[i1] if i1 >= 0 else 0.0
    v = _solve3(A, b)
    t1 = c11 * v[0] + c12 * v[1]
    t2 = c12 * v[0] + c22 * v[1]
    t3 = c33 * v[2]
    for i in range(n):
        e = D[i] - s * eta * kk
        w = t2
        if i == j:
            e += tau
            w += t1
        elif i == i1:
            e += tau
            w += t3
        out[i] -= w / e
    return q_nb(out, j, k)


@njit(cache=True)
def _solve3(A, b):
    """A x = b for a 3x3 A, Gaussian elimination with partial pivoting (a fixed scheme)."""
    for c in range(3):
        p = c
        for r in range(c + 1, 3):
            if abs(A[r, c]) > abs(A[p, c]):
                p = r
        if p != c:
            for q in range(3):
                A[c, q], A[p, q] = A[p, q], A[c, q]
            b[c], b[p] = b[p], b[c]
        for r in range(c + 1, 3):
            f = A[r, c] / A[c, c]
            for q in range(c, 3):
                A[r, q] -= f * A[c, q]
            b[r] -= f * b[c]
    x = np.empty(3)
    for c in range(2, -1, -1):
        acc = b[c]
        for q in range(c + 1, 3):
            acc -= A[c, q] * x[q]
        x[c] = acc / A[c, c]
    return x


@njit(cache=True)
def mean_ss_nb(x):
    """(mean(x), ||x - mean(x)||^2), both summed in index order."""
    n = x.shape[0]
    m = 0.0
    for i in range(n):
        m += x[i]
    m /= n
    ss = 0.0
    for i in range(n):
        d = x[i] - m
        ss += d * d
    return m, ss


@njit(cache=True)
def q_nb(lam, j, k):
    """q(lam) = n c_j^2 - k^2 ||c||^2, c = lam - mean(lam)."""
    m, ss = mean_ss_nb(lam)
    cj = lam[j] - m
    return lam.shape[0] * cj * cj - k * k * ss


@njit(cache=True)
def ss_nb(lam):
    """||lam - mean(lam)||^2."""
    return mean_ss_nb(lam)[1]


@njit(cache=True)
def cj_nb(lam, j):
    """c_j = lam_j - mean(lam)."""
    n = lam.shape[0]
    m = 0.0
    for i in range(n):
        m += lam[i]
    return lam[j] - m / n


@njit(cache=True)
def objective_nb(mu, D, lam):
    """f(lam) = sum_i D_i (lam_i - mu_i)^2."""
    v = 0.0
    for i in range(mu.shape[0]):
        d = lam[i] - mu[i]
        v += D[i] * d * d
    return v


@njit(cache=True)
def _lmin_normal(D, j, k, eta):
    """The smallest eigenvalue of I - eta G(eta) (normal arm, s = -1): positive exactly where
    M(eta) is positive definite, and decreasing in eta (eta E^{-1} = (D / eta + k^2)^{-1} grows)."""
    g11, g12, g22, _, _ = _g(D, j, k, eta, -1.0)
    h11 = 1.0 - eta * g11
    h22 = 1.0 - eta * g22
    h12 = -eta * g12
    half = 0.5 * (h11 - h22)
    return 0.5 * (h11 + h22) - math.sqrt(half * half + h12 * h12)


@njit(cache=True)
def _end(D, j, k, s):
    """End of the interval [0, end) on which M(eta) is positive definite.

    Normal arm: the root of the decreasing :func:`_lmin_normal` in [0, D_j / Q_jj] (Rayleigh
    bound), by the bracketing secant of :func:`_bracket_step`. Outlier arm: bisection on the
    inertia test :func:`positive_definite_nb` in [min_i D_i / k^2, D'_(2) / k^2] (the test is not a continuous
    function there). Both stop when no float lies strictly inside the bracket."""
    n = D.shape[0]
    if s < 0:
        qjj = (n - 1.0) * (n - 1.0 - k * k) / n
        lo = 0.0
        hi = D[j] / qjj
        while _lmin_normal(D, j, k, hi) > 0.0:  # (the Rayleigh bound makes this loop empty; kept for safety)
            hi *= 2.0
        f_lo = 1.0
        f_hi = _lmin_normal(D, j, k, hi)
        side = -1
        for it in range(ROOT_STEPS):
            x = _bracket_step(lo, hi, f_lo, f_hi, it)
            if not (lo < x < hi):
                break
            fx = _lmin_normal(D, j, k, x)
            if fx > 0.0:
                f_hi = _illinois(f_hi, fx, f_lo, side == 0)
                lo, f_lo, side = x, fx, 0
            else:
                f_lo = _illinois(f_lo, fx, f_hi, side == 1)
                hi, f_hi, side = x, fx, 1
        return 0.5 * (lo + hi)
    dmin = math.inf
    d1 = math.inf
    d2 = math.inf
    for i in range(n):
        dmin = min(dmin, D[i])
        if i != j:
            if D[i] < d1:
                d1, d2 = D[i], d1
            elif D[i] < d2:
                d2 = D[i]
    lo = dmin / (k * k)
    hi = d2 / (k * k)
    if not lo < hi:
        return hi
    for _ in range(BISECT):
        mid = 0.5 * (lo + hi)
        if not (lo < mid < hi):
            break
        if positive_definite_nb(D, j, k, mid, s):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@njit(cache=True)
def _illinois(f_keep, f_new, f_other, stale):
    """Anderson-Bjoerck scaling of the end value kept by a bracketing secant step (``f_keep``
    stays on its side while ``f_new`` replaces ``f_other``), applied when the same end is kept
    twice in a row (``stale``): without it regula falsi can leave one end in place for many steps."""
    if not stale:
        return f_keep
    if f_other == 0.0:
        return 0.5 * f_keep
    m = 1.0 - f_new / f_other
    return f_keep * (m if m > 0.0 else 0.5)


@njit(cache=True)
def _bracket_step(lo, hi, f_lo, f_hi, it):
    """The next point of a bracketing secant on [lo, hi] (f_lo, f_hi of opposite signs, scaled by
    :func:`_illinois`): the secant point, kept at least a few ulps inside the bracket (so that a
    point next to the root also moves the far end: Dekker's tolerance step), or the midpoint every
    fifth step and wherever the secant point is not inside. Returns lo when the bracket is down to
    a few ulps (the caller stops)."""
    tol = 2.0 * EPS_REL * max(abs(lo), abs(hi))
    if hi - lo <= 2.0 * tol:
        return lo
    if it % 5 == 4 or not (f_lo != f_hi):
        return 0.5 * (lo + hi)
    x = hi - f_hi * (hi - lo) / (f_hi - f_lo)
    if not (lo < x < hi):
        return 0.5 * (lo + hi)
    if x - lo < tol:
        return lo + tol
    if hi - x < tol:
        return hi - tol
    return x


@njit(cache=True)
def _psi(mu, D, j, k, s, eta, pole, work):
    """q(lambda(eta)) (1 - eta / pole)^2: the secular function with its pole at the end of the
    bracket removed. Same sign as q; smooth and monotone on each branch (module docstring)."""
    r = 1.0 - eta / pole
    return stationary_point_nb(mu, D, j, k, eta, s, work) * (r * r)


@njit(cache=True)
def _root(mu, D, j, k, s, lo, hi, pole, work):
    """The sign change of q(lambda(eta)) in [lo, hi] (one branch, where it is monotone), by a
    bracketing secant on ``_psi``, to the last float (no float strictly inside the bracket)."""
    f_lo = _psi(mu, D, j, k, s, lo, pole, work)
    f_hi = _psi(mu, D, j, k, s, hi, pole, work)
    if f_lo == 0.0:
        return lo
    if f_hi == 0.0:
        return hi
    neg_lo = f_lo < 0.0
    side = -1
    for it in range(ROOT_STEPS):
        x = _bracket_step(lo, hi, f_lo, f_hi, it)
        if not (lo < x < hi):
            break
        fx = _psi(mu, D, j, k, s, x, pole, work)
        if fx == 0.0:
            return x
        if (fx < 0.0) == neg_lo:
            f_hi = _illinois(f_hi, fx, f_lo, side == 0)
            lo, f_lo, side = x, fx, 0
        else:
            f_lo = _illinois(f_lo, fx, f_hi, side == 1)
            hi, f_hi, side = x, fx, 1
    return 0.5 * (lo + hi)


@njit(cache=True)
def _root_far(mu, D, j, k, e1, lo_xi, hi_xi, work):
    """The second branch of a normal arm (eta > e1): the sign change of q(lambda(1 / xi)) for
    xi in [lo_xi, hi_xi], where ``_psi`` is increasing in xi = 1 / eta (module docstring), by
    the bracketing secant in xi; returns eta."""
    f_lo = _psi(mu, D, j, k, -1.0, 1.0 / lo_xi, e1, work)
    f_hi = _psi(mu, D, j, k, -1.0, 1.0 / hi_xi, e1, work)
    lo, hi = lo_xi, hi_xi
    side = -1
    for it in range(ROOT_STEPS):
        x = _bracket_step(lo, hi, f_lo, f_hi, it)
        if not (lo < x < hi):
            break
        fx = _psi(mu, D, j, k, -1.0, 1.0 / x, e1, work)
        if fx == 0.0:
            return 1.0 / x
        if fx < 0.0:
            f_hi = _illinois(f_hi, fx, f_lo, side == 0)
            lo, f_lo, side = x, fx, 0
        else:
            f_lo = _illinois(f_lo, fx, f_hi, side == 1)
            hi, f_hi, side = x, fx, 1
    return 1.0 / (0.5 * (lo + hi))


# ------------------------------------------------------------------------------------------
# one arm


@njit(cache=True)
def halfspace_nb(mu, D, j, out):
    """Half-space piece {c_j <= 0}: (u'mu)^2 / (u' D^{-1} u), its minimiser in out."""
    n = mu.shape[0]
    um = 0.0
    udu = 0.0
    for i in range(n):
        u = (1.0 if i == j else 0.0) - 1.0 / n
        um += u * mu[i]
        udu += u * u / D[i]
    t = um / udu
    for i in range(n):
        u = (1.0 if i == j else 0.0) - 1.0 / n
        out[i] = mu[i] - t * u / D[i]
    return objective_nb(mu, D, out)


@njit(cache=True)
def _null_vector(D, j, k, eta, s, out):
    """A null vector of M(eta) = D + s eta Q at the end eta of the bracket (for the hard cases)."""
    n = D.shape[0]
    first = -1
    for i in range(n):  # outlier: two other arms tied on the pole D_i = eta k^2 give e_i - e_l
        if s > 0 and i != j and abs(D[i] - eta * k * k) <= 1e-12 * D[i]:
            if first < 0:
                first = i
            else:
                for l in range(n):
                    out[l] = 0.0
                out[first] = 1.0
                out[i] = -1.0
                return
    g11, g12, g22, _, _ = _g(D, j, k, eta, s)
    h11 = 1.0 + s * eta * g11
    h22 = 1.0 + s * eta * g22
    h12 = s * eta * g12
    if abs(h12) + abs(h11) >= abs(h22) + abs(h12):
        y1, y2 = h12, -h11
    else:
        y1, y2 = h22, -h12
    for i in range(n):
        a, b = _ab(i, j, n, k)
        e = D[i] - s * eta * k * k
        out[i] = (a * y1 + b * y2) / e if e != 0.0 else 0.0


@njit(cache=True)
def _onto_q0(mu, D, j, k, lam0, v, need_cj, out):
    """The better point lam0 + tau v with q = 0 (and c_j > 0 if need_cj) into out; its f, or inf."""
    n = mu.shape[0]
    q0 = q_nb(lam0, j, k)
    mv = 0.0
    ml = 0.0
    for i in range(n):
        mv += v[i]
        ml += lam0[i]
    mv /= n
    ml /= n
    bb = n * (lam0[j] - ml) * (v[j] - mv)
    qv = n * (v[j] - mv) ** 2
    for i in range(n):
        bb -= k * k * (lam0[i] - ml) * (v[i] - mv)
        qv -= k * k * (v[i] - mv) ** 2
    best_f = math.inf
    if qv == 0.0:
        return best_f
    disc = bb * bb - q0 * qv
    if disc < 0.0:
        return best_f
    disc = math.sqrt(disc)
    for tau in ((-bb + disc) / qv, (-bb - disc) / qv):
        if need_cj and not (lam0[j] - ml) + tau * (v[j] - mv) > 0.0:
            continue
        f = 0.0
        for i in range(n):
            d = lam0[i] + tau * v[i] - mu[i]
            f += D[i] * d * d
        if f < best_f:
            best_f = f
            for i in range(n):
                out[i] = lam0[i] + tau * v[i]
    return best_f


@njit(cache=True)
def _tied_pole(D, j, k, eta):
    """How many arms other than j sit on the pole D_i = eta k^2 (to 1e-12)."""
    g = 0
    for i in range(D.shape[0]):
        if i != j and abs(D[i] - eta * k * k) <= 1e-12 * D[i]:
            g += 1
    return g


@njit(cache=True)
def _pole_point(mu, D, j, k, eta, out):
    """The stationary point of f + eta q at a pole eta = D_G / k^2 shared by a group G of other arms
    (hard case: their means are equal), with equal values on G, without dividing by D_G - eta k^2.

    Stationarity reads (D_i - eta k^2) lam_i = D_i mu_i + eta (c_j - k^2 m) - eta n [i = j] c_j
    (m the mean of lam). On G the left side vanishes, which fixes kappa = c_j - k^2 m; the other
    arms then follow, arm j from c_j = kappa + k^2 m and lam_j = c_j + m, and G from the mean."""
    n = mu.shape[0]
    kk = k * k
    g = 0
    mg = 0.0
    for i in range(n):
        if i != j and abs(D[i] - eta * kk) <= 1e-12 * D[i]:
            g += 1
            mg += mu[i]
    mg /= g
    dg = eta * kk
    kappa = -dg * mg / eta
    ej = D[j] - eta * kk
    m = (D[j] * mu[j] + eta * kappa - eta * n * kappa - ej * kappa) / (ej * (1.0 + kk) + eta * n * kk)
    rest = 0.0
    for i in range(n):
        if i == j:
            out[i] = kappa + (1.0 + kk) * m
            rest += out[i]
        elif not abs(D[i] - eta * kk) <= 1e-12 * D[i]:
            out[i] = (D[i] * mu[i] + eta * kappa) / (D[i] - eta * kk)
            rest += out[i]
    lam_g = (n * m - rest) / g
    for i in range(n):
        if i != j and abs(D[i] - eta * kk) <= 1e-12 * D[i]:
            out[i] = lam_g


@njit(cache=True)
def _outlier_arm(mu, D, j, k, out, work, work2):
    """V_j for an outlier arm (mu centred); minimiser in out."""
    n = mu.shape[0]
    best = halfspace_nb(mu, D, j, out)
    if n < 3:
        return best
    eta_max = _end(D, j, k, 1.0)
    hi = eta_max * (1.0 - END_SHRINK)
    if stationary_point_nb(mu, D, j, k, hi, 1.0, work) < 0.0:
        eta = _root(mu, D, j, k, 1.0, 0.0, hi, eta_max, work)
        stationary_point_nb(mu, D, j, k, eta, 1.0, work)
    else:  # hard case: the stationary point at eta_max plus a null direction, scaled to q = 0
        if _tied_pole(D, j, k, eta_max) >= 2:
            _pole_point(mu, D, j, k, eta_max, work)
        _null_vector(D, j, k, eta_max, 1.0, work2)
        lam0 = work.copy()
        _onto_q0(mu, D, j, k, lam0, work2, False, work)
    val = objective_nb(mu, D, work)
    if val < best:
        best = val
        out[:] = work
    return best


@njit(cache=True)
def _normal_arm(mu, D, j, k, out, work):
    """V_j for a normal arm (mu centred); minimiser in out."""
    n = mu.shape[0]
    q_mu = q_nb(mu, j, k)
    if cj_nb(mu, j) >= 0.0 and q_mu >= 0.0:
        out[:] = mu
        return 0.0
    # the apex
    sd = 0.0
    sdm = 0.0
    for i in range(n):
        sd += D[i]
        sdm += D[i] * mu[i]
    for i in range(n):
        out[i] = sdm / sd
    best = objective_nb(mu, D, out)
    e1 = _end(D, j, k, -1.0)
    hi = e1 * (1.0 - END_SHRINK)
    found = False
    q_hi = stationary_point_nb(mu, D, j, k, hi, -1.0, work)
    if q_mu < 0.0 < q_hi:
        r = _root(mu, D, j, k, -1.0, 0.0, hi, e1, work)
        stationary_point_nb(mu, D, j, k, r, -1.0, work)
        if cj_nb(work, j) > 0.0:
            found = True
            v = objective_nb(mu, D, work)
            if v < best:
                best = v
                out[:] = work
    if q_mu < 0.0 and q_hi <= 0.0:
        # hard case (z has no weight on the positive eigenvector, e.g. tied means and weights):
        # the stationary point at 1 / Lambda_+ plus the null direction, scaled onto q = 0
        # (_gauss_arm leaves this case to its SLSQP fallback)
        stationary_point_nb(mu, D, j, k, hi, -1.0, work)
        lam0 = work.copy()
        v = np.empty(n)
        _null_vector(D, j, k, e1, -1.0, v)
        val = _onto_q0(mu, D, j, k, lam0, v, True, work)
        qc = q_nb(work, j, k)
        if val < best and cj_nb(work, j) > 0.0 and qc >= -1e-9 * k * k * ss_nb(work):
            found = True
            best = val
            out[:] = work
    # wrong nappe: the root beyond 1 / Lambda_+ (at most one: q(lambda(1 / xi)) (1 - xi_+ / xi)^2 is
    # increasing in xi = 1 / eta there), bracketed by _gauss_arm's grid ends e1 (1 + 10^-12..12) --
    # unless the apex is certified as the minimiser (the problem is strictly convex: no other point can do better)
    if not found and not apex_is_minimiser_nb(mu, D, j, k):
        lo_xi = 1.0 / (e1 * (1.0 + 1e12))
        hi_xi = 1.0 / (e1 * (1.0 + 1e-12))
        if _psi(mu, D, j, k, -1.0, 1.0 / lo_xi, e1, work) < 0.0 < _psi(mu, D, j, k, -1.0, 1.0 / hi_xi, e1, work):
            r = _root_far(mu, D, j, k, e1, lo_xi, hi_xi, work)
            stationary_point_nb(mu, D, j, k, r, -1.0, work)
            if cj_nb(work, j) > 0.0:
                val = objective_nb(mu, D, work)
                if val < best:
                    best = val
                    out[:] = work
    return best


@njit(cache=True)
def _secant_q(mu, D, j, k, s, lo, hi, q_lo, q_hi, work):
    """The sign change of q(lambda(eta)) in [lo, hi] (no pole inside), by the bracketing secant."""
    neg_lo = q_lo < 0.0
    side = -1
    for it in range(ROOT_STEPS):
        x = _bracket_step(lo, hi, q_lo, q_hi, it)
        if not (lo < x < hi):
            break
        fx = stationary_point_nb(mu, D, j, k, x, s, work)
        if fx == 0.0:
            return x
        if (fx < 0.0) == neg_lo:
            q_hi = _illinois(q_hi, fx, q_lo, side == 0)
            lo, q_lo, side = x, fx, 0
        else:
            q_lo = _illinois(q_lo, fx, q_hi, side == 1)
            hi, q_hi, side = x, fx, 1
    return 0.5 * (lo + hi)


@njit(cache=True)
def _warm_arm(mc, D, j, k, outlier, eta0, out, work):
    """V_j from a guess eta0 of the root's multiplier (mc centred; minimiser in out), or -1.0 when the
    guess does not bracket a root that certifies itself (the caller then solves from scratch).

    The bracket [eta0 / r, eta0 r] (r = 1.5, then 1.5^3) must lie on one branch -- D + s eta Q
    positive definite at both ends (first branch of a normal arm, or an outlier's q-piece), or at
    neither (a normal arm's second branch) -- and hold a sign change of q(lambda(eta)), which is
    monotone there (module docstring): its root is found by the bracketing secant. A normal arm's
    root with c_j > 0 is a KKT point of the convex problem, hence its global minimum; an outlier's
    root on [0, eta_max) is the S-lemma optimum of its piece {q <= 0}, compared with the half-space
    piece as in the cold solve."""
    s = 1.0 if outlier else -1.0
    if not (eta0 > 0.0) or mc.shape[0] < 3:
        return -1.0
    if not outlier and cj_nb(mc, j) >= 0.0 and q_nb(mc, j, k) >= 0.0:
        return -1.0
    for r in (1.5, 3.375):
        lo = eta0 / r
        hi = eta0 * r
        pd_lo = positive_definite_nb(D, j, k, lo, s)
        pd_hi = positive_definite_nb(D, j, k, hi, s)
        if pd_lo != pd_hi or (outlier and not pd_hi):
            continue
        q_lo = stationary_point_nb(mc, D, j, k, lo, s, work)
        q_hi = stationary_point_nb(mc, D, j, k, hi, s, work)
        if not ((q_lo < 0.0) != (q_hi < 0.0)):
            continue
        eta = _secant_q(mc, D, j, k, s, lo, hi, q_lo, q_hi, work)
        stationary_point_nb(mc, D, j, k, eta, s, work)
        if outlier:
            best = halfspace_nb(mc, D, j, out)
            val = objective_nb(mc, D, work)
            if val < best:
                best = val
                out[:] = work
            return best
        if cj_nb(work, j) > 0.0:
            out[:] = work
            return objective_nb(mc, D, work)
        return -1.0
    return -1.0


@njit(cache=True)
def arm_solve_nb(mc, D, j, k, outlier, eta0, out, work, work2):
    """V_j with a guess ``eta0`` of its multiplier (0: none): ``_warm_arm``, or the full case
    analysis where the guess does not certify itself; ``mc`` centred, the (centred) minimiser in
    ``out``, ``work`` and ``work2`` work arrays of n. The value is the same as without a guess up to
    the last bits of the root."""
    v = _warm_arm(mc, D, j, k, outlier, eta0, out, work)
    if v >= 0.0:
        return v
    return arm_centred_nb(mc, D, j, k, outlier, out, work, work2)


@njit(cache=True)
def multiplier_of_node(j, node, rhos, D, k, outlier):
    """The multiplier eta = rho / k^2 of arm j's best node in :func:`lower_bounds_nb` (0: none), a
    guess for :func:`arm_solve_nb`."""
    g = node[j]
    if g < 0:
        return 0.0
    if not outlier[j]:
        return rhos[g] / (k * k)
    n = D.shape[0]
    dmin = D[0]
    for i in range(n):
        dmin = min(dmin, D[i])
    if g < OUTLIER_NODES:
        return dmin * _outlier_fraction(g) / (k * k)
    first = True
    d2 = math.inf
    for i in range(n):
        if D[i] == dmin and first:
            first = False
        elif D[i] < d2:
            d2 = D[i]
    return (dmin + (d2 - dmin) * _outlier_fraction(g - OUTLIER_NODES)) / (k * k)


@njit(cache=True)
def centred_nb(mu):
    """(mu - mean(mu), mean(mu)), summed in index order (allocates the centred copy)."""
    m = 0.0
    for i in range(mu.shape[0]):
        m += mu[i]
    m /= mu.shape[0]
    return mu - m, m


@njit(cache=True)
def arm_centred_nb(mc, D, j, k, outlier, out, work, work2):
    """V_j for centred means ``mc`` (the full case analysis); its centred minimiser in ``out``;
    ``work``, ``work2``: work arrays of n (no allocation on the usual paths)."""
    if outlier:
        return _outlier_arm(mc, D, j, k, out, work, work2)
    return _normal_arm(mc, D, j, k, out, work)


# ------------------------------------------------------------------------------------------
# public numba cores


@njit(cache=True)
def arm_minimiser_nb(mu, D, j, k, outlier, out_lam):
    """V_j = min over A_j of (lam - mu)' D (lam - mu); fills out_lam with a minimiser."""
    mc, m = centred_nb(mu)
    n = mu.shape[0]
    v = arm_centred_nb(mc, D, j, k, outlier, out_lam, np.empty(n), np.empty(n))
    for i in range(n):
        out_lam[i] += m
    return v


@njit(cache=True)
def arm_value_nb(mu, D, j, k, outlier):
    """V_j (see :func:`arm_minimiser_nb`)."""
    n = mu.shape[0]
    mc, _ = centred_nb(mu)
    return arm_centred_nb(mc, D, j, k, outlier, np.empty(n), np.empty(n), np.empty(n))


@njit(cache=True)
def arm_values_nb(mu, D, k, outlier_mask, out_values):
    """Every V_j into out_values; returns the lowest index of the smallest."""
    n = mu.shape[0]
    mc, _ = centred_nb(mu)
    out = np.empty(n)
    work = np.empty(n)
    work2 = np.empty(n)
    best = 0
    for j in range(n):
        out_values[j] = arm_centred_nb(mc, D, j, k, outlier_mask[j], out, work, work2)
        if out_values[j] < out_values[best]:
            best = j
    return best


@njit(cache=True)
def dual_lower_nb(mu, D, j, k, outlier, eta):
    """A certified lower bound on V_j: the Lagrangian dual value at the multiplier eta (0 if eta is
    not admissible, i.e. negative or where D +- eta Q is not positive definite)."""
    n = mu.shape[0]
    mc, _ = centred_nb(mu)
    work = np.empty(n)
    s = 1.0 if outlier else -1.0
    bound = halfspace_nb(mc, D, j, work) if outlier else math.inf
    if not (eta >= 0.0) or not positive_definite_nb(D, j, k, eta, s):
        return 0.0
    qv = stationary_point_nb(mc, D, j, k, eta, s, work)
    return max(0.0, min(bound, objective_nb(mc, D, work) + s * eta * qv))


@njit(cache=True)
def isotropic_values_nb(mu, k, out_values):
    """V_j / d for D = d I (multiply by d), every arm, O(n) in all; returns the lowest argmin.

    The closed form of the module docstring: ||c||^2 sin^2(alpha_j - beta), or ||c||^2 (apex)."""
    n = mu.shape[0]
    m, ss = mean_ss_nb(mu)
    cb = k / math.sqrt(n - 1.0)  # cos(beta)
    sb = math.sqrt(max(1.0 - cb * cb, 0.0))
    unorm = math.sqrt((n - 1.0) / n)
    best = 0
    for j in range(n):
        cj = mu[j] - m
        if ss == 0.0:
            out_values[j] = 0.0
            continue
        q = n * cj * cj - k * k * ss
        outlier = cj > 0.0 and q > 0.0
        if n == 2 and outlier:
            out_values[j] = ss
        elif q == 0.0 and cj >= 0.0:
            out_values[j] = 0.0
        else:
            cn = math.sqrt(ss)
            ca = cj / (cn * unorm)  # cos(alpha)
            if ca > 1.0:
                ca = 1.0
            elif ca < -1.0:
                ca = -1.0
            perp = max((n - 1.0) / n * ss - cj * cj, 0.0)
            sa = math.sqrt(perp) / (cn * unorm)  # sin(alpha), without 1 - cos^2
            if not outlier and ca * cb + sa * sb < 0.0:  # alpha - beta > pi / 2: the apex
                out_values[j] = ss
            else:
                if ca >= 0.0:  # sin(a - b) = (cos^2 b - cos^2 a) / sin(a + b), no cancellation
                    sab = sa * cb + ca * sb
                    sdiff = -q / ((n - 1.0) * ss * sab) if sab > 0.0 else 0.0
                else:
                    sdiff = sa * cb - ca * sb
                out_values[j] = ss * sdiff * sdiff
        if out_values[j] < out_values[best]:
            best = j
    return best


@njit(cache=True)
def arm_minimisers_nb(mu, D, k, outlier_mask, out_values, out_lams):
    """Every V_j into out_values and a minimiser of each into the rows of out_lams; returns the
    lowest index of the smallest value."""
    n = mu.shape[0]
    mc, m = centred_nb(mu)
    out = np.empty(n)
    work = np.empty(n)
    work2 = np.empty(n)
    best = 0
    for j in range(n):
        out_values[j] = arm_centred_nb(mc, D, j, k, outlier_mask[j], out, work, work2)
        for i in range(n):
            out_lams[j, i] = out[i] + m
        if out_values[j] < out_values[best]:
            best = j
    return best


@njit(cache=True)
def apex_is_minimiser_nb(mu, D, j, k):
    r"""Whether the apex :math:`a\mathbf 1` (:math:`a=\sum_iD_i\mu_i/\sum_iD_i`) minimises
    :math:`(\lambda-\mu)^\top D(\lambda-\mu)` over the normal arm's cone :math:`K_j`: a certificate
    in O(n) for the case where the solver finds no KKT root and returns the apex.

    :math:`K_j` is convex and the objective strictly convex, so the apex is the minimiser iff
    :math:`g=\nabla f(a\mathbf 1)/2=D(a\mathbf 1-\mu)` lies in the dual cone of :math:`K_j` (the
    tangent cone at the apex is :math:`K_j` itself). :math:`g` is centred (:math:`\mathbf 1^\top g=0`
    by the choice of a), and in the centred space :math:`K_j` is the circular cone of half-angle
    :math:`\beta`, :math:`\cos\beta=k/\sqrt{n-1}`, around :math:`u_j`, whose dual is the circular
    cone of half-angle :math:`\pi/2-\beta`: the test is :math:`g_j\ge0` and
    :math:`n\,g_j^2\ge(n-1-k^2)\|g\|^2`. Exact arithmetic would make it an iff; in floating point
    a failure within rounding is possible only when the apex is (within rounding) on the edge of
    optimality, and callers treat a failure as "not certified"."""
    n = mu.shape[0]
    sd = 0.0
    sdm = 0.0
    for i in range(n):
        sd += D[i]
        sdm += D[i] * mu[i]
    a = sdm / sd
    gm = 0.0
    for i in range(n):
        gm += D[i] * (a - mu[i])
    gm /= n
    gg = 0.0
    for i in range(n):
        d = D[i] * (a - mu[i]) - gm
        gg += d * d
    gj = D[j] * (a - mu[j]) - gm
    return gj >= 0.0 and n * gj * gj >= (n - 1.0 - k * k) * gg


# ------------------------------------------------------------------------------------------
# every arm at once: lower bounds from sums shared by all arms


#: Global sums of :func:`node_sums_nb`, by index.
_A0, _A1, _B, _SY2, _SYE, _S1E2, _SME, _SYM, _S1ED, _SY2D, _SME2, _S1E2D, _SBASE, _SINVD, _NSUMS = range(15)


@njit(cache=True)
def node_sums_nb(mc, D, rho, s, sums, full=True):
    r"""The sums over all arms that every arm's bounds at the multiplier :math:`\eta=\rho/k^2` read
    (:func:`lower_bounds_nb`), with :math:`E_i=D_i-s\rho` and :math:`y_i=D_i\bar\mu_i/E_i` (``mc``
    centred): :math:`\sum1/E`, :math:`\sum y`, :math:`\sum D\bar\mu^2/E`, :math:`\sum y^2`,
    :math:`\sum y/E`, :math:`\sum1/E^2`, :math:`\sum\bar\mu/E`, :math:`\sum y\bar\mu`,
    :math:`\sum1/(ED)`, :math:`\sum y^2/D`, :math:`\sum\bar\mu/E^2`, :math:`\sum1/(E^2D)`,
    :math:`\sum D\bar\mu^2`, :math:`\sum1/D`. O(n), in index order. Returns False (sums unusable)
    where some :math:`E_i` is 0 (the node sits on a pole)."""
    for c in range(_NSUMS):
        sums[c] = 0.0
    if not full:  # the dual alone (the outliers' nodes) reads the first three
        for i in range(mc.shape[0]):
            d = D[i]
            m = mc[i]
            e = d - s * rho
            if e == 0.0:
                return False
            ie = 1.0 / e
            sums[_A0] += ie
            sums[_A1] += d * m * ie
            sums[_B] += d * m * m * ie
        return True
    for i in range(mc.shape[0]):
        d = D[i]
        m = mc[i]
        e = d - s * rho
        if e == 0.0:
            return False
        ie = 1.0 / e
        y = d * m * ie
        sums[_A0] += ie
        sums[_A1] += y
        sums[_B] += d * m * m * ie
        sums[_SY2] += y * y
        sums[_SYE] += y * ie
        sums[_S1E2] += ie * ie
        sums[_SME] += m * ie
        sums[_SYM] += y * m
        sums[_S1ED] += ie / d
        sums[_SY2D] += y * y / d
        sums[_SME2] += m * ie * ie
        sums[_S1E2D] += ie * ie / d
        sums[_SBASE] += d * m * m
        sums[_SINVD] += 1.0 / d
    return True


@njit(cache=True)
def _node_bound(mcj, dj, n, k, rho, s, sums, want_hs, neg):
    """(dual bound, half-space bound) of one arm at one node from :func:`node_sums_nb`; -inf where
    a bound does not apply. ``neg``: how many E_i = D_i - s rho are negative (0, or 1 for an
    outlier's node between the two smallest D_i, where D + eta Q is positive definite iff
    s I + eta G has exactly one negative eigenvalue, as in :func:`positive_definite_nb`)."""
    rn = math.sqrt(n)
    eta = rho / (k * k)
    e = dj - s * rho
    yj = dj * mcj / e
    a0 = sums[_A0]
    a1 = sums[_A1]
    g11 = (n - 2.0) / e + a0 / n
    g12 = k / e - k * a0 / n
    g22 = k * k * a0 / n
    p1 = rn * yj - a1 / rn
    p2 = (k / rn) * a1
    # H = s I + eta G; v = H^{-1} p
    h11 = s + eta * g11
    h22 = s + eta * g22
    h12 = eta * g12
    det = h11 * h22 - h12 * h12
    dual = -math.inf
    hs = -math.inf
    if det == 0.0:
        return dual, hs
    v1 = (h22 * p1 - h12 * p2) / det
    v2 = (h11 * p2 - h12 * p1) / det
    # positive definite M(eta) (inertia, as positive_definite_nb): s = -1 needs I - eta G > 0; s = +1 needs as many
    # negative eigenvalues of s I + eta G as negative E_i
    if s < 0.0:
        pd = det > 0.0 and h11 + h22 < 0.0
    elif det < 0.0:
        pd = neg == 1
    else:
        pd = neg == 0 and h11 + h22 > 0.0
    if pd:
        # g = f(lam) + s eta q(lam) at the stationary point: -s rho sum D mc^2 / E + eta p' H^{-1} p
        dual = -s * rho * sums[_B] + eta * (p1 * v1 + p2 * v2)
    if not want_hs:
        return dual, hs
    # lam = y + gam / E + bet e_j, the stationary point; y = its centred direction
    gam = eta * (v1 - k * v2) / rn
    bet = -eta * rn * v1 / e
    lam_mu = sums[_SYM] + gam * sums[_SME] + bet * mcj
    m = (a1 + gam * a0 + bet) / n
    lamj = yj + gam / e + bet
    lam2 = sums[_SY2] + 2.0 * gam * sums[_SYE] + gam * gam * sums[_S1E2] + 2.0 * bet * (yj + gam / e) + bet * bet
    pn2 = lam2 - n * m * m
    if not pn2 > 0.0:
        return dual, hs
    pn = math.sqrt(pn2)
    lam_d = sums[_SME] + gam * sums[_S1ED] + bet / dj
    lam2_d = (
        sums[_SY2D] + 2.0 * gam * sums[_SME2] + gam * gam * sums[_S1E2D] + (2.0 * bet * (yj + gam / e) + bet * bet) / dj
    )
    sinvd = sums[_SINVD]
    pj = lamj - m
    p_d = lam_d - m * sinvd
    p_dp = lam2_d - 2.0 * m * lam_d + m * m * sinvd
    udu = (1.0 - 2.0 / n) / dj + sinvd / (n * n)
    udp = pj / dj - p_d / n
    bmu = rn * mcj - k * lam_mu / pn
    bdb = n * udu - 2.0 * rn * (k / pn) * udp + (k * k / pn2) * p_dp
    if bmu < 0.0 and bdb > 0.0:
        hs = bmu * bmu / bdb
    return dual, hs


@njit(cache=True)
def _coarse_first(c, G):
    """The c-th node visited of G: every eighth first (0, 8, 16, ...), then 1, 9, 17, ..., and so on
    (so that a cutoff in :func:`lower_bounds_nb` drops an arm after a few nodes spread over the
    whole range)."""
    for r in range(8):
        cnt = (G - r + 7) // 8 if G > r else 0  # nodes r, r + 8, ... below G
        if c < cnt:
            return r + 8 * c
        c -= cnt
    return G - 1


#: Nodes of the outliers' dual in :func:`lower_bounds_nb`: rho = min_i D_i times
#: :func:`_outlier_fraction` (from 1e-3 to 1 - 1e-4: 3/4 of them on a log scale up to 1/2, then
#: denser towards the pole).
OUTLIER_NODES = 40


@njit(cache=True)
def _outlier_fraction(g):
    """rho / min_i D_i at the outliers' node g (:data:`OUTLIER_NODES`)."""
    a = (3 * OUTLIER_NODES) // 4
    if g < a:
        return 10.0 ** (-3.0 + 2.7 * g / (a - 1))
    return 1.0 - 10.0 ** (-0.3 - 3.7 * (g - a + 1) / (OUTLIER_NODES - a))


@njit(cache=True)
def lower_bounds_nb(mc, D, k, outlier, rhos, lb, node, sums, cutoff=math.inf):
    r"""Lower bounds on every arm's :math:`V_j` in :math:`O(nG)` for G multipliers ``rhos``
    (:math:`\eta=\rho/k^2`), and the node of each arm's best bound (-1: none), from sums shared by
    all arms (:func:`node_sums_nb`; ``mc`` centred, ``sums`` a work array of 16).

    Normal arm: the largest, over the nodes, of the Lagrangian dual :math:`f-\eta q` at its
    stationary point (where :math:`D-\eta Q\succ0`: the distance to the double cone) and of the
    half-space bound whose direction :math:`y` is that stationary point's, centred and normalised
    (valid at every :math:`\eta`: :math:`K_j\subseteq\{\sqrt n\,c_j\ge k\,y^\top c\}`), and the
    half-space bound with :math:`y=\bar\mu/\|\bar\mu\|` (no node). Outlier arm: the smaller of its
    half-space piece and the best dual :math:`f+\eta q` over the nodes with :math:`\rho<\min_iD_i`
    (there :math:`E\succ0`, so :math:`D+\eta Q\succ0`). Each is a lower bound in exact arithmetic;
    rounding is not accounted for, so the samplers use them to order and to choose, never to
    certify a stop. An arm whose bound exceeds ``cutoff`` (an upper value on :math:`\min_jV_j`,
    say) is not tightened further: it cannot be the smallest."""
    n = mc.shape[0]
    rn = math.sqrt(n)
    dmin = D[0]
    sinvd = 0.0
    ss = 0.0
    for i in range(n):
        dmin = min(dmin, D[i])
        sinvd += 1.0 / D[i]
        ss += mc[i] * mc[i]
    norm = math.sqrt(ss)
    sy_d = 0.0  # sum y_i / D_i and sum y_i^2 / D_i for y = mc / ||mc||
    sy2_d = 0.0
    if norm > 0.0:
        for i in range(n):
            sy_d += mc[i] / (norm * D[i])
            sy2_d += mc[i] * mc[i] / (ss * D[i])
    for j in range(n):
        node[j] = -1
        lb[j] = 0.0
        udu = (1.0 - 2.0 / n) / D[j] + sinvd / (n * n)
        if outlier[j]:
            lb[j] = mc[j] * mc[j] / udu  # the half-space piece {c_j <= 0}: c_j^2 / (u_j' D^-1 u_j)
        elif norm > 0.0:
            bmu = rn * mc[j] - k * norm
            bdb = n * udu - 2.0 * rn * k * (mc[j] / (norm * D[j]) - sy_d / n) + k * k * sy2_d
            if bmu < 0.0 and bdb > 0.0:
                lb[j] = bmu * bmu / bdb
    have_outlier = False
    for j in range(n):
        if outlier[j]:
            have_outlier = True
    G = rhos.shape[0]
    for c in range(G):
        g = _coarse_first(c, G)
        rho = rhos[g]
        need = False
        for j in range(n):
            if not outlier[j] and lb[j] <= cutoff:
                need = True
                break
        if not need or not node_sums_nb(mc, D, rho, -1.0, sums):
            continue
        for j in range(n):
            if outlier[j] or lb[j] > cutoff:
                continue
            dual, hs = _node_bound(mc[j], D[j], n, k, rho, -1.0, sums, True, 0)
            v = max(dual, hs)
            if v > lb[j]:
                lb[j] = v
                node[j] = g
    if have_outlier:
        # outliers: the q-piece's dual at the nodes below the first pole, then the smaller piece
        best = np.zeros(n)  # the dual at eta = 0 is 0
        d2 = math.inf  # the second smallest D_i: the nodes go on between the two poles
        first = True
        for i in range(n):
            if D[i] == dmin and first:
                first = False
            elif D[i] < d2:
                d2 = D[i]
        two = d2 < math.inf and d2 > dmin * (1.0 + 1e-9)
        for c in range(2 * OUTLIER_NODES):
            g = _coarse_first(c, 2 * OUTLIER_NODES)
            if g < OUTLIER_NODES:
                rho = dmin * _outlier_fraction(g)
                neg = 0
            else:
                if not two:
                    continue
                rho = dmin + (d2 - dmin) * _outlier_fraction(g - OUTLIER_NODES)
                neg = 1
            need = False
            for j in range(n):
                if outlier[j] and min(lb[j], best[j]) <= cutoff:
                    need = True
                    break
            if not need or not node_sums_nb(mc, D, rho, 1.0, sums, False):
                continue
            for j in range(n):
                if outlier[j] and min(lb[j], best[j]) <= cutoff:
                    dual, _ = _node_bound(mc[j], D[j], n, k, rho, 1.0, sums, False, neg)
                    if dual > best[j]:
                        best[j] = dual
                        node[j] = g
        for j in range(n):
            if outlier[j]:
                lb[j] = min(lb[j], best[j])


# ------------------------------------------------------------------------------------------
# Python wrappers


def check_k_for(k, n: int) -> float:
    """k in (0, sqrt(n - 1)): above sqrt(n - 1) no arm can ever lie above the threshold."""
    n = check_int("n", n, minimum=2)
    k = check_positive("k", k)
    if not k < math.sqrt(n - 1):
        raise ValueError(
            f"k must be below sqrt(n - 1) = {math.sqrt(n - 1):.6g} for n = {n} arms (no arm can exceed "
            f"mean + k * std otherwise); got k={k!r}"
        )
    return k


def check_weights(w, n: int) -> np.ndarray:
    w = check_vector("w", w, low=0.0)
    if len(w) != n:
        raise ValueError(f"w must hold one weight per arm (n = {n}); got len(w)={len(w)}")
    if not (w > 0).all():
        i = int(np.flatnonzero(w <= 0)[0])
        raise ValueError(
            f"w must be positive (the infimum is taken with every arm weighted); got w[{i}]={float(w[i])!r}"
        )
    return w


def outlier_mask(mu: np.ndarray, k: float) -> np.ndarray:
    """Whether each arm is an outlier of mu (c_j > k sqrt(mean c^2), c = mu - mean(mu)); arguments already checked."""
    c = mu - mu.mean()
    return c > k * np.sqrt(np.mean(c * c))


def arm_values_fast(mu, w, k: float, *, sigma: float = 1.0) -> tuple[np.ndarray, int]:
    """(V_j for every arm, the lowest index of the smallest) for Gaussian arms with weights w and
    standard deviation sigma: the values of ``lower_bound.arm_values(..., divergence="gaussian")``."""
    mu = check_vector("mu", mu, min_length=2)
    w = check_weights(w, len(mu))
    k = check_k_for(k, len(mu))
    sigma = check_positive("sigma", sigma)
    values = np.empty(len(mu))
    j = arm_values_nb(mu, w / (2.0 * sigma * sigma), k, outlier_mask(mu, k), values)
    return values, int(j)


def isotropic_values(mu, k: float, d: float = 1.0) -> tuple[np.ndarray, int]:
    """(V_j, argmin) when every weight is equal (D = d I), by the closed form."""
    mu = check_vector("mu", mu, min_length=2)
    k = check_k_for(k, len(mu))
    d = check_positive("d", d)
    values = np.empty(len(mu))
    j = isotropic_values_nb(mu, k, values)
    return values * d, int(j)


__all__ = [
    "apex_is_minimiser_nb",
    "arm_centred_nb",
    "arm_minimiser_nb",
    "arm_minimisers_nb",
    "arm_solve_nb",
    "arm_value_nb",
    "arm_values_fast",
    "arm_values_nb",
    "centred_nb",
    "check_k_for",
    "check_weights",
    "cj_nb",
    "dual_lower_nb",
    "halfspace_nb",
    "isotropic_values",
    "isotropic_values_nb",
    "lower_bounds_nb",
    "mean_ss_nb",
    "multiplier_of_node",
    "node_sums_nb",
    "objective_nb",
    "outlier_mask",
    "positive_definite_nb",
    "q_nb",
    "ss_nb",
    "stationary_point_nb",
]
