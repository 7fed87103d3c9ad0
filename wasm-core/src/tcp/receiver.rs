//! The TCP receiver: reassembles the byte stream, checks every delivered byte range against the
//! content generated from the seed, and acknowledges with SACK blocks (RFC 2018).
//!
//! ACK policy: every segment is acknowledged at once by default. With delayed ACKs (RFC 1122 /
//! RFC 5681 §4.2) an in-order segment is acknowledged with the next one or when the timer
//! expires; out-of-order segments and segments that fill a hole are always acknowledged at once.
//!
//! A segment that brings nothing new is counted (`duplicate_segments`: what the sender
//! retransmitted spuriously) and reported back in a D-SACK block (RFC 2883). Every ACK carries
//! the advertised window: a fixed one, Linux's autotuned one (see `autotune.rs`), or none.

use super::autotune::RcvWindow;
use crate::content::Content;
use crate::delivery::Delivery;
use crate::engine::Ctx;
use crate::metrics::{DeliveryLog, Trace};
use crate::net::packet::TCP_IP_HEADER_BYTES;
use crate::net::{AgentId, Body, NodeId, Packet, SackBlocks};
use crate::sim::{SimDuration, SimTime};
use std::collections::VecDeque;

/// What the receiver advertises as its window.
#[derive(Clone, Debug)]
pub enum WindowPolicy {
    /// Never limits the sender.
    Unlimited,
    /// A fixed window, in bytes (a host with autotuning off and a set buffer).
    Fixed(u64),
    /// Linux receive-buffer autotuning.
    Autotune(RcvWindow),
}

impl WindowPolicy {
    fn window(&self) -> u64 {
        match self {
            WindowPolicy::Unlimited => u64::MAX,
            WindowPolicy::Fixed(w) => *w,
            WindowPolicy::Autotune(a) => a.window(),
        }
    }
}

#[derive(Clone, Copy)]
struct OutOfOrder {
    seq: u64,
    len: u32,
    digest: u64,
    first_sent: SimTime,
}

/// What a TCP receiver is built from.
pub struct TcpReceiverConfig {
    pub flow: u32,
    /// Where the ACKs go: the sender's node and agent (`TcpReceiver::set_peer` can set them
    /// later, once the sender exists).
    pub peer_node: NodeId,
    pub peer_agent: AgentId,
    pub content: Content,
    /// The flow's size; `None` for a flow that never ends.
    pub expected_bytes: Option<u64>,
    /// The delayed-ACK timer; `None` acknowledges every segment at once.
    pub delayed_ack: Option<SimDuration>,
    pub owd_trace: Trace<1>,
    /// The width of a goodput bin.
    pub bin_width: SimDuration,
}

pub struct TcpReceiver {
    pub flow: u32,
    peer_node: NodeId,
    peer_agent: AgentId,
    content: Content,
    rcv_nxt: u64,
    /// Out-of-order segments, sorted by seq: (seq, len, digest, first_sent). Segments mostly
    /// arrive above all the others and leave from the front, which a deque does without a
    /// tree's allocations.
    ooo: VecDeque<OutOfOrder>,
    /// The same, merged into byte ranges, sorted.
    ranges: Vec<(u64, u64)>,
    /// Start of the most recently received out-of-order segments, newest first.
    recent: [Option<u64>; 3],
    delayed_ack: Option<SimDuration>,
    unacked_segments: u32,
    delack_token: u64,
    /// The `ns3` profile: the delayed-ACK timer lets a segment of the same instant in first.
    delack_yields: bool,
    /// The pending delayed-ACK timer has already let the instant's other events go first.
    delack_yielded: bool,
    /// Data segments that arrived carrying only bytes the receiver already had.
    pub duplicate_segments: u64,
    /// Data segments that arrived, duplicates included.
    pub segments_received: u64,
    window: WindowPolicy,
    /// A D-SACK block for the next ACK.
    dsack: Option<(u64, u64)>,
    /// RFC 7323 §4.3 TS.Recent (echoed in every ACK) and Last.ACK.sent.
    ts_recent: SimTime,
    last_ack_sent: u64,
    pub delivery: Delivery,
}

impl TcpReceiver {
    pub fn new(cfg: TcpReceiverConfig) -> TcpReceiver {
        let TcpReceiverConfig {
            flow,
            peer_node,
            peer_agent,
            content,
            expected_bytes,
            delayed_ack,
            owd_trace,
            bin_width,
        } = cfg;
        TcpReceiver {
            flow,
            peer_node,
            peer_agent,
            content,
            rcv_nxt: 0,
            ooo: VecDeque::new(),
            ranges: Vec::new(),
            recent: [None; 3],
            delayed_ack,
            unacked_segments: 0,
            delack_token: 0,
            delack_yields: false,
            delack_yielded: false,
            duplicate_segments: 0,
            segments_received: 0,
            window: WindowPolicy::Unlimited,
            dsack: None,
            ts_recent: SimTime::ZERO,
            last_ack_sent: 0,
            delivery: Delivery::new(flow, expected_bytes, DeliveryLog::new(owd_trace, bin_width)),
        }
    }

    pub fn with_window(mut self, window: WindowPolicy) -> TcpReceiver {
        self.window = window;
        self
    }

    /// ns-3's receiver acknowledges the first data segment at once, delayed ACKs or not
    /// (`TcpSocketBase::ProcessSynRcvd` sets `m_delAckCount = m_delAckMaxCount` when the
    /// handshake completes, "to speed up the connection"): from then on each delayed ACK covers
    /// an even-numbered segment (counting from 1) and the odd one after it, and the last segment
    /// of an even-sized burst waits for the timer.
    pub fn acking_the_first_segment_at_once(mut self) -> TcpReceiver {
        self.unacked_segments = 1;
        self
    }

    /// ns-3 takes a segment that arrives at the very instant the delayed-ACK timer expires before
    /// the timer, so the ACK covers it: ns-3 schedules a packet's reception when the last hop
    /// starts sending it, on a hop longer than the timeout before the timer was set, and runs
    /// the events of one instant in the order they were scheduled, where orbitcp schedules a
    /// link's next arrival only once the one before it is handled. The timer then lets the
    /// instant's other events go first. With one segment sent per delayed ACK the next segment
    /// arrives exactly one timeout after the last (traced at RTT 800 ms, 1 %, run 5, 6.82 s).
    pub fn yielding_the_delayed_ack_timer_to_a_segment_of_the_same_instant(mut self) -> TcpReceiver {
        self.delack_yields = true;
        self
    }

    /// The window currently advertised, in bytes (`u64::MAX`: unlimited).
    pub fn advertised_window(&self) -> u64 {
        self.window.window()
    }

    /// The peer agent (the sender) this receiver acknowledges to. Set after both exist.
    pub fn set_peer(&mut self, node: NodeId, agent: AgentId) {
        self.peer_node = node;
        self.peer_agent = agent;
    }

    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: Packet) {
        let (seq, len, digest, first_sent, ts, ts_echo) = match pkt.body {
            Body::TcpData { seq, len, digest, first_sent, ts, ts_echo } => (seq, len, digest, first_sent, ts, ts_echo),
            Body::TcpSyn { ts } => {
                let wnd = self.window.window();
                ctx.send(Packet::syn_ack(self.flow, self.peer_node, self.peer_agent, ts, wnd));
                return;
            }
            _ => return,
        };
        self.segments_received += 1;
        // RFC 7323 §4.3 (Linux `tcp_replace_ts_recent`): only a segment at or below the last ACK
        // sent updates TS.Recent, so an out-of-order segment is not echoed, and the ACK of a
        // hole's retransmission echoes the retransmission, of a late original the original.
        if ts >= self.ts_recent && seq <= self.last_ack_sent {
            self.ts_recent = ts;
        }
        if let WindowPolicy::Autotune(a) = &mut self.window {
            if ts_echo > SimTime::ZERO {
                a.rtt_sample(ctx.now - ts_echo);
            }
        }
        let end = seq + len as u64;
        if end <= self.rcv_nxt || self.ooo_position(seq).is_ok() {
            // A spurious retransmission: tell the sender where we are, and that it was one.
            self.duplicate_segments += 1;
            self.dsack = Some((seq, end));
            self.send_ack(ctx);
            return;
        }
        if seq < self.rcv_nxt {
            self.fail(format!("segment [{seq}, {end}) overlaps data already delivered up to {}", self.rcv_nxt));
            return;
        }
        if seq > self.rcv_nxt {
            if let Err(i) = self.ooo_position(seq) {
                self.ooo.insert(i, OutOfOrder { seq, len, digest, first_sent });
                self.delivery.arrived(ctx.now, first_sent);
                self.add_range(seq, end);
                if let WindowPolicy::Autotune(a) = &mut self.window {
                    a.on_out_of_order_segment();
                }
            }
            self.recent = [Some(seq), self.recent[0], self.recent[1]];
            self.send_ack(ctx);
            return;
        }
        if let WindowPolicy::Autotune(a) = &mut self.window {
            a.on_segment();
        }
        let filled_hole = !self.ooo.is_empty();
        self.delivery.arrived(ctx.now, first_sent);
        self.deliver(ctx.now, seq, len, digest, first_sent);
        while let Some(&OutOfOrder { seq, len, digest, first_sent }) = self.ooo.front() {
            if seq != self.rcv_nxt {
                break;
            }
            self.ooo.pop_front();
            self.deliver(ctx.now, seq, len, digest, first_sent);
        }
        // Ranges are sorted and disjoint, so their ends ascend: the delivered ones are a prefix.
        let delivered = self.ranges.partition_point(|&(_, e)| e <= self.rcv_nxt);
        self.ranges.drain(..delivered);
        if let WindowPolicy::Autotune(a) = &mut self.window {
            a.on_read(ctx.now, self.delivery.delivered);
        }
        match self.delayed_ack {
            Some(timeout) if !filled_hole => {
                self.unacked_segments += 1;
                if self.unacked_segments >= 2 {
                    self.send_ack(ctx);
                } else {
                    self.delack_token += 1;
                    self.delack_yielded = false;
                    ctx.timer_at(ctx.now + timeout, self.delack_token);
                }
            }
            _ => self.send_ack(ctx),
        }
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx, token: u64) {
        if token == self.delack_token && self.unacked_segments > 0 {
            if self.delack_yields && !self.delack_yielded {
                self.delack_yielded = true;
                self.delack_token += 1;
                ctx.timer_at(ctx.now, self.delack_token);
                return;
            }
            self.send_ack(ctx);
        }
    }

    fn fail(&mut self, msg: String) {
        self.delivery.fail(msg);
    }

    fn deliver(&mut self, now: SimTime, seq: u64, len: u32, digest: u64, first_sent: SimTime) {
        if seq != self.rcv_nxt {
            self.fail(format!("delivery at byte {seq} while the stream is at {}", self.rcv_nxt));
            return;
        }
        if digest != self.content.digest(seq, len) {
            self.fail(format!("bytes [{seq}, {}) differ from what the sender sent", seq + len as u64));
        }
        self.rcv_nxt += len as u64;
        self.delivery.deliver(now, first_sent, len as u64);
    }

    /// Where `seq` is among the out-of-order segments (`Ok`), or would go (`Err`).
    fn ooo_position(&self, seq: u64) -> Result<usize, usize> {
        match self.ooo.back() {
            // The common case: above everything held (or nothing held).
            None => Err(0),
            Some(last) if last.seq < seq => Err(self.ooo.len()),
            _ => self.ooo.binary_search_by_key(&seq, |o| o.seq),
        }
    }

    fn add_range(&mut self, start: u64, end: u64) {
        let i = self.ranges.partition_point(|&(_, e)| e < start);
        let mut s = start;
        let mut e = end;
        let mut j = i;
        while j < self.ranges.len() && self.ranges[j].0 <= e {
            s = s.min(self.ranges[j].0);
            e = e.max(self.ranges[j].1);
            j += 1;
        }
        self.ranges.splice(i..j, [(s, e)]);
    }

    fn sack_blocks(&self, room: usize) -> SackBlocks {
        let mut blocks = SackBlocks::default();
        for &seq in self.recent.iter().flatten() {
            // Ranges are sorted and disjoint: the first one ending after `seq` is the candidate.
            let i = self.ranges.partition_point(|&(_, e)| e <= seq);
            if let Some(&r) = self.ranges.get(i).filter(|&&(s, _)| s <= seq) {
                if !blocks.iter().any(|b| b == r) && (blocks.len as usize) < room {
                    blocks.push(r);
                }
            }
        }
        // Fill the rest with the highest ranges not reported yet.
        for &r in self.ranges.iter().rev() {
            if blocks.len as usize >= room {
                break;
            }
            if !blocks.iter().any(|b| b == r) {
                blocks.push(r);
            }
        }
        blocks
    }

    fn send_ack(&mut self, ctx: &mut Ctx) {
        self.unacked_segments = 0;
        self.last_ack_sent = self.rcv_nxt;
        // RFC 2883: the D-SACK block goes first and takes one of the three places.
        let dsack = self.dsack.take();
        let sack = self.sack_blocks(3 - dsack.is_some() as usize);
        let blocks = sack.len as u32 + dsack.is_some() as u32;
        ctx.send(Packet {
            flow: self.flow,
            dst_node: self.peer_node,
            dst_agent: self.peer_agent,
            size: TCP_IP_HEADER_BYTES + SackBlocks::option_bytes(blocks),
            body: Body::TcpAck {
                ack: self.rcv_nxt,
                sack,
                dsack,
                wnd: self.window.window(),
                ts: ctx.now,
                ts_echo: self.ts_recent,
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rto::RtoFlavor;
    use crate::simulation::testing::{Pair, TestLink};
    use crate::simulation::Agent;
    use crate::tcp::congestion::{CcKind, CcOptions};
    use crate::tcp::sender::{LossDetection, Recovery, TcpConfig, TcpSender};

    const MSS: u32 = 1448;

    /// A NewReno sender of ten segments (its initial window) to a receiver with 200 ms delayed
    /// ACKs, over 10 Mbit/s and 100 ms each way; `ns3` gives the receiver ns-3's first ACK.
    fn ten_segments(ns3: bool) -> Pair {
        let content = Content::new(7, 0);
        let cfg = TcpConfig {
            cc: CcKind::Reno,
            cc_options: CcOptions::default(),
            mss: MSS,
            initial_cwnd: 10,
            initial_ssthresh: None,
            sack: true,
            rto_flavor: RtoFlavor::Rfc6298,
            rto_min: SimDuration::from_millis(1000),
            rto_max: SimDuration::from_millis(60_000),
            recovery: Recovery::Prr,
            loss_detection: LossDetection::Dupack,
            per_ack_growth: true,
            bytes: Some(10 * MSS as u64),
            audit: true,
            seed: 1,
            frto: false,
            undo: false,
            ns3_rules: true,
        };
        let (a, b) = (Pair::A, Pair::B);
        let sender = TcpSender::new(cfg, 0, b.0, b.1, content, Trace::new(2));
        let receiver = TcpReceiver::new(TcpReceiverConfig {
            flow: 0,
            peer_node: a.0,
            peer_agent: a.1,
            content,
            expected_bytes: Some(10 * MSS as u64),
            delayed_ack: Some(SimDuration::from_millis(200)),
            owd_trace: Trace::new(2),
            bin_width: SimDuration::from_millis(100),
        });
        let receiver = if ns3 {
            receiver
                .acking_the_first_segment_at_once()
                .yielding_the_delayed_ack_timer_to_a_segment_of_the_same_instant()
        } else {
            receiver
        };
        let end = SimTime::from_millis(2000);
        Pair::new(
            TestLink::new(10.0, 100),
            Agent::TcpSender(Box::new(sender)),
            Agent::TcpReceiver(Box::new(receiver)),
            end,
        )
    }

    /// What the receiver had acknowledged, in segments, once the ten segments (sent at 200 ms,
    /// after the handshake, 1.2 ms apart) had all arrived, and 200 ms later.
    fn acked_after_the_burst_and_after_the_timer(ns3: bool) -> (u64, u64) {
        let mut pair = ten_segments(ns3);
        pair.run_until(SimTime::from_millis(330));
        let burst = pair.b::<TcpReceiver>().last_ack_sent / MSS as u64;
        pair.run_until(SimTime::from_millis(540));
        (burst, pair.b::<TcpReceiver>().last_ack_sent / MSS as u64)
    }

    #[test]
    fn ns3_acks_the_first_segment_at_once_so_the_last_of_an_even_burst_waits_for_the_timer() {
        // ns-3: 1, then (2, 3) ... (8, 9); the tenth waits for the 200 ms timer.
        assert_eq!(acked_after_the_burst_and_after_the_timer(true), (9, 10));
        // Pairs from the first segment: (1, 2) ... (9, 10), nothing left for the timer.
        assert_eq!(acked_after_the_burst_and_after_the_timer(false), (10, 10));
    }

    /// What the receiver had acknowledged (in segments) at the instant its delayed-ACK timer for
    /// one segment expires and the next segment arrives, the timer's event coming first.
    fn acked_at_a_tie_of_timer_and_segment(ns3: bool) -> u64 {
        use crate::engine::Event;
        use crate::sim::EventQueue;
        let content = Content::new(7, 0);
        let receiver = TcpReceiver::new(TcpReceiverConfig {
            flow: 0,
            peer_node: 0,
            peer_agent: 0,
            content,
            expected_bytes: None,
            delayed_ack: Some(SimDuration::from_millis(200)),
            owd_trace: Trace::new(2),
            bin_width: SimDuration::from_millis(100),
        })
        .acking_the_first_segment_at_once();
        let mut rx =
            if ns3 { receiver.yielding_the_delayed_ack_timer_to_a_segment_of_the_same_instant() } else { receiver };
        let mut net = crate::simulation::testing::chain(&[TestLink::new(10.0, 100)]);
        let mut queue = EventQueue::new();
        let data = |s: u64, now: SimTime| Packet {
            flow: 0,
            dst_node: 1,
            dst_agent: 0,
            size: MSS + TCP_IP_HEADER_BYTES,
            body: Body::TcpData {
                seq: s * MSS as u64,
                len: MSS,
                digest: content.digest(s * MSS as u64, MSS),
                first_sent: now,
                ts: now,
                ts_echo: SimTime::ZERO,
            },
        };
        let (t0, t1) = (SimTime::from_millis(10), SimTime::from_millis(210));
        // Segment 0 is acknowledged at once; segment 1 sets the timer for 210 ms.
        rx.on_packet(&mut Ctx::new(SimTime::ZERO, 1, 0, &mut net, &mut queue), data(0, SimTime::ZERO));
        rx.on_packet(&mut Ctx::new(t0, 1, 0, &mut net, &mut queue), data(1, t0));
        let timers = |queue: &mut EventQueue<Event>| {
            std::iter::from_fn(|| queue.pop())
                .filter_map(|(t, ev)| match ev {
                    Event::Timer { token, .. } => Some((t, token)),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        let [(at, token)] = timers(&mut queue)[..] else { panic!("one delayed-ACK timer") };
        assert_eq!(at, t1);
        rx.on_timer(&mut Ctx::new(t1, 1, 0, &mut net, &mut queue), token);
        // Segment 2 arrives at the same instant, after the timer's event.
        rx.on_packet(&mut Ctx::new(t1, 1, 0, &mut net, &mut queue), data(2, t1));
        for (at, token) in timers(&mut queue).into_iter().filter(|&(at, _)| at == t1) {
            rx.on_timer(&mut Ctx::new(at, 1, 0, &mut net, &mut queue), token);
        }
        rx.last_ack_sent / MSS as u64
    }

    #[test]
    fn ns3_takes_a_segment_arriving_as_the_delayed_ack_timer_expires_before_the_timer() {
        // ns-3: segment 2's reception was scheduled before the timer, so one ACK covers 1 and 2.
        assert_eq!(acked_at_a_tie_of_timer_and_segment(true), 3);
        // The timer first: it acknowledges segment 1 alone, and segment 2 waits for the next.
        assert_eq!(acked_at_a_tie_of_timer_and_segment(false), 2);
    }
}
