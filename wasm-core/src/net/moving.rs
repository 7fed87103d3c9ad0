//! Routing over a path that changes with time: the constellation topology's forwarding. The
//! route of every step is known before the run (orbits are deterministic), so forwarding is a
//! lookup: a node on the current route sends a packet one hop along it towards the packet's
//! destination.
//!
//! Route changes (docs/links-and-orbits.md §5): a packet that reaches a node no longer on the route (it was
//! in flight when the route changed) is forwarded along the route of the previous step when
//! `grace` is set (the old satellites still exist for a moment; packets then arrive out of
//! order), and dropped otherwise.

use super::packet::NodeId;
use crate::sim::{SimDuration, SimTime};

/// One step's route: its nodes in order from the source end, and the links between them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Route {
    pub nodes: Vec<NodeId>,
    /// `forward[i]`: the link `nodes[i] → nodes[i+1]`.
    pub forward: Vec<u32>,
    /// `backward[i]`: the link `nodes[i+1] → nodes[i]`.
    pub backward: Vec<u32>,
}

impl Route {
    pub fn position(&self, node: NodeId) -> Option<usize> {
        self.nodes.iter().position(|&n| n == node)
    }

    /// The link a packet at `at` for `dst` takes, if both are on this route.
    pub fn next_link(&self, at: NodeId, dst: NodeId) -> Option<u32> {
        let a = self.position(at)?;
        let d = self.position(dst)?;
        match a.cmp(&d) {
            std::cmp::Ordering::Less => Some(self.forward[a]),
            std::cmp::Ordering::Greater => Some(self.backward[a - 1]),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The neighbours of `node` on this route: (towards the source end, towards the destination end).
    pub fn neighbours(&self, node: NodeId) -> Option<(Option<NodeId>, Option<NodeId>)> {
        let i = self.position(node)?;
        Some((i.checked_sub(1).map(|j| self.nodes[j]), self.nodes.get(i + 1).copied()))
    }
}

/// The routes of a run, step by step.
#[derive(Clone, Debug)]
pub struct MovingRoutes {
    pub step: SimDuration,
    /// Distinct routes; consecutive steps with the same route share one entry.
    pub routes: Vec<Route>,
    /// Index into `routes` of each step's route.
    pub route_of_step: Vec<u32>,
    /// Forward along the previous step's route a packet the current one cannot carry.
    pub grace: bool,
}

impl MovingRoutes {
    /// The step `t` falls in (the last step holds after the timeline ends).
    pub fn step_index(&self, t: SimTime) -> usize {
        ((t.0 / self.step.0.max(1)) as usize).min(self.route_of_step.len().saturating_sub(1))
    }

    pub fn route_at_step(&self, k: usize) -> &Route {
        &self.routes[self.route_of_step[k] as usize]
    }

    pub fn route_at(&self, t: SimTime) -> &Route {
        self.route_at_step(self.step_index(t))
    }

    pub fn next_link(&self, now: SimTime, at: NodeId, dst: NodeId) -> Option<u32> {
        let k = self.step_index(now);
        self.route_at_step(k)
            .next_link(at, dst)
            .or_else(|| (self.grace && k > 0).then(|| self.route_at_step(k - 1).next_link(at, dst)).flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(nodes: &[NodeId], first_link: u32) -> Route {
        let n = nodes.len() as u32 - 1;
        Route {
            nodes: nodes.to_vec(),
            forward: (0..n).map(|i| first_link + 2 * i).collect(),
            backward: (0..n).map(|i| first_link + 2 * i + 1).collect(),
        }
    }

    fn two_routes(grace: bool) -> MovingRoutes {
        MovingRoutes {
            step: SimDuration::from_millis(1000),
            routes: vec![route(&[0, 2, 3, 1], 0), route(&[0, 4, 1], 10)],
            route_of_step: vec![0, 0, 1],
            grace,
        }
    }

    #[test]
    fn packets_follow_the_route_of_their_step_in_both_directions() {
        let m = two_routes(false);
        let t0 = SimTime::from_secs_f64(0.5);
        assert_eq!(m.next_link(t0, 0, 1), Some(0));
        assert_eq!(m.next_link(t0, 2, 1), Some(2));
        assert_eq!(m.next_link(t0, 3, 0), Some(3));
        assert_eq!(m.next_link(t0, 2, 0), Some(1));
        let t2 = SimTime::from_secs_f64(2.5);
        assert_eq!(m.next_link(t2, 0, 1), Some(10));
        assert_eq!(m.next_link(t2, 4, 0), Some(11));
    }

    #[test]
    fn a_packet_stranded_by_a_route_change_uses_the_previous_route_only_with_grace() {
        let t2 = SimTime::from_secs_f64(2.2);
        assert_eq!(two_routes(false).next_link(t2, 3, 1), None);
        assert_eq!(two_routes(true).next_link(t2, 3, 1), Some(4));
        // The last step holds after the timeline ends.
        assert_eq!(two_routes(false).next_link(SimTime::from_secs_f64(99.0), 4, 1), Some(12));
    }

    #[test]
    fn neighbours_are_towards_each_end() {
        let r = route(&[0, 2, 3, 1], 0);
        assert_eq!(r.neighbours(2), Some((Some(0), Some(3))));
        assert_eq!(r.neighbours(0), Some((None, Some(2))));
        assert_eq!(r.neighbours(7), None);
    }
}
