//! The plane/slot grid of TLE/OMM satellites, which +Grid inter-satellite links need: given in the
//! scenario ([`ElementGrid`]: the satellites in file order, plane by plane, form a P × S grid) or
//! inferred from the element sets (`infer_grid`, `orbits` feature only).
//!
//! Sources: Hypatia's numbering (`satgenpy/satgen/isls/generate_plus_grid_isls.py`: satellite
//! `plane·S + slot`, links to `(p, s + 1)` and to the next plane); docs/links-and-orbits.md §7
//! (Walker-delta: `Ω_p = 360°·p/P`, `u_{p,s} = 360°·s/S + 360°·F·p/T`) and §9 (+Grid; the seam link
//! from `(P − 1, s)` goes to `(0, s + F)`, the satellite whose phase continues the progression).
//! Hypatia's own `isl_shift` shifts every cross-plane link, not only the seam's; the two agree for
//! 0, Hypatia's usual value. The inference separates shells with DBSCAN (Ester, Kriegel, Sander &
//! Xu, KDD 1996) along one axis at a time, and fits plane and slot lattices with k-fold circular
//! means (Mardia & Jupp, "Directional Statistics", 2000, ch. 2).
//!
//! The scenario-format types ([`ElementGrid`], [`GridSpec`]) build without the `orbits` feature, so
//! that the site's small wasm module parses scenarios that name a grid. No I/O.

use super::OrbitError;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// The satellites of the element sets, in file order plane by plane, as a P × S grid: satellite
/// `p·S + s` is slot s of plane p (Hypatia's numbering). +Grid links join `(p, s)` to `(p, s + 1)`
/// and to `(p + 1, s)`; the seam link from `(P − 1, s)` goes to `(0, s + isl_shift)`, as a Walker
/// shell's goes to `(0, s + F)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ElementGrid {
    /// P, the number of planes.
    pub planes: usize,
    /// S, satellites per plane.
    pub sats_per_plane: usize,
    /// Slot offset of the seam link from the last plane to the first, below `sats_per_plane`.
    #[serde(default)]
    pub isl_shift: usize,
}

impl ElementGrid {
    /// Checks the ranges and that the grid covers the `satellites` element sets exactly once.
    pub fn validate(&self, satellites: usize) -> Result<(), OrbitError> {
        let bad = |field: &str, problem: String| Err(OrbitError::Config { field: field.into(), problem });
        if self.planes == 0 {
            return bad("constellation.grid.planes", "must be at least 1".into());
        }
        if self.sats_per_plane == 0 {
            return bad("constellation.grid.sats_per_plane", "must be at least 1".into());
        }
        if self.isl_shift >= self.sats_per_plane {
            return bad(
                "constellation.grid.isl_shift",
                format!("{} must be below sats_per_plane ({})", self.isl_shift, self.sats_per_plane),
            );
        }
        let product = self.planes as u128 * self.sats_per_plane as u128;
        if product != satellites as u128 {
            return bad(
                "constellation.grid",
                format!(
                    "planes × sats_per_plane = {} × {} = {product} satellites, but the element sets hold {satellites}; \
                     the grid must cover every satellite once, in file order plane by plane",
                    self.planes, self.sats_per_plane
                ),
            );
        }
        Ok(())
    }

    /// The +Grid pairs `(a, b)`, `a < b`, as satellite indices `p·S + s`, each once, sorted. Empty
    /// for a grid without planes or slots; call [`Self::validate`] first.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let s_n = self.sats_per_plane;
        plus_grid_pairs(self.planes, s_n, self.isl_shift, |p, s| Some(p * s_n + s))
    }
}

/// +Grid pairs of a P × S grid whose slot `(p, s)` holds satellite `at(p, s)` (or none: its links
/// are absent): `(p, s)–(p, s + 1)`, `(p, s)–(p + 1, s)` and the seam `(P − 1, s)–(0, s + shift)`.
/// Each undirected pair once, `a < b`, sorted; a satellite is never linked to itself.
fn plus_grid_pairs(
    planes: usize,
    sats_per_plane: usize,
    isl_shift: usize,
    at: impl Fn(usize, usize) -> Option<usize>,
) -> Vec<(usize, usize)> {
    let (p_n, s_n) = (planes, sats_per_plane);
    let mut out = Vec::new();
    if p_n == 0 || s_n == 0 {
        return out;
    }
    let mut link = |a: Option<usize>, b: Option<usize>| {
        if let (Some(a), Some(b)) = (a, b) {
            if a != b {
                out.push((a.min(b), a.max(b)));
            }
        }
    };
    for p in 0..p_n {
        for s in 0..s_n {
            link(at(p, s), at(p, (s + 1) % s_n));
            if p + 1 < p_n {
                link(at(p, s), at(p + 1, s));
            } else if p_n > 1 {
                link(at(p, s), at(0, (s + isl_shift % s_n) % s_n));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// How the element-set satellites form a grid: an explicit [`ElementGrid`] object, or the string
/// `"infer"` (`infer_grid`, with the `orbits` feature).
#[derive(Debug, Clone, PartialEq)]
pub enum GridSpec {
    Explicit(ElementGrid),
    Infer,
}

const GRID_SPEC_EXPECTED: &str = "\"infer\" or {\"planes\", \"sats_per_plane\", \"isl_shift\"}";

impl Serialize for GridSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            GridSpec::Explicit(g) => g.serialize(s),
            GridSpec::Infer => s.serialize_str("infer"),
        }
    }
}

impl<'de> Deserialize<'de> for GridSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Spec;
        impl<'de> de::Visitor<'de> for Spec {
            type Value = GridSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(GRID_SPEC_EXPECTED)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<GridSpec, E> {
                match v {
                    "infer" => Ok(GridSpec::Infer),
                    _ => Err(E::custom(format!("unknown grid \"{v}\": expected {GRID_SPEC_EXPECTED}"))),
                }
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<GridSpec, A::Error> {
                // Through the struct's own impl, so that its unknown-field and missing-field errors
                // reach the user as they are.
                ElementGrid::deserialize(de::value::MapAccessDeserializer::new(map)).map(GridSpec::Explicit)
            }
        }
        d.deserialize_any(Spec)
    }
}

impl schemars::JsonSchema for GridSpec {
    fn schema_name() -> String {
        "GridSpec".into()
    }

    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        use schemars::schema::{InstanceType, Schema, SchemaObject};
        let word = SchemaObject {
            instance_type: Some(InstanceType::String.into()),
            enum_values: Some(vec!["infer".into()]),
            ..Default::default()
        };
        let mut s = SchemaObject::default();
        s.metadata().description = Some(
            "The satellites' plane/slot grid: {planes, sats_per_plane, isl_shift} (file order, plane by plane) \
             or \"infer\" (from the elements)."
                .into(),
        );
        s.subschemas().one_of = Some(vec![gen.subschema_for::<ElementGrid>(), Schema::Object(word)]);
        Schema::Object(s)
    }
}

#[cfg(feature = "orbits")]
pub use inference::{infer_grid, InferredGrid, InferredShell, LeftOut, LeftOutKind};

/// The inference. Angles are compared at one common time, the latest epoch among the sets (t = 0 of
/// `Constellation::add_elements`). Each set is propagated there with SGP4 itself, and RAAN
/// and argument of latitude are read from its TEME position and velocity, rather than advancing the
/// mean angles with J2 rates by hand: SGP4 already applies the secular J2/J4 rates with the
/// Brouwer mean motion it recovers from the Kozai one (taking the TLE's Kozai mean motion as the
/// rate of u would err by ~0.1 % of 5400°/day, several degrees per day of epoch difference), and
/// drag; and the grid then describes the positions the simulation uses. The cost is the short-
/// period J2 wobble of osculating angles, ~0.1°, far below plane and slot spacings (≥ 5°).
/// Inclination and altitude come from the mean elements (inclination; altitude by Kepler's third
/// law from the mean motion), which are steadier than osculating ones.
#[cfg(feature = "orbits")]
mod inference {
    use super::super::geometry::{self, Vec3};
    use super::super::math;
    use super::plus_grid_pairs;
    use std::collections::BTreeMap;
    use std::f64::consts::TAU;

    /// Shells are dense in (inclination, altitude). Neighbours lie within 0.1° of inclination: a
    /// shell's mean inclinations spread by a few hundredths of a degree, and Starlink's 53.0° and
    /// 53.2° shells lie ~0.17° apart.
    const INC_EPS_DEG: f64 = 0.1;
    /// ... and within 5 km of mean-motion altitude: a shell spreads by a few km, and Starlink's
    /// 540- and 550-km shells lie 10 km apart.
    const ALT_EPS_KM: f64 = 5.0;
    /// A satellite with at least 3 neighbours is a shell's core (DBSCAN's MinPts = 4, itself
    /// included); others belong to the cluster of a core within reach, or to none.
    const MIN_NEIGHBOURS: usize = 3;
    /// At most 360 planes (1° apart).
    const MAX_PLANES: usize = 360;
    /// Gaps within a factor 1.2 of each other count as the same when finding the most common
    /// one (a missing slot doubles a gap, a spare halves one), and slot counts within it of
    /// `m·360°/gap` are tried.
    const SPACING_RATIO: f64 = 1.2;
    /// Arguments of latitude closer than 0.5° are no slot spacing (a duplicate set, a spare).
    const MIN_SLOT_GAP_DEG: f64 = 0.5;
    /// The most common gap in a plane may span up to 4 slots (when most slots are missing).
    const GAP_SPANS: usize = 4;
    /// When choosing the slot count, a satellite fits a lattice within a fifth of a slot of its
    /// plane's phase: two satellites half a slot apart do not both fit (at a quarter they would).
    const SLOT_FIT_TOL: f64 = 0.2;
    /// The slot count read from the most common gap is taken if 80 % of the satellites fit it;
    /// fewer would leave too many as spares (half the true count leaves about half).
    const SLOT_FIT_GOOD: f64 = 0.8;
    /// Else the smallest count that fits within 20 % of the satellites of the best is taken.
    const SLOT_FIT_SLACK: f64 = 0.2;
    /// At most 1000 slots per plane.
    const MAX_SLOTS: usize = 1000;
    /// A satellite more than a quarter of the spacing from its plane's RAAN lies between planes;
    /// more than a quarter slot from its slot, between slots.
    const PLANE_TOL: f64 = 0.25;
    const SLOT_TOL: f64 = 0.25;
    /// A plane's own slot phase is used if it has two satellites whose phases agree this well
    /// (resultant length of the S-fold circular mean); else the shell's Walker phasing predicts it.
    const PLANE_PHASE_COHERENCE: f64 = 0.5;
    /// A satellite outside every shell is compared with the shells within 0.5° of its inclination.
    const INC_MATCH_DEG: f64 = 0.5;
    /// Names listed per kind in [`InferredGrid::report`].
    const REPORT_NAMES: usize = 3;

    /// One shell: a P × S grid. `members[p][s]` is the index (into the element sets) of the
    /// satellite in slot s of plane p, or `None` for a missing slot, whose links are absent.
    #[derive(Debug, Clone, PartialEq)]
    pub struct InferredShell {
        pub planes: usize,
        pub sats_per_plane: usize,
        /// The seam link from `(P − 1, s)` goes to `(0, s + isl_shift)`: the Walker phasing F
        /// measured (mod S), so that every cross-plane link joins satellites the same phase apart
        /// whichever plane was numbered 0.
        pub isl_shift: usize,
        /// Median mean inclination of the members.
        pub inclination_deg: f64,
        /// Median altitude of the members, from their mean motion.
        pub altitude_km: f64,
        pub members: Vec<Vec<Option<usize>>>,
    }

    impl InferredShell {
        /// Slots that hold a satellite.
        pub fn filled(&self) -> usize {
            self.members.iter().flatten().filter(|m| m.is_some()).count()
        }

        /// The +Grid pairs of this shell (indices into the element sets), as [`InferredGrid::pairs`].
        pub fn pairs(&self) -> Vec<(usize, usize)> {
            plus_grid_pairs(self.planes, self.sats_per_plane, self.isl_shift, |p, s| {
                self.members.get(p).and_then(|row| row.get(s)).copied().flatten()
            })
        }
    }

    /// Why a satellite is in no slot.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum LeftOutKind {
        /// SGP4 refused its elements or could not propagate them to the common time.
        Propagation,
        /// No shell within 0.5° of its inclination.
        NoShell,
        /// Below the shell of its inclination: orbit raising (or lowering, or decaying).
        BelowShell,
        /// Above the shell of its inclination.
        AboveShell,
        /// At a shell's altitude but off its inclination.
        OffInclination,
        /// Its RAAN lies between two planes of its shell.
        BetweenPlanes,
        /// Between two slots of its plane, or a second satellite in a slot.
        Spare,
    }

    impl LeftOutKind {
        fn label(self) -> &'static str {
            match self {
                LeftOutKind::Propagation => "not propagated by SGP4",
                LeftOutKind::NoShell => "at an inclination without a shell",
                LeftOutKind::BelowShell => "below their shell (orbit raising?)",
                LeftOutKind::AboveShell => "above their shell",
                LeftOutKind::OffInclination => "off their shell's inclination",
                LeftOutKind::BetweenPlanes => "between two planes",
                LeftOutKind::Spare => "spares between slots or doubling a slot",
            }
        }
    }

    /// A satellite in no slot, and why.
    #[derive(Debug, Clone, PartialEq)]
    pub struct LeftOut {
        /// Index into the element sets.
        pub index: usize,
        /// `object_name`, or "".
        pub name: String,
        pub kind: LeftOutKind,
        /// In words, e.g. "between slots 4 and 5 of plane 12 of shell 0 (a spare)".
        pub reason: String,
    }

    /// What [`infer_grid`] found: shells ordered by inclination, then altitude; left-out
    /// satellites by index. Every element set is in exactly one slot or in `left_out`.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct InferredGrid {
        pub shells: Vec<InferredShell>,
        pub left_out: Vec<LeftOut>,
    }

    impl InferredGrid {
        /// The +Grid pairs `(a, b)`, `a < b`, indices into the element sets, of every shell: each
        /// undirected pair once, sorted; links to missing slots are absent.
        pub fn pairs(&self) -> Vec<(usize, usize)> {
            let mut out: Vec<(usize, usize)> = self.shells.iter().flat_map(InferredShell::pairs).collect();
            out.sort_unstable();
            out.dedup();
            out
        }

        /// One line per shell, then what was left out, grouped by kind with counts and a few names.
        /// Shells, planes and slots are numbered from 0, as the indices of `shells` and `members`.
        pub fn report(&self) -> String {
            let mut out = String::new();
            if self.shells.is_empty() {
                out.push_str("no shell found (a shell needs at least 2 planes of 2 slots)\n");
            }
            for (k, sh) in self.shells.iter().enumerate() {
                out.push_str(&format!(
                    "shell {k}: {} planes × {} slots at {:.0} km, {:.1}°, {} of {} slots filled, seam shift {}\n",
                    sh.planes,
                    sh.sats_per_plane,
                    sh.altitude_km,
                    sh.inclination_deg,
                    sh.filled(),
                    sh.planes * sh.sats_per_plane,
                    sh.isl_shift
                ));
            }
            let placed: usize = self.shells.iter().map(InferredShell::filled).sum();
            let total = placed + self.left_out.len();
            if self.left_out.is_empty() {
                out.push_str(&format!("left out: none of {total} satellites\n"));
                return out;
            }
            out.push_str(&format!("left out: {} of {total} satellites\n", self.left_out.len()));
            let mut by_kind: BTreeMap<LeftOutKind, Vec<&LeftOut>> = BTreeMap::new();
            for l in &self.left_out {
                by_kind.entry(l.kind).or_default().push(l);
            }
            for (kind, list) in by_kind {
                let names: Vec<String> = list
                    .iter()
                    .take(REPORT_NAMES)
                    .map(|l| if l.name.is_empty() { format!("#{}", l.index) } else { l.name.clone() })
                    .collect();
                let more = if list.len() > REPORT_NAMES { ", …" } else { "" };
                out.push_str(&format!("  {} {}: {}{more}\n", list.len(), kind.label(), names.join(", ")));
            }
            out
        }
    }

    /// What the inference reads of one satellite (degrees, km).
    #[derive(Debug, Clone, Copy)]
    pub(super) struct Sat {
        pub(super) inc: f64,
        pub(super) alt: f64,
        pub(super) raan: f64,
        pub(super) u: f64,
    }

    /// Groups the satellites into shells, planes and slots (see the module's documentation):
    /// 1. at the latest epoch, each satellite's RAAN and argument of latitude u by SGP4;
    /// 2. shells: clusters dense in inclination and altitude (1-D DBSCAN along each in turn, until
    ///    neither splits a cluster); a cluster is a shell if it forms at least 2 planes of 2 slots;
    /// 3. planes: P is the lattice of equally spaced RAANs that fits best relative to its
    ///    spacing (`plane_count`); its phase places plane 0;
    /// 4. slots: the most common gap between neighbours in u within a plane (a missing slot
    ///    doubles a gap, a spare halves one) gives S near `360°/gap`, refined to the S that puts
    ///    the pairs of satellites of each plane on one lattice best; if that leaves too many
    ///    satellites off the lattice, near `m·360°/gap` for a gap of m = 2 to 4 slots
    ///    (`slot_count`); the Walker phasing F is the one whose S-fold mean of `u − 360°·F·p/T`
    ///    over the shell is strongest, and numbers the slots of every plane so that `(p, s)` and
    ///    `(p + 1, s)` are 360°·F/T apart, as in a Walker shell (a plane whose own satellites
    ///    agree on a phase uses it, within half a slot of that);
    /// 5. satellites more than a quarter spacing off their plane or slot, a second satellite in a
    ///    slot (the farther one), and those outside every shell are left out, with the reason.
    pub fn infer_grid(sets: &[sgp4::Elements]) -> InferredGrid {
        let mut left_out = Vec::new();
        let name = |i: usize| sets[i].object_name.clone().unwrap_or_default();
        let mut leave = |i: usize, kind: LeftOutKind, reason: String| {
            left_out.push(LeftOut { index: i, name: name(i), kind, reason });
        };
        let Some(t0) = sets.iter().map(|e| e.datetime).max() else {
            return InferredGrid::default();
        };
        let mut sats: Vec<Option<Sat>> = Vec::with_capacity(sets.len());
        for (i, e) in sets.iter().enumerate() {
            match read(e, &t0) {
                Ok(s) => sats.push(Some(s)),
                Err(problem) => {
                    leave(i, LeftOutKind::Propagation, problem);
                    sats.push(None);
                }
            }
        }
        let sat = |i: usize| sats[i].expect("only propagated satellites are clustered");
        let all: Vec<usize> = (0..sets.len()).filter(|&i| sats[i].is_some()).collect();
        let (candidates, mut outside) = shell_clusters(all, &sat);

        let mut fits: Vec<Fit> = Vec::new();
        for c in candidates {
            match fit_shell(&c, &sat) {
                Some(f) => fits.push(f),
                None => outside.extend(c),
            }
        }
        fits.sort_by(|a, b| {
            a.shell
                .inclination_deg
                .total_cmp(&b.shell.inclination_deg)
                .then(a.shell.altitude_km.total_cmp(&b.shell.altitude_km))
        });
        for (k, f) in fits.iter().enumerate() {
            for &(i, ref spot) in &f.spots {
                let (kind, reason) = match *spot {
                    Spot::BetweenPlanes { raan, a, b } => (
                        LeftOutKind::BetweenPlanes,
                        format!(
                            "RAAN {raan:.1}° (at the latest epoch) lies between planes {a} and {b} of shell {k} \
                             (drifting to its plane?)"
                        ),
                    ),
                    Spot::BetweenSlots { plane, a, b } => (
                        LeftOutKind::Spare,
                        format!("between slots {a} and {b} of plane {plane} of shell {k} (a spare)"),
                    ),
                    Spot::Second { plane, slot } => (
                        LeftOutKind::Spare,
                        format!(
                            "a second satellite in slot {slot} of plane {plane} of shell {k} (a spare, or the same \
                             satellite twice)"
                        ),
                    ),
                };
                leave(i, kind, reason);
            }
        }
        let shells: Vec<InferredShell> = fits.into_iter().map(|f| f.shell).collect();
        for i in outside {
            let (kind, reason) = off_shell(sat(i), &shells);
            leave(i, kind, reason);
        }
        left_out.sort_by_key(|l| l.index);
        InferredGrid { shells, left_out }
    }

    /// Mean inclination and altitude, and RAAN and u at `t0` by SGP4; or why not.
    pub(super) fn read(e: &sgp4::Elements, t0: &sgp4::chrono::NaiveDateTime) -> Result<Sat, String> {
        let constants =
            super::super::elements::sgp4_constants(e).map_err(|err| format!("SGP4 refuses its elements: {err}"))?;
        let minutes = e.datetime_to_minutes_since_epoch(t0).map_err(|err| format!("SGP4: {err}"))?;
        let p = constants
            .propagate(minutes)
            .map_err(|err| format!("SGP4 cannot propagate it to {t0}, the latest epoch: {err} (decayed?)"))?;
        let (r, v): (Vec3, Vec3) = (p.position, p.velocity);
        let h = cross(r, v);
        let finite = r.iter().chain(&v).chain([&e.inclination, &e.mean_motion]).all(|x| x.is_finite());
        if !(finite && geometry::norm(h) > 0.0) {
            return Err(format!("SGP4 gives no orbit at {t0}, the latest epoch"));
        }
        let hn = geometry::norm(h);
        let hu = [h[0] / hn, h[1] / hn, h[2] / hn];
        // Ascending node: along ẑ × h = (−h_y, h_x, 0).
        let raan = math::atan2(h[0], -h[1]);
        let (so, co) = math::sin_cos(raan);
        let node = [co, so, 0.0];
        let u = math::atan2(geometry::dot(r, cross(hu, node)), geometry::dot(r, node));
        let n_rad_s = e.mean_motion * TAU / 86_400.0;
        let a_km = math::pow(geometry::MU_KM3_S2 / (n_rad_s * n_rad_s), 1.0 / 3.0);
        Ok(Sat {
            inc: e.inclination,
            alt: a_km - geometry::EARTH_RADIUS_KM,
            raan: wrap360(raan.to_degrees()),
            u: wrap360(u.to_degrees()),
        })
    }

    fn cross(a: Vec3, b: Vec3) -> Vec3 {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }

    fn wrap360(x: f64) -> f64 {
        let w = x.rem_euclid(360.0);
        if w >= 360.0 {
            0.0
        } else {
            w
        }
    }

    /// `x` moved by a multiple of `period` into `[−period/2, period/2)`.
    fn wrap_half(x: f64, period: f64) -> f64 {
        (x + period / 2.0).rem_euclid(period) - period / 2.0
    }

    /// Σ exp(i·k·x) over angles `x` in degrees.
    fn phasor(xs: impl Iterator<Item = f64>, k: f64) -> (f64, f64) {
        xs.fold((0.0, 0.0), |(c, s), x| {
            let (sn, cs) = math::sin_cos((k * x).to_radians());
            (c + cs, s + sn)
        })
    }

    /// The angle (degrees, in `[0, 360/k)`) of a k-fold phasor.
    fn phase_of((c, s): (f64, f64), k: f64) -> f64 {
        wrap360(math::atan2(s, c).to_degrees()) / k
    }

    fn length((c, s): (f64, f64)) -> f64 {
        (c * c + s * s).sqrt()
    }

    #[derive(Clone, Copy)]
    enum Axis {
        Inclination,
        Altitude,
    }

    /// Shell candidates and the satellites in none: clusters of [`density_split`] along
    /// inclination and altitude in turn, until a cluster is split by neither.
    fn shell_clusters(all: Vec<usize>, sat: &impl Fn(usize) -> Sat) -> (Vec<Vec<usize>>, Vec<usize>) {
        let (mut done, mut noise) = (Vec::new(), Vec::new());
        // (cluster, axis to split it along next, how many axes in a row left it whole)
        let mut work = vec![(all, Axis::Inclination, 0u8)];
        while let Some((group, axis, whole)) = work.pop() {
            if group.is_empty() {
                continue;
            }
            let (clusters, lone) = match axis {
                Axis::Inclination => density_split(&group, |i| sat(i).inc, INC_EPS_DEG),
                Axis::Altitude => density_split(&group, |i| sat(i).alt, ALT_EPS_KM),
            };
            let next = match axis {
                Axis::Inclination => Axis::Altitude,
                Axis::Altitude => Axis::Inclination,
            };
            noise.extend(&lone);
            if lone.is_empty() && clusters.len() == 1 {
                if whole == 1 {
                    done.push(group);
                } else {
                    work.push((group, next, 1));
                }
            } else {
                work.extend(clusters.into_iter().rev().map(|c| (c, next, 0)));
            }
        }
        (done, noise)
    }

    /// DBSCAN on one axis: a satellite with [`MIN_NEIGHBOURS`] others within `eps` is a core; cores
    /// within `eps` of each other form a cluster; another satellite joins the cluster of the
    /// nearest core within `eps`, or is noise. Clusters in increasing order of the key.
    fn density_split(items: &[usize], key: impl Fn(usize) -> f64, eps: f64) -> (Vec<Vec<usize>>, Vec<usize>) {
        let mut v: Vec<(f64, usize)> = items.iter().map(|&i| (key(i), i)).collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let n = v.len();
        let mut core = vec![false; n];
        let (mut lo, mut hi) = (0, 0);
        for k in 0..n {
            while v[k].0 - v[lo].0 > eps {
                lo += 1;
            }
            hi = hi.max(k);
            while hi + 1 < n && v[hi + 1].0 - v[k].0 <= eps {
                hi += 1;
            }
            core[k] = hi - lo >= MIN_NEIGHBOURS;
        }
        let mut label = vec![usize::MAX; n];
        let mut clusters = 0;
        let mut last: Option<usize> = None;
        for k in (0..n).filter(|&k| core[k]) {
            if last.is_none_or(|j| v[k].0 - v[j].0 > eps) {
                clusters += 1;
            }
            label[k] = clusters - 1;
            last = Some(k);
        }
        let mut prev = vec![None; n];
        let mut next = vec![None; n];
        for k in 1..n {
            prev[k] = if core[k - 1] { Some(k - 1) } else { prev[k - 1] };
        }
        for k in (0..n.saturating_sub(1)).rev() {
            next[k] = if core[k + 1] { Some(k + 1) } else { next[k + 1] };
        }
        let mut out = vec![Vec::new(); clusters];
        let mut noise = Vec::new();
        for k in 0..n {
            let c = if core[k] {
                Some(k)
            } else {
                let d = |j: Option<usize>| j.map(|j: usize| ((v[k].0 - v[j].0).abs(), j));
                match (d(prev[k]), d(next[k])) {
                    (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
                    (a, b) => a.or(b),
                }
                .filter(|&(dist, _)| dist <= eps)
                .map(|(_, j)| j)
            };
            match c {
                Some(j) => out[label[j]].push(v[k].1),
                None => noise.push(v[k].1),
            }
        }
        (out, noise)
    }

    /// Why a satellite off every slot is there, in words.
    enum Spot {
        BetweenPlanes { raan: f64, a: usize, b: usize },
        BetweenSlots { plane: usize, a: usize, b: usize },
        Second { plane: usize, slot: usize },
    }

    /// A shell, and its satellites in no slot (numbered once the shells are ordered).
    struct Fit {
        shell: InferredShell,
        spots: Vec<(usize, Spot)>,
    }

    /// The most common of `spacings` (°): the one with most others within [`SPACING_RATIO`],
    /// ties to the smaller; the mean of those.
    fn common_spacing(mut v: Vec<f64>) -> Option<f64> {
        v.retain(|x| x.is_finite() && *x > 0.0);
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let (mut lo, mut hi) = (0, 0);
        let mut best = (0, 0, 0);
        for k in 0..n {
            while v[lo] * SPACING_RATIO < v[k] {
                lo += 1;
            }
            hi = hi.max(k + 1);
            while hi < n && v[hi] <= v[k] * SPACING_RATIO {
                hi += 1;
            }
            if hi - lo > best.0 {
                best = (hi - lo, lo, hi);
            }
        }
        (best.0 > 0).then(|| v[best.1..best.2].iter().sum::<f64>() / best.0 as f64)
    }

    /// The number of slots S, given the most common gap and, per candidate count k, its
    /// [`pair_coherence`] and the fraction of satellites within [`SLOT_FIT_TOL`] of their plane's
    /// k-slot lattice. First the count near `360°/gap` (within [`SPACING_RATIO`]) with the highest
    /// coherence, if it holds [`SLOT_FIT_GOOD`] of the satellites (the rest would be spares).
    /// Otherwise the most common gap must span several slots (most are missing): among the counts
    /// near `m·360°/gap` for m = 1 to [`GAP_SPANS`], the smallest that holds nearly as many
    /// satellites as any ([`SLOT_FIT_SLACK`]), since satellites on an S-slot lattice are on the
    /// 2S-slot one too. (Trying 2S first would let spares halfway between slots argue for it.)
    fn slot_count(gap: f64, fit: impl Fn(usize) -> (f64, f64)) -> usize {
        let near = |m: usize| {
            let lo = ((m as f64 * 360.0 / (gap * SPACING_RATIO)).ceil() as usize).max(1);
            let hi = ((m as f64 * 360.0 * SPACING_RATIO / gap).floor() as usize).min(MAX_SLOTS);
            lo..=hi
        };
        let mut direct = (((360.0 / gap).round() as usize).clamp(1, MAX_SLOTS), f64::NEG_INFINITY, 0.0);
        for k in near(1) {
            let (coherence, held) = fit(k);
            if coherence > direct.1 {
                direct = (k, coherence, held);
            }
        }
        if direct.2 >= SLOT_FIT_GOOD {
            return direct.0;
        }
        let mut ks: Vec<usize> = (1..=GAP_SPANS).flat_map(near).collect();
        ks.sort_unstable();
        ks.dedup();
        let held: Vec<(usize, f64)> = ks.into_iter().map(|k| (k, fit(k).1)).collect();
        let best = held.iter().map(|c| c.1).fold(0.0, f64::max);
        held.iter().find(|c| c.1 >= best - SLOT_FIT_SLACK).map_or(direct.0, |c| c.0)
    }

    /// The fraction of satellites within [`SLOT_FIT_TOL`] of a slot of their plane's k-slot
    /// lattice, whose phase is the plane's k-fold circular mean (`phasors`).
    fn slot_fit(planes: &[Vec<f64>], phasors: &[(f64, f64)], k: usize) -> f64 {
        let du = 360.0 / k as f64;
        let (mut held, mut all) = (0, 0);
        for (us, &z) in planes.iter().zip(phasors) {
            let psi = phase_of(z, k as f64);
            held += us.iter().filter(|&&u| wrap_half(u - psi, du).abs() <= SLOT_FIT_TOL * du).count();
            all += us.len();
        }
        if all > 0 {
            held as f64 / all as f64
        } else {
            0.0
        }
    }

    /// The mean of `cos(k·(u_a − u_b))` over pairs of satellites in one plane, from each plane's
    /// k-fold phasor `z` and count `n` (`|z|² − n` sums the pairs): 1 if every plane sits on a
    /// k-slot lattice, about 0 for a k unrelated to the slots. 0 without pairs.
    fn pair_coherence(phasors: &[(f64, f64)], counts: &[usize]) -> f64 {
        let (mut sum, mut pairs) = (0.0, 0.0);
        for (&z, &n) in phasors.iter().zip(counts) {
            let l = length(z);
            sum += l * l - n as f64;
            pairs += (n * n.saturating_sub(1)) as f64;
        }
        if pairs > 0.0 {
            sum / pairs
        } else {
            0.0
        }
    }

    /// Planes and slots of one shell candidate, or `None` if it is no grid of at least 2 × 2.
    fn fit_shell(ids: &[usize], sat: &impl Fn(usize) -> Sat) -> Option<Fit> {
        if ids.len() < 3 {
            return None;
        }
        let mut spots = Vec::new();

        // Planes: the RAAN lattice that fits best. Sorted, so that sums do not depend on the order
        // of the sets.
        let mut raans: Vec<f64> = ids.iter().map(|&i| sat(i).raan).collect();
        raans.sort_by(f64::total_cmp);
        let p_n = plane_count(&raans);
        let dp = 360.0 / p_n as f64;
        let plane_of = |raan: f64, phi: f64| {
            let x = wrap360(raan - phi);
            let k = (x / dp).round();
            (k as usize % p_n, x - k * dp, (x / dp).floor() as usize % p_n)
        };
        let mut phi = phase_of(phasor(raans.iter().copied(), p_n as f64), p_n as f64);
        // Again without the satellites between planes, which pull the phase.
        let inliers = raans.iter().copied().filter(|&r| plane_of(r, phi).1.abs() <= PLANE_TOL * dp);
        let z = phasor(inliers, p_n as f64);
        if length(z) > 0.0 {
            phi = phase_of(z, p_n as f64);
        }
        let mut planes: Vec<Vec<usize>> = vec![Vec::new(); p_n];
        for &i in ids {
            let raan = sat(i).raan;
            let (p, off, below) = plane_of(raan, phi);
            if off.abs() > PLANE_TOL * dp {
                spots.push((i, Spot::BetweenPlanes { raan, a: below, b: (below + 1) % p_n }));
            } else {
                planes[p].push(i);
            }
        }

        // Slots: the most common gap between arguments of latitude within a plane.
        let mut gaps = Vec::new();
        for plane in &planes {
            let mut us: Vec<f64> = plane.iter().map(|&i| sat(i).u).collect();
            us.sort_by(f64::total_cmp);
            for (k, &u) in us.iter().enumerate() {
                let next = if k + 1 < us.len() { us[k + 1] } else { us[0] + 360.0 };
                if next - u >= MIN_SLOT_GAP_DEG {
                    gaps.push(next - u);
                }
            }
        }
        let gap = common_spacing(gaps)?;
        let plane_phasors =
            |k: f64| -> Vec<(f64, f64)> { planes.iter().map(|pl| phasor(pl.iter().map(|&i| sat(i).u), k)).collect() };
        let counts: Vec<usize> = planes.iter().map(Vec::len).collect();
        let plane_us: Vec<Vec<f64>> = planes.iter().map(|pl| pl.iter().map(|&i| sat(i).u).collect()).collect();
        let s_n = slot_count(gap, |k| {
            let z = plane_phasors(k as f64);
            (pair_coherence(&z, &counts), slot_fit(&plane_us, &z, k))
        });
        if p_n < 2 || s_n < 2 {
            return None;
        }
        let du = 360.0 / s_n as f64;

        // Walker phasing F: plane p's slots sit 360°·F·p/T further on. The DFT over planes of the
        // S-fold phasors finds the F that lines all planes up best.
        let z = plane_phasors(s_n as f64);
        let turned = |f: usize| {
            z.iter().enumerate().fold((0.0, 0.0), |(c, s), (p, &(zc, zs))| {
                let (sn, cs) = math::sin_cos(-TAU * ((p * f) % p_n) as f64 / p_n as f64);
                (c + zc * cs - zs * sn, s + zc * sn + zs * cs)
            })
        };
        let f = (0..p_n).fold((0, f64::NEG_INFINITY), |best, f| {
            let l = length(turned(f));
            if l > best.1 {
                (f, l)
            } else {
                best
            }
        });
        let f = f.0;
        let psi0 = phase_of(turned(f), s_n as f64);
        let predicted = |p: usize| psi0 + du * (p * f) as f64 / p_n as f64;

        // Slot phase of each plane: its own if its satellites agree, else the predicted one; twice,
        // the second time without the satellites found between slots.
        let mut psi: Vec<f64> = (0..p_n).map(predicted).collect();
        let slot_of = |u: f64, psi: f64| {
            let x = wrap360(u - psi);
            let k = (x / du).round();
            (k as usize % s_n, x - k * du, (x / du).floor() as usize % s_n)
        };
        let mut inlier: Vec<Vec<usize>> = planes.clone();
        for _ in 0..2 {
            for (p, members) in inlier.iter().enumerate() {
                let z = phasor(members.iter().map(|&i| sat(i).u), s_n as f64);
                let own = members.len() >= 2 && length(z) >= PLANE_PHASE_COHERENCE * members.len() as f64;
                psi[p] = if own {
                    predicted(p) + wrap_half(phase_of(z, s_n as f64) - predicted(p), du)
                } else {
                    predicted(p)
                };
            }
            inlier = planes
                .iter()
                .enumerate()
                .map(|(p, pl)| {
                    pl.iter().copied().filter(|&i| slot_of(sat(i).u, psi[p]).1.abs() <= SLOT_TOL * du).collect()
                })
                .collect();
        }

        // Place: the nearest satellite to each slot stays; the rest are spares.
        let mut members = vec![vec![None; s_n]; p_n];
        for (p, pl) in planes.iter().enumerate() {
            let mut tried: Vec<(f64, usize, usize)> = Vec::new();
            for &i in pl {
                let (s, off, below) = slot_of(sat(i).u, psi[p]);
                if off.abs() > SLOT_TOL * du {
                    spots.push((i, Spot::BetweenSlots { plane: p, a: below, b: (below + 1) % s_n }));
                } else {
                    tried.push((off.abs(), i, s));
                }
            }
            tried.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            for (_, i, s) in tried {
                if members[p][s].is_none() {
                    members[p][s] = Some(i);
                } else {
                    spots.push((i, Spot::Second { plane: p, slot: s }));
                }
            }
        }
        // One plane (a launch batch raising its orbit, say) is no grid.
        if members.iter().filter(|row| row.iter().any(Option::is_some)).count() < 2 {
            return None;
        }
        let placed: Vec<usize> = members.iter().flatten().flatten().copied().collect();
        // The seam: slot s of plane P − 1 continues, one plane on, at slot s + shift of plane 0.
        let shift = ((psi[p_n - 1] + du * f as f64 / p_n as f64 - psi[0]) / du).round();
        let isl_shift = (shift as i64).rem_euclid(s_n as i64) as usize;
        let shell = InferredShell {
            planes: p_n,
            sats_per_plane: s_n,
            isl_shift,
            inclination_deg: median(placed.iter().map(|&i| sat(i).inc).collect()),
            altitude_km: median(placed.iter().map(|&i| sat(i).alt).collect()),
            members,
        };
        Some(Fit { shell, spots })
    }

    /// The number of planes P whose lattice `φ + 360°·p/P` the RAANs fit best: the least upper
    /// quartile of the distances to the nearest plane, as fractions of the spacing, φ from the
    /// P-fold circular mean. A finer lattice that also fits (2P) is twice as far off relative to
    /// its spacing; a coarser one (P/2) leaves every other plane half a spacing off, which the
    /// upper quartile sees (the median would not, were those planes the smaller half); a quarter
    /// of the satellites may drift between planes. Distances relative to each lattice's spacing
    /// let a plane's spread be any fraction of the spacing well below [`PLANE_TOL`]. P runs from
    /// 2 to half the satellites (a plane holds two on average; more candidates would let chance
    /// fit a few satellites), at most [`MAX_PLANES`]; ties go to the smaller P.
    fn plane_count(raans: &[f64]) -> usize {
        let top = (raans.len() / 2).clamp(2, MAX_PLANES);
        let mut off = vec![0.0; raans.len()];
        let mut best = (2, f64::INFINITY);
        for p_n in 2..=top {
            let k = p_n as f64;
            let dp = 360.0 / k;
            let phi = phase_of(phasor(raans.iter().copied(), k), k);
            for (o, &r) in off.iter_mut().zip(raans) {
                *o = wrap_half(r - phi, dp).abs() / dp;
            }
            let q = (off.len() * 3 / 4).min(off.len() - 1);
            let quartile = *off.select_nth_unstable_by(q, f64::total_cmp).1;
            if quartile < best.1 {
                best = (p_n, quartile);
            }
        }
        best.0
    }

    fn median(mut v: Vec<f64>) -> f64 {
        v.sort_by(f64::total_cmp);
        match v.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => v[n / 2],
            n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
        }
    }

    /// The reason for a satellite in no shell: compared with the shells of its inclination.
    fn off_shell(s: Sat, shells: &[InferredShell]) -> (LeftOutKind, String) {
        let nearest = shells
            .iter()
            .enumerate()
            .filter(|(_, sh)| (sh.inclination_deg - s.inc).abs() <= INC_MATCH_DEG)
            .min_by(|a, b| (a.1.altitude_km - s.alt).abs().total_cmp(&(b.1.altitude_km - s.alt).abs()));
        let Some((k, sh)) = nearest else {
            let mut incs: Vec<String> = shells.iter().map(|sh| format!("{:.1}°", sh.inclination_deg)).collect();
            incs.dedup();
            let known =
                if incs.is_empty() { "none was found".to_string() } else { format!("shells at {}", incs.join(", ")) };
            return (LeftOutKind::NoShell, format!("inclination {:.1}° fits no shell ({known})", s.inc));
        };
        let dh = s.alt - sh.altitude_km;
        if dh < -ALT_EPS_KM {
            let why = format!(
                "altitude {:.0} km is {:.0} km below shell {k} at {:.0} km (orbit raising?)",
                s.alt, -dh, sh.altitude_km
            );
            (LeftOutKind::BelowShell, why)
        } else if dh > ALT_EPS_KM {
            let why = format!("altitude {:.0} km is {:.0} km above shell {k} at {:.0} km", s.alt, dh, sh.altitude_km);
            (LeftOutKind::AboveShell, why)
        } else {
            let why = format!(
                "inclination {:.2}° is {:.2}° off shell {k} at {:.2}°",
                s.inc,
                (s.inc - sh.inclination_deg).abs(),
                sh.inclination_deg
            );
            (LeftOutKind::OffInclination, why)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explicit_grid_whose_product_differs_from_the_satellite_count_is_refused_naming_the_field() {
        let g = ElementGrid { planes: 72, sats_per_plane: 22, isl_shift: 0 };
        assert_eq!(g.validate(1584), Ok(()));
        let e = g.validate(1580).unwrap_err().to_string();
        assert!(e.starts_with("constellation.grid: "), "{e}");
        assert!(e.contains("72 × 22 = 1584") && e.contains("1580"), "{e}");
    }

    #[test]
    fn an_explicit_grid_checks_its_ranges_by_field() {
        let e = |g: ElementGrid| g.validate(12).unwrap_err().to_string();
        assert!(e(ElementGrid { planes: 0, sats_per_plane: 12, isl_shift: 0 }).starts_with("constellation.grid.planes"));
        assert!(e(ElementGrid { planes: 12, sats_per_plane: 0, isl_shift: 0 })
            .starts_with("constellation.grid.sats_per_plane"));
        assert_eq!(
            e(ElementGrid { planes: 3, sats_per_plane: 4, isl_shift: 4 }),
            "constellation.grid.isl_shift: 4 must be below sats_per_plane (4)"
        );
        // No overflow on absurd sizes.
        let huge = ElementGrid { planes: usize::MAX, sats_per_plane: 2, isl_shift: 0 };
        assert!(huge.validate(12).unwrap_err().to_string().contains("but the element sets hold 12"));
    }

    #[test]
    fn infer_and_an_object_both_deserialise_and_a_typo_does_not() {
        let infer: GridSpec = serde_json::from_str("\"infer\"").unwrap();
        assert_eq!(infer, GridSpec::Infer);
        let g: GridSpec = serde_json::from_str(r#"{"planes": 3, "sats_per_plane": 4}"#).unwrap();
        assert_eq!(g, GridSpec::Explicit(ElementGrid { planes: 3, sats_per_plane: 4, isl_shift: 0 }));
        for spec in [infer, g] {
            assert_eq!(serde_json::from_value::<GridSpec>(serde_json::to_value(&spec).unwrap()).unwrap(), spec);
        }
        let e = serde_json::from_str::<GridSpec>("\"infre\"").unwrap_err().to_string();
        assert!(e.starts_with("unknown grid \"infre\": expected \"infer\" or {\"planes\""), "{e}");
        let e = serde_json::from_str::<GridSpec>(r#"{"planes": 3, "sats_per_plan": 4}"#).unwrap_err().to_string();
        assert!(e.contains("unknown field `sats_per_plan`"), "{e}");
        let e = serde_json::from_str::<GridSpec>("7").unwrap_err().to_string();
        assert!(e.contains("expected \"infer\" or {\"planes\""), "{e}");
    }

    #[test]
    fn the_grid_spec_schema_offers_the_object_and_the_word() {
        let schema = serde_json::to_value(schemars::schema_for!(GridSpec)).unwrap();
        let one_of = schema["oneOf"].as_array().unwrap();
        assert_eq!(one_of.len(), 2);
        assert_eq!(one_of[1]["enum"], serde_json::json!(["infer"]));
    }

    #[test]
    fn explicit_grid_pairs_link_neighbours_and_shift_the_seam() {
        // 3 planes × 3 slots, seam shift 1: satellite p·3 + s.
        let g = ElementGrid { planes: 3, sats_per_plane: 3, isl_shift: 1 };
        let mut want = vec![(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (6, 7), (7, 8), (6, 8)];
        want.extend([(0, 3), (1, 4), (2, 5), (3, 6), (4, 7), (5, 8)]);
        want.extend([(6, 1), (7, 2), (8, 0)].map(|(a, b): (usize, usize)| (a.min(b), a.max(b))));
        want.sort_unstable();
        assert_eq!(g.pairs(), want);
        // Two planes and two slots: each pair once, never a satellite with itself.
        assert_eq!(
            ElementGrid { planes: 2, sats_per_plane: 2, isl_shift: 0 }.pairs(),
            vec![(0, 1), (0, 2), (1, 3), (2, 3)]
        );
        assert_eq!(ElementGrid { planes: 1, sats_per_plane: 1, isl_shift: 0 }.pairs(), vec![]);
        assert_eq!(ElementGrid { planes: 0, sats_per_plane: 5, isl_shift: 0 }.pairs(), vec![]);
    }

    #[cfg(feature = "orbits")]
    mod inference {
        use super::super::inference::read;
        use super::super::*;
        use crate::orbit::geometry::{EARTH_RADIUS_KM, MU_KM3_S2};
        use proptest::prelude::*;
        use rand_xoshiro::rand_core::{RngCore, SeedableRng};
        use rand_xoshiro::Xoshiro256PlusPlus;
        use sgp4::chrono::{Duration, NaiveDate, NaiveDateTime};
        use std::f64::consts::TAU;

        fn t0() -> NaiveDateTime {
            NaiveDate::from_ymd_opt(2024, 3, 1).unwrap().and_hms_opt(0, 0, 0).unwrap()
        }

        /// Kozai mean motion (rev/day) of a circular orbit at `alt_km`, by Kepler's third law.
        fn mean_motion(alt_km: f64) -> f64 {
            let a = EARTH_RADIUS_KM + alt_km;
            (MU_KM3_S2 / (a * a * a)).sqrt() * 86_400.0 / TAU
        }

        /// SGP4's secular rates (°/min) of RAAN and of the argument of latitude for a near-circular
        /// orbit: its Brouwer mean motion recovered from the Kozai one, then the J2/J4 rates, as
        /// `sgp4::Constants::new` computes them (Vallado et al. 2006, "Revisiting Spacetrack
        /// Report #3"), written out here so that the test does not lean on the code under test.
        fn secular_rates(mm_rev_day: f64, inc_deg: f64) -> (f64, f64) {
            let g = sgp4::WGS84;
            let n_kozai = mm_rev_day * TAU / 1440.0;
            let c = inc_deg.to_radians().cos();
            let a1 = (g.ke / n_kozai).powf(2.0 / 3.0);
            let p0 = 0.75 * g.j2 * (3.0 * c * c - 1.0);
            let d1 = p0 / (a1 * a1);
            let d0 = p0 / (a1 * (1.0 - d1 * d1 - d1 * (1.0 / 3.0 + 134.0 * d1 * d1 / 81.0))).powi(2);
            let n = n_kozai / (1.0 + d0);
            let a0 = (g.ke / n).powf(2.0 / 3.0);
            let p10 = 1.0 / (a0 * a0);
            let p11 = 1.5 * g.j2 * p10 * n;
            let p12 = 0.5 * p11 * g.j2 * p10;
            let p13 = -0.46875 * g.j4 * p10 * p10 * n;
            let c2 = c * c;
            let raan_dot = -p11 * c + (0.5 * p12 * (4.0 - 19.0 * c2) + 2.0 * p13 * (3.0 - 7.0 * c2)) * c;
            let argp_dot = -0.5 * p11 * (1.0 - 5.0 * c2)
                + 0.0625 * p12 * (7.0 - 114.0 * c2 + 395.0 * c2 * c2)
                + p13 * (3.0 - 36.0 * c2 + 49.0 * c2 * c2);
            let m_dot = n + 0.5 * p11 * (3.0 * c2 - 1.0) + 0.0625 * p12 * (13.0 - 78.0 * c2 + 137.0 * c2 * c2);
            (raan_dot.to_degrees(), (argp_dot + m_dot).to_degrees())
        }

        /// An element set whose RAAN and argument of latitude are `raan`, `u` (°) at [`t0`] although
        /// its epoch is `age_min` minutes earlier.
        fn set(name: String, norad: u64, age_min: f64, inc: f64, alt: f64, raan: f64, u: f64) -> sgp4::Elements {
            let mm = mean_motion(alt);
            let (raan_dot, u_dot) = secular_rates(mm, inc);
            let argp = 90.0;
            sgp4::Elements {
                object_name: Some(name),
                international_designator: None,
                norad_id: norad,
                classification: sgp4::Classification::Unclassified,
                datetime: t0() - Duration::milliseconds((age_min * 60_000.0).round() as i64),
                mean_motion_dot: 0.0,
                mean_motion_ddot: 0.0,
                drag_term: 0.0,
                element_set_number: 999,
                inclination: inc,
                right_ascension: (raan - raan_dot * age_min).rem_euclid(360.0),
                eccentricity: 0.0001,
                argument_of_perigee: argp,
                mean_anomaly: (u - argp - u_dot * age_min).rem_euclid(360.0),
                mean_motion: mm,
                revolution_number: 0,
                ephemeris_type: 0,
            }
        }

        /// A Walker shell i:T/P/F as element sets at [`t0`], plane by plane.
        fn walker(p_n: usize, s_n: usize, f: usize, inc: f64, alt: f64) -> Vec<sgp4::Elements> {
            let t = (p_n * s_n) as f64;
            let mut out = Vec::new();
            for p in 0..p_n {
                for s in 0..s_n {
                    let raan = 10.0 + 360.0 * p as f64 / p_n as f64;
                    let u = 360.0 * s as f64 / s_n as f64 + 360.0 * (f * p) as f64 / t;
                    out.push(set(format!("W-{p}-{s}"), (p * s_n + s) as u64, 0.0, inc, alt, raan, u));
                }
            }
            out
        }

        #[test]
        fn angles_at_the_common_time_match_the_elements() {
            // At its epoch, a set reads its own RAAN and ω + M; a set a day older, moved back by
            // the secular rates, reads the same at the common time. Both within SGP4's short-
            // period wobble.
            let new = set("NEW".into(), 1, 0.0, 53.0, 550.0, 123.0, 45.0);
            let old = set("OLD".into(), 2, 1440.0, 53.0, 550.0, 123.0, 45.0);
            assert!((old.right_ascension - 123.0).abs() > 3.0, "a day of J2 drift moves the node");
            for e in [&new, &old] {
                let s = read(e, &t0()).unwrap();
                assert!((s.raan - 123.0).abs() < 0.1, "RAAN {}", s.raan);
                assert!((s.u - 45.0).abs() < 0.2, "u {}", s.u);
                assert!((s.alt - 550.0).abs() < 1e-6 && s.inc == 53.0);
            }
        }

        #[test]
        fn a_walker_shell_is_recovered_with_its_phasing_as_seam_shift() {
            let sets = walker(6, 8, 2, 53.0, 550.0);
            let g = infer_grid(&sets);
            assert_eq!(g.left_out, vec![]);
            assert_eq!(g.shells.len(), 1);
            let sh = &g.shells[0];
            assert_eq!((sh.planes, sh.sats_per_plane, sh.isl_shift), (6, 8, 2));
            assert!((sh.altitude_km - 550.0).abs() < 0.5 && (sh.inclination_deg - 53.0).abs() < 1e-9);
            // The elements were laid out as Walker's grid, so the pairs are the explicit grid's.
            assert_eq!(g.pairs(), ElementGrid { planes: 6, sats_per_plane: 8, isl_shift: 2 }.pairs());
            assert_eq!(
                g.report(),
                "shell 0: 6 planes × 8 slots at 550 km, 53.0°, 48 of 48 slots filled, seam shift 2\n\
                 left out: none of 48 satellites\n"
            );
        }

        #[test]
        fn spares_raisers_strays_and_refused_sets_are_left_out_with_reasons() {
            let mut sets = walker(6, 8, 1, 53.0, 550.0);
            let t = 48.0;
            let u = |p: f64, s: f64| 360.0 * s / 8.0 + 360.0 * p / t;
            // 48: halfway between slots 2 and 3 of plane 4; 49: on top of slot 5 of plane 1.
            sets.push(set("SPARE".into(), 48, 0.0, 53.0, 550.0, 10.0 + 240.0, u(4.0, 2.5)));
            sets.push(set("TWIN".into(), 49, 0.0, 53.0, 550.0, 10.0 + 60.0, u(1.0, 5.0) + 0.3));
            // 50: raising; 51: another inclination; 52: halfway between planes; 53: refused.
            sets.push(set("RAISER".into(), 50, 0.0, 53.0, 350.0, 10.0, 0.0));
            sets.push(set("POLAR".into(), 51, 0.0, 97.6, 550.0, 10.0, 0.0));
            sets.push(set("STRAY".into(), 52, 0.0, 53.0, 550.0, 10.0 + 90.0, u(1.5, 3.0)));
            let mut bad = set("BAD".into(), 53, 0.0, 53.0, 550.0, 0.0, 0.0);
            bad.mean_motion = -1.0;
            sets.push(bad);
            let g = infer_grid(&sets);
            assert_eq!(g.shells.len(), 1);
            assert_eq!(g.shells[0].filled(), 48);
            let got: Vec<(usize, LeftOutKind, &str)> =
                g.left_out.iter().map(|l| (l.index, l.kind, l.name.as_str())).collect();
            use LeftOutKind::*;
            assert_eq!(
                got,
                [
                    (48, Spare, "SPARE"),
                    (49, Spare, "TWIN"),
                    (50, BelowShell, "RAISER"),
                    (51, NoShell, "POLAR"),
                    (52, BetweenPlanes, "STRAY"),
                    (53, Propagation, "BAD")
                ]
            );
            let reason = |i: usize| g.left_out[i].reason.clone();
            assert!(
                reason(0).starts_with("between slots ") && reason(0).ends_with("of shell 0 (a spare)"),
                "{}",
                reason(0)
            );
            assert!(reason(1).starts_with("a second satellite in slot "), "{}", reason(1));
            assert_eq!(reason(2), "altitude 350 km is 200 km below shell 0 at 550 km (orbit raising?)");
            assert_eq!(reason(3), "inclination 97.6° fits no shell (shells at 53.0°)");
            assert!(reason(4).contains("lies between planes"), "{}", reason(4));
            assert!(reason(5).starts_with("SGP4 refuses its elements"), "{}", reason(5));
            let report = g.report();
            assert!(report.contains("left out: 6 of 54 satellites\n"), "{report}");
            assert!(report.contains("  2 spares between slots or doubling a slot: SPARE, TWIN\n"), "{report}");
            assert!(report.contains("  1 below their shell (orbit raising?): RAISER\n"), "{report}");
        }

        #[test]
        fn no_sets_make_an_empty_grid() {
            let g = infer_grid(&[]);
            assert_eq!(g, InferredGrid::default());
            assert_eq!(
                g.report(),
                "no shell found (a shell needs at least 2 planes of 2 slots)\nleft out: none of 0 satellites\n"
            );
        }

        /// A synthetic constellation: the element sets (shuffled), and per set its true place
        /// `(shell, plane, slot)` or what it is instead.
        #[derive(Debug, Clone, Copy, PartialEq)]
        enum Truth {
            Slot(usize, usize, usize),
            Spare,
            Raiser,
        }

        struct ShellSpec {
            p_n: usize,
            s_n: usize,
            f: usize,
            inc: f64,
            alt: f64,
        }

        fn synthesise(shells: &[ShellSpec], seed: u64) -> (Vec<sgp4::Elements>, Vec<Truth>) {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut unit = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let mut sats: Vec<(Truth, f64, f64, f64, f64)> = Vec::new(); // truth, inc, alt, raan, u
            let mut raisers: Vec<(f64, f64)> = Vec::new();
            for (k, sh) in shells.iter().enumerate() {
                let (dp, du) = (360.0 / sh.p_n as f64, 360.0 / sh.s_n as f64);
                let (raan0, u0, removal) = (360.0 * unit(), 360.0 * unit(), 0.25 * unit());
                let mut kept = 0;
                for p in 0..sh.p_n {
                    // A random subset goes, but every plane keeps two satellites.
                    let mut keep: Vec<bool> = (0..sh.s_n).map(|_| unit() >= removal).collect();
                    for s in 0..sh.s_n {
                        if keep.iter().filter(|&&k| k).count() < 2 {
                            keep[s] = true;
                        }
                    }
                    for s in (0..sh.s_n).filter(|&s| keep[s]) {
                        let raan = raan0 + dp * p as f64 + 0.05 * dp * (2.0 * unit() - 1.0);
                        let u = u0
                            + du * s as f64
                            + du * (sh.f * p) as f64 / sh.p_n as f64
                            + 0.05 * du * (2.0 * unit() - 1.0);
                        let inc = sh.inc + 0.03 * (2.0 * unit() - 1.0);
                        let alt = sh.alt + 0.5 * (2.0 * unit() - 1.0);
                        sats.push((Truth::Slot(k, p, s), inc, alt, raan, u));
                        kept += 1;
                    }
                }
                // Spares halfway between two slots, one per ten satellites at most.
                let spares = (unit() * ((kept / 10).min(3) + 1) as f64) as usize;
                for _ in 0..spares {
                    let p = (unit() * sh.p_n as f64) as usize % sh.p_n;
                    let s = unit() * sh.s_n as f64;
                    let u = u0
                        + du * (s.floor() + 0.5 + 0.05 * (2.0 * unit() - 1.0))
                        + du * (sh.f * p) as f64 / sh.p_n as f64;
                    sats.push((Truth::Spare, sh.inc, sh.alt, raan0 + dp * p as f64, u));
                }
                // Up to two raising satellites 100-200 km low (not below 250 km), anywhere, kept
                // apart from the other shells and from each other so that they form no shell.
                for _ in 0..(unit() * 3.0) as usize {
                    let alt = (sh.alt - 100.0 - 100.0 * unit()).max(250.0);
                    let inc = sh.inc + 0.03 * (2.0 * unit() - 1.0);
                    // No other shell of about this inclination may be as near in altitude as its own.
                    let near_shell = shells
                        .iter()
                        .enumerate()
                        .any(|(j, o)| j != k && (o.inc - inc).abs() < 1.0 && (o.alt - alt).abs() < sh.alt - alt + 40.0);
                    let near_raiser = raisers.iter().any(|&(i, a)| (i - inc).abs() < 0.2 && (a - alt).abs() < 10.0);
                    if !near_shell && !near_raiser {
                        raisers.push((inc, alt));
                        sats.push((Truth::Raiser, inc, alt, 360.0 * unit(), 360.0 * unit()));
                    }
                }
            }
            // Shuffle (Fisher-Yates), then epochs up to a day old.
            for k in (1..sats.len()).rev() {
                let j = (unit() * (k + 1) as f64) as usize % (k + 1);
                sats.swap(k, j);
            }
            let sets = sats
                .iter()
                .enumerate()
                .map(|(i, &(_, inc, alt, raan, u))| {
                    let age = if i == 0 { 0.0 } else { 1440.0 * unit() };
                    set(format!("SAT-{i}"), i as u64, age, inc, alt, raan, u)
                })
                .collect();
            (sets, sats.iter().map(|s| s.0).collect())
        }

        /// 128 cases take about a second in release; `ORBITCP_GRID_CASES` asks for more.
        fn cases() -> u32 {
            std::env::var("ORBITCP_GRID_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(128)
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

            #[test]
            fn synthetic_shells_are_recovered_up_to_relabelling(
                specs in prop::collection::vec((3usize..40, 3usize..30, 0usize..1000, 30.0f64..100.0, 400.0f64..1300.0), 1..=3),
                seed: u64,
            ) {
                let shells: Vec<ShellSpec> =
                    specs.iter().map(|&(p_n, s_n, f, inc, alt)| ShellSpec { p_n, s_n, f: f % p_n, inc, alt }).collect();
                for (a, x) in shells.iter().enumerate() {
                    for y in &shells[a + 1..] {
                        prop_assume!((x.inc - y.inc).abs() >= 2.0 || (x.alt - y.alt).abs() >= 50.0);
                    }
                }
                let (sets, truth) = synthesise(&shells, seed);
                let g = infer_grid(&sets);

                // Each true shell is one inferred shell, with its P, S and phasing.
                prop_assert_eq!(g.shells.len(), shells.len());
                for (k, sh) in shells.iter().enumerate() {
                    let first = truth.iter().position(|t| matches!(t, Truth::Slot(kk, _, _) if *kk == k)).unwrap();
                    let found = g.shells.iter().find(|s| s.members.iter().flatten().any(|m| *m == Some(first)));
                    let found = found.expect("the shell of a kept satellite");
                    prop_assert_eq!((found.planes, found.sats_per_plane), (sh.p_n, sh.s_n));
                    prop_assert_eq!(found.isl_shift, sh.f % sh.s_n);
                }
                // Exactly the spares and the raisers are left out, as such.
                let left: Vec<(usize, LeftOutKind)> = g.left_out.iter().map(|l| (l.index, l.kind)).collect();
                let want: Vec<(usize, LeftOutKind)> = truth
                    .iter()
                    .enumerate()
                    .filter_map(|(i, t)| match t {
                        Truth::Spare => Some((i, LeftOutKind::Spare)),
                        Truth::Raiser => Some((i, LeftOutKind::BelowShell)),
                        Truth::Slot(..) => None,
                    })
                    .collect();
                prop_assert_eq!(left, want);
                // The neighbour relation is the true one, whatever the numbering.
                let index: std::collections::HashMap<(usize, usize, usize), usize> = truth
                    .iter()
                    .enumerate()
                    .filter_map(|(i, t)| match *t {
                        Truth::Slot(k, p, s) => Some(((k, p, s), i)),
                        _ => None,
                    })
                    .collect();
                let mut want_pairs = Vec::new();
                for (k, sh) in shells.iter().enumerate() {
                    let at = |p: usize, s: usize| index.get(&(k, p, s)).copied();
                    want_pairs.extend(plus_grid_pairs(sh.p_n, sh.s_n, sh.f, at));
                }
                want_pairs.sort_unstable();
                prop_assert_eq!(g.pairs(), want_pairs);
            }
        }
    }
}
