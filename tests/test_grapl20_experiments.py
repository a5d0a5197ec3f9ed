"""The GRAPL20 experiments' plans (units cut into blocks of trials, longest first) and the merge of
the blocks: two blocks merged give exactly what one block of the same trials gives."""

import numpy as np
import pytest

from bandit_lib.grapl20.experiments import (
    FIG3,
    FIG3_ENTROPY,
    SCALE,
    SYNTHETIC,
    costed_fig3,
    costed_synthetic,
)
from bandit_lib.grapl20.experiments.common import (
    UNIT_SECONDS,
    block_key,
    stream_of,
    stream_seed,
    trial_blocks,
)
from bandit_lib.grapl20.experiments.polblogs import compute_fig3
from bandit_lib.grapl20.experiments.synthetic import compute_synthetic
from bandit_lib.grapl20.report import merge_trial_blocks
from bandit_lib.infra.experiment import Unit
from bandit_lib.infra.store import normalise


@pytest.mark.parametrize("trials, per_trial", [(100, 1.6), (100, 3.6), (3, 16.3), (10, 0.1), (1, 100.0), (7, 10.0)])
def test_trial_blocks_cover_the_trials_in_order_within_the_unit_budget(trials, per_trial):
    blocks = trial_blocks(trials, per_trial)
    assert [first for first, _ in blocks] == list(np.cumsum([0] + [c for _, c in blocks[:-1]]))
    assert sum(c for _, c in blocks) == trials
    sizes = [c for _, c in blocks]
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    # the fewest blocks that fit, unless a single trial is already over the budget
    assert all(c * per_trial <= UNIT_SECONDS for c in sizes) or sizes == [1] * trials
    most = max(1, int(UNIT_SECONDS // per_trial))
    assert len(blocks) == -(-trials // most)


@pytest.mark.parametrize("profile", ["quick", "full"])
@pytest.mark.parametrize("costed, experiment", [(costed_synthetic, SYNTHETIC), (costed_fig3, FIG3)])
def test_plans_cut_streams_into_blocks_planned_longest_first(profile, costed, experiment):
    planned = costed(**experiment.parameters(profile))
    units = experiment.units(profile)
    assert [u.key for u in units] == [u.key for _, u in sorted(planned, key=lambda cu: -cu[0])]
    # a block of one trial cannot be cut further (Fig. 3's GrAPL runs: predicted 40 s)
    assert all(cost <= UNIT_SECONDS or u.params["trials"] == 1 for cost, u in planned)
    assert all(cost <= 45 for cost, _ in planned)
    streams: dict[str, list] = {}
    for unit in units:
        streams.setdefault(stream_of(unit.key), []).append(unit)
        assert unit.key == block_key(
            stream_of(unit.key), unit.params["first"], unit.params["trials"], unit.params["trials"]
        ) or unit.key.endswith(f",trials={unit.params['first']}-{unit.params['first'] + unit.params['trials'] - 1}")
    s = SCALE[profile]
    for stream, blocks in streams.items():
        blocks.sort(key=lambda u: u.params["first"])
        firsts = [u.params["first"] for u in blocks]
        counts = [u.params["trials"] for u in blocks]
        assert firsts == [sum(counts[:i]) for i in range(len(counts))]
        common = [{k: v for k, v in u.params.items() if k not in ("first", "trials")} for u in blocks]
        assert all(c == common[0] for c in common)
        part = blocks[0].params["part"]
        total = sum(counts)
        if experiment is SYNTHETIC and part in ("curves", "apt"):
            assert total == s["trials"]
        if experiment is FIG3:
            assert blocks[0].params["stream"] == stream
            assert total == (1 if part == "grapl" else s["alg1_trials"])
    if profile == "full":
        # the units the records put above a minute are cut
        keys = {u.key for u in units}
        big_units = {
            "synthetic": (
                "sbm,gamma=1",
                "sbm,gamma=10",
                "sbm,gamma=100",
                "small_world,gamma=1",
                "small_world,gamma=10000",
            ),
            "fig3_polblogs": ("polblogs,alg1,gamma=0.1", "standin,alg1,gamma=0.1", "polblogs,alg1,gamma=0.001"),
        }
        for big in big_units[experiment.name]:
            assert big not in keys and any(k.startswith(big + ",trials=") for k in keys)


def test_fig3_streams_take_the_seed_the_unsplit_unit_had():
    assert FIG3.entropy == FIG3_ENTROPY
    for unit in FIG3.units("full"):
        stream = unit.params["stream"]
        assert stream_seed(FIG3_ENTROPY, FIG3.name, stream).spawn_key == FIG3.seed(Unit(stream)).spawn_key


def _merged(compute, blocks, params, stream):
    results = []
    total = sum(count for _, count in blocks)
    for first, count in blocks:
        unit = Unit(block_key(stream, first, count, total), {**params, "first": first, "trials": count})
        # as the store gives it back: the JSON round trip of the payload
        results.append((unit, normalise(compute(FIG3.seed(unit), **unit.params))))
    return merge_trial_blocks(results)[stream]


@pytest.mark.parametrize("part", ["curves", "cg_vs_exact"])
def test_two_synthetic_blocks_merged_equal_one_block(part):
    params = {"figure": "small_world", "n_arms": 60, "entropy": 20200826, "part": part, "gamma": 100.0, "horizon": 150}
    if part == "curves":
        params["solver"] = "exact"
    else:
        params["method"] = "GrAPL"
    one = _merged(compute_synthetic, [(0, 3)], params, "small_world,gamma=100")
    two = _merged(compute_synthetic, [(0, 1), (1, 2)], params, "small_world,gamma=100")
    assert normalise(one) == normalise(two)
    assert one["params"]["trials"] == 3 and "first" not in one["params"]
    methods = ("GrAPL", "Algorithm 1") if part == "curves" else ("exact", "cg")
    assert set(one["curves"]) == set(methods)
    assert len(one["curves"][methods[0]]["ref"]["median"]) == len(one["grid"])


@pytest.mark.parametrize("part, solver", [("alg1", "cg"), ("nograph", "cg")])
def test_two_fig3_blocks_merged_equal_one_block(part, solver):
    stream = f"standin,{part}" + (",gamma=0.1" if part == "alg1" else "")
    params = {
        "data": "standin",
        "part": part,
        "gammas": [0.1] if part == "alg1" else [None],
        "stream": stream,
        "sizes": list(SCALE["quick"]["standin_sizes"]),
        "solver": solver,
    }
    one = _merged(compute_fig3, [(0, 4)], params, stream)
    two = _merged(compute_fig3, [(0, 2), (2, 2)], params, stream)
    assert normalise(one) == normalise(two)
    name = "0.1" if part == "alg1" else "none"
    assert [r["trial"] for r in one["trials"][name]] == [0, 1, 2, 3]
    # the trials differ from one another (each draws its own permutation; without a graph and
    # noise every pull fixes one arm, whatever the order)
    if part == "alg1":
        assert len({tuple(r["wrong_ref"]) for r in one["trials"][name]}) > 1


def test_merge_refuses_blocks_that_leave_a_gap():
    params = {
        "figure": "sbm",
        "n_arms": 40,
        "entropy": 1,
        "part": "apt",
        "gamma": None,
        "horizon": 60,
        "solver": "exact",
    }
    results = []
    for first, count in ((0, 1), (2, 1)):
        unit = Unit(f"sbm,apt,trials={first}-{first}", {**params, "first": first, "trials": count})
        results.append((unit, normalise(compute_synthetic(0, **unit.params))))
    with pytest.raises(ValueError, match="starts at 2, expected 1"):
        merge_trial_blocks(results)
