//! Where an INTCP node's neighbours are: fixed on a chain, or looked up on the route in force
//! on a constellation, whose route changes while the flow runs.

use super::{IntcpNode, NodeRole};
use crate::engine::Ctx;
use crate::net::{AgentId, NodeId};
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
}

impl MovingPeers {
    pub(super) fn peer(&self, node: Option<NodeId>) -> Option<Peer> {
        let node = node?;
        let agent = *self.agent_of_node.get(node as usize)?;
        (agent != AgentId::MAX).then_some(Peer { node, agent })
    }
}

pub(super) enum Peers {
    Fixed { up: Option<Peer>, down: Option<Peer> },
    Moving(Rc<MovingPeers>),
}

impl IntcpNode {
    /// Finds neighbours on the route in force instead of fixed ones. Such a node does not read
    /// ahead by default (docs/intcp-caching.md, "On a constellation"): only `read_ahead:
    /// "always"` keeps it.
    pub fn with_moving_peers(mut self, peers: Rc<MovingPeers>) -> IntcpNode {
        self.peers = Peers::Moving(peers);
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
            Peers::Moving(m) => {
                let (to_source, to_dest) = ctx.route_neighbours(self.node)?;
                m.peer(if upstream == m.producer_at_source { to_source } else { to_dest })
            }
        }
    }

    pub(super) fn up(&self, ctx: &Ctx) -> Option<Peer> {
        self.neighbour(ctx, true)
    }

    pub(super) fn down(&self, ctx: &Ctx) -> Option<Peer> {
        self.neighbour(ctx, false)
    }
}
