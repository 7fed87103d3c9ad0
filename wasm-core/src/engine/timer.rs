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
