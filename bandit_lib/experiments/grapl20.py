"""GRAPL20 chapter: thresholding graph bandits with GrAPL (LeJeune, Dasarathy & Baraniuk, AISTATS 2020).

Three experiments (spec ``grapl.md`` §4–§5); each is a list of units whose order is chosen so
that two workers stay busy (longest first):

* ``synthetic``: everything drawn on the instances of Figs 1–2 (two-block SBM with Gaussian
  noise; Newman–Watts small world with a smooth Bernoulli signal), 100 trials:
  the error curves E(t) of GrAPL and Algorithm 1 (iid-uniform arms) per γ and of APT
  (``part="curves"``/``"apt"``, exact solver); the authors' CG solver against the exact one on
  the first trials (``"cg_vs_exact"``); the paper-printed selection index (``"ablation"``); and γ*
  of eq. 22 with two variants (``"gamma_star"``). Every method of a trial runs on the same
  instance and reads the same reward tape: instance seeds come from ``entropy`` (a parameter
  shared by all units), not from the unit's own seed.
* ``fig3_polblogs``: the political-blogs stand-in and Zachary's karate club (real data): GrAPL with
  CG (the figure) and with the exact solver (the γ = 1e-7 anomaly), Algorithm 1 with random
  permutations, and the no-graph baseline; T = N, noise-free rewards.
* ``theory``: Lemma A.1 coverage (printed and corrected forms), Lemmas A.2–A.3, and Theorem 3.1
  against the empirical loss on a clique graph.

Curves are stored as quantiles (25/50/75 %) over trials on a grid of t: every t up to 200, then
every 10th (every t for Fig. 3), finer than a figure's pixels.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

from bandit_lib.experiment import Experiment, Figure, Unit
from bandit_lib.graph_estimator import GraphEstimator, graph_system
from bandit_lib.graphs.karate import karate_club
from bandit_lib.graphs.polblogs_like import graph_statistics, polblogs_like
from bandit_lib.graphs.sbm import two_block_sbm
from bandit_lib.graphs.small_world import newman_watts_smooth
from bandit_lib.grapl_theory import (FORMS, GAMMA_STAR_VARIANTS, M_constant, bound_thm31, clique_graph,
                                     effective_dimension, eigenvalues, gamma_star, lemma_a1_radius, lemma_a2_bound,
                                     lemma_a3_bound, smoothness_norm)
from bandit_lib.policies.algorithm1 import algorithm1_fast, iid_uniform_schedule, permutation_schedule
from bandit_lib.policies.apt import apt_fast
from bandit_lib.policies.grapl import grapl_fast, grapl_index
from bandit_lib.policies.no_graph import no_graph
from bandit_lib.seeding import derive
from bandit_lib.tapes import bernoulli_tape, gaussian_tape
from bandit_lib.thresholding import complexity_H

PAPER = "grapl20"
CHAPTER = "notebooks/grapl20"
INSTANCE_ENTROPY = 20200826  # shared by every unit of Figs 1-2, cg_vs_exact, gamma_star and ablations
LAM, EPS = 1e-3, 0.01

SETTINGS = {
    # figure: tau, alpha, gammas, reward, noise R
    "sbm": {"tau": 0.0, "alpha": 1.0, "gammas": (1.0, 10.0, 100.0), "R": 2.0},
    "small_world": {"tau": 0.5, "alpha": 1e-8, "gammas": (1.0, 100.0, 1e4), "R": 0.5},
    "polblogs": {"tau": 0.5, "alpha": 1e-8, "gammas": (1e-9, 1e-7, 1e-5, 1e-3, 1e-1, 10.0), "plotted": (1e-7, 1e-5, 1e-3, 1e-1)},
}
SCALE = {
    "quick": {"n_arms": 200, "horizon": {"sbm": 800, "small_world": 600}, "trials": 5, "cg_trials": 1,
              "standin_sizes": (117, 127), "alg1_trials": 10, "gamma_star_trials": 5, "lemma_runs": 20,
              "clique_runs": 10, "ablation_trials": 5},
    "full": {"n_arms": 1000, "horizon": {"sbm": 5000, "small_world": 5000}, "trials": 100,
             "cg_trials": {"sbm": {"grapl": 6, "alg1": 2}, "small_world": {"grapl": 4, "alg1": 1}},
             "standin_sizes": (586, 636), "alg1_trials": 100, "gamma_star_trials": 100, "lemma_runs": 200,
             "clique_runs": 200, "ablation_trials": 20},
}
STANDIN_SEED = 2005  # the one stand-in graph of Fig. 3 (Adamic & Glance, 2005)


def _key(x: float) -> str:
    return f"{x:g}"


# ----------------------------------------------------------------------------------- instances
def make_instance(figure: str, trial: int, n_arms: int, entropy: int = INSTANCE_ENTROPY):
    """``(graph, means, tape, schedule_seed)`` of trial ``trial`` of Fig. 1 (``"sbm"``) or 2."""
    root = derive(entropy, figure, trial)
    if figure == "sbm":
        graph, means = two_block_sbm(n_arms, derive(root, "graph"))
        tape = gaussian_tape(means, SETTINGS["sbm"]["R"], derive(root, "tape"))
    elif figure == "small_world":
        graph, means = newman_watts_smooth(n_arms, derive(root, "graph"))
        tape = bernoulli_tape(means, derive(root, "tape"))
    else:
        raise ValueError(f"figure must be 'sbm' or 'small_world'; got figure={figure!r}")
    return graph, means, tape, derive(root, "schedule")


def t_grid(horizon: int, dense: int = 200, step: int = 10) -> np.ndarray:
    """t = 1..dense, then every ``step``-th t, and T itself."""
    t = np.concatenate([np.arange(1, min(dense, horizon) + 1), np.arange(dense + step, horizon + 1, step), [horizon]])
    return np.unique(t)


def quantile_curves(errors: np.ndarray, grid: np.ndarray) -> dict:
    """25/50/75 % quantiles over trials (rows) of E(t), at the t of ``grid``."""
    q = np.percentile(errors[:, grid - 1], [25, 50, 75], axis=0)
    return {"q25": np.round(q[0], 7), "median": np.round(q[1], 7), "q75": np.round(q[2], 7)}


def first_time_at_most(curve: np.ndarray, level: float) -> int | None:
    """The first t (1-based) with curve[t-1] <= level, or None."""
    hits = np.flatnonzero(curve <= level + 1e-12)
    return int(hits[0]) + 1 if hits.size else None


def last_time_above(curve: np.ndarray, level: float) -> int:
    """The last t at which the curve is above ``level`` (0 if never): from t + 1 on it stays at or below."""
    above = np.flatnonzero(curve > level + 1e-12)
    return int(above[-1]) + 1 if above.size else 0


def _trial_row(trial, method, gamma, e_ref, e_paper, run):
    return {
        "trial": trial, "method": method, "gamma": gamma,
        "E_ref_final": float(e_ref[-1]), "E_paper_final": float(e_paper[-1]),
        "E_ref_mean": float(e_ref.mean()), "E_paper_mean": float(e_paper.mean()),
        "first_1pct_ref": first_time_at_most(e_ref, 0.01), "last_above_1pct_ref": last_time_above(e_ref, 0.01),
        "cg_iterations_mean": None if run.cg_iterations is None else float(run.cg_iterations.mean()),
    }


def _summaries(errors: dict, grid: np.ndarray) -> tuple[dict, dict]:
    curves, milestones = {}, {}
    for method, by_metric in errors.items():
        curves[method] = {metric: quantile_curves(np.array(e), grid) for metric, e in by_metric.items()}
        median = np.median(np.array(by_metric["ref"]), axis=0)
        milestones[method] = {f"first_median_at_most_{lvl:g}": first_time_at_most(median, lvl) for lvl in (0.1, 0.05, 0.01, 0.001)}
        milestones[method]["median_final"] = float(median[-1])
    return curves, milestones


# ----------------------------------------------------------------------------------- Figs 1-2
def compute_curves(seed, figure: str, part: str, gamma: float | None, trials: int, n_arms: int, horizon: int,
                   solver: str, entropy: int) -> dict:
    """GrAPL and Algorithm 1 at one γ (``part="graph"``), or APT (``part="apt"``), over ``trials``."""
    cfg = SETTINGS[figure]
    errors: dict[str, dict[str, list]] = {}
    rows = []
    for trial in range(trials):
        graph, means, tape, schedule_seed = make_instance(figure, trial, n_arms, entropy)
        if part == "apt":
            runs = {"APT": apt_fast(tape, horizon, tau=cfg["tau"], eps=EPS, warmup=2)}
        else:
            system = graph_system(graph, LAM)
            common = dict(tau=cfg["tau"], eps=EPS, gamma=gamma, solver=solver)
            runs = {
                "GrAPL": grapl_fast(tape.rewind(), system, horizon, alpha=cfg["alpha"], **common),
                "Algorithm 1": algorithm1_fast(tape.rewind(), system, iid_uniform_schedule(n_arms, horizon, schedule_seed), **common),
            }
        for method, run in runs.items():
            e_ref, e_paper = run.errors("ref"), run.errors("paper")
            errors.setdefault(method, {"ref": [], "paper": []})
            errors[method]["ref"].append(e_ref)
            errors[method]["paper"].append(e_paper)
            rows.append(_trial_row(trial, method, gamma, e_ref, e_paper, run))
            if method == "GrAPL":
                # the spike near t = N: GrAPL with tiny alpha first pulls every arm once
                rows[-1]["all_once_by_N"] = bool(np.array_equal(np.sort(run.pulls[:n_arms]), np.arange(n_arms))) if horizon >= n_arms else None
    grid = t_grid(horizon)
    curves, milestones = _summaries(errors, grid)
    return {"grid": grid, "curves": curves, "milestones": milestones, "rows": rows}


# ----------------------------------------------------------------------------------- CG vs exact
def compute_cg_vs_exact(seed, figure: str, method: str, gamma: float, trials: int, n_arms: int, horizon: int,
                        entropy: int) -> dict:
    """Both solvers on the same instances and tapes: where the pulls part, and how far the curves do."""
    cfg = SETTINGS[figure]
    rows, errors = [], {"exact": [], "cg": []}
    for trial in range(trials):
        graph, means, tape, schedule_seed = make_instance(figure, trial, n_arms, entropy)
        system = graph_system(graph, LAM)
        runs = {}
        for solver in ("exact", "cg"):
            common = dict(tau=cfg["tau"], eps=EPS, gamma=gamma, solver=solver)
            if method == "GrAPL":
                runs[solver] = grapl_fast(tape.rewind(), system, horizon, alpha=cfg["alpha"], **common)
            else:
                runs[solver] = algorithm1_fast(tape.rewind(), system, iid_uniform_schedule(n_arms, horizon, schedule_seed), **common)
            errors[solver].append(runs[solver].errors("ref"))
        differ = np.flatnonzero(runs["exact"].pulls != runs["cg"].pulls)
        d_wrong = np.abs(runs["exact"].wrong_ref - runs["cg"].wrong_ref)
        rows.append({
            "trial": trial, "first_different_pull": int(differ[0]) + 1 if differ.size else None,
            "max_abs_diff_wrong": int(d_wrong.max()), "mean_abs_diff_E": float(d_wrong.mean() / n_arms),
            "E_mean_exact": float(errors["exact"][-1].mean()), "E_mean_cg": float(errors["cg"][-1].mean()),
            "E_final_exact": float(errors["exact"][-1][-1]), "E_final_cg": float(errors["cg"][-1][-1]),
            "max_abs_diff_mu_hat": float(np.abs(runs["exact"].mu_hat - runs["cg"].mu_hat).max()),
            "cg_iterations_mean": float(runs["cg"].cg_iterations.mean()),
            "cg_unconverged": int(runs["cg"].cg_unconverged),
        })
    grid = t_grid(horizon)
    curves = {solver: quantile_curves(np.array(e), grid) for solver, e in errors.items()}
    return {"grid": grid, "curves": curves, "rows": rows}


# ----------------------------------------------------------------------------------- Fig 3
def fig3_instance(data: str, sizes=(586, 636)):
    if data == "standin":
        return polblogs_like(STANDIN_SEED, sizes=tuple(sizes))
    if data == "karate":
        return karate_club()
    raise ValueError(f"data must be 'standin' or 'karate'; got data={data!r}")


def compute_fig3(seed, data: str, part: str, gammas: list, trials: int, sizes: list, solver: str = "cg") -> dict:
    """GrAPL (deterministic: one run per γ and solver), Algorithm 1 (random permutations) or the
    no-graph baseline on the stand-in or the karate club; T = N, noise-free rewards.

    For GrAPL, each γ is run with CG (the figure), with the exact solver, with CG and the printed
    index, and, to separate the two effects of CG, the exact estimator along CG's pull sequence."""
    cfg = SETTINGS["polblogs"]
    graph, means = fig3_instance(data, sizes)
    n = len(means)
    system = graph_system(graph, LAM)
    tape = gaussian_tape(means, 0.0, derive(seed, "tape"))  # sigma = 0: the reward is the label
    payload = {"n_arms": n, "statistics": graph_statistics(graph, means)}
    grid = np.arange(1, n + 1)
    if part == "grapl":
        runs = []
        for g in gammas:
            for solver, index in (("cg", "sqrt_n_plus_alpha"), ("exact", "sqrt_n_plus_alpha"), ("cg", "printed")):
                run = grapl_fast(tape.rewind(), system, n, tau=cfg["tau"], eps=EPS, gamma=g, alpha=cfg["alpha"],
                                 solver=solver, index=index)
                e_ref = run.errors("ref")
                runs.append({
                    "gamma": g, "solver": solver, "index": index, "wrong_ref": run.wrong_ref, "wrong_paper": run.wrong_paper,
                    "first_1pct_ref": first_time_at_most(e_ref, 0.01), "last_above_1pct_ref": last_time_above(e_ref, 0.01),
                    "is_permutation": bool(np.array_equal(np.sort(run.pulls), np.arange(n))),
                    "first_pulls": run.pulls[:10],
                    "cg_iterations_mean": None if run.cg_iterations is None else float(run.cg_iterations.mean()),
                    "cg_iterations_first100": None if run.cg_iterations is None else float(run.cg_iterations[:100].mean()),
                })
                if solver == "cg" and index == "sqrt_n_plus_alpha":
                    replay = algorithm1_fast(tape.rewind(), system, run.pulls, tau=cfg["tau"], eps=EPS, gamma=g,
                                             solver="exact")
                    e_replay = replay.errors("ref")
                    runs.append({
                        "gamma": g, "solver": "exact on CG's pulls", "index": index, "wrong_ref": replay.wrong_ref,
                        "wrong_paper": replay.wrong_paper, "first_1pct_ref": first_time_at_most(e_replay, 0.01),
                        "last_above_1pct_ref": last_time_above(e_replay, 0.01), "is_permutation": True,
                        "first_pulls": replay.pulls[:10], "cg_iterations_mean": None, "cg_iterations_first100": None,
                        "max_abs_diff_mu_hat_vs_cg": float(np.abs(replay.mu_hat - run.mu_hat).max()),
                    })
        payload.update({"n_judged_paper": run.n_judged_paper, "runs": runs,
                        "rows": [{k: v for k, v in r.items() if k not in ("wrong_ref", "wrong_paper", "first_pulls")} for r in runs]})
        return payload
    errors, rows = {}, []
    for g in gammas:
        e = {"ref": [], "paper": []}
        for trial in range(trials):
            schedule = permutation_schedule(n, n, derive(seed, "permutation", trial))
            if part == "alg1":
                run = algorithm1_fast(tape.rewind(), system, schedule, tau=cfg["tau"], eps=EPS, gamma=g, solver=solver)
            else:
                run = no_graph(tape.rewind(), schedule, tau=cfg["tau"], eps=EPS)
            e_ref, e_paper = run.errors("ref"), run.errors("paper")
            e["ref"].append(e_ref)
            e["paper"].append(e_paper)
            rows.append(_trial_row(trial, "Algorithm 1" if part == "alg1" else "no graph", g, e_ref, e_paper, run))
        errors[_key(g) if g is not None else "none"] = e
    curves = {k: {m: quantile_curves(np.array(v), grid) for m, v in e.items()} for k, e in errors.items()}
    payload.update({"grid": grid, "curves": curves, "rows": rows})
    return payload


_FIG3_COST = {"grapl": 10.0, "nograph": 1.0, "alg1": {1e-7: 0.2, 1e-5: 0.25, 1e-3: 0.8, 1e-1: 1.6}}


def plan_fig3(profile: str) -> list[Unit]:
    s = SCALE[profile]
    cfg = SETTINGS["polblogs"]
    units = []
    for data in ("standin", "karate"):
        sizes = list(s["standin_sizes"])
        units.append(Unit(f"{data},grapl", {"data": data, "part": "grapl", "gammas": list(cfg["gammas"]), "trials": 1, "sizes": sizes}))
        for g in cfg["plotted"]:
            units.append(Unit(f"{data},alg1,gamma={_key(g)}", {"data": data, "part": "alg1", "gammas": [g],
                                                              "trials": s["alg1_trials"], "sizes": sizes}))
        # Algorithm 1 at the anomalous gamma with the exact solver, for the anomaly panel
        units.append(Unit(f"{data},alg1-exact,gamma=1e-07", {"data": data, "part": "alg1", "gammas": [1e-7],
                                                            "trials": s["alg1_trials"], "sizes": sizes, "solver": "exact"}))
        units.append(Unit(f"{data},nograph", {"data": data, "part": "nograph", "gammas": [None],
                                             "trials": s["alg1_trials"], "sizes": sizes}))

    def cost(unit: Unit) -> float:
        p = unit.params
        size = 1.0 if p["data"] == "standin" else 0.01
        if p["part"] == "alg1":
            per_trial = 0.3 if p.get("solver") == "exact" else _FIG3_COST["alg1"][p["gammas"][0]]
            return size * per_trial * p["trials"]
        return size * _FIG3_COST[p["part"]]
    return sorted(units, key=lambda u: -cost(u))


FIG3 = Experiment(
    paper=PAPER, name="fig3_polblogs", title="Political blogs (stand-in) and karate club: E(t), T = N, noise-free",
    compute=compute_fig3, plan=plan_fig3, entropy=71574, chapter=CHAPTER,
    figures=(Figure("Fig. G.4", "Political-blogs stand-in (synthetic) and karate club (real): E(t), CG solver"),
             Figure("Fig. G.5", "The γ = 1e-7 anomaly: CG (rtol 1e-5) against the exact solver")),
)


# ----------------------------------------------------------------------------------- gamma*
def compute_gamma_star(seed, figure: str, trials: int, n_arms: int, entropy: int) -> dict:
    """γ* (three variants) per instance of Fig. 1 or 2; Fig. 2 also with the signal of the authors'
    γ* notebook, (L + λI + I/N²)^{-1} y."""
    cfg = SETTINGS[figure]
    rows = []
    for trial in range(trials):
        graph, means, _, _ = make_instance(figure, trial, n_arms, entropy)
        signals = {"figure": means}
        if figure == "small_world":
            signals["ridge"] = newman_watts_smooth(n_arms, derive(entropy, figure, trial, "graph"), ridge=LAM)[1]
        system = graph_system(graph, LAM)
        eigs = eigenvalues(system)
        for signal, mu in signals.items():
            for variant in GAMMA_STAR_VARIANTS:
                gs = gamma_star(system, mu, tau=cfg["tau"], eps=EPS, alpha=cfg["alpha"], R=cfg["R"], eigs=eigs, variant=variant)
                rows.append({"trial": trial, "signal": signal, "variant": variant, "gamma_star": gs.gamma,
                             "d_prime": gs.d_prime, "M": gs.M, "T0": gs.T0, "m": gs.m, "H": gs.H, "n_arms": n_arms,
                             "iterations": gs.iterations})
    return {"rows": rows}


# ----------------------------------------------------------------------------------- theory
def path_instance(n_arms: int = 50, amplitude: float = 1.0):
    """Path graph with a smooth signal μ_i = amplitude · cos(π i/(N−1)) (threshold 0)."""
    graph = nx.path_graph(n_arms)
    means = amplitude * np.cos(np.pi * np.arange(n_arms) / (n_arms - 1))
    return graph, means


def compute_lemmas(seed, gamma: float, amplitude: float, runs: int, n_arms: int, horizon: int, every: int,
                   delta: float) -> dict:
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
    rows = [{"gamma": gamma, "amplitude": amplitude, "m": m, "form": form, "violations": violations[form],
             "runs": runs, "delta": delta} for form in FORMS]
    return {"rows": rows, "m": m, "a2_max_ratio": worst_a2, "a3_max_ratio": worst_a3,
            "sigma_increases": non_monotone,
            "d_T": effective_dimension(eigs, gamma, LAM, horizon),
            "d_T_capped": effective_dimension(eigs, gamma, LAM, horizon, cap_T_at_N=True)}


def compute_clique_bound(seed, D: int, K: int, lam: float, gamma: float, alpha: float, eps: float, horizons: list,
                         runs: int) -> dict:
    """Theorem 3.1 (both forms) against GrAPL's empirical P(L_T = 1) on D disjoint K-cliques with
    clique means ±1 (alternating), Gaussian noise R = 1, τ = 0."""
    graph = clique_graph(D, K)
    means = np.repeat(np.where(np.arange(D) % 2 == 0, 1.0, -1.0), K)
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
            run = grapl_fast(tape, system, T, tau=0.0, eps=eps, gamma=gamma, alpha=alpha)
            losses += int(run.wrong_paper[-1] > 0)
        d_T = effective_dimension(eigs, gamma, lam, T)
        row = {"horizon": T, "runs": runs, "losses": losses, "d_T": d_T, "H": H, "M": M, "m": m}
        for form in FORMS:
            row[f"bound_{form}"] = bound_thm31(T, gamma, 1.0, H, M, m, d_T, lam, form)
        rows.append(row)
    return {"rows": rows}


def compute_theory(seed, check: str, **params) -> dict:
    if check == "lemmas":
        return compute_lemmas(seed, **params)
    return compute_clique_bound(seed, **params)


def plan_theory(profile: str) -> list[Unit]:
    s = SCALE[profile]
    # Two signals: with amplitude 1 the bias term sigma*m of Lemma A.1 is large enough to hide the
    # noise term; with amplitude 0.1 the noise term decides, which exposes its sqrt(gamma) slip.
    units = [Unit(f"lemmas,amplitude={_key(a)},gamma={_key(g)}", {
        "check": "lemmas", "gamma": g, "amplitude": a, "runs": s["lemma_runs"], "n_arms": 50, "horizon": 300,
        "every": 30, "delta": 0.1}) for a in (1.0, 0.1) for g in (0.01, 1.0, 100.0)]
    units.append(Unit("clique_bound", {"check": "clique_bound", "D": 4, "K": 5, "lam": 1e-5, "gamma": 10.0,
                                       "alpha": 1e-8, "eps": 0.1, "horizons": [10000, 30000, 100000],
                                       "runs": s["clique_runs"]}))
    return units


THEORY = Experiment(
    paper=PAPER, name="theory", title="Lemmas A.1–A.3 and Theorem 3.1, checked",
    compute=compute_theory, plan=plan_theory, entropy=71576, chapter=CHAPTER,
    figures=(Figure("Table G.2", "Lemma A.1 coverage (printed and corrected), Lemmas A.2–A.3, Theorem 3.1"),),
)


# ----------------------------------------------------------------------------------- ablations
def compute_ablation(seed, figure: str, gamma: float, trials: int, n_arms: int, horizon: int, entropy: int) -> dict:
    """GrAPL with the index of the proofs, sqrt(n + α), against the printed sqrt(n) + α."""
    cfg = SETTINGS[figure]
    errors, rows = {}, []
    for trial in range(trials):
        graph, means, tape, _ = make_instance(figure, trial, n_arms, entropy)
        system = graph_system(graph, LAM)
        for index in ("sqrt_n_plus_alpha", "printed"):
            run = grapl_fast(tape.rewind(), system, horizon, tau=cfg["tau"], eps=EPS, gamma=gamma, alpha=cfg["alpha"],
                             index=index)
            e_ref, e_paper = run.errors("ref"), run.errors("paper")
            errors.setdefault(index, {"ref": [], "paper": []})
            errors[index]["ref"].append(e_ref)
            errors[index]["paper"].append(e_paper)
            row = _trial_row(trial, index, gamma, e_ref, e_paper, run)
            row["distinct_arms_by_N"] = int(np.unique(run.pulls[:n_arms]).size)
            rows.append(row)
    grid = t_grid(horizon)
    curves, milestones = _summaries(errors, grid)
    return {"grid": grid, "curves": curves, "milestones": milestones, "rows": rows}


# ----------------------------------------------------------------------------------- synthetic
# Rough cost of one trial of a unit, in seconds on the book's machine: units are planned longest first.
_CG_COST = {("sbm", 1.0): 2.0, ("sbm", 10.0): 2.6, ("sbm", 100.0): 3.2,
            ("small_world", 1.0): 2.2, ("small_world", 100.0): 6.0, ("small_world", 1e4): 15.0}


def compute_synthetic(seed, part: str, **params) -> dict:
    """Dispatch a unit of the ``synthetic`` experiment to its computation."""
    if part in ("curves", "apt"):
        return compute_curves(seed, part=part, **params)
    if part == "cg_vs_exact":
        return compute_cg_vs_exact(seed, **params)
    if part == "ablation":
        return compute_ablation(seed, **params)
    if part == "gamma_star":
        return compute_gamma_star(seed, **params)
    raise ValueError(f"unknown part={part!r}")


def plan_synthetic(profile: str) -> list[Unit]:
    s = SCALE[profile]
    planned = []
    for figure in ("sbm", "small_world"):
        base = {"figure": figure, "n_arms": s["n_arms"], "entropy": INSTANCE_ENTROPY}
        horizon = s["horizon"][figure]
        trials = s["trials"]
        for g in SETTINGS[figure]["gammas"]:
            planned.append((1.6 * trials, Unit(f"{figure},gamma={_key(g)}", {
                **base, "part": "curves", "gamma": g, "trials": trials, "horizon": horizon, "solver": "exact"})))
        planned.append((0.2 * trials, Unit(f"{figure},apt", {
            **base, "part": "apt", "gamma": None, "trials": trials, "horizon": horizon, "solver": "exact"})))
        for method, short in (("GrAPL", "grapl"), ("Algorithm 1", "alg1")):
            k = s["cg_trials"] if isinstance(s["cg_trials"], int) else s["cg_trials"][figure][short]
            for g in SETTINGS[figure]["gammas"]:
                planned.append((_CG_COST[figure, g] * k, Unit(f"{figure},cg,{short},gamma={_key(g)}", {
                    **base, "part": "cg_vs_exact", "method": method, "gamma": g, "trials": k, "horizon": horizon})))
        planned.append((0.5 * s["gamma_star_trials"], Unit(f"{figure},gamma_star", {
            **base, "part": "gamma_star", "trials": s["gamma_star_trials"]})))
    planned.append((1.6 * s["ablation_trials"], Unit("sbm,ablation,gamma=10", {
        "figure": "sbm", "n_arms": s["n_arms"], "entropy": INSTANCE_ENTROPY, "part": "ablation", "gamma": 10.0,
        "trials": s["ablation_trials"], "horizon": s["horizon"]["sbm"]})))
    return [unit for _, unit in sorted(planned, key=lambda cu: -cu[0])]


SYNTHETIC = Experiment(
    paper=PAPER, name="synthetic",
    title="SBM and small-world instances: E(t) curves, CG against exact, the printed index, gamma*",
    compute=compute_synthetic, plan=plan_synthetic, entropy=71571, chapter=CHAPTER,
    figures=(Figure("Fig. G.1", "Two-block SBM (paper's Fig. 1): median and IQR of E(t) over 100 trials"),
             Figure("Fig. G.2", "Small-world graph (paper's Fig. 2): median and IQR of E(t) over 100 trials"),
             Figure("Fig. G.3", "CG (rtol 1e-5) against the exact solver on the first trials of Figs 1–2"),
             Figure("Table G.1", "gamma* (eq. 22 and two variants): the paper's values against ours"),
             Figure("Fig. G.6", "GrAPL with the index of the proofs against the printed index (SBM, gamma = 10)")),
)
