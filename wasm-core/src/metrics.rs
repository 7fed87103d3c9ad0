//! Measurements: bounded time-series traces, one-way-delay statistics, jitter, and Jain's index.

use crate::sim::{SimDuration, SimTime};

mod delay;
pub use delay::{delay_stats_max_bytes, DelayStats, DelaySummary, RELATIVE_ERROR as DELAY_RELATIVE_ERROR};

/// A time series of `N` columns that never holds more than `max_points` points.
///
/// Points closer than `min_dt` to the previous one are skipped. When the trace fills up, every
/// other point is dropped and `min_dt` doubles, so a 10-minute run stays as small as a 10-second
/// one while keeping an even spread over time.
#[derive(Clone, Debug)]
pub struct Trace<const N: usize> {
    pub t: Vec<f64>,
    pub cols: [Vec<f64>; N],
    min_dt: u64,
    last: Option<SimTime>,
    max_points: usize,
}

impl<const N: usize> Trace<N> {
    pub fn new(max_points: usize) -> Self {
        Trace {
            t: Vec::new(),
            cols: std::array::from_fn(|_| Vec::new()),
            min_dt: 0,
            last: None,
            max_points: max_points.max(2),
        }
    }

    pub fn with_interval(max_points: usize, min_dt: SimDuration) -> Self {
        let mut t = Self::new(max_points);
        t.min_dt = min_dt.0;
        t
    }

    /// Inlined so that most calls, which fall within `min_dt` of the last point, cost a
    /// comparison: the caller's values are then not even computed.
    #[inline]
    pub fn record(&mut self, now: SimTime, vals: [f64; N]) {
        if let Some(last) = self.last {
            if now.0 < last.0.saturating_add(self.min_dt) {
                return;
            }
        }
        self.push(now, vals);
    }

    fn push(&mut self, now: SimTime, vals: [f64; N]) {
        if self.t.len() >= self.max_points {
            self.halve(now);
        }
        self.last = Some(now);
        self.t.push(now.as_secs_f64());
        for (c, v) in self.cols.iter_mut().zip(vals) {
            c.push(v);
        }
    }

    fn halve(&mut self, now: SimTime) {
        let keep = |v: &mut Vec<f64>| {
            let mut i = 0;
            v.retain(|_| {
                i += 1;
                i % 2 == 1
            });
        };
        keep(&mut self.t);
        for c in &mut self.cols {
            keep(c);
        }
        let span = now.0.saturating_sub(SimTime::from_secs_f64(self.t[0]).0);
        self.min_dt = (self.min_dt * 2).max(span / self.max_points as u64);
    }

    /// The earliest time at which [`Self::record`] takes a point: before it, a caller may skip
    /// computing one.
    pub fn next_point_at(&self) -> SimTime {
        self.last.map_or(SimTime::ZERO, |last| SimTime(last.0.saturating_add(self.min_dt)))
    }

    pub fn len(&self) -> usize {
        self.t.len()
    }
    /// The most points the trace keeps.
    pub fn max_points(&self) -> usize {
        self.max_points
    }
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }
}

/// What a receiver records for each in-order delivery: one-way delay statistics, a bounded
/// delay trace, and delivered bytes per fixed interval (goodput over time). Beside them, the
/// one-way delay of each new segment at its *arrival*, before reordering (`arrivals`): what a
/// packet sniffer at the receiver sees, the INTCP authors' measurement (docs/intcp-protocol.md §11.1).
#[derive(Clone, Debug)]
pub struct DeliveryLog {
    pub delays: DelayStats,
    /// Per new segment at its first arrival: from its first send to its arrival.
    pub arrivals: DelayStats,
    pub owd_trace: Trace<1>,
    /// Bytes delivered in each `bin_width` interval since time zero.
    pub goodput_bins: Vec<u64>,
    pub bin_width: SimDuration,
}

impl DeliveryLog {
    pub fn new(owd_trace: Trace<1>, bin_width: SimDuration) -> DeliveryLog {
        DeliveryLog {
            delays: DelayStats::new(owd_trace.max_points()),
            arrivals: DelayStats::new(owd_trace.max_points()),
            owd_trace,
            goodput_bins: Vec::new(),
            bin_width,
        }
    }

    /// A new segment (not a duplicate) arrived at `now`, `delay` after it was first sent; it
    /// may wait for earlier bytes before it is delivered.
    pub fn record_arrival(&mut self, now: SimTime, delay: SimDuration) {
        self.arrivals.record(now, delay);
    }

    /// `bytes` delivered in order at `now`, `delay` after they were first sent.
    pub fn record(&mut self, now: SimTime, delay: SimDuration, bytes: u64) {
        self.delays.record(now, delay);
        self.owd_trace.record(now, [delay.as_millis_f64()]);
        let bin = (now.0 / self.bin_width.0.max(1)) as usize;
        if self.goodput_bins.len() <= bin {
            self.goodput_bins.resize(bin + 1, 0);
        }
        self.goodput_bins[bin] += bytes;
    }
}

/// Jain's fairness index (docs/links-and-orbits.md §11): (Σx)² / (n·Σx²); 1 when all equal, 1/n when one
/// flow takes everything. Defined as 1 for no flows or all-zero allocations.
pub fn jain_index(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let sum: f64 = x.iter().sum();
    let sq: f64 = x.iter().map(|v| v * v).sum();
    if x.is_empty() || sq == 0.0 {
        1.0
    } else {
        sum * sum / (n * sq)
    }
}

/// Mean and sample standard deviation.
pub fn mean_std(x: &[f64]) -> (f64, f64) {
    if x.is_empty() {
        return (0.0, 0.0);
    }
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    if x.len() < 2 {
        return (m, 0.0);
    }
    let var = x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0);
    (m, var.sqrt())
}

/// Half-width of the two-sided 95 % confidence interval of the mean of `x` (Student's t):
/// `t(0.975, n − 1) · s / √n`, with `s` the sample standard deviation (divisor `n − 1`) and
/// `t(0.975, ν)` [`student_t_975`]. `None` below two values, where it is undefined.
pub fn ci95_half_width(x: &[f64]) -> Option<f64> {
    if x.len() < 2 {
        return None;
    }
    let (_, s) = mean_std(x);
    Some(student_t_975(x.len() as u32 - 1) * s / (x.len() as f64).sqrt())
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom (`df` ≥ 1): the `t` with
/// P(T ≤ t) = 0.975, i.e. `I_x(df/2, 1/2) = 0.05` for `x = df / (df + t²)` (`I` the regularized
/// incomplete beta). Found by bisection, with `libm`'s functions so the native and wasm builds
/// give the same bits.
pub fn student_t_975(df: u32) -> f64 {
    let nu = f64::from(df.max(1));
    let tail = |t: f64| incomplete_beta(nu / 2.0, 0.5, nu / (nu + t * t));
    // The tail shrinks as t grows; t(0.975, 1) ≈ 12.7 is the largest.
    let (mut lo, mut hi) = (0.0f64, 64.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid == lo || mid == hi {
            break;
        }
        if tail(mid) > 0.05 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The regularized incomplete beta function `I_x(a, b)`, by its continued fraction (Lentz's
/// method), on the side of `x` where the fraction converges fast.
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        libm::exp(libm::lgamma(a + b) - libm::lgamma(a) - libm::lgamma(b) + a * libm::log(x) + b * libm::log(1.0 - x));
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let nonzero = |v: f64| if v.abs() < TINY { TINY } else { v };
    let mut c = 1.0;
    let mut d = 1.0 / nonzero(1.0 - (a + b) * x / (a + 1.0));
    let mut h = d;
    for m in 1..=500 {
        let m = f64::from(m);
        let even = m * (b - m) * x / ((a - 1.0 + 2.0 * m) * (a + 2.0 * m));
        d = 1.0 / nonzero(1.0 + even * d);
        c = nonzero(1.0 + even / c);
        h *= d * c;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 1.0 + 2.0 * m));
        d = 1.0 / nonzero(1.0 + odd * d);
        c = nonzero(1.0 + odd / c);
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_takes_a_point_exactly_from_its_next_point_time_on() {
        // Two points spread over the run, as a satellite's INTCP trace keeps: it halves often.
        for max_points in [2, 5] {
            let mut trace = Trace::<1>::new(max_points);
            for i in 0..5_000u64 {
                let now = SimTime(i * 1_000_003 % 7_919 + i * 997);
                let (before, last) = (trace.len(), trace.t.last().copied());
                let due = now >= trace.next_point_at();
                trace.record(now, [i as f64]);
                let took = trace.len() != before || trace.t.last().copied() != last;
                assert_eq!(took, due, "at {now:?}, point {i}");
            }
        }
    }

    #[test]
    fn student_t_quantiles_match_the_tables() {
        // Two-sided 95 % critical values as printed in statistics tables (six decimals).
        for (df, t) in [(1, 12.706205), (2, 4.302653), (4, 2.776445), (9, 2.262157), (29, 2.045230), (1000, 1.962339)] {
            let got = student_t_975(df);
            assert!((got - t).abs() < 5e-6, "df {df}: {got} against {t}");
        }
    }

    #[test]
    fn the_confidence_half_width_is_t_times_s_over_root_n() {
        // 1, 2, 3, 4: mean 2.5, s = sqrt(5/3); t(0.975, 3) = 3.182446.
        let h = ci95_half_width(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert!((h - 3.182446 * (5.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-5, "{h}");
        assert_eq!(ci95_half_width(&[7.0]), None, "one value has no interval");
        assert_eq!(ci95_half_width(&[2.0, 2.0, 2.0]), Some(0.0));
    }

    #[test]
    fn jain_index_matches_the_reference_vectors() {
        assert!((jain_index(&[1.0, 1.0, 1.0, 1.0]) - 1.0).abs() < 1e-12);
        assert!((jain_index(&[1.0, 0.0, 0.0, 0.0]) - 0.25).abs() < 1e-12);
        assert!((jain_index(&[1.0, 1.0, 0.0, 0.0]) - 0.5).abs() < 1e-12);
        assert!((jain_index(&[10.0, 20.0, 30.0, 40.0, 50.0, 60.0]) - 0.8077).abs() < 1e-4);
    }

    #[test]
    fn jain_index_is_scale_invariant() {
        let a = [3.0, 5.0, 9.0];
        let b: Vec<f64> = a.iter().map(|v| v * 7.5).collect();
        assert!((jain_index(&a) - jain_index(&b)).abs() < 1e-12);
    }

    #[test]
    fn trace_stays_bounded_and_spans_the_whole_run() {
        let mut t: Trace<1> = Trace::new(100);
        for i in 0..100_000u64 {
            t.record(SimTime(i * 1_000_000), [i as f64]);
        }
        assert!(t.len() <= 100);
        assert!(t.len() >= 40, "{}", t.len());
        assert_eq!(t.t[0], 0.0);
        assert!(*t.t.last().unwrap() > 90.0);
        assert!(t.t.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn mean_std_of_a_known_sample() {
        let (m, s) = mean_std(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(m, 5.0);
        assert!((s - 2.138).abs() < 1e-3);
    }
}
