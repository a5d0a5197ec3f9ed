"""Orchestration and drawing: nothing here computes a number of a result, so none of it enters a
result's fingerprint (:mod:`bandit_lib.infra.fingerprint`).

* :mod:`~bandit_lib.infra.experiment` — :class:`~bandit_lib.infra.experiment.Experiment`: named
  units of work, computed in parallel, cached and loaded;
* :mod:`~bandit_lib.infra.store` — the result store (one JSON record per unit);
* :mod:`~bandit_lib.infra.parallel` — ``run_many``: tasks on local processes or a Dask cluster;
* :mod:`~bandit_lib.infra.fingerprint` — which code made a result (Merkle digests, the same under
  every supported Python), and the loader that makes the code (and numba's cache) that runs the
  code that is stamped;
* :mod:`~bandit_lib.infra.environment` — where a result was computed (Python, libraries, CPU, BLAS);
* :mod:`~bandit_lib.infra.profiles` — the ``quick`` and ``full`` profiles and where results live;
* :mod:`~bandit_lib.infra.registry` — every experiment of the book;
* :mod:`~bandit_lib.infra.reproduce` — ``python -m bandit_lib.reproduce`` (``make reproduce``);
* :mod:`~bandit_lib.infra.plotting` — one style and one colour per method for every figure;
* :mod:`~bandit_lib.infra.scorecard` — the one scorecard format of every chapter (claims, our numbers, verdicts by stated rules).
"""
