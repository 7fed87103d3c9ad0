//! A constellation's element sets and shells as the scenario gives them: errors that name the
//! shell, set or entry at fault; epochs that would move time zero by years; orbits inside the
//! Earth.

use orbitcp_core::orbit::elements::tle_checksum;
use orbitcp_core::scenario;
use serde_json::{json, Value};

/// A constellation scenario with `constellation` as its satellites.
fn leo(constellation: Value) -> Value {
    json!({"version": 1, "name": "t", "duration_s": 10,
        "topology": {"kind": "constellation", "constellation": constellation, "src": "Paris", "dst": "London",
            "min_elevation_deg": 0},
        "flows": [{"transport": "tcp", "cc": "reno", "bytes": 1000}]})
}

fn error(sc: Value) -> String {
    scenario::from_value(sc).map(|_| ()).unwrap_err().to_string()
}

/// An ISS-like TLE set with catalogue number `id`, epoch `yyddd.dddddddd`, mean motion and
/// eccentricity (7 digits, implied decimal point).
fn tle(id: u32, epoch: &str, mean_motion: &str, ecc: &str) -> String {
    let l1 = format!("1 {id:05}U 98067A   {epoch} -.00002218  00000-0 -31515-4 0  999");
    let l2 = format!("2 {id:05}  51.6461 221.2784 {ecc}  89.1723 280.4612 {mean_motion}23600");
    format!("{l1}{}\n{l2}{}\n", tle_checksum(&l1), tle_checksum(&l2))
}

fn walker(altitude_km: f64, planes: usize) -> Value {
    json!({"altitude_km": altitude_km, "inclination_deg": 53, "planes": planes, "sats_per_plane": 4})
}

#[test]
fn an_error_in_the_second_walker_shell_names_its_index() {
    let e = error(leo(json!({"walker": [walker(550.0, 4), walker(550.0, 0)]})));
    assert_eq!(e, "topology.constellation.walker[1].planes: must be at least 1");
    let e = error(leo(json!({"walker": walker(550.0, 0)})));
    assert_eq!(e, "topology.constellation.walker.planes: must be at least 1");
}

#[test]
fn a_geo_longitude_and_a_relay_are_named_by_their_index() {
    let e = error(leo(json!({"geo_longitudes_deg": [0, 400]})));
    assert_eq!(e, "topology.constellation.geo_longitudes_deg[1]: longitude 400° is outside −180–360°");
    let mut sc = leo(json!({"walker": walker(550.0, 4)}));
    sc["topology"]["relays"] = json!(["Tokyo", "Atlantis"]);
    let e = error(sc);
    assert!(e.starts_with("topology.relays[1]: \"Atlantis\" is not in the city table"), "{e}");
}

#[test]
fn a_tle_set_decades_from_the_others_is_refused_with_both_epochs() {
    let mm = "15.49507896";
    let text = [tle(1, "24194.88612269", mm, "0001413"), tle(2, "24195.50000000", mm, "0001413")].concat()
        + &tle(3, "56194.88612269", mm, "0001413");
    let e = error(leo(json!({ "tle": text })));
    assert!(
        e.starts_with(
            "topology.constellation.tle: line 5: TLE set 2 (NORAD 3): epoch 2056-07-12T21:16:01 is 11688 days from \
             TLE set 0 (NORAD 1, line 1), 2024-07-12T21:16:01: the element sets of one constellation may span at \
             most max_epoch_span_days (30 days)"
        ),
        "{e}"
    );
    // The span is the scenario's to choose.
    let ok = [tle(1, "24194.88612269", mm, "0001413"), tle(2, "24230.00000000", mm, "0001413")].concat();
    assert!(error(leo(json!({ "tle": ok }))).contains("max_epoch_span_days (30 days)"));
    assert!(scenario::from_value(leo(json!({ "tle": ok, "max_epoch_span_days": 40 }))).is_ok());
    let e = error(leo(json!({ "tle": ok, "max_epoch_span_days": -1 })));
    assert_eq!(e, "topology.constellation.max_epoch_span_days: must be between 0 and 36525 (got -1)");
}

#[test]
fn an_omm_record_far_from_the_others_epochs_is_named_by_its_index() {
    let record = |id: u32, epoch: &str| {
        json!({"OBJECT_NAME": format!("SAT {id}"), "NORAD_CAT_ID": id, "EPOCH": epoch, "MEAN_MOTION": 15.5,
            "ECCENTRICITY": 0.0001, "INCLINATION": 53, "RA_OF_ASC_NODE": 10, "ARG_OF_PERICENTER": 0,
            "MEAN_ANOMALY": 0})
    };
    let omm =
        json!([record(1, "2024-01-01T00:00:00"), record(2, "2024-01-02T00:00:00"), record(3, "2019-01-01T00:00:00")]);
    let e = error(leo(json!({ "omm": omm })));
    assert!(e.starts_with("topology.constellation.omm[2]: (SAT 3) epoch 2019-01-01T00:00:00 is 1827 days from OMM record 1 (SAT 2), 2024-01-02T00:00:00"), "{e}");
}

#[test]
fn orbits_inside_the_earth_are_refused_with_their_perigee() {
    // 17 rev/day: a semi-major axis of 6389 km, 11 km above the surface.
    let e = error(leo(json!({ "tle": tle(7, "24194.88612269", "17.00000000", "0001413") })));
    assert!(
        e.starts_with(
            "topology.constellation.tle: line 1: TLE set 0 (NORAD 7): perigee altitude 10 km (mean motion 17 rev/day, \
             eccentricity 0.0001413) is below 100 km, the Kármán line"
        ),
        "{e}"
    );
    let e = error(leo(json!({ "tle": tle(7, "24194.88612269", "15.49507896", "9999999") })));
    assert!(e.contains("TLE set 0 (NORAD 7): perigee altitude -6378 km"), "{e}");
    let omm = json!([{"OBJECT_NAME": "LOW", "NORAD_CAT_ID": 9, "EPOCH": "2024-01-01T00:00:00", "MEAN_MOTION": 16.9,
        "ECCENTRICITY": 0.0, "INCLINATION": 53, "RA_OF_ASC_NODE": 10, "ARG_OF_PERICENTER": 0, "MEAN_ANOMALY": 0}]);
    let e = error(leo(json!({ "omm": omm })));
    assert!(e.starts_with("topology.constellation.omm[0]: (LOW) perigee altitude"), "{e}");
    let e = error(leo(json!({"walker": [walker(550.0, 4), walker(0.001, 4)]})));
    assert!(e.starts_with("topology.constellation.walker[1].altitude_km: 0.001 km is below 100 km"), "{e}");
    // A 16 rev/day orbit clears the floor (273 km).
    assert!(scenario::from_value(leo(json!({ "tle": tle(7, "24194.88612269", "16.00000000", "0001413") }))).is_ok());
}
