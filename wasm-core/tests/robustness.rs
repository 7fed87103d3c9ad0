//! Validation and running agree: a scenario that `validate` accepts runs to a result (flows that
//! did not finish say why), and never fails or panics at run time.

use orbitcp_core::runner;
use orbitcp_core::scenario;
use orbitcp_core::tcp::congestion::CcKind;
use proptest::prelude::*;
use serde_json::{json, Value};

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
        let e = runner::validate_json(&geo(elevation)).unwrap_err();
        assert_eq!(e, format!("topology.min_elevation_deg: must be at least 0° and below 90° (got {elevation})"));
    }
    let ok = geo(10.0);
    runner::validate_json(&ok).unwrap();
    runner::run_json(&ok, false).unwrap();
}

fn maybe<T: std::fmt::Debug + Clone + 'static>(s: impl Strategy<Value = T> + 'static) -> BoxedStrategy<Option<T>> {
    prop::option::weighted(0.4, s).boxed()
}

fn loss_model() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({ "model": "none" })),
        prop_oneof![0.0..0.3f64, Just(1.0)].prop_map(|p| json!({ "model": "bernoulli", "p": p })),
        (0.0..1.0f64, 0.0..1.0f64, 0.0..0.2f64, 0.0..1.0f64).prop_map(|(gb, bg, lg, lb)| json!({
            "model": "gilbert_elliott", "p_good_to_bad": gb, "p_bad_to_good": bg, "loss_good": lg, "loss_bad": lb
        })),
        prop::collection::vec(0u64..300, 0..30).prop_map(|d| json!({ "model": "list", "drops": d })),
    ]
}

fn rate() -> impl Strategy<Value = f64> {
    prop_oneof![8 => 0.01..1.0f64, 8 => 1.0..60.0f64, 1 => Just(100_000.0)]
}

fn schedule(duration: f64) -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::collection::vec((0.0..duration, rate()), 1..5).prop_map(|mut steps| {
            steps.sort_by(|a, b| a.0.total_cmp(&b.0));
            steps.dedup_by(|a, b| a.0 == b.0);
            Value::Array(steps.into_iter().map(|(at, r)| json!({ "at_s": at, "rate_mbps": r })).collect())
        }),
        (rate(), rate(), 0.001..5.0f64)
            .prop_map(|(lo, hi, p)| json!({ "square": { "low_mbps": lo, "high_mbps": hi, "period_s": p } })),
    ]
}

fn outages(duration: f64) -> impl Strategy<Value = Value> {
    prop_oneof![
        // Overlapping and nested ones too.
        prop::collection::vec((0.0..duration, 1e-6..duration), 1..5)
            .prop_map(|v| Value::Array(v.into_iter().map(|(s, d)| json!({ "start_s": s, "duration_s": d })).collect())),
        (1e-3..duration, 0.01..0.99f64, maybe(0.0..duration)).prop_map(|(every, frac, first)| {
            let mut o = json!({ "every_s": every, "duration_s": every * frac });
            if let Some(f) = first {
                o["first_s"] = f.into();
            }
            o
        }),
    ]
}

fn link(duration: f64) -> impl Strategy<Value = Value> {
    (
        (rate(), maybe(rate()), prop_oneof![Just(0.0), 0.0..300.0f64], maybe(1u32..400), maybe(64u64..400_000)),
        (prop_oneof![Just(0.0), 0.0..20.0f64], any::<bool>(), maybe(loss_model()), any::<bool>(), maybe(loss_model())),
        (maybe(schedule(duration)), maybe(outages(duration))),
    )
        .prop_map(|((rate, reverse, delay, pkts, bytes), (jitter, reorder, loss, ingress, rloss), (sched, out))| {
            let mut l = json!({ "rate_mbps": rate, "delay_ms": delay, "jitter_ms": jitter, "jitter_reorder": reorder,
                                "loss_at": if ingress { "ingress" } else { "channel" } });
            let fields = [
                ("reverse_rate_mbps", reverse.map(Value::from)),
                // Both buffers at once is a validation error: let some through.
                ("buffer_pkts", pkts.map(Value::from)),
                ("buffer_bytes", bytes.filter(|_| pkts.is_none() || rate > 30.0).map(Value::from)),
                ("loss", loss),
                ("reverse_loss", rloss),
                ("rate_schedule", sched),
                ("outages", out),
            ];
            for (k, v) in fields {
                if let Some(v) = v {
                    l[k] = v;
                }
            }
            l
        })
}

/// A flow of any transport between two distinct nodes of an `n`-link chain, in either direction.
fn flow(n: u32, duration: f64) -> impl Strategy<Value = Value> {
    let ends = (0..=n, 0..=n).prop_filter("distinct ends", |(a, b)| a != b);
    let bytes = prop_oneof![Just(Value::Null), (1u64..3_000_000).prop_map(Value::from)];
    let common = (ends, bytes, prop_oneof![Just(0.0), 0.0..duration * 0.9]);
    let tcp = (
        prop::sample::select(CcKind::ALL.to_vec()),
        (64u32..9000, 1u32..200, maybe(2u32..2000), any::<bool>(), any::<bool>()),
        (any::<bool>(), 1.0..500.0f64, any::<bool>(), maybe(1.0..3000.0f64), maybe(1u32..2000)),
    )
        .prop_map(|(cc, (mss, iw, ssthresh, sack, hystart), (delack, delack_ms, rfc, rto_min, rwnd))| {
            json!({ "transport": "tcp", "cc": cc.name(), "mss_bytes": mss, "initial_cwnd_pkts": iw,
                    "initial_ssthresh_pkts": ssthresh, "sack": sack, "hystart": hystart, "delayed_ack": delack,
                    "delack_ms": delack_ms, "rto_flavor": if rfc { "rfc6298" } else { "linux" },
                    "rto_min_ms": rto_min, "rwnd_pkts": rwnd })
        });
    let ctcp = (
        any::<bool>(),
        (64u32..3000, 1u32..=255, 1u32..200, any::<bool>()),
        (2u32..2000, 1u32..100, 2u32..1000, 0.0..5.0f64, 0.0..10.0f64),
    )
        .prop_map(|(v2, (mss, k, blocks, full), (max_cwnd, iw, ssthresh, delta_l, scaling))| {
            json!({ "transport": "ctcp", "variant": if v2 { "v2" } else { "v1" }, "mss_bytes": mss,
                    "block_pkts": k, "max_blocks": blocks, "coding": if full { "full" } else { "rank-only" },
                    "max_cwnd_pkts": max_cwnd, "initial_cwnd_pkts": iw.min(max_cwnd),
                    "initial_ssthresh_pkts": ssthresh, "v2_delta_l_s": delta_l, "loss_scaling": scaling })
        });
    let intcp = (
        (any::<bool>(), 0u64..20_000_000, prop::collection::btree_map(0..=n, 0u64..2_000_000, 0..3), 64u32..3000),
        (1.0..50.0f64, 0.0..10_000.0f64, 0.05..1.0f64, 1.0..500.0f64, 0.05..10.0f64),
        (0.1..100.0f64, 0.0..300.0f64, 0.1..20.0f64, 1u32..20),
        (any::<bool>(), prop::sample::select(vec![None, Some("a"), Some("b")])),
    )
        .prop_map(
            |(
                (cache, cache_bytes, node_cache, mss),
                (target, threshold, k, ssthresh, window),
                (min_rate, extra_rate, ca, holes),
                (mixed, name),
            )| {
                let node_cache: serde_json::Map<String, Value> =
                    node_cache.into_iter().map(|(node, b)| (node.to_string(), b.into())).collect();
                json!({ "transport": "intcp", "cache": cache, "cache_bytes": cache_bytes,
                        "node_cache_bytes": node_cache, "mss_bytes": mss, "target_buffer_pkts": target,
                        "queue_threshold_bytes": threshold, "decrease_factor": k, "ssthresh_pkts": ssthresh,
                        "min_rtt_window_s": window, "min_rate_mbps": min_rate,
                        "max_rate_mbps": (min_rate + extra_rate).min(327.0), "ca_increase_pkts": ca,
                        "hole_threshold_pkts": holes, "name": name, "hop_cc": if mixed { json!("mixed") } else { json!([]) } })
            },
        );
    (common, prop_oneof![tcp, ctcp, intcp]).prop_map(|(((from, to), bytes, start), mut f)| {
        f["from_node"] = from.into();
        f["to_node"] = to.into();
        f["bytes"] = bytes;
        f["start_s"] = start.into();
        if f["hop_cc"] == json!("mixed") {
            // One controller per hop, alternating.
            let hops = from.abs_diff(to);
            f["hop_cc"] = (0..hops).map(|h| if h % 2 == 0 { "reno" } else { "intcp" }).collect();
        }
        if f["name"].is_null() {
            f.as_object_mut().unwrap().remove("name");
        }
        f
    })
}

fn chain_scenario() -> impl Strategy<Value = Value> {
    (1u32..4, 0.05..4.0f64).prop_flat_map(|(n, duration)| {
        (
            prop::collection::vec(link(duration), n as usize),
            prop::collection::vec(flow(n, duration), 1..4),
            (any::<u64>(), prop::bool::weighted(0.2), maybe(1u64..100_000)),
            (2u32..3000, prop_oneof![Just(0.0), 0.0..0.5f64], 0.005..2.0f64),
        )
            .prop_map(move |(links, flows, (seed, alone, budget), (points, interval, goodput))| {
                let mut s = json!({ "version": 1, "name": "prop", "seed": seed, "duration_s": duration,
                        "flows_alone": alone, "topology": { "kind": "chain", "links": links }, "flows": flows,
                        "trace": { "max_points": points, "interval_s": interval, "goodput_interval_s": goodput } });
                if let Some(b) = budget {
                    s["max_events"] = b.into();
                }
                s
            })
    })
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
    let e = runner::validate_json(&shell(3000, 3000)).unwrap_err();
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
