//! How a constellation link's delay, rate and loss follow the satellites: one sample per routing
//! step during which the link is on the route.
//!
//! A link looks its sample up for every packet, at the packet's start and end of transmission,
//! and those times only move forward: [`Motion::index_near`] starts from the sample found last
//! time, so that a lookup is a comparison or two rather than a binary search.

use crate::sim::{SimDuration, SimTime};

/// How a constellation link changes: one sample per routing step during which the link is on
/// the route (docs/links-and-orbits.md §5: parameters are updated at fixed steps, and each packet's
/// propagation delay is taken at its transmission time, so packets in flight keep theirs).
#[derive(Clone, Debug)]
pub struct Motion {
    pub step: SimDuration,
    /// Sorted by step.
    pub samples: Vec<MotionSample>,
    /// Drop a packet that would start transmission after the link has left the route.
    pub drop_off_route: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionSample {
    pub step: u32,
    pub delay: SimDuration,
    pub rate_bps: f64,
    pub loss: f64,
    /// The last step of the run of consecutive on-route steps this one belongs to.
    pub run_end: u32,
}

impl Motion {
    fn step_of(&self, t: SimTime) -> u32 {
        (t.0 / self.step.0.max(1)).min(u32::MAX as u64) as u32
    }

    /// The sample in force at `t`: the last one at or before t's step (the first one before it).
    fn index(&self, t: SimTime) -> usize {
        let k = self.step_of(t);
        self.samples.partition_point(|s| s.step <= k).saturating_sub(1)
    }

    /// [`Self::index`], trying `hint` and the sample after it first; `hint` becomes the answer.
    pub fn index_near(&self, t: SimTime, hint: &mut usize) -> usize {
        let k = self.step_of(t);
        let is_answer = |i: usize| {
            i < self.samples.len()
                && self.samples.get(i + 1).is_none_or(|next| next.step > k)
                && (self.samples[i].step <= k || i == 0)
        };
        let i = if is_answer(*hint) {
            *hint
        } else if is_answer(*hint + 1) {
            *hint + 1
        } else {
            self.index(t)
        };
        *hint = i;
        i
    }

    pub fn rate_at(&self, t: SimTime) -> f64 {
        self.samples[self.index(t)].rate_bps
    }

    pub fn loss_at(&self, t: SimTime) -> f64 {
        self.samples[self.index(t)].loss
    }

    /// The rate of sample `i` (from [`Self::index_near`]).
    pub fn rate_of(&self, i: usize) -> f64 {
        self.samples[i].rate_bps
    }

    /// The loss probability of sample `i`.
    pub fn loss_of(&self, i: usize) -> f64 {
        self.samples[i].loss
    }

    /// Propagation delay for a packet leaving at `t`: linear between this step's sample and the
    /// next step's, so that delay changes smoothly while the satellites move.
    pub fn delay_at(&self, t: SimTime) -> SimDuration {
        self.delay_of(self.index(t), t)
    }

    /// [`Self::delay_at`], where `i` is the sample in force at `t`.
    pub fn delay_of(&self, i: usize, t: SimTime) -> SimDuration {
        let s = self.samples[i];
        let k = self.step_of(t);
        match self.samples.get(i + 1) {
            Some(n) if s.step == k && n.step == k + 1 => {
                let into = (t.0 - k as u64 * self.step.0) as f64 / self.step.0 as f64;
                let d = s.delay.0 as f64 + (n.delay.0 as f64 - s.delay.0 as f64) * into;
                SimDuration(d.max(0.0) as u64)
            }
            _ => s.delay,
        }
    }

    /// Whether the link is off the route at `t` (after the end of the on-route run in force).
    pub fn off_route(&self, t: SimTime) -> bool {
        self.off_route_of(self.index(t), t)
    }

    /// [`Self::off_route`], where `i` is the sample in force at `t`.
    pub fn off_route_of(&self, i: usize, t: SimTime) -> bool {
        let k = self.step_of(t);
        k > self.samples[i].run_end || k < self.samples[i].step
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn motion(steps: &[u32]) -> Motion {
        let samples = steps
            .iter()
            .map(|&step| MotionSample {
                step,
                delay: SimDuration(1_000_000 + step as u64),
                rate_bps: 1e6 + step as f64,
                loss: 0.0,
                run_end: step,
            })
            .collect();
        Motion { step: SimDuration::from_millis(1000), samples, drop_off_route: false }
    }

    proptest! {
        #[test]
        fn a_lookup_from_any_hint_finds_the_sample_a_binary_search_finds(
            steps in proptest::collection::btree_set(0u32..50, 1..20),
            times in proptest::collection::vec(0u64..60_000, 1..40),
            start in 0usize..25,
        ) {
            let m = motion(&steps.into_iter().collect::<Vec<_>>());
            let mut hint = start;
            for t in times {
                let t = SimTime(t * 1_000_000);
                prop_assert_eq!(m.index_near(t, &mut hint), m.index(t));
            }
        }
    }

    #[test]
    fn delay_is_interpolated_only_between_consecutive_steps() {
        let m = motion(&[0, 1, 3]);
        assert_eq!(m.delay_at(SimTime::from_secs_f64(0.5)), SimDuration(1_000_000));
        assert_eq!(m.delay_at(SimTime::from_secs_f64(1.5)), SimDuration(1_000_001));
        assert_eq!(m.delay_at(SimTime::from_secs_f64(2.5)), SimDuration(1_000_001));
        assert!(m.off_route(SimTime::from_secs_f64(2.5)));
        assert!(!m.off_route(SimTime::from_secs_f64(3.5)));
    }
}
