//! The scenario's internally tagged enums (a flow's `transport`, a topology's `kind`), read by
//! hand from the parsed JSON value.
//!
//! Serde's derive buffers such an enum's content (`ContentDeserializer`) and reads the variant
//! from the buffer: every type inside a flow or a topology was then compiled a second time for
//! that buffer (about 190 KB of the browser's wasm), and an error inside lost its path. Here the
//! variant's type is read from the value by the same path-tracking deserializer that
//! [`super::from_value`] uses, so it is compiled once, and an error carries its path inside the
//! variant in its message, which `from_value` joins to the enum's own path ([`split_nested`]).

use serde::de::{DeserializeOwned, Error};
use serde_json::Value;

/// Marks a message that carries the path of its error inside a tagged enum.
const NESTED: char = '\u{0}';

/// An error inside a tagged enum: its path from the enum's object and its message, in one
/// string that serde's custom errors can carry.
fn nested(path: &str, message: &str) -> String {
    format!("{NESTED}{path}{NESTED}{message}")
}

/// The path inside and the message of an error made by [`nested`]; `None` for any other message.
pub fn split_nested(message: &str) -> Option<(&str, &str)> {
    message.strip_prefix(NESTED)?.split_once(NESTED)
}

/// `outer` and then `inner`, as serde_path_to_error writes paths (`.` for the root).
pub fn join_path(outer: &str, inner: &str) -> String {
    match (outer, inner) {
        ("" | ".", _) => inner.to_string(),
        (_, "" | ".") => outer.to_string(),
        (_, i) if i.starts_with('[') => format!("{outer}{i}"),
        _ => format!("{outer}.{inner}"),
    }
}

/// An internally tagged enum's tag, and its object without the tag: the content of the variant.
pub fn split_tag<E: Error>(
    value: Value,
    tag: &'static str,
    variants: &'static [&'static str],
) -> Result<(String, Value), E> {
    let Value::Object(mut fields) = value else {
        return Err(E::custom(format!("expected an object with \"{tag}\" (one of {})", variants.join(", "))));
    };
    match fields.shift_remove(tag) {
        Some(Value::String(name)) if variants.contains(&name.as_str()) => Ok((name, Value::Object(fields))),
        Some(Value::String(name)) => Err(E::unknown_variant(&name, variants)),
        Some(other) => {
            Err(E::custom(format!("{tag}: expected a string (one of {}), got {other}", variants.join(", "))))
        }
        None => Err(E::missing_field(tag)),
    }
}

/// A variant's content read as `T`; an error keeps its path inside the content.
pub fn variant<T: DeserializeOwned, E: Error>(content: &Value) -> Result<T, E> {
    serde_path_to_error::deserialize::<_, T>(content).map_err(|e| {
        let path = e.path().to_string();
        let message = e.inner().to_string();
        match split_nested(&message) {
            Some((inner, m)) => E::custom(nested(&join_path(&path, inner), m)),
            None => E::custom(nested(&path, &message)),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_join_as_serde_path_to_error_writes_them() {
        assert_eq!(join_path("flows[0]", "cc"), "flows[0].cc");
        assert_eq!(join_path("topology", "links[1].loss"), "topology.links[1].loss");
        assert_eq!(join_path("topology.links", "[2]"), "topology.links[2]");
        assert_eq!(join_path("flows[0]", "."), "flows[0]");
        assert_eq!(join_path(".", "cc"), "cc");
    }

    #[test]
    fn a_nested_message_splits_into_its_path_and_text() {
        assert_eq!(split_nested(&nested("a.b", "bad: x")), Some(("a.b", "bad: x")));
        assert_eq!(split_nested("plain message"), None);
    }
}
