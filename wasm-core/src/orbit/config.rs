//! The constellation topology of a scenario (`"topology": {"kind": "constellation", ...}`,
//! documented in README.md next to this file and in `scenarios/README.md`): which satellites,
//! which ground stations, how links and routes are found, and how the transports see a route
//! change. The core gets TLE text from the caller (no I/O here: the CLI reads `tle_file`).

#[cfg(feature = "orbits")]
use super::elements::{self, Constellation};
use super::ground::{self, GroundStation};
use super::links::LinkModel;
pub use super::params::{Attachment, DEFAULT_MIN_ELEVATION_DEG, DEFAULT_STEP_S};
#[cfg(feature = "orbits")]
use super::route::{IslMode, RouteConfig};
use super::walker::WalkerShell;
use super::OrbitError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A path between two ground stations through a moving constellation. Nodes: 0 is `src`, 1 is
/// `dst` (their end hosts when `access` is set); flows run from 0 to 1 unless they say otherwise.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConstellationTopology {
    pub constellation: ConstellationSpec,
    pub src: Place,
    pub dst: Place,
    /// Elevation mask of ground–satellite links, ° (default 25, Starlink in Hypatia and StarPerf).
    #[serde(default = "default_min_elev")]
    pub min_elevation_deg: f64,
    /// Routing step, s: positions, links and the route are recomputed this often (default 1).
    #[serde(default = "default_step")]
    pub step_s: f64,
    /// Orbit time at simulation time 0, s after the constellation's epoch.
    #[serde(default)]
    pub start_s: f64,
    #[serde(default)]
    pub isl: IslChoice,
    /// Longest usable ISL, km (default: the 80-km-clearance chord of each shell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_isl_km: Option<f64>,
    /// Link plane P−1 to plane 0 (default true, as Hypatia).
    #[serde(default = "yes")]
    pub seam: bool,
    #[serde(default)]
    pub attachment: Attachment,
    /// After a handover, the new ground–satellite link carries nothing for this long, s.
    #[serde(default)]
    pub handover_outage_s: f64,
    /// Bent-pipe relays (default: every city of the table except src and dst).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relays: Option<Vec<Place>>,
    /// Capacity and loss per link type (default: 20 Mbit/s everywhere, ISL loss 0.1 %, as the
    /// INTCP code's emulation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub links: Option<LinkModel>,
    /// Drop-tail buffer of every link, packets (default 1000: netem's default queue, which the
    /// INTCP emulation uses).
    #[serde(default = "default_buffer")]
    pub buffer_pkts: u32,
    /// Whether link loss also hits the direction towards `src` (ACKs, INTERESTs). Default false,
    /// as chain links and the INTCP emulation (loss on the data direction only).
    #[serde(default)]
    pub reverse_loss: bool,
    /// What happens to packets waiting in a link's queue when the link leaves the route.
    #[serde(default)]
    pub on_route_change: RouteChange,
    /// A fixed terrestrial link between each end host and its ground station (the INTCP
    /// emulation's h1–gs1 and gs2–h2: 20 Mbit/s, 25 ms one way). Default: none, the flows start
    /// and end at the ground stations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<AccessLink>,
}

/// The terrestrial link between an end host and its ground station.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AccessLink {
    pub rate_mbps: f64,
    /// One-way propagation delay, ms.
    pub delay_ms: f64,
    /// Loss probability in the data direction.
    #[serde(default)]
    pub loss: f64,
}

/// Packets queued on a link that leaves the route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum RouteChange {
    /// They are still sent on the old link, and the next node forwards them along the route it
    /// was on one step ago (the old satellites still exist; reordering follows).
    #[default]
    Deliver,
    /// They are dropped; so is a packet that reaches a node no longer on the route.
    Drop,
}

fn default_min_elev() -> f64 {
    DEFAULT_MIN_ELEVATION_DEG
}
fn default_step() -> f64 {
    DEFAULT_STEP_S
}
fn default_buffer() -> u32 {
    1000
}
fn yes() -> bool {
    true
}

/// `"plus_grid"` or `"none"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum IslChoice {
    /// Four ISLs per satellite: two in its plane, one to each adjacent plane.
    #[default]
    PlusGrid,
    /// No ISLs: bent pipe through ground relays.
    None,
}

/// One Walker shell or a list of them.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Shells {
    One(WalkerShell),
    Many(Vec<WalkerShell>),
}

impl Default for Shells {
    fn default() -> Self {
        Shells::Many(Vec::new())
    }
}

impl Shells {
    pub fn as_slice(&self) -> &[WalkerShell] {
        match self {
            Shells::One(s) => std::slice::from_ref(s),
            Shells::Many(v) => v,
        }
    }
}

/// Satellites: any combination of Walker shells, TLE text, OMM records and GEO satellites.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct ConstellationSpec {
    #[serde(default)]
    pub walker: Shells,
    /// TLE text (two- or three-line sets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tle: Option<String>,
    /// A TLE file, relative to the scenario file; the CLI reads it into `tle`. The browser cannot
    /// read files: paste the text into `tle` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tle_file: Option<String>,
    /// CelesTrak OMM JSON records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omm: Option<serde_json::Value>,
    /// GEO satellites by longitude, °E.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub geo_longitudes_deg: Vec<f64>,
}

/// A city name from the table, or a named point (no other fields).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum Place {
    City(String),
    Point { name: String, lat_deg: f64, lon_deg: f64 },
}

impl Place {
    pub fn resolve(&self) -> Result<GroundStation, OrbitError> {
        match self {
            Place::City(n) => ground::city(n).ok_or_else(|| {
                let known: Vec<&str> = ground::CITIES.iter().map(|c| c.0).collect();
                OrbitError::Ground(format!(
                    "\"{n}\" is not in the city table ({}); give {{\"name\", \"lat_deg\", \"lon_deg\"}} instead",
                    known.join(", ")
                ))
            }),
            Place::Point { name, lat_deg, lon_deg } => GroundStation::new(name, *lat_deg, *lon_deg),
        }
    }
}

/// What [`ConstellationTopology::build`] returns.
#[cfg(feature = "orbits")]
pub struct Built {
    pub constellation: Constellation,
    pub src: GroundStation,
    pub dst: GroundStation,
    pub cfg: RouteConfig,
    pub t0_s: f64,
    pub t1_s: f64,
}

impl ConstellationTopology {
    /// Parses the JSON of a topology object; errors name the path of the bad field.
    pub fn parse(text: &str) -> Result<Self, OrbitError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de)
            .map_err(|e| OrbitError::Config { field: e.path().to_string(), problem: e.inner().to_string() })
    }

    /// Builds the constellation and routing parameters for `duration_s` seconds of simulation.
    #[cfg(feature = "orbits")]
    pub fn build(&self, duration_s: f64) -> Result<Built, OrbitError> {
        let mut c = Constellation::default();
        for s in self.constellation.walker.as_slice() {
            c.add_walker(s)?;
        }
        let mut sets = Vec::new();
        match (&self.constellation.tle, &self.constellation.tle_file) {
            (Some(t), _) => sets.extend(elements::parse_tle_sourced(t)?),
            (None, Some(f)) => {
                return Err(OrbitError::Config {
                    field: "constellation.tle_file".into(),
                    problem: format!(
                        "\"{f}\" was not read: only the command line reads files; paste the TLE text into \"tle\""
                    ),
                })
            }
            (None, None) => {}
        }
        if let Some(v) = &self.constellation.omm {
            sets.extend(elements::parse_omm_sourced(v)?);
        }
        // Sourced: the globe gives satellite.js the same TLE lines or OMM records.
        c.add_sourced(&sets, None)?;
        for &lon in &self.constellation.geo_longitudes_deg {
            c.add_geo(lon)?;
        }
        if c.sats.is_empty() {
            return Err(OrbitError::Config {
                field: "constellation".into(),
                problem: "has no satellites: give walker shells, tle, omm or geo_longitudes_deg".into(),
            });
        }
        if c.sats.len() > elements::MAX_SATELLITES {
            return Err(OrbitError::Config {
                field: "constellation".into(),
                problem: format!(
                    "has {} satellites; at most {} are supported (give fewer element sets or GEO longitudes)",
                    c.sats.len(),
                    elements::MAX_SATELLITES
                ),
            });
        }
        let src = self.src.resolve()?;
        let dst = self.dst.resolve()?;
        let relays = match &self.relays {
            Some(list) => list.iter().map(Place::resolve).collect::<Result<Vec<_>, _>>()?,
            None => ground::CITIES
                .iter()
                .filter(|c| c.0 != src.name && c.0 != dst.name)
                .map(|&(n, lat, lon)| GroundStation { name: n.into(), lat_deg: lat, lon_deg: lon })
                .collect(),
        };
        if !(duration_s.is_finite() && duration_s >= 0.0) {
            return Err(OrbitError::Config {
                field: "duration_s".into(),
                problem: format!("{duration_s} must be 0 or more seconds"),
            });
        }
        let cfg = RouteConfig {
            min_elevation_deg: self.min_elevation_deg,
            step_s: self.step_s,
            isl: match self.isl {
                IslChoice::PlusGrid => IslMode::PlusGrid { max_length_km: self.max_isl_km, seam: self.seam },
                IslChoice::None => IslMode::None,
            },
            attachment: self.attachment,
            handover_outage_s: self.handover_outage_s,
            links: self.links.clone().unwrap_or_default(),
            relays,
        };
        cfg.check()?;
        Ok(Built { constellation: c, src, dst, cfg, t0_s: self.start_s, t1_s: self.start_s + duration_s })
    }
}
