//! The `ns3` profile's loss recovery and timers: ns-3.44's `TcpSocketBase` (`ReceivedAck`,
//! `ProcessAck`, `DupAck`, `EnterRecovery`, `NewAck`, `DoRetransmit`, `ReTxTimeout`,
//! `EstimateRtt`), its `TcpTxBuffer` scoreboard and its recovery modules, `TcpPrrRecovery` (the
//! default of `TcpL4Protocol::RecoveryType`) and `TcpClassicRecovery` (`recovery: "rfc6675"`).
//! No RACK, tail loss probe, F-RTO or undo: ns-3.44 has none of them. docs/tcp.md, "The ns3
//! profile and ns-3 itself", lists each rule beside the ns-3 function it follows and what
//! still differs.
//!
//! orbitcp counts in segments where ns-3 counts bytes; every segment but the transfer's last is
//! one MSS, so the two agree except where ns-3 rounds bytes, which is noted where it matters.

use super::{Recovery, TcpSender, DUP_THRESH};
use crate::engine::Ctx;
use crate::net::SackBlocks;
use crate::sim::SimTime;
use crate::tcp::congestion::{CaState, CcKind, CwndEvent};
use crate::tcp::scoreboard::{LOST, NS3_RETRANS, RETRANSMITTED, SACKED};

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

/// `TcpPrrRecovery` as ns-3.43 and later have it (RFC 6937bis-08: PRR-CRB, PRR-SSRB once a
/// retransmission is cumulatively ACKed), counted in bytes as ns-3 counts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Ns3Prr {
    /// `m_prrDelivered`, `m_prrOut`, bytes.
    delivered: u32,
    out: u32,
    /// `m_recoveryFlightSize`: the bytes in flight (RFC 6675 pipe) when recovery began.
    flight_size: u32,
    mss: u32,
}
impl Ns3State {
    pub fn new() -> Ns3State {
        Ns3State { first_partial_ack: true, ..Ns3State::default() }
    }
}

impl Ns3Prr {
    /// `TcpPrrRecovery::EnterRecovery` (which then runs `DoRecovery` once as for a duplicate ACK).
    fn enter(pipe_segments: u32, mss: u32) -> Ns3Prr {
        Ns3Prr { delivered: 0, out: 0, flight_size: pipe_segments.wrapping_mul(mss), mss }
    }

    /// `TcpPrrRecovery::UpdateBytesSent`: every segment sent in Recovery.
    pub fn on_sent(&mut self) {
        self.out = self.out.wrapping_add(self.mss);
    }

    /// `TcpPrrRecovery::DoRecovery(tcb, deliveredBytes, isDupAck)`: the new cwnd in segments,
    /// or `None` when the ACK delivered nothing and cwnd stays as it is.
    ///
    /// Kept in ns-3's integer types, where they decide what is sent:
    /// - a duplicate ACK counts one more segment delivered while `m_prrDelivered` is below the
    ///   recovery flight size (RFC 6937bis's estimate for connections without SACK, which ns-3
    ///   also applies with SACK);
    /// - the proportional part is `ceil(m_prrDelivered * m_ssThresh * 1.0 / m_recoveryFlightSize)`,
    ///   whose first product is taken in 32 bits and wraps past 4 GiB (a few segments delivered
    ///   with an ssthresh of hundreds), so that with large windows it releases almost nothing;
    /// - below ssthresh the limit is `std::max(m_prrDelivered - m_prrOut, deliveredBytes)` in
    ///   unsigned 32 bits, so when more went out than was delivered the difference wraps, wins
    ///   the max and comes back negative as an `int`.
    ///
    /// ns-3 then sends only whole segments, so the byte count is rounded down to segments. ns-3
    /// lets `m_cWnd` wrap when the count is more negative than the flight; here it stays at 1.
    fn do_recovery(
        &mut self,
        delivered_segments: u32,
        is_dupack: bool,
        in_flight_segments: u32,
        ssthresh_segments: u32,
        retrans_acked: bool,
    ) -> Option<u32> {
        let mss = self.mss;
        let mut delivered = delivered_segments.wrapping_mul(mss);
        if is_dupack && self.delivered < self.flight_size {
            delivered = delivered.wrapping_add(mss);
        }
        if delivered == 0 {
            return None;
        }
        self.delivered = self.delivered.wrapping_add(delivered);
        let in_flight = in_flight_segments.wrapping_mul(mss);
        let ssthresh = ssthresh_segments.wrapping_mul(mss);
        let mut send_bytes: i64 = if in_flight > ssthresh {
            let product = self.delivered.wrapping_mul(ssthresh);
            let target = (product as f64 / self.flight_size.max(1) as f64).ceil() as i64;
            target - self.out as i64
        } else {
            let mut limit = self.delivered.wrapping_sub(self.out).max(delivered) as i32;
            if retrans_acked {
                limit = limit.wrapping_add(mss as i32);
            }
            limit.min(ssthresh.wrapping_sub(in_flight) as i32) as i64
        };
        // "Force a fast retransmit upon entering fast recovery".
        if self.out == 0 {
            send_bytes = send_bytes.max(mss as i64);
        }
        Some((in_flight_segments as i64 + send_bytes.div_euclid(mss as i64)).max(1) as u32)
    }
}

impl TcpSender {
    /// `TcpSocketBase::ReceivedAck` and `ProcessAck` for one ACK at or above the cumulative ACK.
    pub(super) fn on_ack_ns3(&mut self, ctx: &mut Ctx, ack_seg: u64, sack: &SackBlocks, wnd: u64) {
        let now = ctx.now;
        self.snd_wnd = wnd;
        let prior_una = self.sb.una;
        let prior_in_flight = self.pipe();
        let prior_lost_out = if self.cc.has_cong_control() { self.ns3_lost_out() } else { 0 };
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
            self.rtt.sample(now - self.ts_echo, self.flight());
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
        let mut rs = self.rate.finish(now, sample.acked, newly_lost, prior_in_flight, self.rtt.min_rtt);
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
        if self.cc.has_cong_control() {
            // `ReceivedAck` hands `CongControl` the change in the bytes marked lost over the ACK,
            // either way: a lost segment's cumulative ACK counts as a loss again.
            rs.losses = self.ns3_lost_out().abs_diff(prior_lost_out);
        }
        let control = self.control_sample(sample, rs);
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

    /// `IsRetransmittedDataAcked`'s test: `m_retrans` (retransmitted since the last timeout)
    /// and not SACKed.
    fn is_unsacked_retransmission(&self, s: u64) -> bool {
        self.sb.get(s).is_some_and(|g| g.flags & (NS3_RETRANS | SACKED) == NS3_RETRANS)
    }

    /// `TcpTxBuffer::GetLost` in segments: ns-3 keeps a segment marked lost through its
    /// retransmission until a SACK or the cumulative ACK covers it.
    fn ns3_lost_out(&self) -> u32 {
        (self.sb.una..self.sb.nxt)
            .filter(|&s| self.sb.get(s).is_some_and(|g| g.flags & SACKED == 0 && g.flags & (LOST | RETRANSMITTED) != 0))
            .count() as u32
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
                self.ns3_do_recovery(delivered, true, retrans_acked);
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
            // `MarkHeadAsLost`, which also clears the head's `m_retrans`.
            self.sb.mark_lost(una);
            self.sb.clear_ns3_retrans(Some(una));
        }
        self.recovery_point = self.sb.nxt;
        self.ns3.recover_active = true;
        self.cc.set_state(&mut self.w, CaState::Recovery, now);
        let pipe = self.pipe();
        self.cc.ns3_enter_recovery(&mut self.w, pipe, delivered);
        self.state = CaState::Recovery;
        // Without SACK ns-3 still counts the head as in flight here.
        let in_flight = self.pipe() + u32::from(!self.cfg.sack);
        self.w.prior_cwnd = self.w.cwnd;
        self.w.ssthresh = self.ns3_ssthresh(in_flight, now);
        self.w.cwnd_cnt = 0;
        if !self.cc.has_cong_control() {
            match self.cfg.recovery {
                Recovery::Prr => {
                    self.ns3.prr = Ns3Prr::enter(self.pipe(), self.cfg.mss);
                    self.ns3_do_recovery(delivered, true, retrans_acked);
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
    fn ns3_do_recovery(&mut self, delivered: u32, is_dupack: bool, retrans_acked: bool) {
        if self.cfg.recovery == Recovery::Prr && !self.cc.has_cong_control() {
            let in_flight = self.pipe();
            if let Some(cwnd) =
                self.ns3.prr.do_recovery(delivered, is_dupack, in_flight, self.w.ssthresh, retrans_acked)
            {
                self.w.cwnd = cwnd;
            }
        }
    }

    /// `ProcessAck`'s partial ACK in Recovery (RFC 6582 as ns-3 has it): the recovery module,
    /// one retransmission whatever the window unless the new head was already retransmitted,
    /// and the RTO restarted on the episode's first partial ACK only.
    fn ns3_partial_ack(&mut self, ctx: &mut Ctx, delivered: u32, retrans_acked: bool) -> u32 {
        if !self.cfg.sack {
            // `MarkHeadAsLost`, which also clears the head's `m_retrans`.
            let una = self.sb.una;
            self.sb.mark_lost(una);
            self.sb.clear_ns3_retrans(Some(una));
        }
        if delivered >= 1 {
            self.ns3_do_recovery(delivered, false, retrans_acked);
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
            .next_lost()
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
        // `SetSentListLost`: every segment not SACKed is lost and may be sent again, and no
        // segment counts as retransmitted any more (`m_retrans`).
        self.sb.mark_all_lost_on_rto(|_| false);
        self.sb.clear_ns3_retrans(None);
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
        // 100 in flight at entry, ssthresh 50, 97 still in flight: the entry ACK SACKed 3, and
        // as a duplicate ACK it counts one more (4 · 50/100 = 2 segments).
        let mut p = Ns3Prr::enter(100, MSS);
        assert_eq!(p.do_recovery(3, true, 97, 50, false), Some(99));
        p.on_sent();
        p.on_sent();
        // Each further duplicate SACKing one segment delivers two: one more segment released.
        assert_eq!(p.do_recovery(1, true, 96, 50, false), Some(97));
        p.on_sent();
        // A partial ACK of one segment is not a duplicate: half a segment, rounded down.
        assert_eq!(p.do_recovery(1, false, 96, 50, false), Some(96), "6.5 · 50/100 → 3.25, 3 out");
    }

    #[test]
    fn prr_changes_nothing_for_an_ack_that_delivers_nothing() {
        let mut p = Ns3Prr::enter(10, MSS);
        p.delivered = p.flight_size;
        assert_eq!(p.do_recovery(0, true, 8, 5, false), None);
        assert_eq!(p.do_recovery(0, false, 8, 5, false), None);
    }

    #[test]
    fn prr_proportional_part_wraps_in_32_bits_as_ns3s_does() {
        // 1252 in flight, ssthresh 624: 11 segments delivered (ten SACKed, one for the duplicate
        // ACK) · 1448 · 624 · 1448 = 14 391 776 256 bytes² wraps to 1 506 874 368, which
        // releases 832 bytes: less than the segment already out, so cwnd falls below the flight.
        let mut p = Ns3Prr::enter(1252, MSS);
        p.on_sent();
        let unwrapped = (11.0_f64 * 624.0 / 1252.0).ceil() as u32 - 1;
        assert_eq!(unwrapped, 5, "without the wrap, five segments would go out");
        assert_eq!(p.do_recovery(10, true, 1200, 624, false), Some(1199));
    }

    #[test]
    fn prr_below_ssthresh_sends_what_was_delivered_plus_one_once_a_retransmission_is_acked() {
        let mut p = Ns3Prr::enter(40, MSS);
        p.on_sent();
        p.delivered = 2 * MSS;
        // Below ssthresh (20 in flight, ssthresh 30): CRB sends what was delivered and not sent…
        assert_eq!(p.do_recovery(2, false, 20, 30, false), Some(23), "max(4 − 1, 2) = 3");
        // …plus one when the ACK covers a retransmission (SSRB), bounded by ssthresh − in flight.
        assert_eq!(p.do_recovery(2, false, 20, 30, true), Some(26), "max(6 − 1, 2) + 1 = 6");
        assert_eq!(p.do_recovery(20, false, 28, 30, true), Some(30), "never past ssthresh");
    }

    #[test]
    fn prr_below_ssthresh_holds_back_once_more_went_out_than_was_delivered() {
        let mut p = Ns3Prr::enter(40, MSS);
        for _ in 0..5 {
            p.on_sent();
        }
        // 2 delivered, 5 out: the unsigned difference wraps and wins the max, so the limit is −3
        // segments, not the 2 this ACK delivered.
        assert_eq!(p.do_recovery(2, false, 20, 30, false), Some(17));
    }
}
