//! The ARQ receiver (docs/arq.md §3): it answers every data packet with an ACK.
//!
//! - Stop-and-wait and go-back-N take only the next packet in order; any other is dropped, and
//!   the ACK repeats the next packet expected.
//! - Selective repeat keeps a packet that arrives ahead of a gap (within the window), delivers
//!   in order once the gap is filled, and ACKs each packet by its number as well.
//!
//! Every delivered packet's digest is checked against the flow's seeded content at its offset:
//! a wrong, misplaced or surplus byte is a delivery error, never a silent number.

use super::{packet_range, ArqMode, ARQ_HEADER_BYTES};
use crate::content::Content;
use crate::delivery::Delivery;
use crate::engine::Ctx;
use crate::metrics::DeliveryLog;
use crate::net::{AgentId, Body, NodeId, Packet};
use crate::sim::SimTime;
use std::collections::VecDeque;

/// A packet held ahead of a gap (selective repeat).
#[derive(Clone, Copy, Debug)]
struct Held {
    len: u32,
    first_sent: SimTime,
}

/// What an ARQ receiver is built from, besides the log of what it delivers.
#[derive(Clone, Copy)]
pub struct ArqReceiverConfig {
    pub flow: u32,
    /// Where the ACKs go: the sender's node and agent.
    pub peer_node: NodeId,
    pub peer_agent: AgentId,
    pub content: Content,
    pub mode: ArqMode,
    /// Selective repeat holds packets up to this far ahead of the next one expected.
    pub window_pkts: u32,
    pub mss: u32,
    /// The flow's size; `None` for a flow that never ends.
    pub bytes: Option<u64>,
}

pub struct ArqReceiver {
    cfg: ArqReceiverConfig,
    /// The next packet to deliver in order.
    expected: u64,
    /// Selective repeat: packets `expected + 1 ..` that arrived, by their distance from `expected`.
    held: VecDeque<Option<Held>>,
    /// Data packets that brought nothing new: already delivered or held.
    pub duplicate_pkts: u64,
    /// Go-back-N and stop-and-wait: packets dropped for arriving out of order.
    pub discarded_pkts: u64,
    pub delivery: Delivery,
}

impl ArqReceiver {
    /// `log` takes each delivered packet's one-way delay and bytes.
    pub fn new(cfg: ArqReceiverConfig, log: DeliveryLog) -> ArqReceiver {
        ArqReceiver {
            cfg,
            expected: 0,
            held: VecDeque::new(),
            duplicate_pkts: 0,
            discarded_pkts: 0,
            delivery: Delivery::new(cfg.flow, cfg.bytes, log),
        }
    }

    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: Packet) {
        let Body::ArqData { n, len, digest, first_sent, .. } = pkt.body else { return };
        let (start, want_len) = packet_range(n, self.cfg.mss, self.cfg.bytes);
        if len != want_len || digest != self.cfg.content.digest(start, len) {
            self.delivery.fail(format!(
                "packet {n} carried {len} bytes that are not the flow's bytes {start}..{}",
                start + want_len as u64
            ));
            return;
        }
        let sel = match self.cfg.mode {
            ArqMode::StopAndWait | ArqMode::GoBackN => {
                if n == self.expected {
                    self.delivery.arrived(ctx.now, first_sent);
                    self.deliver(ctx.now, len, first_sent);
                } else if n < self.expected {
                    self.duplicate_pkts += 1;
                } else {
                    self.discarded_pkts += 1;
                }
                None
            }
            ArqMode::SelectiveRepeat => {
                self.hold(ctx.now, n, Held { len, first_sent });
                Some(n)
            }
        };
        ctx.send(Packet {
            flow: self.cfg.flow,
            dst_node: self.cfg.peer_node,
            dst_agent: self.cfg.peer_agent,
            size: ARQ_HEADER_BYTES,
            body: Body::ArqAck { cum: self.expected, sel },
        });
    }

    fn hold(&mut self, now: SimTime, n: u64, h: Held) {
        if n < self.expected {
            self.duplicate_pkts += 1;
            return;
        }
        let at = (n - self.expected) as usize;
        if at >= self.cfg.window_pkts as usize {
            // The sender never has more than a window outstanding: a packet beyond it is not
            // one this receiver can place.
            self.delivery.fail(format!(
                "packet {n} arrived beyond the window ({} from {})",
                self.cfg.window_pkts, self.expected
            ));
            return;
        }
        if self.held.len() <= at {
            self.held.resize(at + 1, None);
        }
        if self.held[at].is_some() {
            self.duplicate_pkts += 1;
            return;
        }
        self.held[at] = Some(h);
        self.delivery.arrived(now, h.first_sent);
        while let Some(Some(next)) = self.held.front().copied() {
            self.held.pop_front();
            self.deliver(now, next.len, next.first_sent);
        }
    }

    fn deliver(&mut self, now: SimTime, len: u32, first_sent: SimTime) {
        self.expected += 1;
        self.delivery.deliver(now, first_sent, len as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::EventQueue;
    use crate::simulation::testing::{arq_pair, chain, TestLink};
    use crate::simulation::Agent;

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    #[test]
    fn selective_repeat_holds_packets_past_a_gap_and_delivers_them_in_order_once_it_fills() {
        let link = TestLink::new(10.0, 20).dropping(&[3]);
        let mut pair = arq_pair(ArqMode::SelectiveRepeat, 8, Some(20_000), link, ms(30_000));
        // Before the timeout sends packet 3 again, packets 4-10 have arrived but wait.
        pair.run_until(ms(500));
        let r: &ArqReceiver = pair.b();
        assert_eq!(r.delivery.delivered, 3000);
        assert_eq!(r.held.iter().filter(|h| h.is_some()).count(), 7);
        pair.run();
        let r: &ArqReceiver = pair.b();
        assert_eq!((r.delivery.delivered, r.delivery.error.as_deref()), (20_000, None));
        assert_eq!(r.duplicate_pkts, 0);
    }

    #[test]
    fn every_byte_arrives_once_and_in_order_whatever_is_lost_either_way() {
        for mode in [ArqMode::StopAndWait, ArqMode::GoBackN, ArqMode::SelectiveRepeat] {
            // Data and ACKs lost, some twice in a row and some in bursts.
            let link = TestLink::new(10.0, 20).dropping(&[0, 1, 5, 6, 7, 30, 31, 64]).dropping_back(&[2, 3, 9, 40]);
            let mut pair = arq_pair(mode, 16, Some(100_000), link, ms(120_000));
            pair.run();
            let r: &ArqReceiver = pair.b();
            // The delivery checks each packet's bytes against the flow's content at its offset.
            assert_eq!(r.delivery.error, None, "{mode:?}");
            assert_eq!(r.delivery.delivered, 100_000, "{mode:?}");
            assert!(r.delivery.completed_at.is_some(), "{mode:?}");
        }
    }

    #[test]
    fn a_packet_with_the_wrong_bytes_is_a_delivery_error() {
        let link = TestLink::new(10.0, 20);
        let mut pair = arq_pair(ArqMode::GoBackN, 4, Some(10_000), link, ms(5_000));
        pair.run_until(ms(1));
        // A packet that claims the first 1000 bytes but carries the digest of others.
        let Agent::ArqReceiver(r) = &mut pair.sim.agents[1] else { unreachable!() };
        let wrong = r.cfg.content.digest(5000, 1000);
        let pkt = Packet {
            flow: 0,
            dst_node: 1,
            dst_agent: 1,
            size: 1040,
            body: Body::ArqData { n: 0, len: 1000, digest: wrong, first_sent: SimTime::ZERO, ts: SimTime::ZERO },
        };
        let (mut net, mut queue) = (chain(&[TestLink::new(10.0, 20)]), EventQueue::new());
        r.on_packet(&mut Ctx::new(ms(1), 1, 1, &mut net, &mut queue), pkt);
        assert!(r.delivery.error.is_some());
        assert_eq!(r.delivery.delivered, 0);
    }
}
