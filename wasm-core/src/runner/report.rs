//! Reporting a finished run: each flow's summary from its delivery and its transport's own
//! figures (`transport.rs`: each transport's runner file says what it reports), the links'
//! counters, and the time series.

use super::result::{FlowResult, LinkResult, RunResult, TransportName};
use super::traces::{Columns, FlowTrace, LinkTrace, Traces};
use super::transport::TraceParts;
use super::{provenance, Run};
use crate::metrics::{jain_index, DelayStats};
use crate::scenario::{Chain, Flow, Topology};
use crate::sim::SimTime;
use crate::simulation::EarlyStop;

impl Run {
    pub fn result(&self, with_traces: bool) -> RunResult {
        let end = self.sim.now.min(self.sim.end);
        let mut flows = Vec::new();
        for (f, flow) in self.scenario.flows.iter().enumerate() {
            let handle = self.flows[f].report();
            let delivery = handle.delivery(&self.sim);
            let start = SimTime::from_secs_f64(flow.start_s());
            let completed_at = delivery.completed_at;
            let delivered = delivery.delivered;
            let completion = completed_at.map(|c| (c - start).as_secs_f64());
            // A run stopped early (event budget, interruption) ran until `end`, not to the time
            // limit.
            let stop = if self.sim.stopped.is_some() { end } else { self.sim.end.max(end) };
            let ran_for = completion.unwrap_or_else(|| (stop - start).as_secs_f64());
            let goodput = if ran_for > 0.0 { delivered as f64 * 8.0 / ran_for / 1e6 } else { 0.0 };
            let of_bytes = |bytes: Option<u64>| bytes.map_or(String::new(), |b| format!(" of {b}"));
            let incomplete_reason = match (flow.bytes(), completed_at, self.sim.stopped) {
                (bytes, None, Some(EarlyStop::EventBudget)) => Some(format!(
                    "event budget: the run stopped after max_events ({}) events at {} s (duration_s is {} s), with {} \
                     bytes delivered{} (raise max_events, or shorten or slow down the scenario)",
                    self.scenario.max_events,
                    end.as_secs_f64(),
                    self.scenario.duration_s,
                    delivered,
                    of_bytes(bytes)
                )),
                (bytes, None, Some(EarlyStop::Interrupted)) => Some(format!(
                    "interrupted at {} s of {} s, with {} bytes delivered{}",
                    (end.as_secs_f64() * 1e3).round() / 1e3,
                    self.scenario.duration_s,
                    delivered,
                    of_bytes(bytes)
                )),
                (bytes, None, None) if self.never_routed(start) => {
                    let path = self.path.as_ref().expect("a constellation run has a path");
                    Some(format!(
                        "no route: {} and {} were never connected from {} s to the end of the run at {} s (no \
                         satellite was in reach of both ends at any routing step: lower min_elevation_deg, raise \
                         gsl_max_range_km, add satellites or ground relays, or move the ends), with {} bytes \
                         delivered{}",
                        path.src,
                        path.dst,
                        flow.start_s(),
                        self.scenario.duration_s,
                        delivered,
                        of_bytes(bytes)
                    ))
                }
                (Some(b), None, None) => Some(format!(
                    "time limit: the run ended at {} s with {} of {} bytes delivered",
                    self.scenario.duration_s, delivered, b
                )),
                _ => None,
            };
            let figures = handle.figures(self, f, end);
            let delays = &delivery.log.delays;
            flows.push(FlowResult {
                id: f as u32,
                transport: TransportName::of(flow),
                cc: flow.cc_name().into(),
                label: flow.label().cloned(),
                bytes: flow.bytes(),
                delivered_bytes: delivered,
                completed: completed_at.is_some(),
                completion_s: completion,
                goodput_mbps: goodput,
                retransmissions: figures.retransmissions,
                timeouts: figures.timeouts,
                owd_ms: delays.summary(),
                owd_arrival_ms: delivery.arrivals().map(DelayStats::summary),
                jitter_ms: delays.mean_jitter(),
                incomplete_reason,
                error: handle.error(&self.sim).cloned(),
                wire: figures.wire,
                coding: figures.coding,
                hops: figures.hops,
            });
        }
        let goodputs: Vec<f64> = flows.iter().map(|f| f.goodput_mbps).collect();
        let links = self
            .sim
            .net
            .links
            .iter()
            .filter(|l| {
                self.sim.net.moving.is_none() || l.delivered_pkts > 0 || l.drops != crate::net::Drops::default()
            })
            .map(|l| LinkResult {
                id: l.id,
                from: l.from,
                to: l.to,
                delivered_pkts: l.delivered_pkts,
                delivered_bytes: l.delivered_bytes,
                drops: l.drops,
            })
            .collect();
        let traces = with_traces.then(|| self.traces());
        RunResult {
            name: self.scenario.name.clone(),
            seed: self.seed,
            core_version: provenance::CORE_VERSION.to_string(),
            scenario_hash: provenance::run_hash(&self.scenario, self.seed),
            end_s: end.as_secs_f64(),
            events: self.sim.events_processed(),
            fairness_jain: jain_index(&goodputs),
            flows,
            links,
            unrouted_pkts: self.sim.net.unrouted,
            path: self.path.clone(),
            traces,
        }
    }

    /// Whether a constellation's route never existed at any step from `start` to the end of the
    /// run, so that nothing could be delivered whatever the transport did.
    fn never_routed(&self, start: SimTime) -> bool {
        let Some(path) = self.path.as_ref().filter(|_| self.sim.net.moving.is_some()) else { return false };
        let from = start.as_secs_f64();
        let steps = &path.steps;
        steps.t_s.iter().zip(&steps.owd_ms).enumerate().all(|(i, (&t, owd))| {
            let ends_before = steps.t_s.get(i + 1).is_some_and(|&next| next <= from);
            ends_before || t >= self.scenario.duration_s || owd.is_none()
        })
    }

    /// The forward links of a flow on a chain, from its sender to its receiver.
    pub(super) fn chain_path(&self, flow: &Flow) -> Option<Vec<u32>> {
        let Topology::Chain(Chain { links, .. }) = &self.scenario.topology else { return None };
        let (from, to) = flow.nodes();
        let (from, to) = (from.unwrap_or(0), to.unwrap_or(links.len() as u32));
        Some(if from <= to {
            (from..to).map(|i| 2 * i).collect()
        } else {
            (to..from).rev().map(|i| 2 * i + 1).collect()
        })
    }

    fn traces(&self) -> Traces {
        let points = self.scenario.trace.max_points as usize;
        let width = self.scenario.trace.goodput_interval_s;
        let flows = (0..self.flows.len())
            .map(|f| {
                let handle = self.flows[f].report();
                let delivery = handle.delivery(&self.sim);
                let bins = &delivery.log.goodput_bins;
                let gt: Vec<f64> = (0..bins.len()).map(|i| i as f64 * width).collect();
                let gv: Vec<f64> = bins.iter().map(|&b| b as f64 * 8.0 / width / 1e6).collect();
                let delays = &delivery.log.delays;
                let (jt, jv) = delays.jitter_series().into_iter().unzip();
                let TraceParts { sender, coding, hops } = handle.traces(self);
                FlowTrace {
                    id: f as u32,
                    sender,
                    owd: Columns::new(&delivery.log.owd_trace, ["owd_ms"]),
                    goodput: Columns::pairs(gt, "mbps", gv),
                    owd_cdf_ms: delays.cdf(points),
                    owd_arrival_cdf_ms: delivery.arrivals().map(|a| a.cdf(points)),
                    jitter: Columns::pairs(jt, "jitter_ms", jv),
                    jitter_arrival: delivery.arrivals().map(|a| {
                        let (t, v) = a.jitter_series().into_iter().unzip();
                        Columns::pairs(t, "jitter_ms", v)
                    }),
                    coding,
                    hops,
                }
            })
            .collect();
        let links = self
            .sim
            .net
            .links
            .iter()
            .filter(|l| l.id < self.traced_links)
            .map(|l| LinkTrace { id: l.id, queue: Columns::new(&l.queue_trace, ["queue_pkts"]) })
            .collect();
        Traces { flows, links }
    }
}
