//! The scenario format: the one source of truth. The JSON Schema (`orbitcp schema`) and the web
//! app's TypeScript types are generated from these structs.
//!
//! Parsing is strict (unknown fields are errors) and every error names the path of the value at
//! fault, e.g. `flows[0].cc: unknown variant "cubc", expected one of ...`.

pub use crate::orbit::config::ConstellationTopology;
use crate::orbit::links::{Capacity, Loss};
use crate::orbit::OrbitError;
use crate::tcp::congestion::CcKind;
use crate::tcp::rtt::RtoFlavor;
use crate::tcp::sender::{LossDetection, Recovery};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const FORMAT_VERSION: u32 = 1;
/// Longest simulated duration accepted: a week.
pub const MAX_DURATION_S: f64 = 7.0 * 86_400.0;
/// Most runs a sweep may have (grid points × `runs`).
pub const MAX_SWEEP_RUNS: u64 = 100_000;
/// Fastest link, Mbit/s (100 Gbit/s): every packet then takes at least a nanosecond on the wire.
pub const MAX_RATE_MBPS: f64 = 100_000.0;
/// Most links of a chain: the routing table grows with the square of the nodes.
pub const MAX_CHAIN_LINKS: usize = 1000;
/// Most points per trace (`trace.max_points`; also the delay CDFs' length).
pub const MAX_TRACE_POINTS: u32 = 1_000_000;
/// Most goodput bins per flow (`duration_s` / `trace.goodput_interval_s`).
pub const MAX_GOODPUT_BINS: u64 = 1_000_000;
/// Default event budget of a run (`max_events`): minutes of simulation on one core.
pub const DEFAULT_MAX_EVENTS: u64 = 2_000_000_000;

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Format version; must be 1.
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Seed of every random stream in the run.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Simulated time limit in seconds. Flows that have not finished by then are reported as
    /// incomplete, with the reason.
    pub duration_s: f64,
    /// Event budget of a run (each simulation, with `flows_alone`): a run that reaches it stops
    /// there, and flows that had not finished say so in `incomplete_reason`. Default 2e9.
    #[serde(default = "default_max_events", skip_serializing_if = "is_default_max_events")]
    pub max_events: u64,
    pub topology: Topology,
    pub flows: Vec<Flow>,
    /// Run each flow alone, in its own simulation of the same network with the same seed, and
    /// report them together: for comparing protocols on one path without their competing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flows_alone: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<Sweep>,
    #[serde(default)]
    pub trace: TraceSpec,
    /// The paper's numbers this scenario reproduces, shown beside the simulated ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper: Option<PaperReference>,
}

fn default_seed() -> u64 {
    1
}

fn default_max_events() -> u64 {
    DEFAULT_MAX_EVENTS
}

fn is_default_max_events(v: &u64) -> bool {
    *v == DEFAULT_MAX_EVENTS
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Topology {
    /// Nodes 0..=N joined by N bidirectional links in a row; flows run from node 0 to node N
    /// unless they say otherwise. Several flows on one chain share its bottleneck.
    Chain(Chain),
    /// A path between two ground stations through a moving satellite constellation: links,
    /// delays and the route follow the orbits at every `step_s` (`orbit/config.rs`).
    Constellation(Box<ConstellationTopology>),
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Chain {
    pub links: Vec<LinkSpec>,
    /// Where the chain's satellite hop is, for the globe only: it changes nothing in the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<ChainPlace>,
}

/// A GEO satellite and the two ground stations a chain's satellite hop joins (e.g. WINDS at
/// 143° E between two terminals in Kashima), so that a GEO preset has a place on the globe.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChainPlace {
    pub geo_longitude_deg: f64,
    /// The sending and the receiving ground station.
    pub ground: [crate::orbit::config::Place; 2],
}

impl ChainPlace {
    /// The topology that draws it: the one GEO satellite, the two stations, no ISLs.
    pub fn as_constellation(&self) -> ConstellationTopology {
        use crate::orbit::config::{ConstellationSpec, IslChoice, RouteChange};
        let [src, dst] = self.ground.clone();
        ConstellationTopology {
            constellation: ConstellationSpec { geo_longitudes_deg: vec![self.geo_longitude_deg], ..Default::default() },
            src,
            dst,
            min_elevation_deg: 0.0,
            step_s: crate::orbit::route::DEFAULT_STEP_S,
            start_s: 0.0,
            isl: IslChoice::None,
            max_isl_km: None,
            seam: true,
            attachment: Default::default(),
            handover_outage_s: 0.0,
            relays: Some(Vec::new()),
            links: None,
            buffer_pkts: 1000,
            reverse_loss: false,
            on_route_change: RouteChange::Deliver,
            access: None,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// Rate in Mbit/s (both directions unless `reverse_rate_mbps` is set).
    pub rate_mbps: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_rate_mbps: Option<f64>,
    /// One-way propagation delay in ms.
    pub delay_ms: f64,
    /// Drop-tail buffer in packets waiting for the transmitter. Default: unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_pkts: Option<u32>,
    /// Drop-tail buffer in bytes (instead of packets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_bytes: Option<u64>,
    /// Extra delay per packet, uniform in [0, jitter_ms].
    #[serde(default)]
    pub jitter_ms: f64,
    /// Whether jitter may reorder packets (default: no).
    #[serde(default)]
    pub jitter_reorder: bool,
    /// Loss in the data direction (node i to i+1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<LossSpec>,
    /// Where loss acts: `channel` (default; a lost packet has used its transmission time) or
    /// `ingress` (dropped before the queue, as the CTCP paper's dummynet router does).
    #[serde(default)]
    pub loss_at: LossAtSpec,
    /// Loss in the ACK direction (node i+1 to i). Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_loss: Option<LossSpec>,
    /// Bandwidth over time, replacing `rate_mbps` in the data direction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_schedule: Option<RateScheduleSpec>,
    /// Periods during which every packet on the link (both directions) is lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outages: Option<OutagesSpec>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LossAtSpec {
    #[default]
    Channel,
    Ingress,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "model", rename_all = "snake_case", deny_unknown_fields)]
pub enum LossSpec {
    None,
    /// Each packet is lost independently with probability `p`.
    Bernoulli {
        p: f64,
    },
    /// Two-state Markov chain per packet (docs/links-and-orbits.md §1).
    GilbertElliott {
        p_good_to_bad: f64,
        p_bad_to_good: f64,
        loss_good: f64,
        loss_bad: f64,
    },
    /// Drops exactly these packets (0-based indices of packets offered to this direction).
    List {
        drops: Vec<u64>,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum RateScheduleSpec {
    Steps(Vec<RateStep>),
    Square { square: SquareWave },
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateStep {
    pub at_s: f64,
    pub rate_mbps: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SquareWave {
    pub low_mbps: f64,
    pub high_mbps: f64,
    /// Full period: `low` for the first half, `high` for the second.
    pub period_s: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OutagesSpec {
    List(Vec<Outage>),
    Periodic(PeriodicOutage),
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outage {
    pub start_s: f64,
    pub duration_s: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PeriodicOutage {
    pub every_s: f64,
    pub duration_s: f64,
    /// Start of the first outage; default `every_s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_s: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "transport", rename_all = "snake_case")]
pub enum Flow {
    Tcp(TcpFlow),
    /// Network-coded TCP (docs/ctcp.md).
    Ctcp(CtcpFlow),
    /// INTCP: information-centric hop-by-hop transport with per-hop caches (docs/intcp-protocol.md).
    Intcp(IntcpFlow),
}

impl Flow {
    pub fn transport(&self) -> &'static str {
        match self {
            Flow::Tcp(_) => "tcp",
            Flow::Ctcp(_) => "ctcp",
            Flow::Intcp(_) => "intcp",
        }
    }
    /// The congestion control's name as results report it.
    pub fn cc_name(&self) -> &'static str {
        match self {
            Flow::Tcp(t) => t.cc.name(),
            Flow::Ctcp(c) => match c.variant {
                CtcpVariant::V1 => "ctcp-v1",
                CtcpVariant::V2 => "ctcp-v2",
            },
            Flow::Intcp(i) => {
                if i.cache {
                    "intcp"
                } else {
                    "intcp-uni"
                }
            }
        }
    }
    pub fn bytes(&self) -> Option<u64> {
        match self {
            Flow::Tcp(t) => t.bytes,
            Flow::Ctcp(c) => c.bytes,
            Flow::Intcp(i) => i.bytes,
        }
    }
    pub fn start_s(&self) -> f64 {
        match self {
            Flow::Tcp(t) => t.start_s,
            Flow::Ctcp(c) => c.start_s,
            Flow::Intcp(i) => i.start_s,
        }
    }
    pub fn nodes(&self) -> (Option<u32>, Option<u32>) {
        match self {
            Flow::Tcp(t) => (t.from_node, t.to_node),
            Flow::Ctcp(c) => (c.from_node, c.to_node),
            Flow::Intcp(i) => (i.from_node, i.to_node),
        }
    }
    pub fn label(&self) -> Option<&String> {
        match self {
            Flow::Tcp(t) => t.label.as_ref(),
            Flow::Ctcp(c) => c.label.as_ref(),
            Flow::Intcp(i) => i.label.as_ref(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CtcpVariant {
    /// The reference code's per-RTT AIMD with adaptive backoff (docs/ctcp.md §6.2).
    V1,
    /// H-TCP-like increase with the same backoff (docs/ctcp.md §6.3; its parameters are assumptions).
    V2,
}

/// See [`CtcpFlow::slow_start_exit`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CtcpSlowStartExit {
    #[default]
    Vegas,
    CongestionLoss,
}

/// See [`CtcpFlow::congestion_gate`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CtcpCongestionGate {
    #[default]
    MinRtt,
    MinRttOrSrtt,
}

/// See [`CtcpFlow::feedback`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CtcpFeedback {
    #[default]
    PerBlock,
    LowestBlock,
}

/// See [`CtcpFlow::redundancy`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CtcpRedundancy {
    #[default]
    Nearest,
    Ceil,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CodingMode {
    /// Payload bytes are coded over GF(256) and decoded; the receiver checks every byte.
    Full,
    /// Coefficient vectors only, no payload: the same decisions, for big sweeps.
    RankOnly,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CtcpFlow {
    pub variant: CtcpVariant,
    /// Bytes to transfer; null or absent sends until the end of the run.
    #[serde(default)]
    pub bytes: Option<u64>,
    #[serde(default)]
    pub start_s: f64,
    /// Payload bytes per packet (the reference code's 1445 with 1500-byte packets).
    #[serde(default = "default_ctcp_payload")]
    pub mss_bytes: u32,
    /// Source packets per block (k).
    #[serde(default = "default_block")]
    pub block_pkts: u32,
    /// Blocks that may be outstanding beyond the oldest undecoded one.
    #[serde(default = "default_max_blocks")]
    pub max_blocks: u32,
    #[serde(default = "default_coding")]
    pub coding: CodingMode,
    #[serde(default = "default_ctcp_iw")]
    pub initial_cwnd_pkts: u32,
    #[serde(default = "default_ctcp_ssthresh")]
    pub initial_ssthresh_pkts: u32,
    /// The reference code's MAX_CWND.
    #[serde(default = "default_ctcp_max_cwnd")]
    pub max_cwnd_pkts: u32,
    /// v2: seconds after a backoff before the H-TCP increase starts (H-TCP's Δ_L).
    #[serde(default = "default_delta_l")]
    pub v2_delta_l_s: f64,
    /// Multiplier on the loss estimate when sizing redundancy (the reference SLR_scaling).
    #[serde(default = "default_slr_scaling")]
    pub loss_scaling: f64,
    /// What ends slow start: `vegas` (the reference code: the first per-RTT check that
    /// estimates more than one packet queued, which a burst of slow start's own packets can do;
    /// the paper does not describe the exit but says this slow start "does not adequately fill"
    /// long-RTT paths, as it does here) or `congestion-loss` (Reno's: only a loss seen with a
    /// standing queue ends it).
    #[serde(default)]
    pub slow_start_exit: CtcpSlowStartExit,
    /// When a loss counts as congestion: `min-rtt` (the paper: RTT > RTT_min, RTT being the
    /// round's smallest sample, 2 ms of tolerance) or `min-rtt-or-srtt` (the reference code: also
    /// when the smoothed RTT is 5 ms above RTT_min, as a burst's transient queue makes it).
    #[serde(default)]
    pub congestion_gate: CtcpCongestionGate,
    /// What ACKs report: `per-block` (the dofs of the acknowledged packet's block as well, so
    /// every block is repaired as soon as its packets are accounted for) or `lowest-block` (the
    /// reference code: the lowest undecoded block only, so short blocks are repaired one after
    /// the other and the blocks behind them wait).
    #[serde(default)]
    pub feedback: CtcpFeedback,
    /// How `need/(1 − p)` packets become a whole number: `nearest` (redundancy follows the loss
    /// estimate) or `ceil` (the reference code: at least one extra packet per block at any p > 0).
    #[serde(default)]
    pub redundancy: CtcpRedundancy,
    #[serde(default)]
    pub from_node: Option<u32>,
    #[serde(default)]
    pub to_node: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

fn default_ctcp_payload() -> u32 {
    1445 // CTCP-code: MSS 1500 − 32 − 23
}
fn default_block() -> u32 {
    32 // CTCP-code BLOCK_SIZE
}
fn default_max_blocks() -> u32 {
    100 // CTCP-code NUM_BLOCKS
}
fn default_coding() -> CodingMode {
    CodingMode::Full
}
fn default_ctcp_iw() -> u32 {
    8 // CTCP-code initsegs
}
fn default_ctcp_ssthresh() -> u32 {
    850 // CTCP-code 0.85 · MAX_CWND
}
fn default_ctcp_max_cwnd() -> u32 {
    1000 // CTCP-code MAX_CWND
}
fn default_delta_l() -> f64 {
    1.0 // H-TCP Δ_L
}
fn default_slr_scaling() -> f64 {
    1.0 // CTCP-code SLR_scaling
}

/// An INTCP flow: the producer at `from_node` (default the first node), the consumer at
/// `to_node` (default the last), a midnode with a cache on every node between (docs/intcp-protocol.md §1).
/// Defaults are the authors' constants (docs/intcp-protocol.md §14), with the paper's values where paper and
/// code differ.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IntcpFlow {
    /// Bytes to transfer; null or absent requests until the end of the run.
    #[serde(default)]
    pub bytes: Option<u64>,
    #[serde(default)]
    pub start_s: f64,
    /// Caches (and midnode hole detection) on; false is INTCP-uni (docs/intcp-protocol.md §10, USE_CACHE off).
    #[serde(default = "yes")]
    pub cache: bool,
    /// Each midnode's cache capacity in payload bytes (code: 20000 blocks of 4096 B, §8).
    #[serde(default = "default_intcp_cache_bytes")]
    pub cache_bytes: u64,
    /// Cache capacity of particular nodes, payload bytes, by node number (`{"1": 0, "2":
    /// 50000000}`); the others use `cache_bytes`. 0 leaves a node without a cache.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub node_cache_bytes: std::collections::BTreeMap<String, u64>,
    /// Payload bytes per DATA segment ([I]: 1472 − 23 = 1449, a 1500-byte packet).
    #[serde(default = "default_intcp_mss")]
    pub mss_bytes: u32,
    /// Target send-buffer length BL_tar in MSS, the backpressure target ([I] 7, [L] 5; §5.6).
    #[serde(default = "default_intcp_target_buffer")]
    pub target_buffer_pkts: f64,
    /// Queue threshold M of the RTT-based congestion signal, bytes (§5.4).
    #[serde(default = "default_intcp_queue_threshold")]
    pub queue_threshold_bytes: f64,
    /// k in cwnd := k·BDP on congestion (paper and [L] 0.8; [I] 0.9; §5.5).
    #[serde(default = "default_intcp_k")]
    pub decrease_factor: f64,
    /// Slow-start exit threshold in packets (§5.5).
    #[serde(default = "default_intcp_ssthresh")]
    pub ssthresh_pkts: f64,
    /// Window of the minimum hop RTT in seconds (paper 5; code 10; §5.2).
    #[serde(default = "default_intcp_min_rtt_window")]
    pub min_rtt_window_s: f64,
    /// Advertised-rate bounds, Mbit/s (§5.6).
    #[serde(default = "default_intcp_min_rate")]
    pub min_rate_mbps: f64,
    #[serde(default = "default_intcp_max_rate")]
    pub max_rate_mbps: f64,
    /// Congestion-avoidance increase, packets per cwnd of data (paper 1; code [L] 10; §5.5).
    #[serde(default = "default_intcp_ca_increase")]
    pub ca_increase_pkts: f64,
    /// SeqHole: a hole skipped by this many later packets is lost (the paper's N; §7.2).
    #[serde(default = "default_intcp_hole_threshold")]
    pub hole_threshold_pkts: u32,
    /// Rate probing: without a congestion signal, cwnd returns at once to the window where the
    /// last congestion signal came, then its excess over that grows by this factor per hop RTT
    /// (1, 2, 4, ... packets with 1, the default), so a hop finds a faster link within a few
    /// round trips; the hold-off after a decrease is 2 minimum hop RTTs. 0: the paper's additive
    /// increase (one packet per round trip) and the code's 2·hopSRTT hold-off.
    #[serde(default = "default_intcp_probe_gain")]
    pub probe_gain: f64,
    /// Bytes each midnode may hold for downstream, fetched from upstream at the upstream hop's
    /// own rate ahead of downstream's requests (the paper's cache absorbing bandwidth swings
    /// between hops, Fig. 5(a)); back-pressure applies only when they reach this budget. 0 (the
    /// default, docs/intcp-caching.md says why): the authors' code, which asks upstream only for what downstream asked
    /// and back-pressures as soon as `target_buffer_pkts` wait. Held data lives in the cache,
    /// which bounds it too.
    #[serde(default = "default_intcp_hold_budget")]
    pub hold_budget_bytes: u64,
    /// How far past the highest byte its downstream asked for a midnode may request upstream.
    #[serde(default = "default_intcp_lookahead")]
    pub lookahead_bytes: u64,
    /// Mixed hops (INTCP paper §III): the controller each hop's requester runs, one entry per
    /// hop counted from the producer (`["reno", "intcp"]`: the producer's hop runs Reno, the
    /// next INTCP). Empty or absent: INTCP's rate control on every hop. "reno" is a TCP-Reno
    /// window (slow start, +1 packet per window, halved on a loss found on that hop, one
    /// packet after a hop timeout) advertised as the rate cwnd·MSS/srtt; the hop keeps
    /// INTCP's caching, SeqHole recovery and back-pressure. With `cache: false` midnodes find
    /// no hop losses, so a Reno hop there reacts to timeouts only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hop_cc: Vec<HopCc>,
    #[serde(default)]
    pub from_node: Option<u32>,
    #[serde(default)]
    pub to_node: Option<u32>,
    /// Content name (multicast, docs/intcp-protocol.md §9): flows with the same name carry the same bytes and
    /// share one cache on every node they both pass (keyed by name and byte range, not by
    /// consumer), so a later consumer is answered from a midnode's cache. Flows without a name
    /// never share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// The controller of one INTCP hop (`IntcpFlow::hop_cc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HopCc {
    /// INTCP's delay- and buffer-based rate control (docs/intcp-protocol.md §5).
    Intcp,
    /// A TCP-Reno-style window (RFC 5681) advertised as a rate.
    Reno,
}

fn default_intcp_cache_bytes() -> u64 {
    20_000 * 4096 // MAX_BLOCK_NUM × BLOCK_LEN
}
fn default_intcp_mss() -> u32 {
    crate::intcp::DEFAULT_MSS
}
fn default_intcp_target_buffer() -> f64 {
    7.0 // [I] SNDQ_MAX (LARGE_SENDQ build)
}
fn default_intcp_queue_threshold() -> f64 {
    3000.0 // QueueingThreshold
}
fn default_intcp_k() -> f64 {
    0.8
}
fn default_intcp_ssthresh() -> f64 {
    100.0 // SSTHRESH_INIT
}
fn default_intcp_min_rtt_window() -> f64 {
    5.0 // the paper's window (code: 10 s)
}
fn default_intcp_min_rate() -> f64 {
    crate::intcp::SENDRATE_MIN_MBPS
}
fn default_intcp_max_rate() -> f64 {
    crate::intcp::SENDRATE_MAX_MBPS
}
fn default_intcp_ca_increase() -> f64 {
    1.0
}
fn default_intcp_probe_gain() -> f64 {
    1.0
}
fn default_intcp_hold_budget() -> u64 {
    // Off by default until it is gated (docs/intcp-caching.md, "Read-ahead"): with a next hop that is
    // slower for good rather than in swings, a full budget is a standing backlog (Beijing-New
    // York: 15 s of delay). The Fig. 5 presets set 32 MiB, one 10 s low phase at (20 − 5) Mbit/s
    // being 18.75 MB.
    0
}
fn default_intcp_lookahead() -> u64 {
    64 << 20
}
fn default_intcp_hole_threshold() -> u32 {
    3
}

impl IntcpFlow {
    /// `hops`: the number of hops between the flow's producer and consumer.
    fn problems(&self, p: &mut Problems, at: &dyn Fn(&str) -> String, hops: u32) {
        p.check(
            self.hop_cc.is_empty() || self.hop_cc.len() == hops as usize,
            || at("hop_cc"),
            || {
                format!(
                    "has {} entries but the flow crosses {hops} hop{} (one entry per hop, counted from the producer)",
                    self.hop_cc.len(),
                    if hops == 1 { "" } else { "s" }
                )
            },
        );
        p.check(
            (64..=65_000).contains(&self.mss_bytes),
            || at("mss_bytes"),
            || format!("must be between 64 and 65000 bytes (got {})", self.mss_bytes),
        );
        p.check(
            self.cache_bytes <= 1 << 40,
            || at("cache_bytes"),
            || format!("must be at most 2^40 bytes (got {})", self.cache_bytes),
        );
        for (node, &bytes) in &self.node_cache_bytes {
            p.check(
                bytes <= 1 << 40,
                || at(&format!("node_cache_bytes.{node}")),
                || format!("must be at most 2^40 bytes (got {bytes})"),
            );
        }
        p.between(self.target_buffer_pkts, 1.0, 100000.0, || at("target_buffer_pkts"));
        p.between(self.probe_gain, 0.0, 4.0, || at("probe_gain"));
        p.check(
            self.hold_budget_bytes <= 1 << 40,
            || at("hold_budget_bytes"),
            || format!("must be at most 2^40 bytes (got {})", self.hold_budget_bytes),
        );
        p.check(
            self.lookahead_bytes >= self.mss_bytes as u64 && self.lookahead_bytes <= 1 << 40,
            || at("lookahead_bytes"),
            || format!("must be between one segment (mss_bytes) and 2^40 bytes (got {})", self.lookahead_bytes),
        );
        p.between(self.queue_threshold_bytes, 0.0, 1e9, || at("queue_threshold_bytes"));
        p.check(
            self.decrease_factor.is_finite() && self.decrease_factor > 0.0 && self.decrease_factor <= 1.0,
            || at("decrease_factor"),
            || format!("must be more than 0 and at most 1 (got {})", self.decrease_factor),
        );
        p.between(self.ssthresh_pkts, 1.0, 1e6, || at("ssthresh_pkts"));
        p.check(
            self.min_rtt_window_s.is_finite() && self.min_rtt_window_s > 0.0 && self.min_rtt_window_s <= 3600.0,
            || at("min_rtt_window_s"),
            || format!("must be more than 0 and at most 3600 s (got {})", self.min_rtt_window_s),
        );
        p.check(
            self.min_rate_mbps.is_finite() && self.min_rate_mbps > 0.0 && self.min_rate_mbps <= 327.0,
            || at("min_rate_mbps"),
            || {
                format!(
                    "must be more than 0 and at most 327 Mbit/s, the wire field's range (got {})",
                    self.min_rate_mbps
                )
            },
        );
        p.check(
            self.max_rate_mbps.is_finite() && self.max_rate_mbps >= self.min_rate_mbps && self.max_rate_mbps <= 327.0,
            || at("max_rate_mbps"),
            || {
                format!(
                    "must be between min_rate_mbps and 327 Mbit/s, the wire field's range (got {})",
                    self.max_rate_mbps
                )
            },
        );
        p.between(self.ca_increase_pkts, 0.1, 100.0, || at("ca_increase_pkts"));
        p.check(
            (1..=1000).contains(&self.hole_threshold_pkts),
            || at("hole_threshold_pkts"),
            || format!("must be between 1 and 1000 (got {})", self.hole_threshold_pkts),
        );
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpFlow {
    pub cc: CcKind,
    /// Bytes to transfer; null or absent sends until the end of the run.
    #[serde(default)]
    pub bytes: Option<u64>,
    #[serde(default)]
    pub start_s: f64,
    #[serde(default = "default_mss")]
    pub mss_bytes: u32,
    #[serde(default = "default_iw")]
    pub initial_cwnd_pkts: u32,
    /// Default: infinite, as in Linux.
    #[serde(default)]
    pub initial_ssthresh_pkts: Option<u32>,
    #[serde(default = "yes")]
    pub sack: bool,
    /// CUBIC's HyStart slow-start exit (Linux 2.6.29 and later); `false` models older kernels.
    /// Other algorithms ignore it, so that one flow description can serve a sweep over `cc`.
    #[serde(default = "yes")]
    pub hystart: bool,
    /// One ACK per two segments (or per `delack_ms`) instead of one per segment. Default: off
    /// (`linux`), on (`ns3`).
    #[serde(default)]
    pub delayed_ack: Option<bool>,
    /// The delayed-ACK timer in ms. Default: 40 (`linux`, `TCP_DELACK_MIN`), 200 (`ns3`).
    #[serde(default)]
    pub delack_ms: Option<f64>,
    /// How the RTO is formed. Default: `linux` (`linux`), `rfc6298` (`ns3`).
    #[serde(default)]
    pub rto_flavor: Option<RtoFlavor>,
    /// Minimum RTO in ms. Default: 200 (Linux) or 1000 (RFC 6298) by `rto_flavor`.
    #[serde(default)]
    pub rto_min_ms: Option<f64>,
    /// A fixed receiver window in packets (turns autotuning off).
    #[serde(default)]
    pub rwnd_pkts: Option<u32>,
    /// Whose defaults the flow takes for what it does not set: `linux` (a current Linux host)
    /// or `ns3` (ns-3's `TcpSocketBase`); see scenarios/README.md, "TCP profiles".
    #[serde(default)]
    pub profile: TcpProfile,
    /// How cwnd is reduced in Recovery: `prr` (RFC 6937, the default of both profiles) or
    /// `rfc6675` (cwnd = ssthresh at once).
    #[serde(default)]
    pub recovery: Option<Recovery>,
    /// How losses are found: `rack` (RACK-TLP, RFC 8985; Linux's default) or `dupack` (three
    /// SACKed segments above a hole, RFC 6675; ns-3's default).
    #[serde(default)]
    pub loss_detection: Option<LossDetection>,
    /// Linux receive-buffer autotuning (tcp_rmem 4096/131072/6291456): the window starts at
    /// 64 KB and follows twice what arrives per RTT up to 3 MB. Default: on (`linux`, unless
    /// `rwnd_pkts` is set), off (`ns3`: the window never limits).
    #[serde(default)]
    pub rcv_autotune: Option<bool>,
    /// Sender node (default 0) and receiver node (default the last).
    #[serde(default)]
    pub from_node: Option<u32>,
    #[serde(default)]
    pub to_node: Option<u32>,
    /// A name for charts and tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

fn default_mss() -> u32 {
    1448
}
fn default_iw() -> u32 {
    10
}
fn yes() -> bool {
    true
}
/// Whose defaults a TCP flow takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TcpProfile {
    #[default]
    Linux,
    Ns3,
}

/// A TCP flow's settings once its profile's defaults are applied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TcpSettings {
    pub delayed_ack: bool,
    pub delack_ms: f64,
    pub rto_flavor: RtoFlavor,
    pub rto_min_ms: f64,
    pub recovery: Recovery,
    pub loss_detection: LossDetection,
    pub rcv_autotune: bool,
    /// ns-3 grows the window once per ACK, not per segment acknowledged.
    pub per_ack_growth: bool,
}

impl TcpFlow {
    /// The flow's settings: what it sets, else its profile's defaults.
    pub fn settings(&self) -> TcpSettings {
        let ns3 = self.profile == TcpProfile::Ns3;
        let rto_flavor = self.rto_flavor.unwrap_or(if ns3 { RtoFlavor::Rfc6298 } else { RtoFlavor::Linux });
        TcpSettings {
            delayed_ack: self.delayed_ack.unwrap_or(ns3),
            // Linux TCP_DELACK_MIN; ns-3 DelAckTimeout.
            delack_ms: self.delack_ms.unwrap_or(if ns3 { 200.0 } else { 40.0 }),
            rto_flavor,
            // Linux TCP_RTO_MIN; RFC 6298 §2.4 (ns-3 MinRto).
            rto_min_ms: self.rto_min_ms.unwrap_or(match rto_flavor {
                RtoFlavor::Linux => 200.0,
                RtoFlavor::Rfc6298 => 1000.0,
            }),
            recovery: self.recovery.unwrap_or(Recovery::Prr),
            loss_detection: self.loss_detection.unwrap_or(if ns3 {
                LossDetection::Dupack
            } else {
                LossDetection::Rack
            }),
            rcv_autotune: self.rcv_autotune.unwrap_or(!ns3 && self.rwnd_pkts.is_none()),
            per_ack_growth: ns3,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    /// Path of any scenario field → the values it takes. The grid is their cartesian product,
    /// in the order the paths are written.
    pub grid: serde_json::Map<String, Value>,
    /// Runs per grid point; run r uses the seed derived from `seed` and r, the same for every
    /// point (common random numbers).
    #[serde(default = "one")]
    pub runs: u32,
}

fn one() -> u32 {
    1
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceSpec {
    /// Most points kept per trace.
    #[serde(default = "default_points")]
    pub max_points: u32,
    /// Smallest spacing between trace points in seconds (0: every event, then decimated).
    #[serde(default)]
    pub interval_s: f64,
    /// Width of the goodput-over-time bins in seconds.
    #[serde(default = "default_goodput_interval")]
    pub goodput_interval_s: f64,
}

impl Default for TraceSpec {
    fn default() -> Self {
        TraceSpec { max_points: default_points(), interval_s: 0.0, goodput_interval_s: default_goodput_interval() }
    }
}

fn default_points() -> u32 {
    2000
}
fn default_goodput_interval() -> f64 {
    1.0
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PaperReference {
    /// Which paper and figure or table.
    pub source: String,
    /// Goodput per flow in Mbit/s, as the paper gives it (null where it gives none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub goodput_mbps: Vec<Option<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairness_jain: Option<f64>,
    /// Values for sweep points: each names the grid values it belongs to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<PaperPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The paper's statements about a chart, shown beside it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<PaperClaim>,
}

/// One statement of the paper about one chart, optionally with the point it names (drawn as a
/// paper mark): e.g. "80 % of INTCP's delay is below 180 ms" is `x` = 180 ms, `y` = 0.8 on the
/// delay CDF.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PaperClaim {
    pub chart: ClaimChart,
    pub text: String,
    /// The flow the statement is about (index into `flows`), if one. A claim about a flow the
    /// scenario no longer has (the user removed it) is not shown, and is not an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flow: Option<u32>,
    /// The point the statement names, in the chart's units (ms, fraction, Mbit/s, seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClaimChart {
    /// One-way delay CDF: x in ms, y a fraction.
    DelayCdf,
    /// One-way delay over time: x in s, y in ms.
    Delay,
    /// Jitter over time: x in s, y in ms.
    Jitter,
    /// Goodput over time: x in s, y in Mbit/s.
    Goodput,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PaperPoint {
    /// Grid path → value, for the paths this point fixes.
    pub at: serde_json::Map<String, Value>,
    #[serde(default)]
    pub flow: u32,
    pub goodput_mbps: f64,
}

/// Parses and validates a scenario. The error lists every problem found, one per line.
pub fn parse(json: &str) -> Result<Scenario, String> {
    check(json).map_err(String::from)
}

/// Like [`parse`], from an already parsed JSON value.
pub fn from_value(value: Value) -> Result<Scenario, String> {
    check_value(value).map_err(String::from)
}

/// Like [`parse`], with every problem as a [`FieldError`].
pub fn check(json: &str) -> Result<Scenario, ScenarioError> {
    let value: Value = serde_json::from_str(json).map_err(|e| ScenarioError::one("", format!("invalid JSON: {e}")))?;
    check_value(value)
}

/// Like [`check`], from an already parsed JSON value.
pub fn check_value(value: Value) -> Result<Scenario, ScenarioError> {
    if !value.is_object() {
        return Err(ScenarioError::one("", "expected a JSON object"));
    }
    let sc: Scenario = match serde_path_to_error::deserialize(&value) {
        Ok(sc) => sc,
        Err(e) => {
            let path = e.path().to_string();
            let (path, msg) = deeper_error(&value, &path).unwrap_or((path, explain(e.inner().to_string())));
            return Err(ScenarioError::one(if path == "." { "" } else { &path }, msg));
        }
    };
    let problems = sc.problems();
    if problems.is_empty() {
        Ok(sc)
    } else {
        Err(ScenarioError(problems))
    }
}

/// One problem with a scenario: the path of the field (empty for the scenario as a whole) and
/// what is wrong with it. The browser's editor places each beside the field with that path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldError {
    pub path: String,
    pub message: String,
    /// For a problem of one sweep point: the point's (path, value) pairs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep_point: Option<Vec<(String, Value)>>,
}

impl FieldError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError { path: path.into(), message: message.into(), sweep_point: None }
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(point) = &self.sweep_point {
            let label = point.iter().map(|(p, v)| format!("{p}={v}")).collect::<Vec<_>>().join(", ");
            write!(f, "sweep point {label}: ")?;
        }
        let path = if self.path.is_empty() { "scenario" } else { &self.path };
        write!(f, "{path}: {}", self.message)
    }
}

/// Every problem found with a scenario; shown one per line.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError(pub Vec<FieldError>);

impl ScenarioError {
    pub fn one(path: &str, message: impl Into<String>) -> ScenarioError {
        ScenarioError(vec![FieldError::new(path, message)])
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl From<ScenarioError> for String {
    fn from(e: ScenarioError) -> String {
        e.to_string()
    }
}

/// Serde buffers internally tagged enums, so an error inside one carries only the enum's path
/// (`flows[0]`). Deserializing the variant's own struct again recovers the full path
/// (`flows[0].cc`).
fn deeper_error(root: &Value, path: &str) -> Option<(String, String)> {
    fn inner<T: serde::de::DeserializeOwned>(v: &Value, tag: &str, prefix: &str) -> Option<(String, String)> {
        let mut obj = v.as_object()?.clone();
        obj.remove(tag);
        let e = serde_path_to_error::deserialize::<_, T>(Value::Object(obj)).err()?;
        let p = e.path().to_string();
        let full = if p == "." { prefix.to_string() } else { format!("{prefix}.{p}") };
        Some((full, explain(e.inner().to_string())))
    }
    if path == "topology" {
        let t = root.get("topology")?;
        return match t.get("kind")?.as_str()? {
            "chain" => inner::<Chain>(t, "kind", "topology"),
            "constellation" => inner::<ConstellationTopology>(t, "kind", "topology"),
            _ => None,
        };
    }
    let i: usize = path.strip_prefix("flows[")?.strip_suffix(']')?.parse().ok()?;
    let f = root.get("flows")?.get(i)?;
    match f.get("transport")?.as_str()? {
        "tcp" => inner::<TcpFlow>(f, "transport", path),
        "ctcp" => inner::<CtcpFlow>(f, "transport", path),
        "intcp" => inner::<IntcpFlow>(f, "transport", path),
        _ => None,
    }
}

/// Rewrites serde's wording where it says too little for a user.
fn explain(msg: String) -> String {
    let msg = match msg.strip_prefix("unknown variant `") {
        Some(rest) => format!("unknown value \"{}", rest.replacen("`, expected", "\", expected", 1)),
        None => msg,
    };
    if msg.contains("untagged enum RateScheduleSpec") {
        return "expected a list of {\"at_s\", \"rate_mbps\"} steps or {\"square\": {\"low_mbps\", \"high_mbps\", \"period_s\"}}".into();
    }
    if msg.contains("untagged enum Place") {
        return "expected a city name or {\"name\", \"lat_deg\", \"lon_deg\"} and no other field".into();
    }
    if msg.contains("untagged enum OutagesSpec") {
        return "expected a list of {\"start_s\", \"duration_s\"} or {\"every_s\", \"duration_s\"}".into();
    }
    msg
}

struct Problems(Vec<FieldError>);

impl Problems {
    fn check(&mut self, ok: bool, path: impl FnOnce() -> String, what: impl FnOnce() -> String) {
        if !ok {
            self.0.push(FieldError::new(path(), what()));
        }
    }
    fn push(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(path, message));
    }
    fn positive(&mut self, v: f64, path: impl FnOnce() -> String) {
        self.check(v.is_finite() && v > 0.0, path, || format!("must be a positive number (got {v})"));
    }
    fn non_negative(&mut self, v: f64, path: impl FnOnce() -> String) {
        self.check(v.is_finite() && v >= 0.0, path, || format!("must be zero or positive (got {v})"));
    }
    /// `lo ≤ v ≤ hi`, with the message every range check in the format uses.
    fn between(&mut self, v: f64, lo: f64, hi: f64, path: impl FnOnce() -> String) {
        self.check(v.is_finite() && (lo..=hi).contains(&v), path, || {
            format!("must be between {lo} and {hi} (got {v})")
        });
    }
    /// A link rate in Mbit/s: positive, and at most `MAX_RATE_MBPS`.
    fn rate(&mut self, v: f64, path: impl FnOnce() -> String) {
        if v > MAX_RATE_MBPS && v.is_finite() {
            self.push(
                path(),
                format!(
                    "must be at most {MAX_RATE_MBPS} Mbit/s (got {v}): faster links would send packets in less than \
                     a nanosecond, the simulator's clock step"
                ),
            );
        } else {
            self.positive(v, path);
        }
    }
    fn probability(&mut self, v: f64, path: impl FnOnce() -> String) {
        self.check((0.0..=1.0).contains(&v), path, || format!("must be a probability between 0 and 1 (got {v})"));
    }
}

impl Scenario {
    /// Every range problem, each naming its path.
    pub fn problems(&self) -> Vec<FieldError> {
        let mut p = Problems(Vec::new());
        p.check(
            self.version == FORMAT_VERSION,
            || "version".into(),
            || format!("must be {FORMAT_VERSION} (got {})", self.version),
        );
        p.check(
            self.duration_s.is_finite() && self.duration_s > 0.0 && self.duration_s <= MAX_DURATION_S,
            || "duration_s".into(),
            || format!("must be more than 0 and at most {MAX_DURATION_S} seconds (got {})", self.duration_s),
        );
        let (last_node, nodes) = match &self.topology {
            Topology::Chain(Chain { links, place }) => {
                chain_problems(links, &mut p);
                if let Some(pl) = place {
                    p.between(pl.geo_longitude_deg, -180.0, 360.0, || "topology.place.geo_longitude_deg".into());
                    for (i, g) in pl.ground.iter().enumerate() {
                        if let Err(e) = g.resolve() {
                            p.push(
                                format!("topology.place.ground[{i}]"),
                                e.to_string().trim_start_matches("ground station "),
                            );
                        }
                    }
                }
                (links.len() as u32, format!("the chain has nodes 0 to {}", links.len()))
            }
            Topology::Constellation(c) => {
                constellation_problems(c, self.duration_s, &mut p);
                (1, "node 0 is src and node 1 is dst".to_string())
            }
        };
        p.check(!self.flows.is_empty(), || "flows".into(), || "needs at least one flow".into());
        for (i, f) in self.flows.iter().enumerate() {
            let at = |f: &str| format!("flows[{i}].{f}");
            if let Some(b) = f.bytes() {
                p.check(b > 0, || at("bytes"), || "must be more than 0 (or null for an unlimited transfer)".into());
            }
            let start = f.start_s();
            p.check(
                start.is_finite() && start >= 0.0 && start < self.duration_s,
                || at("start_s"),
                || format!("must be between 0 and duration_s ({}) (got {start})", self.duration_s),
            );
            let (from, to) = f.nodes();
            let (from, to) = (from.unwrap_or(0), to.unwrap_or(last_node));
            p.check(from <= last_node, || at("from_node"), || format!("no such node ({nodes})"));
            p.check(to <= last_node, || at("to_node"), || format!("no such node ({nodes})"));
            p.check(from != to, || at("to_node"), || "must differ from from_node".into());
            let t = match f {
                Flow::Tcp(t) => t,
                Flow::Ctcp(c) => {
                    c.problems(&mut p, &at);
                    continue;
                }
                Flow::Intcp(c) => {
                    // The run looks caches up by the node's number written out ("1"): any other
                    // spelling ("01", "+1") would be silently ignored.
                    let (lo, hi) = (from.min(to), from.max(to));
                    for node in c.node_cache_bytes.keys() {
                        let path = || at(&format!("node_cache_bytes.{node}"));
                        match node.parse::<u32>() {
                            Ok(n) if n.to_string() != *node => p.check(false, path, || {
                                format!("write the node number as \"{n}\" (the key must be a plain node number)")
                            }),
                            Ok(n) if n > last_node => p.check(false, path, || format!("no such node ({nodes})")),
                            Ok(n) => p.check((lo..=hi).contains(&n), path, || {
                                format!("node {n} is not on the flow's path (nodes {lo} to {hi})")
                            }),
                            Err(_) => p.check(false, path, || format!("is not a node number ({nodes})")),
                        }
                    }
                    if matches!(self.topology, Topology::Constellation(_)) {
                        p.check(
                            c.hop_cc.is_empty(),
                            || at("hop_cc"),
                            || "a constellation's hops change with the route; hop_cc needs a chain".into(),
                        );
                    }
                    c.problems(&mut p, &at, if c.hop_cc.is_empty() { 0 } else { from.abs_diff(to) });
                    continue;
                }
            };
            p.check(
                (64..=65_000).contains(&t.mss_bytes),
                || at("mss_bytes"),
                || format!("must be between 64 and 65000 bytes (got {})", t.mss_bytes),
            );
            p.check(
                (1..=100_000).contains(&t.initial_cwnd_pkts),
                || at("initial_cwnd_pkts"),
                || format!("must be between 1 and 100000 (got {})", t.initial_cwnd_pkts),
            );
            if let Some(s) = t.initial_ssthresh_pkts {
                p.check(s >= 2, || at("initial_ssthresh_pkts"), || format!("must be at least 2 (got {s})"));
            }
            if let Some(d) = t.delack_ms {
                p.check(
                    d.is_finite() && d > 0.0 && d <= 500.0,
                    || at("delack_ms"),
                    || format!("must be more than 0 and at most 500 ms (RFC 1122) (got {d})"),
                );
            }
            p.check(
                !(t.rcv_autotune == Some(true) && t.rwnd_pkts.is_some()),
                || at("rcv_autotune"),
                || "cannot be true with a fixed rwnd_pkts: autotuning sets the window itself".into(),
            );
            p.check(
                t.loss_detection != Some(LossDetection::Rack) || t.sack,
                || at("loss_detection"),
                || "\"rack\" needs SACK (sack: true): without it only duplicate ACKs tell of a loss".into(),
            );
            if let Some(m) = t.rto_min_ms {
                p.check(
                    m.is_finite() && (1.0..=60_000.0).contains(&m),
                    || at("rto_min_ms"),
                    || format!("must be between 1 and 60000 ms (got {m})"),
                );
            }
            if let Some(r) = t.rwnd_pkts {
                p.check(r >= 1, || at("rwnd_pkts"), || "must be at least 1".into());
            }
        }
        if let Some(s) = &self.sweep {
            p.check(!s.grid.is_empty(), || "sweep.grid".into(), || "needs at least one path to vary".into());
            for (path, values) in &s.grid {
                let ok = values.as_array().is_some_and(|a| !a.is_empty());
                p.check(ok, || format!("sweep.grid.\"{path}\""), || "must be a non-empty list of values".into());
            }
            p.check(
                (1..=10_000).contains(&s.runs),
                || "sweep.runs".into(),
                || format!("must be between 1 and 10000 (got {})", s.runs),
            );
            let lens: Vec<u64> = s.grid.values().map(|v| v.as_array().map_or(1, |a| a.len() as u64)).collect();
            let total = lens.iter().try_fold(s.runs as u64, |acc, &n| acc.checked_mul(n));
            p.check(
                total.is_some_and(|t| t <= MAX_SWEEP_RUNS),
                || "sweep.grid".into(),
                || {
                    let sizes = lens.iter().map(u64::to_string).collect::<Vec<_>>().join(" × ");
                    let runs = if s.runs == 1 { "1 run".to_string() } else { format!("{} runs", s.runs) };
                    let product = match total {
                        Some(t) => t.to_string(),
                        None => format!("{:.3e}", lens.iter().map(|&n| n as f64).product::<f64>() * s.runs as f64),
                    };
                    format!(
                        "{sizes} values × {runs} per point = {product} runs; at most {MAX_SWEEP_RUNS} are \
                         supported (vary fewer paths, give them fewer values, or lower sweep.runs)"
                    )
                },
            );
        }
        p.check(self.max_events >= 1, || "max_events".into(), || "must be at least 1".into());
        p.check(
            (2..=MAX_TRACE_POINTS).contains(&self.trace.max_points),
            || "trace.max_points".into(),
            || format!("must be between 2 and {MAX_TRACE_POINTS} (got {})", self.trace.max_points),
        );
        p.non_negative(self.trace.interval_s, || "trace.interval_s".into());
        p.positive(self.trace.goodput_interval_s, || "trace.goodput_interval_s".into());
        if self.trace.goodput_interval_s > 0.0 && self.duration_s.is_finite() && self.duration_s > 0.0 {
            // Bins of whole nanoseconds, one per interval from time 0 to the end.
            let bins = nanos(self.duration_s) / nanos(self.trace.goodput_interval_s).max(1);
            p.check(
                bins <= MAX_GOODPUT_BINS,
                || "trace.goodput_interval_s".into(),
                || {
                    format!(
                        "gives {bins} goodput bins over duration_s; at most {MAX_GOODPUT_BINS} are supported \
                         (make the interval at least {} s)",
                        self.duration_s / MAX_GOODPUT_BINS as f64
                    )
                },
            );
        }
        p.0
    }
}

/// Range problems of a chain's links.
fn chain_problems(links: &[LinkSpec], p: &mut Problems) {
    p.check(!links.is_empty(), || "topology.links".into(), || "needs at least one link".into());
    p.check(
        links.len() <= MAX_CHAIN_LINKS,
        || "topology.links".into(),
        || {
            format!(
                "has {} links; at most {MAX_CHAIN_LINKS} are supported (the routing table grows with the square of \
                 the nodes): use fewer links",
                links.len()
            )
        },
    );
    for (i, l) in links.iter().enumerate() {
        let at = |f: &str| format!("topology.links[{i}].{f}");
        p.rate(l.rate_mbps, || at("rate_mbps"));
        if let Some(r) = l.reverse_rate_mbps {
            p.rate(r, || at("reverse_rate_mbps"));
        }
        p.non_negative(l.delay_ms, || at("delay_ms"));
        p.non_negative(l.jitter_ms, || at("jitter_ms"));
        if let Some(b) = l.buffer_pkts {
            p.check(b >= 1, || at("buffer_pkts"), || "must be at least 1 packet".into());
        }
        if let Some(b) = l.buffer_bytes {
            p.check(b >= 64, || at("buffer_bytes"), || "must be at least 64 bytes".into());
        }
        p.check(
            l.buffer_pkts.is_none() || l.buffer_bytes.is_none(),
            || at("buffer_bytes"),
            || "give buffer_pkts or buffer_bytes, not both".into(),
        );
        for (name, loss) in [("loss", &l.loss), ("reverse_loss", &l.reverse_loss)] {
            match loss {
                Some(LossSpec::Bernoulli { p: prob }) => p.probability(*prob, || at(&format!("{name}.p"))),
                Some(LossSpec::GilbertElliott { p_good_to_bad, p_bad_to_good, loss_good, loss_bad }) => {
                    p.probability(*p_good_to_bad, || at(&format!("{name}.p_good_to_bad")));
                    p.probability(*p_bad_to_good, || at(&format!("{name}.p_bad_to_good")));
                    p.probability(*loss_good, || at(&format!("{name}.loss_good")));
                    p.probability(*loss_bad, || at(&format!("{name}.loss_bad")));
                }
                _ => {}
            }
        }
        match &l.rate_schedule {
            Some(RateScheduleSpec::Steps(steps)) => {
                p.check(!steps.is_empty(), || at("rate_schedule"), || "needs at least one step".into());
                for (k, s) in steps.iter().enumerate() {
                    p.non_negative(s.at_s, || at(&format!("rate_schedule[{k}].at_s")));
                    p.rate(s.rate_mbps, || at(&format!("rate_schedule[{k}].rate_mbps")));
                    if k > 0 {
                        p.check(
                            s.at_s > steps[k - 1].at_s,
                            || at(&format!("rate_schedule[{k}].at_s")),
                            || "steps must be in increasing time order".into(),
                        );
                    }
                }
            }
            Some(RateScheduleSpec::Square { square }) => {
                p.rate(square.low_mbps, || at("rate_schedule.square.low_mbps"));
                p.rate(square.high_mbps, || at("rate_schedule.square.high_mbps"));
                p.positive(square.period_s, || at("rate_schedule.square.period_s"));
            }
            None => {}
        }
        match &l.outages {
            Some(OutagesSpec::List(list)) => {
                for (k, o) in list.iter().enumerate() {
                    p.non_negative(o.start_s, || at(&format!("outages[{k}].start_s")));
                    p.positive(o.duration_s, || at(&format!("outages[{k}].duration_s")));
                }
            }
            Some(OutagesSpec::Periodic(o)) => {
                p.positive(o.every_s, || at("outages.every_s"));
                p.positive(o.duration_s, || at("outages.duration_s"));
                p.check(
                    o.duration_s < o.every_s,
                    || at("outages.duration_s"),
                    || format!("must be shorter than every_s ({})", o.every_s),
                );
                // Simulated time counts whole nanoseconds: a period that rounds to 0 would switch
                // the outages off, and one that rounds to its duration would leave the link down.
                let (every_ns, duration_ns) = (nanos(o.every_s), nanos(o.duration_s));
                let in_range = |v: f64| v.is_finite() && v > 0.0;
                if in_range(o.every_s) && in_range(o.duration_s) && o.duration_s < o.every_s {
                    p.check(
                        every_ns >= 2,
                        || at("outages.every_s"),
                        || {
                            format!(
                                "must be at least 2e-9 s: simulated time counts whole nanoseconds (got {})",
                                o.every_s
                            )
                        },
                    );
                    p.check(
                        every_ns < 2 || (1..every_ns).contains(&duration_ns),
                        || at("outages.duration_s"),
                        || {
                            format!(
                            "rounds to {duration_ns} ns against every_s's {every_ns} ns: simulated time counts whole \
                             nanoseconds, and an outage must last at least 1 ns and less than every_s"
                        )
                        },
                    );
                }
                if let Some(f) = o.first_s {
                    p.non_negative(f, || at("outages.first_s"));
                }
            }
            None => {}
        }
    }
}

/// Seconds as the simulator's whole nanoseconds.
fn nanos(s: f64) -> u64 {
    crate::sim::SimDuration::from_secs_f64(s).0
}

/// The most routing steps a run may have (a week at 1 s).
pub const MAX_ROUTE_STEPS: f64 = 604_800.0;

/// Range problems of a constellation topology, then whatever building it finds (bad TLE lines,
/// unknown cities, Walker parameters), each under its `topology.` path.
fn constellation_problems(c: &ConstellationTopology, duration_s: f64, p: &mut Problems) {
    let at = |f: &str| format!("topology.{f}");
    // The router needs the mask below the zenith (RouteConfig::check, which build() runs too).
    p.check(
        (0.0..90.0).contains(&c.min_elevation_deg),
        || at("min_elevation_deg"),
        || format!("must be at least 0° and below 90° (got {})", c.min_elevation_deg),
    );
    p.between(c.step_s, 0.01, 3600.0, || at("step_s"));
    if c.step_s > 0.0 && duration_s.is_finite() {
        let steps = duration_s / c.step_s;
        p.check(
            steps <= MAX_ROUTE_STEPS,
            || at("step_s"),
            || {
                format!(
                    "gives {steps:.0} routing steps over duration_s; at most {MAX_ROUTE_STEPS} (make the step longer)"
                )
            },
        );
    }
    p.non_negative(c.start_s, || at("start_s"));
    p.non_negative(c.handover_outage_s, || at("handover_outage_s"));
    if let Some(m) = c.max_isl_km {
        p.positive(m, || at("max_isl_km"));
    }
    p.check(c.buffer_pkts >= 1, || at("buffer_pkts"), || "must be at least 1 packet".into());
    if let Some(a) = &c.access {
        p.rate(a.rate_mbps, || at("access.rate_mbps"));
        p.non_negative(a.delay_ms, || at("access.delay_ms"));
        p.probability(a.loss, || at("access.loss"));
    }
    if let Some(m) = &c.links {
        for (name, t) in [("gsl", &m.gsl), ("isl", &m.isl)] {
            let at = |f: &str| format!("topology.links.{name}.{f}");
            match &t.capacity {
                Capacity::FixedMbps(r) => p.rate(*r, || at("capacity.fixed_mbps")),
                Capacity::Budget(b) => {
                    p.positive(b.frequency_ghz, || at("capacity.budget.frequency_ghz"));
                    p.positive(b.bandwidth_mhz, || at("capacity.budget.bandwidth_mhz"));
                    p.between(b.efficiency, 0.01, 1.0, || at("capacity.budget.efficiency"));
                    for (f, v) in [("eirp_dbw", b.eirp_dbw), ("g_over_t_db_k", b.g_over_t_db_k)] {
                        p.check(v.is_finite(), || at(&format!("capacity.budget.{f}")), || "must be a number".into());
                    }
                    p.non_negative(b.other_losses_db, || at("capacity.budget.other_losses_db"));
                }
            }
            match &t.loss {
                Loss::Fixed(v) => p.probability(*v, || at("loss.fixed")),
                Loss::Elevation { at_min_elevation, at_zenith } => {
                    p.probability(*at_min_elevation, || at("loss.elevation.at_min_elevation"));
                    p.probability(*at_zenith, || at("loss.elevation.at_zenith"));
                }
            }
        }
    }
    for (name, place) in [("src", &c.src), ("dst", &c.dst)] {
        if let Err(e) = place.resolve() {
            p.push(format!("topology.{name}"), e.to_string().trim_start_matches("ground station "));
        }
    }
    if !p.0.is_empty() {
        return;
    }
    if let Err(e) = c.build(duration_s) {
        p.0.push(match e {
            OrbitError::Tle { line, problem } => {
                FieldError::new("topology.constellation.tle", format!("line {line}: {problem}"))
            }
            OrbitError::Omm { index, name, problem } if name.is_empty() => {
                FieldError::new(format!("topology.constellation.omm[{index}]"), problem)
            }
            OrbitError::Omm { index, name, problem } => {
                FieldError::new(format!("topology.constellation.omm[{index}]"), format!("({name}) {problem}"))
            }
            OrbitError::Sgp4 { index, name, problem } => {
                FieldError::new("topology.constellation", format!("element set {index} ({name}): SGP4: {problem}"))
            }
            OrbitError::Walker { field, problem } => {
                FieldError::new(format!("topology.constellation.walker.{field}"), problem)
            }
            OrbitError::Geo(problem) => FieldError::new("topology.constellation.geo_longitudes_deg", problem),
            OrbitError::Ground(problem) => FieldError::new("topology.relays", problem),
            OrbitError::Config { field, problem } => FieldError::new(format!("topology.{field}"), problem),
        });
    }
}

impl CtcpFlow {
    fn problems(&self, p: &mut Problems, at: &dyn Fn(&str) -> String) {
        p.check(
            (64..=65_000).contains(&self.mss_bytes),
            || at("mss_bytes"),
            || format!("must be between 64 and 65000 bytes (got {})", self.mss_bytes),
        );
        p.check(
            (1..=255).contains(&self.block_pkts),
            || at("block_pkts"),
            || format!("must be between 1 and 255 packets (got {})", self.block_pkts),
        );
        p.check(
            (1..=10_000).contains(&self.max_blocks),
            || at("max_blocks"),
            || format!("must be between 1 and 10000 (got {})", self.max_blocks),
        );
        p.check(
            (2..=100_000).contains(&self.max_cwnd_pkts),
            || at("max_cwnd_pkts"),
            || format!("must be between 2 and 100000 (got {})", self.max_cwnd_pkts),
        );
        p.check(
            (1..=self.max_cwnd_pkts).contains(&self.initial_cwnd_pkts),
            || at("initial_cwnd_pkts"),
            || format!("must be between 1 and max_cwnd_pkts ({}) (got {})", self.max_cwnd_pkts, self.initial_cwnd_pkts),
        );
        p.check(
            self.initial_ssthresh_pkts >= 2,
            || at("initial_ssthresh_pkts"),
            || format!("must be at least 2 (got {})", self.initial_ssthresh_pkts),
        );
        p.non_negative(self.v2_delta_l_s, || at("v2_delta_l_s"));
        p.between(self.loss_scaling, 0.0, 10.0, || at("loss_scaling"));
    }
}

/// The JSON Schema of the format, from the types above.
pub fn schema() -> Value {
    serde_json::to_value(schemars::schema_for!(Scenario)).unwrap_or(Value::Null)
}

/// Sets the value at a path such as `topology.links[1].loss.p` or `flows[0].cc`.
pub fn set_path(root: &mut Value, path: &str, v: Value) -> Result<(), String> {
    let mut cur = root;
    let segs = split_path(path)?;
    let last = segs.len() - 1;
    for (k, seg) in segs.iter().enumerate() {
        let here = segs[..k].iter().map(|s| s.to_string()).collect::<Vec<_>>().join("");
        match seg {
            PathSeg::Key(name) => {
                let Some(obj) = cur.as_object_mut() else {
                    return Err(format!("{}: is not an object", here.trim_start_matches('.')));
                };
                if k == last {
                    obj.insert(name.clone(), v);
                    return Ok(());
                }
                cur = obj
                    .get_mut(name.as_str())
                    .ok_or_else(|| format!("{}: no such field", format!("{here}.{name}").trim_start_matches('.')))?;
            }
            PathSeg::Index(i) => {
                let Some(arr) = cur.as_array_mut() else {
                    return Err(format!("{}: is not a list", here.trim_start_matches('.')));
                };
                let n = arr.len();
                let slot = arr.get_mut(*i).ok_or_else(|| {
                    format!(
                        "{}[{i}]: no such element ({} has {n})",
                        here.trim_start_matches('.'),
                        here.trim_start_matches('.')
                    )
                })?;
                if k == last {
                    *slot = v;
                    return Ok(());
                }
                cur = slot;
            }
        }
    }
    Ok(())
}

enum PathSeg {
    Key(String),
    Index(usize),
}

impl std::fmt::Display for PathSeg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathSeg::Key(k) => write!(f, ".{k}"),
            PathSeg::Index(i) => write!(f, "[{i}]"),
        }
    }
}

fn split_path(path: &str) -> Result<Vec<PathSeg>, String> {
    let bad = || format!("\"{path}\": not a path like topology.links[1].loss.p");
    let mut segs = Vec::new();
    for part in path.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if name.is_empty() {
            return Err(bad());
        }
        segs.push(PathSeg::Key(name.to_string()));
        while !rest.is_empty() {
            let close = rest.find(']').ok_or_else(bad)?;
            let idx: usize = rest[1..close].parse().map_err(|_| bad())?;
            segs.push(PathSeg::Index(idx));
            rest = &rest[close + 1..];
            if !rest.is_empty() && !rest.starts_with('[') {
                return Err(bad());
            }
        }
    }
    if segs.is_empty() {
        return Err(bad());
    }
    Ok(segs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MINIMAL: &str = r#"{"version":1,"name":"t","duration_s":10,
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":250}]},
        "flows":[{"transport":"tcp","cc":"cubic","bytes":1000}]}"#;

    fn with(path: &str, v: Value) -> Result<Scenario, String> {
        let mut s: Value = serde_json::from_str(MINIMAL).unwrap();
        set_path(&mut s, path, v).unwrap();
        from_value(s)
    }

    #[test]
    fn a_minimal_scenario_gets_the_documented_defaults() {
        let s = parse(MINIMAL).unwrap();
        let Flow::Tcp(t) = &s.flows[0] else { panic!("a TCP flow") };
        assert_eq!((t.mss_bytes, t.initial_cwnd_pkts, t.sack, s.seed), (1448, 10, true, 1));
    }

    #[test]
    fn an_unknown_congestion_control_names_the_path_and_the_choices() {
        let e = with("flows[0].cc", "cubc".into()).unwrap_err();
        assert!(e.starts_with("flows[0].cc: unknown value \"cubc\""), "{e}");
        assert!(e.contains("reno") && e.contains("vegas"), "{e}");
    }

    #[test]
    fn an_unknown_field_is_an_error_not_ignored() {
        let e = with("topology.links[0].delay", 5.into()).unwrap_err();
        assert!(e.starts_with("topology.links[0].delay: unknown field `delay`, expected one of `rate_mbps`"), "{e}");
    }

    #[test]
    fn a_probability_above_one_is_rejected_with_its_path() {
        let e = with("topology.links[0].loss", serde_json::json!({"model":"bernoulli","p":1.5})).unwrap_err();
        assert_eq!(e, "topology.links[0].loss.p: must be a probability between 0 and 1 (got 1.5)");
    }

    #[test]
    fn a_wrong_type_names_the_path() {
        let e = with("duration_s", "long".into()).unwrap_err();
        assert!(e.starts_with("duration_s: invalid type: string"), "{e}");
    }

    #[test]
    fn an_empty_sweep_grid_is_rejected() {
        let e = with("sweep", serde_json::json!({"grid":{}})).unwrap_err();
        assert_eq!(e, "sweep.grid: needs at least one path to vary");
    }

    #[test]
    fn a_periodic_outage_period_that_rounds_to_zero_nanoseconds_is_refused() {
        let e =
            with("topology.links[0].outages", serde_json::json!({"every_s": 4e-10, "duration_s": 1e-10})).unwrap_err();
        assert!(e.starts_with("topology.links[0].outages.every_s: must be at least 2e-9 s"), "{e}");
        let e =
            with("topology.links[0].outages", serde_json::json!({"every_s": 1e-6, "duration_s": 1e-10})).unwrap_err();
        assert!(e.starts_with("topology.links[0].outages.duration_s: rounds to 0 ns"), "{e}");
        assert!(with("topology.links[0].outages", serde_json::json!({"every_s": 2e-9, "duration_s": 1e-9})).is_ok());
    }

    #[test]
    fn a_sweep_grid_whose_size_overflows_is_refused_with_its_size() {
        // 256^8 overflows 64 bits; the product used to wrap to 0 ("valid (0 runs)").
        let values: Vec<Value> = (0..256).map(|v| Value::from(v + 1)).collect();
        let grid: serde_json::Map<String, Value> =
            (0..8).map(|i| (format!("flows[0].p{i}"), Value::Array(values.clone()))).collect();
        let e = with("sweep", serde_json::json!({ "grid": grid })).unwrap_err();
        assert!(e.starts_with("sweep.grid: 256 × 256 × 256 × 256 × 256 × 256 × 256 × 256 values × 1 run per point = 1.845e19 runs; at most 100000 are supported"), "{e}");
        let e = with("sweep", serde_json::json!({ "grid": { "seed": values }, "runs": 1000 })).unwrap_err();
        assert!(e.starts_with("sweep.grid: 256 values × 1000 runs per point = 256000 runs; at most 100000"), "{e}");
        assert!(with("sweep", serde_json::json!({ "grid": { "seed": values }, "runs": 390 })).is_ok());
    }

    #[test]
    fn node_cache_bytes_keys_must_be_plain_node_numbers_on_the_flows_path() {
        let two_hops = r#"{"version":1,"name":"t","duration_s":10,
            "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":5},{"rate_mbps":10,"delay_ms":5},
                {"rate_mbps":10,"delay_ms":5}]},
            "flows":[{"transport":"intcp","bytes":1000,"to_node":2}]}"#;
        let with_caches = |caches: Value| {
            let mut v: Value = serde_json::from_str(two_hops).unwrap();
            v["flows"][0]["node_cache_bytes"] = caches;
            from_value(v)
        };
        assert!(with_caches(serde_json::json!({"1": 0, "2": 5})).is_ok());
        let e = with_caches(serde_json::json!({"01": 0})).unwrap_err();
        assert_eq!(
            e,
            "flows[0].node_cache_bytes.01: write the node number as \"1\" (the key must be a plain node number)"
        );
        assert!(with_caches(serde_json::json!({"+1": 0})).unwrap_err().contains("as \"1\""));
        let e = with_caches(serde_json::json!({"3": 0})).unwrap_err();
        assert_eq!(e, "flows[0].node_cache_bytes.3: node 3 is not on the flow's path (nodes 0 to 2)");
        let e = with_caches(serde_json::json!({"9": 0})).unwrap_err();
        assert_eq!(e, "flows[0].node_cache_bytes.9: no such node (the chain has nodes 0 to 3)");
        let e = with_caches(serde_json::json!({"one": 0})).unwrap_err();
        assert_eq!(e, "flows[0].node_cache_bytes.one: is not a node number (the chain has nodes 0 to 3)");
    }

    #[test]
    fn a_point_place_with_an_unknown_field_is_refused() {
        let leo = |src: Value| {
            from_value(serde_json::json!({"version":1,"name":"t","duration_s":10,
                "topology":{"kind":"constellation","constellation":{"geo_longitudes_deg":[0]},
                    "src": src, "dst":"London", "min_elevation_deg": 0},
                "flows":[{"transport":"tcp","cc":"reno","bytes":1000}]}))
        };
        let point = serde_json::json!({"name":"p","lat_deg":1,"lon_deg":2});
        assert!(leo(point.clone()).is_ok(), "{:?}", leo(point.clone()).err());
        let mut with_alt = point;
        with_alt["alt_km"] = 1.into();
        let e = leo(with_alt).unwrap_err();
        assert!(
            e.starts_with(
                "topology.src: expected a city name or {\"name\", \"lat_deg\", \"lon_deg\"} and no other field"
            ),
            "{e}"
        );
    }

    #[test]
    fn a_square_rate_schedule_with_an_unknown_field_is_refused() {
        let sq = serde_json::json!({"square": {"low_mbps": 1, "high_mbps": 2, "period_s": 1}});
        assert!(with("topology.links[0].rate_schedule", sq.clone()).is_ok());
        let mut extra = sq;
        extra["phase_s"] = 1.into();
        let e = with("topology.links[0].rate_schedule", extra).unwrap_err();
        assert!(e.starts_with("topology.links[0].rate_schedule: expected a list"), "{e}");
    }

    #[test]
    fn unbounded_costs_are_refused_with_what_to_change() {
        let e = with("trace", serde_json::json!({"goodput_interval_s": 1e-9})).unwrap_err();
        assert_eq!(
            e,
            "trace.goodput_interval_s: gives 10000000000 goodput bins over duration_s; at most 1000000 are \
             supported (make the interval at least 0.00001 s)"
        );
        let e = with("trace", serde_json::json!({"max_points": 4294967295u32})).unwrap_err();
        assert_eq!(e, "trace.max_points: must be between 2 and 1000000 (got 4294967295)");
        let e = with("topology.links[0].rate_mbps", 1e9.into()).unwrap_err();
        assert!(e.starts_with("topology.links[0].rate_mbps: must be at most 100000 Mbit/s (got 1000000000)"), "{e}");
        let e =
            with("topology.links[0].rate_schedule", serde_json::json!([{"at_s": 0, "rate_mbps": 2e5}])).unwrap_err();
        assert!(e.starts_with("topology.links[0].rate_schedule[0].rate_mbps: must be at most 100000"), "{e}");
        let link = serde_json::json!({"rate_mbps": 10, "delay_ms": 1});
        let e = with("topology.links", Value::Array(vec![link.clone(); 23170])).unwrap_err();
        assert!(e.starts_with("topology.links: has 23170 links; at most 1000 are supported"), "{e}");
        assert!(with("topology.links", Value::Array(vec![link; 1000])).is_ok());
        assert_eq!(with("max_events", 0.into()).unwrap_err(), "max_events: must be at least 1");
        assert_eq!(parse(MINIMAL).unwrap().max_events, DEFAULT_MAX_EVENTS);
    }

    #[test]
    fn malformed_json_is_reported_as_such() {
        assert!(parse("{\"version\": 1,").unwrap_err().starts_with("scenario: invalid JSON"));
        assert_eq!(parse("[1,2]").unwrap_err(), "scenario: expected a JSON object");
    }

    #[test]
    fn a_bad_schedule_gets_a_useful_message() {
        let e = with("topology.links[0].rate_schedule", serde_json::json!({"sqare": {}})).unwrap_err();
        assert!(e.starts_with("topology.links[0].rate_schedule: expected a list"), "{e}");
    }

    #[test]
    fn paths_address_nested_list_elements() {
        let mut v: Value = serde_json::from_str(MINIMAL).unwrap();
        set_path(&mut v, "topology.links[0].delay_ms", 300.into()).unwrap();
        assert_eq!(v["topology"]["links"][0]["delay_ms"], 300);
        assert!(set_path(&mut v, "topology.links[3].delay_ms", 1.into()).unwrap_err().contains("no such element"));
        assert!(set_path(&mut v, "flows[0]cc", 1.into()).is_err());
    }

    #[test]
    fn the_schema_describes_the_top_level_fields() {
        let s = schema();
        let props = &s["properties"];
        for f in ["version", "name", "seed", "duration_s", "topology", "flows", "sweep"] {
            assert!(props.get(f).is_some(), "{f}");
        }
    }

    proptest! {
        // The parser never panics: arbitrary JSON values and arbitrary mutations of a valid
        // scenario are either accepted or rejected with a message.
        #[test]
        fn parsing_arbitrary_text_never_panics(s in ".{0,200}") {
            let _ = parse(&s);
        }

        #[test]
        fn mutated_scenarios_never_panic(path in prop::sample::select(vec![
            "duration_s", "seed", "version", "flows[0].cc", "flows[0].bytes", "flows[0].mss_bytes",
            "flows[0].start_s", "topology.links[0].rate_mbps", "topology.links[0].delay_ms",
            "topology.links[0].loss", "topology.links[0].buffer_pkts", "topology.links[0].outages",
            "topology.links[0].rate_schedule", "sweep", "trace", "flows[0].initial_cwnd_pkts",
        ]), v in arb_json()) {
            let _ = with(path, v);
        }
    }

    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
            "[a-z_]{0,8}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-z_]{1,12}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }
}
