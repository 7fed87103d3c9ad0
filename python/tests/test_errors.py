"""Bad scenarios raise ValueError naming the field, as the CLI does; never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import orbitcp
from conftest import ROOT, SMALL_SWEEP, run_cli

BAD_CC = {
    "version": 1,
    "name": "bad cc",
    "duration_s": 5,
    "topology": {"kind": "chain", "links": [{"rate_mbps": 10, "delay_ms": 10}]},
    "flows": [{"transport": "tcp", "cc": "no-such-cc", "bytes": 1000}],
}


@pytest.mark.parametrize("form", ["dict", "json", "path"])
@pytest.mark.parametrize("call", [orbitcp.validate, orbitcp.run, orbitcp.sweep])
def test_a_bad_field_is_named_whatever_the_form(form, call, tmp_path: Path):
    scenario = {"dict": BAD_CC, "json": json.dumps(BAD_CC)}.get(form)
    if form == "path":
        scenario = tmp_path / "bad.json"
        scenario.write_text(json.dumps(BAD_CC))
    with pytest.raises(ValueError, match=r"flows\[0\]\.cc: ") as e:
        call(scenario)
    if form == "path":
        assert str(e.value).startswith(f"{scenario}:\n")


def test_validate_reports_what_the_cli_reports(cli, tmp_path: Path):
    bad = json.loads(SMALL_SWEEP.read_text())
    bad["topology"]["links"][0]["rate_mbps"] = 0
    bad["topology"]["links"][0]["delay_ms"] = -1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    out = run_cli(cli, "validate", str(path), check=False)
    assert out.returncode == 2
    with pytest.raises(ValueError) as e:
        orbitcp.validate(path)
    assert f"error: {e.value}\n" == out.stderr
    # Every problem, each under its path, not only the first.
    assert "topology.links[0].rate_mbps: " in str(e.value) and "topology.links[0].delay_ms: " in str(e.value)


def test_a_bad_sweep_point_is_named_with_its_point(cli, tmp_path: Path):
    bad = json.loads(SMALL_SWEEP.read_text())
    bad["sweep"]["grid"]["topology.links[0].loss.p"] = [0, 3]
    with pytest.raises(ValueError, match=r"topology\.links\[0\]\.loss\.p") as e:
        orbitcp.sweep(bad)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    cli_err = run_cli(cli, "sweep", str(path), check=False).stderr
    assert str(e.value).split("\n", 1)[1] in cli_err


def test_validate_counts_the_runs():
    assert orbitcp.validate(SMALL_SWEEP) == 16
    no_sweep = json.loads(SMALL_SWEEP.read_text())
    del no_sweep["sweep"]
    assert orbitcp.validate(no_sweep) == 1


def test_a_missing_file_is_a_clear_error(tmp_path: Path):
    missing = tmp_path / "nope.json"
    for call in (orbitcp.run, orbitcp.validate, orbitcp.sweep):
        with pytest.raises(FileNotFoundError, match="scenario file not found: .*nope.json"):
            call(missing)
        with pytest.raises(FileNotFoundError, match="nope.json"):
            call(str(missing))


def test_invalid_json_text_and_other_types():
    with pytest.raises(ValueError, match="JSON"):
        orbitcp.run('{"version": 1,')
    with pytest.raises(TypeError, match="dict, a JSON string or the path"):
        orbitcp.run(42)
    with pytest.raises(ValueError, match="not JSON-serialisable"):
        orbitcp.run({**BAD_CC, "duration_s": float("nan")})


def test_a_sweep_needs_a_sweep_section_and_a_known_engine():
    no_sweep = json.loads(SMALL_SWEEP.read_text())
    del no_sweep["sweep"]
    with pytest.raises(ValueError, match="sweep"):
        orbitcp.sweep(no_sweep)
    with pytest.raises(ValueError, match="engine"):
        orbitcp.sweep(SMALL_SWEEP, engine="spark")


def test_files_a_scenario_names_are_read_beside_it_as_the_cli_reads_them(cli):
    # Hypatia's tles.txt, isls.txt and ground_stations.txt beside the scenario; a short run.
    path = ROOT / "scenarios" / "hypatia" / "kuiper-630" / "scenario.json"
    sc = json.loads(path.read_text())
    assert orbitcp.validate(path) == 1
    result = orbitcp.run(path, traces=False)
    assert result.summary["path"]["src"] == "Rio-de-Janeiro"
    # The CLI reads the same files: the same routes, step by step. The delays agree to the last
    # few bits only: the CLI's build links parquet, which turns on num-traits' "std", so SGP4's
    # trigonometry there is the platform's, while this module's is the libm crate's.
    cli_result = json.loads(run_cli(cli, "run", "--summary", str(path)).stdout)
    ours, theirs = result.summary["path"], cli_result["path"]
    assert ours["routes"] == theirs["routes"] and ours["steps"]["hops"] == theirs["steps"]["hops"]
    for a, b in zip(ours["steps"]["owd_ms"], theirs["steps"]["owd_ms"]):
        assert (a is None and b is None) or abs(a - b) <= 1e-9 * b
    assert sc["topology"]["constellation"]["isls_file"] == "isls.txt"


def test_a_file_outside_the_scenario_folder_is_refused(tmp_path: Path):
    for name in ("/etc/passwd", "../secret.txt"):
        sc = {
            "version": 1,
            "name": "t",
            "duration_s": 1,
            "topology": {"kind": "constellation", "constellation": {"tle_file": name}, "src": "London", "dst": "Paris"},
            "flows": [{"transport": "tcp", "cc": "reno", "bytes": 1000}],
        }
        f = tmp_path / "outside.json"
        f.write_text(json.dumps(sc))
        with pytest.raises(ValueError, match="tle_file: .*relative to the scenario's folder") as e:
            orbitcp.validate(f)
        assert "root:" not in str(e.value)
