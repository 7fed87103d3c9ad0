//! What an ACK does, in Linux's order (`tcp_ack`), one named step after another.

use super::{AckDelta, LossDetection, Recovery, TcpSender, DUP_THRESH, REO_TIMER_SLACK};
use crate::engine::Ctx;
use crate::net::{Body, Packet, SackBlocks};
use crate::sim::{SimDuration, SimTime};
use crate::tcp::congestion::{AckSample, CaState, CcKind, CwndEvent};
use crate::tcp::prr::{Prr, PrrAck};
use crate::tcp::rack::TxState;
use crate::tcp::rate::RateSample;
use crate::tcp::scoreboard::{LOST, RETRANSMITTED, SACKED};
use std::cell::Cell;

impl TcpSender {
    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: Packet) {
        match pkt.body {
            Body::TcpAck { ack, sack, dsack, wnd, ts, ts_echo } if self.established_at.is_some() => {
                self.ts_recent = self.ts_recent.max(ts);
                self.ts_echo = ts_echo;
                self.on_ack(ctx, ack, &sack, dsack, wnd)
            }
            Body::TcpSynAck { ts_echo, wnd } => self.on_syn_ack(ctx, ts_echo, wnd),
            _ => {}
        }
    }

    /// Updates the scoreboard from an ACK's SACK blocks and cumulative ACK.
    pub(super) fn take_ack(&mut self, now: SimTime, ack_seg: u64, sack: &SackBlocks) -> AckDelta {
        let mut d = AckDelta::default();
        let mss = self.cfg.mss as u64;
        let min_rtt = self.rtt.min_rtt.unwrap_or(SimDuration::ZERO);
        let high_sacked_before = self.sb.high_sacked;
        let high_seq = self.recovery_point;
        let echoed = self.ts_echo;
        let (rack, rate) = (&mut self.rack, &mut self.rate);
        let oldest_sent = Cell::new(None::<SimTime>);
        let cumulative = Cell::new(false);
        let mut on_delivered = |s: u64, seg: &crate::tcp::scoreboard::Segment| {
            let retransmitted = seg.flags & RETRANSMITTED != 0;
            // Linux's `tcp_skb_spurious_retrans`: a cumulative ACK echoing a timestamp older than
            // a segment's retransmission was set off by the original, so that retransmission
            // does not move RACK's clock (a late flight after a spurious timeout would otherwise
            // make every segment sent before the retransmission look lost).
            let spurious = cumulative.get() && retransmitted && echoed > SimTime::ZERO && echoed < seg.last_sent;
            if !spurious {
                rack.on_delivered(now, s, seg.last_sent, retransmitted, min_rtt);
            }
            rate.on_delivered(&seg.tx, seg.last_sent, now);
            if !retransmitted {
                d.newest_sample = Some(d.newest_sample.map_or(seg.last_sent, |t| t.max(seg.last_sent)));
                oldest_sent.set(Some(oldest_sent.get().map_or(seg.last_sent, |t: SimTime| t.min(seg.last_sent))));
                d.orig_acked |= s < high_seq;
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
        let first_sacked_sent = oldest_sent.replace(None);
        cumulative.set(true);
        let acked = self.sb.ack_to(ack_seg, &mut on_delivered);
        d.newly_acked = acked.newly;
        d.retransmission_acked = acked.retransmitted;
        d.first_acked_sent = oldest_sent.get();
        d.first_sacked_sent = first_sacked_sent;
        d
    }

    /// The RTT that feeds SRTT and the RTO, as Linux measures it (`tcp_clean_rtx_queue`,
    /// `tcp_ack_update_rtt`): from the oldest segment the cumulative ACK newly covered, unless it
    /// covered a retransmission (Karn); else from the oldest segment newly SACKed; else, if the
    /// cumulative ACK advanced, from the echoed timestamp (which times whichever transmission
    /// the receiver echoed, a retransmission too).
    fn rtt_measurement(&self, now: SimTime, delta: &AckDelta, cum_advanced: bool) -> Option<SimDuration> {
        let by_ack = delta.first_acked_sent.filter(|_| !delta.retransmission_acked);
        let by_timing = by_ack.or(delta.first_sacked_sent).map(|sent| now - sent);
        let echoed = self.ts_echo;
        by_timing.or_else(|| (cum_advanced && echoed > SimTime::ZERO && echoed <= now).then(|| now - echoed))
    }

    /// One ACK, in Linux's order (`tcp_ack`): the scoreboard, the RTT and the tail loss probe,
    /// the duplicate-ACK counts, the congestion control's per-ACK hooks, loss detection, the
    /// congestion state, the window, the timers, then whatever may be sent.
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
        if self.cfg.ns3_rules {
            return self.on_ack_ns3(ctx, ack_seg, sack, wnd);
        }
        self.snd_wnd = wnd;
        let prior_una = self.sb.una;
        let prior_in_flight = self.pipe();
        let had_outstanding = self.sb.una < self.sb.nxt;

        self.check_dsack(dsack);
        let delta = self.take_ack(now, ack_seg, sack);
        let cum_advanced = self.sb.una > prior_una;
        if cum_advanced {
            self.rto_retransmits = 0;
        }
        let is_dupack = !cum_advanced && had_outstanding;
        if let Some(r) = self.rtt_measurement(now, &delta, cum_advanced) {
            let newest = delta.newest_sample.map_or(r, |sent| now - sent);
            self.rtt.sample_with_newest(r, newest, self.flight());
        }
        self.process_tlp_ack(now, ack_seg, dsack, cum_advanced, delta.newly_sacked);
        self.count_dupacks(is_dupack, cum_advanced, delta.newly_acked);

        let sample = self.ack_sample(now, &delta, prior_una, is_dupack);
        self.cc.in_ack_event(&mut self.w, &sample);
        if sample.acked > 0 {
            self.cc.pkts_acked(&mut self.w, &sample, self.state);
        }
        let mut newly_lost = self.detect_losses(ctx, &sample, delta.newly_sacked, cum_advanced);
        let rs = self.rate.finish(now, sample.acked, newly_lost, prior_in_flight, self.rtt.min_rtt);

        if self.exit_or_undo(now, &delta, cum_advanced, is_dupack) && self.detects_by_rack() {
            // Linux sets `rack.advanced` on an undo: what the timeout marked is judged again.
            newly_lost = self.rack_detect(ctx);
        }
        // The audit allows the sends recovery forces on top of the flight as it is here.
        let pipe_before_sends = self.pipe();
        let mut forced_sends = self.update_ca_state(ctx, newly_lost);
        self.set_window(sample, rs, newly_lost, cum_advanced);
        self.restart_timers(ctx, cum_advanced, delta.first_sacked_sent);
        forced_sends += self.retransmit_partial_ack(ctx, cum_advanced);
        self.send_after_ack(ctx, pipe_before_sends, forced_sends);
    }

    /// NewReno bookkeeping (duplicate ACKs stand for segments that left the network) and the
    /// duplicate-ACK count of the DupThresh rule.
    pub(super) fn count_dupacks(&mut self, is_dupack: bool, cum_advanced: bool, newly_acked: u32) {
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
    }

    /// What the congestion control's per-ACK hooks are told about this ACK.
    pub(super) fn ack_sample(&self, now: SimTime, delta: &AckDelta, prior_una: u64, is_dupack: bool) -> AckSample {
        AckSample {
            now,
            acked: delta.newly_acked + delta.newly_sacked,
            acked_bytes: self.seg_start(self.sb.una) - self.seg_start(prior_una),
            rtt: delta.newest_sample.map(|t| now - t),
            srtt: self.rtt.srtt(),
            in_flight: self.pipe(),
            cwnd_limited: self.cwnd_limited(),
            snd_una: self.seg_start(self.sb.una),
            snd_nxt: self.seg_start(self.sb.nxt),
            dupack: is_dupack && delta.newly_sacked == 0,
        }
    }

    /// Marks what this ACK shows lost, by RACK or by the DupThresh rule (with SACK, or with
    /// duplicate ACKs and NewReno's partial ACKs without); returns how many segments.
    fn detect_losses(&mut self, ctx: &mut Ctx, sample: &AckSample, newly_sacked: u32, cum_advanced: bool) -> u32 {
        match self.cfg.loss_detection {
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
        }
    }

    /// Open, Disorder or Recovery by what the scoreboard now holds; returns the segments sent
    /// whatever the window (RFC 6675's first retransmission on entering Recovery).
    fn update_ca_state(&mut self, ctx: &mut Ctx, newly_lost: u32) -> u32 {
        let now = ctx.now;
        let mut forced_sends = 0;
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
        forced_sends
    }

    /// The window: an algorithm that takes over (BBR), PRR in Recovery, or growth.
    fn set_window(&mut self, sample: AckSample, rs: RateSample, newly_lost: u32, cum_advanced: bool) {
        let control = self.control_sample(sample, rs);
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
    }

    /// RFC 6298 §5.3: restart the timer when new data is acknowledged; stop it when all is.
    /// Linux (`tcp_clean_rtx_queue`) also restarts it on an ACK that acknowledges nothing new
    /// cumulatively but SACKs a segment sent before the head's last transmission: the path is
    /// delivering what was sent before the head, so the head's (re)transmission is not yet
    /// overdue. A SACK of data sent after it does not, "otherwise the timeout may continue to
    /// extend in loss recovery". Linux's one transmit timer is RACK's reordering timer while
    /// that is pending, and this restart is then not made (`tcp_identify_packet_loss`).
    fn restart_timers(&mut self, ctx: &mut Ctx, cum_advanced: bool, first_sacked_sent: Option<SimTime>) {
        if self.sb.una == self.sb.nxt {
            self.rto_timer.stop();
            self.tlp_timer.stop();
            self.reo_timer.stop();
        } else if cum_advanced
            || (sack_restarts_rto(first_sacked_sent, self.sb.get(self.sb.una).map(|h| h.last_sent))
                && !self.reo_timer.is_armed())
        {
            self.arm_rto(ctx);
        }
    }

    /// Without SACK, a partial ACK in Recovery retransmits the next hole even if the window is
    /// full (RFC 6582); returns the segments so sent.
    fn retransmit_partial_ack(&mut self, ctx: &mut Ctx, cum_advanced: bool) -> u32 {
        if self.state == CaState::Recovery && self.sb.una < self.sb.nxt && cum_advanced && !self.cfg.sack {
            if let Some(s) = self.sb.next_retransmission() {
                self.send_segment(ctx, s);
                return 1;
            }
        }
        0
    }

    /// Sends what the window allows, audits it, re-arms the tail loss probe, and records the
    /// flow's end and its trace point.
    pub(super) fn send_after_ack(&mut self, ctx: &mut Ctx, pipe_before_sends: u32, forced_sends: u32) {
        let now = ctx.now;
        let sent_before = self.stats.sent_pkts;
        if self.send_new_only {
            // F-RTO step 2.b (Linux `tcp_xmit_recovery` with `REXMIT_NEW`): new data only; if none
            // could go, F-RTO ends and the lost segments go as usual.
            let nxt = self.sb.nxt;
            self.transmit(ctx);
            self.send_new_only = false;
            if self.sb.nxt == nxt {
                self.undo.frto = false;
                self.transmit(ctx);
            }
        } else {
            self.transmit(ctx);
        }
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
    pub(super) fn rack_detect(&mut self, ctx: &mut Ctx) -> u32 {
        let in_recovery = matches!(self.state, CaState::Recovery | CaState::Loss);
        let min_rtt = self.rtt.min_rtt.unwrap_or(SimDuration::ZERO);
        let srtt = self.rtt.srtt().unwrap_or(min_rtt);
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
            n += self.sb.mark_lost_by_rack(s) as u32;
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

    pub(super) fn apply_prr(&mut self, ack: PrrAck) {
        if let Some(cwnd) = self.prr.on_ack(ack, self.pipe()) {
            self.w.cwnd = cwnd;
        }
    }

    /// RFC 6675 §5 step 4 / RFC 6582 §3.2 step 2 / Linux `tcp_enter_recovery`, with the
    /// module's ssthresh; PRR then governs the window.
    pub(super) fn enter_recovery(&mut self, now: SimTime) {
        self.stats.recoveries += 1;
        self.init_undo();
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
}

/// Linux `tcp_clean_rtx_queue`: an ACK that acknowledges nothing new cumulatively restarts the
/// retransmission timer if its RTT sample (`sack_rtt_us`, from the earliest-sent segment it newly
/// SACKed, never retransmitted) is longer than the time since the head was last sent.
fn sack_restarts_rto(first_sacked_sent: Option<SimTime>, head_last_sent: Option<SimTime>) -> bool {
    matches!((first_sacked_sent, head_last_sent), (Some(sacked), Some(head)) if sacked < head)
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: fn(u64) -> SimTime = |ms| SimTime(ms * 1_000_000);

    #[test]
    fn a_sack_of_data_sent_before_the_heads_retransmission_restarts_the_timer() {
        // The head was retransmitted at 5 s; the queue still delivers what was sent at 4.9 s.
        assert!(sack_restarts_rto(Some(T(4900)), Some(T(5000))));
    }

    #[test]
    fn a_sack_of_data_sent_after_the_head_does_not_extend_the_timer() {
        assert!(!sack_restarts_rto(Some(T(5100)), Some(T(5000))));
        assert!(!sack_restarts_rto(Some(T(5000)), Some(T(5000))), "the same instant is not before");
    }

    #[test]
    fn without_an_rtt_sample_or_a_head_nothing_restarts() {
        // Only retransmitted segments were SACKed (Karn: no sample), or nothing is outstanding.
        assert!(!sack_restarts_rto(None, Some(T(5000))));
        assert!(!sack_restarts_rto(Some(T(4900)), None));
    }
}
