"""Shared fixtures: the orbitcp CLI to compare against, and the clusters the engines run on."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
SMALL_SWEEP = DATA / "small-sweep.json"


@pytest.fixture(scope="session")
def cli() -> Path:
    """The native CLI the package must agree with (scripts/test.sh builds it first)."""
    path = Path(os.environ.get("ORBITCP_CLI", ROOT / "target" / "release" / "orbitcp"))
    if not path.is_file():
        pytest.fail(f"{path} is missing: build it with `cargo build --release --bin orbitcp` or set ORBITCP_CLI")
    return path


def run_cli(cli: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([str(cli), *args], capture_output=True, text=True, check=check)


@pytest.fixture(scope="session")
def cli_sweep(cli):
    """``orbitcp sweep [--aggregate] FILE`` read by pandas, as the package's tables must be."""
    cache = {}

    def get(path: Path, aggregate: bool) -> pd.DataFrame:
        key = (str(path), aggregate)
        if key not in cache:
            args = ["sweep", *(["--aggregate"] if aggregate else []), str(path)]
            cache[key] = run_cli(cli, *args).stdout
        return pd.read_csv(io.StringIO(cache[key]))

    return get


@pytest.fixture(scope="session")
def cli_json(cli):
    def get(*args: str) -> dict:
        return json.loads(run_cli(cli, *args).stdout)

    return get


@pytest.fixture(scope="session")
def dask_client():
    """A two-worker Dask cluster of separate processes, so that every task's arguments and
    results really are pickled between processes."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="session")
def ray_session():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()
