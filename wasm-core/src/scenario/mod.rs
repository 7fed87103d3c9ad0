//! The scenario format: the one source of truth. The JSON Schema (`orbitcp schema`) and the web
//! app's TypeScript types are generated from these structs.
//!
//! Parsing is strict (unknown fields, duplicate keys and arrays in place of objects are errors;
//! `strict_json.rs` reads the text) and every error names the path of the value at fault, e.g.
//! `flows[0].cc: unknown variant "cubc", expected one of ...`.
//!
//! One file per concept: the top-level [`Scenario`] and its limits here; the network in
//! `topology.rs` and `link.rs`; the flows in `flow.rs` and one file per transport; sweeps,
//! traces and paper references in their own files; reading JSON (with serde's errors rewritten
//! to name the field) in `parse.rs`; the range checks in `validate.rs` and
//! `validate_topology.rs` (collected by `problems.rs`); the sweep's path setter in `json_path.rs`.

// First: `flow.rs` declares the macro that the flows' files use.
#[macro_use]
mod flow;

mod arq_flow;
mod ctcp_flow;
mod error;
pub mod files;
mod intcp_flow;
mod json_locate;
mod json_path;
mod link;
mod memory;
mod paper;
mod parse;
mod problems;
pub mod strict_json;
mod sweep;
mod tagged;
mod tcp_flow;
mod topology;
mod trace;
mod validate;
mod validate_topology;

pub use crate::orbit::config::ConstellationTopology;
pub use arq_flow::ArqFlow;
pub use ctcp_flow::{
    CodingMode, CtcpCongestionGate, CtcpFeedback, CtcpFlow, CtcpRedundancy, CtcpSlowStartExit, CtcpVariant,
};
pub use error::{FieldError, ScenarioError};
pub use flow::Flow;
pub use intcp_flow::{HopCc, IntcpFlow, ReadAheadWhen};
pub use json_path::{canonical_path, paths_overlap, set_path, PathError};
pub use link::{
    LinkSpec, LossAtSpec, LossSpec, Outage, OutagesSpec, PeriodicOutage, RateScheduleSpec, RateStep, SquareWave,
};
pub use memory::{MemoryEstimate, MAX_FLOWS, MAX_RUN_MEMORY_BYTES};
pub use paper::{ClaimChart, PaperClaim, PaperPoint, PaperReference};
pub use parse::{from_value, parse, parse_timeline, read_json};
pub use sweep::Sweep;
pub use tcp_flow::{TcpFlow, TcpProfile, TcpSettings};
pub use topology::{Chain, ChainPlace, Topology};
pub use trace::TraceSpec;
pub use validate_topology::{needs_orbit_code, topology_error, NO_ORBIT_CODE};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const FORMAT_VERSION: u32 = 1;
/// Longest simulated duration accepted: a week.
pub const MAX_DURATION_S: f64 = 7.0 * 86_400.0;
/// Longest delay (a link's `delay_ms` or `jitter_ms`, an access link's `delay_ms`), ms: a week,
/// the longest run; a packet delayed longer would arrive after any run has ended.
pub const MAX_DELAY_MS: f64 = MAX_DURATION_S * 1e3;
/// Most runs a sweep may have (grid points × `runs`).
pub const MAX_SWEEP_RUNS: u64 = 100_000;
/// Fastest link, Mbit/s (100 Gbit/s): every packet then takes at least a nanosecond on the wire.
pub const MAX_RATE_MBPS: f64 = 100_000.0;
/// Most links of a chain: the routing table grows with the square of the nodes.
pub const MAX_CHAIN_LINKS: usize = 1000;
/// Most points per trace (`trace.max_points`; also the delay CDFs' length).
pub const MAX_TRACE_POINTS: u32 = 1_000_000;
/// Most goodput bins per flow (`duration_s` / `trace.goodput_interval_s`).
pub const MAX_GOODPUT_BINS: u64 = 1_000_000;
/// Default event budget of a run (`max_events`): minutes of simulation on one core.
pub const DEFAULT_MAX_EVENTS: u64 = 2_000_000_000;
/// The most routing steps a run may have (a week at 1 s).
pub const MAX_ROUTE_STEPS: f64 = 604_800.0;
/// The most steps of a path timeline alone (`orbitcp route`, which streams them): a week at 0.1 s.
pub const MAX_TIMELINE_STEPS: f64 = 6_048_000.0;

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Format version; must be 1.
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Seed of every random stream in the run.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Simulated time limit in seconds. Flows that have not finished by then are reported as
    /// incomplete, with the reason.
    pub duration_s: f64,
    /// Event budget of a run (each simulation, with `flows_alone`): a run that reaches it stops
    /// there, and flows that had not finished say so in `incomplete_reason`. Default 2e9.
    #[serde(default = "default_max_events", skip_serializing_if = "is_default_max_events")]
    pub max_events: u64,
    /// Let a packet cross the nodes that only forward it (a constellation's satellites and
    /// ground stations) in one event instead of one per hop, and leave out the ticks of an INTCP
    /// satellite that the route left with data queued, where that gives the same result bit for
    /// bit (docs/links-and-orbits.md, "The express path"). `false` runs every event, to compare.
    /// Default true.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub express: bool,
    pub topology: Topology,
    pub flows: Vec<Flow>,
    /// Run each flow alone, in its own simulation of the same network with the same seed, and
    /// report them together: for comparing protocols on one path without their competing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flows_alone: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<Sweep>,
    #[serde(default)]
    pub trace: TraceSpec,
    /// The paper's numbers this scenario reproduces, shown beside the simulated ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper: Option<PaperReference>,
}

fn default_seed() -> u64 {
    1
}

fn default_max_events() -> u64 {
    DEFAULT_MAX_EVENTS
}

fn is_default_max_events(v: &u64) -> bool {
    *v == DEFAULT_MAX_EVENTS
}

/// `#[serde(default = "yes")]` for the flags that are on unless switched off.
fn yes() -> bool {
    true
}

fn is_yes(v: &bool) -> bool {
    *v
}

/// The JSON Schema of the format, from the types above.
pub fn schema() -> Value {
    serde_json::to_value(schemars::schema_for!(Scenario)).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest valid scenario; the other files' tests change one path of it.
    pub(super) const MINIMAL: &str = r#"{"version":1,"name":"t","duration_s":10,
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":250}]},
        "flows":[{"transport":"tcp","cc":"cubic","bytes":1000}]}"#;

    /// [`MINIMAL`] with the value at `path` replaced, parsed and validated.
    pub(super) fn with(path: &str, v: Value) -> Result<Scenario, String> {
        let mut s: Value = serde_json::from_str(MINIMAL).unwrap();
        set_path(&mut s, path, v).unwrap();
        from_value(s).map_err(String::from)
    }

    #[test]
    fn the_schema_describes_the_top_level_fields() {
        let s = schema();
        let props = &s["properties"];
        for f in ["version", "name", "seed", "duration_s", "topology", "flows", "sweep"] {
            assert!(props.get(f).is_some(), "{f}");
        }
    }
}
