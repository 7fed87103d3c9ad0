//! Proportional Rate Reduction: how many segments a sender may send on each ACK while it is
//! in Recovery (RFC 6937; Linux `tcp_cwnd_reduction` in `net/ipv4/tcp_input.c`, the default
//! recovery of every Linux stack since 3.2, and ns-3's `TcpPrrRecovery`).
//!
//! RFC 6675 sets cwnd to ssthresh when recovery starts and sends `cwnd − pipe` at once. After a
//! burst loss `pipe` is far below ssthresh, so the sender answers the loss with a burst of its
//! own: with a large window that is thousands of packets into a full queue. PRR spreads the
//! reduction over the recovery round trip instead:
//! - while `pipe > ssthresh`, it sends `ssthresh/prior_cwnd` segments per segment delivered
//!   (proportional part), so the flight falls smoothly to ssthresh;
//! - once `pipe ≤ ssthresh`, it sends at most what was delivered plus one per ACK that advanced
//!   the cumulative ACK without new loss (the slow-start reduction bound, PRR-SSRB), so it
//!   rebuilds the flight no faster than slow start would.
//!
//! The first ACK of a recovery episode may always send one segment: the fast retransmit.

/// PRR's per-episode state (Linux `prr_delivered`, `prr_out`, `prior_cwnd`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prr {
    /// cwnd when recovery started (RFC 6937 `RecoverFS`, Linux `prior_cwnd`).
    prior_cwnd: u32,
    ssthresh: u32,
    /// Segments the receiver has newly acknowledged or SACKed since recovery started.
    delivered: u64,
    /// Segments sent since recovery started.
    out: u64,
}

/// What one ACK during recovery brought.
#[derive(Clone, Copy, Debug)]
pub struct PrrAck {
    /// Segments this ACK newly acknowledged, cumulatively or by SACK.
    pub newly_acked_sacked: u32,
    /// Segments this ACK newly marked lost.
    pub newly_lost: u32,
    /// Whether the cumulative ACK advanced.
    pub una_advanced: bool,
}

impl Prr {
    /// Linux `tcp_init_cwnd_reduction`: a new recovery episode.
    pub fn start(prior_cwnd: u32, ssthresh: u32) -> Prr {
        Prr { prior_cwnd: prior_cwnd.max(1), ssthresh, delivered: 0, out: 0 }
    }

    /// Counts a segment sent during recovery (Linux increments `prr_out` on every send in a
    /// cwnd reduction).
    pub fn on_sent(&mut self) {
        self.out += 1;
    }

    /// Linux `tcp_cwnd_reduction`: the new cwnd after this ACK, given the packets in flight.
    /// An ACK that delivered nothing leaves cwnd as it was (`None`).
    pub fn on_ack(&mut self, ack: PrrAck, in_flight: u32) -> Option<u32> {
        if ack.newly_acked_sacked == 0 {
            return None;
        }
        self.delivered += ack.newly_acked_sacked as u64;
        let delta = self.ssthresh as i64 - in_flight as i64;
        let mut sndcnt: i64 = if delta < 0 {
            // RFC 6937 proportional part: ceil(delivered · ssthresh / RecoverFS) − out.
            let target = (self.ssthresh as u64 * self.delivered).div_ceil(self.prior_cwnd.max(1) as u64);
            target as i64 - self.out as i64
        } else {
            // PRR-SSRB: no faster than slow start, and never past ssthresh.
            let mut n = (self.delivered as i64 - self.out as i64).max(ack.newly_acked_sacked as i64);
            if ack.una_advanced && ack.newly_lost == 0 {
                n += 1;
            }
            n.min(delta)
        };
        // The fast retransmit goes out on the first ACK whatever the arithmetic says.
        if self.out == 0 {
            sndcnt = sndcnt.max(1);
        }
        Some((in_flight as i64 + sndcnt.max(0)).clamp(1, u32::MAX as i64) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(n: u32) -> PrrAck {
        PrrAck { newly_acked_sacked: n, newly_lost: 0, una_advanced: false }
    }

    /// Drives one recovery: `flight` segments outstanding, `lost` of them lost up front, one ACK
    /// per delivered segment; returns the segments sent per ACK.
    fn episode(prior_cwnd: u32, ssthresh: u32, lost: u32) -> Vec<u32> {
        let mut prr = Prr::start(prior_cwnd, ssthresh);
        let mut in_flight = prior_cwnd - lost;
        let mut sent = Vec::new();
        for _ in 0..(prior_cwnd - lost) {
            in_flight -= 1;
            let cwnd = prr.on_ack(ack(1), in_flight).unwrap();
            let n = cwnd.saturating_sub(in_flight);
            for _ in 0..n {
                prr.on_sent();
                in_flight += 1;
            }
            sent.push(n);
        }
        sent
    }

    #[test]
    fn a_single_loss_sends_one_segment_per_two_delivered_for_a_halved_window() {
        // RFC 6937 §6, the first example: cwnd 20, one loss, ssthresh 10 — PRR sends on every
        // other ACK ("the new ... sent on alternate ACKs"), 10 in all by the end of the round.
        let sent = episode(20, 10, 1);
        assert_eq!(sent.iter().sum::<u32>(), 10);
        assert_eq!(sent[0], 1, "the fast retransmit goes out on the first ACK");
        assert!(sent.iter().all(|&n| n <= 1), "no burst: {sent:?}");
    }

    #[test]
    fn total_sent_is_proportional_to_delivered_while_flight_exceeds_ssthresh() {
        // docs/congestion-control.md §1.3's PRR property: sent ≈ ssthresh/prior_cwnd × delivered.
        let mut prr = Prr::start(100, 70);
        let mut in_flight = 99;
        let mut sent = 0u32;
        for delivered in 1..=20u32 {
            in_flight -= 1;
            let cwnd = prr.on_ack(ack(1), in_flight).unwrap();
            let n = cwnd.saturating_sub(in_flight);
            for _ in 0..n {
                prr.on_sent();
            }
            in_flight += n;
            sent += n;
            let ideal = (70 * delivered).div_ceil(100);
            assert!(sent.abs_diff(ideal) <= 1, "after {delivered} delivered: sent {sent}, ideal {ideal}");
        }
    }

    #[test]
    fn after_a_burst_loss_the_flight_grows_no_faster_than_slow_start() {
        // RFC 6937 §6, the second example: most of the window is lost, pipe < ssthresh. PRR-SSRB
        // sends at most what was delivered plus one per cumulative advance: never cwnd − pipe.
        let mut prr = Prr::start(1000, 500);
        let in_flight = 10;
        let cwnd = prr.on_ack(PrrAck { newly_acked_sacked: 2, newly_lost: 0, una_advanced: true }, in_flight);
        assert_eq!(cwnd, Some(in_flight + 3), "RFC 6675 would allow 490 here");
    }

    #[test]
    fn new_loss_on_the_ack_withholds_the_extra_segment() {
        let mut prr = Prr::start(1000, 500);
        let cwnd = prr.on_ack(PrrAck { newly_acked_sacked: 2, newly_lost: 1, una_advanced: true }, 10);
        assert_eq!(cwnd, Some(12));
    }

    #[test]
    fn the_flight_never_rises_past_ssthresh() {
        let mut prr = Prr::start(20, 10);
        let cwnd = prr.on_ack(PrrAck { newly_acked_sacked: 8, newly_lost: 0, una_advanced: true }, 9);
        assert_eq!(cwnd, Some(10));
    }

    #[test]
    fn an_ack_that_delivers_nothing_changes_nothing() {
        let mut prr = Prr::start(20, 10);
        assert_eq!(prr.on_ack(ack(0), 15), None);
    }
}
