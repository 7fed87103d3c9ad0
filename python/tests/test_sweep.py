"""orbitcp.sweep gives the CLI's table, number for number, on every engine."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

import orbitcp
import orbitcp._sweep
from conftest import SMALL_SWEEP


def assert_same(got: pd.DataFrame, expected: pd.DataFrame):
    pd.testing.assert_frame_equal(got, expected, check_exact=True)


@pytest.mark.parametrize("aggregate", [False, True])
def test_local_equals_the_cli(cli_sweep, aggregate):
    df = orbitcp.sweep(SMALL_SWEEP, aggregate=aggregate)
    assert_same(df, cli_sweep(SMALL_SWEEP, aggregate))
    # 8 grid points x 2 runs x 2 flows, or 8 points x 2 flows.
    assert len(df) == (16 if aggregate else 32)


def test_the_table_has_the_quoted_label_and_the_paper_column(cli_sweep):
    df = orbitcp.sweep(SMALL_SWEEP, aggregate=True, threads=1)
    assert set(df["flows[1].label"]) == {"plain", "'=risky, \"quoted\""}
    reno_lossy = df[(df["flows[0].cc"] == "reno") & (df["topology.links[0].loss.p"] == 0.01) & (df["flow"] == 0)]
    assert list(reno_lossy["paper_goodput_mbps"]) == [1.5, 1.5]
    assert df.loc[df["flow"] == 1, "completed_runs"].eq(0).all()
    assert df.loc[df["flow"] == 1, "completion_s_mean"].isna().all()


def test_thread_count_does_not_change_a_number(cli_sweep):
    assert_same(orbitcp.sweep(SMALL_SWEEP, threads=1), orbitcp.sweep(SMALL_SWEEP, threads=3))


@pytest.mark.parametrize("aggregate", [False, True])
def test_dask_equals_the_cli(dask_client, cli_sweep, aggregate):
    df = orbitcp.sweep(SMALL_SWEEP, engine="dask", client=dask_client, aggregate=aggregate)
    assert_same(df, cli_sweep(SMALL_SWEEP, aggregate))


def test_dask_workers_parse_the_scenario_once_each(dask_client):
    dask_client.run(lambda: orbitcp._sweep._PLANS.clear())
    sc = json.loads(SMALL_SWEEP.read_text())
    sc["name"] = "parsed once per worker"
    orbitcp.sweep(sc, engine="dask", client=dask_client)
    held = dask_client.run(lambda: [json.loads(t)["name"] for t in orbitcp._sweep._PLANS])
    # 16 jobs on 2 workers: each worker that ran one holds the one plan it built.
    assert all(names == ["parsed once per worker"] for names in held.values() if names)
    assert any(held.values())


def test_dask_without_a_client_says_so():
    pytest.importorskip("distributed")
    # A fresh interpreter: this one has the session's cluster as its current client.
    code = f"import orbitcp; orbitcp.sweep({str(SMALL_SWEEP)!r}, engine='dask')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode != 0
    assert "ValueError: engine='dask': no client given and none is running" in out.stderr


@pytest.mark.parametrize("aggregate", [False, True])
def test_ray_equals_the_cli(ray_session, cli_sweep, aggregate):
    df = orbitcp.sweep(SMALL_SWEEP, engine="ray", aggregate=aggregate)
    assert_same(df, cli_sweep(SMALL_SWEEP, aggregate))


@pytest.mark.parametrize("jobs,slots", [(0, 2), (1, 2), (7, 2), (1760, 2), (1760, 64), (100_000, 4)])
def test_cluster_tasks_cover_every_job_once_in_order_a_few_per_worker(jobs, slots):
    from orbitcp._sweep import _MAX_JOBS_PER_TASK, _TASKS_PER_SLOT, _chunks

    ranges = _chunks(jobs, slots)
    covered = [i for a, b in ranges for i in range(a, b)]
    assert covered == list(range(jobs))
    assert all(b - a <= _MAX_JOBS_PER_TASK for a, b in ranges)
    # Several tasks per worker to share the work (unless there are fewer jobs than that), of one
    # size but the last.
    assert len(ranges) >= min(jobs, slots * _TASKS_PER_SLOT // 2)
    assert len({b - a for a, b in ranges[:-1]}) <= 1


def test_a_grid_over_seed_runs_each_seed_as_the_cli_does(cli_sweep, tmp_path):
    sc = json.loads(SMALL_SWEEP.read_text())
    sc["sweep"] = {"grid": {"seed": [1, 2]}, "runs": 2}
    sc["topology"]["links"][0]["loss"]["p"] = 0.01
    path = tmp_path / "seeds.json"
    path.write_text(json.dumps(sc))
    df = orbitcp.sweep(path)
    assert_same(df, cli_sweep(path, False))
    assert list(df.columns[:5]) == ["grid.seed", "job", "run", "seed", "flow"]
    first = df[(df["run"] == 0) & (df["flow"] == 0)]
    assert list(first["seed"]) == [1, 2]
    assert first["goodput_mbps"].nunique() == 2, "the two seeds ran differently"
