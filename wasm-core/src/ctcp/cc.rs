//! CTCP congestion control: the reference code's "aimd" (docs/ctcp.md §6.2, CTCP-code
//! `advance_cwnd`, `decrease_cwnd`, `loss_occurred`) as CTCPv1, and CTCPv2 with an H-TCP-like
//! increase (docs/ctcp.md §6.3; the paper's parameters are unknown, so Δ_L is a scenario field).
//!
//! Everything but slow-start growth happens once per RTT, when a window of packets has been
//! acknowledged. A loss backs off by β = basertt/minrtt (at least ½) only when queueing delay
//! is visible: a loss on an empty path is taken for a channel erasure, which coding repairs.
//!
//! Two rules of the reference code go beyond the paper's description, and are options
//! ([`CcRules`]): the Vegas-style slow-start exit, and counting a loss as congestion when the
//! *smoothed* RTT is 5 ms above the base. The paper (SPACOMM 2014 §II.B) says: Reno's slow start
//! (+1 per ACK), and on a loss no backoff if RTT = RTT_min, else β = RTT_min/RTT. Here "RTT" is
//! the round's minimum sample, the delay every packet of the round saw: a standing queue, not
//! the transient one a burst of the sender's own packets makes.

use crate::sim::{SimDuration, SimTime};

const QUEUE_SRTT_THRESHOLD: SimDuration = SimDuration::from_millis(5); // CTCP-code loss_occurred
const QUEUE_MINRTT_THRESHOLD: SimDuration = SimDuration::from_millis(2); // CTCP-code loss_occurred
const SSTHRESH_FACTOR: f64 = 0.75; // CTCP-code decrease_cwnd: ssthresh = 0.75·cwnd
const MIN_CWND: u32 = 2; // CTCP-code: cwnd ≥ 2

/// Which of the reference code's rules beyond the paper's description apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcRules {
    /// Leave slow start at the first per-RTT check whose Vegas backlog estimate
    /// `cwnd·(1 − basertt/srtt)` exceeds one packet (CTCP-code `advance_cwnd`). Without it only
    /// a congestion loss ends slow start, as in Reno.
    pub vegas_slow_start_exit: bool,
    /// Count a loss as congestion also when `srtt − basertt > 5 ms` (CTCP-code
    /// `loss_occurred`). The smoothed RTT rises with the transient queue of a burst, so with
    /// frequent random loss this backs off (and restarts v2's H-TCP clock) on bursts alone.
    /// Without it, only `minrtt − basertt > 2 ms` counts: a queue every packet of the round saw.
    pub srtt_gate: bool,
}

impl CcRules {
    /// The reference code's rules.
    pub const REFERENCE: CcRules = CcRules { vegas_slow_start_exit: true, srtt_gate: true };
    /// The paper's description.
    pub const PAPER: CcRules = CcRules { vegas_slow_start_exit: false, srtt_gate: false };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Increase {
    /// +1 packet per RTT (v1).
    Reno,
    /// +α(Δ) per RTT, Δ = time since the last backoff (v2).
    Htcp { delta_l: SimDuration },
}

/// Path measurements the sender keeps and the controller reads.
#[derive(Clone, Copy, Debug)]
pub struct PathState {
    pub srtt: SimDuration,
    /// All-time minimum RTT sample.
    pub basertt: SimDuration,
    /// Minimum RTT sample in the current RTT (None before a sample).
    pub minrtt: Option<SimDuration>,
    /// RTT samples in the current RTT.
    pub cntrtt: u32,
}

#[derive(Clone, Debug)]
pub struct CtcpCc {
    pub cwnd: u32,
    pub ssthresh: u32,
    max_cwnd: u32,
    increase: Increase,
    rules: CcRules,
    /// Next per-RTT update when `snd_una` reaches it.
    beg_snd_nxt: u64,
    /// No second decrease before `snd_una` passes this.
    dec_snd_nxt: u64,
    /// Losses seen since the last per-RTT update.
    losses: u64,
    last_backoff: SimTime,
    pub decreases: u64,
}

impl CtcpCc {
    pub fn new(
        initial_cwnd: u32,
        initial_ssthresh: u32,
        max_cwnd: u32,
        increase: Increase,
        rules: CcRules,
        now: SimTime,
    ) -> CtcpCc {
        CtcpCc {
            cwnd: initial_cwnd.clamp(1, max_cwnd),
            ssthresh: initial_ssthresh,
            max_cwnd,
            increase,
            rules,
            beg_snd_nxt: 0,
            dec_snd_nxt: 0,
            losses: 0,
            last_backoff: now,
            decreases: 0,
        }
    }

    /// Whether an ACK at `snd_una` triggers the per-RTT update (the sender then restarts its
    /// per-RTT RTT statistics).
    pub fn beg_snd_nxt_reached(&self, snd_una: u64) -> bool {
        snd_una >= self.beg_snd_nxt
    }

    pub fn in_slow_start(&self) -> bool {
        self.cwnd <= self.ssthresh
    }

    /// H-TCP's α(Δ) (draft-leith-tcp-htcp-06), without its 2(1 − β) factor (docs/ctcp.md §6.3: CTCP's β
    /// may be 1, which would make α = 0).
    fn alpha(&self, now: SimTime) -> f64 {
        match self.increase {
            Increase::Reno => 1.0,
            Increase::Htcp { delta_l } => {
                let d = now.saturating_since(self.last_backoff);
                if d <= delta_l {
                    1.0
                } else {
                    let x = (d - delta_l).as_secs_f64();
                    1.0 + 10.0 * x + (x / 2.0) * (x / 2.0)
                }
            }
        }
    }

    /// A good ACK (one that advanced `snd_una` to the acknowledged seqno), after `losses`
    /// transmissions were found missing.
    pub fn on_ack(&mut self, now: SimTime, snd_una: u64, snd_nxt: u64, losses: u64, path: &PathState) {
        self.losses += losses;
        if snd_una < self.beg_snd_nxt {
            if self.in_slow_start() {
                self.cwnd = (self.cwnd + 1).min(self.max_cwnd);
            }
            return;
        }
        self.per_rtt_update(now, snd_una, snd_nxt, path);
    }

    fn per_rtt_update(&mut self, now: SimTime, snd_una: u64, snd_nxt: u64, path: &PathState) {
        self.beg_snd_nxt = snd_una + self.cwnd as u64;
        let srtt = path.srtt.as_secs_f64().max(1e-9);
        let target = self.cwnd as f64 * path.basertt.as_secs_f64() / srtt;
        let diff = self.cwnd as f64 - target;
        let mut increased = 0;
        if self.rules.vegas_slow_start_exit && diff > 1.0 && self.cwnd <= self.ssthresh {
            // Vegas-style slow-start exit: a queue of more than one packet is building.
            self.cwnd = self.cwnd.min(target as u32 + 1).max(MIN_CWND);
            self.ssthresh = self.ssthresh.min(self.cwnd.saturating_sub(1));
        } else if snd_una >= self.dec_snd_nxt {
            increased = self.alpha(now).round().max(1.0) as u32;
            self.cwnd = self.cwnd.saturating_add(increased);
        }
        let queueing = (self.rules.srtt_gate && path.srtt.saturating_sub_dur(path.basertt) > QUEUE_SRTT_THRESHOLD)
            || path.minrtt.is_some_and(|m| m.saturating_sub_dur(path.basertt) > QUEUE_MINRTT_THRESHOLD);
        if self.losses > 0 && queueing && snd_una >= self.dec_snd_nxt {
            self.cwnd -= increased;
            let cut = match path.minrtt {
                Some(minrtt) if path.cntrtt > 2 => {
                    let beta = path.basertt.as_secs_f64() / minrtt.as_secs_f64().max(1e-9);
                    let cut = (self.cwnd as f64 * (1.0 - beta)).round().max(0.0) as u32;
                    cut.min((self.cwnd as f64 / 2.0).round() as u32)
                }
                _ => self.cwnd - self.cwnd / 2,
            };
            self.cwnd = (self.cwnd - cut).max(MIN_CWND);
            self.ssthresh = (SSTHRESH_FACTOR * self.cwnd as f64) as u32;
            self.dec_snd_nxt = snd_nxt;
            self.last_backoff = now;
            self.decreases += 1;
        }
        self.cwnd = self.cwnd.clamp(MIN_CWND, self.max_cwnd);
        self.ssthresh = self.ssthresh.max((SSTHRESH_FACTOR * self.cwnd as f64) as u32);
        self.losses = 0;
    }

    /// A timeout (docs/ctcp.md §5): ssthresh = max(0.85·cwnd, initial), cwnd = initial.
    pub fn on_timeout(&mut self, initial_cwnd: u32, now: SimTime) {
        self.ssthresh = ((0.85 * self.cwnd as f64) as u32).max(initial_cwnd);
        self.cwnd = initial_cwnd;
        self.last_backoff = now;
        self.losses = 0;
    }
}

trait SaturatingSub {
    fn saturating_sub_dur(self, o: SimDuration) -> SimDuration;
}
impl SaturatingSub for SimDuration {
    fn saturating_sub_dur(self, o: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_sub(o.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimDuration {
        SimDuration::from_millis(x)
    }

    fn path(srtt: u64, base: u64, min: u64) -> PathState {
        PathState { srtt: ms(srtt), basertt: ms(base), minrtt: Some(ms(min)), cntrtt: 10 }
    }

    /// A controller in congestion avoidance at `cwnd`, its per-RTT update due.
    fn in_ca(cwnd: u32, increase: Increase) -> CtcpCc {
        let mut c = CtcpCc::new(cwnd, 10, 1000, increase, CcRules::REFERENCE, SimTime::ZERO);
        c.ssthresh = cwnd / 2;
        c
    }

    #[test]
    fn loss_with_queueing_backs_off_by_basertt_over_minrtt() {
        // docs/ctcp.md §9: basertt 500, minrtt 600, cwnd 100: +1, undo, cut 17 ⇒ 83, ssthresh 62.
        let mut c = in_ca(100, Increase::Reno);
        c.on_ack(SimTime::from_secs_f64(5.0), 1000, 1100, 1, &path(600, 500, 600));
        assert_eq!(c.cwnd, 83);
        assert_eq!(c.ssthresh, 62);
    }

    #[test]
    fn loss_without_queueing_causes_no_backoff() {
        let mut c = in_ca(100, Increase::Reno);
        c.on_ack(SimTime::from_secs_f64(5.0), 1000, 1100, 5, &path(503, 500, 501));
        assert_eq!(c.cwnd, 101, "a channel erasure: coding repairs it, the window still grows");
    }

    #[test]
    fn the_cut_is_at_most_half() {
        let mut c = in_ca(100, Increase::Reno);
        c.on_ack(SimTime::from_secs_f64(5.0), 1000, 1100, 1, &path(1500, 500, 1500));
        assert_eq!(c.cwnd, 50);
    }

    #[test]
    fn at_most_one_decrease_per_rtt() {
        let mut c = in_ca(100, Increase::Reno);
        let p = path(600, 500, 600);
        c.on_ack(SimTime::from_secs_f64(5.0), 1000, 1100, 1, &p);
        assert_eq!(c.cwnd, 83);
        // The next per-RTT point comes before snd_una passes 1100: no second cut, no increase.
        c.on_ack(SimTime::from_secs_f64(5.5), 1090, 1180, 3, &p);
        assert_eq!(c.cwnd, 83);
        assert_eq!(c.decreases, 1);
    }

    #[test]
    fn v1_adds_one_packet_per_rtt() {
        let mut c = in_ca(100, Increase::Reno);
        let p = path(500, 500, 500);
        let mut una = 1000;
        for _ in 0..5 {
            c.on_ack(SimTime::from_secs_f64(5.0), una, una + 100, 0, &p);
            una += c.cwnd as u64;
        }
        assert_eq!(c.cwnd, 105);
    }

    #[test]
    fn v2_grows_like_htcp_after_delta_l() {
        // Δ = 3 s after the last backoff, Δ_L = 1 s: α = 1 + 10·2 + (2/2)² = 22 per RTT.
        let mut c = in_ca(100, Increase::Htcp { delta_l: ms(1000) });
        c.on_ack(SimTime::from_secs_f64(3.0), 1000, 1100, 0, &path(500, 500, 500));
        assert_eq!(c.cwnd, 122);
        // Within Δ_L it is Reno-like.
        let mut c = in_ca(100, Increase::Htcp { delta_l: ms(1000) });
        c.on_ack(SimTime::from_secs_f64(0.5), 1000, 1100, 0, &path(500, 500, 500));
        assert_eq!(c.cwnd, 101);
    }

    #[test]
    fn slow_start_adds_one_per_ack_and_exits_when_a_queue_builds() {
        let mut c = CtcpCc::new(8, 850, 1000, Increase::Reno, CcRules::REFERENCE, SimTime::ZERO);
        c.beg_snd_nxt = 8;
        for una in 1..8 {
            c.on_ack(SimTime::ZERO, una, 8 + una, 0, &path(500, 500, 500));
        }
        assert_eq!(c.cwnd, 15);
        // cwnd 40 with RTT 600 over base 500: target 33.3, diff 6.7 > 1 ⇒ cwnd 34, ssthresh 33.
        let mut c = CtcpCc::new(40, 850, 1000, Increase::Reno, CcRules::REFERENCE, SimTime::ZERO);
        c.on_ack(SimTime::ZERO, 0, 40, 0, &path(600, 500, 600));
        assert_eq!((c.cwnd, c.ssthresh), (34, 33));
    }

    #[test]
    fn the_paper_rules_keep_slow_start_until_a_congestion_loss() {
        // cwnd 40 with RTT 600 over base 500 and no loss: the reference exits (above), the
        // paper's Reno slow start goes on.
        let mut c = CtcpCc::new(40, 850, 1000, Increase::Reno, CcRules::PAPER, SimTime::ZERO);
        c.on_ack(SimTime::ZERO, 0, 40, 0, &path(600, 500, 600));
        assert_eq!((c.cwnd, c.ssthresh), (41, 850));
        // A loss with a standing queue (every sample of the round 100 ms above the base) ends it
        // with β = 500/600.
        let mut c = CtcpCc::new(100, 850, 1000, Increase::Reno, CcRules::PAPER, SimTime::ZERO);
        c.on_ack(SimTime::ZERO, 0, 100, 1, &path(600, 500, 600));
        assert_eq!(c.cwnd, 83);
        assert!(!c.in_slow_start());
    }

    #[test]
    fn under_the_paper_rules_a_burst_queue_is_not_congestion() {
        // The smoothed RTT is 20 ms above the base (a burst's transient queue), but the round's
        // minimum sample saw no queue: the loss is an erasure. The reference code backs off.
        let p = path(520, 500, 501);
        let mut c = in_ca(100, Increase::Reno);
        c.on_ack(SimTime::from_secs_f64(5.0), 1000, 1100, 3, &p);
        assert_eq!((c.cwnd, c.decreases), (100, 1), "reference: +1 undone, a (zero) cut, Δ restarts");
        let mut c = CtcpCc::new(100, 50, 1000, Increase::Reno, CcRules::PAPER, SimTime::ZERO);
        c.on_ack(SimTime::from_secs_f64(5.0), 1000, 1100, 3, &p);
        assert_eq!((c.cwnd, c.decreases), (101, 0));
    }

    #[test]
    fn cwnd_stays_within_two_and_the_cap() {
        let mut c = CtcpCc::new(999, 10, 1000, Increase::Htcp { delta_l: ms(0) }, CcRules::REFERENCE, SimTime::ZERO);
        c.on_ack(SimTime::from_secs_f64(100.0), 5000, 6000, 0, &path(500, 500, 500));
        assert_eq!(c.cwnd, 1000);
        let mut c = in_ca(3, Increase::Reno);
        c.on_ack(SimTime::from_secs_f64(5.0), 1000, 1003, 1, &path(2000, 500, 2000));
        assert!(c.cwnd >= 2);
    }

    #[test]
    fn timeout_resets_to_the_initial_window() {
        let mut c = in_ca(100, Increase::Reno);
        c.on_timeout(8, SimTime::from_secs_f64(1.0));
        assert_eq!((c.cwnd, c.ssthresh), (8, 85));
        let mut c = in_ca(5, Increase::Reno);
        c.on_timeout(8, SimTime::from_secs_f64(1.0));
        assert_eq!(c.ssthresh, 8);
    }
}
