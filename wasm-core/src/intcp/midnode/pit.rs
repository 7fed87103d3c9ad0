//! Interest aggregation of the flows of one content name on one node (a PIT,
//! docs/intcp-protocol.md §9): a cache miss for a segment that another flow here already
//! requested upstream waits for that DATA instead of being forwarded again.

use super::{IntcpNode, Role};
use crate::engine::Ctx;
use crate::intcp::cache::Segment;
use crate::sim::{SimDuration, SimTime};
use std::cell::RefCell;
use std::rc::Rc;

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

impl IntcpNode {
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
    pub(super) fn forward_miss(&mut self, ctx: &mut Ctx, start: u64, end: u64) {
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
    pub(super) fn resolve_pit(&mut self, seg: Segment) {
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
    pub(super) fn drain_pit(&mut self, ctx: &mut Ctx) {
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
}
