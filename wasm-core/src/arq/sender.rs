//! The ARQ sender (docs/arq.md §2): a window of at most `window_pkts` unacknowledged packets,
//! filled as ACKs free it, and the retransmission rule of its mode.
//!
//! - Stop-and-wait and go-back-N keep one timer, for the oldest unacknowledged packet, restarted
//!   whenever an ACK acknowledges new packets (RFC 6298 §5.3). When it expires, every packet in
//!   the window is sent again (for stop-and-wait, the one packet).
//! - Selective repeat keeps a deadline per packet (one timer event, at the earliest deadline);
//!   when a packet's deadline passes, that packet alone is sent again. The RFC 6298 timeout
//!   doubles when the oldest packet's deadline passes, not on every packet's.
//!
//! RTT samples follow Karn's rule: none from a packet that was sent more than once.

use super::{packet_range, ArqMode, ARQ_HEADER_BYTES};
use crate::content::Content;
use crate::engine::{Ctx, LazyTimer};
use crate::metrics::Trace;
use crate::net::{AgentId, Body, NodeId, Packet};
use crate::rto::{Flight, RtoFlavor, RttEstimator};
use crate::sim::{SimDuration, SimTime};
use std::collections::VecDeque;

/// The sender's state over time. `cwnd` is the window (fixed), `inflight` the packets sent and
/// not yet acknowledged.
pub const ARQ_SENDER_TRACE_COLUMNS: [&str; 7] =
    ["cwnd", "srtt_ms", "rtt_ms", "acked_bytes", "inflight", "retransmissions", "rto_ms"];

/// RFC 6298 §2.4: the RTO is at least 1 s.
const RTO_MIN: SimDuration = SimDuration::from_millis(1000);
/// RFC 6298 §2.5: a maximum of at least 60 s may be placed on the RTO.
const RTO_MAX: SimDuration = SimDuration::from_millis(60_000);

#[derive(Clone, Debug)]
pub struct ArqConfig {
    pub mode: ArqMode,
    pub window_pkts: u32,
    pub mss: u32,
    /// The flow's size; None sends until the run ends.
    pub bytes: Option<u64>,
    /// A fixed retransmission timeout; None: RFC 6298's from the measured RTT.
    pub fixed_timeout: Option<SimDuration>,
}

#[derive(Clone, Debug, Default)]
pub struct ArqStats {
    /// Data packets put on the wire, retransmissions included.
    pub sent_pkts: u64,
    pub retransmissions: u64,
    /// Timer expiries that sent something again.
    pub timeouts: u64,
    pub max_inflight: u32,
}

/// A packet of the window.
#[derive(Clone, Copy, Debug)]
struct Outstanding {
    first_sent: SimTime,
    last_sent: SimTime,
    /// Sent more than once: no RTT sample from its ACK (Karn).
    resent: bool,
    /// Selective repeat: acknowledged on its own, ahead of the window's start.
    acked: bool,
    /// Selective repeat: when it is sent again unless acknowledged.
    deadline: SimTime,
}

pub struct ArqSender {
    flow: u32,
    peer_node: NodeId,
    peer_agent: AgentId,
    content: Content,
    cfg: ArqConfig,
    /// The oldest packet not yet acknowledged; `window` holds packets `base..base + len`.
    base: u64,
    window: VecDeque<Outstanding>,
    rtt: RttEstimator,
    timer: LazyTimer,
    acked_bytes: u64,
    pub stats: ArqStats,
    pub trace: Trace<7>,
}

impl ArqSender {
    pub fn new(
        flow: u32,
        peer_node: NodeId,
        peer_agent: AgentId,
        content: Content,
        cfg: ArqConfig,
        trace: Trace<7>,
    ) -> ArqSender {
        ArqSender {
            flow,
            peer_node,
            peer_agent,
            content,
            base: 0,
            window: VecDeque::with_capacity(cfg.window_pkts.min(4096) as usize),
            rtt: RttEstimator::new(RtoFlavor::Rfc6298, RTO_MIN, RTO_MAX),
            timer: LazyTimer::default(),
            acked_bytes: 0,
            stats: ArqStats::default(),
            trace,
            cfg,
        }
    }

    pub fn config(&self) -> &ArqConfig {
        &self.cfg
    }

    pub fn start(&mut self, ctx: &mut Ctx) {
        self.fill_window(ctx);
        self.record(ctx.now);
    }

    /// The timeout in force: the fixed one, or RFC 6298's with its back-off.
    fn rto(&self) -> SimDuration {
        self.cfg.fixed_timeout.unwrap_or_else(|| self.rtt.rto())
    }

    fn next(&self) -> u64 {
        self.base + self.window.len() as u64
    }

    fn in_flight(&self) -> u32 {
        self.window.iter().filter(|o| !o.acked).count() as u32
    }

    fn fill_window(&mut self, ctx: &mut Ctx) {
        while self.window.len() < self.cfg.window_pkts as usize {
            let n = self.next();
            let (_, len) = packet_range(n, self.cfg.mss, self.cfg.bytes);
            if len == 0 {
                break;
            }
            let deadline = ctx.now + self.rto();
            self.window.push_back(Outstanding {
                first_sent: ctx.now,
                last_sent: ctx.now,
                resent: false,
                acked: false,
                deadline,
            });
            self.transmit(ctx, n);
            if !self.timer.is_armed() {
                self.timer.arm(ctx, deadline);
            }
        }
        self.stats.max_inflight = self.stats.max_inflight.max(self.in_flight());
    }

    fn transmit(&mut self, ctx: &mut Ctx, n: u64) {
        let o = self.window[(n - self.base) as usize];
        let (start, len) = packet_range(n, self.cfg.mss, self.cfg.bytes);
        let digest = self.content.digest(start, len);
        let body = Body::ArqData { n, len, digest, first_sent: o.first_sent, ts: ctx.now };
        ctx.send(Packet {
            flow: self.flow,
            dst_node: self.peer_node,
            dst_agent: self.peer_agent,
            size: ARQ_HEADER_BYTES + len,
            body,
        });
        self.stats.sent_pkts += 1;
    }

    fn resend(&mut self, ctx: &mut Ctx, n: u64) {
        let rto = self.rto();
        let o = &mut self.window[(n - self.base) as usize];
        o.last_sent = ctx.now;
        o.resent = true;
        o.deadline = ctx.now + rto;
        self.transmit(ctx, n);
        self.stats.retransmissions += 1;
    }

    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: Packet) {
        let Body::ArqAck { cum, sel } = pkt.body else { return };
        let cum = cum.min(self.next());
        // Karn: the RTT of the packet this ACK answers, if it was sent once. Go-back-N's
        // cumulative ACK answers the packet just below it.
        let answered = match self.cfg.mode {
            ArqMode::SelectiveRepeat => sel,
            ArqMode::StopAndWait | ArqMode::GoBackN => cum.checked_sub(1),
        };
        if let Some(n) = answered.filter(|&n| n >= self.base && n < self.next()) {
            let o = self.window[(n - self.base) as usize];
            if !o.resent && !o.acked {
                self.rtt.sample(ctx.now - o.last_sent, Flight { una: self.base, nxt: self.next() });
            }
        }
        if let Some(n) = sel.filter(|&n| n >= self.base && n < self.next()) {
            self.window[(n - self.base) as usize].acked = true;
        }
        let mut advanced = false;
        while let Some(front) = self.window.front() {
            if self.base >= cum && !front.acked {
                break;
            }
            let (_, len) = packet_range(self.base, self.cfg.mss, self.cfg.bytes);
            self.acked_bytes += len as u64;
            self.window.pop_front();
            self.base += 1;
            advanced = true;
        }
        if advanced && self.cfg.mode != ArqMode::SelectiveRepeat {
            if self.window.is_empty() {
                self.timer.stop();
            } else {
                self.timer.arm(ctx, ctx.now + self.rto());
            }
        }
        self.fill_window(ctx);
        if self.window.is_empty() {
            self.timer.stop();
        }
        self.record(ctx.now);
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx, token: u64) {
        if !self.timer.on_event(ctx, token) {
            return;
        }
        match self.cfg.mode {
            ArqMode::StopAndWait | ArqMode::GoBackN => {
                if self.window.is_empty() {
                    return;
                }
                self.stats.timeouts += 1;
                self.back_off();
                for n in self.base..self.next() {
                    self.resend(ctx, n);
                }
                self.timer.arm(ctx, ctx.now + self.rto());
            }
            ArqMode::SelectiveRepeat => {
                let now = ctx.now;
                let expired: Vec<u64> = (self.base..self.next())
                    .filter(|&n| {
                        let o = &self.window[(n - self.base) as usize];
                        !o.acked && o.deadline <= now
                    })
                    .collect();
                if !expired.is_empty() {
                    self.stats.timeouts += 1;
                    // Each packet has its own deadline, so expiries come one after the other: the
                    // timeout doubles only when the oldest packet's expires (as TCP's one timer,
                    // on the oldest, doubles it), not once per packet.
                    if expired[0] == self.base {
                        self.back_off();
                    }
                    for n in expired {
                        self.resend(ctx, n);
                    }
                }
                if let Some(next) = self.window.iter().filter(|o| !o.acked).map(|o| o.deadline).min() {
                    self.timer.arm(ctx, next);
                }
            }
        }
        self.record(ctx.now);
    }

    fn back_off(&mut self) {
        if self.cfg.fixed_timeout.is_none() {
            self.rtt.backoff += 1;
        }
    }

    fn record(&mut self, now: SimTime) {
        let ms = |d: Option<SimDuration>| d.map_or(0.0, SimDuration::as_millis_f64);
        let vals = [
            self.cfg.window_pkts as f64,
            ms(self.rtt.srtt()),
            ms(self.rtt.latest),
            self.acked_bytes as f64,
            self.in_flight() as f64,
            self.stats.retransmissions as f64,
            self.rto().as_millis_f64(),
        ];
        self.trace.record(now, vals);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arq::receiver::ArqReceiver;
    use crate::simulation::testing::{arq_pair, Pair, TestLink};

    fn secs(s: u64) -> SimTime {
        SimTime(SimDuration::from_millis(s * 1000).0)
    }

    /// 20 packets of 1000 bytes over 10 Mbit/s, 20 ms each way, losing the forward packets
    /// `drops`; run to the end.
    fn run(mode: ArqMode, window: u32, drops: &[u64]) -> Pair {
        let mut pair = arq_pair(mode, window, Some(20_000), TestLink::new(10.0, 20).dropping(drops), secs(30));
        pair.run();
        pair
    }

    fn completed(pair: &Pair) -> bool {
        let r: &ArqReceiver = pair.b();
        r.delivery.error.is_none() && r.delivery.delivered == 20_000 && r.delivery.completed_at.is_some()
    }

    #[test]
    fn selective_repeat_resends_only_the_lost_packet_when_its_timer_expires() {
        let pair = run(ArqMode::SelectiveRepeat, 8, &[3]);
        let s: &ArqSender = pair.a();
        assert_eq!((s.stats.retransmissions, s.stats.timeouts), (1, 1));
        assert_eq!(s.stats.sent_pkts, 21);
        assert!(completed(&pair));
    }

    #[test]
    fn go_back_n_resends_the_whole_window_after_a_loss() {
        let pair = run(ArqMode::GoBackN, 8, &[3]);
        let s: &ArqSender = pair.a();
        // Packets 0-2 were acknowledged and freed room for 8-10: the window at the timeout is
        // packets 3-10, and all eight go again.
        assert_eq!((s.stats.retransmissions, s.stats.timeouts), (8, 1));
        let r: &ArqReceiver = pair.b();
        assert_eq!(r.discarded_pkts, 7, "packets 4-10 arrived out of order");
        assert!(completed(&pair));
    }

    #[test]
    fn stop_and_wait_sends_a_lost_packet_again_after_the_initial_timeout() {
        let pair = run(ArqMode::StopAndWait, 1, &[0]);
        let s: &ArqSender = pair.a();
        assert_eq!((s.stats.retransmissions, s.stats.timeouts, s.stats.max_inflight), (1, 1, 1));
        // Nothing arrives before the first RTO (RFC 6298 §2.1: 1 s) sends packet 0 again.
        let r: &ArqReceiver = pair.b();
        let first_bin = r.delivery.log.goodput_bins.iter().position(|&b| b > 0);
        assert_eq!(first_bin, Some(10), "the first bytes arrive in the bin of 1.0-1.1 s");
        assert!(completed(&pair));
    }

    #[test]
    fn without_loss_nothing_is_sent_twice_and_the_window_bounds_what_is_in_flight() {
        let pair = run(ArqMode::GoBackN, 4, &[]);
        let s: &ArqSender = pair.a();
        assert_eq!((s.stats.sent_pkts, s.stats.retransmissions, s.stats.timeouts), (20, 0, 0));
        assert_eq!(s.stats.max_inflight, 4);
        assert!(completed(&pair));
    }
}
