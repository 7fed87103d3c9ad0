//! Simulated time: integer nanoseconds, so that native and wasm builds agree to the bit.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A point in simulated time, in nanoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// A span of simulated time, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimDuration(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const MAX: SimTime = SimTime(u64::MAX);

    pub fn from_secs_f64(s: f64) -> SimTime {
        SimTime(secs_to_nanos(s))
    }
    pub const fn from_millis(ms: u64) -> SimTime {
        SimTime(SimDuration::from_millis(ms).0)
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    pub fn saturating_since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    pub const ZERO: SimDuration = SimDuration(0);

    pub const fn from_millis(ms: u64) -> SimDuration {
        SimDuration(ms * 1_000_000)
    }
    pub const fn from_micros(us: u64) -> SimDuration {
        SimDuration(us * 1_000)
    }
    pub fn from_secs_f64(s: f64) -> SimDuration {
        SimDuration(secs_to_nanos(s))
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 * 1e-6
    }
    pub fn mul_f64(self, k: f64) -> SimDuration {
        SimDuration(round_to_u64(self.0 as f64 * k))
    }
}

fn secs_to_nanos(s: f64) -> u64 {
    // Rounding, not truncation, so that 0.1 s is exactly 100_000_000 ns.
    round_to_u64(s * 1e9)
}

/// `x` rounded to the nearest integer, halves away from zero; 0 if `x` is negative or NaN: what
/// `x.round().max(0.0) as u64` gives, for every `x`, without the calls `round` and `max` are in
/// wasm nor the call `trunc` is on x86-64. `as u64` truncates and saturates (a negative or NaN
/// `x` gives 0, a huge one `u64::MAX`); below 2^53 `t` is exact, so `x - t` is `x`'s exact
/// fraction, and from 2^53 on `x` is an integer, so the test fails or `t` is saturated.
#[inline]
fn round_to_u64(x: f64) -> u64 {
    let t = x as u64;
    if x - t as f64 >= 0.5 {
        t.saturating_add(1)
    } else {
        t
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}
impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        self.0 = self.0.saturating_add(d.0);
    }
}
impl Sub<SimTime> for SimTime {
    type Output = SimDuration;
    fn sub(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}
impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, o: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(o.0))
    }
}
impl Sub for SimDuration {
    type Output = SimDuration;
    fn sub(self, o: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_sub(o.0))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.6} s", self.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_seconds_round_to_exact_nanoseconds() {
        assert_eq!(SimTime::from_secs_f64(0.1).0, 100_000_000);
        assert_eq!(SimDuration::from_secs_f64(0.25).0, 250_000_000);
    }

    #[test]
    fn rounding_to_nanoseconds_gives_what_round_then_max_zero_gave() {
        let xs = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -3.7, 0.49999999999999994, 4503599627370495.5, 9007199254740993.0];
        let huge = [1.8446744073709552e19, 1.9e19, 1e300, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 5e-324];
        for x in xs.into_iter().chain(huge) {
            assert_eq!(round_to_u64(x), x.round().max(0.0) as u64, "{x:e}");
        }
    }

    proptest::proptest! {
        #[test]
        fn rounding_to_nanoseconds_matches_round_then_max_zero_on_any_bits(bits in proptest::prelude::any::<u64>()) {
            let x = f64::from_bits(bits);
            proptest::prop_assert_eq!(round_to_u64(x), x.round().max(0.0) as u64, "{:e}", x);
        }

        #[test]
        fn rounding_to_nanoseconds_matches_near_halves(n in 0u64..(1 << 54), ulps in -2i64..=2) {
            let x = f64::from_bits(((n as f64 + 0.5).to_bits() as i64 + ulps) as u64);
            proptest::prop_assert_eq!(round_to_u64(x), x.round().max(0.0) as u64, "{:e}", x);
        }
    }

    #[test]
    fn time_arithmetic_saturates_instead_of_wrapping() {
        assert_eq!(SimTime::MAX + SimDuration(5), SimTime::MAX);
        assert_eq!(SimTime(3) - SimTime(5), SimDuration::ZERO);
    }
}
