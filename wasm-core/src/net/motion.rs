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

/// What a link keeps of its motion at the routing step it asked about last
/// ([`Motion::sample_near`]): the step and its span of times, the sample in force, and the line
/// its delay follows through the step. Empty at first.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepMemo {
    from: u64,
    until: u64,
    step: u32,
    sample: usize,
    /// The delay between this step's sample and the next step's, the terms of
    /// [`Motion::delay_at_step`] that do not depend on the time: (the step's start, the sample's
    /// delay, its change to the next sample's, the step's length), in ns. None if it holds
    /// still through the step.
    line: Option<(u64, f64, f64, f64)>,
    /// The delay when it holds still.
    delay: SimDuration,
    /// What a transmission starting in the step reads of the sample in force.
    in_force: InForce,
}

/// The sample in force through a step, as a transmission starting then reads it: kept in the
/// [`StepMemo`], so that a packet does not reach into the link's table of samples (a cache miss
/// per hop on a long run's table).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InForce {
    pub rate_bps: f64,
    pub loss: f64,
    /// The link drops what would start then: it is off the route and `drop_off_route` is set.
    pub drops_off_route: bool,
}

impl StepMemo {
    /// [`Motion::delay_at_step`] for a time in the memo's step, by the same arithmetic.
    fn delay(&self, t: SimTime) -> SimDuration {
        match self.line {
            Some((base, delay, change, step)) => {
                let into = (t.0 - base) as f64 / step;
                let d = delay + change * into;
                // `as u64` saturates: a negative or NaN `d` gives 0, as `max(0.0)` did (a call in
                // wasm).
                SimDuration(d as u64)
            }
            None => self.delay,
        }
    }
}

impl Motion {
    fn step_of(&self, t: SimTime) -> u32 {
        (t.0 / self.step.0.max(1)).min(u32::MAX as u64) as u32
    }

    /// `t`'s step and the sample in force then ([`Self::step_of`], [`Self::index_near`] with
    /// `hint`), answered from `memo` when `t` falls in the step found last; `memo` then holds
    /// `t`'s step. A link asks this for each packet's start and end of transmission, and those
    /// change step once per routing step: a span check spares a 64-bit division and the search
    /// for the sample per lookup. The memo's answer is inlined, the rest is not.
    #[inline]
    pub fn sample_near(&self, t: SimTime, memo: &mut StepMemo, hint: &mut usize) -> (u32, usize) {
        if memo.from <= t.0 && t.0 < memo.until {
            return (memo.step, memo.sample);
        }
        self.sample_anew(t, memo, hint)
    }

    fn sample_anew(&self, t: SimTime, memo: &mut StepMemo, hint: &mut usize) -> (u32, usize) {
        let step = self.step_of(t);
        let sample = self.index_near_step(step, hint);
        let from = step as u64 * self.step.0.max(1);
        // The last step (times past u32::MAX steps are clamped to it) runs to the end of time.
        let until = if step == u32::MAX { u64::MAX } else { from.saturating_add(self.step.0.max(1)) };
        let s = self.samples[sample];
        let line = match self.samples.get(sample + 1) {
            Some(n) if s.step == step && n.step == step + 1 => Some((
                step as u64 * self.step.0,
                s.delay.0 as f64,
                n.delay.0 as f64 - s.delay.0 as f64,
                self.step.0 as f64,
            )),
            _ => None,
        };
        let in_force = InForce {
            rate_bps: s.rate_bps,
            loss: s.loss,
            drops_off_route: self.drop_off_route && self.off_route_at_step(sample, step),
        };
        *memo = StepMemo { from, until, step, sample, line, delay: s.delay, in_force };
        (step, sample)
    }

    /// The sample in force at `t` ([`Self::sample_near`]), read from the memo.
    #[inline]
    pub fn in_force_near(&self, t: SimTime, memo: &mut StepMemo, hint: &mut usize) -> InForce {
        self.sample_near(t, memo, hint);
        memo.in_force
    }

    /// [`Self::delay_at`], through [`Self::sample_near`].
    #[inline]
    pub fn delay_near(&self, t: SimTime, memo: &mut StepMemo, hint: &mut usize) -> SimDuration {
        self.sample_near(t, memo, hint);
        memo.delay(t)
    }

    /// The sample in force at `t`: the last one at or before t's step (the first one before it).
    fn index(&self, t: SimTime) -> usize {
        self.index_at_step(self.step_of(t))
    }

    fn index_at_step(&self, k: u32) -> usize {
        self.samples.partition_point(|s| s.step <= k).saturating_sub(1)
    }

    /// [`Self::index`], trying `hint` and the sample after it first; `hint` becomes the answer.
    pub fn index_near(&self, t: SimTime, hint: &mut usize) -> usize {
        self.index_near_step(self.step_of(t), hint)
    }

    /// [`Self::index_near`] for a time in step `k`.
    pub fn index_near_step(&self, k: u32, hint: &mut usize) -> usize {
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
            self.index_at_step(k)
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
        self.delay_at_step(i, self.step_of(t), t)
    }

    /// [`Self::delay_of`], where `k` is `t`'s step.
    pub fn delay_at_step(&self, i: usize, k: u32, t: SimTime) -> SimDuration {
        let s = self.samples[i];
        match self.samples.get(i + 1) {
            Some(n) if s.step == k && n.step == k + 1 => {
                let into = (t.0 - k as u64 * self.step.0) as f64 / self.step.0 as f64;
                let d = s.delay.0 as f64 + (n.delay.0 as f64 - s.delay.0 as f64) * into;
                // `as u64` saturates a negative `d` to 0 (see `StepMemo::delay`).
                SimDuration(d as u64)
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
        self.off_route_at_step(i, self.step_of(t))
    }

    /// [`Self::off_route_of`], where `k` is the time's step.
    pub fn off_route_at_step(&self, i: usize, k: u32) -> bool {
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
                loss: step as f64 / 100.0,
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

        #[test]
        fn a_remembered_step_gives_what_the_lookups_give(
            steps in proptest::collection::btree_set(0u32..50, 1..20),
            times in proptest::collection::vec(0u64..60_000_000_000, 1..60),
            step_ns in 0u64..2_000_000_000,
            drop_off_route: bool,
        ) {
            let mut m = Motion {
                step: SimDuration(step_ns),
                drop_off_route,
                ..motion(&steps.into_iter().collect::<Vec<_>>())
            };
            // Some samples stay on the route for a step or two after their own.
            for s in &mut m.samples {
                s.run_end = s.step + s.step % 3;
            }
            let (mut memo, mut hint) = (StepMemo::default(), 0);
            for t in times {
                let t = SimTime(t);
                prop_assert_eq!(m.sample_near(t, &mut memo, &mut hint), (m.step_of(t), m.index(t)));
                prop_assert_eq!(m.delay_near(t, &mut memo, &mut hint), m.delay_at(t));
                let i = m.index(t);
                let looked_up = InForce {
                    rate_bps: m.rate_of(i),
                    loss: m.loss_of(i),
                    drops_off_route: drop_off_route && m.off_route(t),
                };
                prop_assert_eq!(m.in_force_near(t, &mut memo, &mut hint), looked_up);
            }
        }
    }

    #[test]
    fn the_step_memo_holds_at_the_ends_of_time() {
        let m = Motion { step: SimDuration(1), ..motion(&[0, 1]) };
        let (mut memo, mut hint) = (StepMemo::default(), 0);
        for t in [u64::MAX, u32::MAX as u64, u32::MAX as u64 - 1, u64::MAX - 1, 0, 1, u64::MAX] {
            let t = SimTime(t);
            assert_eq!(m.sample_near(t, &mut memo, &mut hint), (m.step_of(t), m.index(t)), "{t:?}");
            assert_eq!(m.delay_near(t, &mut memo, &mut hint), m.delay_at(t), "{t:?}");
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
