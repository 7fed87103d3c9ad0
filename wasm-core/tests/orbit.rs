//! Constellation properties (docs/models.md §6 item 13): ISL counts and lengths, +Grid seam
//! handling, visibility, and path-timeline behaviour (handovers, policies, bent pipe).

use orbitcp_core::orbit::geometry::{self, C_KM_S};
use orbitcp_core::orbit::{
    config::ConstellationTopology, ground, path_timeline, Attachment, Capacity, Constellation, EventKind, IslMode,
    LinkBudget, Node, RouteConfig, Router, WalkerShell,
};

fn shell(s: WalkerShell) -> Constellation {
    let mut c = Constellation::default();
    c.add_walker(&s).unwrap();
    c
}

fn bj_ny() -> (ground::GroundStation, ground::GroundStation) {
    (ground::city("Beijing").unwrap(), ground::city("New York").unwrap())
}

#[test]
fn every_satellite_of_a_full_walker_shell_has_four_isls() {
    let c = shell(WalkerShell::starlink_shell1());
    let (a, b) = bj_ny();
    let r = Router::new(&c, a, b, RouteConfig::default()).unwrap();
    for i in 0..c.sats.len() {
        let nb = r.isl_neighbours(i);
        assert_eq!(nb.len(), 4, "sat {i}");
        for j in nb {
            assert!(r.isl_neighbours(j as usize).contains(&(i as u32)), "ISL {i}–{j} is not symmetric");
        }
    }
}

#[test]
fn without_the_seam_the_edge_planes_have_three_isls() {
    let c = shell(WalkerShell::intcp_1600());
    let (a, b) = bj_ny();
    let cfg = RouteConfig { isl: IslMode::PlusGrid { max_length_km: None, seam: false }, ..RouteConfig::default() };
    let r = Router::new(&c, a, b, cfg).unwrap();
    let s = 50;
    assert_eq!(r.isl_neighbours(0).len(), 3);
    assert_eq!(r.isl_neighbours(31 * s + 7).len(), 3);
    assert_eq!(r.isl_neighbours(5 * s + 7).len(), 4);
}

#[test]
fn seam_links_are_as_short_as_other_cross_plane_links() {
    // With F = 1 the seam neighbour of (P−1, s) is (0, s+1); its length stays near the
    // equatorial cross-plane chord 2a·sin(π/P) (1476 km for P = 32 at 1150 km, docs/links-and-orbits.md §8).
    let c = shell(WalkerShell::intcp_1600());
    let (a, b) = bj_ny();
    let r = Router::new(&c, a, b, RouteConfig::default()).unwrap();
    let pos = |i: usize| c.sats[i].orbit.position(0.0).unwrap();
    let s = 50;
    let mut longest: f64 = 0.0;
    for slot in 0..s {
        let i = 31 * s + slot;
        for j in r.isl_neighbours(i) {
            longest = longest.max(geometry::distance_km(pos(i), pos(j as usize)));
        }
    }
    assert!(longest < 1500.0, "longest seam-plane ISL {longest} km");
}

#[test]
fn isls_longer_than_the_maximum_are_not_used() {
    let c = shell(WalkerShell::intcp_1600());
    let (a, b) = bj_ny();
    let cfg =
        RouteConfig { isl: IslMode::PlusGrid { max_length_km: Some(1000.0), seam: true }, ..RouteConfig::default() };
    let t = path_timeline(&c, a.clone(), b.clone(), cfg, 0.0, 60.0).unwrap();
    for s in &t.steps {
        for h in &s.hops {
            if let (Node::Sat(_), Node::Sat(_)) = (h.from, h.to) {
                assert!(h.distance_km <= 1000.0);
            }
        }
    }
    // With only in-plane links (945 km) usable, cross-plane hops (≈ 1476 km) vanish.
    let cfg =
        RouteConfig { isl: IslMode::PlusGrid { max_length_km: Some(10.0), seam: true }, ..RouteConfig::default() };
    let t = path_timeline(&c, a, b, cfg, 0.0, 10.0).unwrap();
    assert!(t.steps.iter().all(|s| s.hops.is_empty()));
}

#[test]
fn every_hop_respects_the_mask_and_delay_is_distance_over_c() {
    let c = shell(WalkerShell::starlink_shell1());
    let (a, b) = bj_ny();
    let t = path_timeline(&c, a, b, RouteConfig::default(), 0.0, 300.0).unwrap();
    assert_eq!(t.steps.len(), 301);
    let mut with_path = 0;
    for s in &t.steps {
        if s.hops.is_empty() {
            continue;
        }
        with_path += 1;
        assert!(matches!(s.hops[0].from, Node::Ground(0)) && matches!(s.hops.last().unwrap().to, Node::Ground(1)));
        let first = &s.hops[0];
        assert!(first.elevation_deg.unwrap() >= 25.0 - 1e-9);
        assert!(first.distance_km <= geometry::slant_range_km(550.0, 25.0) + 1e-6);
        let owd: f64 = s.hops.iter().map(|h| h.distance_km / C_KM_S).sum();
        assert!((owd - s.owd_s).abs() < 1e-12);
        // Beijing–New York great circle ≈ 11 000 km ⇒ ≥ 36.7 ms; via ISLs well under 100 ms.
        assert!(s.owd_s > 0.0367 && s.owd_s < 0.1, "{}", s.owd_s);
        assert_eq!(s.bottleneck_mbps, 20.0);
    }
    assert!(with_path > 250, "Starlink shell 1 covers both cities nearly always ({with_path}/301)");
}

#[test]
fn stay_until_lost_hands_over_no_more_often_than_highest_elevation() {
    let c = shell(WalkerShell::starlink_shell1());
    let (a, b) = bj_ny();
    let count = |att| {
        let cfg = RouteConfig { attachment: att, ..RouteConfig::default() };
        let t = path_timeline(&c, a.clone(), b.clone(), cfg, 0.0, 1200.0).unwrap();
        t.events().filter(|(_, e)| matches!(e, EventKind::Handover { .. })).count()
    };
    let (hi, stay) = (count(Attachment::HighestElevation), count(Attachment::StayUntilLost));
    assert!(hi > 0 && stay > 0, "{hi} {stay}");
    assert!(stay <= hi, "stay-until-lost {stay} > highest-elevation {hi}");
}

#[test]
fn a_handover_outage_marks_the_following_steps() {
    let c = shell(WalkerShell::starlink_shell1());
    let (a, b) = bj_ny();
    let cfg = RouteConfig { handover_outage_s: 2.5, ..RouteConfig::default() };
    let t = path_timeline(&c, a, b, cfg, 0.0, 600.0).unwrap();
    let (th, _) = t.events().find(|(_, e)| matches!(e, EventKind::Handover { .. })).unwrap();
    let at = |x: f64| t.steps.iter().find(|s| s.t_s == x).unwrap().in_outage;
    assert!(at(th) && at(th + 1.0) && at(th + 2.0));
    assert!(!at(th - 1.0));
}

#[test]
fn bent_pipe_goes_through_ground_relays_only() {
    // London and Paris each attach to their highest satellite; a relay between them sees both.
    let c = shell(WalkerShell::starlink_shell1());
    let relays = vec![ground::city("Moscow").unwrap(), ground::GroundStation::new("Channel", 50.2, 1.1).unwrap()];
    let cfg = RouteConfig { isl: IslMode::None, relays, ..RouteConfig::default() };
    let t =
        path_timeline(&c, ground::city("London").unwrap(), ground::city("Paris").unwrap(), cfg, 0.0, 120.0).unwrap();
    let mut some = false;
    for s in &t.steps {
        for h in &s.hops {
            assert!(!matches!((h.from, h.to), (Node::Sat(_), Node::Sat(_))));
            some = true;
        }
    }
    assert!(some);
}

#[test]
fn a_link_budget_gives_gsl_capacity_by_distance() {
    let c = shell(WalkerShell::starlink_shell1());
    let (a, b) = bj_ny();
    let mut cfg = RouteConfig::default();
    cfg.links.gsl.capacity = Capacity::Budget(LinkBudget::ku_user_link());
    let t = path_timeline(&c, a, b, cfg, 0.0, 5.0).unwrap();
    let s = t.steps.iter().find(|s| !s.hops.is_empty()).unwrap();
    let first = &s.hops[0];
    assert!((first.capacity_mbps - LinkBudget::ku_user_link().capacity_mbps(first.distance_km)).abs() < 1e-9);
    assert!(first.capacity_mbps > 20.0);
    assert_eq!(s.bottleneck_mbps, 20.0, "the ISLs stay fixed at 20 Mbit/s");
}

#[test]
fn a_geo_satellite_serves_as_a_bent_pipe() {
    let mut c = Constellation::default();
    c.add_geo(100.0).unwrap();
    let cfg = RouteConfig { isl: IslMode::None, min_elevation_deg: 10.0, ..RouteConfig::default() };
    let t =
        path_timeline(&c, ground::city("Beijing").unwrap(), ground::city("Singapore").unwrap(), cfg, 0.0, 2.0).unwrap();
    let s = &t.steps[0];
    assert_eq!(s.hops.len(), 2);
    assert!(s.owd_s > 0.23 && s.owd_s < 0.28, "GEO one-way {}", s.owd_s);
    assert!(t.events().next().is_none());
}

#[test]
fn the_beijing_new_york_presets_route() {
    for f in ["leo-beijing-newyork-1600.json", "leo-beijing-newyork-starlink.json"] {
        let text = std::fs::read_to_string(format!("{}/../scenarios/{f}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let sc = orbitcp_core::scenario::parse(&text).unwrap();
        let orbitcp_core::scenario::Topology::Constellation(topo) = &sc.topology else { panic!("{f}") };
        let b = topo.build(20.0).unwrap();
        let t = path_timeline(&b.constellation, b.src, b.dst, b.cfg, 0.0, 20.0).unwrap();
        assert!(t.steps.iter().all(|s| !s.hops.is_empty()), "{f}");
    }
}

#[test]
fn topology_errors_name_the_field() {
    let sc = |topology: &str| {
        format!(
            r#"{{"version": 1, "name": "t", "duration_s": 1, "topology": {topology},
                "flows": [{{"transport": "tcp", "cc": "reno", "bytes": 1000}}]}}"#
        )
    };
    let walker =
        r#""constellation": {"walker": {"altitude_km": 550, "inclination_deg": 53, "planes": 4, "sats_per_plane": 4}}"#;
    let e = orbitcp_core::scenario::parse(&sc(&format!(
        r#"{{"kind": "constellation", {walker}, "src": "Beijing", "dst": "New York", "isl": "mesh"}}"#
    )))
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("topology.isl:"), "{e}");
    let e = orbitcp_core::scenario::parse(&sc(&format!(
        r#"{{"kind": "constellation", {walker}, "src": "Atlantis", "dst": "New York"}}"#
    )))
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("topology.src:") && e.contains("Atlantis") && e.contains("Beijing"), "{e}");
    let e = orbitcp_core::scenario::parse(&sc(&format!(
        r#"{{"kind": "constellation", {walker}, "src": "Beijing", "dst": "New York", "step_s": 0}}"#
    )))
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("topology.step_s:"), "{e}");
    let e = orbitcp_core::scenario::parse(&sc(
        r#"{"kind": "constellation", "constellation": {"walker": {"altitude_km": 550, "inclination_deg": 53, "planes": 0, "sats_per_plane": 4}}, "src": "Beijing", "dst": "New York"}"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("topology.constellation.walker.planes:"), "{e}");
    let e = orbitcp_core::scenario::parse(&sc(
        r#"{"kind": "constellation", "constellation": {"tle": "ISS\n1 25544U 98067A   24001.00000000  .00016717  00000-0  10270-3 0  9990\n2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391563537"}, "src": "Beijing", "dst": "New York"}"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("topology.constellation.tle: line 2:") && e.contains("checksum"), "{e}");
    let c = ConstellationTopology::parse(
        r#"{"constellation": {"tle_file": "x.tle"}, "src": "Beijing", "dst": "New York"}"#,
    )
    .unwrap();
    let e = c.build(1.0).err().unwrap().to_string();
    assert!(e.contains("tle_file") && e.contains("paste"), "{e}");
}

#[test]
fn the_timeline_is_deterministic() {
    let c = shell(WalkerShell::intcp_1600());
    let (a, b) = bj_ny();
    let t1 = path_timeline(&c, a.clone(), b.clone(), RouteConfig::default(), 0.0, 120.0).unwrap();
    let t2 = path_timeline(&c, a, b, RouteConfig::default(), 0.0, 120.0).unwrap();
    assert_eq!(t1, t2);
}

#[test]
fn a_multi_shell_constellation_routes_through_the_shell_that_serves_both_ends() {
    // Starlink's first generation: five shells with no links between them. Each ground station
    // attaches to one satellite per shell, so the path can enter any shell.
    let mut c = Constellation::default();
    for s in WalkerShell::starlink_gen1() {
        c.add_walker(&s).unwrap();
    }
    let (a, b) = bj_ny();
    let t = path_timeline(&c, a, b, RouteConfig::default(), 0.0, 120.0).unwrap();
    assert!(t.steps.iter().all(|s| !s.hops.is_empty()), "a path at every step");
    let shell_of = |i: u32| c.shells.iter().position(|g| (g.first..g.first + g.shell.total()).contains(&(i as usize)));
    for s in &t.steps {
        let sats: Vec<u32> = s
            .nodes()
            .into_iter()
            .filter_map(|n| match n {
                Node::Sat(i) => Some(i),
                Node::Ground(_) => None,
            })
            .collect();
        assert!(sats.iter().all(|&i| shell_of(i) == shell_of(sats[0])), "one shell per path");
    }
    // No worse than the best single shell alone.
    let mut shell1 = Constellation::default();
    shell1.add_walker(&WalkerShell::starlink_gen1()[0]).unwrap();
    let (a, b) = bj_ny();
    let t1 = path_timeline(&shell1, a, b, RouteConfig::default(), 0.0, 120.0).unwrap();
    for (m, o) in t.steps.iter().zip(&t1.steps) {
        assert!(m.owd_s <= o.owd_s + 1e-9, "{} > {}", m.owd_s, o.owd_s);
    }
}
