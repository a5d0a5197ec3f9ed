r"""GRAPL20's theory in computable form: effective dimension, bounds, lemmas and γ*.

Notation: :math:`m = \|\mu - c\mathbf 1\|_{L_\lambda}` (c = τ with the τ-offset),
:math:`M = \max\{\sqrt{\alpha/(\gamma\lambda)}, \sqrt{1+\alpha}\}`, and :math:`d_T` the effective
dimension (Def. 2.1): the largest d with :math:`(d-1)\gamma\lambda_d \le T/\log(1 + T/(\gamma\lambda))`,
:math:`\lambda_1 \le \dots \le \lambda_N` the eigenvalues of :math:`L_\lambda`.

**The √γ slip.** Lemma E.1 applies Abbasi-Yadkori et al.'s self-normalised bound to
:math:`V_t`, but that bound holds for the design matrix :math:`\gamma V_t = \gamma L_\lambda + N_t`,
which gives :math:`\|\xi_t\|^2_{V_t^{-1}} \le \gamma R^2 \log(\dots)`. The noise term of Lemma A.1
is then :math:`R/\sqrt\gamma`, not :math:`R/\gamma`, and the factor :math:`\gamma^2/(2R^2)` in the
exponents of Prop. 2.2, Theorem 3.1 and Prop. 3.6 becomes :math:`\gamma/(2R^2)`. Every function
here takes ``form="printed"`` (the paper) or ``form="corrected"``; the two agree at γ = 1.

Bounds return :math:`\exp\{\dots\}` (it may exceed 1, which means "vacuous"), or ``inf`` when the
result's condition on m fails (the theorem says nothing there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import networkx as nx
import numpy as np

from bandit_lib.checks import (
    check_choice,
    check_int,
    check_nonnegative,
    check_open_unit,
    check_positive,
    check_real,
    check_vector,
)
from bandit_lib.grapl20.dense import symmetric_eigenvalues
from bandit_lib.grapl20.estimator import GraphSystem, _matvec_dot
from bandit_lib.grapl20.problem import complexity_H

FORMS = ("printed", "corrected")
GAMMA_STAR_VARIANTS = ("printed", "refcode", "rederived")


def _noise_factor(gamma: float, form: str) -> float:
    """γ²/(2R²)·R² → γ² (printed) or γ (corrected): the exponent's factor times 2R²."""
    check_choice("form", form, FORMS)
    return gamma**2 if form == "printed" else gamma


# ----------------------------------------------------------------------------------- spectrum
def eigenvalues(system: GraphSystem) -> np.ndarray:
    r"""Eigenvalues of :math:`L_\lambda`, ascending (:func:`bandit_lib.grapl20.dense.symmetric_eigenvalues`:
    Householder and bisection in numba loops, not LAPACK's ``eigvalsh``, whose last bits depend on
    the machine's BLAS kernels: :math:`d'` and :math:`d_T` count eigenvalues below a level, and γ*'s
    fixed-point iteration stops on exact equality, so a last bit could move a count)."""
    if not isinstance(system, GraphSystem):
        raise TypeError(f"system must be a GraphSystem; got {type(system).__name__}")
    return symmetric_eigenvalues(system.L_lambda.toarray())


def effective_dimension(eigs, gamma: float, lam: float, horizon: float, *, cap_T_at_N: bool = False) -> int:
    r"""d_T of Definition 2.1, computed from the definition (not the printed clique closed form).

    ``eigs`` are the eigenvalues of :math:`L_\lambda` in any order. With ``cap_T_at_N`` the right
    side uses min(T, N) (the paper allows N when T > N).
    """
    eigs = np.sort(check_vector("eigs", eigs, low=0.0))
    gamma, lam = check_positive("gamma", gamma), check_positive("lam", lam)
    T = check_positive("horizon", horizon)
    T_rhs = min(T, len(eigs)) if cap_T_at_N else T
    rhs = T_rhs / math.log1p(T_rhs / (gamma * lam))
    k = np.arange(len(eigs))
    return int(np.count_nonzero(k * gamma * eigs <= rhs))


def smoothness_norm(system: GraphSystem, means, c: float = 0.0) -> float:
    r""":math:`\|\mu - c\mathbf 1\|_{L_\lambda} = \sqrt{(\mu - c)^\top L_\lambda (\mu - c)}`, summed row by
    row in a numba loop (a BLAS dot product sums in an order that depends on the machine; m enters
    γ*, whose iteration stops on exact equality)."""
    means = check_vector("means", means)
    if len(means) != system.n_arms:
        raise ValueError(f"means has {len(means)} entries but the graph has {system.n_arms} nodes")
    d = means - check_real("c", c)
    L = system.L_lambda
    quadratic = _matvec_dot(L.indptr, L.indices, L.data, np.ascontiguousarray(d), np.empty(len(d)))
    return float(np.sqrt(max(quadratic, 0.0)))


def M_constant(alpha: float, gamma: float, lam: float) -> float:
    r""":math:`M = \max\{\sqrt{\alpha/(\gamma\lambda)}, \sqrt{1+\alpha}\}` (Theorem 3.1)."""
    alpha = check_nonnegative("alpha", alpha)
    gamma, lam = check_positive("gamma", gamma), check_positive("lam", lam)
    return max(math.sqrt(alpha / (gamma * lam)), math.sqrt(1.0 + alpha))


def T0(H: float, M: float, m: float, gamma: float) -> float:
    r""":math:`T_0 = \gamma H (3M+1)^2 m^2` (eq. 15): the horizon from which Theorem 3.1 applies."""
    return (
        check_positive("gamma", gamma)
        * check_positive("H", H)
        * (3 * check_positive("M", M) + 1) ** 2
        * check_nonnegative("m", m) ** 2
    )


# ----------------------------------------------------------------------------------- bounds
def _bound(margin: float, gamma: float, R: float, d_T: int, horizon: float, lam: float, form: str) -> float:
    if margin < 0:
        return math.inf
    exponent = -_noise_factor(gamma, form) / (2 * R**2) * margin**2 + d_T * math.log1p(horizon / (gamma * lam))
    return math.exp(min(exponent, 700.0))


def bound_prop22(horizon, gamma, R, H_tilde, m, d_T, lam, form="printed") -> float:
    r"""Prop. 2.2 (Algorithm 1, round robin, T = kN): exp{−f(γ)/(2R²)(√(T/(γH̃)) − m)² + d_T log(1+T/(γλ))}."""
    gamma, R = check_positive("gamma", gamma), check_positive("R", R)
    T = check_positive("horizon", horizon)
    return _bound(
        math.sqrt(T / (gamma * check_positive("H_tilde", H_tilde))) - check_nonnegative("m", m),
        gamma,
        R,
        check_int("d_T", d_T, minimum=1),
        T,
        check_positive("lam", lam),
        form,
    )


def bound_thm31(horizon, gamma, R, H, M, m, d_T, lam, form="printed") -> float:
    r"""Theorem 3.1 (GrAPL): exp{−f(γ)/(2R²)(√(T/(γH))/(3M+1) − m)² + d_T log(1+T/(γλ))}."""
    gamma, R = check_positive("gamma", gamma), check_positive("R", R)
    T = check_positive("horizon", horizon)
    margin = math.sqrt(T / (gamma * check_positive("H", H))) / (3 * check_positive("M", M) + 1) - check_nonnegative(
        "m", m
    )
    return _bound(margin, gamma, R, check_int("d_T", d_T, minimum=1), T, check_positive("lam", lam), form)


def bound_prop36(horizon, gamma, R, H_star, m, d_T, lam, form="printed") -> float:
    r"""Prop. 3.6 (oracle allocation): as Prop. 2.2 with :math:`H_*` in place of H̃."""
    return bound_prop22(horizon, gamma, R, H_star, m, d_T, lam, form)


def lower_bound_cliques(horizon: float, K: int, R: float, H: float, n_arms: int) -> float:
    r"""Eq. 21, D disjoint K-cliques: :math:`\exp\{-3KT/(R^2H) - 4\log(12(\log T + 1)N)\}`."""
    T = check_positive("horizon", horizon)
    K, n = check_int("K", K, minimum=1), check_int("n_arms", n_arms, minimum=1)
    R, H = check_positive("R", R), check_positive("H", H)
    return math.exp(-3 * K * T / (R**2 * H) - 4 * math.log(12 * (math.log(T) + 1) * n))


# ----------------------------------------------------------------------------------- lemmas
def lemma_a1_radius(
    sigma, R: float, gamma: float, logdet_ratio: float, delta: float, m: float, form: str = "printed"
) -> np.ndarray:
    r"""Lemma A.1: :math:`\sigma_i^t(\kappa\sqrt{\log(|V_t|/(\delta^2|L_\lambda|))} + m)` with
    :math:`\kappa = R/\gamma` (printed) or :math:`R/\sqrt\gamma` (corrected)."""
    sigma = check_vector("sigma", sigma, low=0.0)
    R, gamma = check_nonnegative("R", R), check_positive("gamma", gamma)
    delta = check_open_unit("delta", delta)
    check_choice("form", form, FORMS)
    kappa = R / gamma if form == "printed" else R / math.sqrt(gamma)
    log_term = check_nonnegative("logdet_ratio", logdet_ratio) - 2 * math.log(delta)
    return sigma * (kappa * math.sqrt(log_term) + check_nonnegative("m", m))


def lemma_a2_bound(sigma0_sq, counts, gamma: float) -> np.ndarray:
    r"""Lemma A.2: :math:`\sigma_i^t \le \sqrt{\sigma_0^2/(1 + \sigma_0^2 n_i^t/\gamma)}`."""
    sigma0_sq = check_vector("sigma0_sq", sigma0_sq, low=0.0)
    counts = check_vector("counts", counts, low=0.0)
    return np.sqrt(sigma0_sq / (1.0 + sigma0_sq * counts / check_positive("gamma", gamma)))


def lemma_a3_bound(d_T: int, horizon: float, gamma: float, lam: float) -> float:
    r"""Lemma A.3: :math:`\log(|V_T|/|L_\lambda|) \le 2 d_T \log(1 + T/(\gamma\lambda))`."""
    return (
        2
        * check_int("d_T", d_T, minimum=1)
        * math.log1p(check_positive("horizon", horizon) / (check_positive("gamma", gamma) * check_positive("lam", lam)))
    )


# ----------------------------------------------------------------------------------- cliques
def clique_graph(D: int, K: int) -> nx.Graph:
    """D disjoint K-cliques; clique j holds nodes jK .. jK + K - 1."""
    D, K = check_int("D", D, minimum=1), check_int("K", K, minimum=1)
    graph = nx.Graph()
    graph.add_nodes_from(range(D * K))
    for j in range(D):
        graph.add_edges_from(nx.complete_graph(range(j * K, (j + 1) * K)).edges)
    return graph


def clique_spectrum(D: int, K: int, lam: float) -> np.ndarray:
    r"""Eigenvalues of :math:`L_\lambda` for D disjoint K-cliques: λ (D times), K + λ (N − D times)."""
    D, K, lam = check_int("D", D, minimum=1), check_int("K", K, minimum=1), check_positive("lam", lam)
    return np.concatenate([np.full(D, lam), np.full(D * K - D, K + lam)])


# ----------------------------------------------------------------------------------- γ*
@dataclass(frozen=True)
class GammaStar:
    gamma: float
    d_prime: int
    M: float
    T0: float
    m: float
    H: float
    iterations: int


def gamma_star(
    system: GraphSystem,
    means,
    *,
    tau: float,
    eps: float,
    alpha: float,
    R: float,
    eigs=None,
    variant: str = "printed",
    gamma0: float = 10.0,
    iters: int = 100,
) -> GammaStar:
    r"""γ* of §3.3 by fixed-point iteration (M depends on γ), in one of three variants:

    * ``"printed"`` (eq. 22, which reproduces the paper's reported values):
      :math:`q = 9H(3M+1)^2 m^2`, :math:`\gamma = (2R/m)\sqrt{d'\log(1 + q/\lambda)}`;
    * ``"refcode"`` (the authors' helper): :math:`q = 2H(3M+1)^2 m^2`,
      :math:`\gamma = (R/m)\sqrt{2d'\log(1 + q/\lambda)}`;
    * ``"rederived"`` (solving Remark 3.3's equations with :math:`T_1 = 8T_0`): as printed with
      :math:`\gamma = (R/m)\sqrt{d'\log(1 + q/\lambda)/2}`, 2√2 times smaller;

    where :math:`d' = \#\{k \ge 0 : k\lambda_{k+1} \le q/\log(1 + q/\lambda)\}` and
    m is the τ-offset norm :math:`\|\mu - \tau\mathbf 1\|_{L_\lambda}`.
    """
    check_choice("variant", variant, GAMMA_STAR_VARIANTS)
    means = check_vector("means", means)
    tau, eps = check_real("tau", tau), check_nonnegative("eps", eps)
    alpha, R = check_nonnegative("alpha", alpha), check_positive("R", R)
    iters = check_int("iters", iters, minimum=1)
    lam = system.lam
    eigs = eigenvalues(system) if eigs is None else np.sort(check_vector("eigs", eigs, low=0.0))
    H = complexity_H(means, tau, eps)
    m = smoothness_norm(system, means, tau)
    if m == 0:
        raise ValueError("gamma* is infinite: the signal is constant (m = ||mu - tau||_{L_lambda} = 0)")
    k = np.arange(len(eigs))
    g, d_prime, M = check_positive("gamma0", gamma0), 0, 0.0
    for it in range(1, iters + 1):  # noqa: B007  (unchanged: an edit of the syntax tree would make cached results stale)
        M = M_constant(alpha, g, lam)
        q = (2.0 if variant == "refcode" else 9.0) * H * (3 * M + 1) ** 2 * m**2
        log_term = math.log1p(q / lam)
        d_prime = int(np.count_nonzero(k * eigs <= q / log_term))
        if variant == "printed":
            new = (2 * R / m) * math.sqrt(d_prime * log_term)
        elif variant == "refcode":
            new = (R / m) * math.sqrt(2 * d_prime * log_term)
        else:
            new = (R / m) * math.sqrt(d_prime * log_term / 2)
        converged = new == g
        g = new
        if converged:
            break
    M = M_constant(alpha, g, lam)
    return GammaStar(gamma=g, d_prime=d_prime, M=M, T0=T0(H, M, m, g), m=m, H=H, iterations=it)
