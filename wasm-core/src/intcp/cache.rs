//! A node's cache (docs/intcp-protocol.md §8): byte ranges of a flow's data, bounded in payload bytes, evicted
//! least-recently-used first.
//!
//! The authors' cache keeps 4096-byte blocks with up to 100 sub-ranges each. Here the unit is the
//! DATA segment as it arrived (its range, the digest of its bytes and when the producer first
//! sent it), so that bytes served from a cache are checked at the consumer like any others.
//! Segments are 1-MSS aligned (interests are cut at MSS boundaries from offset 0, §6.2), so a
//! read walks whole segments. As in the code: a read returns the contiguous prefix present from
//! the requested start and stops at the first gap (§8 "Read"); a read moves the segments it
//! returns to the most-recently-used end; inserting an already cached range does not.

use crate::sim::SimTime;
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, VecDeque};

/// One stored segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub start: u64,
    pub end: u64,
    pub digest: u64,
    pub first_sent: SimTime,
}

impl Segment {
    pub fn len(&self) -> u64 {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

pub struct Cache {
    capacity: u64,
    used: u64,
    /// start → (segment, LRU stamp).
    segs: BTreeMap<u64, (Segment, u64)>,
    /// (LRU stamp, start) in stamp order, the oldest evicted first. A read stamps its segment
    /// anew and appends it rather than moving it (two tree operations per segment fewer), so
    /// entries whose stamp is no longer their segment's are stale and skipped.
    lru: VecDeque<(u64, u64)>,
    next_stamp: u64,
    pub hits: u64,
    pub misses: u64,
    pub evictions: u64,
}

impl Cache {
    pub fn new(capacity_bytes: u64) -> Cache {
        Cache {
            capacity: capacity_bytes,
            used: 0,
            segs: BTreeMap::new(),
            lru: VecDeque::new(),
            next_stamp: 0,
            hits: 0,
            misses: 0,
            evictions: 0,
        }
    }

    pub fn capacity(&self) -> u64 {
        self.capacity
    }
    /// Payload bytes held; never more than the capacity.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// Stores a segment. A segment overlapping a stored one is not stored (the stored bytes
    /// are the same), nor one larger than the whole cache; otherwise least-recently-used
    /// segments are evicted until it fits.
    pub fn insert(&mut self, seg: Segment) {
        if seg.is_empty() || seg.len() > self.capacity {
            return;
        }
        // Stored segments do not overlap, so the last one ends last: a segment past its end
        // (data arriving in order) overlaps nothing without a search.
        let after_all = self.segs.last_key_value().is_none_or(|(_, (last, _))| last.end <= seg.start);
        let overlaps_before =
            !after_all && self.segs.range(..seg.end).next_back().is_some_and(|(_, (s, _))| s.end > seg.start);
        if overlaps_before {
            return;
        }
        while self.used + seg.len() > self.capacity {
            let Some((stamp, start)) = self.lru.pop_front() else { break };
            if let Entry::Occupied(e) = self.segs.entry(start) {
                if e.get().1 == stamp {
                    let (old, _) = e.remove();
                    self.used -= old.len();
                    self.evictions += 1;
                }
            }
        }
        let stamp = self.stamp();
        self.lru.push_back((stamp, seg.start));
        self.segs.insert(seg.start, (seg, stamp));
        self.used += seg.len();
        self.compact_lru();
    }

    /// Drops the stale LRU entries once they outnumber the live ones, so that reads of a cache
    /// that never evicts keep its memory bounded.
    fn compact_lru(&mut self) {
        if self.lru.len() > 2 * self.segs.len() + 64 {
            let segs = &self.segs;
            self.lru.retain(|&(stamp, start)| segs.get(&start).is_some_and(|&(_, s)| s == stamp));
        }
    }

    fn stamp(&mut self) -> u64 {
        self.next_stamp += 1;
        self.next_stamp
    }

    /// The segments covering the contiguous prefix of `[start, end)` present in the cache, in
    /// order; each one returned becomes the most recently used.
    pub fn read(&mut self, start: u64, end: u64, out: &mut Vec<Segment>) {
        let mut pos = start;
        // An interest ahead of the data (the common miss on a path) asks past the last segment:
        // a miss without a search.
        let past_all = self.segs.last_key_value().is_none_or(|(_, (last, _))| last.end <= start);
        while pos < end && !past_all {
            let Some((seg, stamp)) = self.segs.get_mut(&pos) else { break };
            self.next_stamp += 1;
            *stamp = self.next_stamp;
            self.lru.push_back((*stamp, pos));
            out.push(*seg);
            pos = seg.end;
        }
        self.compact_lru();
        if pos > start {
            self.hits += 1;
        } else {
            self.misses += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(start: u64, end: u64) -> Segment {
        Segment { start, end, digest: start ^ end, first_sent: SimTime::ZERO }
    }

    #[test]
    fn a_read_returns_the_contiguous_prefix_and_stops_at_a_gap() {
        let mut c = Cache::new(10_000);
        c.insert(seg(0, 100));
        c.insert(seg(100, 200));
        c.insert(seg(300, 400));
        let mut out = Vec::new();
        c.read(0, 400, &mut out);
        assert_eq!(out, vec![seg(0, 100), seg(100, 200)]);
        out.clear();
        c.read(200, 400, &mut out);
        assert!(out.is_empty());
        assert_eq!((c.hits, c.misses), (1, 1));
    }

    #[test]
    fn the_least_recently_read_segment_is_evicted_first() {
        let mut c = Cache::new(300);
        c.insert(seg(0, 100));
        c.insert(seg(100, 200));
        c.insert(seg(200, 300));
        let mut out = Vec::new();
        c.read(0, 100, &mut out); // 0 is now the most recently used; 100 the least
        c.insert(seg(300, 400));
        assert_eq!(c.used(), 300);
        out.clear();
        c.read(100, 200, &mut out);
        assert!(out.is_empty(), "segment 100 should have been evicted");
        out.clear();
        c.read(0, 100, &mut out);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn reads_of_a_full_cache_keep_its_eviction_order_and_its_lru_bounded() {
        let mut c = Cache::new(300);
        c.insert(seg(0, 100));
        c.insert(seg(100, 200));
        c.insert(seg(200, 300));
        let mut out = Vec::new();
        for _ in 0..500 {
            c.read(100, 300, &mut out);
            c.read(0, 100, &mut out);
        }
        assert!(c.lru.len() <= 2 * 3 + 64, "{} LRU entries for 3 segments", c.lru.len());
        // 100 was read before 0 in every round, so it goes first, then 200.
        c.insert(seg(300, 400));
        c.insert(seg(400, 500));
        out.clear();
        c.read(0, 500, &mut out);
        assert_eq!(out, vec![seg(0, 100)]);
        out.clear();
        c.read(300, 500, &mut out);
        assert_eq!(out, vec![seg(300, 400), seg(400, 500)]);
        assert_eq!(c.evictions, 2);
    }

    #[test]
    fn a_zero_capacity_cache_stores_nothing_and_duplicates_are_not_stored_twice() {
        let mut c = Cache::new(0);
        c.insert(seg(0, 100));
        assert_eq!(c.used(), 0);
        let mut c = Cache::new(1000);
        c.insert(seg(0, 100));
        c.insert(seg(0, 100));
        c.insert(seg(50, 150));
        assert_eq!(c.used(), 100);
    }

    #[test]
    fn usage_never_exceeds_capacity() {
        let mut c = Cache::new(1000);
        let mut x = 7u64;
        for _ in 0..2000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let k = (x >> 33) % 64;
            let len = 1 + (x >> 20) % 300;
            c.insert(seg(k * 300, k * 300 + len));
            assert!(c.used() <= c.capacity());
            let mut out = Vec::new();
            c.read((x >> 40) % 64 * 300, 64 * 300, &mut out);
        }
    }
}
