//! A Walker shell written as TLE text the way Hypatia's generator writes it
//! (docs/links-and-orbits.md §13), and the pieces of the TLE format it shares with the parser in
//! `elements.rs`: the line checksum and the UTC date-times of epochs.

use super::geometry;
use super::walker::WalkerShell;
use sgp4::chrono::NaiveDateTime;

/// Hypatia's TLE epoch, 2000-01-01 00:00 UTC (TLE epoch field `00001.00000000`).
pub const HYPATIA_EPOCH: &str = "2000-01-01T00:00:00Z";

/// The TLE text of a Walker shell (no header line), satellite (p, s) as set `p·S + s` with
/// catalogue number `p·S + s + 1`: Hypatia's layout (its `generate_tles_from_scratch` "manual"
/// variant), RAAN 360°·p/P, mean anomaly 360°·s/S + 360°·F·p/T (+ half a slot on odd planes
/// with `phase_diff`), eccentricity 1e-7, argument of perigee 0, no drag.
pub fn walker_tle_text(shell: &WalkerShell, epoch: NaiveDateTime) -> String {
    use sgp4::chrono::{Datelike, Timelike};
    let (p_n, s_n) = (shell.planes, shell.sats_per_plane);
    let mean_motion = shell.mean_motion_rev_per_day.unwrap_or_else(|| 86_400.0 / geometry::period_s(shell.altitude_km));
    let day = epoch.ordinal() as f64
        + (epoch.num_seconds_from_midnight() as f64 + epoch.nanosecond() as f64 * 1e-9) / 86_400.0;
    let epoch_field = format!("{:02}{:012.8}", epoch.year().rem_euclid(100), day);
    let angle = |deg: f64| format!("{:>8}", format!("{:.4}", deg));
    let t = shell.total() as f64;
    let mut out = String::new();
    for p in 0..p_n {
        let raan = p as f64 * 360.0 / p_n as f64;
        let half_slot = if shell.phase_diff && p % 2 == 1 { 360.0 / (s_n as f64 * 2.0) } else { 0.0 };
        for s in 0..s_n {
            let id = p * s_n + s;
            let anomaly = (half_slot + s as f64 * 360.0 / s_n as f64 + 360.0 * (shell.phasing * p) as f64 / t) % 360.0;
            let l1 = format!("1 {:05}U 00000ABC {epoch_field}  .00000000  00000-0  00000+0 0    0", id + 1);
            let l2 = format!(
                "2 {:05} {} {} 0000001 {} {} {:>11}    0",
                id + 1,
                angle(shell.inclination_deg),
                angle(raan),
                angle(0.0),
                angle(anomaly),
                format!("{mean_motion:.8}")
            );
            out.push_str(&format!("W {id}\n{l1}{}\n{l2}{}\n", tle_checksum(&l1), tle_checksum(&l2)));
        }
    }
    out
}

/// A `YYYY-MM-DDTHH:MM:SS[.fff][Z]` date-time.
pub fn parse_iso_utc(text: &str) -> Option<NaiveDateTime> {
    NaiveDateTime::parse_from_str(text.trim_end_matches('Z'), "%Y-%m-%dT%H:%M:%S%.f").ok()
}

/// Modulo-10 TLE checksum of the first 68 columns: digits count their value, '-' counts 1.
pub fn tle_checksum(line: &str) -> u32 {
    line.bytes()
        .take(68)
        .map(|b| match b {
            b'0'..=b'9' => (b - b'0') as u32,
            b'-' => 1,
            _ => 0,
        })
        .sum::<u32>()
        % 10
}
