//! Validation and running agree: a scenario that `validate` accepts runs to a result (flows that
//! did not finish say why), and never fails or panics at run time.

mod common;
use common::scenarios::chain_scenario;
use orbitcp_core::runner;
use orbitcp_core::scenario;
use proptest::prelude::*;
use serde_json::json;

/// A constellation the router refuses at run time must already fail validation: a mask of 90°
/// passed `validate` and failed `run`.
#[test]
fn validation_refuses_a_min_elevation_the_run_would_refuse() {
    let geo = |elevation: f64| {
        json!({ "version": 1, "name": "geo", "duration_s": 2,
            "topology": { "kind": "constellation", "constellation": { "geo_longitudes_deg": [0] },
                "src": "London", "dst": "Paris", "min_elevation_deg": elevation, "isl": "none" },
            "flows": [{ "transport": "tcp", "cc": "reno", "bytes": 1000 }] })
        .to_string()
    };
    for elevation in [90.0, 90.5] {
        let e = runner::validate_json(&geo(elevation)).unwrap_err().to_string();
        assert_eq!(e, format!("topology.min_elevation_deg: must be at least 0° and below 90° (got {elevation})"));
    }
    let ok = geo(10.0);
    runner::validate_json(&ok).unwrap();
    runner::run_json(&ok, false).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn every_scenario_that_validates_runs_without_error_or_panic(s in chain_scenario(), traces in any::<bool>()) {
        let text = s.to_string();
        if runner::validate_json(&text).is_err() {
            return Ok(());
        }
        let sc = scenario::parse(&text).map_err(|e| TestCaseError::fail(format!("validate accepted, parse refused: {e}")))?;
        let r = runner::run_scenario(&sc, sc.seed, traces)
            .map_err(|e| TestCaseError::fail(format!("a valid scenario failed to run: {e}\n{text}")))?;
        prop_assert_eq!(r.flows.len(), sc.flows.len());
        for (f, spec) in r.flows.iter().zip(&sc.flows) {
            if let (Some(b), false) = (spec.bytes(), f.completed) {
                prop_assert!(f.incomplete_reason.is_some(), "flow {} of {} bytes incomplete without a reason\n{}", f.id, b, text);
            }
            prop_assert!(f.goodput_mbps.is_finite(), "flow {}: goodput {}\n{}", f.id, f.goodput_mbps, text);
        }
    }
}

/// A 3000 × 3000 Walker shell is 9 million satellites: validation says so before building any.
#[test]
fn a_walker_shell_over_the_satellite_limit_is_refused_before_it_is_built() {
    let shell = |planes: u32, per_plane: u32| {
        json!({ "version": 1, "name": "big", "duration_s": 1,
            "topology": { "kind": "constellation", "src": "London", "dst": "Paris",
                "constellation": { "walker": { "altitude_km": 550, "inclination_deg": 53,
                    "planes": planes, "sats_per_plane": per_plane } } },
            "flows": [{ "transport": "tcp", "cc": "reno", "bytes": 1000 }] })
        .to_string()
    };
    let t = std::time::Instant::now();
    let e = runner::validate_json(&shell(3000, 3000)).unwrap_err().to_string();
    assert_eq!(
        e,
        "topology.constellation.walker.planes: 3000 × 3000 = 9000000 satellites; at most 100000 are supported \
         (use fewer planes or satellites per plane)"
    );
    assert!(t.elapsed().as_secs_f64() < 1.0, "validation took {:?}", t.elapsed());
    runner::validate_json(&shell(72, 22)).unwrap();
}

/// A run that spends its event budget stops there, and says so.
#[test]
fn a_run_that_reaches_max_events_stops_with_the_reason() {
    let s = json!({ "version": 1, "name": "budget", "duration_s": 100, "max_events": 5000,
        "topology": { "kind": "chain", "links": [{ "rate_mbps": 10, "delay_ms": 10 }] },
        "flows": [{ "transport": "tcp", "cc": "cubic", "bytes": 100_000_000 }, { "transport": "intcp", "bytes": null }] });
    let r = runner::run_scenario(&scenario::from_value(s.clone()).unwrap(), 1, true).unwrap();
    assert_eq!(r.events, 5000);
    assert!(r.end_s > 0.0 && r.end_s < 100.0, "stopped at {}", r.end_s);
    for f in &r.flows {
        let reason = f.incomplete_reason.as_deref().unwrap_or_default();
        assert!(reason.starts_with("event budget: the run stopped after max_events (5000) events at"), "{reason}");
        // Goodput is over the time simulated, not the whole duration_s.
        assert!(f.goodput_mbps > 0.1, "flow {}: {} Mbit/s", f.id, f.goodput_mbps);
    }
    // A run that ends before its budget is not marked.
    let mut short = s;
    short["duration_s"] = 0.5.into();
    short["max_events"] = 1_000_000.into();
    let r = runner::run_scenario(&scenario::from_value(short).unwrap(), 1, false).unwrap();
    assert!(r.flows[0].incomplete_reason.as_deref().unwrap().starts_with("time limit"));
    assert!(r.flows[1].incomplete_reason.is_none());
}

/// Interrupting a session (Ctrl-C in the CLI) stops it where it is, as the event budget does:
/// the result is the same JSON as a finished run's, every unfinished flow saying where it stopped.
#[test]
fn an_interrupted_session_reports_where_it_stopped() {
    let s = json!({ "version": 1, "name": "interrupted", "duration_s": 60, "flows_alone": true,
        "topology": { "kind": "chain", "links": [{ "rate_mbps": 10, "delay_ms": 10 }] },
        "flows": [{ "transport": "tcp", "cc": "cubic", "bytes": 100_000_000 }, { "transport": "ctcp", "variant": "v1" }] });
    let sc = scenario::from_value(s).unwrap();
    let mut session = runner::Session::new(&sc, 1).unwrap();
    for _ in 0..20_000 {
        assert!(session.step());
    }
    assert!(!session.interrupted());
    session.interrupt();
    assert!(session.interrupted());
    assert!(!session.step(), "an interrupted session takes no more steps");
    let r = session.result(false).unwrap();
    assert_eq!(r.events, 20_000);
    let reasons: Vec<&str> = r.flows.iter().map(|f| f.incomplete_reason.as_deref().unwrap()).collect();
    assert!(
        reasons[0].starts_with("interrupted at ") && reasons[0].ends_with(" bytes delivered of 100000000"),
        "{reasons:?}"
    );
    // The second flow runs alone after the first: it was stopped before it started.
    assert_eq!(reasons[1], "interrupted at 0 s of 60 s, with 0 bytes delivered");
    assert!(r.flows[0].goodput_mbps > 1.0, "goodput over the time simulated: {}", r.flows[0].goodput_mbps);
    // A session that is over is not marked by a late interrupt.
    let mut done = runner::Session::new(
        &scenario::from_value(json!({ "version": 1, "name": "short", "duration_s": 1,
        "topology": { "kind": "chain", "links": [{ "rate_mbps": 10, "delay_ms": 10 }] },
        "flows": [{ "transport": "tcp", "cc": "reno", "bytes": 1000 }] }))
        .unwrap(),
        1,
    )
    .unwrap();
    while done.step() {}
    done.interrupt();
    assert!(!done.interrupted());
    assert!(done.result(false).unwrap().flows[0].completed);
}

/// The fastest link allowed with no propagation delay: simulated time still moves, and the
/// run ends on its time limit.
#[test]
fn the_fastest_link_allowed_still_moves_simulated_time() {
    let s = json!({ "version": 1, "name": "fast", "duration_s": 0.01,
        "topology": { "kind": "chain", "links": [{ "rate_mbps": 100000, "delay_ms": 0 }] },
        "flows": [{ "transport": "tcp", "cc": "reno", "bytes": null }] });
    let r = runner::run_scenario(&scenario::from_value(s).unwrap(), 1, false).unwrap();
    assert!(r.flows[0].delivered_bytes > 0);
    assert!(r.flows[0].incomplete_reason.is_none());
}

/// The longest chain allowed builds its routes and runs in a moment.
#[test]
fn a_chain_of_the_most_links_allowed_builds_and_runs() {
    let link = json!({ "rate_mbps": 1000, "delay_ms": 0.01 });
    let s = json!({ "version": 1, "name": "long", "duration_s": 1,
        "topology": { "kind": "chain", "links": vec![link; scenario::MAX_CHAIN_LINKS] },
        "flows": [{ "transport": "tcp", "cc": "reno", "bytes": 10000 }] });
    let t = std::time::Instant::now();
    let r = runner::run_scenario(&scenario::from_value(s).unwrap(), 1, false).unwrap();
    assert!(r.flows[0].completed, "{:?}", r.flows[0].incomplete_reason);
    assert!(t.elapsed().as_secs_f64() < 5.0, "took {:?}", t.elapsed());
}
