//! What a run reports: per flow, per link, and the run as a whole. Serialized as the JSON the
//! CLI prints and the browser draws, and read back from it by the same types (the parts of a
//! run joined in the browser, a sweep's table from the results the browser holds): a result
//! read back is written again to the same bytes (the tests of `session.rs`). Only the orbit
//! build of the wasm module reads results, so the first load carries no deserializer of them.

use super::path::PathResult;
use super::traces::{HopRole, Traces};
use crate::metrics::DelaySummary;
use crate::scenario::Flow;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use std::borrow::Cow;

/// The result of one run.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RunResult {
    pub name: String,
    /// Read back from a number, or from the decimal text the wasm boundary gives JavaScript
    /// (`api.rs`: a 64-bit seed does not fit a JavaScript number).
    #[serde(deserialize_with = "seed_number_or_text")]
    pub seed: u64,
    /// The version of the core that ran it (`runner::provenance`).
    pub core_version: String,
    /// FNV-1a 64 of the canonical JSON of the scenario run, with this seed
    /// (`runner::provenance`).
    pub scenario_hash: String,
    /// Simulated time at which the run stopped.
    pub end_s: f64,
    pub events: u64,
    pub flows: Vec<FlowResult>,
    pub fairness_jain: f64,
    /// Links that carried or dropped something (a constellation's route links come and go).
    pub links: Vec<LinkResult>,
    /// Packets dropped because no route led to their destination (a constellation without a
    /// path for a while, or stranded by a route change with `on_route_change: "drop"`).
    #[serde(default, skip_serializing_if = "is_zero")]
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

fn seed_number_or_text<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    struct Seed;
    impl serde::de::Visitor<'_> for Seed {
        type Value = u64;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a 64-bit seed, as a number or as decimal text")
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<u64, E> {
            v.parse().map_err(|_| E::invalid_value(serde::de::Unexpected::Str(v), &self))
        }
    }
    d.deserialize_any(Seed)
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct FlowResult {
    pub id: u32,
    pub transport: TransportName,
    /// The congestion control (TCP's, ARQ's scheme, CTCP's variant, INTCP's kind), as
    /// `Flow::cc_name` names it.
    pub cc: Cow<'static, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[schemars(with = "crate::schema::Nullable<u64>")]
    pub bytes: Option<u64>,
    pub delivered_bytes: u64,
    pub completed: bool,
    /// Seconds from the flow's start to its last byte delivered.
    #[schemars(with = "crate::schema::Nullable<f64>")]
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
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct HopSummary {
    pub node: u32,
    pub role: HopRole,
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
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct WireSummary {
    /// Data packets sent, retransmissions (TCP) or coded packets (CTCP) included.
    pub data_sent: u64,
    /// TCP: retransmitted segments. CTCP: packets sent beyond one per source packet delivered.
    pub retransmitted: u64,
    /// Packets that reached the receiver and brought nothing new: TCP segments it already had,
    /// CTCP packets that added no degree of freedom, ARQ packets already delivered or held (and
    /// those go-back-N's receiver dropped for arriving out of order).
    pub spurious: u64,
    /// Data packets delivered to the application (source packets for CTCP).
    pub delivered: u64,
    pub retransmitted_per_delivered: f64,
    pub spurious_per_delivered: f64,
    /// TCP: tail loss probes and D-SACKs received; TCP and ARQ: the largest cwnd (ARQ's window)
    /// and flight (packets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_probes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dsacks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_cwnd_pkts: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_inflight_pkts: Option<u32>,
    /// TCP: window reductions undone as spurious (F-RTO, timestamps, D-SACK), and of those the
    /// retransmission timeouts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undos: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spurious_rtos_detected: Option<u64>,
}

impl WireSummary {
    pub(super) fn new(data_sent: u64, retransmitted: u64, spurious: u64, delivered: u64) -> WireSummary {
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
            undos: None,
            spurious_rtos_detected: None,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
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
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
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

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct LinkResult {
    pub id: u32,
    pub from: u32,
    pub to: u32,
    pub delivered_pkts: u64,
    /// Bytes on the wire (headers included) the link delivered.
    pub delivered_bytes: u64,
    pub drops: crate::net::Drops,
}

/// A flow's transport, as the scenario's `transport` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TransportName {
    Tcp,
    Ctcp,
    Intcp,
    Arq,
}

impl TransportName {
    pub fn of(flow: &Flow) -> TransportName {
        match flow {
            Flow::Tcp(_) => TransportName::Tcp,
            Flow::Ctcp(_) => TransportName::Ctcp,
            Flow::Intcp(_) => TransportName::Intcp,
            Flow::Arq(_) => TransportName::Arq,
        }
    }

    /// The name as results write it (the scenario's `Flow::transport`).
    pub fn name(self) -> &'static str {
        match self {
            TransportName::Tcp => "tcp",
            TransportName::Ctcp => "ctcp",
            TransportName::Intcp => "intcp",
            TransportName::Arq => "arq",
        }
    }
}

impl std::fmt::Display for TransportName {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.pad(self.name())
    }
}
