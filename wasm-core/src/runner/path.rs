//! The path over time as results report it (`RunResult.path`): a constellation's, built in
//! `constellation.rs`, or the fixed one of a chain placed at a GEO satellite, which needs no
//! orbit code and so is here.

use schemars::JsonSchema;
use serde::Serialize;

/// The path over time, as results report it (`RunResult.path`).
#[derive(Clone, Debug, Serialize, JsonSchema)]
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
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PathSteps {
    pub t_s: Vec<f64>,
    pub hops: Vec<u32>,
    /// Propagation delay of the whole path (null without a path).
    pub owd_ms: Vec<Option<f64>>,
    pub bottleneck_mbps: Vec<f64>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct RouteChangeEntry {
    pub t_s: f64,
    pub nodes: Vec<i64>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PathEvent {
    pub t_s: f64,
    /// `handover` or `route_change`.
    #[schemars(with = "PathEventKind")]
    pub kind: &'static str,
    /// Handovers: the end whose serving satellite changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<PathEnd>")]
    pub end: Option<&'static str>,
    /// Handovers: the satellite left and the one taken (null: none visible).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Option<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Option<u32>>,
    /// Handovers of a scheduled terminal: `slot_boundary`, or `lost_mid_slot` when its
    /// satellite left reach inside a slot and was replaced at once. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<HandoverCauseName>")]
    pub cause: Option<&'static str>,
}

/// The values of [`PathEvent::cause`], for the schema.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum HandoverCauseName {
    SlotBoundary,
    LostMidSlot,
}

/// The values of [`PathEvent::kind`], for the schema (the field is a name, written where the
/// timeline is built).
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum PathEventKind {
    Handover,
    RouteChange,
}

/// The values of [`PathEvent::end`], for the schema.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum PathEnd {
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
