//! Reading scenario text into a JSON value, strictly: a key given twice in one object is
//! refused with its path (serde_json would keep the last one without a word), a UTF-8
//! byte-order mark at the start is skipped, and a syntax error names the path of the value at
//! fault, saying what is wrong when it is a number JSON cannot hold (`NaN`, `Infinity`, `1e309`).
//!
//! The text is read by serde_json's own parser (the same numbers, the same depth limit) into a
//! [`Value`] built by a path-tracking [`DeserializeSeed`]; a syntax error's position is mapped
//! back to a path by [`super::json_locate`].

use super::json_locate::locate;
use super::FieldError;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;

/// Parses scenario text (or any JSON the scenario holds) into a value; the error names the
/// path at fault and keeps the line and column.
pub fn parse_json(text: &str) -> Result<Value, FieldError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let fault = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let read = Strict { at: At::Root, fault: &fault }.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    read.map_err(|e| match fault.take() {
        Some((path, message)) => FieldError::new(path, format!("{message} (line {}, column {})", e.line(), e.column())),
        None => syntax_error(text, &e),
    })
}

/// A syntax error at the path of the value where it happened.
fn syntax_error(text: &str, e: &serde_json::Error) -> FieldError {
    if e.line() == 0 {
        return FieldError::new("", format!("invalid JSON: {e}"));
    }
    // serde_json counts lines from 1 and columns from 1, in bytes.
    let line_start: usize = text.split_inclusive('\n').take(e.line() - 1).map(str::len).sum();
    let offset = match e.classify() {
        serde_json::error::Category::Eof => text.len(),
        _ => (line_start + e.column()).saturating_sub(1).min(text.len()),
    };
    let (path, token) = locate(text, offset);
    match token.and_then(unholdable) {
        Some(what) => FieldError::new(path, format!("{what} (line {}, column {})", e.line(), e.column())),
        None => FieldError::new(path, format!("invalid JSON: {e}")),
    }
}

/// What is wrong with a number that JSON cannot hold, from the text of the value where the
/// parser stopped: `NaN`, `Infinity` (any sign or case, `inf` too) or a number beyond ±1.8e308.
fn unholdable(token: &str) -> Option<String> {
    let shown =
        if token.chars().count() > 24 { token.chars().take(24).collect::<String>() + "…" } else { token.to_string() };
    let word = token.trim_start_matches(['-', '+']).to_ascii_lowercase();
    if word == "nan" || word.starts_with("inf") {
        return Some(format!("{shown} is not a number JSON can hold: write a finite number"));
    }
    let v: f64 = token.parse().ok()?;
    match v {
        f64::INFINITY => Some(format!("{shown} is larger than the largest number, 1.8e308")),
        f64::NEG_INFINITY => Some(format!("{shown} is below the smallest number, -1.8e308")),
        _ => None,
    }
}

/// Where the value being read sits: a chain of keys and indices up to the root.
#[derive(Clone, Copy)]
enum At<'a> {
    Root,
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl At<'_> {
    /// As the scenario's other errors write paths: `topology.links[0].loss.p`.
    fn path(&self) -> String {
        match self {
            At::Root => String::new(),
            At::Key(parent, key) => {
                let key: String = key.chars().take(60).flat_map(char::escape_debug).collect();
                match parent.path() {
                    p if p.is_empty() => key,
                    p => format!("{p}.{key}"),
                }
            }
            At::Index(parent, i) => format!("{}[{i}]", parent.path()),
        }
    }
}

/// The value at `at`; the first fault found (its path and message) goes to `fault`.
struct Strict<'p, 'f> {
    at: At<'p>,
    fault: &'f RefCell<Option<(String, String)>>,
}

impl<'de> DeserializeSeed<'de> for Strict<'_, '_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        // The parser gives finite numbers only; Value::from makes anything else null.
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        // A scenario's flows are counted as they are read, so that a file of a million flows is
        // refused before it is held whole (its values would take about 17 times the text).
        let flows = matches!(self.at, At::Key(At::Root, "flows"));
        while let Some(v) = seq.next_element_seed(Strict { at: At::Index(&self.at, out.len()), fault: self.fault })? {
            if flows && out.len() == super::MAX_FLOWS {
                let message = format!(
                    "more than {} flows; at most {} are supported (each keeps its traces and delay statistics)",
                    super::MAX_FLOWS,
                    super::MAX_FLOWS
                );
                *self.fault.borrow_mut() = Some(("flows".into(), message));
                return Err(de::Error::custom("too many flows"));
            }
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                let quoted: String = key.chars().take(60).flat_map(char::escape_debug).collect();
                let message = format!("duplicate key \"{quoted}\": a key may appear once in an object");
                *self.fault.borrow_mut() = Some((At::Key(&self.at, &key).path(), message));
                return Err(de::Error::custom("duplicate key"));
            }
            let v = map.next_value_seed(Strict { at: At::Key(&self.at, &key), fault: self.fault })?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_json(text).unwrap_err().to_string()
    }

    #[test]
    fn a_duplicate_key_is_refused_with_its_path() {
        let e = err(r#"{"topology": {"links": [{"loss": {"model": "bernoulli", "p": 0.01, "p": 1.0}}]}}"#);
        assert!(e.starts_with("topology.links[0].loss.p: duplicate key \"p\""), "{e}");
        assert!(e.ends_with("(line 1, column 70)"), "{e}");
        assert_eq!(
            err(r#"{"a": 1, "a": 1}"#),
            "a: duplicate key \"a\": a key may appear once in an object (line 1, column 12)"
        );
        // The same key in two objects is no duplicate.
        assert!(parse_json(r#"{"a": {"p": 1}, "b": {"p": 2}, "c": [{"p": 1}, {"p": 2}]}"#).is_ok());
    }

    #[test]
    fn numbers_json_cannot_hold_are_named_with_their_path() {
        let e = err("{\"duration_s\": NaN}");
        assert_eq!(e, "duration_s: NaN is not a number JSON can hold: write a finite number (line 1, column 16)");
        let e = err("{\"a\": [1, -Infinity]}");
        assert!(e.starts_with("a[1]: -Infinity is not a number JSON can hold"), "{e}");
        let e = err("{\"a\": {\"b\": Infinity}}");
        assert!(e.starts_with("a.b: Infinity is not a number JSON can hold"), "{e}");
        let e = err("{\"x\": 1,\n \"delay_ms\": 1e309}");
        assert!(e.starts_with("delay_ms: 1e309 is larger than the largest number, 1.8e308 (line 2"), "{e}");
        let e = err("{\"delay_ms\": -2e400}");
        assert!(e.starts_with("delay_ms: -2e400 is below the smallest number, -1.8e308"), "{e}");
    }

    #[test]
    fn other_syntax_errors_keep_serdes_words_at_the_path_where_they_happen() {
        assert_eq!(err("{\"version\": 1,"), "scenario: invalid JSON: EOF while parsing a value at line 1 column 14");
        let e = err("{\"flows\": [{\"cc\": \"reno\",}]}");
        assert!(e.starts_with("flows[0]: invalid JSON: trailing comma"), "{e}");
        let e = err("{\"a\": [1, 2, ]}");
        assert!(e.starts_with("a[2]: invalid JSON: trailing comma"), "{e}");
        assert!(err("").starts_with("scenario: invalid JSON: EOF while parsing a value"));
    }

    #[test]
    fn a_scenario_with_more_flows_than_the_cap_is_refused_while_it_is_read() {
        let flow = r#"{"transport":"tcp","cc":"reno"}"#;
        let text = |n: usize| {
            format!(r#"{{"flows":[{}],"x":{{"flows":[{}]}}}}"#, vec![flow; n].join(","), [flow; 3].join(","))
        };
        assert!(parse_json(&text(crate::scenario::MAX_FLOWS)).is_ok());
        let e = parse_json(&text(crate::scenario::MAX_FLOWS + 1)).unwrap_err();
        assert_eq!(e.path, "flows");
        assert!(e.message.starts_with("more than 1000 flows; at most 1000 are supported"), "{}", e.message);
        // Only the scenario's own list is counted: any other list of that name is read whole.
        assert!(parse_json(&format!(r#"{{"x":{{"flows":[{}]}}}}"#, vec!["1"; 5000].join(","))).is_ok());
    }

    #[test]
    fn a_byte_order_mark_is_read() {
        assert_eq!(parse_json("\u{feff}{\"a\": 1}").unwrap(), serde_json::json!({"a": 1}));
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text = r#"{"a": [1, -2, 0.1, 1e300, 18446744073709551615, "s\n", null, true, {}], "b": {"c": []}}"#;
        assert_eq!(parse_json(text).unwrap(), serde_json::from_str::<Value>(text).unwrap());
        // The depth limit stays: deep nesting is an error, not a stack overflow.
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert!(err(&deep).contains("recursion limit exceeded"));
    }
}
