//! The routing parameters the scenario format names, shared by the format (`config.rs`) and the
//! router (`route.rs`, which needs the orbit code): the elevation mask and step defaults, the
//! attachment policy (with Starlink's slot scheduler) and the Earth's shape under the ground
//! stations.

use serde::{Deserialize, Serialize};

/// Default elevation mask, ° (Starlink in Hypatia and StarPerf) [docs/links-and-orbits.md §3].
pub const DEFAULT_MIN_ELEVATION_DEG: f64 = 25.0;
/// Default routing step, s (Hypatia uses 0.1 s) [docs/links-and-orbits.md §5].
pub const DEFAULT_STEP_S: f64 = 1.0;

/// Which satellite in reach a ground station uses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Attachment {
    /// The satellite with the highest elevation, re-chosen every step.
    #[default]
    HighestElevation,
    /// Keep the satellite until it leaves reach, then take the highest.
    StayUntilLost,
    /// Any satellite in reach: the route takes whichever gives the shortest total delay
    /// (Hypatia's "free_one_only_over_isls", docs/links-and-orbits.md §13).
    ShortestPath,
    /// A user terminal changes satellite only at the boundaries of a global schedule, as
    /// Starlink's scheduler does every 15 s (docs/links-and-orbits.md §14).
    Scheduler(Scheduler),
}

/// Starlink's global scheduler: slots of `period_s`, starting `offset_s` past each whole
/// `period_s` of UTC (15 s at 12, 27, 42 and 57 s past the minute, as measured).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scheduler {
    /// Slot length, s (default 15).
    #[serde(default = "default_period")]
    pub period_s: f64,
    /// Slot boundaries fall at this many seconds past each whole period of UTC (default 12).
    #[serde(default = "default_offset")]
    pub offset_s: f64,
    /// How the satellite for the next slot is chosen (default: the highest in reach).
    #[serde(default)]
    pub rule: SlotRule,
    /// The terminal's re-acquisition when it changes satellite: its ground link carries nothing
    /// for this long after the boundary, ms (default 0).
    #[serde(default)]
    pub reassign_gap_ms: f64,
}

fn default_period() -> f64 {
    15.0
}
fn default_offset() -> f64 {
    12.0
}

/// The choice made at each slot boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SlotRule {
    /// The satellite in reach with the highest elevation.
    #[default]
    HighestElevation,
    /// The satellite on the shortest path at the boundary.
    ShortestPath,
}

impl Attachment {
    pub fn scheduler(&self) -> Option<&Scheduler> {
        match self {
            Attachment::Scheduler(s) => Some(s),
            _ => None,
        }
    }

    /// Whether every satellite in reach is a candidate at each step (the route then chooses).
    pub fn any_in_reach(&self) -> bool {
        matches!(self, Attachment::ShortestPath | Attachment::Scheduler(Scheduler { rule: SlotRule::ShortestPath, .. }))
    }
}

/// The shape of the Earth under the ground stations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Earth {
    /// A sphere of the WGS72 equatorial radius; latitude is geocentric.
    #[default]
    Sphere,
    /// The WGS72 ellipsoid; latitude is geodetic and elevation is measured from the local
    /// normal, as Hypatia places its ground stations.
    Wgs72,
}
