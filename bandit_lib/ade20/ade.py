r"""ADE: Adaptive Double Exploration (Zhang, Zhuang, Zhang & Zhou, AAAI 2020).

Problem. ``n`` arms with rewards in :math:`[a, b]`, :math:`a \ge 0`, and means :math:`y_i`; the
k-sigma threshold :math:`\theta = \mu_y + k\sigma_y` (population standard deviation) and the
outlier set :math:`O^* = \{i : y_i \ge \theta\}`. Fixed confidence: return :math:`O^*` with
probability at least :math:`1 - \delta` using few pulls.

Two ways of sampling, never mixed (no sample reuse):

* a **threshold round** draws an arm :math:`J` uniformly from *all* ``n`` arms and pulls it twice,
  giving a pair :math:`(x_1, x_2)`; the pairs are kept as running sums
  :math:`S_1 = \sum x_{l,1}`, :math:`S_2 = \sum x_{l,2}`, :math:`S_{12} = \sum x_{l,1}x_{l,2}` over
  :math:`m_\theta` pairs;
* a **sweep** pulls every undecided arm once; after :math:`m_a` sweeps an undecided arm has
  :math:`m_i = m_a` sweep rewards and :math:`\hat y_i` is their mean.

UPDATE at round :math:`t` (one round = one threshold pair or one sweep; ``t = 3`` at the first):

.. math::
   L_t &= \ln(1/\delta_t),\quad \delta_t = \frac{3\delta}{(n+4)\pi^2t^2}\\
   \hat\mu &= S_1/m_\theta,\quad V = S_{12}/m_\theta - (S_1/m_\theta)(S_2/m_\theta),\\
   \hat\sigma &= \sqrt{|V|},\quad \hat\theta = \hat\mu + k\hat\sigma\\
   \epsilon_t &= C_s\sqrt{L_t/(2m_\theta)},\quad C_s = b^2 - a^2 + 2bR,\quad R = b - a\\
   U_t &= \min(U_{t-1},\ \hat\sigma^2 + \epsilon_t),\quad U_0 = +\infty\\
   r_{\theta,t} &= R\sqrt{L_t/(2m_\theta)} + k\sqrt{2/U_t}\,\epsilon_t
     \;\bigl(= (R + \sqrt2 kC_s/\sqrt{U_t})\sqrt{L_t/(2m_\theta)}\bigr),\\
   r_{a,t} &= R\sqrt{L_t/(2m_a)}

Rule: the next round samples the threshold iff :math:`r_{a,t} \le r_{\theta,t}` (ties go to the
threshold), else it sweeps. After every round each undecided arm is classified: normal if
:math:`\hat y_i + r_a \le \hat\theta - r_\theta`, outlier if :math:`\hat y_i - r_a \ge \hat\theta +
r_\theta`; a decided arm is never swept again but stays in the threshold population. ADE stops when
every arm is decided. Cost: :math:`2m_\theta + \sum_i m_i` pulls.

Choices where the paper is unclear (the ADE20 chapter's reproduction notes give the paper's words
for each): :math:`\ln(1/\delta_t)` in :math:`\epsilon` (``variance_log="6/delta"`` is the ablation
with :math:`\ln(6/\delta_t)`); ``t`` is the algorithm's round counter; :math:`r_a` is the common
radius of the undecided arms; one mutable candidate set, with ``O`` and ``N`` starting empty and
both returned; classification after every loop round, not after the initialisation; threshold arms
drawn from all ``n`` arms; the cost counts pulls; ``U`` updated at every UPDATE;
:math:`\sqrt{|V|}` without bias correction; a cap (the run stops before a round that would exceed
it and is flagged ``capped``; by default the library's :data:`~bandit_lib.runner.DEFAULT_CAP`);
``a >= 0``. ADE needs at least two arms.

:func:`ade` runs either of two engines (``engine="fast"``, the default, or ``"reference"``); they take exactly the same decisions on the same reward tape and decision stream:

* :func:`ade_reference` (``engine="reference"``): the readable per-pull reference, step by step
  the chapter's restatement of Algorithm 1;
* the fast engine (numba), the default. A threshold round leaves every :math:`\hat y_i` unchanged,
  and both classification tests are monotone in :math:`\hat y_i` (floating-point rounding is
  monotone too), so the arms it can decide are a prefix (normals) and a suffix (outliers) of the
  undecided arms sorted by :math:`\hat y_i`: it checks only the two ends, O(1) per threshold round,
  and re-sorts (insertion sort, nearly sorted input) after each sweep.

Both call the same compiled UPDATE (``_ade_update``; its checked wrapper is :func:`ade_radii`),
so every radius is the same float in both; the fast engine reads the reward tape and the decision
stream through block caches (:func:`bandit_lib.tapes.pull_sum`), which return exactly
``tape_reward`` and ``counter_uniform``. The
random threshold arm of the l-th threshold round (``l = 0`` at initialisation) is
``floor(u_l * n)`` with ``u_l`` the l-th uniform of a :class:`~bandit_lib.tapes.DecisionStream`
(by default the stream named ``"ade"`` under the tape's seed).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from bandit_lib.checks import (
    check_cap,
    check_choice,
    check_engine,
    check_int,
    check_nonnegative,
    check_open_unit,
    check_real,
)
from bandit_lib.ksigma import cap_or_refuse
from bandit_lib.runner import DEFAULT_CAP, Outcome
from bandit_lib.seeding import from_description
from bandit_lib.tapes import (
    BERNOULLI,
    GAUSSIAN,
    DecisionStream,
    RewardTape,
    check_tape,
    decision_stream,
    philox_block,
    pull_sum,
    uniform_of,
)

PI2 = math.pi * math.pi
VARIANCE_LOGS = ("1/delta", "6/delta")
NORMAL, OUTLIER, UNDECIDED = 0, 1, -1


@njit(cache=True)
def _ade_update(n, t, m_th, m_a, S1, S2, S12, U, k, delta, R, Cs, log6):
    """UPDATE(t): ``(theta_hat, sigma_hat, eps, U, r_th, r_a)``; shared by both engines."""
    L = math.log((n + 4) * PI2 * t * t / (3.0 * delta))
    mu_hat = S1 / m_th
    V = S12 / m_th - (S1 / m_th) * (S2 / m_th)
    sigma_hat = math.sqrt(abs(V))
    theta_hat = mu_hat + k * sigma_hat
    root = math.sqrt(L / (2.0 * m_th))
    if log6:
        eps = Cs * math.sqrt(math.log(6.0 * (n + 4) * PI2 * t * t / (3.0 * delta)) / (2.0 * m_th))
    else:
        eps = Cs * root
    U = min(U, sigma_hat * sigma_hat + eps)
    r_th = R * root + k * math.sqrt(2.0 / U) * eps
    r_a = R * math.sqrt(L / (2.0 * m_a))
    return theta_hat, sigma_hat, eps, U, r_th, r_a


@njit(cache=True)
def _threshold_arm(u, n):
    """The random arm of a threshold round from a uniform ``u`` in (0, 1): ``floor(u * n)``."""
    J = np.int64(u * n)
    if J >= n:
        J = n - 1
    return J


def ade_radii(
    n: int,
    t: int,
    m_th: int,
    m_a: int,
    S1: float,
    S2: float,
    S12: float,
    *,
    k: float,
    delta: float,
    U_prev: float = math.inf,
    a: float = 0.0,
    b: float = 1.0,
    variance_log: str = "1/delta",
) -> dict[str, float]:
    """One UPDATE from the running sums: the estimates and radii ADE decides with.

    ``U_prev`` is the running minimum before this UPDATE (``inf`` at the first one). Returns
    ``theta_hat``, ``sigma_hat``, ``eps``, ``U``, ``r_th``, ``r_a`` and ``L`` (the log level).
    """
    n = check_int("n", n, minimum=1)
    t = check_int("t", t, minimum=1)
    m_th = check_int("m_th", m_th, minimum=1)
    m_a = check_int("m_a", m_a, minimum=1)
    S1, S2, S12 = (check_nonnegative(name, v) for name, v in (("S1", S1), ("S2", S2), ("S12", S12)))
    k = check_nonnegative("k", k)
    delta = check_open_unit("delta", delta)
    if not (isinstance(U_prev, (int, float)) and U_prev > 0):
        raise ValueError(f"U_prev must be a number > 0 (inf before the first UPDATE); got U_prev={U_prev!r}")
    R, Cs = variance_constant(a, b)
    products = (a * a, a * b, b * b)
    for name, value, low, high in (
        ("S1", S1, m_th * a, m_th * b),
        ("S2", S2, m_th * a, m_th * b),
        ("S12", S12, m_th * min(products), m_th * max(products)),
    ):
        if not low <= value <= high:
            raise ValueError(
                f"{name} must be a sum of m_th = {m_th} rewards (products, for S12) in [a, b] = [{a!r}, {b!r}], "
                f"so within [{low!r}, {high!r}]; got {name}={value!r}"
            )
    check_choice("variance_log", variance_log, VARIANCE_LOGS)
    out = _ade_update(n, t, m_th, m_a, S1, S2, S12, float(U_prev), k, delta, R, Cs, variance_log == "6/delta")
    names = ("theta_hat", "sigma_hat", "eps", "U", "r_th", "r_a")
    return dict(zip(names, out)) | {"L": level_log(n, t, delta)}


def level_log(n: int, t: int, delta: float) -> float:
    r""":math:`L_t = \ln((n+4)\pi^2t^2/(3\delta))`, the log of ADE's per-round level."""
    n = check_int("n", n, minimum=1)
    t = check_int("t", t, minimum=1)
    delta = check_open_unit("delta", delta)
    return math.log((n + 4) * PI2 * t * t / (3.0 * delta))


def variance_constant(a: float = 0.0, b: float = 1.0) -> tuple[float, float]:
    r"""``(R, Cs)`` with :math:`R = b - a` and :math:`C_s = b^2 - a^2 + 2bR` (3 for Bernoulli)."""
    a = check_nonnegative("a", a)
    b = check_real("b", b)
    if not b > a:
        raise ValueError(f"the reward interval needs b > a; got a={a!r}, b={b!r}")
    R = b - a
    return R, b * b - a * a + 2.0 * b * R


def default_stream(tape: RewardTape) -> DecisionStream:
    """The decision stream ADE uses when none is given: named ``"ade"`` under the tape's seed."""
    if not isinstance(tape, RewardTape):
        raise TypeError(f"tape must be a RewardTape; got tape={tape!r}")
    return decision_stream(from_description(tape.seed), "ade", "threshold-arm")


def _check(tape, k, delta, a, b, variance_log, cap, stream):
    n = check_tape(tape, min_arms=2, fresh=True, problem="the k-sigma problem").n_arms
    k = check_nonnegative("k", k)
    delta = check_open_unit("delta", delta)
    R, Cs = variance_constant(a, b)
    check_choice("variance_log", variance_log, VARIANCE_LOGS)
    if tape.kind == GAUSSIAN:
        raise ValueError("ADE needs bounded rewards in [a, b]; got a Gaussian tape (tape.kind_name='gaussian')")
    if tape.kind == BERNOULLI:
        if a != 0.0 or b < 1.0:
            raise ValueError(f"Bernoulli rewards lie in {{0, 1}}, so ADE needs a = 0 and b >= 1; got a={a!r}, b={b!r}")
    else:
        lo, hi = float(tape.values.min()), float(tape.values.max())
        if lo < a or hi > b:
            raise ValueError(f"replayed rewards must lie in [a, b] = [{a}, {b}]; got values in [{lo}, {hi}]")
    cap = check_cap(
        cap_or_refuse(cap, tape, k, default=DEFAULT_CAP, who="ADE", delta=delta), minimum=n + 2
    )  # init: n + 2 pulls
    if stream is None:
        stream = default_stream(tape)
    elif not isinstance(stream, DecisionStream):
        raise TypeError(f"stream must be a DecisionStream; got stream={stream!r}")
    return n, k, delta, R, Cs, variance_log == "6/delta", cap, stream


def ade_reference(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    a: float = 0.0,
    b: float = 1.0,
    variance_log: str = "1/delta",
    stream: DecisionStream | None = None,
    trace: bool = False,
) -> Outcome:
    """ADE, one pull at a time, following the steps of the chapter's restatement of Algorithm 1.

    ``tape`` must be fresh (every arm at pull 0). Returns an :class:`~bandit_lib.runner.Outcome`
    whose ``output`` is the sorted outlier set ``O``; ``info`` holds ``normals``, ``undecided``,
    ``m_th``, ``m_a``, ``t``, the per-arm ``m_i`` and ``decision_round``, the final estimates, and
    with ``trace=True`` one record per UPDATE.
    """
    n, k, delta, R, Cs, log6, cap, stream = _check(tape, k, delta, a, b, variance_log, cap, stream)
    # step 1: O, N, candidate set S, counters and running sums
    O, N, S = set(), set(), set(range(n))
    sums, m = [0.0] * n, [0] * n
    decision_round = [-1] * n
    S1 = S2 = S12 = 0.0
    m_th = m_a = pulls = 0
    U = math.inf
    records = []
    # step 2, round t = 1: one threshold pair
    t = 1
    J = _threshold_arm(stream.uniform(m_th), n)
    x1, x2 = tape.pull(J), tape.pull(J)
    S1, S2, S12 = S1 + x1, S2 + x2, S12 + x1 * x2
    m_th, pulls = 1, 2
    t = 2
    # step 3, round t = 2: one sweep over all arms
    for i in range(n):
        sums[i] += tape.pull(i)
        m[i] = 1
    m_a, pulls = 1, pulls + n
    t = 3
    # step 4: the first UPDATE (no classification yet)
    theta_hat, sigma_hat, eps, U, r_th, r_a = _ade_update(n, t, m_th, m_a, S1, S2, S12, U, k, delta, R, Cs, log6)
    if trace:
        records.append((t, m_th, m_a, theta_hat, sigma_hat, eps, U, r_th, r_a, len(S)))
    capped = False
    while S:  # step 5
        if r_a <= r_th:  # step 5.1: threshold round (ties go to the threshold)
            if pulls + 2 > cap:
                capped = True
                break
            J = _threshold_arm(stream.uniform(m_th), n)
            x1, x2 = tape.pull(J), tape.pull(J)
            S1, S2, S12 = S1 + x1, S2 + x2, S12 + x1 * x2
            m_th, pulls = m_th + 1, pulls + 2
        else:  # step 5.2: sweep over the undecided arms
            if pulls + len(S) > cap:
                capped = True
                break
            for i in S:
                sums[i] += tape.pull(i)
                m[i] += 1
            m_a, pulls = m_a + 1, pulls + len(S)
        t += 1  # step 5.3
        theta_hat, sigma_hat, eps, U, r_th, r_a = _ade_update(n, t, m_th, m_a, S1, S2, S12, U, k, delta, R, Cs, log6)
        lower, upper = theta_hat - r_th, theta_hat + r_th
        for i in list(S):  # step 5.4, over a snapshot of S
            y_hat = sums[i] / m[i]
            if y_hat + r_a <= lower:
                N.add(i)
                S.discard(i)
                decision_round[i] = t
            elif y_hat - r_a >= upper:
                O.add(i)
                S.discard(i)
                decision_round[i] = t
        if trace:  # n_active: the arms still undecided after this round
            records.append((t, m_th, m_a, theta_hat, sigma_hat, eps, U, r_th, r_a, len(S)))
    info = {
        "normals": sorted(N),
        "undecided": sorted(S),
        "m_th": m_th,
        "m_a": m_a,
        "t": t,
        "pulls_threshold": 2 * m_th,
        "pulls_arms": int(sum(m)),
        "m_i": np.array(m, dtype=np.int64),
        "decision_round": np.array(decision_round, dtype=np.int64),
        "theta_hat": theta_hat,
        "sigma_hat": sigma_hat,
        "U": U,
        "r_th": r_th,
        "r_a": r_a,
    }
    if trace:
        fields = ("t", "m_th", "m_a", "theta_hat", "sigma_hat", "eps", "U", "r_th", "r_a", "n_active")
        info["trace"] = {name: np.array([r[j] for r in records]) for j, name in enumerate(fields)}
    return Outcome(
        output=np.array(sorted(O), dtype=np.int64), pulls=pulls, capped=capped, counts=tape.counts.copy(), info=info
    )


# ----------------------------------------------------------------------------------------------
# Fast engine
# ----------------------------------------------------------------------------------------------

# Indices of the kernel's scalar results (``stats``).
_STATS = (
    "m_th",
    "m_a",
    "t",
    "pulls",
    "capped",
    "theta_hat",
    "sigma_hat",
    "U",
    "r_th",
    "r_a",
    "first_switch_t",
    "min_rth_over_ra_after_switch",
    "max_mth_over_ma",
    "violations_arm",
    "violations_theta",
    "violations_variance",
    "violations_std",
    "violations_U",
    "updates",
    "trace_len",
)
_S = {name: j for j, name in enumerate(_STATS)}
# The same slots by name, for the kernels (module-level ints are compile-time constants in numba).
(
    _S_M_TH,
    _S_M_A,
    _S_T,
    _S_PULLS,
    _S_CAPPED,
    _S_THETA_HAT,
    _S_SIGMA_HAT,
    _S_U,
    _S_R_TH,
    _S_R_A,
    _S_FIRST_SWITCH_T,
    _S_MIN_RTH_OVER_RA,
    _S_MAX_MTH_OVER_MA,
    _S_VIOLATIONS_ARM,
    _S_VIOLATIONS_THETA,
    _S_VIOLATIONS_VARIANCE,
    _S_VIOLATIONS_STD,
    _S_VIOLATIONS_U,
    _S_UPDATES,
    _S_TRACE_LEN,
) = range(len(_STATS))
# Columns of the geometric trace, and their names for the kernels.
TRACE_FIELDS = ("t", "pulls", "m_th", "m_a", "theta_hat", "sigma_hat", "U", "r_th", "r_a", "n_active")
(
    _C_T,
    _C_PULLS,
    _C_M_TH,
    _C_M_A,
    _C_THETA_HAT,
    _C_SIGMA_HAT,
    _C_U,
    _C_R_TH,
    _C_R_A,
    _C_N_ACTIVE,
) = range(len(TRACE_FIELDS))


@njit(cache=True)
def _insertion_sort(order, lo, hi, key):
    for p in range(lo + 1, hi):
        arm = order[p]
        value = key[arm]
        q = p - 1
        while q >= lo and key[order[q]] > value:
            order[q + 1] = order[q]
            q -= 1
        order[q + 1] = arm


@njit(cache=True)
def _monitor_theta(stats, theta_hat, sigma_hat, eps, U, r_th, theta_true, sigma2_true):
    if abs(theta_true - theta_hat) > r_th:
        stats[_S_VIOLATIONS_THETA] += 1
    if abs(sigma_hat * sigma_hat - sigma2_true) > eps:
        stats[_S_VIOLATIONS_VARIANCE] += 1
    if abs(sigma_hat - math.sqrt(sigma2_true)) > math.sqrt(2.0 / U) * eps:
        stats[_S_VIOLATIONS_STD] += 1
    if U < sigma2_true:
        stats[_S_VIOLATIONS_U] += 1


@njit(cache=True)
def _monitor_arms(stats, order, lo, hi, yhat, means, r_a):
    for p in range(lo, hi):
        i = order[p]
        if abs(means[i] - yhat[i]) > r_a:
            stats[_S_VIOLATIONS_ARM] += 1
            return


@njit(cache=True)
def _record(
    trace, trace_y, row, t, pulls, m_th, m_a, theta_hat, sigma_hat, U, r_th, r_a, n_active, yhat, decision, trace_arms
):
    trace[row, _C_T] = t
    trace[row, _C_PULLS] = pulls
    trace[row, _C_M_TH] = m_th
    trace[row, _C_M_A] = m_a
    trace[row, _C_THETA_HAT] = theta_hat
    trace[row, _C_SIGMA_HAT] = sigma_hat
    trace[row, _C_U] = U
    trace[row, _C_R_TH] = r_th
    trace[row, _C_R_A] = r_a
    trace[row, _C_N_ACTIVE] = n_active
    if trace_arms:
        for i in range(yhat.shape[0]):
            trace_y[row, i] = yhat[i] if decision[i] == -1 else np.nan


@njit(cache=True)
def _ade_kernel(
    kind,
    keys,
    means,
    scale,
    values,
    offsets,
    dk0,
    dk1,
    k,
    delta,
    R,
    Cs,
    log6,
    cap,
    monitor,
    theta_true,
    sigma2_true,
    trace_growth,
    trace_arms,
    counts,
    sums,
    m_i,
    decision,
    decision_round,
    yhat_dec,
    ra_dec,
    theta_dec,
    rth_dec,
    ra_trigger,
    rth_trigger,
    stats,
    trace,
    trace_y,
):
    n = keys.shape[0]
    yhat = np.zeros(n)
    order = np.arange(n)
    lo, hi = 0, n  # undecided arms: order[lo:hi], sorted by yhat
    S1 = 0.0
    S2 = 0.0
    S12 = 0.0
    U = np.inf
    trace_cap = trace.shape[0]
    trace_len = 0
    # Rewards and the decision stream are read through block caches: the same values as
    # tape_reward / counter_uniform, one Philox block per four reads of a stream.
    blocks = np.full(n, -1, dtype=np.int64)
    words = np.zeros((n, 4), dtype=np.uint64)
    d0, d1, d2, d3 = philox_block(dk0, dk1, 0)
    dblock = 0
    # round t = 1: one threshold pair
    J = _threshold_arm(uniform_of(d0), n)
    x1 = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, J, counts[J], 1, 0.0)
    x2 = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, J, counts[J] + 1, 1, 0.0)
    counts[J] += 2
    S1 += x1
    S2 += x2
    S12 += x1 * x2
    m_th = 1
    pulls = 2
    # round t = 2: one sweep over all arms
    for i in range(n):
        sums[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, counts[i], 1, sums[i])
        counts[i] += 1
        m_i[i] = 1
        yhat[i] = sums[i] / m_i[i]
    m_a = 1
    pulls += n
    t = 3
    _insertion_sort(order, lo, hi, yhat)
    theta_hat, sigma_hat, eps, U, r_th, r_a = _ade_update(n, t, m_th, m_a, S1, S2, S12, U, k, delta, R, Cs, log6)
    updates = 1
    first_switch = -1
    min_ratio = np.inf
    max_mth_ma = m_th / m_a
    if monitor:
        _monitor_theta(stats, theta_hat, sigma_hat, eps, U, r_th, theta_true, sigma2_true)
        _monitor_arms(stats, order, lo, hi, yhat, means, r_a)
    next_trace = 0.0
    if trace_cap > 0:
        _record(
            trace,
            trace_y,
            0,
            t,
            pulls,
            m_th,
            m_a,
            theta_hat,
            sigma_hat,
            U,
            r_th,
            r_a,
            hi - lo,
            yhat,
            decision,
            trace_arms,
        )
        trace_len = 1
        next_trace = t * trace_growth
    capped = 0
    while lo < hi:
        if r_a <= r_th:
            if pulls + 2 > cap:
                capped = 1
                break
            if (m_th >> 2) != dblock:
                dblock = m_th >> 2
                d0, d1, d2, d3 = philox_block(dk0, dk1, dblock)
            w = m_th & 3
            word = d0 if w == 0 else (d1 if w == 1 else (d2 if w == 2 else d3))
            J = _threshold_arm(uniform_of(word), n)
            cj = counts[J]
            if kind == BERNOULLI:  # the read of tapes.pull_sum, written out (a call costs more than the read)
                mean = means[J]
                blk = cj >> 2
                if blocks[J] != blk:
                    w0, w1, w2, w3 = philox_block(keys[J, 0], keys[J, 1], blk)
                    words[J, 0] = w0
                    words[J, 1] = w1
                    words[J, 2] = w2
                    words[J, 3] = w3
                    blocks[J] = blk
                x1 = 1.0 if uniform_of(words[J, cj & 3]) < mean else 0.0
                blk = (cj + 1) >> 2
                if blocks[J] != blk:
                    w0, w1, w2, w3 = philox_block(keys[J, 0], keys[J, 1], blk)
                    words[J, 0] = w0
                    words[J, 1] = w1
                    words[J, 2] = w2
                    words[J, 3] = w3
                    blocks[J] = blk
                x2 = 1.0 if uniform_of(words[J, (cj + 1) & 3]) < mean else 0.0
            else:
                x1 = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, J, cj, 1, 0.0)
                x2 = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, J, cj + 1, 1, 0.0)
            counts[J] = cj + 2
            S1 += x1
            S2 += x2
            S12 += x1 * x2
            m_th += 1
            pulls += 2
            swept = False
        else:
            if pulls + (hi - lo) > cap:
                capped = 1
                break
            if first_switch < 0:
                first_switch = t + 1
            for p in range(lo, hi):
                i = order[p]
                ci = counts[i]
                if kind == BERNOULLI:
                    blk = ci >> 2
                    if blocks[i] != blk:
                        w0, w1, w2, w3 = philox_block(keys[i, 0], keys[i, 1], blk)
                        words[i, 0] = w0
                        words[i, 1] = w1
                        words[i, 2] = w2
                        words[i, 3] = w3
                        blocks[i] = blk
                    sums[i] += 1.0 if uniform_of(words[i, ci & 3]) < means[i] else 0.0
                else:
                    sums[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, ci, 1, sums[i])
                counts[i] = ci + 1
                m_i[i] += 1
                yhat[i] = sums[i] / m_i[i]
                # the radii of the UPDATE that triggered this sweep (for the gap lemma)
                ra_trigger[i] = r_a
                rth_trigger[i] = r_th
            m_a += 1
            pulls += hi - lo
            _insertion_sort(order, lo, hi, yhat)
            swept = True
        t += 1
        theta_hat, sigma_hat, eps, U, r_th, r_a = _ade_update(n, t, m_th, m_a, S1, S2, S12, U, k, delta, R, Cs, log6)
        updates += 1
        if first_switch >= 0:
            ratio = r_th / r_a
            if ratio < min_ratio:
                min_ratio = ratio
        if m_th / m_a > max_mth_ma:
            max_mth_ma = m_th / m_a
        if monitor:
            _monitor_theta(stats, theta_hat, sigma_hat, eps, U, r_th, theta_true, sigma2_true)
            if swept:
                _monitor_arms(stats, order, lo, hi, yhat, means, r_a)
        lower = theta_hat - r_th
        upper = theta_hat + r_th
        while lo < hi and yhat[order[lo]] + r_a <= lower:
            i = order[lo]
            decision[i] = 0
            lo += 1
            decision_round[i] = t
            yhat_dec[i] = yhat[i]
            ra_dec[i] = r_a
            theta_dec[i] = theta_hat
            rth_dec[i] = r_th
        while lo < hi and yhat[order[hi - 1]] - r_a >= upper:
            i = order[hi - 1]
            decision[i] = 1
            hi -= 1
            decision_round[i] = t
            yhat_dec[i] = yhat[i]
            ra_dec[i] = r_a
            theta_dec[i] = theta_hat
            rth_dec[i] = r_th
        if trace_cap > 0 and t >= next_trace and trace_len < trace_cap - 1:
            _record(
                trace,
                trace_y,
                trace_len,
                t,
                pulls,
                m_th,
                m_a,
                theta_hat,
                sigma_hat,
                U,
                r_th,
                r_a,
                hi - lo,
                yhat,
                decision,
                trace_arms,
            )
            trace_len += 1
            next_trace = max(t + 1.0, t * trace_growth)
    if trace_cap > 0 and trace[trace_len - 1, 0] != t:  # always keep the last UPDATE
        _record(
            trace,
            trace_y,
            trace_len,
            t,
            pulls,
            m_th,
            m_a,
            theta_hat,
            sigma_hat,
            U,
            r_th,
            r_a,
            hi - lo,
            yhat,
            decision,
            trace_arms,
        )
        trace_len += 1
    stats[_S_M_TH] = m_th
    stats[_S_M_A] = m_a
    stats[_S_T] = t
    stats[_S_PULLS] = pulls
    stats[_S_CAPPED] = capped
    stats[_S_THETA_HAT] = theta_hat
    stats[_S_SIGMA_HAT] = sigma_hat
    stats[_S_U] = U
    stats[_S_R_TH] = r_th
    stats[_S_R_A] = r_a
    stats[_S_FIRST_SWITCH_T] = first_switch
    stats[_S_MIN_RTH_OVER_RA] = min_ratio
    stats[_S_MAX_MTH_OVER_MA] = max_mth_ma
    stats[_S_UPDATES] = updates
    stats[_S_TRACE_LEN] = trace_len


def ade(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    a: float = 0.0,
    b: float = 1.0,
    variance_log: str = "1/delta",
    stream: DecisionStream | None = None,
    monitor: bool = False,
    trace_points: int = 0,
    trace_arms: bool = False,
    engine: str = "fast",
) -> Outcome:
    """ADE (Algorithm 1): the k-sigma outliers of the arms of ``tape`` with confidence
    ``1 - delta``, exploring the arms and the threshold by turns. ``engine="fast"`` (the default)
    runs the numba engine, which takes the decisions of :func:`ade_reference` exactly, at numba
    speed; ``engine="reference"`` runs :func:`ade_reference` itself (no diagnostics).

    The paper's settings are the defaults: rewards in ``[a, b] = [0, 1]``, the variance bound with
    ``ln(1/delta)`` (``variance_log="1/delta"``; ``"6/delta"`` is the chapter's ablation). ``k``
    and ``delta`` define the problem and have no default (the paper's experiments: delta = 0.1).

    Example (five Bernoulli arms, one outlier at k = 1.5):

    >>> from bandit_lib.ade20 import ade
    >>> from bandit_lib.tapes import bernoulli_tape
    >>> out = ade(bernoulli_tape([0.1, 0.2, 0.25, 0.3, 0.9], seed=1), k=1.5, delta=0.1)
    >>> out.output.tolist(), out.pulls, out.capped
    ([4], 4038881, False)

    Same arguments and result as the reference, plus, for the fast engine, diagnostics in ``info``:

    * per arm at its decision: ``yhat_at_decision``, ``r_a_at_decision``, ``theta_hat_at_decision``,
      ``r_th_at_decision``; and ``r_a_last_trigger`` / ``r_th_last_trigger``, the radii of the
      UPDATE that triggered the last sweep the arm took part in (NaN if only the initial sweep);
    * ``first_switch_t`` (the first round that sweeps), ``min_rth_over_ra_after_switch`` and
      ``max_mth_over_ma`` (the balancing inequalities of the proof of Theorem 2);
    * ``monitor=True`` counts the UPDATEs at which an interval misses its true value (event A: any
      undecided arm, checked after each sweep, when its radius is smallest; the threshold, every
      UPDATE), at which Lemma 2's or Lemma 3's bound fails, and at which ``U < sigma_y^2``;
    * ``trace_points > 0`` records the state at UPDATEs on a geometric grid of rounds (ratio
      ``1 + 1/trace_points`` per step, first and last UPDATE included) in ``info["trace"]``, and
      with ``trace_arms=True`` every undecided arm's ``yhat`` there (``trace_y``, NaN once decided).
    """
    if check_engine(engine) == "reference":
        if monitor or trace_points or trace_arms:
            raise ValueError(
                "monitor, trace_points and trace_arms are diagnostics of the fast engine; got "
                f"monitor={monitor!r}, trace_points={trace_points!r}, trace_arms={trace_arms!r} with engine='reference'"
            )
        return ade_reference(tape, k=k, delta=delta, cap=cap, a=a, b=b, variance_log=variance_log, stream=stream)
    n, k, delta, R, Cs, log6, cap, stream = _check(tape, k, delta, a, b, variance_log, cap, stream)
    trace_points = check_int("trace_points", trace_points, minimum=0)
    counts = np.zeros(n, dtype=np.int64)
    sums = np.zeros(n)
    m_i = np.zeros(n, dtype=np.int64)
    decision = np.full(n, UNDECIDED, dtype=np.int64)
    decision_round = np.full(n, -1, dtype=np.int64)
    per_arm = {
        name: np.full(n, np.nan)
        for name in (
            "yhat_at_decision",
            "r_a_at_decision",
            "theta_hat_at_decision",
            "r_th_at_decision",
            "r_a_last_trigger",
            "r_th_last_trigger",
        )
    }
    stats = np.zeros(len(_STATS))
    # A geometric grid with ratio 1 + 1/p reaches round 1e9 within about 21 p points.
    rows = 0 if trace_points == 0 else 25 * trace_points + 2
    trace = np.zeros((rows, len(TRACE_FIELDS)))
    trace_y = np.zeros((rows if trace_arms else 1, n if trace_arms else 1))
    growth = 1.0 + 1.0 / max(trace_points, 1)
    theta_true = sigma2_true = 0.0
    if monitor:
        theta_true = float(tape.means.mean() + k * tape.means.std())
        sigma2_true = float(tape.means.var())
    _ade_kernel(
        *tape.arrays,
        stream.key[0],
        stream.key[1],
        k,
        delta,
        R,
        Cs,
        log6,
        cap,
        monitor,
        theta_true,
        sigma2_true,
        growth,
        trace_arms,
        counts,
        sums,
        m_i,
        decision,
        decision_round,
        per_arm["yhat_at_decision"],
        per_arm["r_a_at_decision"],
        per_arm["theta_hat_at_decision"],
        per_arm["r_th_at_decision"],
        per_arm["r_a_last_trigger"],
        per_arm["r_th_last_trigger"],
        stats,
        trace,
        trace_y,
    )
    tape.counts[:] = counts  # the tape's read positions, as if the reference had pulled them
    s = {name: stats[j] for j, name in enumerate(_STATS)}
    info = {
        "normals": np.flatnonzero(decision == NORMAL).tolist(),
        "undecided": np.flatnonzero(decision == UNDECIDED).tolist(),
        "m_th": int(s["m_th"]),
        "m_a": int(s["m_a"]),
        "t": int(s["t"]),
        "pulls_threshold": 2 * int(s["m_th"]),
        "pulls_arms": int(m_i.sum()),
        "m_i": m_i,
        "decision_round": decision_round,
        "theta_hat": s["theta_hat"],
        "sigma_hat": s["sigma_hat"],
        "U": s["U"],
        "r_th": s["r_th"],
        "r_a": s["r_a"],
        "first_switch_t": int(s["first_switch_t"]),
        "min_rth_over_ra_after_switch": s["min_rth_over_ra_after_switch"],
        "max_mth_over_ma": s["max_mth_over_ma"],
        "updates": int(s["updates"]),
        **per_arm,
    }
    if monitor:
        info["violations"] = {
            name[len("violations_") :]: int(s[name]) for name in _STATS if name.startswith("violations_")
        }
    if trace_points:
        used = int(s["trace_len"])
        info["trace"] = {name: trace[:used, j].copy() for j, name in enumerate(TRACE_FIELDS)}
        if trace_arms:
            info["trace_y"] = trace_y[:used].copy()
    return Outcome(
        output=np.flatnonzero(decision == OUTLIER),
        pulls=int(s["pulls"]),
        capped=bool(s["capped"]),
        counts=counts,
        info=info,
    )
