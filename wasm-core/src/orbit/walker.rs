//! Walker-delta shells as the scenario format writes them, and the checks of their parameters:
//! apart from their propagation (`elements.rs`), so that a build without the orbit code still
//! parses and checks a constellation scenario's shells.

use super::geometry::MIN_PERIGEE_ALTITUDE_KM;
use super::OrbitError;
use crate::number_text::Num;

/// A Walker-delta shell i:T/P/F.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WalkerShell {
    pub altitude_km: f64,
    pub inclination_deg: f64,
    /// P, the number of orbital planes.
    pub planes: usize,
    /// S = T/P, satellites per plane.
    pub sats_per_plane: usize,
    /// F ∈ {0, …, P−1}: the phase offset between adjacent planes is 360°·F/T.
    #[serde(default)]
    pub phasing: usize,
    /// Odd planes shifted by half a slot, 360°/(2S), on top of F (Hypatia's `phase_diff`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub phase_diff: bool,
    /// The shell's t = 0 as a UTC date-time, e.g. `2000-01-01T00:00:00Z` (Hypatia's TLE epoch).
    /// Its RAANs are then measured from the vernal equinox and the Earth turned by the sidereal
    /// time at that instant; it is the constellation's clock, shared with TLE/OMM sets. Without
    /// it, t = 0 is when the shell's inertial and Earth-fixed frames coincide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch_utc: Option<String>,
    /// How the satellites move: `"kepler"` (default: exact circular orbits) or `"sgp4"` (each
    /// satellite becomes a TLE written as Hypatia's generator writes it, eccentricity 1e-7, drag
    /// 0, angles to 4 decimals, and moves by SGP4; the epoch defaults to 2000-01-01T00:00:00Z).
    #[serde(default, skip_serializing_if = "is_kepler")]
    pub propagator: Propagator,
    /// Mean motion of the SGP4 elements, rev/day (Hypatia: 14.80 for Kuiper-630, 15.19 for
    /// Starlink-550). Default: the Keplerian rate at `altitude_km`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_motion_rev_per_day: Option<f64>,
}

/// How a Walker shell's satellites move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Propagator {
    #[default]
    Kepler,
    Sgp4,
}

fn is_kepler(p: &Propagator) -> bool {
    *p == Propagator::Kepler
}

impl WalkerShell {
    /// Starlink shell 1: 72 × 22 at 550 km, 53° [docs/links-and-orbits.md §8]; F = 1 as StarPerf's
    /// `phase_shift` [docs/links-and-orbits.md §7].
    pub fn starlink_shell1() -> Self {
        WalkerShell {
            altitude_km: 550.0,
            inclination_deg: 53.0,
            planes: 72,
            sats_per_plane: 22,
            phasing: 1,
            phase_diff: false,
            epoch_utc: None,
            propagator: Propagator::Kepler,
            mean_motion_rev_per_day: None,
        }
    }

    /// The INTCP paper's shell: 1600 satellites in 32 planes at 1150 km, 53° [docs/links-and-orbits.md §8,
    /// docs/links-and-orbits.md §8]; F = 1 (the paper gives none).
    pub fn intcp_1600() -> Self {
        WalkerShell {
            altitude_km: 1150.0,
            inclination_deg: 53.0,
            planes: 32,
            sats_per_plane: 50,
            phasing: 1,
            phase_diff: false,
            epoch_utc: None,
            propagator: Propagator::Kepler,
            mean_motion_rev_per_day: None,
        }
    }

    /// Starlink's first generation, 4,408 satellites in five shells. Shells 1 and 4 and the
    /// 70° shell are StarPerf's [docs/links-and-orbits.md §8]; the 97.6° polar satellites (StarPerf's 10 × 52
    /// = 520) are split 6 × 58 + 4 × 43 = 520 as in SpaceX's 2020 modification (FCC
    /// SAT-MOD-20200417-00037; from memory, not verified) so the total is 1584 + 1584 + 720 + 520.
    pub fn starlink_gen1() -> Vec<Self> {
        let s = |altitude_km, inclination_deg, planes, sats_per_plane| WalkerShell {
            altitude_km,
            inclination_deg,
            planes,
            sats_per_plane,
            phasing: 1,
            phase_diff: false,
            epoch_utc: None,
            propagator: Propagator::Kepler,
            mean_motion_rev_per_day: None,
        };
        vec![
            s(550.0, 53.0, 72, 22),
            s(540.0, 53.2, 72, 22),
            s(570.0, 70.0, 36, 20),
            s(560.0, 97.6, 6, 58),
            s(560.0, 97.6, 4, 43),
        ]
    }

    pub fn total(&self) -> usize {
        self.planes * self.sats_per_plane
    }

    /// Checks the parameters; the messages name the field.
    pub fn validate(&self) -> Result<(), OrbitError> {
        let bad = |field: &str, problem: String| Err(OrbitError::Walker { field: field.into(), problem });
        if !(self.altitude_km.is_finite() && self.altitude_km >= MIN_PERIGEE_ALTITUDE_KM) {
            return bad(
                "altitude_km",
                format!(
                    "{} km is below {MIN_PERIGEE_ALTITUDE_KM} km, the Kármán line: the orbit would pass through the \
                     atmosphere or the Earth",
                    Num(self.altitude_km)
                ),
            );
        }
        if !(0.0..=180.0).contains(&self.inclination_deg) {
            return bad("inclination_deg", format!("{} is outside 0–180°", self.inclination_deg));
        }
        if self.planes == 0 {
            return bad("planes", "must be at least 1".into());
        }
        if self.sats_per_plane == 0 {
            return bad("sats_per_plane", "must be at least 1".into());
        }
        if self.phasing >= self.planes {
            return bad(
                "phasing",
                format!("F = {} must be below the number of planes ({})", self.phasing, self.planes),
            );
        }
        if let Some(n) = self.mean_motion_rev_per_day {
            if self.propagator != Propagator::Sgp4 {
                return bad("mean_motion_rev_per_day", "applies to \"propagator\": \"sgp4\" only".into());
            }
            // Below ~16.4 rev/day an orbit clears the surface; above 0.5 it is not beyond GEO.
            if !(n.is_finite() && (0.5..=16.4).contains(&n)) {
                return bad("mean_motion_rev_per_day", format!("{} must be between 0.5 and 16.4 rev/day", Num(n)));
            }
        }
        if let Some(e) = &self.epoch_utc {
            if !is_iso_utc(e) {
                return bad(
                    "epoch_utc",
                    format!(
                        "\"{}\" is not a UTC date-time like 2000-01-01T00:00:00Z",
                        e.chars().take(40).flat_map(char::escape_debug).collect::<String>()
                    ),
                );
            }
        }
        Ok(())
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.fff][Z]` with fields in range (the orbit build parses it with chrono).
pub fn is_iso_utc(s: &str) -> bool {
    let s = s.strip_suffix('Z').unwrap_or(s);
    let (date, time) = match s.split_once('T') {
        Some(x) => x,
        None => return false,
    };
    let num = |t: &str, lo: u32, hi: u32| {
        t.len() >= 2 && t.bytes().all(|b| b.is_ascii_digit()) && t.parse::<u32>().is_ok_and(|v| (lo..=hi).contains(&v))
    };
    let d: Vec<&str> = date.split('-').collect();
    let (hms, frac) = time.split_once('.').unwrap_or((time, "0"));
    let t: Vec<&str> = hms.split(':').collect();
    d.len() == 3
        && d[0].len() == 4
        && num(d[0], 1, 9999)
        && num(d[1], 1, 12)
        && num(d[2], 1, 31)
        && t.len() == 3
        && num(t[0], 0, 23)
        && num(t[1], 0, 59)
        && num(t[2], 0, 59)
        && !frac.is_empty()
        && frac.bytes().all(|b| b.is_ascii_digit())
}
