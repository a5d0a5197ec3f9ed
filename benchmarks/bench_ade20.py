"""ADE (ade20): pulls per second of the per-pull reference and of the numba engine, at n = 100 and
n = 1000 on the paper's synthetic instances (uniform means, k = 2.5, Delta_min in [0.1, 0.2]).

The reference is run up to a pull cap (it would need hours for a whole run); the fast engine runs
to the same cap and, separately, to the end of the run. Both make the same decisions (checked here
once more), so pulls per second compare like for like."""

from bandit_lib.ade20.ade import ade, ade_reference
from bandit_lib.ade20.instances import uniform_window
from bandit_lib.runner import Instance
from benchmarks.timing import compare


def run() -> list[dict]:
    rows = []
    for n, ref_cap in ((100, 200_000), (1000, 40_000)):
        means = uniform_window(n, 2.5, 0.1, 0.2, 1, "bench").means
        tape = Instance(means).tape(1)
        kw = dict(k=2.5, delta=0.1)
        ref_out = ade_reference(tape.rewind(), cap=ref_cap, **kw)
        fast_capped = ade(tape.rewind(), cap=ref_cap, **kw)
        assert ref_out.same_decisions(fast_capped), "the engines disagree"
        full = ade(tape.rewind(), **kw)
        row = compare(
            f"ADE, n={n}, k=2.5 (whole run: {full.pulls:.2e} pulls)",
            "pulls",
            lambda: ade_reference(tape.rewind(), cap=ref_cap, **kw),
            ref_out.pulls,
            lambda: ade(tape.rewind(), **kw),
            full.pulls,
            repeat=2,
        )
        rows.append(row)
    return rows
