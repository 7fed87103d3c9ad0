//! The ISL adjacency of each ISL mode: +Grid of Walker shells and element-set grids, a listed set,
//! or none (docs/links-and-orbits.md §9, §13).

use super::IslMode;
use crate::orbit::elements::Constellation;
use crate::orbit::geometry;
use crate::orbit::OrbitError;

/// Checks an ISL configuration against a constellation (list indices in range, no self-links),
/// as [`Router::new`] would.
pub fn check_isls(c: &Constellation, mode: &IslMode) -> Result<(), OrbitError> {
    isl_lists(c, mode).map(|_| ())
}

/// The ISL adjacency lists of a constellation under `mode`, each neighbour with its length limit.
pub(super) fn isl_lists(c: &Constellation, mode: &IslMode) -> Result<Vec<Vec<(u32, f64)>>, OrbitError> {
    let n = c.sats.len();
    let mut adj: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
    let link = |adj: &mut Vec<Vec<(u32, f64)>>, me: u32, x: u32, max: f64| {
        if x != me && !adj[me as usize].iter().any(|&(y, _)| y == x) {
            adj[me as usize].push((x, max));
        }
    };
    match mode {
        IslMode::PlusGrid { max_length_km, seam } => {
            for g in &c.shells {
                let (p_n, s_n, f) = (g.shell.planes, g.shell.sats_per_plane, g.shell.phasing);
                let max = max_length_km
                    .unwrap_or_else(|| geometry::max_isl_length_km(g.shell.altitude_km, geometry::ISL_CLEARANCE_KM));
                let id = |p: usize, s: usize| (g.first + p * s_n + s) as u32;
                for p in 0..p_n {
                    for s in 0..s_n {
                        let me = id(p, s);
                        let mut nb = vec![id(p, (s + 1) % s_n), id(p, (s + s_n - 1) % s_n)];
                        if p + 1 < p_n {
                            nb.push(id(p + 1, s));
                        } else if *seam {
                            nb.push(id(0, (s + f) % s_n));
                        }
                        if p > 0 {
                            nb.push(id(p - 1, s));
                        } else if *seam {
                            nb.push(id(p_n - 1, (s + s_n - f % s_n) % s_n));
                        }
                        for x in nb {
                            link(&mut adj, me, x, max);
                        }
                    }
                }
            }
            for g in &c.grids {
                let (p_n, s_n, k) = (g.planes, g.sats_per_plane, g.seam_shift % g.sats_per_plane);
                let max = max_length_km
                    .unwrap_or_else(|| geometry::max_isl_length_km(g.altitude_km, geometry::ISL_CLEARANCE_KM));
                for p in 0..p_n {
                    for s in 0..s_n {
                        let Some(me) = g.at(p, s) else { continue };
                        let mut nb = vec![g.at(p, s + 1), g.at(p, s + s_n - 1)];
                        if p + 1 < p_n {
                            nb.push(g.at(p + 1, s));
                        } else if *seam {
                            nb.push(g.at(0, s + k));
                        }
                        if p > 0 {
                            nb.push(g.at(p - 1, s));
                        } else if *seam {
                            nb.push(g.at(p_n - 1, s + s_n - k));
                        }
                        for x in nb.into_iter().flatten() {
                            link(&mut adj, me, x, max);
                        }
                    }
                }
            }
        }
        IslMode::List { pairs, max_length_km } => {
            let max = max_length_km.unwrap_or(f64::INFINITY);
            for (k, &[a, b]) in pairs.iter().enumerate() {
                let bad = |problem: String| OrbitError::Config { field: format!("constellation.isls[{k}]"), problem };
                if a as usize >= n || b as usize >= n {
                    return Err(bad(format!(
                        "[{a}, {b}] names a satellite that does not exist (there are {n}, numbered from 0)"
                    )));
                }
                if a == b {
                    return Err(bad(format!("[{a}, {b}] links a satellite to itself")));
                }
                link(&mut adj, a, b, max);
                link(&mut adj, b, a, max);
            }
        }
        IslMode::None => {}
    }
    Ok(adj)
}
