#!/usr/bin/env python3
"""Cross-check of orbitcp's `ns3` TCP profile against ns-3 itself (docs/tcp.md, "The ns3 profile").

Builds tools/ns3/dumbbell against ns-3.44 (tools/ns3/build.sh), runs it and `orbitcp sweep` on the same
dumbbell (scenarios/ns3-dumbbell.json: 10 Mbit/s, queue = BDP, 20 MB, loss p on data reaching
the receiver) for NewReno, CUBIC and BBR at each loss rate, `--runs` runs each, and prints the
table of 10-run mean goodputs. Exits 1 if a point is outside its tolerance (±25 % lossy, ±15 %
lossless) unless the point is listed in KNOWN_GAPS, 2 if ns-3 is not installed, so that a test
step can skip rather than fail where ns-3 cannot be had. ns-3's runs go on as many processes as
the machine has cores.

With --same-losses both simulators lose the same data segments: run k of a point draws its
list of lost segments (each lost with probability p, from Python's `random.Random(k)`), ns-3
takes it as `--drops` and orbitcp as a `list` loss model. The two simulators' own random
streams differ, and at low loss rates a handful of losses decide a run, so 10-run means of
independent draws can differ by more than the tolerance while the mechanisms agree; with the
same losses the ratio measures the mechanisms alone (docs/tcp.md, "The ns3 profile and ns-3
itself").

ns-3's result for a run depends only on the dumbbell binary (built from dumbbell.cc against
ns-3.44) and the run's arguments, so each is kept in tools/ns3/.cache/ under a hash of both, and
a later cross-check on the same machine reruns only orbitcp (an ns-3 BBR run at 1 % loss takes
one to two minutes). --fresh runs ns-3 again.

Usage: tools/ns3/crosscheck.py [--rtt 500] [--p 0,0.001,0.01] [--runs 10] [--cc reno,cubic,bbr]
                               [--orbitcp PATH] [--same-losses] [--fresh]
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CCS = [("reno", "TcpNewReno"), ("cubic", "TcpCubic"), ("bbr", "TcpBbr")]
# Points outside tolerance, as measured: reported, not failed. Each is (orbitcp cc, p, rtt_ms).
# CUBIC at 0.1 %, RTT 500 ms: 3.949 against ns-3's 3.131 Mbit/s over runs 1-10 (1.26), where the
# mechanisms agree: with the same losses 3.450 against 3.449 (runs 1-10), and over 50 runs of
# independent draws 3.749 against 3.891 (0.96); ns-3's first ten runs sit low (measured
# 2026-12-06, docs/tcp.md "The ns3 profile and ns-3 itself").
KNOWN_GAPS = {("cubic", 0.001, 500.0)}


# Data segments a 20 MB transfer may put on the wire, retransmissions included, with room to spare.
MAX_SEGMENTS = 60000


def drop_list(p, run):
    """The 0-based indices of the data segments run `run` loses with --same-losses."""
    rng = random.Random(run)
    return [i for i in range(MAX_SEGMENTS) if rng.random() < p]


CACHE = os.path.join(HERE, ".cache")


def binary_digest():
    """What an ns-3 run's result depends on besides its arguments: the dumbbell binary, and the
    ns-3 release whose libraries it loads (build.sh's rpath names the release's folder)."""
    with open(os.path.join(HERE, "dumbbell"), "rb") as f:
        return hashlib.sha256(f.read() + b"ns-3.44").hexdigest()


def ns3_run(cc, p, rtt, run, same_losses, digest, fresh):
    args = [os.path.join(HERE, "dumbbell"), f"--cc={cc}", f"--p={p}", f"--rtt={rtt}", f"--run={run}"]
    drops = drop_list(p, run) if same_losses else []
    if drops:
        args.append("--drops=" + ",".join(map(str, drops)))
    key = hashlib.sha256((digest + " ".join(args[1:])).encode()).hexdigest()
    kept = os.path.join(CACHE, key)
    if not fresh and os.path.exists(kept):
        with open(kept) as f:
            line = f.read()
    else:
        line = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        os.makedirs(CACHE, exist_ok=True)
        with open(kept + ".tmp", "w") as f:
            f.write(line)
        os.replace(kept + ".tmp", kept)
    return dict(x.split("=", 1) for x in line.split())


def ns3_results(points, rtt, runs, same_losses, fresh):
    """Every (ns-3 cc, p) point's runs, in parallel; {(cc, p): [goodput]} and the release."""
    digest = binary_digest()
    jobs = [(cc, p, run) for cc, p in points for run in range(1, runs + 1)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        outs = list(pool.map(lambda j: ns3_run(j[0], j[1], rtt, j[2], same_losses, digest, fresh), jobs))
    got = {}
    for (cc, p, _), kv in zip(jobs, outs):
        got.setdefault((cc, p), []).append(float(kv["goodput_mbps"]))
    return got, outs[0]["ns3"] if outs else "?"


def dumbbell(rtt):
    with open(os.path.join(ROOT, "scenarios", "ns3-dumbbell.json")) as f:
        sc = json.load(f)
    sc["topology"]["links"][1]["delay_ms"] = rtt / 2
    sc["topology"]["links"][1]["buffer_pkts"] = int(10e6 * rtt / 1e3 / 8 / 1500)
    return sc


def orbitcp_same_losses(binary, ccs, ps, rtt, runs):
    """Each run alone, losing the segments of `drop_list` (orbitcp counts the SYN as packet 0)."""
    got = {}
    for cc, _ in ccs:
        for p in ps:
            for run in range(1, runs + 1):
                sc = dumbbell(rtt)
                del sc["sweep"]
                sc["flows"][0]["cc"] = cc
                drops = [i + 1 for i in drop_list(p, run)]
                sc["topology"]["links"][1]["loss"] = {"model": "list", "drops": drops} if drops else {"model": "none"}
                out = subprocess.run([binary, "run", "-", "--summary"], input=json.dumps(sc), check=True,
                                     capture_output=True, text=True).stdout
                got.setdefault((cc, p), []).append(json.loads(out)["flows"][0]["goodput_mbps"])
    return got


def orbitcp_goodputs(binary, ccs, ps, rtt, runs):
    sc = dumbbell(rtt)
    sc["sweep"] = {"grid": {"flows[0].cc": [c for c, _ in ccs], "topology.links[1].loss.p": ps}, "runs": runs}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as t:
        json.dump(sc, t)
    try:
        csv = subprocess.run([binary, "sweep", t.name], check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(t.name)
    lines = csv.strip().splitlines()
    head = lines[0].split(",")
    cc_i, p_i, g_i = head.index("flows[0].cc"), head.index("topology.links[1].loss.p"), head.index("goodput_mbps")
    got = {}
    for line in lines[1:]:
        c = line.split(",")
        got.setdefault((c[cc_i], float(c[p_i])), []).append(float(c[g_i]))
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtt", type=float, default=500)
    ap.add_argument("--p", default="0,0.001,0.01")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--cc", default=",".join(c for c, _ in CCS))
    ap.add_argument("--orbitcp", default=os.path.join(ROOT, "target", "release", "orbitcp"))
    ap.add_argument("--same-losses", action="store_true", help="both simulators lose the same data segments")
    ap.add_argument("--fresh", action="store_true", help="run ns-3 again rather than take its kept results")
    a = ap.parse_args()
    build = subprocess.run([os.path.join(HERE, "build.sh")])
    if build.returncode == 2:
        print("ns-3 not installed: cross-check skipped", file=sys.stderr)
        return 2
    build.check_returncode()
    ps = [float(x) for x in a.p.split(",")]
    ccs = [(c, n) for c, n in CCS if c in a.cc.split(",")]
    if a.same_losses:
        ours = orbitcp_same_losses(a.orbitcp, ccs, ps, a.rtt, a.runs)
    else:
        ours = orbitcp_goodputs(a.orbitcp, ccs, ps, a.rtt, a.runs)
    theirs_all, version = ns3_results([(n, p) for _, n in ccs for p in ps], a.rtt, a.runs, a.same_losses, a.fresh)
    failures = []
    losses = ", the same losses in both" if a.same_losses else ""
    print(f"ns-{version}; RTT {a.rtt:g} ms, {a.runs} runs{losses}, mean goodput in Mbit/s", flush=True)
    print(f"{'cc':6} {'p':>6} {'ns-3':>8} {'orbitcp':>8} {'ratio':>6}  tolerance")
    for cc, ns3cc in ccs:
        for p in ps:
            theirs = statistics.mean(theirs_all[(ns3cc, p)])
            mine = statistics.mean(ours[(cc, p)])
            ratio = mine / theirs if theirs > 0 else float("inf")
            tol = 0.15 if p == 0 else 0.25
            ok = abs(ratio - 1) <= tol
            gap = (cc, p, a.rtt) in KNOWN_GAPS
            mark = "ok" if ok else ("known gap" if gap else "FAIL")
            print(f"{cc:6} {p:6g} {theirs:8.3f} {mine:8.3f} {ratio:6.2f}  ±{tol:.0%} {mark}", flush=True)
            if not ok and not gap:
                failures.append(f"{cc} p={p:g}")
    if failures:
        print("outside tolerance: " + ", ".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
