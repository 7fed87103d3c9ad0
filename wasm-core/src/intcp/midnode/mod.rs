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
//! The agent's shared state and its event handlers are here; `role.rs` holds what each role
//! keeps of its own (`NodeRole`); `serve.rs` answers interests (the
//! producer from its content, a midnode from its cache, with or without read-ahead);
//! `store.rs` is what the node keeps for a content name (its cache and pending interests: node
//! state, reached through `Ctx`); `peers.rs` finds the neighbours on a fixed path or on the
//! route in force.

use super::cache::Segment;
use super::rate::{HopController, HopRateControl};
use super::rate_encoding::decode_rate;
use super::readahead::Arrival;
use super::token_bucket::TokenBucket;
use super::{IntcpConfig, HEADER_BYTES, IP_UDP_BYTES, TICK};
use crate::engine::Ctx;
use crate::metrics::Trace;
use crate::net::{Body, NodeId, Packet};
use crate::sim::{float, SimDuration, SimTime};
use std::collections::VecDeque;

mod peers;
mod role;
mod serve;
mod store;

use peers::Peers;
pub use peers::{MovingPeers, Peer};
pub use role::{Midnode, NodeRole, Role, StoreAt};
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
    /// The flow's configuration.
    pub intcp: IntcpConfig,
    /// What this node's requester side runs on its upstream hop (`hop_cc`).
    pub hop: HopController,
    pub flow: u32,
    pub role: NodeRole,
    pub node: NodeId,
    /// The neighbours on a fixed path: towards the producer, and towards the consumer.
    pub up: Option<Peer>,
    pub down: Option<Peer>,
}

pub struct IntcpNode {
    cfg: IntcpConfig,
    pub flow: u32,
    pub role: NodeRole,
    pub node: NodeId,
    peers: Peers,
    /// The upstream neighbour DATA last came from (a moving route changes it).
    data_from: Option<NodeId>,
    pub bucket: TokenBucket,
    snd_queue: VecDeque<(Segment, i16)>,
    snd_queue_bytes: u64,
    data_sn: u64,
    pub cc: HopRateControl,
    int_sn: u64,
    /// Whether this node aggregates its interests with those of other flows of its name.
    aggregates: bool,
    tick_at: Option<SimTime>,
    last_flush: SimTime,
    pub stats: NodeStats,
    scratch: Vec<(u64, u64)>,
    segs: Vec<Segment>,
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
        let IntcpNodeConfig { intcp: cfg, hop, flow, role, node, up, down } = setup;
        IntcpNode {
            out_bytes: 0,
            out_mark: (SimTime::ZERO, 0),
            out_rate_mbps: 0.0,
            bucket: TokenBucket::new(cfg.mss),
            cc: HopRateControl::new(cfg.cc.clone(), hop),
            cfg,
            flow,
            role,
            node,
            peers: Peers::Fixed { up, down },
            data_from: None,
            snd_queue: VecDeque::new(),
            snd_queue_bytes: 0,
            data_sn: 0,
            int_sn: 0,
            tick_at: None,
            last_flush: SimTime::ZERO,
            stats: NodeStats::default(),
            scratch: Vec::new(),
            segs: Vec::new(),
            aggregates: false,
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

    /// Runs after every packet and tick, and almost always finds neither the out rate's window
    /// over nor a trace point due: inlined, that costs two comparisons instead of a call.
    #[inline]
    fn record(&mut self, ctx: &mut Ctx) {
        let now = ctx.now;
        if now < self.hop_trace_quiet_until && now.saturating_since(self.out_mark.0) < OUT_RATE_WINDOW {
            return;
        }
        self.record_due(ctx);
    }

    fn record_due(&mut self, ctx: &mut Ctx) {
        let now = ctx.now;
        let dt = now.saturating_since(self.out_mark.0);
        if dt >= OUT_RATE_WINDOW {
            self.out_rate_mbps = (self.out_bytes - self.out_mark.1) as f64 * 8.0 / 1e6 / dt.as_secs_f64();
            self.out_mark = (now, self.out_bytes);
        }
        if now < self.hop_trace_quiet_until {
            return;
        }
        let role = self.role.kind();
        let adv = if role == Role::Producer { 0.0 } else { self.advertised_rate() };
        let paced = if role == Role::Consumer { 0.0 } else { self.bucket.rate_mbps };
        let cache = self.store(ctx).map_or(0, |s| s.cache.used());
        let inr = if role == Role::Producer { 0.0 } else { self.cc.thrp_mbps };
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
        if let NodeRole::Consumer { .. } = self.role {
            self.ensure_tick(ctx);
        }
    }

    /// Runs at every DATA a midnode takes, and most find the tick already set: inlined, that
    /// is a test instead of a call.
    #[inline(always)]
    fn ensure_tick(&mut self, ctx: &mut Ctx) {
        if self.tick_at.is_none() {
            self.start_tick(ctx);
        }
    }

    fn start_tick(&mut self, ctx: &mut Ctx) {
        self.last_flush = ctx.now;
        let at = ctx.now + TICK;
        self.tick_at = Some(at);
        ctx.timer_in_order(at, 0);
    }

    /// Bytes this node holds for downstream: its send queue, and what it read ahead.
    pub fn held_bytes(&self) -> u64 {
        self.snd_queue_bytes + self.role.read_ahead().map_or(0, |r| r.held_bytes)
    }

    /// The rate this node advertises upstream (§5.6). While it reads ahead, back-pressure starts
    /// only as the bytes held and read ahead approach the budget: the backpressure term's target
    /// buffer becomes the budget.
    pub fn advertised_rate(&self) -> f64 {
        match (&self.role, self.role.read_ahead()) {
            (NodeRole::Midnode(_), Some(ra)) if ra.reading() => {
                let target = self.cfg.cc.target_buffer_bytes;
                // `float::max` is std's here: `budget - target` is not NaN, and not -0 (a
                // difference is -0 only from -0, which an integer converted never is).
                let over = (self.snd_queue_bytes + ra.committed()) as f64 - float::max(0.0, ra.budget as f64 - target);
                self.cc.rate_mbps(Some((over, self.bucket.rate_mbps)))
            }
            (NodeRole::Midnode(_), _) => self.cc.rate_mbps(Some((self.snd_queue_bytes as f64, self.bucket.rate_mbps))),
            _ => self.cc.rate_mbps(None),
        }
    }

    /// Takes the packet by reference: it is read, never kept, and the event loop then passes
    /// the one it took out of the link's pipeline without another copy.
    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: &Packet) {
        match pkt.body {
            Body::IntcpInterest { start, end, rate, ts, .. } => {
                if let NodeRole::Consumer { .. } = self.role {
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
                if let NodeRole::Producer { .. } = self.role {
                    return;
                }
                let now = ctx.now;
                // Hop sequence numbers are per sender: a new upstream neighbour starts its own.
                let from = self.up(ctx).map(|p| p.node);
                if matches!(self.peers, Peers::Moving(..)) && from != self.data_from {
                    self.data_from = from;
                    match &mut self.role {
                        NodeRole::Midnode(m) => m.holes = m.holes.restarted(),
                        NodeRole::Consumer { consumer, .. } => consumer.new_upstream(),
                        NodeRole::Producer { .. } => {}
                    }
                }
                let payload = (end - start) as u32;
                self.cc.on_data(now, ts, payload + HEADER_BYTES, payload);
                let seg = Segment { start, end, digest, first_sent };
                let mut lost = std::mem::take(&mut self.scratch);
                lost.clear();
                match &mut self.role {
                    NodeRole::Consumer { consumer, .. } => consumer.on_data(now, sn, seg, wnd, ahead, &mut lost),
                    NodeRole::Midnode(m) if self.cfg.cache => m.holes.on_data(now, sn, start, end, &mut lost),
                    NodeRole::Midnode(_) | NodeRole::Producer { .. } => {}
                }
                // A consumer on a node that named flows share leaves what it got there too.
                if let Some(store) = self.store(ctx) {
                    store.cache.insert(seg);
                }
                self.resolve_pit(ctx, seg);
                let midnode = matches!(self.role, NodeRole::Midnode(_));
                if midnode {
                    self.pass_downstream(seg, wnd);
                }
                self.rerequest_holes(ctx, &lost);
                self.scratch = lost;
                if midnode {
                    self.ensure_tick(ctx);
                }
                if self.cc.refresh_due(now) {
                    self.send_interest(ctx, 0, 0);
                }
                self.record(ctx);
            }
            _ => {}
        }
    }

    /// A midnode queues DATA from upstream for downstream, unless it read the segment ahead
    /// before downstream asked (`readahead.rs`).
    fn pass_downstream(&mut self, seg: Segment, wnd: i16) {
        let mss = self.cfg.mss as f64;
        let forward = match self.role.read_ahead_mut() {
            Some(ra) => {
                if wnd != 0 {
                    ra.upstream_headroom = wnd as f64 * mss;
                }
                // Not reading ahead, the node passes upstream's headroom on, as the code does.
                (ra.on_data(seg.start, seg.end) == Arrival::Forward).then(|| if ra.reading() { 0 } else { wnd })
            }
            None => Some(wnd),
        };
        if let Some(wnd) = forward {
            self.enqueue(seg, wnd);
        }
    }

    /// Asks the previous hop again for the holes this node found on its upstream hop (its own
    /// cache cannot hold what it lost, §7.1–§7.2), and tells the hop's rate control of the loss.
    fn rerequest_holes(&mut self, ctx: &mut Ctx, holes: &[(u64, u64)]) {
        for &(a, b) in holes {
            self.stats.hole_requests += 1;
            self.send_interest(ctx, a, b);
        }
        if !holes.is_empty() {
            self.cc.on_hop_loss(ctx.now);
        }
        self.record_rtx(ctx.now, holes.len() as u64);
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
        let more = match self.role {
            NodeRole::Consumer { .. } => self.consumer_tick(ctx, dt),
            NodeRole::Producer { .. } | NodeRole::Midnode(_) => {
                self.drain_pit(ctx);
                let reading = self.read_ahead(ctx, dt);
                self.flush_data(ctx, dt);
                self.role.waits_mut().is_some_and(|w| !w.is_empty()) || reading
            }
        };
        self.record(ctx);
        if more || !self.snd_queue.is_empty() {
            let at = self.next_tick(ctx);
            self.tick_at = Some(at);
            if at == ctx.now + TICK {
                ctx.timer_in_order(at, 0);
            } else {
                ctx.timer_at(at, 0);
            }
        }
    }

    /// When the next tick is due: in 1 ms, unless the node is stranded (`stranded_until`). Then
    /// the ticks 1 ms apart go on without an event each: the event is the first of them that
    /// can do more than move `last_flush` on, which is left as the tick before it would leave it.
    fn next_tick(&mut self, ctx: &Ctx) -> SimTime {
        let next = ctx.now + TICK;
        let Some(until) = self.stranded_until(ctx) else { return next };
        let ticks = until.saturating_since(ctx.now).0.div_ceil(TICK.0);
        if ticks <= 1 {
            return next;
        }
        let at = ctx.now + SimDuration(ticks * TICK.0);
        self.last_flush = SimTime(at.0 - TICK.0);
        at
    }

    /// A midnode the route has left while it held data for downstream (a satellite that was on
    /// the path) ticks on, and each tick finds no one downstream to send to: in a long run over
    /// a constellation such ticks were half the events. Until when every tick would only move
    /// `last_flush`, and None if the next one may do more. A tick runs `drain_pit` (nothing
    /// without interest aggregation), `read_ahead` (nothing without read-ahead or an upstream
    /// neighbour), `flush_data` (nothing without a downstream one; the token bucket is not
    /// refilled either) and `record` (nothing before its trace's next point and the end of the
    /// out rate's window), and with data still queued it sets the next tick. The neighbours stay
    /// those of the route in force until its step ends. A packet arriving meanwhile changes
    /// none of this: it can add to the queue, and it moves the trace's next point and the out
    /// rate's window only later. So the run is the same, events aside
    /// (docs/links-and-orbits.md, "The express path").
    fn stranded_until(&self, ctx: &Ctx) -> Option<SimTime> {
        if !matches!(self.role, NodeRole::Midnode(_)) || self.snd_queue.is_empty() || self.aggregates {
            return None;
        }
        if self.down(ctx).is_some() || (self.role.read_ahead().is_some() && self.up(ctx).is_some()) {
            return None;
        }
        let route_until = self.neighbours_until(ctx)?;
        Some(route_until.min(self.hop_trace_quiet_until).min(self.out_mark.0 + OUT_RATE_WINDOW))
    }

    /// The consumer's tick (§5.8, §7.3): the interests its credit and its timeouts allow.
    /// Returns whether it has more to do.
    fn consumer_tick(&mut self, ctx: &mut Ctx, dt: SimDuration) -> bool {
        let NodeRole::Consumer { consumer: c, .. } = &mut self.role else { return false };
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
        let more = !c.done();
        for &(a, b) in &out {
            self.send_interest(ctx, a, b);
        }
        self.scratch = out;
        self.record_rtx(ctx.now, resent);
        more
    }

    /// Arms the read-ahead gate's timer (`swing.rs`) if it is not armed.
    pub(super) fn ensure_gate_timer(&mut self, ctx: &mut Ctx) {
        let NodeRole::Midnode(m) = &mut self.role else { return };
        if m.gate_timer_at.is_some() {
            return;
        }
        if let Some(g) = m.ra.as_ref().and_then(|ra| ra.gate.as_ref()) {
            let at = g.bin_end().max(ctx.now + TICK);
            m.gate_timer_at = Some(at);
            ctx.timer_at(at, GATE_TIMER);
        }
    }

    fn on_gate_timer(&mut self, ctx: &mut Ctx) {
        let NodeRole::Midnode(m) = &mut self.role else { return };
        if m.gate_timer_at != Some(ctx.now) {
            return;
        }
        m.gate_timer_at = None;
        let limit = self.cfg.bytes.unwrap_or(u64::MAX);
        let Some(ra) = &mut m.ra else { return };
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
        let producer = matches!(self.role, NodeRole::Producer { .. });
        let reading_ahead = self.role.read_ahead().filter(|ra| ra.reading());
        while let Some(&(seg, wnd)) = self.snd_queue.front() {
            let cost = seg.len() + HEADER_BYTES as u64;
            if !self.bucket.try_spend(cost as f64) {
                return;
            }
            self.snd_queue.pop_front();
            self.snd_queue_bytes -= cost;
            let wnd = if producer {
                let headroom = (self.cfg.cc.target_buffer_bytes - self.snd_queue_bytes as f64) / self.cfg.mss as f64;
                headroom.clamp(i16::MIN as f64 + 1.0, i16::MAX as f64) as i16
            } else if let Some(ra) = reading_ahead {
                // A midnode that reads ahead reports its own debt to downstream (what it was asked
                // for and has not sent) below its target, as the producer reports its queue; 0
                // means "not set" on the wire, so at the target it reports one segment of room.
                let debt = (self.snd_queue_bytes + ra.wanted_bytes) as f64;
                let headroom = float::round((self.cfg.cc.target_buffer_bytes - debt) / self.cfg.mss as f64);
                if headroom == 0.0 {
                    1
                } else {
                    headroom.clamp(i16::MIN as f64 + 1.0, i16::MAX as f64) as i16
                }
            } else {
                wnd
            };
            let ahead = reading_ahead.is_some();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::engine::Event;
    use crate::intcp::rate::CcParams;
    use crate::intcp::rate_encoding::encode_rate;
    use crate::net::Network;
    use crate::sim::EventQueue;
    use crate::simulation::testing::{chain, TestLink};

    const MSS: u64 = 1449;
    /// The chain's links by id: 0 → 1 (DATA from upstream), 1 → 0 (interests upstream),
    /// 1 → 2 (DATA downstream).
    const UPSTREAM: usize = 1;
    const DOWNSTREAM: usize = 2;

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    /// A midnode with a cache on node 1 of a chain 0 - 1 - 2, its neighbours' agents absent:
    /// what it sends stays on the links for the test to read.
    struct Bench {
        net: Network,
        queue: EventQueue<Event>,
        node: IntcpNode,
        content: Content,
        now: SimTime,
        sn: u64,
    }

    impl Bench {
        fn new() -> Bench {
            let net = chain(&[TestLink::new(100.0, 5), TestLink::new(100.0, 5)]);
            let cfg = IntcpConfig {
                bytes: Some(100 * MSS),
                mss: MSS as u32,
                cache: true,
                cc: CcParams::defaults(MSS as u32),
                hole_threshold: 3,
                hold_budget_bytes: 0,
                lookahead_bytes: 0,
                swing_gate: false,
            };
            let node = IntcpNode::new(IntcpNodeConfig {
                role: NodeRole::Midnode(Box::new(Midnode::new(
                    &cfg,
                    Some(StoreAt::Own(Box::new(NodeContent::new(1 << 20)))),
                ))),
                intcp: cfg,
                hop: HopController::Intcp,
                flow: 0,
                node: 1,
                up: Some(Peer { node: 0, agent: 0 }),
                down: Some(Peer { node: 2, agent: 2 }),
            });
            let content = Content::new(1, 0);
            Bench { net, queue: EventQueue::new(), node, content, now: ms(100), sn: 0 }
        }

        fn handle(&mut self, body: Body) {
            let pkt = Packet { flow: 0, dst_node: 1, dst_agent: 1, size: 1500, body };
            self.node.on_packet(&mut Ctx::new(self.now, 1, 1, &mut self.net, &mut self.queue), &pkt);
        }

        /// An interest from downstream for `[start, end)`, asking for 100 Mbit/s.
        fn interest(&mut self, start: u64, end: u64) {
            let ts = self.now;
            self.handle(Body::IntcpInterest { sn: 0, start, end, rate: encode_rate(100.0), ts });
        }

        /// The segment at `start` from upstream, with the next hop sequence number.
        fn data(&mut self, start: u64) {
            let end = start + MSS;
            let (sn, ts) = (self.sn, SimTime(self.now.0 - SimDuration::from_millis(10).0));
            self.sn += 1;
            let digest = self.content.digest(start, MSS as u32);
            self.handle(Body::IntcpData { sn, start, end, ts, wnd: 0, digest, first_sent: ts, ahead: false });
        }

        /// Runs the node's timers up to `now + dt`.
        fn wait(&mut self, dt: u64) {
            let until = self.now + SimDuration::from_millis(dt);
            while let Some((t, ev)) = self.queue.pop().filter(|&(t, _)| t <= until) {
                self.now = t;
                if let Event::Timer { token, .. } = ev {
                    self.node.on_timer(&mut Ctx::new(t, 1, 1, &mut self.net, &mut self.queue), token);
                }
            }
            self.now = until;
        }

        /// The byte ranges of the packets the node put on link `link`, taken off it.
        fn sent(&mut self, link: usize) -> Vec<(&'static str, u64, u64)> {
            std::iter::from_fn(|| self.net.links[link].take_arrived(SimTime::MAX))
                .map(|(p, _)| match p.body {
                    Body::IntcpInterest { start, end, .. } => ("interest", start, end),
                    Body::IntcpData { start, end, .. } => ("data", start, end),
                    other => panic!("{other:?}"),
                })
                .collect()
        }

        fn cached(&mut self, start: u64, end: u64) -> Vec<(u64, u64)> {
            let mut out = Vec::new();
            let Some(StoreAt::Own(store)) = self.node.role.store_mut() else {
                panic!("the bench's midnode keeps its own store")
            };
            store.cache.read(start, end, &mut out);
            out.iter().map(|s| (s.start, s.end)).collect()
        }
    }

    #[test]
    fn a_miss_goes_upstream_and_the_data_that_answers_it_is_cached_and_sent_downstream() {
        let mut b = Bench::new();
        b.interest(0, MSS);
        assert_eq!(b.sent(UPSTREAM), [("interest", 0, MSS)]);
        b.data(0);
        assert_eq!(b.cached(0, MSS), [(0, MSS)]);
        b.wait(2);
        assert_eq!(b.sent(DOWNSTREAM), [("data", 0, MSS)]);
        assert_eq!(b.node.stats.cache_served, 0);
    }

    #[test]
    fn an_interest_for_cached_bytes_is_answered_from_the_cache_without_asking_upstream() {
        let mut b = Bench::new();
        b.interest(0, 2 * MSS);
        b.data(0);
        b.data(MSS);
        b.wait(2);
        b.sent(UPSTREAM);
        assert_eq!(b.sent(DOWNSTREAM).len(), 2);
        // Downstream lost the second segment and asks again: this node holds it.
        b.interest(MSS, 2 * MSS);
        b.wait(2);
        assert_eq!(b.node.stats.cache_served, 1);
        assert_eq!(b.sent(DOWNSTREAM), [("data", MSS, 2 * MSS)]);
        assert!(b.sent(UPSTREAM).iter().all(|&(_, start, end)| start == end), "only rate refreshes go upstream");
    }

    #[test]
    fn a_hole_in_the_upstream_hop_sequence_is_asked_for_again_from_the_previous_hop() {
        let mut b = Bench::new();
        b.interest(0, 5 * MSS);
        b.sent(UPSTREAM);
        // The segment at MSS (hop sn 1) was lost on the upstream hop: sn 2, 3 and 4 pass it.
        b.data(0);
        b.sn += 1;
        b.data(2 * MSS);
        b.data(3 * MSS);
        assert_eq!(b.node.stats.hole_requests, 0, "two later packets do not confirm the hole");
        b.data(4 * MSS);
        assert_eq!(b.node.stats.hole_requests, 1);
        assert_eq!(b.sent(UPSTREAM), [("interest", MSS, 2 * MSS)]);
        assert_eq!(b.node.rtx_trace.len(), 1);
        // What arrived is cached; the hole is not.
        assert_eq!(b.cached(0, MSS), [(0, MSS)]);
        assert_eq!(b.cached(MSS, 2 * MSS), []);
        assert_eq!(b.cached(2 * MSS, 5 * MSS), [(2 * MSS, 3 * MSS), (3 * MSS, 4 * MSS), (4 * MSS, 5 * MSS)]);
    }

    #[test]
    fn the_consumer_takes_no_interests_and_the_producer_takes_no_data() {
        let mut b = Bench::new();
        b.node.role = NodeRole::Producer { content: b.content };
        b.data(0);
        assert_eq!(b.node.held_bytes(), 0);
        b.interest(0, 2 * MSS);
        assert_eq!(b.node.held_bytes(), 2 * (MSS + HEADER_BYTES as u64), "the producer queues both segments");
        assert!(b.sent(UPSTREAM).is_empty());
    }
}
