"""The cost of running a sweep through Dask instead of the CLI, on the same machine.

Times the CTCP paper's Fig. 2 sweep (scenarios/ctcp-fig2.json) with `orbitcp sweep --threads 2`
and with `orbitcp.sweep(engine="dask")` on a LocalCluster of 2 single-threaded worker
processes, alternately, and prints each time and the ratio of the medians (the engine's
overhead). The cluster is started before the clock starts: a real cluster is already up.

Usage: .venv/bin/python python/benchmarks/dask_overhead.py [--repeat N] [SCENARIO]
(ORBITCP_CLI names the CLI; default target/release/orbitcp.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

from distributed import Client, LocalCluster

import orbitcp

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", nargs="?", default=str(ROOT / "scenarios" / "ctcp-fig2.json"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    cli = os.environ.get("ORBITCP_CLI", str(ROOT / "target" / "release" / "orbitcp"))
    runs = orbitcp.validate(args.scenario)
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None, silence_logs=50)
    client = Client(cluster)
    cli_s, dask_s = [], []
    try:
        for _ in range(args.repeat):
            t = time.perf_counter()
            subprocess.run([cli, "sweep", "--threads", "2", args.scenario], check=True, capture_output=True)
            cli_s.append(time.perf_counter() - t)
            t = time.perf_counter()
            orbitcp.sweep(args.scenario, engine="dask", client=client)
            dask_s.append(time.perf_counter() - t)
    finally:
        client.close()
        cluster.close()
    print(f"{Path(args.scenario).name}: {runs} runs, {args.repeat} alternating repeats")
    print("orbitcp sweep --threads 2:   " + ", ".join(f"{s:.1f} s" for s in cli_s))
    print("Dask LocalCluster, 2 workers: " + ", ".join(f"{s:.1f} s" for s in dask_s))
    ratio = statistics.median(dask_s) / statistics.median(cli_s)
    print(f"median ratio Dask / CLI: {ratio:.2f}")


if __name__ == "__main__":
    main()
