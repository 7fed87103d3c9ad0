//! INTCP end to end: exact delivery under loss, outages and any cache size; caches within their
//! capacity; path-named validation; and the shapes of the two presets.

mod common;
use common::*;
use orbitcp_core::runner::Run;
use orbitcp_core::scenario;
use proptest::prelude::*;
use serde_json::{json, Value};

fn preset(name: &str) -> Value {
    let path = format!("{}/../scenarios/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("sweep");
    v
}

fn reno() -> Value {
    json!({ "transport": "tcp", "cc": "reno" })
}

fn goodput(v: &Value) -> f64 {
    run(v, false).flows[0].goodput_mbps
}

#[test]
fn a_lossless_transfer_completes_through_every_midnode_with_every_byte_checked() {
    let s = json!({
        "version": 1, "name": "intcp", "seed": 3, "duration_s": 60,
        "topology": { "kind": "chain", "links": [
            { "rate_mbps": 20, "delay_ms": 5 }, { "rate_mbps": 10, "delay_ms": 10 }, { "rate_mbps": 20, "delay_ms": 5 } ] },
        "flows": [ { "transport": "intcp", "bytes": 3_000_000 } ],
    });
    let r = run(&s, true);
    let f = &r.flows[0];
    assert!(f.completed && f.delivered_bytes == 3_000_000, "{f:?}");
    assert_eq!(f.retransmissions, 0);
    let hops = f.hops.as_ref().unwrap();
    assert_eq!(hops.iter().map(|h| h.role).collect::<Vec<_>>(), ["producer", "midnode", "midnode", "consumer"]);
    // Every midnode cached the whole transfer (the default cache is far larger).
    assert!(hops[1..3].iter().all(|h| h.cache_bytes_used == 3_000_000));
}

#[test]
fn intcp_uni_has_no_midnode_cache_and_still_delivers_under_loss() {
    let mut s = preset("intcp-two-hop-square");
    s["duration_s"] = 60.into();
    s["flows"][0] = json!({ "transport": "intcp", "bytes": 2_000_000, "cache": false });
    let r = run(&s, false);
    let f = &r.flows[0];
    assert_eq!(f.cc, "intcp-uni");
    assert!(f.completed, "{f:?}");
    let hops = f.hops.as_ref().unwrap();
    assert_eq!(hops[1].cache_bytes_used, 0);
    assert_eq!(hops[1].cache_served, 0);
}

#[test]
fn a_bad_intcp_field_is_named_by_its_path() {
    let mut s = preset("intcp-two-hop-square");
    s["flows"][0]["decrease_factor"] = 1.5.into();
    s["flows"][0]["hole_threshold_pkts"] = 0.into();
    let e = scenario::from_value(s.clone()).unwrap_err();
    assert!(e.contains("flows[0].decrease_factor: must be more than 0 and at most 1"), "{e}");
    assert!(e.contains("flows[0].hole_threshold_pkts"), "{e}");
    s["flows"][0] = json!({ "transport": "intcp", "cach": true });
    let e = scenario::from_value(s).unwrap_err();
    assert!(e.contains("flows[0]") && e.contains("cach"), "{e}");
}

/// Preset 1: INTCP's average goodput at least 1.3× TCP Reno's (measured about 9.7 vs 6.3
/// Mbit/s, 1.54×).
#[test]
fn on_the_square_wave_preset_intcp_gets_at_least_1_3_times_reno() {
    let s = preset("intcp-two-hop-square");
    let intcp = goodput(&s);
    let mut t = s.clone();
    t["flows"][0] = reno();
    let reno = goodput(&t);
    eprintln!("square wave: INTCP {intcp:.2} Mbit/s, Reno {reno:.2} Mbit/s");
    assert!(intcp >= 1.3 * reno, "INTCP {intcp:.2} vs Reno {reno:.2}");
}

/// Preset 2: from 0.5 s to 4 s outages every 20 s, INTCP keeps at least 95 % of what the lost
/// air time alone allows, (1 − 4/20)/(1 − 0.5/20) (measured 14.2/16.9), while Reno's goodput falls
/// at least 10 points further (measured 4.6/7.3).
#[test]
fn through_longer_outages_intcp_loses_only_the_air_time_while_reno_loses_more() {
    let at = |flow: Value, d: f64| {
        let mut s = preset("intcp-handover-outages");
        s["topology"]["links"][1]["outages"]["duration_s"] = d.into();
        s["flows"][0] = flow;
        goodput(&s)
    };
    let intcp = json!({ "transport": "intcp" });
    let (i_short, i_long) = (at(intcp.clone(), 0.5), at(intcp, 4.0));
    let (r_short, r_long) = (at(reno(), 0.5), at(reno(), 4.0));
    eprintln!("outages 0.5 s → 4 s: INTCP {i_short:.2} → {i_long:.2}, Reno {r_short:.2} → {r_long:.2} Mbit/s");
    let air = (1.0 - 4.0 / 20.0) / (1.0 - 0.5 / 20.0);
    assert!(i_long / i_short >= 0.95 * air, "INTCP kept {:.3}", i_long / i_short);
    assert!(r_long / r_short <= i_long / i_short - 0.1, "Reno kept {:.3}", r_long / r_short);
}

fn loss(p: f64) -> Value {
    json!({ "model": "bernoulli", "p": p })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random loss on every hop (both directions), random outages, any cache size including
    /// zero, caches on or off, two flows (one in each direction): every consumer receives
    /// exactly the producer's bytes (`run_scenario` fails on a wrong byte, and each flow
    /// completes), and no cache ever holds more than its capacity.
    #[test]
    fn every_consumer_gets_exactly_the_producers_bytes_and_caches_stay_within_capacity(
        hops in 1usize..4, losses in prop::collection::vec((0.0..0.1f64, 0.0..0.05f64), 3),
        outage in prop::option::of((2.0..10.0f64, 0.05..1.5f64)),
        cache_bytes in prop::sample::select(vec![0u64, 1000, 1449, 20_000, 100_000, 10_000_000]),
        cache in prop::bool::ANY, bytes in 1u64..300_000, bytes2 in 1u64..100_000,
        seed in any::<u64>(), threshold in 1u32..6,
    ) {
        let links: Vec<Value> = (0..hops).map(|i| {
            let mut l = json!({ "rate_mbps": 10, "delay_ms": 5 + 5 * i, "buffer_pkts": 50,
                "loss": loss(losses[i].0), "reverse_loss": loss(losses[i].1) });
            if let (Some((every, d)), true) = (outage, i == hops - 1) {
                l["outages"] = json!({ "every_s": every, "duration_s": d.min(every / 2.0) });
            }
            l
        }).collect();
        let f = |b: u64, from: u32, to: u32| json!({ "transport": "intcp", "bytes": b, "cache": cache,
            "cache_bytes": cache_bytes, "hole_threshold_pkts": threshold, "from_node": from, "to_node": to });
        let s = json!({
            "version": 1, "name": "intcp property", "seed": seed, "duration_s": 600,
            "topology": { "kind": "chain", "links": links },
            "flows": [ f(bytes, 0, hops as u32), f(bytes2, hops as u32, 0) ],
        });
        let sc = scenario::from_value(s).unwrap();
        let mut run = Run::new(&sc);
        run.run();
        prop_assert!(run.delivery_error().is_none(), "{:?}", run.delivery_error());
        let r = run.result(false);
        for (fl, b) in r.flows.iter().zip([bytes, bytes2]) {
            prop_assert!(fl.completed, "flow {} delivered {} of {b}", fl.id, fl.delivered_bytes);
            prop_assert_eq!(fl.delivered_bytes, b);
        }
        for (used, cap) in run.intcp_cache_usage() {
            prop_assert!(used <= cap, "cache holds {used} > {cap}");
            prop_assert_eq!(cap, cache_bytes);
        }
    }
}
