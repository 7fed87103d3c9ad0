"""Sweeps on this machine's cores, on a Dask cluster or on Ray.

Whatever the engine, the grid is expanded by the core's own ``SweepPlan`` (job ``i`` is grid
point ``i // runs``, run ``i % runs``), each job runs the same deterministic simulation, and
the table is written by the same code from the jobs' figures in job order: the engine changes
where a run computes, never a number.

The scenario goes to the cluster once (Dask ``client.scatter``, Ray ``ray.put``); each task
gets that reference and a job index, and a worker parses the scenario once for all the jobs
it runs (``_plan``).
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


def run_job(text: str, index: int) -> tuple:
    """One sweep job on a worker: the figures of run ``index`` and of each of its flows."""
    return _plan(text).run_job(index)


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
    futures = client.map(run_job, [ref] * jobs, range(jobs), pure=False)
    return client.gather(futures)


def _on_ray(text: str, jobs: int, address: Any) -> list:
    try:
        import ray
    except ImportError as e:
        raise ImportError("engine='ray' needs Ray: pip install 'ray>=2.9'") from e
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    elif address is not None:
        raise ValueError("client: Ray is already initialised; leave client=None to use it")
    remote = ray.remote(run_job)
    ref = ray.put(text)
    return ray.get([remote.remote(ref, i) for i in range(jobs)])
