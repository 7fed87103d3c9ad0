#!/usr/bin/env python3
"""Hypatia oracle: shortest ground-to-ground paths and RTTs over a satellite shell, step by step.

An independent implementation of the routing of Hypatia's satgenpy, algorithm
"free_one_only_over_isls" (Kassing et al., "Exploring the Internet from space with Hypatia",
IMC 2020; repository snkas/hypatia), used as the reference that orbitcp's router is tested
against. For a shell directory in Hypatia's format (tles.txt, isls.txt, ground_stations.txt,
description.txt, as generate.py writes them) and a pair of ground stations, at every step:

  1. propagate every satellite with SGP4 (WGS72) to t seconds after the TLE epoch
     (2000-01-01 00:00 UTC), in TEME;
  2. rotate TEME into an Earth-fixed frame about z by the IAU-82 GMST of that instant;
  3. place both ground stations on the WGS72 ellipsoid (geodetic, altitude 0);
  4. build a graph: every ISL of isls.txt (weight = its straight-line length), and a GSL from
     each of the two ground stations to every satellite within max_gsl_length_m of it; only
     these two ground nodes exist, so ground stations never relay;
  5. Dijkstra from source to destination; RTT = 2 x path length / c.

Output CSV columns: t_s, rtt_ms (6 decimals, empty when there is no path), path (satellite ids
along the path joined by "-", ground stations left out).

Usage:
  python oracle.py SHELL_DIR SRC DST [--duration-s 200] [--step-ms 100] [--out FILE]
SRC and DST are ground station gids of SHELL_DIR/ground_stations.txt or their slugs
(e.g. rio-de-janeiro, saint-petersburg). The default output is SHELL_DIR/oracle-SRC-DST.csv.
"""

import argparse
import math
import os
import re
import sys
import time

import networkx as nx
import numpy as np
from sgp4.api import WGS72, Satrec, SatrecArray
from sgp4.propagation import gstime

SPEED_OF_LIGHT_M_S = 299792458.0

# WGS72 ellipsoid (the ground stations' datum and the ISL bound's Earth radius).
WGS72_A_M = 6378135.0
WGS72_F = 1.0 / 298.26

# TLE epoch of every Hypatia shell: 2000-01-01 00:00 UTC, as a Julian date.
EPOCH_JD = 2451544.5

SECONDS_PER_DAY = 86400.0


# ---------------------------------------------------------------------------------------------
# Reading a shell directory

def read_tles(path):
    """(planes, sats_per_plane, [(name, line1, line2)]) from a Hypatia tles.txt."""
    with open(path) as f:
        lines = f.read().splitlines()
    planes, per_plane = (int(x) for x in lines[0].split())
    body = lines[1:]
    if len(body) != 3 * planes * per_plane:
        raise ValueError("%s: expected %d satellites, found %d lines" % (path, planes * per_plane, len(body)))
    sats = []
    for i in range(planes * per_plane):
        name, l1, l2 = body[3 * i], body[3 * i + 1], body[3 * i + 2]
        if int(name.split()[-1]) != i:
            raise ValueError("%s: satellite ids must be 0, 1, 2, ... (line %r)" % (path, name))
        sats.append((name, l1, l2))
    return planes, per_plane, sats


def read_isls(path):
    with open(path) as f:
        return [tuple(int(x) for x in line.split()) for line in f if line.strip()]


def slug(name):
    """English slug of a Hypatia city name: 'Sankt-Peterburg-(Saint-Petersburg)' ->
    'saint-petersburg' (the parenthesised English name wins), 'Rio-de-Janeiro' ->
    'rio-de-janeiro'."""
    m = re.search(r"\(([^)]*)\)", name)
    base = m.group(1) if m else name
    return re.sub(r"[^a-z0-9]+", "-", base.lower()).strip("-")


def read_ground_stations(path):
    """[{gid, name, slug, lat_deg, lon_deg, elevation_m}] from a Hypatia basic ground station file."""
    out = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            gid, name, lat, lon, ele = line.rstrip("\n").split(",")
            if int(gid) != len(out):
                raise ValueError("%s: gids must be 0, 1, 2, ..." % path)
            out.append({"gid": int(gid), "name": name, "slug": slug(name),
                        "lat_deg": float(lat), "lon_deg": float(lon), "elevation_m": float(ele)})
    return out


def read_description(path):
    props = {}
    with open(path) as f:
        for line in f:
            if "=" in line:
                k, v = line.strip().split("=", 1)
                props[k] = float(v)
    return props["max_gsl_length_m"], props["max_isl_length_m"]


# ---------------------------------------------------------------------------------------------
# Geometry

def geodetic_to_ecef_m(lat_deg, lon_deg, alt_m=0.0):
    """Geodetic (WGS72 ellipsoid) to Earth-centred Earth-fixed Cartesian, metres."""
    lat = math.radians(lat_deg)
    lon = math.radians(lon_deg)
    e2 = WGS72_F * (2.0 - WGS72_F)
    n = WGS72_A_M / math.sqrt(1.0 - e2 * math.sin(lat) ** 2)
    return np.array([
        (n + alt_m) * math.cos(lat) * math.cos(lon),
        (n + alt_m) * math.cos(lat) * math.sin(lon),
        (n * (1.0 - e2) + alt_m) * math.sin(lat),
    ])


def times_s(duration_s, step_ms):
    """Step times in seconds, from 0 to duration_s inclusive (2001 steps for 200 s at 100 ms)."""
    step_count = int(round(duration_s * 1000 / step_ms))
    return [i * step_ms / 1000.0 for i in range(step_count + 1)]


class Shell:
    """A shell directory, loaded: satellites (SGP4, WGS72), ISLs, ground stations, limits."""

    def __init__(self, directory):
        self.directory = directory
        self.planes, self.sats_per_plane, tles = read_tles(os.path.join(directory, "tles.txt"))
        self.num_sats = len(tles)
        self.satrecs = [Satrec.twoline2rv(l1, l2, WGS72) for _, l1, l2 in tles]
        self.array = SatrecArray(self.satrecs)
        self.isls = read_isls(os.path.join(directory, "isls.txt"))
        self.isl_a = np.array([a for a, _ in self.isls], dtype=np.int64)
        self.isl_b = np.array([b for _, b in self.isls], dtype=np.int64)
        self.ground_stations = read_ground_stations(os.path.join(directory, "ground_stations.txt"))
        self.max_gsl_m, self.max_isl_m = read_description(os.path.join(directory, "description.txt"))

    def ground_station(self, key):
        """A ground station by gid (int or digit string) or slug."""
        if isinstance(key, int) or str(key).isdigit():
            return self.ground_stations[int(key)]
        for gs in self.ground_stations:
            if gs["slug"] == key or gs["name"] == key:
                return gs
        raise KeyError("no ground station %r in %s (have: %s)" % (
            key, self.directory, ", ".join(g["slug"] for g in self.ground_stations)))

    def positions_ecef_m(self, t_list):
        """Satellite positions, Earth-fixed, metres: array (len(t_list), num_sats, 3)."""
        jd = np.full(len(t_list), EPOCH_JD)
        fr = np.array(t_list, dtype=float) / SECONDS_PER_DAY
        err, r_teme_km, _ = self.array.sgp4(jd, fr)
        if np.any(err != 0):
            bad = np.argwhere(err != 0)[0]
            raise RuntimeError("SGP4 error %d for satellite %d at t=%s s" % (
                err[bad[0], bad[1]], bad[0], t_list[bad[1]]))
        r = np.transpose(r_teme_km, (1, 0, 2)) * 1000.0  # (times, sats, 3), metres
        out = np.empty_like(r)
        for k, t in enumerate(t_list):
            theta = gstime(EPOCH_JD + t / SECONDS_PER_DAY)
            c, s = math.cos(theta), math.sin(theta)
            x, y = r[k, :, 0], r[k, :, 1]
            out[k, :, 0] = c * x + s * y
            out[k, :, 1] = -s * x + c * y
            out[k, :, 2] = r[k, :, 2]
        return out


def distances_m(p, q):
    """Row-wise Euclidean distance, written out so the rounding is the same everywhere."""
    d = p - q
    return np.sqrt(d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1] + d[..., 2] * d[..., 2])


# ---------------------------------------------------------------------------------------------
# Routing

def route(shell, sat_pos_m, src_node, src_pos_m, dst_node, dst_pos_m):
    """Shortest src -> dst path over the ISLs and the two stations' GSLs at one instant.

    Returns (length_m or None, [satellite ids], isl_lengths_m)."""
    isl_len = distances_m(sat_pos_m[shell.isl_a], sat_pos_m[shell.isl_b])
    g = nx.Graph()
    g.add_nodes_from(range(shell.num_sats))
    g.add_weighted_edges_from(zip(shell.isl_a.tolist(), shell.isl_b.tolist(), isl_len.tolist()))
    for node, pos in ((src_node, src_pos_m), (dst_node, dst_pos_m)):
        d = distances_m(sat_pos_m, pos)
        in_range = np.nonzero(d <= shell.max_gsl_m)[0]
        g.add_node(node)
        g.add_weighted_edges_from((node, int(s), float(d[s])) for s in in_range)
    try:
        length, path = nx.single_source_dijkstra(g, src_node, dst_node, weight="weight")
    except nx.NetworkXNoPath:
        return None, [], isl_len
    return length, path[1:-1], isl_len


def rtt_ms(length_m):
    return 2.0 * length_m / SPEED_OF_LIGHT_M_S * 1000.0


def format_row(t_s, length_m, sats):
    if length_m is None:
        return "%.1f,," % t_s
    return "%.1f,%.6f,%s" % (t_s, rtt_ms(length_m), "-".join(str(s) for s in sats))


def run(shell, src, dst, duration_s=200.0, step_ms=100, chunk=100, log=None):
    """Yield (t_s, length_m or None, [sats], max ISL length this step) for every step."""
    gs_src = shell.ground_station(src)
    gs_dst = shell.ground_station(dst)
    if gs_src["gid"] == gs_dst["gid"]:
        raise ValueError("source and destination are the same ground station")
    src_pos = geodetic_to_ecef_m(gs_src["lat_deg"], gs_src["lon_deg"], gs_src["elevation_m"])
    dst_pos = geodetic_to_ecef_m(gs_dst["lat_deg"], gs_dst["lon_deg"], gs_dst["elevation_m"])
    # Ground nodes are numbered after the satellites, as in Hypatia (num_sats + gid).
    src_node = shell.num_sats + gs_src["gid"]
    dst_node = shell.num_sats + gs_dst["gid"]
    ts = times_s(duration_s, step_ms)
    for start in range(0, len(ts), chunk):
        block = ts[start:start + chunk]
        pos = shell.positions_ecef_m(block)
        for k, t in enumerate(block):
            length, sats, isl_len = route(shell, pos[k], src_node, src_pos, dst_node, dst_pos)
            yield t, length, sats, float(isl_len.max())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shell_dir")
    ap.add_argument("src", help="source ground station: gid or slug")
    ap.add_argument("dst", help="destination ground station: gid or slug")
    ap.add_argument("--duration-s", type=float, default=200.0)
    ap.add_argument("--step-ms", type=int, default=100)
    ap.add_argument("--out", help="output CSV (default SHELL_DIR/oracle-SRC-DST.csv, '-' for stdout)")
    args = ap.parse_args(argv)

    t0 = time.time()
    shell = Shell(args.shell_dir)
    s_slug = shell.ground_station(args.src)["slug"]
    d_slug = shell.ground_station(args.dst)["slug"]
    out_path = args.out or os.path.join(args.shell_dir, "oracle-%s-%s.csv" % (s_slug, d_slug))

    rows = ["t_s,rtt_ms,path"]
    rtts = []
    changes = 0
    unreachable = 0
    prev = None
    max_isl_seen = 0.0
    over_isl_steps = 0
    for t, length, sats, isl_max in run(shell, args.src, args.dst, args.duration_s, args.step_ms):
        rows.append(format_row(t, length, sats))
        max_isl_seen = max(max_isl_seen, isl_max)
        if isl_max > shell.max_isl_m:
            over_isl_steps += 1
        if length is None:
            unreachable += 1
        else:
            rtts.append(rtt_ms(length))
        if prev is not None and sats != prev:
            changes += 1
        prev = sats
    text = "\n".join(rows) + "\n"
    if out_path == "-":
        sys.stdout.write(text)
    else:
        with open(out_path, "w", newline="\n") as f:
            f.write(text)

    print("%s %s -> %s: %d steps in %.1f s; RTT %.3f-%.3f ms; %d path changes; %d steps without a path"
          % (os.path.basename(os.path.normpath(args.shell_dir)), s_slug, d_slug, len(rows) - 1,
             time.time() - t0, min(rtts) if rtts else float("nan"), max(rtts) if rtts else float("nan"),
             changes, unreachable), file=sys.stderr)
    print("longest ISL %.1f m (limit %.1f m)%s" % (
        max_isl_seen, shell.max_isl_m,
        "; EXCEEDED in %d steps (Hypatia would stop with an error)" % over_isl_steps if over_isl_steps else ""),
        file=sys.stderr)
    if out_path != "-":
        print("wrote " + out_path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
