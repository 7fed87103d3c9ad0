//! An INTCP flow: its agents, a producer, a midnode with a cache on every node between, and a
//! consumer (docs/intcp-protocol.md §1); and what it reports, per node and over time.

use super::result::HopSummary;
use super::traces::{Columns, HopRole, HopTrace};
use super::transport::{Builder, Figures, FlowReport, FlowSlot, TraceParts, Transport};
use super::Run;
use crate::delivery::Delivery;
use crate::intcp::consumer::{Consumer, ConsumerConfig, CONSUMER_TRACE_COLUMNS};
use crate::intcp::midnode::{
    IntcpNode, IntcpNodeConfig, Midnode, MovingPeers, NodeContent, NodeRole, Peer, Role, StoreAt, HOP_TRACE_COLUMNS,
};
use crate::intcp::rate::{CcParams, HopController};
use crate::intcp::IntcpConfig;
use crate::metrics::Trace;
use crate::net::AgentId;
use crate::scenario::{self, IntcpFlow, ReadAheadWhen};
use crate::sim::{SimDuration, SimTime};
use crate::simulation::{Agent, Simulation};

/// The agents of an INTCP flow: the producer's, the consumer's, and those between.
pub(super) struct IntcpHandle {
    producer: AgentId,
    consumer: AgentId,
}

impl IntcpHandle {
    /// The flow's agents, producer first. On a constellation, only the nodes that took part
    /// (satellites that were never on the route while the flow ran have nothing to report).
    fn nodes<'s>(&self, sim: &'s Simulation) -> Vec<&'s IntcpNode> {
        (self.producer..=self.consumer)
            .map(|a| match &sim.agents[a as usize] {
                Agent::IntcpNode(n) => n.as_ref(),
                _ => unreachable!("an INTCP flow's agents are INTCP nodes"),
            })
            .filter(|n| {
                sim.net.moving.is_none()
                    || n.role.kind() != Role::Midnode
                    || n.stats.data_sent > 0
                    || n.stats.interests_sent > 0
            })
            .collect()
    }

    fn consumer<'s>(&self, sim: &'s Simulation) -> &'s Consumer {
        match &sim.agents[self.consumer as usize] {
            Agent::IntcpNode(n) => n.role.consumer_state().expect("the last INTCP agent is the consumer"),
            _ => unreachable!("an INTCP flow's agents are INTCP nodes"),
        }
    }
}

impl FlowReport for IntcpHandle {
    fn delivery<'s>(&self, sim: &'s Simulation) -> &'s Delivery {
        &self.consumer(sim).delivery
    }

    fn ends(&self) -> (AgentId, AgentId) {
        (self.producer, self.consumer)
    }

    fn figures(&self, run: &Run, _f: usize, _end: SimTime) -> Figures {
        let c = self.consumer(&run.sim);
        let hops: Vec<HopSummary> = self
            .nodes(&run.sim)
            .iter()
            .map(|n| {
                let role = n.role.kind();
                let requester = role != Role::Producer;
                HopSummary {
                    node: n.node,
                    role: role.into(),
                    hop_srtt_ms: if requester { n.cc.srtt_ms() } else { 0.0 },
                    hop_min_rtt_ms: if requester { n.cc.min_hrtt_ms() } else { 0.0 },
                    hop_cwnd_pkts: if requester { n.cc.cwnd_pkts() } else { 0.0 },
                    advertised_rate_mbps: if requester { n.advertised_rate() } else { 0.0 },
                    paced_rate_mbps: if role == Role::Consumer { 0.0 } else { n.bucket.rate_mbps },
                    data_sent: n.stats.data_sent,
                    interests_sent: n.stats.interests_sent,
                    cache_served: n.stats.cache_served,
                    cache_bytes_used: n.role.store().map_or(0, |s| s.content(&run.sim.net.node_states).cache.used()),
                    hole_requests: n.stats.hole_requests,
                    max_queue_bytes: n.stats.max_queue_bytes,
                }
            })
            .collect();
        // Re-requested segments: end-to-end timeouts and SeqHoles at every node.
        let mid_holes: u64 = hops.iter().filter(|h| h.role == HopRole::Midnode).map(|h| h.hole_requests).sum();
        Figures {
            retransmissions: c.stats.timeout_resends + c.stats.hole_requests + mid_holes,
            timeouts: c.stats.timeouts,
            wire: None,
            coding: None,
            hops: Some(hops),
        }
    }

    fn traces(&self, run: &Run) -> TraceParts {
        let hops = self
            .nodes(&run.sim)
            .iter()
            .map(|n| HopTrace {
                node: n.node,
                role: n.role.kind().into(),
                series: Columns::new(&n.hop_trace, HOP_TRACE_COLUMNS),
                retransmissions: Columns::new(&n.rtx_trace, ["node", "count"]),
            })
            .collect();
        let c = self.consumer(&run.sim);
        TraceParts { sender: Columns::new(&c.trace, CONSUMER_TRACE_COLUMNS), coding: None, hops: Some(hops) }
    }
}

impl Run {
    /// Every INTCP cache of every node, once each (flows of one name share one per node), in
    /// the order they were made (with their agents): (used bytes, capacity).
    pub fn intcp_cache_usage(&self) -> Vec<(u64, u64)> {
        let states = &self.sim.net.node_states;
        let mut shared_seen = Vec::new();
        self.sim
            .agents
            .iter()
            .filter_map(|a| match a {
                Agent::IntcpNode(n) => n.role.store(),
                _ => None,
            })
            .filter(|store| match store {
                StoreAt::Own(_) => true,
                StoreAt::Shared(slot) => {
                    !shared_seen.contains(slot) && {
                        shared_seen.push(*slot);
                        true
                    }
                }
            })
            .map(|store| {
                let cache = &store.content(states).cache;
                (cache.used(), cache.capacity())
            })
            .collect()
    }
}

impl Transport for IntcpHandle {
    type Spec = IntcpFlow;

    /// Adds one agent per node of the flow's path (every node on a constellation); flows of one
    /// content name share the store (cache and pending interests) of each node they pass.
    fn build(c: &IntcpFlow, slot: FlowSlot, b: &mut Builder) -> IntcpHandle {
        let moving_nodes = b.moving_nodes();
        let FlowSlot { f, from, to, content, start, points, interval, bin_width, express, .. } = slot;
        let mut cc = CcParams::defaults(c.mss_bytes);
        cc.ssthresh_pkts = c.ssthresh_pkts;
        cc.queue_threshold_bytes = c.queue_threshold_bytes;
        cc.decrease_factor = c.decrease_factor;
        cc.min_rtt_window = SimDuration::from_secs_f64(c.min_rtt_window_s);
        cc.target_buffer_bytes = c.target_buffer_pkts * c.mss_bytes as f64;
        cc.min_rate_mbps = c.min_rate_mbps;
        cc.max_rate_mbps = c.max_rate_mbps;
        cc.ca_increase_pkts = c.ca_increase_pkts;
        cc.probe_gain = c.probe_gain;
        let cfg = IntcpConfig {
            bytes: c.bytes,
            mss: c.mss_bytes,
            cache: c.cache,
            cc,
            hole_threshold: c.hole_threshold_pkts,
            hold_budget_bytes: if c.cache { c.hold_budget_bytes } else { 0 },
            lookahead_bytes: c.lookahead_bytes,
            swing_gate: c.read_ahead == ReadAheadWhen::Swings,
        };
        // The path's nodes, producer first; agent ids follow in the same order. On a
        // constellation every node may join the route, so every node gets an agent,
        // and each finds its neighbours on the route in force.
        let path: Vec<u32> = match moving_nodes {
            None if from < to => (from..=to).collect(),
            None => (to..=from).rev().collect(),
            Some(n) => std::iter::once(from)
                .chain((0..n).filter(|&x| x != from && x != to))
                .chain(std::iter::once(to))
                .collect(),
        };
        let n = path.len();
        let ids: Vec<AgentId> = path.iter().map(|_| b.reserve()).collect();
        let base = ids[0];
        let moving_peers = moving_nodes.map(|count| {
            let mut agent_of_node = vec![AgentId::MAX; count as usize];
            for (i, &node) in path.iter().enumerate() {
                agent_of_node[node as usize] = base + i as u32;
            }
            std::rc::Rc::new(MovingPeers { agent_of_node, producer_at_source: from < to, skip_stranded_ticks: express })
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
            let cache_bytes = c.node_cache_bytes.get(&node.to_string()).copied().unwrap_or(c.cache_bytes);
            let store = match &c.name {
                Some(name) if c.cache && role != Role::Producer => {
                    Some(StoreAt::Shared(b.named_node_state(node, name, || NodeContent::new(cache_bytes))))
                }
                None if c.cache && role == Role::Midnode => Some(StoreAt::Own(Box::new(NodeContent::new(cache_bytes)))),
                _ => None,
            };
            let node_role = match role {
                Role::Producer => NodeRole::Producer { content },
                Role::Midnode => NodeRole::Midnode(Box::new(Midnode::new(&cfg, store))),
                Role::Consumer => NodeRole::consumer(
                    Consumer::new(ConsumerConfig {
                        flow: f,
                        mss: c.mss_bytes,
                        bytes: c.bytes,
                        hole_threshold: c.hole_threshold_pkts,
                        target_buffer_bytes: cfg.cc.target_buffer_bytes,
                        content,
                        trace: Trace::with_interval(points, interval),
                        owd_trace: Trace::with_interval(points, interval),
                        bin_width,
                    }),
                    store,
                ),
            };
            // The requester of hop i - 1 (counted from the producer) runs its hop_cc
            // (a chain's hops; validation refuses hop_cc on a constellation).
            let hop = match i.checked_sub(1).and_then(|h| c.hop_cc.get(h)) {
                Some(scenario::HopCc::Reno) => HopController::Reno,
                Some(scenario::HopCc::Intcp) | None => HopController::Intcp,
            };
            let mut agent =
                IntcpNode::new(IntcpNodeConfig { intcp: cfg.clone(), hop, flow: f, role: node_role, node, up, down });
            if c.name.is_some() {
                agent = agent.aggregating_interests();
            }
            // A constellation's satellites come and go: only the ends keep time series.
            if moving_peers.is_none() || role != Role::Midnode || node < 4 {
                agent = agent.with_traces(points, interval);
            }
            if let Some(m) = &moving_peers {
                agent = agent.with_moving_peers(m.clone());
            }
            let st = (role == Role::Consumer).then_some(start).flatten();
            b.place(ids[i], node, Agent::IntcpNode(Box::new(agent)), st);
        }
        IntcpHandle { producer: ids[0], consumer: ids[n - 1] }
    }
}

impl From<Role> for HopRole {
    fn from(role: Role) -> HopRole {
        match role {
            Role::Producer => HopRole::Producer,
            Role::Midnode => HopRole::Midnode,
            Role::Consumer => HopRole::Consumer,
        }
    }
}
