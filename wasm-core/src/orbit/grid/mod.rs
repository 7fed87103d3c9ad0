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
//!
//! Files: this one holds the scenario-format types and the +Grid pairs of a grid; the inference is
//! `inference` (the steps, and each satellite's angles at the common time), `shells` (clustering
//! into shells), `lattice` (plane and slot lattices, the Walker phasing), `circular` (angles and
//! k-fold circular means) and `report` (`InferredGrid`, what is left out and why, the report).

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

// The inference of a grid from the elements.
orbits_only! {
    mod circular;
    mod inference;
    mod lattice;
    mod report;
    mod sat;
    mod shells;

    pub use inference::infer_grid;
    pub use report::{InferredGrid, InferredShell, LeftOut, LeftOutKind};
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
}
