//! Helpers shared by the integration tests: build scenarios from JSON and read their results.

#![allow(dead_code)]

pub mod scenarios;

use orbitcp_core::runner::{self, RunResult};
use orbitcp_core::scenario;
use serde_json::{json, Value};

/// A one-hop scenario: `rate_mbps`, one-way `delay_ms`, `buffer_pkts`, Bernoulli loss `p`.
pub fn one_hop(
    rate_mbps: f64,
    delay_ms: f64,
    buffer_pkts: Option<u32>,
    p: f64,
    duration_s: f64,
    flows: Vec<Value>,
) -> Value {
    let mut link = json!({ "rate_mbps": rate_mbps, "delay_ms": delay_ms, "loss": { "model": "bernoulli", "p": p } });
    if let Some(b) = buffer_pkts {
        link["buffer_pkts"] = b.into();
    }
    json!({
        "version": 1, "name": "test", "seed": 1, "duration_s": duration_s,
        "topology": { "kind": "chain", "links": [link] },
        "flows": flows,
    })
}

pub fn tcp(cc: &str, bytes: Option<u64>) -> Value {
    json!({ "transport": "tcp", "cc": cc, "bytes": bytes })
}

pub fn run(v: &Value, with_traces: bool) -> RunResult {
    let sc = scenario::from_value(v.clone()).unwrap_or_else(|e| panic!("invalid test scenario: {e}"));
    runner::run_scenario(&sc, sc.seed, with_traces).unwrap_or_else(|e| panic!("run failed: {e}"))
}

pub fn run_seed(v: &Value, seed: u64) -> RunResult {
    let sc = scenario::from_value(v.clone()).unwrap_or_else(|e| panic!("invalid test scenario: {e}"));
    runner::run_scenario(&sc, seed, false).unwrap_or_else(|e| panic!("run failed: {e}"))
}

/// A sender trace column of flow `f` as numbers (NaN for nulls).
pub fn column(r: &RunResult, f: usize, name: &str) -> (Vec<f64>, Vec<f64>) {
    let t = &r.traces.as_ref().expect("traces").flows[f].sender;
    let v = t.cols[name].as_array().unwrap().iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect();
    (t.t.clone(), v)
}

/// Value of a step-wise trace at time `at` (the last point at or before it).
pub fn at(t: &[f64], v: &[f64], at: f64) -> f64 {
    let i = t.partition_point(|&x| x <= at);
    v[i.saturating_sub(1)]
}
