"""Bad scenarios raise ValueError naming the field, as the CLI does; never a crash."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
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
        f = _tle_file_scenario(tmp_path, name)
        with pytest.raises(ValueError, match="tle_file: .*relative to the scenario's folder") as e:
            orbitcp.validate(f)
        assert "root:" not in str(e.value)


def _tle_file_scenario(tmp_path: Path, tle_file: str) -> Path:
    sc = {
        "version": 1,
        "name": "t",
        "duration_s": 1,
        "topology": {"kind": "constellation", "constellation": {"tle_file": tle_file}, "src": "London", "dst": "Paris"},
        "flows": [{"transport": "tcp", "cc": "reno", "bytes": 1000}],
    }
    f = tmp_path / "s.json"
    f.write_text(json.dumps(sc))
    return f


def test_a_symbolic_link_cannot_lead_a_named_file_out_of_the_scenario_folder(tmp_path: Path):
    (tmp_path / "tles.txt").symlink_to("/etc/passwd")
    f = _tle_file_scenario(tmp_path, "tles.txt")
    with pytest.raises(ValueError, match=r'tle_file: "tles.txt" leads outside the scenario\'s folder') as e:
        orbitcp.validate(f)
    assert "root:" not in str(e.value)
    # As a dict, the folder is the working directory: the same rule.
    with pytest.raises(ValueError, match="leads outside the scenario's folder"):
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            orbitcp.validate(json.loads(f.read_text()))
        finally:
            os.chdir(cwd)


def test_a_file_over_64_mib_or_a_device_is_refused_by_name(tmp_path: Path):
    with open(tmp_path / "big.txt", "wb") as big:
        big.truncate(65 << 20)  # sparse
    with pytest.raises(ValueError, match=r"tle_file: .*big.txt: larger than 64 MiB"):
        orbitcp.validate(_tle_file_scenario(tmp_path, "big.txt"))
    scenario = tmp_path / "big.json"
    with open(scenario, "wb") as f:
        f.truncate(65 << 20)
    with pytest.raises(ValueError, match="big.json: larger than 64 MiB"):
        orbitcp.validate(scenario)
    with pytest.raises(ValueError, match="/dev/zero: not a regular file"):
        orbitcp.run("/dev/zero")


# Ctrl-C: a child Python runs the scenario and reports what reached it.
_CHILD = """
import sys, orbitcp
print("started", flush=True)
try:
    getattr(orbitcp, sys.argv[1])(sys.argv[2])
    print("finished")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
"""


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def _starlink_week() -> dict:
    sc = json.loads((ROOT / "scenarios" / "leo-beijing-newyork-starlink.json").read_text())
    sc["duration_s"] = 604800
    sc["topology"]["step_s"] = 1
    sc.pop("sweep", None)
    return sc


_LONG = {
    "version": 1,
    "name": "long",
    "duration_s": 600,
    "topology": {"kind": "chain", "links": [{"rate_mbps": 1000, "delay_ms": 10}]},
    "flows": [{"transport": "tcp", "cc": "cubic", "bytes": None}],
}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc to know the run is under way")
@pytest.mark.parametrize(
    "call, scenario",
    [
        ("run", _starlink_week()),  # its routes are computed before the run: minutes
        ("run", _LONG),  # minutes of events
        ("sweep", {**_LONG, "sweep": {"grid": {"seed": [1, 2]}}}),  # the sweep's threads
    ],
    ids=["route-precomputation", "events", "sweep"],
)
def test_ctrl_c_raises_keyboard_interrupt_during_a_run(call, scenario, tmp_path: Path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario))
    child = subprocess.Popen([sys.executable, "-c", _CHILD, call, str(f)], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "started\n"
    # A third of a second of CPU time past the import: inside the run.
    start = _cpu_ticks(child.pid)
    while _cpu_ticks(child.pid) < start + 33:
        assert child.poll() is None, "the run ended first"
        time.sleep(0.005)
    child.send_signal(signal.SIGINT)
    try:
        out, _ = child.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail("Ctrl-C did not stop the run")
    assert out == "KeyboardInterrupt\n"
