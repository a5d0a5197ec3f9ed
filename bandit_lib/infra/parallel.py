"""Running many tasks in parallel: local processes (joblib) or a Dask distributed cluster.

:func:`run_many` evaluates a function over many tasks. Each task carries its own seed, so the
results are the same for any number of workers and either backend; they come back in task order,
and ``on_result`` sees each one as soon as it is done (the result store saves it then, so an
interrupted run loses nothing that finished). Tasks are taken from their iterable only shortly
before a worker can start them, so that a run sharing its result store with another claims a
unit only when it is about to compute it (:meth:`bandit_lib.infra.experiment.Experiment.update`).

Stopping: an interrupt (Ctrl-C, or SIGTERM turned into one by :func:`interrupt_on_sigterm`) stops
the run at once and shuts the local worker processes down, so that no worker outlives the run. A
parent that dies without a chance to clean up (SIGKILL), even before any task has reached them, is
noticed by its local workers within a second, and they exit too.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sized
from contextlib import contextmanager
from typing import Any

from tqdm import tqdm

from bandit_lib.checks import check_int
from bandit_lib.infra import kernels
from bandit_lib.infra.profiles import progress_enabled


def _one_thread(fn: Callable[..., Any], task: Mapping[str, Any]) -> Any:
    """``fn(**task)`` with the BLAS and OpenMP pools at one thread. A multithreaded BLAS splits a
    product by thread and sums the parts in another order, so the last bits of a result (and a
    near-tie decided by them: one edge of a graph, one pull of GrAPL) would depend on how many
    threads it had: one in a worker of a parallel run, all cores in a run with one job. With one
    thread everywhere a unit gives the same payload whatever the number of workers."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        return fn(**task)


def _call(fn: Callable[..., Any], index: int, task: Mapping[str, Any]) -> tuple[int, Any]:
    return index, _one_thread(fn, task)


_WATCHED = {"pid": None}


def _exit_with_parent(parent: int | None = None) -> None:
    """In a local worker: exit as soon as the process that started the run (``parent``, by default
    this worker's parent now) is gone (a killed parent leaves joblib's workers waiting minutes for
    work that never comes)."""
    if _WATCHED["pid"] == os.getpid():
        return
    _WATCHED["pid"] = os.getpid()
    parent = os.getppid() if parent is None else parent

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _call_local(fn: Callable[..., Any], index: int, task: Mapping[str, Any]) -> tuple[int, Any]:
    _exit_with_parent()
    return index, _one_thread(fn, task)


def _shutdown_local_workers() -> None:
    """Kill joblib's reusable worker processes (they otherwise wait minutes for more work)."""
    from joblib.externals.loky import reusable_executor

    executor = getattr(reusable_executor, "_executor", None)
    if executor is not None:
        executor.shutdown(wait=True, kill_workers=True)


def _local(fn, tasks, jobs) -> Iterator[tuple[int, Any]]:
    if jobs == 1:
        for i, task in enumerate(tasks):
            yield i, _one_thread(fn, task)
        return
    from joblib import Parallel, delayed

    # Each worker watches its parent from the moment it starts (initializer), not from its first task:
    # a parent killed while the workers are still starting would otherwise leave them waiting for
    # loky's idle timeout (minutes).
    parallel = Parallel(
        n_jobs=jobs, return_as="generator_unordered", initializer=_exit_with_parent, initargs=(os.getpid(),)
    )
    results = parallel(delayed(_call_local)(fn, i, task) for i, task in enumerate(tasks))
    try:
        yield from results
    except BaseException:
        results.close()
        _shutdown_local_workers()
        raise


def warn_unpinned_workers(client) -> dict[str, dict]:
    """Warn about each worker of a Dask cluster that computes with kernels other than the pinned
    ones (:mod:`bandit_lib.infra.kernels`), and return them: local workers inherit the pin from
    ``reproduce``, but a remote worker has its own environment, and its records may then differ in
    their last bits from another machine's (they say what they ran)."""
    unpinned = {address: current for address, (current, ok) in client.run(kernels.checked).items() if not ok}
    for address, current in sorted(unpinned.items()):
        logging.getLogger(__name__).warning(
            "the Dask worker %s computes with kernels other than the pinned ones (%s): start it with %s set "
            "(bandit_lib/infra/kernels.py), or its results may differ in their last bits from another machine's",
            address,
            current,
            " ".join(f"{name}={value!r}" for name, value in kernels.PIN.items()),
        )
    return unpinned


def _dask(fn, tasks, scheduler) -> Iterator[tuple[int, Any]]:
    from distributed import Client, as_completed

    with Client(scheduler) as client:
        warn_unpinned_workers(client)
        # Twice the cluster's threads in flight: enough to keep every worker busy, few enough that
        # a task is taken from ``tasks`` (and its unit claimed) only shortly before it runs.
        window = max(2, 2 * sum(client.nthreads().values()))
        source = enumerate(tasks)
        running = as_completed()
        futures = []

        def submit() -> bool:
            for index, task in source:
                future = client.submit(_call, fn, index, task, pure=False)
                futures.append(future)
                running.add(future)
                return True
            return False

        try:
            for _ in range(window):
                if not submit():
                    break
            for future in running:
                result = future.result()
                submit()
                yield result
        except BaseException:
            client.cancel(futures)
            raise


def run_many(
    fn: Callable[..., Any],
    tasks: Iterable[Mapping[str, Any]],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    desc: str | None = None,
    progress: bool | None = None,
    on_result: Callable[[int, Any], None] | None = None,
    total: int | None = None,
) -> list[Any]:
    """``[fn(**task) for task in tasks]``, in parallel, with a progress bar.

    ``jobs`` local worker processes (joblib; 1 runs in this process), or the Dask cluster at
    ``scheduler`` when given. ``fn`` must be a module-level function and each task should carry its
    own seed, so that results do not depend on the backend or on the number of workers.

    ``tasks`` is consumed lazily: a task is taken only shortly before a worker can start it
    (joblib looks a few tasks ahead; a Dask run keeps twice the cluster's threads in flight), so a
    generator may decide then whether to hand out a task (the result store's claims do). A task's
    index is its place in the order ``tasks`` gives them. ``total`` sizes the progress bar when
    ``tasks`` has no length.
    """
    jobs = check_int("jobs", jobs, minimum=1)
    if total is None and isinstance(tasks, Sized):
        total = len(tasks)
    results: dict[int, Any] = {}
    source = _dask(fn, tasks, scheduler) if scheduler else _local(fn, tasks, jobs)
    show = progress_enabled() if progress is None else progress
    with tqdm(total=total, desc=desc, disable=not show, leave=False) as bar:
        try:
            for index, result in source:
                results[index] = result
                if on_result is not None:
                    on_result(index, result)
                bar.update(1)
        finally:
            source.close()
    return [results[index] for index in sorted(results)]


@contextmanager
def interrupt_on_sigterm():
    """Within the block, SIGTERM raises KeyboardInterrupt (as Ctrl-C does), so that a terminated
    run stops its workers and reports what it saved instead of dying on the spot."""

    def handler(signum, frame):
        raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
