//! INTCP: the information-centric hop-by-hop transport (HotICN 2021; its successor LEOTP,
//! ICDCS 2023), as docs/intcp-protocol.md describes the authors' code, with the paper's
//! behaviour where the two differ.
//!
//! A flow is a chain of node agents, one on every node of the path: the *producer* (data
//! source, at the flow's `from_node`), a *midnode* at every hop boundary, and the *consumer*
//! (at `to_node`). INTERESTs for byte ranges go consumer → producer, DATA comes back. On each
//! hop the downstream node is the hop's requester (it measures the hop and computes the rate it
//! advertises on its INTERESTs, `rate.rs`, encoded as `rate_encoding.rs` writes it) and the
//! upstream node the responder (it paces DATA with a token bucket at that rate,
//! `token_bucket.rs`). Every midnode caches the DATA passing through (`cache.rs`), answers
//! INTERESTs from its cache and forwards misses upstream; losses are found per hop from the
//! per-hop sequence numbers (SeqHole, `holes.rs`) and re-requested from the previous hop, and
//! the consumer keeps an end-to-end RTO table (`consumer.rs`).
//!
//! Mixed hops (paper §III): each hop's requester runs INTCP's rate control or, per the flow's
//! `hop_cc`, a TCP-Reno window advertised as a rate (`rate::HopControl`, `reno_hop.rs`); the
//! responder's token bucket (`token_bucket.rs`) enforces either, so nothing else on the hop
//! changes.
//!
//! Agents are addressed hop by hop (each knows its upstream and downstream neighbour's node and
//! agent), so a node list taken from a route can drive a flow.
//!
//! Constants below cite docs/intcp-protocol.md (§ numbers) and the code tag it uses: [L] LEOTP, [I] INTCP.

pub mod cache;
pub mod consumer;
pub mod holes;
pub mod midnode;
pub mod rate;
pub mod rate_encoding;
pub mod readahead;
pub mod reno_hop;
pub mod swing;
pub mod token_bucket;

use crate::sim::SimDuration;

/// IPv4 (20) + UDP (8) headers of every INTCP datagram (§2: INTCP runs over UDP).
pub const IP_UDP_BYTES: u32 = 28;
/// The INTCP header of [I] (§2.3): cmd 1, wnd 2, ts 4, sn 4, len 4, rangeStart 4, rangeEnd 4.
pub const HEADER_BYTES: u32 = 23;
/// An INTEREST on the wire: a bare header in one datagram (§2.2, "interests are a bare header").
pub const INTEREST_BYTES: u32 = IP_UDP_BYTES + HEADER_BYTES;
/// Payload bytes per DATA segment: 1472-byte UDP payload − 23 ([I] MSS = 1449, §2.3, §14), so a
/// full DATA packet is 1500 bytes on the wire.
pub const DEFAULT_MSS: u32 = 1449;
/// The 1 ms flush tick (`UPDATE_INTERVAL`, §4).
pub const TICK: SimDuration = SimDuration::from_millis(1);
/// Bytes per second in one Mbit/s (rates are in Mbit/s as on the wire, §5.6; queues in bytes).
pub const BYTES_PER_S_PER_MBPS: f64 = 125_000.0;
/// Initial and minimum advertised rate, Mbit/s (`SENDRATE_MIN`, §5.6, §5.7).
pub const SENDRATE_MIN_MBPS: f64 = 0.1;
/// Maximum advertised rate, Mbit/s (`SENDRATE_MAX`, §5.6).
pub const SENDRATE_MAX_MBPS: f64 = 300.0;
/// Initial and minimum cwnd in packets (`CWND_MIN`, §5.5).
pub const CWND_MIN: f64 = 0.2;
/// Maximum requested bytes the consumer keeps outstanding, in MSS (`INTB_MAX`, §6.1).
pub const INTB_MAX_MSS: u64 = 20_000;
/// Consumer RTO bounds and initial value (`RTO_MIN/DEF/MAX`, §7.3).
pub const RTO_MIN: SimDuration = SimDuration::from_millis(20);
pub const RTO_DEF: SimDuration = SimDuration::from_millis(10_000);
pub const RTO_MAX: SimDuration = SimDuration::from_millis(60_000);
/// Consecutive timeout ticks that still inflate srtt and rto by 1.1 (`RTO_EXPO`, §7.3).
pub const MAX_CONSEQ_TIMEOUT: u32 = 10;
/// SeqHole state lifetime without packets, and hole lifetime ([I] `SNHOLE_TIMEOUT`, §7.2).
pub const SNHOLE_TIMEOUT: SimDuration = SimDuration::from_millis(1000);

/// The tunable parameters of a flow (the scenario's `IntcpFlow` maps onto this).
#[derive(Clone, Debug)]
pub struct IntcpConfig {
    pub bytes: Option<u64>,
    pub mss: u32,
    /// Caches at midnodes (false: INTCP-uni — no midnode cache and no midnode hole detection,
    /// as [L] without `USE_CACHE`, §10).
    pub cache: bool,
    pub cc: rate::CcParams,
    /// SeqHole threshold: a hole is confirmed lost once this many later packets passed it.
    pub hole_threshold: u32,
    /// Bytes a midnode may hold for downstream, read ahead of its requests (`readahead.rs`);
    /// 0: the authors' code, which asks upstream only for what downstream asked.
    pub hold_budget_bytes: u64,
    /// How far past the highest byte its downstream asked for a midnode may request.
    pub lookahead_bytes: u64,
    /// Read ahead only while the downstream hop swings (`swing.rs`); false: whenever there is budget.
    pub swing_gate: bool,
}
