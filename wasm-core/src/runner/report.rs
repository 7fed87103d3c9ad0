//! Reporting a finished run: each flow's summary from its agents' counters, the links'
//! counters, CTCP's capacity breakdown, INTCP's per-node figures, and the time series.

use super::result::{CapacitySummary, CodingSummary, FlowResult, HopSummary, LinkResult, RunResult, WireSummary};
use super::traces::{CodingTrace, Columns, FlowTrace, HopTrace, LinkTrace, Traces};
use super::{provenance, Run};
use crate::ctcp::receiver::CtcpReceiver;
use crate::ctcp::sender::{CtcpSender, CTCP_SENDER_TRACE_COLUMNS};
use crate::intcp::consumer::{Consumer, CONSUMER_TRACE_COLUMNS};
use crate::intcp::midnode::{IntcpNode, Role, HOP_TRACE_COLUMNS};
use crate::metrics::{jain_index, DelayStats};
use crate::net::LinkUsage;
use crate::scenario::{Chain, Flow, Topology};
use crate::sim::SimTime;
use crate::simulation::{Agent, EarlyStop};
use crate::tcp::receiver::TcpReceiver;
use crate::tcp::sender::{TcpSender, SENDER_TRACE_COLUMNS};

/// The two agents of a flow, whatever its transport.
#[derive(Clone, Copy)]
pub(super) enum FlowParts<'a> {
    Tcp(&'a TcpSender, &'a TcpReceiver),
    Ctcp(&'a CtcpSender, &'a CtcpReceiver),
    Intcp(&'a Consumer),
}

impl<'a> FlowParts<'a> {
    pub(super) fn error(self) -> Option<&'a String> {
        match self {
            // A delivery failure first; else a breach of the sender's invariants.
            FlowParts::Tcp(s, r) => r.error.as_ref().or(s.invariant_error.as_ref()),
            FlowParts::Ctcp(_, r) => r.error.as_ref(),
            FlowParts::Intcp(c) => c.error.as_ref(),
        }
    }
    fn completed_at(self) -> Option<SimTime> {
        match self {
            FlowParts::Tcp(_, r) => r.completed_at,
            FlowParts::Ctcp(_, r) => r.completed_at,
            FlowParts::Intcp(c) => c.completed_at,
        }
    }
    fn delivered(self) -> u64 {
        match self {
            FlowParts::Tcp(_, r) => r.delivered,
            FlowParts::Ctcp(_, r) => r.delivered,
            FlowParts::Intcp(c) => c.delivered,
        }
    }
    fn delays(self) -> &'a DelayStats {
        match self {
            FlowParts::Tcp(_, r) => &r.log.delays,
            FlowParts::Ctcp(_, r) => &r.log.delays,
            FlowParts::Intcp(c) => &c.log.delays,
        }
    }
    /// One-way delays at arrival, before reordering (TCP and INTCP; CTCP decodes blocks).
    fn arrivals(self) -> Option<&'a DelayStats> {
        match self {
            FlowParts::Tcp(_, r) => Some(&r.log.arrivals),
            FlowParts::Ctcp(..) => None,
            FlowParts::Intcp(c) => Some(&c.log.arrivals),
        }
    }
    fn goodput_bins(self) -> &'a [u64] {
        match self {
            FlowParts::Tcp(_, r) => &r.log.goodput_bins,
            FlowParts::Ctcp(_, r) => &r.log.goodput_bins,
            FlowParts::Intcp(c) => &c.log.goodput_bins,
        }
    }
}

impl Run {
    pub fn result(&self, with_traces: bool) -> RunResult {
        let end = self.sim.now.min(self.sim.end);
        let mut flows = Vec::new();
        for (f, flow) in self.scenario.flows.iter().enumerate() {
            let parts = self.parts(f);
            let start = SimTime::from_secs_f64(flow.start_s());
            let completed_at = parts.completed_at();
            let delivered = parts.delivered();
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
                (Some(b), None, None) => Some(format!(
                    "time limit: the run ended at {} s with {} of {} bytes delivered",
                    self.scenario.duration_s, delivered, b
                )),
                _ => None,
            };
            let hops = self.intcp_hops(f);
            let wire = match parts {
                FlowParts::Tcp(s, r) => {
                    // The receiver's count: the sender's cumulative ACK lags it by the ACKs still
                    // on their way when the run ends.
                    let delivered_segs = r.delivered.div_ceil(s.config().mss as u64);
                    let mut w = WireSummary::new(
                        s.stats.sent_pkts,
                        s.stats.retransmissions,
                        r.duplicate_segments,
                        delivered_segs,
                    );
                    w.loss_probes = Some(s.stats.loss_probes);
                    w.dsacks = Some(s.stats.dsacks);
                    w.max_cwnd_pkts = Some(s.stats.max_cwnd);
                    w.max_inflight_pkts = Some(s.stats.max_pipe);
                    Some(w)
                }
                FlowParts::Ctcp(s, r) => {
                    let delivered = r.stats.source_packets_delivered;
                    Some(WireSummary::new(
                        s.stats.sent_pkts,
                        s.stats.sent_pkts.saturating_sub(delivered),
                        r.stats.non_innovative,
                        delivered,
                    ))
                }
                FlowParts::Intcp(_) => None,
            };
            let (retransmissions, timeouts, coding) = match parts {
                FlowParts::Tcp(s, _) => (s.stats.retransmissions, s.stats.timeouts, None),
                FlowParts::Intcp(c) => {
                    // Re-requested segments: end-to-end timeouts and SeqHoles at every node.
                    let mid_holes: u64 =
                        hops.iter().flatten().filter(|h| h.role == "midnode").map(|h| h.hole_requests).sum();
                    (c.stats.timeout_resends + c.stats.hole_requests + mid_holes, c.stats.timeouts, None)
                }
                FlowParts::Ctcp(s, r) => (
                    s.stats.coded_pkts,
                    s.stats.timeouts,
                    Some(CodingSummary {
                        packets_sent: s.stats.sent_pkts,
                        coded_packets: s.stats.coded_pkts,
                        source_packets_delivered: r.stats.source_packets_delivered,
                        coded_overhead: if r.stats.source_packets_delivered > 0 {
                            s.stats.sent_pkts as f64 / r.stats.source_packets_delivered as f64
                        } else {
                            0.0
                        },
                        non_innovative: r.stats.non_innovative,
                        blocks_decoded: r.stats.blocks_decoded,
                        decode_latency_ms: r.stats.decode_latency.summary(),
                        loss_estimate: s.slr,
                        capacity: self.ctcp_capacity(f, flow, s, r, end),
                    }),
                ),
            };
            let delays = parts.delays();
            flows.push(FlowResult {
                id: f as u32,
                transport: flow.transport(),
                cc: flow.cc_name(),
                label: flow.label().cloned(),
                bytes: flow.bytes(),
                delivered_bytes: delivered,
                completed: completed_at.is_some(),
                completion_s: completion,
                goodput_mbps: goodput,
                retransmissions,
                timeouts,
                owd_ms: delays.summary(),
                owd_arrival_ms: parts.arrivals().map(DelayStats::summary),
                jitter_ms: delays.mean_jitter(),
                incomplete_reason,
                error: parts.error().cloned(),
                wire,
                coding,
                hops,
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

    /// The forward links of a flow on a chain, from its sender to its receiver.
    fn chain_path(&self, flow: &Flow) -> Option<Vec<u32>> {
        let Topology::Chain(Chain { links, .. }) = &self.scenario.topology else { return None };
        let (from, to) = flow.nodes();
        let (from, to) = (from.unwrap_or(0), to.unwrap_or(links.len() as u32));
        Some(if from <= to {
            (from..to).map(|i| 2 * i).collect()
        } else {
            (to..from).rev().map(|i| 2 * i + 1).collect()
        })
    }

    /// See [`CapacitySummary`].
    fn ctcp_capacity(
        &self,
        f: usize,
        flow: &Flow,
        s: &CtcpSender,
        r: &CtcpReceiver,
        end: SimTime,
    ) -> Option<CapacitySummary> {
        let path = self.chain_path(flow)?;
        let links = &self.sim.net.links;
        let usages: Vec<(usize, LinkUsage)> =
            path.iter().enumerate().filter_map(|(i, &l)| Some((i, links[l as usize].usage(end)?))).collect();
        let (at, usage) =
            usages.into_iter().min_by(|a, b| a.1.capacity_bits.total_cmp(&b.1.capacity_bits).then(a.0.cmp(&b.0)))?;
        let link = &links[path[at] as usize];
        let fid = f as u32;
        let slot_bits = 8.0 * (s.packet_bytes() as f64);
        let (_, _, data) = usage.carried.get(f).copied().unwrap_or_default();
        let all_bytes: u64 = usage.carried.iter().map(|c| c.1).sum();
        // Everything but this flow's data packets: other flows, and this flow's SYN.
        let other_bits = 8.0 * (all_bytes - data * s.packet_bytes() as u64) as f64;
        let in_flight: u64 = path[at..]
            .iter()
            .enumerate()
            .map(|(i, &l)| {
                let (all, started) = links[l as usize].data_in_flight(fid, end);
                if i == 0 {
                    started
                } else {
                    all
                }
            })
            .sum();
        let st = &r.stats;
        let received = st.innovative_systematic + st.innovative_coded + st.non_innovative;
        let tally = link.tally.get(f).copied().unwrap_or_default();
        Some(CapacitySummary {
            link: link.id,
            link_pkt_slots: usage.capacity_bits / slot_bits,
            innovative_pkts: st.innovative_systematic,
            redundant_needed_pkts: st.innovative_coded,
            non_innovative_pkts: st.non_innovative,
            lost_pkts: data.saturating_sub(received + in_flight),
            in_flight_pkts: in_flight,
            other_pkt_slots: other_bits / slot_bits,
            idle_pkt_slots: usage.idle_bits / slot_bits,
            queue_drop_pkts: tally.buffer_drops,
            ingress_loss_pkts: tally.ingress_losses,
            busy_fraction: if usage.capacity_bits > 0.0 { 1.0 - usage.idle_bits / usage.capacity_bits } else { 0.0 },
        })
    }

    /// Per-node figures of an INTCP flow, producer first; None for other transports.
    fn intcp_hops(&self, f: usize) -> Option<Vec<HopSummary>> {
        let nodes = self.intcp_nodes(f)?;
        Some(
            nodes
                .iter()
                .map(|n| {
                    let requester = n.role != Role::Producer;
                    let hole_requests = match &n.consumer {
                        Some(c) => c.stats.hole_requests,
                        None => n.stats.hole_requests,
                    };
                    HopSummary {
                        node: n.node,
                        role: n.role.name(),
                        hop_srtt_ms: if requester { n.cc.srtt_ms } else { 0.0 },
                        hop_min_rtt_ms: if requester { n.cc.min_hrtt_ms } else { 0.0 },
                        hop_cwnd_pkts: if requester { n.cc.cwnd } else { 0.0 },
                        advertised_rate_mbps: if requester { n.advertised_rate() } else { 0.0 },
                        paced_rate_mbps: if n.role == Role::Consumer { 0.0 } else { n.bucket.rate_mbps },
                        data_sent: n.stats.data_sent,
                        interests_sent: n.stats.interests_sent,
                        cache_served: n.stats.cache_served,
                        cache_bytes_used: n.cache.as_ref().map_or(0, |c| c.borrow().used()),
                        hole_requests,
                        max_queue_bytes: n.stats.max_queue_bytes,
                    }
                })
                .collect(),
        )
    }

    /// The agents of an INTCP flow, producer first; None for other transports. On a
    /// constellation, only the nodes that took part (satellites that were never on the route
    /// while the flow ran have nothing to report).
    fn intcp_nodes(&self, f: usize) -> Option<Vec<&IntcpNode>> {
        let (first, last) = self.flow_agents[f];
        let nodes: Option<Vec<&IntcpNode>> = (first..=last)
            .map(|a| match &self.sim.agents[a as usize] {
                Agent::IntcpNode(n) => Some(n.as_ref()),
                _ => None,
            })
            .collect();
        let took_part = |n: &&IntcpNode| {
            self.sim.net.moving.is_none()
                || n.role != Role::Midnode
                || n.stats.data_sent > 0
                || n.stats.interests_sent > 0
        };
        nodes.map(|v| v.into_iter().filter(took_part).collect())
    }

    /// Every cache of every INTCP node: (used bytes, capacity).
    pub fn intcp_cache_usage(&self) -> Vec<(u64, u64)> {
        self.sim
            .agents
            .iter()
            .filter_map(|a| match a {
                Agent::IntcpNode(n) => n.cache.as_ref().map(|c| (c.borrow().used(), c.borrow().capacity())),
                _ => None,
            })
            .collect()
    }

    fn traces(&self) -> Traces {
        let points = self.scenario.trace.max_points as usize;
        let width = self.scenario.trace.goodput_interval_s;
        let flows = (0..self.flow_agents.len())
            .map(|f| {
                let parts = self.parts(f);
                let bins = parts.goodput_bins();
                let gt: Vec<f64> = (0..bins.len()).map(|i| i as f64 * width).collect();
                let gv: Vec<f64> = bins.iter().map(|&b| b as f64 * 8.0 / width / 1e6).collect();
                let delays = parts.delays();
                let (jt, jv) = delays.jitter_series().into_iter().unzip();
                let (sender, owd, coding) = match parts {
                    FlowParts::Tcp(s, r) => {
                        (Columns::new(&s.trace, SENDER_TRACE_COLUMNS), Columns::new(&r.log.owd_trace, ["owd_ms"]), None)
                    }
                    FlowParts::Intcp(c) => (
                        Columns::new(&c.trace, CONSUMER_TRACE_COLUMNS),
                        Columns::new(&c.log.owd_trace, ["owd_ms"]),
                        None,
                    ),
                    FlowParts::Ctcp(s, r) => (
                        Columns::new(&s.trace, CTCP_SENDER_TRACE_COLUMNS),
                        Columns::new(&r.log.owd_trace, ["owd_ms"]),
                        Some(CodingTrace {
                            rank: Columns::new(&r.rank_trace, ["rank", "block"]),
                            decodes: Columns::new(&r.decode_trace, ["block", "latency_ms"]),
                        }),
                    ),
                };
                FlowTrace {
                    id: f as u32,
                    sender,
                    owd,
                    goodput: Columns::pairs(gt, "mbps", gv),
                    owd_cdf_ms: delays.cdf(points),
                    owd_arrival_cdf_ms: parts.arrivals().map(|a| a.cdf(points)),
                    jitter: Columns::pairs(jt, "jitter_ms", jv),
                    jitter_arrival: parts.arrivals().map(|a| {
                        let (t, v) = a.jitter_series().into_iter().unzip();
                        Columns::pairs(t, "jitter_ms", v)
                    }),
                    coding,
                    hops: self.intcp_nodes(f).map(|nodes| {
                        nodes
                            .iter()
                            .map(|n| HopTrace {
                                node: n.node,
                                role: n.role.name(),
                                series: Columns::new(&n.hop_trace, HOP_TRACE_COLUMNS),
                                retransmissions: Columns::new(&n.rtx_trace, ["node", "count"]),
                            })
                            .collect()
                    }),
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
