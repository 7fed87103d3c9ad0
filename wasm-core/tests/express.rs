//! The express path (`net::express`, `engine::forward`) against the hop-by-hop run: over random
//! constellations, routes that change every fraction of a second, and flows of every transport,
//! a run with the express path must give the same result as the same run with `"express": false`,
//! every figure and trace bit for bit; only the number of events may differ.
//!
//! `cargo test --release --test express`; `ORBITCP_EXPRESS_CASES=N` runs more cases
//! (BENCHMARKS.md, "The express path").

mod common;
use common::scenarios::{bytes_and_start, cases_from_env, intcp_transport, maybe, place, transport};
use orbitcp_core::runner::{self, RunResult};
use orbitcp_core::scenario;
use proptest::prelude::*;
use serde_json::{json, Value};

const DEFAULT_CASES: u32 = 48;

fn cases() -> u32 {
    cases_from_env("ORBITCP_EXPRESS_CASES", DEFAULT_CASES)
}

/// Link models whose rates differ from hop to hop, so that some satellite links queue and some
/// do not.
fn link_model() -> impl Strategy<Value = Value> {
    let capacity = prop_oneof![
        (0.5..80.0f64).prop_map(|r| json!({ "fixed_mbps": r })),
        (25.0..45.0f64, 5.0..20.0f64, 1.0..30.0f64).prop_map(|(eirp, gt, bw)| json!({ "budget": {
            "frequency_ghz": 12, "eirp_dbw": eirp, "g_over_t_db_k": gt, "bandwidth_mhz": bw,
            "other_losses_db": 1, "efficiency": 0.8 } })),
    ];
    let loss = prop_oneof![
        Just(json!({ "fixed": 0.0 })),
        (0.0..0.05f64).prop_map(|p| json!({ "fixed": p })),
        (0.0..0.05f64, 0.0..0.01f64)
            .prop_map(|(lo, hi)| json!({ "elevation": { "at_min_elevation": lo, "at_zenith": hi } })),
    ];
    (capacity, loss).prop_map(|(c, l)| json!({ "capacity": c, "loss": l }))
}

fn constellation() -> impl Strategy<Value = Value> {
    let shell = (500.0..1500.0f64, 40.0..90.0f64, 4usize..14, 6usize..18, 0usize..4).prop_map(
        |(alt, inc, planes, per_plane, phasing)| {
            json!({ "walker": { "altitude_km": alt, "inclination_deg": inc, "planes": planes,
                    "sats_per_plane": per_plane, "phasing": phasing % planes } })
        },
    );
    (
        (shell, place(60.0), place(60.0), 0.0..30.0f64, prop_oneof![0.02..0.5f64, 0.5..2.0f64]),
        (prop::bool::weighted(0.85), any::<bool>(), any::<bool>(), prop_oneof![Just(0.0), 0.0..0.3f64]),
        (link_model(), link_model(), 2u32..400, any::<bool>(), maybe((1.0..200.0f64, 0.0..30.0f64, 0.0..0.02f64))),
    )
        .prop_map(
            |((c, src, dst, elev, step), (isl, stay, drop, outage), (gsl, isl_model, buffer, rloss, access))| {
                let mut t = json!({ "kind": "constellation", "constellation": c, "src": src, "dst": dst,
                "min_elevation_deg": elev, "step_s": step, "isl": if isl { "plus_grid" } else { "none" },
                "attachment": if stay { "stay_until_lost" } else { "highest_elevation" },
                "handover_outage_s": outage, "buffer_pkts": buffer, "reverse_loss": rloss,
                "on_route_change": if drop { "drop" } else { "deliver" },
                "links": { "gsl": gsl, "isl": isl_model } });
                if let Some((rate, delay, loss)) = access {
                    t["access"] = json!({ "rate_mbps": rate, "delay_ms": delay, "loss": loss });
                }
                t
            },
        )
}

fn scenario() -> impl Strategy<Value = Value> {
    (0.5..8.0f64).prop_flat_map(|duration| {
        let flow = (transport(None), bytes_and_start(duration))
            .prop_map(|(mut f, (bytes, start))| {
                f["bytes"] = bytes;
                f["start_s"] = start.into();
                f
            })
            .boxed();
        let flows = prop_oneof![4 => prop::collection::vec(flow.clone(), 1..2), 1 => prop::collection::vec(flow, 2..3)];
        (constellation(), flows, any::<u64>(), prop::bool::weighted(0.3)).prop_map(move |(t, flows, seed, alone)| {
            json!({ "version": 1, "name": "express", "seed": seed, "duration_s": duration,
                    "flows_alone": alone, "topology": t, "flows": flows })
        })
    })
}

/// INTCP flows alone over random constellations: every node holds a midnode, and satellites
/// the route leaves with data queued skip their idle ticks; routes that change every fraction
/// of a second bring them back onto the route while they hold it.
fn intcp_scenario() -> impl Strategy<Value = Value> {
    (1.0..6.0f64).prop_flat_map(|duration| {
        let flow = (intcp_transport(None), bytes_and_start(duration)).prop_map(|(mut f, (bytes, start))| {
            f["bytes"] = bytes;
            f["start_s"] = start.into();
            f
        });
        (constellation(), prop::collection::vec(flow, 1..3), any::<u64>(), any::<bool>()).prop_map(
            move |(t, flows, seed, alone)| {
                json!({ "version": 1, "name": "express-intcp", "seed": seed, "duration_s": duration,
                        "flows_alone": alone, "topology": t, "flows": flows })
            },
        )
    })
}

fn run(sc: &scenario::Scenario, express: bool) -> RunResult {
    let mut sc = sc.clone();
    sc.express = express;
    runner::run_scenario(&sc, sc.seed, true).unwrap_or_else(|e| panic!("{e}"))
}

/// The result as JSON without its event count and the scenario's hash (`"express": false` is
/// part of the scenario).
fn figures(r: &RunResult) -> Value {
    let mut v = serde_json::to_value(r).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("events");
    o.remove("scenario_hash");
    v
}

/// Where two results first differ: a path such as `flows[0].owd_ms.mean`, with both values.
fn difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.iter().find_map(|(k, v)| difference(v, y.get(k).unwrap_or(&Value::Null), &format!("{at}.{k}")))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (v, w))| difference(v, w, &format!("{at}[{i}]")))
        }
        _ if a == b => None,
        _ => Some(format!("{at}: {} with the express path, {} hop by hop", short(a), short(b))),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 200 {
        format!("{}… ({} elements)", &s[..200], v.as_array().map_or(0, Vec::len))
    } else {
        s
    }
}

fn same_result(fast: &RunResult, slow: &RunResult) -> Result<(), String> {
    match difference(&figures(fast), &figures(slow), "") {
        None => Ok(()),
        Some(d) => Err(d),
    }
}

/// Runs scenario `s` (if it is valid) with the express path and without: the first may process
/// fewer events, and nothing else may differ.
fn both_ways(s: &Value) -> Result<(), TestCaseError> {
    let Ok(sc) = scenario::from_value(s.clone()) else { return Ok(()) };
    let (fast, slow) = (run(&sc, true), run(&sc, false));
    prop_assert!(fast.events <= slow.events, "{} events with the express path, {} without", fast.events, slow.events);
    if let Err(d) = same_result(&fast, &slow) {
        prop_assert!(false, "the express path changed {d} in {s}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_express_path_gives_the_hop_by_hop_result_bit_for_bit(s in scenario()) {
        both_ways(&s)?;
    }

    #[test]
    fn intcp_skipping_stranded_ticks_gives_the_result_of_every_tick(s in intcp_scenario()) {
        both_ways(&s)?;
    }
}

/// The preset the express path is for: one flow from Beijing to New York, 20 hops, for
/// `duration_s`: the TCP flow of congestion control `cc`, or with `"intcp"` the INTCP flow.
fn beijing_new_york(cc: &str, duration_s: u32) -> scenario::Scenario {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/leo-beijing-newyork-1600.json"))
            .unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let flow = v["flows"].as_array().unwrap().iter().find(|f| f["cc"] == cc || f["transport"] == cc).unwrap().clone();
    v["flows"] = json!([flow]);
    v["flows_alone"] = false.into();
    v["duration_s"] = duration_s.into();
    scenario::from_value(v).unwrap()
}

/// The preset's flow `cc` (as `beijing_new_york`) for 120 s, across the route's first four
/// changes, run with the express path and without: the two results, checked to be the same.
fn across_the_first_four_handovers(cc: &str) -> (RunResult, RunResult) {
    let sc = beijing_new_york(cc, 120);
    let (fast, slow) = (run(&sc, true), run(&sc, false));
    same_result(&fast, &slow).unwrap();
    let handovers = fast.path.as_ref().map_or(0, |p| p.events.len());
    assert!(handovers >= 4, "the run crosses the preset's first four handovers, got {handovers}");
    (fast, slow)
}

#[test]
fn a_tcp_packet_from_beijing_to_new_york_costs_a_few_events_instead_of_one_per_hop() {
    let sc = beijing_new_york("hybla", 20);
    let (fast, slow) = (run(&sc, true), run(&sc, false));
    same_result(&fast, &slow).unwrap();
    // Hop by hop, a data packet and its ACK are about 40 events; with the express path four
    // (the last two links of each direction), plus the senders' timers.
    assert!(fast.events * 4 < slow.events, "{} events with the express path, {} without", fast.events, slow.events);
}

#[test]
fn the_express_path_resumes_after_each_handover_with_a_queue_standing() {
    // Hybla keeps the bottleneck's 200 packets queued; the route changes at 40, 53, 106 and
    // 118 s. Packets that cross a change go hop by hop, and those behind them in their own
    // direction wait for them; the ACKs, on the other links of the route, need not wait for the
    // data queued ahead, so the run goes back to a few events per packet.
    let (fast, slow) = across_the_first_four_handovers("hybla");
    assert!(fast.events * 4 < slow.events, "{} events with the express path, {} without", fast.events, slow.events);
}

#[test]
fn intcp_leaves_out_the_ticks_of_satellites_the_route_left_and_gets_the_same_result() {
    // INTCP's packets cross hop by hop (a midnode works on every node). What the run leaves out
    // are the 1 ms ticks of a satellite the route left with data still queued: each found no
    // one downstream and changed nothing (`IntcpNode::stranded_until`). Across the first four
    // handovers (40, 53, 106 and 118 s) that was 13.94 M events against 11.42 M.
    let (fast, slow) = across_the_first_four_handovers("intcp");
    assert!(
        fast.events * 10 < slow.events * 9,
        "{} events skipping stranded ticks, {} without",
        fast.events,
        slow.events
    );
}
