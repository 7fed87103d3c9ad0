//! Checks of a scenario's TLE and OMM element sets before they are propagated: every orbit's
//! perigee above [`MIN_PERIGEE_ALTITUDE_KM`], and the epochs of one constellation within
//! `max_epoch_span_days` of each other (time zero is the latest epoch, so one set with a wrong
//! year would move it by decades without a word).
//!
//! Errors name the set: a TLE set by its index among the TLE sets and its line in the text, an
//! OMM record by its index.

use super::elements::{ElementSource, SourcedElements};
use super::geometry::{EARTH_RADIUS_KM, MIN_PERIGEE_ALTITUDE_KM, MU_KM3_S2};
use super::OrbitError;
use crate::number_text::Num;
use sgp4::chrono::{Datelike, NaiveDateTime, Timelike};

/// Default of `constellation.max_epoch_span_days`. A TLE's position error grows by a few km a
/// day from its epoch (more at low altitude, where drag dominates), so sets a month apart no
/// longer describe one moment of a constellation; CelesTrak's sets of a constellation span a
/// few days and Hypatia's share one epoch, so a month refuses only a mistake (such as year "56",
/// 2056, among sets from 2024).
pub const DEFAULT_MAX_EPOCH_SPAN_DAYS: f64 = 30.0;

/// Perigee altitude above the WGS72 equatorial radius, km, of an orbit with mean motion
/// `rev_per_day` and eccentricity `e` (Kepler's third law for the semi-major axis).
pub fn perigee_altitude_km(rev_per_day: f64, e: f64) -> f64 {
    let n_rad_s = rev_per_day * 2.0 * std::f64::consts::PI / 86_400.0;
    (MU_KM3_S2 / (n_rad_s * n_rad_s)).cbrt() * (1.0 - e) - EARTH_RADIUS_KM
}

/// The element sets `sets` (the first `n_tle` from `tle_text`, then OMM records), checked
/// against the perigee floor and the epoch span; `clock` is the constellation's time zero when
/// a Walker shell set it.
pub fn check_sets(
    sets: &[SourcedElements],
    n_tle: usize,
    tle_text: &str,
    clock: Option<NaiveDateTime>,
    max_span_days: f64,
) -> Result<(), OrbitError> {
    let at = |i: usize, problem: String| set_error(sets, i, n_tle, tle_text, problem);
    for (i, s) in sets.iter().enumerate() {
        let (n, e) = (s.elements.mean_motion, s.elements.eccentricity);
        let perigee = perigee_altitude_km(n, e);
        if perigee.is_nan() || perigee < MIN_PERIGEE_ALTITUDE_KM {
            return Err(at(
                i,
                format!(
                    "perigee altitude {} km (mean motion {} rev/day, eccentricity {}) is below \
                     {MIN_PERIGEE_ALTITUDE_KM} km, the Kármán line: the orbit passes through the atmosphere or the Earth",
                    Num(perigee.round()),
                    Num(n),
                    Num(e)
                ),
            ));
        }
    }
    // Every epoch, the Walker shells' clock as one more (index `sets.len()`).
    let mut epochs: Vec<(usize, NaiveDateTime)> = sets.iter().map(|s| s.elements.datetime).enumerate().collect();
    epochs.extend(clock.map(|c| (sets.len(), c)));
    let mut sorted: Vec<NaiveDateTime> = epochs.iter().map(|e| e.1).collect();
    sorted.sort_unstable();
    let (Some(&first), Some(&last)) = (sorted.first(), sorted.last()) else { return Ok(()) };
    let days = |a: NaiveDateTime, b: NaiveDateTime| (a - b).num_seconds().abs() as f64 / 86_400.0;
    if days(last, first) <= max_span_days {
        return Ok(());
    }
    // The end farther from the median is the one outside, unless it is the clock.
    let median = sorted[sorted.len() / 2];
    let entry = |t: NaiveDateTime| *epochs.iter().find(|e| e.1 == t && e.0 < sets.len()).unwrap_or(&(sets.len(), t));
    let (lo, hi) = (entry(first), entry(last));
    let (outside, other) = if days(hi.1, median) >= days(lo.1, median) { (hi, lo) } else { (lo, hi) };
    let (outside, other) = if outside.0 == sets.len() { (other, outside) } else { (outside, other) };
    let iso = |t: NaiveDateTime| {
        let (d, h) = (t.date(), t.time());
        format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", d.year(), d.month(), d.day(), h.hour(), h.minute(), h.second())
    };
    let other_name = if other.0 == sets.len() {
        "the Walker shells' epoch_utc".to_string()
    } else {
        describe(sets, other.0, n_tle, tle_text)
    };
    Err(at(
        outside.0,
        format!(
            "epoch {} is {} days from {other_name}, {}: the element sets of one constellation may span at most \
             max_epoch_span_days ({} days), since time zero is the latest epoch and SGP4 drifts by kilometres a day \
             from a set's epoch (check the epoch year, or raise constellation.max_epoch_span_days)",
            iso(outside.1),
            Num((days(outside.1, other.1) * 10.0).round() / 10.0),
            iso(other.1),
            Num(max_span_days)
        ),
    ))
}

/// The satellite's name, or its catalogue number.
fn name(s: &SourcedElements) -> String {
    let name = s.elements.object_name.clone().filter(|n| !n.is_empty());
    name.unwrap_or_else(|| format!("NORAD {}", s.elements.norad_id))
        .chars()
        .take(40)
        .flat_map(char::escape_debug)
        .collect()
}

/// The 1-based line of `tle_text` where set `s` starts (its line 1), or 0.
fn line_of(s: &SourcedElements, tle_text: &str) -> usize {
    match &s.source {
        ElementSource::Tle { line1, .. } => tle_text.lines().position(|l| l.trim_end() == line1).map_or(0, |p| p + 1),
        ElementSource::Omm(_) => 0,
    }
}

/// "TLE set 3 (NAME, line 7)" or "OMM record 2 (NAME)".
fn describe(sets: &[SourcedElements], i: usize, n_tle: usize, tle_text: &str) -> String {
    if i < n_tle {
        format!("TLE set {i} ({}, line {})", name(&sets[i]), line_of(&sets[i], tle_text))
    } else {
        format!("OMM record {} ({})", i - n_tle, name(&sets[i]))
    }
}

/// A problem of set `i`, at its TLE line or OMM record.
fn set_error(sets: &[SourcedElements], i: usize, n_tle: usize, tle_text: &str, problem: String) -> OrbitError {
    if i < n_tle {
        let problem = format!("TLE set {i} ({}): {problem}", name(&sets[i]));
        OrbitError::Tle { line: line_of(&sets[i], tle_text), problem }
    } else {
        OrbitError::Omm { index: i - n_tle, name: name(&sets[i]), problem }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_perigee_follows_from_the_mean_motion_and_the_eccentricity() {
        // The ISS's set of the sgp4 crate's README: about 420 km.
        assert!((perigee_altitude_km(15.495_078_96, 0.000_141_3) - 417.0).abs() < 2.0);
        // A circular orbit at the Keplerian rate of 550 km.
        let rev_per_day = 86_400.0 / crate::orbit::geometry::period_s(550.0);
        assert!((perigee_altitude_km(rev_per_day, 0.0) - 550.0).abs() < 1e-6);
        assert!(perigee_altitude_km(15.5, 0.999_999_9) < 0.0);
    }
}
