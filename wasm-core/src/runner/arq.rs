//! An ARQ flow (docs/arq.md): its two agents, and what it reports (the wire figures, the
//! sender's window and timeout over time).

use super::result::WireSummary;
use super::traces::Columns;
use super::transport::{AgentPair, Builder, Figures, FlowReport, FlowSlot, TraceParts, Transport};
use super::Run;
use crate::arq::receiver::{ArqReceiver, ArqReceiverConfig};
use crate::arq::sender::{ArqConfig, ArqSender, ARQ_SENDER_TRACE_COLUMNS};
use crate::delivery::Delivery;
use crate::metrics::{DeliveryLog, Trace};
use crate::net::AgentId;
use crate::scenario::ArqFlow;
use crate::sim::{SimDuration, SimTime};
use crate::simulation::{Agent, Simulation};

pub(super) type ArqHandle = AgentPair<ArqSender, ArqReceiver>;

impl Transport for ArqHandle {
    type Spec = ArqFlow;

    fn build(a: &ArqFlow, slot: FlowSlot, b: &mut Builder) -> ArqHandle {
        let FlowSlot { f, from, to, content, start, points, interval, bin_width, .. } = slot;
        let ends = ArqHandle::reserve(b);
        let cfg = ArqConfig {
            mode: a.mode,
            window_pkts: a.window(),
            mss: a.mss_bytes,
            bytes: a.bytes,
            fixed_timeout: a.timeout_ms.map(|ms| SimDuration::from_secs_f64(ms / 1e3)),
        };
        let sender = ArqSender::new(f, to, ends.receiver, content, cfg, Trace::with_interval(points, interval));
        b.place(ends.sender, from, Agent::ArqSender(Box::new(sender)), start);
        let receiver = ArqReceiver::new(
            ArqReceiverConfig {
                flow: f,
                peer_node: from,
                peer_agent: ends.sender,
                content,
                mode: a.mode,
                window_pkts: a.window(),
                mss: a.mss_bytes,
                bytes: a.bytes,
            },
            DeliveryLog::new(Trace::with_interval(points, interval), bin_width),
        );
        b.place(ends.receiver, to, Agent::ArqReceiver(Box::new(receiver)), None);
        ends
    }
}

impl FlowReport for ArqHandle {
    fn delivery<'s>(&self, sim: &'s Simulation) -> &'s Delivery {
        &self.agents(sim).1.delivery
    }

    fn ends(&self) -> (AgentId, AgentId) {
        (self.sender, self.receiver)
    }

    fn figures(&self, run: &Run, _f: usize, _end: SimTime) -> Figures {
        let (s, r) = self.agents(&run.sim);
        let delivered_pkts = r.delivery.delivered.div_ceil(s.config().mss as u64);
        let mut wire = WireSummary::new(
            s.stats.sent_pkts,
            s.stats.retransmissions,
            r.duplicate_pkts + r.discarded_pkts,
            delivered_pkts,
        );
        wire.max_cwnd_pkts = Some(s.config().window_pkts);
        wire.max_inflight_pkts = Some(s.stats.max_inflight);
        Figures::wire(s.stats.retransmissions, s.stats.timeouts, wire)
    }

    fn traces(&self, run: &Run) -> TraceParts {
        let (s, _) = self.agents(&run.sim);
        TraceParts::sender(Columns::new(&s.trace, ARQ_SENDER_TRACE_COLUMNS))
    }
}
