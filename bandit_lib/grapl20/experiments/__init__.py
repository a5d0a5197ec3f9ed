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

Curves are stored as quantiles (25/50/75 %) over trials on a grid of t: every t up to 200, then
every 10th (every t for Fig. 3), finer than a figure's pixels.
"""

from __future__ import annotations

from bandit_lib.grapl20.experiments.common import INSTANCE_ENTROPY, SETTINGS, STANDIN_SEED, key  # noqa: F401 (the notebook's names)
from bandit_lib.grapl20.experiments.polblogs import compute_fig3, fig3_instance  # noqa: F401
from bandit_lib.grapl20.experiments.synthetic import compute_synthetic, make_instance  # noqa: F401
from bandit_lib.grapl20.experiments.theory import compute_theory
from bandit_lib.infra.experiment import Experiment, Figure, Unit

PAPER = "grapl20"
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


# Rough cost in seconds of one trial of a unit on the book's machine: units are planned longest first.
_CG_COST = {
    ("sbm", 1.0): 2.0,
    ("sbm", 10.0): 2.6,
    ("sbm", 100.0): 3.2,
    ("small_world", 1.0): 2.2,
    ("small_world", 100.0): 6.0,
    ("small_world", 1e4): 15.0,
}


def plan_synthetic(profile: str) -> list[Unit]:
    s = SCALE[profile]
    planned = []
    for figure in ("sbm", "small_world"):
        base = {"figure": figure, "n_arms": s["n_arms"], "entropy": INSTANCE_ENTROPY}
        horizon = s["horizon"][figure]
        trials = s["trials"]
        for g in SETTINGS[figure]["gammas"]:
            planned.append(
                (
                    1.6 * trials,
                    Unit(
                        f"{figure},gamma={key(g)}",
                        {**base, "part": "curves", "gamma": g, "trials": trials, "horizon": horizon, "solver": "exact"},
                    ),
                )
            )
        planned.append(
            (
                0.2 * trials,
                Unit(
                    f"{figure},apt",
                    {**base, "part": "apt", "gamma": None, "trials": trials, "horizon": horizon, "solver": "exact"},
                ),
            )
        )
        for method, short in (("GrAPL", "grapl"), ("Algorithm 1", "alg1")):
            k = s["cg_trials"] if isinstance(s["cg_trials"], int) else s["cg_trials"][figure][short]
            for g in SETTINGS[figure]["gammas"]:
                planned.append(
                    (
                        _CG_COST[figure, g] * k,
                        Unit(
                            f"{figure},cg,{short},gamma={key(g)}",
                            {
                                **base,
                                "part": "cg_vs_exact",
                                "method": method,
                                "gamma": g,
                                "trials": k,
                                "horizon": horizon,
                            },
                        ),
                    )
                )
        planned.append(
            (
                0.5 * s["gamma_star_trials"],
                Unit(f"{figure},gamma_star", {**base, "part": "gamma_star", "trials": s["gamma_star_trials"]}),
            )
        )
    planned.append(
        (
            1.6 * s["ablation_trials"],
            Unit(
                "sbm,ablation,gamma=10",
                {
                    "figure": "sbm",
                    "n_arms": s["n_arms"],
                    "entropy": INSTANCE_ENTROPY,
                    "part": "ablation",
                    "gamma": 10.0,
                    "trials": s["ablation_trials"],
                    "horizon": s["horizon"]["sbm"],
                },
            ),
        )
    )
    return [unit for _, unit in sorted(planned, key=lambda cu: -cu[0])]


SYNTHETIC = Experiment(
    paper=PAPER,
    name="synthetic",
    title="SBM and small-world instances: E(t) curves, CG against exact, the printed index, gamma*",
    compute=compute_synthetic,
    plan=plan_synthetic,
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


# Rough cost in seconds of a Fig. 3 unit (GrAPL, no graph) or of one trial of Algorithm 1.
_FIG3_COST = {"grapl": 10.0, "nograph": 0.1, "alg1": {1e-7: 0.2, 1e-5: 0.25, 1e-3: 0.8, 1e-1: 1.6}}


def plan_fig3(profile: str) -> list[Unit]:
    s = SCALE[profile]
    cfg = SETTINGS["polblogs"]
    units = []
    # The real graph (1,222 nodes) is paper scale only: the quick profile, under a minute, runs the
    # small stand-in, and the chapter says so.
    real = ("polblogs",) if profile == "full" else ()
    for data in (*real, "standin", "karate"):
        sizes = list(s["standin_sizes"])
        units.append(
            Unit(
                f"{data},grapl",
                {"data": data, "part": "grapl", "gammas": list(cfg["gammas"]), "trials": 1, "sizes": sizes},
            )
        )
        for g in cfg["plotted"]:
            units.append(
                Unit(
                    f"{data},alg1,gamma={key(g)}",
                    {"data": data, "part": "alg1", "gammas": [g], "trials": s["alg1_trials"], "sizes": sizes},
                )
            )
            # Algorithm 1 with the exact solver, for the anomaly panel and the solver columns of the
            # Fig. 3 table: its pulls do not depend on the estimates, so the two units differ only
            # in what CG's estimates cost (each unit draws its own 100 permutations: medians compare)
            units.append(
                Unit(
                    f"{data},alg1-exact,gamma={key(g)}",
                    {
                        "data": data,
                        "part": "alg1",
                        "gammas": [g],
                        "trials": s["alg1_trials"],
                        "sizes": sizes,
                        "solver": "exact",
                    },
                )
            )
        units.append(
            Unit(
                f"{data},nograph",
                {"data": data, "part": "nograph", "gammas": [None], "trials": s["alg1_trials"], "sizes": sizes},
            )
        )

    def cost(unit: Unit) -> float:
        p = unit.params
        size = 0.01 if p["data"] == "karate" else 1.0
        if p["part"] == "alg1":
            per_trial = 0.3 if p.get("solver") == "exact" else _FIG3_COST["alg1"][p["gammas"][0]]
            return size * per_trial * p["trials"]
        return size * _FIG3_COST[p["part"]]

    return sorted(units, key=lambda u: -cost(u))


FIG3 = Experiment(
    paper=PAPER,
    name="fig3_polblogs",
    title="Political blogs (real, and its stand-in) and karate club: E(t), T = N, noise-free",
    compute=compute_fig3,
    plan=plan_fig3,
    entropy=71574,
    chapter=CHAPTER,
    figures=(
        Figure("Fig. 3", "Political blogs (real graph) and karate club (real): E(t), CG solver"),
        Figure("stand-in panel", "The political-blogs stand-in (synthetic): E(t), CG solver"),
        Figure("anomaly panel", "The γ = 1e-7 anomaly: CG (rtol 1e-5) against the exact solver"),
    ),
)


def plan_theory(profile: str) -> list[Unit]:
    s = SCALE[profile]
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
    entropy=71576,
    chapter=CHAPTER,
    figures=(Figure("theory tables", "Lemma A.1 coverage (printed and corrected), Lemmas A.2–A.3, Theorem 3.1"),),
)
