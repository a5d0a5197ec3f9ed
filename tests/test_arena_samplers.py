"""Top-Two and Frank-Wolfe sampling with the GLR stop (bandit_lib.arena.toptwo, frank_wolfe): fast engines
against the references pull for pull, delta-correctness, argument errors, the game solver."""

import itertools
import math

import numpy as np
import pytest

from bandit_lib.arena import _samplers_engine as eng
from bandit_lib.arena.frank_wolfe import frank_wolfe
from bandit_lib.arena.glr import kk21_gaussian_threshold
from bandit_lib.arena.lower_bound import _arm_values, leave_one_out_thresholds
from bandit_lib.arena.toptwo import top_two
from bandit_lib.ksigma import ksigma_outliers
from bandit_lib.runner import Instance
from bandit_lib.tapes import bernoulli_tape, gaussian_tape, replay_tape

SAMPLERS = {"top_two": top_two, "frank_wolfe": frank_wolfe}


def _case(seed: int):
    """A random small instance: (tape factory, keyword arguments). Bernoulli tapes (sub_gaussian=1/2),
    Gaussian tapes with their own sigma or with sub_gaussian=1/2; tied arms, an arm near the
    threshold, a clear outlier; short caps (capped runs) and the lazy / check schedules varied."""
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(3, 13))
    k = float(rng.uniform(0.3, 0.95) * math.sqrt(n - 1))
    means = rng.uniform(0.05, 0.95, n)
    if seed % 3 == 0:
        means[rng.integers(n)] = 1.0
    if seed % 5 == 0:
        means[: n // 2] = means[0]
    if seed % 4 == 1:
        j = int(rng.integers(n))
        means[j] = float(np.clip(leave_one_out_thresholds(means, k)[j] + 1e-3, 0.0, 1.0))
    kw = {"k": k, "delta": float(rng.choice([0.01, 0.1, 0.3])), "cap": int(rng.integers(n, 1500))}
    kw["every"] = [None, 1, 3][seed % 3]
    kw["check_every"] = [None, 1, 7][(seed // 3) % 3]
    if kw["check_every"] == 1:  # the reference then evaluates the GLR statistic after most pulls
        kw["cap"] = min(kw["cap"], 300)
    kind = seed % 3
    if kind == 0:
        return (lambda: bernoulli_tape(means, seed)), kw
    sigma = float(rng.uniform(0.1, 0.5))
    if kind == 1:
        kw["sub_gaussian"] = None
    return (lambda: gaussian_tape(means, sigma, seed)), kw


def _extra(name: str, seed: int) -> dict:
    if name == "top_two":
        return {"beta": [0.5, 0.3, 0.8][seed % 3]}
    return {"game_steps": [eng.GAME_STEPS, 50][seed % 2]}


def _same(name, seed, monkeypatch=None, margins=()):
    tape, kw = _case(seed)
    kw.update(_extra(name, seed))
    run = SAMPLERS[name]
    ref_tape = tape()
    ref = run(ref_tape, engine="reference", **kw)
    fast_tape = tape()
    fast = run(fast_tape, engine="fast", **kw)
    assert ref.same_decisions(fast), (name, seed, ref.pulls, fast.pulls, ref.counts, fast.counts)
    assert np.array_equal(fast_tape.counts, ref_tape.counts)  # the tape is consumed as the reference does
    assert ref.info["solves"] == fast.info["solves"] and ref.info["forced"] == fast.info["forced"]
    for margin in margins:  # every check by glr.should_stop (inf), or none (0)
        monkeypatch.setattr(eng, "STOP_MARGIN", margin)
        assert ref.same_decisions(run(tape(), engine="fast", **kw)), (name, seed, margin)
    return ref


@pytest.mark.parametrize("name", SAMPLERS)
@pytest.mark.parametrize("seed", range(5))
def test_fast_engine_takes_the_references_decisions(name, seed, monkeypatch):
    _same(name, seed, monkeypatch, margins=(math.inf, 0.0))


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLERS)
def test_fast_engine_takes_the_references_decisions_on_many_tapes(name, monkeypatch):
    outs = [_same(name, seed, monkeypatch, margins=(math.inf,) if seed % 4 == 0 else ()) for seed in range(5, 45)]
    # the set covers stopped and capped runs, and forced pulls
    assert any(o.capped for o in outs) and any(not o.capped for o in outs)
    assert any(o.info["forced"] > 0 for o in outs)


@pytest.mark.parametrize("name", SAMPLERS)
def test_custom_threshold_is_asked_at_every_check(name):
    calls = []

    def threshold(t, n, delta):
        calls.append(t)
        return kk21_gaussian_threshold(t, n, delta)

    mu = np.array([0.1, 0.2, 0.3, 0.25, 0.9])
    outs = []
    for engine in ("reference", "fast"):
        calls.clear()
        outs.append(SAMPLERS[name](Instance(mu).tape(3), k=1.2, delta=0.1, threshold=threshold, engine=engine))
        assert calls == list(range(5, outs[-1].pulls + 1, 5))
    assert outs[0].same_decisions(outs[1])
    default = SAMPLERS[name](Instance(mu).tape(3), k=1.2, delta=0.1)
    assert default.same_decisions(outs[1])


@pytest.mark.parametrize("name", SAMPLERS)
def test_structure_of_a_run(name):
    mu = np.array([0.1, 0.2, 0.3, 0.25, 0.9])
    out = SAMPLERS[name](Instance(mu).tape(0), k=1.2, delta=0.1)
    assert not out.capped and out.pulls % 5 == 0 and out.pulls == out.counts.sum() and (out.counts >= 1).all()
    assert out.info["Z"] > out.info["threshold"] == pytest.approx(kk21_gaussian_threshold(out.pulls, 5, 0.1))
    assert np.array_equal(out.output, ksigma_outliers(mu, 1.2))
    # every = 1 re-solves at every non-forced step
    lazy1 = SAMPLERS[name](Instance(mu).tape(0), k=1.2, delta=0.1, every=1)
    assert lazy1.info["solves"] == lazy1.pulls - 5 - lazy1.info["forced"]
    capped = SAMPLERS[name](Instance(mu).tape(0), k=1.2, delta=0.1, cap=12)
    assert capped.capped and capped.pulls == 12


def test_values_match_the_eigh_solver_and_prune_exactly():
    rng = np.random.default_rng(5)
    for _ in range(20):
        n = int(rng.integers(3, 12))
        k = float(rng.uniform(0.3, 0.95) * math.sqrt(n - 1))
        mu = rng.uniform(0, 1, n)
        N = rng.integers(1, 200, n).astype(float)
        D = N / 0.5
        ref = _arm_values(mu, N, k, "gaussian", 0.5, None).values
        outlier = eng.outlier_mask(mu, k)
        for radius in (0.0, 0.05, 1.0):
            values, j = eng.solve_values(mu, D, k, outlier, radius)
            assert j == int(np.argmin(ref))
            inside = ref <= (1 + radius) * ref.min() * (1 - 1e-9)
            assert np.isfinite(values[inside]).all()  # every arm within the radius is solved ...
            solved = np.isfinite(values)
            np.testing.assert_allclose(values[solved], ref[solved], rtol=1e-7, atol=1e-12)  # ... exactly


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLERS)
def test_delta_correct_on_bernoulli_tapes(name):
    """1000 runs at n = 5, delta = 0.1: no error (the KK21 threshold is conservative), no capped run."""
    mu = (0.1, 0.2, 0.3, 0.25, 0.9)
    truth = ksigma_outliers(np.array(mu), 1.2)
    outs = [SAMPLERS[name](Instance(mu).tape(seed), k=1.2, delta=0.1) for seed in range(1000)]
    assert not any(o.capped for o in outs)
    assert sum(not np.array_equal(o.output, truth) for o in outs) == 0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, beta=0.0), "beta=0.0"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, beta=1.0), "beta=1.0"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, beta="a"), "beta='a'"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, every=0), "every=0"),
        (lambda: frank_wolfe(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, every=1.5), "every=1.5"),
        (lambda: frank_wolfe(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, check_every=0), "check_every=0"),
        (lambda: frank_wolfe(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, game_steps=0), "game_steps=0"),
        (lambda: frank_wolfe(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, engine="x"), "engine='x'"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, sub_gaussian=None), "bernoulli"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, sub_gaussian=-1.0), "sub_gaussian"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=1.5, delta=0.1), "k=1.5"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=1.0), "delta=1.0"),
        (lambda: frank_wolfe(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, cap=2), "cap=2"),
        (lambda: frank_wolfe(replay_tape([[0.0, 1.0]] * 3, 0), k=0.5, delta=0.1), "replay"),
        (lambda: frank_wolfe(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, threshold=3.0), "threshold=3.0"),
        (lambda: eng.game(np.ones((2, 3)), np.ones(4) / 4), "G.shape=(2, 3)"),
    ],
)
def test_argument_errors_name_the_bad_value(call, message):
    with pytest.raises((ValueError, TypeError)) as err:
        call()
    assert message in str(err.value)


def _grid_value(G, w, step):
    """max over a grid of the simplex (step ``step``) of min_r <z - w, G_r>."""
    n = len(w)
    ticks = int(round(1 / step))
    best = -math.inf
    for c in itertools.product(range(ticks + 1), repeat=n - 1):
        if sum(c) <= ticks:
            z = np.append(np.array(c), ticks - sum(c)) / ticks
            best = max(best, float(np.min(G @ (z - w))))
    return best


@pytest.mark.parametrize("n, m, step", [(3, 2, 0.005), (3, 3, 0.005), (4, 2, 0.02), (4, 3, 0.02), (3, 1, 0.01)])
def test_game_solver_against_a_grid(n, m, step):
    rng = np.random.default_rng(10 * n + m)
    for _ in range(5):
        G = rng.exponential(1.0, (m, n))
        w = rng.dirichlet(np.ones(n))
        z, value = eng.game(G, w)
        assert z.min() >= 0 and z.sum() == pytest.approx(1.0)
        assert value == pytest.approx(float(np.min(G @ (z - w))))
        A = G - (G @ w)[:, None]
        span = A.max() - A.min()
        grid = _grid_value(G, w, step)
        assert value <= grid + np.abs(A).max() * n * step  # the grid is within n * step (l1) of any z
        assert value >= grid - 0.005 * span


def test_game_solver_degenerate_payoff_is_uniform():
    z, value = eng.game(np.ones((2, 4)), np.full(4, 0.25))
    assert np.allclose(z, 0.25) and value == 0.0
