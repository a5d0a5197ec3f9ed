"""Shared settings and helpers of the GRAPL20 computations (:mod:`bandit_lib.grapl20.experiments`).

The paper's parameters per experiment; how a unit's trials are cut into blocks (units of at most
:data:`UNIT_SECONDS`), and what a block stores of each trial: its error counts on a grid of t, from
which the report layer (:func:`bandit_lib.grapl20.report.merge_trial_blocks`) draws the quantiles
over all trials once the blocks are merged; and the times at which a curve first reaches a level.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.seeding import derive

PAPER = "grapl20"
INSTANCE_ENTROPY = 20200826  # shared by every unit drawn on the instances of Figs 1-2
STANDIN_SEED = 2005  # the one stand-in graph of Fig. 3 (Adamic & Glance, 2005)
LAM, EPS = 1e-3, 0.01

SETTINGS = {
    # figure: tau, alpha, gammas, reward, noise R
    "sbm": {"tau": 0.0, "alpha": 1.0, "gammas": (1.0, 10.0, 100.0), "R": 2.0},
    "small_world": {"tau": 0.5, "alpha": 1e-8, "gammas": (1.0, 100.0, 1e4), "R": 0.5},
    "polblogs": {
        "tau": 0.5,
        "alpha": 1e-8,
        "gammas": (1e-9, 1e-7, 1e-5, 1e-3, 1e-1, 10.0),
        "plotted": (1e-7, 1e-5, 1e-3, 1e-1),
    },
}


def key(x: float) -> str:
    """A number as it appears in unit keys and payload keys (1e-07, 0.1, 10000)."""
    return f"{x:g}"


def t_grid(horizon: int, dense: int = 200, step: int = 10) -> np.ndarray:
    """t = 1..dense, then every ``step``-th t, and T itself."""
    t = np.concatenate([np.arange(1, min(dense, horizon) + 1), np.arange(dense + step, horizon + 1, step), [horizon]])
    return np.unique(t)


#: Most seconds one unit should take by the cost model (the records' costs per trial): a unit
#: whose trials would take longer is cut into blocks of trials, each a unit of its own.
UNIT_SECONDS = 30.0


def trial_blocks(trials: int, seconds_per_trial: float) -> list[tuple[int, int]]:
    """``[(first, count), ...]``: trials 0..trials−1 cut into the fewest blocks whose predicted
    cost is at most :data:`UNIT_SECONDS` each (one block if all fit), their sizes differing by at
    most one (the larger ones first)."""
    most = max(1, math.floor(UNIT_SECONDS / seconds_per_trial))  # trials in one block, at most
    n_blocks = math.ceil(trials / most)
    base, extra = divmod(trials, n_blocks)
    blocks, first = [], 0
    for b in range(n_blocks):
        count = base + (1 if b < extra else 0)
        blocks.append((first, count))
        first += count
    return blocks


def block_key(stream: str, first: int, count: int, trials: int) -> str:
    """The key of a block: the stream (the key the unsplit unit had) if one block holds all the
    trials, else ``<stream>,trials=<first>-<last>``."""
    return stream if count == trials else f"{stream},trials={first}-{first + count - 1}"


def stream_of(key: str) -> str:
    """The stream a unit key belongs to (the key without its ``,trials=a-b`` block suffix)."""
    return key.split(",trials=", 1)[0]


def stream_seed(entropy: int, experiment: str, stream: str) -> np.random.SeedSequence:
    """The seed the unsplit unit ``stream`` of ``experiment`` would have had
    (``Experiment.seed`` of :mod:`bandit_lib.infra.experiment`): a block draws its trials' randomness
    from it, by trial number, so that a trial does not depend on how the trials are cut."""
    return derive(entropy, PAPER, experiment, stream)


def trial_record(trial: int, run, grid: np.ndarray) -> dict:
    """What a block keeps of one run for the curves: the numerators of E_ref and eq. 23 at the t of
    ``grid``, and eq. 23's denominator (E_ref's is the number of arms)."""
    return {
        "trial": trial,
        "wrong_ref": run.wrong_ref[grid - 1],
        "wrong_paper": run.wrong_paper[grid - 1],
        "n_judged_paper": run.n_judged_paper,
    }


def first_time_at_most(curve: np.ndarray, level: float) -> int | None:
    """The first t (1-based) with curve[t-1] <= level, or None."""
    hits = np.flatnonzero(curve <= level + 1e-12)
    return int(hits[0]) + 1 if hits.size else None


def last_time_above(curve: np.ndarray, level: float) -> int:
    """The last t at which the curve is above ``level`` (0 if never): from t + 1 on it stays at or below."""
    above = np.flatnonzero(curve > level + 1e-12)
    return int(above[-1]) + 1 if above.size else 0


def trial_row(trial, method, gamma, e_ref, e_paper, run):
    return {
        "trial": trial,
        "method": method,
        "gamma": gamma,
        "E_ref_final": float(e_ref[-1]),
        "E_paper_final": float(e_paper[-1]),
        "E_ref_mean": float(e_ref.mean()),
        "E_paper_mean": float(e_paper.mean()),
        "first_1pct_ref": first_time_at_most(e_ref, 0.01),
        "last_above_1pct_ref": last_time_above(e_ref, 0.01),
        "cg_iterations_mean": None if run.cg_iterations is None else float(run.cg_iterations.mean()),
    }
