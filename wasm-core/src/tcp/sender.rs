//! The TCP sender of a byte stream.
//!
//! - SACK scoreboard and loss recovery per RFC 6675: a segment is lost when three segments above
//!   it are SACKed (DupThresh = 3); recovery sends while `cwnd > pipe`, lost segments first.
//! - With SACK off, NewReno (RFC 6582) as Linux does it: duplicate ACKs stand in for SACKed
//!   segments in `pipe`, a partial ACK retransmits the next hole and stays in recovery.
//! - RTO per RFC 6298 with exponential back-off (see `rtt.rs`); Karn's rule for RTT samples.
//! - The congestion control sees the Linux hook sequence (see `congestion/mod.rs`).
//!
//! Sequence numbers are bytes on the wire; internally the sender works in segments of `mss`
//! bytes (the last one may be shorter), which never change once cut.
//!
//! The connection opens with a SYN / SYN-ACK exchange whose timestamp echo gives the first RTT
//! sample (a retransmitted SYN still gives a valid one, as with Linux timestamps), so the data's
//! first RTO is sized from the path, and `init` sees the handshake RTT as in Linux.
//!
//! Simplifications, stated: no RFC 6675 rescue retransmission, no DSACK/F-RTO undo, no FIN.

use super::congestion::{AckSample, CaState, Cc, CcKind, CcOptions, CwndEvent, Window};
use super::rtt::{RtoFlavor, RttEstimator};
use crate::content::Content;
use crate::engine::{Ctx, LazyTimer};
use crate::metrics::Trace;
use crate::net::packet::TCP_IP_HEADER_BYTES;
use crate::net::{AgentId, Body, NodeId, Packet, SackBlocks};
use crate::sim::{SimDuration, SimTime};
use std::collections::VecDeque;

const DUP_THRESH: u32 = 3; // RFC 5681 / RFC 6675 DupThresh

#[derive(Clone, Debug)]
pub struct TcpConfig {
    pub cc: CcKind,
    pub cc_options: CcOptions,
    pub mss: u32,
    pub initial_cwnd: u32,
    pub initial_ssthresh: Option<u32>,
    pub sack: bool,
    pub rto_flavor: RtoFlavor,
    pub rto_min: SimDuration,
    pub rto_max: SimDuration,
    /// Receiver window in packets; `None` never limits (Linux autotuning).
    pub rwnd_pkts: Option<u32>,
    /// Bytes to transfer; `None` sends until the end of the run.
    pub bytes: Option<u64>,
}

// Scoreboard flags of a segment.
const SACKED: u8 = 1;
const LOST: u8 = 2;
/// Counted in `pipe`: its latest transmission is believed to be in the network.
const IN_FLIGHT: u8 = 4;
/// Retransmitted at least once: no RTT sample from it (Karn).
const RETRANSMITTED: u8 = 8;

#[derive(Clone, Copy, Debug)]
struct Segment {
    last_sent: SimTime,
    first_sent: SimTime,
    flags: u8,
}

/// The congestion state shown in traces: Open/Disorder split by slow start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceState {
    SlowStart = 0,
    CongestionAvoidance = 1,
    Recovery = 2,
    Loss = 3,
}

/// Columns of the sender trace, in order.
pub const SENDER_TRACE_COLUMNS: [&str; 8] =
    ["cwnd", "ssthresh", "srtt_ms", "rtt_ms", "acked_bytes", "inflight", "retransmissions", "state"];

#[derive(Clone, Debug, Default)]
pub struct SenderStats {
    pub sent_pkts: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub recoveries: u64,
}

pub struct TcpSender {
    cfg: TcpConfig,
    pub flow: u32,
    peer_node: NodeId,
    peer_agent: AgentId,
    content: Content,
    total_segs: u64,
    /// Oldest unacknowledged segment and the next new one.
    una: u64,
    nxt: u64,
    /// Scoreboard of segments `una..nxt`.
    segs: VecDeque<Segment>,
    pub w: Window,
    cc: Cc,
    pub state: CaState,
    pipe: u32,
    sacked_out: u32,
    /// NewReno: duplicate ACKs counted as segments that left the network.
    reno_dupacks: u32,
    dupacks: u32,
    /// One past the highest SACKed segment.
    high_sacked: u64,
    /// Segments below this were already considered by the lost-marking rule.
    lost_scan: u64,
    /// Lowest segment that may still need a retransmission.
    rtx_scan: u64,
    recovery_point: u64,
    /// SACK ranges (in segments) reported by the previous ACK: their segments are already marked.
    sack_cache: [(u64, u64); 3],
    pub rtt: RttEstimator,
    rto_timer: LazyTimer,
    pub stats: SenderStats,
    pub trace: Trace<8>,
    pub started_at: Option<SimTime>,
    /// When the SYN-ACK arrived and data began to flow.
    pub established_at: Option<SimTime>,
    pub finished_at: Option<SimTime>,
}

impl TcpSender {
    pub fn new(
        cfg: TcpConfig,
        flow: u32,
        peer_node: NodeId,
        peer_agent: AgentId,
        content: Content,
        trace: Trace<8>,
    ) -> TcpSender {
        let total_segs = cfg.bytes.map_or(u64::MAX, |b| b.div_ceil(cfg.mss as u64));
        let w = Window::new(cfg.initial_cwnd, cfg.initial_ssthresh, cfg.mss);
        let rtt = RttEstimator::new(cfg.rto_flavor, cfg.rto_min, cfg.rto_max);
        TcpSender {
            cc: Cc::with_options(cfg.cc, cfg.cc_options),
            cfg,
            flow,
            peer_node,
            peer_agent,
            content,
            total_segs,
            una: 0,
            nxt: 0,
            segs: VecDeque::with_capacity(1024),
            w,
            state: CaState::Open,
            pipe: 0,
            sacked_out: 0,
            reno_dupacks: 0,
            dupacks: 0,
            high_sacked: 0,
            lost_scan: 0,
            rtx_scan: 0,
            recovery_point: 0,
            sack_cache: [(0, 0); 3],
            rtt,
            rto_timer: LazyTimer::default(),
            stats: SenderStats::default(),
            trace,
            started_at: None,
            established_at: None,
            finished_at: None,
        }
    }

    pub fn config(&self) -> &TcpConfig {
        &self.cfg
    }

    /// Bytes cumulatively acknowledged.
    pub fn acked_bytes(&self) -> u64 {
        self.seg_start(self.una)
    }

    fn seg_start(&self, s: u64) -> u64 {
        let b = s.saturating_mul(self.cfg.mss as u64);
        self.cfg.bytes.map_or(b, |total| b.min(total))
    }

    fn seg_len(&self, s: u64) -> u32 {
        (self.seg_start(s + 1) - self.seg_start(s)) as u32
    }

    fn seg(&mut self, s: u64) -> &mut Segment {
        let i = (s - self.una) as usize;
        &mut self.segs[i]
    }

    pub fn start(&mut self, ctx: &mut Ctx) {
        self.started_at = Some(ctx.now);
        self.send_syn(ctx);
    }

    fn send_syn(&mut self, ctx: &mut Ctx) {
        ctx.send(Packet::syn(self.flow, self.peer_node, self.peer_agent, ctx.now));
        self.arm_rto(ctx);
    }

    fn on_syn_ack(&mut self, ctx: &mut Ctx, ts_echo: SimTime) {
        if self.established_at.is_some() {
            return;
        }
        let now = ctx.now;
        self.established_at = Some(now);
        self.rtt.sample(now - ts_echo);
        self.rto_timer.stop();
        self.cc.init(&mut self.w, self.rtt.srtt, now);
        self.record(now);
        self.transmit(ctx);
    }

    /// Packets the pipe may still take: `cwnd − pipe`, and the receiver window.
    fn can_send(&self) -> bool {
        let pipe = self.pipe.saturating_sub(self.reno_dupacks);
        if pipe >= self.w.cwnd {
            return false;
        }
        true
    }

    fn rwnd_allows_new(&self) -> bool {
        self.cfg.rwnd_pkts.is_none_or(|r| self.nxt - self.una < r as u64)
    }

    /// Sends what the window allows: lost segments first (RFC 6675 NextSeg rule 1), then new data.
    fn transmit(&mut self, ctx: &mut Ctx) {
        while self.can_send() {
            if let Some(s) = self.next_retransmission() {
                self.send_segment(ctx, s, true);
            } else if self.nxt < self.total_segs && self.rwnd_allows_new() {
                let s = self.nxt;
                self.nxt += 1;
                self.segs.push_back(Segment { last_sent: ctx.now, first_sent: ctx.now, flags: 0 });
                self.send_segment(ctx, s, false);
            } else {
                break;
            }
        }
    }

    fn next_retransmission(&mut self) -> Option<u64> {
        self.rtx_scan = self.rtx_scan.max(self.una);
        while self.rtx_scan < self.nxt {
            let f = self.seg(self.rtx_scan).flags;
            if f & LOST != 0 && f & (SACKED | IN_FLIGHT) == 0 {
                return Some(self.rtx_scan);
            }
            if f & LOST == 0 && f & SACKED == 0 && self.rtx_scan >= self.lost_scan {
                // Nothing at or above the lost-marking frontier is marked lost yet.
                return None;
            }
            self.rtx_scan += 1;
        }
        None
    }

    fn send_segment(&mut self, ctx: &mut Ctx, s: u64, retransmission: bool) {
        let now = ctx.now;
        let seq = self.seg_start(s);
        let len = self.seg_len(s);
        let seg = self.seg(s);
        seg.last_sent = now;
        seg.flags |= IN_FLIGHT;
        if retransmission {
            seg.flags |= RETRANSMITTED;
        }
        let first_sent = seg.first_sent;
        self.pipe += 1;
        self.stats.sent_pkts += 1;
        if retransmission {
            self.stats.retransmissions += 1;
        }
        ctx.send(Packet {
            flow: self.flow,
            dst_node: self.peer_node,
            dst_agent: self.peer_agent,
            size: len + TCP_IP_HEADER_BYTES,
            body: Body::TcpData { seq, len, digest: self.content.digest(seq, len), first_sent },
        });
        // Linux re-arms the timer when it retransmits the head (`tcp_xmit_retransmit_queue`):
        // otherwise a loss found about an RTO after the last ACK times out before its
        // retransmission can be acknowledged.
        if !self.rto_timer.is_armed() || (retransmission && s == self.una) {
            self.arm_rto(ctx);
        }
    }

    fn arm_rto(&mut self, ctx: &mut Ctx) {
        let deadline = ctx.now + self.rtt.rto();
        self.rto_timer.arm(ctx, deadline);
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx, token: u64) {
        if self.rto_timer.on_event(ctx, token) {
            self.on_rto(ctx);
        }
    }

    /// RFC 6298 §5.4–5.6 with Linux's `tcp_enter_loss` window handling.
    fn on_rto(&mut self, ctx: &mut Ctx) {
        let now = ctx.now;
        if self.established_at.is_none() {
            // The SYN (or its SYN-ACK) was lost: send it again with the RTO backed off.
            self.stats.timeouts += 1;
            self.rtt.backoff = (self.rtt.backoff + 1).min(30);
            self.rto_timer.stop();
            self.send_syn(ctx);
            return;
        }
        self.stats.timeouts += 1;
        if matches!(self.state, CaState::Open | CaState::Disorder) {
            self.w.prior_cwnd = self.w.cwnd;
            self.w.ssthresh = self.cc.ssthresh(&self.w, now);
            self.cc.cwnd_event(&mut self.w, CwndEvent::Loss, now);
        }
        // A repeated RTO (or one during Recovery) keeps the ssthresh already chosen.
        self.cc.set_state(&mut self.w, CaState::Loss, now);
        self.state = CaState::Loss;
        for s in self.una..self.nxt {
            let seg = self.seg(s);
            if seg.flags & SACKED == 0 {
                seg.flags = (seg.flags & !IN_FLIGHT) | LOST;
            }
        }
        self.pipe = 0;
        self.reno_dupacks = 0;
        self.dupacks = 0;
        self.w.cwnd = 1;
        self.w.cwnd_cnt = 0;
        self.recovery_point = self.nxt;
        self.rtx_scan = self.una;
        self.lost_scan = self.nxt;
        self.rtt.backoff = (self.rtt.backoff + 1).min(30);
        self.rto_timer.stop();
        self.record(now);
        self.transmit(ctx);
        if self.una < self.nxt && !self.rto_timer.is_armed() {
            self.arm_rto(ctx);
        }
    }

    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: Packet) {
        match pkt.body {
            Body::TcpAck { ack, sack } if self.established_at.is_some() => self.on_ack(ctx, ack, &sack),
            Body::TcpSynAck { ts_echo } => self.on_syn_ack(ctx, ts_echo),
            _ => {}
        }
    }

    fn on_ack(&mut self, ctx: &mut Ctx, ack: u64, sack: &SackBlocks) {
        let now = ctx.now;
        let mss = self.cfg.mss as u64;
        let ack_seg = ack.div_ceil(mss).min(self.nxt);
        if ack_seg < self.una {
            return; // an old, reordered ACK
        }
        let prior_una = self.una;
        let had_outstanding = self.una < self.nxt;
        let mut newest_sample: Option<SimTime> = None;
        let mut newly_sacked = 0u32;

        if self.cfg.sack {
            let mut cache = [(0u64, 0u64); 3];
            for (i, (start, end)) in sack.iter().enumerate() {
                let lo = (start / mss).max(ack_seg);
                let hi = end.div_ceil(mss).min(self.nxt);
                if i < 3 {
                    cache[i] = (lo, hi);
                }
                if lo < hi {
                    newly_sacked += self.mark_sacked(lo, hi, &mut newest_sample);
                }
            }
            self.sack_cache = cache;
        }

        let mut newly_acked = 0u32;
        while self.una < ack_seg {
            let seg = self.segs.pop_front().expect("scoreboard covers una..nxt");
            self.una += 1;
            if seg.flags & IN_FLIGHT != 0 {
                self.pipe -= 1;
            }
            if seg.flags & SACKED != 0 {
                self.sacked_out -= 1;
            } else {
                newly_acked += 1;
                if seg.flags & RETRANSMITTED == 0 {
                    newest_sample = Some(newest_sample.map_or(seg.last_sent, |t| t.max(seg.last_sent)));
                }
            }
        }
        let cum_advanced = self.una > prior_una;
        let is_dupack = !cum_advanced && had_outstanding;

        if let Some(sent) = newest_sample {
            self.rtt.sample(now - sent);
        }

        // NewReno bookkeeping: duplicate ACKs stand for segments that left the network.
        if !self.cfg.sack {
            if is_dupack {
                let outstanding = (self.nxt - self.una) as u32;
                self.reno_dupacks = (self.reno_dupacks + 1).min(outstanding.saturating_sub(1));
            } else if cum_advanced {
                self.reno_dupacks = self.reno_dupacks.saturating_sub(newly_acked.saturating_sub(1));
                if self.state != CaState::Recovery {
                    self.reno_dupacks = 0;
                }
            }
        }
        self.dupacks = if is_dupack { self.dupacks + 1 } else { 0 };

        let sample = AckSample {
            now,
            acked: newly_acked + newly_sacked,
            acked_bytes: self.seg_start(self.una) - self.seg_start(prior_una),
            rtt: newest_sample.map(|t| now - t),
            srtt: self.rtt.srtt,
            in_flight: self.pipe,
            cwnd_limited: self.nxt < self.total_segs || self.pipe + newly_acked + newly_sacked >= self.w.cwnd,
            snd_una: self.seg_start(self.una),
            snd_nxt: self.seg_start(self.nxt),
            dupack: is_dupack && newly_sacked == 0,
        };
        self.cc.in_ack_event(&mut self.w, &sample);
        if sample.acked > 0 {
            self.cc.pkts_acked(&mut self.w, &sample, self.state);
        }

        // Loss detection.
        if self.cfg.sack {
            if newly_sacked > 0 {
                self.mark_lost_by_sack();
            }
        } else if self.dupacks >= DUP_THRESH && matches!(self.state, CaState::Open | CaState::Disorder) {
            self.mark_lost(self.una);
        } else if self.state == CaState::Recovery && cum_advanced && self.una < self.recovery_point {
            // RFC 6582 partial ACK: the next hole is lost too.
            self.mark_lost(self.una);
        }

        // Leaving Recovery or Loss once everything outstanding at their start is acknowledged.
        match self.state {
            CaState::Recovery if self.una >= self.recovery_point => {
                self.w.cwnd = self.w.ssthresh;
                self.cc.set_state(&mut self.w, CaState::Open, now);
                self.state = CaState::Open;
                self.reno_dupacks = 0;
                self.cc.cwnd_event(&mut self.w, CwndEvent::CompleteCwr, now);
            }
            CaState::Loss if self.una >= self.recovery_point => {
                self.cc.set_state(&mut self.w, CaState::Open, now);
                self.state = CaState::Open;
            }
            _ => {}
        }

        let head_lost = self.una < self.nxt && self.segs[0].flags & LOST != 0;
        match self.state {
            CaState::Open | CaState::Disorder if head_lost => self.enter_recovery(ctx),
            CaState::Open if self.sacked_out > 0 || self.reno_dupacks > 0 => {
                self.cc.set_state(&mut self.w, CaState::Disorder, now);
                self.state = CaState::Disorder;
            }
            CaState::Disorder if self.sacked_out == 0 && self.reno_dupacks == 0 => {
                self.cc.set_state(&mut self.w, CaState::Open, now);
                self.state = CaState::Open;
            }
            _ => {}
        }

        if sample.acked > 0 && self.state != CaState::Recovery {
            self.cc.cong_avoid(&mut self.w, &sample);
        }
        self.w.cwnd = self.w.cwnd.clamp(1, self.w.cwnd_clamp);

        // RFC 6298 §5.3: restart the timer when new data is acknowledged; stop it when all is.
        if self.una == self.nxt {
            self.rto_timer.stop();
        } else if cum_advanced {
            self.arm_rto(ctx);
        }

        if self.state == CaState::Recovery && self.una < self.nxt && cum_advanced && !self.cfg.sack {
            // The partial ACK's retransmission goes out even if the window is full (RFC 6582).
            if let Some(s) = self.next_retransmission() {
                self.send_segment(ctx, s, true);
            }
        }
        self.transmit(ctx);
        if self.una >= self.total_segs && self.finished_at.is_none() {
            self.finished_at = Some(now);
        }
        self.record(now);
    }

    fn mark_sacked(&mut self, lo: u64, hi: u64, newest: &mut Option<SimTime>) -> u32 {
        let mut count = 0;
        let mut s = lo;
        while s < hi {
            // Skip what the previous ACK's blocks already covered.
            if let Some(&(_, ce)) = self.sack_cache.iter().find(|&&(cs, ce)| cs <= s && s < ce) {
                s = ce;
                continue;
            }
            let seg = self.seg(s);
            if seg.flags & SACKED == 0 {
                let f = seg.flags;
                seg.flags = (f | SACKED) & !IN_FLIGHT;
                let sent = seg.last_sent;
                if f & IN_FLIGHT != 0 {
                    self.pipe -= 1;
                }
                if f & RETRANSMITTED == 0 {
                    *newest = Some(newest.map_or(sent, |t| t.max(sent)));
                }
                self.sacked_out += 1;
                count += 1;
            }
            s += 1;
        }
        self.high_sacked = self.high_sacked.max(hi);
        count
    }

    /// RFC 6675 IsLost: a segment with DupThresh SACKed segments above it is lost.
    fn mark_lost_by_sack(&mut self) {
        if self.sacked_out < DUP_THRESH || self.high_sacked <= self.una {
            return;
        }
        let mut found = 0;
        let mut p = self.high_sacked.min(self.nxt);
        while p > self.una {
            p -= 1;
            if self.seg(p).flags & SACKED != 0 {
                found += 1;
                if found == DUP_THRESH {
                    break;
                }
            }
        }
        if found < DUP_THRESH {
            return;
        }
        let from = self.lost_scan.max(self.una);
        for s in from..p {
            self.mark_lost(s);
        }
        self.lost_scan = self.lost_scan.max(p);
    }

    fn mark_lost(&mut self, s: u64) {
        if s < self.una || s >= self.nxt {
            return;
        }
        let seg = self.seg(s);
        let f = seg.flags;
        if f & (SACKED | LOST) != 0 || (f & RETRANSMITTED != 0 && f & IN_FLIGHT != 0) {
            return;
        }
        seg.flags = (f | LOST) & !IN_FLIGHT;
        if f & IN_FLIGHT != 0 {
            self.pipe -= 1;
        }
        self.rtx_scan = self.rtx_scan.min(s);
    }

    /// RFC 6675 §5 step 4 / RFC 6582 §3.2 step 2, with the module's ssthresh.
    fn enter_recovery(&mut self, ctx: &mut Ctx) {
        let now = ctx.now;
        self.stats.recoveries += 1;
        self.w.prior_cwnd = self.w.cwnd;
        self.w.ssthresh = self.cc.ssthresh(&self.w, now);
        self.cc.set_state(&mut self.w, CaState::Recovery, now);
        self.state = CaState::Recovery;
        self.recovery_point = self.nxt;
        self.w.cwnd = self.w.ssthresh;
        self.w.cwnd_cnt = 0;
        // RFC 6675: "retransmit HighACK+1" whatever the pipe; the window then governs the rest.
        if let Some(s) = self.next_retransmission() {
            self.send_segment(ctx, s, true);
        }
    }

    fn trace_state(&self) -> TraceState {
        match self.state {
            CaState::Recovery => TraceState::Recovery,
            CaState::Loss => TraceState::Loss,
            _ if self.w.in_slow_start() => TraceState::SlowStart,
            _ => TraceState::CongestionAvoidance,
        }
    }

    fn record(&mut self, now: SimTime) {
        let ms = |d: Option<SimDuration>| d.map_or(f64::NAN, |d| d.as_millis_f64());
        let ssthresh =
            if self.w.ssthresh >= super::congestion::INFINITE_SSTHRESH { f64::NAN } else { self.w.ssthresh as f64 };
        let v = [
            self.w.cwnd as f64,
            ssthresh,
            ms(self.rtt.srtt),
            ms(self.rtt.latest),
            self.acked_bytes() as f64,
            self.pipe as f64,
            self.stats.retransmissions as f64,
            self.trace_state() as u8 as f64,
        ];
        self.trace.record(now, v);
    }
}
