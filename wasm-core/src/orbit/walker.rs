//! Walker-delta shells as the scenario format writes them, and the checks of their parameters:
//! apart from their propagation (`elements.rs`), so that a build without the orbit code still
//! parses and checks a constellation scenario's shells.

use super::OrbitError;

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
}

impl WalkerShell {
    /// Starlink shell 1: 72 × 22 at 550 km, 53° [docs/links-and-orbits.md §8]; F = 1 as StarPerf's
    /// `phase_shift` [docs/links-and-orbits.md §7].
    pub fn starlink_shell1() -> Self {
        WalkerShell { altitude_km: 550.0, inclination_deg: 53.0, planes: 72, sats_per_plane: 22, phasing: 1 }
    }

    /// The INTCP paper's shell: 1600 satellites in 32 planes at 1150 km, 53° [docs/links-and-orbits.md §8,
    /// docs/links-and-orbits.md §8]; F = 1 (the paper gives none).
    pub fn intcp_1600() -> Self {
        WalkerShell { altitude_km: 1150.0, inclination_deg: 53.0, planes: 32, sats_per_plane: 50, phasing: 1 }
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
        if !(self.altitude_km.is_finite() && self.altitude_km > 0.0) {
            return bad("altitude_km", format!("{} must be a positive number of km", self.altitude_km));
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
        Ok(())
    }
}
