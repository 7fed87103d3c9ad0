//! CTCP end to end: bytes delivered and checked, the coding behaviour of docs/ctcp.md §9, the
//! rank-only mode's equivalence to full coding, and the shapes of the paper's figures.

mod common;
use common::*;
use orbitcp_core::runner::{self, Run, TransportName};
use orbitcp_core::scenario;
use proptest::prelude::*;
use serde_json::{json, Value};

fn ctcp(variant: &str, bytes: Option<u64>, coding: &str) -> Value {
    json!({ "transport": "ctcp", "variant": variant, "bytes": bytes, "coding": coding })
}

fn testbed(per: f64, duration_s: f64, flows: Vec<Value>) -> Value {
    json!({
        "version": 1, "name": "ctcp test", "seed": 1, "duration_s": duration_s,
        "topology": { "kind": "chain", "links": [
            { "rate_mbps": 1000, "delay_ms": 0 },
            { "rate_mbps": 10, "delay_ms": 250, "buffer_pkts": 420, "loss_at": "ingress",
              "loss": { "model": "bernoulli", "p": per } } ] },
        "flows": flows,
    })
}

#[test]
fn without_loss_every_block_goes_out_as_its_k_systematic_packets() {
    let r = run(&testbed(0.0, 120.0, vec![ctcp("v1", Some(2_000_000), "full")]), false);
    let f = &r.flows[0];
    assert!(f.completed);
    assert_eq!(f.delivered_bytes, 2_000_000);
    let c = f.coding.as_ref().unwrap();
    // 2 MB in 1445-byte packets: 1385 source packets, all sent once, none coded.
    assert_eq!(c.source_packets_delivered, 1385);
    assert_eq!(c.coded_packets, 0);
    assert_eq!(c.packets_sent, 1385);
    assert_eq!(c.non_innovative, 0);
    assert_eq!(c.blocks_decoded, 1385u64.div_ceil(32));
}

#[test]
fn rank_only_takes_exactly_the_decisions_of_full_coding() {
    for (per, variant) in [(0.05, "v1"), (0.2, "v2")] {
        let results: Vec<(u64, u64, String)> = ["full", "rank-only"]
            .iter()
            .map(|coding| {
                let s = testbed(per, 60.0, vec![ctcp(variant, Some(3_000_000), coding)]);
                let sc = scenario::from_value(s).unwrap();
                let mut run = Run::new(&sc).unwrap();
                run.run();
                assert!(run.delivery_error().is_none());
                let mut result = run.result(true);
                // The two scenarios differ in their coding mode, so their hashes do.
                result.scenario_hash.clear();
                let result = serde_json::to_string(&result).unwrap();
                (run.sim.events_processed(), run.sim.event_digest(), result)
            })
            .collect();
        // The same events, in the same order, at the same times; and the same numbers and traces.
        assert_eq!(results[0].0, results[1].0, "PER {per}: event counts");
        assert_eq!(results[0].1, results[1].1, "PER {per}: event sequences");
        assert_eq!(results[0].2, results[1].2, "PER {per}: results");
    }
}

#[test]
fn ctcp_v2_goodput_stays_flat_up_to_twenty_percent_loss_while_tcp_collapses() {
    let goodput = |flow: Value, per: f64| run(&testbed(per, 100.0, vec![flow]), false).flows[0].goodput_mbps;
    let v2_low = goodput(ctcp("v2", None, "rank-only"), 0.005);
    let v2_high = goodput(ctcp("v2", None, "rank-only"), 0.2);
    // The stated shape: CTCPv2 at PER 20 % keeps at least 70 % of its PER 0.5 % goodput.
    assert!(v2_high >= 0.7 * v2_low, "v2: {v2_low:.2} → {v2_high:.2} Mbit/s");
    // And TCP variants at PER 20 % stay below 10 % of the 10 Mbit/s link.
    for cc in ["reno", "cubic", "hybla"] {
        let g = goodput(tcp(cc, None), 0.2);
        assert!(g < 1.0, "{cc} at PER 20 %: {g:.2} Mbit/s");
    }
}

#[test]
fn a_random_loss_without_queueing_does_not_shrink_the_window() {
    // On a path with a huge buffer that never queues (rate far above what cwnd 1000 can send),
    // every loss is a channel erasure: CTCP never backs off.
    let mut s = testbed(0.05, 60.0, vec![ctcp("v1", None, "rank-only")]);
    s["topology"]["links"][1]["rate_mbps"] = 1000.into();
    s["trace"] = json!({ "max_points": 100000 });
    let r = run(&s, true);
    let (_, cwnd) = column(&r, 0, "cwnd");
    let drops: Vec<bool> = cwnd.windows(2).map(|w| w[1] < w[0]).collect();
    assert!(!drops.iter().any(|&d| d), "cwnd went down although nothing queued");
}

#[test]
fn cubic_shares_as_well_with_ctcp_v2_as_with_another_cubic() {
    let cubic_goodput = |other: Value| {
        let mut s = testbed(0.01, 300.0, vec![tcp("cubic", None), other]);
        s["topology"]["links"][1]["rate_mbps"] = 5.into();
        s["topology"]["links"][1]["buffer_pkts"] = 210.into();
        run(&s, false).flows[0].goodput_mbps
    };
    let vs_ctcp = cubic_goodput(ctcp("v2", None, "rank-only"));
    let vs_cubic = cubic_goodput(tcp("cubic", None));
    eprintln!("CUBIC against CTCPv2: {vs_ctcp:.3} Mbit/s; against CUBIC: {vs_cubic:.3} Mbit/s");
    // Fig. 3's claim (the paper's solid and dashed lines lie on each other), with room for one
    // run's noise: CUBIC keeps at least 80 % of what it gets against another CUBIC. This run:
    // 0.495 against 0.436 Mbit/s; the preset's 3-run means at 1 % loss: 0.52 against 0.50.
    assert!(vs_ctcp >= 0.8 * vs_cubic, "{vs_ctcp} vs {vs_cubic}");
}

/// The bottleneck's capacity breakdown adds up. Every packet slot of the run is
/// innovative, redundant-but-needed, non-innovative, lost after the link, still in flight, used by
/// other traffic, or idle (measured by the link), to within one packet per flow edge.
#[test]
fn the_capacity_breakdown_adds_up_to_the_bottleneck_capacity() {
    let check = |s: &Value, what: &str| {
        let r = run(s, false);
        for (i, f) in r.flows.iter().enumerate().filter(|(_, f)| f.transport == TransportName::Ctcp) {
            let c = f.coding.as_ref().unwrap().capacity.as_ref().unwrap();
            let sum =
                (c.innovative_pkts + c.redundant_needed_pkts + c.non_innovative_pkts + c.lost_pkts + c.in_flight_pkts)
                    as f64
                    + c.other_pkt_slots
                    + c.idle_pkt_slots;
            eprintln!("{what}, flow {i}: {c:?}");
            assert_eq!(c.link, 2, "{what}: the 10 Mbit/s link is the bottleneck");
            let edges = 2.0 * r.flows.len() as f64;
            assert!((sum - c.link_pkt_slots).abs() <= edges, "{what}: {sum} slots of {}", c.link_pkt_slots);
            // 10 Mbit/s over the run in 1500-byte slots.
            let slots = r.end_s * 10e6 / 12_000.0;
            assert!((c.link_pkt_slots - slots).abs() < 1e-6, "{what}: {} slots, want {slots}", c.link_pkt_slots);
            assert!(c.innovative_pkts > 0);
        }
        r
    };
    // Loss at the ingress (the paper's dummynet): no slot is lost, the drops are counted apart.
    let r = check(&testbed(0.2, 60.0, vec![ctcp("v2", None, "rank-only")]), "ingress loss");
    let c = r.flows[0].coding.as_ref().unwrap().capacity.clone().unwrap();
    assert_eq!(c.lost_pkts, 0);
    assert_eq!(c.ingress_loss_pkts, r.links[2].drops.loss);
    assert!(c.redundant_needed_pkts > 0);
    // Loss on the channel: a lost packet took its slot.
    let mut s = testbed(0.1, 60.0, vec![ctcp("v2", None, "rank-only")]);
    s["topology"]["links"][1]["loss_at"] = "channel".into();
    let r = check(&s, "channel loss");
    let c = r.flows[0].coding.as_ref().unwrap().capacity.clone().unwrap();
    assert_eq!(c.lost_pkts, r.links[2].drops.loss);
    // A finite download that completes, sharing the link with CUBIC and a small buffer.
    let mut s = testbed(0.01, 60.0, vec![tcp("cubic", None), ctcp("v1", Some(5_000_000), "full")]);
    s["topology"]["links"][1]["buffer_pkts"] = 30.into();
    let r = check(&s, "with CUBIC");
    let c = r.flows[1].coding.as_ref().unwrap().capacity.clone().unwrap();
    assert!(c.other_pkt_slots > 1000.0, "CUBIC's share: {c:?}");
}

/// Per-block feedback: a later block that arrived short is repaired as soon as its
/// packets are accounted for, without waiting for the blocks before it to decode. Six blocks of
/// twenty lose one packet each in one window: with the reference code's ACK (lowest undecoded
/// block only) they are repaired one round trip after another; with per-block feedback all in
/// the same round trip, and nothing is sent twice.
#[test]
fn per_block_feedback_repairs_every_short_block_in_the_same_round_trip() {
    let run_with = |feedback: &str| {
        let mut f = ctcp("v2", Some(32 * 1445 * 20), "full");
        f["feedback"] = feedback.into();
        f["initial_cwnd_pkts"] = 1000.into();
        let mut s = testbed(0.0, 60.0, vec![f]);
        s["topology"]["links"][1]["buffer_pkts"] = 1000.into();
        // Offered packet 0 is the SYN: these are one packet in each of blocks 0, 1, 2, 3, 4, 5.
        s["topology"]["links"][1]["loss"] = json!({ "model": "list", "drops": [3, 40, 70, 100, 130, 160] });
        let r = run(&s, false);
        assert!(r.flows[0].completed);
        r
    };
    let (per_block, lowest) = (run_with("per-block"), run_with("lowest-block"));
    let done = |r: &runner::RunResult| r.flows[0].completion_s.unwrap();
    let c = per_block.flows[0].coding.as_ref().unwrap();
    // 640 source packets, 6 lost: 6 coded packets repair them, nothing more.
    assert_eq!(c.packets_sent, 646, "{c:?}");
    assert_eq!(c.non_innovative, 0);
    // One handshake, one window, one repair round: three RTTs.
    assert!(done(&per_block) < 1.6, "{}", done(&per_block));
    assert!(done(&lowest) > done(&per_block) + 0.4, "lowest-block {} s", done(&lowest));
    assert!(c.decode_latency_ms.p95 < lowest.flows[0].coding.as_ref().unwrap().decode_latency_ms.p95);
}

/// The sender's loss estimate (an EWMA of memory 128 over the per-packet loss indicators the
/// ACKs reveal) follows the loss the link really inflicted, over time: in every 10 s window its
/// mean is within 10 % of the link's realised loss rate (plus 0.002 for PER 0.5 %, where a
/// window holds only ~40 losses), and its samples rarely stray beyond the EWMA's own noise.
#[test]
fn the_loss_estimate_tracks_the_true_loss_rate_over_time() {
    let bursty = json!({ "model": "gilbert_elliott", "p_good_to_bad": 0.01, "p_bad_to_good": 0.1,
        "loss_good": 0.05, "loss_bad": 0.5 });
    for (loss, what) in [
        (json!({ "model": "bernoulli", "p": 0.005 }), "PER 0.5 %"),
        (json!({ "model": "bernoulli", "p": 0.2 }), "PER 20 %"),
        (bursty, "Gilbert-Elliott"),
    ] {
        let mut s = testbed(0.0, 100.0, vec![ctcp("v2", None, "rank-only")]);
        s["topology"]["links"][1]["loss"] = loss;
        s["trace"] = json!({ "max_points": 100000 });
        let r = run(&s, true);
        let l = &r.links[2];
        let truth = l.drops.loss as f64 / (l.drops.loss + l.delivered_pkts) as f64;
        let (t, est) = column(&r, 0, "loss_estimate");
        for w in 1..10 {
            let (a, b) = (10.0 * w as f64, 10.0 * (w + 1) as f64);
            let xs: Vec<f64> = t.iter().zip(&est).filter(|(tt, _)| (a..b).contains(*tt)).map(|(_, &x)| x).collect();
            let mean = xs.iter().sum::<f64>() / xs.len() as f64;
            assert!(
                (mean - truth).abs() <= 0.1 * truth + 0.002,
                "{what}, {a}-{b} s: estimate {mean:.4}, link {truth:.4}"
            );
        }
        // Memory 128 ⇒ standard deviation √(p(1−p)/255); 3 of them, and a margin for bursts.
        let late: Vec<f64> = t.iter().zip(&est).filter(|(tt, _)| **tt >= 10.0).map(|(_, &x)| x).collect();
        let sd = (truth * (1.0 - truth) / 255.0).sqrt();
        let near = late.iter().filter(|&&x| (x - truth).abs() <= 3.0 * sd + 0.01).count() as f64 / late.len() as f64;
        eprintln!("{what}: link {truth:.4}, {:.1} % of samples within 3 sd", 100.0 * near);
        if what != "Gilbert-Elliott" {
            assert!(near >= 0.95, "{what}: only {:.1} % of samples near {truth:.4}", 100.0 * near);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Full coding under any loss: a completed flow delivered exactly the bytes sent, checked
    /// byte for byte after decoding (run_scenario fails on any mismatch).
    #[test]
    fn ctcp_delivers_exactly_the_bytes_sent_under_random_loss(
        per in 0.0..0.5f64, bytes in 1u64..400_000, k in 1u32..64, variant in prop::sample::select(vec!["v1", "v2"]),
        reverse in 0.0..0.2f64, seed in any::<u64>(), outage in prop::bool::ANY,
    ) {
        let mut f = ctcp(variant, Some(bytes), "full");
        f["block_pkts"] = k.into();
        let mut s = testbed(per, 300.0, vec![f]);
        s["seed"] = seed.into();
        s["topology"]["links"][1]["reverse_loss"] = json!({ "model": "bernoulli", "p": reverse });
        if outage {
            s["topology"]["links"][1]["outages"] = json!([{ "start_s": 2.0, "duration_s": 3.0 }]);
        }
        let sc = scenario::from_value(s.clone()).unwrap();
        let r = runner::run_scenario(&sc, sc.seed, false).map_err(|e| TestCaseError::fail(format!("{e}\n{s}")))?;
        let f = &r.flows[0];
        if f.completed {
            prop_assert_eq!(f.delivered_bytes, bytes);
        } else {
            prop_assert!(f.delivered_bytes < bytes);
            prop_assert!(f.incomplete_reason.is_some());
        }
    }
}

/// CTCPv2 and Hybla at PER 20 %, RTT 500 ms (a 20 MB download with the preset's 600 s limit),
/// mean goodputs over seeds 1-3.
fn v2_and_hybla_at_twenty_percent_loss() -> (f64, f64) {
    let mean = |flow: Value| {
        let s = testbed(0.2, 600.0, vec![flow]);
        (1..=3).map(|seed| run_seed(&s, seed).flows[0].goodput_mbps).sum::<f64>() / 3.0
    };
    (mean(ctcp("v2", Some(20_000_000), "rank-only")), mean(tcp("hybla", Some(20_000_000))))
}

/// Fig. 2's headline, as a shape: at PER 20 % and RTT 500 ms CTCPv2 beats Hybla by an order of
/// magnitude (the paper's factor is the known-gap test below). The bound 8× leaves room for seed
/// noise while still failing if coding stopped helping.
#[test]
#[ignore = "known gap: measured 6.1x (CTCPv2 6.72, Hybla 1.10 Mbit/s, seeds 1-3; 11.7x with Hybla \
            at 0.58 before a SACK of data sent before the head's retransmission restarted the \
            retransmission timer, as Linux's tcp_clean_rtx_queue does). Linux 6.1 itself gives Hybla \
            0.62 Mbit/s over 120 s here (tools/kernel/run.py --cc hybla --rtt 500 --buffer 420 --p 0.2; \
            orbitcp 0.55-1.26 over seeds 1-3): the paper's 2.6.32 Hybla recovered worse"]
fn ctcp_v2_beats_hybla_by_an_order_of_magnitude_at_twenty_percent_loss() {
    let (v2, hybla) = v2_and_hybla_at_twenty_percent_loss();
    assert!(v2 > 8.0 * hybla, "CTCPv2 {v2:.2} Mbit/s against Hybla {hybla:.2} Mbit/s");
}

/// The paper's number: "about 21×" at PER 20 %, RTT 500 ms, within a quarter.
#[test]
#[ignore = "known gap: measured 6.1x (CTCPv2 6.72, Hybla 1.10 Mbit/s, seeds 1-3), the paper about \
            21x. A 20 MB CTCPv2 download spends a third of its 24 s ramping up (Fig. 4's 100 s runs \
            give 8.63 Mbit/s), and Hybla gets 1.10 where 21x of the paper's own CTCPv2 (8.92) \
            implies 0.42; Linux 6.1 gives Hybla 0.62 on this path (scenarios/README.md)"]
fn ctcp_v2_beats_hybla_by_the_papers_factor_at_twenty_percent_loss() {
    let (v2, hybla) = v2_and_hybla_at_twenty_percent_loss();
    let factor = v2 / hybla;
    assert!((factor - 21.0).abs() <= 0.25 * 21.0, "{factor:.1}x: CTCPv2 {v2:.2} against Hybla {hybla:.2} Mbit/s");
}
