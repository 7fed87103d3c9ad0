//! Links, loss models, packets, and the topology that routes packets between nodes.

pub mod capture;
pub mod express;
pub mod link;
pub mod loss;
pub mod motion;
pub mod moving;
pub mod node_state;
pub mod packet;
pub mod pcap;
pub mod rate_schedule;

use crate::sim::SimTime;
pub use capture::Capture;
pub use express::Express;
pub use link::{
    Buffer, Drops, FlowTally, Link, LinkConfig, LinkUsage, LossAt, Motion, MotionSample, Outages, RateSchedule,
};
pub use loss::LossProcess;
pub use moving::{MovingRoutes, Route};
pub use node_state::{NodeSlot, NodeStates};
pub use packet::{AgentId, Body, CtcpCoding, NodeId, Packet, SackBlocks, Transit};

/// Packets the links of a run may hold at once (queued, in transmission or propagating): a
/// packet offered beyond it is dropped as by a full buffer, so that a sender that never slows
/// down (go-back-N with a fixed timeout shorter than the queue, TCP in slow start) cannot grow a
/// queue of an unlimited buffer until the memory runs out. About 100 MB of packets.
pub const MAX_PACKETS_IN_NETWORK: u64 = 1 << 20;

/// Nodes joined by directional links, with static shortest-path routes or routes that change
/// with time.
pub struct Network {
    pub node_count: u32,
    pub links: Vec<Link>,
    /// `next_link[node * node_count + dst]`: the link a packet at `node` for `dst` takes.
    next_link: Vec<u32>,
    /// Time-varying routes (a constellation); replace `next_link` when set.
    pub moving: Option<MovingRoutes>,
    /// Packets dropped at a node that had no route for them.
    pub unrouted: u64,
    /// Entries all links hold ([`Link::held`]), kept below [`MAX_PACKETS_IN_NETWORK`].
    pub in_transit: u64,
    /// What the links transmitted, when the run asked for a capture (docs/pcap.md).
    pub capture: Option<Box<Capture>>,
    /// What agents on one node share (`node_state.rs`).
    pub node_states: NodeStates,
    /// The express path across nodes that only forward, where the run allows it
    /// (`express.rs`; `engine::forward` sends).
    pub express: Option<Box<Express>>,
}

impl Network {
    /// A network from directional links; routes are computed by breadth-first search (fewest hops).
    /// The table has one entry per (node, destination): its size grows with the square of the
    /// nodes, which is why scenario validation bounds a chain's length.
    pub fn new(node_count: u32, links: Vec<Link>) -> Network {
        let n = node_count as usize;
        let mut next_link = vec![u32::MAX; n * n];
        // The links into each node, in link order, so that each search visits each link once.
        let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, l) in links.iter().enumerate() {
            incoming[l.to as usize].push(i);
        }
        let mut seen = vec![false; n];
        for dst in 0..n {
            // BFS backwards from dst over reversed links, recording each node's first hop.
            seen.iter_mut().for_each(|s| *s = false);
            seen[dst] = true;
            let mut frontier = vec![dst];
            while !frontier.is_empty() {
                let mut next = Vec::new();
                for &v in &frontier {
                    for &i in &incoming[v] {
                        let l = &links[i];
                        let a = l.from as usize;
                        if !seen[a] {
                            seen[a] = true;
                            next_link[a * n + dst] = l.id;
                            next.push(a);
                        }
                    }
                }
                frontier = next;
            }
        }
        Network {
            node_count,
            links,
            next_link,
            moving: None,
            unrouted: 0,
            in_transit: 0,
            capture: None,
            node_states: NodeStates::default(),
            express: None,
        }
    }

    /// A network whose routes change with time.
    pub fn moving(node_count: u32, links: Vec<Link>, routes: MovingRoutes) -> Network {
        Network {
            node_count,
            links,
            next_link: Vec::new(),
            moving: Some(routes),
            unrouted: 0,
            in_transit: 0,
            capture: None,
            node_states: NodeStates::default(),
            express: None,
        }
    }

    pub fn next_link(&self, now: SimTime, at: NodeId, dst: NodeId) -> Option<u32> {
        if let Some(m) = &self.moving {
            return m.next_link(now, at, dst);
        }
        let l = *self.next_link.get((at * self.node_count + dst) as usize)?;
        (l != u32::MAX).then_some(l)
    }
}
