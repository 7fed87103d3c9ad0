//! The TCP sender of a byte stream, with Linux's loss-recovery machinery.
//!
//! - SACK scoreboard (`scoreboard.rs`). Loss detection is RACK-TLP (RFC 8985, Linux's default,
//!   `rack.rs`) or RFC 6675's DupThresh rule (`loss_detection: "dupack"`). Without SACK,
//!   NewReno (RFC 6582) as Linux does it: duplicate ACKs stand in for SACKed segments in `pipe`,
//!   a partial ACK retransmits the next hole and stays in recovery.
//! - In Recovery, PRR (RFC 6937, Linux's default, `prr.rs`) sets how much goes out per ACK; or
//!   RFC 6675's `cwnd = ssthresh`, send while `pipe < cwnd` (`recovery: "rfc6675"`).
//! - cwnd grows only while the flow is cwnd-limited, by Linux's rule (`tcp_is_cwnd_limited`):
//!   it used the whole window in the last round, or, in slow start, cwnd is below twice the
//!   most it had in flight.
//! - The receiver's advertised window limits new data (Linux autotunes it, `autotune.rs`).
//! - RTO per RFC 6298 with exponential back-off (see `rtt.rs`); Karn's rule for RTT samples.
//!   After an RTO, RACK leaves segments sent within the last RTT in flight (Linux
//!   `tcp_timeout_mark_lost`), and cwnd restarts at what is in flight plus one.
//! - A congestion control that sets a pacing rate (BBR) is paced; delivery-rate samples
//!   (`rate.rs`) feed algorithms that take over the whole window (`cong_control`).
//! - The congestion control sees the Linux hook sequence (see `congestion/mod.rs`).
//!
//! Sequence numbers are bytes on the wire; internally the sender works in segments of `mss`
//! bytes (the last one may be shorter), which never change once cut.
//!
//! The connection opens with a SYN / SYN-ACK exchange whose timestamp echo gives the first RTT
//! sample (a retransmitted SYN still gives a valid one, as with Linux timestamps), so the data's
//! first RTO is sized from the path, and `init` sees the handshake RTT as in Linux.
//!
//! The sender audits itself (in debug builds, and when a test asks): it never retransmits a
//! segment the receiver has SACKed, never retransmits one twice within a round trip except
//! after an RTO, and never has more in flight than cwnd plus the one segment recovery may force.
//! A breach is reported as the flow's error.
//!
//! Simplifications, stated: no RFC 6675 rescue retransmission, no undo of spurious reductions
//! (D-SACKs are counted but not acted on, except for TLP), no FIN, no Nagle or TSO.

use super::congestion::{AckSample, CaState, Cc, CcKind, CcOptions, ControlSample, CwndEvent, Window};
use super::prr::{Prr, PrrAck};
use super::rack::{probe_timeout, Rack, TxState};
use super::rate::RateSampler;
use super::rtt::{RtoFlavor, RttEstimator, INITIAL_RTO};
use super::scoreboard::{Scoreboard, LOST, RETRANSMITTED, RTO_LOST, SACKED};
use crate::content::Content;
use crate::engine::{Ctx, LazyTimer};
use crate::metrics::Trace;
use crate::net::packet::TCP_IP_HEADER_BYTES;
use crate::net::{AgentId, Body, NodeId, Packet, SackBlocks};
use crate::sim::{SimDuration, SimTime};

const DUP_THRESH: u32 = 3; // RFC 5681 / RFC 6675 DupThresh
/// Linux adds `TCP_TIMEOUT_MIN` (2 jiffies) to the reordering timer.
const REO_TIMER_SLACK: SimDuration = SimDuration::from_millis(2);

// Timer tags (see `LazyTimer::tagged`).
const RTO_TIMER: u64 = 0;
const TLP_TIMER: u64 = 1;
const REO_TIMER: u64 = 2;
const PACE_TIMER: u64 = 3;

/// How cwnd is set while in Recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Recovery {
    /// Proportional Rate Reduction (RFC 6937), Linux's and ns-3's default.
    Prr,
    /// RFC 6675: cwnd = ssthresh on entry, then send while pipe < cwnd.
    Rfc6675,
}

/// How lost segments are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LossDetection {
    /// RACK-TLP (RFC 8985), Linux's default since 4.18.
    Rack,
    /// RFC 6675 IsLost: three SACKed segments above a hole (or three duplicate ACKs without SACK).
    Dupack,
}

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
    pub recovery: Recovery,
    pub loss_detection: LossDetection,
    /// ns-3's window arithmetic: each ACK counts as one acknowledged segment for window growth,
    /// whatever it acknowledges (no appropriate byte counting); CUBIC keeps per-segment slow start.
    pub per_ack_growth: bool,
    /// Bytes to transfer; `None` sends until the end of the run.
    pub bytes: Option<u64>,
    /// Check the sender's invariants on every ACK (always on in debug builds).
    pub audit: bool,
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
    /// Data segments put on the wire, retransmissions included.
    pub sent_pkts: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub recoveries: u64,
    /// Tail loss probes sent.
    pub loss_probes: u64,
    /// D-SACKs received: segments the receiver reported getting twice.
    pub dsacks: u64,
    /// The most segments ever in flight (RFC 6675 pipe) and the largest cwnd.
    pub max_pipe: u32,
    pub max_cwnd: u32,
}

pub struct TcpSender {
    cfg: TcpConfig,
    pub flow: u32,
    peer_node: NodeId,
    peer_agent: AgentId,
    content: Content,
    total_segs: u64,
    sb: Scoreboard,
    pub w: Window,
    cc: Cc,
    pub state: CaState,
    /// NewReno: duplicate ACKs counted as segments that left the network.
    reno_dupacks: u32,
    dupacks: u32,
    recovery_point: u64,
    prr: Prr,
    rack: Rack,
    rate: RateSampler,
    /// The receiver's window, in bytes from the cumulative ACK.
    snd_wnd: u64,
    /// The receiver's latest timestamp, echoed in data (RFC 7323 TS.Recent).
    ts_recent: SimTime,
    /// Linux `tcp_cwnd_validate` state.
    is_cwnd_limited: bool,
    max_packets_out: u64,
    cwnd_usage_seq: u64,
    /// The end of the flight when a tail loss probe went out, and whether it was a
    /// retransmission (Linux `tlp_high_seq`, `tlp_retrans`).
    tlp_high_seq: Option<u64>,
    tlp_retrans: bool,
    /// Earliest time the pacer lets the next segment go.
    next_send_at: SimTime,
    pub rtt: RttEstimator,
    rto_timer: LazyTimer,
    tlp_timer: LazyTimer,
    reo_timer: LazyTimer,
    pace_timer: LazyTimer,
    pub stats: SenderStats,
    /// The first breach of an invariant the audit found, if any.
    pub invariant_error: Option<String>,
    pub trace: Trace<8>,
    pub started_at: Option<SimTime>,
    /// When the SYN-ACK arrived and data began to flow.
    pub established_at: Option<SimTime>,
    pub finished_at: Option<SimTime>,
}

/// What one ACK changed on the scoreboard.
#[derive(Default)]
struct AckDelta {
    newly_acked: u32,
    newly_sacked: u32,
    newest_sample: Option<SimTime>,
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
        let mut cfg = cfg;
        cfg.audit |= cfg!(debug_assertions);
        if !cfg.sack {
            // RACK needs SACK to learn what arrived after a hole.
            cfg.loss_detection = LossDetection::Dupack;
        }
        TcpSender {
            cc: Cc::with_options(cfg.cc, cfg.cc_options, flow as u64),
            cfg,
            flow,
            peer_node,
            peer_agent,
            content,
            total_segs,
            sb: Scoreboard::default(),
            w,
            state: CaState::Open,
            reno_dupacks: 0,
            dupacks: 0,
            recovery_point: 0,
            prr: Prr::default(),
            rack: Rack::default(),
            rate: RateSampler::default(),
            snd_wnd: u64::MAX,
            ts_recent: SimTime::ZERO,
            is_cwnd_limited: false,
            max_packets_out: 0,
            cwnd_usage_seq: 0,
            tlp_high_seq: None,
            tlp_retrans: false,
            next_send_at: SimTime::ZERO,
            rtt,
            rto_timer: LazyTimer::tagged(RTO_TIMER),
            tlp_timer: LazyTimer::tagged(TLP_TIMER),
            reo_timer: LazyTimer::tagged(REO_TIMER),
            pace_timer: LazyTimer::tagged(PACE_TIMER),
            stats: SenderStats::default(),
            invariant_error: None,
            trace,
            started_at: None,
            established_at: None,
            finished_at: None,
        }
    }

    pub fn enable_audit(&mut self) {
        self.cfg.audit = true;
    }

    pub fn config(&self) -> &TcpConfig {
        &self.cfg
    }

    /// Bytes cumulatively acknowledged.
    pub fn acked_bytes(&self) -> u64 {
        self.seg_start(self.sb.una)
    }

    /// Segments believed in the network (RFC 6675 pipe, Linux `tcp_packets_in_flight`).
    pub fn pipe(&self) -> u32 {
        self.sb.pipe.saturating_sub(self.reno_dupacks)
    }

    fn seg_start(&self, s: u64) -> u64 {
        let b = s.saturating_mul(self.cfg.mss as u64);
        self.cfg.bytes.map_or(b, |total| b.min(total))
    }

    fn seg_len(&self, s: u64) -> u32 {
        (self.seg_start(s + 1) - self.seg_start(s)) as u32
    }

    pub fn start(&mut self, ctx: &mut Ctx) {
        self.started_at = Some(ctx.now);
        self.send_syn(ctx);
    }

    fn send_syn(&mut self, ctx: &mut Ctx) {
        ctx.send(Packet::syn(self.flow, self.peer_node, self.peer_agent, ctx.now));
        self.arm_rto(ctx);
    }

    fn on_syn_ack(&mut self, ctx: &mut Ctx, ts_echo: SimTime, wnd: u64) {
        if self.established_at.is_some() {
            return;
        }
        let now = ctx.now;
        self.established_at = Some(now);
        self.snd_wnd = wnd;
        self.rtt.sample(now - ts_echo);
        self.rto_timer.stop();
        self.cc.init(&mut self.w, self.rtt.srtt, now);
        self.record(now);
        self.transmit(ctx);
    }

    /// Whether the receiver's window has room for segment `s`.
    fn rwnd_allows(&self, s: u64) -> bool {
        self.seg_start(s + 1) <= self.acked_bytes().saturating_add(self.snd_wnd)
    }

    fn has_new_data(&self) -> bool {
        self.sb.nxt < self.total_segs
    }

    /// Sends what the window allows: lost segments first (RFC 6675 NextSeg rule 1), then new
    /// data, paced if the congestion control sets a rate.
    fn transmit(&mut self, ctx: &mut Ctx) {
        let mut stopped_by_cwnd = false;
        loop {
            if self.pipe() >= self.w.cwnd {
                stopped_by_cwnd = self.sb.next_retransmission().is_some() || self.has_new_data();
                break;
            }
            let next = self.sb.next_retransmission().or_else(|| {
                let s = self.sb.nxt;
                (s < self.total_segs && self.rwnd_allows(s)).then_some(s)
            });
            let Some(s) = next else { break };
            if !self.pace_allows(ctx) {
                break;
            }
            self.send_segment(ctx, s);
        }
        self.validate_cwnd(stopped_by_cwnd);
        if !stopped_by_cwnd && !self.has_new_data() && self.sb.next_retransmission().is_none() {
            self.rate.mark_app_limited(self.pipe());
        }
    }

    /// Linux `tcp_cwnd_validate`: remembers whether the window was used in this round.
    fn validate_cwnd(&mut self, is_cwnd_limited: bool) {
        let packets_out = self.sb.nxt - self.sb.una;
        if self.sb.una >= self.cwnd_usage_seq
            || is_cwnd_limited
            || (!self.is_cwnd_limited && packets_out > self.max_packets_out)
        {
            self.is_cwnd_limited = is_cwnd_limited;
            self.max_packets_out = packets_out;
            self.cwnd_usage_seq = self.sb.nxt;
        }
    }

    /// Linux `tcp_is_cwnd_limited`.
    fn cwnd_limited(&self) -> bool {
        if self.is_cwnd_limited {
            return true;
        }
        self.w.in_slow_start() && (self.w.cwnd as u64) < 2 * self.max_packets_out
    }

    fn pace_allows(&mut self, ctx: &mut Ctx) -> bool {
        if self.cc.pacing_bps().is_none() || ctx.now >= self.next_send_at {
            return true;
        }
        let at = self.next_send_at;
        self.pace_timer.arm(ctx, at);
        false
    }

    /// Sends segment `s`: new data if `s` is the next new segment, else a retransmission.
    fn send_segment(&mut self, ctx: &mut Ctx, s: u64) {
        let now = ctx.now;
        let retransmission = s < self.sb.nxt;
        if !retransmission {
            self.sb.push_new(now);
        }
        if self.cfg.audit && retransmission {
            self.audit_retransmission(now, s);
        }
        let packets_out_before = self.sb.nxt - self.sb.una - (!retransmission) as u64;
        let tx = self.rate.on_sent(now, packets_out_before);
        let seq = self.seg_start(s);
        let len = self.seg_len(s);
        let first_sent = self.sb.on_sent(s, now, tx, retransmission);
        self.rack.on_sent(s, now);
        if matches!(self.state, CaState::Recovery) {
            self.prr.on_sent();
        }
        self.stats.sent_pkts += 1;
        if retransmission {
            self.stats.retransmissions += 1;
        }
        self.stats.max_pipe = self.stats.max_pipe.max(self.pipe());
        let size = len + TCP_IP_HEADER_BYTES;
        if let Some(bps) = self.cc.pacing_bps() {
            let gap = SimDuration::from_secs_f64(size as f64 * 8.0 / bps.max(1.0));
            self.next_send_at = self.next_send_at.max(now) + gap;
        }
        ctx.send(Packet {
            flow: self.flow,
            dst_node: self.peer_node,
            dst_agent: self.peer_agent,
            size,
            body: Body::TcpData {
                seq,
                len,
                digest: self.content.digest(seq, len),
                first_sent,
                ts_echo: self.ts_recent,
            },
        });
        // Linux re-arms the timer when it retransmits the head (`tcp_xmit_retransmit_queue`):
        // otherwise a loss found about an RTO after the last ACK times out before its
        // retransmission can be acknowledged.
        if !self.rto_timer.is_armed() || (retransmission && s == self.sb.una) {
            self.arm_rto(ctx);
        }
        if !retransmission {
            self.schedule_loss_probe(ctx);
        }
    }

    fn arm_rto(&mut self, ctx: &mut Ctx) {
        let deadline = ctx.now + self.rtt.rto();
        self.rto_timer.arm(ctx, deadline);
    }

    /// RFC 8985 §7.2 (Linux `tcp_schedule_loss_probe`): in Open state with SACK and data in
    /// flight, probe if no ACK comes within PTO (but never after the RTO would fire).
    fn schedule_loss_probe(&mut self, ctx: &mut Ctx) {
        let packets_out = self.sb.nxt - self.sb.una;
        if self.cfg.loss_detection != LossDetection::Rack
            || packets_out == 0
            || !matches!(self.state, CaState::Open | CaState::Disorder)
        {
            self.tlp_timer.stop();
            return;
        }
        let mut at = ctx.now + probe_timeout(self.rtt.srtt, packets_out, INITIAL_RTO);
        if let Some(rto) = self.rto_timer.deadline() {
            at = at.min(rto);
        }
        self.tlp_timer.arm(ctx, at);
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx, token: u64) {
        match token & 3 {
            RTO_TIMER if self.rto_timer.on_event(ctx, token) => self.on_rto(ctx),
            TLP_TIMER if self.tlp_timer.on_event(ctx, token) => self.on_loss_probe(ctx),
            REO_TIMER if self.reo_timer.on_event(ctx, token) => self.on_reorder_timeout(ctx),
            PACE_TIMER if self.pace_timer.on_event(ctx, token) => self.transmit(ctx),
            _ => {}
        }
    }

    /// RFC 8985 §7.3 (Linux `tcp_send_loss_probe`): one new segment if the receiver's window
    /// allows, else the highest outstanding one again.
    fn on_loss_probe(&mut self, ctx: &mut Ctx) {
        if self.tlp_high_seq.is_some() || self.sb.una == self.sb.nxt {
            return;
        }
        let new = self.sb.nxt;
        if new < self.total_segs && self.rwnd_allows(new) {
            self.tlp_retrans = false;
            self.send_segment(ctx, new);
        } else if let Some(s) = self.sb.highest_unsacked() {
            self.tlp_retrans = true;
            self.send_segment(ctx, s);
        } else {
            return;
        }
        self.stats.loss_probes += 1;
        self.tlp_high_seq = Some(self.sb.nxt);
        self.arm_rto(ctx);
    }

    /// Linux `tcp_rack_reo_timeout`: the reordering window of a pending segment ran out.
    fn on_reorder_timeout(&mut self, ctx: &mut Ctx) {
        let before = self.pipe();
        let newly_lost = self.rack_detect(ctx);
        if self.pipe() != before {
            if !matches!(self.state, CaState::Recovery | CaState::Loss) {
                self.enter_recovery(ctx.now);
                if !self.cc.has_cong_control() && self.cfg.recovery == Recovery::Prr {
                    let ack = PrrAck { newly_acked_sacked: 1, newly_lost, una_advanced: false };
                    self.apply_prr(ack);
                }
            }
            self.transmit(ctx);
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
        // Linux `tcp_timeout_mark_lost`: with RACK, segments sent within the last RTT stay in
        // flight; the head is always marked.
        let keep_recent = self.cfg.loss_detection == LossDetection::Rack;
        let rack = &self.rack;
        self.sb.mark_all_lost_on_rto(|at| keep_recent && rack.remaining(now, at, SimDuration::ZERO) > 0);
        self.reno_dupacks = 0;
        self.dupacks = 0;
        self.tlp_high_seq = None;
        self.tlp_timer.stop();
        self.reo_timer.stop();
        self.w.cwnd = self.pipe() + 1;
        self.w.cwnd_cnt = 0;
        self.recovery_point = self.sb.nxt;
        self.rtt.backoff = (self.rtt.backoff + 1).min(30);
        self.rto_timer.stop();
        self.record(now);
        self.transmit(ctx);
        if self.sb.una < self.sb.nxt && !self.rto_timer.is_armed() {
            self.arm_rto(ctx);
        }
    }

    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: Packet) {
        match pkt.body {
            Body::TcpAck { ack, sack, dsack, wnd, ts } if self.established_at.is_some() => {
                self.ts_recent = self.ts_recent.max(ts);
                self.on_ack(ctx, ack, &sack, dsack, wnd)
            }
            Body::TcpSynAck { ts_echo, wnd } => self.on_syn_ack(ctx, ts_echo, wnd),
            _ => {}
        }
    }

    /// Updates the scoreboard from an ACK's SACK blocks and cumulative ACK.
    fn take_ack(&mut self, now: SimTime, ack_seg: u64, sack: &SackBlocks) -> AckDelta {
        let mut d = AckDelta::default();
        let mss = self.cfg.mss as u64;
        let min_rtt = self.rtt.min_rtt.unwrap_or(SimDuration::ZERO);
        let high_sacked_before = self.sb.high_sacked;
        let (rack, rate) = (&mut self.rack, &mut self.rate);
        let mut on_delivered = |s: u64, seg: &super::scoreboard::Segment| {
            let retransmitted = seg.flags & RETRANSMITTED != 0;
            rack.on_delivered(now, s, seg.last_sent, retransmitted, min_rtt);
            rate.on_delivered(&seg.tx, seg.last_sent, now);
            if !retransmitted {
                d.newest_sample = Some(d.newest_sample.map_or(seg.last_sent, |t| t.max(seg.last_sent)));
            }
            // A segment never retransmitted, delivered below one already SACKed, overtook it.
            if !retransmitted && s + 1 < high_sacked_before {
                rack.reordering_seen = true;
            }
        };
        if self.cfg.sack {
            let mut cache = [(0u64, 0u64); 3];
            for (i, (start, end)) in sack.iter().enumerate() {
                let lo = (start / mss).max(ack_seg);
                let hi = end.div_ceil(mss).min(self.sb.nxt);
                cache[i] = (lo, hi);
                if lo < hi {
                    d.newly_sacked += self.sb.mark_sacked(lo, hi, &mut on_delivered);
                }
            }
            self.sb.set_sack_cache(cache);
        }
        d.newly_acked = self.sb.ack_to(ack_seg, &mut on_delivered);
        d
    }

    fn on_ack(&mut self, ctx: &mut Ctx, ack: u64, sack: &SackBlocks, dsack: Option<(u64, u64)>, wnd: u64) {
        let now = ctx.now;
        let mss = self.cfg.mss as u64;
        let ack_seg = ack.div_ceil(mss).min(self.sb.nxt);
        if dsack.is_some() {
            self.stats.dsacks += 1;
        }
        if ack_seg < self.sb.una {
            return; // an old, reordered ACK
        }
        self.snd_wnd = wnd;
        let prior_una = self.sb.una;
        let prior_in_flight = self.pipe();
        let had_outstanding = self.sb.una < self.sb.nxt;

        let delta = self.take_ack(now, ack_seg, sack);
        let (newly_acked, newly_sacked) = (delta.newly_acked, delta.newly_sacked);
        let cum_advanced = self.sb.una > prior_una;
        let is_dupack = !cum_advanced && had_outstanding;

        if let Some(sent) = delta.newest_sample {
            self.rtt.sample(now - sent);
        }
        self.process_tlp_ack(now, ack_seg, dsack, cum_advanced, newly_sacked);

        // NewReno bookkeeping: duplicate ACKs stand for segments that left the network.
        if !self.cfg.sack {
            if is_dupack {
                let outstanding = (self.sb.nxt - self.sb.una) as u32;
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
            acked_bytes: self.seg_start(self.sb.una) - self.seg_start(prior_una),
            rtt: delta.newest_sample.map(|t| now - t),
            srtt: self.rtt.srtt,
            in_flight: self.pipe(),
            cwnd_limited: self.cwnd_limited(),
            snd_una: self.seg_start(self.sb.una),
            snd_nxt: self.seg_start(self.sb.nxt),
            dupack: is_dupack && newly_sacked == 0,
        };
        self.cc.in_ack_event(&mut self.w, &sample);
        if sample.acked > 0 {
            self.cc.pkts_acked(&mut self.w, &sample, self.state);
        }

        // Loss detection.
        let newly_lost = match self.cfg.loss_detection {
            LossDetection::Rack => {
                if sample.acked > 0 {
                    self.rack_detect(ctx)
                } else {
                    0
                }
            }
            LossDetection::Dupack if self.cfg.sack => {
                if newly_sacked > 0 {
                    self.sb.mark_lost_by_sack(DUP_THRESH)
                } else {
                    0
                }
            }
            LossDetection::Dupack => {
                if self.dupacks >= DUP_THRESH && matches!(self.state, CaState::Open | CaState::Disorder) {
                    self.sb.mark_lost_with(self.sb.una, false) as u32
                } else if self.state == CaState::Recovery && cum_advanced && self.sb.una < self.recovery_point {
                    // RFC 6582 partial ACK: the next hole is lost too.
                    self.sb.mark_lost_with(self.sb.una, false) as u32
                } else {
                    0
                }
            }
        };
        let rs = self.rate.finish(now, sample.acked, newly_lost, prior_in_flight, self.rtt.min_rtt);

        // Leaving Recovery or Loss once everything outstanding at their start is acknowledged.
        match self.state {
            CaState::Recovery if self.sb.una >= self.recovery_point => {
                // Linux `tcp_end_cwnd_reduction` (BBR restores its own window).
                if !self.cc.has_cong_control() {
                    self.w.cwnd = self.w.ssthresh;
                }
                self.cc.set_state(&mut self.w, CaState::Open, now);
                self.state = CaState::Open;
                self.reno_dupacks = 0;
                self.cc.cwnd_event(&mut self.w, CwndEvent::CompleteCwr, now);
            }
            CaState::Loss if self.sb.una >= self.recovery_point => {
                self.cc.set_state(&mut self.w, CaState::Open, now);
                self.state = CaState::Open;
            }
            _ => {}
        }

        let mut forced_sends = 0;
        let pipe_before_sends = self.pipe();
        match self.state {
            CaState::Open | CaState::Disorder if newly_lost > 0 || self.sb.head_lost() => {
                self.enter_recovery(now);
                if self.cfg.recovery == Recovery::Rfc6675 {
                    // RFC 6675: "retransmit HighACK+1" whatever the pipe; the window then
                    // governs the rest.
                    if let Some(s) = self.sb.next_retransmission() {
                        self.send_segment(ctx, s);
                        forced_sends += 1;
                    }
                }
            }
            CaState::Open if self.sb.sacked_out > 0 || self.reno_dupacks > 0 => {
                self.cc.set_state(&mut self.w, CaState::Disorder, now);
                self.state = CaState::Disorder;
            }
            CaState::Disorder if self.sb.sacked_out == 0 && self.reno_dupacks == 0 => {
                self.cc.set_state(&mut self.w, CaState::Open, now);
                self.state = CaState::Open;
            }
            _ => {}
        }

        // The window: an algorithm that takes over (BBR), PRR in Recovery, or growth.
        let control = ControlSample { ack: sample, rate: rs, state: self.state, in_flight: self.pipe() };
        if self.cc.cong_control(&mut self.w, &control) {
            if self.cc.wants_app_limited() {
                self.rate.mark_app_limited(self.pipe());
            }
        } else if self.state == CaState::Recovery {
            if self.cfg.recovery == Recovery::Prr {
                let ack = PrrAck { newly_acked_sacked: sample.acked, newly_lost, una_advanced: cum_advanced };
                self.apply_prr(ack);
            }
        } else if sample.acked > 0 && sample.cwnd_limited {
            let mut grow = sample;
            if self.cfg.per_ack_growth && self.cfg.cc != CcKind::Cubic {
                grow.acked = 1;
            }
            self.cc.cong_avoid(&mut self.w, &grow);
        }
        self.w.cwnd = self.w.cwnd.clamp(1, self.w.cwnd_clamp);
        self.stats.max_cwnd = self.stats.max_cwnd.max(self.w.cwnd);

        // RFC 6298 §5.3: restart the timer when new data is acknowledged; stop it when all is.
        if self.sb.una == self.sb.nxt {
            self.rto_timer.stop();
            self.tlp_timer.stop();
            self.reo_timer.stop();
        } else if cum_advanced {
            self.arm_rto(ctx);
        }

        if self.state == CaState::Recovery && self.sb.una < self.sb.nxt && cum_advanced && !self.cfg.sack {
            // The partial ACK's retransmission goes out even if the window is full (RFC 6582).
            if let Some(s) = self.sb.next_retransmission() {
                self.send_segment(ctx, s);
                forced_sends += 1;
            }
        }
        let sent_before = self.stats.sent_pkts;
        self.transmit(ctx);
        if self.cfg.audit {
            let sent = self.stats.sent_pkts > sent_before || forced_sends > 0;
            self.audit_ack(sent, pipe_before_sends, forced_sends);
        }
        if self.sb.una < self.sb.nxt {
            self.schedule_loss_probe(ctx);
        }
        if self.sb.una >= self.total_segs && self.finished_at.is_none() {
            self.finished_at = Some(now);
        }
        self.record(now);
    }

    /// RACK over the outstanding transmissions; returns how many it newly marked lost, and arms
    /// the reordering timer for the next one due.
    fn rack_detect(&mut self, ctx: &mut Ctx) -> u32 {
        let in_recovery = matches!(self.state, CaState::Recovery | CaState::Loss);
        let min_rtt = self.rtt.min_rtt.unwrap_or(SimDuration::ZERO);
        let srtt = self.rtt.srtt.unwrap_or(min_rtt);
        let reo_wnd = self.rack.reo_wnd(in_recovery, self.sb.sacked_out, min_rtt, srtt);
        let mut lost = Vec::new();
        let sb = &self.sb;
        let wait = self.rack.detect_loss(
            ctx.now,
            reo_wnd,
            |s, at| match sb.get(s) {
                Some(seg) if seg.last_sent == at && seg.flags & (SACKED | LOST) == 0 => TxState::Outstanding,
                _ => TxState::Gone,
            },
            |s| lost.push(s),
        );
        let mut n = 0;
        for s in lost {
            n += self.sb.mark_lost(s) as u32;
        }
        match wait {
            Some(w) => {
                let at = ctx.now + w + REO_TIMER_SLACK;
                self.reo_timer.arm(ctx, at);
            }
            None => self.reo_timer.stop(),
        }
        n
    }

    /// Linux `tcp_process_tlp_ack` (D-SACK tells a needless probe apart from a repaired loss).
    fn process_tlp_ack(&mut self, now: SimTime, ack_seg: u64, dsack: Option<(u64, u64)>, advanced: bool, sacked: u32) {
        let Some(high) = self.tlp_high_seq else { return };
        if ack_seg < high {
            return;
        }
        let mss = self.cfg.mss as u64;
        let probe_duplicated = dsack.is_some_and(|(s, _)| s / mss + 1 == high);
        if !self.tlp_retrans || probe_duplicated {
            self.tlp_high_seq = None;
        } else if ack_seg > high {
            // The probe repaired a loss: reduce once, as for a loss (Linux enters and ends CWR).
            self.tlp_high_seq = None;
            if !self.cc.has_cong_control() && matches!(self.state, CaState::Open | CaState::Disorder) {
                self.w.prior_cwnd = self.w.cwnd;
                self.w.ssthresh = self.cc.ssthresh(&self.w, now);
                self.w.cwnd = self.w.ssthresh.min(self.w.cwnd);
                self.cc.cwnd_event(&mut self.w, CwndEvent::CompleteCwr, now);
            }
        } else if !advanced && sacked == 0 {
            self.tlp_high_seq = None;
        }
    }

    fn apply_prr(&mut self, ack: PrrAck) {
        if let Some(cwnd) = self.prr.on_ack(ack, self.pipe()) {
            self.w.cwnd = cwnd;
        }
    }

    /// RFC 6675 §5 step 4 / RFC 6582 §3.2 step 2 / Linux `tcp_enter_recovery`, with the
    /// module's ssthresh; PRR then governs the window.
    fn enter_recovery(&mut self, now: SimTime) {
        self.stats.recoveries += 1;
        self.w.prior_cwnd = self.w.cwnd;
        self.w.ssthresh = self.cc.ssthresh(&self.w, now);
        self.cc.set_state(&mut self.w, CaState::Recovery, now);
        self.state = CaState::Recovery;
        self.recovery_point = self.sb.nxt;
        self.w.cwnd_cnt = 0;
        self.tlp_high_seq = None;
        match self.cfg.recovery {
            Recovery::Prr => self.prr = Prr::start(self.w.prior_cwnd, self.w.ssthresh),
            Recovery::Rfc6675 => self.w.cwnd = self.w.ssthresh,
        }
    }

    fn violation(&mut self, msg: String) {
        if self.invariant_error.is_none() {
            self.invariant_error = Some(format!("flow {}: sender invariant broken: {msg}", self.flow));
        }
    }

    /// Checks a retransmission before it leaves.
    fn audit_retransmission(&mut self, now: SimTime, s: u64) {
        let Some(seg) = self.sb.get(s).copied() else { return };
        if seg.flags & SACKED != 0 {
            self.violation(format!("segment {s} retransmitted after the receiver SACKed it"));
        }
        if seg.flags & RETRANSMITTED != 0 && seg.flags & RTO_LOST == 0 {
            let min_rtt = self.rtt.min_rtt.unwrap_or(SimDuration::ZERO);
            let since = now - seg.last_sent;
            if since < min_rtt {
                self.violation(format!(
                    "segment {s} retransmitted again {:.1} ms after its last transmission, within one \
                     round trip ({:.1} ms) and without an RTO",
                    since.as_millis_f64(),
                    min_rtt.as_millis_f64()
                ));
            }
        }
    }

    /// Checks the scoreboard's counters and the window after an ACK: what this ACK sent never
    /// took the flight above cwnd (or above where the flight already was, when cwnd was just
    /// cut below it), except for the sends recovery forces.
    fn audit_ack(&mut self, sent: bool, pipe_before: u32, forced: u32) {
        if let Err(e) = self.sb.check_counts() {
            self.violation(e);
        }
        let pipe = self.pipe();
        let limit = self.w.cwnd.max(pipe_before) + forced;
        if sent && pipe > limit {
            self.violation(format!(
                "pipe {pipe} exceeds cwnd {} (flight before sending {pipe_before}) plus {forced} forced sends",
                self.w.cwnd
            ));
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
            self.pipe() as f64,
            self.stats.retransmissions as f64,
            self.trace_state() as u8 as f64,
        ];
        self.trace.record(now, v);
    }
}
