//! What a node keeps for INTCP, shared by the flows of one content name that pass it (a slot
//! of the node's state, `net::node_state`): its cache, and its table of pending interests (a
//! PIT, docs/intcp-protocol.md §9), through which a cache miss for a segment that another flow
//! here already requested upstream waits for that DATA instead of being forwarded again. A flow
//! without a name has a store of its own on each midnode, kept with the midnode (`StoreAt::Own`).

use super::{IntcpNode, NodeRole, StoreAt};
use crate::engine::Ctx;
use crate::intcp::cache::{Cache, Segment};
use crate::sim::{SimDuration, SimTime};

/// A node's cache and pending interests.
pub struct NodeContent {
    pub cache: Cache,
    pub pit: Pit,
}

impl NodeContent {
    pub fn new(cache_bytes: u64) -> NodeContent {
        NodeContent { cache: Cache::new(cache_bytes), pit: Pit::default() }
    }
}

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

impl IntcpNode {
    /// Joins the interest aggregation of the flows of its name on its node.
    /// Flows of a shared name aggregate their interests in the PIT instead of reading ahead
    /// (each flow reading ahead on its own would fetch the content once per consumer).
    pub fn aggregating_interests(mut self) -> IntcpNode {
        self.aggregates = self.role.store().is_some();
        if let (true, NodeRole::Midnode(m)) = (self.aggregates, &mut self.role) {
            m.ra = None;
        }
        self
    }

    /// This node's store, reached through the node (the agent keeps only its slot).
    pub(super) fn store<'c>(&'c mut self, ctx: &'c mut Ctx) -> Option<&'c mut NodeContent> {
        match self.role.store_mut()? {
            StoreAt::Own(content) => Some(content),
            &mut StoreAt::Shared(slot) => Some(ctx.node_state::<NodeContent>(slot)),
        }
    }

    /// The store's pending interests, when this node aggregates them (flows of a name, whose
    /// store is the node's shared one).
    fn pit<'c>(&self, ctx: &'c mut Ctx) -> Option<&'c mut Pit> {
        match self.role.store() {
            Some(&StoreAt::Shared(slot)) if self.aggregates => Some(&mut ctx.node_state::<NodeContent>(slot).pit),
            _ => None,
        }
    }

    /// Forwards a cache miss `[start, end)` upstream, except the segments another flow on this
    /// node already asked for (less than `PIT_LIFETIME` ago): those wait for its DATA.
    pub(super) fn forward_miss(&mut self, ctx: &mut Ctx, start: u64, end: u64) {
        if self.pit(ctx).is_none() {
            self.send_interest(ctx, start, end);
            return;
        }
        let mss = self.cfg.mss as u64;
        let now = ctx.now;
        let mut run: Option<(u64, u64)> = None;
        let mut s = start;
        while s < end {
            let e = (s + mss).min(end);
            let p = self.pit(ctx).expect("checked above");
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
            if wait {
                if let Some(waits) = self.role.waits_mut() {
                    waits.entry(s).or_insert(now);
                }
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
        if self.role.waits_mut().is_some_and(|w| !w.is_empty()) {
            self.ensure_tick(ctx);
        }
    }

    /// DATA reached this node: the flows waiting for it get it.
    pub(super) fn resolve_pit(&mut self, ctx: &mut Ctx, seg: Segment) {
        if let Some(p) = self.pit(ctx) {
            if let Some((_, _, waiters)) = p.pending.remove(&seg.start) {
                for w in waiters {
                    p.ready.entry(w).or_default().push(seg);
                }
            }
        }
    }

    /// Serves the segments that arrived for this midnode's waits; re-forwards stale waits.
    pub(super) fn drain_pit(&mut self, ctx: &mut Ctx) {
        let flow = self.flow;
        let Some(pit) = self.pit(ctx) else { return };
        let ready = pit.ready.remove(&flow).unwrap_or_default();
        for seg in ready {
            if self.role.waits_mut().is_some_and(|w| w.remove(&seg.start).is_some()) {
                self.stats.cache_served += 1;
                self.enqueue(seg, 0);
            }
        }
        let Some(waits) = self.role.waits_mut() else { return };
        let stale: Vec<u64> =
            waits.iter().filter(|(_, &since)| ctx.now >= since + PIT_LIFETIME).map(|(&s, _)| s).collect();
        for s in stale {
            if let Some(waits) = self.role.waits_mut() {
                waits.remove(&s);
            }
            let mss = self.cfg.mss as u64;
            let seg = self.store(ctx).and_then(|c| {
                let mut out = Vec::new();
                c.cache.read(s, s + mss, &mut out);
                out.first().copied()
            });
            match seg {
                Some(seg) => {
                    self.stats.cache_served += 1;
                    self.enqueue(seg, 0);
                }
                None => {
                    let now = ctx.now;
                    if let Some(pit) = self.pit(ctx) {
                        pit.pending.insert(s, (now, flow, Vec::new()));
                    }
                    self.send_interest(ctx, s, s + self.cfg.mss as u64);
                }
            }
        }
    }
}
