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
//! - no packet crossing hop by hop is ahead of it in its direction, since a link would then see
//!   the express packet before the earlier one. Such packets are numbered per destination (a
//!   direction of the route); the oldest of a direction switches to the express path at its next
//!   forwarding node once the route has not changed since it was sent. The two directions of one
//!   route cross disjoint links (a route is a simple path, and each link has one direction), so
//!   a data packet queued hop by hop does not hold the ACKs back; a packet still crossing on a
//!   route no longer in force may share a link with either direction of the new one, so while
//!   one is on its way, every packet goes hop by hop.
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
    /// Packets crossing hop by hop that have a forwarding node still ahead, per destination
    /// node: number → the route (index into `route_changes`) in force when they were sent.
    hop_by_hop: Vec<(NodeId, BTreeMap<u64, u32>)>,
    /// How many of those packets were sent under each route.
    routes_in_flight: BTreeMap<u32, u32>,
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
            hop_by_hop: Vec::new(),
            routes_in_flight: BTreeMap::new(),
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

    /// Whether a packet to `dst` just sent at `now` may take the express path: no packet to
    /// `dst` crossing hop by hop is ahead of it, and none crosses on an earlier route.
    pub fn may_send_ahead(&self, dst: NodeId, now: SimTime) -> bool {
        self.direction(dst).is_none_or(BTreeMap::is_empty) && self.only_route(self.route_at(now).0)
    }

    /// Whether hop-by-hop packet `number` to `dst`, at a forwarding node at `now`, may take the
    /// express path from there: it is the oldest to `dst`, the route has not changed since it
    /// was sent, and no packet crosses on an earlier route.
    pub fn may_switch(&self, number: u64, dst: NodeId, now: SimTime) -> bool {
        let route = self.route_at(now).0;
        self.direction(dst)
            .and_then(BTreeMap::first_key_value)
            .is_some_and(|(&n, &sent_on)| n == number && sent_on == route)
            && self.only_route(route)
    }

    /// Numbers a packet to `dst` that crosses hop by hop, sent when `route` was in force.
    pub fn start_hop_by_hop(&mut self, route: u32, dst: NodeId) -> u64 {
        let n = self.next_number;
        self.next_number += 1;
        let i = match self.hop_by_hop.iter().position(|(d, _)| *d == dst) {
            Some(i) => i,
            None => {
                self.hop_by_hop.push((dst, BTreeMap::new()));
                self.hop_by_hop.len() - 1
            }
        };
        self.hop_by_hop[i].1.insert(n, route);
        *self.routes_in_flight.entry(route).or_insert(0) += 1;
        n
    }

    /// Hop-by-hop packet `number` to `dst` has no forwarding node ahead any more (or was
    /// dropped).
    pub fn finish(&mut self, number: u64, dst: NodeId) {
        let Some((_, packets)) = self.hop_by_hop.iter_mut().find(|(d, _)| *d == dst) else { return };
        let Some(route) = packets.remove(&number) else { return };
        if let Some(count) = self.routes_in_flight.get_mut(&route) {
            *count -= 1;
            if *count == 0 {
                self.routes_in_flight.remove(&route);
            }
        }
    }

    fn direction(&self, dst: NodeId) -> Option<&BTreeMap<u64, u32>> {
        self.hop_by_hop.iter().find(|(d, _)| *d == dst).map(|(_, packets)| packets)
    }

    /// Whether every packet crossing hop by hop was sent under `route`.
    fn only_route(&self, route: u32) -> bool {
        match (self.routes_in_flight.first_key_value(), self.routes_in_flight.last_key_value()) {
            (Some((&first, _)), Some((&last, _))) => first == route && last == route,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Route;

    fn routes(route_of_step: Vec<u32>) -> MovingRoutes {
        MovingRoutes::new(SimDuration::from_millis(1000), vec![Route::default(); 3], route_of_step, false)
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
        let dst = 7;
        let early = ex.start_hop_by_hop(0, dst);
        let late = ex.start_hop_by_hop(1, dst);
        let now = SimTime::from_secs_f64(1.5);
        assert!(!ex.may_send_ahead(dst, now));
        // The oldest was sent on the route before: a newer packet on the new route may overtake it.
        assert!(!ex.may_switch(early, dst, now) && !ex.may_switch(late, dst, now));
        ex.finish(early, dst);
        assert!(ex.may_switch(late, dst, now));
        ex.finish(late, dst);
        assert!(ex.may_send_ahead(dst, now));
    }

    #[test]
    fn a_packet_queued_in_one_direction_does_not_hold_the_other_back() {
        let mut ex = Express::new(&routes(vec![0, 1]), vec![], SimTime::MAX);
        let (data_dst, ack_dst) = (7, 3);
        let now = SimTime::from_secs_f64(0.5);
        let data = ex.start_hop_by_hop(0, data_dst);
        let ack = ex.start_hop_by_hop(0, ack_dst);
        assert!(!ex.may_send_ahead(ack_dst, now), "behind an ACK of its own direction");
        assert!(ex.may_switch(ack, ack_dst, now), "the oldest of its direction, though not the oldest");
        assert!(!ex.may_send_ahead(data_dst, now));
        ex.finish(ack, ack_dst);
        assert!(ex.may_send_ahead(ack_dst, now));
        // Once the route changes, the data packet on the old one may share a link with either
        // direction of the new route: everything waits for it.
        let later = SimTime::from_secs_f64(1.5);
        assert!(!ex.may_send_ahead(ack_dst, later));
        ex.finish(data, data_dst);
        assert!(ex.may_send_ahead(ack_dst, later) && ex.may_send_ahead(data_dst, later));
    }
}
