//! What a TCP sender puts on the wire, checked against what the path did to it.
//!
//! - The sender audits itself on every ACK (`Run::audit_senders`): it never retransmits a
//!   SACKed segment, never retransmits a segment twice within a round trip except after an RTO,
//!   and never has more in flight than cwnd plus the one segment recovery may force.
//! - Links conserve packets: every packet offered is delivered, dropped, or still in transit.
//! - A completed flow retransmitted at least what the path dropped; what it sent equals what
//!   arrived plus what was dropped; its goodput fits in the bottleneck.
//! - On the GEO dumbbell, every congestion control keeps its data packets within
//!   `delivered / (1 − p) · 1.5 + 2 · W` for Bernoulli loss p, W the largest flight it had.

mod common;
use orbitcp_core::runner::{Run, RunResult};
use orbitcp_core::scenario;
use orbitcp_core::tcp::congestion::CcKind;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Bytes of IPv4 + TCP headers with timestamps on every data segment.
const HEADER_BYTES: f64 = 52.0;

struct Checked {
    result: RunResult,
    /// Per link: (id, offered, delivered, dropped, in transit).
    links: Vec<(u32, u64, u64, u64, u64)>,
}

fn run_audited(v: &Value) -> Result<Checked, String> {
    let sc = scenario::from_value(v.clone()).map_err(|e| format!("generated an invalid scenario: {e}"))?;
    let mut run = Run::new(&sc)?;
    run.audit_senders();
    run.run();
    let links = run
        .sim
        .net
        .links
        .iter()
        .map(|l| (l.id, l.offered_pkts, l.delivered_pkts, l.dropped(), l.in_transit()))
        .collect();
    Ok(Checked { result: run.result(false), links })
}

fn flow() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(CcKind::ALL.to_vec()),
        prop::option::of(1u64..3_000_000),
        any::<bool>(),
        prop::sample::select(vec!["prr", "rfc6675"]),
        prop::sample::select(vec!["rack", "dupack"]),
        prop::sample::select(vec!["linux", "ns3"]),
        any::<bool>(),
    )
        .prop_map(|(cc, bytes, sack, recovery, detection, profile, autotune)| {
            let detection = if sack { detection } else { "dupack" };
            json!({ "transport": "tcp", "cc": cc.name(), "bytes": bytes, "sack": sack,
                    "recovery": recovery, "loss_detection": detection, "profile": profile,
                    "rcv_autotune": autotune })
        })
}

fn scenario_strategy() -> impl Strategy<Value = Value> {
    (
        0.0..0.5f64,
        any::<bool>(),
        prop::option::of(prop::collection::vec((0.0..40.0f64, 0.05..4.0f64), 1..3)),
        1.0..30.0f64,
        5.0..300.0f64,
        prop::option::of(4u32..600),
        flow(),
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(p, ingress, outages, rate, delay, buffer, flow, seed, access)| {
            let mut link = json!({ "rate_mbps": rate, "delay_ms": delay,
                                   "loss": { "model": "bernoulli", "p": p },
                                   "loss_at": if ingress { "ingress" } else { "channel" } });
            if let Some(b) = buffer {
                link["buffer_pkts"] = b.into();
            }
            if let Some(o) = outages {
                link["outages"] =
                    Value::Array(o.into_iter().map(|(s, d)| json!({ "start_s": s, "duration_s": d })).collect());
            }
            let mut links = vec![link];
            if access {
                links.insert(0, json!({ "rate_mbps": 1000, "delay_ms": 0 }));
            }
            json!({ "version": 1, "name": "wire", "seed": seed, "duration_s": 60,
                    "topology": { "kind": "chain", "links": links }, "flows": [flow] })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn the_sender_keeps_its_invariants_and_the_path_conserves_packets(s in scenario_strategy()) {
        let c = run_audited(&s).map_err(TestCaseError::fail)?;
        let f = &c.result.flows[0];
        prop_assert!(f.error.is_none(), "{}\n{s}", f.error.as_deref().unwrap_or(""));
        for &(id, offered, delivered, dropped, in_transit) in &c.links {
            prop_assert_eq!(offered, delivered + dropped + in_transit, "link {} does not conserve packets\n{}", id, s);
        }
        let w = f.wire.as_ref().expect("a TCP flow reports its wire figures");
        // Everything delivered arrived once; spurious copies arrived on top.
        prop_assert!(w.data_sent >= w.delivered + w.spurious, "{w:?}");
        // The data direction's links: even ids, from the sender's node on.
        let data_drops: u64 = c.links.iter().filter(|l| l.0 % 2 == 0).map(|l| l.3).sum();
        let data_in_transit: u64 = c.links.iter().filter(|l| l.0 % 2 == 0).map(|l| l.4).sum();
        if f.completed {
            // Every dropped packet had to go again (a lost SYN goes again on a timeout).
            prop_assert!(w.retransmitted + f.timeouts >= data_drops, "{w:?}, data drops {data_drops}\n{s}");
            // What the sender sent either arrived (new or duplicate), was dropped, or is on its way.
            let accounted = w.delivered + w.spurious + data_drops + data_in_transit;
            prop_assert!(w.data_sent <= accounted && accounted <= w.data_sent + f.timeouts + 1,
                "sent {} but delivered {} + spurious {} + dropped {} + in transit {}\n{}",
                w.data_sent, w.delivered, w.spurious, data_drops, data_in_transit, s);
        }
        // Goodput fits in the bottleneck, headers taken out.
        let links = s["topology"]["links"].as_array().unwrap();
        let rate = links.iter().map(|l| l["rate_mbps"].as_f64().unwrap()).fold(f64::INFINITY, f64::min);
        let share = 1448.0 / (1448.0 + HEADER_BYTES);
        prop_assert!(f.goodput_mbps <= rate * share * 1.001, "goodput {} over {} Mbit/s", f.goodput_mbps, rate);
    }
}

/// The GEO dumbbell of the retransmission-storm report: 10 Mbit/s, 250 ms each way, 420-packet
/// drop-tail buffer, Bernoulli loss on data packets, 120 s, unlimited transfer, seed 5.
fn geo_dumbbell(cc: &str, p: f64, loss_at: &str) -> Value {
    json!({ "version": 1, "name": "geo dumbbell", "seed": 5, "duration_s": 120,
            "topology": { "kind": "chain", "links": [
                { "rate_mbps": 1000, "delay_ms": 0 },
                { "rate_mbps": 10, "delay_ms": 250, "buffer_pkts": 420,
                  "loss": { "model": "bernoulli", "p": p }, "loss_at": loss_at } ] },
            "flows": [ { "transport": "tcp", "cc": cc, "bytes": null } ] })
}

#[test]
fn every_congestion_control_stays_within_the_retransmission_bound_on_the_geo_dumbbell() {
    let mut table = String::new();
    let mut failures = Vec::new();
    for loss_at in ["channel", "ingress"] {
        for p in [0.01, 0.1, 0.2] {
            for cc in CcKind::ALL {
                let c = run_audited(&geo_dumbbell(cc.name(), p, loss_at)).unwrap();
                let f = &c.result.flows[0];
                let w = f.wire.as_ref().unwrap();
                let flight = w.max_inflight_pkts.unwrap() as f64;
                let bound = w.delivered as f64 / (1.0 - p) * 1.5 + 2.0 * flight;
                table += &format!(
                    "{loss_at:8} p={p:.2} {:10} goodput {:6.3} sent {:7} delivered {:7} rtx/delivered {:6.3} spurious {:5} bound {:9.0}\n",
                    cc.name(),
                    f.goodput_mbps,
                    w.data_sent,
                    w.delivered,
                    w.retransmitted_per_delivered,
                    w.spurious,
                    bound
                );
                if let Some(e) = &f.error {
                    failures.push(format!("{} p={p} {loss_at}: {e}", cc.name()));
                }
                if w.data_sent as f64 > bound {
                    failures.push(format!("{} p={p} {loss_at}: sent {} > bound {bound:.0}", cc.name(), w.data_sent));
                }
            }
        }
    }
    println!("{table}");
    assert!(failures.is_empty(), "{}\n{table}", failures.join("\n"));
}

#[test]
fn hybla_at_20_percent_loss_retransmits_about_what_the_loss_needs() {
    // Before the fix: 287 retransmissions per delivered segment (a burst of cwnd − pipe into a
    // full queue on every recovery). A loss-based sender needs p/(1 − p) = 0.25 for the random
    // loss, plus what its own queue overflows cost.
    let c = run_audited(&geo_dumbbell("hybla", 0.2, "channel")).unwrap();
    let w = c.result.flows[0].wire.clone().unwrap();
    assert!(w.retransmitted_per_delivered < 1.0, "{w:?}");
    assert!(w.spurious_per_delivered < 0.1, "{w:?}");
}

#[test]
fn the_receiver_counts_duplicates_as_spurious_retransmissions() {
    // RFC 6675 recovery with DupThresh over a path that reorders: segments that were only late
    // are retransmitted, arrive twice, and are counted.
    let v = json!({ "version": 1, "name": "reorder", "seed": 3, "duration_s": 120,
        "topology": { "kind": "chain", "links": [
            { "rate_mbps": 20, "delay_ms": 50, "jitter_ms": 5, "jitter_reorder": true } ] },
        "flows": [ { "transport": "tcp", "cc": "reno", "bytes": 2_000_000, "loss_detection": "dupack" } ] });
    let c = run_audited(&v).unwrap();
    let f = &c.result.flows[0];
    assert!(f.completed && f.error.is_none(), "{f:?}");
    let w = f.wire.as_ref().unwrap();
    assert!(w.spurious > 0, "reordering by up to 5 ms fools DupThresh: {w:?}");
    assert_eq!(w.dsacks, Some(w.spurious), "each duplicate is reported back in a D-SACK");
    // RACK waits a quarter of the min RTT before it calls a hole lost: no spurious retransmission.
    let mut v = v;
    v["flows"][0]["loss_detection"] = "rack".into();
    let rack = run_audited(&v).unwrap();
    let rw = rack.result.flows[0].wire.clone().unwrap();
    assert!(rw.spurious * 10 <= w.spurious.max(1), "RACK {rw:?} against DupThresh {w:?}");
}

#[test]
fn the_ns3_profile_takes_ns3_defaults_and_each_stays_settable() {
    use orbitcp_core::rto::RtoFlavor;
    use orbitcp_core::scenario::Flow;
    use orbitcp_core::tcp::sender::{LossDetection, Recovery};
    let settings = |flow: Value| {
        let v = common::one_hop(10.0, 250.0, None, 0.0, 10.0, vec![flow]);
        let sc = scenario::from_value(v).unwrap();
        let Flow::Tcp(t) = &sc.flows[0] else { panic!("a TCP flow") };
        t.settings()
    };
    let ns3 = settings(json!({ "transport": "tcp", "cc": "reno", "profile": "ns3" }));
    assert!(ns3.delayed_ack && ns3.delack_ms == 200.0, "DelAckCount 2, DelAckTimeout 200 ms");
    assert_eq!((ns3.rto_flavor, ns3.rto_min_ms), (RtoFlavor::Rfc6298, 1000.0), "MinRto 1 s");
    assert_eq!((ns3.recovery, ns3.loss_detection), (Recovery::Prr, LossDetection::Dupack));
    assert!(!ns3.rcv_autotune && ns3.per_ack_growth);
    assert!(!ns3.frto && !ns3.undo, "ns-3's TcpSocketBase has neither F-RTO nor undo");
    assert!(ns3.ns3_rules, "ns-3.44's recovery and timers");
    let linux = settings(common::tcp("reno", None));
    assert!(!linux.delayed_ack && linux.delack_ms == 40.0);
    assert_eq!((linux.rto_flavor, linux.rto_min_ms), (RtoFlavor::Linux, 200.0));
    assert_eq!((linux.recovery, linux.loss_detection), (Recovery::Prr, LossDetection::Rack));
    assert!(linux.rcv_autotune && !linux.per_ack_growth);
    assert!(linux.frto && linux.undo, "tcp_frto = 2; undo is always on");
    assert!(!linux.ns3_rules);
    let mixed = settings(json!({ "transport": "tcp", "cc": "reno", "profile": "ns3", "delayed_ack": false,
                                 "loss_detection": "rack", "recovery": "rfc6675" }));
    assert!(!mixed.delayed_ack);
    assert_eq!((mixed.recovery, mixed.loss_detection), (Recovery::Rfc6675, LossDetection::Rack));
    assert!(!mixed.ns3_rules, "ns-3.44 has no RACK-TLP: asking for it brings Linux's recovery");
}

#[test]
fn ns3_slow_start_with_delayed_acks_grows_one_and_a_half_times_per_rtt() {
    // ns-3 adds one segment per ACK; with an ACK per two segments the window grows 1.5x per
    // round trip. Linux counts segments: 2x with the same ACKs.
    let growth = |profile: &str| {
        let mut f = common::tcp("reno", None);
        f["profile"] = profile.into();
        f["delayed_ack"] = true.into();
        f["rcv_autotune"] = false.into();
        let mut v = common::one_hop(1000.0, 100.0, None, 0.0, 3.0, vec![f]);
        v["trace"] = json!({ "max_points": 100000 });
        let r = common::run(&v, true);
        let (t, cwnd) = common::column(&r, 0, "cwnd");
        // Rounds 3 to 6 after the handshake (RTT 200 ms), read mid-round.
        let w = |n: f64| common::at(&t, &cwnd, 0.2 + 0.2 * n + 0.1);
        (w(6.0) / w(3.0)).powf(1.0 / 3.0)
    };
    let (ns3, linux) = (growth("ns3"), growth("linux"));
    assert!((1.4..1.6).contains(&ns3), "ns-3 grew {ns3:.3}x per RTT");
    assert!((1.9..2.1).contains(&linux), "Linux grew {linux:.3}x per RTT");
}

#[test]
fn bbr_keeps_most_of_the_geo_link_at_one_percent_loss() {
    // BBR does not read random loss as congestion: at PER 1 % it keeps most of the 10 Mbit/s
    // (9.65 Mbit/s of payload), where every loss-based variant falls under 0.8 (Hybla: 4.2).
    let c = run_audited(&geo_dumbbell("bbr", 0.01, "channel")).unwrap();
    let f = &c.result.flows[0];
    assert!(f.error.is_none(), "{:?}", f.error);
    let payload_rate = 10.0 * 1448.0 / 1500.0;
    assert!(f.goodput_mbps > 0.75 * payload_rate, "BBR at PER 1 %: {} Mbit/s", f.goodput_mbps);
    let reno = run_audited(&geo_dumbbell("reno", 0.01, "channel")).unwrap();
    assert!(f.goodput_mbps > 10.0 * reno.result.flows[0].goodput_mbps);
}

/// A lossless BBR flow over a 10 Mbit/s, 50 ms one-way path with a 100-packet buffer, 20 s.
fn lossless_bbr() -> Value {
    common::one_hop(10.0, 50.0, Some(100), 0.0, 20.0, vec![common::tcp("bbr", None)])
}

#[test]
fn bbr_draws_its_first_probe_bw_phase_from_the_scenario_seed() {
    // Linux draws the first PROBE_BW phase at random (`bbr_reset_probe_bw_mode`); the flow's
    // stream of the run seed stands for `get_random_u32`. On a lossless path that draw is the
    // only randomness, so the same seed gives the same run and other seeds other runs.
    let v = lossless_bbr();
    let goodput = |seed: u64| {
        let r = common::run_seed(&v, seed);
        (r.flows[0].goodput_mbps, r.flows[0].wire.as_ref().unwrap().data_sent)
    };
    assert_eq!(goodput(3), goodput(3), "one seed, one run");
    let runs: Vec<_> = (1..=8).map(goodput).collect();
    let mut distinct = runs.clone();
    distinct.sort_by(|a, b| a.partial_cmp(b).unwrap());
    distinct.dedup();
    assert!(distinct.len() >= 3, "eight seeds gave only {} distinct runs: {runs:?}", distinct.len());
}

#[test]
fn a_bbr_sweep_over_runs_has_a_spread() {
    use orbitcp_core::runner::{run_job, sweep_jobs};
    let mut v = lossless_bbr();
    v["sweep"] = json!({ "grid": { "flows[0].cc": ["bbr"] }, "runs": 5 });
    let jobs = sweep_jobs(&v.to_string()).unwrap();
    let g: Vec<f64> = jobs.iter().map(|j| run_job(j).unwrap().flows[0].goodput_mbps).collect();
    let mean = g.iter().sum::<f64>() / g.len() as f64;
    let std = (g.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (g.len() - 1) as f64).sqrt();
    assert!(std > 0.0, "five runs of a BBR sweep point gave one goodput: {g:?}");
    // The phase moves when the 5/4 probe falls; it does not change what BBR gets from the link.
    assert!(std < 0.02 * mean, "spread {std:.4} around {mean:.3} Mbit/s: {g:?}");
}
