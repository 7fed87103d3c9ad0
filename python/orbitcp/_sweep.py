"""Sweeps on this machine's cores, on a Dask cluster or on Ray.

Whatever the engine, the grid is expanded by the core's own ``SweepPlan`` (job ``i`` is grid
point ``i // runs``, run ``i % runs``), each job runs the same deterministic simulation, and
the table is written by the same code from the jobs' results in job order: the engine changes
where a run computes, never a number.

The scenario goes to the cluster once (Dask ``client.scatter``, Ray ``ray.put``); each task
gets that reference and a range of job indices (a few ranges per worker, ``_chunks``), and a
worker parses the scenario once for all the jobs it runs (``_plan``).
"""

from __future__ import annotations

import io
import os
import threading
from collections import OrderedDict
from typing import Any, Optional

import pandas as pd

from . import _native
from ._scenario import Scenario, load, named_error

ENGINES = ("local", "dask", "ray")

# Scenario text -> Plan, per worker process: a 10,000-job sweep parses its scenario once per
# worker, not once per job. A few entries: a worker may serve several sweeps at once.
_PLANS: OrderedDict[str, Any] = OrderedDict()
_PLANS_LOCK = threading.Lock()
_PLANS_MAX = 4


def _plan(text: str) -> Any:
    with _PLANS_LOCK:
        plan = _PLANS.get(text)
        if plan is not None:
            _PLANS.move_to_end(text)
            return plan
    # The driver has validated every point; each job still checks its own as it expands.
    plan = _native.Plan(text, check=False)
    with _PLANS_LOCK:
        _PLANS[text] = plan
        while len(_PLANS) > _PLANS_MAX:
            _PLANS.popitem(last=False)
    return plan


def run_job(text: str, index: int) -> str:
    """One sweep job on a worker: the summary of run ``index`` as the core's JSON text."""
    return _plan(text).run_job(index)


def run_jobs(text: str, start: int, stop: int) -> list[str]:
    """Jobs ``start`` to ``stop - 1`` on a worker, in order: one task for several short runs."""
    plan = _plan(text)
    return [plan.run_job(i) for i in range(start, stop)]


def _chunks(jobs: int, slots: int) -> list[tuple[int, int]]:
    """Job ranges for ``slots`` parallel workers. A task per job costs the engine a round trip
    per run, which for the short runs of a typical grid is more than the run (measured on Dask:
    ~20 ms a task, BENCHMARKS.md); a few tasks per worker keep that small, and still let a worker
    that drew quick runs take more ranges while another finishes a slow one."""
    per_task = max(1, min(_MAX_JOBS_PER_TASK, -(-jobs // (slots * _TASKS_PER_SLOT))))
    return [(a, min(a + per_task, jobs)) for a in range(0, jobs, per_task)]


# Tasks per worker slot, and the most jobs in one task (a 24-hour LEO run is minutes: a task of
# 64 of those would leave the other workers idle at the end of a sweep).
_TASKS_PER_SLOT = 8
_MAX_JOBS_PER_TASK = 64


def sweep(
    scenario: Scenario,
    engine: str = "local",
    client: Any = None,
    aggregate: bool = False,
    threads: Optional[int] = None,
) -> pd.DataFrame:
    """Runs every grid point and run of the scenario's sweep; returns the table ``orbitcp
    sweep`` prints as CSV (``--aggregate``: one row per grid point and flow, mean and standard
    deviation over runs), read by ``pandas.read_csv``.

    engine
        ``"local"``: this process, on ``threads`` threads (default: every core), the GIL
        released. ``"dask"``: one task per job on ``client`` (a ``distributed.Client``; default
        the current one, ``distributed.get_client()``). ``"ray"``: one ``ray.remote`` task per
        job; ``client`` may be the address for ``ray.init`` when Ray is not yet initialised
        (default: a local Ray).
    """
    if engine not in ENGINES:
        raise ValueError(f"engine: {engine!r} is not one of {', '.join(ENGINES)}")
    if threads is not None and engine != "local":
        raise ValueError("threads: only for engine='local' (a cluster sizes its own workers)")
    name, text = load(scenario)
    try:
        plan = _native.Plan(text)
    except ValueError as e:
        raise named_error(name, e) from None
    if engine == "local":
        n = threads if threads is not None else (os.cpu_count() or 1)
        if n < 1:
            raise ValueError(f"threads: {n} is not a positive number of threads")
        results = plan.run_all(n)
    elif engine == "dask":
        results = _on_dask(text, len(plan), client)
    else:
        results = _on_ray(text, len(plan), client)
    csv = plan.table(results, aggregate)
    return pd.read_csv(io.StringIO(csv))


def _on_dask(text: str, jobs: int, client: Any) -> list:
    try:
        import distributed
    except ImportError as e:
        raise ImportError(
            "engine='dask' needs Dask distributed: pip install 'dask[distributed]'"
        ) from e
    if client is None:
        try:
            client = distributed.get_client()
        except ValueError:
            raise ValueError(
                "engine='dask': no client given and none is running; pass client=distributed.Client(...)"
            ) from None
    # broadcast: every worker gets its copy up front rather than fetching it task by task.
    # hash=False: a key of its own. With the content's hash as key, a sweep of the same scenario
    # right after another could have its data released with the previous sweep's reference.
    ref = client.scatter(text, broadcast=True, hash=False)
    slots = max(1, sum(client.nthreads().values()))
    ranges = _chunks(jobs, slots)
    futures = client.map(run_jobs, [ref] * len(ranges), *zip(*ranges), pure=False) if ranges else []
    return [r for chunk in client.gather(futures) for r in chunk]


def _on_ray(text: str, jobs: int, address: Any) -> list:
    try:
        import ray
    except ImportError as e:
        raise ImportError("engine='ray' needs Ray: pip install 'ray>=2.9'") from e
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    elif address is not None:
        raise ValueError("client: Ray is already initialised; leave client=None to use it")
    remote = ray.remote(run_jobs)
    ref = ray.put(text)
    slots = max(1, int(ray.cluster_resources().get("CPU", 1)))
    chunks = ray.get([remote.remote(ref, a, b) for a, b in _chunks(jobs, slots)])
    return [r for chunk in chunks for r in chunk]
