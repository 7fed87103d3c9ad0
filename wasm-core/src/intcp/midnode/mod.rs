//! The node agent of an INTCP flow: one on every node of the path. Its role decides which sides
//! run (docs/intcp-protocol.md §1, §4, §6):
//!
//! - **producer** (the flow's `from_node`): responder only — serves INTERESTs with the flow's
//!   content (all of it is available at once, so `pendingInts` never waits) and paces DATA;
//! - **midnode**: responder to its downstream neighbour (cache hits and forwarded DATA go into its
//!   send queue, paced by the token bucket at the rate the downstream requester asked) and
//!   requester to its upstream neighbour (cache misses are forwarded at once, without credit,
//!   carrying the rate it computes with backpressure, §5.6); it caches every DATA passing through
//!   and runs SeqHole on its upstream hop, re-requesting holes from the previous hop (whose cache
//!   answers; a miss there goes on upstream, §7.1–§7.2);
//! - **consumer** (`to_node`): requester only (`consumer.rs`).
//!
//! Ticks: the 1 ms flush (§4) runs only while there is work — a midnode or producer while its
//! send queue holds data, the consumer until its flow completes. A node waking from idle gets
//! one tick's credit. Deviations, stated: a midnode forwards an interest remainder when it
//! arrives rather than on the next tick, and caches DATA on arrival rather than ≤ 1 ms later;
//! one DATA segment per datagram ([I] has no VPH to pack with).
//!
//! The agent's state and its event handlers are here; `serve.rs` answers interests (the
//! producer from its content, a midnode from its cache, with or without read-ahead);
//! `store.rs` is what the node keeps for a content name (its cache and pending interests: node
//! state, reached through `Ctx`); `peers.rs` finds the neighbours on a fixed path or on the
//! route in force.

use super::cache::Segment;
use super::consumer::Consumer;
use super::holes::HoleDetector;
use super::rate::{decode_rate, HopCc, TokenBucket};
use super::readahead::{Arrival, ReadAhead};
use super::{IntcpConfig, HEADER_BYTES, IP_UDP_BYTES, TICK};
use crate::content::Content;
use crate::engine::Ctx;
use crate::metrics::Trace;
use crate::net::{Body, NodeId, NodeSlot, Packet};
use crate::sim::{SimDuration, SimTime};
use std::collections::VecDeque;

mod peers;
mod serve;
mod store;

use peers::Peers;
pub use peers::{MovingPeers, Peer};
pub use store::{NodeContent, Pit, PIT_LIFETIME};

/// Columns of a node's hop trace (`FlowTrace.hops[i].series` in results).
/// `held_bytes`: what the node holds for downstream (its send queue and, with read-ahead, the
/// data it fetched before downstream asked); `in_rate_mbps`: DATA arriving from upstream over the
/// last hop RTT; `out_rate_mbps`: DATA sent downstream over the last `OUT_RATE_WINDOW`.
pub const HOP_TRACE_COLUMNS: [&str; 7] = [
    "advertised_rate_mbps",
    "paced_rate_mbps",
    "queue_pkts",
    "cache_bytes",
    "held_bytes",
    "in_rate_mbps",
    "out_rate_mbps",
];

/// The timer token of the read-ahead gate's bins (the 1 ms flush uses 0).
const GATE_TIMER: u64 = 1;

/// The window over which a node's sending rate downstream is measured for its trace.
pub const OUT_RATE_WINDOW: SimDuration = SimDuration::from_millis(100);

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

#[derive(Clone, Debug, Default)]
pub struct NodeStats {
    pub data_sent: u64,
    pub interests_sent: u64,
    /// Segments served from this node's cache.
    pub cache_served: u64,
    /// Interests sent upstream for SeqHoles of this node's upstream hop.
    pub hole_requests: u64,
    pub max_queue_bytes: u64,
}

/// What an INTCP node's agent is built from.
pub struct IntcpNodeConfig {
    /// The flow's configuration, with this node's hop controller.
    pub intcp: IntcpConfig,
    pub flow: u32,
    pub role: Role,
    pub node: NodeId,
    /// The neighbours on a fixed path: towards the producer, and towards the consumer.
    pub up: Option<Peer>,
    pub down: Option<Peer>,
    pub content: Content,
    /// The consumer's end-to-end state, on the consumer's node only.
    pub consumer: Option<Box<Consumer>>,
    /// The node's cache and pending interests: a slot of the node's state (see `IntcpNode::store`).
    pub store: Option<NodeSlot>,
}

pub struct IntcpNode {
    cfg: IntcpConfig,
    pub flow: u32,
    pub role: Role,
    pub node: NodeId,
    peers: Peers,
    /// The upstream neighbour DATA last came from (a moving route changes it).
    data_from: Option<NodeId>,
    content: Content,
    pub bucket: TokenBucket,
    snd_queue: VecDeque<(Segment, i16)>,
    snd_queue_bytes: u64,
    data_sn: u64,
    pub cc: HopCc,
    holes: HoleDetector,
    int_sn: u64,
    /// The node's cache and pending interests (`store.rs`): a slot of the node's state, shared
    /// by the flows of one name; none at the producer, nor anywhere on a flow without caches.
    pub store: Option<NodeSlot>,
    pub consumer: Option<Box<Consumer>>,
    /// Whether this node aggregates its interests with those of other flows of its name.
    aggregates: bool,
    /// Segments this midnode waits for from the PIT: start → since when.
    waits: std::collections::BTreeMap<u64, SimTime>,
    tick_at: Option<SimTime>,
    last_flush: SimTime,
    pub stats: NodeStats,
    scratch: Vec<(u64, u64)>,
    segs: Vec<Segment>,
    /// Read-ahead (midnodes with a cache and a hold budget; `readahead.rs`).
    pub ra: Option<ReadAhead>,
    /// When the read-ahead gate's timer fires next (`swing.rs`).
    gate_timer_at: Option<SimTime>,
    /// DATA bytes sent downstream, and the (time, count) the out rate was last measured from.
    out_bytes: u64,
    out_mark: (SimTime, u64),
    out_rate_mbps: f64,
    /// Over time: the `HOP_TRACE_COLUMNS`.
    pub hop_trace: Trace<7>,
    /// Until when `hop_trace` takes no point (`Trace::next_point_at`). Spares computing a point
    /// per packet only to drop it: on a satellite, whose trace keeps two points spread over the
    /// run, that was every packet.
    hop_trace_quiet_until: SimTime,
    /// Re-requests this node sent (SeqHoles, and end-to-end timeouts at the consumer): time →
    /// (node, cumulative count).
    pub rtx_trace: Trace<2>,
    rtx_count: u64,
}

impl IntcpNode {
    pub fn new(setup: IntcpNodeConfig) -> IntcpNode {
        let IntcpNodeConfig { intcp: cfg, flow, role, node, up, down, content, consumer, store } = setup;
        let holes = HoleDetector::new(cfg.mss, cfg.hole_threshold);
        let ra = (role == Role::Midnode && store.is_some() && cfg.hold_budget_bytes > 0).then(|| {
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
        IntcpNode {
            ra,
            gate_timer_at: None,
            out_bytes: 0,
            out_mark: (SimTime::ZERO, 0),
            out_rate_mbps: 0.0,
            bucket: TokenBucket::new(cfg.mss),
            cc: HopCc::new(cfg.cc.clone()),
            cfg,
            flow,
            role,
            node,
            peers: Peers::Fixed { up, down },
            data_from: None,
            content,
            snd_queue: VecDeque::new(),
            snd_queue_bytes: 0,
            data_sn: 0,
            holes,
            int_sn: 0,
            store,
            consumer,
            tick_at: None,
            last_flush: SimTime::ZERO,
            stats: NodeStats::default(),
            scratch: Vec::new(),
            segs: Vec::new(),
            aggregates: false,
            waits: Default::default(),
            hop_trace: Trace::new(2),
            hop_trace_quiet_until: SimTime::ZERO,
            rtx_trace: Trace::new(2),
            rtx_count: 0,
        }
    }

    /// Bounds for the node's traces (by default two points each).
    pub fn with_traces(mut self, max_points: usize, interval: SimDuration) -> IntcpNode {
        self.hop_trace = Trace::with_interval(max_points, interval);
        self.rtx_trace = Trace::new(max_points);
        self
    }

    fn record(&mut self, ctx: &mut Ctx) {
        let now = ctx.now;
        let dt = now.saturating_since(self.out_mark.0);
        if dt >= OUT_RATE_WINDOW {
            self.out_rate_mbps = (self.out_bytes - self.out_mark.1) as f64 * 8.0 / 1e6 / dt.as_secs_f64();
            self.out_mark = (now, self.out_bytes);
        }
        if now < self.hop_trace_quiet_until {
            return;
        }
        let adv = if self.role == Role::Producer { 0.0 } else { self.advertised_rate() };
        let paced = if self.role == Role::Consumer { 0.0 } else { self.bucket.rate_mbps };
        let cache = self.store(ctx).map_or(0, |s| s.cache.used());
        let inr = if self.role == Role::Producer { 0.0 } else { self.cc.thrp_mbps };
        self.hop_trace.record(
            now,
            [adv, paced, self.snd_queue.len() as f64, cache as f64, self.held_bytes() as f64, inr, self.out_rate_mbps],
        );
        self.hop_trace_quiet_until = self.hop_trace.next_point_at();
    }

    fn record_rtx(&mut self, now: SimTime, n: u64) {
        if n > 0 {
            self.rtx_count += n;
            self.rtx_trace.record(now, [self.node as f64, self.rtx_count as f64]);
        }
    }

    /// The consumer starts requesting at the flow's start time.
    pub fn start(&mut self, ctx: &mut Ctx) {
        if self.role == Role::Consumer {
            self.ensure_tick(ctx);
        }
    }

    fn ensure_tick(&mut self, ctx: &mut Ctx) {
        if self.tick_at.is_none() {
            self.last_flush = ctx.now;
            let at = ctx.now + TICK;
            self.tick_at = Some(at);
            ctx.timer_at(at, 0);
        }
    }

    /// Bytes this node holds for downstream: its send queue, and what it read ahead.
    pub fn held_bytes(&self) -> u64 {
        self.snd_queue_bytes + self.ra.as_ref().map_or(0, |r| r.held_bytes)
    }

    /// The rate this node advertises upstream (§5.6). While it reads ahead, back-pressure starts
    /// only as the bytes held and read ahead approach the budget: the backpressure term's target
    /// buffer becomes the budget.
    pub fn advertised_rate(&self) -> f64 {
        match (self.role, &self.ra) {
            (Role::Midnode, Some(ra)) if ra.reading() => {
                let target = self.cfg.cc.target_buffer_bytes;
                let over = (self.snd_queue_bytes + ra.committed()) as f64 - (ra.budget as f64 - target).max(0.0);
                self.cc.rate_mbps(Some((over, self.bucket.rate_mbps)))
            }
            (Role::Midnode, _) => self.cc.rate_mbps(Some((self.snd_queue_bytes as f64, self.bucket.rate_mbps))),
            _ => self.cc.rate_mbps(None),
        }
    }

    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: Packet) {
        match pkt.body {
            Body::IntcpInterest { start, end, rate, ts, .. } => {
                if self.role == Role::Consumer {
                    return;
                }
                self.bucket.int_hop_owd = ctx.now.saturating_since(ts);
                self.bucket.rate_mbps = decode_rate(rate);
                if start < end {
                    self.serve(ctx, start, end);
                }
                self.record(ctx);
            }
            Body::IntcpData { sn, start, end, ts, wnd, digest, first_sent, ahead } => {
                if self.role == Role::Producer {
                    return;
                }
                let now = ctx.now;
                // Hop sequence numbers are per sender: a new upstream neighbour starts its own.
                let from = self.up(ctx).map(|p| p.node);
                if matches!(self.peers, Peers::Moving(_)) && from != self.data_from {
                    self.data_from = from;
                    self.holes = self.holes.restarted();
                    if let Some(c) = &mut self.consumer {
                        c.new_upstream();
                    }
                }
                let payload = (end - start) as u32;
                self.cc.on_data(now, ts, payload + HEADER_BYTES, payload);
                let seg = Segment { start, end, digest, first_sent };
                let mut lost = std::mem::take(&mut self.scratch);
                lost.clear();
                if let Some(c) = &mut self.consumer {
                    c.on_data(now, sn, seg, wnd, ahead, &mut lost);
                    // A consumer on a node that named flows share leaves what it got there.
                    if let Some(store) = self.store(ctx) {
                        store.cache.insert(seg);
                    }
                    self.resolve_pit(ctx, seg);
                    for &(a, b) in &lost {
                        self.send_interest(ctx, a, b);
                    }
                    if !lost.is_empty() {
                        self.cc.on_hop_loss(now);
                    }
                    self.record_rtx(now, lost.len() as u64);
                } else {
                    if self.cfg.cache {
                        self.holes.on_data(now, sn, start, end, &mut lost);
                    }
                    if let Some(store) = self.store(ctx) {
                        store.cache.insert(seg);
                    }
                    self.resolve_pit(ctx, seg);
                    match &mut self.ra {
                        Some(ra) => {
                            if wnd != 0 {
                                ra.upstream_headroom = wnd as f64 * self.cfg.mss as f64;
                            }
                            if ra.on_data(start, end) == Arrival::Forward {
                                // Not reading ahead, the node passes upstream's headroom on, as the code does.
                                let wnd = if ra.reading() { 0 } else { wnd };
                                self.enqueue(seg, wnd);
                            }
                        }
                        None => self.enqueue(seg, wnd),
                    }
                    for &(a, b) in &lost {
                        self.stats.hole_requests += 1;
                        // The previous hop is asked; our own cache cannot hold what we lost.
                        self.send_interest(ctx, a, b);
                    }
                    if !lost.is_empty() {
                        self.cc.on_hop_loss(now);
                    }
                    self.record_rtx(now, lost.len() as u64);
                    self.ensure_tick(ctx);
                }
                self.scratch = lost;
                if self.cc.refresh_due(now) {
                    self.send_interest(ctx, 0, 0);
                }
                self.record(ctx);
            }
            _ => {}
        }
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx, token: u64) {
        if token == GATE_TIMER {
            self.on_gate_timer(ctx);
            return;
        }
        if self.tick_at != Some(ctx.now) {
            return;
        }
        self.tick_at = None;
        let dt = ctx.now.saturating_since(self.last_flush);
        self.last_flush = ctx.now;
        let more;
        if let Some(c) = &mut self.consumer {
            let mut out = std::mem::take(&mut self.scratch);
            out.clear();
            let resends_before = c.stats.timeout_resends;
            let follow = c.responder_reads_ahead.then(|| (self.cc.rate_mbps(None), self.cc.srtt()));
            c.tick(ctx.now, dt, self.cc.thrp_mbps, follow, &mut out);
            let resent = c.stats.timeout_resends - resends_before;
            c.trace.record(
                ctx.now,
                [
                    c.srtt_ms(),
                    c.rto_ms(),
                    self.cc.srtt_ms(),
                    self.cc.cwnd_pkts(),
                    self.cc.rate_mbps(None),
                    c.credit,
                    c.outstanding_bytes() as f64,
                    (c.stats.timeout_resends + c.stats.hole_requests) as f64,
                ],
            );
            more = !c.done();
            for &(a, b) in &out {
                self.send_interest(ctx, a, b);
            }
            self.scratch = out;
            self.record_rtx(ctx.now, resent);
        } else {
            self.drain_pit(ctx);
            let reading = self.read_ahead(ctx, dt);
            self.flush_data(ctx, dt);
            more = !self.waits.is_empty() || reading;
        }
        self.record(ctx);
        if more || !self.snd_queue.is_empty() {
            let at = ctx.now + TICK;
            self.tick_at = Some(at);
            ctx.timer_at(at, 0);
        }
    }

    /// Arms the read-ahead gate's timer (`swing.rs`) if it is not armed.
    pub(super) fn ensure_gate_timer(&mut self, ctx: &mut Ctx) {
        if self.gate_timer_at.is_some() {
            return;
        }
        if let Some(g) = self.ra.as_ref().and_then(|ra| ra.gate.as_ref()) {
            let at = g.bin_end().max(ctx.now + TICK);
            self.gate_timer_at = Some(at);
            ctx.timer_at(at, GATE_TIMER);
        }
    }

    fn on_gate_timer(&mut self, ctx: &mut Ctx) {
        if self.gate_timer_at != Some(ctx.now) {
            return;
        }
        self.gate_timer_at = None;
        let limit = self.cfg.bytes.unwrap_or(u64::MAX);
        let Some(ra) = &mut self.ra else { return };
        let was_reading = ra.reading();
        ra.update_gate(ctx.now);
        let reading = ra.reading();
        let keep = ra.down_next < limit && ra.gate.as_ref().is_some_and(|g| g.active());
        if reading && !was_reading {
            self.ensure_tick(ctx);
        }
        if keep {
            self.ensure_gate_timer(ctx);
        }
    }

    /// Sends what the token bucket allows from the send queue (§5.7).
    fn flush_data(&mut self, ctx: &mut Ctx, dt: SimDuration) {
        let Some(down) = self.down(ctx) else { return };
        let new_output = self.bucket.refill(dt);
        while let Some(&(seg, wnd)) = self.snd_queue.front() {
            let cost = seg.len() + HEADER_BYTES as u64;
            if !self.bucket.try_spend(cost as f64) {
                return;
            }
            self.snd_queue.pop_front();
            self.snd_queue_bytes -= cost;
            let wnd = if self.role == Role::Producer {
                let headroom = (self.cfg.cc.target_buffer_bytes - self.snd_queue_bytes as f64) / self.cfg.mss as f64;
                headroom.clamp(i16::MIN as f64 + 1.0, i16::MAX as f64) as i16
            } else if let Some(ra) = self.ra.as_ref().filter(|ra| ra.reading()) {
                // A midnode that reads ahead reports its own debt to downstream (what it was asked
                // for and has not sent) below its target, as the producer reports its queue; 0
                // means "not set" on the wire, so at the target it reports one segment of room.
                let debt = (self.snd_queue_bytes + ra.wanted_bytes) as f64;
                let headroom = ((self.cfg.cc.target_buffer_bytes - debt) / self.cfg.mss as f64).round();
                if headroom == 0.0 {
                    1
                } else {
                    headroom.clamp(i16::MIN as f64 + 1.0, i16::MAX as f64) as i16
                }
            } else {
                wnd
            };
            let ahead = self.ra.as_ref().is_some_and(|ra| ra.reading());
            let first_sent = if seg.first_sent == SimTime::MAX { ctx.now } else { seg.first_sent };
            let ts = SimTime(ctx.now.0.saturating_sub(self.bucket.int_hop_owd.0));
            ctx.send(Packet {
                flow: self.flow,
                dst_node: down.node,
                dst_agent: down.agent,
                size: IP_UDP_BYTES + HEADER_BYTES + seg.len() as u32,
                body: Body::IntcpData {
                    sn: self.data_sn,
                    start: seg.start,
                    end: seg.end,
                    ts,
                    wnd,
                    digest: seg.digest,
                    first_sent,
                    ahead,
                },
            });
            self.data_sn += 1;
            self.stats.data_sent += 1;
            self.out_bytes += seg.len();
        }
        self.bucket.drained(new_output);
    }
}
