"""orbitcp for Python: runs and sweeps of orbitcp scenarios, results as pandas DataFrames.

The simulator is orbitcp's Rust core, the same code the ``orbitcp`` CLI and the browser run,
so a number here is the number they give. A scenario is a dict, a JSON string or the path of a
JSON file (``scenarios/README.md`` documents the format).

    >>> import orbitcp
    >>> r = orbitcp.run("scenarios/default.json")
    >>> r.summary["flows"][0]["goodput_mbps"]
    >>> r.trace("cwnd", flow=0)              # DataFrame: t_s, cwnd
    >>> orbitcp.sweep("scenarios/ctcp-fig2-tcp.json", aggregate=True)
"""

from __future__ import annotations

import json
from typing import Any

from . import _native
from ._result import Result, Traces
from ._scenario import Scenario, load, named_error
from ._sweep import ENGINES, sweep

__all__ = ["run", "sweep", "validate", "schema", "Result", "Traces", "ENGINES"]


def run(scenario: Scenario, traces: bool = True) -> Result:
    """Runs the scenario's base point (not its sweep), as ``orbitcp run`` does.
    ``traces=False`` leaves the traces out (``orbitcp run --summary``): faster, smaller."""
    name, text = load(scenario)
    try:
        out = _native.run_json(text, traces)
    except ValueError as e:
        raise named_error(name, e) from None
    return Result(json.loads(out))


def validate(scenario: Scenario) -> int:
    """Checks the scenario and every point of its sweep, as ``orbitcp validate`` does.
    Raises ``ValueError`` listing every problem with its path (``flows[0].cc: ...``);
    returns the number of runs it makes."""
    name, text = load(scenario)
    try:
        return _native.validate(text)
    except ValueError as e:
        raise named_error(name, e) from None


def schema() -> dict[str, Any]:
    """The JSON Schema of the scenario format, as ``orbitcp schema`` prints it."""
    return json.loads(_native.schema_json())
