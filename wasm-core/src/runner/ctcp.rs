//! A CTCP flow: its two agents, the scenario's choices mapped onto the sender's and the
//! receiver's configuration (docs/ctcp.md), and what it reports (the coding figures, and where
//! the bottleneck's capacity went).

use super::result::{CapacitySummary, CodingSummary, WireSummary};
use super::traces::{CodingTrace, Columns};
use super::transport::{AgentPair, Builder, Figures, FlowReport, FlowSlot, TraceParts, Transport};
use super::Run;
use crate::ctcp::cc::{CcRules, Increase};
use crate::ctcp::receiver::{CtcpReceiver, CtcpReceiverConfig};
use crate::ctcp::sender::{CtcpConfig, CtcpSender, Feedback, Redundancy, CTCP_SENDER_TRACE_COLUMNS};
use crate::ctcp::{Layout, ACK_BYTES, PER_BLOCK_ACK_BYTES};
use crate::delivery::Delivery;
use crate::metrics::Trace;
use crate::net::{AgentId, LinkUsage};
use crate::scenario::{
    CodingMode, CtcpCongestionGate, CtcpFeedback, CtcpFlow, CtcpRedundancy, CtcpSlowStartExit, CtcpVariant,
};
use crate::sim::SimDuration;
use crate::sim::SimTime;
use crate::simulation::{Agent, Simulation};

pub(super) type CtcpHandle = AgentPair<CtcpSender, CtcpReceiver>;

impl CtcpHandle {
    /// See [`CapacitySummary`].
    fn capacity(run: &Run, f: usize, s: &CtcpSender, r: &CtcpReceiver, end: SimTime) -> Option<CapacitySummary> {
        let path = run.chain_path(&run.scenario.flows[f])?;
        let links = &run.sim.net.links;
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
}

impl Transport for CtcpHandle {
    type Spec = CtcpFlow;

    fn build(c: &CtcpFlow, slot: FlowSlot, b: &mut Builder) -> CtcpHandle {
        let FlowSlot { f, from, to, content, start, points, interval, bin_width, seed, .. } = slot;
        let ends = CtcpHandle::reserve(b);
        let layout = Layout { symbol_len: c.mss_bytes, k: c.block_pkts, bytes: c.bytes };
        let cfg = CtcpConfig {
            layout,
            max_blocks: c.max_blocks,
            payload: c.coding == CodingMode::Full,
            initial_cwnd: c.initial_cwnd_pkts,
            initial_ssthresh: c.initial_ssthresh_pkts,
            max_cwnd: c.max_cwnd_pkts,
            increase: match c.variant {
                CtcpVariant::V1 => Increase::Reno,
                CtcpVariant::V2 => Increase::Htcp { delta_l: SimDuration::from_secs_f64(c.v2_delta_l_s) },
            },
            rules: CcRules {
                vegas_slow_start_exit: c.slow_start_exit == CtcpSlowStartExit::Vegas,
                srtt_gate: c.congestion_gate == CtcpCongestionGate::MinRttOrSrtt,
            },
            feedback: match c.feedback {
                CtcpFeedback::PerBlock => Feedback::PerBlock,
                CtcpFeedback::LowestBlock => Feedback::LowestBlock,
            },
            redundancy: match c.redundancy {
                CtcpRedundancy::Nearest => Redundancy::Nearest,
                CtcpRedundancy::Ceil => Redundancy::Ceil,
            },
            loss_scaling: c.loss_scaling,
            run_seed: seed,
        };
        let sender = CtcpSender::new(cfg, f, to, ends.receiver, content, Trace::with_interval(points, interval));
        b.place(ends.sender, from, Agent::CtcpSender(Box::new(sender)), start);
        let receiver = CtcpReceiver::new(CtcpReceiverConfig {
            flow: f,
            peer_node: from,
            peer_agent: ends.sender,
            content,
            layout,
            max_blocks: c.max_blocks,
            payload: c.coding == CodingMode::Full,
            run_seed: seed,
            trace_points: points,
            bin_width,
        })
        .with_ack_bytes(match c.feedback {
            CtcpFeedback::PerBlock => PER_BLOCK_ACK_BYTES,
            CtcpFeedback::LowestBlock => ACK_BYTES,
        });
        b.place(ends.receiver, to, Agent::CtcpReceiver(Box::new(receiver)), None);
        ends
    }
}

impl FlowReport for CtcpHandle {
    fn delivery<'s>(&self, sim: &'s Simulation) -> &'s Delivery {
        &self.agents(sim).1.delivery
    }

    fn ends(&self) -> (AgentId, AgentId) {
        (self.sender, self.receiver)
    }

    fn figures(&self, run: &Run, f: usize, end: SimTime) -> Figures {
        let (s, r) = self.agents(&run.sim);
        let delivered = r.stats.source_packets_delivered;
        let wire = WireSummary::new(
            s.stats.sent_pkts,
            s.stats.sent_pkts.saturating_sub(delivered),
            r.stats.non_innovative,
            delivered,
        );
        let coding = CodingSummary {
            packets_sent: s.stats.sent_pkts,
            coded_packets: s.stats.coded_pkts,
            source_packets_delivered: delivered,
            coded_overhead: if delivered > 0 { s.stats.sent_pkts as f64 / delivered as f64 } else { 0.0 },
            non_innovative: r.stats.non_innovative,
            blocks_decoded: r.stats.blocks_decoded,
            decode_latency_ms: r.stats.decode_latency.summary(),
            loss_estimate: s.slr,
            capacity: Self::capacity(run, f, s, r, end),
        };
        Figures { coding: Some(coding), ..Figures::wire(s.stats.coded_pkts, s.stats.timeouts, wire) }
    }

    fn traces(&self, run: &Run) -> TraceParts {
        let (s, r) = self.agents(&run.sim);
        let coding = CodingTrace {
            rank: Columns::new(&r.rank_trace, ["rank", "block"]),
            decodes: Columns::new(&r.decode_trace, ["block", "latency_ms"]),
        };
        TraceParts { coding: Some(coding), ..TraceParts::sender(Columns::new(&s.trace, CTCP_SENDER_TRACE_COLUMNS)) }
    }
}
