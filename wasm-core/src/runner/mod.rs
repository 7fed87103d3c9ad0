//! Running scenarios: the entry points shared by the CLI, the wasm boundary and the tests.

pub mod constellation;
pub mod cost;
mod sweep;
pub use sweep::{run_job, sweep_jobs, SweepJob, SweepPlan};

use crate::content::Content;
use crate::ctcp::cc::{CcRules, Increase};
use crate::ctcp::receiver::CtcpReceiver;
use crate::ctcp::sender::{CtcpConfig, CtcpSender, Feedback, Redundancy, CTCP_SENDER_TRACE_COLUMNS};
use crate::ctcp::{Layout, ACK_BYTES, PER_BLOCK_ACK_BYTES};
use crate::intcp::cache::Cache;
use crate::intcp::consumer::{Consumer, CONSUMER_TRACE_COLUMNS};
use crate::intcp::midnode::{IntcpNode, MovingPeers, Peer, Role, SharedCache, SharedPit, HOP_TRACE_COLUMNS};
use crate::intcp::rate::{CcParams, HopController};
use crate::intcp::IntcpConfig;
use crate::metrics::{jain_index, DelayStats, DelaySummary, Trace};
use crate::net::{AgentId, Buffer, Link, LinkConfig, LinkUsage, LossAt, LossProcess, Network, Outages, RateSchedule};
use crate::scenario::{
    self, Chain, CodingMode, CtcpCongestionGate, CtcpFeedback, CtcpRedundancy, CtcpSlowStartExit, CtcpVariant, Flow,
    LinkSpec, LossAtSpec, LossSpec, OutagesSpec, RateScheduleSpec, Scenario, Topology,
};
use crate::sim::{Rng, SimDuration, SimTime, Stream};
use crate::simulation::{Agent, EarlyStop, Simulation};
use crate::tcp::autotune::RcvWindow;
use crate::tcp::congestion::CcOptions;
use crate::tcp::receiver::{TcpReceiver, WindowPolicy};
use crate::tcp::rtt::RtoFlavor;
use crate::tcp::sender::{TcpConfig, TcpSender, SENDER_TRACE_COLUMNS};
use constellation::PathResult;
use serde::Serialize;
use serde_json::Value;

/// The result of one run.
#[derive(Clone, Debug, Serialize)]
pub struct RunResult {
    pub name: String,
    pub seed: u64,
    /// Simulated time at which the run stopped.
    pub end_s: f64,
    pub events: u64,
    pub flows: Vec<FlowResult>,
    pub fairness_jain: f64,
    /// Links that carried or dropped something (a constellation's route links come and go).
    pub links: Vec<LinkResult>,
    /// Packets dropped because no route led to their destination (a constellation without a
    /// path for a while, or stranded by a route change with `on_route_change: "drop"`).
    #[serde(skip_serializing_if = "is_zero")]
    pub unrouted_pkts: u64,
    /// A constellation's path over time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traces: Option<Traces>,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

#[derive(Clone, Debug, Serialize)]
pub struct FlowResult {
    pub id: u32,
    pub transport: &'static str,
    pub cc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub bytes: Option<u64>,
    pub delivered_bytes: u64,
    pub completed: bool,
    /// Seconds from the flow's start to its last byte delivered.
    pub completion_s: Option<f64>,
    /// Delivered bytes over completion time, or over the time it ran if it did not complete.
    pub goodput_mbps: f64,
    pub retransmissions: u64,
    pub timeouts: u64,
    /// One-way delay from a segment's first send to its in-order delivery.
    pub owd_ms: DelaySummary,
    /// One-way delay from a segment's first send to its first arrival at the receiver, before
    /// reordering (a sniffer's view: the INTCP authors' measurement). Absent for CTCP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owd_arrival_ms: Option<DelaySummary>,
    pub jitter_ms: f64,
    /// Why a flow with a byte count did not complete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incomplete_reason: Option<String>,
    /// A delivery failure: a wrong or missing byte. A run with one is a failed run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What the sender put on the wire, against what was delivered (TCP and CTCP).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wire: Option<WireSummary>,
    /// CTCP's coding figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coding: Option<CodingSummary>,
    /// INTCP: one entry per node of the path, producer first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hops: Option<Vec<HopSummary>>,
}

/// An INTCP node's figures at the end of the run. The hop fields describe the hop *upstream* of
/// the node (the node is that hop's requester); the producer has none.
#[derive(Clone, Debug, Serialize)]
pub struct HopSummary {
    pub node: u32,
    pub role: &'static str,
    pub hop_srtt_ms: f64,
    pub hop_min_rtt_ms: f64,
    pub hop_cwnd_pkts: f64,
    /// The rate this node last advertised upstream.
    pub advertised_rate_mbps: f64,
    /// The rate the downstream requester last asked of this node (its token bucket).
    pub paced_rate_mbps: f64,
    pub data_sent: u64,
    pub interests_sent: u64,
    pub cache_served: u64,
    pub cache_bytes_used: u64,
    pub hole_requests: u64,
    pub max_queue_bytes: u64,
}

/// A sender's data packets on the wire. A healthy loss-based sender retransmits about
/// p/(1 − p) packets per delivered one under random loss p, plus what queues drop.
#[derive(Clone, Debug, Serialize)]
pub struct WireSummary {
    /// Data packets sent, retransmissions (TCP) or coded packets (CTCP) included.
    pub data_sent: u64,
    /// TCP: retransmitted segments. CTCP: packets sent beyond one per source packet delivered.
    pub retransmitted: u64,
    /// Packets that reached the receiver and brought nothing new: TCP segments it already had,
    /// CTCP packets that added no degree of freedom.
    pub spurious: u64,
    /// Data packets delivered to the application (source packets for CTCP).
    pub delivered: u64,
    pub retransmitted_per_delivered: f64,
    pub spurious_per_delivered: f64,
    /// TCP only: tail loss probes, D-SACKs received, and the largest cwnd and flight (packets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_probes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dsacks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_cwnd_pkts: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_inflight_pkts: Option<u32>,
}

impl WireSummary {
    fn new(data_sent: u64, retransmitted: u64, spurious: u64, delivered: u64) -> WireSummary {
        let per = |n: u64| if delivered > 0 { n as f64 / delivered as f64 } else { 0.0 };
        WireSummary {
            data_sent,
            retransmitted,
            spurious,
            delivered,
            retransmitted_per_delivered: per(retransmitted),
            spurious_per_delivered: per(spurious),
            loss_probes: None,
            dsacks: None,
            max_cwnd_pkts: None,
            max_inflight_pkts: None,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct CodingSummary {
    pub packets_sent: u64,
    pub coded_packets: u64,
    pub source_packets_delivered: u64,
    /// Packets sent per source packet delivered.
    pub coded_overhead: f64,
    /// Receptions that added no degree of freedom (including packets for blocks already decoded).
    pub non_innovative: u64,
    pub blocks_decoded: u64,
    /// From a block's first transmission to its full decoding.
    pub decode_latency_ms: DelaySummary,
    /// The sender's loss estimate at the end of the run.
    pub loss_estimate: f64,
    /// Where the bottleneck's capacity went (chain topologies; None on a constellation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity: Option<CapacitySummary>,
}

/// Where the capacity of a CTCP flow's bottleneck link went over the whole run (time 0 to the
/// run's end), in *packet slots*: the time one of this flow's data packets takes on the link.
/// The bottleneck is the link of the flow's forward path with the least capacity over the run.
///
/// The slots add up: `innovative_pkts + redundant_needed_pkts + non_innovative_pkts + lost_pkts
/// + in_flight_pkts + other_pkt_slots + idle_pkt_slots = link_pkt_slots`, to within one packet
/// at the end of the run (a packet in service at the end counts whole). Each packet of the flow
/// that started transmission on the bottleneck is classified by what became of it; the idle
/// time is measured by the link itself (the gaps between transmissions), so the sum is a check.
/// Packets lost at the link's ingress (dummynet-style loss) or dropped by its full buffer took
/// no link time: they are counted apart (`ingress_loss_pkts`, `queue_drop_pkts`), outside the sum.
#[derive(Clone, Debug, Serialize)]
pub struct CapacitySummary {
    /// Id of the bottleneck link (as in `links`).
    pub link: u32,
    /// The link's capacity over the run.
    pub link_pkt_slots: f64,
    /// Systematic packets that arrived and added a degree of freedom.
    pub innovative_pkts: u64,
    /// Coded packets that arrived and added a degree of freedom: each replaced a lost packet.
    pub redundant_needed_pkts: u64,
    /// Packets that arrived and added nothing (in the span of what the receiver had, or for a
    /// block it had already decoded).
    pub non_innovative_pkts: u64,
    /// Packets transmitted on the bottleneck and lost after it (channel loss, an outage).
    pub lost_pkts: u64,
    /// Packets transmitted on the bottleneck and still propagating when the run ended.
    pub in_flight_pkts: u64,
    /// Time taken by other flows' packets and this flow's control packets (the SYN).
    pub other_pkt_slots: f64,
    /// Time the link was not transmitting: nothing to send (window- or block-limited).
    pub idle_pkt_slots: f64,
    /// Of the flow's packets: dropped by the bottleneck's full buffer (not in the sum).
    pub queue_drop_pkts: u64,
    /// Of the flow's packets: dropped at the bottleneck's ingress (not in the sum).
    pub ingress_loss_pkts: u64,
    /// Share of the link's time spent transmitting anything: 1 − idle / link.
    pub busy_fraction: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct LinkResult {
    pub id: u32,
    pub from: u32,
    pub to: u32,
    pub delivered_pkts: u64,
    /// Bytes on the wire (headers included) the link delivered.
    pub delivered_bytes: u64,
    pub drops: crate::net::Drops,
}

#[derive(Clone, Debug, Serialize)]
pub struct Traces {
    pub flows: Vec<FlowTrace>,
    pub links: Vec<LinkTrace>,
}

/// Columns of one flow's traces. Each time series shares its own `t`.
#[derive(Clone, Debug, Serialize)]
pub struct FlowTrace {
    pub id: u32,
    pub sender: Columns,
    pub owd: Columns,
    pub goodput: Columns,
    /// One-way delays in ms at evenly spaced quantiles (for CDF charts).
    pub owd_cdf_ms: Vec<f64>,
    /// The same for delays at first arrival, before reordering (TCP and INTCP): what the INTCP
    /// paper's packet sniffers measured for INTCP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owd_arrival_cdf_ms: Option<Vec<f64>>,
    pub jitter: Columns,
    /// Jitter of the delays at first arrival (TCP and INTCP), as the INTCP paper's sniffers saw it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jitter_arrival: Option<Columns>,
    /// CTCP: the decoder's rank of the current block over time, and decode events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coding: Option<CodingTrace>,
    /// INTCP: one entry per node of the path, producer first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hops: Option<Vec<HopTrace>>,
}

/// One INTCP node's time series.
#[derive(Clone, Debug, Serialize)]
pub struct HopTrace {
    pub node: u32,
    pub role: &'static str,
    /// `advertised_rate_mbps` (upstream, 0 at the producer), `paced_rate_mbps` (the token
    /// bucket's rate, 0 at the consumer), `queue_pkts` (send queue), `cache_bytes`.
    pub series: Columns,
    /// Re-requests (SeqHole and, at the consumer, end-to-end timeouts) as they were sent:
    /// `node` and the node's cumulative `count`.
    pub retransmissions: Columns,
}

#[derive(Clone, Debug, Serialize)]
pub struct CodingTrace {
    pub rank: Columns,
    pub decodes: Columns,
}

/// The two agents of a flow, whatever its transport.
#[derive(Clone, Copy)]
enum FlowParts<'a> {
    Tcp(&'a TcpSender, &'a TcpReceiver),
    Ctcp(&'a CtcpSender, &'a CtcpReceiver),
    Intcp(&'a Consumer),
}

impl<'a> FlowParts<'a> {
    fn error(self) -> Option<&'a String> {
        match self {
            // A delivery failure first; else a breach of the sender's invariants.
            FlowParts::Tcp(s, r) => r.error.as_ref().or(s.invariant_error.as_ref()),
            FlowParts::Ctcp(_, r) => r.error.as_ref(),
            FlowParts::Intcp(c) => c.error.as_ref(),
        }
    }
    fn completed_at(self) -> Option<SimTime> {
        match self {
            FlowParts::Tcp(_, r) => r.completed_at,
            FlowParts::Ctcp(_, r) => r.completed_at,
            FlowParts::Intcp(c) => c.completed_at,
        }
    }
    fn delivered(self) -> u64 {
        match self {
            FlowParts::Tcp(_, r) => r.delivered,
            FlowParts::Ctcp(_, r) => r.delivered,
            FlowParts::Intcp(c) => c.delivered,
        }
    }
    fn delays(self) -> &'a DelayStats {
        match self {
            FlowParts::Tcp(_, r) => &r.log.delays,
            FlowParts::Ctcp(_, r) => &r.log.delays,
            FlowParts::Intcp(c) => &c.log.delays,
        }
    }
    /// One-way delays at arrival, before reordering (TCP and INTCP; CTCP decodes blocks).
    fn arrivals(self) -> Option<&'a DelayStats> {
        match self {
            FlowParts::Tcp(_, r) => Some(&r.log.arrivals),
            FlowParts::Ctcp(..) => None,
            FlowParts::Intcp(c) => Some(&c.log.arrivals),
        }
    }
    fn goodput_bins(self) -> &'a [u64] {
        match self {
            FlowParts::Tcp(_, r) => &r.log.goodput_bins,
            FlowParts::Ctcp(_, r) => &r.log.goodput_bins,
            FlowParts::Intcp(c) => &c.log.goodput_bins,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct LinkTrace {
    pub id: u32,
    pub queue: Columns,
}

/// A time column and named value columns of equal length.
#[derive(Clone, Debug, Serialize)]
pub struct Columns {
    pub t: Vec<f64>,
    #[serde(flatten)]
    pub cols: serde_json::Map<String, Value>,
}

impl Columns {
    fn new<const N: usize>(trace: &Trace<N>, names: [&str; N]) -> Columns {
        let mut cols = serde_json::Map::new();
        for (name, c) in names.iter().zip(trace.cols.iter()) {
            cols.insert(name.to_string(), c.iter().map(|&v| json_f64(v)).collect());
        }
        Columns { t: trace.t.clone(), cols }
    }
    fn pairs(t: Vec<f64>, name: &str, v: Vec<f64>) -> Columns {
        let mut cols = serde_json::Map::new();
        cols.insert(name.to_string(), v.into_iter().map(json_f64).collect());
        Columns { t, cols }
    }
}

fn json_f64(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// A simulation built from a scenario, with what is needed to report on it.
pub struct Run {
    pub sim: Simulation,
    scenario: Scenario,
    seed: u64,
    /// (sender agent, receiver agent) per flow; for INTCP (producer, consumer), with the
    /// midnodes' agents between them.
    flow_agents: Vec<(u32, u32)>,
    path: Option<PathResult>,
    /// Links with queue traces: all of a chain's, a constellation's access links.
    traced_links: u32,
}

impl Run {
    pub fn new(sc: &Scenario) -> Result<Run, String> {
        Self::with_seed(sc, sc.seed)
    }

    /// Builds the run; fails only for a constellation whose orbits cannot be built (which
    /// scenario validation has already reported).
    pub fn with_seed(sc: &Scenario, seed: u64) -> Result<Run, String> {
        let points = sc.trace.max_points as usize;
        let (net, last_node, path, traced_links) = match &sc.topology {
            Topology::Chain(Chain { links, place }) => {
                let path = place.as_ref().map(|pl| constellation::fixed_geo_path(pl, sc.duration_s));
                (chain_network(links, seed, points), links.len() as u32, path, 2 * links.len() as u32)
            }
            Topology::Constellation(c) => {
                let built = constellation::build(c, sc.duration_s, seed, points)?;
                (built.net, 1, Some(built.path), built.access_links)
            }
        };
        let moving_nodes = net.moving.is_some().then_some(net.node_count);
        let mut sim = Simulation::new(net, SimTime::from_secs_f64(sc.duration_s));
        sim.max_events = sc.max_events;
        let interval = SimDuration::from_secs_f64(sc.trace.interval_s);
        let mut flow_agents = Vec::new();
        // Caches of named INTCP flows, by (node, content name).
        let mut shared_caches: std::collections::BTreeMap<(u32, String), (SharedCache, SharedPit)> = Default::default();
        for (f, flow) in sc.flows.iter().enumerate() {
            let f = f as u32;
            let (from, to) = flow.nodes();
            let (from, to) = (from.unwrap_or(0), to.unwrap_or(last_node));
            let content = match flow {
                // Flows sharing a name carry the same bytes.
                Flow::Intcp(scenario::IntcpFlow { name: Some(name), .. }) => Content::named(seed, name),
                _ => Content::new(seed, f),
            };
            let sender_id = sim.agents.len() as u32;
            let receiver_id = sender_id + 1;
            let bin_width = SimDuration::from_secs_f64(sc.trace.goodput_interval_s);
            let start = Some(SimTime::from_secs_f64(flow.start_s()));
            match flow {
                Flow::Tcp(t) => {
                    let set = t.settings();
                    let cfg = TcpConfig {
                        cc: t.cc,
                        cc_options: CcOptions { hystart: t.hystart },
                        mss: t.mss_bytes,
                        initial_cwnd: t.initial_cwnd_pkts,
                        initial_ssthresh: t.initial_ssthresh_pkts,
                        sack: t.sack,
                        rto_flavor: set.rto_flavor,
                        rto_min: SimDuration::from_secs_f64(set.rto_min_ms / 1e3),
                        rto_max: SimDuration::from_millis(match set.rto_flavor {
                            RtoFlavor::Linux => 120_000,  // Linux TCP_RTO_MAX
                            RtoFlavor::Rfc6298 => 60_000, // RFC 6298 §2.5
                        }),
                        recovery: set.recovery,
                        loss_detection: set.loss_detection,
                        per_ack_growth: set.per_ack_growth,
                        bytes: t.bytes,
                        audit: false,
                    };
                    let sender =
                        TcpSender::new(cfg, f, to, receiver_id, content, Trace::with_interval(points, interval));
                    sim.add_agent(from, Agent::TcpSender(Box::new(sender)), start);
                    let delack = set.delayed_ack.then(|| SimDuration::from_secs_f64(set.delack_ms / 1e3));
                    let window = match t.rwnd_pkts {
                        Some(r) => WindowPolicy::Fixed(r as u64 * t.mss_bytes as u64),
                        None if set.rcv_autotune => WindowPolicy::Autotune(RcvWindow::new(t.mss_bytes)),
                        None => WindowPolicy::Unlimited,
                    };
                    let receiver = TcpReceiver::new(
                        f,
                        from,
                        sender_id,
                        content,
                        t.bytes,
                        delack,
                        Trace::with_interval(points, interval),
                        bin_width,
                    )
                    .with_window(window);
                    sim.add_agent(to, Agent::TcpReceiver(Box::new(receiver)), None);
                }
                Flow::Ctcp(c) => {
                    let layout = Layout { symbol_len: c.mss_bytes, k: c.block_pkts, bytes: c.bytes };
                    let cfg = CtcpConfig {
                        layout,
                        max_blocks: c.max_blocks,
                        payload: c.coding == CodingMode::Full,
                        initial_cwnd: c.initial_cwnd_pkts,
                        initial_ssthresh: c.initial_ssthresh_pkts,
                        max_cwnd: c.max_cwnd_pkts,
                        increase: match c.variant {
                            CtcpVariant::V1 => Increase::Reno,
                            CtcpVariant::V2 => Increase::Htcp { delta_l: SimDuration::from_secs_f64(c.v2_delta_l_s) },
                        },
                        rules: CcRules {
                            vegas_slow_start_exit: c.slow_start_exit == CtcpSlowStartExit::Vegas,
                            srtt_gate: c.congestion_gate == CtcpCongestionGate::MinRttOrSrtt,
                        },
                        feedback: match c.feedback {
                            CtcpFeedback::PerBlock => Feedback::PerBlock,
                            CtcpFeedback::LowestBlock => Feedback::LowestBlock,
                        },
                        redundancy: match c.redundancy {
                            CtcpRedundancy::Nearest => Redundancy::Nearest,
                            CtcpRedundancy::Ceil => Redundancy::Ceil,
                        },
                        loss_scaling: c.loss_scaling,
                        run_seed: seed,
                    };
                    let sender =
                        CtcpSender::new(cfg, f, to, receiver_id, content, Trace::with_interval(points, interval));
                    sim.add_agent(from, Agent::CtcpSender(Box::new(sender)), start);
                    let receiver = CtcpReceiver::new(
                        f,
                        from,
                        sender_id,
                        content,
                        layout,
                        c.max_blocks,
                        c.coding == CodingMode::Full,
                        seed,
                        points,
                        bin_width,
                    )
                    .with_ack_bytes(match c.feedback {
                        CtcpFeedback::PerBlock => PER_BLOCK_ACK_BYTES,
                        CtcpFeedback::LowestBlock => ACK_BYTES,
                    });
                    sim.add_agent(to, Agent::CtcpReceiver(Box::new(receiver)), None);
                }
                Flow::Intcp(c) => {
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
                        Some(n) => std::iter::once(from)
                            .chain((0..n).filter(|&x| x != from && x != to))
                            .chain(std::iter::once(to))
                            .collect(),
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
                                    (
                                        std::rc::Rc::new(std::cell::RefCell::new(Cache::new(cache_bytes))),
                                        Default::default(),
                                    )
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
                        let mut agent =
                            IntcpNode::new(cfg, f, role, node, up, down, content, consumer, cache).with_pit(pit);
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
                    flow_agents.push((base, base + n as u32 - 1));
                    continue;
                }
            }
            flow_agents.push((sender_id, receiver_id));
        }
        Ok(Run { sim, scenario: sc.clone(), seed, flow_agents, path, traced_links })
    }

    pub fn run(&mut self) {
        self.sim.run();
    }

    /// Makes every TCP sender check its invariants on every ACK (debug builds always do); a
    /// breach becomes the flow's error.
    pub fn audit_senders(&mut self) {
        for a in &mut self.sim.agents {
            if let Agent::TcpSender(s) = a {
                s.enable_audit();
            }
        }
    }

    fn parts(&self, f: usize) -> FlowParts<'_> {
        let (s, r) = self.flow_agents[f];
        match (&self.sim.agents[s as usize], &self.sim.agents[r as usize]) {
            (Agent::TcpSender(s), Agent::TcpReceiver(r)) => FlowParts::Tcp(s, r),
            (Agent::CtcpSender(s), Agent::CtcpReceiver(r)) => FlowParts::Ctcp(s, r),
            (Agent::IntcpNode(_), Agent::IntcpNode(c)) => {
                FlowParts::Intcp(c.consumer.as_deref().expect("the last INTCP agent is the consumer"))
            }
            _ => unreachable!("flow agents are built in sender, receiver pairs"),
        }
    }

    /// The first delivery failure of any flow, if any.
    pub fn delivery_error(&self) -> Option<String> {
        (0..self.flow_agents.len()).find_map(|f| self.parts(f).error().cloned())
    }

    pub fn result(&self, with_traces: bool) -> RunResult {
        let end = self.sim.now.min(self.sim.end);
        let mut flows = Vec::new();
        for (f, flow) in self.scenario.flows.iter().enumerate() {
            let parts = self.parts(f);
            let start = SimTime::from_secs_f64(flow.start_s());
            let completed_at = parts.completed_at();
            let delivered = parts.delivered();
            let completion = completed_at.map(|c| (c - start).as_secs_f64());
            // A run stopped early (event budget, interruption) ran until `end`, not to the time
            // limit.
            let stop = if self.sim.stopped.is_some() { end } else { self.sim.end.max(end) };
            let ran_for = completion.unwrap_or_else(|| (stop - start).as_secs_f64());
            let goodput = if ran_for > 0.0 { delivered as f64 * 8.0 / ran_for / 1e6 } else { 0.0 };
            let of_bytes = |bytes: Option<u64>| bytes.map_or(String::new(), |b| format!(" of {b}"));
            let incomplete_reason = match (flow.bytes(), completed_at, self.sim.stopped) {
                (bytes, None, Some(EarlyStop::EventBudget)) => Some(format!(
                    "event budget: the run stopped after max_events ({}) events at {} s (duration_s is {} s), with {} \
                     bytes delivered{} (raise max_events, or shorten or slow down the scenario)",
                    self.scenario.max_events,
                    end.as_secs_f64(),
                    self.scenario.duration_s,
                    delivered,
                    of_bytes(bytes)
                )),
                (bytes, None, Some(EarlyStop::Interrupted)) => Some(format!(
                    "interrupted at {} s of {} s, with {} bytes delivered{}",
                    (end.as_secs_f64() * 1e3).round() / 1e3,
                    self.scenario.duration_s,
                    delivered,
                    of_bytes(bytes)
                )),
                (Some(b), None, None) => Some(format!(
                    "time limit: the run ended at {} s with {} of {} bytes delivered",
                    self.scenario.duration_s, delivered, b
                )),
                _ => None,
            };
            let hops = self.intcp_hops(f);
            let wire = match parts {
                FlowParts::Tcp(s, r) => {
                    // The receiver's count: the sender's cumulative ACK lags it by the ACKs still
                    // on their way when the run ends.
                    let delivered_segs = r.delivered.div_ceil(s.config().mss as u64);
                    let mut w = WireSummary::new(
                        s.stats.sent_pkts,
                        s.stats.retransmissions,
                        r.duplicate_segments,
                        delivered_segs,
                    );
                    w.loss_probes = Some(s.stats.loss_probes);
                    w.dsacks = Some(s.stats.dsacks);
                    w.max_cwnd_pkts = Some(s.stats.max_cwnd);
                    w.max_inflight_pkts = Some(s.stats.max_pipe);
                    Some(w)
                }
                FlowParts::Ctcp(s, r) => {
                    let delivered = r.stats.source_packets_delivered;
                    Some(WireSummary::new(
                        s.stats.sent_pkts,
                        s.stats.sent_pkts.saturating_sub(delivered),
                        r.stats.non_innovative,
                        delivered,
                    ))
                }
                FlowParts::Intcp(_) => None,
            };
            let (retransmissions, timeouts, coding) = match parts {
                FlowParts::Tcp(s, _) => (s.stats.retransmissions, s.stats.timeouts, None),
                FlowParts::Intcp(c) => {
                    // Re-requested segments: end-to-end timeouts and SeqHoles at every node.
                    let mid_holes: u64 =
                        hops.iter().flatten().filter(|h| h.role == "midnode").map(|h| h.hole_requests).sum();
                    (c.stats.timeout_resends + c.stats.hole_requests + mid_holes, c.stats.timeouts, None)
                }
                FlowParts::Ctcp(s, r) => (
                    s.stats.coded_pkts,
                    s.stats.timeouts,
                    Some(CodingSummary {
                        packets_sent: s.stats.sent_pkts,
                        coded_packets: s.stats.coded_pkts,
                        source_packets_delivered: r.stats.source_packets_delivered,
                        coded_overhead: if r.stats.source_packets_delivered > 0 {
                            s.stats.sent_pkts as f64 / r.stats.source_packets_delivered as f64
                        } else {
                            0.0
                        },
                        non_innovative: r.stats.non_innovative,
                        blocks_decoded: r.stats.blocks_decoded,
                        decode_latency_ms: r.stats.decode_latency.summary(),
                        loss_estimate: s.slr,
                        capacity: self.ctcp_capacity(f, flow, s, r, end),
                    }),
                ),
            };
            let delays = parts.delays();
            flows.push(FlowResult {
                id: f as u32,
                transport: flow.transport(),
                cc: flow.cc_name(),
                label: flow.label().cloned(),
                bytes: flow.bytes(),
                delivered_bytes: delivered,
                completed: completed_at.is_some(),
                completion_s: completion,
                goodput_mbps: goodput,
                retransmissions,
                timeouts,
                owd_ms: delays.summary(),
                owd_arrival_ms: parts.arrivals().map(DelayStats::summary),
                jitter_ms: delays.mean_jitter(),
                incomplete_reason,
                error: parts.error().cloned(),
                wire,
                coding,
                hops,
            });
        }
        let goodputs: Vec<f64> = flows.iter().map(|f| f.goodput_mbps).collect();
        let links = self
            .sim
            .net
            .links
            .iter()
            .filter(|l| {
                self.sim.net.moving.is_none() || l.delivered_pkts > 0 || l.drops != crate::net::Drops::default()
            })
            .map(|l| LinkResult {
                id: l.id,
                from: l.from,
                to: l.to,
                delivered_pkts: l.delivered_pkts,
                delivered_bytes: l.delivered_bytes,
                drops: l.drops,
            })
            .collect();
        let traces = with_traces.then(|| self.traces());
        RunResult {
            name: self.scenario.name.clone(),
            seed: self.seed,
            end_s: end.as_secs_f64(),
            events: self.sim.events_processed(),
            fairness_jain: jain_index(&goodputs),
            flows,
            links,
            unrouted_pkts: self.sim.net.unrouted,
            path: self.path.clone(),
            traces,
        }
    }

    /// The forward links of a flow on a chain, from its sender to its receiver.
    fn chain_path(&self, flow: &Flow) -> Option<Vec<u32>> {
        let Topology::Chain(Chain { links, .. }) = &self.scenario.topology else { return None };
        let (from, to) = flow.nodes();
        let (from, to) = (from.unwrap_or(0), to.unwrap_or(links.len() as u32));
        Some(if from <= to {
            (from..to).map(|i| 2 * i).collect()
        } else {
            (to..from).rev().map(|i| 2 * i + 1).collect()
        })
    }

    /// See [`CapacitySummary`].
    fn ctcp_capacity(
        &self,
        f: usize,
        flow: &Flow,
        s: &CtcpSender,
        r: &CtcpReceiver,
        end: SimTime,
    ) -> Option<CapacitySummary> {
        let path = self.chain_path(flow)?;
        let links = &self.sim.net.links;
        let usages: Vec<(usize, LinkUsage)> =
            path.iter().enumerate().filter_map(|(i, &l)| Some((i, links[l as usize].usage(end)?))).collect();
        let (at, usage) =
            usages.into_iter().min_by(|a, b| a.1.capacity_bits.total_cmp(&b.1.capacity_bits).then(a.0.cmp(&b.0)))?;
        let link = &links[path[at] as usize];
        let fid = f as u32;
        let slot_bits = 8.0 * (s.packet_bytes() as f64);
        let (_, _, data) = usage.carried.get(f).copied().unwrap_or_default();
        let all_bytes: u64 = usage.carried.iter().map(|c| c.1).sum();
        // Everything but this flow's data packets: other flows, and this flow's SYN.
        let other_bits = 8.0 * (all_bytes - data * s.packet_bytes() as u64) as f64;
        let in_flight: u64 = path[at..]
            .iter()
            .enumerate()
            .map(|(i, &l)| {
                let (all, started) = links[l as usize].data_in_flight(fid, end);
                if i == 0 {
                    started
                } else {
                    all
                }
            })
            .sum();
        let st = &r.stats;
        let received = st.innovative_systematic + st.innovative_coded + st.non_innovative;
        let tally = link.tally.get(f).copied().unwrap_or_default();
        Some(CapacitySummary {
            link: link.id,
            link_pkt_slots: usage.capacity_bits / slot_bits,
            innovative_pkts: st.innovative_systematic,
            redundant_needed_pkts: st.innovative_coded,
            non_innovative_pkts: st.non_innovative,
            lost_pkts: data.saturating_sub(received + in_flight),
            in_flight_pkts: in_flight,
            other_pkt_slots: other_bits / slot_bits,
            idle_pkt_slots: usage.idle_bits / slot_bits,
            queue_drop_pkts: tally.buffer_drops,
            ingress_loss_pkts: tally.ingress_losses,
            busy_fraction: if usage.capacity_bits > 0.0 { 1.0 - usage.idle_bits / usage.capacity_bits } else { 0.0 },
        })
    }

    /// Per-node figures of an INTCP flow, producer first; None for other transports.
    fn intcp_hops(&self, f: usize) -> Option<Vec<HopSummary>> {
        let nodes = self.intcp_nodes(f)?;
        Some(
            nodes
                .iter()
                .map(|n| {
                    let requester = n.role != Role::Producer;
                    let hole_requests = match &n.consumer {
                        Some(c) => c.stats.hole_requests,
                        None => n.stats.hole_requests,
                    };
                    HopSummary {
                        node: n.node,
                        role: n.role.name(),
                        hop_srtt_ms: if requester { n.cc.srtt_ms } else { 0.0 },
                        hop_min_rtt_ms: if requester { n.cc.min_hrtt_ms } else { 0.0 },
                        hop_cwnd_pkts: if requester { n.cc.cwnd } else { 0.0 },
                        advertised_rate_mbps: if requester { n.advertised_rate() } else { 0.0 },
                        paced_rate_mbps: if n.role == Role::Consumer { 0.0 } else { n.bucket.rate_mbps },
                        data_sent: n.stats.data_sent,
                        interests_sent: n.stats.interests_sent,
                        cache_served: n.stats.cache_served,
                        cache_bytes_used: n.cache.as_ref().map_or(0, |c| c.borrow().used()),
                        hole_requests,
                        max_queue_bytes: n.stats.max_queue_bytes,
                    }
                })
                .collect(),
        )
    }

    /// The agents of an INTCP flow, producer first; None for other transports. On a
    /// constellation, only the nodes that took part (satellites that were never on the route
    /// while the flow ran have nothing to report).
    fn intcp_nodes(&self, f: usize) -> Option<Vec<&IntcpNode>> {
        let (first, last) = self.flow_agents[f];
        let nodes: Option<Vec<&IntcpNode>> = (first..=last)
            .map(|a| match &self.sim.agents[a as usize] {
                Agent::IntcpNode(n) => Some(n.as_ref()),
                _ => None,
            })
            .collect();
        let took_part = |n: &&IntcpNode| {
            self.sim.net.moving.is_none()
                || n.role != Role::Midnode
                || n.stats.data_sent > 0
                || n.stats.interests_sent > 0
        };
        nodes.map(|v| v.into_iter().filter(took_part).collect())
    }

    /// Every cache of every INTCP node: (used bytes, capacity).
    pub fn intcp_cache_usage(&self) -> Vec<(u64, u64)> {
        self.sim
            .agents
            .iter()
            .filter_map(|a| match a {
                Agent::IntcpNode(n) => n.cache.as_ref().map(|c| (c.borrow().used(), c.borrow().capacity())),
                _ => None,
            })
            .collect()
    }

    fn traces(&self) -> Traces {
        let points = self.scenario.trace.max_points as usize;
        let width = self.scenario.trace.goodput_interval_s;
        let flows = (0..self.flow_agents.len())
            .map(|f| {
                let parts = self.parts(f);
                let bins = parts.goodput_bins();
                let gt: Vec<f64> = (0..bins.len()).map(|i| i as f64 * width).collect();
                let gv: Vec<f64> = bins.iter().map(|&b| b as f64 * 8.0 / width / 1e6).collect();
                let delays = parts.delays();
                let (jt, jv) = delays.jitter_series().into_iter().unzip();
                let (sender, owd, coding) = match parts {
                    FlowParts::Tcp(s, r) => {
                        (Columns::new(&s.trace, SENDER_TRACE_COLUMNS), Columns::new(&r.log.owd_trace, ["owd_ms"]), None)
                    }
                    FlowParts::Intcp(c) => (
                        Columns::new(&c.trace, CONSUMER_TRACE_COLUMNS),
                        Columns::new(&c.log.owd_trace, ["owd_ms"]),
                        None,
                    ),
                    FlowParts::Ctcp(s, r) => (
                        Columns::new(&s.trace, CTCP_SENDER_TRACE_COLUMNS),
                        Columns::new(&r.log.owd_trace, ["owd_ms"]),
                        Some(CodingTrace {
                            rank: Columns::new(&r.rank_trace, ["rank", "block"]),
                            decodes: Columns::new(&r.decode_trace, ["block", "latency_ms"]),
                        }),
                    ),
                };
                FlowTrace {
                    id: f as u32,
                    sender,
                    owd,
                    goodput: Columns::pairs(gt, "mbps", gv),
                    owd_cdf_ms: delays.cdf(points),
                    owd_arrival_cdf_ms: parts.arrivals().map(|a| a.cdf(points)),
                    jitter: Columns::pairs(jt, "jitter_ms", jv),
                    jitter_arrival: parts.arrivals().map(|a| {
                        let (t, v) = a.jitter_series().into_iter().unzip();
                        Columns::pairs(t, "jitter_ms", v)
                    }),
                    coding,
                    hops: self.intcp_nodes(f).map(|nodes| {
                        nodes
                            .iter()
                            .map(|n| HopTrace {
                                node: n.node,
                                role: n.role.name(),
                                series: Columns::new(&n.hop_trace, HOP_TRACE_COLUMNS),
                                retransmissions: Columns::new(&n.rtx_trace, ["node", "count"]),
                            })
                            .collect()
                    }),
                }
            })
            .collect();
        let links = self
            .sim
            .net
            .links
            .iter()
            .filter(|l| l.id < self.traced_links)
            .map(|l| LinkTrace { id: l.id, queue: Columns::new(&l.queue_trace, ["queue_pkts"]) })
            .collect();
        Traces { flows, links }
    }
}

/// The network of a chain: node i joined to node i+1 by link `links[i]`, both directions.
fn chain_network(links: &[LinkSpec], seed: u64, points: usize) -> Network {
    let mut net_links = Vec::with_capacity(links.len() * 2);
    for (i, spec) in links.iter().enumerate() {
        let i = i as u32;
        for reverse in [false, true] {
            let id = 2 * i + reverse as u32;
            let (from, to) = if reverse { (i + 1, i) } else { (i, i + 1) };
            net_links.push(Link::new(
                id,
                from,
                to,
                link_config(spec, reverse),
                Rng::new(seed, Stream::LinkLoss { link: i, reverse }),
                Rng::new(seed, Stream::LinkJitter { link: i, reverse }),
                points,
            ));
        }
    }
    Network::new(links.len() as u32 + 1, net_links)
}

fn loss_process(spec: &Option<LossSpec>) -> LossProcess {
    match spec {
        None | Some(LossSpec::None) => LossProcess::None,
        Some(LossSpec::Bernoulli { p }) => LossProcess::Bernoulli { p: *p },
        Some(LossSpec::GilbertElliott { p_good_to_bad, p_bad_to_good, loss_good, loss_bad }) => {
            LossProcess::GilbertElliott {
                p_good_to_bad: *p_good_to_bad,
                p_bad_to_good: *p_bad_to_good,
                loss_good: *loss_good,
                loss_bad: *loss_bad,
                bad: false,
            }
        }
        Some(LossSpec::List { drops }) => {
            let mut d = drops.clone();
            d.sort_unstable();
            d.dedup();
            LossProcess::List { drops: d, next: 0 }
        }
    }
}

fn link_config(spec: &LinkSpec, reverse: bool) -> LinkConfig {
    let mbps = |m: f64| m * 1e6;
    let rate = if reverse {
        RateSchedule::Constant(mbps(spec.reverse_rate_mbps.unwrap_or(spec.rate_mbps)))
    } else {
        match &spec.rate_schedule {
            None => RateSchedule::Constant(mbps(spec.rate_mbps)),
            Some(RateScheduleSpec::Steps(steps)) => {
                RateSchedule::Steps(steps.iter().map(|s| (SimTime::from_secs_f64(s.at_s), mbps(s.rate_mbps))).collect())
            }
            Some(RateScheduleSpec::Square { square }) => RateSchedule::Square {
                low: mbps(square.low_mbps),
                high: mbps(square.high_mbps),
                period: SimDuration::from_secs_f64(square.period_s),
            },
        }
    };
    let buffer = match (spec.buffer_pkts, spec.buffer_bytes) {
        (Some(p), _) => Buffer::Packets(p),
        (None, Some(b)) => Buffer::Bytes(b),
        (None, None) => Buffer::Unlimited,
    };
    let outages = match &spec.outages {
        None => Outages::None,
        Some(OutagesSpec::List(list)) => {
            let mut v: Vec<_> = list
                .iter()
                .map(|o| (SimTime::from_secs_f64(o.start_s), SimTime::from_secs_f64(o.start_s + o.duration_s)))
                .collect();
            v.sort();
            Outages::List(v)
        }
        Some(OutagesSpec::Periodic(o)) => Outages::Periodic {
            every: SimDuration::from_secs_f64(o.every_s),
            duration: SimDuration::from_secs_f64(o.duration_s),
            first: SimTime::from_secs_f64(o.first_s.unwrap_or(o.every_s)),
        },
    };
    LinkConfig {
        rate,
        delay: SimDuration::from_secs_f64(spec.delay_ms / 1e3),
        buffer,
        jitter: SimDuration::from_secs_f64(spec.jitter_ms / 1e3),
        reorder: spec.jitter_reorder,
        loss: loss_process(if reverse { &spec.reverse_loss } else { &spec.loss }),
        loss_at: match spec.loss_at {
            LossAtSpec::Channel => LossAt::Channel,
            LossAtSpec::Ingress => LossAt::Ingress,
        },
        outages,
        motion: None,
    }
}

/// Runs a parsed scenario (its base point, ignoring any sweep) and returns the result, or the
/// delivery error if a flow delivered a wrong or missing byte.
pub fn run_scenario(sc: &Scenario, seed: u64, with_traces: bool) -> Result<RunResult, String> {
    let mut session = Session::new(sc, seed)?;
    while session.step() {}
    session.result(with_traces)
}

/// The simulations of one scenario: one, or one per flow with `flows_alone`. Steppable, so the
/// browser can report progress.
pub struct Session {
    runs: Vec<Run>,
    current: usize,
}

impl Session {
    pub fn new(sc: &Scenario, seed: u64) -> Result<Session, String> {
        let runs = if sc.flows_alone {
            (0..sc.flows.len())
                .map(|f| {
                    let mut alone = sc.clone();
                    alone.flows = vec![sc.flows[f].clone()];
                    alone.flows_alone = false;
                    Run::with_seed(&alone, seed)
                })
                .collect::<Result<Vec<_>, _>>()?
        } else {
            vec![Run::with_seed(sc, seed)?]
        };
        Ok(Session { runs, current: 0 })
    }

    /// Stops every simulation not yet over at its current event (Ctrl-C in the CLI); the
    /// result then reports what was done, unfinished flows saying where they were stopped.
    pub fn interrupt(&mut self) {
        for run in &mut self.runs[self.current..] {
            run.sim.interrupt();
        }
    }

    /// Whether [`Self::interrupt`] stopped a simulation before its end.
    pub fn interrupted(&self) -> bool {
        self.runs.iter().any(|r| r.sim.stopped == Some(EarlyStop::Interrupted))
    }

    /// Processes one event; false when every simulation is over.
    pub fn step(&mut self) -> bool {
        while let Some(run) = self.runs.get_mut(self.current) {
            if run.sim.step() {
                return true;
            }
            self.current += 1;
        }
        false
    }

    pub fn finished(&mut self) -> bool {
        while let Some(run) = self.runs.get_mut(self.current) {
            if !run.sim.finished() {
                return false;
            }
            self.current += 1;
        }
        true
    }

    /// Simulated seconds done so far, over all the simulations.
    pub fn progress_s(&self) -> f64 {
        let done: f64 = self.runs[..self.current].iter().map(|r| r.sim.end.as_secs_f64()).sum();
        done + self.runs.get(self.current).map_or(0.0, |r| r.sim.now.as_secs_f64())
    }

    /// Simulated seconds in all.
    pub fn total_s(&self) -> f64 {
        self.runs.iter().map(|r| r.sim.end.as_secs_f64()).sum()
    }

    pub fn events_processed(&self) -> u64 {
        self.runs.iter().map(|r| r.sim.events_processed()).sum()
    }

    /// Digest of every simulation's event sequence.
    pub fn event_digest(&self) -> u64 {
        self.runs.iter().fold(0xcbf2_9ce4_8422_2325, |h, r| (h ^ r.sim.event_digest()).wrapping_mul(0x100_0000_01b3))
    }

    pub fn delivery_error(&self) -> Option<String> {
        self.runs.iter().find_map(Run::delivery_error)
    }

    /// The result; flows alone are reported together, numbered as in the scenario, with the
    /// link counters summed and no queue traces (each simulation had its own queues).
    pub fn result(&self, with_traces: bool) -> Result<RunResult, String> {
        if let Some(e) = self.delivery_error() {
            return Err(format!("delivery check failed: {e}"));
        }
        let mut results = self.runs.iter().map(|r| r.result(with_traces));
        let mut all = results.next().ok_or("the scenario has no flows")?;
        if self.runs.len() == 1 {
            return Ok(all);
        }
        if let Some(t) = &mut all.traces {
            t.links.clear();
        }
        for (f, r) in results.enumerate() {
            let id = f as u32 + 1;
            all.events += r.events;
            all.end_s = all.end_s.max(r.end_s);
            all.unrouted_pkts += r.unrouted_pkts;
            all.flows.extend(r.flows.into_iter().map(|fl| FlowResult { id, ..fl }));
            for l in r.links {
                match all.links.iter_mut().find(|a| a.id == l.id) {
                    Some(a) => {
                        a.delivered_pkts += l.delivered_pkts;
                        a.delivered_bytes += l.delivered_bytes;
                        a.drops.buffer += l.drops.buffer;
                        a.drops.loss += l.drops.loss;
                        a.drops.outage += l.drops.outage;
                        a.drops.route_change += l.drops.route_change;
                    }
                    None => all.links.push(l),
                }
            }
            if let (Some(t), Some(rt)) = (&mut all.traces, r.traces) {
                t.flows.extend(rt.flows.into_iter().map(|ft| FlowTrace { id, ..ft }));
            }
        }
        all.links.sort_by_key(|l| l.id);
        let goodputs: Vec<f64> = all.flows.iter().map(|f| f.goodput_mbps).collect();
        all.fairness_jain = jain_index(&goodputs);
        Ok(all)
    }
}

/// Runs a scenario given as JSON text and returns the result as JSON text.
/// `with_traces` = false gives the summary only (what `orbitcp run --summary` prints).
pub fn run_json(scenario_json: &str, with_traces: bool) -> Result<String, String> {
    let sc = scenario::parse(scenario_json)?;
    let r = run_scenario(&sc, sc.seed, with_traces)?;
    serde_json::to_string(&r).map_err(|e| e.to_string())
}

/// Checks a scenario, its sweep points included; the error lists every problem, each naming
/// its path.
pub fn validate_json(scenario_json: &str) -> Result<(), String> {
    check_json(scenario_json).map_err(String::from)
}

/// Like [`validate_json`], with every problem as a [`scenario::FieldError`] (what the browser's
/// editor places beside each field).
pub fn check_json(scenario_json: &str) -> Result<(), scenario::ScenarioError> {
    let sc = scenario::check(scenario_json)?;
    if sc.sweep.is_some() {
        SweepPlan::new(scenario_json).map_err(|e| scenario::ScenarioError::one("sweep", e))?.check()?;
    }
    Ok(())
}

/// The JSON Schema of the scenario format, generated from the Rust types.
pub fn schema_json() -> String {
    serde_json::to_string_pretty(&scenario::schema()).unwrap_or_default()
}
