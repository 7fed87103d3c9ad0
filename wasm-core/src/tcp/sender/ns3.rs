//! The `ns3` profile's loss recovery and timers: ns-3.37's `TcpSocketBase` (`ReceivedAck`,
//! `ProcessAck`, `DupAck`, `EnterRecovery`, `NewAck`, `DoRetransmit`, `ReTxTimeout`,
//! `EstimateRtt`), its `TcpTxBuffer` scoreboard and its recovery modules, `TcpPrrRecovery` (the
//! default of `TcpL4Protocol::RecoveryType`) and `TcpClassicRecovery` (`recovery: "rfc6675"`).
//! No RACK, tail loss probe, F-RTO or undo: ns-3.37 has none of them. docs/tcp.md, "The ns3
//! profile and ns-3 itself", lists each rule beside the ns-3 function it follows and what
//! still differs.
//!
//! orbitcp counts in segments where ns-3 counts bytes; every segment but the transfer's last is
//! one MSS, so the two agree except where ns-3 rounds bytes, which is noted where it matters.

use super::{Recovery, TcpSender, DUP_THRESH};
use crate::engine::Ctx;
use crate::net::SackBlocks;
use crate::sim::SimTime;
use crate::tcp::congestion::{CaState, CcKind, ControlSample, CwndEvent};
use crate::tcp::scoreboard::{LOST, RETRANSMITTED, SACKED};

/// ns-3's per-connection recovery state beyond what the Linux-shaped sender keeps.
#[derive(Clone, Debug, Default)]
pub(super) struct Ns3State {
    /// `m_dupAckCount`: ACKs that brought new SACK information (or, without SACK, duplicate
    /// ACKs) since the cumulative ACK last moved without any.
    dupacks: u32,
    /// `m_recoverActive`: the recovery point (`recovery_point`, ns-3's `m_recover`) is in force.
    recover_active: bool,
    /// `m_isFirstPartialAck`: only the first partial ACK of a recovery restarts the RTO.
    first_partial_ack: bool,
    /// The first segment `m_history` holds: a timeout empties it, so RTT samples wait for data
    /// sent after the timeout to be acknowledged.
    rtt_history_from: u64,
    /// `EnterRecovery` is retransmitting the head: ns-3 sends it whatever it is, even a
    /// retransmission sent within the round trip (the audit allows that one send).
    pub forcing_head: bool,
    pub prr: Ns3Prr,
}

/// `TcpPrrRecovery` with its default reduction bound (SSRB), in segments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Ns3Prr {
    /// `m_prrDelivered`, `m_prrOut`.
    delivered: u64,
    out: u64,
    /// `m_recoveryFlightSize`: everything outstanding when recovery began (`UnAckDataCount`),
    /// SACKed and lost segments included.
    flight_size: u64,
}

impl Ns3State {
    pub fn new() -> Ns3State {
        Ns3State { first_partial_ack: true, ..Ns3State::default() }
    }
}

impl Ns3Prr {
    /// `TcpPrrRecovery::EnterRecovery` (which then runs `DoRecovery` once).
    fn enter(unacked: u64) -> Ns3Prr {
        Ns3Prr { delivered: 0, out: 0, flight_size: unacked.max(1) }
    }

    /// `TcpPrrRecovery::UpdateBytesSent`: every segment sent in Recovery.
    pub fn on_sent(&mut self) {
        self.out += 1;
    }

    /// `TcpPrrRecovery::DoRecovery`: the new cwnd, in segments of `mss` bytes.
    ///
    /// ns-3 works in bytes and computes the proportional part as
    /// `ceil(m_prrDelivered * m_ssThresh * 1.0 / m_recoveryFlightSize)`: the first product is
    /// taken in 32 bits and wraps once it passes 4 GiB (a few segments delivered with an
    /// ssthresh of hundreds), so with large windows the proportional part releases almost
    /// nothing and the flight falls to ssthresh before anything but the fast retransmit goes
    /// out. ns-3.37's cwnd trace on tools/ns3/dumbbell.cc shows exactly that; the product is
    /// kept as ns-3 has it. ns-3 then sends only whole segments, so the byte count is rounded
    /// down to segments. ns-3 lets `m_cWnd` wrap when the count is more negative than the
    /// flight; here it stays at 1.
    fn do_recovery(&mut self, delivered: u32, in_flight: u32, ssthresh: u32, retrans_acked: bool, mss: u32) -> u32 {
        self.delivered += delivered as u64;
        let m = mss as i64;
        let (in_flight, ssthresh) = (in_flight as i64, ssthresh as i64);
        let mut send_bytes = if in_flight > ssthresh {
            let product = ((self.delivered * mss as u64) as u32).wrapping_mul((ssthresh * m) as u32);
            let target = (product as f64 / (self.flight_size as f64 * mss as f64)).ceil() as i64;
            target - self.out as i64 * m
        } else {
            let limit = if retrans_acked {
                (self.delivered as i64 - self.out as i64).max(delivered as i64) + 1
            } else {
                delivered as i64
            };
            limit.min(ssthresh - in_flight) * m
        };
        // "Force a fast retransmit upon entering fast recovery".
        if self.out == 0 {
            send_bytes = send_bytes.max(m);
        }
        (in_flight + send_bytes.div_euclid(m)).max(1) as u32
    }
}

impl TcpSender {
    /// `TcpSocketBase::ReceivedAck` and `ProcessAck` for one ACK at or above the cumulative ACK.
    pub(super) fn on_ack_ns3(&mut self, ctx: &mut Ctx, ack_seg: u64, sack: &SackBlocks, wnd: u64) {
        let now = ctx.now;
        self.snd_wnd = wnd;
        let prior_una = self.sb.una;
        let prior_in_flight = self.pipe();
        let had_outstanding = prior_una < self.sb.nxt;
        // `m_isRetransDataAcked`: a partial ACK covers a retransmission (`IsRetransmittedDataAcked`).
        let retrans_acked = self.state == CaState::Recovery
            && ack_seg < self.recovery_point
            && (prior_una..ack_seg).any(|s| self.is_unsacked_retransmission(s));
        let delta = self.take_ack(now, ack_seg, sack);
        let cum_advanced = self.sb.una > prior_una;
        if cum_advanced {
            self.rto_retransmits = 0;
        }
        // `EstimateRtt` with timestamps: a sample whenever the ACK covers the oldest segment
        // `m_history` holds, retransmitted or not (`CalculateRttSample`).
        if cum_advanced && ack_seg > self.ns3.rtt_history_from && self.ts_echo <= now {
            self.rtt.sample(now - self.ts_echo);
        }
        // `ProcessAck`: with SACK an ACK is a duplicate when it SACKs something new (RFC 6675).
        let is_dupack = if self.cfg.sack { delta.newly_sacked > 0 } else { !cum_advanced && had_outstanding };
        // `TcpTxBuffer::Update` → `UpdateLostCount`: DupThresh SACKed segments above a hole.
        let newly_lost =
            if self.cfg.sack && delta.newly_sacked > 0 { self.sb.mark_lost_by_sack(DUP_THRESH) } else { 0 };
        self.count_dupacks(is_dupack, cum_advanced, delta.newly_acked);
        let mut sample = self.ack_sample(now, &delta, prior_una, is_dupack);
        // `ProcessAck` hands `PktsAcked` the smoothed RTT (`m_tcb->m_srtt`), not this ACK's sample.
        sample.rtt = self.rtt.srtt();
        self.cc.in_ack_event(&mut self.w, &sample);
        if sample.acked > 0 {
            self.cc.pkts_acked(&mut self.w, &sample, self.state);
        }
        let rs = self.rate.finish(now, sample.acked, newly_lost, prior_in_flight, self.rtt.min_rtt);
        // `currentDelivered`: what this ACK delivered, by SACK or cumulatively.
        let delivered = delta.newly_acked + delta.newly_sacked;
        let pipe_before_sends = self.pipe();
        let mut forced = 0;
        if is_dupack {
            forced += self.ns3_dup_ack(ctx, delivered, retrans_acked);
        }
        let mut grow = 0;
        if cum_advanced {
            if !is_dupack {
                self.ns3.dupacks = 0;
            }
            if self.state == CaState::Recovery && ack_seg < self.recovery_point {
                forced += self.ns3_partial_ack(ctx, delivered, retrans_acked);
            } else if self.state == CaState::Loss && ack_seg < self.recovery_point {
                grow = delivered;
                self.ns3_new_ack(ctx, true);
            } else {
                grow = self.ns3_leave_episode(ctx, is_dupack, delivered, ack_seg - prior_una);
            }
        }
        let control = ControlSample { ack: sample, rate: rs, state: self.state, in_flight: self.pipe() };
        if self.cc.cong_control(&mut self.w, &control) {
            if self.cc.wants_app_limited() {
                self.rate.mark_app_limited(self.pipe());
            }
        } else if grow > 0 && sample.cwnd_limited && matches!(self.state, CaState::Open | CaState::Loss) {
            // `IncreaseWindow(segsAcked)`; ns-3's NewReno-style slow start and congestion
            // avoidance act once per call, whatever it acknowledged (CUBIC's slow start per segment).
            let mut g = sample;
            g.acked = if self.cfg.per_ack_growth && self.cfg.cc != CcKind::Cubic { 1 } else { grow };
            self.cc.cong_avoid(&mut self.w, &g);
        }
        self.w.cwnd = self.w.cwnd.clamp(1, self.w.cwnd_clamp);
        self.stats.max_cwnd = self.stats.max_cwnd.max(self.w.cwnd);
        if self.sb.una == self.sb.nxt && !self.has_new_data() {
            // `NewAck`: no retransmission timer once nothing is left to send.
            self.rto_timer.stop();
        }
        self.send_after_ack(ctx, pipe_before_sends, forced);
    }

    /// `TcpTxBuffer::IsLost` of the head: ns-3 keeps a segment's lost flag when it retransmits
    /// it, where orbitcp's scoreboard clears it, so a retransmitted head still counts as lost.
    fn head_lost_ns3(&self) -> bool {
        self.sb.get(self.sb.una).is_some_and(|g| g.flags & (LOST | RETRANSMITTED) != 0)
    }

    fn is_unsacked_retransmission(&self, s: u64) -> bool {
        self.sb.get(s).is_some_and(|g| g.flags & (RETRANSMITTED | SACKED) == RETRANSMITTED)
    }

    /// `TcpSocketBase::DupAck`; returns the segments sent whatever the window.
    fn ns3_dup_ack(&mut self, ctx: &mut Ctx, delivered: u32, retrans_acked: bool) -> u32 {
        let now = ctx.now;
        // Duplicate ACKs in Loss are not counted: ns-3 cannot tell them from a spurious
        // retransmission's.
        if self.state == CaState::Loss {
            return 0;
        }
        if self.state != CaState::Recovery {
            self.ns3.dupacks += 1;
        }
        if self.state == CaState::Open {
            self.cc.set_state(&mut self.w, CaState::Disorder, now);
            self.state = CaState::Disorder;
        }
        match self.state {
            CaState::Recovery => {
                self.ns3_do_recovery(delivered, retrans_acked);
                0
            }
            _ => {
                let past_recover = self.sb.una >= self.recovery_point || !self.ns3.recover_active;
                // RFC 6675 §5 steps 1 and 2 as ns-3 has them: DupThresh duplicates, or the head
                // already lost (`IsLost(m_highRxAckMark)`).
                let head_lost = self.head_lost_ns3();
                if (self.ns3.dupacks == DUP_THRESH && past_recover) || head_lost {
                    self.ns3_enter_recovery(ctx, delivered, retrans_acked)
                } else {
                    0
                }
            }
        }
    }

    /// `TcpSocketBase::EnterRecovery`: the head lost, the recovery point, ssthresh from what is
    /// in flight, the recovery module, and the head retransmitted whatever the window (4.3).
    fn ns3_enter_recovery(&mut self, ctx: &mut Ctx, delivered: u32, retrans_acked: bool) -> u32 {
        let now = ctx.now;
        self.stats.recoveries += 1;
        let una = self.sb.una;
        if !self.head_lost_ns3() {
            self.sb.mark_lost(una);
        }
        self.recovery_point = self.sb.nxt;
        self.ns3.recover_active = true;
        self.cc.set_state(&mut self.w, CaState::Recovery, now);
        self.state = CaState::Recovery;
        // Without SACK ns-3 still counts the head as in flight here.
        let in_flight = self.pipe() + u32::from(!self.cfg.sack);
        self.w.prior_cwnd = self.w.cwnd;
        self.w.ssthresh = self.ns3_ssthresh(in_flight, now);
        self.w.cwnd_cnt = 0;
        if !self.cc.has_cong_control() {
            match self.cfg.recovery {
                Recovery::Prr => {
                    self.ns3.prr = Ns3Prr::enter(self.sb.nxt - una);
                    self.ns3_do_recovery(delivered, retrans_acked);
                }
                Recovery::Rfc6675 => self.w.cwnd = self.w.ssthresh,
            }
        }
        self.ns3.forcing_head = true;
        self.send_segment(ctx, una);
        self.ns3.forcing_head = false;
        1
    }

    /// The recovery module's per-ACK step (`DoRecovery`); `TcpClassicRecovery` only inflates a
    /// traced copy of cwnd, so it changes nothing that is sent.
    fn ns3_do_recovery(&mut self, delivered: u32, retrans_acked: bool) {
        if self.cfg.recovery == Recovery::Prr && !self.cc.has_cong_control() {
            let in_flight = self.pipe();
            let mss = self.cfg.mss;
            self.w.cwnd = self.ns3.prr.do_recovery(delivered, in_flight, self.w.ssthresh, retrans_acked, mss);
        }
    }

    /// `ProcessAck`'s partial ACK in Recovery (RFC 6582 as ns-3 has it): the recovery module,
    /// one retransmission whatever the window unless the new head was already retransmitted,
    /// and the RTO restarted on the episode's first partial ACK only.
    fn ns3_partial_ack(&mut self, ctx: &mut Ctx, delivered: u32, retrans_acked: bool) -> u32 {
        if !self.cfg.sack {
            let una = self.sb.una;
            self.sb.mark_lost(una);
        }
        if delivered >= 1 {
            self.ns3_do_recovery(delivered, retrans_acked);
        }
        let mut forced = 0;
        if !self.is_unsacked_retransmission(self.sb.una) {
            forced += self.ns3_do_retransmit(ctx);
        }
        let reset = self.ns3.first_partial_ack;
        self.ns3.first_partial_ack = false;
        self.ns3_new_ack(ctx, reset);
        forced
    }

    /// `TcpSocketBase::DoRetransmit`: `NextSeg` (a lost segment not yet retransmitted, else new
    /// data the receiver's window allows), or failing both the head again.
    fn ns3_do_retransmit(&mut self, ctx: &mut Ctx) -> u32 {
        if self.sb.una >= self.sb.nxt {
            return 0;
        }
        let nxt = self.sb.nxt;
        let s = self
            .sb
            .next_retransmission()
            .or_else(|| (nxt < self.total_segs && self.rwnd_allows(nxt)).then_some(nxt))
            .unwrap_or(self.sb.una);
        self.send_segment(ctx, s);
        1
    }

    /// `ProcessAck` for a cumulative ACK outside a partial ACK: Disorder back to Open when it
    /// SACKs nothing new, Recovery or Loss ended at the recovery point (cwnd = ssthresh after
    /// Recovery). Returns the segments `IncreaseWindow` is given.
    fn ns3_leave_episode(&mut self, ctx: &mut Ctx, is_dupack: bool, delivered: u32, cum_acked: u64) -> u32 {
        let now = ctx.now;
        let mut grow = delivered;
        let mut exited_recovery = false;
        match self.state {
            CaState::Disorder if !is_dupack => self.ns3_set_open(now),
            CaState::Recovery => {
                self.ns3.first_partial_ack = true;
                grow = cum_acked as u32;
                self.cc.cwnd_event(&mut self.w, CwndEvent::CompleteCwr, now);
                self.ns3_set_open(now);
                exited_recovery = true;
                self.ns3.dupacks = 0;
                self.reno_dupacks = 0;
            }
            CaState::Loss => {
                self.ns3.first_partial_ack = true;
                // ns-3 grows by what lies beyond the recovery point only.
                grow = self.sb.una.saturating_sub(self.recovery_point) as u32;
                self.ns3_set_open(now);
            }
            _ => {}
        }
        if self.sb.una >= self.recovery_point {
            self.ns3.recover_active = false;
        }
        if exited_recovery {
            self.ns3_new_ack(ctx, true);
            self.w.cwnd = self.w.ssthresh;
        }
        if self.state == CaState::Open {
            self.ns3_new_ack(ctx, true);
            grow
        } else {
            // In Disorder ns-3 neither grows the window nor restarts the timer.
            0
        }
    }

    fn ns3_set_open(&mut self, now: SimTime) {
        self.cc.set_state(&mut self.w, CaState::Open, now);
        self.state = CaState::Open;
    }

    /// `TcpSocketBase::NewAck`: a restart recomputes the RTO from the estimator, which ends any
    /// back-off, and re-arms the timer.
    fn ns3_new_ack(&mut self, ctx: &mut Ctx, restart: bool) {
        if restart {
            self.rtt.backoff = 0;
            self.arm_rto(ctx);
        }
    }

    /// `GetSsThresh(tcb, bytesInFlight)`: ns-3's `TcpNewReno` halves what is in flight (not
    /// cwnd); the other modules here keep their own rule.
    fn ns3_ssthresh(&mut self, in_flight: u32, now: SimTime) -> u32 {
        if self.cfg.cc == CcKind::Reno {
            (in_flight / 2).max(2)
        } else {
            self.cc.ssthresh(&self.w, now)
        }
    }

    /// `TcpSocketBase::ReTxTimeout`.
    pub(super) fn on_rto_ns3(&mut self, ctx: &mut Ctx) {
        let now = ctx.now;
        self.stats.timeouts += 1;
        let in_flight_before = self.pipe();
        self.ns3.dupacks = 0;
        self.reno_dupacks = 0;
        self.dupacks = 0;
        // `SetSentListLost`: every segment not SACKed is lost and may be sent again.
        self.sb.mark_all_lost_on_rto(|_| false);
        // RFC 6675 §5.1: RecoveryPoint = HighData.
        self.recovery_point = self.sb.nxt;
        self.ns3.recover_active = true;
        // RFC 6298 §5.5: the RTO doubles (`m_rto + m_rto`, at most 60 s); `m_history` is emptied.
        self.rtt.backoff = (self.rtt.backoff + 1).min(30);
        self.ns3.rtt_history_from = self.sb.nxt;
        // ns-3 keeps ssthresh only in Loss with the head already retransmitted, but reads that
        // flag after `SetSentListLost` has cleared it: every timeout sets ssthresh again.
        self.w.prior_cwnd = self.w.cwnd;
        self.w.ssthresh = self.ns3_ssthresh(in_flight_before, now);
        self.cc.cwnd_event(&mut self.w, CwndEvent::Loss, now);
        self.cc.set_state(&mut self.w, CaState::Loss, now);
        self.state = CaState::Loss;
        self.w.cwnd = 1;
        self.w.cwnd_cnt = 0;
        self.rto_timer.stop();
        self.record(now);
        self.transmit(ctx);
        if self.sb.una < self.sb.nxt && !self.rto_timer.is_armed() {
            self.arm_rto(ctx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1448;

    #[test]
    fn prr_forces_the_fast_retransmit_then_sends_in_proportion_to_what_is_delivered() {
        // 100 outstanding, ssthresh 50, 97 still in flight: the entry ACK SACKed 3.
        let mut p = Ns3Prr::enter(100);
        assert_eq!(p.do_recovery(3, 97, 50, false, MSS), 98, "one forced segment: 3·50/100 rounds to 1");
        p.on_sent();
        // Each further SACKed segment releases half a segment: 4 delivered → floor(2) − 1 out.
        assert_eq!(p.do_recovery(1, 96, 50, false, MSS), 97);
        p.on_sent();
        assert_eq!(p.do_recovery(1, 96, 50, false, MSS), 96, "2.5 rounds down to 2, and 2 are out");
    }

    #[test]
    fn prr_proportional_part_wraps_in_32_bits_as_ns3s_does() {
        // 1252 outstanding, ssthresh 624: 10 delivered · 1448 · 624 · 1448 bytes² wraps to
        // 198 531 072, which releases 110 bytes, less than the segment already out.
        let mut p = Ns3Prr::enter(1252);
        p.on_sent();
        // Unwrapped, the same ACKs would have released four segments (10 · 624 / 1252 − 1).
        assert_eq!(p.do_recovery(10, 1200, 624, false, MSS), 1199);
    }

    #[test]
    fn prr_below_ssthresh_sends_what_was_delivered_plus_one_once_a_retransmission_is_acked() {
        let mut p = Ns3Prr::enter(40);
        p.on_sent();
        // Below ssthresh (20 in flight, ssthresh 30): SSRB sends what this ACK delivered…
        assert_eq!(p.do_recovery(2, 20, 30, false, MSS), 22);
        // …plus one when the ACK covers a retransmission, bounded by ssthresh − in flight.
        assert_eq!(p.do_recovery(2, 20, 30, true, MSS), 24, "max(4 − 1, 2) + 1 = 4");
        assert_eq!(p.do_recovery(20, 28, 30, true, MSS), 30, "never past ssthresh");
    }

    #[test]
    fn prr_keeps_cwnd_at_one_segment_when_more_went_out_than_it_allows() {
        let mut p = Ns3Prr::enter(10);
        for _ in 0..8 {
            p.on_sent();
        }
        assert_eq!(p.do_recovery(1, 6, 5, false, MSS), 1);
    }
}
