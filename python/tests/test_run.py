"""orbitcp.run and orbitcp.schema agree with the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import orbitcp
from conftest import SMALL_SWEEP, run_cli

# pandas 3 reads floats exactly by default (and deprecates the option); pandas 2 needs asking.
EXACT_FLOATS = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}


def base_point() -> dict:
    sc = json.loads(SMALL_SWEEP.read_text())
    del sc["sweep"]
    return sc


def test_run_summary_is_the_cli_json(cli_json):
    r = orbitcp.run(SMALL_SWEEP)
    assert r.summary == cli_json("run", "--summary", str(SMALL_SWEEP))
    assert [f["id"] for f in r.summary["flows"]] == [0, 1]
    assert r.summary["flows"][0]["completed"] is True
    assert r.summary["flows"][1]["completed"] is False


def test_a_dict_a_json_string_and_a_path_give_the_same_run():
    by_path = orbitcp.run(str(SMALL_SWEEP), traces=False).summary
    assert orbitcp.run(json.loads(SMALL_SWEEP.read_text()), traces=False).summary == by_path
    assert orbitcp.run(SMALL_SWEEP.read_text(), traces=False).summary == by_path


def test_without_traces_the_summary_is_the_same_and_there_are_no_traces():
    full, bare = orbitcp.run(base_point()), orbitcp.run(base_point(), traces=False)
    assert bare.summary == full.summary
    assert len(bare.traces) == 0 and len(full.traces) > 0


def test_traces_equal_the_csv_files_of_run_csv(cli, tmp_path: Path):
    run_cli(cli, "run", "--summary", "--csv", str(tmp_path), str(SMALL_SWEEP))
    r = orbitcp.run(SMALL_SWEEP)
    files = sorted(p.stem for p in tmp_path.glob("*.csv"))
    assert files, "the CLI wrote no trace"
    for name in files:
        expected = pd.read_csv(tmp_path / f"{name}.csv", **EXACT_FLOATS)
        # dtype aside: a time column of whole seconds is read back as integers.
        pd.testing.assert_frame_equal(r.traces[name], expected, check_dtype=False, check_exact=True)
    assert set(files) <= set(r.traces)


def test_trace_finds_a_column_by_name():
    r = orbitcp.run(base_point())
    cwnd = r.trace("cwnd", flow=0)
    assert list(cwnd.columns) == ["t_s", "cwnd"]
    pd.testing.assert_frame_equal(cwnd, r.traces["flow0_sender"][["t_s", "cwnd"]])
    assert cwnd["t_s"].is_monotonic_increasing and (cwnd["cwnd"] > 0).all()
    queue = r.trace("queue_pkts", link=0)
    assert list(queue.columns) == ["t_s", "queue_pkts"] and len(queue) == len(r.traces["link0_queue"])
    # The 60-packet buffer fills under two flows, and never holds more.
    assert 0 < queue["queue_pkts"].max() <= 60
    with pytest.raises(KeyError, match="cwnd"):
        r.trace("no_such_column", flow=0)
    with pytest.raises(KeyError, match="flow7"):
        r.trace("cwnd", flow=7)
    with pytest.raises(TypeError):
        r.trace("cwnd")


def test_owd_cdf_runs_from_quantile_0_to_1_and_never_decreases():
    cdf = orbitcp.run(base_point()).traces["flow0_owd_cdf"]
    assert cdf["quantile"].iloc[0] == 0 and cdf["quantile"].iloc[-1] == 1
    assert cdf["owd_ms"].is_monotonic_increasing
    assert cdf["owd_ms"].iloc[0] >= 15  # the link's one-way propagation delay


def test_flows_table_has_one_row_per_flow():
    r = orbitcp.run(base_point(), traces=False)
    flows = r.flows
    assert list(flows["id"]) == [0, 1]
    assert list(flows["goodput_mbps"]) == [f["goodput_mbps"] for f in r.summary["flows"]]
    assert "owd_ms.mean" in flows.columns


def test_schema_is_the_cli_schema(cli_json):
    s = orbitcp.schema()
    assert s == cli_json("schema")
    assert "flows" in s["properties"]
