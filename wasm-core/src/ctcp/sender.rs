//! The CTCP sender (docs/ctcp.md §3.1, docs/ctcp.md §3.4, docs/ctcp.md §5; CTCP-code `send_segs`, `handle_ack`,
//! `timeout`).
//!
//! `win = cwnd − (snd_nxt − snd_una)`: because `snd_una` jumps to the highest acknowledged
//! seqno, a seqno skipped by an ACK is taken as lost and leaves the window; there is no
//! retransmission, only more coded packets. For each block in the window the sender sends the
//! smallest n with n(1 − p) + (1 − p)·in_flight ≥ dofs needed, p the loss estimate.
//!
//! Two choices of the reference code are options ([`Feedback`], [`Redundancy`]). Its ACK reports
//! the degrees of freedom of the lowest undecoded block only, so a later block that arrived short
//! is repaired only once every block before it has decoded: one round trip per short block, one
//! after the other, while the blocks behind wait (and, once `max_blocks` are outstanding, the
//! link idles). With per-block feedback each ACK also reports the acknowledged packet's block,
//! and every block is repaired as soon as its packets are accounted for.

use super::cc::{CcRules, CtcpCc, Increase, PathState};
use super::{block_seed, Layout, ACK_BYTES, DATA_OVERHEAD_BYTES};
use crate::coding::gf256::{default_field, Field};
use crate::coding::rlnc::{coefficients, Encoder};
use crate::content::Content;
use crate::engine::{Ctx, LazyTimer};
use crate::metrics::Trace;
use crate::net::{AgentId, Body, CtcpCoding, NodeId, Packet};
use crate::rtt::SmoothedRtt;
use crate::sim::{SimDuration, SimTime};
use std::collections::VecDeque;

const SLR_MEMORY: f64 = 1.0 / 128.0; // CTCP-code slr_mem
const DEADLINE_SRTT_FACTOR: f64 = 1.5; // CTCP-code: tx deadline = now + 1.5·srtt + RTO_BIAS
const RTO_BIAS: SimDuration = SimDuration::from_millis(10); // CTCP-code RTO_BIAS
const SRTT_GAIN: u64 = 6; // CTCP-code α = 1/⌊k/5⌋ for k = 32 (`crate::rtt`)
const RTO_MIN_DEVIATION: SimDuration = SimDuration::from_millis(200); // CTCP-code RTO_MIN: rto ≥ srtt + 200 ms
const INITIAL_RTO: SimDuration = SimDuration::from_millis(1000); // CTCP-code INIT_RTO
const MAX_RTO: SimDuration = SimDuration::from_millis(60_000);
/// The loss estimate never reaches 1: redundancy would be infinite.
const MAX_LOSS_ESTIMATE: f64 = 0.95;

/// What the ACKs tell the sender about blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feedback {
    /// The reference code: the lowest undecoded block and its dofs. Blocks after it get
    /// `⌈len/(1 − p)⌉` packets counted against everything ever sent for them, and are topped
    /// up only once they become the lowest (docs/ctcp.md §3.4).
    LowestBlock,
    /// Also the acknowledged packet's block and its dofs. Each block is sent in batches: a batch
    /// of `need/(1 − p)` packets, and the next one only once the last is accounted for
    /// (acknowledged or skipped by a later ACK; a timeout forgets everything in flight) and
    /// dofs are still missing.
    PerBlock,
}

/// How the packet count `need/(1 − p) − in_flight` is made a whole number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redundancy {
    /// Round up (the reference code's `while n(1−p) + … < need: n++`): at any p > 0 a block of
    /// 32 gets at least 33 packets, 3 % of redundancy for a loss estimate of 0.2 %.
    Ceil,
    /// Round to the nearest: the redundancy follows the estimate (32 packets up to p ≈ 1.5 %).
    Nearest,
}

#[derive(Clone, Debug)]
pub struct CtcpConfig {
    pub layout: Layout,
    pub max_blocks: u32,
    /// Carry real payload bytes (false: rank-only).
    pub payload: bool,
    pub initial_cwnd: u32,
    pub initial_ssthresh: u32,
    pub max_cwnd: u32,
    pub increase: Increase,
    pub rules: CcRules,
    pub feedback: Feedback,
    pub redundancy: Redundancy,
    pub loss_scaling: f64,
    pub run_seed: u64,
}

/// Columns of the CTCP sender trace: the TCP ones (so charts treat both alike), with
/// `retransmissions` counting coded packets, plus the loss estimate.
pub const CTCP_SENDER_TRACE_COLUMNS: [&str; 9] =
    ["cwnd", "ssthresh", "srtt_ms", "rtt_ms", "acked_bytes", "inflight", "retransmissions", "state", "loss_estimate"];

struct InFlight {
    seqno: u64,
    block: u64,
    deadline: SimTime,
    expired: bool,
}

#[derive(Default)]
struct BlockState {
    /// Packets sent for the block (the in-flight count of blocks without feedback yet).
    sent: u32,
    /// Sent, not acknowledged, not past their deadline.
    live: u32,
    /// Dofs the receiver reported for the block (per-block feedback; the most it reported).
    rank: u32,
    /// Packets of the current batch still to send (per-block feedback).
    batch_left: u32,
    next_systematic: u32,
    next_seed: u32,
    first_sent: Option<SimTime>,
    encoder: Option<Encoder>,
}

#[derive(Clone, Debug, Default)]
pub struct CtcpSenderStats {
    pub sent_pkts: u64,
    pub coded_pkts: u64,
    pub timeouts: u64,
}

pub struct CtcpSender {
    cfg: CtcpConfig,
    pub flow: u32,
    peer_node: NodeId,
    peer_agent: AgentId,
    content: Content,
    field: &'static Field,
    snd_nxt: u64,
    snd_una: u64,
    onfly: VecDeque<InFlight>,
    /// Blocks `curr_block ..`: index 0 is the oldest undecoded one.
    blocks: VecDeque<BlockState>,
    curr_block: u64,
    dof_req_latest: u32,
    pub cc: CtcpCc,
    pub slr: f64,
    slr_long: f64,
    rtt: SmoothedRtt,
    basertt: Option<SimDuration>,
    minrtt: Option<SimDuration>,
    cntrtt: u32,
    latest_rtt: Option<SimDuration>,
    backoff: u32,
    rto_timer: LazyTimer,
    coeffs: Vec<u8>,
    pub stats: CtcpSenderStats,
    pub trace: Trace<9>,
    pub established_at: Option<SimTime>,
    pub finished_at: Option<SimTime>,
}

impl CtcpSender {
    pub fn new(
        cfg: CtcpConfig,
        flow: u32,
        peer_node: NodeId,
        peer_agent: AgentId,
        content: Content,
        trace: Trace<9>,
    ) -> CtcpSender {
        let k = cfg.layout.k as usize;
        CtcpSender {
            cc: CtcpCc::new(
                cfg.initial_cwnd,
                cfg.initial_ssthresh,
                cfg.max_cwnd,
                cfg.increase,
                cfg.rules,
                SimTime::ZERO,
            ),
            dof_req_latest: cfg.layout.block_len(0),
            cfg,
            flow,
            peer_node,
            peer_agent,
            content,
            field: default_field(),
            snd_nxt: 0,
            snd_una: 0,
            onfly: VecDeque::new(),
            blocks: VecDeque::new(),
            curr_block: 0,
            slr: 0.0,
            slr_long: 0.05, // CTCP-code SLR_LONG_INIT
            rtt: SmoothedRtt::new(SRTT_GAIN),
            basertt: None,
            minrtt: None,
            cntrtt: 0,
            latest_rtt: None,
            backoff: 0,
            rto_timer: LazyTimer::default(),
            coeffs: vec![0; k],
            stats: CtcpSenderStats::default(),
            trace,
            established_at: None,
            finished_at: None,
        }
    }

    /// Wire size of a data packet.
    pub fn packet_bytes(&self) -> u32 {
        self.cfg.layout.symbol_len + DATA_OVERHEAD_BYTES
    }

    /// Blocks decoded by the receiver, as the sender knows from ACKs.
    pub fn blocks_done(&self) -> u64 {
        self.curr_block
    }

    fn rto(&self) -> SimDuration {
        let base = match self.rtt.srtt() {
            None => INITIAL_RTO,
            Some(s) => s + SimDuration(4 * self.rtt.rttvar().0).max(RTO_MIN_DEVIATION),
        };
        SimDuration(base.0.saturating_mul(1 << self.backoff.min(16))).min(MAX_RTO)
    }

    pub fn start(&mut self, ctx: &mut Ctx) {
        self.cc = CtcpCc::new(
            self.cfg.initial_cwnd,
            self.cfg.initial_ssthresh,
            self.cfg.max_cwnd,
            self.cfg.increase,
            self.cfg.rules,
            ctx.now,
        );
        self.send_syn(ctx);
    }

    fn send_syn(&mut self, ctx: &mut Ctx) {
        ctx.send(Packet::syn(self.flow, self.peer_node, self.peer_agent, ctx.now));
        self.arm_rto(ctx);
    }

    fn arm_rto(&mut self, ctx: &mut Ctx) {
        let deadline = ctx.now + self.rto();
        self.rto_timer.arm(ctx, deadline);
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx, token: u64) {
        if !self.rto_timer.on_event(ctx, token) {
            return;
        }
        self.backoff += 1;
        self.stats.timeouts += 1;
        if self.established_at.is_none() {
            self.send_syn(ctx);
            return;
        }
        // docs/ctcp.md §5: forget everything in flight, fall back to the long-memory loss estimate.
        self.slr = self.slr_long;
        self.cc.on_timeout(self.cfg.initial_cwnd, ctx.now);
        self.snd_una = self.snd_nxt;
        self.onfly.clear();
        for b in &mut self.blocks {
            b.live = 0;
            b.sent = 0;
            b.batch_left = 0;
        }
        self.record(ctx.now);
        self.send(ctx);
    }

    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: Packet) {
        match pkt.body {
            Body::TcpSynAck { ts_echo, .. } if self.established_at.is_none() => {
                self.established_at = Some(ctx.now);
                // The handshake's RTT starts srtt and the RTO, but not RTT_min: a 60-byte SYN is
                // serialised faster than a data packet, and on a slow link (below 6 Mbit/s for
                // 1500 bytes) every data packet would look 2 ms queued against it.
                self.rtt.sample(ctx.now - ts_echo);
                self.latest_rtt = self.rtt.srtt();
                self.backoff = 0;
                self.rto_timer.stop();
                self.record(ctx.now);
                self.send(ctx);
            }
            Body::CtcpAck { ackno, block, dofs, pkt_block, pkt_dofs, ts_echo } if self.established_at.is_some() => {
                if self.cfg.feedback == Feedback::PerBlock {
                    self.note_rank(block, dofs);
                    self.note_rank(pkt_block, pkt_dofs);
                }
                self.on_ack(ctx, ackno, block, dofs, ts_echo)
            }
            _ => {}
        }
    }

    /// Per-block feedback: the receiver holds `dofs` for `block`.
    fn note_rank(&mut self, block: u64, dofs: u16) {
        if let Some(b) = block.checked_sub(self.curr_block).and_then(|i| self.blocks.get_mut(i as usize)) {
            b.rank = b.rank.max(dofs as u32);
        }
    }

    /// An RTT sample from a data packet's ACK. RTT_min (`basertt`) is the lowest of these, "the
    /// lowest per-packet RTT observed during the lifetime of a connection" (the paper, §II.B).
    fn rtt_sample(&mut self, r: SimDuration) {
        self.latest_rtt = Some(r);
        self.rtt.sample(r);
        self.basertt = Some(self.basertt.map_or(r, |b| b.min(r)));
        self.minrtt = Some(self.minrtt.map_or(r, |m| m.min(r)));
        self.cntrtt += 1;
    }

    fn on_ack(&mut self, ctx: &mut Ctx, ackno: u64, block: u64, dofs: u16, ts_echo: SimTime) {
        let now = ctx.now;
        self.rtt_sample(now - ts_echo);
        self.backoff = 0;
        if ackno > self.snd_una {
            // docs/ctcp.md §5: the seqnos skipped since the last highest ACK were lost.
            let losses = ackno - (self.snd_una + 1);
            self.slr = loss_estimate_update(self.slr, losses, SLR_MEMORY);
            self.slr_long = loss_estimate_update(self.slr_long, losses, 1.0 / (10.0 * self.cfg.layout.k as f64));
            self.snd_una = ackno;
            while self.onfly.front().is_some_and(|f| f.seqno < ackno) {
                let f = self.onfly.pop_front().expect("checked");
                self.release(&f);
            }
            let path = PathState {
                srtt: self.rtt.srtt().unwrap_or_default(),
                basertt: self.basertt.unwrap_or_default(),
                minrtt: self.minrtt,
                cntrtt: self.cntrtt,
            };
            let before = self.cc.beg_snd_nxt_reached(self.snd_una);
            self.cc.on_ack(now, self.snd_una, self.snd_nxt, losses, &path);
            if before {
                self.minrtt = None;
                self.cntrtt = 0;
            }
        }
        // docs/ctcp.md §3.4 block completion: the receiver has decoded everything below `block`.
        if block > self.curr_block {
            let done = (block - self.curr_block).min(self.blocks.len() as u64) as usize;
            self.blocks.drain(..done);
            self.curr_block = block;
            self.dof_req_latest = self.cfg.layout.block_len(block).saturating_sub(dofs as u32);
        } else if block == self.curr_block {
            let need = self.cfg.layout.block_len(block).saturating_sub(dofs as u32);
            self.dof_req_latest = self.dof_req_latest.min(need);
        }
        if self.curr_block >= self.cfg.layout.total_blocks() {
            if self.finished_at.is_none() {
                self.finished_at = Some(now);
            }
            self.rto_timer.stop();
            self.record(now);
            return;
        }
        self.arm_rto(ctx);
        self.send(ctx);
        self.record(now);
    }

    fn release(&mut self, f: &InFlight) {
        if f.expired || f.block < self.curr_block {
            return;
        }
        if let Some(b) = self.blocks.get_mut((f.block - self.curr_block) as usize) {
            b.live = b.live.saturating_sub(1);
        }
    }

    /// docs/ctcp.md §3.4's per-send-opportunity algorithm.
    fn send(&mut self, ctx: &mut Ctx) {
        let now = ctx.now;
        // Packets past their deadline no longer count as in flight for the current block. With
        // per-block feedback every packet is accounted for by the ACK stream (acknowledged, or
        // skipped by a later ACK) or by a timeout: a deadline of 1.5 srtt would expire packets
        // that are only queued (a window's burst can queue longer than half an RTT) and resend
        // their whole blocks.
        let deadlines = if self.cfg.feedback == Feedback::LowestBlock { self.onfly.len() } else { 0 };
        for i in 0..deadlines {
            let f = &self.onfly[i];
            if f.deadline > now {
                break;
            }
            if !f.expired {
                let (block, cb) = (f.block, self.curr_block);
                self.onfly[i].expired = true;
                if block >= cb {
                    if let Some(b) = self.blocks.get_mut((block - cb) as usize) {
                        b.live = b.live.saturating_sub(1);
                    }
                }
            }
        }
        let mut win = (self.cc.cwnd as u64).saturating_sub(self.snd_nxt - self.snd_una);
        if win == 0 {
            return;
        }
        let p = (self.cfg.loss_scaling * self.slr).min(MAX_LOSS_ESTIMATE);
        let last = self.cfg.layout.total_blocks().min(self.curr_block + self.cfg.max_blocks as u64);
        let mut b = self.curr_block;
        while b < last && win > 0 {
            let idx = (b - self.curr_block) as usize;
            while self.blocks.len() <= idx {
                self.blocks.push_back(BlockState::default());
            }
            let len = self.cfg.layout.block_len(b);
            let n = match self.cfg.feedback {
                Feedback::LowestBlock => {
                    let (need, in_flight) = if idx == 0 {
                        (self.dof_req_latest, self.blocks[0].live)
                    } else {
                        (len, self.blocks[idx].sent)
                    };
                    packets_needed(need, in_flight, p, self.cfg.redundancy)
                }
                Feedback::PerBlock => {
                    let st = &mut self.blocks[idx];
                    let need = len.saturating_sub(st.rank);
                    if st.batch_left == 0 && st.live == 0 && need > 0 {
                        st.batch_left = packets_needed(need, 0, p, self.cfg.redundancy).max(1) as u32;
                    }
                    st.batch_left as u64
                }
            }
            .min(win);
            if self.cfg.feedback == Feedback::PerBlock {
                self.blocks[idx].batch_left -= n as u32;
            }
            for _ in 0..n {
                self.send_packet(ctx, b, idx);
            }
            win -= n;
            b += 1;
        }
    }

    fn send_packet(&mut self, ctx: &mut Ctx, b: u64, idx: usize) {
        let now = ctx.now;
        let layout = self.cfg.layout;
        let len = layout.block_len(b);
        let st = &mut self.blocks[idx];
        let first = *st.first_sent.get_or_insert(now);
        let coding = if st.next_systematic < len {
            st.next_systematic += 1;
            CtcpCoding::Systematic((st.next_systematic - 1) as u16)
        } else {
            st.next_seed += 1;
            CtcpCoding::Coded(st.next_seed - 1)
        };
        st.sent += 1;
        st.live += 1;
        let payload = if self.cfg.payload { Some(self.payload(b, idx, coding)) } else { None };
        if matches!(coding, CtcpCoding::Coded(_)) {
            self.stats.coded_pkts += 1;
        }
        self.stats.sent_pkts += 1;
        let seqno = self.snd_nxt;
        self.snd_nxt += 1;
        let srtt = self.rtt.srtt().unwrap_or(INITIAL_RTO);
        self.onfly.push_back(InFlight {
            seqno,
            block: b,
            deadline: now + srtt.mul_f64(DEADLINE_SRTT_FACTOR) + RTO_BIAS,
            expired: false,
        });
        ctx.send(Packet {
            flow: self.flow,
            dst_node: self.peer_node,
            dst_agent: self.peer_agent,
            size: layout.symbol_len + DATA_OVERHEAD_BYTES,
            body: Body::CtcpData { seqno, block: b, coding, ts: now, block_first_sent: first, payload },
        });
        if !self.rto_timer.is_armed() {
            self.arm_rto(ctx);
        }
    }

    /// The payload bytes of a packet: a source packet, or a combination of the block's.
    fn payload(&mut self, b: u64, idx: usize, coding: CtcpCoding) -> Box<[u8]> {
        let layout = self.cfg.layout;
        let len = layout.block_len(b) as usize;
        let sym = layout.symbol_len as usize;
        let (field, content) = (self.field, self.content);
        let st = &mut self.blocks[idx];
        let enc = st.encoder.get_or_insert_with(|| {
            let mut e = Encoder::new(field, len, sym);
            let mut buf = vec![0u8; sym];
            for i in 0..len as u32 {
                let (offset, n) = layout.packet_range(b, i);
                content.fill(offset, &mut buf[..n as usize]);
                e.set_source(i as usize, &buf[..n as usize]);
            }
            e
        });
        match coding {
            CtcpCoding::Systematic(i) => enc.source(i as usize).to_vec().into_boxed_slice(),
            CtcpCoding::Coded(seed) => {
                coefficients(block_seed(self.cfg.run_seed, self.flow, b), seed, len, &mut self.coeffs[..len]);
                let mut out = vec![0u8; sym];
                enc.encode(&self.coeffs[..len], &mut out);
                out.into_boxed_slice()
            }
        }
    }

    fn record(&mut self, now: SimTime) {
        let ms = |d: Option<SimDuration>| d.map_or(f64::NAN, |d| d.as_millis_f64());
        let acked = (self.curr_block * self.cfg.layout.k as u64 * self.cfg.layout.symbol_len as u64)
            .min(self.cfg.layout.bytes.unwrap_or(u64::MAX));
        let v = [
            self.cc.cwnd as f64,
            self.cc.ssthresh as f64,
            ms(self.rtt.srtt()),
            ms(self.latest_rtt),
            acked as f64,
            (self.snd_nxt - self.snd_una) as f64,
            self.stats.coded_pkts as f64,
            if self.cc.in_slow_start() { 0.0 } else { 1.0 },
            self.slr,
        ];
        self.trace.record(now, v);
    }
}

/// docs/ctcp.md §3.4: the smallest n ≥ 0 with n(1 − p) + (1 − p)·in_flight ≥ need (`Ceil`), or the n nearest
/// to need/(1 − p) − in_flight (`Nearest`).
pub fn packets_needed(need: u32, in_flight: u32, p: f64, redundancy: Redundancy) -> u64 {
    let x = need as f64 / (1.0 - p) - in_flight as f64;
    match redundancy {
        // The 1e-9 keeps exact quotients (32 / 0.8 = 40) from rounding up to the next packet.
        Redundancy::Ceil => (x - 1e-9).ceil().max(0.0) as u64,
        Redundancy::Nearest => x.round().max(0.0) as u64,
    }
}

/// docs/ctcp.md §5: an ACK after `losses` skipped seqnos feeds `losses` ones and one zero to an EWMA of
/// memory `mu`.
pub fn loss_estimate_update(slr: f64, losses: u64, mu: f64) -> f64 {
    let keep = (1.0 - mu).powi(losses.min(i32::MAX as u64) as i32);
    keep * (1.0 - mu) * slr + (1.0 - keep)
}

/// Wire size of a CTCP ACK, for the receiver.
pub const CTCP_ACK_BYTES: u32 = ACK_BYTES;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Rng, Stream};

    #[test]
    fn a_fresh_block_gets_k_over_one_minus_p_packets() {
        // docs/ctcp.md §9: k = 32, p = 0.1 ⇒ 36; p = 0.2 ⇒ 40; p = 0 ⇒ exactly k.
        let c = Redundancy::Ceil;
        assert_eq!(packets_needed(32, 0, 0.1, c), 36);
        assert_eq!(packets_needed(32, 0, 0.2, c), 40);
        assert_eq!(packets_needed(32, 0, 0.0, c), 32);
        // What is in flight counts towards the need.
        assert_eq!(packets_needed(32, 30, 0.0, c), 2);
        assert_eq!(packets_needed(5, 40, 0.1, c), 0);
        // Rounding up costs a whole packet per block at any loss estimate; to the nearest, the
        // redundancy follows the estimate.
        assert_eq!(packets_needed(32, 0, 0.005, c), 33);
        let n = Redundancy::Nearest;
        assert_eq!(packets_needed(32, 0, 0.005, n), 32);
        assert_eq!(packets_needed(32, 0, 0.1, n), 36);
        assert_eq!(packets_needed(32, 0, 0.2, n), 40);
        assert_eq!(packets_needed(32, 0, 0.03, n), 33);
    }

    #[test]
    fn three_losses_move_the_estimate_as_the_reference_code_does() {
        // docs/ctcp.md §9: from s, an ACK with 3 losses gives (1−μ)^4·s + 1 − (1−μ)^3.
        let (s, mu): (f64, f64) = (0.2, 1.0 / 128.0);
        let want = (1.0 - mu).powi(4) * s + 1.0 - (1.0 - mu).powi(3);
        assert!((loss_estimate_update(s, 3, mu) - want).abs() < 1e-15);
    }

    #[test]
    fn the_loss_estimate_converges_to_a_bernoulli_rate() {
        let mut rng = Rng::new(5, Stream::Transport { flow: 0 });
        let mut slr = 0.0;
        let mut sum = 0.0;
        let n = 200_000;
        for i in 0..n {
            // One ACK per received packet, reporting the losses just before it.
            let mut losses = 0;
            while rng.chance(0.1) {
                losses += 1;
            }
            slr = loss_estimate_update(slr, losses, SLR_MEMORY);
            if i > 1000 {
                sum += slr;
            }
        }
        let mean = sum / (n - 1001) as f64;
        // Per packet, the estimate averages the loss indicator: its mean is p = 0.1 (the
        // estimate itself fluctuates by about ±0.02 with memory 128).
        assert!((mean - 0.1).abs() < 0.005, "{mean}");
    }
}
