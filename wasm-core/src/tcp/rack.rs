//! RACK-TLP loss detection (RFC 8985; Linux `net/ipv4/tcp_recovery.c` and `tcp_send_loss_probe`
//! in `tcp_output.c`), Linux's default since 4.18.
//!
//! RACK decides by time, not by counting: a segment is lost when a segment *sent after it* has
//! been delivered and more than one RTT plus a reordering window has passed since it was sent.
//! This catches a lost retransmission (which DupThresh never can: nothing above it is "three
//! segments later") one round trip after it was sent, and it lets reordered segments arrive.
//!
//! TLP (the tail loss probe) answers the loss of the last segments of a flight, which produce
//! no SACKs at all: when no ACK arrives for a probe timeout (about two RTTs), the sender sends
//! one segment (new data if it may, else the highest one again), whose ACK or SACK then lets
//! RACK find the losses without waiting for the RTO.
//!
//! Sequence is in segments here; times are the transmission times of each (re)transmission.

use crate::sim::{SimDuration, SimTime};
use std::collections::VecDeque;

/// RFC 8985 §6.2: the reordering window is min_RTT/4, bounded by SRTT (Linux `tcp_rack_reo_wnd`).
const REO_WND_MIN_RTT_SHIFT: u32 = 2;
/// DupThresh in segments (RFC 8985 §6.2, Linux `tp->reordering` default 3).
pub const DUP_THRESH: u32 = 3;
/// RFC 8985 §7.2 / Linux `tcp_schedule_loss_probe`: PTO = 2·SRTT, plus the worst-case delayed-ACK
/// timer when a single segment is in flight (Linux uses `TCP_RTO_MIN`, 200 ms) …
pub const TLP_SINGLE_PACKET_EXTRA: SimDuration = SimDuration::from_millis(200);
/// … and 2 jiffies otherwise (`TCP_TIMEOUT_MIN`, 2 ms at HZ = 1000).
pub const TLP_EXTRA: SimDuration = SimDuration::from_millis(2);

/// What the sender's scoreboard says of one transmission RACK is tracking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxState {
    /// Still outstanding: this transmission is the segment's latest, not (S)ACKed, not lost.
    Outstanding,
    /// Delivered, already marked lost, or superseded by a later retransmission.
    Gone,
}

#[derive(Clone, Debug, Default)]
pub struct Rack {
    /// Transmission time and end (segment index + 1) of the most recently *sent* segment that
    /// has been delivered (RFC 8985 `RACK.xmit_ts`, `RACK.end_seq`).
    xmit_ts: Option<SimTime>,
    end_seg: u64,
    /// RTT of that segment (`RACK.rtt`).
    rtt: SimDuration,
    /// Whether reordering was ever seen on this connection (`RACK.reordering_seen`).
    pub reordering_seen: bool,
    /// Every transmission in send order (Linux `tsorted_sent_queue`); entries that are gone
    /// are dropped lazily.
    sent: VecDeque<(u64, SimTime)>,
}

/// RFC 8985 §6.2 step 2: was `(t1, s1)` sent after `(t2, s2)`?
fn sent_after(t1: SimTime, t2: SimTime, s1: u64, s2: u64) -> bool {
    t1 > t2 || (t1 == t2 && s1 > s2)
}

impl Rack {
    pub fn on_sent(&mut self, seg: u64, at: SimTime) {
        self.sent.push_back((seg, at));
    }

    /// Forgets every tracked transmission (after an RTO has re-marked the scoreboard, or when
    /// the flight is empty).
    pub fn clear_sent(&mut self) {
        self.sent.clear();
    }

    /// Tracks exactly `outstanding`, each segment with its latest transmission time. Linux keeps
    /// a segment a timeout marked lost on its time-sorted queue and only skips it; here it leaves
    /// the queue, so an undo that clears the marks must put it back, or RACK could never find it
    /// lost again.
    pub fn retrack(&mut self, outstanding: impl Iterator<Item = (u64, SimTime)>) {
        let mut sent: Vec<(u64, SimTime)> = outstanding.collect();
        sent.sort_by_key(|&(seg, at)| (at, seg));
        self.sent = sent.into();
    }

    /// RFC 8985 §6.2 step 2 (`tcp_rack_advance`): a segment sent at `xmit_ts` was delivered.
    /// A retransmitted segment that comes back faster than the minimum RTT was the original's
    /// delivery, not the retransmission's: it says nothing about time.
    pub fn on_delivered(
        &mut self,
        now: SimTime,
        seg: u64,
        xmit_ts: SimTime,
        retransmitted: bool,
        min_rtt: SimDuration,
    ) {
        let rtt = now - xmit_ts;
        if retransmitted && rtt < min_rtt {
            return;
        }
        self.rtt = rtt;
        let end = seg + 1;
        if self.xmit_ts.is_none_or(|t| sent_after(xmit_ts, t, end, self.end_seg)) {
            self.xmit_ts = Some(xmit_ts);
            self.end_seg = end;
        }
    }

    /// RFC 8985 §6.2 step 4 (`tcp_rack_reo_wnd`). Without reordering seen, the window is zero
    /// in recovery and once DupThresh segments are SACKed (RACK then acts like DupThresh).
    pub fn reo_wnd(&self, in_recovery: bool, sacked_out: u32, min_rtt: SimDuration, srtt: SimDuration) -> SimDuration {
        if !self.reordering_seen && (in_recovery || sacked_out >= DUP_THRESH) {
            return SimDuration::ZERO;
        }
        SimDuration(min_rtt.0 >> REO_WND_MIN_RTT_SHIFT).min(srtt)
    }

    /// How long until a transmission sent at `at` counts as lost (≤ 0: already).
    pub fn remaining(&self, now: SimTime, at: SimTime, reo_wnd: SimDuration) -> i64 {
        (self.rtt.0 + reo_wnd.0) as i64 - (now - at).0 as i64
    }

    /// RFC 8985 §6.2 step 5 (`tcp_rack_detect_loss`): calls `mark_lost` for every outstanding
    /// transmission sent before the most recently delivered one whose time is up. Returns when
    /// the next one would be (the reordering timer), if any.
    pub fn detect_loss(
        &mut self,
        now: SimTime,
        reo_wnd: SimDuration,
        mut state: impl FnMut(u64, SimTime) -> TxState,
        mut mark_lost: impl FnMut(u64),
    ) -> Option<SimDuration> {
        let rack_ts = self.xmit_ts?;
        while let Some(&(seg, at)) = self.sent.front() {
            if state(seg, at) == TxState::Gone {
                self.sent.pop_front();
                continue;
            }
            if !sent_after(rack_ts, at, self.end_seg, seg + 1) {
                return None;
            }
            let remaining = self.remaining(now, at, reo_wnd);
            if remaining > 0 {
                // The queue is in send order: everything behind this entry was sent later and
                // has longer to wait.
                return Some(SimDuration(remaining as u64));
            }
            mark_lost(seg);
            self.sent.pop_front();
        }
        None
    }

    /// Transmissions RACK still tracks (for tests and audits).
    pub fn tracked(&self) -> usize {
        self.sent.len()
    }
}

/// RFC 8985 §7.2: the probe timeout for the flight as it stands.
pub fn probe_timeout(srtt: Option<SimDuration>, packets_out: u64, initial_rto: SimDuration) -> SimDuration {
    match srtt {
        None => initial_rto,
        Some(s) => {
            let extra = if packets_out == 1 { TLP_SINGLE_PACKET_EXTRA } else { TLP_EXTRA };
            SimDuration(2 * s.0) + extra
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> SimTime {
        SimTime(v * 1_000_000)
    }
    const RTT: SimDuration = SimDuration::from_millis(100);

    /// Segments 0..n sent 1 ms apart from t = 0; `delivered` (segment, at ms) delivered.
    fn scenario(n: u64, delivered: &[(u64, u64)]) -> (Rack, Vec<bool>) {
        let mut rack = Rack::default();
        for s in 0..n {
            rack.on_sent(s, ms(s));
        }
        let mut acked = vec![false; n as usize];
        for &(s, at) in delivered {
            rack.on_delivered(ms(at), s, ms(s), false, RTT);
            acked[s as usize] = true;
        }
        (rack, acked)
    }

    #[test]
    fn a_segment_is_lost_once_a_later_one_is_delivered_and_an_rtt_has_passed() {
        // RFC 8985 §3.4's example: P1 lost, P2 delivered one RTT after it was sent.
        let (mut rack, acked) = scenario(3, &[(1, 101), (2, 102)]);
        let mut lost = vec![];
        let wait = rack.detect_loss(
            ms(102),
            SimDuration::ZERO,
            |s, _| if acked[s as usize] { TxState::Gone } else { TxState::Outstanding },
            |s| lost.push(s),
        );
        assert_eq!(lost, vec![0]);
        assert_eq!(wait, None);
    }

    #[test]
    fn segments_tracked_again_are_judged_in_the_order_they_were_sent() {
        // A timeout dropped everything from the queue; an undo puts back 0, 2 and 3, where 0 was
        // sent again after 2 and 3 (at 5 ms), and 3 is delivered at 105 ms.
        let mut rack = Rack::default();
        rack.on_sent(0, ms(0));
        rack.clear_sent();
        rack.retrack([(0, ms(5)), (2, ms(2)), (3, ms(3))].into_iter());
        rack.on_delivered(ms(105), 3, ms(3), false, RTT);
        let mut lost = vec![];
        let wait = rack.detect_loss(
            ms(105),
            SimDuration::ZERO,
            |s, _| if s == 3 { TxState::Gone } else { TxState::Outstanding },
            |s| lost.push(s),
        );
        // 2 was sent before 3 and its time is up; 0's latest transmission came after 3's.
        assert_eq!(lost, vec![2]);
        assert_eq!(wait, None);
    }

    #[test]
    fn the_reordering_window_delays_the_verdict_and_sets_the_timer() {
        let (mut rack, acked) = scenario(3, &[(2, 102)]);
        let mut lost = vec![];
        let reo = SimDuration::from_millis(25);
        let wait = rack.detect_loss(
            ms(102),
            reo,
            |s, _| if acked[s as usize] { TxState::Gone } else { TxState::Outstanding },
            |s| lost.push(s),
        );
        assert!(lost.is_empty(), "segments 0 and 1 may still be reordered");
        // Segment 0 was sent at 0: lost at 0 + RACK.rtt (100) + reo (25) = 125 ms.
        assert_eq!(wait, Some(SimDuration::from_millis(23)));
        let wait = rack.detect_loss(
            ms(125),
            reo,
            |s, _| if acked[s as usize] { TxState::Gone } else { TxState::Outstanding },
            |s| lost.push(s),
        );
        assert_eq!(lost, vec![0]);
        assert_eq!(wait, Some(SimDuration::from_millis(1)), "segment 1 is due 1 ms later");
    }

    #[test]
    fn a_lost_retransmission_is_detected_one_rtt_after_it_was_sent() {
        // RFC 8985 §3.3: DupThresh cannot detect a lost retransmission; RACK can, once a segment
        // sent after the retransmission is delivered.
        let mut rack = Rack::default();
        rack.on_sent(0, ms(0));
        rack.on_sent(1, ms(1));
        rack.on_delivered(ms(101), 1, ms(1), false, RTT);
        // Segment 0 is retransmitted at 102 (its first transmission is gone) and lost again;
        // segment 2 goes out right after and is delivered.
        rack.on_sent(0, ms(102));
        rack.on_sent(2, ms(103));
        rack.on_delivered(ms(203), 2, ms(103), false, RTT);
        let mut lost = vec![];
        rack.detect_loss(
            ms(203),
            SimDuration::ZERO,
            |s, at| if s == 0 && at == ms(102) { TxState::Outstanding } else { TxState::Gone },
            |s| lost.push(s),
        );
        assert_eq!(lost, vec![0]);
    }

    #[test]
    fn a_fast_ack_of_a_retransmission_does_not_move_rack() {
        let mut rack = Rack::default();
        rack.on_delivered(ms(50), 0, ms(40), true, RTT);
        assert!(rack.xmit_ts.is_none(), "10 ms is below min_rtt: the original was delivered");
    }

    #[test]
    fn the_reordering_window_is_zero_in_recovery_unless_reordering_was_seen() {
        let mut rack = Rack::default();
        let srtt = SimDuration::from_millis(120);
        assert_eq!(rack.reo_wnd(true, 0, RTT, srtt), SimDuration::ZERO);
        assert_eq!(rack.reo_wnd(false, 3, RTT, srtt), SimDuration::ZERO);
        assert_eq!(rack.reo_wnd(false, 1, RTT, srtt), SimDuration::from_millis(25));
        rack.reordering_seen = true;
        assert_eq!(rack.reo_wnd(true, 5, RTT, srtt), SimDuration::from_millis(25));
    }

    #[test]
    fn the_probe_timeout_is_two_rtts_plus_the_delayed_ack_allowance_for_one_segment() {
        let srtt = Some(SimDuration::from_millis(500));
        assert_eq!(probe_timeout(srtt, 10, SimDuration::from_millis(1000)), SimDuration::from_millis(1002));
        assert_eq!(probe_timeout(srtt, 1, SimDuration::from_millis(1000)), SimDuration::from_millis(1200));
        assert_eq!(probe_timeout(None, 1, SimDuration::from_millis(1000)), SimDuration::from_millis(1000));
    }
}
