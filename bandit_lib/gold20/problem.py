r"""GOLD20's generic outliers: Definitions 3.1 and 3.2, ground-truth labels, constants (the paper's §3).

Notation. ``y`` are the true arm means (``n`` arms), :math:`K = (1-\rho)n` the outlier budget,
:math:`\varepsilon > 0` the distance-ratio parameter, :math:`0.5 < \rho < 1`.

**One-sided nearest-neighbour distances**. For a set :math:`N` and :math:`i \in N`,
:math:`\Delta_u(i,N)` is the distance to the nearest member of :math:`N` strictly above
:math:`y_i` (0 if none), :math:`\Delta_l(i,N)` the same below, and the *neighbourhood distance*
:math:`\lozenge(i,N) = \max\{\Delta_u(i,N), \Delta_l(i,N)\}`. Every gap between consecutive
distinct values of :math:`N` is adjacent to a member, so

.. math:: D(N) := \max_{i\in N} \lozenge(i, N) = \text{largest gap between consecutive distinct values of } N

(0 when :math:`N` has fewer than two distinct values). :math:`\Delta_{\min}(j,N) = \min_{i\in N}|y_j-y_i|`,
and :math:`\Delta_{\min}(j,\emptyset) = +\infty` (row N1 of the GOLD20 chapter's reproduction notes).

**Definition 3.1** (arm :math:`j` is an (ε,ρ)-outlier): there are :math:`N_u \subseteq \{i: y_i > y_j\}`,
:math:`N_l \subseteq \{i: y_i < y_j\}` with, for :math:`D = \max(D(N_u), D(N_l))`,

1. :math:`\Delta_{\min}(j,N_u) > (1+\varepsilon)D` and :math:`\Delta_{\min}(j,N_l) > (1+\varepsilon)D`;
2. :math:`|N_u|+|N_l| > \rho n` (inclusive reading: :math:`\ge \rho n`), and each side is empty or
   has more than :math:`K` arms.

**Definition 3.2** (:math:`G` is an (ε,ρ)-outlier group): with :math:`N_u` = every arm above
:math:`\max_G y`, :math:`N_l` = every arm below :math:`\min_G y`, and :math:`G\cup N_u\cup N_l=\Psi`
(so :math:`G` is a contiguous block of the arms sorted by mean, ties included),
``gap_up = min(N_u) - max(G)`` and ``gap_low = min(G) - max(N_l)`` (:math:`+\infty` for an empty side)
exceed :math:`(1+\varepsilon)D`, and the sizes of 3.1 hold; the first size condition reads
:math:`|G| < K` (strict, the paper's text) or :math:`|G| \le K` (inclusive, our default; reproduction note N2).

**Readings**: ``reading="inclusive"`` (default) or ``"strict"``; they differ only when
:math:`K` is an integer. :math:`K` is an exact :class:`fractions.Fraction` computed from the decimal
text of ρ (reproduction note N3: ``20*(1-0.9)`` is ``1.9999999999999996`` in floats), and every size test
compares integers with it exactly.

**Labels.** :func:`label_groups` finds all valid 3.2-groups (they must be nested, and the largest
is the ground truth); :func:`label_arms` applies Def 3.1 per arm, for data with outliers on both
sides (reproduction note N4). Ties among means are allowed (the paper assumes distinct means;
the stand-ins may clip): the definitions are applied literally, with "above"/"below" strict.

**Constants of GOLD** (the paper's §4.1): :math:`\kappa = e^{1/16}`, width multiplier
:math:`b(\varepsilon) = (1+\kappa+\varepsilon)/(1-\kappa+\varepsilon)`, defined for
:math:`\varepsilon > \kappa - 1 \approx 0.0645` (:data:`EPS_MIN`).

**Reading a set off GOLD's ranking** (reproduction note N14): GOLD returns a ranking Ω (best first).
:func:`detected_set` takes its top-``k`` prefix (``k = |O|`` for the metrics, so P = R = F1);
:func:`ranking_correct` is the correctness of the problem definition (every valid group is a prefix of Ω).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from bandit_lib.checks import check_choice, check_index_set, check_int, check_positive, check_real, check_vector

KAPPA = math.exp(1.0 / 16.0)
"""κ = e^{1/16} ≈ 1.0644945."""

EPS_MIN = KAPPA - 1.0
"""b(ε) is defined (and > 1) only for ε > EPS_MIN = e^{1/16} - 1 ≈ 0.0645."""

READINGS = ("inclusive", "strict")


# ------------------------------------------------------------------------------------------ parameters


def check_reading(reading) -> str:
    return check_choice("reading", reading, READINGS)


def check_rho(rho) -> Fraction:
    """ρ as an exact Fraction in (0.5, 1); floats are read through their shortest decimal text."""
    if isinstance(rho, Fraction):
        value = rho
    else:
        check_real("rho", rho)
        value = Fraction(str(float(rho))) if not isinstance(rho, int) else Fraction(rho)
    if not Fraction(1, 2) < value < 1:
        raise ValueError(f"rho must lie in the open interval (0.5, 1); got rho={rho!r}")
    return value


def check_eps(eps) -> float:
    """ε > 0 (the definitions); GOLD itself needs ε > EPS_MIN, see :func:`width_multiplier`."""
    return check_positive("eps", eps)


def outlier_budget(n: int, rho) -> Fraction:
    """K = (1 - ρ) n, exactly (a Fraction; e.g. n=20, ρ=0.9 gives exactly 2)."""
    n = check_int("n", n, minimum=1)
    return (1 - check_rho(rho)) * n


def is_small(size: int, K: Fraction, reading: str = "inclusive") -> bool:
    """GOLD's "small community" / the group-size test: ``size <= K`` (inclusive) or ``size < K`` (strict)."""
    reading = check_reading(reading)
    return size <= K if reading == "inclusive" else size < K


def small_limit(K: Fraction, reading: str = "inclusive") -> int:
    """The largest integer size that is small: floor(K) (inclusive) or ceil(K) - 1 (strict)."""
    reading = check_reading(reading)
    return math.floor(K) if reading == "inclusive" else math.ceil(K) - 1


def stop_count(K: Fraction) -> int:
    """GOLD stops when ``|Ψ̂|`` >= K, i.e. when at least ceil(K) arms are terminal."""
    return math.ceil(K)


def width_multiplier(eps) -> float:
    r"""b(ε) = (1 + κ + ε) / (1 − κ + ε), κ = e^{1/16}; raises for ε <= EPS_MIN (b undefined or <= 1)."""
    eps = check_real("eps", eps)
    if not eps > EPS_MIN:
        raise ValueError(f"GOLD's width multiplier b(eps) needs eps > e^(1/16) - 1 = {EPS_MIN:.6f}; got eps={eps!r}")
    return (1.0 + KAPPA + eps) / (1.0 - KAPPA + eps)


# ------------------------------------------------------------------------------------------ distances


def _values(name, y) -> np.ndarray:
    return check_vector(name, y, min_length=0)


def neighbourhood_distances(values) -> np.ndarray:
    r"""◇(i, N) for every member of N (given by its means, any order; result in the same order).

    Upper gap to the nearest strictly larger member, lower gap to the nearest strictly smaller one
    (0 when there is none); ◇ is the larger of the two.
    """
    v = _values("values", values)
    if v.size == 0:
        return np.zeros(0)
    u = np.unique(v)
    g = np.diff(u)
    diamond_u = np.maximum(np.r_[g, 0.0], np.r_[0.0, g])  # per distinct value
    return diamond_u[np.searchsorted(u, v)]


def max_neighbourhood_distance(values) -> float:
    """D(N) = max_i ◇(i, N) = the largest gap between consecutive distinct values (0 if none)."""
    v = _values("values", values)
    u = np.unique(v)
    return float(np.diff(u).max()) if u.size >= 2 else 0.0


def delta_min(y_j: float, values) -> float:
    """Δ_min(j, N) = min_i ``|y_j - y_i|``; +inf for an empty N (reproduction note N1)."""
    v = _values("values", values)
    return float(np.abs(v - float(y_j)).min()) if v.size else math.inf


# ------------------------------------------------------------------------------------------ definitions


def _sizes_ok(n_u: int, n_l: int, n: int, K: Fraction, reading: str) -> bool:
    rho_n = n - K
    total_ok = (n_u + n_l >= rho_n) if reading == "inclusive" else (n_u + n_l > rho_n)
    return total_ok and (n_u == 0 or n_u > K) and (n_l == 0 or n_l > K)


def satisfies_definition_31(y, j: int, N_u, N_l, eps, rho, reading: str = "inclusive") -> bool:
    """Do the given sets N_u, N_l witness that arm j is an (ε,ρ)-outlier (Def 3.1)?

    Raises if N_u holds an arm not strictly above j, or N_l one not strictly below.
    """
    y = check_vector("y", y)
    n = len(y)
    j = check_int("j", j, minimum=0, maximum=n - 1)
    eps, K, reading = check_eps(eps), outlier_budget(n, rho), check_reading(reading)
    up, low = check_index_set("N_u", N_u, n), check_index_set("N_l", N_l, n)
    if up.size and not np.all(y[up] > y[j]):
        raise ValueError(f"N_u must hold arms with means above y[{j}]={y[j]!r}; got N_u={up.tolist()}")
    if low.size and not np.all(y[low] < y[j]):
        raise ValueError(f"N_l must hold arms with means below y[{j}]={y[j]!r}; got N_l={low.tolist()}")
    D = max(max_neighbourhood_distance(y[up]), max_neighbourhood_distance(y[low]))
    bound = (1.0 + eps) * D
    return (
        _sizes_ok(up.size, low.size, n, K, reading)
        and delta_min(y[j], y[up]) > bound
        and delta_min(y[j], y[low]) > bound
    )


def is_outlier_group(y, group, eps, rho, reading: str = "inclusive") -> bool:
    """Is ``group`` (arm indices) an (ε,ρ)-outlier arm group (Def 3.2)?

    False when the group is not a contiguous block of the arms sorted by mean (some other arm
    has a mean within [min, max] of the group), because then G ∪ N_u ∪ N_l ≠ Ψ.
    """
    y = check_vector("y", y)
    n = len(y)
    eps, K, reading = check_eps(eps), outlier_budget(n, rho), check_reading(reading)
    G = check_index_set("group", group, n)
    if G.size == 0:
        raise ValueError("group must hold at least one arm; got group=[]")
    lo, hi = y[G].min(), y[G].max()
    others = np.setdiff1d(np.arange(n), G)
    yo = y[others]
    if np.any((yo >= lo) & (yo <= hi)):
        return False
    up, low = yo[yo > hi], yo[yo < lo]
    if not is_small(G.size, K, reading) or not _sizes_ok(up.size, low.size, n, K, reading):
        return False
    D = max(max_neighbourhood_distance(up), max_neighbourhood_distance(low))
    gap_up = up.min() - hi if up.size else math.inf
    gap_low = lo - low.max() if low.size else math.inf
    return gap_up > (1.0 + eps) * D and gap_low > (1.0 + eps) * D


# ------------------------------------------------------------------------------------------ labels


@dataclass(frozen=True)
class Labels:
    """Ground truth: ``groups`` (valid 3.2-groups, sorted arm-index arrays, smallest first) and
    ``outliers`` (sorted arm indices: the largest group for :func:`label_groups`, the Def-3.1 arms for :func:`label_arms`);
    ``method`` is ``"def3.2"`` or ``"def3.1"``; ``K`` the exact budget; ``reading`` the size reading."""

    groups: tuple[np.ndarray, ...]
    outliers: np.ndarray
    method: str
    K: Fraction
    reading: str


def _distinct(y: np.ndarray):
    """Distinct sorted values, their arm counts, and cumulative counts (cum[t] = arms below u[t])."""
    u, inverse, counts = np.unique(y, return_inverse=True, return_counts=True)
    cum = np.r_[0, np.cumsum(counts)]
    return u, inverse, counts, cum


def label_groups(y, eps, rho, reading: str = "inclusive") -> Labels:
    """Every (ε,ρ)-outlier group of Def 3.2, by brute force over contiguous blocks.

    A block is a run ``u[a..c]`` of the distinct sorted means (all arms with those means). With
    prefix/suffix maxima of the consecutive gaps this is O(d²) for d distinct values. The valid
    groups must be nested (a chain); a non-nested pair raises RuntimeError (never seen; we expect
    it cannot happen for ε > 0, though the paper does not prove it). ``outliers`` is the largest group (the union), or empty.
    """
    y = check_vector("y", y)
    n = len(y)
    eps, K, reading = check_eps(eps), outlier_budget(n, rho), check_reading(reading)
    u, inverse, counts, cum = _distinct(y)
    d = len(u)
    gaps = np.diff(u)  # gaps[t] = u[t+1] - u[t]
    # pre[a] = max gap inside u[0..a-1]; suf[c] = max gap inside u[c+1..d-1]
    pre = np.zeros(d + 1)
    for a in range(2, d + 1):
        pre[a] = max(pre[a - 1], gaps[a - 2])
    suf = np.zeros(d + 1)
    for c in range(d - 3, -1, -1):
        suf[c] = max(suf[c + 1], gaps[c + 1])
    limit = small_limit(K, reading)
    blocks = []
    for a in range(d):
        for c in range(a, d):
            g = int(cum[c + 1] - cum[a])
            if g > limit:
                break
            n_low, n_up = int(cum[a]), int(n - cum[c + 1])
            if not _sizes_ok(n_up, n_low, n, K, reading):
                continue
            D = max(pre[a], suf[c] if c < d - 1 else 0.0)
            gl = u[a] - u[a - 1] if a > 0 else math.inf
            gu = u[c + 1] - u[c] if c < d - 1 else math.inf
            if gl > (1.0 + eps) * D and gu > (1.0 + eps) * D:
                blocks.append((a, c))
    blocks.sort(key=lambda ac: ac[1] - ac[0])
    for (a1, c1), (a2, c2) in zip(blocks, blocks[1:]):
        if not (a2 <= a1 and c1 <= c2):
            raise RuntimeError(
                f"LABEL found valid outlier groups that are not nested (distinct-value blocks {a1}..{c1} and "
                f"{a2}..{c2}) for eps={eps!r}, rho={rho!r}; no ranking can respect both"
            )
    arms_of = [np.flatnonzero((inverse >= a) & (inverse <= c)) for a, c in blocks]
    outliers = arms_of[-1] if arms_of else np.zeros(0, dtype=np.int64)
    return Labels(tuple(arms_of), outliers, "def3.2", K, reading)


def label_arms(y, eps, rho, reading: str = "inclusive") -> Labels:
    r"""The arms that are (ε,ρ)-outliers by Definition 3.1.

    W.l.o.g. each of :math:`N_l, N_u` is empty or a run of consecutive distinct values (all arms
    of each value) below / above :math:`y_j`. For a choice of the inner ends (the run's value
    nearest to :math:`y_j`) the distances :math:`d_l, d_u` are fixed, and extending a run outward
    only adds arms and can only raise its own max gap, so each side is extended as far as
    :math:`(1+\varepsilon)\,\text{gap} < \min(d_l, d_u)` allows. Only inner ends that skip fewer
    than :math:`K` arms can meet the size test. ``groups`` is empty in the result.
    """
    y = check_vector("y", y)
    n = len(y)
    eps, K, reading = check_eps(eps), outlier_budget(n, rho), check_reading(reading)
    u, inverse, counts, cum = _distinct(y)
    d = len(u)
    gaps = np.diff(u)
    f = 1.0 + eps
    skip_max = math.ceil(K)  # arms left out of N_l ∪ N_u (j's value included) < ... <= K
    flagged = np.zeros(d, dtype=bool)
    for t in range(d):
        # low candidates: None (empty) or inner end q < t; (d_l, outer end p for a given bound)
        lows = [None] + [q for q in range(t - 1, -1, -1) if cum[t] - cum[q + 1] <= skip_max]
        ups = [None] + [q for q in range(t + 1, d) if cum[q] - cum[t + 1] <= skip_max]
        found = False
        for ql in lows:
            dl = u[t] - u[ql] if ql is not None else math.inf
            for qu in ups:
                if ql is None and qu is None:
                    continue
                du = u[qu] - u[t] if qu is not None else math.inf
                bound = min(dl, du)
                n_low = n_up = 0
                if ql is not None:
                    p = ql
                    while p > 0 and f * gaps[p - 1] < bound:
                        p -= 1
                    n_low = int(cum[ql + 1] - cum[p])
                    D_low = gaps[p:ql].max() if ql > p else 0.0
                else:
                    D_low = 0.0
                if qu is not None:
                    p = qu
                    while p < d - 1 and f * gaps[p] < bound:
                        p += 1
                    n_up = int(cum[p + 1] - cum[qu])
                    D_up = gaps[qu:p].max() if p > qu else 0.0
                else:
                    D_up = 0.0
                D = max(D_low, D_up)
                if _sizes_ok(n_up, n_low, n, K, reading) and dl > f * D and du > f * D:
                    found = True
                    break
            if found:
                break
        flagged[t] = found
    outliers = np.flatnonzero(flagged[inverse])
    return Labels((), outliers, "def3.1", K, reading)


# ------------------------------------------------------------------------------------------ rankings → sets


def _ranking(ranking) -> np.ndarray:
    r = np.asarray(ranking)
    if r.ndim != 1 or not np.issubdtype(r.dtype, np.integer):
        raise ValueError(f"ranking must be a 1-D array of arm indices; got {ranking!r}")
    if r.size and (np.unique(r).size != r.size or r.min() < 0):
        raise ValueError(f"ranking must list distinct arm indices >= 0; got {r.tolist()}")
    return r.astype(np.int64)


def detected_set(ranking, k: int) -> np.ndarray:
    """The top-``k`` prefix of a ranking Ω, as a sorted set (k = ``|O|`` for the metrics)."""
    r = _ranking(ranking)
    k = check_int("k", k, minimum=0, maximum=len(r))
    return np.sort(r[:k])


def ranking_correct(ranking, groups) -> bool:
    """Ω is correct iff every valid group G is exactly its top-``|G|`` prefix (True if no group).

    ``groups`` is a sequence of arm-index collections (e.g. ``Labels.groups``) or a single set of
    outliers given as ``[O]`` (per-arm labels).
    """
    r = _ranking(ranking)
    for G in groups:
        G = check_index_set("group", G)
        if G.size > len(r) or not np.array_equal(np.sort(r[: G.size]), G):
            return False
    return True
