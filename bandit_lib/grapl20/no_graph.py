r"""The "no graph" baseline of GRAPL20's Fig. 3: empirical means along a schedule, τ where unseen.

Without a graph, an arm that has not been pulled carries no information; its estimate stays at
the prior level τ. With noise-free rewards and each arm pulled once (T = N), after t rounds
exactly t labels are known, so under E_ref (where an estimate equal to τ is an error) the error
is :math:`(N - t)/N`, the dashed line of the paper's figure. Under eq. 23, where an estimate
equal to τ counts as "above", only the unseen arms below the threshold are errors.
"""

from __future__ import annotations

import numpy as np

from bandit_lib.checks import check_nonnegative, check_real
from bandit_lib.grapl20.problem import ThresholdRun, classes_paper, classes_ref, n_judged_paper, wrong_counts
from bandit_lib.tapes import RewardTape, check_tape


def no_graph(tape: RewardTape, schedule, *, tau: float, eps: float) -> ThresholdRun:
    """Pull ``schedule`` in order; estimate each arm by its empirical mean (τ before any pull).

    The "no graph" line of the paper's Fig. 3: Algorithm 1's schedule without the graph.

    Example:

    >>> from bandit_lib.grapl20 import no_graph, permutation_schedule, two_block_sbm
    >>> from bandit_lib.tapes import gaussian_tape
    >>> _, means = two_block_sbm(20, seed=1)
    >>> run = no_graph(gaussian_tape(means, 1.0, seed=1), permutation_schedule(20, 100, seed=1), tau=0.0, eps=0.01)
    >>> run.horizon, int(run.wrong_ref[-1])
    (100, 0)
    """
    check_tape(tape)
    tau, eps = check_real("tau", tau), check_nonnegative("eps", eps)
    schedule = np.asarray(schedule)
    if schedule.ndim != 1 or schedule.size == 0 or not np.issubdtype(schedule.dtype, np.integer):
        raise TypeError(f"schedule must be a non-empty 1-D array of arm indices; got {schedule!r}")
    if schedule.min() < 0 or schedule.max() >= tape.n_arms:
        raise ValueError(
            f"schedule must hold arm indices in 0..{tape.n_arms - 1}; got {schedule.min()}..{schedule.max()}"
        )
    tape.require_fresh()
    n = tape.n_arms
    sums, counts = np.zeros(n), np.zeros(n, dtype=np.int64)
    mu_hat = np.full(n, tau)
    # one arm's estimate changes per round: keep each arm's errors and update the totals
    cls_ref, cls_paper = classes_ref(tape.means, tau, eps), classes_paper(tape.means, tau, eps)

    def arm_errors(i):
        d = mu_hat[i] - tau
        right_ref = (cls_ref[i] == 1 and d > 0) or (cls_ref[i] == -1 and d < 0)
        wrong_paper = (cls_paper[i] == 1 and d < 0) or (cls_paper[i] == -1 and d >= 0)
        return int(not right_ref), int(wrong_paper)

    total = np.array(wrong_counts(mu_hat, tape.means, tau, eps))
    wrong = np.empty((len(schedule), 2), dtype=np.int64)
    for t, i in enumerate(schedule):
        before = arm_errors(i)
        sums[i] += tape.pull(int(i))
        counts[i] += 1
        mu_hat[i] = sums[i] / counts[i]
        total += np.subtract(arm_errors(i), before)
        wrong[t] = total
    return ThresholdRun(
        tau=tau,
        pulls=schedule.astype(np.int64),
        counts=counts,
        mu_hat=mu_hat,
        wrong_ref=wrong[:, 0],
        wrong_paper=wrong[:, 1],
        n_judged_paper=n_judged_paper(tape.means, tau, eps),
    )
