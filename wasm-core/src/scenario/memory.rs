//! What a run may hold in memory at most, from the scenario alone: the bound validation holds
//! every scenario to, so that a run stays under [`MAX_RUN_MEMORY_BYTES`] whatever its duration,
//! or is refused before it starts with what to change. The cost estimate
//! (`runner::cost`) reports it beside the events.
//!
//! The model errs high. Per run:
//! - packets: the links hold at most `net::MAX_PACKETS_IN_NETWORK` (a packet offered beyond it is
//!   dropped as by a full buffer), each a queue entry and a pipeline entry, with room for the
//!   queues' growth;
//! - traces: every kept point of every flow's and link's time series, kept, copied into the
//!   result and written as JSON text;
//! - delay statistics: three per flow (delivery, arrival, CTCP decoding), each at most
//!   `metrics::DELAY_STATS_MAX_BYTES`;
//! - goodput bins, one per interval and flow;
//! - per-flow state that follows the scenario's windows: ARQ windows, CTCP blocks, INTCP caches.

use super::{Flow, Scenario, Topology};
use crate::metrics::delay_stats_max_bytes;
use crate::net::{Packet, MAX_PACKETS_IN_NETWORK};
use crate::sim::{SimDuration, SimTime};

/// Most flows a scenario may have: each keeps its traces and delay statistics.
pub const MAX_FLOWS: usize = 1000;
/// Most memory a run may need by [`Scenario::memory_estimate`]: 1 GB.
pub const MAX_RUN_MEMORY_BYTES: f64 = 1e9;

/// Bytes per trace value: the trace's own (with room for its growth), the result's copy, and
/// about 24 characters of JSON.
const TRACE_VALUE_BYTES: f64 = 8.0 * 2.0 + 8.0 + 24.0;
/// Values per trace point of a flow: its sender trace with its time column (CTCP's has 10), its
/// one-way delay trace (2), two CDFs (2), two jitter series (4), CTCP's rank and decode traces (6).
const FLOW_TRACE_VALUES: f64 = 10.0 + 2.0 + 2.0 + 4.0 + 6.0;
/// Values per trace point of each INTCP hop: its state (8) and retransmissions (3).
const HOP_TRACE_VALUES: f64 = 11.0;
/// Links (both directions) and hops assumed for a constellation's route.
const CONSTELLATION_HOPS: f64 = 12.0;
/// Bytes per packet of an ARQ window (the sender's entry, the receiver's held one) or a CTCP
/// block, and per cached INTCP segment (two ordered-map entries).
const WINDOW_ENTRY_BYTES: f64 = 64.0;
const CACHE_ENTRY_BYTES: f64 = 160.0;

/// Where a run's memory goes, in bytes (upper bounds).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct MemoryEstimate {
    pub packets: f64,
    pub traces: f64,
    pub delays: f64,
    pub goodput_bins: f64,
    pub flow_state: f64,
}

impl MemoryEstimate {
    pub fn total(&self) -> f64 {
        self.packets + self.traces + self.delays + self.goodput_bins + self.flow_state
    }
}

/// Bytes the links take per packet they hold: the pipeline's entry and the queue's, twice for
/// the queues' room to grow.
fn packet_bytes() -> f64 {
    (2 * (std::mem::size_of::<(SimTime, Packet)>() + std::mem::size_of::<(SimTime, u32, u32, bool, bool)>())) as f64
}

impl Scenario {
    /// The most memory one run of this scenario may need (its base point; a sweep runs its
    /// points one after the other or on separate threads, each bounded alike).
    pub fn memory_estimate(&self) -> MemoryEstimate {
        let flows = self.flows.len() as f64;
        let points = self.trace.max_points as f64;
        let link_dirs = match &self.topology {
            Topology::Chain(c) => 2.0 * c.links.len() as f64,
            Topology::Constellation(_) => 2.0 * CONSTELLATION_HOPS,
        };
        let hops = |f: &Flow| match (&self.topology, f.nodes()) {
            (Topology::Chain(c), (from, to)) => {
                from.unwrap_or(0).abs_diff(to.unwrap_or(c.links.len() as u32)).saturating_sub(1) as f64
            }
            (Topology::Constellation(_), _) => CONSTELLATION_HOPS,
        };
        let max_rate_mbps = match &self.topology {
            Topology::Chain(c) => {
                c.links.iter().map(|l| l.rate_mbps.max(l.reverse_rate_mbps.unwrap_or(0.0))).fold(0.0, f64::max)
            }
            Topology::Constellation(_) => super::MAX_RATE_MBPS,
        };
        let hop_values: f64 = self.flows.iter().filter(|f| matches!(f, Flow::Intcp(_))).map(hops).sum();
        let trace_values = points * (flows * FLOW_TRACE_VALUES + hop_values * HOP_TRACE_VALUES + 2.0 * link_dirs);
        let bins = if self.trace.goodput_interval_s > 0.0 {
            (self.duration_s / self.trace.goodput_interval_s).ceil().max(1.0)
        } else {
            1.0
        };
        let flow_state: f64 = self
            .flows
            .iter()
            .map(|f| match f {
                Flow::Arq(a) => a.window() as f64 * WINDOW_ENTRY_BYTES,
                Flow::Ctcp(c) => c.max_blocks as f64 * c.block_pkts as f64 * WINDOW_ENTRY_BYTES,
                Flow::Intcp(i) => {
                    // A cache holds at most what passes through it: the flow's bytes, or what
                    // the fastest link carries in the run.
                    let passing =
                        i.bytes.map_or(f64::INFINITY, |b| b as f64).min(max_rate_mbps * 1e6 / 8.0 * self.duration_s);
                    let cache = |c: u64| (c as f64).min(passing);
                    let caches =
                        cache(i.cache_bytes) * hops(f) + i.node_cache_bytes.values().map(|&c| cache(c)).sum::<f64>();
                    caches / i.mss_bytes.max(1) as f64 * CACHE_ENTRY_BYTES
                }
                Flow::Tcp(_) => 0.0,
            })
            .sum();
        MemoryEstimate {
            packets: MAX_PACKETS_IN_NETWORK as f64 * packet_bytes(),
            traces: trace_values * TRACE_VALUE_BYTES,
            // Two per flow: delivery and arrival (CTCP: delivery and decoding).
            delays: flows * 2.0 * delay_stats_max_bytes(SimDuration::from_secs_f64(self.duration_s)) as f64,
            // Each bin: the counter, then the result's two columns and their JSON.
            goodput_bins: flows * bins * (8.0 + 2.0 * (8.0 + 24.0)),
            flow_state,
        }
    }

    /// The flow cap and the memory budget, as problems naming what to change.
    pub(super) fn memory_problems(&self, p: &mut super::problems::Problems) {
        if self.flows.len() > MAX_FLOWS {
            p.push(
                "flows",
                format!(
                    "has {} flows; at most {MAX_FLOWS} are supported (each keeps its traces and delay statistics)",
                    self.flows.len()
                ),
            );
            return;
        }
        if !p.0.is_empty() {
            // The estimate reads the fields the problems are about.
            return;
        }
        let m = self.memory_estimate();
        if m.total() <= MAX_RUN_MEMORY_BYTES {
            return;
        }
        let mb = |b: f64| format!("{:.0} MB", b / 1e6);
        let (path, advice) = if m.goodput_bins > m.traces {
            ("trace.goodput_interval_s", "make trace.goodput_interval_s longer, or run fewer flows".to_string())
        } else {
            // The points that would fit, the rest unchanged.
            let room = MAX_RUN_MEMORY_BYTES - (m.total() - m.traces);
            let fit = (room / (m.traces / self.trace.max_points as f64)).floor();
            let advice = if fit >= 2.0 {
                format!("lower trace.max_points to {fit:.0} or less, or run fewer flows")
            } else {
                "run fewer flows".to_string()
            };
            ("trace.max_points", advice)
        };
        p.push(
            path,
            format!(
                "a run would need up to {} ({} flows × {} trace points: traces {}, goodput bins {}, delay statistics \
                 {}, packets {}, windows and caches {}); at most {} are supported ({advice})",
                mb(m.total()),
                self.flows.len(),
                self.trace.max_points,
                mb(m.traces),
                mb(m.goodput_bins),
                mb(m.delays),
                mb(m.packets),
                mb(m.flow_state),
                mb(MAX_RUN_MEMORY_BYTES),
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::tests::with;
    use crate::scenario::*;
    use serde_json::{json, Value};

    fn flows(n: usize) -> Value {
        Value::Array(vec![json!({"transport": "tcp", "cc": "reno", "bytes": 1000}); n])
    }

    #[test]
    fn more_flows_than_the_cap_are_refused_with_the_cap() {
        let e = with("flows", flows(MAX_FLOWS + 1)).unwrap_err();
        assert_eq!(e, "flows: has 1001 flows; at most 1000 are supported (each keeps its traces and delay statistics)");
        let e = with("flows", flows(MAX_FLOWS)).unwrap_err();
        assert!(e.starts_with("trace.max_points: a run would need up to "), "not the cap: {e}");
    }

    #[test]
    fn trace_points_are_counted_for_every_flow_against_the_memory_budget() {
        // 64 flows × 10^6 points used to validate, then abort.
        let mut v: Value = serde_json::from_str(crate::scenario::tests::MINIMAL).unwrap();
        v["flows"] = flows(64);
        v["trace"] = json!({"max_points": 1_000_000});
        let e = from_value(v.clone()).map(|_| ()).map_err(String::from).unwrap_err();
        assert!(e.starts_with("trace.max_points: a run would need up to 74"), "{e}");
        assert!(e.contains("at most 1000 MB are supported (lower trace.max_points to "), "{e}");
        // The points it names fit.
        let fit: u32 =
            e.split("lower trace.max_points to ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        v["trace"] = json!({ "max_points": fit });
        let sc = from_value(v.clone()).unwrap();
        assert!(sc.memory_estimate().total() <= MAX_RUN_MEMORY_BYTES);
        v["trace"] = json!({ "max_points": fit + 1 });
        assert!(from_value(v).is_err());
    }

    #[test]
    fn a_thousand_flows_fit_with_few_trace_points() {
        let mut v: Value = serde_json::from_str(crate::scenario::tests::MINIMAL).unwrap();
        v["flows"] = flows(MAX_FLOWS);
        v["trace"] = json!({"max_points": 100});
        from_value(v).unwrap();
    }
}
