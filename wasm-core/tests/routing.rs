//! Routing as Hypatia and Starlink do it (docs/links-and-orbits.md §13-§14): reach by slant range,
//! shortest-path attachment, ISLs from a list or an element-set grid, Starlink's slot scheduler,
//! gateways and PoPs.

use orbitcp_core::orbit::geometry::{self, C_KM_S};
use orbitcp_core::orbit::params::{Earth, Scheduler, SlotRule};
use orbitcp_core::orbit::route::{Gateways, HandoverCause, FIBRE_KM_S};
use orbitcp_core::orbit::{
    ground, path_timeline, Attachment, Constellation, EventKind, IslMode, Node, RouteConfig, Router, WalkerShell,
};

fn starlink() -> Constellation {
    let mut c = Constellation::default();
    c.add_walker(&WalkerShell::starlink_shell1()).unwrap();
    c
}

fn city(name: &str) -> ground::GroundStation {
    ground::city(name).unwrap()
}

#[test]
fn shortest_path_attachment_is_never_slower_than_the_highest_satellite_and_sometimes_faster() {
    let c = starlink();
    let run = |attachment| {
        let cfg = RouteConfig { attachment, ..RouteConfig::default() };
        path_timeline(&c, city("Beijing"), city("New York"), cfg, 0.0, 300.0).unwrap()
    };
    let (hi, sp) = (run(Attachment::HighestElevation), run(Attachment::ShortestPath));
    let mut faster = 0;
    for (h, s) in hi.steps.iter().zip(&sp.steps) {
        // Any satellite in reach is a candidate, the highest among them: never a longer path.
        assert!(s.owd_s <= h.owd_s + 1e-12, "t {}: {} > {}", h.t_s, s.owd_s, h.owd_s);
        if s.owd_s < h.owd_s - 1e-6 {
            faster += 1;
        }
    }
    assert!(faster > 100, "shortest-path attachment was faster at only {faster} of 301 steps");
}

#[test]
fn a_range_limit_keeps_every_ground_link_within_it() {
    let c = starlink();
    // Hypatia's Starlink-550 cone: √(940.7² + 550²) = 1089.7 km.
    let cfg = RouteConfig {
        min_elevation_deg: 0.0,
        max_range_km: Some(1089.7),
        attachment: Attachment::ShortestPath,
        ..RouteConfig::default()
    };
    let t = path_timeline(&c, city("London"), city("Moscow"), cfg, 0.0, 120.0).unwrap();
    let mut routed = 0;
    for s in t.steps.iter().filter(|s| !s.hops.is_empty()) {
        routed += 1;
        for h in [&s.hops[0], s.hops.last().unwrap()] {
            assert!(h.distance_km <= 1089.7 + 1e-9, "{}", h.distance_km);
            // 1089.7 km from 550 km up is at least about 25° of elevation.
            assert!(h.elevation_deg.unwrap() > 24.0, "{:?}", h.elevation_deg);
        }
    }
    assert!(routed > 100, "{routed}");
}

#[test]
fn an_isl_list_of_the_grid_routes_as_the_grid_and_a_shorter_list_uses_only_its_links() {
    let c = starlink();
    let grid = Router::new(&c, city("Beijing"), city("New York"), RouteConfig::default()).unwrap();
    let mut pairs = Vec::new();
    for a in 0..c.sats.len() {
        for b in grid.isl_neighbours(a) {
            if (a as u32) < b {
                pairs.push([a as u32, b]);
            }
        }
    }
    assert_eq!(pairs.len(), 72 * 22 * 2);
    let run = |isl| {
        let cfg = RouteConfig { isl, ..RouteConfig::default() };
        path_timeline(&c, city("Beijing"), city("New York"), cfg, 0.0, 60.0).unwrap()
    };
    let as_grid = run(IslMode::PlusGrid { max_length_km: None, seam: true });
    // The grid's own limit (the 80-km-clearance chord) is above every +Grid link of this shell.
    let as_list = run(IslMode::List { pairs: pairs.clone(), max_length_km: None });
    for (g, l) in as_grid.steps.iter().zip(&as_list.steps) {
        assert_eq!(g.nodes(), l.nodes(), "t {}", g.t_s);
        assert_eq!(g.owd_s, l.owd_s);
    }
    // Without the cross-plane links, every ISL hop stays in its plane.
    let in_plane: Vec<[u32; 2]> = pairs.iter().copied().filter(|[a, b]| a / 22 == b / 22).collect();
    let t = run(IslMode::List { pairs: in_plane, max_length_km: None });
    for s in &t.steps {
        for h in &s.hops {
            if let (Node::Sat(a), Node::Sat(b)) = (h.from, h.to) {
                assert_eq!(a / 22, b / 22, "hop {a} → {b} leaves its plane");
            }
        }
    }
}

#[test]
fn isl_lists_with_unknown_satellites_or_self_links_are_refused_by_index() {
    let c = starlink();
    for (pairs, words) in [(vec![[0, 1], [5, 99_999]], "isls[1]"), (vec![[3, 3]], "isls[0]")] {
        let cfg = RouteConfig { isl: IslMode::List { pairs, max_length_km: None }, ..RouteConfig::default() };
        let e = Router::new(&c, city("Beijing"), city("New York"), cfg).err().unwrap().to_string();
        assert!(e.starts_with(&format!("constellation.{words}: ")), "{e}");
    }
}

fn scheduler(rule: SlotRule) -> Attachment {
    Attachment::Scheduler(Scheduler { period_s: 15.0, offset_s: 12.0, rule, reassign_gap_ms: 0.0 })
}

#[test]
fn with_the_scheduler_the_terminal_changes_satellite_only_at_slot_boundaries_or_when_it_loses_sight() {
    let c = starlink();
    for rule in [SlotRule::HighestElevation, SlotRule::ShortestPath] {
        let cfg = RouteConfig { attachment: scheduler(rule), ..RouteConfig::default() };
        let t = path_timeline(&c, city("London"), city("Paris"), cfg, 0.0, 900.0).unwrap();
        let (mut at_boundary, mut lost) = (0, 0);
        for s in &t.steps {
            // t = 0 is midnight UTC here: boundaries at 12, 27, 42 and 57 s past each minute.
            let on_boundary = (s.t_s - 12.0).rem_euclid(15.0) == 0.0;
            assert_eq!(s.slot_boundary, on_boundary && s.t_s > 0.0, "t {}", s.t_s);
            for e in &s.events {
                if let EventKind::Handover { cause, .. } = e {
                    match cause {
                        HandoverCause::SlotBoundary => {
                            assert!(on_boundary, "a slot handover at {} s", s.t_s);
                            at_boundary += 1;
                        }
                        HandoverCause::LostMidSlot => lost += 1,
                        HandoverCause::Step => panic!("an unscheduled handover at {} s", s.t_s),
                    }
                }
            }
        }
        // 60 boundaries in 900 s; a 25° mask keeps a satellite in reach for a few minutes, so a
        // terminal held for 15 s seldom loses it.
        assert!(at_boundary >= 20, "{rule:?}: {at_boundary} boundary handovers");
        assert!(lost * 5 < at_boundary, "{rule:?}: {lost} lost mid-slot, {at_boundary} at boundaries");
    }
}

#[test]
fn the_delay_steps_at_slot_boundaries_and_drifts_smoothly_between_them() {
    let c = starlink();
    let cfg = RouteConfig { attachment: scheduler(SlotRule::HighestElevation), step_s: 1.0, ..RouteConfig::default() };
    let t = path_timeline(&c, city("London"), city("Paris"), cfg, 0.0, 1800.0).unwrap();
    let (mut jump_at, mut n_at, mut jump_in, mut n_in) = (0.0, 0, 0.0, 0);
    for w in t.steps.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if a.hops.is_empty() || b.hops.is_empty() || b.events.iter().any(|e| matches!(e, EventKind::RouteChange)) {
            continue;
        }
        let d = (b.owd_s - a.owd_s).abs() * 1e3;
        if b.slot_boundary {
            jump_at += d;
            n_at += 1;
        } else if b.events.is_empty() {
            jump_in += d;
            n_in += 1;
        }
    }
    let (at, inside) = (jump_at / n_at as f64, jump_in / n_in as f64);
    assert!(at > 5.0 * inside, "mean |Δ one-way delay| at boundaries {at:.3} ms, inside slots {inside:.3} ms");
}

#[test]
fn a_reassignment_gap_marks_an_outage_after_each_change_of_satellite() {
    let c = starlink();
    let attachment = Attachment::Scheduler(Scheduler {
        period_s: 15.0,
        offset_s: 12.0,
        rule: SlotRule::HighestElevation,
        reassign_gap_ms: 1500.0,
    });
    let cfg = RouteConfig { attachment, step_s: 0.5, ..RouteConfig::default() };
    let t = path_timeline(&c, city("London"), city("Paris"), cfg, 0.0, 300.0).unwrap();
    let (i, _) = t
        .steps
        .iter()
        .enumerate()
        .find(|(_, s)| s.events.iter().any(|e| matches!(e, EventKind::Handover { outage_s, .. } if *outage_s == 1.5)))
        .expect("a handover with the gap");
    assert!(t.steps[i].in_outage && t.steps[i + 2].in_outage && !t.steps[i + 3].in_outage);
}

#[test]
fn a_gateway_path_goes_user_satellite_gateway_pop_server_with_fibre_delay() {
    let c = starlink();
    let gateways = Gateways {
        stations: vec![ground::GroundStation::new("Gateway A", 50.0, 8.0).unwrap(), city("London")],
        pop: ground::GroundStation::new("PoP", 50.11, 8.68).unwrap(),
        route_factor: 1.5,
        rate_mbps: 10_000.0,
    };
    let cfg = RouteConfig { isl: IslMode::None, gateways: Some(gateways), ..RouteConfig::default() };
    let user = ground::GroundStation::new("User", 50.63, 5.57).unwrap();
    let server = ground::GroundStation::new("Server", 50.12, 8.70).unwrap();
    let t = path_timeline(&c, user.clone(), server.clone(), cfg, 0.0, 120.0).unwrap();
    let mut routed = 0;
    for s in t.steps.iter().filter(|s| !s.hops.is_empty()) {
        routed += 1;
        let nodes = s.nodes();
        assert_eq!(nodes.len(), 5, "{nodes:?}");
        assert!(matches!(
            nodes[..],
            [Node::Ground(0), Node::Sat(_), Node::Ground(2 | 3), Node::Ground(4), Node::Ground(1)]
        ));
        // The fibre legs: great circle × 1.5 at 2/3 c.
        let last = s.hops.last().unwrap();
        let gc = 2.0
            * geometry::EARTH_RADIUS_KM
            * (((server.lat_deg - 50.11f64).to_radians() / 2.0).sin().powi(2)
                + 50.11f64.to_radians().cos()
                    * server.lat_deg.to_radians().cos()
                    * ((server.lon_deg - 8.68f64).to_radians() / 2.0).sin().powi(2))
            .sqrt()
            .asin();
        assert!((last.delay_s - gc * 1.5 / FIBRE_KM_S).abs() < 1e-12, "{} vs {}", last.delay_s, gc * 1.5 / FIBRE_KM_S);
        assert!(s.hops[2].delay_s > s.hops[2].distance_km / C_KM_S, "fibre is slower than light in vacuum");
        assert_eq!(s.bottleneck_mbps, 20.0);
    }
    assert!(routed > 100, "{routed}");
}

#[test]
fn on_the_wgs72_ellipsoid_elevation_is_measured_from_the_local_normal() {
    let c = starlink();
    let cfg = |earth| RouteConfig { earth, attachment: Attachment::ShortestPath, ..RouteConfig::default() };
    let sphere = path_timeline(&c, city("London"), city("Moscow"), cfg(Earth::Sphere), 0.0, 60.0).unwrap();
    let ellipsoid = path_timeline(&c, city("London"), city("Moscow"), cfg(Earth::Wgs72), 0.0, 60.0).unwrap();
    let mut differ = 0;
    for (s, e) in sphere.steps.iter().zip(&ellipsoid.steps) {
        for h in e.hops.iter().filter(|h| h.elevation_deg.is_some()) {
            assert!(h.elevation_deg.unwrap() >= 25.0 - 1e-9);
        }
        // Geodetic latitude places London and Moscow about 21 km from their spherical places.
        if (s.owd_s - e.owd_s).abs() > 1e-5 {
            differ += 1;
        }
    }
    assert!(differ > 30, "{differ}");
}

/// A TLE set line with a field of line 2 (columns `from..to`, 0-based) replaced and its checksum
/// redone.
fn edit_line2(line: &str, from: usize, to: usize, value: &str) -> String {
    use orbitcp_core::orbit::elements::tle_checksum;
    let mut l = line[..68].to_string();
    l.replace_range(from..to, &format!("{value:>width$}", width = to - from));
    let sum = tle_checksum(&l);
    format!("{l}{sum}")
}

#[test]
fn a_tle_file_of_two_shells_with_gaps_spares_and_a_raiser_gets_its_grid_inferred_and_reported() {
    use orbitcp_core::orbit::elements::{parse_iso_utc, walker_tle_text};
    let shell = |alt: f64, inc: f64, p: usize, s: usize| WalkerShell {
        altitude_km: alt,
        inclination_deg: inc,
        planes: p,
        sats_per_plane: s,
        phasing: 1,
        phase_diff: false,
        epoch_utc: None,
        propagator: orbitcp_core::orbit::walker::Propagator::Sgp4,
        mean_motion_rev_per_day: None,
    };
    let epoch = parse_iso_utc("2024-03-01T00:00:00Z").unwrap();
    let mut sets: Vec<[String; 3]> = Vec::new();
    for (k, sh) in [shell(550.0, 53.0, 12, 10), shell(1100.0, 70.0, 8, 9)].iter().enumerate() {
        let text = walker_tle_text(sh, epoch);
        let lines: Vec<&str> = text.lines().collect();
        for (i, c) in lines.chunks(3).enumerate() {
            sets.push([format!("S{k}-{i}"), c[1].to_string(), c[2].to_string()]);
        }
    }
    // Missing satellites in the first shell; a spare half a slot after satellite 5 (mean anomaly
    // in columns 43-51 of line 2) and a satellite 150 km low, still raising its orbit (mean motion
    // in columns 52-63).
    for gone in [7, 31, 32, 90] {
        sets[gone][0].clear();
    }
    let spare = ["SPARE".to_string(), sets[5][1].clone(), edit_line2(&sets[5][2], 43, 51, "198.0000")];
    let raiser = ["RAISING".to_string(), sets[40][1].clone(), edit_line2(&sets[40][2], 52, 63, "15.90000000")];
    let mut text = String::new();
    for s in sets.iter().filter(|s| !s[0].is_empty()).chain([&spare, &raiser]) {
        text.push_str(&format!("{}\n{}\n{}\n", s[0], s[1], s[2]));
    }
    let sc = serde_json::json!({"version": 1, "name": "infer", "duration_s": 10,
        "topology": {"kind": "constellation", "constellation": {"tle": text, "grid": "infer"},
            "src": "London", "dst": "Paris", "min_elevation_deg": 10},
        "flows": [{"transport": "tcp", "cc": "reno", "bytes": 1000}]});
    let sc = orbitcp_core::scenario::parse(&sc.to_string()).unwrap();
    let orbitcp_core::scenario::Topology::Constellation(t) = &sc.topology else { unreachable!("a constellation") };
    let b = t.build(sc.duration_s).unwrap();
    let report = b.grid_report.clone().unwrap();
    assert!(report.contains("12 planes × 10 slots") && report.contains("116 of 120 slots filled"), "{report}");
    assert!(report.contains("8 planes × 9 slots") && report.contains("72 of 72 slots filled"), "{report}");
    assert!(report.contains("left out: 2 of 190 satellites"), "{report}");
    assert!(report.contains("SPARE") && report.contains("RAISING"), "{report}");
    // Every satellite in a slot has ISLs; the spare and the raiser have none.
    let router = Router::new(&b.constellation, b.src.clone(), b.dst.clone(), b.cfg.clone()).unwrap();
    for (i, sat) in b.constellation.sats.iter().enumerate() {
        let n = router.isl_neighbours(i).len();
        if sat.name == "SPARE" || sat.name == "RAISING" {
            assert_eq!(n, 0, "{}", sat.name);
        } else {
            assert!(n >= 3, "{} has {n} ISLs", sat.name);
        }
    }
    // The run's result carries the report.
    let r = orbitcp_core::runner::run_scenario(&sc, 1, false).unwrap();
    assert_eq!(r.path.as_ref().unwrap().grid_report.as_deref(), Some(report.as_str()));
}
