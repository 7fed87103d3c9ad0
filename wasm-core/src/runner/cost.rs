//! What a scenario will cost before it runs: a rough count of events, from packets × hops and
//! satellites × routing steps, times the runs of a sweep. The browser asks before it opens a
//! shared link whose estimate is large (a link may carry anything), and the editor shows it.
//!
//! The model is deliberately simple and errs high: every flow is assumed to keep its path's
//! bottleneck busy for the whole run (or until its bytes are sent), each data packet costs an
//! arrival event per hop in each direction (the data, then its ACK or interest) plus a timer,
//! and each routing step costs one unit per satellite. Measured against real runs of the
//! presets it lies within a factor of a few, which is all a "this will take a minute" prompt
//! needs (`tests` below checks the order of magnitude on two presets).

use serde::Serialize;

use super::SweepPlan;
use crate::scenario::{self, Flow, Scenario, Topology};

/// Events per second of the core in a browser (wasm, one worker), for the time estimate. The
/// native CLI runs about twice as fast (BENCHMARKS.md).
pub const BROWSER_EVENTS_PER_S: f64 = 3.0e6;

/// Bottleneck assumed for a constellation path, whose rates come from a link budget: a Ku-band
/// ground-satellite link of the LEO presets carries 35-40 Mbit/s.
const CONSTELLATION_RATE_MBPS: f64 = 40.0;
/// Hops assumed for a constellation path: two ground links and the ISLs between.
const CONSTELLATION_HOPS: f64 = 12.0;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostEstimate {
    /// Simulations: sweep jobs, times the flows with `flows_alone`.
    pub runs: u64,
    /// Events over all runs.
    pub events: f64,
    /// `events` at `BROWSER_EVENTS_PER_S`.
    pub browser_seconds: f64,
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

/// The estimate for a parsed scenario run `jobs` times (a sweep's jobs, else 1).
pub fn estimate(sc: &Scenario, jobs: u64) -> CostEstimate {
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
    let runs = jobs * if sc.flows_alone { sc.flows.len() as u64 } else { 1 };
    let events = per_run * runs as f64;
    CostEstimate {
        runs,
        events,
        browser_seconds: events / BROWSER_EVENTS_PER_S,
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

    #[test]
    fn an_arq_window_resent_faster_than_the_link_drains_is_estimated_expensive() {
        // 10 000 packets every 100 ms for 600 s into a 10 Mbit/s link: 60 million offered, most
        // dropped, each one work for the core.
        let storm = r#"{"version":1,"name":"x","duration_s":600,"topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":250}]},
            "flows":[{"transport":"arq","mode":"go-back-n","window_pkts":10000,"timeout_ms":100}]}"#;
        assert!(estimate_json(storm).unwrap().events >= 6e7);
        let calm = storm.replace(r#""window_pkts":10000,"timeout_ms":100"#, r#""window_pkts":16"#);
        assert!(estimate_json(&calm).unwrap().events < 1e7);
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
