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
use std::collections::VecDeque;

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

/// Where a stored segment lies, in 16 bytes: what an insert reads to find and evict the least
/// recently used segment, from slots written thousands of inserts before (a node's cache holds
/// thousands). The fewer bytes, the fewer of those reads miss the CPU's caches; what the
/// segment carries is apart, in `Content`, read only when the segment is. `stamp` is the LRU
/// stamp, `EVICTED` for a segment evicted in place; its top bit (`IN_LRU`) marks a segment
/// whose stamp is in the LRU queue.
#[derive(Clone, Copy, Debug)]
struct Slot {
    start: u64,
    len: u32,
    stamp: u32,
}

/// What a stored segment carries besides its range.
#[derive(Clone, Copy, Debug)]
struct Content {
    digest: u64,
    first_sent: SimTime,
}

/// Stamp of an evicted slot; live stamps start at 1.
const EVICTED: u32 = 0;
/// A slot's stamp is in the LRU queue: the slot was read, or stored before its last slot.
const IN_LRU: u32 = 1 << 31;
/// Stamps stay below `IN_LRU`; at the limit the live ones are numbered anew, in their order.
const STAMP_LIMIT: u32 = IN_LRU - 1;

impl Slot {
    fn new(seg: &Segment, stamp: u32) -> Slot {
        // The length fits: a segment is at most one packet, whose size is a u32.
        Slot { start: seg.start, len: seg.len() as u32, stamp }
    }
    fn live(&self) -> bool {
        self.stamp != EVICTED
    }
    /// Live, and in stamp order with the other such slots (`Cache::cursor`).
    fn in_order(&self) -> bool {
        self.live() && self.stamp & IN_LRU == 0
    }
    fn lru_stamp(&self) -> u32 {
        self.stamp & !IN_LRU
    }
    fn end(&self) -> u64 {
        self.start + self.len as u64
    }
    fn seg(&self, content: &Content) -> Segment {
        Segment { start: self.start, end: self.end(), digest: content.digest, first_sent: content.first_sent }
    }
}

pub struct Cache {
    capacity: u64,
    used: u64,
    /// The segments in order of start. Data arrives mostly in order and leaves mostly oldest
    /// first, so a sorted deque appends and evicts at its ends, where a tree would search
    /// (it was a quarter of an INTCP run's time as a `BTreeMap`). A segment evicted from the
    /// middle stays as an `EVICTED` slot, keeping the order, until the evicted slots outnumber
    /// the live ones; the first and the last slots are always live.
    slots: VecDeque<Slot>,
    /// Each slot's content, at the slot's index.
    contents: VecDeque<Content>,
    live: usize,
    /// The least recently used segment is the one with the lowest stamp. A segment stored after
    /// every other one and never read since keeps the order of the slots: its stamp is above
    /// those of all such slots before it. So the oldest of those is the first of them from the
    /// front, and only the others go through the LRU queue. No slot before `cursor` is such a
    /// slot.
    cursor: usize,
    /// (LRU stamp, start) of the segments marked `IN_LRU`, in stamp order. A read stamps its
    /// segment anew and appends it rather than moving it, so entries whose stamp is no longer
    /// their segment's are stale and skipped.
    lru: VecDeque<(u32, u64)>,
    next_stamp: u32,
    /// `STAMP_LIMIT`, lower in tests of the renumbering.
    stamp_limit: u32,
    pub hits: u64,
    pub misses: u64,
    pub evictions: u64,
}

impl Cache {
    pub fn new(capacity_bytes: u64) -> Cache {
        Cache {
            capacity: capacity_bytes,
            used: 0,
            slots: VecDeque::new(),
            contents: VecDeque::new(),
            live: 0,
            cursor: 0,
            lru: VecDeque::new(),
            next_stamp: 0,
            stamp_limit: STAMP_LIMIT,
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

    /// Index of the slot (live or evicted) that starts at `start`.
    #[inline]
    fn find(&self, start: u64) -> Option<usize> {
        let front = self.slots.front()?;
        if front.start == start {
            return Some(0);
        }
        // Segments are mostly one MSS long and in order, evicted ones keeping their slots: a
        // slot's index is mostly its offset from the front in segments.
        let guess = (start.saturating_sub(front.start) / (front.len as u64).max(1)) as usize;
        if self.slots.get(guess).is_some_and(|s| s.start == start) {
            return Some(guess);
        }
        let i = self.slots.partition_point(|s| s.start < start);
        (self.slots.get(i)?.start == start).then_some(i)
    }

    /// Stores a segment. A segment overlapping a stored one is not stored (the stored bytes
    /// are the same), nor one larger than the whole cache; otherwise least-recently-used
    /// segments are evicted until it fits.
    pub fn insert(&mut self, seg: Segment) {
        if seg.is_empty() || seg.len() > self.capacity {
            return;
        }
        // Stored segments do not overlap, so the last live one with a start before this
        // segment's end is the only one that can overlap it.
        let after_all = self.slots.back().is_none_or(|last| last.end() <= seg.start);
        if !after_all {
            let before_end = self.slots.partition_point(|s| s.start < seg.end);
            let overlapping = self.slots.range(..before_end).rev().find(|s| s.live());
            if overlapping.is_some_and(|s| s.end() > seg.start) {
                return;
            }
        }
        while self.used + seg.len() > self.capacity {
            let Some(i) = self.least_recently_used() else { break };
            let slot = &mut self.slots[i];
            slot.stamp = EVICTED;
            self.used -= slot.len as u64;
            self.live -= 1;
            self.evictions += 1;
        }
        // Evicted slots at either end go at once, so the last slot is the last live segment.
        while self.slots.front().is_some_and(|s| !s.live()) {
            self.slots.pop_front();
            self.contents.pop_front();
            self.cursor = self.cursor.saturating_sub(1);
        }
        while self.slots.back().is_some_and(|s| !s.live()) {
            self.slots.pop_back();
            self.contents.pop_back();
        }
        self.cursor = self.cursor.min(self.slots.len());
        let stamp = self.stamp();
        let content = Content { digest: seg.digest, first_sent: seg.first_sent };
        if self.slots.back().is_none_or(|last| last.start < seg.start) {
            self.slots.push_back(Slot::new(&seg, stamp));
            self.contents.push_back(content);
        } else {
            self.lru.push_back((stamp, seg.start));
            let slot = Slot::new(&seg, stamp | IN_LRU);
            let i = self.slots.partition_point(|s| s.start < seg.start);
            if self.slots[i].start == seg.start {
                // An evicted slot: a live one would have overlapped.
                self.slots[i] = slot;
                self.contents[i] = content;
            } else {
                self.slots.insert(i, slot);
                self.contents.insert(i, content);
                if i < self.cursor {
                    self.cursor += 1;
                }
            }
        }
        self.live += 1;
        self.used += seg.len();
        self.compact();
    }

    /// The live slot with the lowest stamp: the first in-order slot from `cursor` on, or the
    /// LRU queue's first entry that is not stale, whichever is older.
    fn least_recently_used(&mut self) -> Option<usize> {
        while self.slots.get(self.cursor).is_some_and(|s| !s.in_order()) {
            self.cursor += 1;
        }
        let in_order = self.slots.get(self.cursor).map(|s| (s.stamp, self.cursor));
        let queued = loop {
            let Some(&(stamp, start)) = self.lru.front() else { break None };
            match self.queued_slot(stamp, start) {
                Some(i) => break Some((stamp, i)),
                None => {
                    self.lru.pop_front();
                }
            }
        };
        match (in_order, queued) {
            (Some((a, i)), Some((b, _))) if a < b => Some(i),
            (_, Some((_, i))) => {
                self.lru.pop_front();
                Some(i)
            }
            (in_order, None) => in_order.map(|(_, i)| i),
        }
    }

    /// The slot an LRU entry names, unless the entry is stale (its segment was evicted, or read
    /// again and stamped anew).
    fn queued_slot(&self, stamp: u32, start: u64) -> Option<usize> {
        self.find(start).filter(|&i| self.slots[i].live() && self.slots[i].lru_stamp() == stamp)
    }

    /// Drops the stale LRU entries once they outnumber the live ones, and the evicted slots
    /// likewise, so that a cache read or evicted out of order keeps its memory bounded. Inlined:
    /// it runs after every insert and read and almost always has nothing to drop.
    #[inline]
    fn compact(&mut self) {
        if self.lru.len() > 2 * self.live + 64 || self.slots.len() > 2 * self.live + 64 {
            self.drop_stale();
        }
    }

    fn drop_stale(&mut self) {
        if self.lru.len() > 2 * self.live + 64 {
            let mut lru = std::mem::take(&mut self.lru);
            lru.retain(|&(stamp, start)| self.queued_slot(stamp, start).is_some());
            self.lru = lru;
        }
        if self.slots.len() > 2 * self.live + 64 {
            let mut slots = self.slots.iter();
            self.contents.retain(|_| slots.next().is_some_and(Slot::live));
            self.slots.retain(Slot::live);
            self.cursor = 0;
        }
    }

    /// A new stamp, above every stamp given before (renumbering the live ones at the limit).
    fn stamp(&mut self) -> u32 {
        if self.next_stamp >= self.stamp_limit {
            self.renumber();
        }
        self.next_stamp += 1;
        self.next_stamp
    }

    /// Numbers the live slots' stamps 1, 2, ... in the order of their stamps, which keeps every
    /// comparison between them, and the LRU queue with them. Once in 2^31 stamps.
    fn renumber(&mut self) {
        let mut order: Vec<usize> = (0..self.slots.len()).filter(|&i| self.slots[i].live()).collect();
        order.sort_unstable_by_key(|&i| self.slots[i].lru_stamp());
        self.lru.clear();
        for (n, &i) in order.iter().enumerate() {
            let slot = &mut self.slots[i];
            let stamp = n as u32 + 1;
            slot.stamp = stamp | (slot.stamp & IN_LRU);
            if slot.stamp & IN_LRU != 0 {
                self.lru.push_back((stamp, slot.start));
            }
        }
        self.next_stamp = order.len() as u32;
    }

    /// The segments covering the contiguous prefix of `[start, end)` present in the cache, in
    /// order; each one returned becomes the most recently used.
    pub fn read(&mut self, start: u64, end: u64, out: &mut Vec<Segment>) {
        let mut pos = start;
        // An interest ahead of the data (the common miss on a path) asks past the last segment:
        // a miss without a search.
        let past_all = self.slots.back().is_none_or(|last| last.end() <= start);
        let mut next = if past_all || start >= end { None } else { self.find(pos) };
        while let Some(i) = next {
            if !self.slots[i].live() {
                break;
            }
            let stamp = self.stamp();
            let slot = &mut self.slots[i];
            slot.stamp = stamp | IN_LRU;
            self.lru.push_back((stamp, pos));
            out.push(slot.seg(&self.contents[i]));
            pos = slot.end();
            if pos >= end {
                break;
            }
            next = match self.slots.get(i + 1) {
                Some(s) if s.start == pos => Some(i + 1),
                _ => self.find(pos),
            };
        }
        self.compact();
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

    /// The cache's rules written as plainly as possible: a list, searched in full.
    struct PlainCache {
        capacity: u64,
        segs: Vec<(Segment, u64)>,
        clock: u64,
    }

    impl PlainCache {
        fn insert(&mut self, seg: Segment) {
            if seg.is_empty() || seg.len() > self.capacity {
                return;
            }
            if self.segs.iter().any(|(s, _)| s.start < seg.end && seg.start < s.end) {
                return;
            }
            while self.segs.iter().map(|(s, _)| s.len()).sum::<u64>() + seg.len() > self.capacity {
                let oldest = (0..self.segs.len()).min_by_key(|&i| self.segs[i].1).unwrap();
                self.segs.remove(oldest);
            }
            self.clock += 1;
            self.segs.push((seg, self.clock));
        }

        fn read(&mut self, start: u64, end: u64) -> Vec<Segment> {
            let mut out = Vec::new();
            let mut pos = start;
            while pos < end {
                let Some(e) = self.segs.iter_mut().find(|(s, _)| s.start == pos) else { break };
                self.clock += 1;
                e.1 = self.clock;
                out.push(e.0);
                pos = e.0.end;
            }
            out
        }
    }

    #[test]
    fn the_cache_keeps_and_evicts_what_a_plain_list_with_the_same_rules_does() {
        keeps_and_evicts_as_the_plain_list(STAMP_LIMIT);
    }

    #[test]
    fn stamps_numbered_anew_at_their_limit_keep_the_eviction_order() {
        // A limit a few times the live segments: the stamps are numbered anew every few
        // hundred inserts and reads.
        for limit in [40, 97, 500] {
            keeps_and_evicts_as_the_plain_list(limit);
        }
    }

    fn keeps_and_evicts_as_the_plain_list(stamp_limit: u32) {
        for seed in 1..40u64 {
            let mut x = seed;
            let mut rand = move |n: u64| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (x >> 33) % n
            };
            let capacity = 200 + rand(2000);
            let mut c = Cache::new(capacity);
            c.stamp_limit = stamp_limit;
            let mut plain = PlainCache { capacity, segs: Vec::new(), clock: 0 };
            let mut next = 0u64;
            for step in 0..3000 {
                // Mostly in order, as on a path; sometimes an old or a misaligned range.
                let (start, len) = match rand(10) {
                    0..=5 => (next, 100),
                    6 | 7 => (rand(next / 100 + 1) * 100, 100),
                    _ => (rand(next + 1), 1 + rand(250)),
                };
                next = next.max(start + len);
                let seg = Segment { start, end: start + len, digest: start, first_sent: SimTime::ZERO };
                if rand(3) == 0 {
                    let mut out = Vec::new();
                    let to = start + rand(600);
                    c.read(start, to, &mut out);
                    assert_eq!(out, plain.read(start, to), "seed {seed} step {step}: read {start}..{to}");
                } else {
                    c.insert(seg);
                    plain.insert(seg);
                }
                assert_eq!(c.used(), plain.segs.iter().map(|(s, _)| s.len()).sum::<u64>(), "seed {seed} step {step}");
                assert!(c.slots.len() <= 2 * c.live + 64 && c.lru.len() <= 2 * c.live + 64);
                assert!(c.next_stamp <= stamp_limit);
                assert_eq!(c.contents.len(), c.slots.len());
            }
        }
    }
}
