//! The shortest path of one step: A* over the step's graph of ground links, ISLs, relays, gateways
//! and fibre, with the straight-line delay to the destination as its bound
//! (docs/links-and-orbits.md §9, §13, §14).

use super::{GroundKind, Hop, Node, Router, FIBRE_KM_S, NONE};
use crate::orbit::geometry::{self, Vec3, C_KM_S, EARTH_RADIUS_KM};
use crate::orbit::ground::GroundStation;
use crate::orbit::math;
use crate::orbit::params::Earth;
use std::cmp::Reverse;

/// Great-circle distance on the sphere of radius R, km.
fn great_circle_km(a: &GroundStation, b: &GroundStation) -> f64 {
    let (la, lb) = (a.lat_deg.to_radians(), b.lat_deg.to_radians());
    let dlat = lb - la;
    let dlon = (b.lon_deg - a.lon_deg).to_radians();
    let h = math::sin(dlat / 2.0).powi(2) + math::cos(la) * math::cos(lb) * math::sin(dlon / 2.0).powi(2);
    2.0 * EARTH_RADIUS_KM * math::asin(h.sqrt().min(1.0))
}

impl Router<'_> {
    pub(super) fn shortest_path(&mut self) -> Vec<Hop> {
        let n = self.c.sats.len();
        let gateways = self.cfg.gateways.is_some();
        if self.cands[0].is_empty() || (self.cands[1].is_empty() && !gateways) {
            return Vec::new();
        }
        let downlinks = self.kinds.iter().any(|k| matches!(k, GroundKind::Relay | GroundKind::Gateway));
        if downlinks {
            for v in self.sat_relays.iter_mut() {
                v.clear();
            }
            for r in 2..self.grounds.len() {
                if self.kinds[r] == GroundKind::Pop {
                    continue;
                }
                let mut list = std::mem::take(&mut self.relay_sats[r]);
                list.clear();
                for (i, p) in self.pos.iter().enumerate() {
                    if p.is_some_and(|p| self.reach(r, p).is_some()) {
                        list.push(i as u32);
                        self.sat_relays[i].push(r as u32);
                    }
                }
                self.relay_sats[r] = list;
            }
        }
        self.dist.fill(f64::INFINITY);
        self.prev.fill(NONE);
        self.heap.clear();
        let (src, dst) = (n as u32, n as u32 + 1);
        self.dist[src as usize] = 0.0;
        // A*: the straight line to the destination at c is a lower bound of any path's delay
        // and consistent (every edge costs at least its straight-line length at c: fibre is
        // longer and slower), so the first time the destination is taken from the frontier its
        // path is the shortest, as with Dijkstra, after exploring only a corridor towards it.
        let dst_pos = self.sites[1].pos;
        let to_go = |p: Vec3| geometry::distance_km(p, dst_pos) / C_KM_S;
        self.heap.push(Reverse((to_go(self.sites[0].pos).to_bits(), 0f64.to_bits(), src)));
        let pos_of = |r: &Router, u: u32| -> Vec3 {
            if (u as usize) < n {
                r.pos[u as usize].unwrap_or([0.0; 3])
            } else {
                r.sites[u as usize - n].pos
            }
        };
        let pop = n as u32 + self.grounds.len() as u32 - 1;
        while let Some(Reverse((_, d_bits, u))) = self.heap.pop() {
            let d = f64::from_bits(d_bits);
            if d > self.dist[u as usize] {
                continue;
            }
            if u == dst {
                break;
            }
            let pu = pos_of(self, u);
            let relax = |r: &mut Router, v: u32, max_km: f64| {
                let len = geometry::distance_km(pu, pos_of(r, v));
                if len > max_km {
                    return;
                }
                let nd = d + len / C_KM_S;
                if nd < r.dist[v as usize] {
                    r.dist[v as usize] = nd;
                    r.prev[v as usize] = u;
                    r.heap.push(Reverse(((nd + to_go(pos_of(r, v))).to_bits(), nd.to_bits(), v)));
                }
            };
            let fibre = |r: &mut Router, v: u32| {
                let nd = d + r.fibre_km(u as usize - n, v as usize - n) / FIBRE_KM_S;
                if nd < r.dist[v as usize] {
                    r.dist[v as usize] = nd;
                    r.prev[v as usize] = u;
                    r.heap.push(Reverse(((nd + to_go(pos_of(r, v))).to_bits(), nd.to_bits(), v)));
                }
            };
            if (u as usize) < n {
                let i = u as usize;
                if self.pos[i].is_none() {
                    continue;
                }
                for e in self.isl_start[i] as usize..self.isl_start[i + 1] as usize {
                    let v = self.isl_to[e];
                    if self.pos[v as usize].is_some() {
                        relax(self, v, self.isl_max_km[e]);
                    }
                }
                if self.cand_mark[i] & 2 != 0 {
                    relax(self, dst, f64::INFINITY);
                }
                if downlinks {
                    let relays = std::mem::take(&mut self.sat_relays[i]);
                    for &r in &relays {
                        relax(self, n as u32 + r, f64::INFINITY);
                    }
                    self.sat_relays[i] = relays;
                }
            } else if u == src {
                for j in 0..self.cands[0].len() {
                    relax(self, self.cands[0][j], f64::INFINITY);
                }
            } else if u != dst {
                let r = u as usize - n;
                match self.kinds[r] {
                    GroundKind::Gateway => fibre(self, pop),
                    GroundKind::Pop => fibre(self, dst),
                    _ => {
                        let sats = std::mem::take(&mut self.relay_sats[r]);
                        for &s in &sats {
                            relax(self, s, f64::INFINITY);
                        }
                        self.relay_sats[r] = sats;
                    }
                }
            }
        }
        if self.prev[dst as usize] == NONE {
            return Vec::new();
        }
        let mut chain = vec![dst];
        let mut u = dst;
        while u != src {
            u = self.prev[u as usize];
            chain.push(u);
        }
        chain.reverse();
        let node = |u: u32| if (u as usize) < n { Node::Sat(u) } else { Node::Ground(u - n as u32) };
        chain
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                if a as usize >= n && b as usize >= n {
                    let km = self.fibre_km(a as usize - n, b as usize - n);
                    let rate = self.cfg.gateways.as_ref().map_or(f64::INFINITY, |g| g.rate_mbps);
                    return Hop {
                        from: node(a),
                        to: node(b),
                        distance_km: km,
                        delay_s: km / FIBRE_KM_S,
                        capacity_mbps: rate,
                        loss: 0.0,
                        elevation_deg: None,
                    };
                }
                let (pa, pb) = (pos_of(self, a), pos_of(self, b));
                let d = geometry::distance_km(pa, pb);
                let gsl = (a as usize) >= n || (b as usize) >= n;
                let (lt, elev) = if gsl {
                    let (g, s) = if (a as usize) >= n { (a as usize - n, pb) } else { (b as usize - n, pa) };
                    (&self.cfg.links.gsl, Some(self.elevation_deg(g, s)))
                } else {
                    (&self.cfg.links.isl, None)
                };
                Hop {
                    from: node(a),
                    to: node(b),
                    distance_km: d,
                    delay_s: d / C_KM_S,
                    capacity_mbps: lt.capacity_mbps(d),
                    loss: lt.loss(elev, self.cfg.min_elevation_deg),
                    elevation_deg: elev,
                }
            })
            .collect()
    }

    /// Elevation (°) of a satellite at `s` from ground station `g`.
    fn elevation_deg(&self, g: usize, s: Vec3) -> f64 {
        let site = &self.sites[g];
        match self.cfg.earth {
            Earth::Sphere => geometry::elevation_deg(site.pos, s),
            Earth::Wgs72 => {
                let v = geometry::sub(s, site.pos);
                math::asin((geometry::dot(v, site.up) / geometry::norm(v)).clamp(-1.0, 1.0)).to_degrees()
            }
        }
    }

    /// Fibre length between two ground stations: great circle × route factor, km.
    fn fibre_km(&self, a: usize, b: usize) -> f64 {
        let factor = self.cfg.gateways.as_ref().map_or(1.0, |g| g.route_factor);
        great_circle_km(&self.grounds[a], &self.grounds[b]) * factor
    }
}
