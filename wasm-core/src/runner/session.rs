//! The simulations of one scenario, stepped one event at a time, and their joint result.

use super::result::{FlowResult, RunResult};
use super::traces::FlowTrace;
use super::{RouteMemo, Run, RunError};
use crate::metrics::jain_index;
use crate::scenario::Scenario;
use crate::simulation::EarlyStop;

/// The simulations of one scenario: one, or one per flow with `flows_alone`. Steppable, so the
/// browser can report progress.
pub struct Session {
    runs: Vec<Run>,
    current: usize,
    /// The provenance hash of the whole scenario (its simulations' own are of their parts).
    scenario_hash: String,
}

/// The scenarios of a session's simulations: the scenario itself, or with `flows_alone` one per
/// flow, each with that flow alone. Run with the session's seed and reported together by
/// [`combine`], they give the session's result: a front end with several cores may run them in
/// parallel (the CLI's `run` does).
pub fn simulations(sc: &Scenario) -> Vec<Scenario> {
    if !sc.flows_alone {
        return vec![sc.clone()];
    }
    (0..sc.flows.len())
        .map(|f| {
            let mut alone = sc.clone();
            alone.flows = vec![sc.flows[f].clone()];
            alone.flows_alone = false;
            alone
        })
        .collect()
}

/// How many simulations [`simulations`] gives for `sc`, without building them.
pub fn simulation_count(sc: &Scenario) -> usize {
    if sc.flows_alone {
        sc.flows.len()
    } else {
        1
    }
}

impl Session {
    pub fn new(sc: &Scenario, seed: u64) -> Result<Session, RunError> {
        Session::new_until(sc, seed, &|| false)
    }

    /// [`Session::new`], asking `cancel` while a constellation's routes are precomputed whether
    /// to stop ([`RunError::Interrupted`]): the CLI's and the Python package's Ctrl-C.
    pub fn new_until(sc: &Scenario, seed: u64, cancel: &dyn Fn() -> bool) -> Result<Session, RunError> {
        Session::of(simulations(sc), sc, seed, cancel)
    }

    /// The session of `sims`, reported as `whole` (its provenance). One function builds every
    /// session, so the wasm module holds one copy of the build however many entry points call it.
    #[inline(never)]
    fn of(sims: Vec<Scenario>, whole: &Scenario, seed: u64, cancel: &dyn Fn() -> bool) -> Result<Session, RunError> {
        let mut routes = RouteMemo::default();
        let runs =
            sims.iter().map(|s| Run::with_routes(s, seed, cancel, &mut routes)).collect::<Result<Vec<_>, _>>()?;
        Ok(Session { runs, current: 0, scenario_hash: super::provenance::run_hash(whole, seed) })
    }

    /// Simulation `index` of `sc`'s session (in the order of [`simulations`]) alone, with the
    /// session's `seed`: it runs exactly as it does inside [`Session::new`]'s session. A front end
    /// with several workers runs the parts apart and joins their results with [`combine`] (or
    /// [`combine_json`], from their JSON) into the session's result.
    pub fn part(sc: &Scenario, seed: u64, index: usize) -> Result<Session, RunError> {
        let mut parts = simulations(sc);
        if index >= parts.len() {
            return Err(RunError::NoSuchPart { index, parts: parts.len() });
        }
        let part = parts.swap_remove(index);
        Session::of(vec![part.clone()], &part, seed, &|| false)
    }

    /// Makes every simulation keep the packets its links transmit, `limit` packets at most in
    /// each (docs/pcap.md); call before the first step.
    pub fn enable_capture(&mut self, limit: u64) {
        for run in &mut self.runs {
            run.enable_capture(limit);
        }
    }

    /// The capture as pcap files, one per link; flows run alone share their links' files.
    pub fn pcap(&self) -> super::PcapCapture {
        super::pcap::pcap_files(&self.runs)
    }

    /// Stops every simulation not yet over at its current event (Ctrl-C in the CLI); the
    /// result then reports what was done, unfinished flows saying where they were stopped.
    pub fn interrupt(&mut self) {
        for run in &mut self.runs[self.current..] {
            run.sim.interrupt();
        }
    }

    /// Whether [`Self::interrupt`] stopped a simulation before its end.
    pub fn interrupted(&self) -> bool {
        self.runs.iter().any(|r| r.sim.stopped == Some(EarlyStop::Interrupted))
    }

    /// Processes one event; false when every simulation is over.
    pub fn step(&mut self) -> bool {
        while let Some(run) = self.runs.get_mut(self.current) {
            if run.sim.step() {
                return true;
            }
            self.current += 1;
        }
        false
    }

    /// Processes `n` events, as `n` calls of [`Self::step`] would; false if every simulation
    /// ended before that.
    pub fn advance(&mut self, n: u64) -> bool {
        let mut left = n;
        while let Some(run) = self.runs.get_mut(self.current) {
            left -= run.sim.steps(left);
            if left == 0 {
                return true;
            }
            self.current += 1;
        }
        false
    }

    pub fn finished(&mut self) -> bool {
        while let Some(run) = self.runs.get_mut(self.current) {
            if !run.sim.finished() {
                return false;
            }
            self.current += 1;
        }
        true
    }

    /// Simulated seconds done so far, over all the simulations.
    pub fn progress_s(&self) -> f64 {
        let done: f64 = self.runs[..self.current].iter().map(|r| r.sim.end.as_secs_f64()).sum();
        done + self.runs.get(self.current).map_or(0.0, |r| r.sim.now.as_secs_f64())
    }

    /// Simulated seconds in all.
    pub fn total_s(&self) -> f64 {
        self.runs.iter().map(|r| r.sim.end.as_secs_f64()).sum()
    }

    pub fn events_processed(&self) -> u64 {
        self.runs.iter().map(|r| r.sim.events_processed()).sum()
    }

    /// Packets offered to links so far, over all the simulations, whatever became of them: a
    /// packet a full buffer drops is work without an event (`runner::cost`).
    pub fn packets_offered(&self) -> u64 {
        self.runs.iter().map(|r| r.sim.net.links.iter().map(|l| l.offered_pkts).sum::<u64>()).sum()
    }

    /// Digest of every simulation's event sequence.
    pub fn event_digest(&self) -> u64 {
        self.runs.iter().fold(0xcbf2_9ce4_8422_2325, |h, r| (h ^ r.sim.event_digest()).wrapping_mul(0x100_0000_01b3))
    }

    pub fn delivery_error(&self) -> Option<String> {
        self.runs.iter().find_map(Run::delivery_error)
    }

    /// The result of every simulation, reported together by [`combine`].
    pub fn result(&self, with_traces: bool) -> Result<RunResult, RunError> {
        if let Some(e) = self.delivery_error() {
            return Err(RunError::Delivery(e));
        }
        combine(self.runs.iter().map(|r| r.result(with_traces)).collect(), &self.scenario_hash)
    }
}

/// The result of a session from its simulations' results, in the order of [`simulations`], with
/// `scenario_hash` (`provenance::run_hash` of the whole scenario and seed) as its provenance.
/// One is returned as is; flows alone are reported together, numbered as in the scenario, with
/// the link counters summed and no queue traces (each simulation had its own queues).
pub fn combine(results: Vec<RunResult>, scenario_hash: &str) -> Result<RunResult, RunError> {
    let single = results.len() == 1;
    let mut results = results.into_iter();
    let mut all = results.next().ok_or(RunError::NoFlows)?;
    all.scenario_hash = scenario_hash.to_string();
    if single {
        return Ok(all);
    }
    if let Some(t) = &mut all.traces {
        t.links.clear();
    }
    for (f, r) in results.enumerate() {
        let id = f as u32 + 1;
        all.events += r.events;
        all.end_s = all.end_s.max(r.end_s);
        all.unrouted_pkts += r.unrouted_pkts;
        all.flows.extend(r.flows.into_iter().map(|fl| FlowResult { id, ..fl }));
        for l in r.links {
            match all.links.iter_mut().find(|a| a.id == l.id) {
                Some(a) => {
                    a.delivered_pkts += l.delivered_pkts;
                    a.delivered_bytes += l.delivered_bytes;
                    a.drops.buffer += l.drops.buffer;
                    a.drops.loss += l.drops.loss;
                    a.drops.outage += l.drops.outage;
                    a.drops.route_change += l.drops.route_change;
                }
                None => all.links.push(l),
            }
        }
        if let (Some(t), Some(rt)) = (&mut all.traces, r.traces) {
            t.flows.extend(rt.flows.into_iter().map(|ft| FlowTrace { id, ..ft }));
        }
    }
    all.links.sort_by_key(|l| l.id);
    let goodputs: Vec<f64> = all.flows.iter().map(|f| f.goodput_mbps).collect();
    all.fairness_jain = jain_index(&goodputs);
    Ok(all)
}

/// [`combine`] of results read back from their JSON: `parts_json` is a JSON array of the
/// simulations' results as a core wrote them (the wasm boundary's, with the seed as text,
/// included), in the order of [`simulations`]. A front end that ran the parts apart and holds
/// only their text joins them this way. Text that is not results a core wrote is refused as
/// [`RunError::Results`].
pub fn combine_json(parts_json: &str, scenario_hash: &str) -> Result<RunResult, RunError> {
    let parts: Vec<RunResult> = serde_json::from_str(parts_json).map_err(|e| RunError::Results(e.to_string()))?;
    combine(parts, scenario_hash)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::provenance::run_hash;

    /// Three flows of three transports alone on a lossy two-link chain, a few seconds long.
    fn alone() -> Scenario {
        crate::scenario::parse(
            r#"{"version":1,"name":"alone","seed":7,"duration_s":4,"flows_alone":true,
              "topology":{"kind":"chain","links":[{"rate_mbps":50,"delay_ms":5},
                {"rate_mbps":10,"delay_ms":40,"buffer_pkts":60,"loss":{"model":"bernoulli","p":0.02}}]},
              "flows":[{"transport":"tcp","cc":"cubic","bytes":400000},
                       {"transport":"ctcp","variant":"v2","bytes":300000},
                       {"transport":"intcp","bytes":300000}]}"#,
        )
        .unwrap()
    }

    fn parts(sc: &Scenario, with_traces: bool) -> Vec<RunResult> {
        (0..simulation_count(sc))
            .map(|k| {
                let mut s = Session::part(sc, sc.seed, k).unwrap();
                while s.step() {}
                s.result(with_traces).unwrap()
            })
            .collect()
    }

    /// The parts' JSON as the wasm boundary writes it: the seed as text (`api.rs`).
    fn boundary_json(parts: &[RunResult]) -> String {
        let values: Vec<serde_json::Value> = parts
            .iter()
            .map(|r| {
                let mut v = serde_json::to_value(r).unwrap();
                v["seed"] = serde_json::Value::from(r.seed.to_string());
                v
            })
            .collect();
        serde_json::to_string(&values).unwrap()
    }

    fn text(r: &RunResult) -> String {
        serde_json::to_string(r).unwrap()
    }

    #[test]
    fn results_read_back_from_their_json_combine_to_the_same_bytes_with_and_without_traces() {
        let sc = alone();
        let hash = run_hash(&sc, sc.seed);
        for with_traces in [false, true] {
            let parts = parts(&sc, with_traces);
            assert_eq!(parts.len(), 3);
            let want = text(&combine(parts.clone(), &hash).unwrap());
            assert_eq!(text(&combine_json(&boundary_json(&parts), &hash).unwrap()), want, "with_traces {with_traces}");
            let plain = serde_json::to_string(&parts).unwrap();
            assert_eq!(text(&combine_json(&plain, &hash).unwrap()), want, "seeds as numbers");
        }
    }

    #[cfg(feature = "orbits")]
    #[test]
    fn a_constellation_result_read_back_is_written_again_to_the_same_bytes() {
        // Handovers at a scheduler's slot boundary (27 s), routes, path steps and hop traces.
        let mut sc: serde_json::Value =
            serde_json::from_str(include_str!("../../../scenarios/starlink-liege-frankfurt.json")).unwrap();
        sc["duration_s"] = 40.into();
        let sc = crate::scenario::parse(&sc.to_string()).unwrap();
        let parts = parts(&sc, true);
        let events = &parts[0].path.as_ref().unwrap().events;
        assert!(events.iter().any(|e| e.cause.is_some()), "{events:?}");
        for part in &parts {
            let back: RunResult = serde_json::from_str(&text(part)).unwrap();
            assert_eq!(text(&back), text(part));
        }
        let hash = run_hash(&sc, sc.seed);
        assert_eq!(text(&combine_json(&boundary_json(&parts), &hash).unwrap()), text(&combine(parts, &hash).unwrap()));
    }
    #[test]
    fn results_taken_during_a_run_leave_it_unchanged_and_hold_nothing_past_their_time() {
        // The browser draws a long run's charts from results taken as it goes (worker.ts).
        let mut sc = alone();
        sc.flows_alone = false;
        let mut untouched = Session::new(&sc, sc.seed).unwrap();
        while untouched.step() {}
        let want = serde_json::to_value(untouched.result(true).unwrap()).unwrap();
        let mut watched = Session::new(&sc, sc.seed).unwrap();
        let (mut taken, mut last_end) = (0, 0.0);
        for step in 1.. {
            if !watched.step() {
                break;
            }
            if step % 1000 == 0 {
                let so_far = watched.result(true).unwrap();
                assert!(so_far.end_s >= last_end && so_far.end_s <= sc.duration_s, "end_s {}", so_far.end_s);
                last_end = so_far.end_s;
                for f in &so_far.traces.as_ref().unwrap().flows {
                    let owd_t = &f.owd.t;
                    assert!(
                        owd_t.iter().all(|&t| t <= so_far.end_s + 1e-9),
                        "flow {}: a delay after {} s",
                        f.id,
                        so_far.end_s
                    );
                }
                taken += 1;
            }
        }
        assert!(taken >= 3, "only {taken} results taken");
        assert_eq!(serde_json::to_value(watched.result(true).unwrap()).unwrap(), want);
    }

    #[test]
    fn a_run_advanced_in_chunks_is_the_run_stepped_one_event_at_a_time() {
        // Flows alone, so that a chunk ends inside one simulation and goes on into the next;
        // then with an event budget that stops the first of them early.
        for budget in [None, Some(3_000)] {
            let mut sc = alone();
            if let Some(b) = budget {
                sc.max_events = b;
            }
            let mut stepped = Session::new(&sc, sc.seed).unwrap();
            let mut steps = 0u64;
            while stepped.step() {
                steps += 1;
            }
            let want = text(&stepped.result(true).unwrap());
            for chunk in [1, 7, 4096, u64::MAX] {
                let mut advanced = Session::new(&sc, sc.seed).unwrap();
                let mut chunks = 0u64;
                while advanced.advance(chunk) {
                    chunks += 1;
                }
                assert_eq!(chunks, steps / chunk, "chunks of {chunk}");
                assert!(advanced.finished());
                assert_eq!(advanced.events_processed(), stepped.events_processed());
                assert_eq!(text(&advanced.result(true).unwrap()), want, "chunks of {chunk}, budget {budget:?}");
            }
            if budget.is_some() {
                assert!(want.contains("event budget"), "the budget did not stop a run");
            }
        }
    }

    #[test]
    #[cfg(feature = "orbits")]
    fn flows_alone_over_a_constellation_share_its_routes_and_give_each_part_s_result() {
        // The session's simulations take their routes from the first (`RouteMemo`); each part
        // alone computes its own.
        let mut sc: serde_json::Value =
            serde_json::from_str(include_str!("../../../scenarios/leo-beijing-newyork-1600.json")).unwrap();
        sc["duration_s"] = 20.into();
        let sc = crate::scenario::parse(&sc.to_string()).unwrap();
        assert!(sc.flows_alone && sc.flows.len() == 5);
        let mut whole = Session::new(&sc, sc.seed).unwrap();
        while whole.advance(u64::MAX) {}
        let hash = run_hash(&sc, sc.seed);
        assert_eq!(text(&whole.result(true).unwrap()), text(&combine(parts(&sc, true), &hash).unwrap()));
    }

    #[test]
    fn parts_run_as_the_whole_session_runs_them() {
        let sc = alone();
        let mut whole = Session::new(&sc, sc.seed).unwrap();
        while whole.step() {}
        let want = text(&whole.result(true).unwrap());
        let hash = run_hash(&sc, sc.seed);
        assert_eq!(text(&combine_json(&boundary_json(&parts(&sc, true)), &hash).unwrap()), want);
    }

    #[test]
    fn unrouted_packets_of_a_later_part_are_summed_in_their_place() {
        let sc = alone();
        let hash = run_hash(&sc, sc.seed);
        let mut parts = parts(&sc, false);
        parts[1].unrouted_pkts = 3;
        parts[2].unrouted_pkts = 4;
        let got = combine_json(&boundary_json(&parts), &hash).unwrap();
        assert_eq!(got.unrouted_pkts, 7);
        let written = text(&got);
        assert!(
            written.contains(r#"],"unrouted_pkts":7,"path""#) || written.contains(r#"],"unrouted_pkts":7}"#),
            "{written}"
        );
        assert_eq!(written, text(&combine(parts, &hash).unwrap()));
    }

    #[test]
    fn one_simulation_is_returned_with_the_scenario_hash() {
        let mut sc = alone();
        sc.flows_alone = false;
        assert_eq!(simulation_count(&sc), simulations(&sc).len());
        let parts = parts(&sc, false);
        let got = combine_json(&boundary_json(&parts), "h").unwrap();
        assert_eq!(got.scenario_hash, "h");
        assert_eq!(text(&got), text(&combine(parts, "h").unwrap()));
    }

    #[test]
    fn a_part_beyond_the_simulations_and_results_not_written_by_a_core_are_refused() {
        let sc = alone();
        assert_eq!(Session::part(&sc, 1, 3).err(), Some(RunError::NoSuchPart { index: 3, parts: 3 }));
        assert_eq!(combine_json("[]", "h").err(), Some(RunError::NoFlows));
        assert!(matches!(combine_json("[1, 2]", "h"), Err(RunError::Results(_))));
        assert!(matches!(combine_json("not json", "h"), Err(RunError::Results(_))));
        assert!(matches!(combine_json(r#"[{"name": "x"}]"#, "h"), Err(RunError::Results(_))));
    }
}
