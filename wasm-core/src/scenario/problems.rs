//! The collector of a scenario's range problems, with the wording every check shares.

use super::{FieldError, MAX_DELAY_MS, MAX_DURATION_S, MAX_RATE_MBPS};
use crate::number_text::Num;

/// The problems found so far; each check adds one naming its path when its value is out of range.
pub(super) struct Problems(pub(super) Vec<FieldError>);

impl Problems {
    pub(super) fn check(&mut self, ok: bool, path: impl FnOnce() -> String, what: impl FnOnce() -> String) {
        if !ok {
            self.0.push(FieldError::new(path(), what()));
        }
    }
    pub(super) fn push(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(path, message));
    }
    pub(super) fn positive(&mut self, v: f64, path: impl FnOnce() -> String) {
        self.check(v.is_finite() && v > 0.0, path, || format!("must be a positive number (got {})", Num(v)));
    }
    pub(super) fn non_negative(&mut self, v: f64, path: impl FnOnce() -> String) {
        self.check(v.is_finite() && v >= 0.0, path, || format!("must be zero or positive (got {})", Num(v)));
    }
    /// `lo ≤ v ≤ hi`, with the message every range check in the format uses.
    pub(super) fn between(&mut self, v: f64, lo: f64, hi: f64, path: impl FnOnce() -> String) {
        self.check(v.is_finite() && (lo..=hi).contains(&v), path, || {
            format!("must be between {} and {} (got {})", Num(lo), Num(hi), Num(v))
        });
    }
    /// A whole number `lo ≤ v ≤ hi`, `unit` (" bytes", " packets", or empty) after the bounds.
    pub(super) fn count_between(&mut self, v: u32, lo: u32, hi: u32, unit: &str, path: impl FnOnce() -> String) {
        self.check((lo..=hi).contains(&v), path, || format!("must be between {lo} and {hi}{unit} (got {v})"));
    }
    /// A flow's payload bytes per packet: at least a minimal segment and at most a jumbo frame's
    /// worth, the bounds every transport shares.
    pub(super) fn mss_bytes(&mut self, v: u32, path: impl FnOnce() -> String) {
        self.count_between(v, 64, 65_000, " bytes", path);
    }
    /// A link rate in Mbit/s: positive, and at most `MAX_RATE_MBPS`.
    pub(super) fn rate(&mut self, v: f64, path: impl FnOnce() -> String) {
        if v > MAX_RATE_MBPS && v.is_finite() {
            self.push(
                path(),
                format!(
                    "must be at most {MAX_RATE_MBPS} Mbit/s (got {}): faster links would send packets in less than \
                     a nanosecond, the simulator's clock step",
                    Num(v)
                ),
            );
        } else {
            self.positive(v, path);
        }
    }
    /// A delay in ms: zero or more, and at most [`MAX_DELAY_MS`].
    pub(super) fn delay_ms(&mut self, v: f64, path: impl FnOnce() -> String) {
        if v.is_finite() && v > MAX_DELAY_MS {
            self.push(path(), format!("must be at most {MAX_DELAY_MS} ms, a week, the longest run (got {})", Num(v)));
        } else {
            self.non_negative(v, path);
        }
    }
    /// A time within a run, s: zero or more (above zero if `positive`), at most [`MAX_DURATION_S`].
    pub(super) fn time_s(&mut self, v: f64, positive: bool, path: impl FnOnce() -> String) {
        if v.is_finite() && v > MAX_DURATION_S {
            self.push(path(), format!("must be at most {MAX_DURATION_S} s, a week, the longest run (got {})", Num(v)));
        } else if positive {
            self.positive(v, path);
        } else {
            self.non_negative(v, path);
        }
    }
    pub(super) fn probability(&mut self, v: f64, path: impl FnOnce() -> String) {
        self.check((0.0..=1.0).contains(&v), path, || {
            format!("must be a probability between 0 and 1 (got {})", Num(v))
        });
    }
}

/// Seconds as the simulator's whole nanoseconds.
pub(super) fn nanos(s: f64) -> u64 {
    crate::sim::SimDuration::from_secs_f64(s).0
}
