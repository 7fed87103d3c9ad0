//! A sweep: scenario paths and the values they take, and runs per point.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    /// Path of any scenario field → the values it takes. The grid is their cartesian product,
    /// in the order the paths are written.
    pub grid: serde_json::Map<String, Value>,
    /// Runs per grid point; run r uses the seed derived from `seed` and r, the same for every
    /// point (common random numbers).
    #[serde(default = "one")]
    pub runs: u32,
}

fn one() -> u32 {
    1
}
