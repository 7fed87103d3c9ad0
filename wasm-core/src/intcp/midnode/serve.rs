//! How a node answers an INTEREST for a byte range: the producer from its content, a midnode
//! from its cache (forwarding what it lacks upstream), and a midnode that reads ahead segment
//! by segment, waiting for what it already requested (`readahead.rs`).

use super::{IntcpNode, NodeRole};
use crate::engine::Ctx;
use crate::intcp::cache::Segment;
use crate::intcp::rate_encoding::encode_rate;
use crate::intcp::{HEADER_BYTES, INTEREST_BYTES};
use crate::net::{Body, Packet};
use crate::sim::{SimDuration, SimTime};

impl IntcpNode {
    /// Answers `[start, end)`: the producer from its content, a midnode from its cache, and
    /// what a midnode does not hold goes upstream.
    pub(super) fn serve(&mut self, ctx: &mut Ctx, start: u64, end: u64) {
        match &self.role {
            NodeRole::Producer { content } => {
                let content = *content;
                let end = self.cfg.bytes.map_or(end, |b| end.min(b));
                let mut s = start;
                while s < end {
                    let e = (s + self.cfg.mss as u64).min(end);
                    let digest = content.digest(s, (e - s) as u32);
                    self.enqueue(Segment { start: s, end: e, digest, first_sent: SimTime::MAX }, 0);
                    s = e;
                }
            }
            NodeRole::Midnode(m) if m.ra.is_some() => self.serve_reading_ahead(ctx, start, end),
            NodeRole::Midnode(_) => {
                let mut pos = start;
                let mut segs = std::mem::take(&mut self.segs);
                segs.clear();
                if let Some(store) = self.store(ctx) {
                    store.cache.read(start, end, &mut segs);
                }
                for &seg in &segs {
                    pos = pos.max(seg.end);
                    self.stats.cache_served += 1;
                    self.enqueue(seg, 0);
                }
                self.segs = segs;
                if pos < end {
                    self.forward_miss(ctx, pos, end);
                }
            }
            NodeRole::Consumer { .. } => {}
        }
        if !self.snd_queue.is_empty() {
            self.ensure_tick(ctx);
        }
    }

    /// A midnode with read-ahead answers `[start, end)` segment by segment: from its cache,
    /// else by waiting for the segment already requested upstream, else by asking upstream.
    pub(super) fn serve_reading_ahead(&mut self, ctx: &mut Ctx, start: u64, end: u64) {
        if self.role.store().is_none() {
            return;
        }
        let now = ctx.now;
        let mss = self.cfg.mss as u64;
        if let Some(ra) = self.role.read_ahead_mut() {
            ra.on_downstream_interest(start, end);
        }
        self.ensure_gate_timer(ctx);
        let mut run: Option<(u64, u64)> = None;
        let mut s = start;
        while s < end {
            let e = (s + mss).min(end);
            let mut segs = std::mem::take(&mut self.segs);
            segs.clear();
            self.store(ctx).expect("checked above").cache.read(s, e, &mut segs);
            let hit = segs.first().copied().filter(|g| g.start == s);
            self.segs = segs;
            let Some(ra) = self.role.read_ahead_mut() else { return };
            if let Some(seg) = hit {
                self.stats.cache_served += 1;
                self.enqueue(seg, 0);
                s = seg.end.max(s + 1);
            } else {
                if !ra.await_inflight(now, s) {
                    ra.requested(now, s, e, true);
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
        // An idle tick costs the token bucket its credit, so a node that does not read ahead
        // ticks only for data to send, as without read-ahead.
        if !self.snd_queue.is_empty() || self.role.read_ahead().is_some_and(|ra| ra.reading()) {
            self.ensure_tick(ctx);
        }
    }

    /// The read-ahead requests due now (`readahead.rs`); true while the credit holds some back.
    pub(super) fn read_ahead(&mut self, ctx: &mut Ctx, dt: SimDuration) -> bool {
        if self.role.read_ahead().is_none() || self.up(ctx).is_none() {
            return false;
        }
        let rate = self.advertised_rate();
        let now = ctx.now;
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let Some(ra) = self.role.read_ahead_mut() else { return false };
        ra.expire(now);
        let more = ra.due(dt, rate, self.cc.srtt(), &mut out);
        for &(a, b) in &out {
            ra.requested(now, a, b, false);
        }
        if let (Some(&(a, _)), Some(&(_, b))) = (out.first(), out.last()) {
            self.send_interest(ctx, a, b);
        }
        self.scratch = out;
        more
    }

    pub(super) fn send_interest(&mut self, ctx: &mut Ctx, start: u64, end: u64) {
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
        self.cc.last_send_int = ctx.now;
    }

    pub(super) fn enqueue(&mut self, seg: Segment, wnd: i16) {
        self.snd_queue_bytes += seg.len() + HEADER_BYTES as u64;
        self.stats.max_queue_bytes = self.stats.max_queue_bytes.max(self.snd_queue_bytes);
        self.snd_queue.push_back((seg, wnd));
    }
}
