r"""Dense symmetric linear algebra without BLAS or LAPACK: a Cholesky factor, the inverse and a
solve from it, and eigenvalues, each written as numba loops in one fixed order.

**Why not LAPACK.** OpenBLAS picks its kernels by CPU (Haswell, SkylakeX, ...), and the kernels
block the sums and use vector widths differently, so the last bits of ``potrf``/``potri``,
``eigvalsh`` or SuperLU's dense steps depend on the machine (two records of the chapter made where
OpenBLAS chose Haswell and SkylakeX kernels differed in the last bits of 18 of 62 units). Those
bits are not harmless here: GrAPL's index can have near-ties (two arms' indices within a few ulps,
decided by the last bits of :math:`V_t^{-1}`), and the effective dimension :math:`d'` of γ* and
:math:`d_T` are counts of eigenvalues below a level, so a last bit can move a pull or a count.
Here every entry is accumulated in one stated order, in IEEE double precision, with numba's
default flags (no ``fastmath``: no reassociation and no fused multiply-add contraction), so the
same bits come out on any x86-64 or ARM machine. The inner loops are axpy's over contiguous rows
(each element updated on its own), which the compiler may vectorise without changing a rounding.

Storage: the Cholesky factor is kept as the upper triangle :math:`U` of a row-major array
(:math:`A = U^\top U`; row k of U is contiguous), i.e. :math:`L = U^\top`.

Costs at N = 1000 (about N³/6 multiply-subtracts per triangular step): a factor and an inverse take
a few tenths of a second, several times LAPACK's time; the eigenvalues (Householder
tridiagonalisation and bisection) about a second.
"""

from __future__ import annotations

import numpy as np
from numba import njit


# ----------------------------------------------------------------------------------- Cholesky
@njit(cache=True)
def _cholesky_upper_inplace(A, skip_zeros):
    r"""Overwrite the upper triangle of the symmetric ``A`` with U, :math:`A = U^\top U` (the
    strict lower triangle is left as it was). Right-looking: step k takes the square root of the
    pivot, divides row k right of it, and subtracts :math:`U_{ki} U_{kj}` from every entry (i, j),
    k < i ≤ j, so each entry receives its updates in the order k = 0, 1, ...

    With ``skip_zeros`` (A holds no negative zero), the updates by a multiplier :math:`U_{ki} = 0`
    are skipped while row k is finite: they subtract ±0 from entries that are never −0 (a
    subtraction gives −0 only from −0, and A has none), which leaves every entry as it is, so
    the factor is the same bits, at the cost of its fill instead of N³/6 (a graph Laplacian's
    factor is mostly zeros: 2 % on the small world, a third on the SBM).

    Returns 0, or k + 1 if the k-th pivot is not positive (A is not positive definite)."""
    n = A.shape[0]
    for k in range(n):
        pivot = A[k, k]
        if not pivot > 0.0:
            return k + 1
        r = np.sqrt(pivot)
        rowk = A[k]
        rowk[k] = r
        finite = True
        for j in range(k + 1, n):
            x = rowk[j] / r
            rowk[j] = x
            if not abs(x) < np.inf:
                finite = False
        skip = skip_zeros and finite
        for i in range(k + 1, n):
            f = rowk[i]
            if skip and f == 0.0:
                continue
            rowi = A[i]
            for j in range(i, n):
                rowi[j] -= f * rowk[j]
    return 0


@njit(cache=True)
def _inverse_from_upper(U, X, P, skip_zeros):
    r"""The lower triangle of :math:`P = A^{-1}` from U (:math:`A = U^\top U`), mirrored into the
    upper one, so that P is symmetric bit for bit.

    First :math:`X = L^{-1} = U^{-\top}` (lower triangular) row by row:
    :math:`X_{i\cdot} = (e_i - \sum_{k<i} U_{ki} X_{k\cdot}) / U_{ii}`, the sum taken in the order
    k = 0, 1, ...; then :math:`P = X^\top X`, :math:`P_{ab} = \sum_{i \ge a} X_{ia} X_{ib}`
    (b ≤ a), the sum taken in the order i = a, a + 1, ...

    With ``skip_zeros`` (U holds no negative zero), a term with :math:`U_{ki} = 0` is skipped
    while row k of X is finite: X starts from +0 and 1 and never holds −0, so subtracting ±0
    changes no entry (as in :func:`_cholesky_upper_inplace`)."""
    n = U.shape[0]
    finite = np.empty(n, dtype=np.bool_)
    for i in range(n):
        rowi = X[i]
        for j in range(n):
            rowi[j] = 0.0
        rowi[i] = 1.0
        for k in range(i):
            f = U[k, i]
            if skip_zeros and f == 0.0 and finite[k]:
                continue
            rowk = X[k]
            for j in range(k + 1):
                rowi[j] -= f * rowk[j]
        d = U[i, i]
        ok = True
        for j in range(i + 1):
            x = rowi[j] / d
            rowi[j] = x
            if not abs(x) < np.inf:
                ok = False
        finite[i] = ok
    for a in range(n):
        rowa = P[a]
        for b in range(a + 1):
            rowa[b] = 0.0
        for i in range(a, n):
            xa = X[i, a]
            rowx = X[i]
            for b in range(a + 1):
                rowa[b] += xa * rowx[b]
    for a in range(n):
        for b in range(a):
            P[b, a] = P[a, b]


@njit(cache=True)
def _solve_upper(U, y, x):
    r"""x with :math:`U^\top U x = y`: forward :math:`U^\top z = y` (column-oriented: z_k is final
    once the updates of rows 0..k−1 are in), then back :math:`U x = z` (row dot products summed
    from the right)."""
    n = U.shape[0]
    for i in range(n):
        x[i] = y[i]
    for k in range(n):
        x[k] = x[k] / U[k, k]
        zk = x[k]
        rowk = U[k]
        for i in range(k + 1, n):
            x[i] -= rowk[i] * zk
    for i in range(n - 1, -1, -1):
        acc = x[i]
        rowi = U[i]
        for j in range(n - 1, i, -1):
            acc -= rowi[j] * x[j]
        x[i] = acc / rowi[i]


def _checked_square(A, name: str) -> np.ndarray:
    A = np.array(A, dtype=np.float64, order="C", copy=True)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty square matrix; got shape {A.shape}")
    if not np.all(np.isfinite(A)):
        raise ValueError(f"{name} has non-finite entries")
    if not np.array_equal(A, A.T):
        raise ValueError(f"{name} must be exactly symmetric")
    return A


def _no_negative_zero(A: np.ndarray) -> bool:
    """Whether A holds no −0.0 (the condition under which the factor and inverse skip zeros)."""
    return not bool(np.any(np.signbit(A) & (A == 0.0)))


def cholesky_upper(A) -> np.ndarray:
    r"""The upper Cholesky factor U of a symmetric positive definite matrix, :math:`A = U^\top U`
    (zeros below the diagonal). Raises ``numpy.linalg.LinAlgError`` naming the pivot if A is not
    positive definite."""
    U = _checked_square(A, "A")
    info = _cholesky_upper_inplace(U, _no_negative_zero(U))
    if info:
        raise np.linalg.LinAlgError(f"the matrix is not positive definite (pivot {info - 1} is not > 0)")
    return np.triu(U)


def spd_inverse(A) -> np.ndarray:
    r""":math:`A^{-1}` of a symmetric positive definite matrix, exactly symmetric, the same bits on
    any machine (see the module docstring for the order of every sum)."""
    U = cholesky_upper(A)
    n = U.shape[0]
    X, P = np.empty((n, n)), np.empty((n, n))
    _inverse_from_upper(U, X, P, _no_negative_zero(U))
    return P


def spd_solve(A, y) -> np.ndarray:
    r"""x with :math:`A x = y` (A symmetric positive definite), by the Cholesky factor."""
    U = cholesky_upper(A)
    y = np.asarray(y, dtype=np.float64)
    if y.shape != (U.shape[0],):
        raise ValueError(f"y must be a vector of length {U.shape[0]}; got shape {y.shape}")
    if not np.all(np.isfinite(y)):
        raise ValueError("y has non-finite entries")
    x = np.empty(U.shape[0])
    _solve_upper(U, y, x)
    return x


# ----------------------------------------------------------------------------------- eigenvalues
@njit(cache=True)
def _tridiagonalise(A, d, e, v, p):
    r"""Householder reduction of the symmetric ``A`` (overwritten) to a tridiagonal matrix with
    diagonal ``d`` and off-diagonal ``e`` having the same eigenvalues.

    Step k reflects x = A[k+1:, k] (read as row k, A is kept exactly symmetric) onto
    :math:`\alpha e_1`, :math:`\alpha = -\mathrm{sign}(x_0)\|x\|`, with :math:`v = x - \alpha e_1`,
    :math:`\beta = 1/(\|x\|^2 - \alpha x_0)`; then, on the trailing block B,
    :math:`p = \beta B v` (rows of B added in order), :math:`w = p - (\beta\, p^\top v / 2)\, v`
    and :math:`B \leftarrow B - v w^\top - w v^\top`, each entry as
    :math:`B_{ij} - (v_i w_j + w_i v_j)`, which keeps B exactly symmetric."""
    n = A.shape[0]
    for k in range(n - 2):
        m = n - k - 1
        rowk = A[k]
        norm2 = 0.0
        for j in range(m):
            x = rowk[k + 1 + j]
            v[j] = x
            norm2 += x * x
        d[k] = rowk[k]
        if norm2 == 0.0:
            e[k] = 0.0
            continue
        norm = np.sqrt(norm2)
        alpha = -norm if v[0] >= 0.0 else norm
        beta = 1.0 / (norm2 - alpha * v[0])
        v[0] = v[0] - alpha
        e[k] = alpha
        for i in range(m):
            p[i] = 0.0
        for j in range(m):
            f = beta * v[j]
            rowj = A[k + 1 + j]
            for i in range(m):
                p[i] += f * rowj[k + 1 + i]
        pv = 0.0
        for i in range(m):
            pv += p[i] * v[i]
        K = 0.5 * beta * pv
        for i in range(m):
            p[i] = p[i] - K * v[i]  # p now holds w
        for i in range(m):
            vi, wi = v[i], p[i]
            rowi = A[k + 1 + i]
            for j in range(m):
                rowi[k + 1 + j] -= vi * p[j] + wi * v[j]
    if n >= 2:
        d[n - 2] = A[n - 2, n - 2]
        e[n - 2] = A[n - 1, n - 2]
    d[n - 1] = A[n - 1, n - 1]


@njit(cache=True)
def _count_below(d, e2, x, pivmin):
    """The number of eigenvalues of the tridiagonal (d, e) below x (Sturm count, LDLᵀ of T − xI)."""
    count = 0
    q = d[0] - x
    if abs(q) < pivmin:
        q = -pivmin
    if q < 0.0:
        count += 1
    for i in range(1, d.shape[0]):
        q = (d[i] - x) - e2[i - 1] / q
        if abs(q) < pivmin:
            q = -pivmin
        if q < 0.0:
            count += 1
    return count


@njit(cache=True)
def _count_below4(d, e2, x0, x1, x2, x3, pivmin, counts):
    """:func:`_count_below` at four points at once, into ``counts``: each chain does the same
    operations as :func:`_count_below` (so the same counts); four independent chains keep the
    divider busy where one waits for each division's result."""
    q0 = d[0] - x0
    q1 = d[0] - x1
    q2 = d[0] - x2
    q3 = d[0] - x3
    if abs(q0) < pivmin:
        q0 = -pivmin
    if abs(q1) < pivmin:
        q1 = -pivmin
    if abs(q2) < pivmin:
        q2 = -pivmin
    if abs(q3) < pivmin:
        q3 = -pivmin
    c0 = 1 if q0 < 0.0 else 0
    c1 = 1 if q1 < 0.0 else 0
    c2 = 1 if q2 < 0.0 else 0
    c3 = 1 if q3 < 0.0 else 0
    for i in range(1, d.shape[0]):
        di = d[i]
        ei = e2[i - 1]
        q0 = (di - x0) - ei / q0
        q1 = (di - x1) - ei / q1
        q2 = (di - x2) - ei / q2
        q3 = (di - x3) - ei / q3
        if abs(q0) < pivmin:
            q0 = -pivmin
        if abs(q1) < pivmin:
            q1 = -pivmin
        if abs(q2) < pivmin:
            q2 = -pivmin
        if abs(q3) < pivmin:
            q3 = -pivmin
        c0 += 1 if q0 < 0.0 else 0
        c1 += 1 if q1 < 0.0 else 0
        c2 += 1 if q2 < 0.0 else 0
        c3 += 1 if q3 < 0.0 else 0
    counts[0] = c0
    counts[1] = c1
    counts[2] = c2
    counts[3] = c3


@njit(cache=True)
def _bisect_all(d, e2, lo, hi, pivmin, out):
    r"""Every eigenvalue of the tridiagonal by bisection on Sturm counts: an interval holding
    eigenvalues j..k−1 is halved until its end points are adjacent doubles, and its eigenvalues
    are then its midpoint. Each interval's fate depends only on its own end points, so the order
    in which intervals are taken does not change a bit: they are taken from a stack four at a
    time, their Sturm counts computed side by side (:func:`_count_below4`)."""
    n = d.shape[0]
    # nearly depth first: four intervals are taken at a time and each pushes at most two, so the
    # stack holds at most about four intervals per level, and halving an interval of doubles
    # reaches adjacent end points in fewer than 2 * 1100 levels
    size = 16384
    stack_lo, stack_hi = np.empty(size), np.empty(size)
    stack_clo, stack_chi = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    stack_lo[0], stack_hi[0], stack_clo[0], stack_chi[0] = lo, hi, 0, n
    top = 1
    take_lo, take_hi, take_mid = np.empty(4), np.empty(4), np.empty(4)
    take_clo, take_chi = np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64)
    counts = np.empty(4, dtype=np.int64)
    while top > 0:
        taken = 0
        while top > 0 and taken < 4:
            top -= 1
            a, b, ca, cb = stack_lo[top], stack_hi[top], stack_clo[top], stack_chi[top]
            if cb == ca:
                continue
            mid = 0.5 * (a + b)
            if mid <= a or mid >= b:
                for j in range(ca, cb):
                    out[j] = mid
                continue
            take_lo[taken], take_hi[taken], take_mid[taken] = a, b, mid
            take_clo[taken], take_chi[taken] = ca, cb
            taken += 1
        if taken == 0:
            continue
        for t in range(taken, 4):  # pad with a point already taken (its count is discarded)
            take_mid[t] = take_mid[0]
        _count_below4(d, e2, take_mid[0], take_mid[1], take_mid[2], take_mid[3], pivmin, counts)
        if top + 2 * taken > size:
            raise RuntimeError("bisection stack overflow")
        for t in range(taken - 1, -1, -1):
            cm = counts[t]
            # push the upper half first so that the lower one is taken next
            stack_lo[top], stack_hi[top], stack_clo[top], stack_chi[top] = take_mid[t], take_hi[t], cm, take_chi[t]
            top += 1
            stack_lo[top], stack_hi[top], stack_clo[top], stack_chi[top] = take_lo[t], take_mid[t], take_clo[t], cm
            top += 1


def symmetric_eigenvalues(A) -> np.ndarray:
    r"""Eigenvalues of a symmetric matrix, ascending: Householder tridiagonalisation, then
    bisection on Sturm counts to adjacent doubles. Accurate to a few ulps of :math:`\|A\|`
    (as LAPACK's ``eigvalsh``), and the same bits on any machine."""
    A = _checked_square(A, "A")
    n = A.shape[0]
    if n == 1:
        return A[0].copy()
    d, e = np.empty(n), np.empty(n - 1)
    _tridiagonalise(A, d, e, np.empty(n), np.empty(n))
    e2 = e * e
    radius = np.zeros(n)
    radius[:-1] += np.abs(e)
    radius[1:] += np.abs(e)
    lo, hi = float(np.min(d - radius)), float(np.max(d + radius))
    width = max(hi - lo, abs(lo), abs(hi), np.finfo(float).tiny)
    lo, hi = lo - 1e-9 * width - 1e-300, hi + 1e-9 * width + 1e-300
    pivmin = np.finfo(float).tiny * max(1.0, float(e2.max()) if e2.size else 1.0)
    out = np.empty(n)
    _bisect_all(d, e2, lo, hi, pivmin, out)
    return out
