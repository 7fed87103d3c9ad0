//! What a node is in its flow, with the state only that role keeps (docs/intcp-protocol.md §1,
//! §6): the producer serves from the flow's content; a midnode caches, reads ahead and finds the
//! holes of its upstream hop; the consumer keeps the flow's end-to-end state. What every role
//! shares (the hop's rate control, the send queue and its token bucket) is `IntcpNode`'s.

use crate::content::Content;
use crate::intcp::consumer::Consumer;
use crate::intcp::holes::HoleDetector;
use crate::intcp::midnode::NodeContent;
use crate::intcp::readahead::ReadAhead;
use crate::intcp::IntcpConfig;
use crate::net::{NodeSlot, NodeStates};
use crate::sim::SimTime;
use std::collections::BTreeMap;

/// A node's part in the flow, by name (results' `role`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Producer,
    Midnode,
    Consumer,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Producer => "producer",
            Role::Midnode => "midnode",
            Role::Consumer => "consumer",
        }
    }
}

/// A node's part in the flow, with that part's own state.
pub enum NodeRole {
    /// The flow's `from_node`: a responder only, serving INTERESTs from the flow's content (all
    /// of it is available at once, so `pendingInts` never waits).
    Producer { content: Content },
    /// A node between: responder downstream, requester upstream (boxed: its state is the largest).
    Midnode(Box<Midnode>),
    /// The flow's `to_node`: a requester only.
    Consumer {
        /// The end-to-end state (`consumer.rs`).
        consumer: Box<Consumer>,
        /// On a node that named flows share, the store it leaves what it got in.
        store: Option<StoreAt>,
    },
}

/// Where a node's store (`store.rs`) is.
pub enum StoreAt {
    /// With the node: the store of a flow without a name, which no other agent reads. A packet
    /// reaches it without going through the node's shared state, whose slots hold any type and
    /// are read back through a type check: a virtual call for every DATA and INTEREST.
    Own(Box<NodeContent>),
    /// A slot of the node's state, shared by the flows of one name.
    Shared(NodeSlot),
}

impl StoreAt {
    /// The store, given the node states of the network it is in.
    pub fn content<'a>(&'a self, states: &'a NodeStates) -> &'a NodeContent {
        match self {
            StoreAt::Own(content) => content,
            StoreAt::Shared(slot) => states.get(*slot),
        }
    }
}

/// What a midnode keeps besides what every node keeps.
pub struct Midnode {
    /// The node's cache and pending interests (`store.rs`): its own, or a slot of the node's
    /// state shared by the flows of one name; none on a flow without caches.
    pub store: Option<StoreAt>,
    /// SeqHole on the upstream hop (with caches only: INTCP-uni has none, §10).
    pub(super) holes: HoleDetector,
    /// Read-ahead (with a cache and a hold budget; `readahead.rs`).
    pub ra: Option<ReadAhead>,
    /// When the read-ahead gate's timer fires next (`swing.rs`).
    pub(super) gate_timer_at: Option<SimTime>,
    /// Segments this midnode waits for from the PIT: start → since when.
    pub(super) waits: BTreeMap<u64, SimTime>,
}

impl Midnode {
    /// A midnode of a flow configured by `cfg`, with its store if the flow caches.
    pub fn new(cfg: &IntcpConfig, store: Option<StoreAt>) -> Midnode {
        let ra = (store.is_some() && cfg.hold_budget_bytes > 0).then(|| {
            let ra = ReadAhead::new(
                cfg.mss,
                cfg.hold_budget_bytes,
                cfg.lookahead_bytes,
                cfg.bytes,
                cfg.cc.target_buffer_bytes,
            );
            if cfg.swing_gate {
                ra.gated()
            } else {
                ra
            }
        });
        Midnode {
            store,
            holes: HoleDetector::new(cfg.mss, cfg.hole_threshold),
            ra,
            gate_timer_at: None,
            waits: BTreeMap::new(),
        }
    }
}

impl NodeRole {
    /// The consumer's role, with its end-to-end state.
    pub fn consumer(consumer: Consumer, store: Option<StoreAt>) -> NodeRole {
        NodeRole::Consumer { consumer: Box::new(consumer), store }
    }

    /// The role by name.
    #[inline]
    pub fn kind(&self) -> Role {
        match self {
            NodeRole::Producer { .. } => Role::Producer,
            NodeRole::Midnode(_) => Role::Midnode,
            NodeRole::Consumer { .. } => Role::Consumer,
        }
    }

    /// The node's store (cache and pending interests), if this role keeps one.
    #[inline]
    pub fn store(&self) -> Option<&StoreAt> {
        match self {
            NodeRole::Producer { .. } => None,
            NodeRole::Midnode(m) => m.store.as_ref(),
            NodeRole::Consumer { store, .. } => store.as_ref(),
        }
    }

    #[inline]
    pub fn store_mut(&mut self) -> Option<&mut StoreAt> {
        match self {
            NodeRole::Producer { .. } => None,
            NodeRole::Midnode(m) => m.store.as_mut(),
            NodeRole::Consumer { store, .. } => store.as_mut(),
        }
    }

    /// A midnode's read-ahead, if it reads ahead.
    #[inline]
    pub fn read_ahead(&self) -> Option<&ReadAhead> {
        match self {
            NodeRole::Midnode(m) => m.ra.as_ref(),
            _ => None,
        }
    }

    #[inline]
    pub(super) fn read_ahead_mut(&mut self) -> Option<&mut ReadAhead> {
        match self {
            NodeRole::Midnode(m) => m.ra.as_mut(),
            _ => None,
        }
    }

    /// The consumer's end-to-end state, at the consumer.
    #[inline]
    pub fn consumer_state(&self) -> Option<&Consumer> {
        match self {
            NodeRole::Consumer { consumer, .. } => Some(consumer),
            _ => None,
        }
    }

    /// A midnode's pending waits on the PIT.
    #[inline]
    pub(super) fn waits_mut(&mut self) -> Option<&mut BTreeMap<u64, SimTime>> {
        match self {
            NodeRole::Midnode(m) => Some(&mut m.waits),
            _ => None,
        }
    }
}
