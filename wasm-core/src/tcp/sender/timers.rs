//! The sender's timers: retransmission (RTO), tail loss probe, RACK's reordering timer and
//! the pacer.

use super::{LossDetection, Recovery, TcpSender, PACE_TIMER, REO_TIMER, RTO_TIMER, TLP_TIMER};
use crate::engine::Ctx;
use crate::rto::INITIAL_RTO;
use crate::sim::SimDuration;
use crate::tcp::congestion::{CaState, CwndEvent};
use crate::tcp::prr::PrrAck;
use crate::tcp::rack::probe_timeout;

impl TcpSender {
    pub(super) fn arm_rto(&mut self, ctx: &mut Ctx) {
        let deadline = ctx.now + self.rtt.rto();
        self.rto_timer.arm(ctx, deadline);
    }

    /// RFC 8985 §7.2 (Linux `tcp_schedule_loss_probe`): in Open state with SACK and data in
    /// flight, probe if no ACK comes within PTO (but never after the RTO would fire).
    /// Not in Disorder: Linux probes only in Open (or CWR, which is not modelled). In Disorder
    /// RACK's reordering timer holds Linux's one transmit timer; a probe left armed there
    /// fired after that timer had started Recovery and sent a retransmission again within a
    /// round trip.
    pub(super) fn schedule_loss_probe(&mut self, ctx: &mut Ctx) {
        let packets_out = self.sb.nxt - self.sb.una;
        if self.cfg.loss_detection != LossDetection::Rack || packets_out == 0 || self.state != CaState::Open {
            self.tlp_timer.stop();
            return;
        }
        let mut at = ctx.now + probe_timeout(self.rtt.srtt(), packets_out, INITIAL_RTO);
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
        // Linux re-arms its one transmit timer as the RTO here (`tcp_rearm_rto`): no probe is
        // left pending.
        self.tlp_timer.stop();
    }

    /// RFC 6298 §5.4–5.6 with Linux's `tcp_enter_loss` window handling.
    pub(super) fn on_rto(&mut self, ctx: &mut Ctx) {
        let now = ctx.now;
        if self.established_at.is_none() {
            // The SYN (or its SYN-ACK) was lost: send it again with the RTO backed off.
            self.stats.timeouts += 1;
            self.rtt.backoff = (self.rtt.backoff + 1).min(30);
            self.rto_timer.stop();
            self.send_syn(ctx);
            return;
        }
        if self.cfg.ns3_rules {
            return self.on_rto_ns3(ctx);
        }
        self.stats.timeouts += 1;
        // Linux `tcp_timeout_mark_lost`: with RACK, segments sent within the last RTT stay in
        // flight; the head is always marked.
        let keep_recent = self.cfg.loss_detection == LossDetection::Rack;
        let rack = &self.rack;
        self.sb.mark_all_lost_on_rto(|at| keep_recent && rack.remaining(now, at, SimDuration::ZERO) > 0);
        // Linux `tcp_enter_loss`: a new episode (from Open or Disorder, after the last one's
        // recovery point, or a timeout in Loss after progress) sets ssthresh and what undo
        // returns to; a repeated timeout, or one in Recovery, keeps the ssthresh chosen.
        if self.enter_loss_undo() {
            self.w.prior_cwnd = self.w.cwnd;
            self.w.ssthresh = self.cc.ssthresh(&self.w, now);
            self.cc.cwnd_event(&mut self.w, CwndEvent::Loss, now);
        }
        self.cc.set_state(&mut self.w, CaState::Loss, now);
        self.state = CaState::Loss;
        self.rto_retransmits += 1;
        self.send_new_only = false;
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
}
