//! Linux's smoothed RTT and RTO variance: `tcp_rtt_estimator` and `__tcp_set_rto`
//! (net/ipv4/tcp_input.c, Linux 6.1), in integer nanoseconds where the kernel counts
//! microseconds. docs/tcp.md, "The RTT estimator", explains why it matters.
//!
//! ```text
//! first sample m:   srtt ← m,  mdev ← m/2,  rttvar ← max(4·mdev, rto_min),  RTO = 3m (or m + rto_min)
//! then, per sample: err = m − srtt;  srtt += err/8
//!                   mdev += (|err| − mdev)/4, but only (|err| − mdev)/32 when the RTT fell
//!                   the round trip's largest 4·mdev (at least rto_min) lifts rttvar at once
//! once per round trip (snd_una passed the snd_nxt of the last one):
//!                   rttvar −= (rttvar − that largest 4·mdev)/4
//! RTO = srtt + rttvar
//! ```
//!
//! Unlike RFC 6298's per-sample EWMA (`crate::rtt`), which forgets a delay spike within a few
//! hundred ACKs, rttvar holds the largest deviation of each round trip and lets go of it by a
//! quarter per round trip, so a spike keeps the RTO high for several round trips.

use crate::sim::SimDuration;

/// The estimator's state, scaled as the kernel scales it (`srtt_us` by 8; `mdev_us`,
/// `mdev_max_us` and `rttvar_us` by 4).
#[derive(Clone, Copy, Debug, Default)]
pub struct LinuxRttEstimator {
    /// 8·srtt in ns, 0 before the first sample.
    srtt8: u64,
    /// 4·mdev: the mean deviation.
    mdev4: u64,
    /// The largest 4·mdev of this round trip, at least `rto_min`.
    mdev_max4: u64,
    /// 4·rttvar: what the RTO adds to srtt.
    rttvar4: u64,
    /// The segment whose acknowledgement ends this round trip (`rtt_seq`, the `snd_nxt` of
    /// when it began).
    rtt_seq: u64,
}

impl LinuxRttEstimator {
    /// Takes one measurement `m`, with the cumulative ACK `una` and the next new segment `nxt`
    /// as they stand after the ACK that measured it.
    pub fn sample(&mut self, m: SimDuration, una: u64, nxt: u64, rto_min: SimDuration) {
        let m = m.0 as i64;
        if self.srtt8 == 0 {
            self.srtt8 = (m as u64) << 3;
            self.mdev4 = (m as u64) << 1; // makes the first RTO 3·m
            self.rttvar4 = self.mdev4.max(rto_min.0);
            self.mdev_max4 = self.rttvar4;
            self.rtt_seq = nxt;
        } else {
            let mut err = m - (self.srtt8 >> 3) as i64;
            self.srtt8 = (self.srtt8 as i64 + err) as u64;
            if err < 0 {
                // The RTT fell: the deviation takes a finer gain (α·β), so that the RTO does
                // not grow on a shorter RTT and shrinks slowly.
                err = -err - (self.mdev4 >> 2) as i64;
                if err > 0 {
                    err >>= 3;
                }
            } else {
                err -= (self.mdev4 >> 2) as i64;
            }
            self.mdev4 = (self.mdev4 as i64 + err) as u64;
            if self.mdev4 > self.mdev_max4 {
                self.mdev_max4 = self.mdev4;
                self.rttvar4 = self.rttvar4.max(self.mdev_max4);
            }
            if una > self.rtt_seq {
                if self.mdev_max4 < self.rttvar4 {
                    self.rttvar4 -= (self.rttvar4 - self.mdev_max4) >> 2;
                }
                self.rtt_seq = nxt;
                self.mdev_max4 = rto_min.0;
            }
        }
        self.srtt8 = self.srtt8.max(1);
    }

    pub fn srtt(&self) -> Option<SimDuration> {
        (self.srtt8 != 0).then_some(SimDuration(self.srtt8 >> 3))
    }

    /// rttvar (the kernel's `rttvar_us` / 4), comparable with RFC 6298's RTTVAR.
    pub fn rttvar(&self) -> SimDuration {
        SimDuration(self.rttvar4 >> 2)
    }

    /// `__tcp_set_rto`: srtt + 4·rttvar, where 4·rttvar is never below `rto_min`.
    pub fn rto(&self) -> Option<SimDuration> {
        self.srtt().map(|srtt| srtt + SimDuration(self.rttvar4))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimDuration {
        SimDuration::from_millis(x)
    }

    const RTO_MIN: SimDuration = SimDuration::from_millis(200);

    #[test]
    fn the_first_sample_makes_the_rto_three_round_trips() {
        let mut e = LinuxRttEstimator::default();
        e.sample(ms(600), 0, 0, RTO_MIN);
        assert_eq!(e.srtt(), Some(ms(600)));
        assert_eq!(e.rto(), Some(ms(1800)));
        let mut short = LinuxRttEstimator::default();
        short.sample(ms(50), 0, 0, RTO_MIN);
        // 2·m is below rto_min, so the variance term is rto_min.
        assert_eq!(short.rto(), Some(ms(250)));
    }

    #[test]
    fn a_constant_rtt_settles_at_srtt_plus_rto_min() {
        let mut e = LinuxRttEstimator::default();
        for k in 0..2000u64 {
            // A round trip ends every eleventh ACK; each takes a quarter off rttvar's excess.
            e.sample(ms(500), k, k + 10, RTO_MIN);
        }
        assert_eq!(e.srtt(), Some(ms(500)));
        assert!(e.rto().unwrap() - ms(700) < SimDuration::from_micros(1), "{:?}", e.rto());
    }

    /// The kernel decays rttvar once per round trip, not once per sample: many ACKs within one
    /// round trip leave it where the spike put it.
    #[test]
    fn a_spike_holds_the_rto_until_the_round_trip_ends() {
        let mut e = LinuxRttEstimator::default();
        for k in 0..100u64 {
            e.sample(ms(200), k, k + 10, RTO_MIN);
        }
        e.sample(ms(6000), 100, 110, RTO_MIN);
        let spike_rttvar4 = e.rttvar4;
        // 4·mdev takes nearly the whole 5.8 s error at once, and rttvar with it.
        assert!(spike_rttvar4 > ms(5700).0, "{spike_rttvar4}");
        // A thousand ACKs, all within the round trip that began at the spike (una ≤ 110).
        for _ in 0..1000 {
            e.sample(ms(200), 110, 120, RTO_MIN);
        }
        assert_eq!(e.rttvar4, spike_rttvar4);
        assert!(e.rto().unwrap() > ms(5900), "{:?}", e.rto());
        // The round trip ends: rttvar gives up a quarter of what lies above the round's largest
        // deviation, which the spike's decaying deviation still set at the round's first ACK.
        let round_max = e.mdev_max4;
        assert!(round_max > ms(4000).0, "{round_max}");
        e.sample(ms(200), 121, 130, RTO_MIN);
        assert_eq!(e.rttvar4, spike_rttvar4 - (spike_rttvar4 - round_max) / 4);
        // The next round's largest deviation is the floor, rto_min: rttvar decays towards it.
        for k in 0..60u64 {
            e.sample(ms(200), 131 + 11 * k, 141 + 11 * k, RTO_MIN);
        }
        assert!(e.rttvar4 - RTO_MIN.0 < ms(1).0, "{}", e.rttvar4);
    }

    #[test]
    fn a_falling_rtt_moves_the_deviation_by_an_eighth_of_the_usual_gain() {
        let mut rising = LinuxRttEstimator::default();
        let mut falling = LinuxRttEstimator::default();
        rising.sample(ms(1000), 0, 10, RTO_MIN);
        falling.sample(ms(1000), 0, 10, RTO_MIN);
        let mdev4 = rising.mdev4; // 2000 ms
        rising.sample(ms(5000), 1, 10, RTO_MIN); // err +4000: mdev4 += 4000 − 500
        falling.sample(ms(0), 1, 10, RTO_MIN); // err −1000: |err| − mdev4/4 = 500 → 500/8
        assert_eq!(rising.mdev4, mdev4 + ms(3500).0);
        assert_eq!(falling.mdev4, mdev4 + ms(500).0 / 8);
    }
}
