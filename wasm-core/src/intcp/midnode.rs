// size: one agent plays all three INTCP roles, and its requester, responder, cache and
// read-ahead paths share the node's queues and counters; read-ahead (from main) took it past 600
// lines, and splitting it by role is open work.
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

use super::cache::{Cache, Segment};
use super::consumer::Consumer;
use super::holes::HoleDetector;
use super::rate::{decode_rate, encode_rate, HopCc, TokenBucket};
use super::readahead::{Arrival, ReadAhead};
use super::{IntcpConfig, HEADER_BYTES, INTEREST_BYTES, IP_UDP_BYTES, TICK};
use crate::content::Content;
use crate::engine::Ctx;
use crate::metrics::Trace;
use crate::net::{AgentId, Body, NodeId, Packet};
use crate::sim::{SimDuration, SimTime};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// Columns of a node's hop trace (`FlowTrace.hops[i].series` in results).
/// `held_bytes`: what the node holds for downstream (its send queue and, with read-ahead, the
/// data it fetched before downstream asked); `in_rate_mbps`: DATA arriving from upstream over the
/// last hop RTT; `out_rate_mbps`: DATA sent downstream over the last `OUT_RATE_WINDOW_MS`.
pub const HOP_TRACE_COLUMNS: [&str; 7] = [
    "advertised_rate_mbps",
    "paced_rate_mbps",
    "queue_pkts",
    "cache_bytes",
    "held_bytes",
    "in_rate_mbps",
    "out_rate_mbps",
];

/// The window over which a node's sending rate downstream is measured for its trace.
pub const OUT_RATE_WINDOW_MS: f64 = 100.0;

/// A node's cache, shared by every flow of one content name that passes the node (multicast,
/// docs/intcp-protocol.md §9: keyed by name and byte range, never by consumer); a flow without a name has its
/// own.
pub type SharedCache = Rc<RefCell<Cache>>;

/// How long a midnode holds a cache miss for a range that another flow of the same name on the
/// same node already requested upstream, before it asks upstream itself.
pub const PIT_LIFETIME: SimDuration = SimDuration::from_millis(1000);

/// Interest aggregation of the flows of one name on one node (a PIT, an extrapolation like the
/// shared cache, docs/intcp-protocol.md §9): a miss for a segment another flow here already requested upstream
/// waits for that DATA instead of being forwarded again.
#[derive(Default)]
pub struct Pit {
    /// Segment start → (when it was requested upstream, by which flow, flows waiting for it).
    pending: std::collections::BTreeMap<u64, (SimTime, u32, Vec<u32>)>,
    /// Segments that arrived for waiting flows, per flow.
    ready: std::collections::BTreeMap<u32, Vec<Segment>>,
}

pub type SharedPit = Rc<RefCell<Pit>>;

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

/// A neighbour on the flow's path.
#[derive(Clone, Copy, Debug)]
pub struct Peer {
    pub node: NodeId,
    pub agent: AgentId,
}

/// The flow's agents on a constellation, whose route changes: a node's neighbours are those on
/// the route in force (`Ctx::route_neighbours`), and this maps their nodes to the flow's agents.
#[derive(Debug)]
pub struct MovingPeers {
    /// The flow's agent on each network node (`AgentId::MAX`: none).
    pub agent_of_node: Vec<AgentId>,
    /// Whether the producer sits at the route's source end (node 0).
    pub producer_at_source: bool,
}

impl MovingPeers {
    fn peer(&self, node: Option<NodeId>) -> Option<Peer> {
        let node = node?;
        let agent = *self.agent_of_node.get(node as usize)?;
        (agent != AgentId::MAX).then_some(Peer { node, agent })
    }
}

enum Peers {
    Fixed { up: Option<Peer>, down: Option<Peer> },
    Moving(Rc<MovingPeers>),
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
    pub cache: Option<SharedCache>,
    pub consumer: Option<Box<Consumer>>,
    pit: Option<SharedPit>,
    /// Segments this midnode waits for from the PIT: start → since when.
    waits: std::collections::BTreeMap<u64, SimTime>,
    tick_at: Option<SimTime>,
    last_flush: SimTime,
    pub stats: NodeStats,
    scratch: Vec<(u64, u64)>,
    segs: Vec<Segment>,
    /// Read-ahead (midnodes with a cache and a hold budget; `readahead.rs`).
    pub ra: Option<ReadAhead>,
    /// DATA bytes sent downstream, and the (time, count) the out rate was last measured from.
    out_bytes: u64,
    out_mark: (SimTime, u64),
    out_rate_mbps: f64,
    /// Over time: the `HOP_TRACE_COLUMNS`.
    pub hop_trace: Trace<7>,
    /// Re-requests this node sent (SeqHoles, and end-to-end timeouts at the consumer): time →
    /// (node, cumulative count).
    pub rtx_trace: Trace<2>,
    rtx_count: u64,
}

fn ms(t: SimTime) -> f64 {
    t.0 as f64 / 1e6
}

impl IntcpNode {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        cfg: IntcpConfig,
        flow: u32,
        role: Role,
        node: NodeId,
        up: Option<Peer>,
        down: Option<Peer>,
        content: Content,
        consumer: Option<Box<Consumer>>,
        cache: Option<SharedCache>,
    ) -> IntcpNode {
        let cache = cache.or_else(|| {
            (role == Role::Midnode && cfg.cache).then(|| Rc::new(RefCell::new(Cache::new(cfg.cache_bytes))))
        });
        let ra = (role == Role::Midnode && cache.is_some() && cfg.hold_budget_bytes > 0).then(|| {
            ReadAhead::new(cfg.mss, cfg.hold_budget_bytes, cfg.lookahead_bytes, cfg.bytes, cfg.cc.target_buffer_bytes)
        });
        IntcpNode {
            ra,
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
            holes: HoleDetector::default(),
            int_sn: 0,
            cache,
            consumer,
            tick_at: None,
            last_flush: SimTime::ZERO,
            stats: NodeStats::default(),
            scratch: Vec::new(),
            segs: Vec::new(),
            pit: None,
            waits: Default::default(),
            hop_trace: Trace::new(2),
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

    /// Finds neighbours on the route in force instead of fixed ones.
    pub fn with_moving_peers(mut self, peers: Rc<MovingPeers>) -> IntcpNode {
        self.peers = Peers::Moving(peers);
        self
    }

    /// The neighbour towards the producer (`upstream`) or the consumer, now.
    fn neighbour(&self, ctx: &Ctx, upstream: bool) -> Option<Peer> {
        match &self.peers {
            Peers::Fixed { up, down } => {
                if upstream {
                    *up
                } else {
                    *down
                }
            }
            Peers::Moving(m) => {
                let (to_source, to_dest) = ctx.route_neighbours(self.node)?;
                m.peer(if upstream == m.producer_at_source { to_source } else { to_dest })
            }
        }
    }

    fn up(&self, ctx: &Ctx) -> Option<Peer> {
        self.neighbour(ctx, true)
    }

    fn down(&self, ctx: &Ctx) -> Option<Peer> {
        self.neighbour(ctx, false)
    }

    /// Joins the interest aggregation of a named flow's node.
    /// Flows of a shared name aggregate their interests in the PIT instead of reading ahead
    /// (each flow reading ahead on its own would fetch the content once per consumer).
    pub fn with_pit(mut self, pit: Option<SharedPit>) -> IntcpNode {
        self.pit = if self.role == Role::Producer { None } else { pit };
        if self.pit.is_some() {
            self.ra = None;
        }
        self
    }

    /// Forwards a cache miss `[start, end)` upstream, except the segments another flow on this
    /// node already asked for (less than `PIT_LIFETIME` ago): those wait for its DATA.
    fn forward_miss(&mut self, ctx: &mut Ctx, start: u64, end: u64) {
        let Some(pit) = self.pit.clone() else {
            self.send_interest(ctx, start, end);
            return;
        };
        let mss = self.cfg.mss as u64;
        let now = ctx.now;
        let mut run: Option<(u64, u64)> = None;
        let mut s = start;
        while s < end {
            let e = (s + mss).min(end);
            let mut p = pit.borrow_mut();
            let wait = match p.pending.get_mut(&s) {
                Some((at, owner, waiters)) if *owner != self.flow && now < *at + PIT_LIFETIME => {
                    if !waiters.contains(&self.flow) {
                        waiters.push(self.flow);
                    }
                    true
                }
                _ => {
                    p.pending.insert(s, (now, self.flow, Vec::new()));
                    false
                }
            };
            drop(p);
            if wait {
                self.waits.entry(s).or_insert(now);
                if let Some((a, b)) = run.take() {
                    self.send_interest(ctx, a, b);
                }
            } else {
                run = Some(run.map_or((s, e), |(a, _)| (a, e)));
            }
            s = e;
        }
        if let Some((a, b)) = run {
            self.send_interest(ctx, a, b);
        }
        if !self.waits.is_empty() {
            self.ensure_tick(ctx);
        }
    }

    /// DATA reached this node: the flows waiting for it get it.
    fn resolve_pit(&mut self, seg: Segment) {
        if let Some(pit) = &self.pit {
            let mut p = pit.borrow_mut();
            if let Some((_, _, waiters)) = p.pending.remove(&seg.start) {
                for w in waiters {
                    p.ready.entry(w).or_default().push(seg);
                }
            }
        }
    }

    /// Serves the segments that arrived for this midnode's waits; re-forwards stale waits.
    fn drain_pit(&mut self, ctx: &mut Ctx) {
        let Some(pit) = self.pit.clone() else { return };
        let ready = pit.borrow_mut().ready.remove(&self.flow).unwrap_or_default();
        for seg in ready {
            if self.waits.remove(&seg.start).is_some() {
                self.stats.cache_served += 1;
                self.enqueue(seg, 0);
            }
        }
        let stale: Vec<u64> =
            self.waits.iter().filter(|(_, &since)| ctx.now >= since + PIT_LIFETIME).map(|(&s, _)| s).collect();
        for s in stale {
            self.waits.remove(&s);
            let seg = self.cache.as_ref().and_then(|c| {
                let mut out = Vec::new();
                c.borrow_mut().read(s, s + self.cfg.mss as u64, &mut out);
                out.first().copied()
            });
            match seg {
                Some(seg) => {
                    self.stats.cache_served += 1;
                    self.enqueue(seg, 0);
                }
                None => {
                    pit.borrow_mut().pending.insert(s, (ctx.now, self.flow, Vec::new()));
                    self.send_interest(ctx, s, s + self.cfg.mss as u64);
                }
            }
        }
    }

    fn record(&mut self, now: SimTime) {
        let adv = if self.role == Role::Producer { 0.0 } else { self.advertised_rate() };
        let paced = if self.role == Role::Consumer { 0.0 } else { self.bucket.rate_mbps };
        let cache = self.cache.as_ref().map_or(0, |c| c.borrow().used());
        let dt = ms(now) - ms(self.out_mark.0);
        if dt >= OUT_RATE_WINDOW_MS {
            self.out_rate_mbps = (self.out_bytes - self.out_mark.1) as f64 * 8.0 / 1e3 / dt;
            self.out_mark = (now, self.out_bytes);
        }
        let inr = if self.role == Role::Producer { 0.0 } else { self.cc.thrp_mbps };
        self.hop_trace.record(
            now,
            [adv, paced, self.snd_queue.len() as f64, cache as f64, self.held_bytes() as f64, inr, self.out_rate_mbps],
        );
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

    /// The rate this node advertises upstream (§5.6). With read-ahead, back-pressure starts only
    /// as the bytes held and read ahead approach the budget: the backpressure term's target
    /// buffer becomes the budget.
    pub fn advertised_rate(&self) -> f64 {
        match (self.role, &self.ra) {
            (Role::Midnode, Some(ra)) => {
                let target = self.cfg.cc.target_buffer_bytes;
                let over = (self.snd_queue_bytes + ra.committed()) as f64 - (ra.budget as f64 - target).max(0.0);
                self.cc.rate_mbps(Some((over, self.bucket.rate_mbps)))
            }
            (Role::Midnode, None) => self.cc.rate_mbps(Some((self.snd_queue_bytes as f64, self.bucket.rate_mbps))),
            _ => self.cc.rate_mbps(None),
        }
    }

    /// A midnode with read-ahead answers `[start, end)` segment by segment: from its cache,
    /// else by waiting for the segment already requested upstream, else by asking upstream.
    fn serve_reading_ahead(&mut self, ctx: &mut Ctx, start: u64, end: u64) {
        let Some(cache) = self.cache.clone() else { return };
        let now_ms = ms(ctx.now);
        let mss = self.cfg.mss as u64;
        if let Some(ra) = &mut self.ra {
            ra.on_downstream_interest(start, end);
        }
        let mut run: Option<(u64, u64)> = None;
        let mut s = start;
        while s < end {
            let e = (s + mss).min(end);
            let mut segs = std::mem::take(&mut self.segs);
            segs.clear();
            cache.borrow_mut().read(s, e, &mut segs);
            let hit = segs.first().copied().filter(|g| g.start == s);
            self.segs = segs;
            let Some(ra) = &mut self.ra else { return };
            if let Some(seg) = hit {
                self.stats.cache_served += 1;
                self.enqueue(seg, 0);
                s = seg.end.max(s + 1);
            } else {
                if !ra.await_inflight(now_ms, s) {
                    ra.requested(now_ms, s, e, true);
                    run = Some(run.map_or((s, e), |(a, _)| (a, e)));
                    s = e;
                    continue;
                }
                s = e;
            }
            if let Some((a, b)) = run.take() {
                self.send_interest(ctx, a, b);
            }
        }
        if let Some((a, b)) = run {
            self.send_interest(ctx, a, b);
        }
        self.ensure_tick(ctx);
    }

    /// The read-ahead requests due now (`readahead.rs`); true while the credit holds some back.
    fn read_ahead(&mut self, ctx: &mut Ctx, dt_ms: f64) -> bool {
        if self.ra.is_none() || self.up(ctx).is_none() {
            return false;
        }
        let rate = self.advertised_rate();
        let now_ms = ms(ctx.now);
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let Some(ra) = &mut self.ra else { return false };
        ra.expire(now_ms);
        let more = ra.due(dt_ms, rate, self.cc.srtt_ms, &mut out);
        for &(a, b) in &out {
            ra.requested(now_ms, a, b, false);
        }
        if let (Some(&(a, _)), Some(&(_, b))) = (out.first(), out.last()) {
            self.send_interest(ctx, a, b);
        }
        self.scratch = out;
        more
    }

    fn send_interest(&mut self, ctx: &mut Ctx, start: u64, end: u64) {
        let Some(up) = self.up(ctx) else { return };
        let rate = encode_rate(self.advertised_rate());
        let mut s = start;
        loop {
            let e = if end == start { end } else { (s + self.cfg.mss as u64).min(end) };
            ctx.send(Packet {
                flow: self.flow,
                dst_node: up.node,
                dst_agent: up.agent,
                size: INTEREST_BYTES,
                body: Body::IntcpInterest { sn: self.int_sn, start: s, end: e, rate, ts: ctx.now },
            });
            self.int_sn += 1;
            self.stats.interests_sent += 1;
            s = e;
            if s >= end {
                break;
            }
        }
        self.cc.last_send_int_ms = ms(ctx.now);
    }

    fn enqueue(&mut self, seg: Segment, wnd: i16) {
        self.snd_queue_bytes += seg.len() + HEADER_BYTES as u64;
        self.stats.max_queue_bytes = self.stats.max_queue_bytes.max(self.snd_queue_bytes);
        self.snd_queue.push_back((seg, wnd));
    }

    /// Answers `[start, end)`: the producer from its content, a midnode from its cache, and
    /// what a midnode does not hold goes upstream.
    fn serve(&mut self, ctx: &mut Ctx, start: u64, end: u64) {
        match self.role {
            Role::Producer => {
                let end = self.cfg.bytes.map_or(end, |b| end.min(b));
                let mut s = start;
                while s < end {
                    let e = (s + self.cfg.mss as u64).min(end);
                    let digest = self.content.digest(s, (e - s) as u32);
                    self.enqueue(Segment { start: s, end: e, digest, first_sent: SimTime::MAX }, 0);
                    s = e;
                }
            }
            Role::Midnode if self.ra.is_some() => self.serve_reading_ahead(ctx, start, end),
            Role::Midnode => {
                let mut pos = start;
                if let Some(cache) = &self.cache {
                    let mut segs = std::mem::take(&mut self.segs);
                    segs.clear();
                    cache.borrow_mut().read(start, end, &mut segs);
                    for &seg in &segs {
                        pos = pos.max(seg.end);
                        self.stats.cache_served += 1;
                        self.enqueue(seg, 0);
                    }
                    self.segs = segs;
                }
                if pos < end {
                    self.forward_miss(ctx, pos, end);
                }
            }
            Role::Consumer => {}
        }
        if !self.snd_queue.is_empty() {
            self.ensure_tick(ctx);
        }
    }

    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: Packet) {
        match pkt.body {
            Body::IntcpInterest { start, end, rate, ts, .. } => {
                if self.role == Role::Consumer {
                    return;
                }
                self.bucket.int_hop_owd_ms = ms(ctx.now) - ms(ts);
                self.bucket.rate_mbps = decode_rate(rate);
                if start < end {
                    self.serve(ctx, start, end);
                }
                self.record(ctx.now);
            }
            Body::IntcpData { sn, start, end, ts, wnd, digest, first_sent } => {
                if self.role == Role::Producer {
                    return;
                }
                let now = ctx.now;
                // Hop sequence numbers are per sender: a new upstream neighbour starts its own.
                let from = self.up(ctx).map(|p| p.node);
                if matches!(self.peers, Peers::Moving(_)) && from != self.data_from {
                    self.data_from = from;
                    self.holes = HoleDetector::default();
                    if let Some(c) = &mut self.consumer {
                        c.new_upstream();
                    }
                }
                let payload = (end - start) as u32;
                self.cc.on_data(ms(now), ms(ts), payload + HEADER_BYTES, payload);
                let seg = Segment { start, end, digest, first_sent };
                let mut lost = std::mem::take(&mut self.scratch);
                lost.clear();
                if let Some(c) = &mut self.consumer {
                    c.on_data(now, sn, seg, wnd, &mut lost);
                    // A consumer on a node that named flows share leaves what it got there.
                    if let Some(cache) = &self.cache {
                        cache.borrow_mut().insert(seg);
                    }
                    self.resolve_pit(seg);
                    for &(a, b) in &lost {
                        self.send_interest(ctx, a, b);
                    }
                    if !lost.is_empty() {
                        self.cc.on_hop_loss(ms(now));
                    }
                    self.record_rtx(now, lost.len() as u64);
                } else {
                    if self.cfg.cache {
                        self.holes.on_data(now, sn, start, end, self.cfg.mss, self.cfg.hole_threshold, &mut lost);
                    }
                    if let Some(cache) = &self.cache {
                        cache.borrow_mut().insert(seg);
                    }
                    self.resolve_pit(seg);
                    match &mut self.ra {
                        Some(ra) => {
                            if wnd != 0 {
                                ra.upstream_headroom = wnd as f64 * self.cfg.mss as f64;
                            }
                            if ra.on_data(start, end) == Arrival::Forward {
                                self.enqueue(seg, 0);
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
                        self.cc.on_hop_loss(ms(now));
                    }
                    self.record_rtx(now, lost.len() as u64);
                    self.ensure_tick(ctx);
                }
                self.scratch = lost;
                if self.cc.refresh_due(ms(now)) {
                    self.send_interest(ctx, 0, 0);
                }
                self.record(now);
            }
            _ => {}
        }
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx, _token: u64) {
        if self.tick_at != Some(ctx.now) {
            return;
        }
        self.tick_at = None;
        let dt_ms = (ms(ctx.now) - ms(self.last_flush)).max(0.0);
        self.last_flush = ctx.now;
        let more;
        if let Some(c) = &mut self.consumer {
            let mut out = std::mem::take(&mut self.scratch);
            out.clear();
            let resends_before = c.stats.timeout_resends;
            let follow = self.cfg.hold_budget_bytes > 0 && self.cfg.cache && self.pit.is_none();
            let follow = follow.then(|| (self.cc.rate_mbps(None), self.cc.srtt_ms));
            c.tick(ctx.now, dt_ms, self.cc.thrp_mbps, follow, &mut out);
            let resent = c.stats.timeout_resends - resends_before;
            c.trace.record(
                ctx.now,
                [
                    c.srtt_ms,
                    c.rto_ms,
                    self.cc.srtt_ms,
                    self.cc.cwnd,
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
            let reading = self.read_ahead(ctx, dt_ms);
            self.flush_data(ctx, dt_ms);
            more = !self.waits.is_empty() || reading;
        }
        self.record(ctx.now);
        if more || !self.snd_queue.is_empty() {
            let at = ctx.now + TICK;
            self.tick_at = Some(at);
            ctx.timer_at(at, 0);
        }
    }

    /// Sends what the token bucket allows from the send queue (§5.7).
    fn flush_data(&mut self, ctx: &mut Ctx, dt_ms: f64) {
        let Some(down) = self.down(ctx) else { return };
        let new_output = self.bucket.refill(dt_ms);
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
            } else if let Some(ra) = &self.ra {
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
            let first_sent = if seg.first_sent == SimTime::MAX { ctx.now } else { seg.first_sent };
            let ts = SimTime::from_secs_f64((ms(ctx.now) - self.bucket.int_hop_owd_ms).max(0.0) / 1e3);
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
                },
            });
            self.data_sn += 1;
            self.stats.data_sent += 1;
            self.out_bytes += seg.len();
        }
        self.bucket.drained(new_output);
    }
}
