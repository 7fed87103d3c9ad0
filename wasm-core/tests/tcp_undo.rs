//! F-RTO and undo (docs/tcp.md, "F-RTO and undo"), checked where spurious timeouts happen: deep
//! buffers on long paths, where slow start's queue outruns the RTO, and a LEO path whose route
//! changes deliver out of order.
//!
//! A spurious retransmission is one whose segment the receiver already had (`wire.spurious`,
//! the receiver's count of duplicates).

mod common;
use orbitcp_core::runner::{Run, RunResult};
use orbitcp_core::scenario;
use orbitcp_core::tcp::congestion::CcKind;
use serde_json::{json, Value};

/// A one-hop path: `rate` Mbit/s, `rtt_ms` round trip, a drop-tail buffer of `buffer_bdp` BDPs
/// (1500-byte packets), Bernoulli loss `p` on data, one unlimited TCP flow for `duration_s`.
fn path(cc: &str, rtt_ms: f64, buffer_bdp: f64, p: f64, duration_s: f64) -> Value {
    let bdp_pkts = 10e6 * rtt_ms / 1e3 / 8.0 / 1500.0;
    let buffer = (bdp_pkts * buffer_bdp).round() as u32;
    common::one_hop(10.0, rtt_ms / 2.0, Some(buffer), p, duration_s, vec![common::tcp(cc, None)])
}

fn run_audited(v: &Value) -> RunResult {
    let sc = scenario::from_value(v.clone()).unwrap();
    let mut run = Run::new(&sc).unwrap();
    run.audit_senders();
    run.run();
    run.result(false)
}

fn without_undo(v: &Value) -> Value {
    let mut v = v.clone();
    v["flows"][0]["frto"] = false.into();
    v["flows"][0]["undo"] = false.into();
    v
}

struct Row {
    goodput: f64,
    retransmitted: u64,
    spurious: u64,
    timeouts: u64,
    undos: u64,
    spurious_rtos: u64,
}

fn row(r: &RunResult) -> Row {
    let f = &r.flows[0];
    assert!(f.error.is_none(), "{:?}", f.error);
    let w = f.wire.as_ref().unwrap();
    Row {
        goodput: f.goodput_mbps,
        retransmitted: w.retransmitted,
        spurious: w.spurious,
        timeouts: f.timeouts,
        undos: w.undos.unwrap(),
        spurious_rtos: w.spurious_rtos_detected.unwrap(),
    }
}

/// The grid around the deep-buffer case: RTT 400 and 800 ms, buffers of 1 and 4 BDP,
/// p ∈ {0, 0.5 %, 2 %}, 60 s, every congestion control, with F-RTO and undo on (the default)
/// and off. Returns (point, cc, on, off).
fn grid(ccs: &[CcKind]) -> Vec<(String, CcKind, Row, Row)> {
    let mut rows = Vec::new();
    for rtt in [400.0, 800.0] {
        for b in [1.0, 4.0] {
            for p in [0.0, 0.005, 0.02] {
                for &cc in ccs {
                    let v = path(cc.name(), rtt, b, p, 60.0);
                    let on = row(&run_audited(&v));
                    let off = row(&run_audited(&without_undo(&v)));
                    rows.push((format!("rtt {rtt} ms, {b} BDP, p {p}"), cc, on, off));
                }
            }
        }
    }
    rows
}

fn spurious_share(r: &Row) -> f64 {
    r.spurious as f64 / r.retransmitted.max(1) as f64
}

/// The deep-buffer grid for the given controls: under 10 % of retransmissions spurious, and
/// goodput within 2 % of (or above) the run without F-RTO and undo.
fn check_grid(ccs: &[CcKind]) {
    let mut table = String::new();
    let mut failures = Vec::new();
    for (point, cc, on, off) in grid(ccs) {
        table += &format!(
            "{point:28} {:10} goodput {:6.3} (off {:6.3}) spurious {:5}/{:5} (off {:5}/{:5}) RTOs {:3} undos {:3} spurious RTOs {:3}\n",
            cc.name(), on.goodput, off.goodput, on.spurious, on.retransmitted, off.spurious, off.retransmitted,
            on.timeouts, on.undos, on.spurious_rtos
        );
        if spurious_share(&on) >= 0.1 && on.spurious > 5 {
            failures.push(format!(
                "{point} {}: {} of {} retransmissions spurious",
                cc.name(),
                on.spurious,
                on.retransmitted
            ));
        }
        if on.goodput < 0.98 * off.goodput {
            failures.push(format!(
                "{point} {}: goodput {:.3} < {:.3} without undo",
                cc.name(),
                on.goodput,
                off.goodput
            ));
        }
    }
    println!("{table}");
    assert!(failures.is_empty(), "{}\n{table}", failures.join("\n"));
}

#[test]
fn under_a_tenth_of_retransmissions_are_spurious_around_the_deep_buffer_case() {
    check_grid(&CcKind::ALL);
}

/// A 10 Mbit/s, 100 ms one-way path with a 400-packet buffer whose rate falls to 2 kbit/s (a packet per 6 s)
/// for 4 s at t = 10 s: the queue's delay jumps by seconds with nothing lost, and the RTO fires
/// from Open. Every retransmission it starts is needless.
fn rate_drop(cc: &str) -> Value {
    let mut v = common::one_hop(10.0, 100.0, Some(400), 0.0, 40.0, vec![common::tcp(cc, None)]);
    v["topology"]["links"][0]["rate_schedule"] =
        json!([{ "at_s": 0, "rate_mbps": 10 }, { "at_s": 10, "rate_mbps": 0.002 }, { "at_s": 14, "rate_mbps": 10 }]);
    v
}

#[test]
fn f_rto_finds_the_timeout_of_a_delay_spike_spurious_and_undoes_it() {
    let mut table = String::new();
    for cc in CcKind::ALL {
        let on = row(&run_audited(&rate_drop(cc.name())));
        let off = row(&run_audited(&without_undo(&rate_drop(cc.name()))));
        table += &format!(
            "{:10} goodput {:6.3} (off {:6.3}) spurious {:4}/{:4} (off {:4}/{:4}) RTOs {} (off {}) undos {} spurious RTOs {}\n",
            cc.name(), on.goodput, off.goodput, on.spurious, on.retransmitted, off.spurious, off.retransmitted,
            on.timeouts, off.timeouts, on.undos, on.spurious_rtos
        );
    }
    println!("{table}");
    for cc in CcKind::ALL {
        let on = row(&run_audited(&rate_drop(cc.name())));
        let off = row(&run_audited(&without_undo(&rate_drop(cc.name()))));
        assert!(off.timeouts >= 1 && off.spurious > 0, "{}: the spike must fool the RTO\n{table}", cc.name());
        assert!(on.spurious_rtos >= 1, "{}: no spurious RTO detected\n{table}", cc.name());
        assert!(on.spurious * 2 <= off.spurious, "{}: F-RTO saves at least half\n{table}", cc.name());
    }
}

/// Linux 6.1 on the same path (`tools/kernel/run.py --rtt 200 --buffer 400 --p 0 --seconds 40
/// --rate-at 10:0.002 --rate-at 14:10`, with and without undo) keeps within 2 % or gains: cubic
/// 7.91/7.82, bic 8.38/7.87, htcp 7.91/7.84, highspeed 8.08/7.99, scalable 7.91/7.81, hybla
/// 7.88/8.13 Mbit/s. The spike catches about 500 segments out, so the 400-packet queue drops the
/// last hundred; after the undo they are repaired by SACK, because the late originals' ACKs echo
/// timestamps older than the head's retransmission and RACK does not count it as delivered
/// (`tcp_skb_spurious_retrans`, docs/tcp.md, "RACK after an undo").
#[test]
fn undoing_the_spike_costs_no_goodput() {
    for cc in CcKind::ALL {
        let on = row(&run_audited(&rate_drop(cc.name())));
        let off = row(&run_audited(&without_undo(&rate_drop(cc.name()))));
        assert!(on.goodput >= 0.98 * off.goodput, "{}: {:.3} against {:.3}", cc.name(), on.goodput, off.goodput);
    }
}

/// The case for the given controls: 10 Mbit/s, 300 ms one way, a 2000-packet buffer,
/// p = 0.2 %, 120 s: under 10 % of retransmissions spurious, goodput within 2 % of (or above)
/// the run without F-RTO and undo.
fn check_deep_buffer_case(ccs: &[CcKind]) {
    let mut table = String::new();
    let mut failures = Vec::new();
    for &cc in ccs {
        let v = common::one_hop(10.0, 300.0, Some(2000), 0.002, 120.0, vec![common::tcp(cc.name(), None)]);
        let on = row(&run_audited(&v));
        let off = row(&run_audited(&without_undo(&v)));
        table += &format!(
            "{:10} goodput {:6.3} (off {:6.3}) spurious {:5}/{:5} (off {:5}/{:5}) RTOs {:3} undos {:3}\n",
            cc.name(),
            on.goodput,
            off.goodput,
            on.spurious,
            on.retransmitted,
            off.spurious,
            off.retransmitted,
            on.timeouts,
            on.undos
        );
        if spurious_share(&on) >= 0.1 && on.spurious > 5 {
            failures.push(format!("{}: {} of {} spurious", cc.name(), on.spurious, on.retransmitted));
        }
        if on.goodput < 0.98 * off.goodput {
            failures.push(format!("{}: goodput {:.3} < {:.3}", cc.name(), on.goodput, off.goodput));
        }
    }
    println!("{table}");
    assert!(failures.is_empty(), "{}\n{table}", failures.join("\n"));
}

/// Linux 6.1 in the same case (`python3 tools/kernel/run.py`, docs/tcp.md "The kernel as a
/// reference") retransmits 17-176 segments per control in 120 s and none of them needlessly.
#[test]
fn the_deep_buffer_case_retransmits_little_that_was_not_lost() {
    check_deep_buffer_case(&CcKind::ALL);
}

/// The 1600-satellite preset's Beijing–New York path with one CUBIC flow for 60 s from
/// `start`, route changes delivering what was in flight on the old route (`"deliver"`): the new
/// route is shorter or longer, so segments arrive out of order. With `lossless` the path's random
/// loss (0.1-1 % on the ground links, 0.01 % on the ISLs) is off, so that the flow runs at the
/// path's 30 Mbit/s rather than the 1.1-1.5 the losses leave it, and a route change has thousands
/// of segments in flight to reorder; only the buffers drop then.
fn leo_at(undo: bool, start: f64, lossless: bool) -> RunResult {
    let path = format!("{}/../scenarios/leo-beijing-newyork-1600.json", env!("CARGO_MANIFEST_DIR"));
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["duration_s"] = (start + 60.0).into();
    v["topology"]["on_route_change"] = "deliver".into();
    if lossless {
        for kind in ["gsl", "isl"] {
            v["topology"]["links"][kind]["loss"] = json!({ "fixed": 0 });
        }
    }
    let mut f = json!({ "transport": "tcp", "cc": "cubic", "bytes": null, "rwnd_pkts": 2048,
                        "start_s": start, "loss_detection": "dupack" });
    if !undo {
        f["undo"] = false.into();
        f["frto"] = false.into();
    }
    v["flows"] = json!([f]);
    run_audited(&v)
}

#[test]
fn dsack_undo_restores_the_window_after_a_leo_route_change_reorders() {
    // Without undo every D-SACKed retransmission was spurious and each cost a window reduction
    // (Linux's `tcp_try_undo_dsack` gives it back once every retransmission of the episode is
    // D-SACKed, and the reordering it saw raises the duplicate threshold after, RFC 4015).
    let (on, off) = (leo_at(true, 0.0, true), leo_at(false, 0.0, true));
    let (w, wo) = (on.flows[0].wire.clone().unwrap(), off.flows[0].wire.clone().unwrap());
    let (g, go) = (on.flows[0].goodput_mbps, off.flows[0].goodput_mbps);
    println!("undo on: goodput {g:.3} {w:?}\nundo off: goodput {go:.3} {wo:?}");
    assert!(wo.spurious >= 20 && wo.dsacks == Some(wo.spurious), "reordering fools DupThresh: {wo:?}");
    assert!(w.undos.unwrap() >= 1, "{w:?}");
    assert!(w.spurious * 4 <= wo.spurious, "undo on: {} spurious against {}", w.spurious, wo.spurious);
    assert!(w.max_cwnd_pkts > wo.max_cwnd_pkts, "the window given back: {w:?} against {wo:?}");
    assert!(g >= go, "goodput with undo {g:.3} against {go:.3} without");
}

/// With the path's own losses the flow runs at 1.1-1.5 Mbit/s, and a route change shifts the
/// delay by less than the spacing DupThresh and RACK's window tolerate, so nothing is reordered
/// enough to fool them (ten 60 s slices, start 0 to 540 s, gave 25-38 retransmissions each, none
/// spurious). Undo must then stay out of the way: every retransmission repairs a real loss, and
/// nothing is undone.
#[test]
fn undo_finds_nothing_to_undo_on_the_lossy_leo_path() {
    let (on, off) = (leo_at(true, 0.0, false), leo_at(false, 0.0, false));
    let (w, wo) = (on.flows[0].wire.clone().unwrap(), off.flows[0].wire.clone().unwrap());
    let (g, go) = (on.flows[0].goodput_mbps, off.flows[0].goodput_mbps);
    println!("undo on: goodput {g:.3} {w:?}\nundo off: goodput {go:.3} {wo:?}");
    assert!(wo.retransmitted > 0 && wo.spurious == 0, "real losses only: {wo:?}");
    assert!(w.retransmitted > 0 && w.spurious == 0, "real losses only: {w:?}");
    assert_eq!((w.undos, w.spurious_rtos_detected), (Some(0), Some(0)), "{w:?}");
    assert!((g - go).abs() <= 0.02 * go, "goodput with undo {g:.3} against {go:.3} without");
}

/// The reordering path of `tcp_wire.rs`: 20 Mbit/s, 50 ms one way, jitter up to 5 ms that
/// reorders, Reno with DupThresh (RFC 6675), which reordering fools; 60 s, unlimited.
fn reordering(undo: bool) -> Value {
    let mut f = json!({ "transport": "tcp", "cc": "reno", "bytes": null, "loss_detection": "dupack" });
    if !undo {
        f["undo"] = false.into();
        f["frto"] = false.into();
    }
    json!({ "version": 1, "name": "reorder", "seed": 3, "duration_s": 60,
        "topology": { "kind": "chain", "links": [
            { "rate_mbps": 20, "delay_ms": 50, "jitter_ms": 5, "jitter_reorder": true } ] },
        "flows": [ f ] })
}

#[test]
fn dsack_undo_gives_back_the_window_a_reordering_took() {
    // Every fast retransmission here is spurious (the path loses nothing): the original and the
    // retransmission both arrive, the receiver D-SACKs the second, and once every retransmission
    // of the episode is D-SACKed the reduction is undone (Linux `tcp_try_undo_dsack`).
    let (on, off) = (run_audited(&reordering(true)), run_audited(&reordering(false)));
    let (w, wo) = (on.flows[0].wire.clone().unwrap(), off.flows[0].wire.clone().unwrap());
    let (g, go) = (on.flows[0].goodput_mbps, off.flows[0].goodput_mbps);
    println!("undo on: goodput {g:.3} {w:?}\nundo off: goodput {go:.3} {wo:?}");
    assert!(wo.spurious > 0 && wo.spurious == wo.retransmitted, "only reordering here: {wo:?}");
    assert!(w.undos.unwrap() >= 1, "{w:?}");
    assert_eq!(w.spurious_rtos_detected, Some(0), "no timeout to undo: {w:?}");
    assert!(g > go, "the undone reductions give goodput back: {g:.3} against {go:.3}");
}
