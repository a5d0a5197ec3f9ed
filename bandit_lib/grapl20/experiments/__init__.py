"""GRAPL20 chapter: thresholding graph bandits with GrAPL (LeJeune, Dasarathy & Baraniuk, AISTATS 2020).

Three experiments (the paper's §4 and the theory of its §3 and appendices); each is a list of units whose order is chosen so
that two workers stay busy (longest first). Their computations live in this package's modules,
one per experiment (:mod:`~.synthetic`, :mod:`~.polblogs` and :mod:`~.theory`, with shared
settings in :mod:`~.common`), so that a change to one does not make the others' results stale:

* ``synthetic``: everything drawn on the instances of Figs 1–2 (two-block SBM with Gaussian
  noise; Newman–Watts small world with a smooth Bernoulli signal), 100 trials:
  the error curves E(t) of GrAPL and Algorithm 1 (iid-uniform arms) per γ and of APT
  (``part="curves"``/``"apt"``, exact solver); the authors' CG solver against the exact one on
  the first trials (``"cg_vs_exact"``); the paper-printed selection index (``"ablation"``); and γ*
  of eq. 22 with two variants (``"gamma_star"``). Every method of a trial runs on the same
  instance and reads the same reward tape: instance seeds come from ``entropy`` (a parameter
  shared by all units), not from the unit's own seed.
* ``fig3_polblogs``: the real political-blogs graph, its stand-in, and Zachary's karate club: GrAPL with
  CG (the figure) and with the exact solver (the γ = 1e-7 anomaly), Algorithm 1 with random
  permutations (with CG, and with the exact solver) at every plotted γ, and the no-graph baseline;
  T = N, noise-free rewards.
* ``theory``: Lemma A.1 coverage (printed and corrected forms), Lemmas A.2–A.3, and Theorem 3.1
  against the empirical loss on a clique graph.

A unit whose trials would take more than :data:`~.common.UNIT_SECONDS` by the cost model (the
records' seconds per trial) is cut into blocks of trials, keys ``<stream>,trials=<first>-<last>``,
where the stream is the key the unsplit unit had; a trial's randomness does not depend on the cut
(synthetic: it comes from ``entropy`` and the trial number; Fig. 3: from the stream's seed and the
trial number). Each block stores its trials' error counts on a grid of t (every t up to 200, then
every 10th; every t for Fig. 3); the curves (quantiles 25/50/75 % over all trials) are drawn from
the merged blocks by :func:`bandit_lib.grapl20.report.merge_trial_blocks`.
"""

from __future__ import annotations

from bandit_lib.grapl20.experiments.common import (  # noqa: F401 (the notebook's names)
    INSTANCE_ENTROPY,
    PAPER,
    SETTINGS,
    STANDIN_SEED,
    block_key,
    key,
    trial_blocks,
)
from bandit_lib.grapl20.experiments.polblogs import FIG3_ENTROPY, compute_fig3, fig3_instance  # noqa: F401
from bandit_lib.grapl20.experiments.synthetic import compute_synthetic, make_instance  # noqa: F401
from bandit_lib.grapl20.experiments.theory import compute_theory
from bandit_lib.infra.experiment import Experiment, Figure, Unit

CHAPTER = "notebooks/grapl20"

SCALE = {
    "quick": {
        "n_arms": 200,
        "horizon": {"sbm": 800, "small_world": 600},
        "trials": 5,
        "cg_trials": 1,
        "standin_sizes": (117, 127),
        "alg1_trials": 10,
        "gamma_star_trials": 5,
        "lemma_runs": 20,
        "clique_runs": 10,
        "refute_runs": 100,
        "ablation_trials": 5,
    },
    "full": {
        "n_arms": 1000,
        "horizon": {"sbm": 5000, "small_world": 5000},
        "trials": 100,
        "cg_trials": {"sbm": {"grapl": 5, "alg1": 2}, "small_world": {"grapl": 3, "alg1": 1}},
        "standin_sizes": (586, 636),
        "alg1_trials": 100,
        "gamma_star_trials": 100,
        "lemma_runs": 200,
        "clique_runs": 200,
        "refute_runs": 1000,
        "ablation_trials": 10,
    },
}


# Seconds per trial by the records (2-core machine under load), with the BLAS-free inverse (about
# 0.2 s per instance at N = 1000) and eigenvalues (about 0.5 s) added; SBM gamma = 1 and 100 raised
# to what their blocks cost when recomputed under load: units are cut into blocks of at most
# UNIT_SECONDS and planned longest first.
_CURVES_COST = {
    ("sbm", 1.0): 1.9,
    ("sbm", 10.0): 1.6,
    ("sbm", 100.0): 1.9,
    ("small_world", 1.0): 1.3,
    ("small_world", 100.0): 1.3,
    ("small_world", 1e4): 1.5,
}
_APT_COST = {"sbm": 0.2, "small_world": 0.3}
_CG_COST = {
    ("sbm", "grapl", 1.0): 2.2,
    ("sbm", "grapl", 10.0): 3.1,
    ("sbm", "grapl", 100.0): 3.7,
    ("small_world", "grapl", 1.0): 2.4,
    ("small_world", "grapl", 100.0): 7.1,
    ("small_world", "grapl", 1e4): 16.3,
    ("sbm", "alg1", 1.0): 2.1,
    ("sbm", "alg1", 10.0): 2.5,
    ("sbm", "alg1", 100.0): 3.4,
    ("small_world", "alg1", 1.0): 1.3,
    ("small_world", "alg1", 100.0): 5.2,
    ("small_world", "alg1", 1e4): 13.2,
}
_GAMMA_STAR_COST = 1.1
_ABLATION_COST = 2.1


def _blocks(stream: str, params: dict, trials: int, per_trial: float) -> list[tuple[float, Unit]]:
    """(predicted seconds, unit) of each block of ``trials`` trials of the stream."""
    return [
        (per_trial * count, Unit(block_key(stream, first, count, trials), {**params, "first": first, "trials": count}))
        for first, count in trial_blocks(trials, per_trial)
    ]


def _longest_first(planned: list[tuple[float, Unit]]) -> list[Unit]:
    return [unit for _, unit in sorted(planned, key=lambda cu: -cu[0])]


def costed_synthetic(**s) -> list[tuple[float, Unit]]:
    """(predicted seconds, unit) of every unit of ``synthetic`` (its grid ``s``), in planning order."""
    planned = []
    for figure in ("sbm", "small_world"):
        base = {"figure": figure, "n_arms": s["n_arms"], "entropy": INSTANCE_ENTROPY}
        horizon = s["horizon"][figure]
        trials = s["trials"]
        for g in SETTINGS[figure]["gammas"]:
            params = {**base, "part": "curves", "gamma": g, "horizon": horizon, "solver": "exact"}
            planned += _blocks(f"{figure},gamma={key(g)}", params, trials, _CURVES_COST[figure, g])
        params = {**base, "part": "apt", "gamma": None, "horizon": horizon, "solver": "exact"}
        planned += _blocks(f"{figure},apt", params, trials, _APT_COST[figure])
        for method, short in (("GrAPL", "grapl"), ("Algorithm 1", "alg1")):
            k = s["cg_trials"] if isinstance(s["cg_trials"], int) else s["cg_trials"][figure][short]
            for g in SETTINGS[figure]["gammas"]:
                params = {**base, "part": "cg_vs_exact", "method": method, "gamma": g, "horizon": horizon}
                planned += _blocks(f"{figure},cg,{short},gamma={key(g)}", params, k, _CG_COST[figure, short, g])
        params = {**base, "part": "gamma_star"}
        planned += _blocks(f"{figure},gamma_star", params, s["gamma_star_trials"], _GAMMA_STAR_COST)
    params = {
        "figure": "sbm",
        "n_arms": s["n_arms"],
        "entropy": INSTANCE_ENTROPY,
        "part": "ablation",
        "gamma": 10.0,
        "horizon": s["horizon"]["sbm"],
    }
    planned += _blocks("sbm,ablation,gamma=10", params, s["ablation_trials"], _ABLATION_COST)
    return planned


def plan_synthetic(**s) -> list[Unit]:
    return _longest_first(costed_synthetic(**s))


def _pick(profile: str, *names: str) -> dict:
    return {name: SCALE[profile][name] for name in names}


SYNTHETIC = Experiment(
    paper=PAPER,
    name="synthetic",
    title="SBM and small-world instances: E(t) curves, CG against exact, the printed index, gamma*",
    compute=compute_synthetic,
    plan=plan_synthetic,
    grid={
        profile: _pick(profile, "n_arms", "horizon", "trials", "cg_trials", "gamma_star_trials", "ablation_trials")
        for profile in SCALE
    },
    entropy=71571,
    chapter=CHAPTER,
    figures=(
        Figure("Fig. 1", "Two-block SBM: median and IQR of E(t) over 100 trials, GrAPL, Algorithm 1, APT"),
        Figure("Fig. 2", "Small-world graph: median and IQR of E(t) over 100 trials, GrAPL, Algorithm 1, APT"),
        Figure("solver panel", "CG (rtol 1e-5) against the exact solver on the first trials of Figs 1–2"),
        Figure("γ* table", "γ* (eq. 22 and two variants): the paper's values against ours"),
        Figure("ablation panel", "GrAPL with the index of the proofs against the printed index (SBM, γ = 10)"),
    ),
)


# Seconds of a Fig. 3 GrAPL unit, and per trial of Algorithm 1 (CG, by γ; exact) and of the
# no-graph baseline, by the records on the real graph (the stand-in costs at most as much; the
# karate club about 1 %); γ = 0.1 raised to what its blocks cost when recomputed under load.
_FIG3_COST = {
    "grapl": 40.0,
    "alg1": {"cg": {1e-7: 0.3, 1e-5: 0.35, 1e-3: 1.2, 1e-1: 4.5}, "exact": 0.45},
    "nograph": 0.07,
}


def costed_fig3(**s) -> list[tuple[float, Unit]]:
    """(predicted seconds, unit) of every unit of ``fig3_polblogs`` (its grid ``s``), in planning order."""
    cfg = SETTINGS["polblogs"]
    sizes = list(s["standin_sizes"])
    planned = []
    # The real graph (1,222 nodes) is paper scale only: the quick profile, under a minute, runs the
    # small stand-in, and the chapter says so.
    real = ("polblogs",) if s["real_graph"] else ()
    for data in (*real, "standin", "karate"):
        size = 0.01 if data == "karate" else 1.0
        stream = f"{data},grapl"
        params = {"data": data, "part": "grapl", "gammas": list(cfg["gammas"]), "stream": stream, "sizes": sizes}
        planned += _blocks(stream, params, 1, size * _FIG3_COST["grapl"])
        for g in cfg["plotted"]:
            # Algorithm 1 with CG (the figure) and with the exact solver, for the anomaly panel and
            # the solver columns of the Fig. 3 table: its pulls do not depend on the estimates, so
            # the two differ only in what CG's estimates cost (each stream draws its own 100
            # permutations: medians compare)
            for unit, solver in (("alg1", "cg"), ("alg1-exact", "exact")):
                stream = f"{data},{unit},gamma={key(g)}"
                params = {"data": data, "part": "alg1", "gammas": [g], "stream": stream, "sizes": sizes}
                if solver == "exact":
                    params["solver"] = "exact"
                per_trial = _FIG3_COST["alg1"]["cg"][g] if solver == "cg" else _FIG3_COST["alg1"]["exact"]
                planned += _blocks(stream, params, s["alg1_trials"], size * per_trial)
        stream = f"{data},nograph"
        params = {"data": data, "part": "nograph", "gammas": [None], "stream": stream, "sizes": sizes}
        planned += _blocks(stream, params, s["alg1_trials"], size * _FIG3_COST["nograph"])
    return planned


def plan_fig3(**s) -> list[Unit]:
    return _longest_first(costed_fig3(**s))


FIG3 = Experiment(
    paper=PAPER,
    name="fig3_polblogs",
    title="Political blogs (real, and its stand-in) and karate club: E(t), T = N, noise-free",
    compute=compute_fig3,
    plan=plan_fig3,
    grid={
        profile: {**_pick(profile, "standin_sizes", "alg1_trials"), "real_graph": profile == "full"}
        for profile in SCALE
    },
    entropy=FIG3_ENTROPY,
    chapter=CHAPTER,
    figures=(
        Figure("Fig. 3", "Political blogs (real graph) and karate club (real): E(t), CG solver"),
        Figure("stand-in panel", "The political-blogs stand-in (synthetic): E(t), CG solver"),
        Figure("anomaly panel", "The γ = 1e-7 anomaly: CG (rtol 1e-5) against the exact solver"),
    ),
)


def plan_theory(**s) -> list[Unit]:
    # Two signals: with amplitude 1 the bias term sigma*m of Lemma A.1 is large enough to hide the
    # noise term; with amplitude 0.1 the noise term decides, which exposes its sqrt(gamma) slip.
    units = [
        Unit(
            f"lemmas,amplitude={key(a)},gamma={key(g)}",
            {
                "check": "lemmas",
                "gamma": g,
                "amplitude": a,
                "runs": s["lemma_runs"],
                "n_arms": 50,
                "horizon": 300,
                "every": 30,
                "delta": 0.1,
            },
        )
        for a in (1.0, 0.1)
        for g in (0.01, 1.0, 100.0)
    ]
    units.append(
        Unit(
            "clique_bound",
            {
                "check": "clique_bound",
                "D": 4,
                "K": 5,
                "lam": 1e-5,
                "gamma": 10.0,
                "alpha": 1e-8,
                "eps": 0.1,
                "horizons": [10000, 30000, 100000],
                "runs": s["clique_runs"],
            },
        )
    )
    # Theorem 3.1 where its printed bound is far below 1 at small T: two 5-cliques with means
    # +-0.3 (tau = 0, eps = 0.1), a ridge small enough that the theorem's condition on
    # ||mu - tau||_{L_lambda} holds from T = 1, and a large gamma, the regime of the sqrt(gamma) slip.
    for g in (1e3, 1e4):
        units.append(
            Unit(
                f"clique_refute,gamma={key(g)}",
                {
                    "check": "clique_bound",
                    "D": 2,
                    "K": 5,
                    "lam": 1e-8,
                    "gamma": g,
                    "alpha": 1e-8,
                    "eps": 0.1,
                    "horizons": [10, 20, 50, 100],
                    "runs": s["refute_runs"],
                    "amplitude": 0.3,
                },
            )
        )
    return units


THEORY = Experiment(
    paper=PAPER,
    name="theory",
    title="Lemmas A.1–A.3 and Theorem 3.1, checked",
    compute=compute_theory,
    plan=plan_theory,
    grid={profile: _pick(profile, "lemma_runs", "clique_runs", "refute_runs") for profile in SCALE},
    entropy=71576,
    chapter=CHAPTER,
    figures=(Figure("theory tables", "Lemma A.1 coverage (printed and corrected), Lemmas A.2–A.3, Theorem 3.1"),),
)
