//! The SACK scoreboard: one entry per segment from the cumulative ACK (`una`) to the next new
//! segment (`nxt`), with what the sender knows of each (RFC 6675 §2–4; Linux keeps the same
//! facts in `TCP_SKB_CB(skb)->sacked`).
//!
//! The counters `pipe` (segments believed in the network, Linux `tcp_packets_in_flight`) and
//! `sacked_out` are kept in step with the flags; `check_counts` recounts them for audits.

use super::rate::TxSnapshot;
use crate::sim::SimTime;
use std::collections::VecDeque;

/// The receiver has SACKed the segment.
pub const SACKED: u8 = 1;
/// Believed lost and not yet sent again.
pub const LOST: u8 = 2;
/// Counted in `pipe`: its latest transmission is believed to be in the network.
pub const IN_FLIGHT: u8 = 4;
/// Retransmitted at least once: no RTT sample from it (Karn).
pub const RETRANSMITTED: u8 = 8;
/// Marked lost by a retransmission timeout (not by loss detection).
pub const RTO_LOST: u8 = 16;
/// Retransmitted since the last timeout: ns-3's `TcpTxItem::m_retrans`, which a SACK does not
/// clear (only the cumulative ACK, a timeout's `SetSentListLost` and `MarkHeadAsLost` do), so
/// ns-3's `BytesInFlight` (sent − SACKed − lost + retransmitted) still counts a retransmission
/// the receiver has SACKed. Read only by the `ns3` profile (`sacked_retrans`).
pub const NS3_RETRANS: u8 = 32;
/// RACK marked it lost and stopped tracking it until it is sent again: Linux takes such a
/// segment off its time-sorted queue (`tcp_rack_detect_loss`), so an undo that clears the mark
/// does not bring it back to RACK. A segment a timeout marked stays on that queue.
pub const RACK_UNTRACKED: u8 = 64;

#[derive(Clone, Copy, Debug)]
pub struct Segment {
    pub last_sent: SimTime,
    pub first_sent: SimTime,
    pub flags: u8,
    /// Delivery-rate state when it was last sent.
    pub tx: TxSnapshot,
}

#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    segs: VecDeque<Segment>,
    /// Oldest unacknowledged segment and the next new one.
    pub una: u64,
    pub nxt: u64,
    pub pipe: u32,
    pub sacked_out: u32,
    /// SACKed segments still flagged `NS3_RETRANS`: what ns-3's `BytesInFlight` counts beyond
    /// `pipe`.
    pub sacked_retrans: u32,
    /// One past the highest SACKed segment.
    pub high_sacked: u64,
    /// Segments below this were already considered by the DupThresh rule.
    lost_scan: u64,
    /// Lowest segment that may be waiting for a retransmission.
    rtx_scan: u64,
    /// SACK ranges (in segments) reported by the previous ACK: their segments are already marked.
    sack_cache: [(u64, u64); 3],
}

/// What a cumulative ACK covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CumAcked {
    /// Segments acknowledged that were not SACKed before.
    pub newly: u32,
    /// Whether any segment acknowledged, SACKed before or not, had been retransmitted (Linux
    /// `FLAG_RETRANS_DATA_ACKED`: Karn's rule then keeps the ACK's timing out of the RTT).
    pub retransmitted: bool,
}

impl Scoreboard {
    pub fn get(&self, s: u64) -> Option<&Segment> {
        s.checked_sub(self.una).and_then(|i| self.segs.get(i as usize))
    }

    fn seg(&mut self, s: u64) -> &mut Segment {
        let i = (s - self.una) as usize;
        &mut self.segs[i]
    }

    /// Cuts the next new segment.
    pub fn push_new(&mut self, now: SimTime) {
        self.segs.push_back(Segment { last_sent: now, first_sent: now, flags: 0, tx: TxSnapshot::default() });
        self.nxt += 1;
    }

    /// Records a (re)transmission of `s`; returns when its bytes were first sent.
    pub fn on_sent(&mut self, s: u64, now: SimTime, tx: TxSnapshot, retransmission: bool) -> SimTime {
        let seg = self.seg(s);
        let was_in_flight = seg.flags & IN_FLIGHT != 0;
        seg.last_sent = now;
        seg.tx = tx;
        seg.flags = (seg.flags & !(LOST | RTO_LOST | RACK_UNTRACKED)) | IN_FLIGHT;
        if retransmission {
            seg.flags |= RETRANSMITTED | NS3_RETRANS;
        }
        let first = seg.first_sent;
        if !was_in_flight {
            self.pipe += 1;
        }
        first
    }

    /// The lowest segment marked lost and not yet sent again (RFC 6675 NextSeg rule 1).
    pub fn next_retransmission(&mut self) -> Option<u64> {
        self.rtx_scan = self.rtx_scan.max(self.una);
        while self.rtx_scan < self.nxt {
            let f = self.seg(self.rtx_scan).flags;
            if f & LOST != 0 && f & (SACKED | IN_FLIGHT) == 0 {
                return Some(self.rtx_scan);
            }
            // Anything marked lost later lowers `rtx_scan` again (see `mark_lost`).
            self.rtx_scan += 1;
        }
        None
    }

    /// NextSeg rule 1 with (1.b) as ns-3.44's `TcpTxBuffer::NextSeg` has it: while the
    /// scoreboard holds SACK information above the cumulative ACK (`m_sackSeen`), the segment
    /// must lie below the highest one SACKed; with none, any segment marked lost will do.
    pub fn next_retransmission_below_the_highest_sack(&mut self) -> Option<u64> {
        let s = self.next_retransmission()?;
        if self.high_sacked > self.una && s + 1 >= self.high_sacked {
            return None;
        }
        Some(s)
    }

    /// Whether the oldest outstanding segment is waiting for a retransmission.
    pub fn head_lost(&self) -> bool {
        self.segs.front().is_some_and(|s| s.flags & LOST != 0 && s.flags & IN_FLIGHT == 0)
    }

    /// The highest segment the receiver has not SACKed (a tail loss probe's retransmission).
    pub fn highest_unsacked(&self) -> Option<u64> {
        (self.una..self.nxt).rev().find(|&s| self.get(s).is_some_and(|g| g.flags & SACKED == 0))
    }

    /// Marks `[lo, hi)` SACKed; calls `delivered` for each segment newly SACKed.
    pub fn mark_sacked(&mut self, lo: u64, hi: u64, delivered: &mut impl FnMut(u64, &Segment)) -> u32 {
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
                seg.flags = (f | SACKED) & !(IN_FLIGHT | LOST);
                let copy = *seg;
                if f & IN_FLIGHT != 0 {
                    self.pipe -= 1;
                }
                if f & NS3_RETRANS != 0 {
                    self.sacked_retrans += 1;
                }
                self.sacked_out += 1;
                count += 1;
                delivered(s, &copy);
            }
            s += 1;
        }
        self.high_sacked = self.high_sacked.max(hi);
        count
    }

    /// Remembers the ranges this ACK reported, so the next ACK skips them.
    pub fn set_sack_cache(&mut self, ranges: [(u64, u64); 3]) {
        self.sack_cache = ranges;
    }

    /// Advances the cumulative ACK to `ack_seg`; calls `delivered` for each segment newly
    /// acknowledged that was not SACKed before.
    pub fn ack_to(&mut self, ack_seg: u64, delivered: &mut impl FnMut(u64, &Segment)) -> CumAcked {
        let mut newly = 0;
        let mut retransmitted = false;
        while self.una < ack_seg {
            let seg = self.segs.pop_front().expect("scoreboard covers una..nxt");
            let s = self.una;
            self.una += 1;
            retransmitted |= seg.flags & RETRANSMITTED != 0;
            if seg.flags & IN_FLIGHT != 0 {
                self.pipe -= 1;
            }
            if seg.flags & SACKED != 0 {
                self.sacked_out -= 1;
                if seg.flags & NS3_RETRANS != 0 {
                    self.sacked_retrans -= 1;
                }
            } else {
                newly += 1;
                delivered(s, &seg);
            }
        }
        CumAcked { newly, retransmitted }
    }

    /// Marks `s` lost (it leaves `pipe`) unless it is SACKed, already waiting, or — for the
    /// DupThresh rule, which cannot tell — a retransmission still in flight. Returns whether
    /// it was newly marked.
    pub fn mark_lost_with(&mut self, s: u64, remark_retransmissions: bool) -> bool {
        if s < self.una || s >= self.nxt {
            return false;
        }
        let seg = self.seg(s);
        let f = seg.flags;
        if f & SACKED != 0 || f & IN_FLIGHT == 0 {
            return false;
        }
        if f & RETRANSMITTED != 0 && !remark_retransmissions {
            return false;
        }
        seg.flags = (f | LOST) & !IN_FLIGHT;
        self.pipe -= 1;
        self.rtx_scan = self.rtx_scan.min(s);
        true
    }

    /// RACK's marking: its time rule already keeps a retransmission from being re-marked
    /// within a round trip.
    pub fn mark_lost(&mut self, s: u64) -> bool {
        self.mark_lost_with(s, true)
    }

    /// RFC 6675 IsLost: a segment with DupThresh SACKed segments above it is lost. Returns how
    /// many segments were newly marked.
    pub fn mark_lost_by_sack(&mut self, dup_thresh: u32) -> u32 {
        if self.sacked_out < dup_thresh || self.high_sacked <= self.una {
            return 0;
        }
        let mut found = 0;
        let mut p = self.high_sacked.min(self.nxt);
        while p > self.una {
            p -= 1;
            if self.seg(p).flags & SACKED != 0 {
                found += 1;
                if found == dup_thresh {
                    break;
                }
            }
        }
        if found < dup_thresh {
            return 0;
        }
        let from = self.lost_scan.max(self.una);
        let mut n = 0;
        for s in from..p {
            n += self.mark_lost_with(s, false) as u32;
        }
        self.lost_scan = self.lost_scan.max(p);
        n
    }

    /// An RTO: every segment not SACKed is lost, except those `keep` says are too recent
    /// (never the head). Returns how many were marked.
    pub fn mark_all_lost_on_rto(&mut self, keep: impl Fn(SimTime) -> bool) -> u32 {
        let mut n = 0;
        for i in 0..self.segs.len() {
            let seg = &mut self.segs[i];
            if seg.flags & SACKED != 0 || (i > 0 && seg.flags & IN_FLIGHT != 0 && keep(seg.last_sent)) {
                continue;
            }
            if seg.flags & IN_FLIGHT != 0 {
                self.pipe -= 1;
            }
            seg.flags = (seg.flags & !IN_FLIGHT) | LOST | RTO_LOST;
            n += 1;
        }
        self.rtx_scan = self.una;
        self.lost_scan = self.nxt;
        n
    }

    /// ns-3's `SetSentListLost` clears every `m_retrans`; `MarkHeadAsLost` the head's
    /// (`only == Some(una)`). Clears `NS3_RETRANS` from that segment, or from every one.
    pub fn clear_ns3_retrans(&mut self, only: Option<u64>) {
        let (lo, hi) = match only {
            Some(s) if s >= self.una && s < self.nxt => (s, s + 1),
            Some(_) => return,
            None => (self.una, self.nxt),
        };
        for s in lo..hi {
            let seg = self.seg(s);
            let f = seg.flags;
            seg.flags = f & !NS3_RETRANS;
            if f & (SACKED | NS3_RETRANS) == SACKED | NS3_RETRANS {
                self.sacked_retrans -= 1;
            }
        }
    }

    /// Retransmissions believed still in the network (Linux `retrans_out`).
    pub fn retrans_out(&self) -> u32 {
        self.segs.iter().filter(|s| s.flags & (IN_FLIGHT | RETRANSMITTED) == IN_FLIGHT | RETRANSMITTED).count() as u32
    }

    /// Whether the oldest outstanding segment was ever retransmitted (Linux
    /// `tcp_any_retrans_done`'s `TCPCB_EVER_RETRANS` test).
    pub fn head_retransmitted(&self) -> bool {
        self.segs.front().is_some_and(|s| s.flags & RETRANSMITTED != 0)
    }

    /// Clears every loss mark: segments waiting for a retransmission are counted in flight again
    /// (Linux `tcp_undo_cwnd_reduction(sk, true)`). Returns how many were.
    /// RACK found `s` lost: marks it, and RACK tracks it no more until it is sent again.
    pub fn mark_lost_by_rack(&mut self, s: u64) -> bool {
        let marked = self.mark_lost(s);
        self.seg(s).flags |= RACK_UNTRACKED;
        marked
    }

    /// The segments Linux's RACK would track (`tsorted_sent_queue`): neither SACKed nor taken off
    /// by RACK, each with its latest transmission.
    pub fn rack_tracked(&self) -> impl Iterator<Item = (u64, SimTime)> + '_ {
        (self.una..)
            .zip(&self.segs)
            .filter(|(_, g)| g.flags & (SACKED | RACK_UNTRACKED) == 0)
            .map(|(s, g)| (s, g.last_sent))
    }

    pub fn unmark_lost(&mut self) -> u32 {
        let mut n = 0;
        for seg in self.segs.iter_mut() {
            if seg.flags & LOST != 0 {
                seg.flags = (seg.flags & !(LOST | RTO_LOST)) | IN_FLIGHT;
                n += 1;
            }
        }
        self.pipe += n;
        n
    }

    /// Recounts `pipe` and `sacked_out` from the flags.
    pub fn check_counts(&self) -> Result<(), CountError> {
        let pipe = self.segs.iter().filter(|s| s.flags & IN_FLIGHT != 0).count() as u32;
        let sacked = self.segs.iter().filter(|s| s.flags & SACKED != 0).count() as u32;
        if pipe != self.pipe || sacked != self.sacked_out {
            return Err(CountError::Drifted {
                pipe: self.pipe,
                pipe_recount: pipe,
                sacked_out: self.sacked_out,
                sacked_recount: sacked,
            });
        }
        let sacked_retrans =
            self.segs.iter().filter(|s| s.flags & (SACKED | NS3_RETRANS) == SACKED | NS3_RETRANS).count() as u32;
        if sacked_retrans != self.sacked_retrans {
            return Err(CountError::SackedRetransDrifted { count: self.sacked_retrans, recount: sacked_retrans });
        }
        if self.segs.len() as u64 != self.nxt - self.una {
            return Err(CountError::Gap { segments: self.segs.len() as u64, una: self.una, nxt: self.nxt });
        }
        Ok(())
    }
}

/// A breach [`Scoreboard::check_counts`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountError {
    /// The running counters differ from a recount of the flags.
    Drifted { pipe: u32, pipe_recount: u32, sacked_out: u32, sacked_recount: u32 },
    /// `sacked_retrans` differs from a recount of the flags.
    SackedRetransDrifted { count: u32, recount: u32 },
    /// The scoreboard holds `segments` entries for the `nxt − una` outstanding segments.
    Gap { segments: u64, una: u64, nxt: u64 },
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountError::Drifted { pipe, pipe_recount, sacked_out, sacked_recount } => write!(
                f,
                "scoreboard counters drifted: pipe {pipe} (recount {pipe_recount}), sacked_out {sacked_out} \
                 (recount {sacked_recount})"
            ),
            CountError::SackedRetransDrifted { count, recount } => {
                write!(f, "scoreboard counter drifted: sacked_retrans {count} (recount {recount})")
            }
            CountError::Gap { segments, una, nxt } => {
                write!(f, "scoreboard does not cover una..nxt ({segments} entries for {una}..{nxt})")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(n: u64) -> Scoreboard {
        let mut sb = Scoreboard::default();
        for s in 0..n {
            sb.push_new(SimTime(s));
            sb.on_sent(s, SimTime(s), TxSnapshot::default(), false);
        }
        sb
    }

    #[test]
    fn three_sacked_segments_above_a_hole_mark_it_lost() {
        let mut sb = sent(6);
        sb.mark_sacked(1, 3, &mut |_, _| {});
        assert_eq!(sb.mark_lost_by_sack(3), 0, "two SACKed segments are not enough");
        sb.mark_sacked(3, 4, &mut |_, _| {});
        assert_eq!(sb.mark_lost_by_sack(3), 1);
        assert!(sb.head_lost());
        assert_eq!(sb.next_retransmission(), Some(0));
        assert_eq!(sb.pipe, 2, "segments 4 and 5 are still in flight");
        sb.check_counts().unwrap();
    }

    #[test]
    fn a_sacked_segment_is_never_offered_for_retransmission() {
        let mut sb = sent(4);
        sb.mark_all_lost_on_rto(|_| false);
        sb.mark_sacked(1, 2, &mut |_, _| {});
        let mut offered = vec![];
        while let Some(s) = sb.next_retransmission() {
            offered.push(s);
            sb.on_sent(s, SimTime(10), TxSnapshot::default(), true);
        }
        assert_eq!(offered, vec![0, 2, 3]);
        sb.check_counts().unwrap();
    }

    #[test]
    fn dupthresh_does_not_remark_a_retransmission_in_flight_but_rack_may() {
        let mut sb = sent(2);
        assert!(sb.mark_lost(0));
        sb.on_sent(0, SimTime(5), TxSnapshot::default(), true);
        assert!(!sb.mark_lost_with(0, false));
        assert!(sb.mark_lost(0));
        sb.check_counts().unwrap();
    }

    #[test]
    fn an_rto_keeps_recent_segments_in_flight_but_always_marks_the_head() {
        let mut sb = sent(4);
        let marked = sb.mark_all_lost_on_rto(|_| true);
        assert_eq!(marked, 1);
        assert_eq!(sb.pipe, 3);
        sb.check_counts().unwrap();
    }

    #[test]
    fn unmarking_losses_puts_the_segments_back_in_flight() {
        let mut sb = sent(4);
        sb.mark_sacked(1, 2, &mut |_, _| {});
        sb.mark_all_lost_on_rto(|_| false);
        assert_eq!(sb.pipe, 0);
        sb.on_sent(0, SimTime(10), TxSnapshot::default(), true);
        assert_eq!((sb.retrans_out(), sb.head_retransmitted()), (1, true));
        assert_eq!(sb.unmark_lost(), 2, "segments 2 and 3; 0 is in flight again, 1 SACKed");
        assert_eq!(sb.pipe, 3);
        assert_eq!(sb.next_retransmission(), None);
        sb.check_counts().unwrap();
    }

    #[test]
    fn the_cumulative_ack_reports_only_segments_not_sacked_before() {
        let mut sb = sent(5);
        sb.mark_sacked(2, 4, &mut |_, _| {});
        let mut seen = vec![];
        let acked = sb.ack_to(5, &mut |s, _| seen.push(s));
        assert_eq!(acked, CumAcked { newly: 3, retransmitted: false });
        assert_eq!(seen, vec![0, 1, 4]);
        assert_eq!((sb.pipe, sb.sacked_out), (0, 0));
    }

    #[test]
    fn rack_tracks_what_a_timeout_marked_but_not_what_it_marked_itself_until_sent_again() {
        let mut sb = sent(5);
        sb.mark_sacked(4, 5, &mut |_, _| {});
        assert!(sb.mark_lost_by_rack(1));
        sb.mark_all_lost_on_rto(|_| false);
        sb.unmark_lost();
        let tracked: Vec<u64> = sb.rack_tracked().map(|(s, _)| s).collect();
        assert_eq!(tracked, vec![0, 2, 3], "1 was RACK's, 4 is SACKed");
        sb.on_sent(1, SimTime(9), TxSnapshot::default(), true);
        assert_eq!(sb.rack_tracked().find(|&(s, _)| s == 1), Some((1, SimTime(9))));
        sb.check_counts().unwrap();
    }

    #[test]
    fn the_cumulative_ack_tells_a_retransmission_it_covered_even_one_sacked_before() {
        let mut sb = sent(5);
        sb.mark_all_lost_on_rto(|_| false);
        sb.on_sent(2, SimTime(10), TxSnapshot::default(), true);
        sb.mark_sacked(2, 3, &mut |_, _| {});
        assert!(!sb.ack_to(2, &mut |_, _| {}).retransmitted);
        assert!(sb.ack_to(3, &mut |_, _| {}).retransmitted, "segment 2, SACKed after its retransmission");
    }

    #[test]
    fn a_sacked_retransmission_stays_in_ns3s_flight_until_the_cumulative_ack_or_a_timeout() {
        // ns-3's `TcpTxBuffer::Update` clears a SACKed segment's lost flag but not `m_retrans`,
        // so `BytesInFlight` (sent − SACKed − lost + retransmitted) still counts it.
        let mut sb = sent(6);
        sb.mark_all_lost_on_rto(|_| false);
        for s in 0..4 {
            sb.on_sent(s, SimTime(10), TxSnapshot::default(), true);
        }
        sb.mark_sacked(1, 3, &mut |_, _| {});
        sb.mark_sacked(4, 5, &mut |_, _| {});
        assert_eq!((sb.pipe, sb.sacked_retrans), (2, 2), "segments 1 and 2; 4 was never retransmitted");
        sb.check_counts().unwrap();
        sb.ack_to(2, &mut |_, _| {});
        assert_eq!((sb.pipe, sb.sacked_retrans), (1, 1));
        sb.clear_ns3_retrans(None);
        assert_eq!(sb.sacked_retrans, 0, "a timeout's SetSentListLost clears every m_retrans");
        sb.check_counts().unwrap();
    }

    #[test]
    fn ns3_retransmits_a_lost_segment_only_below_the_highest_sack_while_it_has_one() {
        // After a timeout every segment is lost; 0 and 1 are sent again and 1 arrives, SACKed:
        // 2 lies above the highest SACK, so ns-3 sends new data rather than 2 (RFC 6675 1.b;
        // ns-3.44 at RTT 800 ms, 1 %, run 10, 4.02 s).
        let mut sb = sent(5);
        sb.mark_all_lost_on_rto(|_| false);
        assert_eq!(sb.next_retransmission_below_the_highest_sack(), Some(0), "no SACK: any lost segment");
        sb.on_sent(0, SimTime(10), TxSnapshot::default(), true);
        sb.on_sent(1, SimTime(10), TxSnapshot::default(), true);
        sb.mark_sacked(1, 2, &mut |_, _| {});
        assert_eq!(sb.next_retransmission_below_the_highest_sack(), None);
        assert_eq!(sb.next_retransmission(), Some(2), "RFC 6675 without 1.b, as the linux profile has it");
        // Once the cumulative ACK passes the highest SACK, ns-3 forgets it (`m_sackSeen`).
        sb.ack_to(2, &mut |_, _| {});
        assert_eq!(sb.next_retransmission_below_the_highest_sack(), Some(2));
        sb.check_counts().unwrap();
    }
}
