//! The range checks of a scenario: every problem found, each naming its path.

use super::problems::{nanos, Problems};
use super::validate_topology::{chain_problems, constellation_problems};
use super::*;
use crate::number_text::Num;

impl Scenario {
    /// Every range problem, each naming its path.
    pub fn problems(&self) -> Vec<FieldError> {
        self.problems_within(MAX_ROUTE_STEPS)
    }

    /// [`Self::problems`] with another limit on a constellation's routing steps: a run keeps
    /// per-step link samples and is held to [`MAX_ROUTE_STEPS`]; a path timeline alone (`orbitcp
    /// route`) streams its steps and may have up to [`MAX_TIMELINE_STEPS`].
    pub fn problems_within(&self, max_route_steps: f64) -> Vec<FieldError> {
        let mut p = Problems(Vec::new());
        p.check(
            self.version == FORMAT_VERSION,
            || "version".into(),
            || format!("must be {FORMAT_VERSION} (got {})", self.version),
        );
        p.check(
            self.duration_s.is_finite() && self.duration_s > 0.0 && self.duration_s <= MAX_DURATION_S,
            || "duration_s".into(),
            || format!("must be more than 0 and at most {MAX_DURATION_S} seconds (got {})", Num(self.duration_s)),
        );
        let (last_node, nodes) = match &self.topology {
            Topology::Chain(Chain { links, place }) => {
                chain_problems(links, &mut p);
                if let Some(pl) = place {
                    p.between(pl.geo_longitude_deg, -180.0, 360.0, || "topology.place.geo_longitude_deg".into());
                    for (i, g) in pl.ground.iter().enumerate() {
                        if let Err(e) = g.resolve() {
                            p.push(
                                format!("topology.place.ground[{i}]"),
                                e.to_string().trim_start_matches("ground station "),
                            );
                        }
                    }
                }
                (links.len() as u32, format!("the chain has nodes 0 to {}", links.len()))
            }
            Topology::Constellation(c) => {
                constellation_problems(c, self.duration_s, max_route_steps, &mut p);
                (1, "node 0 is src and node 1 is dst".to_string())
            }
        };
        p.check(!self.flows.is_empty(), || "flows".into(), || "needs at least one flow".into());
        let claims = self.paper.as_ref().map_or(&[][..], |paper| &paper.claims[..]);
        for (i, check) in claims.iter().enumerate().filter_map(|(i, c)| Some((i, c.check.as_ref()?))) {
            if let Some((field, message)) = check.problem() {
                let path = format!("paper.claims[{i}].check");
                p.push(if field == "check" { path } else { format!("{path}.{field}") }, message);
            }
        }
        for (i, f) in self.flows.iter().enumerate() {
            let at = |f: &str| format!("flows[{i}].{f}");
            if let Some(b) = f.bytes() {
                p.check(b > 0, || at("bytes"), || "must be more than 0 (or null for an unlimited transfer)".into());
            }
            let start = f.start_s();
            p.check(
                start.is_finite() && start >= 0.0 && start < self.duration_s,
                || at("start_s"),
                || format!("must be between 0 and duration_s ({}) (got {})", Num(self.duration_s), Num(start)),
            );
            let (from, to) = f.nodes();
            let (from, to) = (from.unwrap_or(0), to.unwrap_or(last_node));
            p.check(from <= last_node, || at("from_node"), || format!("no such node ({nodes})"));
            p.check(to <= last_node, || at("to_node"), || format!("no such node ({nodes})"));
            p.check(from != to, || at("to_node"), || "must differ from from_node".into());
            let t = match f {
                Flow::Tcp(t) => t,
                Flow::Ctcp(c) => {
                    c.problems(&mut p, &at);
                    continue;
                }
                Flow::Arq(a) => {
                    a.problems(&mut p, &at);
                    continue;
                }
                Flow::Intcp(c) => {
                    // The run looks caches up by the node's number written out ("1"): any other
                    // spelling ("01", "+1") would be silently ignored.
                    let (lo, hi) = (from.min(to), from.max(to));
                    for node in c.node_cache_bytes.keys() {
                        let path = || at(&format!("node_cache_bytes.{node}"));
                        match node.parse::<u32>() {
                            Ok(n) if n.to_string() != *node => p.check(false, path, || {
                                format!("write the node number as \"{n}\" (the key must be a plain node number)")
                            }),
                            Ok(n) if n > last_node => p.check(false, path, || format!("no such node ({nodes})")),
                            Ok(n) => p.check((lo..=hi).contains(&n), path, || {
                                format!("node {n} is not on the flow's path (nodes {lo} to {hi})")
                            }),
                            Err(_) => p.check(false, path, || format!("is not a node number ({nodes})")),
                        }
                    }
                    if matches!(self.topology, Topology::Constellation(_)) {
                        p.check(
                            c.hop_cc.is_empty(),
                            || at("hop_cc"),
                            || "a constellation's hops change with the route; hop_cc needs a chain".into(),
                        );
                    }
                    c.problems(&mut p, &at, if c.hop_cc.is_empty() { 0 } else { from.abs_diff(to) });
                    continue;
                }
            };
            t.problems(&mut p, &at);
        }
        if let Some(s) = &self.sweep {
            p.check(!s.grid.is_empty(), || "sweep.grid".into(), || "needs at least one path to vary".into());
            for (path, values) in &s.grid {
                let ok = values.as_array().is_some_and(|a| !a.is_empty());
                p.check(ok, || format!("sweep.grid.\"{path}\""), || "must be a non-empty list of values".into());
            }
            for (path, problem) in s.path_problems() {
                p.push(path, problem);
            }
            p.count_between(s.runs, 1, 10_000, "", || "sweep.runs".into());
            let lens: Vec<u64> = s.grid.values().map(|v| v.as_array().map_or(1, |a| a.len() as u64)).collect();
            let total = lens.iter().try_fold(s.runs as u64, |acc, &n| acc.checked_mul(n));
            p.check(
                total.is_some_and(|t| t <= MAX_SWEEP_RUNS),
                || "sweep.grid".into(),
                || {
                    let sizes = lens.iter().map(u64::to_string).collect::<Vec<_>>().join(" × ");
                    let runs = if s.runs == 1 { "1 run".to_string() } else { format!("{} runs", s.runs) };
                    let product = match total {
                        Some(t) => t.to_string(),
                        None => format!("{:.3e}", lens.iter().map(|&n| n as f64).product::<f64>() * s.runs as f64),
                    };
                    format!(
                        "{sizes} values × {runs} per point = {product} runs; at most {MAX_SWEEP_RUNS} are \
                         supported (vary fewer paths, give them fewer values, or lower sweep.runs)"
                    )
                },
            );
        }
        p.check(self.max_events >= 1, || "max_events".into(), || "must be at least 1".into());
        p.count_between(self.trace.max_points, 2, MAX_TRACE_POINTS, "", || "trace.max_points".into());
        p.non_negative(self.trace.interval_s, || "trace.interval_s".into());
        p.positive(self.trace.goodput_interval_s, || "trace.goodput_interval_s".into());
        if self.trace.goodput_interval_s > 0.0 && self.duration_s > 0.0 && self.duration_s <= MAX_DURATION_S {
            // Bins of whole nanoseconds, one per interval from time 0 to the end.
            let bins = nanos(self.duration_s) / nanos(self.trace.goodput_interval_s).max(1);
            p.check(
                bins <= MAX_GOODPUT_BINS,
                || "trace.goodput_interval_s".into(),
                || {
                    format!(
                        "gives {bins} goodput bins over duration_s; at most {MAX_GOODPUT_BINS} are supported \
                         (make the interval at least {} s)",
                        Num(self.duration_s / MAX_GOODPUT_BINS as f64)
                    )
                },
            );
        }
        self.memory_problems(&mut p);
        p.0
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::tests::{with, MINIMAL};
    use crate::scenario::*;
    use serde_json::Value;

    #[test]
    fn a_probability_above_one_is_rejected_with_its_path() {
        let e = with("topology.links[0].loss", serde_json::json!({"model":"bernoulli","p":1.5})).unwrap_err();
        assert_eq!(e, "topology.links[0].loss.p: must be a probability between 0 and 1 (got 1.5)");
    }

    #[test]
    fn a_paper_claims_check_needs_one_bound_and_its_measures_parameter() {
        let claim = |check: Value| {
            with("paper", serde_json::json!({"source":"s","claims":[{"chart":"delay","text":"t","check":check}]}))
        };
        assert!(claim(serde_json::json!({"measure":"owd_quantile_ms","q":0.8,"at_most":180})).is_ok());
        assert!(claim(serde_json::json!({"measure":"goodput_over_tcp","about":2,"tolerance":0.25})).is_ok());
        let e = claim(serde_json::json!({"measure":"owd_quantile_ms","at_most":180})).unwrap_err();
        assert_eq!(e, "paper.claims[0].check.q: is needed by the measure owd_quantile_ms");
        let e = claim(serde_json::json!({"measure":"owd_quantile_ms","q":1.5,"at_most":180})).unwrap_err();
        assert_eq!(e, "paper.claims[0].check.q: must be a quantile in (0, 1], not 1.5");
        let e =
            claim(serde_json::json!({"measure":"owd_mean_over_propagation","at_most":1.1,"at_least":1.0})).unwrap_err();
        assert_eq!(e, "paper.claims[0].check: needs exactly one of at_most, at_least and about");
        let e = claim(serde_json::json!({"measure":"owd_mean_over_propagation","about":1.1})).unwrap_err();
        assert_eq!(e, "paper.claims[0].check.tolerance: goes with about, and about needs it");
        let e = claim(serde_json::json!({"measure":"goodput_at_mbps","at_most":0.1})).unwrap_err();
        assert_eq!(e, "paper.claims[0].check.at_s: is needed by the measure goodput_at_mbps");
        let e = claim(serde_json::json!({"measure":"jitter_share_below","at_least":0.9,"threshold":100})).unwrap_err();
        assert!(e.contains("threshold"), "{e}");
    }

    #[test]
    fn an_empty_sweep_grid_is_rejected() {
        let e = with("sweep", serde_json::json!({"grid":{}})).unwrap_err();
        assert_eq!(e, "sweep.grid: needs at least one path to vary");
    }

    #[test]
    fn a_periodic_outage_period_that_rounds_to_zero_nanoseconds_is_refused() {
        let e =
            with("topology.links[0].outages", serde_json::json!({"every_s": 4e-10, "duration_s": 1e-10})).unwrap_err();
        assert!(e.starts_with("topology.links[0].outages.every_s: must be at least 2e-9 s"), "{e}");
        let e =
            with("topology.links[0].outages", serde_json::json!({"every_s": 1e-6, "duration_s": 1e-10})).unwrap_err();
        assert!(e.starts_with("topology.links[0].outages.duration_s: rounds to 0 ns"), "{e}");
        assert!(with("topology.links[0].outages", serde_json::json!({"every_s": 2e-9, "duration_s": 1e-9})).is_ok());
    }

    #[test]
    fn a_sweep_grid_whose_size_overflows_is_refused_with_its_size() {
        // 256^8 overflows 64 bits; the product used to wrap to 0 ("valid (0 runs)").
        let values: Vec<Value> = (0..256).map(|v| Value::from(v + 1)).collect();
        let grid: serde_json::Map<String, Value> =
            (0..8).map(|i| (format!("flows[0].p{i}"), Value::Array(values.clone()))).collect();
        let e = with("sweep", serde_json::json!({ "grid": grid })).unwrap_err();
        assert!(e.starts_with("sweep.grid: 256 × 256 × 256 × 256 × 256 × 256 × 256 × 256 values × 1 run per point = 1.845e19 runs; at most 100000 are supported"), "{e}");
        let e = with("sweep", serde_json::json!({ "grid": { "seed": values }, "runs": 1000 })).unwrap_err();
        assert!(e.starts_with("sweep.grid: 256 values × 1000 runs per point = 256000 runs; at most 100000"), "{e}");
        assert!(with("sweep", serde_json::json!({ "grid": { "seed": values }, "runs": 390 })).is_ok());
    }

    #[test]
    fn node_cache_bytes_keys_must_be_plain_node_numbers_on_the_flows_path() {
        let two_hops = r#"{"version":1,"name":"t","duration_s":10,
            "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":5},{"rate_mbps":10,"delay_ms":5},
                {"rate_mbps":10,"delay_ms":5}]},
            "flows":[{"transport":"intcp","bytes":1000,"to_node":2}]}"#;
        let with_caches = |caches: Value| {
            let mut v: Value = serde_json::from_str(two_hops).unwrap();
            v["flows"][0]["node_cache_bytes"] = caches;
            from_value(v).map_err(String::from)
        };
        assert!(with_caches(serde_json::json!({"1": 0, "2": 5})).is_ok());
        let e = with_caches(serde_json::json!({"01": 0})).unwrap_err();
        assert_eq!(
            e,
            "flows[0].node_cache_bytes.01: write the node number as \"1\" (the key must be a plain node number)"
        );
        assert!(with_caches(serde_json::json!({"+1": 0})).unwrap_err().contains("as \"1\""));
        let e = with_caches(serde_json::json!({"3": 0})).unwrap_err();
        assert_eq!(e, "flows[0].node_cache_bytes.3: node 3 is not on the flow's path (nodes 0 to 2)");
        let e = with_caches(serde_json::json!({"9": 0})).unwrap_err();
        assert_eq!(e, "flows[0].node_cache_bytes.9: no such node (the chain has nodes 0 to 3)");
        let e = with_caches(serde_json::json!({"one": 0})).unwrap_err();
        assert_eq!(e, "flows[0].node_cache_bytes.one: is not a node number (the chain has nodes 0 to 3)");
    }

    #[test]
    fn unbounded_costs_are_refused_with_what_to_change() {
        let e = with("trace", serde_json::json!({"goodput_interval_s": 1e-9})).unwrap_err();
        assert_eq!(
            e,
            "trace.goodput_interval_s: gives 10000000000 goodput bins over duration_s; at most 1000000 are \
             supported (make the interval at least 0.00001 s)"
        );
        let e = with("trace", serde_json::json!({"max_points": 4294967295u32})).unwrap_err();
        assert_eq!(e, "trace.max_points: must be between 2 and 1000000 (got 4294967295)");
        let e = with("topology.links[0].rate_mbps", 1e9.into()).unwrap_err();
        assert!(e.starts_with("topology.links[0].rate_mbps: must be at most 100000 Mbit/s (got 1000000000)"), "{e}");
        let e =
            with("topology.links[0].rate_schedule", serde_json::json!([{"at_s": 0, "rate_mbps": 2e5}])).unwrap_err();
        assert!(e.starts_with("topology.links[0].rate_schedule[0].rate_mbps: must be at most 100000"), "{e}");
        let link = serde_json::json!({"rate_mbps": 10, "delay_ms": 1});
        let e = with("topology.links", Value::Array(vec![link.clone(); 23170])).unwrap_err();
        assert!(e.starts_with("topology.links: has 23170 links; at most 1000 are supported"), "{e}");
        assert!(with("topology.links", Value::Array(vec![link; 1000])).is_ok());
        assert_eq!(with("max_events", 0.into()).unwrap_err(), "max_events: must be at least 1");
        assert_eq!(parse(MINIMAL).unwrap().max_events, DEFAULT_MAX_EVENTS);
    }

    #[test]
    fn a_huge_value_is_echoed_in_exponent_form_not_as_300_digits() {
        let e = with("topology.links[0].jitter_ms", (-1e300).into()).unwrap_err();
        assert_eq!(e, "topology.links[0].jitter_ms: must be zero or positive (got -1e300)");
        let e = with("duration_s", 1e300.into()).unwrap_err();
        assert_eq!(e, "duration_s: must be more than 0 and at most 604800 seconds (got 1e300)");
        let e = with("topology.links[0].loss", serde_json::json!({"model": "bernoulli", "p": 1e300})).unwrap_err();
        assert_eq!(e, "topology.links[0].loss.p: must be a probability between 0 and 1 (got 1e300)");
        let e = with("topology.links[0].rate_mbps", 1e300.into()).unwrap_err();
        assert!(e.starts_with("topology.links[0].rate_mbps: must be at most 100000 Mbit/s (got 1e300)"), "{e}");
    }
}
