//! The plane/slot grid of TLE/OMM satellites as the scenario format writes it
//! (`constellation.grid`): an explicit P × S grid over the sets in file order (Hypatia's
//! convention), or `"infer"`.

use super::OrbitError;

/// P planes of S satellites: satellite `p·S + s` of the element sets is in plane p, slot s, and
/// +Grid links it to (p, s + 1) and (p + 1, s + isl_shift), both wrapping (Hypatia's
/// `generate_plus_grid_isls`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ElementGrid {
    pub planes: usize,
    pub sats_per_plane: usize,
    /// Slot offset of every cross-plane link (Hypatia's `isl_shift`, default 0).
    #[serde(default)]
    pub isl_shift: usize,
}

impl ElementGrid {
    /// Checks the grid against the number of element sets; errors name `constellation.grid`.
    pub fn validate(&self, satellites: usize) -> Result<(), OrbitError> {
        let bad = |problem: String| Err(OrbitError::Config { field: "constellation.grid".into(), problem });
        if self.planes == 0 || self.sats_per_plane == 0 {
            return bad(format!(
                "{} planes × {} satellites: both must be at least 1",
                self.planes, self.sats_per_plane
            ));
        }
        if self.isl_shift >= self.sats_per_plane {
            return bad(format!("isl_shift {} must be below sats_per_plane ({})", self.isl_shift, self.sats_per_plane));
        }
        if self.planes.checked_mul(self.sats_per_plane) != Some(satellites) {
            return bad(format!(
                "{} planes × {} satellites do not match the {satellites} element sets",
                self.planes, self.sats_per_plane
            ));
        }
        Ok(())
    }
}

/// An explicit grid, or `"infer"`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum GridSpec {
    Explicit(ElementGrid),
    Infer(InferWord),
}

/// The word `"infer"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InferWord {
    Infer,
}
