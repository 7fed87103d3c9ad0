//! The express path's bookkeeping: which nodes only forward, where the route changes, and the
//! packets that must still cross hop by hop (`engine::forward` does the sending).
//!
//! A packet that reaches a node with no agent is only sent on, so its way across a run of such
//! nodes follows from the state of the links it crosses. The express path computes that way
//! when the packet enters the run, in one event instead of one per hop, and leaves the packet in
//! the last link before the next agent's node. It gives the hop-by-hop result bit for bit because
//! each link still sees its packets in the order, and at the times, that the hop-by-hop run
//! would give it: each link's transmitter, buffer, loss and jitter streams depend only on that
//! sequence. That holds while:
//! - the run has one flow, so that the packets entering a forwarding node's next link all come
//!   from one upstream link, in order (links without reordering jitter keep them in order);
//! - the route does not change while the packet crosses (a new route may let a later packet
//!   overtake an earlier one at a link both share): a packet that would cross a route change is
//!   sent ahead only as far as the change and goes on hop by hop from there;
//! - no packet crossing hop by hop is ahead of it, since a link would then see the express
//!   packet before the earlier one. Such packets are numbered; the oldest switches to the express
//!   path at its next forwarding node once the route has not changed since it was sent.
//! - nothing is sent ahead past the run's end, so that every counter read at the end is the
//!   hop-by-hop run's.

use super::moving::MovingRoutes;
use super::packet::NodeId;
use crate::sim::{SimDuration, SimTime};
use std::collections::BTreeMap;

pub struct Express {
    /// Per node: no agent sits there, so a packet arriving there is only sent on.
    forward_only: Vec<bool>,
    step: SimDuration,
    /// The steps at which the route changes, starting with 0.
    route_changes: Vec<u32>,
    /// The last step with a route; its route holds after it.
    last_step: u32,
    /// Nothing is sent ahead of time at or past this: the run's end.
    horizon: SimTime,
    /// Packets crossing hop by hop that have a forwarding node still ahead: number → the route
    /// (index into `route_changes`) in force when they were sent.
    hop_by_hop: BTreeMap<u64, u32>,
    next_number: u64,
    /// Hops crossed without an event of their own.
    pub hops_skipped: u64,
}

impl Express {
    pub fn new(routes: &MovingRoutes, forward_only: Vec<bool>, horizon: SimTime) -> Express {
        let steps = &routes.route_of_step;
        let route_changes =
            (0..steps.len()).filter(|&k| k == 0 || steps[k] != steps[k - 1]).map(|k| k as u32).collect();
        Express {
            forward_only,
            step: routes.step,
            route_changes,
            last_step: steps.len().saturating_sub(1) as u32,
            horizon,
            hop_by_hop: BTreeMap::new(),
            next_number: 0,
            hops_skipped: 0,
        }
    }

    /// Whether a packet at `node` is only sent on (no agent there).
    pub fn forward_only(&self, node: NodeId) -> bool {
        self.forward_only.get(node as usize).copied().unwrap_or(false)
    }

    /// The route in force at `t` (an index), and when a packet sent at `t` must stop being sent
    /// ahead: the next route change, or the horizon.
    pub fn route_at(&self, t: SimTime) -> (u32, SimTime) {
        let k = ((t.0 / self.step.0.max(1)).min(self.last_step as u64)) as u32;
        let i = self.route_changes.partition_point(|&s| s <= k).saturating_sub(1);
        let change = match self.route_changes.get(i + 1) {
            Some(&s) => SimTime(s as u64 * self.step.0),
            None => SimTime::MAX,
        };
        (i as u32, change.min(self.horizon))
    }

    /// Whether a packet just sent may take the express path: no packet crossing hop by hop is
    /// ahead of it.
    pub fn may_send_ahead(&self) -> bool {
        self.hop_by_hop.is_empty()
    }

    /// Whether hop-by-hop packet `number`, at a forwarding node at `now`, may take the express
    /// path from there: it is the oldest, and the route has not changed since it was sent.
    pub fn may_switch(&self, number: u64, now: SimTime) -> bool {
        self.hop_by_hop.first_key_value().is_some_and(|(&n, &route)| n == number && route == self.route_at(now).0)
    }

    /// Numbers a packet that crosses hop by hop, sent when `route` was in force.
    pub fn start_hop_by_hop(&mut self, route: u32) -> u64 {
        let n = self.next_number;
        self.next_number += 1;
        self.hop_by_hop.insert(n, route);
        n
    }

    /// Hop-by-hop packet `number` has no forwarding node ahead any more (or was dropped).
    pub fn finish(&mut self, number: u64) {
        self.hop_by_hop.remove(&number);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Route;

    fn routes(route_of_step: Vec<u32>) -> MovingRoutes {
        MovingRoutes {
            step: SimDuration::from_millis(1000),
            routes: vec![Route::default(); 3],
            route_of_step,
            grace: false,
        }
    }

    #[test]
    fn a_packet_is_sent_ahead_only_until_the_route_changes_or_the_run_ends() {
        let ex = Express::new(&routes(vec![0, 0, 1, 1, 1, 2]), vec![], SimTime::from_secs_f64(4.5));
        assert_eq!(ex.route_at(SimTime::from_secs_f64(1.2)), (0, SimTime::from_secs_f64(2.0)));
        assert_eq!(ex.route_at(SimTime::from_secs_f64(2.0)), (1, SimTime::from_secs_f64(4.5)));
        // The last route holds after the timeline.
        assert_eq!(ex.route_at(SimTime::from_secs_f64(99.0)).0, 2);
    }

    #[test]
    fn only_the_oldest_hop_by_hop_packet_of_the_current_route_may_switch() {
        let mut ex = Express::new(&routes(vec![0, 1]), vec![], SimTime::MAX);
        let early = ex.start_hop_by_hop(0);
        let late = ex.start_hop_by_hop(1);
        let now = SimTime::from_secs_f64(1.5);
        assert!(!ex.may_send_ahead());
        // The oldest was sent on the route before: a newer packet on the new route may overtake it.
        assert!(!ex.may_switch(early, now) && !ex.may_switch(late, now));
        ex.finish(early);
        assert!(ex.may_switch(late, now));
        ex.finish(late);
        assert!(ex.may_send_ahead());
    }
}
