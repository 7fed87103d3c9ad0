//! A link's bandwidth over time (`rate_schedule`): constant, steps, or a square wave, and when a
//! packet whose transmission starts at a given time has left the transmitter.

use crate::sim::{SimDuration, SimTime};

#[derive(Clone, Debug, PartialEq)]
pub enum RateSchedule {
    Constant(f64),
    /// Piecewise constant: (from, bit/s), sorted by time; before the first step the first rate.
    Steps(Vec<(SimTime, f64)>),
    /// Starts at `low` for half a period, then `high` for half a period, and so on.
    Square {
        low: f64,
        high: f64,
        period: SimDuration,
    },
}

impl RateSchedule {
    /// Bits the link can carry over `[a, b]` (the integral of its rate).
    pub fn bits_between(&self, a: SimTime, b: SimTime) -> f64 {
        if b <= a {
            return 0.0;
        }
        let secs = |x: u64| x as f64 / 1e9;
        match self {
            RateSchedule::Constant(r) => r * secs(b.0 - a.0),
            RateSchedule::Steps(steps) => {
                let mut bits = 0.0;
                let mut t = a;
                while t < b {
                    let i = steps.partition_point(|&(at, _)| at <= t);
                    let until = steps.get(i).map_or(b, |&(at, _)| at.min(b));
                    bits += self.rate_at(t) * secs(until.0 - t.0);
                    t = until;
                }
                bits
            }
            RateSchedule::Square { period, .. } => {
                let half = (period.0 / 2).max(1);
                let mut bits = 0.0;
                let mut t = a;
                while t < b {
                    let until = SimTime(((t.0 / half + 1) * half).min(b.0));
                    bits += self.rate_at(t) * secs(until.0 - t.0);
                    t = until;
                }
                bits
            }
        }
    }

    /// When the rate next changes after `t`, if it ever does.
    fn next_change(&self, t: SimTime) -> Option<SimTime> {
        match self {
            RateSchedule::Constant(_) => None,
            RateSchedule::Steps(steps) => steps.get(steps.partition_point(|&(at, _)| at <= t)).map(|&(at, _)| at),
            RateSchedule::Square { period, .. } => {
                let half = (period.0 / 2).max(1);
                Some(SimTime((t.0 / half).saturating_add(1).saturating_mul(half)))
            }
        }
    }

    /// When a packet of `bits` whose transmission starts at `start` has left the transmitter.
    /// The rate may change while it is being sent: the bits after a change go at the new rate,
    /// so a packet started during a slow step does not keep the slow rate after it ends.
    /// At least 1 ns, so that simulated time moves on however fast the link.
    pub fn transmission_end(&self, start: SimTime, bits: f64) -> SimTime {
        // Adding 0.5 and truncating rounds a positive number, and is cheaper than `round`.
        let at_rate = |bits: f64, rate: f64| ((bits * 1e9 / rate.max(1.0) + 0.5) as u64).max(1);
        let rate = self.rate_at(start);
        let end = SimTime(start.0.saturating_add(at_rate(bits, rate)));
        let Some(change) = self.next_change(start).filter(|&c| c < end) else { return end };
        let mut left = bits - rate.max(1.0) * (change.0 - start.0) as f64 / 1e9;
        let mut t = change;
        loop {
            let rate = self.rate_at(t).max(1.0);
            match self.next_change(t) {
                Some(next) if rate * (next.0 - t.0) as f64 / 1e9 < left => {
                    left -= rate * (next.0 - t.0) as f64 / 1e9;
                    t = next;
                }
                _ => return SimTime(t.0.saturating_add(at_rate(left.max(0.0), rate))),
            }
        }
    }

    pub fn rate_at(&self, t: SimTime) -> f64 {
        match self {
            RateSchedule::Constant(r) => *r,
            RateSchedule::Steps(steps) => {
                let i = steps.partition_point(|&(at, _)| at <= t);
                steps[i.saturating_sub(1)].1
            }
            RateSchedule::Square { low, high, period } => {
                let half = (period.0 / 2).max(1);
                if (t.0 / half).is_multiple_of(2) {
                    *low
                } else {
                    *high
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_schedule_alternates_low_and_high() {
        let s = RateSchedule::Square { low: 5e6, high: 35e6, period: SimDuration::from_millis(10_000) };
        assert_eq!(s.rate_at(SimTime::from_secs_f64(1.0)), 5e6);
        assert_eq!(s.rate_at(SimTime::from_secs_f64(6.0)), 35e6);
        assert_eq!(s.rate_at(SimTime::from_secs_f64(11.0)), 5e6);
    }

    #[test]
    fn step_schedule_holds_each_rate_until_the_next_step() {
        let s = RateSchedule::Steps(vec![(SimTime::ZERO, 5e6), (SimTime::from_secs_f64(10.0), 35e6)]);
        assert_eq!(s.rate_at(SimTime::from_secs_f64(9.9)), 5e6);
        assert_eq!(s.rate_at(SimTime::from_secs_f64(10.0)), 35e6);
    }

    #[test]
    fn a_packet_spanning_square_wave_halves_is_sent_at_each_half_rate() {
        // 1 ms period: 0.5 ms at 8 Mbit/s (4000 bits), 0.5 ms at 16 Mbit/s (8000), then 8 Mbit/s.
        let s = RateSchedule::Square { low: 8e6, high: 16e6, period: SimDuration::from_millis(1) };
        assert_eq!(s.transmission_end(SimTime::ZERO, 12_000.0), SimTime(1_000_000));
        assert_eq!(s.transmission_end(SimTime::ZERO, 14_000.0), SimTime(1_250_000));
        // Within one step the time is the constant-rate one, to the nanosecond.
        assert_eq!(s.transmission_end(SimTime::ZERO, 4000.0), SimTime(500_000));
        assert_eq!(RateSchedule::Constant(8e6).transmission_end(SimTime(7), 12_000.0), SimTime(1_500_007));
    }
}
