//! Generators of random scenarios for the property tests (`robustness.rs`, `fuzz_runs.rs`): links
//! with every loss model, bandwidth schedules and overlapping outages, and flows of every
//! transport with their options. Some of what they make is invalid on purpose (both buffers at
//! once, say): the tests check what validation accepts.

use orbitcp_core::tcp::congestion::CcKind;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Property-test cases per `cargo test`: `default`, or the count the environment variable `var`
/// gives (the long runs in BENCHMARKS.md set it).
pub fn cases_from_env(var: &str, default: u32) -> u32 {
    std::env::var(var).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// A ground place: a named city, or a point within `max_lat` degrees of the equator.
pub fn place(max_lat: f64) -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(vec!["London", "Paris", "Beijing", "Tokyo", "New York"]).prop_map(Value::from),
        (-max_lat..max_lat, -180.0..180.0f64)
            .prop_map(|(lat, lon)| json!({ "name": "p", "lat_deg": lat, "lon_deg": lon })),
    ]
}

pub fn maybe<T: std::fmt::Debug + Clone + 'static>(s: impl Strategy<Value = T> + 'static) -> BoxedStrategy<Option<T>> {
    prop::option::weighted(0.4, s).boxed()
}

pub fn loss_model() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({ "model": "none" })),
        prop_oneof![0.0..0.3f64, Just(1.0)].prop_map(|p| json!({ "model": "bernoulli", "p": p })),
        (0.0..1.0f64, 0.0..1.0f64, 0.0..0.2f64, 0.0..1.0f64).prop_map(|(gb, bg, lg, lb)| json!({
            "model": "gilbert_elliott", "p_good_to_bad": gb, "p_bad_to_good": bg, "loss_good": lg, "loss_bad": lb
        })),
        prop::collection::vec(0u64..300, 0..30).prop_map(|d| json!({ "model": "list", "drops": d })),
    ]
}

pub fn rate() -> impl Strategy<Value = f64> {
    prop_oneof![8 => 0.01..1.0f64, 8 => 1.0..60.0f64, 1 => Just(100_000.0)]
}

pub fn schedule(duration: f64) -> impl Strategy<Value = Value> {
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

pub fn outages(duration: f64) -> impl Strategy<Value = Value> {
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

pub fn link(duration: f64) -> impl Strategy<Value = Value> {
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

/// Most bytes of a CTCP block coded in full: an event may send a whole window of coded packets,
/// each costing `block_pkts × mss_bytes` GF(256) multiply-adds, so an event budget alone does
/// not keep a case short (with blocks of up to 255 × 3000 bytes, one case of a fuzzing run spent
/// minutes in the encoder). Bigger blocks run rank-only: the same decisions without the payload.
pub const MAX_FULL_BLOCK_BYTES: u32 = 64 * 1024;

/// Sets the keys of `v` whose value is given; leaves the others out (their defaults).
fn set_some(v: &mut Value, fields: Vec<(&str, Option<Value>)>) {
    for (k, x) in fields {
        if let Some(x) = x {
            v[k] = x;
        }
    }
}

/// A flow of any transport with random options, without its ends, start or byte count.
/// `hops`: the hops the flow crosses, for INTCP's per-hop controllers (`None`: not known, as on
/// a constellation, so every hop runs INTCP's own).
pub fn transport(hops: Option<u32>) -> impl Strategy<Value = Value> {
    let tcp = (
        prop::sample::select(CcKind::ALL.to_vec()),
        (64u32..9000, 1u32..200, maybe(2u32..2000), any::<bool>(), any::<bool>()),
        (any::<bool>(), 1.0..500.0f64, any::<bool>(), maybe(1.0..3000.0f64), maybe(1u32..2000)),
        (
            maybe(prop::sample::select(vec!["linux", "ns3"])),
            maybe(prop::sample::select(vec!["prr", "rfc6675"])),
            maybe(prop::sample::select(vec!["rack", "dupack"])),
            maybe(any::<bool>()),
        ),
    )
        .prop_map(
            |(
                cc,
                (mss, iw, ssthresh, sack, hystart),
                (delack, delack_ms, rfc, rto_min, rwnd),
                (profile, rec, det, tune),
            )| {
                let mut f = json!({ "transport": "tcp", "cc": cc.name(), "mss_bytes": mss, "initial_cwnd_pkts": iw,
                        "initial_ssthresh_pkts": ssthresh, "sack": sack, "hystart": hystart, "delayed_ack": delack,
                        "delack_ms": delack_ms, "rto_flavor": if rfc { "rfc6298" } else { "linux" },
                        "rto_min_ms": rto_min, "rwnd_pkts": rwnd });
                set_some(
                    &mut f,
                    vec![
                        ("profile", profile.map(Value::from)),
                        ("recovery", rec.map(Value::from)),
                        // RACK needs SACK, autotuning a window that is not fixed: validation
                        // refuses the others, and robustness.rs checks that already.
                        ("loss_detection", det.filter(|&d| sack || d == "dupack").map(Value::from)),
                        ("rcv_autotune", tune.filter(|&t| rwnd.is_none() || !t).map(Value::from)),
                    ],
                );
                f
            },
        );
    let ctcp = (
        any::<bool>(),
        (64u32..3000, 1u32..=255, 1u32..200, any::<bool>()),
        (2u32..2000, 1u32..100, 2u32..1000, 0.0..5.0f64, 0.0..10.0f64),
        (
            maybe(prop::sample::select(vec!["vegas", "congestion-loss"])),
            maybe(prop::sample::select(vec!["min-rtt", "min-rtt-or-srtt"])),
            maybe(prop::sample::select(vec!["per-block", "lowest-block"])),
            maybe(prop::sample::select(vec!["nearest", "ceil"])),
        ),
    )
        .prop_map(
            |(v2, (mss, k, blocks, full), (max_cwnd, iw, ssthresh, delta_l, scaling), (exit, gate, fb, red))| {
                let mut f = json!({ "transport": "ctcp", "variant": if v2 { "v2" } else { "v1" }, "mss_bytes": mss,
                    "block_pkts": k, "max_blocks": blocks,
                    "coding": if full && k * mss <= MAX_FULL_BLOCK_BYTES { "full" } else { "rank-only" },
                    "max_cwnd_pkts": max_cwnd, "initial_cwnd_pkts": iw.min(max_cwnd),
                    "initial_ssthresh_pkts": ssthresh, "v2_delta_l_s": delta_l, "loss_scaling": scaling });
                set_some(
                    &mut f,
                    vec![
                        ("slow_start_exit", exit.map(Value::from)),
                        ("congestion_gate", gate.map(Value::from)),
                        ("feedback", fb.map(Value::from)),
                        ("redundancy", red.map(Value::from)),
                    ],
                );
                f
            },
        );
    let intcp = intcp_transport(hops);
    let arq = (
        prop::sample::select(vec!["stop-and-wait", "go-back-n", "selective-repeat"]),
        64u32..9000,
        maybe(1u32..300),
        maybe(1.0..3000.0f64),
    )
        .prop_map(|(mode, mss, window, timeout)| {
            let mut f = json!({ "transport": "arq", "mode": mode, "mss_bytes": mss });
            // Stop-and-wait's window is 1: validation refuses any other (robustness.rs checks it).
            let window = if mode == "stop-and-wait" { window.map(|_| 1) } else { window };
            set_some(&mut f, vec![("window_pkts", window.map(Value::from)), ("timeout_ms", timeout.map(Value::from))]);
            f
        });
    prop_oneof![tcp, ctcp, intcp, arq]
}

/// An INTCP flow with any of its settings; on a chain of `hops` links, half of them mix
/// controllers (`hop_cc`).
pub fn intcp_transport(hops: Option<u32>) -> impl Strategy<Value = Value> {
    let n = hops.unwrap_or(1);
    (
        (any::<bool>(), 0u64..20_000_000, prop::collection::btree_map(0..=n, 0u64..2_000_000, 0..3), 64u32..3000),
        (1.0..50.0f64, 0.0..10_000.0f64, 0.05..1.0f64, 1.0..500.0f64, 0.05..10.0f64),
        (0.1..100.0f64, 0.0..300.0f64, 0.1..20.0f64, 1u32..20),
        (any::<bool>(), prop::sample::select(vec![None, Some("a"), Some("b")])),
    )
        .prop_map(
            move |(
                (cache, cache_bytes, node_cache, mss),
                (target, threshold, k, ssthresh, window),
                (min_rate, extra_rate, ca, holes),
                (mixed, name),
            )| {
                let node_cache: serde_json::Map<String, Value> =
                    node_cache.into_iter().map(|(node, b)| (node.to_string(), b.into())).collect();
                // One controller per hop, alternating.
                let hop_cc: Vec<&str> = match hops {
                    Some(h) if mixed => (0..h).map(|i| if i % 2 == 0 { "reno" } else { "intcp" }).collect(),
                    _ => Vec::new(),
                };
                let mut f = json!({ "transport": "intcp", "cache": cache, "cache_bytes": cache_bytes,
                        "node_cache_bytes": node_cache, "mss_bytes": mss, "target_buffer_pkts": target,
                        "queue_threshold_bytes": threshold, "decrease_factor": k, "ssthresh_pkts": ssthresh,
                        "min_rtt_window_s": window, "min_rate_mbps": min_rate,
                        "max_rate_mbps": (min_rate + extra_rate).min(327.0), "ca_increase_pkts": ca,
                        "hole_threshold_pkts": holes, "hop_cc": hop_cc });
                set_some(&mut f, vec![("name", name.map(Value::from))]);
                f
            },
        )
}

/// A byte count (or none: until the end of the run) and a start time within `duration`.
pub fn bytes_and_start(duration: f64) -> impl Strategy<Value = (Value, f64)> {
    (
        prop_oneof![Just(Value::Null), (1u64..3_000_000).prop_map(Value::from)],
        prop_oneof![Just(0.0), 0.0..duration * 0.9],
    )
}

/// A flow of any transport between two distinct nodes of an `n`-link chain, in either direction.
pub fn flow(n: u32, duration: f64) -> impl Strategy<Value = Value> {
    // Distinct ends without rejecting any: proptest caps rejections over a whole run, which a
    // filter here reached after 83 422 cases of a long fuzzing run.
    let ends = (0..=n, 1..=n).prop_map(move |(a, d)| (a, (a + d) % (n + 1)));
    (ends, bytes_and_start(duration)).prop_flat_map(move |((from, to), (bytes, start))| {
        transport(Some(from.abs_diff(to))).prop_map(move |mut f| {
            // INTCP's per-node caches, numbered along the path, on this flow's nodes.
            if let Some(Value::Object(caches)) = f.get_mut("node_cache_bytes") {
                *caches = std::mem::take(caches)
                    .into_iter()
                    .map(|(k, v)| ((k.parse::<u32>().unwrap() + from.min(to)).to_string(), v))
                    .collect();
            }
            f["from_node"] = from.into();
            f["to_node"] = to.into();
            f["bytes"] = bytes.clone();
            f["start_s"] = start.into();
            f
        })
    })
}

/// A chain of 1 to 4 links with 1 to 3 flows, sometimes run alone, sometimes with an event budget.
pub fn chain_scenario() -> impl Strategy<Value = Value> {
    (1u32..=4, 0.05..4.0f64).prop_flat_map(|(n, duration)| {
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
