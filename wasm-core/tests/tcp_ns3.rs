//! The `ns3` profile's loss recovery and timers against the Linux profile's, on paths small
//! enough to read (src/tcp/sender/ns3.rs; docs/tcp.md, "The ns3 profile and ns-3 itself").

mod common;

use serde_json::{json, Value};

/// A bulk NewReno flow over 10 Mbit/s with 50 ms each way and a 100-packet buffer, 20 s, with
/// every packet lost from 5 s to 11 s.
fn outage(profile: &str) -> Value {
    let mut f = common::tcp("reno", None);
    f["profile"] = profile.into();
    let mut v = common::one_hop(10.0, 50.0, Some(100), 0.0, 20.0, vec![f]);
    v["topology"]["links"][0]["outages"] = json!([{ "start_s": 5.0, "duration_s": 6.0 }]);
    v["trace"] = json!({ "max_points": 100000 });
    v
}

/// The lowest ssthresh the sender trace shows between `from` and `to` seconds.
fn min_ssthresh(r: &orbitcp_core::runner::RunResult, from: f64, to: f64) -> f64 {
    let (t, ss) = common::column(r, 0, "ssthresh");
    t.iter()
        .zip(&ss)
        .filter(|(&t, s)| t > from && t < to && s.is_finite())
        .map(|(_, &s)| s)
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn every_timeout_sets_ssthresh_again_from_what_is_in_flight() {
    // ns-3's ReTxTimeout keeps ssthresh only in Loss with the head retransmitted, but reads the
    // head's flag after SetSentListLost has cleared it: the second timeout of the outage halves
    // the one segment then in flight, and NewReno's floor leaves 2. Linux keeps the ssthresh
    // of the first timeout for the repeated ones (`tcp_enter_loss`).
    let ns3 = common::run(&outage("ns3"), true);
    let linux = common::run(&outage("linux"), true);
    assert!(ns3.flows[0].timeouts >= 2 && linux.flows[0].timeouts >= 2, "the outage spans two timeouts");
    assert_eq!(min_ssthresh(&ns3, 5.0, 12.0), 2.0);
    assert!(min_ssthresh(&linux, 5.0, 12.0) >= 10.0, "Linux: {}", min_ssthresh(&linux, 5.0, 12.0));
}

#[test]
fn prr_sends_only_the_fast_retransmit_while_the_flight_is_above_ssthresh() {
    // ns-3.44's TcpPrrRecovery takes delivered × ssthresh in 32 bits, which wraps once a few
    // segments are delivered at an ssthresh of hundreds: on the lossless dumbbell its cwnd
    // trace follows the flight down to ssthresh with no segment sent (tools/ns3/dumbbell.cc,
    // 2026-11-28). The wrapped product still releases up to about 1.6 segments in all.
    let mut v: Value = serde_json::from_str(include_str!("../../scenarios/ns3-dumbbell.json")).unwrap();
    v.as_object_mut().unwrap().remove("sweep");
    v["flows"][0]["cc"] = "reno".into();
    v["trace"] = json!({ "max_points": 200000 });
    let r = common::run(&v, true);
    let (t, state) = common::column(&r, 0, "state");
    let (_, rtx) = common::column(&r, 0, "retransmissions");
    let (_, infl) = common::column(&r, 0, "inflight");
    let (_, ss) = common::column(&r, 0, "ssthresh");
    let entry = state.iter().position(|&s| s == 2.0).expect("the slow-start overshoot starts a recovery");
    let above: Vec<usize> = (entry..t.len()).take_while(|&i| state[i] == 2.0 && infl[i] > ss[i]).collect();
    assert!(above.len() > 100, "the flight stays above ssthresh for a while ({} ACKs)", above.len());
    let sent = rtx[*above.last().unwrap()] - rtx[entry];
    assert!(sent <= 2.0, "{sent} retransmissions after the fast retransmit while the flight was above ssthresh");
}
