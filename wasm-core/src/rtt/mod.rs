//! The smoothed round-trip time and its mean deviation, as every transport keeps them, in
//! integer nanoseconds (docs/models.md §7.1):
//!
//! ```text
//! first sample R:  SRTT ← R,                      RTTVAR ← R/2
//! then:            RTTVAR ← RTTVAR − RTTVAR/4 + |SRTT − R|/4
//!                  SRTT   ← SRTT − SRTT/g + R/g
//! ```
//!
//! RFC 6298 §2.2–2.3 with β = 1/4 and the gain α = 1/g as a parameter, the one thing the
//! transports differ in: TCP and INTCP (its consumer and each hop's requester) use RFC 6298's
//! 1/8; CTCP's reference code 1/⌊k/5⌋, 1/6 for its blocks of 32. INTCP's code keeps its
//! smoothed RTT at 1 ms or more (`with_floor`). TCP's `linux` profile uses Linux's own estimator
//! instead (`linux`), whose variance holds a round trip's largest deviation.

mod linux;
pub use linux::LinuxRttEstimator;

use crate::sim::SimDuration;

/// RFC 6298's gain: α = 1/8.
pub const RFC6298_GAIN: u64 = 8;
/// RFC 6298 β = 1/4, for every transport.
const RTTVAR_GAIN: u64 = 4;

#[derive(Clone, Copy, Debug)]
pub struct SmoothedRtt {
    srtt: Option<SimDuration>,
    rttvar: SimDuration,
    /// g in α = 1/g.
    gain: u64,
    /// The smallest SRTT kept.
    floor: SimDuration,
}

impl SmoothedRtt {
    /// An estimator with α = 1/`gain`.
    pub const fn new(gain: u64) -> SmoothedRtt {
        SmoothedRtt { srtt: None, rttvar: SimDuration::ZERO, gain, floor: SimDuration::ZERO }
    }

    /// Never lets SRTT fall below `floor`.
    pub const fn with_floor(mut self, floor: SimDuration) -> SmoothedRtt {
        self.floor = floor;
        self
    }

    pub fn sample(&mut self, r: SimDuration) {
        match self.srtt {
            None => {
                self.srtt = Some(r.max(self.floor));
                self.rttvar = SimDuration(r.0 / 2);
            }
            Some(s) => {
                // RTTVAR first, with the old SRTT (RFC 6298 §2.3).
                let err = s.0.abs_diff(r.0);
                self.rttvar = SimDuration(self.rttvar.0 - self.rttvar.0 / RTTVAR_GAIN + err / RTTVAR_GAIN);
                self.srtt = Some(SimDuration(s.0 - s.0 / self.gain + r.0 / self.gain).max(self.floor));
            }
        }
    }

    /// SRTT, once there was a sample.
    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt
    }

    pub fn rttvar(&self) -> SimDuration {
        self.rttvar
    }

    /// SRTT in milliseconds, 0 before the first sample (INTCP's code reads 0 as "no sample yet").
    pub fn srtt_ms(&self) -> f64 {
        self.srtt.map_or(0.0, SimDuration::as_millis_f64)
    }

    pub fn rttvar_ms(&self) -> f64 {
        self.rttvar.as_millis_f64()
    }

    /// Scales SRTT by `factor` (INTCP's consumer stretches it on consecutive timeouts).
    pub fn scale(&mut self, factor: f64) {
        if let Some(s) = &mut self.srtt {
            *s = s.mul_f64(factor);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimDuration {
        SimDuration::from_millis(x)
    }

    #[test]
    fn the_first_sample_sets_srtt_and_half_of_it_as_rttvar() {
        let mut e = SmoothedRtt::new(RFC6298_GAIN);
        assert_eq!(e.srtt(), None);
        assert_eq!(e.srtt_ms(), 0.0);
        e.sample(ms(600));
        assert_eq!(e.srtt(), Some(ms(600)));
        assert_eq!(e.rttvar(), ms(300));
    }

    #[test]
    fn later_samples_move_srtt_by_the_gain_and_rttvar_by_a_quarter() {
        for gain in [6, 8] {
            let mut e = SmoothedRtt::new(gain);
            e.sample(ms(100));
            e.sample(ms(160));
            assert_eq!(e.srtt(), Some(ms(100) + SimDuration(ms(60).0 / gain)), "gain {gain}");
            assert_eq!(e.rttvar(), SimDuration(50_000_000 - 50_000_000 / 4 + 60_000_000 / 4));
        }
    }

    #[test]
    fn the_rfc_gain_is_linux_shift_arithmetic_bit_for_bit() {
        let mut e = SmoothedRtt::new(RFC6298_GAIN);
        let (mut srtt, mut var) = (0u64, 0u64);
        for (i, r) in [7_777_777u64, 3, 12_345_678_901, 999, 50_000_001].into_iter().enumerate() {
            e.sample(SimDuration(r));
            if i == 0 {
                (srtt, var) = (r, r / 2);
            } else {
                var = var - (var >> 2) + (srtt.abs_diff(r) >> 2);
                srtt = srtt - (srtt >> 3) + (r >> 3);
            }
            assert_eq!((e.srtt(), e.rttvar()), (Some(SimDuration(srtt)), SimDuration(var)));
        }
    }

    #[test]
    fn a_floor_holds_srtt_up_from_the_first_sample_on() {
        let mut e = SmoothedRtt::new(RFC6298_GAIN).with_floor(ms(1));
        e.sample(SimDuration(200_000));
        assert_eq!(e.srtt(), Some(ms(1)));
        for _ in 0..50 {
            e.sample(SimDuration::ZERO);
        }
        assert_eq!(e.srtt(), Some(ms(1)));
    }

    #[test]
    fn constant_samples_converge_to_the_sample_with_no_deviation() {
        let mut e = SmoothedRtt::new(6);
        e.sample(ms(500));
        for _ in 0..200 {
            e.sample(ms(100));
        }
        let s = e.srtt().unwrap();
        assert!(s >= ms(100) && s - ms(100) < SimDuration::from_micros(10), "{s:?}");
        assert!(e.rttvar() < SimDuration::from_micros(10));
    }

    #[test]
    fn scaling_stretches_srtt_only() {
        let mut e = SmoothedRtt::new(RFC6298_GAIN);
        e.scale(2.0);
        assert_eq!(e.srtt(), None);
        e.sample(ms(100));
        e.scale(1.1);
        assert_eq!(e.srtt(), Some(ms(110)));
        assert_eq!(e.rttvar(), ms(50));
    }
}
