//! The network of a constellation scenario: the path timeline of `orbit::route` turned into
//! links whose delay, rate and loss follow the geometry, and routes that change at every step
//! (`net::moving`).
//!
//! The model (also in scenarios/README.md):
//! - Nodes 0 and 1 are the source and destination ends (their ground stations, or end hosts
//!   joined to them by `access` links). Every satellite or relay that is ever on the route gets a
//!   node, in order of first appearance.
//! - Each pair of nodes that is ever adjacent on the route gets a link in each direction. While
//!   the pair is on the route, the link samples the hop at every step: delay = distance / c
//!   (interpolated within the step at each packet's transmission time), capacity and loss from
//!   the link model. Loss hits the data direction (towards `dst`), and the other one only with
//!   `reverse_loss`.
//! - Forwarding follows the route in force. Queued packets of a link that leaves the route are
//!   still sent (`on_route_change: "deliver"`, and the next node forwards them along the previous
//!   step's route) or dropped (`"drop"`).
//! - After a handover the new ground–satellite link is down for `handover_outage_s`.

use super::RouteMemo;
use crate::net::{
    Buffer, Link, LinkConfig, LossAt, LossProcess, Motion, MotionSample, MovingRoutes, Network, NodeId, Outages,
    RateSchedule, Route,
};
use crate::orbit::config::{ConstellationTopology, RouteChange};
use crate::orbit::path_timeline_until;
use crate::orbit::route::Timeline;
use crate::orbit::route::{End, EventKind, HandoverCause, Node};
use crate::orbit::OrbitError;
use crate::sim::{Rng, SimDuration, SimTime, Stream};
use std::collections::HashMap;

use super::path::{HandoverCauseName, PathEnd, PathEvent, PathEventKind, PathResult, PathSteps, RouteChangeEntry};

/// The network and what results say about the path.
pub struct ConstellationNet {
    pub net: Network,
    pub path: PathResult,
    /// Links 0–3 are the access links when there are any; the rest follow the route.
    pub access_links: u32,
}

fn encode(n: Node) -> i64 {
    match n {
        Node::Sat(i) => i as i64,
        Node::Ground(g) => -(g as i64) - 1,
    }
}

/// Builds the network for `duration_s` of simulation.
#[cfg(test)]
pub fn build(
    topo: &ConstellationTopology,
    duration_s: f64,
    seed: u64,
    trace_points: usize,
) -> Result<ConstellationNet, OrbitError> {
    Ok(build_until(topo, duration_s, seed, trace_points, &|| false, &mut RouteMemo::default())?
        .expect("never cancelled"))
}

impl RouteMemo {
    /// A topology is plain data: written out, equal texts are equal topologies. None if it
    /// could not be written, and then nothing is kept for it.
    fn key(topo: &ConstellationTopology) -> Option<String> {
        serde_json::to_string(topo).ok()
    }

    /// The timeline kept for the topology of `key` over `duration_s`, taken out of the memo.
    fn take(&mut self, key: Option<&str>, duration_s: f64) -> Option<Timeline> {
        match (self.last.take(), key) {
            (Some((k, d, timeline)), Some(key)) if k == key && d == duration_s.to_bits() => Some(timeline),
            _ => None,
        }
    }

    fn keep(&mut self, key: Option<String>, duration_s: f64, timeline: Timeline) {
        self.last = key.map(|k| (k, duration_s.to_bits(), timeline));
    }
}

/// Builds the network for `duration_s` of simulation, asking `cancel` before each step of the
/// route precomputation whether to stop (`None` when it said so): the steps of a long run over a
/// large constellation take minutes.
pub fn build_until(
    topo: &ConstellationTopology,
    duration_s: f64,
    seed: u64,
    trace_points: usize,
    cancel: &dyn Fn() -> bool,
    memo: &mut RouteMemo,
) -> Result<Option<ConstellationNet>, OrbitError> {
    let built = topo.build(duration_s)?;
    let step_s = built.cfg.step_s;
    let (src_name, dst_name) = (built.src.name.clone(), built.dst.name.clone());
    let span = (built.t0_s, built.t1_s);
    let key = RouteMemo::key(topo);
    let timeline = match memo.take(key.as_deref(), duration_s) {
        Some(kept) => kept,
        None => {
            let computed = path_timeline_until(&built.constellation, built.src, built.dst, built.cfg, span, cancel)?;
            let Some(computed) = computed else { return Ok(None) };
            computed
        }
    };
    let step = SimDuration::from_secs_f64(step_s);
    let buffer = Buffer::Packets(topo.buffer_pkts);
    let fixed = |rate_bps: f64, delay: SimDuration, loss: f64| LinkConfig {
        rate: RateSchedule::Constant(rate_bps),
        delay,
        buffer,
        jitter: SimDuration::ZERO,
        reorder: false,
        loss: if loss > 0.0 { LossProcess::bernoulli(loss) } else { LossProcess::NONE },
        loss_at: LossAt::Channel,
        outages: Outages::None,
        motion: None,
    };

    // Node numbering: 0 and 1 are the ends; with access links the ground stations follow.
    let mut node_of: HashMap<Node, NodeId> = HashMap::new();
    let mut next_node: NodeId = 2;
    let mut configs: Vec<(NodeId, NodeId, LinkConfig)> = Vec::new();
    if let Some(a) = &topo.access {
        node_of.insert(Node::Ground(0), 2);
        node_of.insert(Node::Ground(1), 3);
        next_node = 4;
        let delay = SimDuration::from_secs_f64(a.delay_ms / 1e3);
        let reverse_loss = if topo.reverse_loss { a.loss } else { 0.0 };
        configs.push((0, 2, fixed(a.rate_mbps * 1e6, delay, a.loss)));
        configs.push((2, 0, fixed(a.rate_mbps * 1e6, delay, reverse_loss)));
        configs.push((3, 1, fixed(a.rate_mbps * 1e6, delay, a.loss)));
        configs.push((1, 3, fixed(a.rate_mbps * 1e6, delay, reverse_loss)));
    } else {
        node_of.insert(Node::Ground(0), 0);
        node_of.insert(Node::Ground(1), 1);
    }
    let access_links = configs.len() as u32;

    // Links of the route, by unordered node pair: (link low → high, link high → low).
    let mut pair_links: HashMap<(NodeId, NodeId), (u32, u32)> = HashMap::new();
    let mut samples: Vec<Vec<MotionSample>> = vec![Vec::new(); configs.len()];
    let mut outages: Vec<Vec<(SimTime, SimTime)>> = vec![Vec::new(); configs.len()];
    let mut routes: Vec<Route> = Vec::new();
    let mut route_of_step: Vec<u32> = Vec::with_capacity(timeline.steps.len());
    let mut path = PathResult {
        src: src_name,
        dst: dst_name,
        step_s,
        steps: PathSteps { t_s: Vec::new(), hops: Vec::new(), owd_ms: Vec::new(), bottleneck_mbps: Vec::new() },
        routes: Vec::new(),
        events: Vec::new(),
        nodes_used: 0,
        slot_boundaries_s: Vec::new(),
        grid_report: built.grid_report.clone(),
    };
    let mut last_nodes: Option<Vec<i64>> = None;
    for (k, s) in timeline.steps.iter().enumerate() {
        let t_s = k as f64 * step_s;
        path.steps.t_s.push(t_s);
        path.steps.hops.push(s.hops.len() as u32);
        path.steps.owd_ms.push((!s.hops.is_empty()).then_some(s.owd_s * 1e3));
        path.steps.bottleneck_mbps.push(s.bottleneck_mbps);
        let encoded: Vec<i64> = s.nodes().into_iter().map(encode).collect();
        if last_nodes.as_ref() != Some(&encoded) {
            path.routes.push(RouteChangeEntry { t_s, nodes: encoded.clone() });
            last_nodes = Some(encoded);
        }
        for e in &s.events {
            path.events.push(match e {
                EventKind::Handover { end, from, to, cause, .. } => PathEvent {
                    t_s,
                    kind: PathEventKind::Handover,
                    end: Some(match end {
                        End::Src => PathEnd::Src,
                        End::Dst => PathEnd::Dst,
                    }),
                    from: Some(*from),
                    to: Some(*to),
                    cause: match cause {
                        HandoverCause::Step => None,
                        HandoverCause::SlotBoundary => Some(HandoverCauseName::SlotBoundary),
                        HandoverCause::LostMidSlot => Some(HandoverCauseName::LostMidSlot),
                    },
                },
                EventKind::RouteChange => {
                    PathEvent { t_s, kind: PathEventKind::RouteChange, end: None, from: None, to: None, cause: None }
                }
            });
        }
        if s.slot_boundary {
            path.slot_boundaries_s.push(t_s);
        }

        let mut route = Route::default();
        if !s.hops.is_empty() {
            if topo.access.is_some() {
                route.nodes.push(0);
                route.forward.push(0);
                route.backward.push(1);
            }
            for (h, hop) in s.hops.iter().enumerate() {
                let mut sim_node = |n: Node| {
                    *node_of.entry(n).or_insert_with(|| {
                        next_node += 1;
                        next_node - 1
                    })
                };
                let (a, b) = (sim_node(hop.from), sim_node(hop.to));
                let key = (a.min(b), a.max(b));
                let (low_high, high_low) = *pair_links.entry(key).or_insert_with(|| {
                    let id = configs.len() as u32;
                    for (from, to) in [(key.0, key.1), (key.1, key.0)] {
                        configs.push((from, to, fixed(1.0, SimDuration::ZERO, 0.0)));
                        samples.push(Vec::new());
                        outages.push(Vec::new());
                    }
                    (id, id + 1)
                });
                let (data_link, back_link) = if a < b { (low_high, high_low) } else { (high_low, low_high) };
                let delay = SimDuration::from_secs_f64(hop.delay_s);
                let rate_bps = hop.capacity_mbps * 1e6;
                let sample = |loss: f64| MotionSample { step: k as u32, delay, rate_bps, loss, run_end: k as u32 };
                samples[data_link as usize].push(sample(hop.loss));
                samples[back_link as usize].push(sample(if topo.reverse_loss { hop.loss } else { 0.0 }));
                if h == 0 {
                    route.nodes.push(a);
                }
                route.nodes.push(b);
                route.forward.push(data_link);
                route.backward.push(back_link);
                // The new ground–satellite link of a handover carries nothing for a while.
                let outage_here = s
                    .events
                    .iter()
                    .filter_map(|e| match e {
                        EventKind::Handover { end: End::Src, outage_s, .. } if h == 0 => Some(*outage_s),
                        EventKind::Handover { end: End::Dst, outage_s, .. } if h + 1 == s.hops.len() => Some(*outage_s),
                        _ => None,
                    })
                    .fold(0.0, f64::max);
                if outage_here > 0.0 {
                    let start = SimTime::from_secs_f64(t_s);
                    let end = SimTime::from_secs_f64(t_s + outage_here);
                    outages[data_link as usize].push((start, end));
                    outages[back_link as usize].push((start, end));
                }
            }
            if topo.access.is_some() {
                route.nodes.push(1);
                route.forward.push(2);
                route.backward.push(3);
            }
        }
        if routes.last() != Some(&route) {
            routes.push(route);
        }
        route_of_step.push(routes.len() as u32 - 1);
    }
    path.nodes_used = next_node as usize - if topo.access.is_some() { 4 } else { 2 };

    let drop_off_route = topo.on_route_change == RouteChange::Drop;
    let links = configs
        .into_iter()
        .enumerate()
        .map(|(i, (from, to, mut cfg))| {
            let mut s = std::mem::take(&mut samples[i]);
            if !s.is_empty() {
                // Each sample learns where its run of consecutive on-route steps ends.
                for j in (0..s.len()).rev() {
                    if j + 1 < s.len() && s[j + 1].step == s[j].step + 1 {
                        s[j].run_end = s[j + 1].run_end;
                    }
                }
                cfg.motion = Some(Box::new(Motion { step, samples: s, drop_off_route }));
            }
            let o = std::mem::take(&mut outages[i]);
            if !o.is_empty() {
                cfg.outages = Outages::List(o);
            }
            // Streams are numbered per node pair, as chain links are per link.
            let (pair, reverse) = ((i / 2) as u32, i % 2 == 1);
            Link::new(
                i as u32,
                from,
                to,
                cfg,
                Rng::new(seed, Stream::LinkLoss { link: pair, reverse }),
                Rng::new(seed, Stream::LinkJitter { link: pair, reverse }),
                if (i as u32) < access_links { trace_points } else { 2 },
            )
        })
        .collect();
    let moving = MovingRoutes::new(step, routes, route_of_step, topo.on_route_change == RouteChange::Deliver);
    memo.keep(key, duration_s, timeline);
    Ok(Some(ConstellationNet { net: Network::moving(next_node, links, moving), path, access_links }))
}

/// A queue trace is kept only for the access links: the route's links come and go.
pub fn keeps_queue_trace(link: u32, access_links: u32) -> bool {
    link < access_links
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topo(json: &str) -> ConstellationTopology {
        ConstellationTopology::parse(json).unwrap()
    }

    const BJ_NY: &str = r#"{"constellation": {"walker": {"altitude_km": 1150, "inclination_deg": 53, "planes": 32,
        "sats_per_plane": 50, "phasing": 1}}, "src": "Beijing", "dst": "New York"}"#;

    #[test]
    fn routes_kept_from_a_run_serve_only_the_same_topology_and_duration() {
        // Each build against a fresh one: the same network and path, whatever the memo held.
        let json = |c: &ConstellationNet| serde_json::to_string(&c.path).unwrap();
        let fresh = |t: &ConstellationTopology, d: f64| json(&build(t, d, 1, 10).unwrap());
        let low = topo(&BJ_NY.replace(r#""altitude_km": 1150"#, r#""altitude_km": 550"#));
        let mut memo = RouteMemo::default();
        for (t, d) in [(&topo(BJ_NY), 30.0), (&topo(BJ_NY), 30.0), (&low, 30.0), (&low, 20.0), (&topo(BJ_NY), 20.0)] {
            let built = build_until(t, d, 1, 10, &|| false, &mut memo).unwrap().unwrap();
            assert_eq!(json(&built), fresh(t, d));
            let kept = memo.last.as_ref().unwrap();
            assert_eq!((Some(&kept.0), kept.1), (RouteMemo::key(t).as_ref(), f64::to_bits(d)));
        }
        // The two topologies route differently over these 30 s, so a route kept for the wrong one
        // would have shown.
        assert_ne!(fresh(&topo(BJ_NY), 30.0), fresh(&low, 30.0));
    }

    #[test]
    fn every_route_link_joins_consecutive_route_nodes_in_both_directions() {
        let c = build(&topo(BJ_NY), 60.0, 1, 10).unwrap();
        let m = c.net.moving.as_ref().unwrap();
        assert_eq!(m.route_of_step.len(), 61);
        for r in &m.routes {
            assert_eq!(r.nodes.first(), Some(&0));
            assert_eq!(r.nodes.last(), Some(&1));
            for i in 0..r.forward.len() {
                let f = &c.net.links[r.forward[i] as usize];
                let b = &c.net.links[r.backward[i] as usize];
                assert_eq!((f.from, f.to), (r.nodes[i], r.nodes[i + 1]));
                assert_eq!((b.from, b.to), (r.nodes[i + 1], r.nodes[i]));
            }
        }
        assert!(c.path.nodes_used >= 5, "{}", c.path.nodes_used);
        assert_eq!(c.path.routes.len(), m.routes.len());
    }

    #[test]
    fn link_delays_follow_the_hop_geometry() {
        let c = build(&topo(BJ_NY), 10.0, 1, 10).unwrap();
        let m = c.net.moving.as_ref().unwrap();
        let r = m.route_at_step(0);
        let total: f64 = r
            .forward
            .iter()
            .map(|&l| c.net.links[l as usize].cfg.motion.as_ref().unwrap().delay_at(SimTime::ZERO).as_secs_f64())
            .sum();
        let expected = c.path.steps.owd_ms[0].unwrap() / 1e3;
        assert!((total - expected).abs() < 1e-6, "{total} vs {expected}");
    }

    #[test]
    fn access_links_put_hosts_at_the_ends() {
        let t = topo(
            &BJ_NY.replace(r#""dst": "New York""#, r#""dst": "New York", "access": {"rate_mbps": 20, "delay_ms": 25}"#),
        );
        let c = build(&t, 5.0, 1, 10).unwrap();
        let r = c.net.moving.as_ref().unwrap().route_at_step(0).clone();
        assert_eq!(&r.nodes[..2], &[0, 2]);
        assert_eq!(&r.nodes[r.nodes.len() - 2..], &[3, 1]);
        assert_eq!(c.access_links, 4);
        assert_eq!(c.net.links[0].cfg.delay, SimDuration::from_millis(25));
    }

    #[test]
    fn a_cancelled_route_precomputation_stops_at_the_next_step() {
        // A day at 1 s steps would take tens of seconds; the cancel check stops it at step 3.
        let asked = std::cell::Cell::new(0);
        let cancel = || {
            asked.set(asked.get() + 1);
            asked.get() > 3
        };
        assert!(build_until(&topo(BJ_NY), 86_400.0, 1, 10, &cancel, &mut RouteMemo::default()).unwrap().is_none());
        assert_eq!(asked.get(), 4, "asked before each step, and no step after the answer");
        let run_sc = crate::scenario::parse(&format!(
            r#"{{"version":1,"name":"c","duration_s":86400,"topology":{},
            "flows":[{{"transport":"tcp","cc":"reno","bytes":1000}}]}}"#,
            BJ_NY.replacen('{', r#"{"kind": "constellation", "#, 1)
        ))
        .unwrap();
        let e = crate::runner::Session::new_until(&run_sc, 1, &|| true).err().expect("cancelled");
        assert_eq!(e, super::super::RunError::Interrupted);
    }
}
