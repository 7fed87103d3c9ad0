//! Undo of spurious window reductions and F-RTO, as Linux does them (`net/ipv4/tcp_input.c`;
//! docs/tcp.md, "F-RTO and undo").
//!
//! Every loss episode (Recovery or a timeout) remembers where it began and what the window was
//! (`tcp_init_undo`: `undo_marker`, `undo_retrans`, `prior_ssthresh`, `prior_cwnd`). It is undone
//! — the module's `undo_cwnd` sets cwnd back, ssthresh returns to `prior_ssthresh` — when the
//! receiver shows that nothing was lost after all:
//! - by timestamps (Eifel detection, RFC 3522; `tcp_packet_delayed`): an ACK that echoes a
//!   timestamp older than the episode's first retransmission was sent by the original;
//! - by D-SACK (RFC 2883, RFC 3708; `tcp_check_dsack`, `tcp_try_undo_dsack`): once every
//!   retransmission of the episode is reported received twice, none was needed;
//! - by F-RTO (RFC 5682, SACK-enhanced, `tcp_frto = 2`; `tcp_process_loss`): after a timeout,
//!   the first ACK that advances the cumulative ACK sends new data instead of more
//!   retransmissions; if never-retransmitted data below the recovery point is then acknowledged,
//!   the timeout was spurious.
//!
//! Where each is tried, as in `tcp_fastretrans_alert`: leaving Recovery or Loss
//! (`tcp_try_undo_recovery`), on a partial ACK in Recovery (`tcp_try_undo_partial`), on any ACK
//! in Loss (`tcp_try_undo_loss`), and on D-SACKs in Open, Disorder and Recovery
//! (`tcp_try_undo_dsack`). An undo of a timeout also clears the loss marks the timeout set
//! (`tcp_undo_cwnd_reduction(sk, true)`), so that only RACK's own verdicts stay.
//!
//! Simplifications, stated: a partial ACK whose echo shows the hole was filled by the original
//! undoes only if no retransmission is in flight, and otherwise changes nothing (Linux also
//! stops marking losses for that ACK); the undo of a Reno (non-SACK) flow does not hold the Loss
//! state until data above the recovery point is acknowledged.

use super::{AckDelta, LossDetection, TcpSender};
use crate::sim::SimTime;
use crate::tcp::congestion::{CaState, CwndEvent};
use crate::tcp::scoreboard::RETRANSMITTED;

/// What a loss episode keeps so that it can be undone (the Linux `tcp_sock` fields named).
#[derive(Clone, Debug, Default)]
pub(super) struct UndoState {
    /// `undo_marker`: the cumulative ACK (segment) when the episode began; `None`: nothing to
    /// undo (never started, or already undone).
    pub marker: Option<u64>,
    /// `undo_retrans`: retransmissions of the episode not yet reported needless by a D-SACK;
    /// −1 until the first is counted.
    pub retrans: i64,
    /// `prior_ssthresh`: ssthresh to return to (0: leave ssthresh alone).
    pub prior_ssthresh: u32,
    /// `retrans_stamp`: when the episode's first retransmission left.
    pub retrans_stamp: Option<SimTime>,
    /// `tp->frto`: F-RTO is running in this Loss episode.
    pub frto: bool,
}

impl UndoState {
    /// `tcp_retransmit_skb`'s bookkeeping.
    pub fn on_retransmit(&mut self, now: SimTime) {
        if self.retrans_stamp.is_none() {
            self.retrans_stamp = Some(now);
        }
        if self.retrans < 0 {
            self.retrans = 0;
        }
        self.retrans += 1;
    }

    /// `tcp_init_undo`: retransmissions still in flight may bring D-SACKs later.
    pub fn init(&mut self, una: u64, retrans_out: u32) {
        self.marker = Some(una);
        self.retrans = if retrans_out > 0 { retrans_out as i64 } else { -1 };
    }

    /// `tcp_packet_delayed`: the ACK echoes a timestamp from before the first retransmission
    /// (the original got through), or nothing was retransmitted.
    pub fn packet_delayed(&self, ts_echo: SimTime) -> bool {
        match self.retrans_stamp {
            Some(first) => ts_echo > SimTime::ZERO && ts_echo < first,
            None => true,
        }
    }

    /// `tcp_may_undo`.
    pub fn may_undo(&self, ts_echo: SimTime) -> bool {
        self.marker.is_some() && (self.retrans == 0 || self.packet_delayed(ts_echo))
    }

    /// `tcp_check_dsack` / `tcp_sacktag_one`: `dup` retransmissions of the episode were needless.
    pub fn dsack(&mut self, dup: u64) {
        if self.marker.is_some() && self.retrans > 0 {
            self.retrans = (self.retrans - dup as i64).max(0);
        }
    }
}

impl TcpSender {
    /// Linux `tcp_current_ssthresh`: in a reduction, ssthresh; else at least 3/4 of cwnd.
    fn current_ssthresh(&self) -> u32 {
        if self.state == CaState::Recovery {
            self.w.ssthresh
        } else {
            self.w.ssthresh.max((self.w.cwnd >> 1) + (self.w.cwnd >> 2))
        }
    }

    /// The start of a loss episode (from `tcp_enter_recovery` and `tcp_enter_loss`), before
    /// the new ssthresh is chosen.
    pub(super) fn init_undo(&mut self) {
        self.undo.prior_ssthresh = self.current_ssthresh();
        self.undo.init(self.sb.una, self.sb.retrans_out());
    }

    /// A D-SACK block (bytes), read before the cumulative ACK moves: the segments it reports
    /// that the episode retransmitted (all of them below the cumulative ACK, where the sender no
    /// longer knows, as Linux's "dumb counting").
    pub(super) fn check_dsack(&mut self, dsack: Option<(u64, u64)>) {
        let (Some((start, end)), Some(marker)) = (dsack, self.undo.marker) else { return };
        let mss = self.cfg.mss as u64;
        let (lo, hi) = (start / mss, end.div_ceil(mss));
        if hi <= marker {
            return;
        }
        let dup = (lo..hi)
            .filter(|&s| s < self.sb.una || self.sb.get(s).is_some_and(|g| g.flags & RETRANSMITTED != 0))
            .count() as u64;
        self.undo.dsack(dup);
    }

    /// Linux `tcp_undo_cwnd_reduction`; returns whether loss marks were cleared.
    fn undo_cwnd_reduction(&mut self, unmark_loss: bool) -> bool {
        let unmarked = unmark_loss && self.sb.unmark_lost() > 0;
        if unmarked {
            self.rack.retrack(self.sb.rack_tracked());
        }
        if self.undo.prior_ssthresh > 0 {
            self.w.cwnd = self.cc.undo_cwnd(&self.w);
            self.w.ssthresh = self.w.ssthresh.max(self.undo.prior_ssthresh);
        }
        self.undo.marker = None;
        self.stats.undos += 1;
        if self.state == CaState::Loss {
            self.stats.spurious_rtos += 1;
        }
        unmarked
    }

    fn set_open(&mut self, now: SimTime) {
        if self.state != CaState::Open {
            self.cc.set_state(&mut self.w, CaState::Open, now);
            self.state = CaState::Open;
        }
    }

    /// Linux `tcp_try_keep_open`: Disorder while SACKed or retransmitted data is outstanding.
    fn try_keep_open(&mut self, now: SimTime) {
        let state = if self.sb.sacked_out > 0 || self.sb.retrans_out() > 0 { CaState::Disorder } else { CaState::Open };
        if self.state != state {
            self.cc.set_state(&mut self.w, state, now);
            self.state = state;
            self.recovery_point = self.sb.nxt;
        }
    }

    /// Linux `tcp_try_undo_recovery`, leaving Recovery or Loss with everything up to the recovery
    /// point acknowledged; returns whether the reduction was undone. The state becomes Open.
    fn try_undo_recovery(&mut self, now: SimTime) -> bool {
        let undone = self.cfg.undo && self.undo.may_undo(self.ts_echo);
        if undone {
            self.undo_cwnd_reduction(false);
        }
        self.set_open(now);
        undone
    }

    /// Linux `tcp_try_undo_loss` (`frto_undo`: F-RTO found the timeout spurious); returns
    /// whether it undid, and whether loss marks were cleared.
    fn try_undo_loss(&mut self, now: SimTime, frto_undo: bool) -> Option<bool> {
        if !(frto_undo || (self.cfg.undo && self.undo.may_undo(self.ts_echo))) {
            return None;
        }
        let unmarked = self.undo_cwnd_reduction(true);
        self.rto_retransmits = 0;
        self.undo.frto = false;
        if frto_undo || self.cfg.sack {
            self.set_open(now);
        }
        Some(unmarked)
    }

    /// Linux `tcp_try_undo_dsack`: D-SACKs covered every retransmission of the episode.
    fn try_undo_dsack(&mut self) -> bool {
        if self.cfg.undo && self.undo.marker.is_some() && self.undo.retrans == 0 {
            self.undo_cwnd_reduction(false);
            return true;
        }
        false
    }

    /// Linux `tcp_try_undo_partial`: a partial ACK in Recovery whose echo shows the hole was
    /// filled by the original. Returns whether loss marks were cleared.
    fn try_undo_partial(&mut self, now: SimTime) -> bool {
        if !self.cfg.undo || self.undo.marker.is_none() || !self.undo.packet_delayed(self.ts_echo) {
            return false;
        }
        if self.sb.retrans_out() > 0 {
            return false;
        }
        let unmarked = self.undo_cwnd_reduction(true);
        self.try_keep_open(now);
        unmarked
    }

    /// Linux `tcp_process_loss` (F-RTO, RFC 5682 §3.1, SACK-enhanced); returns whether loss marks
    /// were cleared.
    fn process_loss(&mut self, now: SimTime, d: &AckDelta, cum_advanced: bool, is_dupack: bool) -> bool {
        let recovered = self.sb.una >= self.recovery_point;
        if cum_advanced {
            if let Some(unmarked) = self.try_undo_loss(now, false) {
                return unmarked;
            }
        }
        if self.undo.frto {
            // Step 3.b: never-retransmitted data was (S)ACKed: not everything was lost.
            if d.orig_acked {
                if let Some(unmarked) = self.try_undo_loss(now, true) {
                    return unmarked;
                }
            }
            if self.sb.nxt > self.recovery_point {
                if d.newly_sacked > 0 || is_dupack {
                    self.undo.frto = false; // Step 3.a: the loss was real.
                }
            } else if cum_advanced && !recovered {
                // Step 2.b: send new data (after the window is updated) rather than retransmit.
                self.recovery_point = self.sb.nxt;
                if self.has_new_data() && self.rwnd_allows(self.sb.nxt) {
                    self.send_new_only = true;
                    return false;
                }
                self.undo.frto = false;
            }
        }
        if recovered {
            // Step 2.a and the first part of 3.a: the conventional end of a timeout.
            self.try_undo_recovery(now);
        }
        false
    }

    /// The state exits and undos of Linux `tcp_fastretrans_alert`, run after loss detection:
    /// leaves Recovery or Loss once the recovery point is acknowledged (undoing if the episode
    /// was spurious), and tries each undo the state allows. Returns whether loss marks were
    /// cleared, so that loss detection looks again.
    pub(super) fn exit_or_undo(&mut self, now: SimTime, d: &AckDelta, cum_advanced: bool, is_dupack: bool) -> bool {
        if self.state == CaState::Open && !self.sb.head_retransmitted() {
            self.undo.retrans_stamp = None;
        }
        if self.state == CaState::Recovery && self.sb.una >= self.recovery_point {
            let undone = self.try_undo_recovery(now);
            // Linux `tcp_end_cwnd_reduction` (BBR restores its own window; an undone episode
            // keeps the window `undo_cwnd` gave).
            if !undone && !self.cc.has_cong_control() {
                self.w.cwnd = self.w.ssthresh;
            }
            self.set_open(now);
            self.reno_dupacks = 0;
            self.cc.cwnd_event(&mut self.w, CwndEvent::CompleteCwr, now);
        }
        match self.state {
            CaState::Recovery => {
                if cum_advanced && self.try_undo_partial(now) {
                    return true;
                }
                if self.try_undo_dsack() {
                    self.try_keep_open(now);
                }
                false
            }
            CaState::Loss => self.process_loss(now, d, cum_advanced, is_dupack),
            CaState::Open | CaState::Disorder => {
                self.try_undo_dsack();
                false
            }
        }
    }

    /// Linux `tcp_enter_loss`'s undo and F-RTO part, after the timeout marked segments lost;
    /// returns whether this timeout starts a new episode (and so chooses a new ssthresh).
    pub(super) fn enter_loss_undo(&mut self) -> bool {
        let new_recovery = matches!(self.state, CaState::Open | CaState::Disorder);
        let reduce = new_recovery
            || self.sb.una >= self.recovery_point
            || (self.state == CaState::Loss && self.rto_retransmits == 0);
        if reduce {
            self.init_undo();
        }
        // RFC 5682 §3.1 step 1: F-RTO unless a recovery is already under way, except for
        // recurring timeouts on the same segment (§3.2).
        self.undo.frto = self.cfg.frto && (new_recovery || self.rto_retransmits > 0);
        reduce
    }

    /// Whether loss detection runs by RACK (after an undo cleared the marks, it looks again).
    pub(super) fn detects_by_rack(&self) -> bool {
        self.cfg.loss_detection == LossDetection::Rack
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::congestion::testing::Driver;
    use super::super::super::congestion::{bic::Bic, cubic::Cubic, htcp::Htcp, reno::Reno, CongestionControl};
    use super::*;

    const T: fn(u64) -> SimTime = |ms| SimTime(ms * 1_000_000);

    #[test]
    fn an_echo_older_than_the_first_retransmission_shows_the_original_arrived() {
        let mut u = UndoState::default();
        u.init(100, 0);
        u.on_retransmit(T(500));
        u.on_retransmit(T(600));
        assert_eq!(u.retrans, 2);
        assert!(u.may_undo(T(400)), "Eifel: echoed 400 ms < first retransmission 500 ms");
        assert!(!u.may_undo(T(500)), "the retransmission's own echo");
        assert!(!u.may_undo(SimTime::ZERO), "no timestamp echoed");
    }

    #[test]
    fn d_sacks_for_every_retransmission_allow_the_undo() {
        let mut u = UndoState::default();
        u.init(100, 0);
        assert_eq!(u.retrans, -1, "nothing counted yet");
        u.on_retransmit(T(500));
        u.on_retransmit(T(510));
        u.dsack(1);
        assert!(!u.may_undo(T(600)));
        u.dsack(3);
        assert_eq!(u.retrans, 0, "never below zero");
        assert!(u.may_undo(T(600)));
        u.marker = None;
        assert!(!u.may_undo(T(600)), "an undone episode cannot be undone again");
    }

    #[test]
    fn retransmissions_still_in_flight_at_the_start_are_counted() {
        let mut u = UndoState::default();
        u.init(7, 3);
        assert_eq!((u.marker, u.retrans), (Some(7), 3));
        u.dsack(2);
        assert!(!u.may_undo(T(1)) || u.retrans_stamp.is_none());
    }

    /// Linux `tcp_undo_cwnd_reduction` on a driven module: cwnd from `undo_cwnd`, ssthresh back to
    /// `prior_ssthresh` (3/4 of the window before the loss, `tcp_current_ssthresh`).
    fn undo_after_loss<C: CongestionControl>(cc: C) -> (u32, u32, u32, u32) {
        let mut d = Driver::new(cc, 100, Some(50));
        d.ack_rounds(3);
        let before = d.w.cwnd;
        let prior_ssthresh = d.w.ssthresh.max((before >> 1) + (before >> 2));
        d.loss();
        let reduced = d.w.cwnd;
        d.w.cwnd = d.cc.undo_cwnd(&d.w);
        d.w.ssthresh = d.w.ssthresh.max(prior_ssthresh);
        (before, reduced, d.w.cwnd, d.w.ssthresh)
    }

    #[test]
    fn undoing_a_loss_gives_every_loss_based_module_its_window_back() {
        for (name, (before, reduced, cwnd, ssthresh)) in [
            ("reno", undo_after_loss(Reno)),
            ("cubic", undo_after_loss(Cubic::default())),
            ("bic", undo_after_loss(Bic::default())),
            ("htcp", undo_after_loss(Htcp::default())),
        ] {
            assert_eq!(cwnd, before.max(reduced), "{name}: tcp_reno_undo_cwnd gives max(cwnd, prior_cwnd)");
            assert!(ssthresh >= (before >> 1) + (before >> 2), "{name}: ssthresh {ssthresh}");
        }
    }
}
