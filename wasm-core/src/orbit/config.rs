//! The constellation topology of a scenario (`"topology": {"kind": "constellation", ...}`,
//! documented in README.md next to this file and in `scenarios/README.md`): which satellites,
//! which ground stations, how links and routes are found, and how the transports see a route
//! change. The core gets TLE text from the caller (no I/O here: the CLI reads `tle_file`).

#[cfg(feature = "orbits")]
use super::elements::{self, Constellation};
use super::grid::GridSpec;
use super::ground::{self, GroundStation};
use super::links::LinkModel;
pub use super::params::{Attachment, Earth, Scheduler, SlotRule, DEFAULT_MIN_ELEVATION_DEG, DEFAULT_STEP_S};
#[cfg(feature = "orbits")]
use super::route::{Gateways, IslMode, RouteConfig};
use super::walker::WalkerShell;
use super::OrbitError;
#[cfg(feature = "orbits")]
use crate::number_text::Num;
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
    /// Longest ground–satellite link, km: Hypatia's cone, `√(cone_radius² + h²)` (1260 km for
    /// Kuiper-630 at 30°, 1089.7 km for Starlink-550 at 25°). A satellite is in reach when it is
    /// above the elevation mask and within this range; set `min_elevation_deg` to 0 for the
    /// range alone. Default: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gsl_max_range_km: Option<f64>,
    /// The Earth under the ground stations: `"sphere"` (default) or `"wgs72"` (the ellipsoid,
    /// geodetic latitudes, as Hypatia).
    #[serde(default, skip_serializing_if = "is_default")]
    pub earth: Earth,
    /// More named places for `src`, `dst`, `relays` and `gateways`: Hypatia's
    /// `ground_stations.txt` text ("gid,name,latitude,longitude,elevation" per line) or a list of
    /// `{"name", "lat_deg", "lon_deg"}`. Names here are looked up before the city table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ground_stations: Option<GroundStationTable>,
    /// A ground station file (Hypatia's format), relative to the scenario file; the CLI reads it
    /// into `ground_stations`. The browser cannot read files: paste the text instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ground_stations_file: Option<String>,
    /// Gateways and a point of presence: traffic to `dst` leaves the constellation at a gateway
    /// and reaches `dst` through the PoP over terrestrial fibre.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateways: Option<GatewaySpec>,
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

/// Gateways that take traffic down from the constellation, and the PoP behind them
/// (docs/links-and-orbits.md §14).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GatewaySpec {
    /// The gateways (cities or named points); the route uses whichever gives the shortest delay.
    pub stations: Vec<Place>,
    /// The point of presence where traffic enters the Internet; `dst` is reached from it.
    pub pop: Place,
    /// Fibre length over great-circle distance, from 1 to 10 (default 1: the shortest possible
    /// fibre; real routes are longer).
    #[serde(default = "one")]
    pub route_factor: f64,
    /// Capacity of the gateway–PoP and PoP–`dst` links, Mbit/s (default 10000).
    #[serde(default = "default_backhaul")]
    pub rate_mbps: f64,
}

/// Named places as Hypatia's `ground_stations.txt` text, or as a list.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum GroundStationTable {
    Text(String),
    List(Vec<NamedPoint>),
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedPoint {
    pub name: String,
    pub lat_deg: f64,
    pub lon_deg: f64,
}

impl GroundStationTable {
    /// The stations; errors name the line (text) or the entry (list).
    pub fn stations(&self) -> Result<Vec<GroundStation>, OrbitError> {
        let bad = |field: String, problem: String| OrbitError::Config { field, problem };
        match self {
            GroundStationTable::List(list) => list
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    GroundStation::new(&p.name, p.lat_deg, p.lon_deg)
                        .map_err(|e| bad(format!("ground_stations[{i}]"), e.to_string()))
                })
                .collect(),
            GroundStationTable::Text(text) => text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(i, l)| {
                    let at = || format!("ground_stations (line {})", i + 1);
                    let cols: Vec<&str> = l.split(',').map(str::trim).collect();
                    if cols.len() != 5 {
                        return Err(bad(
                            at(),
                            format!(
                                "has {} comma-separated fields; Hypatia's format has 5: gid,name,latitude,longitude,elevation",
                                cols.len()
                            ),
                        ));
                    }
                    let num = |k: usize, what: &str| {
                        cols[k].parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| {
                            bad(at(), format!("{what} \"{}\" is not a number", super::excerpt(cols[k])))
                        })
                    };
                    num(0, "gid")?;
                    num(4, "elevation")?;
                    GroundStation::new(cols[1], num(2, "latitude")?, num(3, "longitude")?)
                        .map_err(|e| bad(at(), e.to_string()))
                })
                .collect(),
        }
    }
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
fn one() -> f64 {
    1.0
}
fn default_backhaul() -> f64 {
    10_000.0
}
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
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
    /// Exactly the links of `constellation.isls` (or `isls_file`).
    List,
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
    /// A CelesTrak OMM JSON file, relative to the scenario file; the CLI reads it into `omm`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omm_file: Option<String>,
    /// GEO satellites by longitude, °E.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub geo_longitudes_deg: Vec<f64>,
    /// The plane/slot grid of the TLE/OMM satellites, for `isl: "plus_grid"`:
    /// `{"planes", "sats_per_plane", "isl_shift"}` (in file order, plane by plane), or `"infer"`
    /// to group them into shells, planes and slots from their elements. A Hypatia `tles.txt`
    /// gives its grid in its first line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridSpec>,
    /// Longest span between the epochs of the TLE/OMM sets (and a Walker shell's `epoch_utc`),
    /// days (default 30): time zero is the latest epoch, and a set further away is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_epoch_span_days: Option<f64>,
    /// Inter-satellite links `[a, b]` by satellite index (Walker shells first, then TLE/OMM sets
    /// in order, then GEO), for `isl: "list"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isls: Option<Vec<[u32; 2]>>,
    /// Hypatia's `isls.txt` ("a b" per line), relative to the scenario file; the CLI reads it
    /// into `isls`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isls_file: Option<String>,
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
        self.resolve_in(&[])
    }

    /// Resolves a name against `table` first, then the city table.
    pub fn resolve_in(&self, table: &[GroundStation]) -> Result<GroundStation, OrbitError> {
        if let Place::City(n) = self {
            if let Some(g) = table.iter().find(|g| g.name.eq_ignore_ascii_case(n)) {
                return Ok(g.clone());
            }
        }
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

/// The error for a file that the core was handed by name only (it reads no files).
#[cfg(feature = "orbits")]
fn not_read(field: &str, file: &str, what: &str) -> OrbitError {
    OrbitError::Config {
        field: field.into(),
        problem: format!("\"{}\" was not read: only the command line reads files; paste {what}", super::excerpt(file)),
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
    /// What `"grid": "infer"` found and left out, in words.
    pub grid_report: Option<String>,
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
        let spec = &self.constellation;
        let mut c = Constellation::default();
        let listed = matches!(spec.walker, Shells::Many(_));
        for (i, s) in spec.walker.as_slice().iter().enumerate() {
            c.add_walker(s).map_err(|e| match e {
                OrbitError::Walker { field, problem } if listed => {
                    OrbitError::Walker { field: format!("[{i}].{field}"), problem }
                }
                e => e,
            })?;
        }
        let mut sets = Vec::new();
        let mut header = None;
        for (value, file, name) in [
            (spec.tle.is_some(), &spec.tle_file, "tle"),
            (spec.omm.is_some(), &spec.omm_file, "omm"),
            (spec.isls.is_some(), &spec.isls_file, "isls"),
            (self.ground_stations.is_some(), &self.ground_stations_file, "ground_stations"),
        ] {
            if value && file.is_some() {
                let field = if name == "ground_stations" {
                    "ground_stations_file".to_string()
                } else {
                    format!("constellation.{name}_file")
                };
                return Err(OrbitError::Config {
                    field,
                    problem: format!("is given with \"{name}\"; give one of them"),
                });
            }
        }
        match (&spec.tle, &spec.tle_file) {
            (Some(t), _) => {
                header = elements::tle_grid_header(t);
                sets.extend(elements::parse_tle_sourced(t)?)
            }
            (None, Some(f)) => return Err(not_read("constellation.tle_file", f, "the TLE text into \"tle\"")),
            (None, None) => {}
        }
        if let (None, Some(f)) = (&spec.omm, &spec.omm_file) {
            return Err(not_read("constellation.omm_file", f, "the records into \"omm\""));
        }
        if let (None, Some(f)) = (&spec.isls, &spec.isls_file) {
            return Err(not_read("constellation.isls_file", f, "the pairs into \"isls\""));
        }
        if let (None, Some(f)) = (&self.ground_stations, &self.ground_stations_file) {
            return Err(not_read("ground_stations_file", f, "the text into \"ground_stations\""));
        }
        let n_tle = sets.len();
        if let Some(v) = &spec.omm {
            sets.extend(elements::parse_omm_sourced(v)?);
        }
        let span = spec.max_epoch_span_days.unwrap_or(super::set_checks::DEFAULT_MAX_EPOCH_SPAN_DAYS);
        let tle = spec.tle.as_deref().unwrap_or("");
        super::set_checks::check_sets(&sets, n_tle, tle, c.sgp4_epoch(), span)?;
        let first_set = c.sats.len();
        // Sourced: the globe gives satellite.js the same TLE lines or OMM records.
        c.add_sourced(&sets, None)?;
        let grid_report = self.add_element_grids(&mut c, &sets, first_set, header)?;
        for (i, &lon) in spec.geo_longitudes_deg.iter().enumerate() {
            c.add_geo(lon).map_err(|e| OrbitError::Config {
                field: format!("constellation.geo_longitudes_deg[{i}]"),
                problem: e.to_string().trim_start_matches("geo: ").to_string(),
            })?;
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
        let table = match &self.ground_stations {
            Some(t) => t.stations()?,
            None => Vec::new(),
        };
        let src = self.src.resolve_in(&table)?;
        let dst = self.dst.resolve_in(&table)?;
        let relays = match &self.relays {
            Some(list) => list.iter().map(|p| p.resolve_in(&table)).collect::<Result<Vec<_>, _>>()?,
            None => ground::CITIES
                .iter()
                .filter(|c| c.0 != src.name && c.0 != dst.name)
                .map(|&(n, lat, lon)| GroundStation { name: n.into(), lat_deg: lat, lon_deg: lon })
                .collect(),
        };
        if !(duration_s.is_finite() && duration_s >= 0.0) {
            return Err(OrbitError::Config {
                field: "duration_s".into(),
                problem: format!("{} must be 0 or more seconds", Num(duration_s)),
            });
        }
        let isl = match (self.isl, &spec.isls) {
            (IslChoice::List, Some(pairs)) => IslMode::List { pairs: pairs.clone(), max_length_km: self.max_isl_km },
            (IslChoice::List, None) => {
                return Err(OrbitError::Config {
                    field: "isl".into(),
                    problem: "is \"list\" but the constellation has no \"isls\" (or \"isls_file\")".into(),
                })
            }
            (_, Some(_)) => {
                return Err(OrbitError::Config {
                    field: "constellation.isls".into(),
                    problem: format!(
                        "are given but \"isl\" is \"{}\"; set \"isl\": \"list\" to route over them",
                        if self.isl == IslChoice::None { "none" } else { "plus_grid" }
                    ),
                })
            }
            (IslChoice::PlusGrid, None) => IslMode::PlusGrid { max_length_km: self.max_isl_km, seam: self.seam },
            (IslChoice::None, None) => IslMode::None,
        };
        let gateways = match &self.gateways {
            None => None,
            Some(g) => Some(Gateways {
                stations: g.stations.iter().map(|p| p.resolve_in(&table)).collect::<Result<Vec<_>, _>>()?,
                pop: g.pop.resolve_in(&table)?,
                route_factor: g.route_factor,
                rate_mbps: g.rate_mbps,
            }),
        };
        let cfg = RouteConfig {
            min_elevation_deg: self.min_elevation_deg,
            max_range_km: self.gsl_max_range_km,
            earth: self.earth,
            step_s: self.step_s,
            isl,
            attachment: self.attachment,
            handover_outage_s: self.handover_outage_s,
            links: self.links.clone().unwrap_or_default(),
            relays,
            gateways,
        };
        cfg.check()?;
        super::route::check_isls(&c, &cfg.isl)?;
        Ok(Built { constellation: c, src, dst, cfg, t0_s: self.start_s, t1_s: self.start_s + duration_s, grid_report })
    }

    /// The plane/slot grid of the element sets (`sets`, added from satellite `first` on): the
    /// one given, the one a Hypatia `tles.txt` header gives, or the one inferred, whose report
    /// (shells found, satellites left out and why) it returns.
    #[cfg(feature = "orbits")]
    fn add_element_grids(
        &self,
        c: &mut Constellation,
        sets: &[elements::SourcedElements],
        first: usize,
        header: Option<(usize, usize)>,
    ) -> Result<Option<String>, OrbitError> {
        use super::elements::SatGrid;
        let explicit = match (&self.constellation.grid, header) {
            (Some(GridSpec::Infer), _) => {
                let raw: Vec<sgp4::Elements> = sets.iter().map(|s| s.elements.clone()).collect();
                let inferred = super::grid::infer_grid(&raw);
                for shell in &inferred.shells {
                    c.add_grid(SatGrid {
                        planes: shell.planes,
                        sats_per_plane: shell.sats_per_plane,
                        seam_shift: shell.isl_shift,
                        members: shell.members.iter().flatten().map(|m| m.map(|i| (first + i) as u32)).collect(),
                        altitude_km: shell.altitude_km,
                    })?;
                }
                return Ok(Some(inferred.report()));
            }
            (Some(GridSpec::Explicit(g)), Some((p, s))) if (g.planes, g.sats_per_plane) != (p, s) => {
                return Err(OrbitError::Config {
                    field: "constellation.grid".into(),
                    problem: format!(
                        "says {} × {}, but the TLE text's first line says {p} × {s}",
                        g.planes, g.sats_per_plane
                    ),
                })
            }
            (Some(GridSpec::Explicit(g)), _) => g.clone(),
            (None, Some((planes, sats_per_plane))) => super::grid::ElementGrid { planes, sats_per_plane, isl_shift: 0 },
            (None, None) => return Ok(None),
        };
        explicit.validate(sets.len())?;
        // The mean altitude from the mean motions (Kepler's third law), for the default ISL
        // length limit.
        let mean_motion: f64 = sets.iter().map(|s| s.elements.mean_motion).sum::<f64>() / sets.len().max(1) as f64;
        let n_rad_s = mean_motion * 2.0 * std::f64::consts::PI / 86_400.0;
        let altitude_km = (super::geometry::MU_KM3_S2 / (n_rad_s * n_rad_s)).cbrt() - super::geometry::EARTH_RADIUS_KM;
        c.add_grid(SatGrid {
            planes: explicit.planes,
            sats_per_plane: explicit.sats_per_plane,
            seam_shift: explicit.isl_shift,
            members: (0..sets.len()).map(|i| Some((first + i) as u32)).collect(),
            altitude_km,
        })?;
        Ok(None)
    }
}
