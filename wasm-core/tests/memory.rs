//! A run's memory is bounded by its scenario, not by its duration: measured with a counting
//! global allocator (this file is its own test binary, so the allocator sees only these runs,
//! which run one at a time).

use orbitcp_core::runner;
use orbitcp_core::scenario;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now = CURRENT.fetch_add(new_size - layout.size(), Relaxed) + new_size - layout.size();
                PEAK.fetch_max(now, Relaxed);
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// One test at a time: the counters are global, so each test holds this while it runs.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Peak bytes allocated above what was live before, over a run with its traces and its result
/// written as JSON; and the scenario's memory estimate.
fn peak_of(v: &Value) -> (usize, f64) {
    let sc = scenario::from_value(v.clone()).unwrap_or_else(|e| panic!("the scenario validates: {e}"));
    let estimate = sc.memory_estimate().total();
    let base = CURRENT.load(Relaxed);
    PEAK.store(base, Relaxed);
    let r = runner::run_scenario(&sc, sc.seed, true).unwrap();
    let text = serde_json::to_string(&r).unwrap();
    drop((r, text));
    (PEAK.load(Relaxed) - base, estimate)
}

fn with_duration(v: &Value, d: f64) -> Value {
    let mut v = v.clone();
    v["duration_s"] = d.into();
    v
}

fn flow(kind: u8) -> Value {
    match kind {
        0 => json!({"transport": "tcp", "cc": "cubic"}),
        1 => json!({"transport": "tcp", "cc": "reno", "profile": "ns3"}),
        2 => json!({"transport": "ctcp", "variant": "v2"}),
        // Its caches fill up to `cache_bytes` (counted in the estimate), then stay.
        3 => json!({"transport": "intcp", "cache_bytes": 1_000_000}),
        4 => json!({"transport": "arq", "mode": "go-back-n", "window_pkts": 500}),
        _ => json!({"transport": "arq", "mode": "selective-repeat", "window_pkts": 2000}),
    }
}

fn scenario_strategy() -> impl Strategy<Value = Value> {
    let link = (prop::sample::select(vec![10.0, 100.0]), prop::sample::select(vec![5.0, 50.0, 250.0]))
        .prop_flat_map(|(rate, delay)| {
            (Just(rate), Just(delay), prop::option::weighted(0.75, Just(200u32)), prop::sample::select(vec![0.0, 0.01]))
        })
        .prop_map(|(rate, delay, buffer, p)| {
            let mut l = json!({"rate_mbps": rate, "delay_ms": delay, "loss": {"model": "bernoulli", "p": p}});
            if let Some(b) = buffer {
                l["buffer_pkts"] = b.into();
            }
            l
        });
    (prop::collection::vec(link, 1..=2), prop::collection::vec(0u8..6, 1..=2)).prop_map(|(links, kinds)| {
        json!({
            "version": 1, "name": "memory", "seed": 1, "duration_s": 1,
            "topology": {"kind": "chain", "links": links},
            "flows": kinds.into_iter().map(flow).collect::<Vec<_>>(),
            "trace": {"max_points": 200},
        })
    })
}

/// What a flow may fill while a run is young, bounded by the scenario and not by its duration:
/// its delay statistics' exact samples (two of 16384 × 8 bytes, with the vectors' room to grow)
/// and their histograms' widening (two of at most about 230 KB), and its window growing to its
/// limit with what the sender keeps per packet (a CTCP flow's coding state reaches about 5 MB
/// over a 500 ms round trip).
const FILL_PER_FLOW: f64 = 2.0 * 16384.0 * 8.0 * 2.0 + 2.0 * 230e3 + 5e6;
/// A few goodput bins and jitter points more, and the allocator's noise.
const SLACK: f64 = 128.0 * 1024.0;

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn a_runs_peak_memory_does_not_grow_with_its_duration(v in scenario_strategy()) {
        let _serial = serial();
        let (short, estimate) = peak_of(&with_duration(&v, 16.0));
        let (long, _) = peak_of(&with_duration(&v, 64.0));
        let flows = v["flows"].as_array().unwrap().len() as f64;
        // Behind an unlimited buffer a sender that never slows down (TCP's ns-3 profile has no
        // receive window) grows its queue for as long as the run lasts: that memory is bounded
        // by the links' packet budget, in the estimate, and not by the duration.
        let unlimited = v["topology"]["links"].as_array().unwrap().iter().any(|l| l.get("buffer_pkts").is_none());
        prop_assert!(
            unlimited || long as f64 <= short as f64 * 1.1 + flows * FILL_PER_FLOW + SLACK,
            "peak {short} bytes over 16 s, {long} over 64 s: {v}"
        );
        prop_assert!((long as f64) < estimate, "peak {long} bytes, estimated at most {estimate}: {v}");
    }
}

#[test]
fn a_fast_flows_peak_memory_does_not_grow_with_its_duration() {
    let _serial = serial();
    // Every one of these delivers more than 16384 packets in the first 8 s and fills its window:
    // past that, a run of 32 s needs no more memory (but for its histograms' slow widening).
    // Delay samples kept per packet grew 8 bytes per packet (a 400 Mbit/s flow: about 270 KB per
    // simulated second).
    for f in [
        json!({"transport": "tcp", "cc": "cubic"}),
        json!({"transport": "intcp", "cache_bytes": 1_000_000}),
        json!({"transport": "ctcp", "variant": "v2"}),
        json!({"transport": "arq", "mode": "selective-repeat", "window_pkts": 4000}),
    ] {
        let v = json!({
            "version": 1, "name": "fast", "seed": 1, "duration_s": 8,
            "topology": {"kind": "chain", "links": [
                {"rate_mbps": 1000, "delay_ms": 1},
                {"rate_mbps": 400, "delay_ms": 20, "buffer_pkts": 2000},
            ]},
            "flows": [f],
            "trace": {"max_points": 200},
        });
        let (short, _) = peak_of(&v);
        let (long, estimate) = peak_of(&with_duration(&v, 32.0));
        assert!(long as f64 <= short as f64 * 1.02 + SLACK, "peak {short} bytes over 8 s, {long} over 32 s: {v}");
        assert!((long as f64) < estimate, "peak {long} bytes, estimated at most {estimate}: {v}");
    }
}

#[test]
fn a_tcp_flow_with_duplicate_ack_detection_keeps_no_record_per_segment_sent() {
    let _serial = serial();
    // The ns-3 profile detects loss by duplicate ACKs; RACK's list of transmissions, which only
    // RACK prunes, grew by a record per segment sent (2.4 MB over 8 s, 8.7 MB over 32 s).
    let v = json!({
        "version": 1, "name": "ns3", "seed": 1, "duration_s": 8,
        "topology": {"kind": "chain", "links": [{"rate_mbps": 100, "delay_ms": 5, "buffer_pkts": 200}]},
        "flows": [{"transport": "tcp", "cc": "reno", "profile": "ns3"}],
        "trace": {"max_points": 200},
    });
    let (short, _) = peak_of(&v);
    let (long, _) = peak_of(&with_duration(&v, 32.0));
    assert!(long as f64 <= short as f64 * 1.02 + SLACK, "peak {short} bytes over 8 s, {long} over 32 s");
}

#[test]
fn a_sender_that_floods_an_unlimited_buffer_stays_within_the_estimate() {
    // Before the links' packet budget this run held 3 million packets (about 800 MB); a longer
    // one aborted.
    // Go-back-N resending 10 000 packets every 10 ms into a 10 Mbit/s link: a million packets a
    // second offered, 833 carried. The links' packet budget holds the queue.
    let v = json!({
        "version": 1, "name": "flood", "seed": 1, "duration_s": 3,
        "topology": {"kind": "chain", "links": [{"rate_mbps": 10, "delay_ms": 50}]},
        "flows": [{"transport": "arq", "mode": "go-back-n", "window_pkts": 10000, "timeout_ms": 10}],
    });
    let _serial = serial();
    let (peak, estimate) = peak_of(&v);
    assert!((peak as f64) < estimate && estimate <= scenario::MAX_RUN_MEMORY_BYTES, "{peak} vs {estimate}");
}
