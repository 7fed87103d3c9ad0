//! Whole-run fuzzing: random valid scenarios (chains of 1 to 4 links with every loss model,
//! bandwidth schedules and overlapping outages; small Walker shells and GEO satellites; flows of
//! every transport and congestion control; sweeps of a few points), each run on a small event
//! budget. A run must not panic or fail, every flow's bytes must arrive exactly (the receivers
//! check every byte: a wrong one fails the run), and the same scenario must give the same JSON
//! twice.
//!
//! `cargo test --release --test fuzz_runs` runs a few hundred cases; `ORBITCP_FUZZ_CASES=10000`
//! runs more (BENCHMARKS.md, "Fuzzing").
//!
//! `robustness.rs` checks that validation and running agree on the chains alone; the generators
//! are shared (`common/scenarios.rs`).

mod common;
use common::scenarios::{bytes_and_start, cases_from_env, chain_scenario, maybe, place, transport};
use orbitcp_core::runner::{self, RunResult, SweepPlan};
use orbitcp_core::scenario;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Cases per `cargo test`; `ORBITCP_FUZZ_CASES` sets another count.
const DEFAULT_CASES: u32 = 1000;
/// The most events a fuzzed run may process: enough for handshakes, losses and recoveries, few
/// enough that a case takes milliseconds.
const MAX_EVENTS: u64 = 100_000;

fn cases() -> u32 {
    cases_from_env("ORBITCP_FUZZ_CASES", DEFAULT_CASES)
}

fn link_type() -> impl Strategy<Value = Value> {
    let capacity = prop_oneof![
        (0.5..100.0f64).prop_map(|r| json!({ "fixed_mbps": r })),
        (20.0..50.0f64, 5.0..40.0f64, 10.0..500.0f64)
            .prop_map(|(eirp, gt, bw)| json!({ "budget": { "frequency_ghz": 12, "eirp_dbw": eirp,
                "g_over_t_db_k": gt, "bandwidth_mhz": bw, "other_losses_db": 2, "efficiency": 0.7 } })),
    ];
    let loss = prop_oneof![
        (0.0..0.2f64).prop_map(|p| json!({ "fixed": p })),
        (0.0..0.3f64, 0.0..0.05f64)
            .prop_map(|(lo, hi)| json!({ "elevation": { "at_min_elevation": lo, "at_zenith": hi } })),
    ];
    (capacity, loss).prop_map(|(c, l)| json!({ "capacity": c, "loss": l }))
}

/// A small constellation: one or two Walker shells of a few dozen satellites, or GEO satellites,
/// between two ground stations, with ISLs or bent pipes, random link models and handovers.
fn constellation_scenario() -> impl Strategy<Value = Value> {
    let shell = (400.0..2000.0f64, 30.0..100.0f64, 2usize..8, 2usize..10, 0usize..4).prop_map(
        |(alt, inc, planes, per_plane, phasing)| {
            json!({ "altitude_km": alt, "inclination_deg": inc, "planes": planes, "sats_per_plane": per_plane,
                    "phasing": phasing % planes })
        },
    );
    let sats = prop_oneof![
        3 => prop::collection::vec(shell, 1..3).prop_map(|s| json!({ "walker": s })),
        1 => prop::collection::vec(-180.0..180.0f64, 1..4).prop_map(|g| json!({ "geo_longitudes_deg": g })),
    ];
    let topology = (
        (sats, place(70.0), place(70.0), 0.0..40.0f64, prop_oneof![0.05..2.0f64, Just(1.0)]),
        (0.0..6000.0f64, any::<bool>(), any::<bool>(), any::<bool>(), prop_oneof![Just(0.0), 0.0..1.0f64]),
        (maybe(link_type()), maybe(link_type()), 1u32..2000, any::<bool>(), any::<bool>()),
        maybe((0.5..200.0f64, 0.0..50.0f64, 0.0..0.1f64)),
    )
        .prop_map(
            |(
                (c, src, dst, elev, step),
                (start, bent, seam, stay, outage),
                (gsl, isl, buffer, rloss, drop),
                access,
            )| {
                let mut t = json!({ "kind": "constellation", "constellation": c, "src": src, "dst": dst,
                    "min_elevation_deg": elev, "step_s": step, "start_s": start,
                    "isl": if bent { "none" } else { "plus_grid" }, "seam": seam,
                    "attachment": if stay { "stay_until_lost" } else { "highest_elevation" },
                    "handover_outage_s": outage, "buffer_pkts": buffer, "reverse_loss": rloss,
                    "on_route_change": if drop { "drop" } else { "deliver" } });
                if let (Some(g), Some(i)) = (gsl, isl) {
                    t["links"] = json!({ "gsl": g, "isl": i });
                }
                if let Some((rate, delay, loss)) = access {
                    t["access"] = json!({ "rate_mbps": rate, "delay_ms": delay, "loss": loss });
                }
                t
            },
        )
        .boxed();
    (0.1..4.0f64).prop_flat_map(move |duration| {
        let flow = (transport(None), bytes_and_start(duration)).prop_map(|(mut f, (bytes, start))| {
            f["bytes"] = bytes;
            f["start_s"] = start.into();
            f
        });
        (topology.clone(), prop::collection::vec(flow, 1..3), any::<u64>(), prop::bool::weighted(0.2)).prop_map(
            move |(topology, flows, seed, alone)| {
                json!({ "version": 1, "name": "fuzz leo", "seed": seed, "duration_s": duration,
                        "flows_alone": alone, "topology": topology, "flows": flows })
            },
        )
    })
}

/// A grid over what every scenario of `duration` s has: the seed, the duration (no shorter) and
/// the first flow's start.
fn sweep(duration: f64) -> impl Strategy<Value = Value> {
    let axis = prop_oneof![
        prop::collection::vec(any::<u32>(), 1..3).prop_map(|v| ("seed", json!(v))),
        prop::collection::vec(duration..duration * 2.0, 1..3).prop_map(|v| ("duration_s", json!(v))),
        prop::collection::vec(0.0..duration * 0.9, 1..3).prop_map(|v| ("flows[0].start_s", json!(v))),
    ];
    (prop::collection::vec(axis, 1..3), 1u32..3).prop_map(|(axes, runs)| {
        let grid: serde_json::Map<String, Value> = axes.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        json!({ "grid": grid, "runs": runs })
    })
}

fn fuzz_scenario() -> impl Strategy<Value = Value> {
    (prop_oneof![3 => chain_scenario(), 1 => constellation_scenario()], 1_000..MAX_EVENTS).prop_flat_map(
        |(mut s, budget)| {
            let budget = s["max_events"].as_u64().unwrap_or(u64::MAX).min(budget);
            s["max_events"] = budget.into();
            let duration = s["duration_s"].as_f64().expect("a duration");
            maybe(sweep(duration)).prop_map(move |sweep| {
                let mut s = s.clone();
                if let Some(sw) = sweep {
                    s["sweep"] = sw;
                }
                s
            })
        },
    )
}

/// What every run must satisfy beyond not failing: each flow's bytes are all there when it says
/// it completed, and a flow that did not complete says why.
fn check_flows(r: &RunResult, sc: &scenario::Scenario, text: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(r.flows.len(), sc.flows.len());
    for (f, spec) in r.flows.iter().zip(&sc.flows) {
        prop_assert!(f.error.is_none(), "flow {}: {:?}\n{}", f.id, f.error, text);
        prop_assert!(f.goodput_mbps.is_finite(), "flow {}: goodput {}\n{}", f.id, f.goodput_mbps, text);
        match (spec.bytes(), f.completed) {
            (Some(b), true) => prop_assert_eq!(f.delivered_bytes, b, "flow {} completed\n{}", f.id, text),
            (Some(b), false) => {
                prop_assert!(f.delivered_bytes < b, "flow {}: {} of {} bytes\n{}", f.id, f.delivered_bytes, b, text);
                prop_assert!(f.incomplete_reason.is_some(), "flow {} incomplete without a reason\n{}", f.id, text);
            }
            (None, _) => {}
        }
    }
    Ok(())
}

/// Runs `sc` twice and checks that both results serialise to the same JSON.
fn run_twice(sc: &scenario::Scenario, seed: u64, traces: bool, text: &str) -> Result<RunResult, TestCaseError> {
    let run = || runner::run_scenario(sc, seed, traces).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")));
    let (a, b) = (run()?, run()?);
    let json = |r: &RunResult| serde_json::to_string(r).expect("results serialise");
    prop_assert!(json(&a) == json(&b), "two runs of the same scenario differ\n{}", text);
    Ok(a)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), max_shrink_iters: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_valid_scenarios_run_exactly_and_deterministically(s in fuzz_scenario(), traces in any::<bool>()) {
        let text = s.to_string();
        if runner::validate_json(&text).is_err() {
            return Ok(());
        }
        let sc = scenario::parse(&text).map_err(|e| TestCaseError::fail(format!("validate accepted, parse refused: {e}")))?;
        let r = run_twice(&sc, sc.seed, traces, &text)?;
        check_flows(&r, &sc, &text)?;
        if sc.sweep.is_some() {
            let plan = SweepPlan::new(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            for i in 0..plan.len().min(4) {
                let job = plan.job(i).map_err(|e| TestCaseError::fail(e.to_string()))?;
                let r = runner::run_job(&job).map_err(|e| TestCaseError::fail(format!("sweep job {i}: {e}\n{text}")))?;
                check_flows(&r, &job.scenario, &text)?;
            }
        }
    }
}

/// Most generated scenarios are valid: a generator that made mostly invalid ones would test
/// nothing while passing.
#[test]
fn most_fuzzed_scenarios_are_valid() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut gen = TestRunner::deterministic();
    let strategy = fuzz_scenario();
    let n = 300;
    let valid = (0..n)
        .filter(|_| runner::validate_json(&strategy.new_tree(&mut gen).unwrap().current().to_string()).is_ok())
        .count();
    assert!(valid * 2 > n, "only {valid} of {n} generated scenarios are valid");
}
