//! An INTCP flow (docs/intcp-protocol.md): its fields, their defaults (the authors' constants)
//! and their range checks.

use super::problems::Problems;
use super::yes;
use crate::number_text::Num;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
    /// (1, 2, 4, ... packets with 1, the default); after two such rounds without a queue, or a
    /// receive rate above anything the hop delivered before, it doubles per hop RTT until a
    /// queue shows, so a hop finds a faster link within a few round trips; the hold-off after a
    /// decrease is 2 minimum hop RTTs. 0: the paper's additive increase (one packet per round
    /// trip) and the code's 2·hopSRTT hold-off.
    #[serde(default = "default_intcp_probe_gain")]
    pub probe_gain: f64,
    /// Bytes each midnode may hold for downstream, fetched from upstream at the upstream hop's
    /// own rate ahead of downstream's requests (the paper's cache absorbing bandwidth swings
    /// between hops, Fig. 5(a)); back-pressure applies only when they reach this budget, and
    /// `read_ahead` says when a midnode reads ahead. The default, 32 MiB, holds one 10 s low
    /// phase of Fig. 5(a) (18.75 MB). 0: the authors' code, which asks upstream only for what
    /// downstream asked and back-pressures as soon as `target_buffer_pkts` wait. Held data lives
    /// in the cache, which bounds it too.
    #[serde(default = "default_intcp_hold_budget")]
    pub hold_budget_bytes: u64,
    /// How far past the highest byte its downstream asked for a midnode may request upstream.
    #[serde(default = "default_intcp_lookahead")]
    pub lookahead_bytes: u64,
    /// When a midnode with a hold budget reads ahead: "swings" (the default) while its
    /// downstream hop swings, opening when the rate downstream asks at falls below half its
    /// peak of the last 30 s (a slow phase or an outage) and closing once that hop is back at
    /// speed and the held bytes stop falling, so a hop that is slower for good gets no standing
    /// backlog (docs/intcp-caching.md); "always": whenever the budget allows.
    #[serde(default)]
    pub read_ahead: ReadAheadWhen,
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

/// When a midnode reads ahead (`IntcpFlow::read_ahead`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReadAheadWhen {
    /// While the downstream hop swings: after a slow phase or an outage, until the held bytes
    /// stop falling with the hop back at speed.
    #[default]
    Swings,
    /// Whenever the hold budget allows.
    Always,
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
    // One 10 s low phase of Fig. 5(a) at (20 − 5) Mbit/s is 18.75 MB.
    32 << 20
}
fn default_intcp_lookahead() -> u64 {
    64 << 20
}
fn default_intcp_hole_threshold() -> u32 {
    3
}

impl IntcpFlow {
    /// `hops`: the number of hops between the flow's producer and consumer.
    pub(super) fn problems(&self, p: &mut Problems, at: &dyn Fn(&str) -> String, hops: u32) {
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
            || format!("must be more than 0 and at most 1 (got {})", Num(self.decrease_factor)),
        );
        p.between(self.ssthresh_pkts, 1.0, 1e6, || at("ssthresh_pkts"));
        p.check(
            self.min_rtt_window_s.is_finite() && self.min_rtt_window_s > 0.0 && self.min_rtt_window_s <= 3600.0,
            || at("min_rtt_window_s"),
            || format!("must be more than 0 and at most 3600 s (got {})", Num(self.min_rtt_window_s)),
        );
        p.check(
            self.min_rate_mbps.is_finite() && self.min_rate_mbps > 0.0 && self.min_rate_mbps <= 327.0,
            || at("min_rate_mbps"),
            || {
                format!(
                    "must be more than 0 and at most 327 Mbit/s, the wire field's range (got {})",
                    Num(self.min_rate_mbps)
                )
            },
        );
        p.check(
            self.max_rate_mbps.is_finite() && self.max_rate_mbps >= self.min_rate_mbps && self.max_rate_mbps <= 327.0,
            || at("max_rate_mbps"),
            || {
                format!(
                    "must be between min_rate_mbps and 327 Mbit/s, the wire field's range (got {})",
                    Num(self.max_rate_mbps)
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
