//! The seam between the runner and the transports.
//!
//! Each transport's runner file (`tcp.rs`, `ctcp.rs`, `intcp.rs`, `arq.rs`) implements [`Transport`]:
//! `build` places the flow's agents in the simulation through a [`Builder`] and returns the
//! flow's handle; the handle then gives the flow's [`Delivery`] and, as a [`FlowReport`], what
//! the transport reports beyond it (its own figures and time series). The report
//! (`report.rs`) reads every flow through these two, whatever its transport, so adding a
//! transport is a runner file, and a `FlowHandle` variant with its arm in `FlowHandle::report`
//! (`mod.rs`, which names every transport so that this file names none).

use super::result::{CodingSummary, HopSummary, WireSummary};
use super::traces::{CodingTrace, Columns, HopTrace};
use super::Run;
use crate::content::Content;
use crate::delivery::Delivery;
use crate::net::{AgentId, NodeId, NodeSlot};
use crate::sim::{SimDuration, SimTime};
use crate::simulation::{Agent, AgentKind, Simulation};
use std::marker::PhantomData;

/// Where a flow's agents go and what every transport's agents are given.
#[derive(Clone, Copy)]
pub(super) struct FlowSlot {
    /// The flow's index in the scenario.
    pub f: u32,
    pub from: u32,
    pub to: u32,
    pub content: Content,
    pub start: Option<SimTime>,
    /// `trace.max_points` and `trace.interval_s`.
    pub points: usize,
    pub interval: SimDuration,
    /// Width of the goodput bins.
    pub bin_width: SimDuration,
    /// The run's seed.
    pub seed: u64,
    /// The scenario's `express`: whether events that change nothing may be left out.
    pub express: bool,
}

/// Places agents in a simulation. Agents that address each other (a sender and its receiver)
/// need each other's ids before either exists: `reserve` hands out the id, `place` puts the
/// agent there, and `finish` adds them all to the simulation in id order.
pub(super) struct Builder<'a> {
    sim: &'a mut Simulation,
    staged: Vec<Option<(NodeId, Agent, Option<SimTime>)>>,
}

impl<'a> Builder<'a> {
    pub fn new(sim: &'a mut Simulation) -> Builder<'a> {
        Builder { sim, staged: Vec::new() }
    }

    pub fn reserve(&mut self) -> AgentId {
        self.staged.push(None);
        (self.sim.agents.len() + self.staged.len() - 1) as AgentId
    }

    /// Puts `agent` on `node` under the reserved `id`; it starts at `start`, if given.
    pub fn place(&mut self, id: AgentId, node: NodeId, agent: Agent, start: Option<SimTime>) {
        let slot = &mut self.staged[id as usize - self.sim.agents.len()];
        debug_assert!(slot.is_none(), "agent {id} placed twice");
        *slot = Some((node, agent, start));
    }

    /// The slot of state on `node` that every flow naming `name` shares; `make` fills it the
    /// first time.
    pub fn named_node_state<T: 'static>(&mut self, node: NodeId, name: &str, make: impl FnOnce() -> T) -> NodeSlot {
        self.sim.net.node_states.named(node, name, make)
    }

    /// The node count of a network whose route changes with time (a constellation), where any
    /// node may join a flow's path.
    pub fn moving_nodes(&self) -> Option<u32> {
        self.sim.net.moving.is_some().then_some(self.sim.net.node_count)
    }

    /// Adds the placed agents to the simulation. Every reserved id must have been placed.
    pub fn finish(self) {
        for (i, staged) in self.staged.into_iter().enumerate() {
            let (node, agent, start) = staged.unwrap_or_else(|| panic!("agent {i} reserved but never placed"));
            self.sim.add_agent(node, agent, start);
        }
    }
}

/// The two agents of a flow with one sender (an `S`) and one receiver (an `R`): the handle of
/// every such transport.
pub(super) struct AgentPair<S, R> {
    pub sender: AgentId,
    pub receiver: AgentId,
    kinds: PhantomData<fn() -> (S, R)>,
}

impl<S: AgentKind, R: AgentKind> AgentPair<S, R> {
    /// Reserves the sender's id, then the receiver's, for the transport's `build` to place them.
    pub fn reserve(b: &mut Builder) -> Self {
        let sender = b.reserve();
        let receiver = b.reserve();
        AgentPair { sender, receiver, kinds: PhantomData }
    }

    /// The two agents, as their types.
    pub fn agents<'s>(&self, sim: &'s Simulation) -> (&'s S, &'s R) {
        let (sender, receiver) = (self.sender, self.receiver);
        match (S::of(&sim.agents[sender as usize]), R::of(&sim.agents[receiver as usize])) {
            (Some(s), Some(r)) => (s, r),
            _ => unreachable!("agents {sender} and {receiver} are not the sender and receiver their flow placed"),
        }
    }
}

/// What a flow's transport reports beyond its delivery.
pub(super) struct Figures {
    /// Segments sent again (TCP), coded packets (CTCP), or ranges requested again (INTCP).
    pub retransmissions: u64,
    pub timeouts: u64,
    pub wire: Option<WireSummary>,
    pub coding: Option<CodingSummary>,
    /// INTCP's per-node figures.
    pub hops: Option<Vec<HopSummary>>,
}

impl Figures {
    /// The figures of a transport that reports its wire and nothing else of its own.
    pub fn wire(retransmissions: u64, timeouts: u64, wire: WireSummary) -> Figures {
        Figures { retransmissions, timeouts, wire: Some(wire), coding: None, hops: None }
    }
}

/// A flow's time series beyond its delivery's.
pub(super) struct TraceParts {
    /// The sending end's state over time (window, rate, RTT estimates).
    pub sender: Columns,
    pub coding: Option<CodingTrace>,
    pub hops: Option<Vec<HopTrace>>,
}

impl TraceParts {
    /// The time series of a transport that traces its sender and nothing else.
    pub fn sender(sender: Columns) -> TraceParts {
        TraceParts { sender, coding: None, hops: None }
    }
}

/// What the report asks of a flow, whatever its transport.
pub(super) trait FlowReport {
    fn delivery<'s>(&self, sim: &'s Simulation) -> &'s Delivery;
    /// The flow's first failure: a delivery error, or a breach of the sender's own invariants.
    fn error<'s>(&self, sim: &'s Simulation) -> Option<&'s String> {
        self.delivery(sim).error.as_ref()
    }
    /// The agents at the two ends: (the one that sends the data, the one that receives it).
    fn ends(&self) -> (AgentId, AgentId);
    fn figures(&self, run: &Run, f: usize, end: SimTime) -> Figures;
    fn traces(&self, run: &Run) -> TraceParts;
}

/// A transport, as the runner builds and reports it.
pub(super) trait Transport: FlowReport + Sized {
    /// The flow's part of the scenario.
    type Spec;
    fn build(spec: &Self::Spec, slot: FlowSlot, b: &mut Builder) -> Self;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Network;
    use crate::tcp::receiver::{TcpReceiver, TcpReceiverConfig};

    fn receiver(peer: AgentId) -> Agent {
        let log = crate::metrics::Trace::new(2);
        Agent::TcpReceiver(Box::new(TcpReceiver::new(TcpReceiverConfig {
            flow: 0,
            peer_node: 0,
            peer_agent: peer,
            content: Content::new(1, 0),
            expected_bytes: None,
            delayed_ack: None,
            owd_trace: log,
            bin_width: SimDuration::from_millis(1000),
        })))
    }

    #[test]
    fn reserved_ids_are_the_ids_agents_get_whatever_the_order_they_are_placed_in() {
        let mut sim = Simulation::new(Network::new(3, Vec::new()), SimTime(1));
        sim.add_agent(0, receiver(0), None);
        let mut b = Builder::new(&mut sim);
        let first = b.reserve();
        let second = b.reserve();
        b.place(second, 1, receiver(first), None);
        b.place(first, 2, receiver(second), None);
        b.finish();
        assert_eq!((first, second), (1, 2));
        assert_eq!(sim.agent_node, vec![0, 2, 1]);
    }

    #[test]
    #[should_panic(expected = "reserved but never placed")]
    fn a_reserved_id_left_empty_is_a_bug() {
        let mut sim = Simulation::new(Network::new(3, Vec::new()), SimTime(1));
        let mut b = Builder::new(&mut sim);
        b.reserve();
        b.finish();
    }
}
