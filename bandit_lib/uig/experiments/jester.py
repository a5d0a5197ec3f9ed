"""UIG chapter, Fig. 8: the joke-recommendation replay.

On the Jester-like stand-in (:mod:`bandit_lib.uig.jester_like`), or on a local copy of Jester
dataset 1 named by the environment variable ``UIG_JESTER`` (read by
:func:`bandit_lib.uig.jester.load_jester`). Each repetition draws a training set (5% or 10% of the
users), estimates the side information and ε from it, and replays 20,000 other users in a random
order for every policy.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.seeding import derive, generator
from bandit_lib.tapes import decision_stream
from bandit_lib.uig.candidates import eliminate_partial
from bandit_lib.uig.ckl_ucb import CKLUCB
from bandit_lib.uig.domination import exploration_values
from bandit_lib.uig.experiments.common import CHAPTER, PAPER, blocks, timed
from bandit_lib.uig.jester import jester_summary, load_jester, normalise
from bandit_lib.uig.jester_like import jester_like
from bandit_lib.uig.lsdt_psi import LSDTPSI
from bandit_lib.uig.recommendation import pair_distances, replay, replay_outcome, select_epsilon, side_information
from bandit_lib.uig.ts import replay_ts_fast
from bandit_lib.uig.ucb1 import replay_ucb1_fast

JESTER_ENV = "UIG_JESTER"
JESTER_DATA_SEED = 20010401  # the stand-in data set is one fixed data set, like the real one
PROFILES = {
    "quick": {"n_users": 2000, "test": 1500, "reps": 2, "block": 2},
    "full": {"n_users": 24983, "test": 20000, "reps": 100, "block": 10},
}


JESTER_POLICIES = ("LSDT-PSI", "UCB1", "TS", "CKL-UCB", "UCB1 on B0")
JESTER_SPLITS = {0.05: 0.2, 0.10: 0.1}  # training fraction -> alpha (reproduction notes, row N11)


def jester_ratings(data: str, n_users: int) -> np.ndarray:
    """The ratings the experiment runs on: the stand-in, or a local copy of Jester dataset 1."""
    if data == "jester-like":
        return jester_like(JESTER_DATA_SEED, n_users=n_users)
    return load_jester(Path(data))


def compute_jester(
    seed,
    data: str,
    n_users: int,
    test: int,
    train: float,
    alpha: float,
    first: int,
    last: int,
    policies,
    lam: float = 1 / 32,
) -> dict:
    raw = jester_ratings(data, n_users)
    R = normalise(raw)
    n_train = round(train * len(R))
    if n_train + test > len(R):
        raise ValueError(f"{len(R)} users cannot hold {n_train} training and {test} test users")
    rows, traces = [], []
    for r in range(first, last):
        rep = derive(seed, "rep", r)
        users = generator(rep, "split").permutation(len(R))
        train_users, test_users = users[:n_train], users[n_train : n_train + test]
        d = pair_distances(R[train_users])
        (eps, trace), offline = timed(lambda: select_epsilon(d, alpha))
        S, D = side_information(d, eps, alpha)
        B0 = eliminate_partial(S, D)
        z = exploration_values(S[np.ix_(B0, B0)])
        test_ratings = R[test_users]
        joke_means = np.nanmean(test_ratings, axis=0)
        order = generator(rep, "order").permutation(test)
        row = {
            "rep": r,
            "train": train,
            "alpha": alpha,
            "eps": eps,
            "B0": len(B0),
            "best joke in B0": bool(np.argmax(joke_means) in B0),
            "best joke": float(joke_means.max()),
            "S edges": int(S.sum() // 2),
            "D edges": int(D.sum() // 2),
            "offline seconds": round(offline, 4),
        }
        for name in policies:
            (arms, users), elapsed = timed(lambda: jester_run(name, test_ratings, order, B0, S, eps, z, lam, rep))
            out = replay_outcome(test_ratings, arms, users)
            row[name] = out["mean_reward"]
            row[f"{name} valid"] = out["valid"]
            row[f"{name} seconds"] = round(elapsed, 3)
        rows.append(row)
        if r == first:
            traces.append({"rep": r, "trace": [[e, s] for e, s in trace]})
    summary = jester_summary(raw) if first == 0 else None
    return {"rows": rows, "traces": traces, "data": data, "summary": summary}


def jester_run(name: str, ratings, order, B0, S, eps: float, z, lam: float, seed) -> tuple[np.ndarray, np.ndarray]:
    """Replay of policy ``name`` (a JESTER_POLICIES entry): the arms and users of its valid events.

    UCB1 and TS run on their numba replay engines, which take the readable policies' decisions
    under :func:`bandit_lib.uig.recommendation.replay` (the tests check this).
    """
    stream = decision_stream(seed, name)
    if name == "UCB1":
        return replay_ucb1_fast(ratings, order, stream)
    if name == "UCB1 on B0":
        return replay_ucb1_fast(ratings, order, stream, arms=B0)
    if name == "TS":
        return replay_ts_fast(ratings, order, generator(seed, "policy", name))
    if name == "LSDT-PSI":
        policy = LSDTPSI(S, stream, candidates=B0, horizon=len(order), eps=eps, lam=lam, z=z)
    elif name == "CKL-UCB":
        policy = CKLUCB(S, eps=eps, kl="squared", metric="one_hop", init=True)
    else:
        raise ValueError(f"unknown Jester policy {name!r}; known: {JESTER_POLICIES}")
    out = replay(policy, ratings, order)
    return out["arms"], out["users"]


def plan_jester(**cfg) -> list[Unit]:
    data = os.environ.get(JESTER_ENV, "jester-like")
    return [
        Unit(
            f"train={train:g},reps={a}-{b - 1}",
            {
                "data": data,
                "n_users": cfg["n_users"],
                "test": cfg["test"],
                "train": train,
                "alpha": alpha,
                "first": a,
                "last": b,
                "policies": list(JESTER_POLICIES),
            },
        )
        for train, alpha in JESTER_SPLITS.items()
        for a, b in blocks(cfg["reps"], cfg["block"])
    ]


JESTER = Experiment(
    paper=PAPER,
    chapter=CHAPTER,
    name="jester",
    title="Joke recommendation replay (Jester-like stand-in)",
    compute=compute_jester,
    plan=plan_jester,
    grid={profile: PROFILES[profile] for profile in PROFILES},
    entropy=6080,
    figures=(Figure("Fig. 8", "Average rating per user on the Jester-like stand-in"),),
)
