//! Events, and what an agent may do while it handles one: send a packet (routed onto its next
//! link here), set a timer, ask the route in force for its neighbours.

use super::event::Event;
use super::forward::route;
use crate::net::{AgentId, Network, NodeId, NodeSlot, Packet};
use crate::sim::{EventQueue, SimTime};

/// What an agent may do while it handles an event.
pub struct Ctx<'a> {
    pub now: SimTime,
    pub node: NodeId,
    pub agent: AgentId,
    net: &'a mut Network,
    queue: &'a mut EventQueue<Event>,
}

impl<'a> Ctx<'a> {
    /// The context of `agent` on `node` at `now`, sending into `net` and scheduling into `queue`.
    pub fn new(
        now: SimTime,
        node: NodeId,
        agent: AgentId,
        net: &'a mut Network,
        queue: &'a mut EventQueue<Event>,
    ) -> Ctx<'a> {
        Ctx { now, node, agent, net, queue }
    }

    pub fn send(&mut self, pkt: Packet) {
        route(self.net, self.queue, self.now, self.node, pkt);
    }
    /// On a network whose route changes with time: the neighbours of `node` on the route in
    /// force now (towards the source end, towards the destination end), or None if `node` is
    /// not on it or the network is static.
    pub fn route_neighbours(&self, node: NodeId) -> Option<(Option<NodeId>, Option<NodeId>)> {
        self.net.moving.as_ref()?.route_at(self.now).neighbours(node)
    }
    /// State this agent shares with others on its node (`net::node_state`), as the type that
    /// made the slot.
    pub fn node_state<T: 'static>(&mut self, slot: NodeSlot) -> &mut T {
        debug_assert_eq!(self.net.node_states.node_of(slot), self.node, "an agent reaches only its own node's state");
        self.net.node_states.get_mut(slot)
    }
    /// Schedules `Event::Timer { agent: self, token }` at `at`.
    pub fn timer_at(&mut self, at: SimTime, token: u64) {
        self.queue.schedule(at, Event::Timer { agent: self.agent, token });
    }
}
