//! The lazy timer that every retransmission timeout uses.

use super::Ctx;
use crate::sim::SimTime;

/// A timer that is re-armed far more often than it fires (a retransmission timeout). Arming only
/// moves the deadline; an event is scheduled only when none is pending at or before it, and an
/// event that fires before the (moved) deadline schedules itself again. So re-arming on every
/// ACK costs no heap operation.
#[derive(Clone, Debug, Default)]
pub struct LazyTimer {
    deadline: Option<SimTime>,
    /// The event currently scheduled: (time, token).
    event: Option<(SimTime, u64)>,
    next_token: u64,
    /// Told apart from the agent's other timers by the low bits of its tokens.
    tag: u64,
}

impl LazyTimer {
    pub fn arm(&mut self, ctx: &mut Ctx, deadline: SimTime) {
        self.deadline = Some(deadline);
        match self.event {
            Some((t, _)) if t <= deadline => {} // fires first, then re-schedules itself
            _ => self.schedule(ctx, deadline),
        }
    }

    /// A timer whose tokens never collide with those of the agent's timers with other tags
    /// (0 to 3): an agent with several timers gives each its own tag.
    pub fn tagged(tag: u64) -> LazyTimer {
        debug_assert!(tag < 4);
        LazyTimer { tag, ..LazyTimer::default() }
    }

    /// When the timer will fire, if armed.
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    pub fn stop(&mut self) {
        self.deadline = None;
    }

    pub fn is_armed(&self) -> bool {
        self.deadline.is_some()
    }

    fn schedule(&mut self, ctx: &mut Ctx, at: SimTime) {
        let token = (self.next_token << 2) | self.tag;
        self.next_token += 1;
        self.event = Some((at, token));
        ctx.timer_at(at, token);
    }

    /// Handles a timer event with this token. Returns true when the timer fires: the deadline
    /// has come (the timer is then stopped).
    pub fn on_event(&mut self, ctx: &mut Ctx, token: u64) -> bool {
        match self.event {
            Some((_, t)) if t == token => self.event = None,
            _ => return false, // superseded by an earlier re-arm
        }
        let Some(deadline) = self.deadline else { return false };
        if ctx.now < deadline {
            self.schedule(ctx, deadline);
            return false;
        }
        self.deadline = None;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Event;
    use crate::net::Network;
    use crate::sim::EventQueue;

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    /// Drives a timer of agent 0: `arm` and `stop` through a `Ctx`, its events popped in order.
    struct Rig {
        net: Network,
        queue: EventQueue<Event>,
        timer: LazyTimer,
    }

    impl Rig {
        fn new() -> Rig {
            Rig { net: Network::new(1, Vec::new()), queue: EventQueue::new(), timer: LazyTimer::tagged(2) }
        }

        fn arm(&mut self, now: SimTime, deadline: SimTime) {
            self.timer.arm(&mut Ctx::new(now, 0, 0, &mut self.net, &mut self.queue), deadline);
        }

        /// Pops every event and returns the times at which the timer fired.
        fn run(&mut self) -> Vec<SimTime> {
            let mut fired = Vec::new();
            while let Some((t, ev)) = self.queue.pop() {
                let Event::Timer { token, .. } = ev else { panic!("only timers here") };
                assert_eq!(token & 3, 2, "the token carries the tag");
                if self.timer.on_event(&mut Ctx::new(t, 0, 0, &mut self.net, &mut self.queue), token) {
                    fired.push(t);
                }
            }
            fired
        }
    }

    #[test]
    fn re_arming_later_schedules_no_event_and_the_timer_fires_once_at_the_last_deadline() {
        let mut rig = Rig::new();
        rig.arm(ms(0), ms(100));
        rig.arm(ms(10), ms(150));
        rig.arm(ms(20), ms(200));
        assert_eq!(rig.queue.len(), 1);
        assert_eq!(rig.run(), [ms(200)]);
        assert!(!rig.timer.is_armed());
    }

    #[test]
    fn arming_earlier_schedules_an_event_at_the_new_deadline_and_the_old_one_is_ignored() {
        let mut rig = Rig::new();
        rig.arm(ms(0), ms(100));
        rig.arm(ms(10), ms(50));
        assert_eq!(rig.queue.len(), 2);
        assert_eq!(rig.run(), [ms(50)]);
    }

    #[test]
    fn a_stopped_timer_does_not_fire() {
        let mut rig = Rig::new();
        rig.arm(ms(0), ms(100));
        rig.timer.stop();
        assert_eq!(rig.timer.deadline(), None);
        assert_eq!(rig.run(), []);
    }
}
