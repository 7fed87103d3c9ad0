//! The inference. Angles are compared at one common time, the latest epoch among the sets (t = 0 of
//! `Constellation::add_elements`). Each set is propagated there with SGP4 itself, and RAAN
//! and argument of latitude are read from its TEME position and velocity, rather than advancing the
//! mean angles with J2 rates by hand: SGP4 already applies the secular J2/J4 rates with the
//! Brouwer mean motion it recovers from the Kozai one (taking the TLE's Kozai mean motion as the
//! rate of u would err by ~0.1 % of 5400°/day, several degrees per day of epoch difference), and
//! drag; and the grid then describes the positions the simulation uses. The cost is the short-
//! period J2 wobble of osculating angles, ~0.1°, far below plane and slot spacings (≥ 5°).
//! Inclination and altitude come from the mean elements (inclination; altitude by Kepler's third
//! law from the mean motion), which are steadier than osculating ones.
//!
//! [`infer_grid`] runs the steps: `shells` clusters the satellites, `lattice` fits each cluster's
//! planes and slots, and `report` says why a satellite is in no slot.

use super::lattice::{fit_shell, off_slot, Fit};
use super::report::{off_shell, InferredGrid, InferredShell, LeftOut, LeftOutKind};
use super::sat::{read, Sat};
use super::shells::shell_clusters;

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
            let (kind, reason) = off_slot(spot, k);
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

#[cfg(test)]
mod tests {
    use super::super::sat::read;
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
                    let u =
                        u0 + du * s as f64 + du * (sh.f * p) as f64 / sh.p_n as f64 + 0.05 * du * (2.0 * unit() - 1.0);
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
                let u =
                    u0 + du * (s.floor() + 0.5 + 0.05 * (2.0 * unit() - 1.0)) + du * (sh.f * p) as f64 / sh.p_n as f64;
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
