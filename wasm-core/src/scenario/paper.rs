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
    /// How the page judges the statement against a run (holds, or does not, with the measured
    /// value); a statement without one is shown unjudged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<ClaimCheck>,
}

/// A measurable form of a paper's statement: `measure` of the claim's flow, against exactly one
/// of `at_most`, `at_least` or `about` (within `tolerance`, a fraction of `about`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimCheck {
    pub measure: ClaimMeasure,
    /// `owd_quantile_ms`: the quantile, in (0, 1].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<f64>,
    /// `jitter_share_below`: the jitter in ms the share is counted below.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold_ms: Option<f64>,
    /// `goodput_at_mbps`: the time in s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_least: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<f64>,
    /// With `about`: how far the measured value may be from it, as a fraction of it (0.25: ±25 %).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    /// The delay measures: use the delays at first arrival, before reordering (TCP and INTCP
    /// flows; what a packet sniffer times), not at in-order delivery.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub at_arrival: bool,
}

/// What a claim's check measures in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClaimMeasure {
    /// The flow's one-way delay at quantile `q`, in ms.
    OwdQuantileMs,
    /// The flow's mean one-way delay over the path's propagation delay: how far queues lift it.
    /// The propagation is the route's one-way delay averaged over the run's routing steps on a
    /// constellation (whose path moves), and the smallest delay measured on a chain.
    OwdMeanOverPropagation,
    /// The share (0 to 1) of the flow's per-second jitter values below `threshold_ms`.
    JitterShareBelow,
    /// The flow's goodput over the highest goodput of the other flows whose transport is TCP.
    GoodputOverTcp,
    /// Goodput at `at_s` in Mbit/s: the flow's, or every flow's summed when the claim names none.
    GoodputAtMbps,
}

impl ClaimMeasure {
    /// The name the scenario format gives it.
    pub fn name(self) -> &'static str {
        match self {
            ClaimMeasure::OwdQuantileMs => "owd_quantile_ms",
            ClaimMeasure::OwdMeanOverPropagation => "owd_mean_over_propagation",
            ClaimMeasure::JitterShareBelow => "jitter_share_below",
            ClaimMeasure::GoodputOverTcp => "goodput_over_tcp",
            ClaimMeasure::GoodputAtMbps => "goodput_at_mbps",
        }
    }
}

impl ClaimCheck {
    /// What is wrong with the check, as (field, message), if anything.
    pub fn problem(&self) -> Option<(&'static str, String)> {
        let bounds = [self.at_most.is_some(), self.at_least.is_some(), self.about.is_some()];
        if bounds.iter().filter(|&&b| b).count() != 1 {
            return Some(("check", "needs exactly one of at_most, at_least and about".into()));
        }
        if self.tolerance.is_some() != self.about.is_some() {
            return Some(("tolerance", "goes with about, and about needs it".into()));
        }
        if let Some(t) = self.tolerance.filter(|t| !(t.is_finite() && *t > 0.0)) {
            return Some(("tolerance", format!("must be a fraction above 0, not {t}")));
        }
        let needs = |field: &'static str, v: Option<f64>, ok: fn(f64) -> bool, what: &str| match v {
            Some(x) if ok(x) => None,
            Some(x) => Some((field, format!("must be {what}, not {x}"))),
            None => Some((field, format!("is needed by the measure {}", self.measure.name()))),
        };
        match self.measure {
            ClaimMeasure::OwdQuantileMs => needs("q", self.q, |q| q > 0.0 && q <= 1.0, "a quantile in (0, 1]"),
            ClaimMeasure::JitterShareBelow => {
                needs("threshold_ms", self.threshold_ms, |t| t.is_finite() && t >= 0.0, "a delay of 0 ms or more")
            }
            ClaimMeasure::GoodputAtMbps => {
                needs("at_s", self.at_s, |t| t.is_finite() && t >= 0.0, "a time of 0 s or more")
            }
            ClaimMeasure::OwdMeanOverPropagation | ClaimMeasure::GoodputOverTcp => None,
        }
    }
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
