"""GRAPL20 computations of the theory checks (the ``theory`` experiment)."""

from __future__ import annotations

import networkx as nx
import numpy as np

from bandit_lib.grapl20.estimator import GraphEstimator, graph_system
from bandit_lib.grapl20.experiments.common import EPS, LAM
from bandit_lib.grapl20.grapl import grapl, grapl_index
from bandit_lib.grapl20.problem import complexity_H
from bandit_lib.grapl20.theory import (
    FORMS,
    M_constant,
    bound_thm31,
    clique_graph,
    effective_dimension,
    eigenvalues,
    lemma_a1_radius,
    lemma_a2_bound,
    lemma_a3_bound,
    smoothness_norm,
)
from bandit_lib.seeding import derive
from bandit_lib.tapes import gaussian_tape


def path_instance(n_arms: int = 50, amplitude: float = 1.0):
    """Path graph with a smooth signal μ_i = amplitude · cos(π i/(N−1)) (threshold 0)."""
    graph = nx.path_graph(n_arms)
    means = amplitude * np.cos(np.pi * np.arange(n_arms) / (n_arms - 1))
    return graph, means


def compute_lemmas(
    seed, gamma: float, amplitude: float, runs: int, n_arms: int, horizon: int, every: int, delta: float
) -> dict:
    """GrAPL (exact solver, the reference estimator) on a path graph with Gaussian noise (R = 1).

    At every ``every``-th pull, for all arms: Lemma A.1 in both forms, Lemma A.2, and σ's
    monotonicity; at the end, Lemma A.3. A run violates A.1 if any arm at any checkpoint does.
    """
    graph, means = path_instance(n_arms, amplitude)
    system = graph_system(graph, LAM)
    tau, eps, alpha, R = 0.0, EPS, 1.0, 1.0
    m = smoothness_norm(system, means, tau)
    sigma0_sq = np.diag(system.inverse).copy()
    eigs = eigenvalues(system)
    violations = {form: 0 for form in FORMS}
    worst_a2, worst_a3, non_monotone = 0.0, 0.0, 0
    for r in range(runs):
        tape = gaussian_tape(means, R, derive(seed, "run", r))
        est = GraphEstimator(system, gamma=gamma, tau=tau, offset=True, solver="exact")
        violated = {form: False for form in FORMS}
        prev_sigma2 = sigma0_sq
        for t in range(1, horizon + 1):
            i = int(np.argmin(grapl_index(est.mu_hat, est.counts, tau, eps, alpha)))
            est.update(i, tape.pull(i))
            sigma2 = est.sigma2()
            non_monotone += int(np.any(sigma2 > prev_sigma2))  # exact: P_ii only ever loses (u_i^2)/k >= 0
            prev_sigma2 = sigma2
            if t % every == 0:
                sigma = np.sqrt(sigma2)
                err = np.abs(est.mu_hat - means)
                for form in FORMS:
                    radius = lemma_a1_radius(sigma, R, gamma, est.logdet_ratio, delta, m, form)
                    violated[form] |= bool(np.any(err > radius))
                worst_a2 = max(worst_a2, float(np.max(sigma / lemma_a2_bound(sigma0_sq, est.counts, gamma))))
        for form in FORMS:
            violations[form] += violated[form]
        d_T = effective_dimension(eigs, gamma, LAM, horizon)
        worst_a3 = max(worst_a3, est.logdet_ratio / lemma_a3_bound(d_T, horizon, gamma, LAM))
    rows = [
        {
            "gamma": gamma,
            "amplitude": amplitude,
            "m": m,
            "form": form,
            "violations": violations[form],
            "runs": runs,
            "delta": delta,
            "lam": LAM,
            "R": R,
            "noise_sd": R,  # the tape's noise: Gaussian with standard deviation R
        }
        for form in FORMS
    ]
    return {
        "rows": rows,
        "m": m,
        "a2_max_ratio": worst_a2,
        "a3_max_ratio": worst_a3,
        "sigma_increases": non_monotone,
        "d_T": effective_dimension(eigs, gamma, LAM, horizon),
        "d_T_capped": effective_dimension(eigs, gamma, LAM, horizon, cap_T_at_N=True),
    }


def compute_clique_bound(
    seed,
    D: int,
    K: int,
    lam: float,
    gamma: float,
    alpha: float,
    eps: float,
    horizons: list,
    runs: int,
    amplitude: float = 1.0,
) -> dict:
    """Theorem 3.1 (both forms) against GrAPL's empirical P(L_T = 1) on D disjoint K-cliques with
    clique means ±``amplitude`` (alternating), Gaussian noise R = 1, τ = 0."""
    graph = clique_graph(D, K)
    means = np.repeat(np.where(np.arange(D) % 2 == 0, amplitude, -amplitude), K)
    system = graph_system(graph, lam)
    eigs = eigenvalues(system)
    H = complexity_H(means, 0.0, eps)
    M = M_constant(alpha, gamma, lam)
    m = smoothness_norm(system, means, 0.0)
    rows = []
    for T in horizons:
        losses = 0
        for r in range(runs):
            tape = gaussian_tape(means, 1.0, derive(seed, "run", r))
            run = grapl(tape, system, T, tau=0.0, eps=eps, gamma=gamma, alpha=alpha)
            losses += int(run.wrong_paper[-1] > 0)
        d_T = effective_dimension(eigs, gamma, lam, T)
        row = {"horizon": T, "runs": runs, "losses": losses, "d_T": d_T, "H": H, "M": M, "m": m, "gamma": gamma}
        row.update(lam=lam, alpha=alpha, eps=eps, amplitude=amplitude, R=1.0, noise_sd=1.0)
        for form in FORMS:
            row[f"bound_{form}"] = bound_thm31(T, gamma, 1.0, H, M, m, d_T, lam, form)
        rows.append(row)
    return {"rows": rows}


def compute_theory(seed, check: str, **params) -> dict:
    """Dispatch a unit of the ``theory`` experiment: ``check="lemmas"`` or ``"clique_bound"``."""
    if check == "lemmas":
        return compute_lemmas(seed, **params)
    if check == "clique_bound":
        return compute_clique_bound(seed, **params)
    raise ValueError(f"check must be 'lemmas' or 'clique_bound'; got check={check!r}")
