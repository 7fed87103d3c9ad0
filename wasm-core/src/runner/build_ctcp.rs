//! A CTCP flow's two agents: the scenario's choices mapped onto the sender's and the
//! receiver's configuration (docs/ctcp.md).

use super::FlowSlot;
use crate::ctcp::cc::{CcRules, Increase};
use crate::ctcp::receiver::CtcpReceiver;
use crate::ctcp::sender::{CtcpConfig, CtcpSender, Feedback, Redundancy};
use crate::ctcp::{Layout, ACK_BYTES, PER_BLOCK_ACK_BYTES};
use crate::metrics::Trace;
use crate::scenario::{
    CodingMode, CtcpCongestionGate, CtcpFeedback, CtcpFlow, CtcpRedundancy, CtcpSlowStartExit, CtcpVariant,
};
use crate::sim::SimDuration;
use crate::simulation::{Agent, Simulation};

/// Adds the sender and the receiver; returns their agent ids.
pub(super) fn add_ctcp_flow(sim: &mut Simulation, c: &CtcpFlow, slot: FlowSlot) -> (u32, u32) {
    let FlowSlot { f, from, to, content, start, points, interval, bin_width, seed } = slot;
    let sender_id = sim.agents.len() as u32;
    let receiver_id = sender_id + 1;
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
    let sender = CtcpSender::new(cfg, f, to, receiver_id, content, Trace::with_interval(points, interval));
    sim.add_agent(from, Agent::CtcpSender(Box::new(sender)), start);
    let receiver = CtcpReceiver::new(
        f,
        from,
        sender_id,
        content,
        layout,
        c.max_blocks,
        c.coding == CodingMode::Full,
        seed,
        points,
        bin_width,
    )
    .with_ack_bytes(match c.feedback {
        CtcpFeedback::PerBlock => PER_BLOCK_ACK_BYTES,
        CtcpFeedback::LowestBlock => ACK_BYTES,
    });
    sim.add_agent(to, Agent::CtcpReceiver(Box::new(receiver)), None);
    (sender_id, receiver_id)
}
