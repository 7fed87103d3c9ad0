//! The event queue: a total order by `(time, seq)` with FIFO ties.
//!
//! The same ordering as ns-3's scheduler and smoltcp's netsim: two events at the same instant run
//! in the order they were scheduled, so a run never depends on heap internals.

use super::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// An event and its `(time, seq)` as one number, so that ordering two entries is one comparison.
struct Entry<E> {
    key: u128,
    event: E,
}

impl<E> Entry<E> {
    fn time(&self) -> u64 {
        (self.key >> 64) as u64
    }
    fn seq(&self) -> u64 {
        self.key as u64
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, o: &Self) -> Ordering {
        // BinaryHeap is a max-heap: reverse so the earliest (time, seq) pops first.
        o.key.cmp(&self.key)
    }
}

/// Min-priority queue of events. Nothing is ever taken out but by `pop`: a timer that should no
/// longer fire is left to run and found stale by its owner (`engine::LazyTimer`).
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
    popped: u64,
    /// A running digest of every popped (time, seq): equal digests mean the same events ran in
    /// the same order at the same times.
    digest: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: BinaryHeap::with_capacity(1024), next_seq: 0, popped: 0, digest: 0 }
    }

    pub fn schedule(&mut self, time: SimTime, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { key: ((time.0 as u128) << 64) | seq as u128, event });
    }

    /// Time of the next event.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| SimTime(e.time()))
    }

    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let e = self.heap.pop()?;
        self.popped += 1;
        self.digest = super::rng::mix64(self.digest ^ e.time()).wrapping_add(e.seq());
        Some((SimTime(e.time()), e.event))
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// Number of events processed so far (the benchmark's unit of work).
    pub fn events_processed(&self) -> u64 {
        self.popped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_pop_in_time_order_with_fifo_ties() {
        let mut q = EventQueue::new();
        q.schedule(SimTime(20), "c");
        q.schedule(SimTime(10), "a");
        q.schedule(SimTime(10), "b");
        q.schedule(SimTime(5), "first");
        let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!["first", "a", "b", "c"]);
    }

    #[test]
    fn interleaved_schedules_and_pops_follow_time_then_schedule_order() {
        // Against a sorted set of (time, seq): few distinct times, so ties are common.
        let mut q = EventQueue::new();
        let mut reference = std::collections::BTreeSet::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut now = 0;
        for seq in 0..20_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let time = now + (x >> 60);
            q.schedule(SimTime(time), seq);
            reference.insert((time, seq));
            if x & 0x300 != 0 {
                let (t, s) = q.pop().unwrap();
                assert_eq!(Some((t.0, s)), reference.pop_first());
                now = t.0;
            }
        }
        while let Some((t, s)) = q.pop() {
            assert_eq!(Some((t.0, s)), reference.pop_first());
        }
        assert!(reference.is_empty());
    }
}
