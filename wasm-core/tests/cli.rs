//! The command-line tool: exit codes, error messages and output shapes.

use std::process::{Command, Output};

fn orbitcp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orbitcp")).args(args).output().expect("the CLI runs")
}

fn write_tmp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("orbitcp-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().to_string()
}

const SMALL: &str = r#"{"version":1,"name":"small","duration_s":30,
  "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":20,"loss":{"model":"bernoulli","p":0.01}}]},
  "flows":[{"transport":"tcp","cc":"reno","bytes":200000}],
  "sweep":{"grid":{"flows[0].cc":["reno","cubic"],"topology.links[0].loss.p":[0,0.02]},"runs":2}}"#;

#[test]
fn a_bad_scenario_exits_non_zero_naming_the_path() {
    let f = write_tmp("bad.json", &SMALL.replace("\"reno\",\"bytes\"", "\"cubc\",\"bytes\""));
    for cmd in ["run", "validate", "sweep"] {
        let o = orbitcp(&[cmd, &f]);
        assert!(!o.status.success(), "{cmd} accepted a bad scenario");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("flows[0].cc: unknown value \"cubc\""), "{cmd}: {err}");
    }
}

#[test]
fn malformed_json_and_missing_files_are_errors_not_panics() {
    let f = write_tmp("broken.json", "{\"version\": 1,");
    let o = orbitcp(&["run", &f]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("invalid JSON"));
    let o = orbitcp(&["run", "/nonexistent/x.json"]);
    assert_eq!(o.status.code(), Some(1));
    let o = orbitcp(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown command"));
}

#[test]
fn sweep_prints_one_row_per_point_run_and_flow_in_a_fixed_order() {
    let f = write_tmp("sweep.json", SMALL);
    let o = orbitcp(&["sweep", &f, "--threads", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "flows[0].cc,topology.links[0].loss.p,run,seed,flow,transport,cc,goodput_mbps,completion_s,delivered_bytes,retransmissions,timeouts");
    assert_eq!(lines.len(), 1 + 2 * 2 * 2);
    assert!(lines[1].starts_with("reno,0,0,1,0,tcp,reno,"));
    assert!(lines[8].starts_with("cubic,0.02,1,"));
    // The same runs on one thread give the same bytes: the result does not depend on scheduling.
    let one = orbitcp(&["sweep", &f, "--threads", "1"]);
    assert_eq!(String::from_utf8(one.stdout).unwrap(), text);
    // Run r has the same seed at every grid point (common random numbers).
    let seeds: Vec<&str> = lines[1..].iter().map(|l| l.split(',').nth(3).unwrap()).collect();
    assert_eq!(seeds[0], seeds[2]);
    assert_eq!(seeds[1], seeds[3]);
    assert_ne!(seeds[0], seeds[1]);
}

#[test]
fn run_summary_is_json_with_the_documented_fields() {
    let f = write_tmp("run.json", SMALL);
    let o = orbitcp(&["run", &f, "--summary"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let flow = &v["flows"][0];
    for k in [
        "id",
        "transport",
        "cc",
        "delivered_bytes",
        "completion_s",
        "goodput_mbps",
        "retransmissions",
        "timeouts",
        "owd_ms",
        "jitter_ms",
    ] {
        assert!(flow.get(k).is_some(), "missing {k}");
    }
    assert!(v.get("fairness_jain").is_some());
    assert!(v.get("traces").is_none(), "--summary leaves the traces out");
    assert_eq!(flow["delivered_bytes"], 200000);
}

#[test]
fn csv_export_writes_every_trace() {
    let f = write_tmp("csv.json", SMALL);
    let dir = std::env::temp_dir().join(format!("orbitcp-cli-csv-{}", std::process::id()));
    let o = orbitcp(&["run", &f, "--summary", "--csv", dir.to_str().unwrap()]);
    assert!(o.status.success());
    let sender = std::fs::read_to_string(dir.join("flow0_sender.csv")).unwrap();
    assert!(sender.starts_with("t_s,cwnd,ssthresh,srtt_ms,rtt_ms,acked_bytes,inflight,retransmissions,state\n"));
    assert!(sender.lines().count() > 10);
    assert!(dir.join("link0_queue.csv").exists());
}

#[test]
fn an_overflowing_sweep_grid_is_an_error_not_zero_runs() {
    let values: Vec<u32> = (1..=256).collect();
    let grid: serde_json::Map<String, serde_json::Value> =
        (0..8).map(|i| (format!("topology.links[0].p{i}"), serde_json::json!(values))).collect();
    let mut v: serde_json::Value = serde_json::from_str(SMALL).unwrap();
    v["sweep"] = serde_json::json!({ "grid": grid });
    let f = write_tmp("overflow.json", &v.to_string());
    for cmd in ["validate", "sweep"] {
        let o = orbitcp(&[cmd, &f]);
        assert!(!o.status.success(), "{cmd} accepted an overflowing grid");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("sweep.grid: 256 × 256") && err.contains("at most 100000"), "{cmd}: {err}");
        assert!(o.stdout.is_empty(), "{cmd} printed {}", String::from_utf8_lossy(&o.stdout));
    }
}
