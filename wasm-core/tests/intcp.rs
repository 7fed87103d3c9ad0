//! INTCP end to end: exact delivery under loss, outages and any cache size; caches within their
//! capacity; path-named validation; and the shapes of the two presets.

mod common;
use common::*;
use orbitcp_core::metrics;
use orbitcp_core::runner::{HopRole, Run};
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
    assert_eq!(
        hops.iter().map(|h| h.role).collect::<Vec<_>>(),
        [HopRole::Producer, HopRole::Midnode, HopRole::Midnode, HopRole::Consumer]
    );
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
    let e = scenario::from_value(s.clone()).unwrap_err().to_string();
    assert!(e.contains("flows[0].decrease_factor: must be more than 0 and at most 1"), "{e}");
    assert!(e.contains("flows[0].hole_threshold_pkts"), "{e}");
    s["flows"][0] = json!({ "transport": "intcp", "cach": true });
    let e = scenario::from_value(s).unwrap_err().to_string();
    assert!(e.contains("flows[0]") && e.contains("cach"), "{e}");
}

fn cubic() -> Value {
    json!({ "transport": "tcp", "cc": "cubic" })
}

/// INTCP as the Fig. 5 presets run it: midnodes reading ahead into a 32 MiB hold budget while
/// their downstream hop swings (the default gate), and rate probing.
fn intcp_read_ahead() -> Value {
    json!({ "transport": "intcp", "hold_budget_bytes": 32 << 20, "probe_gain": 1 })
}

/// The square-wave preset with one flow, its hop delays (ms, one way), buffers (both links),
/// period (s), duration (s) and seed changed.
fn square(flow: Value, d: (u32, u32), buffer: u32, period: f64, duration: f64, seed: u64) -> Value {
    let mut s = preset("intcp-two-hop-square");
    for (l, delay) in s["topology"]["links"].as_array_mut().unwrap().iter_mut().zip([d.0, d.1]) {
        l["delay_ms"] = delay.into();
        l["buffer_pkts"] = buffer.into();
    }
    s["topology"]["links"][1]["rate_schedule"]["square"]["period_s"] = period.into();
    s["duration_s"] = duration.into();
    s["seed"] = seed.into();
    s["flows"] = json!([flow]);
    s
}

/// The GSL's mean capacity on the square wave (5 and 35 Mbit/s, half the time each), in payload
/// Mbit/s (1449 of every 1500 bytes).
const GSL_MEAN_PAYLOAD_MBPS: f64 = 20.0 * 1449.0 / 1500.0;

/// (INTCP, Reno, CUBIC) goodput of one square-wave setup.
fn square_trio(d: (u32, u32), buffer: u32, period: f64, duration: f64, seed: u64) -> (f64, f64, f64) {
    let g = |f: Value| goodput(&square(f, d, buffer, period, duration, seed));
    (g(intcp_read_ahead()), g(reno()), g(cubic()))
}

/// Preset 1 (paper Fig. 5(a)), lossless as the paper's testbed: INTCP reaches at least 75 % of
/// the GSL's mean capacity and at least 1.3× Reno's and CUBIC's goodput (measured 17.47 against
/// 12.69 and 12.47 Mbit/s).
#[test]
fn on_the_lossless_square_wave_intcp_fills_the_gsl_and_beats_reno_and_cubic_by_1_3() {
    let s = preset("intcp-two-hop-square");
    assert!(
        s["topology"]["links"].as_array().unwrap().iter().all(|l| l.get("loss").is_none()),
        "the preset is lossless"
    );
    let intcp = goodput(&s);
    let mut t = s.clone();
    t["flows"][0] = reno();
    let reno = goodput(&t);
    t["flows"][0] = cubic();
    let cubic = goodput(&t);
    eprintln!("square wave, no loss: INTCP {intcp:.2} Mbit/s, Reno {reno:.2}, CUBIC {cubic:.2}");
    assert!(intcp >= 0.75 * GSL_MEAN_PAYLOAD_MBPS, "INTCP {intcp:.2}");
    assert!(intcp >= 1.3 * reno && intcp >= 1.3 * cubic, "INTCP {intcp:.2} vs Reno {reno:.2}, CUBIC {cubic:.2}");
}

/// The same shape over other setups, 120 s each (the paper's run length, as in the preset):
/// hop delays 5-50 ms, buffers 50-1000 packets, periods 4-20 s, other seeds (a fixed grid, so
/// the test costs 21 short runs). The swing gate reads ahead only after it has seen the GSL
/// fast and then slow, and the flow starts as the authors' code does, so the first period
/// carries what end-to-end transport would; over 60 s a 20 s period lost a third of its gain.
#[test]
fn the_square_wave_advantage_holds_over_delays_buffers_periods_and_seeds() {
    for (d, buffer, period, seed) in [
        ((5, 5), 50, 4.0, 1),
        ((5, 25), 1000, 20.0, 2),
        ((25, 5), 200, 10.0, 3),
        ((25, 25), 50, 6.0, 4),
        ((10, 50), 100, 20.0, 6),
        ((50, 10), 1000, 8.0, 7),
        ((10, 20), 50, 10.0, 9),
    ] {
        let (i, r, c) = square_trio(d, buffer, period, 120.0, seed);
        eprintln!("delays {d:?} ms, buffers {buffer}, period {period} s, seed {seed}: INTCP {i:.2}, Reno {r:.2}, CUBIC {c:.2}");
        assert!(i >= 0.75 * GSL_MEAN_PAYLOAD_MBPS, "{d:?} {buffer} {period}: INTCP {i:.2}");
        assert!(i >= 1.3 * r.max(c), "{d:?} {buffer} {period}: INTCP {i:.2} vs Reno {r:.2}, CUBIC {c:.2}");
    }
}

/// Where the shape does not hold: a 100 ms GSL round trip with a 4-6 s period (2-3 s phases),
/// 120 s runs. With 50-packet buffers the GSL holds almost no queue when it speeds up, so the
/// hop has no drain to jump on: probing and doubling take about 1 s of the 2 s high phase, and
/// the searches then overshoot a buffer a sixth of the bandwidth-delay product; INTCP carries
/// 0.67-0.70 of the GSL's mean. With 1000-packet buffers Reno's standing queue rides through
/// the short low phases (13.5-13.9 Mbit/s), and INTCP gets 1.24-1.29× that: reading ahead
/// always (`read_ahead: "always"`) it got 1.3× or more at 60 s, and the gate costs the first
/// period, which on a 100 ms GSL round trip the authors' consumer pacing needs about 9 s to
/// ramp through.
#[test]
#[ignore = "known gap: GSL RTT 100 ms, 120 s: measured INTCP 0.70 and 0.67 of the GSL's mean (5/50 and \
            50/50 ms, 50 pkts, 4 s); 1.26x (5/50, 1000 pkts, 4 s), 1.29x (5/50, 1000, 6 s, seed 5) and \
            1.24x (50/50, 1000, 4 s, seed 5) of the better of Reno and CUBIC"]
fn the_square_wave_advantage_holds_with_a_long_gsl_round_trip_and_short_phases() {
    // Every case is measured before any is asserted, so that the message gives them all.
    let cases: Vec<String> = [
        ((5, 50), 50, 4.0, 1),
        ((50, 50), 50, 4.0, 1),
        ((5, 50), 1000, 4.0, 1),
        ((5, 50), 1000, 6.0, 5),
        ((50, 50), 1000, 4.0, 5),
    ]
    .into_iter()
    .filter_map(|(d, buffer, period, seed)| {
        let (i, r, c) = square_trio(d, buffer, period, 120.0, seed);
        let short = i < 0.75 * GSL_MEAN_PAYLOAD_MBPS || i < 1.3 * r.max(c);
        short.then(|| format!("{d:?} {buffer} {period}: INTCP {i:.2} vs Reno {r:.2}, CUBIC {c:.2}"))
    })
    .collect();
    assert!(cases.is_empty(), "{}", cases.join("; "));
}

/// The budget is what makes the difference: with `hold_budget_bytes: 0` (the authors' code, a
/// midnode asks upstream only for what downstream asked) INTCP gets no more than end-to-end
/// transport's ceiling, the slower link at each moment (12.5 Mbit/s, 12.07 of payload; measured
/// 10.66), and the preset's budget gives at least 1.3× that (measured 17.47).
#[test]
fn without_a_hold_budget_intcp_falls_back_to_the_end_to_end_level() {
    let s = preset("intcp-two-hop-square");
    let full = goodput(&s);
    let mut z = s.clone();
    z["flows"][0]["hold_budget_bytes"] = 0.into();
    let zero = goodput(&z);
    eprintln!("square wave: INTCP {full:.2} Mbit/s with the default budget, {zero:.2} with none");
    assert!(zero <= 12.5 * 1449.0 / 1500.0, "budget 0: {zero:.2}");
    assert!(full >= 1.3 * zero, "{full:.2} vs {zero:.2}");
}

fn series(h: &orbitcp_core::runner::HopTrace, c: &str) -> Vec<(f64, f64)> {
    let v = h.series.cols[c].as_array().unwrap();
    h.series.t.iter().zip(v).filter_map(|(&t, v)| Some((t, v.as_f64()?))).collect()
}

/// The value of a held series at time t (its last sample at or before t).
fn at(s: &[(f64, f64)], t: f64) -> f64 {
    s.iter().take_while(|p| p.0 <= t).last().map_or(f64::NAN, |p| p.1)
}

fn mean_over(s: &[(f64, f64)], from: f64, to: f64) -> f64 {
    let v: Vec<f64> = s.iter().filter(|p| p.0 >= from && p.0 < to).map(|p| p.1).collect();
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// The mechanism on the square wave (low phases 0-5, 10-15, ... s): from the second period on,
/// the midnode's held bytes grow through every low phase and shrink through every high one, its
/// upstream (ground) hop keeps arriving at ≥ 80 % of 20 Mbit/s in low phases rather than
/// following the GSL down to 5, and in high phases (after their first half second) it sends
/// downstream at ≥ 80 % of the GSL's 35 Mbit/s of payload. In the first low phase the gate has
/// seen no faster GSL yet, so the midnode holds nothing and the ground hop follows the GSL.
#[test]
fn the_midnode_holds_ground_data_through_low_phases_and_drains_it_in_high_ones() {
    let mut s = preset("intcp-two-hop-square");
    s["duration_s"] = 50.into();
    s["trace"] = json!({ "max_points": 100000 });
    let r = run(&s, true);
    let hops = r.traces.as_ref().unwrap().flows[0].hops.as_ref().unwrap();
    let mid = &hops[1];
    let (held, inr, out) = (series(mid, "held_bytes"), series(mid, "in_rate_mbps"), series(mid, "out_rate_mbps"));
    let payload = 1449.0 / 1500.0;
    let first_low = held.iter().filter(|p| p.0 < 5.0).map(|p| p.1).fold(0.0, f64::max);
    eprintln!("first low phase: at most {first_low} bytes held, ground in {:.1} Mbit/s", mean_over(&inr, 1.0, 5.0));
    assert!(first_low < 100_000.0, "the gate opened before it saw the GSL fast: {first_low} bytes held");
    assert!(mean_over(&inr, 1.0, 5.0) < 0.5 * 20.0, "the ground hop followed the GSL in the first low phase");
    for k in 1..5 {
        let low = 10.0 * k as f64;
        let high = low + 5.0;
        let (a, b, c) = (at(&held, low + 0.5), at(&held, high), at(&held, high + 5.0));
        eprintln!("period {k}: held {:.2} → {:.2} → {:.2} MB; ground in {:.1} Mbit/s in the low phase, out {:.1} in the high one",
            a / 1e6, b / 1e6, c / 1e6, mean_over(&inr, low + 1.0, high), mean_over(&out, high + 0.5, high + 5.0));
        assert!(b > a + 5e6, "period {k}: held {a} → {b} in the low phase");
        assert!(c < b - 5e6, "period {k}: held {b} → {c} in the high phase");
        assert!(mean_over(&inr, low + 1.0, high) >= 0.8 * 20.0, "period {k}: ground hop in the low phase");
        assert!(mean_over(&out, high + 0.5, high + 5.0) >= 0.8 * 35.0 * payload, "period {k}: GSL in the high phase");
    }
}

/// Bytes are conserved through the read-ahead: a 40 MB transfer over the square wave (the
/// midnode holding up to its budget ahead of the consumer) delivers exactly the producer's
/// bytes, in order and checked, once each; read ahead of a flow's end there is nothing.
#[test]
fn read_ahead_delivers_every_byte_once_and_stops_at_the_flows_end() {
    let bytes = 40_000_000u64;
    let mut s = preset("intcp-two-hop-square");
    s["flows"][0]["bytes"] = bytes.into();
    let sc = scenario::from_value(s).unwrap();
    let mut run = Run::new(&sc).unwrap();
    run.run();
    assert!(run.delivery_error().is_none(), "{:?}", run.delivery_error());
    let r = run.result(false);
    let f = &r.flows[0];
    assert!(f.completed && f.delivered_bytes == bytes, "{f:?}");
    let hops = f.hops.as_ref().unwrap();
    // The producer sent each segment once (no loss on either link): nothing beyond the end.
    let segs = bytes.div_ceil(1449);
    assert!(hops[0].data_sent <= segs + segs / 100, "producer sent {} for {segs}", hops[0].data_sent);
    assert!(hops[1].cache_served > segs / 4, "the midnode served {} from what it held", hops[1].cache_served);
}

fn outage_goodput(flow: Value, d: f64) -> f64 {
    let mut s = preset("intcp-handover-outages");
    s["topology"]["links"][1]["outages"]["duration_s"] = d.into();
    s["flows"][0] = flow;
    goodput(&s)
}

/// What the air time alone allows through outages of `d` s every 20 s on the 20 Mbit/s GSL, in
/// payload Mbit/s.
fn air(d: f64) -> f64 {
    20.0 * (1.0 - d / 20.0) * 1449.0 / 1500.0
}

/// Preset 2 (paper Fig. 5(b)), lossless: at every outage length (0.5-4 s every 20 s) INTCP keeps
/// at least 92 % of what the remaining air time allows (measured 0.95-0.99), and from 0.5 s to
/// 4 s it loses no more than the air time (ratio at least 95 % of the air-time ratio).
#[test]
fn through_longer_outages_intcp_loses_only_the_air_time() {
    let intcp = intcp_read_ahead();
    let g: Vec<f64> = [0.5, 1.0, 2.0, 4.0].iter().map(|&d| outage_goodput(intcp.clone(), d)).collect();
    eprintln!("outages 0.5/1/2/4 s: INTCP {g:.2?} Mbit/s");
    for (&d, &x) in [0.5, 1.0, 2.0, 4.0].iter().zip(&g) {
        assert!(x >= 0.92 * air(d), "outage {d} s: INTCP {x:.2} of {:.2}", air(d));
    }
    assert!(g[3] / g[0] >= 0.95 * air(4.0) / air(0.5), "INTCP kept {:.3}", g[3] / g[0]);
}

/// The paper's Fig. 5(b) at 4 s outages: INTCP loses no more than the air time (its ratio from
/// 0.5 s to 4 s at least 95 % of the air-time ratio 0.82) and is ahead of Reno at 4 s. At
/// 0.5-1 s Reno is ahead (18.53 against 17.92 at 0.5 s): its loss-based window fills the 20
/// Mbit/s link where INTCP's delay-based rate keeps about 95 % of it.
#[test]
fn through_4_s_outages_intcp_loses_only_the_air_time_and_overtakes_reno() {
    let intcp = intcp_read_ahead();
    let (i_short, i_long) = (outage_goodput(intcp.clone(), 0.5), outage_goodput(intcp, 4.0));
    let r_long = outage_goodput(reno(), 4.0);
    let air_ratio = air(4.0) / air(0.5);
    assert!(i_long / i_short >= 0.95 * air_ratio, "INTCP kept {:.3}", i_long / i_short);
    assert!(i_long > r_long, "at 4 s: INTCP {i_long:.2} vs Reno {r_long:.2}");
}

/// The paper's Fig. 5(b): TCP "deteriorates" as the outages grow, clearly more than the air
/// time (here: its ratio from 0.5 s to 4 s at least 5 points below the air-time ratio 0.82).
#[test]
#[ignore = "known gap: since the linux profile keeps its RTO as Linux's tcp_rtt_estimator does \
            (docs/tcp.md, The RTT estimator), Reno keeps 0.794 of its goodput from 0.5 s to 4 s \
            outages (18.53 → 14.71 Mbit/s, measured 2026-12-06), 2.6 points below the air time's \
            0.82; it kept 0.755 (18.55 → 14.00) with RFC 6298's smoothing"]
fn through_4_s_outages_reno_loses_more_than_the_air_time() {
    let (r_short, r_long) = (outage_goodput(reno(), 0.5), outage_goodput(reno(), 4.0));
    eprintln!("outages 0.5 → 4 s: Reno {r_short:.2} → {r_long:.2} Mbit/s");
    assert!(r_long / r_short <= air(4.0) / air(0.5) - 0.05, "Reno kept {:.3}", r_long / r_short);
}

/// The cache rides through an outage: while the GSL is down (2 s outages at 20-22 s and 40-42 s
/// here), the midnode keeps fetching over the ground link and its held bytes grow by at least
/// half of what 20 Mbit/s brings in that time.
#[test]
fn during_an_outage_the_midnode_keeps_fetching_and_holds_the_data() {
    let mut s = preset("intcp-handover-outages");
    s["duration_s"] = 45.into();
    s["trace"] = json!({ "max_points": 100000 });
    let r = run(&s, true);
    let hops = r.traces.as_ref().unwrap().flows[0].hops.as_ref().unwrap();
    let held = series(&hops[1], "held_bytes");
    let every = s["topology"]["links"][1]["outages"]["every_s"].as_f64().unwrap();
    let d = s["topology"]["links"][1]["outages"]["duration_s"].as_f64().unwrap();
    for k in 1..=2 {
        let start = every * k as f64;
        let (a, b) = (at(&held, start), at(&held, start + d));
        eprintln!("outage {k}: held {:.2} → {:.2} MB", a / 1e6, b / 1e6);
        assert!(b - a >= 0.5 * 20e6 / 8.0 * d, "outage {k}: held {a} → {b}");
    }
}

/// The swing gate closes once the GSL is back at speed and the held bytes stop falling: after
/// each 4 s outage (GSL and ground link both 20 Mbit/s, so nothing drains what the outage
/// stored while the ground hop keeps fetching) what the midnode held is gone before the next
/// outage, where reading ahead always keeps it as a standing backlog.
#[test]
fn after_an_outage_the_gate_closes_and_the_held_bytes_drain() {
    let held_before_outages = |read_ahead: &str| {
        let mut s = preset("intcp-handover-outages");
        s["duration_s"] = 60.into();
        s["topology"]["links"][1]["outages"]["duration_s"] = 4.into();
        s["flows"][0]["read_ahead"] = read_ahead.into();
        s["trace"] = json!({ "max_points": 100000 });
        let r = run(&s, true);
        let held = series(&r.traces.as_ref().unwrap().flows[0].hops.as_ref().unwrap()[1], "held_bytes");
        [at(&held, 24.0), at(&held, 39.9), at(&held, 44.0), at(&held, 59.9)]
    };
    let (gated, always) = (held_before_outages("swings"), held_before_outages("always"));
    eprintln!("held at the end of outages 1, 2 and before the next: gated {gated:?}, always {always:?}");
    for (after, before_next) in [(gated[0], gated[1]), (gated[2], gated[3])] {
        assert!(after >= 0.5 * 20e6 / 8.0 * 4.0, "the outage's data was held: {after}");
        assert!(before_next < 0.05 * after, "held {after} → {before_next} before the next outage");
    }
    assert!(always[3] > 0.5 * always[2], "reading ahead always keeps a backlog: {always:?}");
}

/// On Fig. 5(c) the GSL (20 Mbit/s, 5 % loss) is slower than the ground link for good: the
/// gate never opens, so with the default budget INTCP runs bit for bit as the authors' code
/// (budget 0), at a 20 ms and a 300 ms GSL round trip; reading ahead always fills the budget
/// into a standing backlog and multiplies the delay at arrival (measured 43 → 1886 ms).
#[test]
fn on_a_hop_that_is_slower_for_good_the_gate_stays_closed() {
    for d in [10, 150] {
        let mut s = preset("intcp-loss-delay");
        s["topology"]["links"][1]["delay_ms"] = d.into();
        assert!(s["flows"][0].get("hold_budget_bytes").is_none(), "the preset runs the default budget");
        let gated = run(&s, false).flows[0].clone();
        s["flows"][0]["hold_budget_bytes"] = 0.into();
        let none = run(&s, false).flows[0].clone();
        eprintln!(
            "GSL RTT {} ms: gated {:.3} Mbit/s, arrival mean {:.1} ms; budget 0 {:.3}, {:.1}",
            2 * d,
            gated.goodput_mbps,
            gated.owd_arrival_ms.unwrap().mean,
            none.goodput_mbps,
            none.owd_arrival_ms.unwrap().mean
        );
        assert_eq!(gated.goodput_mbps, none.goodput_mbps);
        assert_eq!(gated.owd_arrival_ms.unwrap().mean, none.owd_arrival_ms.unwrap().mean);
        if d == 10 {
            s["flows"][0]["hold_budget_bytes"] = (32u64 << 20).into();
            s["flows"][0]["read_ahead"] = "always".into();
            let always = run(&s, false).flows[0].owd_arrival_ms.unwrap().mean;
            assert!(always > 10.0 * none.owd_arrival_ms.unwrap().mean, "always: {always:.1} ms");
        }
    }
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
        node1_bytes in prop::option::of(prop::sample::select(vec![0u64, 5000, 50_000_000])),
    ) {
        let links: Vec<Value> = (0..hops).map(|i| {
            let mut l = json!({ "rate_mbps": 10, "delay_ms": 5 + 5 * i, "buffer_pkts": 50,
                "loss": loss(losses[i].0), "reverse_loss": loss(losses[i].1) });
            if let (Some((every, d)), true) = (outage, i == hops - 1) {
                l["outages"] = json!({ "every_s": every, "duration_s": d.min(every / 2.0) });
            }
            l
        }).collect();
        let f = |b: u64, from: u32, to: u32| {
            let mut f = json!({ "transport": "intcp", "bytes": b, "cache": cache,
                "cache_bytes": cache_bytes, "hole_threshold_pkts": threshold, "from_node": from, "to_node": to });
            if let Some(n1) = node1_bytes {
                f["node_cache_bytes"] = json!({ "1": n1 });
            }
            f
        };
        let s = json!({
            "version": 1, "name": "intcp property", "seed": seed, "duration_s": 600,
            "topology": { "kind": "chain", "links": links },
            "flows": [ f(bytes, 0, hops as u32), f(bytes2, hops as u32, 0) ],
        });
        let sc = scenario::from_value(s).unwrap();
        let mut run = Run::new(&sc).unwrap();
        run.run();
        prop_assert!(run.delivery_error().is_none(), "{:?}", run.delivery_error());
        let r = run.result(false);
        for (fl, b) in r.flows.iter().zip([bytes, bytes2]) {
            prop_assert!(fl.completed, "flow {} delivered {} of {b}", fl.id, fl.delivered_bytes);
            prop_assert_eq!(fl.delivered_bytes, b);
        }
        for (used, cap) in run.intcp_cache_usage() {
            prop_assert!(used <= cap, "cache holds {used} > {cap}");
            prop_assert!(cap == cache_bytes || Some(cap) == node1_bytes, "capacity {cap}");
        }
    }
}

/// The hop view's data: every node of an INTCP flow has its time series (advertised rate, paced
/// rate, send queue, cache) and its re-request events; TCP flows have none.
#[test]
fn intcp_traces_carry_a_time_series_per_node_and_tcp_traces_none() {
    let mut s = preset("intcp-two-hop-square");
    s["duration_s"] = 20.into();
    s["topology"]["links"][1]["loss"] = loss(0.02);
    s["flows"] = json!([{ "transport": "intcp" }, reno()]);
    let r = run(&s, true);
    let tr = r.traces.as_ref().unwrap();
    let hops = tr.flows[0].hops.as_ref().expect("INTCP hop traces");
    assert_eq!(
        hops.iter().map(|h| h.role).collect::<Vec<_>>(),
        [HopRole::Producer, HopRole::Midnode, HopRole::Consumer]
    );
    let max = |h: usize, c: &str| {
        hops[h].series.cols[c].as_array().unwrap().iter().filter_map(|v| v.as_f64()).fold(0.0, f64::max)
    };
    for h in hops {
        assert!(
            h.series.t.len() > 10 && h.series.t.len() <= s["trace"]["max_points"].as_u64().unwrap_or(2000) as usize
        );
    }
    assert!(max(0, "paced_rate_mbps") > 1.0 && max(1, "advertised_rate_mbps") > 1.0);
    assert!(max(1, "cache_bytes") > 0.0 && max(1, "queue_pkts") >= 1.0);
    // 2 % loss on the GSL: the consumer re-requests SeqHoles of its hop.
    let rtx = &hops[2].retransmissions;
    assert!(!rtx.t.is_empty());
    assert!(rtx.cols["node"].as_array().unwrap().iter().all(|n| n.as_f64() == Some(2.0)));
    assert!(tr.flows[1].hops.is_none());
    let json = serde_json::to_value(&tr.flows[1]).unwrap();
    assert!(json.get("hops").is_none());
}

/// Three consumers along a 4-hop chain (at nodes 2, 3, 4), one producer (node 0), one name;
/// consumer k starts `stagger` s after consumer k − 1.
fn multicast(cache: bool, users: usize, stagger: f64, bytes: u64) -> Value {
    let flows: Vec<Value> = (0..users)
        .map(|k| {
            json!({ "transport": "intcp", "name": "video", "cache": cache, "bytes": bytes,
                "from_node": 0, "to_node": 4 - k as u32, "start_s": stagger * k as f64 })
        })
        .collect();
    json!({
        "version": 1, "name": "multicast", "seed": 5, "duration_s": 120,
        "topology": { "kind": "chain", "links": [
            { "rate_mbps": 10, "delay_ms": 10, "buffer_pkts": 100 },
            { "rate_mbps": 50, "delay_ms": 5, "buffer_pkts": 100 },
            { "rate_mbps": 50, "delay_ms": 5, "buffer_pkts": 100 },
            { "rate_mbps": 50, "delay_ms": 5, "buffer_pkts": 100 } ] },
        "flows": flows,
    })
}

#[test]
fn consumers_of_one_name_are_served_from_midnode_caches_and_save_the_first_link() {
    for stagger in [0.0, 1.0] {
        let bytes = 3_000_000;
        let shared = run(&multicast(true, 3, stagger, bytes), false);
        let uni = run(&multicast(false, 3, stagger, bytes), false);
        for r in [&shared, &uni] {
            for f in &r.flows {
                assert!(f.completed && f.delivered_bytes == bytes && f.error.is_none(), "{f:?}");
            }
        }
        let first = |r: &orbitcp_core::runner::RunResult| r.links[0].delivered_bytes;
        let served: u64 = shared.flows.iter().flat_map(|f| f.hops.iter().flatten()).map(|h| h.cache_served).sum();
        eprintln!(
            "multicast stagger {stagger}: first link INTCP {} B, INTCP-uni {} B; cache-served segments {served}; goodputs {:?} vs {:?}",
            first(&shared),
            first(&uni),
            shared.flows.iter().map(|f| f.goodput_mbps).collect::<Vec<_>>(),
            uni.flows.iter().map(|f| f.goodput_mbps).collect::<Vec<_>>()
        );
        // One copy crosses the first link (plus what the GSL-free chain still re-sends), not three.
        assert!(first(&shared) as f64 <= 1.2 * bytes as f64, "{}", first(&shared));
        assert!(first(&shared) as f64 <= 0.5 * first(&uni) as f64);
        assert!(served > 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Multicast under loss, any cache size, any start times: every consumer of a name gets
    /// exactly the producer's bytes.
    #[test]
    fn every_consumer_of_a_name_gets_exactly_the_producers_bytes(
        users in 1usize..4, p in 0.0..0.05f64, stagger in 0.0..2.0f64,
        cache_bytes in prop::sample::select(vec![0u64, 20_000, 200_000, 10_000_000]),
        bytes in 1u64..400_000, seed in any::<u64>(),
    ) {
        let mut s = multicast(true, users, stagger, bytes);
        s["seed"] = seed.into();
        s["duration_s"] = 300.into();
        for l in s["topology"]["links"].as_array_mut().unwrap() {
            l["loss"] = loss(p);
            l["reverse_loss"] = loss(p / 2.0);
        }
        for f in s["flows"].as_array_mut().unwrap() {
            f["cache_bytes"] = cache_bytes.into();
        }
        let sc = scenario::from_value(s).unwrap();
        let mut run = Run::new(&sc).unwrap();
        run.run();
        prop_assert!(run.delivery_error().is_none(), "{:?}", run.delivery_error());
        for fl in &run.result(false).flows {
            prop_assert!(fl.completed, "flow {} delivered {} of {bytes}", fl.id, fl.delivered_bytes);
            prop_assert_eq!(fl.delivered_bytes, bytes);
        }
    }
}

/// Preset 3 (paper Fig. 5(c)): INTCP's one-way delay mean and 5 %/95 % band lower and narrower
/// than TCP's at every GSL RTT of 20-300 ms. The authors measured INTCP per packet at its arrival
/// (sniffers at both ends matched on rangeStart, docs/intcp-protocol.md §11.1) but TCP at the application,
/// i.e. after in-order delivery. Measured that way the claim holds here at every RTT (e.g. GSL
/// RTT 100 ms: INTCP 77/90/182 ms p5/mean/p95 against Reno 76/140/379). Like with like it does
/// not: per packet at arrival both means agree within a few %, and at in-order delivery INTCP's
/// mean is 2-3× Reno's, because INTCP runs 20-40× more packets through the same 5 % loss and each
/// waits in the consumer's reorder buffer behind hop recoveries and, for lost re-sends, behind an
/// end-to-end timeout (scenarios/README.md). Also tested: INTCP's goodput is at least 10× Reno's.
#[test]
fn under_gsl_loss_intcps_delay_is_lower_as_the_authors_measured_it_but_not_like_with_like() {
    for d in [10, 25, 50, 100, 150] {
        let mut s = preset("intcp-loss-delay");
        s["topology"]["links"][1]["delay_ms"] = d.into();
        let i = run(&s, false).flows[0].clone();
        s["flows"][0] = reno();
        let r = run(&s, false).flows[0].clone();
        let (ia, ra) = (i.owd_arrival_ms.unwrap(), r.owd_arrival_ms.unwrap());
        eprintln!(
            "GSL RTT {} ms: INTCP owd {:.1}/{:.1}/{:.1} arrival {:.1}/{:.1}/{:.1} ms {:.2} Mbit/s, {} timeouts; Reno {:.1}/{:.1}/{:.1} arrival {:.1}/{:.1}/{:.1} ms {:.2} Mbit/s",
            2 * d,
            i.owd_ms.p5,
            i.owd_ms.mean,
            i.owd_ms.p95,
            ia.p5,
            ia.mean,
            ia.p95,
            i.goodput_mbps,
            i.timeouts,
            r.owd_ms.p5,
            r.owd_ms.mean,
            r.owd_ms.p95,
            ra.p5,
            ra.mean,
            ra.p95,
            r.goodput_mbps
        );
        let at = 2 * d;
        assert!(i.goodput_mbps >= 10.0 * r.goodput_mbps, "GSL RTT {at}: {i:?} vs {r:?}");
        // The authors' measurement: INTCP per packet at arrival, TCP at in-order delivery.
        let (o, band) = (r.owd_ms, |x: metrics::DelaySummary| x.p95 - x.p5);
        assert!(ia.mean < 0.8 * o.mean && ia.p95 < o.p95 && band(ia) < band(o), "GSL RTT {at}: {ia:?} vs {o:?}");
        // Like with like at arrival: the same mean within 5 %.
        assert!((ia.mean / ra.mean - 1.0).abs() < 0.05, "GSL RTT {at}: {ia:?} vs {ra:?}");
        // Like with like at in-order delivery: INTCP's is higher, mostly head-of-line waiting.
        assert!(i.owd_ms.mean > 1.5 * o.mean && i.owd_ms.mean > 2.0 * ia.mean, "GSL RTT {at}: {i:?} vs {r:?}");
    }
}

/// Per-user goodput of preset 4 with its first `users` consumers.
fn per_user(users: usize, cache: bool) -> f64 {
    let mut s = preset("intcp-multicast");
    let flows: Vec<Value> = s["flows"].as_array().unwrap()[..users]
        .iter()
        .map(|f| {
            let mut f = f.clone();
            f["cache"] = cache.into();
            f
        })
        .collect();
    s["flows"] = flows.into();
    let r = run(&s, false);
    assert!(r.flows.iter().all(|f| f.completed), "{:?}", r.flows);
    r.flows.iter().map(|f| f.goodput_mbps).sum::<f64>() / users as f64
}

/// Preset 4 (paper Fig. 7): from 1 to 4 users, INTCP-uni's per-user goodput falls to at most
/// 40 % of its single-user value, while INTCP's stays at least 80 % of its own.
#[test]
fn with_more_users_intcp_uni_per_user_goodput_falls_while_intcps_holds() {
    let i: Vec<f64> = (1..=4).map(|n| per_user(n, true)).collect();
    let u: Vec<f64> = (1..=4).map(|n| per_user(n, false)).collect();
    eprintln!("multicast per-user goodput, 1..4 users: INTCP {i:.2?}, INTCP-uni {u:.2?}");
    assert!(u[3] <= 0.4 * u[0], "INTCP-uni {u:?}");
    assert!(i[3] >= 0.8 * i[0], "INTCP {i:?}");
    assert!(u.windows(2).all(|w| w[1] < w[0]), "INTCP-uni {u:?}");
}

/// Producer - terrestrial hop (`ground`) - ground station - GSL (20 Mbit/s, 20 ms, 0.1 % loss) -
/// consumer, with `hop_cc` for the two hops.
fn mixed(ground: Value, hop_cc: Value, bytes: Option<u64>, duration_s: f64) -> Value {
    json!({
        "version": 1, "name": "mixed hops", "seed": 7, "duration_s": duration_s,
        "topology": { "kind": "chain", "links": [
            ground,
            { "rate_mbps": 20, "delay_ms": 20, "buffer_pkts": 100, "loss": loss(0.001) } ] },
        "flows": [ { "transport": "intcp", "bytes": bytes, "hop_cc": hop_cc } ],
    })
}

#[test]
fn hop_cc_needs_one_entry_per_hop_and_known_names() {
    let ground = json!({ "rate_mbps": 20, "delay_ms": 10 });
    let mut s = mixed(ground, json!(["reno", "intcp", "intcp"]), None, 10.0);
    let e = scenario::from_value(s.clone()).unwrap_err().to_string();
    assert!(e.contains("flows[0].hop_cc: has 3 entries but the flow crosses 2 hops"), "{e}");
    s["flows"][0]["hop_cc"] = json!(["reno", "cubic"]);
    let e = scenario::from_value(s.clone()).unwrap_err().to_string();
    assert!(e.contains("flows[0].hop_cc[1]") && e.contains("cubic"), "{e}");
    s["flows"][0]["hop_cc"] = json!([]);
    assert!(scenario::from_value(s).is_ok());
}

/// The node agent of flow 0 on `node`.
fn node_agent(r: &Run, node: u32) -> &orbitcp_core::intcp::midnode::IntcpNode {
    r.sim
        .agents
        .iter()
        .find_map(|a| match a {
            orbitcp_core::simulation::Agent::IntcpNode(n) if n.node == node => Some(n.as_ref()),
            _ => None,
        })
        .unwrap()
}

/// Mixed hops: a lossy terrestrial hop under "reno" halves its window (and so its advertised
/// rate, cwnd·MSS/srtt) at each loss found on that hop, while the INTCP GSL hop ignores losses;
/// every byte still arrives, checked at the consumer.
#[test]
fn a_reno_terrestrial_hop_halves_its_rate_at_each_hop_loss_and_every_byte_arrives() {
    let ground = json!({ "rate_mbps": 20, "delay_ms": 10, "buffer_pkts": 100, "loss": loss(0.01) });
    let bytes = 6_000_000;
    let s = mixed(ground, json!(["reno", "intcp"]), Some(bytes), 60.0);
    let sc = scenario::from_value(s).unwrap();
    let mut r = Run::new(&sc).unwrap();
    let mut halvings = 0;
    let (mut seen, mut before) = ((0, 0), 0u32);
    while r.sim.step() {
        let gs = node_agent(&r, 1);
        let w = gs.cc.cwnd_pkts() as u32;
        if gs.cc.reductions().0 > seen.0 {
            // Halved as TCP's Reno halves (ssthresh ⌊w/2⌋, at least 2), up to the growth from
            // the packet that revealed the hole; the advertised rate is cwnd·MSS/srtt.
            let halves = [(before / 2).max(2), before.div_ceil(2).max(2)];
            assert!(halves.contains(&w), "window {before} -> {w}");
            halvings += 1;
        }
        seen = gs.cc.reductions();
        before = w;
    }
    assert!(halvings >= 5, "{halvings} halvings");
    assert_eq!(node_agent(&r, 2).cc.reductions(), (0, 0), "the INTCP hop does not react to losses");
    assert!(r.delivery_error().is_none(), "{:?}", r.delivery_error());
    let f = &r.result(false).flows[0];
    assert!(f.completed && f.delivered_bytes == bytes, "{f:?}");
}

/// Mixing hops moves throughput the way the paper and TCP theory say. (a) A clean 10 Mbit/s
/// terrestrial bottleneck: Reno fills it (a loss-based window keeps the buffer full) where
/// INTCP's delay-based control holds back (measured 9.56 against 8.95 Mbit/s), at the price of
/// a full buffer's queueing (mean OWD 118 against 36 ms). (b) The same hop at 20 Mbit/s with 1 %
/// random loss: Reno halves at every loss and falls to the Mathis rate 1.22·MSS/(RTT·√p) ≈ 7.1
/// Mbit/s (RTT 20 ms; measured 6.37) while INTCP, blind to random loss, keeps 17.53.
#[test]
fn a_reno_terrestrial_hop_gains_on_a_clean_bottleneck_and_loses_on_a_lossy_link() {
    let both = |ground: Value, hop_cc: Value| run(&mixed(ground, hop_cc, None, 60.0), false).flows[0].clone();
    let clean = json!({ "rate_mbps": 10, "delay_ms": 10, "buffer_pkts": 100 });
    let (i, m) = (both(clean.clone(), json!(["intcp", "intcp"])), both(clean, json!(["reno", "intcp"])));
    eprintln!(
        "clean 10 Mbit/s hop: Reno hop {:.2} Mbit/s (OWD {:.0} ms), INTCP hop {:.2} ({:.0} ms)",
        m.goodput_mbps, m.owd_ms.mean, i.goodput_mbps, i.owd_ms.mean
    );
    assert!(m.goodput_mbps > 1.05 * i.goodput_mbps && m.goodput_mbps < 10.0, "{m:?} vs {i:?}");
    assert!(m.owd_ms.mean > 2.0 * i.owd_ms.mean, "{m:?} vs {i:?}");
    let lossy = json!({ "rate_mbps": 20, "delay_ms": 10, "buffer_pkts": 100, "loss": loss(0.01) });
    let (i, m) = (both(lossy.clone(), json!(["intcp", "intcp"])), both(lossy, json!(["reno", "intcp"])));
    let mathis = 1.22 * 1449.0 * 8.0 / 0.020 / 0.01f64.sqrt() / 1e6;
    eprintln!("1 %-lossy 20 Mbit/s hop: Reno hop {:.2} Mbit/s, INTCP hop {:.2}", m.goodput_mbps, i.goodput_mbps);
    assert!(m.goodput_mbps < 0.5 * i.goodput_mbps, "{m:?} vs {i:?}");
    assert!(m.goodput_mbps > 0.6 * mathis && m.goodput_mbps < 1.4 * mathis, "{} vs Mathis {mathis}", m.goodput_mbps);
}

/// INTCP, TCP and CTCP flows in one scenario share a two-hop path: each delivers exactly its
/// bytes (the run fails on a wrong byte), and none is starved by the others.
#[test]
fn intcp_tcp_and_ctcp_flows_share_one_path() {
    let v = json!({
        "version": 1, "name": "mixed transports", "seed": 3, "duration_s": 120,
        "topology": { "kind": "chain", "links": [
            { "rate_mbps": 20, "delay_ms": 10, "buffer_pkts": 100 },
            { "rate_mbps": 10, "delay_ms": 20, "buffer_pkts": 100, "loss": { "model": "bernoulli", "p": 0.001 } }
        ] },
        "flows": [
            { "transport": "tcp", "cc": "cubic", "bytes": 8_000_000 },
            { "transport": "ctcp", "variant": "v2", "bytes": 8_000_000 },
            { "transport": "intcp", "bytes": 8_000_000 }
        ]
    });
    let r = common::run(&v, false);
    for f in &r.flows {
        assert!(f.completed && f.delivered_bytes == 8_000_000, "flow {} ({}) did not deliver its bytes", f.id, f.cc);
        // Alone each would take 6.4 s at 10 Mbit/s; together about 19 s. None may take more
        // than 80 % of the run that way (a starved flow would).
        assert!(f.goodput_mbps > 0.8, "flow {} ({}) starved: {} Mbit/s", f.id, f.cc, f.goodput_mbps);
    }
}

/// `node_cache_bytes` sets one node's cache: a node given 0 bytes caches nothing, so a hole on the
/// hop after it must be fetched from further upstream, and the bytes still all arrive.
#[test]
fn a_node_cache_size_applies_to_that_node_only() {
    let v = json!({
        "version": 1, "name": "node caches", "seed": 5, "duration_s": 60,
        "topology": { "kind": "chain", "links": [
            { "rate_mbps": 10, "delay_ms": 5 }, { "rate_mbps": 10, "delay_ms": 5 },
            { "rate_mbps": 10, "delay_ms": 5, "loss": { "model": "bernoulli", "p": 0.02 } }
        ] },
        "flows": [{ "transport": "intcp", "bytes": 2_000_000, "cache_bytes": 10_000_000, "node_cache_bytes": { "2": 0 } }]
    });
    let sc = scenario::from_value(v.clone()).unwrap();
    let mut run = Run::new(&sc).unwrap();
    run.run();
    assert!(run.delivery_error().is_none());
    let caps: Vec<u64> = run.intcp_cache_usage().iter().map(|c| c.1).collect();
    assert_eq!(caps, vec![10_000_000, 0], "midnodes 1 and 2");
    let r = run.result(false);
    assert_eq!(r.flows[0].delivered_bytes, 2_000_000);
    let hops = r.flows[0].hops.as_ref().unwrap();
    assert_eq!(hops.iter().find(|h| h.node == 2).unwrap().cache_bytes_used, 0);
    assert!(hops.iter().find(|h| h.node == 1).unwrap().cache_bytes_used > 0);
    let mut bad = v;
    bad["flows"][0]["node_cache_bytes"] = json!({ "7": 0 });
    let e = scenario::from_value(bad).unwrap_err().to_string();
    assert!(e.starts_with("flows[0].node_cache_bytes.7: no such node"), "{e}");
}

/// The early overshoot on long chains: at the start of a run every hop's window used to double
/// up to ssthresh (100 packets) with no congestion signal, since on a chain the data arrives at
/// the pace of the slowest hop upstream, and advertise 57 Mbit/s on 20-30 Mbit/s links. Slow
/// start now grows only a window that the arrivals fill: over the first 3 s no hop advertises
/// more than 10 % above the fastest link (measured 30.5 Mbit/s).
#[test]
fn slow_start_on_a_long_chain_advertises_no_more_than_the_links_carry() {
    let s = json!({
        "version": 1, "name": "long", "seed": 1, "duration_s": 3, "trace": { "max_points": 100000 },
        "topology": { "kind": "chain", "links": [
            { "rate_mbps": 30, "delay_ms": 10 }, { "rate_mbps": 20, "delay_ms": 10 }, { "rate_mbps": 30, "delay_ms": 10 },
            { "rate_mbps": 25, "delay_ms": 10 }, { "rate_mbps": 20, "delay_ms": 10 }, { "rate_mbps": 30, "delay_ms": 10 } ] },
        "flows": [ { "transport": "intcp", "bytes": null } ],
    });
    let r = run(&s, true);
    let hops = r.traces.as_ref().unwrap().flows[0].hops.as_ref().unwrap();
    for (i, h) in hops.iter().enumerate().skip(1) {
        let max = series(h, "advertised_rate_mbps").iter().map(|p| p.1).fold(0.0, f64::max);
        eprintln!("long chain, node {i}: at most {max:.1} Mbit/s advertised");
        assert!(max <= 1.1 * 30.0, "node {i} advertised {max} Mbit/s in the first 3 s");
        assert!(max >= 0.5 * 20.0, "node {i} never asked for half the slowest link: {max} Mbit/s");
    }
    // The gate does not slow the start down: the ungated slow start delivered 6.15 Mbit/s over
    // these 3 s (the consumer's request ramp sets the pace), the gated one 6.05.
    assert!(r.flows[0].goodput_mbps > 0.9 * 6.15, "{}", r.flows[0].goodput_mbps);
}
