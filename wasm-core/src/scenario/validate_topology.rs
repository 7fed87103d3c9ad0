//! Range checks of the network: a chain's links, or a constellation (including whatever
//! building it finds wrong: TLE lines, cities, Walker parameters).

use super::problems::{nanos, Problems};
use super::*;
use crate::number_text::Num;
use crate::orbit::links::{Capacity, Loss};
use crate::orbit::OrbitError;

/// Range problems of a chain's links.
pub(super) fn chain_problems(links: &[LinkSpec], p: &mut Problems) {
    p.check(!links.is_empty(), || "topology.links".into(), || "needs at least one link".into());
    p.check(
        links.len() <= MAX_CHAIN_LINKS,
        || "topology.links".into(),
        || {
            format!(
                "has {} links; at most {MAX_CHAIN_LINKS} are supported (the routing table grows with the square of \
                 the nodes): use fewer links",
                links.len()
            )
        },
    );
    for (i, l) in links.iter().enumerate() {
        let at = |f: &str| format!("topology.links[{i}].{f}");
        p.rate(l.rate_mbps, || at("rate_mbps"));
        if let Some(r) = l.reverse_rate_mbps {
            p.rate(r, || at("reverse_rate_mbps"));
        }
        p.delay_ms(l.delay_ms, || at("delay_ms"));
        p.delay_ms(l.jitter_ms, || at("jitter_ms"));
        if let Some(b) = l.buffer_pkts {
            p.check(b >= 1, || at("buffer_pkts"), || "must be at least 1 packet".into());
        }
        if let Some(b) = l.buffer_bytes {
            p.check(b >= 64, || at("buffer_bytes"), || "must be at least 64 bytes".into());
        }
        p.check(
            l.buffer_pkts.is_none() || l.buffer_bytes.is_none(),
            || at("buffer_bytes"),
            || "give buffer_pkts or buffer_bytes, not both".into(),
        );
        for (name, loss) in [("loss", &l.loss), ("reverse_loss", &l.reverse_loss)] {
            match loss {
                Some(LossSpec::Bernoulli { p: prob }) => p.probability(*prob, || at(&format!("{name}.p"))),
                Some(LossSpec::GilbertElliott { p_good_to_bad, p_bad_to_good, loss_good, loss_bad }) => {
                    p.probability(*p_good_to_bad, || at(&format!("{name}.p_good_to_bad")));
                    p.probability(*p_bad_to_good, || at(&format!("{name}.p_bad_to_good")));
                    p.probability(*loss_good, || at(&format!("{name}.loss_good")));
                    p.probability(*loss_bad, || at(&format!("{name}.loss_bad")));
                }
                _ => {}
            }
        }
        match &l.rate_schedule {
            Some(RateScheduleSpec::Steps(steps)) => {
                p.check(!steps.is_empty(), || at("rate_schedule"), || "needs at least one step".into());
                for (k, s) in steps.iter().enumerate() {
                    p.time_s(s.at_s, false, || at(&format!("rate_schedule[{k}].at_s")));
                    p.rate(s.rate_mbps, || at(&format!("rate_schedule[{k}].rate_mbps")));
                    if k > 0 {
                        p.check(
                            s.at_s > steps[k - 1].at_s,
                            || at(&format!("rate_schedule[{k}].at_s")),
                            || "steps must be in increasing time order".into(),
                        );
                    }
                }
            }
            Some(RateScheduleSpec::Square { square }) => {
                p.rate(square.low_mbps, || at("rate_schedule.square.low_mbps"));
                p.rate(square.high_mbps, || at("rate_schedule.square.high_mbps"));
                p.time_s(square.period_s, true, || at("rate_schedule.square.period_s"));
            }
            None => {}
        }
        match &l.outages {
            Some(OutagesSpec::List(list)) => {
                for (k, o) in list.iter().enumerate() {
                    p.time_s(o.start_s, false, || at(&format!("outages[{k}].start_s")));
                    p.time_s(o.duration_s, true, || at(&format!("outages[{k}].duration_s")));
                }
            }
            Some(OutagesSpec::Periodic(o)) => {
                p.time_s(o.every_s, true, || at("outages.every_s"));
                p.time_s(o.duration_s, true, || at("outages.duration_s"));
                p.check(
                    o.duration_s < o.every_s,
                    || at("outages.duration_s"),
                    || format!("must be shorter than every_s ({})", Num(o.every_s)),
                );
                // Simulated time counts whole nanoseconds: a period that rounds to 0 would switch
                // the outages off, and one that rounds to its duration would leave the link down.
                let (every_ns, duration_ns) = (nanos(o.every_s), nanos(o.duration_s));
                let in_range = |v: f64| v.is_finite() && v > 0.0;
                if in_range(o.every_s) && in_range(o.duration_s) && o.duration_s < o.every_s {
                    p.check(
                        every_ns >= 2,
                        || at("outages.every_s"),
                        || {
                            format!(
                                "must be at least 2e-9 s: simulated time counts whole nanoseconds (got {})",
                                Num(o.every_s)
                            )
                        },
                    );
                    p.check(
                        every_ns < 2 || (1..every_ns).contains(&duration_ns),
                        || at("outages.duration_s"),
                        || {
                            format!(
                            "rounds to {duration_ns} ns against every_s's {every_ns} ns: simulated time counts whole \
                             nanoseconds, and an outage must last at least 1 ns and less than every_s"
                        )
                        },
                    );
                }
                if let Some(f) = o.first_s {
                    p.time_s(f, false, || at("outages.first_s"));
                }
            }
            None => {}
        }
    }
}

/// Range problems of a constellation topology, then whatever building it finds (bad TLE lines,
/// unknown cities, Walker parameters), each under its `topology.` path.
pub(super) fn constellation_problems(c: &ConstellationTopology, duration_s: f64, max_steps: f64, p: &mut Problems) {
    let at = |f: &str| format!("topology.{f}");
    // The router needs the mask below the zenith (RouteConfig::check, which build() runs too).
    p.check(
        (0.0..90.0).contains(&c.min_elevation_deg),
        || at("min_elevation_deg"),
        || format!("must be at least 0° and below 90° (got {})", Num(c.min_elevation_deg)),
    );
    p.between(c.step_s, 0.01, 3600.0, || at("step_s"));
    if c.step_s > 0.0 && duration_s <= MAX_DURATION_S {
        let steps = duration_s / c.step_s;
        p.check(
            steps <= max_steps,
            || at("step_s"),
            || format!("gives {steps:.0} routing steps over duration_s; at most {max_steps} (make the step longer)"),
        );
    }
    p.non_negative(c.start_s, || at("start_s"));
    p.time_s(c.handover_outage_s, false, || at("handover_outage_s"));
    if let Some(m) = c.max_isl_km {
        p.positive(m, || at("max_isl_km"));
    }
    if let Some(span) = c.constellation.max_epoch_span_days {
        p.between(span, 0.0, 36_525.0, || at("constellation.max_epoch_span_days"));
    }
    p.check(c.buffer_pkts >= 1, || at("buffer_pkts"), || "must be at least 1 packet".into());
    if let Some(a) = &c.access {
        p.rate(a.rate_mbps, || at("access.rate_mbps"));
        p.delay_ms(a.delay_ms, || at("access.delay_ms"));
        p.probability(a.loss, || at("access.loss"));
    }
    if let Some(m) = &c.links {
        for (name, t) in [("gsl", &m.gsl), ("isl", &m.isl)] {
            let at = |f: &str| format!("topology.links.{name}.{f}");
            match &t.capacity {
                Capacity::FixedMbps(r) => p.rate(*r, || at("capacity.fixed_mbps")),
                Capacity::Budget(b) => {
                    p.positive(b.frequency_ghz, || at("capacity.budget.frequency_ghz"));
                    p.positive(b.bandwidth_mhz, || at("capacity.budget.bandwidth_mhz"));
                    p.between(b.efficiency, 0.01, 1.0, || at("capacity.budget.efficiency"));
                    for (f, v) in [("eirp_dbw", b.eirp_dbw), ("g_over_t_db_k", b.g_over_t_db_k)] {
                        p.check(v.is_finite(), || at(&format!("capacity.budget.{f}")), || "must be a number".into());
                    }
                    p.non_negative(b.other_losses_db, || at("capacity.budget.other_losses_db"));
                }
            }
            match &t.loss {
                Loss::Fixed(v) => p.probability(*v, || at("loss.fixed")),
                Loss::Elevation { at_min_elevation, at_zenith } => {
                    p.probability(*at_min_elevation, || at("loss.elevation.at_min_elevation"));
                    p.probability(*at_zenith, || at("loss.elevation.at_zenith"));
                }
            }
        }
    }
    if let Some(r) = c.gsl_max_range_km {
        p.positive(r, || at("gsl_max_range_km"));
    }
    if let Some(g) = &c.gateways {
        p.check(!g.stations.is_empty(), || at("gateways.stations"), || "must name at least one gateway".into());
        p.between(g.route_factor, 1.0, 10.0, || at("gateways.route_factor"));
        p.rate(g.rate_mbps, || at("gateways.rate_mbps"));
    }
    if let Some(s) = c.attachment.scheduler() {
        p.between(s.period_s, 0.1, 86_400.0, || at("attachment.scheduler.period_s"));
        p.check(
            s.offset_s.is_finite() && s.offset_s >= 0.0 && s.offset_s < s.period_s,
            || at("attachment.scheduler.offset_s"),
            || format!("must be at least 0 and below the period, {} s (got {})", Num(s.period_s), Num(s.offset_s)),
        );
        p.check(
            s.reassign_gap_ms.is_finite() && s.reassign_gap_ms >= 0.0 && s.reassign_gap_ms < s.period_s * 1e3,
            || at("attachment.scheduler.reassign_gap_ms"),
            || format!("must be at least 0 ms and shorter than a slot (got {})", Num(s.reassign_gap_ms)),
        );
    }
    // Names resolve against the scenario's own stations first (Hypatia's ground_stations.txt).
    let table = match c.ground_stations.as_ref().map(|t| t.stations()) {
        Some(Ok(t)) => t,
        Some(Err(e)) => {
            p.0.push(topology_error(e));
            Vec::new()
        }
        None => Vec::new(),
    };
    let mut places: Vec<(String, &crate::orbit::config::Place)> = vec![("src".into(), &c.src), ("dst".into(), &c.dst)];
    if let Some(g) = &c.gateways {
        places.extend(g.stations.iter().enumerate().map(|(i, s)| (format!("gateways.stations[{i}]"), s)));
        places.push(("gateways.pop".into(), &g.pop));
    }
    if let Some(r) = &c.relays {
        places.extend(r.iter().enumerate().map(|(i, s)| (format!("relays[{i}]"), s)));
    }
    for (name, place) in places {
        if let Err(e) = place.resolve_in(&table) {
            p.push(format!("topology.{name}"), e.to_string().trim_start_matches("ground station "));
        }
    }
    if !p.0.is_empty() {
        return;
    }
    #[cfg(feature = "orbits")]
    if let Err(e) = c.build(duration_s) {
        p.0.push(topology_error(e));
    }
    // Element sets and routes are checked by building them, which needs the orbit code.
    #[cfg(not(feature = "orbits"))]
    p.push("topology".to_string(), NO_ORBIT_CODE);
}

/// Why a build without the `orbits` feature refuses a constellation scenario.
pub const NO_ORBIT_CODE: &str = "this build has no orbit code: a constellation scenario needs the orbit module \
     (orbitcp-core's \"orbits\" feature; the web app loads it for constellation scenarios)";

/// Whether a scenario (JSON text) needs the orbit code: its topology is a constellation, or its
/// sweep sets `topology` or `topology.kind` to one. The web app asks the first-load module this
/// to know when to load the orbit module; text that is not JSON needs no orbits to be refused.
pub fn needs_orbit_code(json: &str) -> bool {
    let Ok(v) = super::strict_json::parse_json(json) else {
        return false;
    };
    let is_constellation = |t: &serde_json::Value| t.get("kind").and_then(|k| k.as_str()) == Some("constellation");
    let swept = |values: &serde_json::Value, hit: &dyn Fn(&serde_json::Value) -> bool| {
        values.as_array().is_some_and(|a| a.iter().any(hit))
    };
    is_constellation(&v["topology"])
        || v["sweep"]["grid"].as_object().is_some_and(|grid| {
            grid.iter().any(|(path, values)| match path.as_str() {
                "topology" => swept(values, &is_constellation),
                "topology.kind" => swept(values, &|k| k.as_str() == Some("constellation")),
                _ => false,
            })
        })
}

/// A constellation that could not be built, as a problem of the scenario field at fault.
pub fn topology_error(e: OrbitError) -> FieldError {
    match e {
        OrbitError::Tle { line, problem } => {
            FieldError::new("topology.constellation.tle", format!("line {line}: {problem}"))
        }
        OrbitError::Omm { index, name, problem } if name.is_empty() => {
            FieldError::new(format!("topology.constellation.omm[{index}]"), problem)
        }
        OrbitError::Omm { index, name, problem } => {
            FieldError::new(format!("topology.constellation.omm[{index}]"), format!("({name}) {problem}"))
        }
        OrbitError::Sgp4 { index, name, problem } => {
            FieldError::new("topology.constellation", format!("element set {index} ({name}): SGP4: {problem}"))
        }
        OrbitError::Walker { field, problem } => {
            FieldError::new(format!("topology.constellation.walker{}", crate::orbit::below(&field)), problem)
        }
        OrbitError::Geo(problem) => FieldError::new("topology.constellation.geo_longitudes_deg", problem),
        OrbitError::Ground(problem) => FieldError::new("topology.relays", problem),
        OrbitError::Config { field, problem } => FieldError::new(format!("topology.{field}"), problem),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHAIN: &str = r#"{"kind": "chain", "links": [{"rate_mbps": 10, "delay_ms": 10}]}"#;
    const LEO: &str = r#"{"kind": "constellation", "constellation": {"walker": {"altitude_km": 550,
        "inclination_deg": 53, "planes": 4, "sats_per_plane": 4}}, "src": "Beijing", "dst": "New York"}"#;

    fn scenario(topology: &str, sweep: &str) -> String {
        format!(r#"{{"version": 1, "name": "t", "duration_s": 5, "topology": {topology}, "flows": []{sweep}}}"#)
    }

    #[test]
    fn only_a_constellation_or_a_sweep_to_one_needs_the_orbit_code() {
        assert!(!needs_orbit_code(&scenario(CHAIN, "")));
        assert!(needs_orbit_code(&scenario(LEO, "")));
        let sweep = |grid: &str| scenario(CHAIN, &format!(r#", "sweep": {{"grid": {grid}}}"#));
        assert!(needs_orbit_code(&sweep(&format!(r#"{{"topology": [{CHAIN}, {LEO}]}}"#))));
        assert!(needs_orbit_code(&sweep(r#"{"topology.kind": ["chain", "constellation"]}"#)));
        assert!(!needs_orbit_code(&sweep(&format!(r#"{{"topology": [{CHAIN}]}}"#))));
        assert!(!needs_orbit_code(&sweep(r#"{"topology.links[0].delay_ms": [1, 2]}"#)));
        // Not JSON: the first-load build refuses it as well as the orbit build would.
        assert!(!needs_orbit_code("{\"topology\": {\"kind\": \"constellation\""));
    }

    #[test]
    fn this_build_builds_a_constellation_when_checking_it() {
        // With the orbit code a bad element set is found by building; without it, the one
        // problem is that the build cannot.
        let bad_tle = LEO.replace(
            r#""walker": {"altitude_km": 550,
        "inclination_deg": 53, "planes": 4, "sats_per_plane": 4}"#,
            r#""tle": "not a TLE""#,
        );
        let Topology::Constellation(c) = serde_json::from_str::<Topology>(&bad_tle).unwrap() else {
            unreachable!("a constellation topology")
        };
        let mut p = Problems(Vec::new());
        constellation_problems(&c, 5.0, MAX_ROUTE_STEPS, &mut p);
        let paths: Vec<&str> = p.0.iter().map(|e| e.path.as_str()).collect();
        if cfg!(feature = "orbits") {
            assert_eq!(paths, ["topology.constellation.tle"], "{:?}", p.0);
        } else {
            assert_eq!(paths, ["topology"]);
            assert_eq!(p.0[0].message, NO_ORBIT_CODE);
        }
    }

    #[test]
    fn a_delay_longer_than_a_week_is_refused() {
        use crate::scenario::tests::with;
        let e = with("topology.links[0].delay_ms", 1e300.into()).unwrap_err();
        assert_eq!(e, "topology.links[0].delay_ms: must be at most 604800000 ms, a week, the longest run (got 1e300)");
        let e = with("topology.links[0].jitter_ms", 604_800_001.into()).unwrap_err();
        assert!(e.starts_with("topology.links[0].jitter_ms: must be at most 604800000 ms"), "{e}");
        assert!(with("topology.links[0].delay_ms", 604_800_000.into()).is_ok());
        let e =
            with("topology.links[0].outages", serde_json::json!([{"start_s": 1, "duration_s": 1e300}])).unwrap_err();
        assert_eq!(
            e,
            "topology.links[0].outages[0].duration_s: must be at most 604800 s, a week, the longest run (got 1e300)"
        );
        let e =
            with("topology.links[0].rate_schedule", serde_json::json!([{"at_s": 1e12, "rate_mbps": 1}])).unwrap_err();
        assert!(e.starts_with("topology.links[0].rate_schedule[0].at_s: must be at most 604800 s"), "{e}");
        let leo: serde_json::Value = serde_json::from_str(&scenario(LEO, "")).unwrap();
        let mut leo = leo;
        leo["topology"]["access"] = serde_json::json!({"rate_mbps": 10, "delay_ms": 1e10});
        leo["topology"]["handover_outage_s"] = 1e9.into();
        let e = from_value(leo).unwrap_err().to_string();
        assert!(e.contains("topology.access.delay_ms: must be at most 604800000 ms"), "{e}");
        assert!(e.contains("topology.handover_outage_s: must be at most 604800 s"), "{e}");
    }
}
