//! Constellations, geometry and routing over time: the path a flow takes through a satellite
//! network, step by step.
//!
//! Sources first: docs/links-and-orbits.md §3 (geometry), §7.4 (link budget), §7.5 (time-varying topology),
//! docs/links-and-orbits.md §6-§9 (circular orbits, Walker-delta, shells, +Grid). Submodules:
//! - [`geometry`]: spherical Earth (R = 6378.135 km), ECEF, elevation, slant range;
//! - [`walker`]: Walker shell parameters; `walker_tle`: a shell as Hypatia's TLE text; [`params`]: routing defaults and the attachment policy;
//! - `elements`: Walker shells, GEO, TLE/OMM parsing, SGP4 propagation; `circular`: a Walker
//!   satellite's circular orbit and its position;
//! - [`grid`]: the plane/slot grid of TLE/OMM satellites, given or inferred (the inference needs
//!   `orbits`);
//! - [`ground`]: ground stations and a city table;
//! - [`links`]: FSPL, link budget, Shannon, per-link-type capacity and loss;
//! - `route`: visibility, attachment, +Grid ISLs, Dijkstra, the path timeline;
//! - [`config`]: the JSON configuration of `orbitcp route` (see README.md here);
//! - `view`: what the browser's globe draws (elements, ground stations, +Grid pairs).
//!
//! `elements`, `route`, `view` and [`config::ConstellationTopology::build`] need the `orbits`
//! feature (SGP4 and routing); the rest is the scenario format and its range checks, which every
//! build parses. No I/O and no clocks: the CLI reads files and passes text in.

pub mod config;
pub mod geometry;
pub mod grid;
pub mod ground;
pub mod links;
pub mod math;
pub mod params;
pub mod walker;

pub use ground::GroundStation;
pub use links::{Capacity, LinkBudget, LinkModel, LinkType, Loss};
pub use params::Attachment;
pub use walker::WalkerShell;

orbits_only! {
    pub mod circular;
    pub mod elements;
    pub mod route;
    pub mod set_checks;
    pub mod view;
    pub mod walker_tle;

    pub use elements::{Constellation, ElementSource, Orbit, Satellite, SourcedElements};
    pub use route::{
        path_timeline, path_timeline_until, End, EventKind, Hop, IslMode, Node, PathStep, RouteConfig, Router, Timeline,
    };
}

/// Everything that can be wrong with orbit input. Messages say where and what.
#[derive(Debug, Clone, PartialEq)]
pub enum OrbitError {
    /// A TLE text: the 1-based line number and the problem (checksum, length, field range).
    Tle { line: usize, problem: String },
    /// An OMM record: its index in the array, its OBJECT_NAME and the problem.
    Omm { index: usize, name: String, problem: String },
    /// SGP4 refused an element set.
    Sgp4 { index: usize, name: String, problem: String },
    /// A Walker shell parameter: `field` is its path below `walker`, `planes` for the one shell
    /// or `[1].planes` for the second of a list.
    Walker { field: String, problem: String },
    /// A GEO satellite.
    Geo(String),
    /// A ground station.
    Ground(String),
    /// A routing or configuration parameter.
    Config { field: String, problem: String },
}

/// Text from a file or a scenario as an error quotes it: its first 40 characters, control
/// characters escaped (`\u{1b}`), so that an error never prints much of a file nor drives the
/// terminal it is printed on.
pub(crate) fn excerpt(s: &str) -> String {
    let mut out: String = s.chars().take(40).flat_map(char::escape_debug).collect();
    if s.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}

impl std::fmt::Display for OrbitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OrbitError::Tle { line, problem } => write!(f, "TLE line {line}: {problem}"),
            OrbitError::Omm { index, name, problem } if name.is_empty() => write!(f, "OMM record {index}: {problem}"),
            OrbitError::Omm { index, name, problem } => write!(f, "OMM record {index} ({name}): {problem}"),
            OrbitError::Sgp4 { index, name, problem } => write!(f, "element set {index} ({name}): SGP4: {problem}"),
            OrbitError::Walker { field, problem } => write!(f, "walker{}: {problem}", below(field)),
            OrbitError::Geo(p) => write!(f, "geo: {p}"),
            OrbitError::Ground(p) => write!(f, "ground station {p}"),
            OrbitError::Config { field, problem } => write!(f, "{field}: {problem}"),
        }
    }
}

impl std::error::Error for OrbitError {}

/// A path below a field: `.planes`, or `[1].planes` for a list's element.
pub fn below(field: &str) -> String {
    if field.starts_with('[') {
        field.to_string()
    } else {
        format!(".{field}")
    }
}
