//! The simulations of one scenario, stepped one event at a time, and their joint result.

use super::result::{FlowResult, RunResult};
use super::traces::FlowTrace;
use super::{Run, RunError};
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

impl Session {
    pub fn new(sc: &Scenario, seed: u64) -> Result<Session, RunError> {
        let runs = simulations(sc).iter().map(|s| Run::with_seed(s, seed)).collect::<Result<Vec<_>, _>>()?;
        Ok(Session { runs, current: 0, scenario_hash: super::provenance::run_hash(sc, seed) })
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
