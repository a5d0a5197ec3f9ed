"""GRAPL20: GrAPL steps (pulls) per second at N = 1000.

Rows: the readable per-pull references (numpy, scipy-free CG kernel) against the numba engine for
each solver, then the two solvers against each other on the engine: the authors' conjugate
gradient (rtol 1e-5, warm start) as "reference", the exact Sherman–Morrison solver as "fast".
CG's cost grows with γ (its iterations per pull do), the exact solver's does not.
"""

from bandit_lib.grapl20.apt import apt, apt_reference
from bandit_lib.grapl20.estimator import graph_system
from bandit_lib.grapl20.experiments.synthetic import make_instance
from bandit_lib.grapl20.grapl import grapl, grapl_reference
from benchmarks.timing import compare


def run() -> list[dict]:
    rows = []
    sbm_graph, _, sbm_tape, _ = make_instance("sbm", 0, 1000)
    sbm = graph_system(sbm_graph)
    _ = sbm.inverse  # built once, outside the timings
    sbm_kw = dict(tau=0.0, eps=0.01, alpha=1.0, gamma=10.0)
    # The exact solver costs the same at every step; CG's cost changes along a run, so both of its
    # engines run the same steps.
    for solver, ref_steps, fast_steps in (("exact", 60, 2000), ("cg", 1000, 1000)):
        rows.append(
            compare(
                f"GrAPL {solver} solver, SBM N=1000, gamma=10: per-pull reference vs numba engine",
                "steps",
                lambda: grapl_reference(sbm_tape.rewind(), sbm, ref_steps, solver=solver, **sbm_kw),
                ref_steps,
                lambda: grapl(sbm_tape.rewind(), sbm, fast_steps, solver=solver, **sbm_kw),
                fast_steps,
            )
        )
    rows.append(
        compare(
            "GrAPL engine, SBM N=1000, gamma=10: CG solver (reference) vs exact solver (fast)",
            "steps",
            lambda: grapl(sbm_tape.rewind(), sbm, 2000, solver="cg", **sbm_kw),
            2000,
            lambda: grapl(sbm_tape.rewind(), sbm, 2000, solver="exact", **sbm_kw),
            2000,
        )
    )
    sw_graph, _, sw_tape, _ = make_instance("small_world", 0, 1000)
    sw = graph_system(sw_graph)
    _ = sw.inverse  # built once, outside the timings
    for gamma in (1.0, 1e4):
        kw = dict(tau=0.5, eps=0.01, alpha=1e-8, gamma=gamma)
        rows.append(
            compare(
                f"GrAPL engine, small world N=1000, gamma={gamma:g}: CG solver (reference) vs exact solver (fast)",
                "steps",
                lambda: grapl(sw_tape.rewind(), sw, 1000, solver="cg", **kw),
                1000,
                lambda: grapl(sw_tape.rewind(), sw, 2000, solver="exact", **kw),
                2000,
                repeat=2,
            )
        )
    rows.append(
        compare(
            "APT, N=1000 (2 warm-up pulls per arm): per-pull reference vs numba engine",
            "steps",
            lambda: apt_reference(sbm_tape.rewind(), 2000, tau=0.0, eps=0.01),
            2000,
            lambda: apt(sbm_tape.rewind(), 5000, tau=0.0, eps=0.01),
            5000,
        )
    )
    return rows
