//! One-way delay statistics in a fixed amount of memory, whatever the run's length: delays are
//! kept in 64-bit nanoseconds, exactly while a statistic has at most [`EXACT_SAMPLES`] of them,
//! then in a log-bucketed histogram whose percentiles are within [`RELATIVE_ERROR`] of the exact
//! ones. The mean is exact from a running sum; the jitter of the INTCP paper comes from running
//! per-second sums, and its series is a bounded [`Trace`].

use super::Trace;
use crate::sim::{SimDuration, SimTime};

/// Samples a statistic keeps one by one (exact percentiles and CDF); past them it moves to the
/// histogram. 2^14 samples are 128 KiB, about what the histogram takes at its widest.
pub const EXACT_SAMPLES: usize = 1 << 14;
/// Up to this many ranks, exact order statistics are selected rather than read from a sort.
const FEW_RANKS: usize = 4;
/// Histogram buckets per power of two: a bucket is at most 1/512 of its lower bound wide, and a
/// percentile is reported at its bucket's middle.
const SUB_BUCKETS: u64 = 512;
/// Delays below this many nanoseconds have a bucket each (exact).
const LINEAR: u64 = 2 * SUB_BUCKETS;
/// Buckets of a histogram covering every u64 delay.
pub const HISTOGRAM_BUCKETS: usize = (64 - 8) * SUB_BUCKETS as usize;
/// Largest relative error of a percentile or CDF point read from the histogram: half a bucket's
/// width over its lower bound, 1/1024 (≈ 0.098 %).
pub const RELATIVE_ERROR: f64 = 1.0 / (2 * SUB_BUCKETS) as f64;
/// Trace points of the jitter series when no scenario gives them.
const DEFAULT_JITTER_POINTS: usize = 2000;

/// Bytes a statistic may hold at most besides its jitter trace, when no delay is longer than
/// `longest` (a run's duration): the exact samples, or the histogram over the buckets up to
/// `longest` with the room it keeps to grow, whichever is larger.
pub fn delay_stats_max_bytes(longest: SimDuration) -> u64 {
    let exact = EXACT_SAMPLES as u64 * 8;
    let buckets = (bucket_of(longest.0) as u64 + 1) * 3 / 2 + 1;
    exact.max(buckets.min(HISTOGRAM_BUCKETS as u64) * 8)
}

fn bucket_of(ns: u64) -> usize {
    if ns < LINEAR {
        return ns as usize;
    }
    let e = 63 - ns.leading_zeros() as u64 - 9;
    (e * SUB_BUCKETS + (ns >> e)) as usize
}

/// The middle of bucket `i`, in ns (its one value below `LINEAR`).
fn bucket_middle(i: usize) -> f64 {
    let i = i as u64;
    if i < LINEAR {
        return i as f64;
    }
    let e = i / SUB_BUCKETS - 1;
    let m = i - e * SUB_BUCKETS;
    (m << e) as f64 + ((1u64 << e) - 1) as f64 / 2.0
}

/// Counts per bucket over the range of buckets seen so far (`counts[0]` is bucket `offset`).
#[derive(Clone, Debug, Default)]
struct Histogram {
    offset: usize,
    counts: Vec<u64>,
}

impl Histogram {
    fn add(&mut self, ns: u64) {
        let i = bucket_of(ns);
        let end = self.offset + self.counts.len();
        if self.counts.is_empty() || i < self.offset || i >= end {
            self.widen(i);
        }
        self.counts[i - self.offset] += 1;
    }

    /// Makes room for bucket `i`, with half the current span again on that side (so that slowly
    /// drifting delays do not copy the counts once per new bucket), in a vector of exactly that
    /// length.
    fn widen(&mut self, i: usize) {
        let (mut lo, mut hi) = (self.offset, self.offset + self.counts.len());
        let slack = self.counts.len() / 2;
        if self.counts.is_empty() {
            (lo, hi) = (i, i + 1);
        } else if i < lo {
            lo = i.saturating_sub(slack);
        } else {
            hi = (i + 1 + slack).min(HISTOGRAM_BUCKETS);
        }
        let mut counts = Vec::with_capacity(hi - lo);
        counts.resize(self.offset.max(lo) - lo, 0);
        counts.extend_from_slice(&self.counts);
        counts.resize(hi - lo, 0);
        self.counts = counts;
        self.offset = lo;
    }

    /// The middles of the buckets holding the samples of 1-based ranks `ranks` (ascending).
    fn at_ranks(&self, ranks: impl Iterator<Item = u64>) -> Vec<f64> {
        let mut out = Vec::new();
        let (mut b, mut below) = (0, 0u64);
        for r in ranks {
            while b < self.counts.len() && below + self.counts[b] < r {
                below += self.counts[b];
                b += 1;
            }
            out.push(bucket_middle(self.offset + b.min(self.counts.len() - 1)));
        }
        out
    }
}

/// Per-delivery one-way delays, for the mean, percentiles and CDF, plus per-second means for
/// the jitter of the INTCP paper.
#[derive(Clone, Debug)]
pub struct DelayStats {
    count: u64,
    sum_ns: u128,
    min_ns: u64,
    max_ns: u64,
    /// Every sample, while there are at most `EXACT_SAMPLES`.
    exact: Vec<u64>,
    /// Every sample once there are more (then `exact` is empty).
    hist: Option<Histogram>,
    jitter: Jitter,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct DelaySummary {
    pub mean: f64,
    pub p5: f64,
    pub p95: f64,
}

impl Default for DelayStats {
    fn default() -> Self {
        DelayStats::new(DEFAULT_JITTER_POINTS)
    }
}

impl DelayStats {
    /// Statistics whose jitter series keeps at most `max_points` points.
    pub fn new(max_points: usize) -> DelayStats {
        DelayStats {
            count: 0,
            sum_ns: 0,
            min_ns: u64::MAX,
            max_ns: 0,
            exact: Vec::new(),
            hist: None,
            jitter: Jitter::new(max_points),
        }
    }

    pub fn record(&mut self, at: SimTime, delay: SimDuration) {
        let ns = delay.0;
        self.count += 1;
        self.sum_ns += ns as u128;
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
        match &mut self.hist {
            Some(h) => h.add(ns),
            None if self.exact.len() < EXACT_SAMPLES => self.exact.push(ns),
            None => {
                let mut h = Histogram::default();
                for &x in self.exact.iter().chain([&ns]) {
                    h.add(x);
                }
                self.exact = Vec::new();
                self.hist = Some(h);
            }
        }
        self.jitter.record(at, ns);
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether percentiles and the CDF are exact (not read from the histogram).
    pub fn is_exact(&self) -> bool {
        self.hist.is_none()
    }

    /// The delays at 1-based ranks `ranks` (ascending), in ns: exact, or their buckets' middles
    /// held within the smallest and largest delay seen.
    fn at_ranks(&self, ranks: impl Iterator<Item = u64>) -> Vec<f64> {
        match &self.hist {
            Some(h) => h.at_ranks(ranks).into_iter().map(|v| v.clamp(self.min_ns as f64, self.max_ns as f64)).collect(),
            None => {
                let mut s = self.exact.clone();
                let ranks: Vec<u64> = ranks.collect();
                if ranks.len() > FEW_RANKS {
                    s.sort_unstable();
                    return ranks.iter().map(|&r| s[r as usize - 1] as f64).collect();
                }
                // A few order statistics (the summary's two percentiles): selecting each costs
                // linear time where sorting costs n log n. Ranks ascend, and a selection leaves
                // everything above its rank behind it, so each next one searches only that part.
                let mut from = 0;
                ranks
                    .iter()
                    .map(|&r| {
                        let i = r as usize - 1;
                        let v = *s[from..].select_nth_unstable(i - from).1;
                        from = i;
                        v as f64
                    })
                    .collect()
            }
        }
    }

    /// Mean and 5th/95th percentiles (nearest rank), in milliseconds.
    pub fn summary(&self) -> DelaySummary {
        if self.count == 0 {
            return DelaySummary::default();
        }
        let rank = |q: f64| ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let p = self.at_ranks([rank(0.05), rank(0.95)].into_iter());
        DelaySummary { mean: self.sum_ns as f64 / self.count as f64 / 1e6, p5: p[0] / 1e6, p95: p[1] / 1e6 }
    }

    /// Jitter as the INTCP paper defines it: the difference of mean delay between consecutive
    /// seconds. Returns (t, |difference| in ms) for each pair of consecutive seconds with data,
    /// thinned as a trace once there are more than the statistic's `max_points`.
    pub fn jitter_series(&self) -> Vec<(f64, f64)> {
        let tr = &self.jitter.series;
        let mut v: Vec<(f64, f64)> = tr.t.iter().copied().zip(tr.cols[0].iter().copied()).collect();
        if let Some(last) = self.jitter.pending() {
            v.push(last);
        }
        v
    }

    /// Mean jitter in ms (0 when there are fewer than two consecutive seconds of data), over
    /// every pair of consecutive seconds.
    pub fn mean_jitter(&self) -> f64 {
        let (mut sum, mut n) = (self.jitter.sum_ms, self.jitter.pairs);
        if let Some((_, d)) = self.jitter.pending() {
            sum += d;
            n += 1;
        }
        if n == 0 {
            0.0
        } else {
            sum / n as f64
        }
    }

    /// The sorted delays in ms, for CDF charts, reduced to at most `max` evenly spaced quantiles.
    pub fn cdf(&self, max: usize) -> Vec<f64> {
        if self.count == 0 || max == 0 {
            return Vec::new();
        }
        let len = self.count;
        let n = len.min(max as u64);
        self.at_ranks((0..n).map(|i| i * (len - 1) / (n - 1).max(1) + 1)).into_iter().map(|v| v / 1e6).collect()
    }
}

/// Per-second sums of delay, for the jitter: the second being filled, the mean of the one
/// before, and the pairs of consecutive seconds so far.
#[derive(Clone, Debug)]
struct Jitter {
    /// The second being filled: (second, sum of delays in ns, count).
    open: Option<(u64, u128, u64)>,
    /// The last closed second and its mean delay in ms.
    prev: Option<(u64, f64)>,
    sum_ms: f64,
    pairs: u64,
    /// (second, |change of mean| in ms) per closed pair.
    series: Trace<1>,
}

impl Jitter {
    fn new(max_points: usize) -> Jitter {
        Jitter { open: None, prev: None, sum_ms: 0.0, pairs: 0, series: Trace::new(max_points) }
    }

    fn record(&mut self, at: SimTime, ns: u64) {
        let sec = at.0 / 1_000_000_000;
        match &mut self.open {
            Some((s, sum, n)) if *s == sec => {
                *sum += ns as u128;
                *n += 1;
                return;
            }
            _ => {}
        }
        if let Some((s, d)) = self.pending() {
            self.sum_ms += d;
            self.pairs += 1;
            self.series.record(SimTime(s as u64 * 1_000_000_000), [d]);
        }
        if let Some((s, sum, n)) = self.open {
            self.prev = Some((s, sum as f64 / n as f64 / 1e6));
        }
        self.open = Some((sec, ns as u128, 1));
    }

    /// The pair the open second makes with the one before, if they are consecutive.
    fn pending(&self) -> Option<(f64, f64)> {
        let (s, sum, n) = self.open?;
        let (p, mean) = self.prev?;
        (p + 1 == s).then(|| (s as f64, (sum as f64 / n as f64 / 1e6 - mean).abs()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::{Rng, Stream};

    fn exact_rank(sorted: &[u64], q: f64) -> f64 {
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1] as f64
    }

    #[test]
    fn delay_percentiles_use_nearest_rank() {
        let mut d = DelayStats::default();
        for ms in 1..=100u64 {
            d.record(SimTime(0), SimDuration::from_millis(ms));
        }
        let s = d.summary();
        assert_eq!(s.p5, 5.0);
        assert_eq!(s.p95, 95.0);
        assert!((s.mean - 50.5).abs() < 1e-9);
    }

    #[test]
    fn jitter_is_the_change_of_mean_delay_between_consecutive_seconds() {
        let mut d = DelayStats::default();
        d.record(SimTime::from_secs_f64(0.5), SimDuration::from_millis(100));
        d.record(SimTime::from_secs_f64(1.5), SimDuration::from_millis(130));
        d.record(SimTime::from_secs_f64(2.5), SimDuration::from_millis(120));
        // A gap: second 4 is not consecutive to second 2.
        d.record(SimTime::from_secs_f64(4.5), SimDuration::from_millis(500));
        let j = d.jitter_series();
        assert_eq!(j.len(), 2);
        assert_eq!((j[0].0, j[1].0), (1.0, 2.0));
        assert!((j[0].1 - 30.0).abs() < 1e-9 && (j[1].1 - 10.0).abs() < 1e-9);
        assert!((d.mean_jitter() - 20.0).abs() < 1e-9);
    }

    #[test]
    fn a_delay_past_u32_microseconds_is_reported_in_full() {
        // 5 000 000 ms used to saturate at 4 294 967.295 ms (u32 microseconds).
        let mut d = DelayStats::default();
        d.record(SimTime::from_secs_f64(10_000.0), SimDuration::from_millis(5_000_000));
        d.record(SimTime::from_secs_f64(10_000.0), SimDuration(5_000_000_000_001));
        let s = d.summary();
        assert_eq!((s.p5, s.p95), (5_000_000.0, 5_000_000.000001));
        assert_eq!(d.cdf(10), vec![5_000_000.0, 5_000_000.000001]);
    }

    #[test]
    fn delays_keep_their_nanoseconds() {
        let mut d = DelayStats::default();
        d.record(SimTime(0), SimDuration(1_234_567));
        assert_eq!(d.summary().mean, 1.234567);
    }

    #[test]
    fn buckets_hold_their_values_within_the_stated_error() {
        for ns in (0..5000u64).chain([u64::MAX, u64::MAX / 3, 1 << 40, (1 << 40) - 1, 123_456_789_012]) {
            let mid = bucket_middle(bucket_of(ns));
            assert!((mid - ns as f64).abs() <= ns as f64 * RELATIVE_ERROR, "{ns}: {mid}");
        }
        assert!(bucket_of(u64::MAX) < HISTOGRAM_BUCKETS);
        assert_eq!(bucket_of(LINEAR - 1) + 1, bucket_of(LINEAR));
    }

    #[test]
    fn percentiles_are_exact_while_the_samples_are_few() {
        let mut rng = Rng::new(7, Stream::Transport { flow: 0 });
        let mut d = DelayStats::default();
        let mut all = Vec::new();
        for _ in 0..EXACT_SAMPLES {
            let ns = (rng.uniform() * 3e9) as u64;
            d.record(SimTime(0), SimDuration(ns));
            all.push(ns);
        }
        all.sort_unstable();
        assert!(d.is_exact());
        let s = d.summary();
        assert_eq!((s.p5, s.p95), (exact_rank(&all, 0.05) / 1e6, exact_rank(&all, 0.95) / 1e6));
        let cdf = d.cdf(100);
        assert_eq!(cdf[0], all[0] as f64 / 1e6);
        assert_eq!(cdf[99], all[all.len() - 1] as f64 / 1e6);
    }

    #[test]
    fn percentiles_of_many_samples_are_within_the_stated_relative_error() {
        let mut rng = Rng::new(11, Stream::Transport { flow: 0 });
        for spread in [1.0f64, 1e3, 1e9] {
            let mut d = DelayStats::new(50);
            let mut all = Vec::new();
            for i in 0..300_000u64 {
                // Log-uniform over `spread`, from 20 ms.
                let ns = (2e7 * spread.powf(rng.uniform())) as u64 + i % 3;
                d.record(SimTime(i * 10_000), SimDuration(ns));
                all.push(ns);
            }
            assert!(!d.is_exact());
            all.sort_unstable();
            let sum: u128 = all.iter().map(|&x| x as u128).sum();
            let s = d.summary();
            assert_eq!(s.mean, sum as f64 / all.len() as f64 / 1e6, "the mean stays exact");
            for (got, q) in [(s.p5, 0.05), (s.p95, 0.95)] {
                let want = exact_rank(&all, q) / 1e6;
                assert!((got - want).abs() <= want * RELATIVE_ERROR, "spread {spread} q {q}: {got} vs {want}");
            }
            let cdf = d.cdf(1000);
            assert_eq!(cdf.len(), 1000);
            for (i, got) in cdf.iter().enumerate() {
                let want = all[i * (all.len() - 1) / 999] as f64 / 1e6;
                assert!((got - want).abs() <= want * RELATIVE_ERROR, "cdf {i}: {got} vs {want}");
            }
        }
    }

    #[test]
    fn the_histogram_stays_within_its_stated_size_below_the_longest_delay() {
        let longest = SimDuration::from_millis(10_000);
        for rising in [true, false] {
            let mut d = DelayStats::new(10);
            for i in 0..200_000u64 {
                let k = if rising { i } else { 200_000 - i };
                d.record(SimTime(0), SimDuration(longest.0 / 200_000 * k + 1));
            }
            let bytes = d.hist.as_ref().unwrap().counts.capacity() as u64 * 8;
            assert!(bytes <= delay_stats_max_bytes(longest), "{bytes}");
        }
    }

    #[test]
    fn a_statistic_holds_a_bounded_number_of_buckets_however_many_samples() {
        let mut d = DelayStats::new(100);
        // Falling delays, one second each, over the whole range of a run: the worst shape for
        // the histogram's growth and the jitter series.
        for i in 0..2_000_000u64 {
            d.record(SimTime(i * 1_000_000_000), SimDuration(u64::MAX >> (i % 64)));
        }
        let h = d.hist.as_ref().unwrap();
        assert!(h.counts.capacity() <= HISTOGRAM_BUCKETS);
        assert!(d.exact.capacity() == 0);
        assert!(d.jitter.series.len() <= 100);
        assert_eq!(d.count(), 2_000_000);
    }
}
