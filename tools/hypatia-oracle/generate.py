#!/usr/bin/env python3
"""Write Hypatia-format input files for the shells the oracle checks orbitcp against.

For each shell this writes, into scenarios/hypatia/<shell>/:

  tles.txt             "P S", then per satellite a name line and the two TLE lines
  isls.txt             "a b" per +Grid inter-satellite link (isl_shift 0), each link once
  ground_stations.txt  Hypatia's "basic" format, gid,name,latitude,longitude,elevation,
                       for the cities the oracle's pairs use (Hypatia's coordinates for them)
  description.txt      max_gsl_length_m / max_isl_length_m, as Hypatia writes them

The layout and the constants follow the Hypatia paper's shells (Kassing et al., "Exploring the
Internet from space with Hypatia", IMC 2020; repository snkas/hypatia). This is an independent
implementation of the published construction, not a copy of Hypatia's code. See README.md.

Usage:  python generate.py [--out-root DIR] [--shell NAME ...]
"""

import argparse
import math
import os
import sys

# WGS72 equatorial radius, as Hypatia uses it for the ISL length bound.
EARTH_RADIUS_M = 6378135.0

# The shells of the Hypatia paper (paper/satellite_networks_state/main_<shell>.py).
SHELLS = {
    "kuiper-630": {
        "nice_name": "Kuiper-630",
        "planes": 34,
        "sats_per_plane": 34,
        "altitude_m": 630000.0,
        "inclination_deg": 51.9,
        "mean_motion_rev_per_day": 14.80,
        "phase_diff": True,
        # Cone for a 30 degree minimum elevation: radius = h / tan(30 deg).
        "cone_radius_m": 630000.0 / math.tan(math.radians(30.0)),
        "cities": ["rio-de-janeiro", "saint-petersburg"],
        "pairs": [("rio-de-janeiro", "saint-petersburg")],
    },
    "starlink-550": {
        "nice_name": "Starlink-550",
        "planes": 72,
        "sats_per_plane": 22,
        "altitude_m": 550000.0,
        "inclination_deg": 53.0,
        "mean_motion_rev_per_day": 15.19,
        # Hypatia's main_starlink_550.py sets PHASE_DIFF = True as well.
        "phase_diff": True,
        # From SpaceX's FCC filing (25 degree minimum elevation), as Hypatia takes it.
        "cone_radius_m": 940700.0,
        "cities": ["paris", "luanda"],
        "pairs": [("paris", "luanda")],
    },
}

# Cities from Hypatia's paper/satellite_networks_state/input_data/
# ground_stations_cities_sorted_by_estimated_2025_pop_top_100.basic.txt: the gid there, the
# name and the coordinates exactly as written there (strings, so they are copied digit for digit).
CITIES = {
    "rio-de-janeiro": (18, "Rio-de-Janeiro", "-22.90278", "-43.2075"),
    "saint-petersburg": (73, "Sankt-Peterburg-(Saint-Petersburg)", "59.929858", "30.326228"),
    "paris": (24, "Paris", "48.85341", "2.3488"),
    "luanda": (66, "Luanda", "-8.83682", "13.23432"),
}


def max_gsl_length_m(shell):
    cone = shell["cone_radius_m"]
    h = shell["altitude_m"]
    return math.sqrt(cone * cone + h * h)


def max_isl_length_m(shell):
    # An ISL may not dip below 80 km altitude: twice the tangent length to the 80 km sphere.
    outer = EARTH_RADIUS_M + shell["altitude_m"]
    inner = EARTH_RADIUS_M + 80000.0
    return 2.0 * math.sqrt(outer * outer - inner * inner)


def tle_checksum(line68):
    """Modulo-10 checksum of a TLE line: digits count their value, each minus sign counts 1."""
    if len(line68) != 68:
        raise ValueError("a TLE line without its checksum has 68 characters, got %d" % len(line68))
    total = 0
    for ch in line68:
        if ch.isdigit():
            total += int(ch)
        elif ch == "-":
            total += 1
    return total % 10


def _angle(deg):
    # Angles in line 2 are written "%3.4f", right-aligned in 8 columns.
    return ("%3.4f" % deg).rjust(8)


def tle_lines(catalog_number, inclination_deg, raan_deg, eccentricity, arg_perigee_deg,
              mean_anomaly_deg, mean_motion_rev_per_day):
    """The two lines of one satellite's TLE, in the fixed layout Hypatia's manual generator uses.

    Line 1: catalog number (unclassified), designator 00000ABC, epoch 00001.00000000
    (year 2000, day 1.0 = 2000-01-01 00:00 UTC), every drag term zero, element set 0.
    Line 2: inclination, RAAN, eccentricity (7 digits after an implied point), argument of
    perigee, mean anomaly, mean motion in rev/day ("%2.8f" in 11 columns), revolution 0.
    """
    fields1 = [
        "1",
        "%05dU" % catalog_number,
        "00000ABC",
        "00001.00000000",
        " .00000000",    # first derivative of mean motion
        " 00000-0",      # second derivative of mean motion
        " 00000+0",      # B* drag term
        "0",             # ephemeris type
        "   0",          # element set number
    ]
    line1 = " ".join(fields1)
    ecc_digits = ("%0.7f" % eccentricity)[2:]
    fields2 = [
        "2",
        "%05d" % catalog_number,
        _angle(inclination_deg),
        _angle(raan_deg),
        ecc_digits,
        _angle(arg_perigee_deg),
        _angle(mean_anomaly_deg),
        ("%2.8f" % mean_motion_rev_per_day).rjust(11),
    ]
    line2 = " ".join(fields2) + "    0"  # revolution number at epoch
    if len(line1) != 68 or len(line2) != 68:
        raise AssertionError("TLE layout broken: %d / %d columns" % (len(line1), len(line2)))
    return line1 + str(tle_checksum(line1)), line2 + str(tle_checksum(line2))


def tles_text(shell):
    planes = shell["planes"]
    per_plane = shell["sats_per_plane"]
    out = ["%d %d\n" % (planes, per_plane)]
    for orbit in range(planes):
        raan = orbit * 360.0 / planes
        # Half a slot on odd planes when phase_diff is on.
        shift = 360.0 / (per_plane * 2.0) if (shell["phase_diff"] and orbit % 2 == 1) else 0.0
        for n in range(per_plane):
            sid = orbit * per_plane + n
            mean_anomaly = shift + n * 360 / per_plane
            l1, l2 = tle_lines(sid + 1, shell["inclination_deg"], raan, 0.0000001, 0.0,
                               mean_anomaly, shell["mean_motion_rev_per_day"])
            out.append("%s %d\n%s\n%s\n" % (shell["nice_name"], sid, l1, l2))
    return "".join(out)


def plus_grid_isls(planes, per_plane, isl_shift=0):
    """+Grid: every satellite links to the next in its plane and to the one at the same slot
    (plus isl_shift) in the next plane, with wrap-around. Each link once, as (min, max), in the
    order the satellites are visited (intra-plane link first)."""
    if planes < 3 or per_plane < 3:
        raise ValueError("+Grid needs at least 3 planes and 3 satellites per plane")
    links = []
    for orbit in range(planes):
        for n in range(per_plane):
            sat = orbit * per_plane + n
            same = orbit * per_plane + (n + 1) % per_plane
            nxt = ((orbit + 1) % planes) * per_plane + (n + isl_shift) % per_plane
            links.append((min(sat, same), max(sat, same)))
            links.append((min(sat, nxt), max(sat, nxt)))
    return links


def isls_text(shell):
    return "".join("%d %d\n" % ab for ab in plus_grid_isls(shell["planes"], shell["sats_per_plane"]))


def ground_stations_text(shell):
    # Hypatia's readers require gids 0, 1, 2, ... in file order: the cities are renumbered.
    lines = []
    for gid, slug in enumerate(shell["cities"]):
        _, name, lat, lon = CITIES[slug]
        lines.append("%d,%s,%s,%s,0\n" % (gid, name, lat, lon))
    return "".join(lines)


def description_text(shell):
    return "max_gsl_length_m=%.10f\nmax_isl_length_m=%.10f\n" % (
        max_gsl_length_m(shell), max_isl_length_m(shell))


def shell_files(name):
    """File name -> exact text, for one shell."""
    shell = SHELLS[name]
    return {
        "tles.txt": tles_text(shell),
        "isls.txt": isls_text(shell),
        "ground_stations.txt": ground_stations_text(shell),
        "description.txt": description_text(shell),
    }


def default_out_root():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "scenarios", "hypatia"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-root", default=default_out_root(),
                    help="directory that receives one sub-directory per shell (default: scenarios/hypatia)")
    ap.add_argument("--shell", action="append", choices=sorted(SHELLS),
                    help="shell(s) to write (default: all)")
    args = ap.parse_args(argv)
    for name in args.shell or sorted(SHELLS):
        d = os.path.join(args.out_root, name)
        os.makedirs(d, exist_ok=True)
        for fname, text in shell_files(name).items():
            with open(os.path.join(d, fname), "w", newline="\n") as f:
                f.write(text)
        s = SHELLS[name]
        print("%s: %d satellites, max GSL %.1f m, max ISL %.1f m -> %s" % (
            name, s["planes"] * s["sats_per_plane"], max_gsl_length_m(s), max_isl_length_m(s), d))
    return 0


if __name__ == "__main__":
    sys.exit(main())
