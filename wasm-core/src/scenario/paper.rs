//! The paper's numbers and statements a preset reproduces, shown beside the simulated ones.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PaperReference {
    /// Which paper and figure or table.
    pub source: String,
    /// Goodput per flow in Mbit/s, as the paper gives it (null where it gives none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub goodput_mbps: Vec<Option<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairness_jain: Option<f64>,
    /// Values for sweep points: each names the grid values it belongs to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<PaperPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The paper's statements about a chart, shown beside it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<PaperClaim>,
}

/// One statement of the paper about one chart, optionally with the point it names (drawn as a
/// paper mark): e.g. "80 % of INTCP's delay is below 180 ms" is `x` = 180 ms, `y` = 0.8 on the
/// delay CDF.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PaperClaim {
    pub chart: ClaimChart,
    pub text: String,
    /// The flow the statement is about (index into `flows`), if one. A claim about a flow the
    /// scenario no longer has (the user removed it) is not shown, and is not an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flow: Option<u32>,
    /// The point the statement names, in the chart's units (ms, fraction, Mbit/s, seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClaimChart {
    /// One-way delay CDF: x in ms, y a fraction.
    DelayCdf,
    /// One-way delay over time: x in s, y in ms.
    Delay,
    /// Jitter over time: x in s, y in ms.
    Jitter,
    /// Goodput over time: x in s, y in Mbit/s.
    Goodput,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PaperPoint {
    /// Grid path → value, for the paths this point fixes.
    pub at: serde_json::Map<String, Value>,
    #[serde(default)]
    pub flow: u32,
    pub goodput_mbps: f64,
}
