//! Where an INTCP node's neighbours are: fixed on a chain, or looked up on the route in force
//! on a constellation, whose route changes while the flow runs.

use super::{IntcpNode, NodeRole};
use crate::engine::Ctx;
use crate::net::{AgentId, NodeId};
use crate::sim::SimTime;
use std::cell::Cell;
use std::rc::Rc;

/// A neighbour on the flow's path.
#[derive(Clone, Copy, Debug)]
pub struct Peer {
    pub node: NodeId,
    pub agent: AgentId,
}

/// The flow's agents on a constellation, whose route changes: a node's neighbours are those on
/// the route in force (`Ctx::route_neighbours`), and this maps their nodes to the flow's agents.
#[derive(Debug)]
pub struct MovingPeers {
    /// The flow's agent on each network node (`AgentId::MAX`: none).
    pub agent_of_node: Vec<AgentId>,
    /// Whether the producer sits at the route's source end (node 0).
    pub producer_at_source: bool,
    /// Whether a midnode the route left with data queued skips the ticks that would change
    /// nothing (`IntcpNode::stranded_until`; the scenario's `express`).
    pub skip_stranded_ticks: bool,
}

impl MovingPeers {
    pub(super) fn peer(&self, node: Option<NodeId>) -> Option<Peer> {
        let node = node?;
        let agent = *self.agent_of_node.get(node as usize)?;
        (agent != AgentId::MAX).then_some(Peer { node, agent })
    }
}

pub(super) enum Peers {
    Fixed {
        up: Option<Peer>,
        down: Option<Peer>,
    },
    /// The flow's agents, and this node's neighbours on the route in force during a span of
    /// time: a node asks for them at every packet, and the route changes once a step.
    Moving(Rc<MovingPeers>, Cell<Option<RouteNeighbours>>),
}

/// A node's neighbours (towards the producer, towards the consumer) on the route in force
/// during `[from, until)`.
#[derive(Clone, Copy, Debug)]
pub(super) struct RouteNeighbours {
    from: SimTime,
    until: SimTime,
    up: Option<Peer>,
    down: Option<Peer>,
}

impl IntcpNode {
    /// Finds neighbours on the route in force instead of fixed ones. Such a node does not read
    /// ahead by default (docs/intcp-caching.md, "On a constellation"): only `read_ahead:
    /// "always"` keeps it.
    pub fn with_moving_peers(mut self, peers: Rc<MovingPeers>) -> IntcpNode {
        self.peers = Peers::Moving(peers, Cell::new(None));
        if let NodeRole::Midnode(m) = &mut self.role {
            if m.ra.as_ref().is_some_and(|ra| ra.gate.is_some()) {
                m.ra = None;
            }
        }
        self
    }

    /// The neighbour towards the producer (`upstream`) or the consumer, now.
    pub(super) fn neighbour(&self, ctx: &Ctx, upstream: bool) -> Option<Peer> {
        match &self.peers {
            Peers::Fixed { up, down } => {
                if upstream {
                    *up
                } else {
                    *down
                }
            }
            Peers::Moving(m, memo) => {
                let now = memo.get().filter(|n| n.from <= ctx.now && ctx.now < n.until).or_else(|| {
                    let (from, until) = ctx.route_span()?;
                    let (up, down) = match ctx.route_neighbours(self.node) {
                        Some((to_source, to_dest)) if m.producer_at_source => (m.peer(to_source), m.peer(to_dest)),
                        Some((to_source, to_dest)) => (m.peer(to_dest), m.peer(to_source)),
                        None => (None, None),
                    };
                    let n = RouteNeighbours { from, until, up, down };
                    memo.set(Some(n));
                    Some(n)
                })?;
                if upstream {
                    now.up
                } else {
                    now.down
                }
            }
        }
    }

    /// Until when the neighbours found now stay this node's: the end of the route's step in
    /// force. None on a fixed path, or where the run skips no tick.
    pub(super) fn neighbours_until(&self, ctx: &Ctx) -> Option<SimTime> {
        let Peers::Moving(m, memo) = &self.peers else { return None };
        if !m.skip_stranded_ticks {
            return None;
        }
        self.neighbour(ctx, false);
        memo.get().filter(|n| n.from <= ctx.now && ctx.now < n.until).map(|n| n.until)
    }

    pub(super) fn up(&self, ctx: &Ctx) -> Option<Peer> {
        self.neighbour(ctx, true)
    }

    pub(super) fn down(&self, ctx: &Ctx) -> Option<Peer> {
        self.neighbour(ctx, false)
    }
}
