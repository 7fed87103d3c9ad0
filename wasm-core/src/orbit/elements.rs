//! Satellites and how they move: Walker-delta shells (circular Keplerian orbits), a GEO
//! satellite at a fixed longitude, and TLE / OMM element sets propagated with SGP4.
//!
//! Sources: docs/links-and-orbits.md §6 (circular orbit in ECI, rotated about z by `−ω_E·t` to ECEF) and
//! docs/links-and-orbits.md §7 (Walker-delta i:T/P/F: `Ω_p = 360°·p/P`, `u_{p,s} = 360°·s/S + 360°·F·p/T`); the TLE
//! format (CelesTrak, "NORAD Two-Line Element Set Format": 69 columns, modulo-10 checksum in
//! column 69 where digits count their value and '-' counts 1); CelesTrak's OMM JSON keys (CCSDS
//! OMM 502.0-B-3 names). SGP4 is the `sgp4` crate (neuromorphicsystems), WGS72 constants.
//!
//! Walker shells use exact circular Keplerian motion (no J2, no drag) rather than SGP4 on
//! synthetic elements: the geometry then matches §7.3/docs/links-and-orbits.md §6-§9 closed forms exactly. TLE/OMM satellites
//! go through SGP4; their TEME positions are rotated to ECEF by the IAU-82 Greenwich mean sidereal
//! time (polar motion and the equation of the equinoxes are ignored: < 1 km at LEO).
//!
//! Simulation time `t` is seconds after the constellation's epoch: for Walker and GEO satellites
//! t = 0 is when ECI and ECEF coincide; for element sets it is the latest epoch among them.

use super::geometry::{self, Vec3, EARTH_RADIUS_KM, EARTH_ROTATION_RAD_S, GEO_ALTITUDE_KM};
use super::circular::{earth_rotation, rotated_z};
pub use super::circular::CircularOrbit;
use super::math;
pub use super::walker::{Propagator, WalkerShell};
pub use super::walker_tle::{parse_iso_utc, tle_checksum, walker_tle_text, HYPATIA_EPOCH};
use super::{excerpt, OrbitError};
use crate::number_text::Num;
use sgp4::chrono::NaiveDateTime;

/// Most satellites a constellation may have: routing keeps per-satellite state and visits every
/// satellite at each step.
pub const MAX_SATELLITES: usize = 100_000;

/// An SGP4-propagated element set.
#[derive(Debug, Clone)]
pub struct Sgp4Orbit {
    constants: sgp4::Constants,
    /// Minutes from the element set's epoch to t = 0.
    offset_min: f64,
    /// Greenwich mean sidereal time at t = 0, rad.
    gmst0_rad: f64,
}

/// How one satellite moves.
#[derive(Debug, Clone)]
pub enum Orbit {
    Circular(CircularOrbit),
    /// Geostationary above a longitude (°E): fixed in ECEF.
    Geo {
        longitude_deg: f64,
    },
    Sgp4(Box<Sgp4Orbit>),
}

impl Orbit {
    /// ECEF position (km) at `t_s` seconds, or `None` if SGP4 cannot propagate there (decayed).
    pub fn position(&self, t_s: f64) -> Option<Vec3> {
        self.position_with(t_s, || earth_rotation(t_s))
    }

    /// [`Self::position`], with `earth` giving [`earth_rotation`] at `t_s` if a circular orbit
    /// needs it.
    fn position_with(&self, t_s: f64, earth: impl FnOnce() -> (f64, f64)) -> Option<Vec3> {
        match self {
            Orbit::Circular(o) => Some(o.position(t_s, earth())),
            Orbit::Geo { longitude_deg } => Some(geometry::geodetic_to_ecef(0.0, *longitude_deg, GEO_ALTITUDE_KM)),
            Orbit::Sgp4(o) => {
                let p = o.constants.propagate(sgp4::MinutesSinceEpoch(o.offset_min + t_s / 60.0)).ok()?;
                let [x, y, z] = p.position;
                if !(x.is_finite() && y.is_finite() && z.is_finite()) {
                    return None;
                }
                Some(rotate_z(x, y, z, o.gmst0_rad + EARTH_ROTATION_RAD_S * t_s))
            }
        }
    }
}

/// ECI/TEME → ECEF: rotation about z by `−θ`.
fn rotate_z(x: f64, y: f64, z: f64, theta: f64) -> Vec3 {
    rotated_z(x, y, z, math::sin_cos(theta))
}

/// The text an SGP4 satellite was read from, kept so that another propagator (the globe's
/// satellite.js) can be given exactly the same elements.
#[derive(Debug, Clone, PartialEq)]
pub enum ElementSource {
    /// The two TLE lines (the 3LE name line is the satellite's name).
    Tle { line1: String, line2: String },
    /// The OMM record as given.
    Omm(serde_json::Value),
}

/// An element set with the text it came from.
#[derive(Debug, Clone)]
pub struct SourcedElements {
    pub elements: sgp4::Elements,
    pub source: ElementSource,
}

/// One satellite with a display name.
#[derive(Debug, Clone)]
pub struct Satellite {
    pub name: String,
    pub orbit: Orbit,
    /// Where an SGP4 satellite's elements came from (`None` for Walker and GEO satellites, and
    /// for element sets added without their text through [`Constellation::add_elements`]).
    pub source: Option<ElementSource>,
}

/// Where a Walker shell's satellites sit in [`Constellation::sats`]: satellite (plane p, slot s)
/// is `first + p·sats_per_plane + s`.
#[derive(Debug, Clone, PartialEq)]
pub struct ShellGrid {
    pub first: usize,
    pub shell: WalkerShell,
}

/// A plane/slot grid over satellites that are not a Walker shell (element sets given a grid or
/// with one inferred): `members[p·sats_per_plane + s]` is the satellite in plane p, slot s, if
/// any. +Grid links (p, s) to (p, s + 1) and to (p + 1, s); the seam link from (P − 1, s) goes to
/// (0, s + seam_shift), as a Walker shell's goes to (0, s + F).
#[derive(Debug, Clone, PartialEq)]
pub struct SatGrid {
    pub planes: usize,
    pub sats_per_plane: usize,
    pub seam_shift: usize,
    pub members: Vec<Option<u32>>,
    /// Mean altitude, km (for the default ISL length limit).
    pub altitude_km: f64,
}

impl SatGrid {
    /// The satellite at plane `p`, slot `s` (both taken modulo the grid's size).
    pub fn at(&self, p: usize, s: usize) -> Option<u32> {
        self.members[(p % self.planes) * self.sats_per_plane + s % self.sats_per_plane]
    }
}

/// A set of satellites; Walker shells also record their plane/slot grid for +Grid ISLs, and so do
/// element sets given a grid.
#[derive(Debug, Clone, Default)]
pub struct Constellation {
    pub sats: Vec<Satellite>,
    pub shells: Vec<ShellGrid>,
    pub grids: Vec<SatGrid>,
    /// t = 0 of the SGP4 satellites (see [`Self::sgp4_epoch`]).
    epoch: Option<NaiveDateTime>,
}

impl Constellation {
    /// Appends a Walker-delta shell (docs/links-and-orbits.md §7). Satellites are named `W{shell}-{plane}-{slot}`.
    pub fn add_walker(&mut self, shell: &WalkerShell) -> Result<(), OrbitError> {
        shell.validate()?;
        // Before building anything: 3000 × 3000 would be 9 million satellites.
        let (p_n, s_n) = (shell.planes, shell.sats_per_plane);
        let total = p_n.checked_mul(s_n).and_then(|t| t.checked_add(self.sats.len()));
        if total.is_none_or(|t| t > MAX_SATELLITES) {
            let product = p_n as u128 * s_n as u128;
            let others = match self.sats.len() {
                0 => String::new(),
                n => format!(" (with the {n} before this shell)"),
            };
            return Err(OrbitError::Walker {
                field: "planes".into(),
                problem: format!(
                    "{p_n} × {s_n} = {product} satellites{others}; at most {MAX_SATELLITES} are supported \
                     (use fewer planes or satellites per plane)"
                ),
            });
        }
        if shell.propagator == Propagator::Sgp4 {
            return self.add_walker_sgp4(shell);
        }
        // A shell with an epoch shares the constellation's clock and turns the Earth by the
        // sidereal time at it: its RAANs are inertial, so its Earth-fixed RAANs are smaller.
        let gmst0 = match &shell.epoch_utc {
            Some(text) => {
                let epoch = parse_iso_utc(text).ok_or_else(|| OrbitError::Walker {
                    field: "epoch_utc".into(),
                    problem: format!("\"{text}\" is not a UTC date-time like 2000-01-01T00:00:00Z"),
                })?;
                match self.epoch {
                    Some(previous) if previous != epoch => {
                        return Err(OrbitError::Walker {
                            field: "epoch_utc".into(),
                            problem: format!(
                                "{epoch} differs from the constellation's t = 0, {previous}; one constellation has one clock"
                            ),
                        })
                    }
                    _ => self.epoch = Some(epoch),
                }
                sgp4::iau_epoch_to_sidereal_time(sgp4::julian_years_since_j2000(&epoch))
            }
            None => 0.0,
        };
        let idx = self.shells.len();
        let first = self.sats.len();
        let a = EARTH_RADIUS_KM + shell.altitude_km;
        let rate = 2.0 * std::f64::consts::PI / geometry::period_s(shell.altitude_km);
        let (p_n, s_n) = (shell.planes, shell.sats_per_plane);
        let t = shell.total() as f64;
        for p in 0..p_n {
            for s in 0..s_n {
                let raan = 360.0 * p as f64 / p_n as f64 - gmst0.to_degrees();
                let half_slot = if shell.phase_diff && p % 2 == 1 { 180.0 / s_n as f64 } else { 0.0 };
                let u0 = 360.0 * s as f64 / s_n as f64 + 360.0 * (shell.phasing * p) as f64 / t + half_slot;
                self.sats.push(Satellite {
                    name: format!("W{idx}-{p}-{s}"),
                    source: None,
                    orbit: Orbit::Circular(CircularOrbit::new(
                        a,
                        shell.inclination_deg.to_radians(),
                        raan.to_radians(),
                        u0.to_radians(),
                        rate,
                    )),
                });
            }
        }
        self.shells.push(ShellGrid { first, shell: shell.clone() });
        Ok(())
    }

    /// A Walker shell as SGP4 element sets written as TLE text the way Hypatia's generator
    /// writes them (docs/links-and-orbits.md §13), so that the globe's satellite.js and any
    /// other SGP4 reader get exactly the same satellites.
    fn add_walker_sgp4(&mut self, shell: &WalkerShell) -> Result<(), OrbitError> {
        let epoch_text = shell.epoch_utc.as_deref().unwrap_or(HYPATIA_EPOCH);
        let epoch = parse_iso_utc(epoch_text).ok_or_else(|| OrbitError::Walker {
            field: "epoch_utc".into(),
            problem: format!("\"{epoch_text}\" is not a UTC date-time like 2000-01-01T00:00:00Z"),
        })?;
        if self.epoch.is_some_and(|e| e != epoch) {
            return Err(OrbitError::Walker {
                field: "epoch_utc".into(),
                problem: format!("{epoch} differs from the constellation's t = 0; one constellation has one clock"),
            });
        }
        let idx = self.shells.len();
        let first = self.sats.len();
        let text = walker_tle_text(shell, epoch);
        let sets = parse_tle_sourced(&text).map_err(|e| OrbitError::Walker {
            field: "propagator".into(),
            problem: format!("the generated element sets do not parse ({e})"),
        })?;
        self.add_sourced(&sets, Some(epoch))?;
        for (k, sat) in self.sats[first..].iter_mut().enumerate() {
            sat.name = format!("W{idx}-{}-{}", k / shell.sats_per_plane, k % shell.sats_per_plane);
        }
        self.shells.push(ShellGrid { first, shell: shell.clone() });
        Ok(())
    }

    /// Appends a geostationary satellite above `longitude_deg` (°E).
    pub fn add_geo(&mut self, longitude_deg: f64) -> Result<(), OrbitError> {
        if !(-180.0..=360.0).contains(&longitude_deg) {
            return Err(OrbitError::Geo(format!("longitude {}° is outside −180–360°", Num(longitude_deg))));
        }
        self.sats.push(Satellite {
            name: format!("GEO{longitude_deg}"),
            orbit: Orbit::Geo { longitude_deg },
            source: None,
        });
        Ok(())
    }

    /// Appends SGP4 satellites from element sets; t = 0 is `epoch` if given, else the epoch of
    /// earlier calls (one constellation has one clock), else the latest epoch among the sets.
    pub fn add_elements(&mut self, sets: &[sgp4::Elements], epoch: Option<NaiveDateTime>) -> Result<(), OrbitError> {
        if let (Some(given), Some(previous)) = (epoch, self.epoch) {
            if given != previous {
                return Err(OrbitError::Config {
                    field: "constellation".into(),
                    problem: format!(
                        "element sets added with two epochs, {previous} and {given}; one constellation has one t = 0"
                    ),
                });
            }
        }
        let Some(start) = epoch.or(self.epoch).or_else(|| sets.iter().map(|e| e.datetime).max()) else {
            return Ok(());
        };
        self.epoch = Some(start);
        let gmst0 = sgp4::iau_epoch_to_sidereal_time(sgp4::julian_years_since_j2000(&start));
        for (i, e) in sets.iter().enumerate() {
            let name = e.object_name.clone().unwrap_or_else(|| format!("NORAD {}", e.norad_id));
            let constants = sgp4_constants(e).map_err(|err| OrbitError::Sgp4 {
                index: i,
                name: excerpt(&name),
                problem: format!("{err}"),
            })?;
            let offset_min = e
                .datetime_to_minutes_since_epoch(&start)
                .map_err(|err| OrbitError::Sgp4 { index: i, name: excerpt(&name), problem: format!("{err}") })?
                .0;
            self.sats.push(Satellite {
                name,
                orbit: Orbit::Sgp4(Box::new(Sgp4Orbit { constants, offset_min, gmst0_rad: gmst0 })),
                source: None,
            });
        }
        Ok(())
    }

    /// [`Self::add_elements`], keeping each set's source text on its satellite.
    pub fn add_sourced(&mut self, sets: &[SourcedElements], epoch: Option<NaiveDateTime>) -> Result<(), OrbitError> {
        let first = self.sats.len();
        let elements: Vec<sgp4::Elements> = sets.iter().map(|s| s.elements.clone()).collect();
        self.add_elements(&elements, epoch)?;
        for (sat, set) in self.sats[first..].iter_mut().zip(sets) {
            sat.source = Some(set.source.clone());
        }
        Ok(())
    }

    /// Records a plane/slot grid over satellites already added (indices into `sats`).
    pub fn add_grid(&mut self, grid: SatGrid) -> Result<(), OrbitError> {
        let n = self.sats.len();
        if grid.planes == 0 || grid.sats_per_plane == 0 || grid.members.len() != grid.planes * grid.sats_per_plane {
            return Err(OrbitError::Config {
                field: "constellation.grid".into(),
                problem: format!(
                    "{} planes × {} slots do not match {} members",
                    grid.planes,
                    grid.sats_per_plane,
                    grid.members.len()
                ),
            });
        }
        if let Some(bad) = grid.members.iter().flatten().find(|&&i| i as usize >= n) {
            return Err(OrbitError::Config {
                field: "constellation.grid".into(),
                problem: format!("satellite {bad} does not exist ({n} satellites)"),
            });
        }
        self.grids.push(grid);
        Ok(())
    }

    /// The t = 0 of the SGP4 satellites (`None` without any): see [`Self::add_elements`].
    pub fn sgp4_epoch(&self) -> Option<NaiveDateTime> {
        self.epoch
    }

    /// The ECEF positions of all satellites at `t_s` into `out` (cleared first).
    pub fn positions_into(&self, t_s: f64, out: &mut Vec<Option<Vec3>>) {
        out.clear();
        let earth = earth_rotation(t_s);
        out.extend(self.sats.iter().map(|s| s.orbit.position_with(t_s, || earth)));
    }
}

/// SGP4's constants for an element set with the WGS72 geopotential, the model TLEs are fitted
/// with (and satellite.js and Hypatia use); the IAU sidereal time and epoch as the rest of this
/// module. (`sgp4::Constants::from_elements` would take WGS84.)
pub fn sgp4_constants(e: &sgp4::Elements) -> Result<sgp4::Constants, sgp4::ElementsError> {
    let rad = std::f64::consts::PI / 180.0;
    Ok(sgp4::Constants::new(
        sgp4::WGS72,
        sgp4::iau_epoch_to_sidereal_time,
        e.epoch(),
        e.drag_term,
        sgp4::Orbit::from_kozai_elements(
            &sgp4::WGS72,
            e.inclination * rad,
            e.right_ascension * rad,
            e.eccentricity,
            e.argument_of_perigee * rad,
            e.mean_anomaly * rad,
            e.mean_motion * (std::f64::consts::PI / 720.0),
        )?,
    )?)
}

/// Parses TLEs: pairs of lines `1 …`/`2 …`, each optionally preceded by a name line (3LE). Blank
/// lines are skipped. Errors name the 1-based line number of the text and the problem.
pub fn parse_tle(text: &str) -> Result<Vec<sgp4::Elements>, OrbitError> {
    Ok(parse_tle_sourced(text)?.into_iter().map(|s| s.elements).collect())
}

/// The grid of a Hypatia `tles.txt`: its first line is "P S", the number of planes and of
/// satellites per plane, the sets following plane by plane. `None` when the text has no such line.
pub fn tle_grid_header(text: &str) -> Option<(usize, usize)> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    let mut words = first.split_whitespace();
    let (p, s) = (words.next()?.parse().ok()?, words.next()?.parse().ok()?);
    words.next().is_none().then_some((p, s))
}

/// [`parse_tle`], keeping each set's two lines. A Hypatia "P S" first line is skipped
/// ([`tle_grid_header`] reads it).
pub fn parse_tle_sourced(text: &str) -> Result<Vec<SourcedElements>, OrbitError> {
    let mut lines: Vec<(usize, &str)> =
        text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end())).filter(|(_, l)| !l.trim().is_empty()).collect();
    if tle_grid_header(text).is_some() {
        lines.remove(0);
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut name = None;
        if !lines[i].1.starts_with("1 ") {
            let (n, l) = lines[i];
            if l.len() >= 2 && l.as_bytes()[0].is_ascii_digit() && l.as_bytes()[1] == b' ' {
                return Err(tle_err(
                    n,
                    format!("expected line 1 of an element set (starting \"1 \"), found a line starting {}", start(l)),
                ));
            }
            name = Some(l.trim_start_matches("0 ").trim().to_string());
            i += 1;
        }
        let (Some(&(n1, l1)), Some(&(n2, l2))) = (lines.get(i), lines.get(i + 1)) else {
            let n = lines.last().map_or(1, |l| l.0);
            return Err(tle_err(n, "the text ends in the middle of an element set (a TLE has two lines)".into()));
        };
        check_tle_line(n1, l1, '1')?;
        check_tle_line(n2, l2, '2')?;
        if l1[2..7] != l2[2..7] {
            let (c2, c1) = (excerpt(&l2[2..7]), excerpt(&l1[2..7]));
            return Err(tle_err(n2, format!("catalog number {c2} differs from line 1's {c1}")));
        }
        let field = |n: usize, l: &str, cols: (usize, usize), what: &str, range: (f64, f64), implied_decimal: bool| {
            let raw = l[cols.0 - 1..cols.1].trim();
            let v: f64 = if implied_decimal { format!("0.{raw}").parse() } else { raw.parse() }.map_err(|_| {
                tle_err(n, format!("{what} (columns {}–{}) \"{}\" is not a number", cols.0, cols.1, excerpt(raw)))
            })?;
            if !(range.0..=range.1).contains(&v) {
                return Err(tle_err(
                    n,
                    format!("{what} (columns {}–{}) {v} is out of range {}–{}", cols.0, cols.1, range.0, range.1),
                ));
            }
            Ok(v)
        };
        field(n1, l1, (19, 20), "epoch year", (0.0, 99.0), false)?;
        field(n1, l1, (21, 32), "epoch day of year", (1.0, 366.999_999_99), false)?;
        field(n2, l2, (9, 16), "inclination", (0.0, 180.0), false)?;
        field(n2, l2, (18, 25), "right ascension of the ascending node", (0.0, 360.0), false)?;
        field(n2, l2, (27, 33), "eccentricity", (0.0, 0.999_999_9), true)?;
        field(n2, l2, (35, 42), "argument of perigee", (0.0, 360.0), false)?;
        field(n2, l2, (44, 51), "mean anomaly", (0.0, 360.0), false)?;
        field(n2, l2, (53, 63), "mean motion (rev/day)", (0.01, 20.0), false)?;
        // The checks above catch what we can name precisely; anything else sgp4 reports (its
        // message names "line 1" or "line 2" of the set) is given at the set's first line.
        let e = sgp4::Elements::from_tle(name, l1.as_bytes(), l2.as_bytes())
            .map_err(|err| tle_err(n1, format!("element set starting here: {err}")))?;
        out.push(SourcedElements { elements: e, source: ElementSource::Tle { line1: l1.into(), line2: l2.into() } });
        i += 2;
    }
    Ok(out)
}

/// How a line that is not the one expected starts: its first two characters, escaped. A TLE
/// file's errors name line numbers rather than quote lines, so that a file that is not a TLE
/// is not printed.
fn start(l: &str) -> String {
    format!("\"{}\"", excerpt(&l.chars().take(2).collect::<String>()))
}

fn tle_err(line: usize, problem: String) -> OrbitError {
    OrbitError::Tle { line, problem }
}

fn check_tle_line(n: usize, l: &str, which: char) -> Result<(), OrbitError> {
    if !l.is_ascii() {
        return Err(tle_err(n, "contains non-ASCII characters".into()));
    }
    if !l.starts_with(which) {
        return Err(tle_err(n, format!("expected line {which} of an element set, found a line starting {}", start(l))));
    }
    if l.len() != 69 {
        return Err(tle_err(n, format!("line {which} is {} characters long; a TLE line has 69", l.len())));
    }
    let want = tle_checksum(l);
    let got = l.as_bytes()[68];
    if got != b'0' + want as u8 {
        return Err(tle_err(n, format!("checksum: column 69 says '{}' but the line sums to {want}", got as char)));
    }
    Ok(())
}

/// Parses CelesTrak's OMM JSON (`FORMAT=JSON`): an array of objects (or one object) with the keys
/// OBJECT_NAME, NORAD_CAT_ID, EPOCH, MEAN_MOTION, ECCENTRICITY, INCLINATION, RA_OF_ASC_NODE,
/// ARG_OF_PERICENTER, MEAN_ANOMALY and optionally BSTAR, MEAN_MOTION_DOT, MEAN_MOTION_DDOT,
/// ELEMENT_SET_NO, REV_AT_EPOCH. Numbers may be JSON numbers or strings (Space-Track style).
pub fn parse_omm(value: &serde_json::Value) -> Result<Vec<sgp4::Elements>, OrbitError> {
    Ok(parse_omm_sourced(value)?.into_iter().map(|s| s.elements).collect())
}

/// [`parse_omm`], keeping each record.
pub fn parse_omm_sourced(value: &serde_json::Value) -> Result<Vec<SourcedElements>, OrbitError> {
    let records: Vec<&serde_json::Value> = match value {
        serde_json::Value::Array(a) => a.iter().collect(),
        v @ serde_json::Value::Object(_) => vec![v],
        _ => {
            return Err(OrbitError::Omm {
                index: 0,
                name: String::new(),
                problem: "expected an array of OMM objects".into(),
            })
        }
    };
    records
        .iter()
        .enumerate()
        .map(|(i, r)| Ok(SourcedElements { elements: omm_record(i, r)?, source: ElementSource::Omm((*r).clone()) }))
        .collect()
}

fn omm_record(index: usize, r: &serde_json::Value) -> Result<sgp4::Elements, OrbitError> {
    let name = r.get("OBJECT_NAME").and_then(|v| v.as_str()).unwrap_or("").to_string();
    let err = |problem: String| OrbitError::Omm { index, name: excerpt(&name), problem };
    let num = |key: &str, required: bool, range: (f64, f64)| -> Result<f64, OrbitError> {
        let v = match r.get(key) {
            None | Some(serde_json::Value::Null) if !required => return Ok(0.0),
            None | Some(serde_json::Value::Null) => return Err(err(format!("{key} is missing"))),
            Some(serde_json::Value::Number(n)) => n.as_f64(),
            Some(serde_json::Value::String(s)) => s.trim().parse().ok(),
            Some(_) => None,
        }
        .ok_or_else(|| err(format!("{key} is not a number")))?;
        // A string may say "inf" or "NaN", which SGP4 would turn into a satellite without a
        // position at any time.
        if !v.is_finite() {
            return Err(err(format!("{key} \"{v}\" is not a finite number")));
        }
        if !(range.0..=range.1).contains(&v) {
            return Err(err(format!("{key} {} is out of range {}–{}", Num(v), range.0, range.1)));
        }
        Ok(v)
    };
    let epoch_s = r.get("EPOCH").and_then(|v| v.as_str()).ok_or_else(|| err("EPOCH is missing".into()))?;
    let datetime =
        NaiveDateTime::parse_from_str(epoch_s.trim_end_matches('Z'), "%Y-%m-%dT%H:%M:%S%.f").map_err(|e| {
            err(format!("EPOCH \"{}\" is not an ISO date-time like 2024-01-31T12:00:00.000: {e}", excerpt(epoch_s)))
        })?;
    let inf = f64::INFINITY;
    Ok(sgp4::Elements {
        object_name: if name.is_empty() { None } else { Some(name.clone()) },
        international_designator: r.get("OBJECT_ID").and_then(|v| v.as_str()).map(str::to_string),
        norad_id: num("NORAD_CAT_ID", true, (0.0, 1e9))? as u64,
        classification: sgp4::Classification::Unclassified,
        datetime,
        mean_motion_dot: num("MEAN_MOTION_DOT", false, (-inf, inf))?,
        mean_motion_ddot: num("MEAN_MOTION_DDOT", false, (-inf, inf))?,
        drag_term: num("BSTAR", false, (-inf, inf))?,
        element_set_number: num("ELEMENT_SET_NO", false, (0.0, 1e9))? as u64,
        inclination: num("INCLINATION", true, (0.0, 180.0))?,
        right_ascension: num("RA_OF_ASC_NODE", true, (0.0, 360.0))?,
        eccentricity: num("ECCENTRICITY", true, (0.0, 0.999_999_9))?,
        argument_of_perigee: num("ARG_OF_PERICENTER", true, (0.0, 360.0))?,
        mean_anomaly: num("MEAN_ANOMALY", true, (0.0, 360.0))?,
        mean_motion: num("MEAN_MOTION", true, (0.01, 20.0))?,
        revolution_number: num("REV_AT_EPOCH", false, (0.0, 1e9))? as u64,
        ephemeris_type: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // ISS (ZARYA), the example element set of the sgp4 crate's README / CelesTrak.
    const L1: &str = "1 25544U 98067A   20194.88612269 -.00002218  00000-0 -31515-4 0  9992";
    const L2: &str = "2 25544  51.6461 221.2784 0001413  89.1723 280.4612 15.49507896236008";

    fn with_checksum(l: &str) -> String {
        format!("{}{}", &l[..68], tle_checksum(l))
    }

    #[test]
    fn a_valid_tle_parses_and_propagates_to_iss_altitude() {
        let sets = parse_tle(&format!("ISS (ZARYA)\n{L1}\n{L2}\n")).unwrap();
        assert_eq!(sets.len(), 1);
        assert_eq!(sets[0].object_name.as_deref(), Some("ISS (ZARYA)"));
        let mut c = Constellation::default();
        c.add_elements(&sets, None).unwrap();
        let (_, _, alt) = geometry::ecef_to_geodetic(c.sats[0].orbit.position(0.0).unwrap());
        assert!((400.0..440.0).contains(&alt), "ISS altitude {alt}");
    }

    #[test]
    fn sourced_sets_keep_their_lines_and_a_constellation_keeps_one_clock() {
        let sets = parse_tle_sourced(&format!("ISS (ZARYA)\n{L1}\n{L2}\n")).unwrap();
        assert_eq!(sets[0].source, ElementSource::Tle { line1: L1.into(), line2: L2.into() });
        let mut c = Constellation::default();
        c.add_sourced(&sets, None).unwrap();
        assert_eq!(c.sats[0].source, Some(ElementSource::Tle { line1: L1.into(), line2: L2.into() }));
        let epoch = c.sgp4_epoch().unwrap();
        assert_eq!(epoch, sets[0].elements.datetime);
        // A later set added without an epoch runs on the same clock: same elements, same place.
        c.add_elements(&[sets[0].elements.clone()], None).unwrap();
        let d = geometry::distance_km(c.sats[0].orbit.position(60.0).unwrap(), c.sats[1].orbit.position(60.0).unwrap());
        assert!(d < 1e-9, "{d}");
        let other = epoch + sgp4::chrono::Duration::hours(1);
        let e = c.add_elements(&[sets[0].elements.clone()], Some(other)).unwrap_err().to_string();
        assert!(e.contains("two epochs"), "{e}");
    }

    #[test]
    fn a_bad_checksum_names_the_line_and_the_checksum() {
        let bad = format!("{}{}", &L1[..68], (tle_checksum(L1) + 1) % 10);
        let e = parse_tle(&format!("{bad}\n{L2}")).unwrap_err().to_string();
        assert!(e.starts_with("TLE line 1: checksum"), "{e}");
    }

    #[test]
    fn a_hypatia_header_gives_the_grid_and_errors_keep_the_file_line_numbers() {
        let text = format!("2 1\nA\n{L1}\n{L2}\nB\n{L1}\n{L2}\n");
        assert_eq!(tle_grid_header(&text), Some((2, 1)));
        assert_eq!(parse_tle(&text).unwrap().len(), 2);
        assert_eq!(tle_grid_header(&format!("A\n{L1}\n{L2}\n")), None);
        assert_eq!(tle_grid_header("2 1 3\n"), None);
        let broken = text.replace(&format!("B\n{L1}"), &format!("B\n{}", &L1[..40]));
        let e = parse_tle(&broken).unwrap_err().to_string();
        assert!(e.starts_with("TLE line 6:"), "{e}");
    }

    #[test]
    fn a_short_line_names_the_line_and_the_length() {
        let e = parse_tle(&format!("ISS\n{L1}\n{}", &L2[..60])).unwrap_err().to_string();
        assert_eq!(e, "TLE line 3: line 2 is 60 characters long; a TLE line has 69");
    }

    #[test]
    fn an_out_of_range_inclination_names_the_field() {
        let l2 = with_checksum(&L2.replace(" 51.6461 ", "190.6461 "));
        let e = parse_tle(&format!("{L1}\n{l2}")).unwrap_err().to_string();
        assert_eq!(e, "TLE line 2: inclination (columns 9–16) 190.6461 is out of range 0–180");
    }

    #[test]
    fn omm_json_parses_and_bad_fields_are_named() {
        let omm = serde_json::json!([{
            "OBJECT_NAME": "ISS (ZARYA)", "OBJECT_ID": "1998-067A", "EPOCH": "2020-07-12T21:16:01.000416",
            "MEAN_MOTION": 15.49507896, "ECCENTRICITY": 0.0001413, "INCLINATION": 51.6461,
            "RA_OF_ASC_NODE": 221.2784, "ARG_OF_PERICENTER": 89.1723, "MEAN_ANOMALY": 280.4612,
            "NORAD_CAT_ID": 25544, "BSTAR": -3.1515e-5, "MEAN_MOTION_DOT": -2.218e-5, "MEAN_MOTION_DDOT": 0
        }]);
        let sets = parse_omm(&omm).unwrap();
        let tle = parse_tle(&format!("{L1}\n{L2}")).unwrap();
        let mut a = Constellation::default();
        a.add_elements(&sets, None).unwrap();
        let mut b = Constellation::default();
        b.add_elements(&tle, None).unwrap();
        let d =
            geometry::distance_km(a.sats[0].orbit.position(600.0).unwrap(), b.sats[0].orbit.position(600.0).unwrap());
        assert!(d < 1.0, "OMM and TLE of the same set differ by {d} km");
        let mut bad = omm.clone();
        bad[0]["INCLINATION"] = serde_json::json!(-3);
        assert_eq!(
            parse_omm(&bad).unwrap_err().to_string(),
            "OMM record 0 (ISS (ZARYA)): INCLINATION -3 is out of range 0–180"
        );
    }

    #[test]
    fn omm_refuses_infinite_and_nan_numbers_given_as_strings() {
        let omm = serde_json::json!({
            "OBJECT_NAME": "ISS (ZARYA)", "EPOCH": "2020-07-12T21:16:01.000416",
            "MEAN_MOTION": 15.49507896, "ECCENTRICITY": 0.0001413, "INCLINATION": 51.6461,
            "RA_OF_ASC_NODE": 221.2784, "ARG_OF_PERICENTER": 89.1723, "MEAN_ANOMALY": 280.4612,
            "NORAD_CAT_ID": 25544, "BSTAR": "inf"
        });
        assert_eq!(
            parse_omm(&omm).unwrap_err().to_string(),
            "OMM record 0 (ISS (ZARYA)): BSTAR \"inf\" is not a finite number"
        );
        for (key, v) in [("MEAN_MOTION_DOT", "-inf"), ("MEAN_MOTION_DDOT", "infinity"), ("INCLINATION", "NaN")] {
            let mut bad = omm.clone();
            bad["BSTAR"] = serde_json::json!(0);
            bad[key] = serde_json::json!(v);
            let e = parse_omm(&bad).unwrap_err().to_string();
            assert!(e.contains(&format!("{key} ")) && e.ends_with("is not a finite number"), "{e}");
        }
    }

    #[test]
    fn a_walker_shell_has_t_satellites_at_its_altitude_and_phasing() {
        let mut c = Constellation::default();
        c.add_walker(&WalkerShell::intcp_1600()).unwrap();
        assert_eq!(c.sats.len(), 1600);
        for s in &c.sats {
            let (_, _, alt) = geometry::ecef_to_geodetic(s.orbit.position(1234.0).unwrap());
            assert!((alt - 1150.0).abs() < 1e-6);
        }
        // In-plane neighbours are 2a·sin(π/S) apart: 945 km for S = 50 [docs/links-and-orbits.md §8].
        let d = geometry::distance_km(c.sats[0].orbit.position(0.0).unwrap(), c.sats[1].orbit.position(0.0).unwrap());
        assert!((d - 945.0).abs() < 1.0, "{d}");
        let gen1: usize = WalkerShell::starlink_gen1().iter().map(WalkerShell::total).sum();
        assert_eq!(gen1, 4408);
    }

    #[test]
    fn walker_parameters_out_of_range_are_rejected_by_field() {
        let mut s = WalkerShell::starlink_shell1();
        s.phasing = 72;
        let e = Constellation::default().add_walker(&s).unwrap_err().to_string();
        assert!(e.contains("phasing"), "{e}");
    }

    #[test]
    fn phase_diff_shifts_odd_planes_by_half_a_slot() {
        let shell = |phase_diff| WalkerShell { phase_diff, phasing: 0, ..WalkerShell::starlink_shell1() };
        let u0 = |c: &Constellation, i: usize| match &c.sats[i].orbit {
            Orbit::Circular(o) => o.u0_rad.to_degrees(),
            _ => unreachable!("a Keplerian shell"),
        };
        let (mut plain, mut shifted) = (Constellation::default(), Constellation::default());
        plain.add_walker(&shell(false)).unwrap();
        shifted.add_walker(&shell(true)).unwrap();
        // Plane 0 stays; plane 1 (satellites 22…43) moves by 360/(2·22) = 8.18°.
        assert_eq!(u0(&plain, 3), u0(&shifted, 3));
        assert!((u0(&shifted, 22 + 3) - u0(&plain, 22 + 3) - 360.0 / 44.0).abs() < 1e-9);
        assert_eq!(u0(&plain, 44 + 3), u0(&shifted, 44 + 3));
    }

    #[test]
    fn a_walker_epoch_turns_the_earth_by_the_sidereal_time_and_sets_the_clock() {
        let epoch = "2000-01-01T00:00:00Z";
        let shell =
            WalkerShell { epoch_utc: Some(epoch.into()), inclination_deg: 0.0, ..WalkerShell::starlink_shell1() };
        let mut c = Constellation::default();
        c.add_walker(&shell).unwrap();
        assert_eq!(c.sgp4_epoch(), parse_iso_utc(epoch));
        // An equatorial satellite at u = 0 is at the vernal equinox; the Earth-fixed longitude
        // of that direction is −GMST (GMST at J2000 midnight is 99.97°).
        let (_, lon, _) = geometry::ecef_to_geodetic(c.sats[0].orbit.position(0.0).unwrap());
        let gmst = sgp4::iau_epoch_to_sidereal_time(sgp4::julian_years_since_j2000(&parse_iso_utc(epoch).unwrap()));
        assert!((lon + gmst.to_degrees()).abs() < 1e-6, "{lon}");
        assert!((gmst.to_degrees() - 99.97).abs() < 0.01, "{}", gmst.to_degrees());
        // A second shell on another clock is refused by name.
        let other = WalkerShell { epoch_utc: Some("2024-01-01T00:00:00Z".into()), ..WalkerShell::starlink_shell1() };
        let e = c.add_walker(&other).unwrap_err().to_string();
        assert!(e.starts_with("walker.epoch_utc:") && e.contains("one clock"), "{e}");
        let bad = WalkerShell { epoch_utc: Some("yesterday".into()), ..WalkerShell::starlink_shell1() };
        assert!(Constellation::default().add_walker(&bad).unwrap_err().to_string().contains("not a UTC date-time"));
    }

    #[test]
    fn a_geo_satellite_stays_above_its_longitude() {
        let mut c = Constellation::default();
        c.add_geo(-75.0).unwrap();
        for t in [0.0, 3600.0, 43_200.0] {
            let (lat, lon, alt) = geometry::ecef_to_geodetic(c.sats[0].orbit.position(t).unwrap());
            assert!(lat.abs() < 1e-9 && (lon + 75.0).abs() < 1e-9 && (alt - GEO_ALTITUDE_KM).abs() < 1e-6);
        }
    }

    #[test]
    fn a_text_that_is_not_a_tle_is_named_by_its_lines_not_quoted() {
        let shadow = "root:$6$secret-hash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\nbin:*:19000:0:99999:7:::\n";
        let e = parse_tle(shadow).unwrap_err().to_string();
        assert_eq!(e, "TLE line 2: expected line 1 of an element set, found a line starting \"da\"");
        let e = parse_tle("1 x\u{1b}[31m\n2\n").unwrap_err().to_string();
        assert!(!e.contains('\u{1b}'), "{e}");
        let omm = serde_json::json!([{ "OBJECT_NAME": format!("\u{1b}]0;{}", "x".repeat(100)), "EPOCH": "\u{1b}[2J" }]);
        let e = parse_omm(&omm).unwrap_err().to_string();
        assert!(!e.contains('\u{1b}') && e.contains("\\u{1b}]0;xxx") && e.contains("x…)"), "{e}");
        assert!(e.len() < 200, "{e}");
    }
}
