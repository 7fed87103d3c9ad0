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
//! - RTO as Linux's `tcp_rtt_estimator` or RFC 6298 forms it, with exponential back-off (see
//!   `rto.rs`); Karn's rule for RTT samples.
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
//! The sender is split by what drives it: this file holds its state, the handshake and
//! sending; `ack.rs` what an ACK does, step by step; `timers.rs` the RTO, tail loss probe,
//! reordering and pacing timers; `audit.rs` the self-audit; `ns3.rs` what an ACK and a timeout
//! do in the `ns3` profile, ns-3.44's `TcpSocketBase` in place of Linux's machinery.
//!
//! Spurious reductions are undone as Linux does (`undo.rs`): F-RTO after a timeout, timestamps
//! (Eifel) and D-SACK after any reduction; each congestion control's `undo_cwnd` sets the
//! window back.
//!
//! Simplifications, stated: no RFC 6675 rescue retransmission, no FIN, no Nagle or TSO.

mod ack;
mod audit;
mod ns3;
mod timers;
mod undo;

use super::congestion::{AckSample, CaState, Cc, CcKind, CcOptions, ControlSample, Window};
use super::prr::Prr;
use super::rack::Rack;
use super::rate::{RateSample, RateSampler};
use super::scoreboard::Scoreboard;
use crate::content::Content;
use crate::engine::{Ctx, LazyTimer};
use crate::metrics::Trace;
use crate::net::packet::TCP_IP_HEADER_BYTES;
use crate::net::{AgentId, Body, NodeId, Packet};
use crate::rto::{Flight, RtoFlavor, RttEstimator};
use crate::sim::rng::{Rng, Stream};
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
    /// The run's seed: the congestion control draws from the flow's own stream of it.
    pub seed: u64,
    /// F-RTO (RFC 5682, SACK-enhanced, Linux `tcp_frto = 2`): after a timeout, send new data
    /// before retransmitting more, and undo the timeout if never-retransmitted data is then
    /// acknowledged.
    pub frto: bool,
    /// Undo of spurious reductions by timestamps (Eifel, RFC 3522) and D-SACK (RFC 3708), as
    /// Linux's `tcp_try_undo_*`.
    pub undo: bool,
    /// ns-3.44's loss recovery and timers (`ns3.rs`) instead of Linux's: the `ns3` profile.
    pub ns3_rules: bool,
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
    /// Reductions undone (Linux `TCPLossUndo` + `TCPFullUndo` + `TCPPartialUndo` +
    /// `TCPDSACKUndo`), and of those the timeouts undone (by F-RTO, timestamps or D-SACK).
    pub undos: u64,
    pub spurious_rtos: u64,
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
    /// Undo state (Linux `undo_marker`, `undo_retrans`, `prior_ssthresh`, `retrans_stamp`,
    /// `frto`; see `undo.rs`).
    undo: undo::UndoState,
    /// ns-3's recovery state, used only with `ns3_rules`.
    ns3: ns3::Ns3State,
    /// Consecutive timeouts with no new data acknowledged (Linux `icsk_retransmits`).
    rto_retransmits: u32,
    /// The TSecr of the ACK being processed.
    ts_echo: SimTime,
    /// F-RTO step 2.b: this ACK sends new data only.
    send_new_only: bool,
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
    /// When the earliest-sent segment the cumulative ACK newly covered was sent, if it was never
    /// retransmitted and not SACKed before (Linux `first_ackt`).
    first_acked_sent: Option<SimTime>,
    /// The cumulative ACK covered a retransmitted segment (Linux `FLAG_RETRANS_DATA_ACKED`).
    retransmission_acked: bool,
    /// When the earliest-sent segment this ACK newly SACKed was sent, if it was never
    /// retransmitted (Linux `first_sackt`, from which `sack_rtt_us` is measured).
    first_sacked_sent: Option<SimTime>,
    /// A segment below the recovery point that was never retransmitted was acknowledged or
    /// SACKed (Linux `FLAG_ORIG_SACK_ACKED`).
    orig_acked: bool,
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
        let rate = if cfg.ns3_rules { RateSampler::ns3() } else { RateSampler::default() };
        cfg.audit |= cfg!(debug_assertions);
        if !cfg.sack {
            // RACK needs SACK to learn what arrived after a hole.
            cfg.loss_detection = LossDetection::Dupack;
        }
        TcpSender {
            cc: Cc::with_options(cfg.cc, cfg.cc_options, Rng::new(cfg.seed, Stream::CongestionControl { flow })),
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
            rate,
            snd_wnd: u64::MAX,
            ts_recent: SimTime::ZERO,
            is_cwnd_limited: false,
            max_packets_out: 0,
            cwnd_usage_seq: 0,
            tlp_high_seq: None,
            tlp_retrans: false,
            undo: undo::UndoState::default(),
            ns3: ns3::Ns3State::new(),
            rto_retransmits: 0,
            ts_echo: SimTime::ZERO,
            send_new_only: false,
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

    /// Segments believed in the network (RFC 6675 pipe, Linux `tcp_packets_in_flight`; in the
    /// `ns3` profile ns-3's `TcpTxBuffer::BytesInFlight`).
    pub fn pipe(&self) -> u32 {
        // ns-3's `BytesInFlight` still counts a retransmission the receiver has SACKed
        // (`NS3_RETRANS`), until the cumulative ACK or a timeout.
        let ns3_extra = if self.cfg.ns3_rules { self.sb.sacked_retrans } else { 0 };
        (self.sb.pipe + ns3_extra).saturating_sub(self.reno_dupacks)
    }

    fn seg_start(&self, s: u64) -> u64 {
        let b = crate::sim::int::saturating_mul_u32(s, self.cfg.mss);
        self.cfg.bytes.map_or(b, |total| b.min(total))
    }

    /// The cumulative ACK and the next new segment, for the RTT estimator's round trips.
    fn flight(&self) -> Flight {
        Flight { una: self.sb.una, nxt: self.sb.nxt }
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
        self.rtt.sample(now - ts_echo, self.flight());
        self.rto_timer.stop();
        self.cc.init(&mut self.w, self.rtt.srtt(), now);
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

    /// RFC 6675 NextSeg rule 1: the lowest segment marked lost and not yet sent again. The `ns3`
    /// profile also asks, with SACK, that it lie below the highest segment SACKed (1.b), as
    /// ns-3.44's `TcpTxBuffer::NextSeg` does while it holds SACK information (`m_sackSeen`, set
    /// with `m_highestSack` and cleared once the cumulative ACK passes it): after a timeout, a
    /// segment marked lost above what the receiver has since SACKed waits, and new data goes
    /// first.
    fn next_lost(&mut self) -> Option<u64> {
        if self.cfg.ns3_rules && self.cfg.sack {
            self.sb.next_retransmission_below_the_highest_sack()
        } else {
            self.sb.next_retransmission()
        }
    }

    /// Sends what the window allows: lost segments first (RFC 6675 NextSeg rule 1), then new
    /// data, paced if the congestion control sets a rate.
    fn transmit(&mut self, ctx: &mut Ctx) {
        let mut stopped_by_cwnd = false;
        loop {
            if self.pipe() >= self.w.cwnd {
                stopped_by_cwnd = self.next_lost().is_some() || self.has_new_data();
                break;
            }
            let rtx = if self.send_new_only { None } else { self.next_lost() };
            let next = rtx.or_else(|| {
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
        if !stopped_by_cwnd && !self.has_new_data() && self.next_lost().is_none() {
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

    /// What `cong_control` sees of an ACK once loss detection has run.
    fn control_sample(&self, ack: AckSample, rate: RateSample) -> ControlSample {
        ControlSample {
            ack,
            rate,
            state: self.state,
            in_flight: self.pipe(),
            latest_rtt: self.rtt.latest,
            min_rtt: self.rtt.min_rtt,
        }
    }

    /// ns-3's `IsPacingEnabled` for a send of segment `s`: the initial window goes unpaced
    /// (`PaceInitialWindow` is false), so pacing starts once the highest sequence sent
    /// (`m_highTxMark`, after the SYN's one) is past the initial window.
    fn ns3_paces(&self, s: u64, retransmission: bool) -> bool {
        let high_before = if retransmission { self.sb.nxt } else { s };
        high_before >= self.cfg.initial_cwnd as u64
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
        // ns-3 starts a new transmission when nothing is in flight (`BytesInFlight() == 0`, so also
        // after a timeout has marked the flight lost); Linux when nothing is outstanding.
        let packets_out_before =
            if self.cfg.ns3_rules { self.pipe() as u64 } else { self.sb.nxt - self.sb.una - (!retransmission) as u64 };
        let tx = self.rate.on_sent(now, packets_out_before);
        let seq = self.seg_start(s);
        let len = self.seg_len(s);
        let first_sent = self.sb.on_sent(s, now, tx, retransmission);
        // Only RACK reads its list of transmissions; kept without it, the list grew by one entry
        // per segment sent for the whole run (the ns-3 profile's duplicate-ACK detection).
        if self.detects_by_rack() {
            self.rack.on_sent(s, now);
        }
        if matches!(self.state, CaState::Recovery) {
            self.prr.on_sent();
            self.ns3.prr.on_sent();
        }
        self.stats.sent_pkts += 1;
        if retransmission {
            self.stats.retransmissions += 1;
            self.undo.on_retransmit(now);
        }
        self.stats.max_pipe = self.stats.max_pipe.max(self.pipe());
        let size = len + TCP_IP_HEADER_BYTES;
        if let Some(bps) = self.cc.pacing_bps() {
            if !self.cfg.ns3_rules {
                let gap = SimDuration::from_secs_f64(size as f64 * 8.0 / bps.max(1.0));
                self.next_send_at = self.next_send_at.max(now) + gap;
            } else if self.ns3_paces(s, retransmission) && now >= self.next_send_at {
                // `SendDataPacket` starts the pacing timer only when it is not running, for the
                // payload's time at the pacing rate (`CalculateBytesTxTime(sz)`).
                self.next_send_at = now + SimDuration::from_secs_f64(len as f64 * 8.0 / bps.max(1.0));
            }
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
                ts: now,
                ts_echo: self.ts_recent,
            },
        });
        // Linux re-arms the timer when it retransmits the head (`tcp_xmit_retransmit_queue`):
        // otherwise a loss found about an RTO after the last ACK times out before its
        // retransmission can be acknowledged. ns-3 arms it only when it is not running
        // (`SendDataPacket`).
        let rearm = retransmission && s == self.sb.una && !self.cfg.ns3_rules;
        if !self.rto_timer.is_armed() || rearm {
            self.arm_rto(ctx);
        }
        if !retransmission {
            self.schedule_loss_probe(ctx);
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
            ms(self.rtt.srtt()),
            ms(self.rtt.latest),
            self.acked_bytes() as f64,
            self.pipe() as f64,
            self.stats.retransmissions as f64,
            self.trace_state() as u8 as f64,
        ];
        self.trace.record(now, v);
    }
}
