//! Shells: the satellites clustered by density in inclination and altitude, DBSCAN (Ester,
//! Kriegel, Sander & Xu, KDD 1996) along one axis at a time.

use super::sat::Sat;

/// Shells are dense in (inclination, altitude). Neighbours lie within 0.1° of inclination: a
/// shell's mean inclinations spread by a few hundredths of a degree, and Starlink's 53.0° and
/// 53.2° shells lie ~0.17° apart.
const INC_EPS_DEG: f64 = 0.1;
/// ... and within 5 km of mean-motion altitude: a shell spreads by a few km, and Starlink's
/// 540- and 550-km shells lie 10 km apart.
pub(super) const ALT_EPS_KM: f64 = 5.0;
/// A satellite with at least 3 neighbours is a shell's core (DBSCAN's MinPts = 4, itself
/// included); others belong to the cluster of a core within reach, or to none.
const MIN_NEIGHBOURS: usize = 3;

#[derive(Clone, Copy)]
enum Axis {
    Inclination,
    Altitude,
}

/// Shell candidates and the satellites in none: clusters of [`density_split`] along
/// inclination and altitude in turn, until a cluster is split by neither.
pub(super) fn shell_clusters(all: Vec<usize>, sat: &impl Fn(usize) -> Sat) -> (Vec<Vec<usize>>, Vec<usize>) {
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
