//! No data lost: under any loss pattern, every flow that completes delivered exactly the bytes
//! sent, in order (the receiver checks each delivered range against the seeded content), and a
//! flow that does not complete says why.

mod common;
use orbitcp_core::runner;
use orbitcp_core::scenario;
use orbitcp_core::tcp::congestion::CcKind;
use proptest::prelude::*;
use serde_json::{json, Value};

fn loss_model() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0.0..0.5f64).prop_map(|p| json!({ "model": "bernoulli", "p": p })),
        (0.0..0.2f64, 0.05..1.0f64, 0.0..0.05f64, 0.3..1.0f64).prop_map(|(gb, bg, lg, lb)| json!({
            "model": "gilbert_elliott", "p_good_to_bad": gb, "p_bad_to_good": bg, "loss_good": lg, "loss_bad": lb
        })),
        prop::collection::vec(0u64..400, 0..40).prop_map(|d| json!({ "model": "list", "drops": d })),
    ]
}

fn outages() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        prop::collection::vec((0.0..60.0f64, 0.05..5.0f64), 1..4)
            .prop_map(|v| Value::Array(v.into_iter().map(|(s, d)| json!({ "start_s": s, "duration_s": d })).collect())),
        (2.0..20.0f64, 0.1..0.9f64)
            .prop_map(|(every, frac)| json!({ "every_s": every, "duration_s": every * frac * 0.5 })),
    ]
}

fn flow() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(CcKind::ALL.to_vec()),
        1u64..400_000,
        any::<bool>(),
        any::<bool>(),
        prop::sample::select(vec![536u32, 1024, 1448]),
        0.0..5.0f64,
        prop::sample::select(vec!["linux", "ns3"]),
    )
        .prop_map(|(cc, bytes, sack, delayed_ack, mss, start, profile)| {
            json!({ "transport": "tcp", "cc": cc.name(), "bytes": bytes, "sack": sack,
                    "delayed_ack": delayed_ack, "mss_bytes": mss, "start_s": start, "profile": profile })
        })
}

fn scenario_strategy() -> impl Strategy<Value = Value> {
    (
        loss_model(),
        prop::option::of(0.0..0.3f64),
        outages(),
        1.0..20.0f64,
        1.0..150.0f64,
        prop::option::of(4u32..200),
        prop::collection::vec(flow(), 1..3),
        any::<u64>(),
        prop::bool::weighted(0.3),
    )
        .prop_map(|(loss, rev, outages, rate, delay, buffer, flows, seed, two_hops)| {
            let mut link = json!({ "rate_mbps": rate, "delay_ms": delay, "loss": loss });
            if let Some(b) = buffer {
                link["buffer_pkts"] = b.into();
            }
            if let Some(p) = rev {
                link["reverse_loss"] = json!({ "model": "bernoulli", "p": p });
            }
            if !outages.is_null() {
                link["outages"] = outages;
            }
            let mut links = vec![link];
            if two_hops {
                links.insert(0, json!({ "rate_mbps": 100, "delay_ms": 1, "jitter_ms": 2 }));
            }
            json!({ "version": 1, "name": "prop", "seed": seed, "duration_s": 120,
                    "topology": { "kind": "chain", "links": links }, "flows": flows })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn every_completed_flow_delivered_exactly_the_bytes_sent(s in scenario_strategy()) {
        let sc = scenario::from_value(s.clone()).map_err(|e| TestCaseError::fail(format!("generated an invalid scenario: {e}")))?;
        // run_scenario fails if any receiver saw a wrong, misplaced or surplus byte.
        let r = runner::run_scenario(&sc, sc.seed, false).map_err(|e| TestCaseError::fail(format!("{e}\n{s}")))?;
        for (f, spec) in r.flows.iter().zip(s["flows"].as_array().unwrap()) {
            let bytes = spec["bytes"].as_u64().unwrap();
            if f.completed {
                prop_assert_eq!(f.delivered_bytes, bytes);
                prop_assert!(f.incomplete_reason.is_none());
            } else {
                prop_assert!(f.delivered_bytes < bytes);
                let reason = f.incomplete_reason.as_deref().unwrap_or("");
                prop_assert!(reason.starts_with("time limit"), "no reason for an incomplete flow: {}", reason);
            }
        }
    }
}

/// Every congestion control completes a transfer, with SACK on (over a small buffer that its
/// slow start overflows) and off (over a buffer that never overflows: see the NewReno test below
/// for why a massive overflow without SACK takes minutes).
#[test]
fn every_congestion_control_completes_a_transfer() {
    for cc in CcKind::ALL {
        for sack in [true, false] {
            let mut f = common::tcp(cc.name(), Some(3_000_000));
            f["sack"] = sack.into();
            let buffer = if sack { Some(100) } else { None };
            let s = common::one_hop(10.0, 100.0, buffer, 0.0, 120.0, vec![f]);
            let r = common::run(&s, false);
            assert!(r.flows[0].completed, "{} sack={sack}: {:?}", cc.name(), r.flows[0].incomplete_reason);
        }
    }
}

/// Heavy loss in both directions on every congestion control: flows finish, slowly.
#[test]
fn every_congestion_control_survives_twenty_percent_loss_both_ways() {
    for cc in CcKind::ALL {
        let mut s = common::one_hop(10.0, 50.0, Some(100), 0.2, 600.0, vec![common::tcp(cc.name(), Some(200_000))]);
        s["topology"]["links"][0]["reverse_loss"] = json!({ "model": "bernoulli", "p": 0.2 });
        let r = common::run(&s, false);
        assert!(r.flows[0].completed, "{}: {:?}", cc.name(), r.flows[0].incomplete_reason);
        assert!(r.flows[0].timeouts > 0, "{}: 20 % loss must cost timeouts", cc.name());
    }
}

/// RFC 6582: without SACK, each partial ACK repairs one hole, so k losses in one window are
/// retransmitted over about k − 1 round trips; with SACK all are retransmitted at once.
#[test]
fn newreno_repairs_one_hole_per_round_trip_and_sack_repairs_them_together() {
    let repair_span = |sack: bool| {
        let mut f = common::tcp("reno", Some(1_000_000));
        f["sack"] = sack.into();
        f["initial_cwnd_pkts"] = 60.into();
        let mut s = common::one_hop(100.0, 50.0, None, 0.0, 60.0, vec![f]);
        // Ten losses in the first window (data packets 2 to 38: packet 0 is the SYN).
        s["topology"]["links"][0]["loss"] = json!({ "model": "list", "drops": [3, 7, 11, 15, 19, 23, 27, 31, 35, 39] });
        s["trace"] = json!({ "max_points": 100000 });
        let r = common::run(&s, true);
        assert!(r.flows[0].completed);
        assert_eq!(r.flows[0].retransmissions, 10, "sack={sack}: exactly the lost segments are resent");
        let (t, rtx) = common::column(&r, 0, "retransmissions");
        let first = t[rtx.iter().position(|&x| x >= 1.0).unwrap()];
        let last = t[rtx.iter().position(|&x| x >= 10.0).unwrap()];
        last - first
    };
    let rtt = 0.1;
    let with_sack = repair_span(true);
    assert!(with_sack < 0.1 * rtt, "SACK spread its retransmissions over {with_sack:.3} s");
    // Nine round trips, give or take the serialisation of what is queued (a few ms at 100 Mbit/s).
    let newreno = repair_span(false);
    assert!((newreno - 9.0 * rtt).abs() < 0.1 * rtt, "NewReno spread them over {newreno:.3} s");
}
