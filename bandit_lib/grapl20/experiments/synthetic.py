"""GRAPL20 computations on the instances of Figs 1–2 (the ``synthetic`` experiment).

Trial k of figure f is drawn from ``derive(entropy, f, k)``: its graph, its signal, its reward tape
and Algorithm 1's schedule. Every unit uses the same ``entropy``, so GrAPL, Algorithm 1 and APT of
a trial, the solver comparison, the ablation and γ* all see the same instances, and a trial is the
same whichever block of trials (``first``, ``trials``) computes it.

A block stores, per method and trial, the error counts on the grid of t (:func:`~.common.trial_record`)
and one row of numbers per trial; the quantile curves over all trials are drawn after the blocks are
merged (:func:`bandit_lib.grapl20.report.merge_trial_blocks`).
"""

from __future__ import annotations

import numpy as np

from bandit_lib.grapl20.algorithm1 import algorithm1, iid_uniform_schedule
from bandit_lib.grapl20.apt import apt
from bandit_lib.grapl20.estimator import graph_system
from bandit_lib.grapl20.experiments.common import (
    EPS,
    INSTANCE_ENTROPY,
    LAM,
    SETTINGS,
    t_grid,
    trial_record,
    trial_row,
)
from bandit_lib.grapl20.grapl import grapl
from bandit_lib.grapl20.sbm import two_block_sbm
from bandit_lib.grapl20.small_world import newman_watts_smooth
from bandit_lib.grapl20.theory import GAMMA_STAR_VARIANTS, eigenvalues, gamma_star
from bandit_lib.seeding import derive
from bandit_lib.tapes import bernoulli_tape, gaussian_tape


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


def compute_curves(
    seed,
    figure: str,
    part: str,
    gamma: float | None,
    first: int,
    trials: int,
    n_arms: int,
    horizon: int,
    solver: str,
    entropy: int,
) -> dict:
    """GrAPL and Algorithm 1 at one γ (``part="curves"``), or APT (``part="apt"``), on trials
    ``first`` .. ``first + trials − 1``."""
    cfg = SETTINGS[figure]
    grid = t_grid(horizon)
    records: dict[str, list] = {}
    rows = []
    for trial in range(first, first + trials):
        graph, means, tape, schedule_seed = make_instance(figure, trial, n_arms, entropy)
        if part == "apt":
            runs = {"APT": apt(tape, horizon, tau=cfg["tau"], eps=EPS, warmup=2)}
        else:
            system = graph_system(graph, LAM)
            common = dict(tau=cfg["tau"], eps=EPS, gamma=gamma, solver=solver)
            runs = {
                "GrAPL": grapl(tape.rewind(), system, horizon, alpha=cfg["alpha"], **common),
                "Algorithm 1": algorithm1(
                    tape.rewind(), system, iid_uniform_schedule(n_arms, horizon, schedule_seed), **common
                ),
            }
        for method, run in runs.items():
            e_ref, e_paper = run.errors("ref"), run.errors("paper")
            records.setdefault(method, []).append(trial_record(trial, run, grid))
            rows.append(trial_row(trial, method, gamma, e_ref, e_paper, run))
            if method == "GrAPL":
                # the spike near t = N: GrAPL with tiny alpha first pulls every arm once
                rows[-1]["all_once_by_N"] = (
                    bool(np.array_equal(np.sort(run.pulls[:n_arms]), np.arange(n_arms))) if horizon >= n_arms else None
                )
    return {"grid": grid, "n_arms": n_arms, "trials": records, "rows": rows}


def compute_cg_vs_exact(
    seed, figure: str, method: str, gamma: float, first: int, trials: int, n_arms: int, horizon: int, entropy: int
) -> dict:
    """Both solvers on the same instances and tapes: where the pulls part, and how far the curves do."""
    cfg = SETTINGS[figure]
    grid = t_grid(horizon)
    rows, records = [], {"exact": [], "cg": []}
    for trial in range(first, first + trials):
        graph, means, tape, schedule_seed = make_instance(figure, trial, n_arms, entropy)
        system = graph_system(graph, LAM)
        runs = {}
        for solver in ("exact", "cg"):
            common = dict(tau=cfg["tau"], eps=EPS, gamma=gamma, solver=solver)
            if method == "GrAPL":
                runs[solver] = grapl(tape.rewind(), system, horizon, alpha=cfg["alpha"], **common)
            else:
                runs[solver] = algorithm1(
                    tape.rewind(), system, iid_uniform_schedule(n_arms, horizon, schedule_seed), **common
                )
            records[solver].append(trial_record(trial, runs[solver], grid))
        e_exact, e_cg = runs["exact"].errors("ref"), runs["cg"].errors("ref")
        differ = np.flatnonzero(runs["exact"].pulls != runs["cg"].pulls)
        d_wrong = np.abs(runs["exact"].wrong_ref - runs["cg"].wrong_ref)
        rows.append(
            {
                "trial": trial,
                "first_different_pull": int(differ[0]) + 1 if differ.size else None,
                "max_abs_diff_wrong": int(d_wrong.max()),
                "mean_abs_diff_E": float(d_wrong.mean() / n_arms),
                "E_mean_exact": float(e_exact.mean()),
                "E_mean_cg": float(e_cg.mean()),
                "E_final_exact": float(e_exact[-1]),
                "E_final_cg": float(e_cg[-1]),
                "max_abs_diff_mu_hat": float(np.abs(runs["exact"].mu_hat - runs["cg"].mu_hat).max()),
                "cg_iterations_mean": float(runs["cg"].cg_iterations.mean()),
                "cg_unconverged": int(runs["cg"].cg_unconverged),
            }
        )
    return {"grid": grid, "n_arms": n_arms, "trials": records, "rows": rows}


def compute_gamma_star(seed, figure: str, first: int, trials: int, n_arms: int, entropy: int) -> dict:
    """γ* (three variants) per instance of Fig. 1 or 2; Fig. 2 also with the signal of the authors'
    γ* notebook, (L + λI + I/N²)^{-1} y."""
    cfg = SETTINGS[figure]
    rows = []
    for trial in range(first, first + trials):
        graph, means, _, _ = make_instance(figure, trial, n_arms, entropy)
        signals = {"figure": means}
        if figure == "small_world":
            signals["ridge"] = newman_watts_smooth(n_arms, derive(entropy, figure, trial, "graph"), ridge=LAM)[1]
        system = graph_system(graph, LAM)
        eigs = eigenvalues(system)
        for signal, mu in signals.items():
            for variant in GAMMA_STAR_VARIANTS:
                gs = gamma_star(
                    system, mu, tau=cfg["tau"], eps=EPS, alpha=cfg["alpha"], R=cfg["R"], eigs=eigs, variant=variant
                )
                rows.append(
                    {
                        "trial": trial,
                        "signal": signal,
                        "variant": variant,
                        "gamma_star": gs.gamma,
                        "d_prime": gs.d_prime,
                        "M": gs.M,
                        "T0": gs.T0,
                        "m": gs.m,
                        "H": gs.H,
                        "n_arms": n_arms,
                        "iterations": gs.iterations,
                    }
                )
    return {"rows": rows}


def compute_ablation(
    seed, figure: str, gamma: float, first: int, trials: int, n_arms: int, horizon: int, entropy: int
) -> dict:
    """GrAPL with the index of the proofs, sqrt(n + α), against the printed sqrt(n) + α."""
    cfg = SETTINGS[figure]
    grid = t_grid(horizon)
    records, rows = {}, []
    for trial in range(first, first + trials):
        graph, means, tape, _ = make_instance(figure, trial, n_arms, entropy)
        system = graph_system(graph, LAM)
        for index in ("sqrt_n_plus_alpha", "printed"):
            run = grapl(
                tape.rewind(), system, horizon, tau=cfg["tau"], eps=EPS, gamma=gamma, alpha=cfg["alpha"], index=index
            )
            e_ref, e_paper = run.errors("ref"), run.errors("paper")
            records.setdefault(index, []).append(trial_record(trial, run, grid))
            row = trial_row(trial, index, gamma, e_ref, e_paper, run)
            row["distinct_arms_by_N"] = int(np.unique(run.pulls[:n_arms]).size)
            rows.append(row)
    return {"grid": grid, "n_arms": n_arms, "trials": records, "rows": rows}


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
