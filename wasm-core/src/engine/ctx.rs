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

    #[inline]
    pub fn send(&mut self, pkt: Packet) {
        route(self.net, self.queue, self.now, self.node, pkt);
    }
    /// On a network whose route changes with time: the neighbours of `node` on the route in
    /// force now (towards the source end, towards the destination end), or None if `node` is
    /// not on it or the network is static.
    pub fn route_neighbours(&self, node: NodeId) -> Option<(Option<NodeId>, Option<NodeId>)> {
        self.net.moving.as_ref()?.route_at(self.now).neighbours(node)
    }
    /// On a network whose route changes with time: the span `[from, until)` in which the route
    /// in force now stays in force (so the answers of `route_neighbours` hold for it).
    pub fn route_span(&self) -> Option<(SimTime, SimTime)> {
        Some(self.net.moving.as_ref()?.step_span(self.now))
    }
    /// State this agent shares with others on its node (`net::node_state`), as the type that
    /// made the slot.
    pub fn node_state<T: 'static>(&mut self, slot: NodeSlot) -> &mut T {
        debug_assert_eq!(self.net.node_states.node_of(slot), self.node, "an agent reaches only its own node's state");
        self.net.node_states.get_mut(slot)
    }
    /// Schedules `Event::Timer { agent: self, token }` at `at`.
    #[inline]
    pub fn timer_at(&mut self, at: SimTime, token: u64) {
        self.queue.schedule(at, Event::Timer { agent: self.agent, token });
    }

    /// [`Self::timer_at`] for a timer set a fixed delay from now, so that each comes no earlier
    /// than the last one set this way by any agent (INTCP's 1 ms ticks): it costs the event
    /// queue no sift (`EventQueue::schedule_in_order`).
    #[inline]
    pub fn timer_in_order(&mut self, at: SimTime, token: u64) {
        self.queue.schedule_in_order(at, Event::Timer { agent: self.agent, token });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Body, Buffer, Link, LinkConfig};
    use crate::sim::{Rng, SimDuration, Stream};

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    /// Nodes 0 and 1 joined one way by a link of 8 Mbit/s and 10 ms.
    fn one_way() -> Network {
        let cfg = LinkConfig::constant(8e6, SimDuration::from_millis(10), Buffer::Unlimited);
        let rng = |s| Rng::new(1, s);
        let link = Link::new(
            0,
            0,
            1,
            cfg,
            rng(Stream::LinkLoss { link: 0, reverse: false }),
            rng(Stream::LinkJitter { link: 0, reverse: false }),
            2,
        );
        Network::new(2, vec![link])
    }

    fn packet(dst_node: NodeId, size: u32) -> Packet {
        Packet { flow: 0, dst_node, dst_agent: 0, size, body: Body::ArqAck { cum: 0, sel: None } }
    }

    #[test]
    fn timers_set_for_one_instant_fire_in_the_order_they_were_set() {
        let (mut net, mut queue) = (one_way(), EventQueue::new());
        let mut ctx = Ctx::new(ms(0), 0, 3, &mut net, &mut queue);
        ctx.timer_at(ms(5), 7);
        ctx.timer_at(ms(2), 9);
        ctx.timer_at(ms(5), 8);
        let order: Vec<(SimTime, u64)> = std::iter::from_fn(|| queue.pop())
            .map(|(t, ev)| match ev {
                Event::Timer { agent: 3, token } => (t, token),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(order, [(ms(2), 9), (ms(5), 7), (ms(5), 8)]);
    }

    #[test]
    fn a_sent_packet_arrives_after_its_transmission_and_the_link_delay() {
        let (mut net, mut queue) = (one_way(), EventQueue::new());
        let mut ctx = Ctx::new(ms(1), 0, 0, &mut net, &mut queue);
        ctx.send(packet(1, 1000));
        ctx.send(packet(1, 1000));
        // 1000 bytes at 8 Mbit/s take 1 ms: the first arrives at 1 + 1 + 10 ms; the second
        // waits for the first's transmission and arrives 1 ms later.
        assert_eq!(queue.pop().map(|(t, _)| t), Some(ms(12)));
        let link = &mut net.links[0];
        assert!(link.take_arrived(ms(12)).is_some());
        assert!(link.take_arrived(ms(12)).is_none());
        assert!(link.take_arrived(ms(13)).is_some());
    }

    #[test]
    fn a_packet_with_no_route_is_dropped_and_counted() {
        let (mut net, mut queue) = (one_way(), EventQueue::new());
        // The link goes 0 → 1 only: node 1 has no way to node 0.
        Ctx::new(ms(0), 1, 0, &mut net, &mut queue).send(packet(0, 100));
        assert_eq!(net.unrouted, 1);
        assert!(queue.is_empty());
    }
}
