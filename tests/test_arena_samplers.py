"""The arena's adaptive samplers (bandit_lib.arena.tracking, toptwo, frank_wolfe and their block engine):
fast engines against the references pull for pull under both stops, the schedules, argument errors,
the game solver, and the allocation measurements of bandit_lib.arena.efficiency."""

import itertools
import math

import numpy as np
import pytest

from bandit_lib.arena import _samplers_engine as eng
from bandit_lib.arena import efficiency as ef
from bandit_lib.arena.frank_wolfe import frank_wolfe
from bandit_lib.arena.glr import kk21_gaussian_threshold
from bandit_lib.arena.lower_bound import leave_one_out_thresholds
from bandit_lib.arena.toptwo import top_two
from bandit_lib.arena.tracking import track_and_stop
from bandit_lib.ksigma import ksigma_outliers
from bandit_lib.runner import Instance
from bandit_lib.tapes import bernoulli_tape, gaussian_tape, replay_tape


def _dt(tape, **kw):
    return track_and_stop(tape, weights="gaussian", **{"check_every": tape.n_arms, "sub_gaussian": 0.5, **kw})


def _ct(tape, **kw):
    return _dt(tape, tracking="C", **kw)


def _tt_fixed(tape, **kw):
    return top_two(tape, rule="fixed", **kw)


SAMPLERS = {
    "d_tracking": _dt,
    "c_tracking": _ct,
    "top_two": top_two,
    "top_two_fixed": _tt_fixed,
    "frank_wolfe": frank_wolfe,
}
MU5 = np.array([0.1, 0.2, 0.3, 0.25, 0.9])


def _case(seed: int, stop: str):
    """A random small instance: (tape factory, keyword arguments). Bernoulli tapes (sub_gaussian=1/2),
    Gaussian tapes with sub_gaussian=1/2 or (GLR only) their own sigma; tied arms, an arm near the
    threshold, a clear outlier; short caps, and the block length and re-solve schedule varied. Seeds 7, 17, ...
    give an instance easy enough that both stops fire before the cap."""
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(3, 11))
    k = float(rng.uniform(0.3, 0.95) * math.sqrt(n - 1))
    means = rng.uniform(0.05, 0.95, n)
    if seed % 3 == 0:
        means[rng.integers(n)] = 1.0
    if seed % 5 == 0:
        means[: n // 2] = means[0]
    if seed % 4 == 1:
        j = int(rng.integers(n))
        means[j] = float(np.clip(leave_one_out_thresholds(means, k)[j] + 1e-3, 0.0, 1.0))
    kw = {"k": k, "delta": float(rng.choice([0.01, 0.1, 0.3])), "cap": int(rng.integers(2 * n, 1200)), "stop": stop}
    kw["check_every"] = [None, 1, 7][seed % 3]
    if kw["check_every"] == 1:  # the reference then checks the stop after every pull
        kw["cap"] = min(kw["cap"], 300)
    if seed % 10 == 7:  # a clear outlier on a quiet Gaussian tape: both stops fire well within the cap
        means = np.array([0.1, 0.15, 0.2, 0.12, 0.95])
        kw.update(k=1.5, delta=0.1, cap=20_000, check_every=None if kw["check_every"] == 1 else kw["check_every"])
        return (lambda: gaussian_tape(means, 0.2, seed)), kw
    kind = seed % 3
    if kind == 0:
        return (lambda: bernoulli_tape(means, seed)), kw
    sigma = float(rng.uniform(0.1, 0.5))
    if kind == 1 and stop == "glr":
        kw["sub_gaussian"] = None
    return (lambda: gaussian_tape(means, sigma, seed)), kw


def _extra(name: str, seed: int, kw: dict) -> dict:
    out = {}
    if name.startswith("top_two") or name == "frank_wolfe":
        out["every"] = [None, 1, 3][seed % 3]
        out["lazy"] = [0.0, 1 / 64, 0.5][(seed // 2) % 3]
    if name == "top_two_fixed":
        out["beta"] = [0.5, 0.3, 0.8][seed % 3]
    if name == "frank_wolfe":
        out["game_steps"] = [eng.GAME_STEPS, 50][seed % 2]
    if name in ("d_tracking", "c_tracking"):
        if kw["check_every"] is None:
            del kw["check_every"]  # their default is n here (_dt)
        out["ratio"] = [2.0, 1.3][seed % 2]
    return out


def _same(name, seed, stop, monkeypatch=None, margins=()):
    tape, kw = _case(seed, stop)
    kw.update(_extra(name, seed, kw))
    run = SAMPLERS[name]
    ref_tape = tape()
    ref = run(ref_tape, engine="reference", **kw)
    fast_tape = tape()
    fast = run(fast_tape, engine="fast", **kw)
    assert ref.info["engine"] == "reference" and fast.info["engine"] == "fast"
    assert ref.same_decisions(fast), (name, seed, stop, ref.pulls, fast.pulls, ref.counts, fast.counts)
    assert np.array_equal(fast_tape.counts, ref_tape.counts)  # the tape is consumed as the reference does
    for key in ("solves", "forced", "checks"):
        assert ref.info[key] == fast.info[key], (name, seed, key)
    for margin in margins:  # every GLR check by glr.should_stop (inf), or none handed over (0)
        monkeypatch.setattr(eng, "STOP_MARGIN", margin)
        assert ref.same_decisions(run(tape(), engine="fast", **kw)), (name, seed, margin)
    return ref


@pytest.mark.parametrize("name", SAMPLERS)
@pytest.mark.parametrize("stop", ["glr", "cs"])
def test_fast_engine_takes_the_references_decisions(name, stop, monkeypatch):
    outs = [
        _same(name, seed, stop, monkeypatch, margins=(math.inf, 0.0) if stop == "glr" and seed == 1 else ())
        for seed in range(3)
    ]
    assert all(o.counts.sum() == o.pulls for o in outs)


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLERS)
def test_fast_engine_takes_the_references_decisions_on_many_tapes(name, monkeypatch):
    outs = [_same(name, seed, ["glr", "cs"][seed % 2]) for seed in range(3, 23)]
    # the set covers stopped and capped runs, and forced pulls
    assert any(o.capped for o in outs) and any(not o.capped for o in outs)
    assert any(o.info["forced"] > 0 for o in outs)


@pytest.mark.parametrize("name", SAMPLERS)
def test_custom_threshold_is_asked_at_every_check(name):
    calls = []

    def threshold(t, n, delta):
        calls.append(t)
        return kk21_gaussian_threshold(t, n, delta)

    outs = []
    for engine in ("reference", "fast"):
        calls.clear()
        outs.append(SAMPLERS[name](Instance(MU5).tape(3), k=1.2, delta=0.1, threshold=threshold, engine=engine))
        assert calls == list(range(5, outs[-1].pulls + 1, 5))
    assert outs[0].same_decisions(outs[1])
    default = SAMPLERS[name](Instance(MU5).tape(3), k=1.2, delta=0.1)
    assert default.same_decisions(outs[1])


@pytest.mark.parametrize("name", SAMPLERS)
@pytest.mark.parametrize("stop", ["glr", "cs"])
def test_structure_of_a_run(name, stop):
    out = SAMPLERS[name](Instance(MU5).tape(0), k=1.2, delta=0.1, stop=stop)
    assert not out.capped and out.pulls % 5 == 0 and out.pulls == out.counts.sum() and (out.counts >= 1).all()
    assert np.array_equal(out.output, ksigma_outliers(MU5, 1.2)) and out.info["stop"] == stop
    if stop == "glr":
        assert out.info["Z"] > out.info["threshold"] == pytest.approx(kk21_gaussian_threshold(out.pulls, 5, 0.1))
    else:
        assert out.info["beta_theta"] > 0 and out.info["checks"] == out.pulls // 5
    capped = SAMPLERS[name](Instance(MU5).tape(0), k=1.2, delta=0.1, cap=12, stop=stop)
    assert capped.capped and capped.pulls == 12
    none = SAMPLERS[name](Instance(MU5).tape(0), k=1.2, delta=0.1, cap=2000, stop="none")
    assert none.capped and none.pulls == 2000


def test_resolve_schedules():
    """Top-Two and Frank-Wolfe re-solve every ``every`` pulls while lazy * t is smaller, then once per
    growth of t by the fraction lazy; D-tracking at t = n, 2n, 4n, ... (ratio 2)."""
    tape = gaussian_tape(MU5, 0.5, 1)
    for run in (top_two, frank_wolfe):
        every_block = run(tape.rewind(), k=1.2, delta=0.1, cap=5000, stop="none", lazy=0.0)
        assert 900 <= every_block.info["solves"] <= 999  # one per block of 5 pulls (not the blocks of forced pulls)
        lazy = run(tape.rewind(), k=1.2, delta=0.1, cap=5000, stop="none", lazy=0.1)
        assert lazy.info["solves"] <= 10 * (1 + math.log(5000 * 0.1 / 5)) + 1  # (1 + ln(lazy T / every)) / lazy
    dt = _dt(tape.rewind(), k=1.2, delta=0.1, cap=5 * 2**10, stop="none")
    assert dt.info["w_updates"] == 10  # at t = 5, 10, ..., 5 * 2^9 (the run ends at the cap, 5 * 2^10)


def test_the_trajectory_is_the_run_read_on_the_way():
    tape = gaussian_tape(MU5, 0.5, 2)
    for sampler, params in ef.SAMPLERS.values():
        a = eng.sampler_setup(tape, 5, 1.2, 0.1, 3000, 0.5, kk21_gaussian_threshold, 5, 5, "none", "triangle")
        counts = eng.run_trajectory(sampler, tape.rewind(), a, params, [100, 1000, 3000])
        for cap, c in zip([100, 1000, 3000], counts, strict=True):
            a_cap = dict(a, cap=cap)
            out = eng.run_fast(sampler, tape.rewind(), a_cap, params, custom=False)
            assert np.array_equal(out.counts, c), (sampler, cap)


def test_allocation_efficiency_of_round_robin_is_the_uniform_allocation():
    T = ef.characteristic_time(MU5, 1.2)
    assert T[0] <= T[1] <= T[0] * (1 + 1e-3)
    r = ef.allocation_efficiency(MU5, 1.2, "round robin", [100, 1000], T_star=T)
    uniform = ef.allocation_value(MU5, 1.2, np.ones(5)) * T[0]
    assert r["efficiency_lo"] == pytest.approx([uniform, uniform])
    # the book's samplers beat it and approach 1 (stop off, 10^5 pulls; measured 0.99-1.00)
    for name in ("D-Tracking", "Top-Two", "Frank–Wolfe"):
        e = ef.allocation_efficiency(MU5, 1.2, name, [100_000], T_star=T)["efficiency_hi"][0]
        assert uniform < 0.95 < e <= 1.0 + 1e-9, (name, e)
    fixed = ef.allocation_efficiency(MU5, 1.2, "Top-Two (β = ½)", [100_000], T_star=T)["efficiency_hi"][0]
    assert fixed < 0.95  # beta = 1/2 gives the binding arm half of the pulls (measured 0.91)


def test_stopping_ratio_runs_and_counts_errors():
    r = ef.stopping_ratio(MU5, 1.2, "Top-Two", 1e-20, 3, seed=1)
    assert len(r["tau"]) == 3 and r["errors"] == 0 and 0.5 < r["ratio_lo"] <= r["ratio_hi"] < 3


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, rule="fixed", beta=0.0), "beta=0.0"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, beta=1.0), "beta=1.0"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, beta="a"), "beta='a'"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, rule="best"), "rule='best'"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, lazy=2.0), "lazy=2.0"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, every=0), "every=0"),
        (lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, stop="x"), "stop='x'"),
        (
            lambda: top_two(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, stop="cs", interval="x"),
            "interval='x'",
        ),
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
        (lambda: top_two(gaussian_tape([0.1, 0.2, 0.9], 1.0, 0), k=0.5, delta=0.1, stop="cs"), "sigma=0.5"),
        (lambda: track_and_stop(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, stop="cs"), "stop='cs'"),
        (lambda: track_and_stop(bernoulli_tape([0.1, 0.2, 0.9], 0), k=0.5, delta=0.1, steps=0), "steps=0"),
        (lambda: ef.allocation_efficiency(MU5, 1.2, "RR", [100]), "sampler='RR'"),
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


def test_block_rounding_and_forced_exploration():
    x = np.empty(4, dtype=np.int64)
    for y, total in (([0.2, 0.0, 0.5, 0.3], 7), ([1.0, 1.0, 1.0, 1.0], 10), ([0.0, 0.0, 3.0, 0.0], 5)):
        eng.round_nb(np.array(y), total, x)
        share = total * np.array(y) / sum(y)
        assert x.sum() == total and (x >= 0).all() and np.all(np.abs(x - share) < 1)
    f = np.empty(4, dtype=np.int64)
    counts = np.array([1, 30, 2, 40])
    assert eng.forced_nb(counts, 400, 100, f, np.empty(4)) == 33 and list(f) == [17, 0, 16, 0]  # up to ceil(20 - 2)
    assert eng.forced_nb(counts, 400, 10, f, np.empty(4)) == 10 and f.sum() == 10 and f[1] == f[3] == 0
