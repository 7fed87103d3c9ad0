//! Time-varying topology and shortest-delay routing: ground–satellite links above an elevation
//! mask with an attachment policy, +Grid inter-satellite links (or none: bent pipe through ground
//! relays), Dijkstra on propagation delay at fixed time steps, and the path timeline with handover
//! and route-change events.
//!
//! Sources: docs/links-and-orbits.md §5 (update link delays at fixed steps; handover when the serving
//! satellite drops below ε_min), docs/links-and-orbits.md §9 (+Grid: previous/next in the plane and the same slot in each
//! adjacent plane; Hypatia links the seam, StarPerf omits it for near-polar shells; GSL policies
//! "free_one_only_over_isls" and "free_one_only_gs_relays"; shortest path by propagation delay
//! recomputed at each step).
//!
//! The seam link between plane P−1 and plane 0 goes to slot `s + F` (mod S), the satellite whose
//! phase continues the Walker progression, so that seam links are as short as the others (Hypatia
//! uses slot `s + isl_shift` with `isl_shift = 0` for its own half-phase pattern).

use super::elements::Constellation;
use super::geometry::{self, Vec3, C_KM_S};
use super::ground::GroundStation;
use super::links::LinkModel;
use super::math;
pub use super::params::{Attachment, DEFAULT_MIN_ELEVATION_DEG, DEFAULT_STEP_S};
use super::OrbitError;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Inter-satellite links.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum IslMode {
    /// +Grid within each Walker shell. `max_length_km`: links longer than this are down (default
    /// per shell: Hypatia's 80-km-clearance chord, docs/links-and-orbits.md §8). `seam`: link plane P−1 to plane 0.
    PlusGrid { max_length_km: Option<f64>, seam: bool },
    /// No ISLs: bent pipe, satellite → ground relay → satellite (Hypatia's
    /// "free_one_only_gs_relays").
    None,
}

/// Everything routing needs besides the constellation and the endpoints.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteConfig {
    pub min_elevation_deg: f64,
    pub step_s: f64,
    pub isl: IslMode,
    pub attachment: Attachment,
    /// After a handover the path is marked unusable (`in_outage`) for this long, s.
    pub handover_outage_s: f64,
    pub links: LinkModel,
    /// Ground relays for bent pipe (`IslMode::None`); ignored with ISLs.
    pub relays: Vec<GroundStation>,
}

impl RouteConfig {
    /// What [`Router::new`] requires of the configuration. [`ConstellationTopology::build`]
    /// checks it too, so that scenario validation refuses what a run would.
    ///
    /// [`ConstellationTopology::build`]: super::config::ConstellationTopology::build
    pub fn check(&self) -> Result<(), OrbitError> {
        let bad = |field: &str, problem: String| Err(OrbitError::Config { field: field.into(), problem });
        if !(0.0..90.0).contains(&self.min_elevation_deg) {
            return bad(
                "min_elevation_deg",
                format!("must be at least 0° and below 90° (got {})", self.min_elevation_deg),
            );
        }
        if !(self.step_s.is_finite() && self.step_s > 0.0) {
            return bad("step_s", format!("{} must be a positive number of seconds", self.step_s));
        }
        if !(self.handover_outage_s.is_finite() && self.handover_outage_s >= 0.0) {
            return bad("handover_outage_s", format!("{} must be 0 or more seconds", self.handover_outage_s));
        }
        Ok(())
    }
}

impl Default for RouteConfig {
    fn default() -> Self {
        RouteConfig {
            min_elevation_deg: DEFAULT_MIN_ELEVATION_DEG,
            step_s: DEFAULT_STEP_S,
            isl: IslMode::PlusGrid { max_length_km: None, seam: true },
            attachment: Attachment::HighestElevation,
            handover_outage_s: 0.0,
            links: LinkModel::default(),
            relays: Vec::new(),
        }
    }
}

/// A node of the path: a satellite (index into `Constellation::sats`) or a ground station
/// (0 = source, 1 = destination, 2… = relays in `RouteConfig::relays` order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Node {
    Sat(u32),
    Ground(u32),
}

/// One hop of a path at one step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hop {
    pub from: Node,
    pub to: Node,
    pub distance_km: f64,
    /// distance / c, s.
    pub delay_s: f64,
    pub capacity_mbps: f64,
    /// Packet loss probability.
    pub loss: f64,
    /// Elevation of the satellite seen from the ground end, ° (ground–satellite links only).
    pub elevation_deg: Option<f64>,
}

/// Which end of the path a handover is at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum End {
    Src,
    Dst,
}

/// What changed at a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum EventKind {
    /// An endpoint's serving satellite changed (`None`: no satellite visible).
    Handover { end: End, from: Option<u32>, to: Option<u32> },
    /// The node list changed without a handover (or the path appeared or vanished).
    RouteChange,
}

/// The path at one time step. `hops` is empty when there is no path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PathStep {
    pub t_s: f64,
    pub hops: Vec<Hop>,
    /// Sum of hop delays, s (infinite without a path).
    pub owd_s: f64,
    /// Smallest hop capacity, Mbit/s (0 without a path).
    pub bottleneck_mbps: f64,
    /// Within `handover_outage_s` after a handover.
    pub in_outage: bool,
    pub events: Vec<EventKind>,
}

impl PathStep {
    /// The node list: source, satellites and relays, destination.
    pub fn nodes(&self) -> Vec<Node> {
        let mut v: Vec<Node> = self.hops.iter().map(|h| h.from).collect();
        v.extend(self.hops.last().map(|h| h.to));
        v
    }
}

/// Steps through time and computes the path at each step; keeps the attachment state between
/// steps. Reuses its buffers, so a 24-h run allocates little beyond the hops it returns.
pub struct Router<'a> {
    c: &'a Constellation,
    cfg: RouteConfig,
    grounds: Vec<GroundStation>,
    ground_pos: Vec<Vec3>,
    sin_min: f64,
    /// +Grid neighbours per satellite (u32::MAX: none) and the length limit of its links.
    isl: Vec<[u32; 4]>,
    isl_max_km: Vec<f64>,
    pos: Vec<Option<Vec3>>,
    /// Satellites a ground station may attach to, one per group: each Walker shell is a group
    /// (shells have no links between them, so a path must enter the right one), and the other
    /// satellites (TLE/OMM, GEO) form one more. Index ranges into `Constellation::sats`.
    groups: Vec<std::ops::Range<usize>>,
    /// Per end, the satellite attached in each group.
    attach: [Vec<Option<u32>>; 2],
    /// Per end, the satellite the path used at the last step.
    serving: [Option<u32>; 2],
    prev_nodes: Option<Vec<Node>>,
    outage_until: f64,
    dist: Vec<f64>,
    prev: Vec<u32>,
    /// A* frontier: (delay so far + straight-line delay to the destination, delay so far, node),
    /// as bits (non-negative floats order like their bits).
    heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
    /// Bent pipe: relays visible from each satellite and satellites visible from each relay.
    sat_relays: Vec<Vec<u32>>,
    relay_sats: Vec<Vec<u32>>,
    started: bool,
}

const NONE: u32 = u32::MAX;

impl<'a> Router<'a> {
    pub fn new(
        c: &'a Constellation,
        src: GroundStation,
        dst: GroundStation,
        cfg: RouteConfig,
    ) -> Result<Self, OrbitError> {
        let bad = |field: &str, problem: String| Err(OrbitError::Config { field: field.into(), problem });
        cfg.check()?;
        if c.sats.is_empty() {
            return bad("constellation", "has no satellites".into());
        }
        if c.sats.len() >= NONE as usize {
            return bad("constellation", "has too many satellites".into());
        }
        let n = c.sats.len();
        let mut isl = vec![[NONE; 4]; n];
        let mut isl_max_km = vec![0.0; n];
        if let IslMode::PlusGrid { max_length_km, seam } = cfg.isl {
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
                        } else if seam {
                            nb.push(id(0, (s + f) % s_n));
                        }
                        if p > 0 {
                            nb.push(id(p - 1, s));
                        } else if seam {
                            nb.push(id(p_n - 1, (s + s_n - f % s_n) % s_n));
                        }
                        let mut k = 0;
                        for x in nb {
                            if x != me && !isl[me as usize][..k].contains(&x) {
                                isl[me as usize][k] = x;
                                k += 1;
                            }
                        }
                        isl_max_km[me as usize] = max;
                    }
                }
            }
        }
        let mut grounds = vec![src, dst];
        if cfg.isl == IslMode::None {
            grounds.extend(cfg.relays.iter().cloned());
        }
        let ground_pos = grounds.iter().map(|g| geometry::geodetic_to_ecef(g.lat_deg, g.lon_deg, 0.0)).collect();
        let g_n = grounds.len();
        let mut groups: Vec<std::ops::Range<usize>> =
            c.shells.iter().map(|g| g.first..g.first + g.shell.total()).collect();
        let in_shell = |i: usize| groups.iter().any(|r| r.contains(&i));
        if let (Some(first), Some(last)) = ((0..n).find(|&i| !in_shell(i)), (0..n).rev().find(|&i| !in_shell(i))) {
            // Walker shells are appended in blocks; the other satellites sit between them.
            let others: Vec<usize> = (first..=last).filter(|&i| !in_shell(i)).collect();
            if others.len() == last + 1 - first {
                groups.push(first..last + 1);
            } else {
                groups.extend(others.into_iter().map(|i| i..i + 1));
            }
        }
        let g_count = groups.len();
        Ok(Router {
            c,
            sin_min: math::sin(cfg.min_elevation_deg.to_radians()),
            cfg,
            grounds,
            ground_pos,
            isl,
            isl_max_km,
            pos: Vec::with_capacity(n),
            groups,
            attach: [vec![None; g_count], vec![None; g_count]],
            serving: [None, None],
            prev_nodes: None,
            outage_until: f64::NEG_INFINITY,
            dist: vec![f64::INFINITY; n + g_n],
            prev: vec![NONE; n + g_n],
            heap: BinaryHeap::new(),
            sat_relays: vec![Vec::new(); n],
            relay_sats: vec![Vec::new(); g_n],
            started: false,
        })
    }

    /// +Grid neighbours of satellite `i` (for tests and the globe).
    pub fn isl_neighbours(&self, i: usize) -> Vec<u32> {
        self.isl[i].iter().copied().filter(|&x| x != NONE).collect()
    }

    /// Display name of a node.
    pub fn node_name(&self, n: Node) -> &str {
        match n {
            Node::Sat(i) => &self.c.sats[i as usize].name,
            Node::Ground(g) => &self.grounds[g as usize].name,
        }
    }

    /// Satellite positions of the last step (ECEF km; `None`: SGP4 failed).
    pub fn positions(&self) -> &[Option<Vec3>] {
        &self.pos
    }

    /// sin(elevation) of satellite position `s` from ground position `g`.
    fn sin_elev(g: Vec3, s: Vec3) -> f64 {
        let v = geometry::sub(s, g);
        geometry::dot(v, g) / (geometry::norm(v) * geometry::norm(g))
    }

    fn best_visible(&self, g: Vec3, group: std::ops::Range<usize>) -> Option<u32> {
        let mut best: Option<(f64, u32)> = None;
        for (i, p) in self.pos.iter().enumerate().take(group.end).skip(group.start) {
            if let Some(p) = p {
                let e = Self::sin_elev(g, *p);
                if e >= self.sin_min && best.is_none_or(|b| e > b.0) {
                    best = Some((e, i as u32));
                }
            }
        }
        best.map(|b| b.1)
    }

    fn visible(&self, g: Vec3, sat: u32) -> bool {
        self.pos[sat as usize].is_some_and(|p| Self::sin_elev(g, p) >= self.sin_min)
    }

    /// Computes the path at `t_s` (call with increasing times).
    pub fn step(&mut self, t_s: f64) -> PathStep {
        self.c.positions_into(t_s, &mut self.pos);
        for k in 0..2 {
            let g = self.ground_pos[k];
            for j in 0..self.groups.len() {
                let old = self.attach[k][j];
                self.attach[k][j] = match (self.cfg.attachment, old) {
                    (Attachment::StayUntilLost, Some(s)) if self.visible(g, s) => Some(s),
                    _ => self.best_visible(g, self.groups[j].clone()),
                };
            }
        }
        let hops = self.shortest_path();
        // The serving satellite: the one the path uses, or with a single group the attached one
        // (so losing sight of every satellite is a handover to none).
        let serving = if self.groups.len() == 1 {
            [self.attach[0][0], self.attach[1][0]]
        } else {
            let sat = |n: Option<Node>| match n {
                Some(Node::Sat(i)) => Some(i),
                _ => None,
            };
            [sat(hops.first().map(|h| h.to)), sat(hops.last().map(|h| h.from))]
        };
        let mut events = Vec::new();
        for (k, end) in [End::Src, End::Dst].into_iter().enumerate() {
            if serving[k] != self.serving[k] && self.started {
                events.push(EventKind::Handover { end, from: self.serving[k], to: serving[k] });
            }
        }
        self.serving = serving;
        if !events.is_empty() && self.cfg.handover_outage_s > 0.0 {
            self.outage_until = t_s + self.cfg.handover_outage_s;
        }
        let nodes = {
            let mut v: Vec<Node> = hops.iter().map(|h| h.from).collect();
            v.extend(hops.last().map(|h| h.to));
            v
        };
        if events.is_empty() && self.started && self.prev_nodes.as_ref() != Some(&nodes) {
            events.push(EventKind::RouteChange);
        }
        self.prev_nodes = Some(nodes);
        self.started = true;
        let owd_s = if hops.is_empty() { f64::INFINITY } else { hops.iter().map(|h| h.delay_s).sum() };
        let bottleneck_mbps = hops.iter().map(|h| h.capacity_mbps).fold(f64::INFINITY, f64::min);
        PathStep {
            t_s,
            owd_s,
            bottleneck_mbps: if hops.is_empty() { 0.0 } else { bottleneck_mbps },
            in_outage: t_s < self.outage_until,
            hops,
            events,
        }
    }

    fn shortest_path(&mut self) -> Vec<Hop> {
        let n = self.c.sats.len();
        if self.attach[0].iter().all(Option::is_none) || self.attach[1].iter().all(Option::is_none) {
            return Vec::new();
        }
        let src_sats: Vec<u32> = self.attach[0].iter().flatten().copied().collect();
        let dst_sats: Vec<u32> = self.attach[1].iter().flatten().copied().collect();
        let bent_pipe = self.cfg.isl == IslMode::None;
        if bent_pipe {
            for v in self.sat_relays.iter_mut() {
                v.clear();
            }
            for r in 2..self.grounds.len() {
                let g = self.ground_pos[r];
                let mut list = std::mem::take(&mut self.relay_sats[r]);
                list.clear();
                for (i, p) in self.pos.iter().enumerate() {
                    if p.is_some_and(|p| Self::sin_elev(g, p) >= self.sin_min) {
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
        // and consistent (edge delays are straight-line lengths at c), so the first time the
        // destination is taken from the frontier its path is the shortest, as with Dijkstra,
        // after exploring only a corridor towards it.
        let dst_pos = self.ground_pos[1];
        let to_go = |p: Vec3| geometry::distance_km(p, dst_pos) / C_KM_S;
        self.heap.push(Reverse((to_go(self.ground_pos[0]).to_bits(), 0f64.to_bits(), src)));
        let pos_of = |r: &Router, u: u32| -> Vec3 {
            if (u as usize) < n {
                r.pos[u as usize].unwrap_or([0.0; 3])
            } else {
                r.ground_pos[u as usize - n]
            }
        };
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
            if (u as usize) < n {
                let i = u as usize;
                if self.pos[i].is_none() {
                    continue;
                }
                let nb = self.isl[i];
                let max = self.isl_max_km[i];
                for v in nb {
                    if v != NONE && self.pos[v as usize].is_some() {
                        relax(self, v, max);
                    }
                }
                if dst_sats.contains(&u) {
                    relax(self, dst, f64::INFINITY);
                }
                if bent_pipe {
                    let relays = std::mem::take(&mut self.sat_relays[i]);
                    for &r in &relays {
                        relax(self, n as u32 + r, f64::INFINITY);
                    }
                    self.sat_relays[i] = relays;
                }
            } else if u == src {
                for &a in &src_sats {
                    relax(self, a, f64::INFINITY);
                }
            } else if u != dst {
                let r = u as usize - n;
                let sats = std::mem::take(&mut self.relay_sats[r]);
                for &s in &sats {
                    relax(self, s, f64::INFINITY);
                }
                self.relay_sats[r] = sats;
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
                let (pa, pb) = (pos_of(self, a), pos_of(self, b));
                let d = geometry::distance_km(pa, pb);
                let gsl = (a as usize) >= n || (b as usize) >= n;
                let (lt, elev) = if gsl {
                    let (g, s) = if (a as usize) >= n { (pa, pb) } else { (pb, pa) };
                    (&self.cfg.links.gsl, Some(geometry::elevation_deg(g, s)))
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

    /// The CSV header of [`Router::csv_row`].
    pub const CSV_HEADER: &'static str = "t_s,hops,owd_ms,bottleneck_mbps,event,nodes";

    /// One CSV row: time, hop count, one-way delay (ms), bottleneck (Mbit/s), event
    /// (`handover`, `route_change` or empty; `+outage` while in a handover outage, written
    /// `'+outage` alone so that a spreadsheet does not take it for a formula: `crate::csv`) and
    /// the node names joined by `>`.
    pub fn csv_row(&self, s: &PathStep) -> String {
        let ev = if s.events.iter().any(|e| matches!(e, EventKind::Handover { .. })) {
            "handover"
        } else if s.events.is_empty() {
            ""
        } else {
            "route_change"
        };
        let ev = if s.in_outage { format!("{ev}+outage") } else { ev.to_string() };
        let names: Vec<String> = s.nodes().iter().map(|&n| self.node_name(n).replace([',', '"', '\n'], " ")).collect();
        if s.hops.is_empty() {
            format!("{},0,,0,{},", s.t_s, crate::csv::text(&ev))
        } else {
            let (ev, names) = (crate::csv::text(&ev), names.join(">"));
            let names = crate::csv::text(&names);
            format!("{},{},{:.3},{:.3},{ev},{names}", s.t_s, s.hops.len(), s.owd_s * 1e3, s.bottleneck_mbps)
        }
    }
}

/// The path timeline over `[t0_s, t1_s]` at `cfg.step_s`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timeline {
    pub steps: Vec<PathStep>,
}

impl Timeline {
    /// All events with their times, in order.
    pub fn events(&self) -> impl Iterator<Item = (f64, &EventKind)> {
        self.steps.iter().flat_map(|s| s.events.iter().map(move |e| (s.t_s, e)))
    }
}

/// Number of steps in `[t0, t1]` at `step`: `⌊(t1 − t0)/step⌋ + 1`.
pub fn step_count(t0_s: f64, t1_s: f64, step_s: f64) -> usize {
    if t1_s < t0_s {
        return 0;
    }
    ((t1_s - t0_s) / step_s + 1e-9).floor() as usize + 1
}

/// Computes the path timeline from `src` to `dst` over `[t0_s, t1_s]`.
pub fn path_timeline(
    c: &Constellation,
    src: GroundStation,
    dst: GroundStation,
    cfg: RouteConfig,
    t0_s: f64,
    t1_s: f64,
) -> Result<Timeline, OrbitError> {
    if !(t0_s.is_finite() && t1_s.is_finite() && t1_s >= t0_s) {
        return Err(OrbitError::Config {
            field: "duration_s".into(),
            problem: format!("[{t0_s}, {t1_s}] is not a time span"),
        });
    }
    let step = cfg.step_s;
    let mut r = Router::new(c, src, dst, cfg)?;
    let steps = (0..step_count(t0_s, t1_s, step)).map(|k| r.step(t0_s + k as f64 * step)).collect();
    Ok(Timeline { steps })
}
