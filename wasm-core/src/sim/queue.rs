//! The event queue: a total order by `(time, seq)` with FIFO ties and lazy cancellation.
//!
//! The same ordering as ns-3's scheduler and smoltcp's netsim: two events at the same instant run
//! in the order they were scheduled, so a run never depends on heap internals.

use super::time::SimTime;

/// A handle to a scheduled event, used to cancel it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventId(u64);

#[derive(Clone, Copy)]
struct Entry<E> {
    time: SimTime,
    seq: u64,
    event: E,
}

impl<E> Entry<E> {
    /// `(time, seq)` as one integer: one wide comparison instead of two chained ones.
    #[inline(always)]
    fn key(&self) -> u128 {
        ((self.time.0 as u128) << 64) | self.seq as u128
    }
}

/// Children per node of the heap: half the levels of a binary heap, and a node's children are
/// adjacent in memory. Keys are unique (`seq`), so the pop order is the total order of the keys
/// whatever the heap's shape.
const ARITY: usize = 4;

/// Min-priority queue of events.
pub struct EventQueue<E> {
    /// A 4-ary min-heap on `(time, seq)`.
    heap: Vec<Entry<E>>,
    next_seq: u64,
    /// Sequence numbers of cancelled events still in the heap (tombstones). Kept sorted small:
    /// cancellation is rare in the hot path because timers are re-armed lazily.
    cancelled: Vec<u64>,
    popped: u64,
    /// A running digest of every popped (time, seq): equal digests mean the same events ran in
    /// the same order at the same times.
    digest: u64,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: Vec::with_capacity(1024), next_seq: 0, cancelled: Vec::new(), popped: 0, digest: 0 }
    }

    #[inline]
    pub fn schedule(&mut self, time: SimTime, event: E) -> EventId {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.push(Entry { time, seq, event });
        EventId(seq)
    }

    /// Cancels an event; popping skips it. Cancelling an event that already ran does nothing.
    pub fn cancel(&mut self, id: EventId) {
        if id.0 < self.next_seq && !self.cancelled.contains(&id.0) {
            self.cancelled.push(id.0);
        }
    }

    /// Time of the next live event.
    #[inline]
    pub fn peek_time(&mut self) -> Option<SimTime> {
        self.drop_cancelled_head();
        self.heap.first().map(|e| e.time)
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.drop_cancelled_head();
        let e = self.pop_min()?;
        self.popped += 1;
        self.digest = super::rng::mix64(self.digest ^ e.time.0).wrapping_add(e.seq);
        Some((e.time, e.event))
    }

    fn drop_cancelled_head(&mut self) {
        while !self.cancelled.is_empty() {
            let Some(head) = self.heap.first() else { break };
            if let Some(i) = self.cancelled.iter().position(|&s| s == head.seq) {
                self.cancelled.swap_remove(i);
                self.pop_min();
            } else {
                break;
            }
        }
    }

    /// Sifts the new entry up from the end: parents after it move down into the hole.
    #[inline]
    fn push(&mut self, e: Entry<E>) {
        let key = e.key();
        let mut i = self.heap.len();
        self.heap.push(e);
        while i > 0 {
            let parent = (i - 1) / ARITY;
            if self.heap[parent].key() <= key {
                break;
            }
            self.heap[i] = self.heap[parent];
            i = parent;
        }
        self.heap[i] = e;
    }

    /// Takes the root, then sifts the last entry down from the root: at each level the smallest
    /// child moves up into the hole.
    #[inline]
    fn pop_min(&mut self) -> Option<Entry<E>> {
        let last = self.heap.pop()?;
        let Some(&top) = self.heap.first() else { return Some(last) };
        let (n, key) = (self.heap.len(), last.key());
        let mut i = 0;
        loop {
            let first = ARITY * i + 1;
            if first >= n {
                break;
            }
            let mut best = first;
            let mut best_key = self.heap[first].key();
            for c in first + 1..(first + ARITY).min(n) {
                let k = self.heap[c].key();
                if k < best_key {
                    (best, best_key) = (c, k);
                }
            }
            if key <= best_key {
                break;
            }
            self.heap[i] = self.heap[best];
            i = best;
        }
        self.heap[i] = last;
        Some(top)
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
    fn every_pop_is_the_earliest_pending_event_with_ties_in_scheduling_order() {
        let mut rng = crate::sim::Rng::new(7, crate::sim::Stream::Transport { flow: 0 });
        let mut q = EventQueue::new();
        // The reference: pending (time, scheduling index), searched for the minimum.
        let mut pending: Vec<(SimTime, usize)> = Vec::new();
        let mut scheduled = 0;
        for round in 0..200u64 {
            for _ in 0..(round % 7) * 5 {
                let t = SimTime(round * 10 + rng.next_u64() % 40);
                q.schedule(t, scheduled);
                pending.push((t, scheduled));
                scheduled += 1;
            }
            for _ in 0..round % 5 * 6 {
                let want =
                    pending.iter().enumerate().min_by_key(|(_, &e)| e).map(|(i, _)| i).map(|i| pending.remove(i));
                assert_eq!(q.pop(), want);
            }
        }
        while let Some(want) =
            pending.iter().enumerate().min_by_key(|(_, &e)| e).map(|(i, _)| i).map(|i| pending.remove(i))
        {
            assert_eq!(q.pop(), Some(want));
        }
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
