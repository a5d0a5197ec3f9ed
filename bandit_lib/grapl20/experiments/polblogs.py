"""GRAPL20 computations of Fig. 3: the real political-blogs graph (``make data`` fetches it into
data/raw/polblogs), its seeded stand-in, and Zachary's karate club (the ``fig3_polblogs`` experiment).

The trials of Algorithm 1 and of the no-graph baseline (random permutations) are cut into blocks;
trial k draws its permutation from ``derive(stream_seed(stream), "permutation", k)``, where
``stream`` names the unsplit unit (data, method, γ), so a trial is the same whichever block computes it
(and the same as in the unsplit unit, whose seed this is). A block stores each trial's error counts
(:func:`~.common.trial_record`); the quantile curves over all trials are drawn after the blocks are
merged (:func:`bandit_lib.grapl20.report.merge_trial_blocks`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bandit_lib.grapl20.algorithm1 import algorithm1, permutation_schedule
from bandit_lib.grapl20.estimator import graph_system
from bandit_lib.grapl20.experiments.common import (
    EPS,
    LAM,
    SETTINGS,
    STANDIN_SEED,
    first_time_at_most,
    key,
    last_time_above,
    stream_seed,
    trial_record,
    trial_row,
)
from bandit_lib.grapl20.grapl import grapl
from bandit_lib.grapl20.karate import karate_club
from bandit_lib.grapl20.no_graph import no_graph
from bandit_lib.grapl20.polblogs_gml import load_polblogs_checked, load_polblogs_gml
from bandit_lib.grapl20.polblogs_like import graph_statistics, polblogs_like
from bandit_lib.infra.profiles import find_data
from bandit_lib.seeding import derive
from bandit_lib.tapes import gaussian_tape


def polblogs_path() -> Path | None:
    """The real polblogs.gml, if ``make data`` (or BANDIT_DATA) provided it."""
    folder = find_data("polblogs", "polblogs.gml")
    return None if folder is None else folder / "polblogs.gml"


def fig3_source(data: str) -> dict:
    """Which data a Fig. 3 unit is drawn from (recorded in its payload)."""
    if data == "polblogs":
        _, _, content = load_polblogs_checked(_require_polblogs())
        return _source(data, content)
    return _source(data)


def _source(data: str, content: dict | None = None) -> dict:
    if data == "polblogs":
        return {"data": "political blogs (Adamic & Glance 2005), real", **content}
    if data == "karate":
        return {"data": "Zachary's karate club (networkx), real"}
    return {"data": "political-blogs stand-in (synthetic)"}


def _require_polblogs() -> Path:
    path = polblogs_path()
    if path is None:
        raise FileNotFoundError(
            "the real polblogs.gml is not in data/raw/polblogs (nor in $BANDIT_DATA/polblogs): run `make data` "
            "(or `make data POLBLOGS=/path/to/polblogs.zip`)"
        )
    return path


def fig3_instance(data: str, sizes=(586, 636)):
    """``(graph, means)``: ``"polblogs"`` (the real graph, checked), ``"standin"`` (the seeded
    synthetic stand-in), ``"karate"`` (real data shipped with networkx), or ``"gml:<path>"`` (any
    GML file of the same layout)."""
    if data == "polblogs":
        graph, means, _ = load_polblogs_checked(_require_polblogs())
        return graph, means
    if data == "standin":
        return polblogs_like(STANDIN_SEED, sizes=tuple(sizes))
    if data == "karate":
        return karate_club()
    if isinstance(data, str) and data.startswith("gml:"):
        return load_polblogs_gml(data[4:])
    raise ValueError(f"data must be 'polblogs', 'standin', 'karate' or 'gml:<path to polblogs.gml>'; got data={data!r}")


#: The root entropy of the ``fig3_polblogs`` experiment (its blocks rebuild their streams' seeds from it).
FIG3_ENTROPY = 71574


def compute_fig3(
    seed,
    data: str,
    part: str,
    gammas: list,
    stream: str,
    first: int,
    trials: int,
    sizes: list,
    solver: str = "cg",
) -> dict:
    """GrAPL (deterministic: one run per γ and solver), Algorithm 1 (random permutations) or the
    no-graph baseline on one graph of :func:`fig3_instance`, trials ``first`` .. ``first + trials − 1``
    of the stream ``stream``; T = N, noise-free rewards.

    For GrAPL, each γ is run with CG (the figure), with the exact solver, with CG and the printed
    index, and, to separate the two effects of CG, the exact estimator along CG's pull sequence."""
    cfg = SETTINGS["polblogs"]
    if data == "polblogs":  # one parse of the GML file gives the graph and its checked content
        graph, means, content = load_polblogs_checked(_require_polblogs())
        source = _source(data, content)
    else:
        graph, means = fig3_instance(data, sizes)
        source = fig3_source(data)
    n = len(means)
    system = graph_system(graph, LAM)
    root = stream_seed(FIG3_ENTROPY, "fig3_polblogs", stream)  # not the block's own seed
    tape = gaussian_tape(means, 0.0, derive(root, "tape"))  # sigma = 0: the reward is the label
    payload = {"n_arms": n, "statistics": graph_statistics(graph, means), "source": source}
    grid = np.arange(1, n + 1)
    if part == "grapl":
        runs = []
        for g in gammas:
            for solver, index in (("cg", "sqrt_n_plus_alpha"), ("exact", "sqrt_n_plus_alpha"), ("cg", "printed")):
                run = grapl(
                    tape.rewind(),
                    system,
                    n,
                    tau=cfg["tau"],
                    eps=EPS,
                    gamma=g,
                    alpha=cfg["alpha"],
                    solver=solver,
                    index=index,
                )
                e_ref = run.errors("ref")
                runs.append(
                    {
                        "gamma": g,
                        "solver": solver,
                        "index": index,
                        "wrong_ref": run.wrong_ref,
                        "wrong_paper": run.wrong_paper,
                        "first_1pct_ref": first_time_at_most(e_ref, 0.01),
                        "last_above_1pct_ref": last_time_above(e_ref, 0.01),
                        "is_permutation": bool(np.array_equal(np.sort(run.pulls), np.arange(n))),
                        "first_pulls": run.pulls[:10],
                        "cg_iterations_mean": None if run.cg_iterations is None else float(run.cg_iterations.mean()),
                        "cg_iterations_first100": None
                        if run.cg_iterations is None
                        else float(run.cg_iterations[:100].mean()),
                    }
                )
                if solver == "cg" and index == "sqrt_n_plus_alpha":
                    replay = algorithm1(
                        tape.rewind(), system, run.pulls, tau=cfg["tau"], eps=EPS, gamma=g, solver="exact"
                    )
                    e_replay = replay.errors("ref")
                    runs.append(
                        {
                            "gamma": g,
                            "solver": "exact on CG's pulls",
                            "index": index,
                            "wrong_ref": replay.wrong_ref,
                            "wrong_paper": replay.wrong_paper,
                            "first_1pct_ref": first_time_at_most(e_replay, 0.01),
                            "last_above_1pct_ref": last_time_above(e_replay, 0.01),
                            "is_permutation": True,
                            "first_pulls": replay.pulls[:10],
                            "cg_iterations_mean": None,
                            "cg_iterations_first100": None,
                            "max_abs_diff_mu_hat_vs_cg": float(np.abs(replay.mu_hat - run.mu_hat).max()),
                        }
                    )
        payload.update(
            {
                "n_judged_paper": run.n_judged_paper,
                "runs": runs,
                "rows": [
                    {k: v for k, v in r.items() if k not in ("wrong_ref", "wrong_paper", "first_pulls")} for r in runs
                ],
            }
        )
        return payload
    records, rows = {}, []
    for g in gammas:
        e = []
        for trial in range(first, first + trials):
            schedule = permutation_schedule(n, n, derive(root, "permutation", trial))
            if part == "alg1":
                run = algorithm1(tape.rewind(), system, schedule, tau=cfg["tau"], eps=EPS, gamma=g, solver=solver)
            else:
                run = no_graph(tape.rewind(), schedule, tau=cfg["tau"], eps=EPS)
            e_ref, e_paper = run.errors("ref"), run.errors("paper")
            e.append(trial_record(trial, run, grid))
            rows.append(trial_row(trial, "Algorithm 1" if part == "alg1" else "no graph", g, e_ref, e_paper, run))
        records[key(g) if g is not None else "none"] = e
    payload.update({"grid": grid, "trials": records, "rows": rows})
    return payload
