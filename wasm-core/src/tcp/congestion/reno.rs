//! Reno / NewReno congestion control: Linux `net/ipv4/tcp_cong.c` (`tcp_reno_cong_avoid`,
//! `tcp_reno_ssthresh`), RFC 5681 §3.1. NewReno's partial-ACK recovery (RFC 6582) lives in the
//! stack, not here: with SACK off the sender recovers as NewReno.
//!
//! Constants: none beyond the stack's (ssthresh floor of 2 packets, `tcp_reno_ssthresh`).

use super::{AckSample, CongestionControl, Window};
use crate::sim::SimTime;

#[derive(Default, Debug, Clone)]
pub struct Reno;

impl CongestionControl for Reno {
    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        w.reno_ssthresh()
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        if !ack.cwnd_limited {
            return;
        }
        w.reno_cong_avoid(ack.acked);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::Driver;
    use super::*;

    #[test]
    fn slow_start_doubles_cwnd_every_rtt() {
        let mut d = Driver::new(Reno, 1, None);
        for n in 1..=6 {
            d.ack_round();
            assert_eq!(d.w.cwnd, 1 << n);
        }
    }

    #[test]
    fn congestion_avoidance_adds_one_packet_per_rtt() {
        let mut d = Driver::new(Reno, 20, Some(10));
        d.ack_round();
        assert_eq!(d.w.cwnd, 21);
        d.ack_round();
        assert_eq!(d.w.cwnd, 22);
    }

    #[test]
    fn loss_halves_the_window_with_a_floor_of_two() {
        let mut d = Driver::new(Reno, 41, Some(10));
        assert_eq!(d.loss(), 20);
        let mut d = Driver::new(Reno, 3, Some(2));
        assert_eq!(d.loss(), 2);
    }

    #[test]
    fn an_application_limited_sender_does_not_grow() {
        let mut d = Driver::new(Reno, 10, None);
        d.cwnd_limited = false;
        d.ack_round();
        assert_eq!(d.w.cwnd, 10);
    }
}
