//! The event queue: a total order by `(time, seq)` with FIFO ties and lazy cancellation.
//!
//! The same ordering as ns-3's scheduler and smoltcp's netsim: two events at the same instant run
//! in the order they were scheduled, so a run never depends on heap internals.

use super::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A handle to a scheduled event, used to cancel it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventId(u64);

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

/// Min-priority queue of events.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
    /// Sequence numbers of cancelled events still in the heap (tombstones). Kept sorted small:
    /// cancellation is rare in the hot path because timers are re-armed lazily.
    cancelled: Vec<u64>,
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
        EventQueue { heap: BinaryHeap::with_capacity(1024), next_seq: 0, cancelled: Vec::new(), popped: 0, digest: 0 }
    }

    pub fn schedule(&mut self, time: SimTime, event: E) -> EventId {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { key: ((time.0 as u128) << 64) | seq as u128, event });
        EventId(seq)
    }

    /// Cancels an event; popping skips it. Cancelling an event that already ran does nothing.
    pub fn cancel(&mut self, id: EventId) {
        if id.0 < self.next_seq && !self.cancelled.contains(&id.0) {
            self.cancelled.push(id.0);
        }
    }

    /// Time of the next live event.
    pub fn peek_time(&mut self) -> Option<SimTime> {
        self.drop_cancelled_head();
        self.heap.peek().map(|e| SimTime(e.time()))
    }

    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.drop_cancelled_head();
        let e = self.heap.pop()?;
        self.popped += 1;
        self.digest = super::rng::mix64(self.digest ^ e.time()).wrapping_add(e.seq());
        Some((SimTime(e.time()), e.event))
    }

    fn drop_cancelled_head(&mut self) {
        while !self.cancelled.is_empty() {
            let Some(head) = self.heap.peek() else { break };
            if let Some(i) = self.cancelled.iter().position(|&s| s == head.seq()) {
                self.cancelled.swap_remove(i);
                self.heap.pop();
            } else {
                break;
            }
        }
    }

    pub fn len(&self) -> usize {
        self.heap.len() - self.cancelled.len()
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

    #[test]
    fn cancelled_events_never_run() {
        let mut q = EventQueue::new();
        let a = q.schedule(SimTime(1), 1);
        q.schedule(SimTime(2), 2);
        let c = q.schedule(SimTime(3), 3);
        q.cancel(a);
        q.cancel(c);
        assert_eq!(q.len(), 1);
        assert_eq!(q.pop(), Some((SimTime(2), 2)));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn cancelling_an_event_twice_is_harmless() {
        let mut q = EventQueue::new();
        let a = q.schedule(SimTime(1), 1);
        q.schedule(SimTime(1), 2);
        q.cancel(a);
        q.cancel(a);
        assert_eq!(q.pop(), Some((SimTime(1), 2)));
        assert!(q.is_empty());
    }
}
