//! Reading a scenario from JSON: strict serde, then the range checks. Serde's errors are
//! rewritten so that each names the full path of the value at fault and says what is expected.

use super::{Scenario, ScenarioError};
use serde_json::Value;

/// Parses and validates a scenario. The error lists every problem found, each a [`FieldError`]
/// naming its path (shown one per line).
///
/// [`FieldError`]: super::FieldError
pub fn parse(json: &str) -> Result<Scenario, ScenarioError> {
    from_value(read_json(json)?)
}

/// Like [`parse`], for a path timeline alone (`orbitcp route`): a constellation may have up to
/// [`super::MAX_TIMELINE_STEPS`] routing steps instead of a run's [`super::MAX_ROUTE_STEPS`].
pub fn parse_timeline(json: &str) -> Result<Scenario, ScenarioError> {
    let value = read_json(json)?;
    let sc = deserialize(value)?;
    let problems = sc.problems_within(super::MAX_TIMELINE_STEPS);
    if problems.is_empty() {
        Ok(sc)
    } else {
        Err(ScenarioError(problems))
    }
}

/// Scenario text as a JSON value, strictly ([`super::strict_json`]): duplicate keys and numbers
/// JSON cannot hold are refused with their path, a byte-order mark is skipped.
pub fn read_json(json: &str) -> Result<Value, ScenarioError> {
    super::strict_json::parse_json(json).map_err(|e| ScenarioError(vec![e]))
}

/// Like [`parse`], from an already parsed JSON value.
pub fn from_value(value: Value) -> Result<Scenario, ScenarioError> {
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
    let sc: Scenario = serde_path_to_error::deserialize(&value).map_err(|e| {
        let (path, message) = error_path(&e.path().to_string(), &e.inner().to_string());
        ScenarioError::one(if path == "." { "" } else { &path }, explain(message))
    })?;
    // Serde's derived structs also read a list, by position (`"loss": ["bernoulli", 0.5]`):
    // wherever the scenario as read is an object, the input must have been one.
    let read = serde_json::to_value(&sc).unwrap_or(Value::Null);
    match array_for_object(&value, &read) {
        Some(path) => Err(ScenarioError::one(&path, "expected an object, found an array")),
        None => Ok(sc),
    }
}

/// The path of the first value that is an array in `input` and an object in `read` (the same
/// document after a round trip through the scenario's types), if any.
fn array_for_object(input: &Value, read: &Value) -> Option<String> {
    let join = |path: String, rest: Option<String>| {
        rest.map(|r| if r.is_empty() || r.starts_with('[') { format!("{path}{r}") } else { format!("{path}.{r}") })
    };
    match (input, read) {
        (Value::Array(_), Value::Object(_)) => Some(String::new()),
        (Value::Object(a), Value::Object(b)) => a.iter().find_map(|(k, v)| {
            let key: String = k.chars().take(60).flat_map(char::escape_debug).collect();
            join(key, array_for_object(v, b.get(k)?))
        }),
        (Value::Array(a), Value::Array(b)) => {
            a.iter().zip(b).enumerate().find_map(|(i, (v, w))| join(format!("[{i}]"), array_for_object(v, w)))
        }
        _ => None,
    }
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
    if let Some(plain) = wrong_type(&msg) {
        return plain;
    }
    let msg = match msg.strip_prefix("unknown variant `") {
        Some(rest) => format!("unknown value \"{}", rest.replacen("`, expected", "\", expected", 1)),
        None => msg,
    };
    // A list read by position as a struct, too short or too long for it.
    if msg.starts_with("invalid length ") && msg.contains("expected struct") {
        return "expected an object, found an array".into();
    }
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

/// serde's "invalid type: string \"abc\", expected f64" in words: "must be a number, not the
/// text \"abc\"". A form field, a URL or a file gets the same sentence.
fn wrong_type(msg: &str) -> Option<String> {
    let rest = msg.strip_prefix("invalid type: ").or_else(|| msg.strip_prefix("invalid value: "))?;
    let (found, expected) = rest.rsplit_once(", expected ")?;
    let wanted = match expected {
        "f64" | "f32" => "a number".to_string(),
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number, 0 or more".to_string(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_string(),
        "a boolean" => "true or false".to_string(),
        "a string" => "a text in quotes".to_string(),
        "a sequence" => "a list".to_string(),
        e if e.starts_with("struct ") || e == "a map" => "an object".to_string(),
        e => e.to_string(),
    };
    let given = if let Some(text) = found.strip_prefix("string ") {
        format!("the text {text}")
    } else if let Some(n) = found.strip_prefix("floating point `").or_else(|| found.strip_prefix("integer `")) {
        format!("the number {}", n.trim_end_matches('`'))
    } else if let Some(b) = found.strip_prefix("boolean `") {
        b.trim_end_matches('`').to_string()
    } else {
        match found {
            "map" => "an object".to_string(),
            "sequence" => "a list".to_string(),
            "null" | "unit value" => "null".to_string(),
            f => f.to_string(),
        }
    };
    Some(format!("must be {wanted}, not {given}"))
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
    fn a_wrong_type_names_the_path_in_words() {
        assert_eq!(
            with("duration_s", "long".into()).unwrap_err(),
            "duration_s: must be a number, not the text \"long\""
        );
        assert_eq!(
            with("seed", (-1).into()).unwrap_err(),
            "seed: must be a whole number, 0 or more, not the number -1"
        );
        assert_eq!(with("flows_alone", 1.into()).unwrap_err(), "flows_alone: must be true or false, not the number 1");
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

    #[test]
    fn an_array_in_place_of_an_object_is_refused_with_its_path() {
        let e = with("topology.links[0].loss", serde_json::json!(["bernoulli", 0.5])).unwrap_err();
        assert_eq!(e, "topology.links[0].loss: expected an object, found an array");
        let e = with("trace", serde_json::json!([])).unwrap_err();
        assert_eq!(e, "trace: expected an object, found an array");
        let e = with("topology.links[0]", serde_json::json!([10, 5])).unwrap_err();
        assert_eq!(e, "topology.links[0]: expected an object, found an array");
        let e = with("topology.links[0].loss", serde_json::json!(["bernoulli"])).unwrap_err();
        assert_eq!(e, "topology.links[0].loss: expected an object, found an array");
        let e = with("topology.links[0].rate_schedule", serde_json::json!([[0, 5]])).unwrap_err();
        assert_eq!(e, "topology.links[0].rate_schedule[0]: expected an object, found an array");
        let e = with("topology.links[0].outages", serde_json::json!([[1, 2]])).unwrap_err();
        assert_eq!(e, "topology.links[0].outages[0]: expected an object, found an array");
        // Lists where the format has lists are read as before.
        assert!(with("topology.links[0].outages", serde_json::json!([{"start_s": 1, "duration_s": 2}])).is_ok());
    }

    #[test]
    fn a_constellation_written_with_arrays_for_objects_is_refused() {
        let leo = |constellation: Value, src: Value| {
            from_value(serde_json::json!({"version":1,"name":"t","duration_s":10,
                "topology":{"kind":"constellation","constellation":constellation,
                    "src": src, "dst":"London", "min_elevation_deg": 0},
                "flows":[{"transport":"tcp","cc":"reno","bytes":1000}]}))
            .map_err(String::from)
        };
        let e = leo(serde_json::json!({"walker": [550, 53, 4, 4]}), "Paris".into()).unwrap_err();
        assert_eq!(e, "topology.constellation.walker: expected an object, found an array");
        let e = leo(serde_json::json!({"walker": [[550, 53, 4, 4]]}), "Paris".into()).unwrap_err();
        assert_eq!(e, "topology.constellation.walker[0]: expected an object, found an array");
    }

    #[test]
    fn a_duplicate_key_in_scenario_text_is_refused_not_the_last_one_kept() {
        let text =
            MINIMAL.replace(r#""delay_ms":250"#, r#""delay_ms":250,"loss":{"model":"bernoulli","p":0.01,"p":1.0}"#);
        let e = parse(&text).unwrap_err().to_string();
        assert!(e.starts_with("topology.links[0].loss.p: duplicate key \"p\""), "{e}");
        let e = parse_timeline(&text).unwrap_err().to_string();
        assert!(e.starts_with("topology.links[0].loss.p: duplicate key"), "{e}");
        let e = parse(&MINIMAL.replace(r#""name":"t""#, r#""name":"t","name":"u""#)).unwrap_err().to_string();
        assert!(e.starts_with("name: duplicate key"), "{e}");
    }

    #[test]
    fn a_value_json_cannot_hold_is_named_with_its_path() {
        for (written, said) in [
            ("NaN", "NaN is not a number JSON can hold: write a finite number"),
            ("Infinity", "Infinity is not a number JSON can hold: write a finite number"),
            ("-Infinity", "-Infinity is not a number JSON can hold: write a finite number"),
            ("1e309", "1e309 is larger than the largest number, 1.8e308"),
        ] {
            let e = parse(&MINIMAL.replace("250", written)).unwrap_err().to_string();
            assert!(e.starts_with(&format!("topology.links[0].delay_ms: {said} (line 2, column ")), "{e}");
        }
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        assert!(parse(&format!("\u{feff}{MINIMAL}")).is_ok());
    }

    proptest! {
        // The parser never panics: arbitrary JSON values and arbitrary mutations of a valid
        // scenario are either accepted or rejected with a message.
        #[test]
        fn parsing_arbitrary_text_never_panics(s in ".{0,200}") {
            let _ = parse(&s);
        }

        // Text built from JSON's own pieces and the words it cannot hold: duplicate keys,
        // NaN, Infinity and overflowing numbers anywhere, with a byte-order mark or not.
        #[test]
        fn json_like_text_with_duplicates_and_non_finite_numbers_never_panics(
            bom in any::<bool>(),
            pieces in prop::collection::vec(prop::sample::select(vec![
                "{", "}", "[", "]", ",", ":", "\"p\"", "\"p\":", "\"flows\":", "\"topology\":", "NaN", "-Infinity",
                "Infinity", "1e309", "-1e400", "0.5", "1e300", "\"", "\\", "null", " ", "\n", "\u{feff}",
            ]), 0..40),
        ) {
            let text = format!("{}{}", if bom { "\u{feff}" } else { "" }, pieces.concat());
            let _ = parse(&text);
            let _ = parse_timeline(&text);
            let _ = crate::scenario::files::inline_files(&text, &[]);
            let _ = crate::scenario::needs_orbit_code(&text);
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
