//! `orbitcp bench`: the standard benchmark (a GEO transfer in-process and the CTCP paper's Fig. 2
//! sweep), and with `--scenario` the timings of one scenario that BENCHMARKS.md records for a
//! constellation run: the whole on one thread (what `orbitcp run --summary --threads 1` does, the
//! JSON aside), then each flow alone for the scenario's duration and for its first 60 s (on a
//! constellation also hop by hop, `"express": false`), and with `--day` one flow alone for 24
//! hours. Each run includes its routes' computation. Prints, never asserts: a timing depends on
//! the machine.

use crate::{emit, input, parse_scenario, sweep, Failure, Outcome, Progress};
use orbitcp_core::runner::{self, SweepPlan};
use orbitcp_core::scenario::{self, Scenario};
use std::time::Instant;

const BENCH_TRANSFER: &str = include_str!("../../../../scenarios/bench-cubic-20mb.json");
const BENCH_SWEEP: &str = include_str!("../../../../scenarios/ctcp-fig2-tcp.json");

/// The simulated time of `--day`.
const DAY_S: f64 = 86_400.0;
/// The simulated time of each flow's short run: the 60 s that issue-style figures of events per
/// second are given for.
const SHORT_S: f64 = 60.0;

/// Times a transfer in-process: best of 20 after a warm-up, so the figure is the simulator's
/// speed, not the process start or the first page faults.
fn time_transfer(sc: &Scenario) -> Outcome {
    runner::run_scenario(sc, sc.seed, false)?;
    let mut best = f64::MAX;
    let mut events = 0;
    let reps = 20;
    for _ in 0..reps {
        let (dt, e) = time_run(sc)?;
        best = best.min(dt);
        events = e;
    }
    emit(&format!("transfer: {}\n", sc.name));
    emit(&format!("  events: {events}\n"));
    emit(&format!("  wall time: {:.2} ms (best of {reps})\n", best * 1e3));
    emit(&format!("  events per second: {:.2} million\n", events as f64 / best / 1e6));
    Ok(())
}

pub fn cmd_bench(threads: usize) -> Outcome {
    let sc = scenario::parse(BENCH_TRANSFER)?;
    time_transfer(&sc)?;
    // ns-3's figure is for the same dumbbell with NewReno (SACK on, its default) and no loss.
    let mut peer = sc.clone();
    peer.name = "ns-3 comparison: the same 20 MB transfer with NewReno, PER 0".into();
    let scenario::Topology::Chain(chain) = &mut peer.topology else {
        return Err("the benchmark scenario is a chain".into());
    };
    chain.links[1].loss = None;
    let scenario::Flow::Tcp(flow) = &mut peer.flows[0] else { return Err("the benchmark flow is TCP".into()) };
    flow.cc = orbitcp_core::tcp::congestion::CcKind::Reno;
    time_transfer(&peer)?;
    let plan = SweepPlan::new(BENCH_SWEEP)?;
    let t = Instant::now();
    let jobs: Vec<usize> = (0..plan.len()).collect();
    let results = sweep::run_parallel(&plan, &jobs, threads, &mut Progress::new(false), || false)?;
    let dt = t.elapsed().as_secs_f64();
    let total_events: u64 = results.iter().map(|r| r.events).sum();
    emit(&format!("sweep: {} ({} runs on {threads} threads)\n", plan.point_scenario(0)?.name, plan.len()));
    emit(&format!("  wall time: {dt:.2} s\n"));
    emit(&format!("  events: {total_events} ({:.2} million per second)\n", total_events as f64 / dt / 1e6));
    print_peak_memory();
    Ok(())
}

/// `orbitcp bench --scenario`: `repeat` runs of the whole, each flow alone, and with `day` that
/// flow (its index) alone for 24 hours.
pub fn cmd_bench_scenario(path: &str, repeat: usize, day: Option<usize>) -> Outcome {
    let (name, text) = input::read_scenario(path)?;
    let sc = parse_scenario(&name, &text)?;
    let flows = match sc.flows.len() {
        1 => "1 flow".to_string(),
        n => format!("{n} flows"),
    };
    if let Some(f) = day.filter(|&f| f >= sc.flows.len()) {
        return Err(Failure::Invalid(format!("--day {f}: {name} has {flows}, numbered from 0")));
    }
    let together = if sc.flows_alone { "each alone" } else { "together" };
    emit(&format!("scenario: {}\n", sc.name));
    emit(&format!("  the whole on one thread ({flows} {together}, {} s simulated; routes included):\n", sc.duration_s));
    let mut times = Vec::with_capacity(repeat);
    let mut events = 0;
    for _ in 0..repeat {
        let (dt, e) = time_run(&sc)?;
        times.push(dt);
        events = e;
    }
    let runs: Vec<String> = times.iter().map(|t| format!("{t:.2}")).collect();
    times.sort_by(f64::total_cmp);
    let median = times[(times.len() - 1) / 2];
    emit(&format!("    wall time: {median:.2} s (median of {repeat}: {} s)\n", runs.join(", ")));
    emit(&format!("    events: {events} ({:.2} million per second)\n", events as f64 / median / 1e6));
    emit(&format!("  each flow alone, {} s:\n", sc.duration_s));
    for i in 0..sc.flows.len() {
        time_flow_alone(&sc, i, sc.duration_s, false)?;
    }
    if sc.duration_s > SHORT_S {
        // Where the express path applies, events per second are given hop by hop too: an
        // express event crosses many hops, so only the hop-by-hop rate compares with other runs.
        let express = sc.express && matches!(sc.topology, scenario::Topology::Constellation(_));
        emit(&format!(
            "  each flow alone, the first {SHORT_S} s{}:\n",
            if express { " (and with \"express\": false)" } else { "" }
        ));
        for i in 0..sc.flows.len() {
            time_flow_alone(&sc, i, SHORT_S, express)?;
        }
    }
    if let Some(f) = day {
        emit("  one flow alone for 24 hours:\n");
        time_flow_alone(&sc, f, DAY_S, false)?;
    }
    print_peak_memory();
    Ok(())
}

/// The scenario with flow `f` alone, for `duration_s`: for its own duration, the simulation of
/// that flow that `orbitcp run` makes of a `flows_alone` scenario.
fn flow_alone(sc: &Scenario, f: usize, duration_s: f64) -> Scenario {
    let mut split = sc.clone();
    split.flows_alone = true;
    let mut alone = runner::simulations(&split).swap_remove(f);
    alone.duration_s = duration_s;
    alone
}

/// Times flow `f` alone for `duration_s`, and with `hop_by_hop` again with the express path off.
fn time_flow_alone(sc: &Scenario, f: usize, duration_s: f64, hop_by_hop: bool) -> Outcome {
    let label = sc.flows[f].label().cloned().unwrap_or_else(|| format!("flow {f}"));
    let mut alone = flow_alone(sc, f, duration_s);
    let mut line = format!("    {label}: {}", timed_events(&alone)?);
    if hop_by_hop {
        alone.express = false;
        line += &format!("; hop by hop {}", timed_events(&alone)?);
    }
    emit(&format!("{line}\n"));
    Ok(())
}

/// "N events in T s (R million per second)" for one run of `sc`.
fn timed_events(sc: &Scenario) -> Result<String, Failure> {
    let (dt, events) = time_run(sc)?;
    Ok(format!("{events} events in {dt:.2} s ({:.2} million per second)", events as f64 / dt / 1e6))
}

/// One run of `sc` in-process, from its routes to its summary: (wall seconds, events).
fn time_run(sc: &Scenario) -> Result<(f64, u64), Failure> {
    let t = Instant::now();
    let r = runner::run_scenario(sc, sc.seed, false)?;
    Ok((t.elapsed().as_secs_f64(), r.events))
}

fn print_peak_memory() {
    if let Some(kib) = peak_memory_kib() {
        emit(&format!("peak memory: {:.1} MiB\n", kib as f64 / 1024.0));
    }
}

/// Peak resident memory of this process (Linux `VmHWM`).
fn peak_memory_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
