//! What the globe is given for a scenario: its constellation, or a placed chain's satellite and
//! stations, built for the scenario's `duration_s`. `orbit::view` describes the built
//! constellation; reading the scenario is the runner's part, since `orbit` sits below `scenario`
//! (ARCHITECTURE.md).

use crate::orbit::config::Built;
use crate::scenario::{self, FieldError, ScenarioError, Topology};

/// The constellation of a scenario given as JSON text (validated like any scenario), built for
/// its `duration_s`: a constellation topology's, or the satellite and stations a chain's `place`
/// names; an error for a chain without a place.
pub fn built_from_scenario_json(text: &str) -> Result<Built, ScenarioError> {
    let sc = scenario::parse(text)?;
    let one = |path: &str, message: String| ScenarioError(vec![FieldError::new(path, message)]);
    match &sc.topology {
        Topology::Constellation(t) => {
            t.build(sc.duration_s).map_err(|e| ScenarioError(vec![scenario::topology_error(e)]))
        }
        Topology::Chain(c) => match &c.place {
            Some(place) => {
                place.as_constellation().build(sc.duration_s).map_err(|e| one("topology.place", e.to_string()))
            }
            None => Err(one("topology", "a chain without a place has nothing to show on the globe".into())),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_without_a_place_has_no_constellation() {
        let sc = serde_json::json!({ "version": 1, "name": "c", "duration_s": 1,
            "topology": { "kind": "chain", "links": [{ "rate_mbps": 10, "delay_ms": 5 }] },
            "flows": [{ "transport": "tcp", "cc": "reno", "bytes": 1000 }] });
        let e = built_from_scenario_json(&sc.to_string()).err().expect("a chain without a place");
        assert_eq!(e.0.len(), 1);
        assert_eq!(e.0[0].path, "topology");
        assert!(e.0[0].message.contains("nothing to show on the globe"), "{}", e.0[0].message);
    }

    #[test]
    fn a_scenario_error_comes_back_before_any_building() {
        let e = built_from_scenario_json("{}").err().expect("not a scenario");
        assert!(!e.0.is_empty());
    }
}
