r"""GrAPL, the Graph-based Anytime Parameter-Light thresholding algorithm (GRAPL20, Algorithm 2).

Each round, with the graph estimate :math:`\hat\mu` and pull counts n of the previous round,

.. math::

    \hat\Delta_i = |\hat\mu_i - \tau| + \varepsilon, \qquad
    z_i = \hat\Delta_i \sqrt{n_i + \alpha}, \qquad \pi_t = \arg\min_i z_i,

then the reward :math:`x_t` of arm :math:`\pi_t` updates the Laplacian-regularised estimate
(:mod:`bandit_lib.grapl20.estimator`). After T rounds the output is
:math:`\hat S = \{i : \hat\mu_i \ge \tau\}`; being anytime, GrAPL has no stopping rule.

Choices where the paper is unclear (the chapter's reproduction notes):

* the index is :math:`\hat\Delta_i\sqrt{n_i + \alpha}` as in the proofs (eqs. 41–47), the
  constant M and the authors' code; the printed :math:`\hat\Delta_i\sqrt{n_i} + \alpha` (Algorithm
  2, line 7, eq. 11) is ``index="printed"``, kept for the ablation;
* ties go to the lowest index (``np.argmin``, as the authors' code): the first pull is arm 0;
* the τ-offset estimator (Remark 3.5) is the default (``offset=True``);
* the solver is ``"exact"`` (library default) or ``"cg"`` (the authors' conjugate gradient,
  rtol 1e-5, warm start).

:func:`grapl_reference` is the readable per-pull reference; :func:`grapl` runs it
(``engine="reference"``) or the numba engine (``engine="fast"``, the default), which makes the
same pulls and returns the same estimate bit for bit.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from bandit_lib.checks import check_choice, check_engine, check_nonnegative, check_real, check_same_length, check_vector
from bandit_lib.grapl20._engine import INDEX_FORMS, check_common, run_fast
from bandit_lib.grapl20.estimator import GraphEstimator, GraphSystem, graph_system
from bandit_lib.grapl20.problem import ThresholdRun, n_judged_paper, wrong_counts
from bandit_lib.tapes import RewardTape


def as_system(graph, lam: float | None) -> GraphSystem:
    """A GraphSystem from a networkx graph (λ = ``lam``, 1e-3 by default) or a GraphSystem."""
    if isinstance(graph, GraphSystem):
        if lam is not None and lam != graph.lam:
            raise ValueError(f"lam={lam!r} differs from the GraphSystem's lam={graph.lam!r}")
        return graph
    if isinstance(graph, nx.Graph):
        return graph_system(graph, 1e-3 if lam is None else lam)
    raise TypeError(f"graph must be a networkx graph or a GraphSystem; got {type(graph).__name__}")


def grapl_index(mu_hat, counts, tau: float, eps: float, alpha: float, index: str = "sqrt_n_plus_alpha") -> np.ndarray:
    r"""The confidence proxies z_i of every arm (eq. 11, in the form chosen by ``index``)."""
    check_choice("index", index, INDEX_FORMS)
    mu_hat = check_vector("mu_hat", mu_hat)
    counts = check_vector("counts", counts, low=0.0)
    check_same_length(("mu_hat", "counts"), mu_hat, counts)
    tau, eps, alpha = check_real("tau", tau), check_nonnegative("eps", eps), check_nonnegative("alpha", alpha)
    delta = np.abs(mu_hat - tau) + eps
    if index == "printed":
        return delta * np.sqrt(counts) + alpha
    return delta * np.sqrt(counts + alpha)


def grapl_reference(
    tape: RewardTape,
    graph,
    horizon: int,
    *,
    tau: float,
    eps: float,
    gamma: float,
    alpha: float,
    lam: float | None = None,
    offset: bool = True,
    solver: str = "exact",
    rtol: float = 1e-5,
    maxiter: int | None = None,
    index: str = "sqrt_n_plus_alpha",
) -> ThresholdRun:
    """GrAPL for ``horizon`` rounds on a fresh reward tape, pull by pull (the readable reference;
    the same as ``grapl(..., engine="reference")``).

    ``graph`` is a networkx graph (nodes in ``graph.nodes`` order are the arms) or a
    :class:`~bandit_lib.grapl20.estimator.GraphSystem`. The true means (for the error curves) are ``tape.means``.
    """
    system = as_system(graph, lam)
    horizon, tau, eps, gamma, offset, rtol, maxiter, _ = check_common(
        tape, system, horizon, tau, eps, gamma, offset, solver, rtol, maxiter
    )
    alpha = check_nonnegative("alpha", alpha)
    check_choice("index", index, INDEX_FORMS)
    tape.require_fresh()
    est = GraphEstimator(system, gamma=gamma, tau=tau, offset=offset, solver=solver, rtol=rtol, maxiter=maxiter)
    pulls, wrong = np.empty(horizon, dtype=np.int64), np.empty((horizon, 2), dtype=np.int64)
    iterations, unconverged = np.empty(horizon, dtype=np.int64), 0
    for t in range(horizon):
        z = grapl_index(est.mu_hat, est.counts, tau, eps, alpha, index)  # uses mu_hat_{t-1}, n_{t-1}
        i = int(np.argmin(z))  # ties -> lowest index
        est.update(i, tape.pull(i))
        pulls[t] = i
        wrong[t] = wrong_counts(est.mu_hat, tape.means, tau, eps)
        iterations[t] = est.cg_iterations
        unconverged += not est.cg_converged
    return ThresholdRun(
        tau=tau,
        pulls=pulls,
        counts=est.counts.copy(),
        mu_hat=est.mu_hat,
        wrong_ref=wrong[:, 0],
        wrong_paper=wrong[:, 1],
        n_judged_paper=n_judged_paper(tape.means, tau, eps),
        cg_iterations=iterations if solver == "cg" else None,
        cg_unconverged=unconverged,
    )


def grapl(
    tape: RewardTape,
    graph,
    horizon: int,
    *,
    tau: float,
    eps: float,
    gamma: float,
    alpha: float,
    lam: float | None = None,
    offset: bool = True,
    solver: str = "exact",
    rtol: float = 1e-5,
    maxiter: int | None = None,
    index: str = "sqrt_n_plus_alpha",
    engine: str = "fast",
) -> ThresholdRun:
    """GrAPL for ``horizon`` rounds on a fresh reward tape. ``engine="fast"`` (the default) runs the
    numba engine, which makes the same pulls and computes the same estimate as
    :func:`grapl_reference` (``engine="reference"``), much faster.

    ``graph`` is a networkx graph (nodes in ``graph.nodes`` order are the arms) or a
    :class:`~bandit_lib.grapl20.estimator.GraphSystem`. The true means (for the error curves) are ``tape.means``.

    The paper leaves four settings to the user, so they have no default:

    * ``tau`` and ``eps`` define the problem: the arms with mean at least ``tau`` are wanted, and
      an arm within ``eps`` of ``tau`` may go either way (the paper: tau = 0 on the SBM, 0.5
      elsewhere; eps = 0.01);
    * ``gamma`` weighs the graph against the data: large when the means are smooth on the graph
      (the Laplacian term dominates), small when they are not. The paper tries decades (SBM:
      1, 10, 100; small world: 1, 100, 1e4; political blogs: 1e-7 to 1e-1); the theory's choice
      is gamma* (eq. 22, :func:`~bandit_lib.grapl20.theory.gamma_star`), which needs the means'
      smoothness. Start at 10 and try a decade either side;
    * ``alpha`` is the count offset of the index ``(|mu_hat_i - tau| + eps) sqrt(n_i + alpha)``:
      alpha = 1 (the paper's SBM) keeps an arm pulled rarely from being chosen on its estimate
      alone; the paper's small-world and political-blogs runs use 1e-8. Use 1 unless reproducing.

    The paper's other settings are the defaults: lam = 1e-3 (``lam=None``), the tau-offset
    estimator, the index of the proofs.

    Example (the paper's two-block SBM on 20 arms, Gaussian rewards, 100 rounds):

    >>> from bandit_lib.grapl20 import grapl, two_block_sbm
    >>> from bandit_lib.tapes import gaussian_tape
    >>> graph, means = two_block_sbm(20, seed=1)
    >>> run = grapl(gaussian_tape(means, 1.0, seed=1), graph, 100, tau=0.0, eps=0.01, gamma=10.0, alpha=1.0)
    >>> (run.mu_hat >= 0).astype(int).tolist(), int(run.wrong_ref[-1])
    ([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0)
    """
    if check_engine(engine) == "reference":
        return grapl_reference(
            tape,
            graph,
            horizon,
            tau=tau,
            eps=eps,
            gamma=gamma,
            alpha=alpha,
            lam=lam,
            offset=offset,
            solver=solver,
            rtol=rtol,
            maxiter=maxiter,
            index=index,
        )
    check_real("alpha", alpha)
    return run_fast(
        tape,
        as_system(graph, lam),
        horizon,
        tau=tau,
        eps=eps,
        gamma=gamma,
        alpha=alpha,
        offset=offset,
        solver=solver,
        rtol=rtol,
        maxiter=maxiter,
        index=index,
    )
