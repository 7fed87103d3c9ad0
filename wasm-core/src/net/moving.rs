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
use std::cell::Cell;

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

    /// [`Self::position`] for a node that is most often one of the route's ends (a flow's
    /// source or destination).
    pub fn position_of_end(&self, node: NodeId) -> Option<usize> {
        match (self.nodes.first(), self.nodes.last()) {
            (_, Some(&last)) if last == node => Some(self.nodes.len() - 1),
            (Some(&first), _) if first == node => Some(0),
            _ => self.position(node),
        }
    }

    /// The link a packet at `at` for `dst` takes, if both are on this route.
    pub fn next_link(&self, at: NodeId, dst: NodeId) -> Option<u32> {
        let a = self.position(at)?;
        let d = self.position_of_end(dst)?;
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

/// Where each node of one route sits on it: an open-addressing table of (node, position), so
/// that finding a node is a probe or two where [`Route::position`] scans the route. Forwarding
/// looks up two nodes per packet, and on an INTCP run (a packet per hop, 18 hops) the scans were
/// 8 % of the run's instructions.
#[derive(Clone, Debug)]
struct PositionIndex {
    /// A power of two in length, at most half full; `NodeId::MAX` marks an empty slot.
    slots: Vec<(NodeId, u32)>,
}

impl PositionIndex {
    fn new(nodes: &[NodeId]) -> PositionIndex {
        let mask = (2 * nodes.len()).next_power_of_two().max(2) - 1;
        let mut slots = vec![(NodeId::MAX, 0); mask + 1];
        for (position, &node) in nodes.iter().enumerate() {
            let mut i = node as usize & mask;
            // A node listed twice keeps its first position, as `Route::position` finds it.
            while slots[i].0 != NodeId::MAX && slots[i].0 != node {
                i = (i + 1) & mask;
            }
            if slots[i].0 == NodeId::MAX {
                slots[i] = (node, position as u32);
            }
        }
        PositionIndex { slots }
    }

    /// [`Route::position`] on the route this indexes.
    fn position(&self, node: NodeId) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut i = node as usize & mask;
        loop {
            let (n, position) = self.slots[i];
            if n == NodeId::MAX {
                return None;
            }
            if n == node {
                return Some(position as usize);
            }
            i = (i + 1) & mask;
        }
    }

    /// [`Route::position_of_end`] on `route`, which this indexes.
    fn position_of_end(&self, route: &Route, node: NodeId) -> Option<usize> {
        match route.nodes.last() {
            Some(&last) if last == node => Some(route.nodes.len() - 1),
            _ => self.position(node),
        }
    }
}

/// A packet's place on one route as it crosses it ([`MovingRoutes::walk`]): positions on the
/// route's nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    route: u32,
    at: usize,
    dst: usize,
}

/// The routes of a run, step by step.
#[derive(Clone, Debug)]
pub struct MovingRoutes {
    pub step: SimDuration,
    /// Distinct routes; consecutive steps with the same route share one entry. Read only once
    /// built: [`Self::new`] indexes them.
    pub routes: Vec<Route>,
    /// Index into `routes` of each step's route.
    pub route_of_step: Vec<u32>,
    /// Forward along the previous step's route a packet the current one cannot carry.
    pub grace: bool,
    /// Per entry of `routes`, where its nodes sit on it.
    positions: Vec<PositionIndex>,
    /// The step [`Self::step_index`] found last and the span `[from, until)` of times in it:
    /// forwarding asks for the step of every packet, and it changes once per routing step, so a
    /// span check spares a 64-bit division per packet.
    last_step: Cell<(u64, u64, usize)>,
    /// Per node, the last two answers of [`Self::next_link`] it gave there: (step, destination,
    /// link or `NO_LINK`), `NO_STEP` for none. The answer is a function of the step, the node and
    /// the destination alone, and an INTCP node sends to two destinations (its neighbours), so
    /// forwarding answers most packets from here instead of two probes of the route's index.
    next_memo: Vec<Cell<[(u64, NodeId, u32); 2]>>,
}

/// An empty way of `MovingRoutes::next_memo`.
const NO_STEP: u64 = u64::MAX;
/// `None` in `MovingRoutes::next_memo`.
const NO_LINK: u32 = u32::MAX;

impl MovingRoutes {
    pub fn new(step: SimDuration, routes: Vec<Route>, route_of_step: Vec<u32>, grace: bool) -> MovingRoutes {
        let positions = routes.iter().map(|r| PositionIndex::new(&r.nodes)).collect();
        // Nodes on no route forward nothing: only those on one need a memo.
        let nodes = routes.iter().flat_map(|r| r.nodes.iter()).max().map_or(0, |&n| n as usize + 1);
        let next_memo = vec![Cell::new([(NO_STEP, 0, NO_LINK); 2]); nodes];
        MovingRoutes { step, routes, route_of_step, grace, positions, last_step: Cell::new((0, 0, 0)), next_memo }
    }

    /// The step `t` falls in (the last step holds after the timeline ends). The memo's answer is
    /// inlined, the rest is not.
    #[inline]
    pub fn step_index(&self, t: SimTime) -> usize {
        let (from, until, k) = self.last_step.get();
        if from <= t.0 && t.0 < until {
            return k;
        }
        self.step_index_anew(t)
    }

    fn step_index_anew(&self, t: SimTime) -> usize {
        let k = ((t.0 / self.step.0.max(1)) as usize).min(self.route_of_step.len().saturating_sub(1));
        // Every time of step k gives k; from the last step on, every later time too.
        let from = k as u64 * self.step.0.max(1);
        let until = if k + 1 >= self.route_of_step.len() { u64::MAX } else { from + self.step.0.max(1) };
        self.last_step.set((from, until, k));
        k
    }

    /// The span of time `[from, until)` in which the route in force at `t` is the one of
    /// [`Self::step_index`]`(t)` (the last step's span runs to the end of time).
    pub fn step_span(&self, t: SimTime) -> (SimTime, SimTime) {
        let k = self.step_index(t);
        let from = SimTime(self.step.0 * k as u64);
        let until = if k + 1 >= self.route_of_step.len() { SimTime::MAX } else { SimTime(from.0 + self.step.0) };
        (from, until)
    }

    pub fn route_at_step(&self, k: usize) -> &Route {
        &self.routes[self.route_of_step[k] as usize]
    }

    pub fn route_at(&self, t: SimTime) -> &Route {
        self.route_at_step(self.step_index(t))
    }

    /// A packet's way from `at` to `dst` along the route in force at `t`, if both are on it.
    pub fn walk(&self, t: SimTime, at: NodeId, dst: NodeId) -> Option<Walk> {
        let route = self.route_of_step[self.step_index(t)];
        let (r, p) = (&self.routes[route as usize], &self.positions[route as usize]);
        Some(Walk { route, at: p.position(at)?, dst: p.position_of_end(r, dst)? })
    }

    /// The link a packet on `walk` takes next (what `next_link` gives while the walk's route is in
    /// force), moving the walk one node on; None at its destination.
    pub fn step(&self, walk: &mut Walk) -> Option<u32> {
        let r = &self.routes[walk.route as usize];
        match walk.at.cmp(&walk.dst) {
            std::cmp::Ordering::Less => {
                walk.at += 1;
                Some(r.forward[walk.at - 1])
            }
            std::cmp::Ordering::Greater => {
                walk.at -= 1;
                Some(r.backward[walk.at])
            }
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The link a packet at `at` for `dst` takes at `now`. The memo's answer is inlined, the
    /// rest is not.
    #[inline]
    pub fn next_link(&self, now: SimTime, at: NodeId, dst: NodeId) -> Option<u32> {
        let k = self.step_index(now);
        let Some(memo) = self.next_memo.get(at as usize) else { return self.next_link_at_step(k, at, dst) };
        let ways = memo.get();
        for (step, to, link) in ways {
            if step == k as u64 && to == dst {
                return (link != NO_LINK).then_some(link);
            }
        }
        let link = self.next_link_at_step(k, at, dst);
        memo.set([(k as u64, dst, link.unwrap_or(NO_LINK)), ways[0]]);
        link
    }

    /// [`Self::next_link`] in step `k`, worked out from the routes. Out of line, so that the
    /// memo's answer costs no register saves.
    #[inline(never)]
    fn next_link_at_step(&self, k: usize, at: NodeId, dst: NodeId) -> Option<u32> {
        self.next_link_on(self.route_of_step[k], at, dst)
            .or_else(|| (self.grace && k > 0).then(|| self.next_link_on(self.route_of_step[k - 1], at, dst)).flatten())
    }

    /// [`Route::next_link`] on `routes[route]`, its nodes found through the route's index.
    fn next_link_on(&self, route: u32, at: NodeId, dst: NodeId) -> Option<u32> {
        let (r, p) = (&self.routes[route as usize], &self.positions[route as usize]);
        let a = p.position(at)?;
        let d = p.position_of_end(r, dst)?;
        match a.cmp(&d) {
            std::cmp::Ordering::Less => Some(r.forward[a]),
            std::cmp::Ordering::Greater => Some(r.backward[a - 1]),
            std::cmp::Ordering::Equal => None,
        }
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
        MovingRoutes::new(
            SimDuration::from_millis(1000),
            vec![route(&[0, 2, 3, 1], 0), route(&[0, 4, 1], 10)],
            vec![0, 0, 1],
            grace,
        )
    }

    #[test]
    fn the_remembered_step_is_the_step_of_the_time() {
        let step_of = |m: &MovingRoutes, t: u64| ((t / m.step.0.max(1)) as usize).min(m.route_of_step.len() - 1);
        for step_ms in [0, 1, 1000] {
            let base = two_routes(false);
            let m = MovingRoutes::new(SimDuration::from_millis(step_ms), base.routes, base.route_of_step, false);
            for t in [5_000_000_000, 0, 999_999_999, 1_000_000_000, 1, 2_500_000_000, 2, 1_999_999_999, u64::MAX, 3] {
                assert_eq!(m.step_index(SimTime(t)), step_of(&m, t), "step {step_ms} ms, t {t}");
            }
        }
    }

    #[test]
    fn the_index_finds_the_links_the_route_scan_finds() {
        // Node ids that collide in a small table, a node listed twice, and nodes off the route.
        let nodes = [0, 8, 16, 1, 9, 24, 8, 33];
        let m = MovingRoutes::new(SimDuration::from_millis(1000), vec![route(&nodes, 0)], vec![0], false);
        let r = &m.routes[0];
        for at in 0..40 {
            for dst in 0..40 {
                assert_eq!(m.next_link(SimTime::ZERO, at, dst), r.next_link(at, dst), "{at} -> {dst}");
            }
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
    fn the_remembered_answers_are_those_worked_out_afresh() {
        // One node asked in turn for several destinations across the steps, back and forth in
        // time: each answer is the one a new `MovingRoutes` (nothing remembered) gives.
        for grace in [false, true] {
            let m = two_routes(grace);
            let mut x: u64 = 0x853c_49e6_748f_ea9b;
            for _ in 0..2000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let t = SimTime((x >> 33) % 3_500_000_000);
                let at = [0, 2, 3, 4, 7][(x >> 8) as usize % 5];
                let dst = [0, 1, 3, 4, 9][(x >> 16) as usize % 5];
                assert_eq!(m.next_link(t, at, dst), two_routes(grace).next_link(t, at, dst), "{t:?} {at} -> {dst}");
            }
        }
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
    fn a_walk_takes_the_links_next_link_gives_while_its_route_holds() {
        let m = two_routes(false);
        let t = SimTime::from_secs_f64(0.5);
        for (from, to) in [(0, 1), (2, 1), (1, 0), (3, 0), (1, 1)] {
            let mut walk = m.walk(t, from, to).unwrap();
            let mut at = from;
            while let Some(l) = m.step(&mut walk) {
                assert_eq!(Some(l), m.next_link(t, at, to));
                at = m.route_at(t).nodes[walk.at];
            }
            assert_eq!(at, to);
        }
        assert_eq!(m.walk(t, 4, 1), None);
    }

    #[test]
    fn neighbours_are_towards_each_end() {
        let r = route(&[0, 2, 3, 1], 0);
        assert_eq!(r.neighbours(2), Some((Some(0), Some(3))));
        assert_eq!(r.neighbours(0), Some((None, Some(2))));
        assert_eq!(r.neighbours(7), None);
    }

    #[test]
    fn a_step_span_covers_the_times_whose_route_is_that_step_s() {
        let m = two_routes(false);
        let s = SimTime::from_secs_f64;
        assert_eq!(m.step_span(s(0.5)), (s(0.0), s(1.0)));
        assert_eq!(m.step_span(s(1.0)), (s(1.0), s(2.0)));
        for t in [0.0, 0.999, 1.0, 1.7, 2.0, 2.5] {
            let (from, until) = m.step_span(s(t));
            assert!(from <= s(t) && s(t) < until);
            assert_eq!(m.step_index(from), m.step_index(s(t)));
            assert_eq!(m.step_index(SimTime(until.0 - 1)), m.step_index(s(t)));
        }
        // The last step holds after the timeline ends.
        assert_eq!(m.step_span(s(99.0)), (s(2.0), SimTime::MAX));
    }
}
