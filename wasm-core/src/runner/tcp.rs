//! A TCP flow: its two agents, configured from the scenario (its profile's defaults applied),
//! and what it reports (the wire figures of docs/tcp.md, the sender's state over time).

use super::result::WireSummary;
use super::traces::Columns;
use super::transport::{AgentPair, Builder, Figures, FlowReport, FlowSlot, TraceParts, Transport};
use super::Run;
use crate::delivery::Delivery;
use crate::metrics::Trace;
use crate::net::AgentId;
use crate::rto::RtoFlavor;
use crate::scenario::{TcpFlow, TcpProfile};
use crate::sim::{SimDuration, SimTime};
use crate::simulation::{Agent, Simulation};
use crate::tcp::autotune::RcvWindow;
use crate::tcp::congestion::CcOptions;
use crate::tcp::receiver::{TcpReceiver, TcpReceiverConfig, WindowPolicy};
use crate::tcp::sender::{TcpConfig, TcpSender, SENDER_TRACE_COLUMNS};

pub(super) type TcpHandle = AgentPair<TcpSender, TcpReceiver>;

impl Transport for TcpHandle {
    type Spec = TcpFlow;

    fn build(t: &TcpFlow, slot: FlowSlot, b: &mut Builder) -> TcpHandle {
        let FlowSlot { f, from, to, content, start, points, interval, bin_width, seed, .. } = slot;
        let ends = TcpHandle::reserve(b);
        let set = t.settings();
        let cfg = TcpConfig {
            cc: t.cc,
            cc_options: CcOptions { hystart: t.hystart, ns3: t.profile == TcpProfile::Ns3 },
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
            seed,
            frto: set.frto,
            undo: set.undo,
            ns3_rules: set.ns3_rules,
        };
        let sender = TcpSender::new(cfg, f, to, ends.receiver, content, Trace::with_interval(points, interval));
        b.place(ends.sender, from, Agent::TcpSender(Box::new(sender)), start);
        let delack = set.delayed_ack.then(|| SimDuration::from_secs_f64(set.delack_ms / 1e3));
        let window = match t.rwnd_pkts {
            Some(r) => WindowPolicy::Fixed(r as u64 * t.mss_bytes as u64),
            None if set.rcv_autotune => WindowPolicy::Autotune(RcvWindow::new(t.mss_bytes, t.sack)),
            None => WindowPolicy::Unlimited,
        };
        let receiver = TcpReceiver::new(TcpReceiverConfig {
            flow: f,
            peer_node: from,
            peer_agent: ends.sender,
            content,
            expected_bytes: t.bytes,
            delayed_ack: delack,
            owd_trace: Trace::with_interval(points, interval),
            bin_width,
        })
        .with_window(window);
        let receiver = if t.profile == TcpProfile::Ns3 {
            receiver
                .acking_the_first_segment_at_once()
                .yielding_the_delayed_ack_timer_to_a_segment_of_the_same_instant()
        } else {
            receiver
        };
        b.place(ends.receiver, to, Agent::TcpReceiver(Box::new(receiver)), None);
        ends
    }
}

impl FlowReport for TcpHandle {
    fn delivery<'s>(&self, sim: &'s Simulation) -> &'s Delivery {
        &self.agents(sim).1.delivery
    }

    fn error<'s>(&self, sim: &'s Simulation) -> Option<&'s String> {
        let (s, r) = self.agents(sim);
        r.delivery.error.as_ref().or(s.invariant_error.as_ref())
    }

    fn ends(&self) -> (AgentId, AgentId) {
        (self.sender, self.receiver)
    }

    fn figures(&self, run: &Run, _f: usize, _end: SimTime) -> Figures {
        let (s, r) = self.agents(&run.sim);
        // The receiver's count: the sender's cumulative ACK lags it by the ACKs still on their
        // way when the run ends.
        let delivered_segs = r.delivery.delivered.div_ceil(s.config().mss as u64);
        let mut wire =
            WireSummary::new(s.stats.sent_pkts, s.stats.retransmissions, r.duplicate_segments, delivered_segs);
        wire.loss_probes = Some(s.stats.loss_probes);
        wire.dsacks = Some(s.stats.dsacks);
        wire.undos = Some(s.stats.undos);
        wire.spurious_rtos_detected = Some(s.stats.spurious_rtos);
        wire.max_cwnd_pkts = Some(s.stats.max_cwnd);
        wire.max_inflight_pkts = Some(s.stats.max_pipe);
        Figures::wire(s.stats.retransmissions, s.stats.timeouts, wire)
    }

    fn traces(&self, run: &Run) -> TraceParts {
        let (s, _) = self.agents(&run.sim);
        TraceParts::sender(Columns::new(&s.trace, SENDER_TRACE_COLUMNS))
    }
}
