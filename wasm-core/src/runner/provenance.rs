//! Provenance: which core wrote a result, and for which scenario. Every run result and sweep
//! table carries both, so that a number found in a file months later can be traced back, and
//! so that `orbitcp merge` can refuse shards of different sweeps or builds.
//!
//! The scenario hash is FNV-1a (64 bits) of the scenario's canonical JSON: the parsed scenario
//! (defaults filled in) serialized with every object's keys sorted and no whitespace. It needs
//! no dependency and is the same in the native and wasm builds (both serialize with the same
//! code); it identifies a scenario, it is not a cryptographic digest.

use crate::scenario::Scenario;
use serde_json::Value;

/// The core's version, as its Cargo.toml gives it.
pub const CORE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// `fnv1a64:` and 16 hex digits: the prefix keeps the cell text for pandas, which would read a
/// hash made of decimal digits only as a number.
pub fn scenario_hash(sc: &Scenario) -> String {
    value_hash(&serde_json::to_value(sc).unwrap_or(Value::Null))
}

/// The hash of the scenario as a run with `seed` sees it: a sweep job's scenario with its run's
/// seed, which is the scenario `orbitcp jobs` prints for it.
pub fn run_hash(sc: &Scenario, seed: u64) -> String {
    let mut v = serde_json::to_value(sc).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("seed".into(), Value::from(seed));
    }
    value_hash(&v)
}

fn value_hash(v: &Value) -> String {
    let mut text = String::new();
    canonical(v, &mut text);
    format!("fnv1a64:{:016x}", fnv1a64(text.as_bytes()))
}

/// JSON with sorted keys and no whitespace.
fn canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                canonical(&m[k], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    #[test]
    fn fnv1a_gives_the_published_test_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn the_hash_ignores_key_order_and_spacing_but_not_values() {
        let a = r#"{"version":1,"name":"h","duration_s":5,
            "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":10}]},
            "flows":[{"transport":"tcp","cc":"reno","bytes":1000}]}"#;
        let b = r#"{"flows":[{"bytes":1000,"cc":"reno","transport":"tcp"}],"name":"h",
            "topology":{"links":[{"delay_ms":10,"rate_mbps":10}],"kind":"chain"},"duration_s":5,"version":1}"#;
        let h = scenario_hash(&scenario::parse(a).unwrap());
        assert_eq!(h, scenario_hash(&scenario::parse(b).unwrap()));
        assert!(h.starts_with("fnv1a64:") && h.len() == 8 + 16, "{h}");
        let c = scenario::parse(&a.replace("\"rate_mbps\":10", "\"rate_mbps\":11")).unwrap();
        assert_ne!(h, scenario_hash(&c));
        let sc = scenario::parse(a).unwrap();
        assert_ne!(run_hash(&sc, 1), run_hash(&sc, 2), "the seed is part of a run's scenario");
    }
}
