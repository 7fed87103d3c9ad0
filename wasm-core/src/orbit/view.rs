//! What the browser's globe draws: every satellite's orbit in a form another propagator can
//! reproduce, the ground stations, the +Grid pairs and the clock, as one serialisable value.
//!
//! The globe propagates positions itself at display rate (60 frames/s for 10,000 satellites would
//! not fit through the worker boundary), so the view carries *elements*, not positions:
//! - Walker satellites: the circular orbit's parameters, for the same closed form as
//!   [`Orbit::position`] (docs/links-and-orbits.md §6);
//! - GEO satellites: the longitude;
//! - SGP4 satellites: the TLE lines or OMM record they were read from, for satellite.js.
//!
//! Satellite `i` of the view is `Constellation::sats[i]`, the id the route timeline uses.

use super::config::Built;
use super::elements::{ElementSource, Orbit};
use super::geometry::EARTH_ROTATION_RAD_S;
use super::route::Router;
use schemars::JsonSchema;
use serde::Serialize;

/// The globe's input (see the module doc).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ConstellationView {
    /// UTC date-time of orbit time 0 for SGP4 satellites (the constellation's epoch), ISO 8601
    /// to the millisecond; `None` without SGP4 satellites.
    #[schemars(with = "crate::schema::Nullable<String>")]
    pub epoch_utc: Option<String>,
    /// Orbit time at simulation time 0, s.
    pub start_s: f64,
    pub satellites: Vec<SatelliteView>,
    /// Source, destination, then the relays (or the gateways and the PoP), in the order route
    /// node ids use (−1, −2, −3, …).
    pub ground: Vec<GroundView>,
    /// Undirected ISL pairs `[a, b]` (a < b) by satellite index: +Grid of every shell and grid,
    /// or the listed ISLs; whether a pair is up at a given time (its length limit) is the route's
    /// business. Empty without ISLs.
    pub isl: Vec<[u32; 2]>,
    pub earth_rotation_rad_s: f64,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SatelliteView {
    pub name: String,
    /// Walker shell index, plane and slot (`None` outside Walker shells).
    #[schemars(with = "crate::schema::Nullable<u32>")]
    pub shell: Option<u32>,
    #[schemars(with = "crate::schema::Nullable<u32>")]
    pub plane: Option<u32>,
    #[schemars(with = "crate::schema::Nullable<u32>")]
    pub slot: Option<u32>,
    pub orbit: OrbitView,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OrbitView {
    /// ECI position from `u = u0 + rate·t` on the circle, rotated by `−ω_E·t` to ECEF.
    Circular {
        radius_km: f64,
        inclination_deg: f64,
        raan_deg: f64,
        u0_deg: f64,
        rate_rad_s: f64,
    },
    Geo {
        longitude_deg: f64,
    },
    /// An SGP4 satellite from TLE lines; `kind` is `sgp4` for both sources, which the fields
    /// tell apart.
    #[serde(rename = "sgp4")]
    Sgp4Tle {
        tle_line1: String,
        tle_line2: String,
    },
    /// An SGP4 satellite from an OMM record.
    #[serde(rename = "sgp4")]
    Sgp4Omm {
        omm: serde_json::Value,
    },
    /// An SGP4 satellite added without its text ([`super::Constellation::add_elements`]): the
    /// globe cannot draw it.
    Unsourced,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GroundView {
    pub name: String,
    pub lat_deg: f64,
    pub lon_deg: f64,
    pub role: GroundRole,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GroundRole {
    Src,
    Dst,
    Relay,
    /// A gateway: takes traffic down from the satellites to the PoP.
    Gateway,
    /// The point of presence behind the gateways.
    Pop,
}

/// The view of a built constellation configuration.
pub fn constellation_view(built: &Built) -> ConstellationView {
    let c = &built.constellation;
    let satellites = c
        .sats
        .iter()
        .enumerate()
        .map(|(i, sat)| {
            let grid = c.shells.iter().enumerate().find(|(_, g)| (g.first..g.first + g.shell.total()).contains(&i));
            let (shell, plane, slot) = match grid {
                Some((k, g)) => {
                    let j = i - g.first;
                    let s = g.shell.sats_per_plane;
                    (Some(k as u32), Some((j / s) as u32), Some((j % s) as u32))
                }
                None => (None, None, None),
            };
            let orbit = match (&sat.orbit, &sat.source) {
                (Orbit::Circular(o), _) => OrbitView::Circular {
                    radius_km: o.radius_km,
                    inclination_deg: o.inclination_rad.to_degrees(),
                    raan_deg: o.raan_rad.to_degrees(),
                    u0_deg: o.u0_rad.to_degrees(),
                    rate_rad_s: o.rate_rad_s,
                },
                (Orbit::Geo { longitude_deg }, _) => OrbitView::Geo { longitude_deg: *longitude_deg },
                (Orbit::Sgp4(_), Some(ElementSource::Tle { line1, line2 })) => {
                    OrbitView::Sgp4Tle { tle_line1: line1.clone(), tle_line2: line2.clone() }
                }
                (Orbit::Sgp4(_), Some(ElementSource::Omm(record))) => OrbitView::Sgp4Omm { omm: record.clone() },
                (Orbit::Sgp4(_), None) => OrbitView::Unsourced,
            };
            SatelliteView { name: sat.name.clone(), shell, plane, slot, orbit }
        })
        .collect();
    let station = |g: &super::GroundStation, role| GroundView {
        name: g.name.clone(),
        lat_deg: g.lat_deg,
        lon_deg: g.lon_deg,
        role,
    };
    let mut ground = vec![station(&built.src, GroundRole::Src), station(&built.dst, GroundRole::Dst)];
    match &built.cfg.gateways {
        Some(g) => {
            ground.extend(g.stations.iter().map(|s| station(s, GroundRole::Gateway)));
            ground.push(station(&g.pop, GroundRole::Pop));
        }
        None => ground.extend(built.cfg.relays.iter().map(|g| station(g, GroundRole::Relay))),
    }
    ConstellationView {
        epoch_utc: c.sgp4_epoch().map(iso_utc),
        start_s: built.t0_s,
        satellites,
        ground,
        isl: isl_pairs(built),
        earth_rotation_rad_s: EARTH_ROTATION_RAD_S,
    }
}

/// The router's own ISLs (so the globe and routing can never disagree on who neighbours whom),
/// each pair once.
fn isl_pairs(built: &Built) -> Vec<[u32; 2]> {
    let c = &built.constellation;
    // Router::new refuses only configurations that cannot route (no satellites, bad mask): those
    // have no links to draw either.
    let Ok(router) = Router::new(c, built.src.clone(), built.dst.clone(), built.cfg.clone()) else {
        return Vec::new();
    };
    let mut pairs = Vec::new();
    for a in 0..c.sats.len() {
        for b in router.isl_neighbours(a) {
            if (a as u32) < b {
                pairs.push([a as u32, b]);
            }
        }
    }
    pairs
}

/// ISO 8601 with milliseconds (what JavaScript's `Date` parses), e.g. `2020-07-12T21:16:01.000Z`.
fn iso_utc(t: sgp4::chrono::NaiveDateTime) -> String {
    use sgp4::chrono::{Datelike, Timelike};
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.nanosecond() / 1_000_000
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::built_from_scenario_json;

    /// The view of a scenario with this constellation topology (without its `kind`).
    fn view_of(topology: &str) -> serde_json::Value {
        let mut t: serde_json::Value = serde_json::from_str(topology).unwrap();
        t["kind"] = "constellation".into();
        let sc = serde_json::json!({ "version": 1, "name": "v", "duration_s": 1, "topology": t,
            "flows": [{ "transport": "tcp", "cc": "reno", "bytes": 1000 }] });
        serde_json::to_value(constellation_view(&built_from_scenario_json(&sc.to_string()).unwrap())).unwrap()
    }

    #[test]
    fn a_two_by_three_walker_shell_gives_six_satellites_with_plane_slot_and_grid_pairs() {
        let v = view_of(
            r#"{"constellation": {"walker": [{"altitude_km": 550, "inclination_deg": 53, "planes": 2,
                "sats_per_plane": 3, "phasing": 1}]}, "src": "Beijing", "dst": "New York", "start_s": 60}"#,
        );
        let sats = v["satellites"].as_array().unwrap();
        assert_eq!(sats.len(), 6);
        assert_eq!(sats[4]["name"], "W0-1-1");
        assert_eq!(
            (sats[4]["shell"].as_u64(), sats[4]["plane"].as_u64(), sats[4]["slot"].as_u64()),
            (Some(0), Some(1), Some(1))
        );
        assert_eq!(sats[4]["orbit"]["kind"], "circular");
        assert!((sats[4]["orbit"]["raan_deg"].as_f64().unwrap() - 180.0).abs() < 1e-9);
        // u0 = 360·s/S + 360·F·p/T = 120 + 60.
        assert!((sats[4]["orbit"]["u0_deg"].as_f64().unwrap() - 180.0).abs() < 1e-9);
        // In-plane rings of 3 (3 pairs each) and, across the 2 planes, each slot once to the other
        // plane (the seam link from plane 1 back to plane 0 goes to slot s + F, another pair).
        let isl: Vec<[u64; 2]> =
            v["isl"].as_array().unwrap().iter().map(|p| [p[0].as_u64().unwrap(), p[1].as_u64().unwrap()]).collect();
        for pair in [[0, 1], [1, 2], [0, 2], [3, 4], [4, 5], [3, 5], [0, 3], [1, 4], [2, 5]] {
            assert!(isl.contains(&pair), "{pair:?} missing from {isl:?}");
        }
        assert!(isl.iter().all(|p| p[0] < p[1]));
        let mut dedup = isl.clone();
        dedup.sort();
        dedup.dedup();
        assert_eq!(dedup.len(), isl.len(), "a pair is listed twice");
        assert_eq!(v["epoch_utc"], serde_json::Value::Null);
        assert_eq!(v["start_s"], 60.0);
        assert_eq!(v["ground"][0]["role"], "src");
        assert_eq!(v["ground"][1]["name"], "New York");
        assert_eq!(v["ground"][2]["role"], "relay");
    }

    #[test]
    fn without_isls_there_are_no_pairs() {
        let v = view_of(
            r#"{"constellation": {"walker": [{"altitude_km": 550, "inclination_deg": 53, "planes": 2,
                "sats_per_plane": 3}]}, "src": "Beijing", "dst": "New York", "isl": "none"}"#,
        );
        assert_eq!(v["isl"], serde_json::json!([]));
    }

    const ISS: &str = "ISS (ZARYA)
1 25544U 98067A   20194.88612269 -.00002218  00000-0 -31515-4 0  9992
2 25544  51.6461 221.2784 0001413  89.1723 280.4612 15.49507896236008
";

    #[test]
    fn a_tle_gives_its_lines_and_epoch_back() {
        let cfg = serde_json::json!({"constellation": {"tle": ISS, "geo_longitudes_deg": [-75]}, "src": "Beijing", "dst": "New York"});
        let v = view_of(&cfg.to_string());
        let iss = &v["satellites"][0];
        assert_eq!(iss["name"], "ISS (ZARYA)");
        assert_eq!(iss["orbit"]["kind"], "sgp4");
        assert_eq!(iss["orbit"]["tle_line1"], ISS.lines().nth(1).unwrap());
        assert_eq!(iss["orbit"]["tle_line2"], ISS.lines().nth(2).unwrap());
        assert_eq!(iss["shell"], serde_json::Value::Null);
        // Day 194.88612269 of 2020 is 12 July, 21:16:01.000 (to the millisecond).
        assert_eq!(v["epoch_utc"], "2020-07-12T21:16:01.000Z");
        assert_eq!(v["satellites"][1]["orbit"], serde_json::json!({"kind": "geo", "longitude_deg": -75.0}));
    }

    #[test]
    fn an_omm_record_comes_back_as_given() {
        let record = serde_json::json!({
            "OBJECT_NAME": "ISS (ZARYA)", "EPOCH": "2020-07-12T21:16:01.000416",
            "MEAN_MOTION": "15.49507896", "ECCENTRICITY": 0.0001413, "INCLINATION": 51.6461,
            "RA_OF_ASC_NODE": 221.2784, "ARG_OF_PERICENTER": 89.1723, "MEAN_ANOMALY": 280.4612,
            "NORAD_CAT_ID": 25544, "BSTAR": -3.1515e-5
        });
        let cfg = serde_json::json!({"constellation": {"omm": [record.clone()]}, "src": "Beijing", "dst": "New York"});
        let v = view_of(&cfg.to_string());
        assert_eq!(v["satellites"][0]["orbit"], serde_json::json!({"kind": "sgp4", "omm": record}));
    }

    #[test]
    fn a_placed_chain_shows_its_geo_satellite_and_stations() {
        let text =
            std::fs::read_to_string(format!("{}/../scenarios/winds-table4-51mbps.json", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        let v = serde_json::to_value(constellation_view(&built_from_scenario_json(&text).unwrap())).unwrap();
        let sats = v["satellites"].as_array().unwrap();
        assert_eq!(sats.len(), 1);
        assert_eq!(sats[0]["orbit"]["kind"], "geo");
        assert_eq!(sats[0]["orbit"]["longitude_deg"], 143.0);
        assert_eq!(v["ground"].as_array().unwrap().len(), 2);
        // The run reports the fixed path, so the globe highlights the hop.
        let mut sc: serde_json::Value = serde_json::from_str(&text).unwrap();
        sc["duration_s"] = 1.into();
        let r: serde_json::Value =
            serde_json::from_str(&crate::runner::run_json(&sc.to_string(), false).unwrap()).unwrap();
        assert_eq!(r["path"]["routes"][0]["nodes"], serde_json::json!([-1, 0, -2]));
    }
}
