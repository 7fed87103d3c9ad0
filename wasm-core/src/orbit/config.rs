//! The JSON configuration of `orbitcp route` (documented in README.md next to this file). A
//! stop-gap until the scenario format carries constellations; the core gets the TLE text from the
//! caller (no I/O here).

use super::elements::{self, Constellation, WalkerShell};
use super::ground::{self, GroundStation};
use super::links::LinkModel;
use super::route::{Attachment, IslMode, RouteConfig, DEFAULT_MIN_ELEVATION_DEG, DEFAULT_STEP_S};
use super::OrbitError;
use serde::Deserialize;

/// The whole file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteFile {
    pub constellation: ConstellationConfig,
    pub src: Place,
    pub dst: Place,
    #[serde(default = "default_min_elev")]
    pub min_elevation_deg: f64,
    #[serde(default = "default_step")]
    pub step_s: f64,
    #[serde(default)]
    pub start_s: f64,
    pub duration_s: f64,
    #[serde(default)]
    pub isl: IslChoice,
    /// Longest usable ISL, km (default: the 80-km-clearance chord of each shell).
    #[serde(default)]
    pub max_isl_km: Option<f64>,
    /// Link plane P−1 to plane 0 (default true, as Hypatia).
    #[serde(default = "yes")]
    pub seam: bool,
    #[serde(default)]
    pub attachment: Attachment,
    #[serde(default)]
    pub handover_outage_s: f64,
    /// Bent-pipe relays (default: every city of the table except src and dst).
    #[serde(default)]
    pub relays: Option<Vec<Place>>,
    #[serde(default)]
    pub links: Option<LinkModel>,
}

fn default_min_elev() -> f64 {
    DEFAULT_MIN_ELEVATION_DEG
}
fn default_step() -> f64 {
    DEFAULT_STEP_S
}
fn yes() -> bool {
    true
}

/// `"plus_grid"` or `"none"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum IslChoice {
    #[default]
    PlusGrid,
    None,
}

/// Satellites: any combination of Walker shells, a TLE file, OMM records and GEO satellites.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ConstellationConfig {
    #[serde(default)]
    pub walker: Vec<WalkerShell>,
    /// Path of a TLE file, relative to the configuration file.
    #[serde(default)]
    pub tle_file: Option<String>,
    /// CelesTrak OMM JSON records.
    #[serde(default)]
    pub omm: Option<serde_json::Value>,
    /// GEO satellites by longitude, °E.
    #[serde(default)]
    pub geo_longitudes_deg: Vec<f64>,
}

/// A city name from the table, or a named point.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
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

/// What [`RouteFile::build`] returns.
pub struct Built {
    pub constellation: Constellation,
    pub src: GroundStation,
    pub dst: GroundStation,
    pub cfg: RouteConfig,
    pub t0_s: f64,
    pub t1_s: f64,
}

impl RouteFile {
    /// Parses the JSON; errors name the path of the bad field.
    pub fn parse(text: &str) -> Result<Self, String> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| format!("{}: {}", e.path(), e.inner()))
    }

    /// Builds the constellation and routing parameters; `tle_text` is the content of `tle_file`.
    pub fn build(&self, tle_text: Option<&str>) -> Result<Built, OrbitError> {
        let mut c = Constellation::default();
        for s in &self.constellation.walker {
            c.add_walker(s)?;
        }
        let mut sets = Vec::new();
        if let Some(t) = tle_text {
            sets.extend(elements::parse_tle_sourced(t)?);
        }
        if let Some(v) = &self.constellation.omm {
            sets.extend(elements::parse_omm_sourced(v)?);
        }
        // Sourced: the globe gives satellite.js the same TLE lines or OMM records.
        c.add_sourced(&sets, None)?;
        for &lon in &self.constellation.geo_longitudes_deg {
            c.add_geo(lon)?;
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
        if !(self.duration_s.is_finite() && self.duration_s >= 0.0) {
            return Err(OrbitError::Config {
                field: "duration_s".into(),
                problem: format!("{} must be 0 or more seconds", self.duration_s),
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
        Ok(Built { constellation: c, src, dst, cfg, t0_s: self.start_s, t1_s: self.start_s + self.duration_s })
    }
}
