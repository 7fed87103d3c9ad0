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
use super::geometry::{self, Vec3, C_KM_S, EARTH_RADIUS_KM};
use super::ground::GroundStation;
use super::links::LinkModel;
use super::math;
pub use super::params::{Attachment, Earth, Scheduler, SlotRule, DEFAULT_MIN_ELEVATION_DEG, DEFAULT_STEP_S};
use super::OrbitError;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Inter-satellite links.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum IslMode {
    /// +Grid within each Walker shell and each element-set grid. `max_length_km`: links longer
    /// than this are down (default per shell: Hypatia's 80-km-clearance chord,
    /// docs/links-and-orbits.md §8). `seam`: link plane P−1 to plane 0.
    PlusGrid { max_length_km: Option<f64>, seam: bool },
    /// Exactly these undirected links, by satellite index (Hypatia's `isls.txt`); longer than
    /// `max_length_km` (default: no limit) they are down.
    List { pairs: Vec<[u32; 2]>, max_length_km: Option<f64> },
    /// No ISLs: bent pipe, satellite → ground relay → satellite (Hypatia's
    /// "free_one_only_gs_relays").
    None,
}

/// Speed of light in fibre, km/s: 2/3 c [docs/links-and-orbits.md §14].
pub const FIBRE_KM_S: f64 = C_KM_S * 2.0 / 3.0;

/// Gateways that take traffic down from the satellites and a point of presence (PoP) that they
/// reach over terrestrial fibre: the path to `dst` goes satellite → gateway → PoP → `dst`.
#[derive(Debug, Clone, PartialEq)]
pub struct Gateways {
    pub stations: Vec<GroundStation>,
    pub pop: GroundStation,
    /// Fibre length over great-circle distance (≥ 1).
    pub route_factor: f64,
    /// Capacity of the terrestrial links, Mbit/s.
    pub rate_mbps: f64,
}

/// Everything routing needs besides the constellation and the endpoints.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteConfig {
    pub min_elevation_deg: f64,
    /// Longest ground–satellite link, km (Hypatia's cone): a satellite farther away is out of
    /// reach whatever its elevation.
    pub max_range_km: Option<f64>,
    pub earth: Earth,
    pub step_s: f64,
    pub isl: IslMode,
    pub attachment: Attachment,
    /// After a handover the path is marked unusable (`in_outage`) for this long, s.
    pub handover_outage_s: f64,
    pub links: LinkModel,
    /// Ground relays for bent pipe (`IslMode::None`); ignored with ISLs and with gateways.
    pub relays: Vec<GroundStation>,
    pub gateways: Option<Gateways>,
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
        if let Some(r) = self.max_range_km {
            if !(r.is_finite() && r > 0.0) {
                return bad("gsl_max_range_km", format!("{r} must be a positive number of km"));
            }
        }
        if !(self.step_s.is_finite() && self.step_s > 0.0) {
            return bad("step_s", format!("{} must be a positive number of seconds", self.step_s));
        }
        if !(self.handover_outage_s.is_finite() && self.handover_outage_s >= 0.0) {
            return bad("handover_outage_s", format!("{} must be 0 or more seconds", self.handover_outage_s));
        }
        if let Some(s) = self.attachment.scheduler() {
            if !(s.period_s.is_finite() && s.period_s > 0.0 && s.period_s <= 86_400.0) {
                return bad(
                    "attachment.scheduler.period_s",
                    format!("{} must be above 0 and at most 86400 s", s.period_s),
                );
            }
            if !(s.offset_s.is_finite() && (0.0..s.period_s).contains(&s.offset_s)) {
                return bad(
                    "attachment.scheduler.offset_s",
                    format!("{} must be at least 0 and below the period ({} s)", s.offset_s, s.period_s),
                );
            }
            if !(s.reassign_gap_ms.is_finite() && s.reassign_gap_ms >= 0.0 && s.reassign_gap_ms < s.period_s * 1e3) {
                return bad(
                    "attachment.scheduler.reassign_gap_ms",
                    format!("{} must be at least 0 and shorter than a slot", s.reassign_gap_ms),
                );
            }
        }
        if let Some(g) = &self.gateways {
            if g.stations.is_empty() {
                return bad("gateways.stations", "must name at least one gateway".into());
            }
            if !(g.route_factor.is_finite() && (1.0..=10.0).contains(&g.route_factor)) {
                return bad("gateways.route_factor", format!("{} must be between 1 and 10", g.route_factor));
            }
            if !(g.rate_mbps.is_finite() && g.rate_mbps > 0.0) {
                return bad("gateways.rate_mbps", format!("{} must be a positive rate", g.rate_mbps));
            }
        }
        if let IslMode::List { max_length_km: Some(m), .. } | IslMode::PlusGrid { max_length_km: Some(m), .. } =
            self.isl
        {
            if !(m.is_finite() && m > 0.0) {
                return bad("max_isl_km", format!("{m} must be a positive number of km"));
            }
        }
        Ok(())
    }
}

impl Default for RouteConfig {
    fn default() -> Self {
        RouteConfig {
            min_elevation_deg: DEFAULT_MIN_ELEVATION_DEG,
            max_range_km: None,
            earth: Earth::Sphere,
            step_s: DEFAULT_STEP_S,
            isl: IslMode::PlusGrid { max_length_km: None, seam: true },
            attachment: Attachment::HighestElevation,
            handover_outage_s: 0.0,
            links: LinkModel::default(),
            relays: Vec::new(),
            gateways: None,
        }
    }
}

/// A node of the path: a satellite (index into `Constellation::sats`) or a ground station
/// (0 = source, 1 = destination, then the relays in `RouteConfig::relays` order, or the gateways
/// in their order followed by the PoP).
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
    /// distance / c (over the air) or distance / (2/3 c) (terrestrial fibre), s.
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

/// Why an end's serving satellite changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum HandoverCause {
    /// The attachment rule chose another satellite at this step (no scheduler).
    Step,
    /// The scheduler reassigned the terminal at a slot boundary.
    SlotBoundary,
    /// The terminal's satellite left its reach inside a slot and was replaced at once.
    LostMidSlot,
}

/// What changed at a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum EventKind {
    /// An endpoint's serving satellite changed (`None`: no satellite visible). The new ground
    /// link carries nothing for `outage_s`.
    Handover { end: End, from: Option<u32>, to: Option<u32>, cause: HandoverCause, outage_s: f64 },
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
    /// Within a handover's outage.
    pub in_outage: bool,
    /// A scheduler slot boundary fell in (previous step, this step].
    pub slot_boundary: bool,
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

/// Where a ground station sits and which way is up there.
#[derive(Debug, Clone, Copy)]
struct Site {
    pos: Vec3,
    /// The local vertical (unit) on the WGS72 ellipsoid; unused on the sphere, whose elevation
    /// test keeps its original form so that results stay bit for bit what they were.
    up: Vec3,
}

/// What a ground node may reach besides satellites.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GroundKind {
    End,
    /// Bent-pipe relay: down from a satellite and up to another.
    Relay,
    /// Gateway: down from a satellite, then over fibre to the PoP.
    Gateway,
    Pop,
}

/// The scheduler's state for one end.
#[derive(Debug, Clone, Copy, Default)]
struct Held {
    sat: Option<u32>,
}

/// Steps through time and computes the path at each step; keeps the attachment state between
/// steps. Reuses its buffers, so a 24-h run allocates little beyond the hops it returns.
pub struct Router<'a> {
    c: &'a Constellation,
    cfg: RouteConfig,
    grounds: Vec<GroundStation>,
    kinds: Vec<GroundKind>,
    sites: Vec<Site>,
    sin_min: f64,
    /// ISL adjacency in compressed rows: the neighbours of satellite i are
    /// `isl_to[isl_start[i]..isl_start[i + 1]]`, each with its length limit in `isl_max_km`.
    isl_start: Vec<u32>,
    isl_to: Vec<u32>,
    isl_max_km: Vec<f64>,
    pos: Vec<Option<Vec3>>,
    /// Attachment group of each satellite: each Walker shell and each element-set grid is a
    /// group (shells have no links between them, so a path must enter the right one), and the
    /// other satellites (TLE/OMM, GEO) form one more.
    group_of: Vec<u32>,
    groups: usize,
    /// Per end, the satellite attached in each group (rules that attach one per group).
    attach: [Vec<Option<u32>>; 2],
    /// Per end, the satellites the route may start or end at this step.
    cands: [Vec<u32>; 2],
    /// Per satellite: bit 0 a candidate of the source, bit 1 of the destination.
    cand_mark: Vec<u8>,
    /// Per end, the satellite the path used at the last step.
    serving: [Option<u32>; 2],
    held: [Held; 2],
    /// Scheduler: the slot of the previous step; and UTC seconds of day at orbit time 0.
    slot: Option<i64>,
    utc_s_at_zero: f64,
    prev_nodes: Option<Vec<Node>>,
    outage_until: f64,
    dist: Vec<f64>,
    prev: Vec<u32>,
    /// A* frontier: (delay so far + straight-line delay to the destination, delay so far, node),
    /// as bits (non-negative floats order like their bits).
    heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
    /// Ground stations below each satellite (relays, gateways) and satellites above each relay.
    sat_relays: Vec<Vec<u32>>,
    relay_sats: Vec<Vec<u32>>,
    started: bool,
}

const NONE: u32 = u32::MAX;

/// Great-circle distance on the sphere of radius R, km.
fn great_circle_km(a: &GroundStation, b: &GroundStation) -> f64 {
    let (la, lb) = (a.lat_deg.to_radians(), b.lat_deg.to_radians());
    let dlat = lb - la;
    let dlon = (b.lon_deg - a.lon_deg).to_radians();
    let h = math::sin(dlat / 2.0).powi(2) + math::cos(la) * math::cos(lb) * math::sin(dlon / 2.0).powi(2);
    2.0 * EARTH_RADIUS_KM * math::asin(h.sqrt().min(1.0))
}

/// Checks an ISL configuration against a constellation (list indices in range, no self-links),
/// as [`Router::new`] would.
pub fn check_isls(c: &Constellation, mode: &IslMode) -> Result<(), OrbitError> {
    isl_lists(c, mode).map(|_| ())
}

/// The ISL adjacency lists of a constellation under `mode`, each neighbour with its length limit.
fn isl_lists(c: &Constellation, mode: &IslMode) -> Result<Vec<Vec<(u32, f64)>>, OrbitError> {
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
                let (p_n, s_n, k) = (g.planes, g.sats_per_plane, g.isl_shift % g.sats_per_plane);
                let max = max_length_km
                    .unwrap_or_else(|| geometry::max_isl_length_km(g.altitude_km, geometry::ISL_CLEARANCE_KM));
                for p in 0..p_n {
                    for s in 0..s_n {
                        let Some(me) = g.at(p, s) else { continue };
                        let mut nb = vec![g.at(p, s + 1), g.at(p, s + s_n - 1)];
                        if p + 1 < p_n || *seam {
                            nb.push(g.at(p + 1, s + k));
                        }
                        if p > 0 || *seam {
                            nb.push(g.at(p + p_n - 1, s + s_n - k));
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
        let adj = isl_lists(c, &cfg.isl)?;
        let mut isl_start = Vec::with_capacity(n + 1);
        let (mut isl_to, mut isl_max_km) = (Vec::new(), Vec::new());
        isl_start.push(0);
        for list in &adj {
            for &(x, max) in list {
                isl_to.push(x);
                isl_max_km.push(max);
            }
            isl_start.push(isl_to.len() as u32);
        }
        let mut grounds = vec![src, dst];
        let mut kinds = vec![GroundKind::End, GroundKind::End];
        if let Some(g) = &cfg.gateways {
            grounds.extend(g.stations.iter().cloned());
            kinds.extend(g.stations.iter().map(|_| GroundKind::Gateway));
            grounds.push(g.pop.clone());
            kinds.push(GroundKind::Pop);
        } else if cfg.isl == IslMode::None {
            grounds.extend(cfg.relays.iter().cloned());
            kinds.extend(cfg.relays.iter().map(|_| GroundKind::Relay));
        }
        let sites = grounds
            .iter()
            .map(|g| match cfg.earth {
                Earth::Sphere => Site { pos: geometry::geodetic_to_ecef(g.lat_deg, g.lon_deg, 0.0), up: [0.0; 3] },
                Earth::Wgs72 => {
                    let (pos, up) = geometry::wgs72_to_ecef(g.lat_deg, g.lon_deg, 0.0);
                    Site { pos, up }
                }
            })
            .collect();
        let g_n = grounds.len();
        let mut group_of = vec![NONE; n];
        let mut groups = 0u32;
        for g in &c.shells {
            group_of[g.first..g.first + g.shell.total()].fill(groups);
            groups += 1;
        }
        for g in &c.grids {
            for &i in g.members.iter().flatten() {
                group_of[i as usize] = groups;
            }
            groups += 1;
        }
        if group_of.contains(&NONE) {
            for x in group_of.iter_mut().filter(|x| **x == NONE) {
                *x = groups;
            }
            groups += 1;
        }
        let g_count = groups as usize;
        let utc_s_at_zero = c.sgp4_epoch().map_or(0.0, |e| {
            use sgp4::chrono::Timelike;
            e.num_seconds_from_midnight() as f64 + e.nanosecond() as f64 * 1e-9
        });
        Ok(Router {
            c,
            sin_min: math::sin(cfg.min_elevation_deg.to_radians()),
            cfg,
            grounds,
            kinds,
            sites,
            isl_start,
            isl_to,
            isl_max_km,
            pos: Vec::with_capacity(n),
            group_of,
            groups: g_count,
            attach: [vec![None; g_count], vec![None; g_count]],
            cands: [Vec::new(), Vec::new()],
            cand_mark: vec![0; n],
            serving: [None, None],
            held: [Held::default(); 2],
            slot: None,
            utc_s_at_zero,
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

    /// ISL neighbours of satellite `i` (for tests and the globe).
    pub fn isl_neighbours(&self, i: usize) -> Vec<u32> {
        self.isl_to[self.isl_start[i] as usize..self.isl_start[i + 1] as usize].to_vec()
    }

    /// Display name of a node.
    pub fn node_name(&self, n: Node) -> &str {
        match n {
            Node::Sat(i) => &self.c.sats[i as usize].name,
            Node::Ground(g) => &self.grounds[g as usize].name,
        }
    }

    /// The ground stations in node order (source, destination, relays or gateways and the PoP).
    pub fn ground_stations(&self) -> &[GroundStation] {
        &self.grounds
    }

    /// Satellite positions of the last step (ECEF km; `None`: SGP4 failed).
    pub fn positions(&self) -> &[Option<Vec3>] {
        &self.pos
    }

    /// The slot of the scheduler at orbit time `t_s`: slot k starts at the k-th boundary.
    fn slot_at(&self, s: &Scheduler, t_s: f64) -> i64 {
        ((self.utc_s_at_zero + t_s - s.offset_s) / s.period_s).floor() as i64
    }

    /// sin(elevation) of satellite position `p` from ground station `g`, if the satellite is in
    /// reach (above the mask and within the longest ground link).
    fn reach(&self, g: usize, p: Vec3) -> Option<f64> {
        let site = &self.sites[g];
        let v = geometry::sub(p, site.pos);
        let d = geometry::norm(v);
        if self.cfg.max_range_km.is_some_and(|m| d > m) {
            return None;
        }
        let e = match self.cfg.earth {
            Earth::Sphere => geometry::dot(v, site.pos) / (d * geometry::norm(site.pos)),
            Earth::Wgs72 => geometry::dot(v, site.up) / d,
        };
        (e >= self.sin_min).then_some(e)
    }

    fn in_reach(&self, g: usize, sat: u32) -> bool {
        self.pos[sat as usize].is_some_and(|p| self.reach(g, p).is_some())
    }

    /// Per group, the satellite in reach of ground station `g` with the highest elevation.
    fn best_per_group(&self, g: usize, out: &mut [Option<u32>]) {
        let mut best: Vec<Option<(f64, u32)>> = vec![None; out.len()];
        for (i, p) in self.pos.iter().enumerate() {
            if let Some(e) = p.and_then(|p| self.reach(g, p)) {
                let b = &mut best[self.group_of[i] as usize];
                if b.is_none_or(|b| e > b.0) {
                    *b = Some((e, i as u32));
                }
            }
        }
        for (o, b) in out.iter_mut().zip(best) {
            *o = b.map(|b| b.1);
        }
    }

    /// The candidates of end `k` by the attachment rule, unscheduled.
    fn free_candidates(&mut self, k: usize) {
        let mut cands = std::mem::take(&mut self.cands[k]);
        cands.clear();
        if self.cfg.attachment.any_in_reach() {
            for (i, p) in self.pos.iter().enumerate() {
                if p.is_some_and(|p| self.reach(k, p).is_some()) {
                    cands.push(i as u32);
                }
            }
        } else {
            let mut attach = std::mem::take(&mut self.attach[k]);
            let keep = |r: &Self, s: Option<u32>| {
                matches!(r.cfg.attachment, Attachment::StayUntilLost) && s.is_some_and(|s| r.in_reach(k, s))
            };
            if attach.iter().all(|&s| keep(self, s)) {
                // Every group keeps its satellite: nothing to search.
            } else {
                let mut best = vec![None; attach.len()];
                self.best_per_group(k, &mut best);
                for (a, b) in attach.iter_mut().zip(best) {
                    if !keep(self, *a) {
                        *a = b;
                    }
                }
            }
            cands.extend(attach.iter().flatten());
            self.attach[k] = attach;
        }
        self.cands[k] = cands;
    }

    /// Whether end `k` is a user terminal under the scheduler (the destination is not when it is
    /// reached through gateways).
    fn scheduled(&self, k: usize) -> bool {
        self.cfg.attachment.scheduler().is_some() && (k == 0 || self.cfg.gateways.is_none())
    }

    /// Computes the path at `t_s` (call with increasing times).
    pub fn step(&mut self, t_s: f64) -> PathStep {
        self.c.positions_into(t_s, &mut self.pos);
        let scheduler = self.cfg.attachment.scheduler().copied();
        let slot = scheduler.map(|s| self.slot_at(&s, t_s));
        let boundary = self.started && slot.is_some() && slot != self.slot;
        self.slot = slot;
        let mut choose = [false; 2];
        let mut lost = [false; 2];
        for k in 0..2 {
            let ground_end = k == 0 || self.cfg.gateways.is_none();
            if !ground_end {
                self.cands[k].clear();
                continue;
            }
            if self.scheduled(k) {
                let held = self.held[k].sat;
                let keeps = held.is_some_and(|s| self.in_reach(k, s));
                if keeps && !boundary {
                    self.cands[k].clear();
                    self.cands[k].extend(held);
                    continue;
                }
                choose[k] = true;
                lost[k] = held.is_some() && !keeps && !boundary;
            }
            self.free_candidates(k);
        }
        for &s in &self.cands[0] {
            self.cand_mark[s as usize] |= 1;
        }
        for &s in &self.cands[1] {
            self.cand_mark[s as usize] |= 2;
        }
        let hops = self.shortest_path();
        for k in 0..2 {
            for &s in &self.cands[k] {
                self.cand_mark[s as usize] = 0;
            }
        }
        let sat = |n: Option<Node>| match n {
            Some(Node::Sat(i)) => Some(i),
            _ => None,
        };
        let on_path = [sat(hops.first().map(|h| h.to)), sat(hops.last().map(|h| h.from))];
        for k in 0..2 {
            if choose[k] {
                self.held[k].sat = on_path[k];
            }
        }
        // The serving satellite: the one the path uses, or, where one satellite per group is
        // attached and there is one group, the attached one (so losing sight of every satellite
        // is a handover to none).
        let mut serving = on_path;
        for (k, s) in serving.iter_mut().enumerate() {
            if self.groups == 1
                && scheduler.is_none()
                && !self.cfg.attachment.any_in_reach()
                && (k == 0 || self.cfg.gateways.is_none())
            {
                *s = self.attach[k][0];
            }
        }
        let gap_s = scheduler.map_or(0.0, |s| s.reassign_gap_ms / 1e3);
        let mut events = Vec::new();
        let mut outage_s: f64 = 0.0;
        for (k, end) in [End::Src, End::Dst].into_iter().enumerate() {
            if serving[k] != self.serving[k] && self.started {
                let (cause, out) = if self.scheduled(k) {
                    let cause =
                        if lost[k] || !boundary { HandoverCause::LostMidSlot } else { HandoverCause::SlotBoundary };
                    (cause, self.cfg.handover_outage_s.max(gap_s))
                } else {
                    (HandoverCause::Step, self.cfg.handover_outage_s)
                };
                outage_s = outage_s.max(out);
                events.push(EventKind::Handover { end, from: self.serving[k], to: serving[k], cause, outage_s: out });
            }
        }
        self.serving = serving;
        if outage_s > 0.0 {
            self.outage_until = t_s + outage_s;
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
            slot_boundary: boundary,
            hops,
            events,
        }
    }

    fn shortest_path(&mut self) -> Vec<Hop> {
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
