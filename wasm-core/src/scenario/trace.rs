//! How much of a run's time series is kept.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceSpec {
    /// Most points kept per trace.
    #[serde(default = "default_points")]
    pub max_points: u32,
    /// Smallest spacing between trace points in seconds (0: every event, then decimated).
    #[serde(default)]
    pub interval_s: f64,
    /// Width of the goodput-over-time bins in seconds.
    #[serde(default = "default_goodput_interval")]
    pub goodput_interval_s: f64,
}

impl Default for TraceSpec {
    fn default() -> Self {
        TraceSpec { max_points: default_points(), interval_s: 0.0, goodput_interval_s: default_goodput_interval() }
    }
}

fn default_points() -> u32 {
    2000
}
fn default_goodput_interval() -> f64 {
    1.0
}
