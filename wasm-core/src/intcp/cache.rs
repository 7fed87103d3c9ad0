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
use std::collections::BTreeMap;

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
    /// LRU stamp → start; the smallest stamp is evicted first.
    lru: BTreeMap<u64, u64>,
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
            lru: BTreeMap::new(),
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
        let overlaps_before = self.segs.range(..seg.end).next_back().is_some_and(|(_, (s, _))| s.end > seg.start);
        if overlaps_before {
            return;
        }
        while self.used + seg.len() > self.capacity {
            let Some((_, start)) = self.lru.pop_first() else { break };
            if let Some((old, _)) = self.segs.remove(&start) {
                self.used -= old.len();
                self.evictions += 1;
            }
        }
        let stamp = self.stamp();
        self.lru.insert(stamp, seg.start);
        self.segs.insert(seg.start, (seg, stamp));
        self.used += seg.len();
    }

    fn stamp(&mut self) -> u64 {
        self.next_stamp += 1;
        self.next_stamp
    }

    /// The segments covering the contiguous prefix of `[start, end)` present in the cache, in
    /// order; each one returned becomes the most recently used.
    pub fn read(&mut self, start: u64, end: u64, out: &mut Vec<Segment>) {
        let mut pos = start;
        while pos < end {
            let Some(&(seg, old)) = self.segs.get(&pos) else { break };
            let stamp = self.stamp();
            self.lru.remove(&old);
            self.lru.insert(stamp, pos);
            self.segs.insert(pos, (seg, stamp));
            out.push(seg);
            pos = seg.end;
        }
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
