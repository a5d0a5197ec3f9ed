r"""Machinery shared by RR, WRR and NRR: argument checks, the reference state, the fast engines.

**Reference state** (:class:`KSigmaRun`). The per-pull references of :mod:`~bandit_lib.zhuang17.rr`,
:mod:`~bandit_lib.zhuang17.wrr` and :mod:`~bandit_lib.zhuang17.nrr` keep :math:`s_i, m_i, T`, pull
from the tape one reward at a time (``tape.pull``), and call
:func:`bandit_lib.zhuang17.intervals.evaluate_kernel` (one UPDATE()) after every pull or batch.

**Fast engine** (:func:`wrr_kernel`; RR is WRR with :math:`\rho = 1`). A numba loop over the same
tape that takes *exactly* the reference's decisions. After a pull it must know whether the pulled
arm is active (WRR's inner loop) and whether any arm is active (termination). Recomputing the
UPDATE() costs :math:`O(n)`; instead the kernel keeps

* running sums :math:`\sum_i \hat y_i`, :math:`\sum_i \hat y_i^2` (for :math:`\hat\mu, \hat\sigma`),
  :math:`\sum_i 1/m_i` (Hoeffding) or :math:`W_p = \sum_i (\hat y_i - y_0)^p \beta_i(z_{lo})^2`,
  :math:`p = 0, 1, 2` (Agresti–Coull; then :math:`\beta_\theta^2 = n^{-2}(A^2W_0 + 2ABW_1 + B^2W_2)`
  with :math:`c_i n = A + B(\hat y_i - y_0)`), each with a running bound on its rounding error;
* a *window* :math:`[T_0, T_{hi}]` over which :math:`z` (or :math:`L = \ln 1/\delta'`) lies in
  :math:`[z_{lo}, z_{hi}]`, because :math:`\delta'(T)` decreases in :math:`T`, and every radius is
  increasing in :math:`z` (for Agresti–Coull, :math:`d\ln\beta_i^2/dz^2 \ge 1/z^2 > 0`, and
  :math:`\beta_i(z')^2/\beta_i(z)^2 \le (z'/z)^6` for :math:`z' \ge z`);
* a *witness*: an arm that was active at the last exact UPDATE() (the one with the largest
  slack), which proves :math:`A \neq \emptyset` for as long as it provably stays active.

From these it computes, in :math:`O(1)`, intervals that provably contain the floating-point
numbers the reference would compute: :math:`\hat\theta`, :math:`\beta_\theta` and the radius of
one arm (rounding of the reference's own sums is bounded with the standard
:math:`\gamma_n = nu/(1-nu)` bounds, doubled for safety). An arm is *certainly active* when the
reference's float comparison of Eq. (2) is true for every value in those intervals; IEEE rounding
is monotone, so the comparison can be made at the interval ends. When neither "certainly active"
nor "certainly inactive" can be shown, or the window ends, the kernel calls the reference's own
:func:`~bandit_lib.zhuang17.intervals.evaluate_kernel` and starts a new window. Decisions therefore never
differ from the reference's; only the cost differs. ``verify=True`` recomputes the exact UPDATE()
after every step and counts any value outside its certified interval (tests assert zero).

Public API of this module (used by the policy modules; not re-exported): :func:`check_common`,
:class:`KSigmaRun`, :func:`run_wrr_fast`, :func:`run_nrr_fast`.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from bandit_lib.checks import check_cap, check_choice, check_engine, check_int, check_nonnegative, check_open_unit
from bandit_lib.ksigma import cap_or_refuse, threshold_nb
from bandit_lib.runner import DEFAULT_CAP, Outcome
from bandit_lib.tapes import BERNOULLI, REPLAY, RewardTape, check_tape, philox_block, pull_sum, uniform_of
from bandit_lib.zhuang17.intervals import (
    AGRESTI_COULL,
    HOEFFDING,
    L_DELTA,
    TH_DELTA,
    IntervalState,
    ac_beta_nb,
    check_ci,
    delta_prime_nb,
    evaluate_kernel,
    hoeffding_beta_nb,
    l_value_nb,
    z_value_nb,
)

U = 2.0**-53
# Relative margin on z, L and l at the window ends: scipy's erfcinv and libm's log are accurate
# to a few ulps (measured: 4.4e-16 relative for erfcinv), far inside this.
FN_MARGIN = 1e-12


# ------------------------------------------------------------------------------------------
# argument checks shared by the policies


def check_common(
    tape, k, delta, cap, *, init_pulls: int = 1, batch: int = 1, engine: str = "fast", heuristic: bool = False
):
    """Validate the arguments every k-sigma policy shares; returns (n, k, delta, cap, init_pulls, batch).
    Without a cap, a degenerate instance is refused, and (unless ``heuristic``: NRR's stop needs no
    confidence, so the lower bound does not bind it) so is one whose estimated cost exceeds the
    default cap (:func:`bandit_lib.ksigma.cap_or_refuse`)."""
    n = check_tape(tape, min_arms=2, fresh=True, problem="the k-sigma problem").n_arms
    k = check_nonnegative("k", k)
    delta = check_open_unit("delta", delta)
    init_pulls = check_int("init_pulls", init_pulls, minimum=1)
    batch = check_int("batch", batch, minimum=1)
    check_engine(engine)
    who = "this k-sigma policy"
    cap = check_cap(cap_or_refuse(cap, tape, k, default=DEFAULT_CAP, who=who, delta=None if heuristic else delta))
    if cap < n * init_pulls:
        raise ValueError(f"cap must allow the initial pulls (n * init_pulls = {n * init_pulls}); got cap={cap}")
    return n, k, delta, cap, init_pulls, batch


COUNTS = ("pulls", "batches")


def check_count(count: str, n: int, delta: float, batch: int, init_pulls: int) -> int:
    """``count`` of delta'(T) (see the ADE20 chapter's reproduction notes): "pulls" (the theory) or "batches" (T / batch,
    ADE20's ablation); returns the unit t_unit. Refuses a first level delta' >= 1 (L <= 0)."""
    check_choice("count", count, COUNTS)
    if count == "pulls":
        return 1
    first = delta_prime_nb(float(n * init_pulls) / batch, n, delta)
    if not first < 1.0:
        raise ValueError(
            f"count='batches' needs delta'(n * init_pulls / batch) < 1; got {first!r} with n={n}, batch={batch}"
        )
    return batch


def check_ci_for_tape(ci, tape: RewardTape):
    ci = check_ci(ci)
    if ci.family == AGRESTI_COULL:
        ok = tape.kind == BERNOULLI or (tape.kind == REPLAY and ((tape.values >= 0) & (tape.values <= 1)).all())
        if not ok:
            raise ValueError(f"AgrestiCoullCI needs rewards in [0, 1] (a Bernoulli tape); got a {tape.kind_name} tape")
    return ci


# ------------------------------------------------------------------------------------------
# the reference state


class KSigmaRun:
    """Sums, counts and T of a per-pull reference run, with PULL() and UPDATE()."""

    def __init__(self, tape: RewardTape, k: float, delta: float, ci=None, t_unit: int = 1):
        # t_unit > 1 counts T in units of t_unit pulls inside delta'(T) (ADE20's B3 ablation):
        # delta'(T / t_unit; delta) = delta'(T; delta * t_unit^2), and delta enters UPDATE() only
        # through delta', so the level uses delta * t_unit^2 while l(k) keeps delta (codes below).
        self.tape, self.k, self.delta = tape, k, delta * t_unit * t_unit
        n = tape.n_arms
        self.s = np.zeros(n)
        self.m = np.zeros(n, dtype=np.int64)
        self.T = 0
        self.codes = ci.codes(n, k, delta) if ci is not None else None
        self._yhat, self._beta, self._active = np.empty(n), np.empty(n), np.empty(n, dtype=np.bool_)

    def pull(self, i: int, times: int = 1) -> None:
        """Pull arm i ``times`` times, one reward at a time."""
        for _ in range(times):
            self.s[i] += self.tape.pull(i)
        self.m[i] += times
        self.T += times

    def update(self) -> IntervalState:
        """UPDATE(): estimates, all radii with delta'(T), and the active set (Eq. 1-3)."""
        mu, sig, theta, bth, _ = evaluate_kernel(
            self.s, self.m, self.T, self.k, self.delta, *self.codes, self._yhat, self._beta, self._active
        )
        return IntervalState(self._yhat.copy(), mu, sig, theta, self._beta.copy(), bth, self._active.copy())

    def theta(self) -> tuple[np.ndarray, float]:
        """(yhat, thetahat) only (NRR needs no radii)."""
        yhat = self.s / self.m
        return yhat, threshold_nb(yhat, self.k)[2]


# ------------------------------------------------------------------------------------------
# fast engine: numerics
#
# A *window* starts with an exact re-summation of the running sums from the arrays (O(n)) and
# lasts until T passes T_hi, the state leaves the window's caps, or a certificate is undecided
# (then the exact UPDATE() decides, and a new window starts). Within a window, every step adds at
# most a fixed amount ("rate", computed from the caps) to the rounding error of each running sum,
# so the margins computed at the window's start hold for every step of the window.


@njit(cache=True)
def _gamma(n):
    return 1.01 * (n + 4.0) * U


@njit(cache=True)
def _ac_b2(s, m, z2):
    """(beta^2, p~) of the Agresti–Coull radius at z^2 = z2."""
    p = (s + z2 / 2.0) / (m + z2)
    return z2 * (p * (1.0 - p) / m), p


@njit(cache=True)
def _kappa(p):
    """Conditioning of 1 - p~: p~ carries ~3u relative rounding, so 1 - p~ carries 3u p~/(1 - p~)
    and every rounding bound on an Agresti–Coull radius is (c0 + c1 kappa) u, kappa = 1/(1 - p~) + 1."""
    return 1.0 / (1.0 - p) + 1.0


@njit(cache=True)
def _resum(s, m, yhat, family, z2lo, st_b2, st_d, st_inv):
    """Exact running sums from the arrays and bounds on their rounding.

    Returns (S1, eS1, S2, eS2, Y, y0, W0, eW0, W1, eW1, W2, eW2, pmax); for Hoeffding W0 is the
    sum of 1/m_i and W1, W2 are unused. W_p = sum_i (yhat_i - y0)^p beta_i(z_lo)^2.
    """
    n = s.shape[0]
    g = _gamma(n)
    S1 = 0.0
    S2 = 0.0
    Y = 0.0
    for i in range(n):
        y = yhat[i]
        S1 += y
        S2 += y * y
        Y = max(Y, abs(y))
    y0 = S1 / n
    W0 = 0.0
    W1 = 0.0
    W2 = 0.0
    e0 = 0.0
    e1 = 0.0
    e2 = 0.0
    pmax = 0.0
    if family == HOEFFDING:
        for i in range(n):
            v = 1.0 / m[i]
            st_inv[i] = v
            W0 += v
        e0 = g * W0
    else:
        for i in range(n):
            b2, p = _ac_b2(s[i], float(m[i]), z2lo)
            pmax = max(pmax, p)
            d = yhat[i] - y0
            st_b2[i] = b2
            st_d[i] = d
            t1 = d * b2
            t2 = (d * d) * b2
            W0 += b2
            W1 += t1
            W2 += t2
            rel = g + (8.0 + 4.0 * _kappa(p)) * U  # the summation and this term's own rounding
            e0 += rel * b2
            e1 += rel * abs(t1)
            e2 += rel * t2
    return S1, g * n * Y, S2, g * S2, Y, y0, W0, e0, W1, e1, W2, e2, pmax


# The margins of a window's certificates (see ``_margins``), by name: ``valid`` (1.0 when they
# could be computed, else 0.0), ``TH`` (bound on ``|theta_ref - th_f|``), ``MAG`` (bound on the
# magnitudes in the reference's comparisons), ``EQ``, ``MLO``, ``MHI``, ``F``, ``RR`` (the
# Agresti-Coull threshold radius' bounds) and ``C_LO``, ``C_HI`` (the Hoeffding ones).
Margins = namedtuple("Margins", ["valid", "TH", "MAG", "EQ", "MLO", "MHI", "F", "RR", "C_LO", "C_HI"])


@njit(cache=True)
def _margins(
    n,
    k,
    family,
    R,
    th_mode,
    var_f,
    Yc,
    eS1,
    eS2,
    vlo,
    vhi,
    y0,
    W0c,
    W2c,
    eW0,
    eW1,
    eW2,
    kmaxc,
    ratio3,
    llo,
    Llo,
    lhi,
    Lhi,
):
    """Margins of the certified intervals, valid for every state of the window.

    Inputs are the window's caps (max|yhat| <= Yc, var_f in [vlo, vhi], W0 <= W0c, W2 <= W2c,
    kappa <= kmaxc) and bounds eS1, eS2, eW* on the running sums' rounding over the window. With
    the fast point estimates mu_f = S1/n, var_f = S2/n - mu_f^2, sig_f = sqrt(var_f),
    th_f = mu_f + k sig_f and (Agresti–Coull) Q = (A^2 W0 + 2AB W1 + B^2 W2)/n^2, the reference's
    float values satisfy

        ``|theta_ref - th_f|`` <= TH,
        (sqrt(max(Q - EQ, 0)) - MLO)(1 - F) <= beta_th_ref <= (sqrt(Q + EQ) RR + MHI)(1 + F),

    (Hoeffding: C_LO (q - 2 eW0) <= beta_th_ref^2 <= C_HI (q + 2 eW0), q = sum 1/m_i). The terms
    bound the fast sums' rounding, the reference's own sequential sums (gamma_n bounds, doubled),
    and the Lipschitz constants of c_i in (mu, sigma), using ``|yhat_i - mu|`` <= sqrt(n-1) sigma
    (Samuelson's inequality). Returns the :class:`Margins`.
    """
    g = _gamma(n)
    # mu_f = S1 * fl(1/n) and S2 * fl(1/n) carry 3u relative rounding each
    Emu = 2.0 * (2.0 * eS1 / n + 3.0 * U * Yc)  # |mu_f - mu|
    Evar = 2.0 * (2.0 * eS2 / n + 8.0 * U * Yc * Yc + (2.0 * Yc + Emu) * Emu)  # |var_f - var|
    Emr = 2.0 * (g + U) * Yc  # |mu_ref - mu|
    Evr = 2.0 * (g * (vhi + Evar) + 2.0 * Emr * Emr)  # |var_ref - var|
    if not (vlo > 4.0 * (Evar + Evr)):
        return Margins(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)  # sigma too close to 0 to bound
    rvlo = math.sqrt(vlo)
    rvhi = math.sqrt(vhi + Evar + Evr)
    Esig = Evar / rvlo + 2.0 * U * rvhi  # |sig_f - sig|
    Esr = (Evar + Evr) / rvlo + 6.0 * U * rvhi  # |sig_f - sig_ref|
    TH = 2.0 * (Emu + Emr + k * Esr + 8.0 * U * (Yc + Emu + Emr + k * rvhi))
    smin = math.sqrt(vlo - Evar - Evr) * (1.0 - 4.0 * U)  # below sig_f, sig, sig_ref
    mag = 2.0 * (Yc + k * rvhi) + TH
    if family == HOEFFDING:
        F = g + 16.0 * U
        C_LO = R * R * llo * Llo / (2.0 * n) * (1.0 - F) * (1.0 - F)
        C_HI = R * R * lhi * Lhi / (2.0 * n) * (1.0 + F) * (1.0 + F)
        return Margins(1.0, TH, mag + 2.0 * math.sqrt(C_HI * n), 0.0, 0.0, 0.0, F, 1.0, C_LO, C_HI)
    D = Yc + abs(y0)  # bound on |yhat_i - y0|
    sq = math.sqrt(n - 1.0)
    if th_mode == TH_DELTA:
        Bc = k / smin
        Ac = 1.0 + Bc * (abs(y0) + Yc)
        dc_f = (k / n) * (Emu + sq * Esig) / smin
        G = (sq * rvhi + Emr + Emu) / smin  # bound on |(yhat_i - mu_ref) / sig_ref|
        dc_ref = (k / n) * (Emr + sq * (Esr + Esig)) / smin
    else:
        Bc = k / math.sqrt(smin)
        Ac = 1.0 + Bc * abs(y0)
        s15 = smin * math.sqrt(smin)
        dc_f = (k / n) * Yc * Esig / (2.0 * s15)
        G = Yc / math.sqrt(smin)
        dc_ref = (k / n) * Yc * (Esr + Esig) / (2.0 * s15)
    dc_f += 4.0 * U * (Ac + 1.0 + Bc * D) / n  # rounding of the fast A, B
    dc_ref += 8.0 * U * (1.0 + k * G) / n  # rounding of the reference's c_i
    W0u = W0c + 2.0 * eW0
    W2u = W2c + 2.0 * eW2
    W1abs = math.sqrt(W0u * W2u)  # >= sum_i |d_i| b_i^2 (Cauchy–Schwarz)
    nn = float(n) * float(n)
    A2 = Ac * Ac
    AB = Ac * Bc
    B2 = Bc * Bc
    EQ = (A2 * 2.0 * eW0 + 2.0 * AB * 2.0 * eW1 + B2 * 2.0 * eW2) / nn + 12.0 * U * (
        A2 * W0u + 2.0 * AB * W1abs + B2 * W2u
    ) / nn
    rw0 = math.sqrt(W0u)
    RR = math.sqrt(ratio3)
    F = g + (40.0 + 4.0 * kmaxc) * U  # the reference's radii carry (c0 + c1 kappa) u
    MLO = (dc_f + dc_ref * RR) * rw0
    MHI = (dc_f + dc_ref) * rw0 * RR
    mag += 2.0 * ((1.0 + k * G) / n + dc_ref) * rw0 * RR
    return Margins(1.0, TH, mag, EQ, MLO, MHI, F, RR, 0.0, 0.0)


@njit(cache=True)
def _point(S1, S2, inv_n, k):
    """Fast point estimates (mu_f, var_f, sig_f, th_f) from the running sums (1/n precomputed)."""
    mu_f = S1 * inv_n
    var_f = S2 * inv_n - mu_f * mu_f
    sig_f = math.sqrt(max(var_f, 0.0))
    return mu_f, var_f, sig_f, mu_f + k * sig_f


@njit(cache=True)
def _q(mu_f, sig_f, W0, W1, W2, y0, inv_nn, k, family, th_mode):
    """q = Q = (A^2 W0 + 2AB W1 + B^2 W2)/n^2 (Agresti–Coull; c_i n = A + B(yhat_i - y0)) or sum 1/m_i."""
    if family == HOEFFDING:
        return W0
    if th_mode == TH_DELTA:
        B = k / sig_f
        A = 1.0 + B * (y0 - mu_f)
    else:
        B = k / math.sqrt(sig_f)
        A = 1.0 + B * y0
    return (A * A * W0 + 2.0 * (A * B) * W1 + B * B * W2) * inv_nn


@njit(cache=True)
def certify_step(y, b_lo, b_hi, th_f, q, mg, eq_inv, family):
    """+1 if an arm (yhat y, radius in [b_lo, b_hi]) is surely active under Eq. (2), -1 if surely
    inactive, 0 if undecided, for every reference value theta in th_f +- TH and beta_th in its
    certified range (``mg``: the :class:`Margins` of ``_margins``; ``q`` from ``_q``, or a negative
    number if not computed yet, in which case only the test that needs no beta_th is made and 2 is
    returned when q is needed; ``eq_inv`` = the window's bound on the rounding of sum 1/m_i,
    Hoeffding only). The 8u * magnitude term absorbs the rounding of the reference's comparisons
    fl(y - b) < fl(theta + beta_th) and of this test; the beta_th comparisons are made in squares
    to avoid a square root."""
    tol = 8.0 * U * (mg.MAG + abs(y) + b_hi)
    gap = max(y - (th_f - mg.TH), (th_f + mg.TH) - y) - b_lo + tol
    if gap <= 0.0:
        return 1
    if q < 0.0:
        return 2
    if family == HOEFFDING:
        if gap * gap * (1.0 + 8.0 * U) < mg.C_LO * (q - 2.0 * eq_inv) * (1.0 - 2.0 * U):
            return 1
    else:
        x = gap / (1.0 - mg.F) + mg.MLO
        if x * x * (1.0 + 8.0 * U) < (q - mg.EQ) * (1.0 - 2.0 * U):
            return 1
    out = max(y - (th_f + mg.TH), (th_f - mg.TH) - y) - b_hi - tol  # distance beyond every theta
    if out < 0.0:
        return 0
    if family == HOEFFDING:
        if out * out * (1.0 - 8.0 * U) >= mg.C_HI * (q + 2.0 * eq_inv) * (1.0 + 2.0 * U):
            return -1
        return 0
    x = out / (1.0 + mg.F) - mg.MHI
    if x >= 0.0 and x * x * (1.0 - 8.0 * U) >= (q + mg.EQ) * mg.RR * mg.RR * (1.0 + 2.0 * U):
        return -1
    return 0


@njit(cache=True)
def stretch_certified(
    n,
    k,
    family,
    R,
    th_mode,
    z2lo,
    ratio3,
    kmaxc,
    Llo,
    Lhi,
    var_f,
    vlo,
    vhi,
    eS1w,
    eS2w,
    th_f,
    q,
    eq_inv,
    mg,
    Yc,
    y0,
    Ybound,
    pbound,
    pcap,
    W0,
    W0c,
    W2,
    W2c,
    w,
    s,
    m,
    yhat,
    st_b2,
    st_d,
    sx,
    sr,
    cls,
):
    """True if the witness ``w`` is surely active after each pull of a stretch whose rewards are
    already read (arm j gets sr[j] more pulls with reward sum sx[j], rewards in [0, 1]), and every
    state on the way stays inside the window's caps, so that the window's margins ``mg`` hold for it.

    Whatever the order of its rewards, arm j's mean y_j = s_j/m_j stays within
    dev_j = max(X(1 - y_j), (r - X) y_j)/m_j of its value (X = sx[j], r = sr[j]); its Agresti–Coull
    p~ within [a/(b + r - X), (a + X)/(b + X)] (a = s_j + z^2/2, b = m_j + z^2, at z_lo, below every
    later z), so beta_j^2 = z^2 p~(1 - p~)/m within the matching range. Then, in exact arithmetic:
    the threshold moves by at most Dth = sum dev/n + k ||dev||/sqrt(n) (sigma is 1/sqrt(n) times a
    norm of the centred means); the threshold radius ||c * beta|| (delta method, at z_lo) by at most
    ||dc|| beta_max + c_max ||dbeta||, with ||dc|| <= 2k/n ||dev||/sigma and
    c_max = (1 + k sqrt(n-1))/n (Samuelson); Hoeffding's q = sum 1/m_i falls by
    sum (1/m_j - 1/(m_j + r_j)). Each certificate is :func:`certify_step` at the current state with
    the margins widened by these drifts (and the rounding margins doubled, for the states in between):
    the witness surely active, and every arm whose activity a visit used (``cls``: +1 active, -1 not;
    WRR pulls an arm again while it is active and m < c) surely so at every state of the stretch.
    """
    fn = float(n)
    Sd = 0.0
    Sd2 = 0.0
    Ynew = Ybound
    pnew = pbound
    dW0 = 0.0
    dW2 = 0.0
    dq = 0.0
    bmax2 = 0.0
    dB2 = 0.0
    zc = z2lo / 2.0
    ac = family != HOEFFDING
    for j in range(n):
        if ac:
            bmax2 = max(bmax2, st_b2[j])  # every arm's radius weighs in the drift of c
        r = sr[j]
        if r == 0:
            continue
        X = sx[j]
        mj = float(m[j])
        yj = yhat[j]
        dev = max(X * (1.0 - yj), (r - X) * yj) / mj
        Sd += dev
        Sd2 += dev * dev
        Ynew = max(Ynew, abs(yj) + dev)
        if ac:
            a = s[j] + zc
            b = mj + z2lo
            pl = a / (b + r - X)
            ph = (a + X) / (b + X)
            pnew = max(pnew, ph)
            fl = min(pl * (1.0 - pl), ph * (1.0 - ph))
            fh = 0.25 if pl <= 0.5 <= ph else max(pl * (1.0 - pl), ph * (1.0 - ph))
            b2hi = z2lo * fh / mj
            b2lo = z2lo * fl / (mj + r)
            b2 = st_b2[j]
            bmax2 = max(bmax2, b2hi)
            db = max(math.sqrt(b2hi) - math.sqrt(b2), math.sqrt(b2) - math.sqrt(b2lo))
            dB2 += db * db
            dW0 += b2hi - b2
            d = abs(st_d[j]) + dev
            dW2 += d * d * b2hi - st_d[j] * st_d[j] * b2
        else:
            dq += 1.0 / mj - 1.0 / (mj + r)
    Dsig = math.sqrt(Sd2 / fn)
    Dth = Sd / fn + k * Dsig
    # the caps of the window, for every state of the stretch
    if Ynew > Yc:
        return False
    rv = math.sqrt(max(var_f, 0.0))
    Emu = 2.0 * (2.0 * eS1w / fn + 3.0 * U * Yc)
    Evar = 2.0 * (2.0 * eS2w / fn + 8.0 * U * Yc * Yc + (2.0 * Yc + Emu) * Emu)
    lo = rv - Dsig
    if lo <= 0.0 or lo * lo < vlo * (1.0 + 1e-9) + 4.0 * Evar:
        return False
    hi = rv + Dsig
    if hi * hi > vhi * (1.0 - 1e-9) - 4.0 * Evar:
        return False
    Dv = 0.0
    if ac:
        if th_mode != TH_DELTA:
            return False
        if pnew > pcap or W0 + dW0 > W0c or W2 + dW2 > W2c:
            return False
        sig_lo = math.sqrt(0.5 * vlo)
        c_max = (1.0 + k * math.sqrt(fn - 1.0)) / fn
        Dv = (2.0 * k / fn) * math.sqrt(Sd2) / sig_lo * math.sqrt(bmax2) + c_max * math.sqrt(dB2)
    RRm = mg.RR if ac else 1.0
    # the witness, then every arm whose activity a visit of the stretch used (cls: +1 active, -1 not)
    for j in range(-1, n):
        if j < 0:
            a_j = w
            want = 1
        else:
            want = cls[j]
            if want == 0:
                continue
            a_j = j
        r = sr[a_j]
        X = sx[a_j]
        mj = float(m[a_j])
        yj = yhat[a_j]
        dev = max(X * (1.0 - yj), (r - X) * yj) / mj
        mg2 = Margins(
            mg.valid,
            2.0 * mg.TH + Dth + dev,
            mg.MAG + Dth + dev,
            2.0 * mg.EQ,
            2.0 * mg.MLO + Dv,
            2.0 * mg.MHI + RRm * Dv,
            mg.F,
            mg.RR,
            mg.C_LO,
            mg.C_HI,
        )
        if ac:
            a = s[a_j] + zc
            b = mj + z2lo
            pl = a / (b + r - X)
            ph = (a + X) / (b + X)
            fl = min(pl * (1.0 - pl), ph * (1.0 - ph))
            fh = 0.25 if pl <= 0.5 <= ph else max(pl * (1.0 - pl), ph * (1.0 - ph))
            rel = (16.0 + 4.0 * kmaxc) * U
            b_lo = math.sqrt(z2lo * fl / (mj + r)) * (1.0 - rel)
            b_hi = math.sqrt(z2lo * fh / mj) * mg.RR * (1.0 + rel)
            got = certify_step(yj, b_lo, b_hi, th_f, q, mg2, eq_inv, family)
        else:
            b_lo = hoeffding_beta_nb(mj + r, Llo, R) * (1.0 - 8.0 * U)
            b_hi = hoeffding_beta_nb(mj, Lhi, R) * (1.0 + 8.0 * U)
            # q = sum 1/m_i only falls: q - dq below every state's, q above
            if want == 1:
                got = certify_step(yj, b_lo, b_hi, th_f, q - dq, mg2, 4.0 * eq_inv, family)
            else:
                got = certify_step(yj, b_lo, b_hi, th_f, q, mg2, 4.0 * eq_inv, family)
        if got != want:
            return False
    return True


@njit(cache=True)
def _beta_interval(s_j, m_j, family, R, z2lo, ratio3, Llo, Lhi):
    """Interval holding the reference's float radius of an arm with sums (s_j, m_j), any T of the window."""
    if family == HOEFFDING:
        return hoeffding_beta_nb(m_j, Llo, R) * (1.0 - 8.0 * U), hoeffding_beta_nb(m_j, Lhi, R) * (1.0 + 8.0 * U)
    b2, p = _ac_b2(s_j, m_j, z2lo)
    rel = (16.0 + 4.0 * _kappa(p)) * U  # kappa decreases in z when p~ > 1/2, and is at most 3 otherwise
    b = math.sqrt(b2)
    return b * (1.0 - rel), b * math.sqrt(ratio3) * (1.0 + rel)


@njit(cache=True)
def _exact(s, m, T, k, delta, family, R, l_fixed, l_inner, z_mode, th_mode, yhat, beta, active, stats):
    stats[0] += 1
    return evaluate_kernel(s, m, T, k, delta, family, R, l_fixed, l_inner, z_mode, th_mode, yhat, beta, active)


@njit(cache=True)
def _best_witness(yhat, beta, active, theta, bth):
    """The active arm nearest the threshold (the one whose activity outlasts the others' as every
    radius shrinks: an arm with ``|yhat_i - theta| < beta_th`` stays active whatever its own radius),
    ties to the larger slack (beta_i + beta_th - ``|yhat_i - theta|``); -1 if none is active.
    The witness only makes certificates cheaper: any active arm is correct."""
    best = -1
    best_d = np.inf
    best_slack = -np.inf
    for i in range(yhat.shape[0]):
        if active[i]:
            d = abs(yhat[i] - theta)
            sl = beta[i] + bth - d
            if d < best_d or (d == best_d and sl > best_slack):
                best_d = d
                best_slack = sl
                best = i
    return best


@njit(cache=True)
def _window_z(T, n, batch, cap, k, delta, family, l_fixed, l_inner, z_mode, shrink=0):
    """T_hi and the range of z (Agresti–Coull: z_lo^2, (z_hi/z_lo)^6) or of l and L (Hoeffding) on [T, T_hi].

    delta'(T) decreases in T, so z, L increase and l (ADE20 form) decreases; FN_MARGIN covers
    the few-ulp errors of erfcinv and log. The window is max(4 n batch, T/32) pulls long, divided by
    2^shrink (at least 64 batches): a shorter window has a narrower range of radii, so fewer arms
    near the edge of the active set need an exact UPDATE().
    """
    T_hi = min(T + max(max(4 * n * batch, T // 32) >> shrink, 64 * batch), cap)
    dp0 = delta_prime_nb(float(T), n, delta)
    dph = delta_prime_nb(float(T_hi), n, delta)
    if family == HOEFFDING:
        Llo = -math.log(dp0) * (1.0 - FN_MARGIN)
        Lhi = -math.log(dph) * (1.0 + FN_MARGIN)
        if l_inner == L_DELTA:
            llo = l_fixed
            lhi = l_fixed
        else:
            llo = l_value_nb(n, k, dph) * (1.0 - FN_MARGIN)
            lhi = l_value_nb(n, k, dp0) * (1.0 + FN_MARGIN)
        return T_hi, 0.0, 1.0, llo, Llo, lhi, Lhi
    zlo = z_value_nb(dp0, z_mode) * (1.0 - FN_MARGIN)
    zhi = z_value_nb(dph, z_mode) * (1.0 + FN_MARGIN)
    r = (zhi * zhi) / (zlo * zlo)
    return T_hi, zlo * zlo, r * r * r * (1.0 + FN_MARGIN), 0.0, 0.0, 0.0, 0.0


@njit(cache=True)
def _verify(
    s,
    m,
    T,
    k,
    delta,
    family,
    R,
    l_fixed,
    l_inner,
    z_mode,
    th_mode,
    th_f,
    q,
    mg,
    eq_inv,
    b_lo,
    b_hi,
    i,
    need_i,
    decided,
    act_i,
    cert_i,
    vy,
    vb,
    va,
):
    """Count the certified claims that the exact UPDATE() contradicts (tests expect none)."""
    bad = 0
    vmu, vsig, vth, vbt, vn = evaluate_kernel(
        s, m, T, k, delta, family, R, l_fixed, l_inner, z_mode, th_mode, vy, vb, va
    )
    if abs(vth - th_f) > mg.TH:
        bad += 1
    if family == HOEFFDING:
        if not (mg.C_LO * (q - 2.0 * eq_inv) <= vbt * vbt <= mg.C_HI * (q + 2.0 * eq_inv)):
            bad += 1
    else:
        lo = (math.sqrt(max(q - mg.EQ, 0.0)) - mg.MLO) * (1.0 - mg.F)
        hi = (math.sqrt(q + mg.EQ) * mg.RR + mg.MHI) * (1.0 + mg.F)
        if not (lo <= vbt <= hi):
            bad += 1
    if not (b_lo <= vb[i] <= b_hi):
        bad += 1
    if decided and (vn == 0 or (need_i and act_i != va[i])):
        bad += 1
    if need_i and cert_i == -1 and va[i]:
        bad += 1
    return bad


@njit(cache=True)
def wrr_kernel(
    kind,
    keys,
    means,
    scale,
    values,
    offsets,
    k,
    delta,
    cap,
    batch,
    init_pulls,
    rho,
    family,
    R,
    l_fixed,
    l_inner,
    z_mode,
    th_mode,
    verify,
    s,
    m,
    stats,
):
    """WRR (RR when rho = 1) on a tape; fills s, m; returns (T, capped, theta).

    ``stats``: [exact UPDATEs, verification failures, certified steps, steps, windows, stretches].
    """
    n = s.shape[0]
    fn = float(n)
    inv_n = 1.0 / fn
    inv_nn = inv_n * inv_n
    blocks = np.full(n, -1, dtype=np.int64)
    words = np.zeros((n, 4), dtype=np.uint64)
    yhat = np.empty(n)
    beta = np.empty(n)
    active = np.empty(n, dtype=np.bool_)
    vy = np.empty(n)
    vb = np.empty(n)
    va = np.empty(n, dtype=np.bool_)
    st_b2 = np.zeros(n)
    st_d = np.zeros(n)
    st_inv = np.zeros(n)
    c = np.zeros(n)
    for i in range(n):
        s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, 0, init_pulls, s[i])
        m[i] = init_pulls
    T = n * init_pulls
    mu, sig, theta, bth, n_act = _exact(
        s, m, T, k, delta, family, R, l_fixed, l_inner, z_mode, th_mode, yhat, beta, active, stats
    )
    if n_act == 0:
        return T, False, theta
    if T >= cap:
        return T, True, theta
    w = _best_witness(yhat, beta, active, theta, bth)
    # window state (set by the block at the top of the loop)
    fresh = True
    T_hi = T
    z2lo = ratio3 = llo = Llo = lhi = Lhi = 0.0
    S1 = S2 = W0 = W1 = W2 = y0 = 0.0
    Yc = vlo = vhi = W0c = W2c = pcap = 0.0
    rS1 = rS2 = rW0 = rW1 = rW2 = 0.0
    eS1 = eS2 = eW0 = eW1 = eW2 = 0.0
    steps = 0
    mg = Margins(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    w_lo = w_hi = 0.0
    step_rho = rho * batch
    # stretches (RR on Bernoulli tapes): B pulls read without a step's bookkeeping, once the witness
    # is certified active after each of them (stretch_certified); then a new window
    stretchable = kind == BERNOULLI and batch == 1 and (family == HOEFFDING or th_mode == TH_DELTA)
    sx = np.zeros(n)
    sr = np.zeros(n, dtype=np.int64)
    cv = np.zeros(n)
    cls = np.zeros(n, dtype=np.int64)
    plan = np.empty(64 * n + 64 if verify else 1, dtype=np.int64)
    cvv = np.zeros(n)
    ctmp = np.zeros(n, dtype=np.int64)
    zT_at = -1
    zT = 0.0
    shrink = 0
    win_exact = 0
    Ybound = pbound = eS1w = eS2w = kmaxc = 0.0
    B_min = max(n // 2, 64)
    B_last = B_min
    next_try = 0
    cool = n
    i = 0
    while True:
        if stretchable and not fresh and T >= next_try and mg.valid != 0.0:
            mu_f, var_f, sig_f, th_f = _point(S1, S2, inv_n, k)
            Bt = min(B_last + B_last // 2, T_hi - T, cap - 1 - T)
            if verify:
                Bt = min(Bt, plan.shape[0])
            B = 0
            nv = 0
            ok = False
            if Bt >= B_min and vlo <= var_f <= vhi:
                q = _q(mu_f, sig_f, W0, W1, W2, y0, inv_nn, k, family, th_mode)
                eq_inv = eW0 + float(T_hi - T) * rW0 + float(steps) * rW0
                # plan the visits and read their rewards (the tape fixes them): a visit pulls its arm
                # once, and again while the arm is active and m < c (WRR); where that matters, the
                # arm's activity is taken from the current state, and certified for the whole
                # stretch below; an arm whose activity is undecided ends the stretch
                ii = i
                while True:
                    jj = ii + 1
                    if jj == n:
                        jj = 0
                    mj = m[jj] + sr[jj]
                    cnew = (c[jj] if sr[jj] == 0 else cv[jj]) + step_rho
                    npull = 1
                    cl = cls[jj]
                    if float(mj + 1) < cnew:
                        if cl == 0:
                            b_lo, b_hi = _beta_interval(s[jj], float(m[jj]), family, R, z2lo, ratio3, Llo, Lhi)
                            cl = certify_step(yhat[jj], b_lo, b_hi, th_f, q, mg, eq_inv, family)
                            if cl != 1 and cl != -1:
                                break
                        if cl == 1:
                            npull = max(1, np.int64(math.ceil(cnew)) - mj)
                    if B + npull > Bt:
                        break
                    cls[jj] = cl
                    cv[jj] = cnew
                    if verify:
                        plan[nv] = jj
                    nv += 1
                    for _ in range(npull):
                        mi = m[jj] + sr[jj]
                        blk = mi >> 2
                        if blocks[jj] != blk:
                            c0, c1, c2, c3 = philox_block(keys[jj, 0], keys[jj, 1], blk)
                            words[jj, 0] = c0
                            words[jj, 1] = c1
                            words[jj, 2] = c2
                            words[jj, 3] = c3
                            blocks[jj] = blk
                        sx[jj] += 1.0 if uniform_of(words[jj, mi & 3]) < means[jj] else 0.0
                        sr[jj] += 1
                    B += npull
                    ii = jj
                if B >= B_min:
                    ok = stretch_certified(
                        n,
                        k,
                        family,
                        R,
                        th_mode,
                        z2lo,
                        ratio3,
                        kmaxc,
                        Llo,
                        Lhi,
                        var_f,
                        vlo,
                        vhi,
                        eS1w,
                        eS2w,
                        th_f,
                        q,
                        eq_inv,
                        mg,
                        Yc,
                        y0,
                        Ybound,
                        pbound,
                        pcap,
                        W0,
                        W0c,
                        W2,
                        W2c,
                        w,
                        s,
                        m,
                        yhat,
                        st_b2,
                        st_d,
                        sx,
                        sr,
                        cls,
                    )
                if ok and verify:
                    # pull the stretch one reward at a time and check, after each pull, the
                    # certified claims against the exact UPDATE: the witness is active, and a
                    # visited arm that WRR may pull again has the activity it was planned with
                    for v in range(nv):
                        jj = plan[v]
                        cvis = (c[jj] if ctmp[jj] == 0 else cvv[jj]) + step_rho
                        cvv[jj] = cvis
                        ctmp[jj] = 1
                        while True:
                            s[jj] = pull_sum(
                                kind, keys, means, scale, values, offsets, blocks, words, jj, m[jj], 1, s[jj]
                            )
                            m[jj] += 1
                            T += 1
                            evaluate_kernel(s, m, T, k, delta, family, R, l_fixed, l_inner, z_mode, th_mode, vy, vb, va)
                            if not va[w]:
                                stats[1] += 1
                            if not float(m[jj]) < cvis:
                                break
                            if va[jj] != (cls[jj] == 1):
                                stats[1] += 1
                            if not va[jj]:
                                break
                    T -= B
            for j in range(n):
                r = sr[j]
                if r > 0:
                    if ok:
                        if not verify:
                            s[j] += sx[j]  # the reference adds the same 0/1 rewards one at a time: exact
                            m[j] += r
                        c[j] = cv[j]  # the planned c: step_rho added once per visit, as a visit does
                        yhat[j] = s[j] / m[j]
                    sx[j] = 0.0
                    sr[j] = 0
                cls[j] = 0
                ctmp[j] = 0
            if ok:
                i = ii
                T += B
                stats[2] += B
                stats[3] += B
                stats[5] += 1
                B_last = B
                cool = n
                fresh = True
            else:
                B_last = max(B_last // 2, B_min)
                next_try = T + cool
                cool = min(2 * cool, 64 * n)
        i = (i + 1) % n
        c[i] += step_rho
        while True:  # one visit: the regular pull, then extra pulls while i is active and m_i < c_i
            b = min(batch, cap - T)
            mi = m[i]
            si = s[i]
            if kind == BERNOULLI:  # the tape read of tapes.pull_sum, written out
                mean = means[i]
                for j in range(mi, mi + b):
                    blk = j >> 2
                    if blocks[i] != blk:
                        c0, c1, c2, c3 = philox_block(keys[i, 0], keys[i, 1], blk)
                        words[i, 0] = c0
                        words[i, 1] = c1
                        words[i, 2] = c2
                        words[i, 3] = c3
                        blocks[i] = blk
                    si += 1.0 if uniform_of(words[i, j & 3]) < mean else 0.0
            else:
                si = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, mi, b, si)
            s[i] = si
            mi += b
            m[i] = mi
            T += b
            fm = float(mi)
            yo = yhat[i]
            yn = si / fm
            yhat[i] = yn
            stats[3] += 1
            need_i = mi < c[i] and T < cap
            decided = False
            act_i = False
            cert_i = 0
            # fold the step into the running sums, unless a new window starts anyway
            if not fresh:
                steps += 1
                S1 += yn - yo
                S2 += yn * yn - yo * yo
                if family == HOEFFDING:
                    v = 1.0 / fm
                    W0 += v - st_inv[i]
                    st_inv[i] = v
                    ok = abs(yn) <= Yc
                    Ybound = max(Ybound, abs(yn))
                else:
                    b2, p = _ac_b2(si, fm, z2lo)
                    d = yn - y0
                    b2o = st_b2[i]
                    do = st_d[i]
                    st_b2[i] = b2
                    st_d[i] = d
                    W0 += b2 - b2o
                    W1 += d * b2 - do * b2o
                    W2 += (d * d) * b2 - (do * do) * b2o
                    ok = abs(yn) <= Yc and p <= pcap and W0 <= W0c and W2 <= W2c
                    Ybound = max(Ybound, abs(yn))
                    pbound = max(pbound, p)
                if not ok or T > T_hi:
                    fresh = True
            if fresh:
                # a new window: z range, exact sums, caps, per-step rounding rates, margins
                stats[4] += 1
                # windows shrink while exact UPDATE()s cost more than the windows' own O(n) starts
                if win_exact > 1 and shrink < 12:
                    shrink += 1
                elif win_exact == 0 and shrink > 0:
                    shrink -= 1
                win_exact = 0
                T_hi, z2lo, ratio3, llo, Llo, lhi, Lhi = _window_z(
                    T, n, batch, cap, k, delta, family, l_fixed, l_inner, z_mode, shrink
                )
                S1, eS1, S2, eS2, Y, y0, W0, eW0, W1, eW1, W2, eW2, pmax = _resum(
                    s, m, yhat, family, z2lo, st_b2, st_d, st_inv
                )
                Yc = 1.25 * Y + 1e-300
                mu0 = S1 / fn
                var0 = S2 / fn - mu0 * mu0
                vlo = 0.5 * var0
                vhi = 2.0 * max(var0, 0.0) + 64.0 * (fn + 4.0) * U * Yc * Yc
                rS1 = U * (fn + 2.0) * Yc
                rS2 = U * (fn + 4.0) * Yc * Yc
                if family == HOEFFDING:
                    rW0 = U * (fn + 3.0)
                    kmaxc = 1.0
                    W0c = W2c = 0.0
                else:
                    pcap = 1.0 - 0.5 * (1.0 - pmax)
                    kmaxc = _kappa(pcap)
                    W0c = 1.5 * W0
                    W2c = 1.5 * W2 + 1e-300
                    D = Yc + abs(y0)
                    rW0 = U * (14.0 + 4.0 * kmaxc) * W0c
                    rW1 = U * (16.0 + 4.0 * kmaxc) * D * W0c
                    rW2 = U * (18.0 + 4.0 * kmaxc) * D * D * W0c
                # the window lasts at most until T_hi: at most (T_hi - T) steps of rounding growth
                K = float(T_hi - T)
                eS1w = eS1 + K * rS1
                eS2w = eS2 + K * rS2
                Ybound = Y
                pbound = pmax
                mg = _margins(
                    n,
                    k,
                    family,
                    R,
                    th_mode,
                    var0,
                    Yc,
                    eS1 + K * rS1,
                    eS2 + K * rS2,
                    vlo,
                    vhi,
                    y0,
                    W0c,
                    W2c,
                    eW0 + K * rW0,
                    eW1 + K * rW1,
                    eW2 + K * rW2,
                    kmaxc,
                    ratio3,
                    llo,
                    Llo,
                    lhi,
                    Lhi,
                )
                w_lo, w_hi = _beta_interval(s[w], float(m[w]), family, R, z2lo, ratio3, Llo, Lhi)
                fresh = False
            elif i == w:
                w_lo, w_hi = _beta_interval(si, fm, family, R, z2lo, ratio3, Llo, Lhi)
            eq_inv = eW0 + float(T_hi - T) * rW0 + float(steps) * rW0  # Hoeffding: rounding of sum 1/m_i
            mu_f, var_f, sig_f, th_f = _point(S1, S2, inv_n, k)
            usable = mg.valid != 0.0 and vlo <= var_f <= vhi
            if usable:
                q = -1.0  # computed on first need
                b_lo = b_hi = 0.0
                if need_i:
                    if i == w:
                        b_lo, b_hi = w_lo, w_hi
                    else:
                        b_lo, b_hi = _beta_interval(si, fm, family, R, z2lo, ratio3, Llo, Lhi)
                    cert_i = certify_step(yn, b_lo, b_hi, th_f, q, mg, eq_inv, family)
                    if cert_i == 2:
                        q = _q(mu_f, sig_f, W0, W1, W2, y0, inv_nn, k, family, th_mode)
                        cert_i = certify_step(yn, b_lo, b_hi, th_f, q, mg, eq_inv, family)
                    if cert_i == 0:
                        # undecided within the window's range of radii: the reference's own radius of
                        # arm i at this T (the same float), before an O(n) exact UPDATE
                        if zT_at != T:
                            zT_at = T
                            dpT = delta_prime_nb(float(T), n, delta)
                            zT = -math.log(dpT) if family == HOEFFDING else z_value_nb(dpT, z_mode)
                        if family == HOEFFDING:
                            b_lo = hoeffding_beta_nb(fm, zT, R)
                        else:
                            b_lo = ac_beta_nb(si, fm, zT)
                        b_hi = b_lo
                        cert_i = certify_step(yn, b_lo, b_hi, th_f, q, mg, eq_inv, family)
                    if cert_i == 1:
                        act_i = True
                        decided = True
                # A is not empty if the witness is surely active (act_i stays False: i is surely
                # inactive, or WRR does not need to know); an undecided i goes to the exact UPDATE().
                if not need_i or (cert_i == -1 and w != i):
                    cw = certify_step(yhat[w], w_lo, w_hi, th_f, q, mg, eq_inv, family)
                    if cw == 2:
                        q = _q(mu_f, sig_f, W0, W1, W2, y0, inv_nn, k, family, th_mode)
                        cw = certify_step(yhat[w], w_lo, w_hi, th_f, q, mg, eq_inv, family)
                    if cw == 1:
                        decided = True
                if verify:
                    if not need_i:
                        b_lo, b_hi = _beta_interval(si, fm, family, R, z2lo, ratio3, Llo, Lhi)
                    q = _q(mu_f, sig_f, W0, W1, W2, y0, inv_nn, k, family, th_mode)
                    stats[1] += _verify(
                        s,
                        m,
                        T,
                        k,
                        delta,
                        family,
                        R,
                        l_fixed,
                        l_inner,
                        z_mode,
                        th_mode,
                        th_f,
                        q,
                        mg,
                        eq_inv,
                        b_lo,
                        b_hi,
                        i,
                        need_i,
                        decided,
                        act_i,
                        cert_i,
                        vy,
                        vb,
                        va,
                    )
            if decided:
                stats[2] += 1
                nonempty = True
            else:
                mu, sig, theta, bth, n_act = _exact(
                    s, m, T, k, delta, family, R, l_fixed, l_inner, z_mode, th_mode, yhat, beta, active, stats
                )
                nonempty = n_act > 0
                act_i = active[i]
                win_exact += 1
                # the running sums and the window's margins still hold (the UPDATE changed no sum);
                # only a window whose margins could not be used is replaced
                if not usable:
                    fresh = True
                if nonempty:
                    w = _best_witness(yhat, beta, active, theta, bth)
                    if not fresh:
                        w_lo, w_hi = _beta_interval(s[w], float(m[w]), family, R, z2lo, ratio3, Llo, Lhi)
            if not nonempty or T >= cap:
                mu, sig, theta, bth, n_act = evaluate_kernel(
                    s, m, T, k, delta, family, R, l_fixed, l_inner, z_mode, th_mode, yhat, beta, active
                )
                return T, nonempty, theta
            if not (need_i and act_i):
                break


def run_wrr_fast(tape: RewardTape, *, k, delta, cap, ci, rho, batch, init_pulls, verify=False, t_unit=1) -> Outcome:
    """Run :func:`wrr_kernel` and package its result like the references do (``t_unit``: see KSigmaRun)."""
    n = tape.n_arms
    s = np.zeros(n)
    m = np.zeros(n, dtype=np.int64)
    stats = np.zeros(6, dtype=np.int64)
    T, capped, theta = wrr_kernel(
        *tape.arrays,
        k,
        delta * t_unit * t_unit,
        cap,
        batch,
        init_pulls,
        float(rho),
        *ci.codes(n, k, delta),
        verify,
        s,
        m,
        stats,
    )
    tape.counts[:] = m  # the tape is consumed exactly as the reference would have consumed it
    yhat = s / m
    info = {
        "engine": "fast",
        "exact_updates": int(stats[0]),
        "certified_steps": int(stats[2]),
        "steps": int(stats[3]),
        "windows": int(stats[4]),
        "stretches": int(stats[5]),
    }
    if verify:
        info["verification_failures"] = int(stats[1])
    return Outcome(np.flatnonzero(yhat > theta), int(T), bool(capped), m, info)


# ------------------------------------------------------------------------------------------
# NRR fast engine (NRR stops after about n + 10 pulls, so an O(n) step is fine)


@njit(cache=True)
def nrr_kernel(kind, keys, means, scale, values, offsets, k, cap, L, s, m):
    """NRR on a tape; fills s, m; returns (T, capped, theta)."""
    n = s.shape[0]
    blocks = np.full(n, -1, dtype=np.int64)
    words = np.zeros((n, 4), dtype=np.uint64)
    yhat = np.empty(n)
    for i in range(n):
        s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, 0, 1, s[i])
        m[i] = 1
        yhat[i] = s[i] / m[i]
    T = n
    theta = threshold_nb(yhat, k)[2]
    prev = np.empty(n, dtype=np.bool_)
    for i in range(n):
        prev[i] = yhat[i] > theta
    run = 0
    i = 0
    while run < L and T < cap:
        i = (i + 1) % n
        s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, m[i], 1, s[i])
        m[i] += 1
        T += 1
        yhat[i] = s[i] / m[i]
        theta = threshold_nb(yhat, k)[2]
        same = True
        for j in range(n):
            cur = yhat[j] > theta
            if cur != prev[j]:
                same = False
            prev[j] = cur
        run = run + 1 if same else 0
    return T, run < L, theta


def run_nrr_fast(tape: RewardTape, *, k, cap, L) -> Outcome:
    """NRR on ``tape`` (:func:`bandit_lib.zhuang17.nrr.nrr`'s engine): round-robin until the k-sigma
    estimate has stayed unchanged for ``L`` consecutive pulls, or ``cap`` pulls."""
    n = tape.n_arms
    s = np.zeros(n)
    m = np.zeros(n, dtype=np.int64)
    T, capped, theta = nrr_kernel(*tape.arrays, k, cap, L, s, m)
    tape.counts[:] = m
    return Outcome(np.flatnonzero(s / m > theta), int(T), bool(capped), m, {"engine": "fast", "L": L})
