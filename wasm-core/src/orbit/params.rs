//! The routing parameters the scenario format names, shared by the format (`config.rs`) and the
//! router (`route.rs`, which needs the orbit code): the elevation mask and step defaults and the
//! attachment policy.

use serde::{Deserialize, Serialize};

/// Default elevation mask, ° (Starlink in Hypatia and StarPerf) [docs/links-and-orbits.md §3].
pub const DEFAULT_MIN_ELEVATION_DEG: f64 = 25.0;
/// Default routing step, s (Hypatia uses 0.1 s) [docs/links-and-orbits.md §5].
pub const DEFAULT_STEP_S: f64 = 1.0;

/// Which visible satellite a ground station uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Attachment {
    /// The satellite with the highest elevation, re-chosen every step.
    #[default]
    HighestElevation,
    /// Keep the satellite until it drops below the mask, then take the highest.
    StayUntilLost,
}
