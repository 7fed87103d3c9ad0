//! ARQ (docs/arq.md): what each protocol puts on the wire, checked against the textbook models
//! and against conservation of packets, and every byte delivered exactly once under any loss.

mod common;
use common::{one_hop, run, run_seed};
use orbitcp_core::runner::{self, FlowResult, RunResult};
use orbitcp_core::scenario;
use proptest::prelude::*;
use serde_json::{json, Value};

const MSS: f64 = 1460.0;
const HEADER: f64 = 40.0;

/// The GEO hop of the presets: 10 Mbit/s, 250 ms each way.
const RATE_MBPS: f64 = 10.0;
const DELAY_S: f64 = 0.25;

/// A packet's round trip on an idle hop: both propagation delays, the data packet's and the
/// ACK's transmission.
fn idle_rtt_s() -> f64 {
    2.0 * DELAY_S + (MSS + HEADER) * 8.0 / (RATE_MBPS * 1e6) + HEADER * 8.0 / (RATE_MBPS * 1e6)
}

/// The link's rate in payload bytes.
fn payload_rate_mbps() -> f64 {
    RATE_MBPS * MSS / (MSS + HEADER)
}

fn arq(mode: &str, window: Option<u32>, bytes: Option<u64>) -> Value {
    let mut f = json!({ "transport": "arq", "mode": mode, "bytes": bytes });
    if let Some(w) = window {
        f["window_pkts"] = w.into();
    }
    f
}

fn geo(p: f64, duration_s: f64, flow: Value) -> Value {
    one_hop(RATE_MBPS, DELAY_S * 1e3, Some(1000), p, duration_s, vec![flow])
}

fn wire(f: &FlowResult) -> &orbitcp_core::runner::WireSummary {
    f.wire.as_ref().expect("an ARQ flow reports its wire figures")
}

/// Every data packet sent was delivered, reached the receiver as a copy it did not need, or was
/// dropped on the way (the ACK link carries no data); after the flow completes nothing is
/// left in flight, so the three add up exactly.
fn assert_packets_conserved(r: &RunResult) {
    let f = &r.flows[0];
    assert!(f.completed, "the flow completes: {:?}", f.incomplete_reason);
    let w = wire(f);
    let dropped: u64 = r.links.iter().map(|l| l.drops.buffer + l.drops.loss + l.drops.outage).sum();
    let acks_dropped = r.links[1].drops.buffer + r.links[1].drops.loss + r.links[1].drops.outage;
    assert_eq!(
        w.data_sent,
        w.delivered + w.spurious + (dropped - acks_dropped),
        "data sent = delivered + unneeded copies + dropped data ({w:?}, links {:?})",
        r.links.iter().map(|l| l.drops).collect::<Vec<_>>()
    );
}

#[test]
fn stop_and_wait_moves_one_packet_per_round_trip() {
    let r = run(&geo(0.0, 60.0, arq("stop-and-wait", None, None)), false);
    let f = &r.flows[0];
    // Packet k reaches the receiver one data packet's trip after k round trips.
    let one_way = DELAY_S + (MSS + HEADER) * 8.0 / (RATE_MBPS * 1e6);
    let delivered = ((60.0 - one_way) / idle_rtt_s()).floor() + 1.0;
    let model = delivered * MSS * 8.0 / 60.0 / 1e6;
    assert!((f.goodput_mbps - model).abs() / model < 1e-6, "{} Mbit/s, model {model}", f.goodput_mbps);
    assert_eq!(wire(f).max_inflight_pkts, Some(1));
    assert_eq!(f.retransmissions, 0);
}

/// Below the bandwidth-delay product a window of W packets gives W packets per round trip;
/// above it, the link's payload rate: the preset `arq-geo-window`'s sweep, every point up to
/// 512 within 2 % (the first round trip of the 60 s delivers nothing), for selective repeat
/// and for go-back-N alike.
#[test]
fn the_window_sets_the_rate_up_to_the_links() {
    let mut v = preset("arq-geo-window");
    let windows: Vec<u64> =
        v["sweep"]["grid"]["flows[0].window_pkts"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).collect();
    v.as_object_mut().unwrap().remove("sweep");
    for mode in ["go-back-n", "selective-repeat"] {
        for &w in windows.iter().filter(|&&w| w <= 512) {
            v["flows"][0]["mode"] = mode.into();
            v["flows"][0]["window_pkts"] = w.into();
            let r = run(&v, false);
            let model = (w as f64 * MSS * 8.0 / idle_rtt_s() / 1e6).min(payload_rate_mbps());
            let got = r.flows[0].goodput_mbps;
            assert!((got - model).abs() / model < 0.02, "{mode}, window {w}: {got} Mbit/s, model {model}");
        }
    }
}

fn preset(id: &str) -> Value {
    let path = format!("{}/../scenarios/{id}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A window of 1024 packets sent at once queues 1024 × 1.2 ms = 1.23 s at the link, so the last
/// packets' ACKs come back after about 1.7 s, past the first timeout (1 s): the sender sends them
/// again while the first copies still wait, and the copies fill the link. Without congestion
/// control nothing stops it (the preset `arq-geo-window`'s last point).
#[test]
fn a_window_the_queue_cannot_drain_within_the_timeout_fills_the_link_with_copies() {
    let mut v = preset("arq-geo-window");
    v["flows"][0]["window_pkts"] = 1024.into();
    let r = run(&v, false);
    let f = &r.flows[0];
    let w = wire(f);
    assert!(w.spurious_per_delivered > 0.1, "copies the receiver did not need: {w:?}");
    let sent_mbps = w.data_sent as f64 * (MSS + HEADER) * 8.0 / 60.0 / 1e6;
    assert!(sent_mbps > 0.95 * RATE_MBPS, "the link is busy: {sent_mbps} Mbit/s of data packets");
    assert!(f.goodput_mbps < 0.8 * payload_rate_mbps(), "but its goodput is not: {} Mbit/s", f.goodput_mbps);
}

/// Stop-and-wait under random loss, against the exact model: each packet takes a round trip
/// plus one timeout per loss, the timeout doubling with each loss in a row and staying doubled
/// until a packet sent once is acknowledged (Karn's rule, RFC 6298 §5.5); the timeout is the
/// RFC's 1 s floor. The mean of 40 runs of 300 s is within 3 % of the model (at 10 % loss one
/// run's goodput varies by about 8 %: runs of losses make timeouts of 4 s and more).
#[test]
fn stop_and_wait_under_loss_matches_the_timeout_model() {
    const RUNS: u64 = 40;
    for p in [0.01, 0.03, 0.1] {
        let v = geo(p, 300.0, arq("stop-and-wait", None, None));
        let got: f64 = (1..=RUNS).map(|s| run_seed(&v, s).flows[0].goodput_mbps).sum::<f64>() / RUNS as f64;
        let model = stop_and_wait_model_mbps(p);
        assert!((got - model).abs() / model < 0.03, "PER {p}: {got} Mbit/s, model {model}");
    }
}

/// Mean goodput of stop-and-wait with forward loss `p`, a 1 s timeout doubled per loss in a row
/// up to 60 s, kept doubled until a packet is acknowledged on its first copy: the stationary
/// mean time per packet of the Markov chain over the number of doublings in force.
fn stop_and_wait_model_mbps(p: f64) -> f64 {
    const LEVELS: usize = 8;
    let rto = |level: usize| (1u64 << level).min(60) as f64;
    let mut time = [0.0; LEVELS];
    let mut next = [[0.0; LEVELS]; LEVELS];
    for b in 0..LEVELS {
        let mut waited = 0.0;
        for losses in 0..400 {
            let pr = p.powi(losses as i32) * (1.0 - p);
            time[b] += pr * (waited + idle_rtt_s());
            next[b][if losses == 0 { 0 } else { (b + losses).min(LEVELS - 1) }] += pr;
            waited += rto((b + losses).min(LEVELS - 1));
        }
    }
    let mut pi = [1.0 / LEVELS as f64; LEVELS];
    for _ in 0..10_000 {
        let mut n = [0.0; LEVELS];
        for (b, row) in next.iter().enumerate() {
            for (c, pr) in row.iter().enumerate() {
                n[c] += pi[b] * pr;
            }
        }
        pi = n;
    }
    let mean: f64 = pi.iter().zip(time).map(|(a, t)| a * t).sum();
    MSS * 8.0 / mean / 1e6
}

/// Selective repeat sends again exactly the packets lost: with the ACK path clean and a timeout
/// longer than the round trip, every retransmission answers a drop, and no copy is unneeded.
#[test]
fn selective_repeat_resends_only_what_was_lost() {
    for seed in 1..=3 {
        let mut flow = arq("selective-repeat", Some(64), Some(3_000_000));
        flow["timeout_ms"] = 1500.into();
        let r = run_seed(&geo(0.02, 120.0, flow), seed);
        let lost = r.links[0].drops.loss;
        let f = &r.flows[0];
        assert!(lost > 20, "seed {seed}: enough losses to count ({lost})");
        assert_eq!(f.retransmissions, lost, "seed {seed}: one retransmission per drop");
        assert_eq!(wire(f).spurious, 0);
        assert_packets_conserved(&r);
    }
}

/// Go-back-N's receiver drops every packet after a gap, so each loss costs a window: it sends
/// many more copies than packets lost, and nearly every copy of a packet already on its way
/// reaches the receiver unneeded.
#[test]
fn go_back_n_resends_the_window_behind_each_loss() {
    let mut flow = arq("go-back-n", Some(64), Some(3_000_000));
    flow["timeout_ms"] = 1500.into();
    let r = run(&geo(0.02, 240.0, flow), false);
    let f = &r.flows[0];
    let lost = r.links[0].drops.loss;
    assert!(f.retransmissions > 10 * lost, "{} copies for {lost} losses", f.retransmissions);
    assert!(wire(f).spurious > 5 * lost, "{:?}", wire(f));
    assert_packets_conserved(&r);
}

/// Packets are conserved with losses both ways, outages and either timeout, for every mode.
#[test]
fn every_data_packet_is_delivered_unneeded_or_dropped() {
    for mode in ["stop-and-wait", "go-back-n", "selective-repeat"] {
        for timeout in [Value::Null, json!(700)] {
            let window = (mode != "stop-and-wait").then_some(32);
            let mut flow = arq(mode, window, Some(if mode == "stop-and-wait" { 60_000 } else { 1_000_000 }));
            flow["timeout_ms"] = timeout.clone();
            let mut v = geo(0.03, 600.0, flow);
            v["topology"]["links"][0]["reverse_loss"] = json!({ "model": "bernoulli", "p": 0.05 });
            v["topology"]["links"][0]["outages"] = json!([{ "start_s": 5, "duration_s": 3 }]);
            let r = run(&v, false);
            assert!(r.flows[0].completed, "{mode}, timeout {timeout}");
            let w = wire(&r.flows[0]);
            let data_dropped = r.links[0].drops.loss + r.links[0].drops.buffer + r.links[0].drops.outage;
            assert_eq!(w.data_sent, w.delivered + w.spurious + data_dropped, "{mode}, timeout {timeout}: {w:?}");
        }
    }
}

/// The textbook comparison, on the preset `arq-geo-loss`: without loss go-back-N and selective
/// repeat move the same packets; with loss selective repeat is ahead at every rate, and both
/// are far ahead of stop-and-wait until the loss rate makes go-back-N's windows of copies cost
/// more than the window gains.
#[test]
fn selective_repeat_is_ahead_of_go_back_n_at_every_loss_rate() {
    let mut v = preset("arq-geo-loss");
    v.as_object_mut().unwrap().remove("sweep");
    for p in [0.0, 0.001, 0.01, 0.03] {
        v["topology"]["links"][0]["loss"]["p"] = p.into();
        let sc = scenario::from_value(v.clone()).unwrap();
        let mean = |f: usize| -> f64 {
            (1..=3).map(|s| runner::run_scenario(&sc, s, false).unwrap().flows[f].goodput_mbps).sum::<f64>() / 3.0
        };
        let (sw, gbn, sr) = (mean(0), mean(1), mean(2));
        if p == 0.0 {
            assert_eq!(gbn, sr, "no loss: the same packets");
        } else {
            assert!(sr > gbn, "PER {p}: selective repeat {sr} vs go-back-N {gbn}");
        }
        assert!(sr > 5.0 * sw, "PER {p}: a window of 64 vs stop-and-wait: {sr} vs {sw}");
    }
}

/// With a fixed timeout shorter than the round trip, stop-and-wait sends every packet at least
/// twice on a loss-free link: the lesson of choosing the timeout.
#[test]
fn a_timeout_shorter_than_the_round_trip_duplicates_every_packet() {
    let mut flow = arq("stop-and-wait", None, Some(100 * 1460));
    flow["timeout_ms"] = 300.into();
    let r = run(&geo(0.0, 120.0, flow), false);
    let w = wire(&r.flows[0]);
    assert!(r.flows[0].completed);
    assert!(w.retransmitted >= w.delivered, "{w:?}");
    assert!(w.spurious >= w.delivered - 1, "{w:?}");
}

fn arq_scenario() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(vec!["stop-and-wait", "go-back-n", "selective-repeat"]),
        (1u32..200, prop::sample::select(vec![64u32, 536, 1460]), 1u64..300_000),
        (common::scenarios::loss_model(), 0.0..0.3f64, prop::option::of(100.0..3000.0f64)),
        (1.0..20.0f64, 1.0..300.0f64, prop::option::of(2u32..200), any::<u64>()),
    )
        .prop_map(|(mode, (window, mss, bytes), (loss, rev, timeout), (rate, delay, buffer, seed))| {
            let window = if mode == "stop-and-wait" { 1 } else { window };
            let mut link = json!({ "rate_mbps": rate, "delay_ms": delay, "loss": loss,
                                   "reverse_loss": { "model": "bernoulli", "p": rev } });
            if let Some(b) = buffer {
                link["buffer_pkts"] = b.into();
            }
            json!({ "version": 1, "name": "prop", "seed": seed, "duration_s": 300,
                    "topology": { "kind": "chain", "links": [link] },
                    "flows": [{ "transport": "arq", "mode": mode, "window_pkts": window, "mss_bytes": mss,
                                "bytes": bytes, "timeout_ms": timeout }] })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any mode, window, packet size, timeout and loss both ways: a completed flow delivered
    /// exactly the bytes sent (the receiver checks every packet's bytes against the flow's
    /// content; `run_scenario` fails on any mismatch), and one that did not says why.
    #[test]
    fn arq_delivers_exactly_the_bytes_sent_under_any_loss(s in arq_scenario()) {
        let sc = scenario::from_value(s.clone()).map_err(|e| TestCaseError::fail(format!("invalid: {e}")))?;
        let r = runner::run_scenario(&sc, sc.seed, false).map_err(|e| TestCaseError::fail(format!("{e}\n{s}")))?;
        let f = &r.flows[0];
        let bytes = s["flows"][0]["bytes"].as_u64().unwrap();
        if f.completed {
            prop_assert_eq!(f.delivered_bytes, bytes);
        } else {
            prop_assert!(f.delivered_bytes < bytes);
            let reason = f.incomplete_reason.as_deref().unwrap_or("");
            prop_assert!(reason.starts_with("time limit"), "no reason for an incomplete flow: {}", reason);
        }
    }
}

/// A wrong ARQ field is refused with its path and what is wrong, never run with a default.
#[test]
fn a_bad_arq_field_is_named_with_its_problem() {
    let refused = |flow: Value| scenario::from_value(geo(0.0, 10.0, flow)).unwrap_err().to_string();
    let e = refused(arq("stop-and-wait", Some(4), None));
    assert!(e.contains("flows[0].window_pkts") && e.contains("one packet at a time"), "{e}");
    let e = refused(arq("selective-repeat", Some(0), None));
    assert!(e.contains("flows[0].window_pkts") && e.contains("between 1 and 100000"), "{e}");
    let mut flow = arq("go-back-n", None, None);
    flow["timeout_ms"] = 0.into();
    let e = refused(flow);
    assert!(e.contains("flows[0].timeout_ms") && e.contains("between 1 and 600000"), "{e}");
    let e = refused(arq("go-back-2", None, None));
    assert!(e.contains("flows[0].mode") && e.contains("selective-repeat"), "{e}");
}

#[test]
fn a_go_back_n_window_resent_faster_than_an_unlimited_buffer_drains_is_held_to_the_packet_budget() {
    // 10000 packets resent every 100 ms into a 10 Mbit/s link (833 packets/s) with the default
    // unlimited buffer: the queue grew by 100 000 packets a second until the run aborted (2.5 GB).
    let flow = json!({"transport": "arq", "mode": "go-back-n", "window_pkts": 10000, "timeout_ms": 100});
    let v = one_hop(RATE_MBPS, 50.0, None, 0.0, 40.0, vec![flow]);
    let r = run(&v, false);
    let budget = orbitcp_core::net::MAX_PACKETS_IN_NETWORK;
    assert!(r.links[0].drops.buffer > 0, "the packets past the budget are dropped: {:?}", r.links[0].drops);
    let offered = r.flows[0].wire.as_ref().unwrap().data_sent;
    assert!(offered > budget, "the sender offered more than the budget holds ({offered})");
    assert!(r.flows[0].delivered_bytes > 0);
}
