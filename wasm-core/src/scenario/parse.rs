//! Reading a scenario from JSON: strict serde, then the range checks. Serde's errors are
//! rewritten so that each names the full path of the value at fault and says what is expected.

use super::{Scenario, ScenarioError};
use serde_json::Value;

/// Parses and validates a scenario. The error lists every problem found, one per line.
pub fn parse(json: &str) -> Result<Scenario, ScenarioError> {
    check(json)
}

/// Like [`parse`], for a path timeline alone (`orbitcp route`): a constellation may have up to
/// [`super::MAX_TIMELINE_STEPS`] routing steps instead of a run's [`super::MAX_ROUTE_STEPS`].
pub fn parse_timeline(json: &str) -> Result<Scenario, ScenarioError> {
    let value: Value = serde_json::from_str(json).map_err(|e| ScenarioError::one("", format!("invalid JSON: {e}")))?;
    let sc = deserialize(value)?;
    let problems = sc.problems_within(super::MAX_TIMELINE_STEPS);
    if problems.is_empty() {
        Ok(sc)
    } else {
        Err(ScenarioError(problems))
    }
}

/// Like [`parse`], from an already parsed JSON value.
pub fn from_value(value: Value) -> Result<Scenario, ScenarioError> {
    check_value(value)
}

/// Like [`parse`], with every problem as a [`FieldError`].
pub fn check(json: &str) -> Result<Scenario, ScenarioError> {
    let value: Value = serde_json::from_str(json).map_err(|e| ScenarioError::one("", format!("invalid JSON: {e}")))?;
    check_value(value)
}

/// Like [`check`], from an already parsed JSON value.
pub fn check_value(value: Value) -> Result<Scenario, ScenarioError> {
    let sc = deserialize(value)?;
    let problems = sc.problems();
    if problems.is_empty() {
        Ok(sc)
    } else {
        Err(ScenarioError(problems))
    }
}

/// The scenario's structure, without the range checks.
fn deserialize(value: Value) -> Result<Scenario, ScenarioError> {
    if !value.is_object() {
        return Err(ScenarioError::one("", "expected a JSON object"));
    }
    serde_path_to_error::deserialize(&value).map_err(|e| {
        let (path, message) = error_path(&e.path().to_string(), &e.inner().to_string());
        ScenarioError::one(if path == "." { "" } else { &path }, explain(message))
    })
}

/// The full path and the message of a deserialization error at `path`: an error inside a flow
/// or a topology carries its path from there (`tagged.rs`).
fn error_path(path: &str, message: &str) -> (String, String) {
    match super::tagged::split_nested(message) {
        Some((inner, m)) => (super::tagged::join_path(path, inner), m.to_string()),
        None => (path.to_string(), message.to_string()),
    }
}

/// Rewrites serde's wording where it says too little for a user.
fn explain(msg: String) -> String {
    let msg = match msg.strip_prefix("unknown variant `") {
        Some(rest) => format!("unknown value \"{}", rest.replacen("`, expected", "\", expected", 1)),
        None => msg,
    };
    if msg.contains("untagged enum RateScheduleSpec") {
        return "expected a list of {\"at_s\", \"rate_mbps\"} steps or {\"square\": {\"low_mbps\", \"high_mbps\", \"period_s\"}}".into();
    }
    if msg.contains("untagged enum Place") {
        return "expected a city name or {\"name\", \"lat_deg\", \"lon_deg\"} and no other field".into();
    }
    if msg.contains("untagged enum OutagesSpec") {
        return "expected a list of {\"start_s\", \"duration_s\"} or {\"every_s\", \"duration_s\"}".into();
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::tests::{with, MINIMAL};
    use crate::scenario::Flow;
    use proptest::prelude::*;

    #[test]
    fn a_minimal_scenario_gets_the_documented_defaults() {
        let s = parse(MINIMAL).unwrap();
        let Flow::Tcp(t) = &s.flows[0] else { panic!("a TCP flow") };
        assert_eq!((t.mss_bytes, t.initial_cwnd_pkts, t.sack, s.seed), (1448, 10, true, 1));
    }

    #[test]
    fn an_unknown_congestion_control_names_the_path_and_the_choices() {
        let e = with("flows[0].cc", "cubc".into()).unwrap_err();
        assert!(e.starts_with("flows[0].cc: unknown value \"cubc\""), "{e}");
        assert!(e.contains("reno") && e.contains("vegas"), "{e}");
    }

    #[test]
    fn an_unknown_field_is_an_error_not_ignored() {
        let e = with("topology.links[0].delay", 5.into()).unwrap_err();
        assert!(e.starts_with("topology.links[0].delay: unknown field `delay`, expected one of `rate_mbps`"), "{e}");
    }

    #[test]
    fn a_wrong_type_names_the_path() {
        let e = with("duration_s", "long".into()).unwrap_err();
        assert!(e.starts_with("duration_s: invalid type: string"), "{e}");
    }

    #[test]
    fn a_point_place_with_an_unknown_field_is_refused() {
        let leo = |src: Value| {
            from_value(serde_json::json!({"version":1,"name":"t","duration_s":10,
                "topology":{"kind":"constellation","constellation":{"geo_longitudes_deg":[0]},
                    "src": src, "dst":"London", "min_elevation_deg": 0},
                "flows":[{"transport":"tcp","cc":"reno","bytes":1000}]}))
            .map_err(String::from)
        };
        let point = serde_json::json!({"name":"p","lat_deg":1,"lon_deg":2});
        assert!(leo(point.clone()).is_ok(), "{:?}", leo(point.clone()).err());
        let mut with_alt = point;
        with_alt["alt_km"] = 1.into();
        let e = leo(with_alt).unwrap_err();
        assert!(
            e.starts_with(
                "topology.src: expected a city name or {\"name\", \"lat_deg\", \"lon_deg\"} and no other field"
            ),
            "{e}"
        );
    }

    #[test]
    fn a_square_rate_schedule_with_an_unknown_field_is_refused() {
        let sq = serde_json::json!({"square": {"low_mbps": 1, "high_mbps": 2, "period_s": 1}});
        assert!(with("topology.links[0].rate_schedule", sq.clone()).is_ok());
        let mut extra = sq;
        extra["phase_s"] = 1.into();
        let e = with("topology.links[0].rate_schedule", extra).unwrap_err();
        assert!(e.starts_with("topology.links[0].rate_schedule: expected a list"), "{e}");
    }

    #[test]
    fn malformed_json_is_reported_as_such() {
        assert!(parse("{\"version\": 1,").unwrap_err().to_string().starts_with("scenario: invalid JSON"));
        assert_eq!(parse("[1,2]").unwrap_err(), ScenarioError::one("", "expected a JSON object"));
        assert_eq!(parse("[1,2]").unwrap_err().to_string(), "scenario: expected a JSON object");
    }

    #[test]
    fn a_bad_schedule_gets_a_useful_message() {
        let e = with("topology.links[0].rate_schedule", serde_json::json!({"sqare": {}})).unwrap_err();
        assert!(e.starts_with("topology.links[0].rate_schedule: expected a list"), "{e}");
    }

    proptest! {
        // The parser never panics: arbitrary JSON values and arbitrary mutations of a valid
        // scenario are either accepted or rejected with a message.
        #[test]
        fn parsing_arbitrary_text_never_panics(s in ".{0,200}") {
            let _ = parse(&s);
        }

        #[test]
        fn mutated_scenarios_never_panic(path in prop::sample::select(vec![
            "duration_s", "seed", "version", "flows[0].cc", "flows[0].bytes", "flows[0].mss_bytes",
            "flows[0].start_s", "topology.links[0].rate_mbps", "topology.links[0].delay_ms",
            "topology.links[0].loss", "topology.links[0].buffer_pkts", "topology.links[0].outages",
            "topology.links[0].rate_schedule", "sweep", "trace", "flows[0].initial_cwnd_pkts",
        ]), v in arb_json()) {
            let _ = with(path, v);
        }
    }

    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
            "[a-z_]{0,8}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-z_]{1,12}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }
}
