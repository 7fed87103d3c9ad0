//! What a scenario will cost before it runs: the events of all its runs, and the time they take
//! in a browser. The browser asks before it opens a shared link, a lesson step or a preset whose
//! estimate is large, and the editor shows it.
//!
//! The estimate is measured, not modelled: a **pilot** runs the scenario's first tenth (at least
//! 2 simulated seconds, at most `PILOT_EVENTS` events) and extrapolates. Its events per second of
//! active flow carry on for each flow until the end of the run, or, for a flow with a size, until
//! its remaining bytes are sent at the rate the pilot saw. A pilot that finishes every flow is the
//! run itself. A model of packets × hops was used before and erred by up to 3000× (a window-limited
//! flow on a fast link); `tests` below hold every preset within a factor of 2 of its run. Where the
//! pilot cannot run (a constellation in a core built without the orbit code) the packets × hops
//! model still answers.

use serde::Serialize;

use super::SweepPlan;
use crate::scenario::{self, Flow, Scenario, Topology};

/// Events per second of the core in a browser (wasm, one worker), for the time estimate of the
/// packets × hops model. The native CLI runs about twice as fast (BENCHMARKS.md).
pub const BROWSER_EVENTS_PER_S: f64 = 3.0e6;
/// Work (events plus packets offered to links) per second in a browser, for a pilot's estimate.
pub const BROWSER_WORK_PER_S: f64 = 5.0e6;

/// Bottleneck assumed for a constellation path, whose rates come from a link budget: a Ku-band
/// ground-satellite link of the LEO presets carries 35-40 Mbit/s.
const CONSTELLATION_RATE_MBPS: f64 = 40.0;
/// Hops assumed for a constellation path: two ground links and the ISLs between.
const CONSTELLATION_HOPS: f64 = 12.0;

#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CostEstimate {
    /// Simulations: sweep jobs, times the flows with `flows_alone`.
    pub runs: u64,
    /// Events over all runs.
    pub events: f64,
    /// `events` at `BROWSER_EVENTS_PER_S`: the whole scenario on one worker.
    pub browser_seconds: f64,
    /// The costliest of the `runs` alone, in the same seconds: with several workers the page
    /// waits for the longer of it and `browser_seconds` shared among them (the flows of the LEO
    /// preset take 3 s together, its INTCP flow alone 23 s).
    pub longest_run_seconds: f64,
    /// Each simulation of one run alone, in the same seconds, in the order the core numbers them
    /// (`simulation_count`): a browser starts the costliest first, so that the LEO preset's INTCP
    /// flow does not wait for two others to finish before it starts.
    pub run_seconds: Vec<f64>,
    /// The most memory one run may need, in bytes (`Scenario::memory_estimate`); validation
    /// refuses a scenario above `scenario::MAX_RUN_MEMORY_BYTES`.
    pub memory_bytes: f64,
}

/// The estimate for a scenario's JSON text; the scenario's own errors when it is invalid.
pub fn estimate_json(scenario_json: &str) -> Result<CostEstimate, super::RunError> {
    let sc = scenario::parse(scenario_json)?;
    let jobs = if sc.sweep.is_some() { SweepPlan::new(scenario_json)?.len() as u64 } else { 1 };
    Ok(estimate(&sc, jobs))
}

/// A pilot of one simulation stops after this much work (events plus packets offered to links):
/// about 50 ms natively, 100 ms in a browser.
const PILOT_WORK: u64 = 400_000;
/// A pilot simulates at most this long (a constellation's routes are computed for it first).
const PILOT_MAX_S: f64 = 60.0;
/// A rate ramping up grows to at most this many times the pilot's last rate.
const RAMP_CAP: f64 = 3.0;

/// The estimate for a parsed scenario run `jobs` times (a sweep's jobs, else 1): from a pilot run
/// of its base point, or the packets × hops model where the pilot cannot run.
pub fn estimate(sc: &Scenario, jobs: u64) -> CostEstimate {
    let pilots: Option<Vec<Pilot>> = super::session::simulations(sc).iter().map(pilot).collect();
    let Some(pilots) = pilots else { return modelled(sc, jobs) };
    let runs = jobs * pilots.len() as u64;
    let events = pilots.iter().map(|p| p.events).sum::<f64>() * jobs as f64;
    let work = pilots.iter().map(|p| p.work).sum::<f64>() * jobs as f64;
    let longest = pilots.iter().map(|p| p.work).fold(0.0, f64::max);
    CostEstimate {
        runs,
        events,
        browser_seconds: work / BROWSER_WORK_PER_S,
        longest_run_seconds: longest / BROWSER_WORK_PER_S,
        run_seconds: pilots.iter().map(|p| p.work / BROWSER_WORK_PER_S).collect(),
        memory_bytes: sc.memory_estimate().total(),
    }
}

/// What a pilot tells of one simulation: its events, and its work (events plus packets offered
/// to links: a packet dropped at a full buffer costs about what an event does).
struct Pilot {
    events: f64,
    work: f64,
}

/// One simulation (no sweep, no `flows_alone`) from a pilot: it runs to its end if it can
/// within `PILOT_WORK`; else the rate of work over the pilot's last quarter goes on for each flow
/// until it ends (its bytes sent at the rate the pilot saw, or the run's end). A flow still
/// ramping up (slow start, Hybla) has its highest rate last, and its growth goes on, up to
/// `RAMP_CAP` times that rate; a rate that more than doubles at once is a burst, not a ramp.
/// None when the pilot cannot run.
fn pilot(sc: &Scenario) -> Option<Pilot> {
    let mut pilot = sc.clone();
    pilot.sweep = None;
    pilot.duration_s = sc.duration_s.min(PILOT_MAX_S);
    let mut session = super::Session::new(&pilot, pilot.seed).ok()?;
    let work = |s: &super::Session| s.events_processed() + s.packets_offered();
    // (work, simulated s) when half and three quarters of the budget are spent.
    let mut marks: [Option<(u64, f64)>; 2] = [None, None];
    let mut steps = 0u64;
    let mut done = work(&session);
    let finished = loop {
        if !session.step() {
            break true;
        }
        steps += 1;
        // Summing the links' counters costs a pass over them: every 256 events is enough.
        if steps.is_multiple_of(256) {
            done = work(&session);
            for (mark, at) in marks.iter_mut().zip([PILOT_WORK / 2, PILOT_WORK / 4 * 3]) {
                if mark.is_none() && done >= at {
                    *mark = Some((done, session.progress_s()));
                }
            }
            if done >= PILOT_WORK {
                break false;
            }
        }
    };
    let r = session.result(false).ok()?;
    let (events, done) = (r.events as f64, work(&session).max(done) as f64);
    if finished && pilot.duration_s >= sc.duration_s {
        return Some(Pilot { events, work: done });
    }
    let reached = if finished { pilot.duration_s } else { session.progress_s() };
    let (rate, slope) = match marks {
        [Some((w1, t1)), Some((w2, t2))] if reached > t2 && t2 > t1 => {
            let (r1, r2) = ((w2 - w1) as f64 / (t2 - t1), (done - w2 as f64) / (reached - t2));
            if r2 > 2.0 * r1 {
                ((r1 + r2) / 2.0, 0.0)
            } else {
                (r2, ((r2 - r1) / ((reached - t1) / 2.0)).max(0.0))
            }
        }
        _ => (done / reached.max(1e-9), 0.0),
    };
    // Seconds of run left: until the last flow is done.
    let end = sc.duration_s;
    let mut left: f64 = 0.0;
    for (flow, got) in sc.flows.iter().zip(&r.flows) {
        if got.completed {
            continue;
        }
        let start = flow.start_s();
        let from = reached.max(start);
        let began = (reached - start).max(0.0);
        let until = match flow.bytes() {
            Some(bytes) if got.delivered_bytes > 0 && began > 0.0 => {
                from + bytes.saturating_sub(got.delivered_bytes) as f64 / (got.delivered_bytes as f64 / began)
            }
            _ => end,
        };
        left = left.max(until.min(end) - reached);
    }
    let work = done + ramped(rate, slope, left.max(0.0));
    Some(Pilot { events: work * events / done.max(1.0), work })
}

/// Work over `secs` from `rate`, growing by `slope` per second up to `RAMP_CAP` × `rate`.
fn ramped(rate: f64, slope: f64, secs: f64) -> f64 {
    if slope <= 0.0 {
        return rate * secs;
    }
    let cap = rate * RAMP_CAP;
    let to_cap = ((cap - rate) / slope).min(secs);
    rate * to_cap + 0.5 * slope * to_cap * to_cap + cap * (secs - to_cap)
}

/// The packets × hops model: every flow keeps its path's bottleneck busy for the whole run (or
/// until its bytes are sent), each data packet costs an arrival per hop each way and a timer, and
/// each routing step one unit per satellite. It errs high, by up to thousands of times.
fn modelled(sc: &Scenario, jobs: u64) -> CostEstimate {
    let (rate_mbps, hops, routing) = match &sc.topology {
        Topology::Chain(c) => {
            let rate = c.links.iter().map(|l| l.rate_mbps).fold(f64::INFINITY, f64::min);
            (rate, c.links.len() as f64, 0.0)
        }
        Topology::Constellation(t) => {
            let sats: usize =
                t.constellation.walker.as_slice().iter().map(|s| s.planes * s.sats_per_plane).sum::<usize>()
                    + t.constellation.geo_longitudes_deg.len()
                    + t.constellation.tle.as_deref().map_or(0, |s| s.lines().count() / 2)
                    + t.constellation.omm.as_ref().and_then(|v| v.as_array()).map_or(0, Vec::len);
            let steps = (sc.duration_s / t.step_s.max(1e-3)).ceil();
            (CONSTELLATION_RATE_MBPS, CONSTELLATION_HOPS, sats as f64 * steps)
        }
    };
    let packets: f64 = sc
        .flows
        .iter()
        .map(|f| {
            let (bytes, start_s, mss) = match f {
                Flow::Tcp(t) => (t.bytes, t.start_s, t.mss_bytes),
                Flow::Ctcp(c) => (c.bytes, c.start_s, c.mss_bytes),
                Flow::Intcp(i) => (i.bytes, i.start_s, i.mss_bytes),
                Flow::Arq(a) => (a.bytes, a.start_s, a.mss_bytes),
            };
            let active_s = (sc.duration_s - start_s).max(0.0);
            let busy = rate_mbps * 1e6 / 8.0 * active_s / mss.max(1) as f64;
            let carried = bytes.map_or(busy, |b| busy.min(b as f64 / mss.max(1) as f64));
            // An ARQ sender resends its window at every timeout whether or not the link can take
            // it: a large window on a short fixed timeout offers far more than the link carries,
            // and each packet offered costs work even when the buffer drops it.
            let resent = match f {
                Flow::Arq(a) => a.window() as f64 * active_s / (a.timeout_ms.unwrap_or(1000.0) / 1e3).max(1e-3),
                _ => 0.0,
            };
            carried.max(resent)
        })
        .sum();
    // With flows_alone each run carries one flow: the packets are split over the runs.
    let per_run =
        if sc.flows_alone { packets / sc.flows.len().max(1) as f64 } else { packets } * (2.0 * hops + 1.0) + routing;
    let runs_per_job = if sc.flows_alone { sc.flows.len() } else { 1 };
    let runs = jobs * runs_per_job as u64;
    let events = per_run * runs as f64;
    CostEstimate {
        runs,
        events,
        browser_seconds: events / BROWSER_EVENTS_PER_S,
        // The model splits a scenario's packets evenly over its runs.
        longest_run_seconds: per_run / BROWSER_EVENTS_PER_S,
        run_seconds: vec![per_run / BROWSER_EVENTS_PER_S; runs_per_job],
        memory_bytes: sc.memory_estimate().total(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(name: &str) -> String {
        std::fs::read_to_string(format!("{}/../scenarios/{name}.json", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn the_estimate_is_within_a_factor_of_five_of_a_real_run() {
        for name in ["default", "ctcp-fig4-per20"] {
            let text = preset(name);
            let estimate = estimate_json(&text).unwrap();
            let sc = scenario::parse(&text).unwrap();
            let actual = super::super::run_scenario(&sc, sc.seed, false).unwrap().events as f64;
            let ratio = estimate.events / actual;
            assert!((0.2..=5.0).contains(&ratio), "{name}: estimated {} events, ran {actual}", estimate.events);
        }
    }

    /// Every preset, as one run of at most 60 simulated seconds (a sweep's base point): the
    /// estimate against the events the run takes.
    #[test]
    fn every_presets_estimate_is_within_a_factor_of_two_of_its_run() {
        let dir = format!("{}/../scenarios", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        names.sort();
        let mut off = Vec::new();
        for path in names {
            let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("sweep");
            let duration = o.get("duration_s").and_then(|d| d.as_f64()).unwrap_or(60.0).min(60.0);
            o.insert("duration_s".into(), duration.into());
            let text = v.to_string();
            let Ok(sc) = scenario::parse(&text) else { continue };
            let estimate = estimate_json(&text).unwrap().events;
            let actual = super::super::run_scenario(&sc, sc.seed, false).unwrap().events as f64;
            let ratio = estimate / actual;
            eprintln!("{}: estimated {estimate:.0}, ran {actual:.0}: {ratio:.2}", path.display());
            if !(0.5..=2.0).contains(&ratio) {
                off.push(format!("{}: {ratio:.2}", path.display()));
            }
        }
        assert!(off.is_empty(), "estimates off by more than 2x: {off:?}");
    }

    #[test]
    fn an_arq_window_resent_faster_than_the_link_drains_is_estimated_expensive() {
        // 10 000 packets every 100 ms for 600 s into a 10 Mbit/s link: 60 million offered, most
        // dropped, each one work for the core though only 1 million events (8.4 s natively).
        let storm = r#"{"version":1,"name":"x","duration_s":600,"topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":250}]},
            "flows":[{"transport":"arq","mode":"go-back-n","window_pkts":10000,"timeout_ms":100}]}"#;
        let seconds = estimate_json(storm).unwrap().browser_seconds;
        assert!(seconds >= 6e7 / BROWSER_WORK_PER_S, "{seconds} s");
        let calm = storm.replace(r#""window_pkts":10000,"timeout_ms":100"#, r#""window_pkts":16"#);
        assert!(estimate_json(&calm).unwrap().browser_seconds < 2.0);
    }

    #[test]
    fn a_sweep_costs_its_jobs_times_one_run() {
        let text = preset("ctcp-fig2-tcp");
        let sweep = estimate_json(&text).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v.as_object_mut().unwrap().remove("sweep");
        let one = estimate_json(&v.to_string()).unwrap();
        assert_eq!(sweep.runs, 1540);
        assert!(sweep.events >= one.events * 1000.0, "{} vs {}", sweep.events, one.events);
    }

    #[test]
    fn flows_run_alone_cost_their_sum_each_its_own_and_the_longest_is_the_costliest_flow_alone() {
        let flows = [r#"{"transport":"tcp","cc":"reno","bytes":2000000}"#, r#"{"transport":"intcp"}"#];
        let scenario = |flows: &[&str], alone: bool| {
            format!(
                r#"{{"version":1,"name":"x","duration_s":30,"flows_alone":{alone},"topology":{{"kind":"chain","links":[{{"rate_mbps":20,"delay_ms":20}},{{"rate_mbps":20,"delay_ms":20}}]}},"flows":[{}]}}"#,
                flows.join(",")
            )
        };
        let both = estimate_json(&scenario(&flows, true)).unwrap();
        let each: Vec<f64> =
            flows.iter().map(|f| estimate_json(&scenario(&[f], false)).unwrap().browser_seconds).collect();
        assert_eq!(both.runs, 2);
        assert!((both.browser_seconds - (each[0] + each[1])).abs() <= 1e-9 * both.browser_seconds);
        assert_eq!(both.longest_run_seconds, each[0].max(each[1]));
        assert_eq!(both.run_seconds, each, "each flow's own estimate, in the order of the flows");
        assert!(each[1] > 2.0 * each[0], "INTCP unlimited {} s against Reno's 2 MB {} s", each[1], each[0]);
        // One run is its own longest; a sweep's jobs each cost one run.
        let one = estimate_json(&scenario(&flows[..1], false)).unwrap();
        assert_eq!(one.longest_run_seconds, one.browser_seconds);
        assert_eq!(one.run_seconds, [one.browser_seconds]);
        let sweep = estimate_json(&preset("ctcp-fig2-tcp")).unwrap();
        assert!(sweep.longest_run_seconds * 100.0 < sweep.browser_seconds);
    }

    #[test]
    fn a_long_fast_run_is_estimated_expensive_and_a_short_one_cheap() {
        let run = |rate: f64, duration: f64| {
            format!(
                r#"{{"version":1,"name":"x","duration_s":{duration},"topology":{{"kind":"chain","links":[{{"rate_mbps":{rate},"delay_ms":10}}]}},"flows":[{{"transport":"tcp","cc":"cubic"}}]}}"#
            )
        };
        assert!(estimate_json(&run(1000.0, 3600.0)).unwrap().browser_seconds > 60.0);
        assert!(estimate_json(&run(10.0, 10.0)).unwrap().browser_seconds < 1.0);
    }

    #[test]
    fn every_preset_fits_the_memory_budget() {
        let dir = format!("{}/../scenarios", env!("CARGO_MANIFEST_DIR"));
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "json") {
                let text = std::fs::read_to_string(&path).unwrap();
                let Ok(sc) = scenario::parse(&text) else { continue };
                let m = sc.memory_estimate();
                eprintln!("{}: {:.0} MB {m:?}", path.display(), m.total() / 1e6);
                assert!(m.total() <= scenario::MAX_RUN_MEMORY_BYTES, "{}", path.display());
            }
        }
    }
}
