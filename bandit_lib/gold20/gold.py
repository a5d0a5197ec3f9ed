r"""GOLD: Generic OutLier Detection (Ban & He, KDD 2020; Algorithm 1 of the paper's §4.2).

**Problem** (the paper's §3). Arms with unknown means :math:`y_i`; given :math:`\varepsilon`,
:math:`0.5<\rho<1` and :math:`\delta`, return a ranking :math:`\Omega` of all arms such that, with
probability at least :math:`1-\delta`, every (ε,ρ)-outlier group (Def 3.2,
:mod:`bandit_lib.gold20.problem`) occupies the top :math:`|G|` positions. High, low and
intermediate outliers are all covered ("generic"), unlike the k-sigma rule.

**Constants** (the paper's §4.1). :math:`\kappa=e^{1/16}`, :math:`b(\varepsilon)=(1+\kappa+\varepsilon)/(1-\kappa+\varepsilon)`
(needs :math:`\varepsilon>\kappa-1`), :math:`K=(1-\rho)n` (exact), and at total pull count :math:`T`
the level :math:`\delta'(T)=6\delta/(\pi^2 n T^2)`. Widths, centred at :math:`\hat y_i=s_i/m_i`:

* ``width="bernoulli"`` (experiments): :math:`Z=\mathrm{erf}^{-1}(1-\delta')` computed as
  ``erfcinv(δ')``, :math:`\tilde p_i=(s_i+Z^2/2)/(m_i+Z^2)`, :math:`\beta_i=Z\sqrt{\tilde p_i(1-\tilde p_i)/m_i}`;
* ``width="hoeffding"`` (theory): :math:`\beta_i=R\sqrt{\ln(1/\delta')/(2m_i)}` (as printed; reproduction note N6).

Arms :math:`i,j` are **neighbours** at round T iff :math:`|\hat y_i-\hat y_j|\le b(\beta_i+\beta_j)`;
the **communities** are the connected components of the neighbour graph (edges are only ever
deleted); a community is **small** iff :math:`|C|\le K` (``reading="inclusive"``, default) or
:math:`|C|<K` (``"strict"``, the literal text; reproduction note N2).

**Algorithm** (our line numbers; the notes name the rows of the GOLD20 chapter's reproduction notes)::

    GOLD(eps, rho, delta, width, reading, cap):
     1  n; K <- (1-rho) n (exact); b <- b(eps)
     3  S[i] <- +inf for all i; T <- 0; Psi <- {}            # N7: set once, never overwritten
     5  for i = 0..n-1: pull i; T += 1                       # n initial pulls, counted in T
     7  beta_i at T = n
     8  E <- {{i,j}: |yhat_i - yhat_j| <= b (beta_i + beta_j)}   # complete in practice
     9  MARK_TERMINAL(T)
    10  while |Psi| < K and T < cap:                          # tested between sweeps only
    11      A <- arms not in Psi, in index order               # frozen for the sweep (N8)
    12      for i in A:
    13          pull i; T += 1
    14          UPDATE_G(T): recompute every beta_j with delta'(T); delete every edge that fails
    15          MARK_TERMINAL(T): every small community's arms not yet in Psi get S = T, join Psi
    16          if T >= cap: stop
    17  Omega <- arms by increasing (S, community size when terminal, index)   # N8

Terminal arms are never pulled again but stay in the graph. ``capped`` is True when the run
ended at the cap before its own stop (the end of a sweep with :math:`|\hat\Psi|\ge K`); a capped
run still returns :math:`\Omega` from the current S (unterminated arms last, by index).

``engine="reference"`` is the loop above, one ``tape.pull`` at a time, re-testing **every** edge
after every pull and recomputing the components whenever an edge was deleted; ``"fast"`` is the
numba engine of ``bandit_lib.gold20._engine``, which makes exactly the same pulls, stops
at the same pull and returns the same ranking and scores (tests/test_gold20_policy.py).

``Outcome.output``: the ranking Ω (int array of all arms, best-ranked first). ``pulls``: T
(including the n initial pulls). ``counts``: pulls per arm. ``info``:

* ``S`` (float array: the pull at which each arm became terminal, ``inf`` if never),
  ``terminal_size`` (community size at that moment, 0 if never), ``terminal`` (sorted Ψ̂);
* ``stop_reached`` (T at which :math:`|\hat\Psi|\ge K` first held, or None; the run ends at the
  end of that sweep), ``left_interval`` (first T at which some arm's interval missed its true
  mean, or None: Lemma 5.2's event), ``communities`` (final component of each arm, labelled
  0, 1, … in order of first arm), ``edges_left``, ``sweeps``;
* ``K`` (exact, as a string such as ``"2"`` or ``"47/10"``), ``stop_count`` (:math:`\lceil K\rceil`),
  ``small_limit`` (largest small size), ``b``, ``width``, ``reading``, ``engine``;
* with ``log_edges=True``: ``edge_log``, an int array of rows (T, i, j, m_i, m_j), one per deleted
  edge (i < j), in deletion order within each pull sorted by (T, i, j).

**Turning Ω into a detected set** (reproduction note N14): ``problem.detected_set(out.output, k)`` (the
top-k prefix; k = ``|O|`` for correctness/F1), ``problem.ranking_correct(out.output,
labels.groups)``; the terminal set Ψ̂ (``info["terminal"]``) is the secondary variant.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from bandit_lib.checks import check_cap, check_choice, check_engine, check_open_unit, check_positive
from bandit_lib.gold20._engine import WIDTH_CODES, beta_nb, gold_kernel, width_scale_nb, widths_nb
from bandit_lib.gold20.problem import (
    check_reading,
    outlier_budget,
    small_limit,
    stop_count,
    width_multiplier,
)
from bandit_lib.ksigma import cap_or_refuse
from bandit_lib.runner import DEFAULT_CAP, Outcome
from bandit_lib.tapes import BERNOULLI, REPLAY, RewardTape, check_tape

WIDTHS = tuple(WIDTH_CODES)


def first_split_pulls(means, b: float, delta: float, width_code: int, R: float) -> float:
    r"""An estimate of GOLD's pulls before any edge of the neighbour graph can be deleted, hence before
    any arm can become terminal: GOLD pulls every arm in turn until then, so at T = n m pulls, and the
    edge between the highest and the lowest arm (the widest gap, :math:`s=\max y-\min y`) goes once
    :math:`s>b(\beta_{\max}+\beta_{\min})`. With the estimates equal to the true means (the
    estimate), the smallest such m, by doubling and bisection; inf beyond 10^18 pulls. Used only
    without a cap, once, to refuse a run that would end at the cap without an answer (means within
    1e-12 of each other, say)."""
    y = np.asarray(means, dtype=np.float64)
    n = len(y)
    hi, lo = int(np.argmax(y)), int(np.argmin(y))
    gap = float(y[hi] - y[lo])

    def split(m: int) -> bool:
        scale = width_scale_nb(width_code, float(n * m), n, delta)
        width = beta_nb(width_code, scale, y[hi] * m, float(m), R) + beta_nb(width_code, scale, y[lo] * m, float(m), R)
        return gap > b * width

    m = 1
    while not split(m):
        m *= 2
        if n * m > 10**18:
            return math.inf
    low = m // 2
    while m - low > 1:  # split(m) holds, split(low) does not (or low = 0)
        mid = (low + m) // 2
        low, m = (low, mid) if split(mid) else (mid, m)
    return float(n * m)


class _Params:
    """Checked arguments of one GOLD run."""

    def __init__(self, tape, eps, rho, delta, cap, width, reading, R, log_edges, engine):
        n = check_tape(tape, min_arms=2, fresh=True, problem="GOLD").n_arms
        self.n = n
        self.b = width_multiplier(eps)
        self.eps = float(eps)
        self.K: Fraction = outlier_budget(n, rho)
        self.rho = rho
        self.delta = check_open_unit("delta", delta)
        self.width = check_choice("width", width, WIDTHS)
        self.width_code = WIDTH_CODES[self.width]
        self.R = check_positive("R", R)
        self.cap = check_cap(
            cap_or_refuse(
                cap,
                tape.means,
                None,
                default=DEFAULT_CAP,
                who="GOLD",
                estimate=lambda: first_split_pulls(tape.means, self.b, self.delta, self.width_code, self.R),
            )
        )
        if self.cap < n:
            raise ValueError(f"cap must allow the n = {n} initial pulls; got cap={cap}")
        self.reading = check_reading(reading)
        if not isinstance(log_edges, (bool, np.bool_)):
            raise TypeError(f"log_edges must be True or False; got log_edges={log_edges!r}")
        self.log_edges = bool(log_edges)
        self.engine = check_engine(engine)
        self.small_lim = small_limit(self.K, self.reading)
        self.stop_cnt = stop_count(self.K)
        if self.small_lim < 1:
            raise ValueError(
                f"no community can ever be small with n={n}, rho={rho!r} (K = (1 - rho) n = {self.K}) under the "
                f"{self.reading} reading, so GOLD could never stop; use more arms or a smaller rho"
            )
        if self.width == "bernoulli":
            ok = tape.kind == BERNOULLI or (
                tape.kind == REPLAY and bool(((tape.values >= 0) & (tape.values <= 1)).all())
            )
            if not ok:
                raise ValueError(
                    f"width='bernoulli' needs rewards in [0, 1] (a Bernoulli tape); got a {tape.kind_name} "
                    "tape (use width='hoeffding' with its range R)"
                )

    def info(self) -> dict:
        return {
            "K": str(self.K),
            "stop_count": self.stop_cnt,
            "small_limit": self.small_lim,
            "b": self.b,
            "eps": self.eps,
            "width": self.width,
            "reading": self.reading,
            "R": self.R,
        }


def _ranking(S: np.ndarray, tsize: np.ndarray) -> np.ndarray:
    """Ω: increasing S, then community size when terminal, then index (reproduction note N8)."""
    n = len(S)
    size_key = np.where(np.isfinite(S), tsize, n + 1)
    return np.lexsort((np.arange(n), size_key, S)).astype(np.int64)


def _canonical(labels: np.ndarray) -> np.ndarray:
    """Component labels renumbered 0, 1, ... in order of their first arm."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first)] = np.arange(len(first))
    return rank[inverse]


def _outcome(
    p: _Params, engine, T, capped, m, S, tsize, comp, n_edges, sweeps, stop_reached, left_interval, edge_log
) -> Outcome:
    info = {
        "engine": engine,
        "S": S,
        "terminal_size": tsize,
        "terminal": np.flatnonzero(np.isfinite(S)),
        "stop_reached": stop_reached,
        "left_interval": left_interval,
        "communities": _canonical(comp),
        "edges_left": int(n_edges),
        "sweeps": int(sweeps),
        **p.info(),
    }
    if edge_log is not None:
        info["edge_log"] = edge_log
    return Outcome(_ranking(S, tsize), int(T), bool(capped), m.copy(), info)


# ------------------------------------------------------------------------------------------ reference


def _reference(tape: RewardTape, p: _Params) -> Outcome:
    n, b = p.n, p.b
    s = np.zeros(n)
    m = np.zeros(n, dtype=np.int64)
    S = np.full(n, np.inf)  # line 3 (reproduction note N7)
    tsize = np.zeros(n, dtype=np.int64)
    beta = np.empty(n)
    I, J = np.triu_indices(n, 1)  # every pair {i, j}, i < j
    log = []
    state = {"left_interval": None, "stop_reached": None}

    def widths(T):  # beta_j for all j at delta'(T)
        widths_nb(p.width_code, width_scale_nb(p.width_code, float(T), n, p.delta), s, m, p.R, beta)

    def check_intervals(T):  # Lemma 5.2's event, for info only
        if state["left_interval"] is None and not np.all(np.abs(s / m - tape.means) <= beta):
            state["left_interval"] = T

    def update_g(T, alive):  # UPDATE_G: re-test every edge
        widths(T)
        yhat = s / m
        e = np.flatnonzero(alive)
        fail = np.abs(yhat[I[e]] - yhat[J[e]]) > b * (beta[I[e]] + beta[J[e]])
        alive[e[fail]] = False
        for r in e[fail]:
            log.append((T, I[r], J[r], m[I[r]], m[J[r]]))
        return bool(fail.any())

    def components(alive):
        graph = coo_matrix((np.ones(int(alive.sum())), (I[alive], J[alive])), shape=(n, n))
        return connected_components(graph, directed=False)[1]

    def mark_terminal(T, labels):  # MARK_TERMINAL
        size = np.bincount(labels, minlength=n)[labels]  # |C| of each arm's community
        new = (size <= p.small_lim) & ~np.isfinite(S)  # small(|C|), first time only
        S[new] = T
        tsize[new] = size[new]
        if state["stop_reached"] is None and np.isfinite(S).sum() >= p.K:
            state["stop_reached"] = T

    T = 0
    for i in range(n):  # lines 5-6
        s[i] += tape.pull(i)
        m[i] += 1
        T += 1
    widths(T)  # line 7
    check_intervals(T)
    yhat = s / m
    alive = np.abs(yhat[I] - yhat[J]) <= b * (beta[I] + beta[J])  # line 8
    for r in np.flatnonzero(~alive):
        log.append((T, I[r], J[r], m[I[r]], m[J[r]]))
    labels = components(alive)
    mark_terminal(T, labels)  # line 9
    sweeps = 0
    capped = False
    while np.isfinite(S).sum() < p.K:  # line 10
        if T >= p.cap:
            capped = True
            break
        A = np.flatnonzero(~np.isfinite(S))  # line 11
        sweeps += 1
        for r, i in enumerate(A):  # line 12
            s[i] += tape.pull(i)  # line 13
            m[i] += 1
            T += 1
            deleted = update_g(T, alive)  # line 14
            check_intervals(T)
            if deleted:  # components change only then
                labels = components(alive)
            mark_terminal(T, labels)  # line 15
            if T >= p.cap:  # line 16
                capped = r < len(A) - 1 or np.isfinite(S).sum() < p.K
                break
        if capped:
            break
    edge_log = None
    if p.log_edges:
        edge_log = np.array(sorted(log), dtype=np.int64).reshape(-1, 5)
    return _outcome(
        p,
        "reference",
        T,
        capped,
        m,
        S,
        tsize,
        labels,
        int(alive.sum()),
        sweeps,
        state["stop_reached"],
        state["left_interval"],
        edge_log,
    )


# ------------------------------------------------------------------------------------------ fast


def _fast(tape: RewardTape, p: _Params) -> Outcome:
    n = p.n
    s = np.zeros(n)
    m = np.zeros(n, dtype=np.int64)
    S = np.full(n, np.inf)
    tsize = np.zeros(n, dtype=np.int64)
    comp = np.zeros(n, dtype=np.int64)
    edge_log = np.zeros((n * (n - 1) // 2 if p.log_edges else 1, 5), dtype=np.int64)
    stats = np.zeros(10, dtype=np.int64)
    T, capped = gold_kernel(
        *tape.arrays,
        p.width_code,
        p.b,
        p.delta,
        p.R,
        p.cap,
        p.stop_cnt,
        p.small_lim,
        p.log_edges,
        s,
        m,
        S,
        tsize,
        comp,
        edge_log,
        stats,
    )
    tape.counts[:] = m
    log = None
    if p.log_edges:
        log = edge_log[: stats[1]]
        log = log[np.lexsort((log[:, 2], log[:, 1], log[:, 0]))]
    out = _outcome(
        p,
        "fast",
        T,
        capped,
        m,
        S,
        tsize,
        comp,
        stats[6],
        stats[0],
        int(stats[5]) if stats[5] else None,
        int(stats[4]) if stats[4] else None,
        log,
    )
    out.info.update(
        {
            "deletions": int(stats[1]),
            "exact_widths": int(stats[2]),
            "searches": int(stats[3]),
            "guarded_pulls": int(stats[7]),
            "tight_tests": int(stats[8]),
            "full_tests": int(stats[9]),
        }
    )
    return out


def gold(
    tape: RewardTape,
    *,
    eps: float,
    rho: float,
    delta: float,
    cap: int | None = None,
    width: str = "bernoulli",
    reading: str = "inclusive",
    R: float = 1.0,
    log_edges: bool = False,
    engine: str = "fast",
) -> Outcome:
    """GOLD on a fresh reward tape; see the module docstring for the algorithm and ``Outcome.info``.

    ``eps``, ``rho`` and ``delta`` define the problem (an (eps, rho)-outlier group, Def. 3.2) and
    have no default; the paper runs every data set at rho = 0.9 and delta = 0.1, with eps the
    data set's (synthetic: 2.5 or 5; real: 2.5). The paper's other settings are the defaults:
    Bernoulli widths for its experiments (``width="hoeffding"`` is the theory's), and the
    ``"inclusive"`` reading of "small community" (``"strict"`` is the literal text; the chapter's
    reproduction notes, N2).

    Example (20 arms with an upper outlier group of two, the paper's synthetic recipe):

    >>> from bandit_lib.gold20 import gold, gold_synthetic
    >>> from bandit_lib.tapes import bernoulli_tape
    >>> case = gold_synthetic(20, 2.5, "upper", 1)
    >>> case.outliers.tolist()
    [4, 6]
    >>> out = gold(bernoulli_tape(case.means, seed=1), eps=2.5, rho=0.9, delta=0.1)
    >>> out.output[:2].tolist(), out.pulls, out.info["terminal"].tolist()
    ([4, 6], 4900, [4, 6])
    """
    p = _Params(tape, eps, rho, delta, cap, width, reading, R, log_edges, engine)
    return _reference(tape, p) if p.engine == "reference" else _fast(tape, p)


def gold_reference(
    tape: RewardTape,
    *,
    eps: float,
    rho: float,
    delta: float,
    cap: int | None = None,
    width: str = "bernoulli",
    reading: str = "inclusive",
    R: float = 1.0,
    log_edges: bool = False,
) -> Outcome:
    """The per-pull reference (every edge re-tested after every pull); same as ``gold(..., engine="reference")``."""
    return gold(
        tape,
        eps=eps,
        rho=rho,
        delta=delta,
        cap=cap,
        width=width,
        reading=reading,
        R=R,
        log_edges=log_edges,
        engine="reference",
    )
