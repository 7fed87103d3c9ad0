//! An INTCP flow's agents: a producer, a midnode with a cache on every node between, and a
//! consumer (docs/intcp-protocol.md §1).

use super::FlowSlot;
use crate::intcp::cache::Cache;
use crate::intcp::consumer::Consumer;
use crate::intcp::midnode::{IntcpNode, MovingPeers, Peer, Role, SharedCache, SharedPit};
use crate::intcp::rate::{CcParams, HopController};
use crate::intcp::IntcpConfig;
use crate::metrics::Trace;
use crate::net::AgentId;
use crate::scenario::{self, IntcpFlow};
use crate::simulation::{Agent, Simulation};

/// Caches of named INTCP flows, by (node, content name): flows of one name share them.
pub(super) type SharedCaches = std::collections::BTreeMap<(u32, String), (SharedCache, SharedPit)>;

/// Adds one agent per node of the flow's path (every node on a constellation, `moving_nodes`
/// being its node count); returns the producer's and the consumer's agent ids, the others
/// being those between.
pub(super) fn add_intcp_flow(
    sim: &mut Simulation,
    c: &IntcpFlow,
    slot: FlowSlot,
    moving_nodes: Option<u32>,
    shared_caches: &mut SharedCaches,
) -> (u32, u32) {
    let FlowSlot { f, from, to, content, start, points, interval, bin_width, .. } = slot;
    let mut cc = CcParams::defaults(c.mss_bytes);
    cc.ssthresh_pkts = c.ssthresh_pkts;
    cc.queue_threshold_bytes = c.queue_threshold_bytes;
    cc.decrease_factor = c.decrease_factor;
    cc.min_rtt_window_ms = c.min_rtt_window_s * 1e3;
    cc.target_buffer_bytes = c.target_buffer_pkts * c.mss_bytes as f64;
    cc.min_rate_mbps = c.min_rate_mbps;
    cc.max_rate_mbps = c.max_rate_mbps;
    cc.ca_increase_pkts = c.ca_increase_pkts;
    cc.probe_gain = c.probe_gain;
    let cfg = IntcpConfig {
        bytes: c.bytes,
        mss: c.mss_bytes,
        cache: c.cache,
        cache_bytes: c.cache_bytes,
        cc,
        hole_threshold: c.hole_threshold_pkts,
        hold_budget_bytes: if c.cache { c.hold_budget_bytes } else { 0 },
        lookahead_bytes: c.lookahead_bytes,
    };
    // The path's nodes, producer first; agent ids follow in the same order. On a
    // constellation every node may join the route, so every node gets an agent,
    // and each finds its neighbours on the route in force.
    let path: Vec<u32> = match moving_nodes {
        None if from < to => (from..=to).collect(),
        None => (to..=from).rev().collect(),
        Some(n) => {
            std::iter::once(from).chain((0..n).filter(|&x| x != from && x != to)).chain(std::iter::once(to)).collect()
        }
    };
    let base = sim.agents.len() as u32;
    let n = path.len();
    let moving_peers = moving_nodes.map(|count| {
        let mut agent_of_node = vec![AgentId::MAX; count as usize];
        for (i, &node) in path.iter().enumerate() {
            agent_of_node[node as usize] = base + i as u32;
        }
        std::rc::Rc::new(MovingPeers { agent_of_node, producer_at_source: from < to })
    });
    for (i, &node) in path.iter().enumerate() {
        let role = if i == 0 {
            Role::Producer
        } else if i + 1 == n {
            Role::Consumer
        } else {
            Role::Midnode
        };
        let peer = |j: usize| Peer { node: path[j], agent: base + j as u32 };
        let up = (i > 0).then(|| peer(i - 1));
        let down = (i + 1 < n).then(|| peer(i + 1));
        let consumer = (role == Role::Consumer).then(|| {
            Box::new(Consumer::new(
                f,
                c.mss_bytes,
                c.bytes,
                c.hole_threshold_pkts,
                cfg.cc.target_buffer_bytes,
                content,
                Trace::with_interval(points, interval),
                Trace::with_interval(points, interval),
                bin_width,
            ))
        });
        let cache_bytes = c.node_cache_bytes.get(&node.to_string()).copied().unwrap_or(c.cache_bytes);
        let (cache, pit) = match &c.name {
            Some(name) if c.cache && role != Role::Producer => {
                let (cache, pit) = shared_caches.entry((node, name.clone())).or_insert_with(|| {
                    (std::rc::Rc::new(std::cell::RefCell::new(Cache::new(cache_bytes))), Default::default())
                });
                (Some(cache.clone()), Some(pit.clone()))
            }
            _ => (None, None),
        };
        // The requester of hop i - 1 (counted from the producer) runs its hop_cc
        // (a chain's hops; validation refuses hop_cc on a constellation).
        let mut cfg = cfg.clone();
        cfg.cache_bytes = cache_bytes;
        if let Some(k) = i.checked_sub(1).and_then(|h| c.hop_cc.get(h)) {
            cfg.cc.controller = match k {
                scenario::HopCc::Intcp => HopController::Intcp,
                scenario::HopCc::Reno => HopController::Reno,
            };
        }
        let mut agent = IntcpNode::new(cfg, f, role, node, up, down, content, consumer, cache).with_pit(pit);
        // A constellation's satellites come and go: only the ends keep time series.
        if moving_peers.is_none() || role != Role::Midnode || node < 4 {
            agent = agent.with_traces(points, interval);
        }
        if let Some(m) = &moving_peers {
            agent = agent.with_moving_peers(m.clone());
        }
        let st = (role == Role::Consumer).then_some(start).flatten();
        sim.add_agent(node, Agent::IntcpNode(Box::new(agent)), st);
    }
    (base, base + n as u32 - 1)
}
