//! Planes and slots of one shell: the RAAN lattice of P planes, the lattice of S slots in argument
//! of latitude, and the Walker phasing F that numbers the slots plane to plane, fitted with k-fold
//! circular means.

use super::super::math;
use super::circular::{length, phase_of, phasor, wrap360, wrap_half};
use super::report::{InferredShell, LeftOutKind};
use super::sat::Sat;
use std::f64::consts::TAU;

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

/// Why a satellite off every slot is there (`report::off_slot` puts it in words).
pub(super) enum Spot {
    BetweenPlanes { raan: f64, a: usize, b: usize },
    BetweenSlots { plane: usize, a: usize, b: usize },
    Second { plane: usize, slot: usize },
}

/// A shell, and its satellites in no slot (numbered once the shells are ordered).
pub(super) struct Fit {
    pub(super) shell: InferredShell,
    pub(super) spots: Vec<(usize, Spot)>,
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
pub(super) fn fit_shell(ids: &[usize], sat: &impl Fn(usize) -> Sat) -> Option<Fit> {
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
            psi[p] =
                if own { predicted(p) + wrap_half(phase_of(z, s_n as f64) - predicted(p), du) } else { predicted(p) };
        }
        inlier = planes
            .iter()
            .enumerate()
            .map(|(p, pl)| pl.iter().copied().filter(|&i| slot_of(sat(i).u, psi[p]).1.abs() <= SLOT_TOL * du).collect())
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

/// The reason for a satellite of shell `k` (numbered once the shells are ordered) in no slot.
pub(super) fn off_slot(spot: &Spot, k: usize) -> (LeftOutKind, String) {
    match *spot {
        Spot::BetweenPlanes { raan, a, b } => (
            LeftOutKind::BetweenPlanes,
            format!(
                "RAAN {raan:.1}° (at the latest epoch) lies between planes {a} and {b} of shell {k} \
                 (drifting to its plane?)"
            ),
        ),
        Spot::BetweenSlots { plane, a, b } => {
            (LeftOutKind::Spare, format!("between slots {a} and {b} of plane {plane} of shell {k} (a spare)"))
        }
        Spot::Second { plane, slot } => (
            LeftOutKind::Spare,
            format!(
                "a second satellite in slot {slot} of plane {plane} of shell {k} (a spare, or the same \
                 satellite twice)"
            ),
        ),
    }
}
