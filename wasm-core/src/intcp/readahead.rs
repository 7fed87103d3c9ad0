//! Read-ahead at a midnode: the cache absorbing bandwidth swings between hops (INTCP paper §II
//! and Fig. 5(a): "the cache on the router can store the data from ground when GSL bandwidth is
//! low, and sends them out when GSL bandwidth is high").
//!
//! The authors' code cannot do this (docs/intcp-protocol.md §6.4–§6.5): a midnode asks upstream only for what
//! its downstream asked, at once, and its back-pressure term throttles the upstream hop to the
//! downstream hop's rate as soon as 7 MSS wait in its send queue; so the upstream hop follows
//! the slowest hop at every moment, as end-to-end transport does. That stays available as the
//! budget 0 (`hold_budget_bytes: 0`).
//!
//! With a budget, a midnode keeps requesting from upstream at its upstream hop's own rate (the
//! rate its requester side advertises, plus the correction that keeps the upstream responder's
//! send queue at its target, as the consumer's credit does, §5.8), up to `lookahead` bytes past
//! the highest byte its downstream asked for, and holds what arrives until downstream asks for
//! it. Back-pressure applies only when the held bytes reach the budget. Held data sits in the
//! node's cache (so a cache smaller than the budget limits it). What this tracks:
//!
//! - `inflight`: segments requested upstream and not yet arrived, each marked *wanted* once
//!   downstream has asked for it (it then goes down as soon as it arrives, instead of being
//!   requested twice); a downstream request for an entry older than `INFLIGHT_EXPIRY` goes
//!   upstream again, so a lost interest costs one downstream re-request, never a stuck segment,
//!   and a read-ahead entry that old is dropped;
//! - `held`: segments that arrived before downstream asked for them;
//! - the node's *debt* to downstream (`wanted_bytes` plus its send queue), which a responder
//!   reports on its DATA as the headroom below its target buffer, in place of the producer's
//!   send-queue headroom of the code (§2.2 `wnd`), so its requester can keep it fed.

use super::swing::SwingGate;
use super::BYTES_PER_S_PER_MBPS;
use crate::sim::{SimDuration, SimTime};
use std::collections::BTreeMap;

/// Requests in flight stay within this many of the upstream hop's bandwidth-delay products...
const INFLIGHT_BDPS: f64 = 2.0;
/// ...plus this many segments (docs/intcp-caching.md, "Read-ahead": orbitcp's choices).
const INFLIGHT_EXTRA_SEGMENTS: f64 = 4.0;

/// How long an upstream request stays outstanding before a downstream request for the same
/// bytes is forwarded again (the consumer's RTO re-asks after at most its backoff; a second is
/// well beyond a hop RTT plus the upstream responder's paced queue).
pub const INFLIGHT_EXPIRY: SimDuration = SimDuration::from_millis(1000);

#[derive(Clone, Copy, Debug)]
struct Inflight {
    end: u64,
    sent: SimTime,
    wanted: bool,
}

/// What to do with a DATA segment that arrived from upstream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Downstream asked for it: send it on.
    Forward,
    /// Arrived ahead of downstream's requests: keep it (in the cache) until asked.
    Hold,
    /// A copy nobody waits for (downstream already had it, or a late duplicate): cache only.
    Drop,
}

#[derive(Clone, Debug)]
pub struct ReadAhead {
    mss: u64,
    /// Payload bytes this node may hold for downstream before back-pressure applies.
    pub budget: u64,
    /// How far past the highest byte downstream asked for this node may request.
    pub lookahead: u64,
    /// The flow's length, if known: nothing at or beyond it is requested.
    limit: u64,
    /// One past the highest byte downstream asked for.
    pub down_next: u64,
    /// One past the highest byte this node requested upstream.
    pub up_next: u64,
    inflight: BTreeMap<u64, Inflight>,
    pub inflight_bytes: u64,
    /// Bytes of `inflight` that downstream already asked for.
    pub wanted_bytes: u64,
    /// Arrived ahead of downstream's requests: start → end.
    held: BTreeMap<u64, u64>,
    pub held_bytes: u64,
    /// Request credit, bytes.
    pub credit: f64,
    /// Headroom the upstream responder last reported below its target buffer, bytes.
    pub upstream_headroom: f64,
    /// When this node reads ahead (`swing.rs`); none: whenever the budget allows.
    pub gate: Option<SwingGate>,
}

impl ReadAhead {
    pub fn new(mss: u32, budget: u64, lookahead: u64, limit: Option<u64>, target_buffer_bytes: f64) -> ReadAhead {
        ReadAhead {
            mss: mss as u64,
            budget,
            lookahead,
            limit: limit.unwrap_or(u64::MAX),
            down_next: 0,
            up_next: 0,
            inflight: BTreeMap::new(),
            inflight_bytes: 0,
            wanted_bytes: 0,
            held: BTreeMap::new(),
            held_bytes: 0,
            credit: target_buffer_bytes,
            upstream_headroom: target_buffer_bytes,
            gate: None,
        }
    }

    /// Reads ahead only while the downstream hop swings (`swing.rs`).
    pub fn gated(mut self) -> ReadAhead {
        self.gate = Some(SwingGate::new(SimTime::ZERO, self.mss as u32));
        self
    }

    /// Whether this node reads ahead now. While it does not, it fetches only what downstream
    /// asks for (its held bytes leave as downstream asks for them), as the authors' code does.
    pub fn reading(&self) -> bool {
        self.gate.as_ref().is_none_or(|g| g.is_open())
    }

    /// Closes the gate's bins that ended by `now` (`swing.rs`).
    pub fn update_gate(&mut self, now: SimTime) {
        let (asked, held) = (self.down_next, self.held_bytes);
        if let Some(g) = &mut self.gate {
            g.update(now, asked, held);
        }
    }

    /// Downstream asked for `[start, end)`: its held segments are no longer ahead.
    pub fn on_downstream_interest(&mut self, start: u64, end: u64) {
        self.down_next = self.down_next.max(end);
        let keys: Vec<u64> = self.held.range(..end).rev().take_while(|(_, &e)| e > start).map(|(&s, _)| s).collect();
        for s in keys {
            if let Some(e) = self.held.remove(&s) {
                self.held_bytes -= e - s;
            }
        }
    }

    /// A segment downstream asked for and the cache does not hold: true if this node read it
    /// ahead and it is on its way (now marked wanted), false if it must be requested upstream
    /// (`requested` then records it as wanted). Downstream asking again for a segment it already
    /// asked for is a re-request (a timeout or a hole it found): that goes upstream again, as
    /// without read-ahead, since the segment may have been lost before it reached this node.
    pub fn await_inflight(&mut self, now: SimTime, start: u64) -> bool {
        match self.inflight.get_mut(&start) {
            Some(f) if !f.wanted && now.saturating_since(f.sent) < INFLIGHT_EXPIRY => {
                f.wanted = true;
                self.wanted_bytes += f.end - start;
                true
            }
            _ => false,
        }
    }

    /// This node requested `[start, end)` upstream (one segment).
    pub fn requested(&mut self, now: SimTime, start: u64, end: u64, wanted: bool) {
        self.remove_inflight(start);
        self.inflight.insert(start, Inflight { end, sent: now, wanted });
        self.inflight_bytes += end - start;
        if wanted {
            self.wanted_bytes += end - start;
        }
        self.up_next = self.up_next.max(end);
    }

    fn remove_inflight(&mut self, start: u64) -> Option<Inflight> {
        let f = self.inflight.remove(&start)?;
        self.inflight_bytes -= f.end - start;
        if f.wanted {
            self.wanted_bytes -= f.end - start;
        }
        Some(f)
    }

    /// DATA `[start, end)` arrived from upstream.
    pub fn on_data(&mut self, start: u64, end: u64) -> Arrival {
        match self.remove_inflight(start) {
            Some(f) if f.wanted => Arrival::Forward,
            _ if start < self.down_next => Arrival::Drop,
            _ => {
                if let std::collections::btree_map::Entry::Vacant(v) = self.held.entry(start) {
                    v.insert(end);
                    self.held_bytes += end - start;
                }
                Arrival::Hold
            }
        }
    }

    /// Drops read-ahead requests outstanding for `INFLIGHT_EXPIRY` or longer. A request that
    /// downstream asked for stays until its data arrives (a late segment is still sent on, as
    /// without read-ahead); downstream asking again after the expiry sends it upstream again.
    pub fn expire(&mut self, now: SimTime) {
        let old: Vec<u64> = self
            .inflight
            .iter()
            .filter(|(_, f)| !f.wanted && now.saturating_since(f.sent) >= INFLIGHT_EXPIRY)
            .map(|(&s, _)| s)
            .collect();
        for s in old {
            self.remove_inflight(s);
        }
    }

    /// Bytes counted against the budget: held, plus requested ahead and not yet arrived.
    pub fn committed(&self) -> u64 {
        self.held_bytes + (self.inflight_bytes - self.wanted_bytes)
    }

    /// The read-ahead requests due after `dt`, at `rate_mbps` (the upstream hop's rate) over a
    /// hop RTT of `srtt` (none before the first sample: nothing is due): segments from `up_next`
    /// on, while the credit, the budget, the lookahead and the flow's length allow and the requests in flight stay within twice the
    /// hop's bandwidth-delay product (plus 4 segments). Returns whether only the credit held
    /// requests back (so the next tick may send more); otherwise only an arrival or a
    /// downstream request can free the way.
    pub fn due(
        &mut self,
        dt: SimDuration,
        rate_mbps: f64,
        srtt: Option<SimDuration>,
        out: &mut Vec<(u64, u64)>,
    ) -> bool {
        if !self.reading() {
            self.credit = self.credit.min(self.mss as f64);
            return false;
        }
        let Some(srtt) = srtt.filter(|_| self.budget > 0) else {
            return false;
        };
        let (srtt_s, per_s) = (srtt.as_secs_f64(), rate_mbps * BYTES_PER_S_PER_MBPS);
        let new_output = (per_s + self.upstream_headroom / srtt_s).max(0.0) * dt.as_secs_f64();
        self.credit += new_output;
        let window = INFLIGHT_BDPS * per_s * srtt_s + INFLIGHT_EXTRA_SEGMENTS * self.mss as f64;
        let mut by_credit = false;
        while self.up_next < self.limit {
            let end = (self.up_next + self.mss).min(self.limit);
            let len = end - self.up_next;
            if self.committed() + len > self.budget
                || end > self.down_next.saturating_add(self.lookahead)
                || (self.inflight_bytes + len) as f64 > window
            {
                break;
            }
            if self.credit < len as f64 {
                by_credit = true;
                break;
            }
            self.credit -= len as f64;
            out.push((self.up_next, end));
            self.up_next = end;
        }
        if !by_credit {
            self.credit = self.credit.min(new_output.max(self.mss as f64));
        }
        by_credit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    fn ra(budget: u64) -> ReadAhead {
        ReadAhead::new(MSS, budget, u64::MAX, None, 0.0)
    }

    fn ms(x: f64) -> SimDuration {
        SimDuration::from_secs_f64(x / 1e3)
    }

    fn at(x: f64) -> SimTime {
        SimTime::ZERO + ms(x)
    }

    fn request_due(r: &mut ReadAhead, now: f64, dt: f64, rate: f64) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        r.due(ms(dt), rate, Some(ms(10.0)), &mut out);
        for &(a, b) in &out {
            r.requested(at(now), a, b, false);
        }
        out
    }

    #[test]
    fn requests_follow_the_upstream_rate_and_stop_at_the_budget() {
        let mut r = ra(20_000);
        // 8 Mbit/s = 1000 bytes per ms: one segment per ms.
        let mut sent = 0;
        for t in 0..5 {
            sent += request_due(&mut r, t as f64, 1.0, 8.0).len();
        }
        assert_eq!(sent, 5);
        // Everything arrives and is held; the budget (20 segments) stops the requests.
        for t in 5..100 {
            let got: Vec<u64> = r.inflight.keys().copied().collect();
            for s in got {
                assert_eq!(r.on_data(s, s + 1000), Arrival::Hold);
            }
            request_due(&mut r, t as f64, 1.0, 8.0);
        }
        assert_eq!(r.committed(), 20_000);
        assert!(r.held_bytes <= 20_000 && r.held_bytes >= 18_000, "{}", r.held_bytes);
        // Downstream asks for the first 5: they leave the budget and 5 more may be requested.
        r.on_downstream_interest(0, 5000);
        assert_eq!(r.committed(), 15_000);
        assert!(!request_due(&mut r, 100.0, 10.0, 8.0).is_empty());
    }

    #[test]
    fn a_segment_downstream_asks_for_while_in_flight_is_forwarded_once_on_arrival() {
        let mut r = ra(100_000);
        request_due(&mut r, 0.0, 3.0, 8.0);
        assert_eq!(r.up_next, 3000);
        r.on_downstream_interest(1000, 2000);
        assert!(r.await_inflight(at(1.0), 1000));
        assert_eq!(r.wanted_bytes, 1000);
        assert!(!r.await_inflight(at(1.5), 1000), "asking again is a re-request, which goes upstream");
        r.requested(at(1.5), 1000, 2000, true);
        assert_eq!(r.wanted_bytes, 1000, "and counts once");
        assert_eq!(r.on_data(1000, 2000), Arrival::Forward);
        assert_eq!(r.on_data(1000, 2000), Arrival::Drop, "a late duplicate is not sent again");
        assert_eq!(r.on_data(2000, 3000), Arrival::Hold);
        assert_eq!((r.wanted_bytes, r.inflight_bytes, r.held_bytes), (0, 1000, 1000));
    }

    #[test]
    fn a_stale_request_is_forgotten_so_downstream_can_ask_again() {
        let mut r = ra(100_000);
        request_due(&mut r, 0.0, 1.0, 8.0);
        assert!(!r.await_inflight(SimTime::ZERO + INFLIGHT_EXPIRY, 0));
        r.expire(SimTime::ZERO + INFLIGHT_EXPIRY);
        assert_eq!(r.inflight_bytes, 0);
    }

    #[test]
    fn a_late_segment_downstream_asked_for_is_still_sent_on() {
        let mut r = ra(100_000);
        r.on_downstream_interest(0, 1000);
        r.requested(at(0.0), 0, 1000, true);
        r.expire(at(5000.0));
        assert_eq!(r.wanted_bytes, 1000, "a wanted request does not expire");
        assert!(!r.await_inflight(at(5000.0), 0), "asked again, it goes upstream again");
        r.requested(at(5000.0), 0, 1000, true);
        assert_eq!(r.on_data(0, 1000), Arrival::Forward);
        assert_eq!(r.on_data(0, 1000), Arrival::Drop, "the second copy is not");
        assert_eq!((r.wanted_bytes, r.inflight_bytes), (0, 0));
    }

    #[test]
    fn budget_zero_never_reads_ahead_and_the_lookahead_and_length_bound_the_frontier() {
        let mut r = ra(0);
        assert!(request_due(&mut r, 0.0, 100.0, 100.0).is_empty());
        let mut r = ReadAhead::new(MSS, 1 << 30, 3000, Some(10_500), 0.0);
        assert_eq!(request_due(&mut r, 0.0, 100.0, 100.0).len(), 3);
        r.on_downstream_interest(0, 9000);
        let out = request_due(&mut r, 1.0, 100.0, 100.0);
        assert_eq!(out.last(), Some(&(10_000, 10_500)), "the last segment is cut at the flow's end");
    }
}
