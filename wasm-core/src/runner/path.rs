//! The path over time as results report it (`RunResult.path`): a constellation's, built in
//! `constellation.rs`, or the fixed one of a chain placed at a GEO satellite, which needs no
//! orbit code and so is here.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

/// The path over time, as results report it (`RunResult.path`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct PathResult {
    pub src: String,
    pub dst: String,
    pub step_s: f64,
    pub steps: PathSteps,
    /// The node list each time it changes. Satellites by their index in the constellation (≥ 0),
    /// ground stations as −(g+1): −1 is `src`, −2 is `dst`, −3… the relays in order.
    pub routes: Vec<RouteChangeEntry>,
    pub events: Vec<PathEvent>,
    /// Distinct satellites and relays that were on the route.
    pub nodes_used: usize,
    /// Times of the scheduler's slot boundaries (`attachment.scheduler`), s; empty without one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slot_boundaries_s: Vec<f64>,
    /// With `constellation.grid: "infer"`: the shells found and the satellites left out, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid_report: Option<String>,
}

/// One value per routing step.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct PathSteps {
    pub t_s: Vec<f64>,
    pub hops: Vec<u32>,
    /// Propagation delay of the whole path (null without a path).
    pub owd_ms: Vec<Option<f64>>,
    pub bottleneck_mbps: Vec<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RouteChangeEntry {
    pub t_s: f64,
    pub nodes: Vec<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct PathEvent {
    pub t_s: f64,
    pub kind: PathEventKind,
    /// Handovers: the end whose serving satellite changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<PathEnd>,
    /// Handovers: the satellite left and the one taken (null: none visible).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub from: Option<Option<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub to: Option<Option<u32>>,
    /// Handovers of a scheduled terminal: why the satellite changed. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<HandoverCauseName>,
}

/// A field written only when present, whose value may be null: present is `Some`, even null.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(d).map(Some)
}

/// Why a scheduled terminal's satellite changed: a slot boundary (`slot_boundary`), or its
/// satellite left reach inside a slot and was replaced at once (`lost_mid_slot`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HandoverCauseName {
    SlotBoundary,
    LostMidSlot,
}

/// What happened to the path: an end's serving satellite changed, or the route did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PathEventKind {
    Handover,
    RouteChange,
}

/// An end of the path: the source station or the destination station.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PathEnd {
    Src,
    Dst,
}

/// The path of a chain placed on the globe (`ChainPlace`): source station, the GEO satellite,
/// destination station, for the whole run. Only the globe reads it.
pub fn fixed_geo_path(place: &crate::scenario::ChainPlace, duration_s: f64) -> PathResult {
    let name = |i: usize| place.ground[i].resolve().map(|g| g.name).unwrap_or_default();
    PathResult {
        src: name(0),
        dst: name(1),
        step_s: duration_s,
        steps: PathSteps { t_s: vec![0.0], hops: vec![2], owd_ms: vec![None], bottleneck_mbps: vec![0.0] },
        routes: vec![RouteChangeEntry { t_s: 0.0, nodes: vec![-1, 0, -2] }],
        events: Vec::new(),
        nodes_used: 1,
        slot_boundaries_s: Vec::new(),
        grid_report: None,
    }
}
