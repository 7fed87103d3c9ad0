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

//!
//! Files: `config.rs` (the routing configuration: ISLs, gateways, checks), `path.rs` (what a
//! step's path is made of), `isl.rs` (the ISL adjacency of each ISL mode), `search.rs` (the A*
//! search over the step's graph); here the [`Router`], which attaches the ends and steps through
//! time, and the path timeline.

mod config;
mod isl;
mod path;
mod search;

pub use config::{Gateways, IslMode, RouteConfig, FIBRE_KM_S};
pub use isl::check_isls;
use isl::isl_lists;
pub use path::{End, EventKind, HandoverCause, Hop, Node, PathStep};

use super::elements::Constellation;
use super::geometry::{self, Vec3};
use super::ground::GroundStation;
use super::math;
pub use super::params::{Attachment, Earth, Scheduler, SlotRule, DEFAULT_MIN_ELEVATION_DEG, DEFAULT_STEP_S};
use super::OrbitError;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
        let above = match self.cfg.earth {
            Earth::Sphere => geometry::dot(v, site.pos),
            Earth::Wgs72 => geometry::dot(v, site.up),
        };
        // Below the station's horizon (most of a constellation at any time), the elevation's
        // sine would be at most zero: with a mask above the horizon the answer is known without
        // the distance's square root and the division.
        if above <= 0.0 && self.sin_min > 0.0 {
            return None;
        }
        let d = geometry::norm(v);
        if self.cfg.max_range_km.is_some_and(|m| d > m) {
            return None;
        }
        let e = match self.cfg.earth {
            Earth::Sphere => above / (d * geometry::norm(site.pos)),
            Earth::Wgs72 => above / d,
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
    let never = || false;
    Ok(path_timeline_until(c, src, dst, cfg, (t0_s, t1_s), &never)?.expect("never cancelled"))
}

/// [`path_timeline`], asking `cancel` before each step whether to stop (a front end's Ctrl-C:
/// a week of a large constellation's routes takes minutes); `None` when it said so.
pub fn path_timeline_until(
    c: &Constellation,
    src: GroundStation,
    dst: GroundStation,
    cfg: RouteConfig,
    (t0_s, t1_s): (f64, f64),
    cancel: &dyn Fn() -> bool,
) -> Result<Option<Timeline>, OrbitError> {
    if !(t0_s.is_finite() && t1_s.is_finite() && t1_s >= t0_s) {
        return Err(OrbitError::Config {
            field: "duration_s".into(),
            problem: format!("[{t0_s}, {t1_s}] is not a time span"),
        });
    }
    let step = cfg.step_s;
    let mut r = Router::new(c, src, dst, cfg)?;
    let n = step_count(t0_s, t1_s, step);
    let mut steps = Vec::with_capacity(n);
    for k in 0..n {
        if cancel() {
            return Ok(None);
        }
        steps.push(r.step(t0_s + k as f64 * step));
    }
    Ok(Some(Timeline { steps }))
}
