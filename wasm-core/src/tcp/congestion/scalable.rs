//! Scalable TCP: Linux `net/ipv4/tcp_scalable.c`; T. Kelly, "Scalable TCP: Improving
//! Performance in Highspeed Wide Area Networks", ACM CCR 33(2), 2003; docs/congestion-control.md §10.
//!
//! Above 100 packets the window grows by one packet per 100 ACKed (+1 % per RTT) and a loss
//! takes away one eighth, so the time to recover from a loss no longer depends on the window.
//! Below 100 packets `cong_avoid_ai(cwnd)` makes it Reno.

use super::{AckSample, CongestionControl, LeftOver, Window};
use crate::sim::SimTime;

const AI_CNT: u32 = 100; // tcp_scalable.c TCP_SCALABLE_AI_CNT (paper a = 0.01)
const MD_SCALE: u32 = 3; // tcp_scalable.c TCP_SCALABLE_MD_SCALE (paper b = 1/8)
const MIN_SSTHRESH: u32 = 2; // tcp_scalable.c tcp_scalable_ssthresh floor

#[derive(Default, Debug, Clone)]
pub struct Scalable;

impl CongestionControl for Scalable {
    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        (w.cwnd - (w.cwnd >> MD_SCALE)).max(MIN_SSTHRESH)
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        let Some(acked) = w.avoidance_acks(ack, LeftOver::Carry) else { return };
        let acks_per_packet = w.cwnd.min(AI_CNT);
        w.cong_avoid_ai(acks_per_packet, acked);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_grows_like_reno, Driver};
    use super::*;
    use crate::sim::SimDuration;

    #[test]
    fn scalable_adds_ten_packets_per_thousand_acked_at_cwnd_1000() {
        let mut d = Driver::new(Scalable, 1000, Some(500));
        for _ in 0..1000 {
            d.ack(1);
        }
        assert_eq!(d.w.cwnd, 1010);
    }

    #[test]
    fn scalable_loss_at_1000_sets_ssthresh_875() {
        let mut d = Driver::new(Scalable, 1000, Some(500));
        assert_eq!(d.loss(), 875);
        assert_eq!(d.w.cwnd, 875);
    }

    #[test]
    fn scalable_ssthresh_never_drops_below_two() {
        let mut d = Driver::new(Scalable, 2, Some(2));
        assert_eq!(d.loss(), 2);
        let mut d = Driver::new(Scalable, 1, Some(2));
        assert_eq!(d.loss(), 2);
    }

    #[test]
    fn scalable_below_100_packets_grows_like_reno() {
        let scalable = assert_grows_like_reno(Scalable, 20, Some(10), SimDuration::from_millis(100), 79);
        assert_eq!(scalable.w.cwnd, 99);
    }

    #[test]
    fn scalable_slow_start_doubles_and_hands_left_over_acks_to_avoidance() {
        let mut d = Driver::new(Scalable, 1, None);
        d.ack_rounds(5);
        assert_eq!(d.w.cwnd, 32);
        let mut d = Driver::new(Scalable, 150, Some(151));
        d.w.cwnd_cnt = 0;
        d.ack(101); // 1 packet fills slow start, 100 left over make one more packet
        assert_eq!(d.w.cwnd, 152);
    }

    /// ln(1/0.875) / ln(1.01) = 13.42 RTTs at any window: 14 whole rounds of ACKs.
    #[test]
    fn scalable_recovers_from_a_loss_in_about_13_4_rtts_at_any_window() {
        for w in [1000, 10_000] {
            let mut d = Driver::new(Scalable, w, Some(w / 2));
            d.loss();
            let mut rounds = 0;
            while d.w.cwnd < w {
                d.ack_round();
                rounds += 1;
            }
            assert_eq!(rounds, 14, "loss at {w}");
        }
    }

    #[test]
    fn scalable_does_not_grow_when_application_limited() {
        let mut d = Driver::new(Scalable, 1000, Some(500));
        d.cwnd_limited = false;
        d.ack_round();
        assert_eq!(d.w.cwnd, 1000);
    }
}
