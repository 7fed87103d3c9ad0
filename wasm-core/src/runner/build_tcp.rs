//! A TCP flow's two agents, configured from the scenario (its profile's defaults applied).

use super::FlowSlot;
use crate::metrics::Trace;
use crate::scenario::TcpFlow;
use crate::sim::SimDuration;
use crate::simulation::{Agent, Simulation};
use crate::tcp::autotune::RcvWindow;
use crate::tcp::congestion::CcOptions;
use crate::tcp::receiver::{TcpReceiver, WindowPolicy};
use crate::tcp::rtt::RtoFlavor;
use crate::tcp::sender::{TcpConfig, TcpSender};

/// Adds the sender and the receiver; returns their agent ids.
pub(super) fn add_tcp_flow(sim: &mut Simulation, t: &TcpFlow, slot: FlowSlot) -> (u32, u32) {
    let FlowSlot { f, from, to, content, start, points, interval, bin_width, .. } = slot;
    let sender_id = sim.agents.len() as u32;
    let receiver_id = sender_id + 1;
    let set = t.settings();
    let cfg = TcpConfig {
        cc: t.cc,
        cc_options: CcOptions { hystart: t.hystart },
        mss: t.mss_bytes,
        initial_cwnd: t.initial_cwnd_pkts,
        initial_ssthresh: t.initial_ssthresh_pkts,
        sack: t.sack,
        rto_flavor: set.rto_flavor,
        rto_min: SimDuration::from_secs_f64(set.rto_min_ms / 1e3),
        rto_max: SimDuration::from_millis(match set.rto_flavor {
            RtoFlavor::Linux => 120_000,  // Linux TCP_RTO_MAX
            RtoFlavor::Rfc6298 => 60_000, // RFC 6298 §2.5
        }),
        recovery: set.recovery,
        loss_detection: set.loss_detection,
        per_ack_growth: set.per_ack_growth,
        bytes: t.bytes,
        audit: false,
    };
    let sender = TcpSender::new(cfg, f, to, receiver_id, content, Trace::with_interval(points, interval));
    sim.add_agent(from, Agent::TcpSender(Box::new(sender)), start);
    let delack = set.delayed_ack.then(|| SimDuration::from_secs_f64(set.delack_ms / 1e3));
    let window = match t.rwnd_pkts {
        Some(r) => WindowPolicy::Fixed(r as u64 * t.mss_bytes as u64),
        None if set.rcv_autotune => WindowPolicy::Autotune(RcvWindow::new(t.mss_bytes)),
        None => WindowPolicy::Unlimited,
    };
    let receiver = TcpReceiver::new(
        f,
        from,
        sender_id,
        content,
        t.bytes,
        delack,
        Trace::with_interval(points, interval),
        bin_width,
    )
    .with_window(window);
    sim.add_agent(to, Agent::TcpReceiver(Box::new(receiver)), None);
    (sender_id, receiver_id)
}
