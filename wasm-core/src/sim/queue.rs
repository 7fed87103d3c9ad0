//! The event queue: a total order by `(time, seq)` with FIFO ties.
//!
//! The same ordering as ns-3's scheduler and smoltcp's netsim: two events at the same instant run
//! in the order they were scheduled, so a run never depends on heap internals.

use super::time::SimTime;
use std::collections::VecDeque;

/// An event and its `(time, seq)` as one number, so that ordering two entries is one comparison.
#[derive(Clone, Copy)]
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

/// Min-priority queue of events. Nothing is ever taken out but by `pop`: a timer that should no
/// longer fire is left to run and found stale by its owner (`engine::LazyTimer`).
///
/// A binary min-heap in a `Vec`. `pop` leaves the entry it returns at the top (`spent`), and the
/// next `schedule` (an event's handler most often schedules one) takes its place in one sift,
/// where removing it and adding the new one took two. Entries are ordered by their unique
/// `(time, seq)` alone, so any correct heap pops the same sequence.
///
/// The heap is its own rather than `std`'s `BinaryHeap` so that a sift holds the entry it places
/// in registers and writes it once, where it stops. Through `BinaryHeap::peek_mut` the new entry
/// was written to the top field by field and then read back whole to be sifted, a load the CPU
/// cannot forward from those stores: a fifth of the event loop's samples waited on it. With
/// checked indexing this heap runs a few more instructions, and the runs are 2-4 % faster
/// (BENCHMARKS.md, "The event queue's own heap").
///
/// Beside the heap, a lane: a queue of entries already in order. `schedule_in_order` appends to
/// it what comes no earlier than its last entry, which costs no sift; INTCP's 1 ms ticks, a
/// sixth of a constellation run's events, go there, and the heap they leave is smaller for
/// every other event. `pop` takes the earlier of the lane's front and the heap's top.
pub struct EventQueue<E> {
    heap: Vec<Entry<E>>,
    lane: VecDeque<Entry<E>>,
    /// Whether the heap's top is the entry `pop` returned last, to be removed or replaced.
    spent: bool,
    next_seq: u64,
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
        EventQueue {
            heap: Vec::with_capacity(1024),
            lane: VecDeque::new(),
            spent: false,
            next_seq: 0,
            popped: 0,
            digest: 0,
        }
    }

    #[inline(always)]
    fn entry(&mut self, time: SimTime, event: E) -> Entry<E> {
        let seq = self.next_seq;
        self.next_seq += 1;
        Entry { key: ((time.0 as u128) << 64) | seq as u128, event }
    }

    #[inline(always)]
    pub fn schedule(&mut self, time: SimTime, event: E) {
        let e = self.entry(time, event);
        self.push_heap(e);
    }

    /// [`Self::schedule`] for an event that comes no earlier than the last one scheduled this
    /// way, as a timer set a fixed delay from now does: it goes to the lane. One that comes
    /// earlier goes to the heap, so the order of events never depends on the promise.
    #[inline(always)]
    pub fn schedule_in_order(&mut self, time: SimTime, event: E) {
        let e = self.entry(time, event);
        if self.lane.back().is_none_or(|last| last.key < e.key) {
            self.lane.push_back(e);
        } else {
            self.push_heap(e);
        }
    }

    #[inline(always)]
    fn push_heap(&mut self, e: Entry<E>) {
        if self.spent {
            self.spent = false;
            sift_down_from_top(&mut self.heap, e);
        } else {
            sift_up_from_end(&mut self.heap, e);
        }
    }

    /// Time of the next event.
    pub fn peek_time(&self) -> Option<SimTime> {
        let data = self.heap.as_slice();
        let next = if self.spent {
            // The top is spent: the next entry is the earlier of its children.
            match (data.get(1), data.get(2)) {
                (Some(a), Some(b)) => Some(if a.key < b.key { a } else { b }),
                (a, _) => a,
            }
        } else {
            data.first()
        };
        let next = match (next, self.lane.front()) {
            (Some(h), Some(l)) => Some(if l.key < h.key { l } else { h }),
            (h, l) => h.or(l),
        };
        next.map(|e| SimTime(e.time()))
    }

    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.pop_due(SimTime(u64::MAX))
    }

    /// The next event if it comes no later than `until`, else None and the queue as it was:
    /// the event loop's test of the run's end and its pop in one look at the heap's top and the
    /// lane's front, where `peek_time` and then `pop` took two.
    #[inline(always)]
    pub fn pop_due(&mut self, until: SimTime) -> Option<(SimTime, E)> {
        if self.spent {
            self.spent = false;
            if let Some(last) = self.heap.pop() {
                if !self.heap.is_empty() {
                    sift_down_from_top(&mut self.heap, last);
                }
            }
        }
        let from_lane = match (self.heap.first(), self.lane.front()) {
            (Some(h), Some(l)) => l.key < h.key,
            (h, _) => h.is_none(),
        };
        let e = if from_lane {
            let e = *self.lane.front()?;
            if e.time() > until.0 {
                return None;
            }
            self.lane.pop_front();
            e
        } else {
            let e = *self.heap.first()?;
            if e.time() > until.0 {
                return None;
            }
            self.spent = true;
            e
        };
        self.popped += 1;
        self.digest = super::rng::mix64(self.digest ^ e.time()).wrapping_add(e.seq());
        Some((SimTime(e.time()), e.event))
    }

    pub fn len(&self) -> usize {
        self.heap.len() - self.spent as usize + self.lane.len()
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

/// Puts `e` in place of the heap's top (which must exist) and sifts it down: at each level the
/// earlier child moves up into the hole, until `e` is earlier than both children.
#[inline(always)]
fn sift_down_from_top<E: Copy>(heap: &mut [Entry<E>], e: Entry<E>) {
    let n = heap.len();
    let mut hole = 0;
    let mut child = 1;
    while child + 1 < n {
        child += (heap[child + 1].key < heap[child].key) as usize;
        let next = heap[child];
        if e.key < next.key {
            heap[hole] = e;
            return;
        }
        heap[hole] = next;
        hole = child;
        child = 2 * hole + 1;
    }
    // A last, single child.
    if child + 1 == n {
        let next = heap[child];
        if next.key < e.key {
            heap[hole] = next;
            hole = child;
        }
    }
    heap[hole] = e;
}

/// Appends `e` and sifts it up: each parent later than `e` moves down into the hole.
#[inline(always)]
fn sift_up_from_end<E: Copy>(heap: &mut Vec<Entry<E>>, e: Entry<E>) {
    let mut hole = heap.len();
    heap.push(e);
    while hole > 0 {
        let parent = (hole - 1) / 2;
        let above = heap[parent];
        if above.key < e.key {
            break;
        }
        heap[hole] = above;
        hole = parent;
    }
    heap[hole] = e;
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

    type Reference = std::collections::BTreeSet<(u64, u64)>;

    /// The next number of a 64-bit LCG: the tests' schedules and pops.
    fn next(x: &mut u64) -> u64 {
        *x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *x
    }

    /// The queue's length and next time are the sorted set's.
    fn agrees_with(q: &EventQueue<u64>, reference: &Reference) {
        assert_eq!(q.len(), reference.len());
        assert_eq!(q.is_empty(), reference.is_empty());
        assert_eq!(q.peek_time().map(|t| t.0), reference.first().map(|&(t, _)| t));
    }

    /// Pops everything left, each against the sorted set's first.
    fn drain_against(q: &mut EventQueue<u64>, reference: &mut Reference) {
        while let Some((t, s)) = q.pop() {
            assert_eq!(Some((t.0, s)), reference.pop_first());
        }
        assert!(reference.is_empty());
    }

    #[test]
    fn interleaved_schedules_and_pops_follow_time_then_schedule_order() {
        // Against a sorted set of (time, seq): few distinct times, so ties are common.
        let mut q = EventQueue::new();
        let mut reference = Reference::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut now = 0;
        for seq in 0..20_000u64 {
            let x = next(&mut x);
            let time = now + (x >> 60);
            q.schedule(SimTime(time), seq);
            reference.insert((time, seq));
            if x & 0x300 != 0 {
                let (t, s) = q.pop().unwrap();
                assert_eq!(Some((t.0, s)), reference.pop_first());
                now = t.0;
            }
        }
        drain_against(&mut q, &mut reference);
    }

    #[test]
    fn the_next_time_and_the_length_leave_out_the_event_just_popped() {
        // Against a sorted set, checking `peek_time` and `len` after every operation: the popped
        // entry stays in the heap until the next schedule or pop takes its place.
        let mut q = EventQueue::new();
        let mut reference = Reference::new();
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for seq in 0..5_000u64 {
            let x = next(&mut x);
            let pops = (x >> 61) as usize % 4;
            for _ in 0..pops {
                assert_eq!(q.pop().map(|(t, s)| (t.0, s)), reference.pop_first());
                agrees_with(&q, &reference);
            }
            if x & 0x400 != 0 {
                let time = (x >> 40) % 64;
                q.schedule(SimTime(time), seq);
                reference.insert((time, seq));
            }
            agrees_with(&q, &reference);
        }
    }

    #[test]
    fn an_event_after_the_limit_is_not_popped_and_stays_next() {
        // `pop_due` against a sorted set: it pops the first entry only when that comes by the
        // limit, and otherwise leaves the queue as it was.
        let mut q = EventQueue::new();
        let mut reference = Reference::new();
        let mut x: u64 = 0x853c_49e6_748f_ea9b;
        let (mut refused, mut taken) = (0, 0);
        for seq in 0..20_000u64 {
            let x = next(&mut x);
            let time = (x >> 40) % 256;
            if x & 0x800 != 0 {
                q.schedule_in_order(SimTime(time), seq);
            } else {
                q.schedule(SimTime(time), seq);
            }
            reference.insert((time, seq));
            let until = (x >> 20) % 256;
            let due = reference.first().filter(|&&(t, _)| t <= until).copied();
            match due {
                Some(first) => {
                    reference.pop_first();
                    taken += 1;
                    assert_eq!(q.pop_due(SimTime(until)).map(|(t, s)| (t.0, s)), Some(first));
                }
                None => {
                    refused += 1;
                    assert_eq!(q.pop_due(SimTime(until)), None);
                }
            }
            agrees_with(&q, &reference);
        }
        assert!(refused > 1000 && taken > 1000, "refused {refused}, taken {taken}");
        drain_against(&mut q, &mut reference);
    }

    #[test]
    fn events_scheduled_in_order_pop_among_the_others_by_time_then_schedule_order() {
        // Ticks a fixed delay ahead go to the lane, other events to the heap; some "in order"
        // events come earlier than the lane's last, as a broken promise would, and must go to
        // the heap. Checked against a sorted set after every operation.
        let mut q = EventQueue::new();
        let mut reference = Reference::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut now = 0;
        let (mut to_lane, mut in_order_to_heap) = (0, 0);
        for seq in 0..20_000u64 {
            let x = next(&mut x);
            let time = match x >> 62 {
                0 => now + 7,
                1 => now + (x >> 40) % 3,
                _ => now + (x >> 40) % 20,
            };
            if x >> 62 <= 1 {
                let lane_before = q.lane.len();
                q.schedule_in_order(SimTime(time), seq);
                if q.lane.len() > lane_before {
                    to_lane += 1;
                } else {
                    in_order_to_heap += 1;
                }
            } else {
                q.schedule(SimTime(time), seq);
            }
            reference.insert((time, seq));
            agrees_with(&q, &reference);
            for _ in 0..(x >> 8) % 3 {
                let popped = q.pop().map(|(t, s)| (t.0, s));
                assert_eq!(popped, reference.pop_first());
                if let Some((t, _)) = popped {
                    now = t;
                }
                agrees_with(&q, &reference);
            }
        }
        // Both ways were taken, many times each.
        assert!(
            to_lane > 1000 && in_order_to_heap > 1000,
            "{to_lane} to the lane, {in_order_to_heap} in order to the heap"
        );
        drain_against(&mut q, &mut reference);
    }
}
