//! Fuzzing of the shapes that slipped through before: sweep grids whose paths name one field
//! twice, delays far beyond any orbit, large windows on links without a buffer limit, and
//! hundreds of flows. Each scenario is either refused by validation with a message, or runs
//! what it says: every grid value is the value its job runs with, every delivered byte is right,
//! and a one-way delay is never shorter than the links' propagation.
//!
//! `cargo test --release --test fuzz_shapes` runs a few hundred cases; `ORBITCP_FUZZ_CASES=N`
//! runs N (BENCHMARKS.md, "Fuzzing", records the million-case run).

use orbitcp_core::runner::{self, SweepPlan};
use orbitcp_core::scenario;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Cases per `cargo test`; `ORBITCP_FUZZ_CASES` sets another count.
const DEFAULT_CASES: u32 = 300;
/// Events per fuzzed run: enough for handshakes and the first losses, so a case takes
/// milliseconds even with a thousand flows.
const MAX_EVENTS: u64 = 3_000;
/// A week in milliseconds: the longest delay validation accepts.
const WEEK_MS: f64 = 604_800_000.0;

fn cases() -> u32 {
    std::env::var("ORBITCP_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(DEFAULT_CASES)
}

fn chain(links: Vec<Value>, flows: Vec<Value>, duration: f64, seed: u64) -> Value {
    json!({ "version": 1, "name": "fuzz shapes", "seed": seed, "duration_s": duration, "max_events": MAX_EVENTS,
            "topology": { "kind": "chain", "links": links }, "flows": flows })
}

/// Grid paths written in ways that alias: the same field with a padded index, a field and the
/// object holding it, the seed.
fn grid_axis() -> impl Strategy<Value = (String, Value)> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(vec!["reno", "cubic", "hybla"]), 1..3)
            .prop_map(|v| ("flows[0].cc".to_string(), json!(v))),
        prop::collection::vec(prop::sample::select(vec!["reno", "bbr"]), 1..3)
            .prop_map(|v| ("flows[00].cc".to_string(), json!(v))),
        Just(("flows[0]".to_string(), json!([{ "transport": "tcp", "cc": "vegas", "bytes": 20_000 }]))),
        prop::collection::vec(any::<u32>(), 1..3).prop_map(|v| ("seed".to_string(), json!(v))),
        prop::collection::vec(1.0..400.0f64, 1..3).prop_map(|v| ("topology.links[0].delay_ms".to_string(), json!(v))),
        prop::collection::vec(1.0..400.0f64, 1..3).prop_map(|v| ("topology.links[000].delay_ms".to_string(), json!(v))),
        prop::collection::vec(0.0..0.1f64, 1..3).prop_map(|v| ("topology.links[0].loss.p".to_string(), json!(v))),
        Just(("topology.links[0].loss".to_string(), json!([{ "model": "bernoulli", "p": 0.05 }]))),
    ]
}

fn sweep_scenario() -> impl Strategy<Value = Value> {
    (prop::collection::vec(grid_axis(), 1..4), 1u32..3, any::<u64>()).prop_map(|(axes, runs, seed)| {
        let link = json!({ "rate_mbps": 10, "delay_ms": 20, "loss": { "model": "bernoulli", "p": 0.01 } });
        let mut s = chain(vec![link], vec![json!({ "transport": "tcp", "cc": "reno", "bytes": 20_000 })], 5.0, seed);
        // A path written twice in one object keeps its last value (a JSON map), as a user's would
        // be refused by the strict parser: the grid's own duplicates are not the point here.
        let grid: serde_json::Map<String, Value> = axes.into_iter().collect();
        s["sweep"] = json!({ "grid": grid, "runs": runs });
        s
    })
}

/// Delays from a millisecond to far beyond a week, on chains of one or two links.
fn long_delay_scenario() -> impl Strategy<Value = Value> {
    let delay = (0.0..10.0f64).prop_map(|e| 10f64.powf(e));
    (prop::collection::vec((delay, 0.1..100.0f64), 1..3), 1.0..604_800.0f64, any::<u64>(), 0u64..100_000).prop_map(
        |(links, duration, seed, bytes)| {
            let links = links.into_iter().map(|(d, r)| json!({ "rate_mbps": r, "delay_ms": d })).collect();
            chain(links, vec![json!({ "transport": "tcp", "cc": "cubic", "bytes": bytes + 1 })], duration, seed)
        },
    )
}

/// Windows up to 100 000 packets on a link with no buffer limit.
fn large_window_scenario() -> impl Strategy<Value = Value> {
    let flow = prop_oneof![
        (prop::sample::select(vec!["go-back-n", "selective-repeat"]), 1u32..=100_000, prop::option::of(1u64..1000))
            .prop_map(|(mode, window, timeout)| {
                let mut f = json!({ "transport": "arq", "mode": mode, "window_pkts": window });
                if let Some(t) = timeout {
                    f["timeout_ms"] = t.into();
                }
                f
            }),
        (1u32..=100_000)
            .prop_map(|w| json!({ "transport": "tcp", "cc": "reno", "rcv_autotune": false, "rwnd_pkts": w })),
        Just(json!({ "transport": "tcp", "cc": "cubic", "rcv_autotune": false })),
    ];
    (flow, 0.1..1000.0f64, 0.0..0.5f64, 1.0..3600.0f64, any::<u64>()).prop_map(|(flow, rate, p, duration, seed)| {
        let link = json!({ "rate_mbps": rate, "delay_ms": 250, "loss": { "model": "bernoulli", "p": p } });
        chain(vec![link], vec![flow], duration, seed)
    })
}

/// Up to twice the flow limit, small and unlimited, with long traces.
fn many_flows_scenario() -> impl Strategy<Value = Value> {
    let log_uniform = |hi: f64| (0.0..hi.log10()).prop_map(|e| 10f64.powf(e));
    (log_uniform(2000.0), prop::option::of(log_uniform(1e6)), any::<u64>()).prop_map(|(n, points, seed)| {
        let (n, points) = (n as usize, points.map(|p| (p as u32).max(2)));
        let flows = (0..n).map(|i| json!({ "transport": "tcp", "cc": "reno", "bytes": if i % 2 == 0 { json!(3000) } else { Value::Null } })).collect();
        let mut s = chain(vec![json!({ "rate_mbps": 100, "delay_ms": 10, "buffer_pkts": 100 })], flows, 30.0, seed);
        if let Some(p) = points {
            s["trace"] = json!({ "max_points": p });
        }
        s
    })
}

/// A grid path with its indices read as numbers: `flows[00].cc` is `flows[0].cc`.
fn canonical(path: &str) -> Vec<String> {
    path.split(['.', '['])
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.strip_suffix(']').map_or(p.to_string(), |i| i.parse::<u64>().map_or(i.to_string(), |n| format!("[{n}]")))
        })
        .collect()
}

/// The value at a canonical path of a JSON value, if there is one.
fn at<'a>(v: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, p| match p.strip_prefix('[').and_then(|i| i.strip_suffix(']')) {
        Some(i) => v.get(i.parse::<usize>().ok()?),
        None => v.get(p.as_str()),
    })
}

/// Whether two JSON values are the same, numbers compared as numbers (5 and 5.0).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Object(x), Value::Object(y)) => x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w)),
        _ => a == b,
    }
}

fn check_run(text: &str) -> Result<(), TestCaseError> {
    let Ok(sc) = scenario::parse(text) else { return Ok(()) };
    let r = runner::run_scenario(&sc, sc.seed, true).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(r.flows.len(), sc.flows.len());
    let propagation_ms: f64 = match &sc.topology {
        scenario::Topology::Chain(c) => c.links.iter().map(|l| l.delay_ms).sum(),
        _ => 0.0,
    };
    for (f, spec) in r.flows.iter().zip(&sc.flows) {
        prop_assert!(f.error.is_none(), "flow {}: {:?}\n{}", f.id, f.error, text);
        if let (Some(b), true) = (spec.bytes(), f.completed) {
            prop_assert_eq!(f.delivered_bytes, b);
        }
        if f.delivered_bytes > 0 && spec.transport() == "tcp" {
            let owd = f.owd_ms;
            // Whole nanoseconds of each link's delay, summed: within a nanosecond per link.
            let floor = propagation_ms - 1e-6 * 3.0;
            prop_assert!(
                owd.p5 >= floor * (1.0 - 1.0 / 1024.0),
                "p5 {} under the propagation {}\n{}",
                owd.p5,
                propagation_ms,
                text
            );
            prop_assert!(
                owd.mean >= floor && owd.mean.is_finite(),
                "mean {} under {}\n{}",
                owd.mean,
                propagation_ms,
                text
            );
            prop_assert!(owd.p95 >= owd.p5, "p95 {} under p5 {}\n{}", owd.p95, owd.p5, text);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), max_shrink_iters: 500, ..ProptestConfig::default() })]

    /// A sweep whose grid paths alias each other is refused; one that is accepted runs, at every
    /// job, the value its grid names for each path, and a swept seed is the point's seed.
    #[test]
    fn sweep_grids_are_refused_or_run_what_they_name(s in sweep_scenario()) {
        let text = s.to_string();
        let paths: Vec<Vec<String>> = s["sweep"]["grid"].as_object().unwrap().keys().map(|k| canonical(k)).collect();
        let overlap = paths.iter().enumerate().any(|(i, a)| paths.iter().skip(i + 1).any(|b| a.starts_with(b) || b.starts_with(a)));
        let plan = SweepPlan::new(&text);
        prop_assert_eq!(plan.is_err(), overlap, "paths {:?}: {:?}", paths, plan.as_ref().err().map(|e| e.to_string()));
        let Ok(plan) = plan else { return Ok(()) };
        for i in 0..plan.len().min(6) {
            let job = plan.job(i).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let ran = serde_json::to_value(&job.scenario).expect("a scenario serialises");
            for (path, value) in &job.point {
                let got = at(&ran, &canonical(path));
                prop_assert!(got.is_some_and(|g| same(value, g)), "job {} ran {} = {:?}, its point says {}", i, path, got, value);
            }
            prop_assert_eq!(job.seed, plan.job_seed(i));
            let r = runner::run_job(&job).map_err(|e| TestCaseError::fail(format!("job {i}: {e}\n{text}")))?;
            prop_assert_eq!(r.seed, job.seed);
        }
    }

    /// Delays up to 10^10 ms: refused beyond a week, otherwise every one-way delay is at least
    /// the propagation, finite, and ordered.
    #[test]
    fn long_delays_are_refused_or_measured_in_full(s in long_delay_scenario()) {
        let text = s.to_string();
        let too_long = s["topology"]["links"].as_array().unwrap().iter().any(|l| l["delay_ms"].as_f64().unwrap() > WEEK_MS);
        let valid = runner::validate_json(&text).is_ok();
        prop_assert!(!(too_long && valid), "a delay over a week was accepted\n{}", text);
        check_run(&text)?;
    }

    /// Windows up to 100 000 packets into an unlimited buffer are refused or run on their budget
    /// with every byte right.
    #[test]
    fn large_windows_on_unlimited_buffers_are_refused_or_run(s in large_window_scenario()) {
        check_run(&s.to_string())?;
    }

    /// More flows than the limit are refused; fewer run, each reported.
    #[test]
    fn many_flows_are_refused_or_run(s in many_flows_scenario()) {
        let text = s.to_string();
        let n = s["flows"].as_array().unwrap().len();
        let valid = runner::validate_json(&text).is_ok();
        prop_assert!(n <= scenario::MAX_FLOWS || !valid, "{} flows were accepted", n);
        check_run(&text)?;
    }
}

/// Most generated scenarios of each shape are valid: a generator that made only refused ones
/// would test nothing while passing.
#[test]
fn most_fuzzed_shapes_are_valid() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut gen = TestRunner::deterministic();
    let n = 200;
    let mut valid = |s: BoxedStrategy<Value>| {
        (0..n).filter(|_| runner::validate_json(&s.new_tree(&mut gen).unwrap().current().to_string()).is_ok()).count()
    };
    for (what, count) in [
        ("sweeps", valid(sweep_scenario().boxed())),
        ("long delays", valid(long_delay_scenario().boxed())),
        ("large windows", valid(large_window_scenario().boxed())),
        ("many flows", valid(many_flows_scenario().boxed())),
    ] {
        assert!(count * 4 > n, "only {count} of {n} generated {what} are valid");
    }
}
