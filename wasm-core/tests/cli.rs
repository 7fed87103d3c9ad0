//! The command-line tool: exit codes, error messages and output shapes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

#[path = "common/cli.rs"]
mod cli_helpers;
use cli_helpers::{spawn, write_tmp};

fn orbitcp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orbitcp")).args(args).output().expect("the CLI runs")
}

fn orbitcp_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_orbitcp"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
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
    assert_eq!(o.status.code(), Some(2), "an invalid scenario");
    assert!(String::from_utf8_lossy(&o.stderr).contains("invalid JSON"));
    let o = orbitcp(&["run", "/nonexistent/x.json"]);
    assert_eq!(o.status.code(), Some(1), "an I/O error");
    let o = orbitcp(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
    assert!(String::from_utf8_lossy(&o.stderr).contains("unrecognized subcommand 'frobnicate'"));
}

#[test]
fn sweep_prints_one_row_per_point_run_and_flow_in_a_fixed_order() {
    let f = write_tmp("sweep.json", SMALL);
    let o = orbitcp(&["sweep", &f, "--threads", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "flows[0].cc,topology.links[0].loss.p,job,run,seed,flow,transport,cc,goodput_mbps,completion_s,\
         delivered_bytes,retransmissions,timeouts,owd_ms_mean,owd_ms_p95,owd_arrival_ms_mean,owd_arrival_ms_p95,\
         jitter_ms,coding_overhead,unrouted_pkts,fairness_jain,sweep_jobs,core_version,scenario_hash"
    );
    assert_eq!(lines.len(), 1 + 2 * 2 * 2);
    assert!(lines[1].starts_with("reno,0,0,0,1,0,tcp,reno,"));
    assert!(lines[8].starts_with("cubic,0.02,7,1,"));
    // The same runs on one thread give the same bytes: the result does not depend on scheduling.
    let one = orbitcp(&["sweep", &f, "--threads", "1"]);
    assert_eq!(String::from_utf8(one.stdout).unwrap(), text);
    // Run r has the same seed at every grid point (common random numbers).
    let seeds: Vec<&str> = lines[1..].iter().map(|l| l.split(',').nth(4).unwrap()).collect();
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

/// The event counts `orbitcp bench --scenario` prints under `heading`, by label.
fn bench_events(out: &str, heading: &str) -> Vec<(String, u64)> {
    out.split(heading)
        .nth(1)
        .unwrap_or_else(|| panic!("no {heading:?} in:\n{out}"))
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .map(|l| {
            let (label, rest) = l.trim().split_once(": ").unwrap();
            (label.to_string(), rest.split(' ').next().unwrap().parse().unwrap())
        })
        .collect()
}

#[test]
fn bench_of_a_scenario_times_the_whole_and_each_flow_alone() {
    let f = write_tmp(
        "bench.json",
        r#"{"version":1,"name":"two alone","duration_s":90,"flows_alone":true,
          "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":20,"loss":{"model":"bernoulli","p":0.01}}]},
          "flows":[{"transport":"tcp","cc":"reno","bytes":200000,"label":"Reno here"},
                   {"transport":"tcp","cc":"cubic","bytes":null}]}"#,
    );
    let o = orbitcp(&["bench", "--scenario", &f, "--repeat", "2", "--day", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with("scenario: two alone\n  the whole on one thread (2 flows each alone, 90 s simulated"),
        "{out}"
    );
    assert!(out.contains("(median of 2: "), "{out}");
    let whole: u64 = out.split("    events: ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let alone = bench_events(&out, "each flow alone, 90 s:");
    let labels: Vec<&str> = alone.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(labels, ["Reno here", "flow 1"]);
    // With flows_alone, the whole is those two simulations.
    assert_eq!(whole, alone.iter().map(|(_, e)| e).sum::<u64>());
    // The 200 kB transfer ends within its first seconds, and a longer run adds no event to it;
    // the endless one runs for the time asked.
    let first_60 = bench_events(&out, "each flow alone, the first 60 s:");
    assert_eq!(first_60[0], alone[0]);
    let (cut, whole_run) = (first_60[1].1 as f64, alone[1].1 as f64);
    assert!((cut / whole_run - 60.0 / 90.0).abs() < 0.05, "{cut} events in 60 s, {whole_run} in 90 s");
    assert_eq!(bench_events(&out, "one flow alone for 24 hours:"), [alone[0].clone()]);

    let o = orbitcp(&["bench", "--scenario", &f, "--day", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--day 2: ") && err.contains("has 2 flows, numbered from 0"), "{err}");
    // --repeat and --day belong to --scenario; --threads to the standard benchmark.
    for args in
        [&["bench", "--repeat", "2"][..], &["bench", "--day", "0"], &["bench", "--scenario", &f, "--threads", "2"]]
    {
        assert_eq!(orbitcp(args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn bench_of_a_constellation_gives_each_flow_hop_by_hop_too() {
    // The Beijing-New York preset's CTCP flow alone, for 61 s: its first 60 s are timed with the
    // express path and without it.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/leo-beijing-newyork-1600.json");
    let mut sc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let ctcp = sc["flows"].as_array().unwrap().iter().find(|f| f["transport"] == "ctcp").unwrap().clone();
    sc["flows"] = serde_json::json!([ctcp]);
    sc["duration_s"] = serde_json::json!(61);
    let f = write_tmp("bench-leo.json", &sc.to_string());
    let o = orbitcp(&["bench", "--scenario", &f, "--repeat", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    let line = out.split("the first 60 s (and with \"express\": false):\n").nth(1).unwrap().lines().next().unwrap();
    let counts: Vec<u64> =
        line.split(" events in ").filter_map(|part| part.rsplit(' ').next().and_then(|n| n.parse().ok())).collect();
    // Over 19-22 hops, a packet crossed in one event instead of one per hop.
    assert!(counts.len() == 2 && counts[1] > 4 * counts[0], "{line}");
}

#[test]
fn version_and_help_for_every_command_exit_zero() {
    let o = orbitcp(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), format!("orbitcp {}", env!("CARGO_PKG_VERSION")));
    for cmd in ["run", "sweep", "merge", "jobs", "validate", "schema", "bench", "route"] {
        let o = orbitcp(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{cmd} --help");
        assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("Usage: orbitcp {cmd}")), "{cmd}");
        assert_eq!(orbitcp(&["help", cmd]).stdout, o.stdout, "help {cmd}");
    }
    let o = orbitcp(&["run", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("--summary") && help.contains("--csv <DIR>") && help.contains("- for standard input"));
    // No command at all: the overview, as a usage error.
    let o = orbitcp(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Exit codes: 0 success"));
}

#[test]
fn a_dash_reads_the_scenario_from_standard_input() {
    let o = orbitcp_stdin(&["run", "--summary", "-"], SMALL);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["flows"][0]["delivered_bytes"], 200000);
    let o = orbitcp_stdin(&["validate", "-"], SMALL);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "<stdin>: valid (8 runs)\n");
    let o = orbitcp_stdin(&["validate", "-"], &SMALL.replace("\"reno\",\"bytes\"", "\"cubc\",\"bytes\""));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error: <stdin>:\nflows[0].cc: unknown value"));
}

#[test]
fn exit_codes_tell_usage_and_invalid_scenarios_from_io_failures() {
    let f = write_tmp("codes.json", SMALL);
    // 2: usage.
    for args in [vec!["run"], vec!["run", &f, "--frobnicate"], vec!["sweep", &f, "--threads", "x"], vec!["route"]] {
        assert_eq!(orbitcp(&args).status.code(), Some(2), "{args:?}");
    }
    // 2: an invalid scenario, or one the command does not take.
    let bad = write_tmp("codes-bad.json", &SMALL.replace("\"duration_s\":30", "\"duration_s\":-1"));
    for cmd in ["run", "sweep", "validate", "route"] {
        let o = orbitcp(&[cmd, &bad]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("duration_s: must be more than 0"), "{cmd}");
    }
    let o = orbitcp(&["route", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs \"kind\": \"constellation\""));
    // 1: I/O (a missing file, a missing tle_file).
    assert_eq!(orbitcp(&["validate", "/nonexistent/x.json"]).status.code(), Some(1));
    let leo = write_tmp(
        "codes-leo.json",
        r#"{"version":1,"name":"t","duration_s":1,"topology":{"kind":"constellation",
            "constellation":{"tle_file":"no-such.tle"},"src":"London","dst":"Paris"},
            "flows":[{"transport":"tcp","cc":"reno","bytes":1000}]}"#,
    );
    let o = orbitcp(&["run", &leo]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("topology.constellation.tle_file"));
}

#[test]
fn threads_beyond_the_bound_are_a_usage_error_not_a_panic() {
    let f = write_tmp("threads.json", SMALL);
    for n in ["1000000", "0", "-3", "many"] {
        let o = orbitcp(&["sweep", &f, &format!("--threads={n}")]);
        assert_eq!(o.status.code(), Some(2), "--threads {n}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("--threads <N>"), "--threads {n}");
    }
    // More threads than runs is fine: only as many start as there are runs.
    let o = orbitcp(&["sweep", &f, "--threads", "1024"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 9);
}

#[test]
fn an_unwritable_csv_directory_fails_before_the_run() {
    let f = write_tmp("csv-dir.json", SMALL);
    // A directory under a regular file cannot be created, even by root.
    let file = write_tmp("not-a-dir", "");
    let dir = format!("{file}/traces");
    let o = orbitcp(&["run", &f, "--summary", "--csv", &dir]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty(), "the run went ahead");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with(&format!("error: --csv {dir}: ")), "{err}");
}

/// A run long enough to be interrupted: minutes of a 1 Gbit/s transfer.
const LONG: &str = r#"{"version":1,"name":"long","duration_s":600,
  "topology":{"kind":"chain","links":[{"rate_mbps":1000,"delay_ms":10}]},
  "flows":[{"transport":"tcp","cc":"cubic","bytes":null},{"transport":"tcp","cc":"reno","bytes":100000000000}]}"#;

/// Sends SIGINT, as Ctrl-C in a terminal does.
fn ctrl_c(child: &std::process::Child) {
    let ok = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(ok.success());
}

#[test]
fn ctrl_c_stops_a_run_at_the_current_event_and_prints_the_partial_result() {
    let f = write_tmp("long.json", LONG);
    let child = spawn(&["run", "--summary", &f]);
    std::thread::sleep(std::time::Duration::from_millis(800));
    ctrl_c(&child);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: at "), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("the partial result is JSON");
    let end = v["end_s"].as_f64().unwrap();
    assert!(end > 0.0 && end < 600.0, "stopped at {end} s");
    for flow in v["flows"].as_array().unwrap() {
        assert_eq!(flow["completed"], false);
        let reason = flow["incomplete_reason"].as_str().unwrap_or_default();
        assert!(reason.starts_with("interrupted at ") && reason.contains(" s of 600 s"), "{reason}");
    }
}

/// Many short runs: a Ctrl-C lands in the middle of them. Enough of them that an idle machine
/// does not finish them all before the Ctrl-C (400 runs of 0.2 s did, in under 800 ms).
fn many_runs() -> String {
    let mut v: serde_json::Value = serde_json::from_str(LONG).unwrap();
    v["duration_s"] = 0.5.into();
    v["sweep"] = serde_json::json!({ "grid": { "flows[1].cc": ["reno", "cubic"] }, "runs": 1000 });
    v.to_string()
}

#[test]
fn ctrl_c_stops_a_sweep_before_its_next_run_and_prints_the_rows_done() {
    let f = write_tmp("many.json", &many_runs());
    let child = spawn(&["sweep", &f, "--threads", "2"]);
    std::thread::sleep(std::time::Duration::from_millis(800));
    ctrl_c(&child);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let done: usize = err
        .split("interrupted: ")
        .nth(2)
        .and_then(|s| s.split(" of 2000 runs done").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of the runs done: {err}"));
    assert!(done < 2000, "{err}");
    let text = String::from_utf8(o.stdout).unwrap();
    // The header, then two flows per run done, in job order: the grid's first point (reno)
    // for jobs 0-999, then cubic (a fast machine gets past the first 1000 before the Ctrl-C).
    assert_eq!(text.lines().count(), 1 + 2 * done, "{text}");
    for (i, line) in text.lines().skip(1).enumerate() {
        let job = i / 2;
        let cc = if job < 1000 { "reno" } else { "cubic" };
        assert!(line.starts_with(&format!("{cc},{job},")), "row {i}: {line}");
    }
}

#[test]
fn a_second_ctrl_c_exits_at_once() {
    // One long run per thread: the first Ctrl-C lets the runs under way finish.
    let mut v: serde_json::Value = serde_json::from_str(LONG).unwrap();
    v["sweep"] = serde_json::json!({ "grid": { "seed": [1, 2] } });
    let f = write_tmp("two-long.json", &v.to_string());
    let child = spawn(&["sweep", &f, "--threads", "1"]);
    std::thread::sleep(std::time::Duration::from_millis(800));
    ctrl_c(&child);
    std::thread::sleep(std::time::Duration::from_millis(300));
    ctrl_c(&child);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted again: exiting at once"), "{err}");
    assert!(o.stdout.is_empty());
}

/// A run of a second or so: long enough for the progress line to be drawn on a terminal.
fn a_second_of_work() -> String {
    let mut v: serde_json::Value = serde_json::from_str(LONG).unwrap();
    v["duration_s"] = 2.into();
    v["sweep"] = serde_json::json!({ "grid": { "seed": [1, 2] } });
    v.to_string()
}

#[test]
fn progress_goes_nowhere_when_stderr_is_not_a_terminal() {
    let f = write_tmp("quiet.json", &a_second_of_work());
    for args in [vec!["run", "--summary", &f], vec!["sweep", &f]] {
        let o = orbitcp(&args);
        assert!(o.status.success());
        assert!(o.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn progress_shows_on_a_terminal() {
    // util-linux `script` gives the program a pseudo-terminal; skip where it is missing.
    let f = write_tmp("tty.json", &a_second_of_work());
    let cmd = format!("{} run --summary {f} > /dev/null", env!("CARGO_BIN_EXE_orbitcp"));
    let Ok(o) = Command::new("script").args(["-qec", &cmd, "/dev/null"]).output() else {
        eprintln!("no `script`: skipped");
        return;
    };
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tty = String::from_utf8_lossy(&o.stdout);
    assert!(tty.contains(" s simulated (") && tty.contains("M events/s"), "{tty:?}");
    assert!(tty.ends_with("\r\x1b[K"), "the line is erased at the end: {tty:?}");
}

#[test]
fn sweep_csv_text_cells_cannot_start_a_spreadsheet_formula() {
    let mut v: serde_json::Value = serde_json::from_str(SMALL).unwrap();
    v["sweep"] = serde_json::json!({ "grid": {
        "flows[0].label": ["=HYPERLINK(\"http://x\",\"y\")", "+1", "-2", "@A1", "\tx", "plain"],
        "topology.links[0].loss.p": [0.01] } });
    let f = write_tmp("formula.json", &v.to_string());
    let o = orbitcp(&["sweep", &f]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let cells: Vec<&str> = text.lines().skip(1).map(|l| l.rsplit_once(",0.01,").unwrap().0).collect();
    assert_eq!(cells, ["\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"", "'+1", "'-2", "'@A1", "'\tx", "plain"]);
    // Numbers are left alone.
    assert!(text.lines().nth(1).unwrap().contains(",0.01,0,0,1,0,tcp,reno,"), "{text}");
}

#[test]
fn schema_results_describes_what_runs_report() {
    let o = orbitcp(&["schema", "--results"]);
    assert_eq!(o.status.code(), Some(0));
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let defs = &s["definitions"];
    for d in ["RunResult", "FlowResult", "Traces", "PathResult", "ConstellationView", "OrbitView"] {
        assert!(defs.get(d).is_some(), "{d} missing");
    }
    // Every field a run writes is in the schema, and an always-written option is required.
    let run: serde_json::Value =
        serde_json::from_slice(&orbitcp(&["run", "--summary", &write_tmp("schema-run.json", SMALL)]).stdout).unwrap();
    let props = defs["RunResult"]["properties"].as_object().unwrap();
    for k in run.as_object().unwrap().keys() {
        assert!(props.contains_key(k), "RunResult.{k} is not in the schema");
    }
    assert!(defs["Drops"]["required"].as_array().unwrap().contains(&"route_change".into()));
    let flow = &defs["FlowResult"];
    assert!(flow["required"].as_array().unwrap().contains(&"completion_s".into()));
    assert_eq!(flow["properties"]["completion_s"]["type"], serde_json::json!(["number", "null"]));
    // Without the flag: the scenario's.
    let scenario: serde_json::Value = serde_json::from_slice(&orbitcp(&["schema"]).stdout).unwrap();
    assert_eq!(scenario["title"], "Scenario");
}

#[test]
fn flows_alone_run_in_parallel_give_the_result_of_one_thread_and_of_a_single_run_each() {
    let alone = r#"{"version":1,"name":"alone","seed":3,"duration_s":20,"flows_alone":true,
      "topology":{"kind":"chain","links":[{"rate_mbps":20,"delay_ms":30,"loss":{"model":"bernoulli","p":0.01}}]},
      "flows":[{"transport":"tcp","cc":"cubic","bytes":400000},{"transport":"tcp","cc":"reno","bytes":300000},
               {"transport":"ctcp","variant":"v2","bytes":300000},{"transport":"intcp","bytes":300000}]}"#;
    let f = write_tmp("alone.json", alone);
    let one = orbitcp(&["run", "--summary", "--threads", "1", &f]);
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    for threads in ["2", "4"] {
        let many = orbitcp(&["run", "--summary", "--threads", threads, &f]);
        assert_eq!(one.stdout, many.stdout, "--threads {threads} changed the result");
    }
    // Each flow's figures are those of the scenario with that flow alone.
    let all: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    let mut sc: serde_json::Value = serde_json::from_str(alone).unwrap();
    let flows = sc["flows"].as_array().unwrap().clone();
    for (i, flow) in flows.into_iter().enumerate() {
        sc["flows"] = serde_json::json!([flow]);
        sc["flows_alone"] = false.into();
        let single = orbitcp(&["run", "--summary", &write_tmp(&format!("alone-{i}.json"), &sc.to_string())]);
        let single: serde_json::Value = serde_json::from_slice(&single.stdout).unwrap();
        let (mut got, want) = (all["flows"][i].clone(), single["flows"][0].clone());
        got["id"] = 0.into();
        assert_eq!(got, want, "flow {i}");
    }
}

#[test]
fn a_flows_alone_run_carries_the_hash_of_its_whole_scenario() {
    let mut sc: serde_json::Value = serde_json::from_str(SMALL).unwrap();
    sc.as_object_mut().unwrap().remove("sweep");
    sc["flows"] = serde_json::json!([{"transport":"tcp","cc":"reno","bytes":100000},{"transport":"tcp","cc":"cubic","bytes":100000}]);
    sc["flows_alone"] = true.into();
    let alone = write_tmp("hash-alone.json", &sc.to_string());
    sc["flows"] = serde_json::json!([{"transport":"tcp","cc":"reno","bytes":100000}]);
    sc["flows_alone"] = false.into();
    let first_alone = write_tmp("hash-first.json", &sc.to_string());
    let hash = |f: &str, threads: &str| {
        let o = orbitcp(&["run", "--summary", "--threads", threads, f]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["scenario_hash"].as_str().unwrap().to_string()
    };
    assert_eq!(hash(&alone, "1"), hash(&alone, "2"));
    assert_ne!(
        hash(&alone, "1"),
        hash(&first_alone, "1"),
        "the hash is of the whole scenario, not of its first flow's run"
    );
}

#[test]
fn route_reads_hypatias_files_beside_the_scenario() {
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/hypatia/kuiper-630/scenario.json");
    let o = orbitcp(&["route", scenario]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    // 200 s at 0.1 s; the first path is Rio de Janeiro over 13 satellites to Saint Petersburg.
    assert_eq!(out.lines().count(), 1 + 2001);
    let first = out.lines().nth(1).unwrap();
    // The oracle's RTT at t = 0 is 113.230458 ms: 56.615 ms one way, over satellites 236 … 144.
    assert!(first.starts_with("0,14,56.615,10.000,,Rio-de-Janeiro>Kuiper-630 236>Kuiper-630 237>"), "{first}");
    assert!(first.ends_with(">Kuiper-630 144>Sankt-Peterburg-(Saint-Petersburg)"), "{first}");
}

#[test]
fn a_file_outside_the_scenario_folder_is_refused_without_quoting_it() {
    for name in ["/etc/passwd", "../../etc/passwd"] {
        let f = write_tmp(
            "outside.json",
            &format!(
                r#"{{"version":1,"name":"t","duration_s":1,"topology":{{"kind":"constellation",
                "constellation":{{"tle_file":"{name}"}},"src":"London","dst":"Paris"}},
                "flows":[{{"transport":"tcp","cc":"reno","bytes":1000}}]}}"#
            ),
        );
        for cmd in ["run", "route", "validate"] {
            let o = orbitcp(&[cmd, &f]);
            assert_eq!(o.status.code(), Some(2), "{cmd} {name}");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.contains("topology.constellation.tle_file") && err.contains("relative to the scenario's folder"),
                "{err}"
            );
            assert!(!err.contains("root:"), "the error quotes the file: {err}");
        }
    }
}

#[test]
fn an_omm_file_and_an_isls_file_are_read_beside_the_scenario() {
    let omm = r#"[{"OBJECT_NAME": "ISS (ZARYA)", "EPOCH": "2020-07-12T21:16:01.000416", "MEAN_MOTION": 15.49507896,
        "ECCENTRICITY": 0.0001413, "INCLINATION": 51.6461, "RA_OF_ASC_NODE": 221.2784, "ARG_OF_PERICENTER": 89.1723,
        "MEAN_ANOMALY": 280.4612, "NORAD_CAT_ID": 25544, "BSTAR": -3.1515e-5},
        {"OBJECT_NAME": "TWIN", "EPOCH": "2020-07-12T21:16:01.000416", "MEAN_MOTION": 15.49507896,
        "ECCENTRICITY": 0.0001413, "INCLINATION": 51.6461, "RA_OF_ASC_NODE": 221.2784, "ARG_OF_PERICENTER": 89.1723,
        "MEAN_ANOMALY": 290.4612, "NORAD_CAT_ID": 25545, "BSTAR": -3.1515e-5}]"#;
    write_tmp("sats.omm.json", omm);
    write_tmp("pair.isls.txt", "0 1\n");
    let f = write_tmp(
        "omm-isls.json",
        r#"{"version":1,"name":"t","duration_s":10,"topology":{"kind":"constellation",
            "constellation":{"omm_file":"sats.omm.json","isls_file":"pair.isls.txt"},"isl":"list",
            "min_elevation_deg":10,"src":"London","dst":"Paris"},
            "flows":[{"transport":"tcp","cc":"reno","bytes":1000}]}"#,
    );
    let o = orbitcp(&["route", &f]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1 + 11);
    write_tmp("bad.isls.txt", "0 1\n0 7\n");
    let bad =
        write_tmp("omm-bad-isls.json", &std::fs::read_to_string(&f).unwrap().replace("pair.isls.txt", "bad.isls.txt"));
    let o = orbitcp(&["validate", &bad]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("topology.constellation.isls[1]") && err.contains("does not exist"), "{err}");
}

#[test]
fn a_sweep_over_seed_runs_each_seed_and_names_its_columns_apart() {
    let mut v: serde_json::Value = serde_json::from_str(SMALL).unwrap();
    v["sweep"] = serde_json::json!({ "grid": { "seed": [1, 2] } });
    let f = write_tmp("seed-grid.json", &v.to_string());
    let o = orbitcp(&["sweep", &f]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(&rows[0][..5], ["grid.seed", "job", "run", "seed", "flow"]);
    assert_eq!((&rows[1][..4], &rows[2][..4]), (&["1", "0", "0", "1"][..], &["2", "1", "0", "2"][..]));
    assert_ne!(rows[1][7], rows[2][7], "the two seeds' goodputs");
    // Each row is the run of its seed alone.
    for (seed, row) in [(1, &rows[1]), (2, &rows[2])] {
        v["seed"] = seed.into();
        v.as_object_mut().unwrap().remove("sweep");
        let alone = orbitcp_stdin(&["run", "--summary", "-"], &v.to_string());
        let r: serde_json::Value = serde_json::from_slice(&alone.stdout).unwrap();
        assert_eq!(r["flows"][0]["goodput_mbps"].as_f64().unwrap().to_string(), row[7], "seed {seed}");
    }
}

#[test]
fn a_duplicate_key_is_refused_even_when_the_cli_reads_a_file_into_the_scenario() {
    // Reading ground_stations_file writes the scenario back as JSON: a duplicate key used to
    // vanish there, the last one kept.
    write_tmp("dup-gs.txt", "0,Here,48.85,2.35,0\n");
    let f = write_tmp(
        "dup-with-file.json",
        r#"{"version":1,"name":"t","duration_s":5,"topology":{"kind":"constellation",
            "constellation":{"walker":{"altitude_km":550,"inclination_deg":53,"planes":4,"sats_per_plane":4}},
            "ground_stations_file":"dup-gs.txt","src":"Here","dst":"London",
            "min_elevation_deg":10,"min_elevation_deg":20},
          "flows":[{"transport":"tcp","cc":"reno","bytes":1000}]}"#,
    );
    let o = orbitcp(&["validate", &f]);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stdout));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("topology.min_elevation_deg: duplicate key \"min_elevation_deg\""), "{err}");
    // A byte-order mark, as some Windows editors write, is read.
    let f = write_tmp("bom.json", &format!("\u{feff}{}", SMALL));
    let o = orbitcp(&["validate", &f]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
