r"""The UIG paper's joke-recommendation protocol (Sec. 6.3): side information estimated from
training users, the search for ε, and the replay evaluation on test users.

Ratings are normalised to [0, 1] (:func:`bandit_lib.uig.jester.normalise`); NaN = not rated.

* :func:`pair_distances`: for jokes i, j, the co-raters are the training users who rated both;
  :math:`d_{ij} = |\text{mean}_{co}(r_i) - \text{mean}_{co}(r_j)|`, NaN without co-raters.
* :func:`side_information`: type-D if :math:`d_{ij} > (1+\alpha)\epsilon`, type-S if
  :math:`d_{ij} < (1-\alpha)\epsilon`, unknown otherwise. α = 0.2 with a 5%
  training set, α = 0.1 with 10% (the paper's text says both "5% or 10%" and "2% ... 5%"; the UIG
  chapter's reproduction notes, row N11).
* :func:`select_epsilon`: minimise :math:`|\mathcal B_0(\epsilon)|` (PSI-OFF). The paper doubles ε
  from 0.01 until :math:`|\mathcal B_0|` grows, then "binary searches" at resolution 0.01; the
  objective is not monotone, so (reproduction notes, row N12) the last doubling bracket
  :math:`[\epsilon_{k-2}, \epsilon_k]` is scanned exhaustively on the 0.01 grid, ties to the smaller ε.
  Estimated side information need not fit any unit interval graph, and then PSI-OFF can remove
  every arm; an ε with an empty :math:`\mathcal B_0` counts as the worst value (K + 1), never the best.
* :func:`replay` (Li, Chu, Langford and Wang 2011): stream the test users in a given order; the
  policy proposes a joke; if the user rated it, the rating is the reward and the policy is
  updated, otherwise the event is skipped (no update, the policy's clock does not move).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandit_lib.checks import check_in_range, check_positive
from bandit_lib.uig.candidates import eliminate_partial
from bandit_lib.uig.protocol import RegretPolicy


def _ratings(name: str, R) -> np.ndarray:
    R = np.asarray(R, dtype=np.float64)
    if R.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (users, jokes); got shape {R.shape}")
    rated = ~np.isnan(R)
    if ((R[rated] < 0) | (R[rated] > 1)).any():
        raise ValueError(
            f"{name} must hold normalised ratings in [0, 1] (NaN = not rated); got {R[rated].min()!r}..{R[rated].max()!r}"
        )
    return R


@njit(cache=True)
def _co_rating_sums(R):
    """(co, sums): ``co[i, j]`` users who rated both i and j, ``sums[i, j]`` their ratings of i,
    each sum taken over the users in ascending order (see :func:`pair_distances`)."""
    n_users, n_jokes = R.shape
    co = np.zeros((n_jokes, n_jokes), dtype=np.int64)
    sums = np.zeros((n_jokes, n_jokes))
    rated = np.empty(n_jokes, dtype=np.int64)
    for u in range(n_users):
        m = 0
        for j in range(n_jokes):
            if R[u, j] == R[u, j]:  # rated (not NaN)
                rated[m] = j
                m += 1
        for a in range(m):
            i = rated[a]
            x = R[u, i]
            for b in range(m):
                j = rated[b]
                sums[i, j] += x
                co[i, j] += 1
    return co, sums


def pair_distances(R_train) -> np.ndarray:
    """d[i, j] = ``|mean rating of i - mean rating of j|`` over the users who rated both (NaN: none).

    The same bits on every machine: an edge of the side information is decided by comparing d with
    ``(1 ± alpha) eps``, and d can equal that threshold exactly: Jester's ratings are multiples of
    0.01 (multiples of 1/2000 once normalised, not binary fractions), so a pair's distance and
    the threshold are both on a grid, and then only the rounding of the sums decides the edge (in
    6 of the 200 training sets of the Jester experiment one pair sits exactly at a threshold).
    Summed by BLAS (``X.T @ M``) the order of the additions is the library's, chosen for the
    processor: OpenBLAS's Haswell and SkylakeX kernels decided such an edge differently in 3 of the
    experiment's 20 units. Here every co-rating sum runs over the users in ascending order, in a
    numba loop compiled without ``fastmath``, so the bits depend neither on the machine nor on the
    array's memory layout. It costs 2.4-4.5 times BLAS on one thread (8 and 15 ms for the
    experiment's 1,249 and 2,498 training users, 150 ms for all 24,983; best of 9), a small part
    of a repetition, which replays 20,000 users for five policies.
    """
    R = np.ascontiguousarray(_ratings("R_train", R_train))
    co, sums = _co_rating_sums(R)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = np.abs(sums - sums.T) / co
    d[co == 0] = np.nan
    np.fill_diagonal(d, np.nan)
    return d


def side_information(d, eps: float, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """(S, D) from estimated distances: S if d < (1-alpha) eps, D if d > (1+alpha) eps."""
    d = np.asarray(d, dtype=np.float64)
    if d.ndim != 2 or d.shape[0] != d.shape[1]:
        raise ValueError(f"d must be a square matrix of distances; got shape {d.shape}")
    eps = check_positive("eps", eps)
    alpha = check_in_range("alpha", alpha, 0.0, 1.0, low_open=False)
    known = ~np.isnan(d)
    S = known & (np.nan_to_num(d, nan=np.inf) < (1 - alpha) * eps)
    D = known & (np.nan_to_num(d, nan=-np.inf) > (1 + alpha) * eps)
    np.fill_diagonal(S, False)
    np.fill_diagonal(D, False)
    return S, D


def candidates_at(d, eps: float, alpha: float) -> np.ndarray:
    """B0 (PSI-OFF) of the side information at ``eps``."""
    return eliminate_partial(*side_information(d, eps, alpha))


def select_epsilon(d, alpha: float, *, start: float = 0.01, resolution: float = 0.01, largest: float = 2.0):
    """(eps*, trace): the eps minimising ``|B0(eps)|`` by doubling, then a scan of the last bracket.

    ``trace`` lists every (eps, ``|B0|``) evaluated, in order.
    """
    start = check_positive("start", start)
    resolution = check_positive("resolution", resolution)
    trace: list[tuple[float, int]] = []

    n_jokes = np.asarray(d).shape[0]

    def size(eps: float) -> int:
        value = len(candidates_at(d, eps, alpha))
        trace.append((eps, value))
        # No arm left means no unit interval graph fits the estimated side information (noise in
        # the training means): such an eps is the worst choice, not the best.
        return value if value else n_jokes + 1

    doubling = [start]
    sizes = [size(start)]
    while doubling[-1] * 2 <= largest:
        doubling.append(doubling[-1] * 2)
        sizes.append(size(doubling[-1]))
        if sizes[-1] > sizes[-2]:
            break
    low = doubling[max(0, len(doubling) - 3)]
    high = doubling[-1]
    grid = np.round(np.arange(round(low / resolution), round(high / resolution) + 1) * resolution, 10)
    best_eps, best_size = None, None
    for eps in grid:
        value = size(float(eps))
        if best_size is None or value < best_size:
            best_eps, best_size = float(eps), value
    if best_size > n_jokes:
        raise ValueError(f"the estimated side information is inconsistent (B0 is empty) at every eps tried: {trace}")
    return best_eps, trace


def replay(policy: RegretPolicy, rewards, order) -> dict:
    """Replay evaluation: ``rewards[u, j]`` is user u's normalised rating of joke j (NaN: not rated).

    Returns the arms recommended at the valid events, the users of those events, their number
    and their mean reward.
    """
    R = _ratings("rewards", rewards)
    order = np.asarray(order, dtype=np.int64)
    if order.ndim != 1 or (order.size and (order.min() < 0 or order.max() >= len(R))):
        raise ValueError(f"order must be a 1-D array of user indices in 0..{len(R) - 1}")
    arms, users = [], []
    for u in order:
        arm = policy.select()
        r = R[u, arm]
        if r == r:  # rated (not NaN)
            policy.update(arm, float(r))
            arms.append(arm)
            users.append(u)
    return replay_outcome(R, np.array(arms, dtype=np.int64), np.array(users, dtype=np.int64))


def replay_outcome(R, arms, users) -> dict:
    """What a replay reports, from the arms and users of its valid events."""
    rewards = np.asarray(R)[users, arms]
    return {
        "arms": arms,
        "users": users,
        "valid": len(arms),
        "mean_reward": float(rewards.mean()) if len(arms) else float("nan"),
    }
