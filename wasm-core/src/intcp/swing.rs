//! The swing gate: when a midnode reads ahead (`readahead.rs`).
//!
//! Reading ahead pays only while the downstream hop swings: data held while it is slow leaves
//! when it is fast again (the INTCP paper's Fig. 5(a), and the outages of Fig. 5(b)). Where the
//! downstream hop is slower for good (Fig. 5(c)'s lossy GSL, the uplinks of Beijing-New York),
//! held data never drains and every byte waits behind it (docs/intcp-caching.md measures both).
//!
//! The evidence is the rate at which downstream asks for *new* bytes (the advance of the highest
//! byte it asked for) over the last `WINDOW_BINS` bins, against its peak over `PEAK_WINDOW`.
//! With the gate closed the midnode passes the producer's queue headroom on and the consumer asks
//! at what arrived (docs/intcp-protocol.md §5.8), so that rate is what the downstream hop
//! delivers; while the midnode reads ahead the consumer keeps the midnode's debt at its target,
//! so it is again what leaves the midnode. An outage stops downstream's requests altogether.
//!
//! - **Open** when the window's rate falls below `SLOW_RATIO` of the peak (a slow phase of a hop
//!   that carried more within `PEAK_WINDOW`), or when downstream asked for nothing new for
//!   `SILENT_BINS` bins (an outage).
//! - **Stay open** while it is slow, or while the held bytes fall by `DRAIN_FRACTION` of what
//!   downstream asks (a fast phase draining what the slow one stored).
//! - **Close** after `CLOSE_BINS` bins in a row at speed with the held bytes not falling: the
//!   hop is slower than upstream for good, or what it held is gone. The held data then leaves
//!   as downstream asks for it, and nothing more is fetched ahead.
//!
//! So the gate needs to have seen a hop at speed before it can call it slow: a flow that starts
//! in a slow phase holds nothing until the first fast phase has passed.
//!
//! Constants chosen here, not taken from a source, and measured in docs/intcp-caching.md: a
//! one-second window spans several hop RTTs even of a 300 ms GSL round trip, so a rate cut of a
//! delay-based hop on a lossy link is not a slow phase; 30 s of peak memory covers the 2-20 s
//! periods of the Fig. 5(a) sweep; half the peak separates the 5/35 and 0/20 swings from the
//! ±50 % a delay-based hop's rate moves by.

use crate::sim::{SimDuration, SimTime};
use std::collections::VecDeque;

/// The gate's clock: it looks at downstream's requests and its held bytes every `BIN`.
pub const BIN: SimDuration = SimDuration::from_millis(100);
/// Bins over which the asked rate and the fall of the held bytes are measured (one second:
/// several hop RTTs even of a 300 ms GSL round trip, so one rate cut is not a slow phase).
pub const WINDOW_BINS: usize = 10;
/// Bins in a row in which downstream asked for nothing new: an outage (or a stalled hop).
pub const SILENT_BINS: usize = 2;
/// Segments the peak rate asks for in `SILENT_BINS` for a silence to count.
pub const SILENT_SEGMENTS: f64 = 8.0;
/// Segments the peak window must have asked for before a window is judged slow.
pub const PEAK_SEGMENTS: f64 = 32.0;
/// How long a peak rate is remembered.
pub const PEAK_WINDOW: SimDuration = SimDuration::from_millis(30_000);
/// A window below this fraction of the peak is a slow phase.
pub const SLOW_RATIO: f64 = 0.5;
/// Held bytes drain when they fall by at least this fraction of what downstream asked for.
pub const DRAIN_FRACTION: f64 = 0.125;
/// Bins in a row at speed, with the held bytes not falling, before the gate closes.
pub const CLOSE_BINS: u32 = 10;

#[derive(Clone, Debug)]
pub struct SwingGate {
    mss: f64,
    bin_end: SimTime,
    /// (asked, held) at the last `WINDOW_BINS` + 1 bin ends, oldest first.
    marks: VecDeque<(u64, u64)>,
    /// (bin end, asked rate over the window ending there, bytes/s) over the last `PEAK_WINDOW`.
    rates: VecDeque<(SimTime, f64)>,
    open: bool,
    bins_to_close: u32,
    /// Times the gate opened.
    pub openings: u64,
}

impl SwingGate {
    pub fn new(now: SimTime, mss: u32) -> SwingGate {
        SwingGate {
            mss: mss as f64,
            bin_end: now + BIN,
            marks: VecDeque::from([(0, 0)]),
            rates: VecDeque::new(),
            open: false,
            bins_to_close: CLOSE_BINS,
            openings: 0,
        }
    }

    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Whether the gate needs its timer: open, or downstream asked for something within the
    /// last `PEAK_WINDOW` (a node the route left stops after that).
    pub fn active(&self) -> bool {
        self.open || self.rates.iter().any(|&(_, r)| r > 0.0)
    }

    /// When the current bin ends (the node's gate timer).
    pub fn bin_end(&self) -> SimTime {
        self.bin_end
    }

    /// Closes every bin that ended by `now`. `asked`: one past the highest byte downstream has
    /// asked for; `held`: bytes the node holds ahead of downstream's requests. Returns whether
    /// the gate is open.
    pub fn update(&mut self, now: SimTime, asked: u64, held: u64) -> bool {
        if now.saturating_since(self.bin_end) > PEAK_WINDOW {
            // Idle for longer than the gate remembers: start afresh from here (what was asked
            // meanwhile is no rate, and as one it would stand as a peak for `PEAK_WINDOW`).
            *self = SwingGate { openings: self.openings, ..SwingGate::new(now, self.mss as u32) };
            self.marks = VecDeque::from([(asked, held)]);
            return self.open;
        }
        while now >= self.bin_end {
            // Bins that ended without an update asked for nothing new.
            let at = self.bin_end;
            self.bin_end = at + BIN;
            let last = now < self.bin_end;
            let prev = *self.marks.back().expect("never empty");
            self.close_bin(at, if last { (asked, held) } else { prev });
        }
        self.open
    }

    fn close_bin(&mut self, at: SimTime, (asked, held): (u64, u64)) {
        self.marks.push_back((asked, held));
        if self.marks.len() > WINDOW_BINS + 1 {
            self.marks.pop_front();
        }
        let (asked_then, held_then) = self.marks[0];
        let window = BIN.as_secs_f64() * (self.marks.len() - 1) as f64;
        let asked_in_window = asked.saturating_sub(asked_then);
        let rate = asked_in_window as f64 / window;
        while self.rates.front().is_some_and(|&(t, _)| at.saturating_since(t) > PEAK_WINDOW) {
            self.rates.pop_front();
        }
        if self.marks.len() <= WINDOW_BINS {
            // Not a whole window yet (the flow's first second): no rate to judge by.
            return;
        }
        let peak = self.rates.iter().map(|&(_, r)| r).fold(0.0, f64::max);
        let recent = self.marks.len().saturating_sub(SILENT_BINS + 1);
        // Silence means something only where the peak rate would have asked several segments.
        let silent_span = BIN.as_secs_f64() * SILENT_BINS as f64;
        let silent = self.marks[recent].0 == asked && peak * silent_span >= SILENT_SEGMENTS * self.mss;
        // A handful of segments a second is no rate to judge by (a flow's first round trips).
        let judged = peak * window >= PEAK_SEGMENTS * self.mss;
        let slow = judged && (rate < SLOW_RATIO * peak || silent);
        let draining = (held as f64) < held_then as f64 - DRAIN_FRACTION * asked_in_window as f64;
        if slow {
            if !self.open {
                self.openings += 1;
            }
            self.open = true;
            self.bins_to_close = CLOSE_BINS;
        } else if self.open && !draining {
            self.bins_to_close -= 1;
            if self.bins_to_close == 0 {
                self.open = false;
                self.bins_to_close = CLOSE_BINS;
            }
        } else {
            self.bins_to_close = CLOSE_BINS;
        }
        self.rates.push_back((at, rate));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1449;
    const MBPS: f64 = 125_000.0;

    fn at(s: f64) -> SimTime {
        SimTime::ZERO + SimDuration::from_secs_f64(s)
    }

    /// Drives the gate bin by bin: downstream asks at `asked_mbps(t)` and the held bytes follow
    /// `held(t)`; returns (bin end, open) for every bin.
    fn run(until_s: f64, asked_mbps: impl Fn(f64) -> f64, held: impl Fn(f64) -> f64) -> Vec<(f64, bool)> {
        let mut g = SwingGate::new(SimTime::ZERO, MSS);
        let (mut t, mut asked, dt) = (0.0, 0.0, BIN.as_secs_f64());
        let mut out = Vec::new();
        while t < until_s - 1e-9 {
            asked += asked_mbps(t) * MBPS * dt;
            t += dt;
            out.push((t, g.update(at(t), asked as u64, held(t) as u64)));
        }
        out
    }

    fn open_at(trace: &[(f64, bool)], t: f64) -> bool {
        trace.iter().find(|&&(x, _)| x >= t - 1e-9).expect("in range").1
    }

    #[test]
    fn a_hop_whose_rate_moves_by_half_never_opens_the_gate() {
        // A lossy GSL's delay-based hop: its rate moves between 13 and 19 Mbit/s every half
        // second, and no second averages below half the peak.
        let trace = run(60.0, |t| if ((t * 2.0) as u64).is_multiple_of(3) { 13.0 } else { 19.0 }, |_| 0.0);
        assert!(trace.iter().all(|&(_, open)| !open));
    }

    #[test]
    fn a_flows_first_second_is_not_judged() {
        // The first requests come in a burst and then pause for a round trip: no slow phase.
        let trace = run(
            3.0,
            |t| {
                if t < 0.1 {
                    2.0
                } else if t < 1.5 {
                    0.0
                } else {
                    2.0
                }
            },
            |_| 0.0,
        );
        assert!(trace.iter().all(|&(_, open)| !open));
    }

    #[test]
    fn a_slow_phase_opens_the_gate_and_a_fast_one_keeps_it_open_while_the_held_bytes_fall() {
        // Fig. 5(a), 10 s period: downstream asks 20 Mbit/s in the fast phases (0-5 s, ...) and 5
        // in the slow ones; the held bytes grow by 1.9 MB/s in a slow phase and fall by 3.75
        // MB/s in the next fast one until they are gone.
        let slow = |t: f64| t % 10.0 >= 5.0;
        let held = |t: f64| {
            let p = t % 10.0;
            if slow(t) || t < 5.0 {
                (p - 5.0).max(0.0) * 1.9e6
            } else {
                (9.5e6 - p * 3.75e6).max(0.0)
            }
        };
        let trace = run(40.0, |t| if slow(t) { 5.0 } else { 20.0 }, held);
        assert!(!open_at(&trace, 4.9));
        assert!(open_at(&trace, 5.8), "within a second of the step down");
        assert!(open_at(&trace, 9.9));
        assert!(open_at(&trace, 12.0), "the fast phase drains the held bytes");
        assert!(!open_at(&trace, 14.9), "drained and at speed for a second, it closes");
        assert!(open_at(&trace, 15.8), "the next slow phase opens it again");
    }

    #[test]
    fn an_outage_opens_the_gate_within_two_bins() {
        let trace = run(20.0, |t| if (10.0..10.5).contains(&t) { 0.0 } else { 19.0 }, |_| 0.0);
        assert!(!open_at(&trace, 10.0));
        assert!(open_at(&trace, 10.2 + 1e-6));
    }

    #[test]
    fn a_hop_that_stays_slower_closes_the_gate_while_the_held_bytes_grow() {
        // An outage opens it; after it the hop asks as before, and what is held does not fall
        // (upstream is as fast): the gate closes after CLOSE_BINS bins at speed.
        let held = |t: f64| if t > 5.0 { 4e6 + (t - 5.0) * 1e5 } else { 0.0 };
        let trace = run(20.0, |t| if (5.0..7.0).contains(&t) { 0.0 } else { 19.0 }, held);
        assert!(open_at(&trace, 6.0));
        assert!(open_at(&trace, 7.5), "the window still holds the outage");
        assert!(trace.iter().filter(|&&(t, _)| t > 9.5).all(|&(_, open)| !open));
    }

    #[test]
    fn after_an_idle_spell_longer_than_its_memory_the_gate_starts_afresh() {
        let mut g = SwingGate::new(SimTime::ZERO, MSS);
        let mut asked = 0.0;
        let mut t = 0.0;
        while t < 5.0 {
            asked += 10.0 * MBPS * BIN.as_secs_f64();
            t += BIN.as_secs_f64();
            g.update(at(t), asked as u64, 0);
        }
        // 60 s later downstream asks again, at the same rate: a whole window first, then steady.
        asked += 100.0 * MBPS;
        t = 65.0;
        assert!(!g.update(at(t), asked as u64, 0));
        while t < 75.0 {
            asked += 10.0 * MBPS * BIN.as_secs_f64();
            t += BIN.as_secs_f64();
            assert!(!g.update(at(t), asked as u64, 0), "what was asked during the gap is no peak (t = {t})");
        }
    }

    #[test]
    fn bins_without_an_update_count_as_asking_nothing() {
        let mut g = SwingGate::new(SimTime::ZERO, MSS);
        let mut asked = 0.0;
        for i in 1..=30 {
            asked += 10.0 * MBPS * BIN.as_secs_f64();
            g.update(at(i as f64 * BIN.as_secs_f64()), asked as u64, 0);
        }
        assert!(!g.is_open());
        asked += 10.0 * MBPS * BIN.as_secs_f64();
        assert!(g.update(at(6.0), asked as u64, 0), "3 s with one bin's requests is an outage");
        assert_eq!(g.openings, 1);
    }
}
