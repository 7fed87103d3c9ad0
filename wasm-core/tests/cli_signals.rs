//! The command-line tool and Ctrl-C (SIGINT): what stops, what is printed, and the exit code.
//! Linux only (they read /proc to know the program is at work before signalling it).
#![cfg(target_os = "linux")]

use std::io::Read;
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

#[path = "common/cli.rs"]
mod cli_helpers;
use cli_helpers::{spawn, write_tmp};

/// Longest any of these programs may take once signalled; only a program that ignores the
/// signal gets near it.
const DEADLINE: Duration = Duration::from_secs(90);

fn proc_status(pid: u32, key: &str) -> Option<String> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines().find_map(|l| l.strip_prefix(key)).map(|v| v.trim().to_string())
}

/// Whether the program has its SIGINT handler (bit 1 of SigCgt: signal 2).
fn catches_sigint(pid: u32) -> bool {
    proc_status(pid, "SigCgt:").and_then(|m| u64::from_str_radix(&m, 16).ok()).is_some_and(|m| m & 2 != 0)
}

/// CPU time used so far, in clock ticks (utime + stime of /proc/PID/stat).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's name, which is in parentheses.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    f.get(11).and_then(|u| u.parse::<u64>().ok()).unwrap_or(0)
        + f.get(12).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0)
}

/// Waits until `ready` holds for the program, which must not end first.
fn wait_for(child: &mut Child, what: &str, ready: impl Fn(u32) -> bool) {
    let start = Instant::now();
    while !ready(child.id()) {
        assert!(child.try_wait().unwrap().is_none(), "the program ended before {what}");
        assert!(start.elapsed() < DEADLINE, "never {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether the program's main thread is asleep: these programs never sleep but to write into a
/// full pipe (none of them reads anything once its handler is installed).
fn sleeping(pid: u32) -> bool {
    proc_status(pid, "State:").is_some_and(|s| s.starts_with('S'))
}

/// Waits until the program catches SIGINT and has worked for a third of a second of CPU time
/// (past reading and checking its scenario, which takes milliseconds) or has output waiting.
fn wait_until_at_work(child: &mut Child) {
    wait_for(child, "caught SIGINT and worked", |pid| catches_sigint(pid) && (cpu_ticks(pid) >= 33 || sleeping(pid)));
}

fn sigint(child: &Child) {
    let ok = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(ok.success());
}

/// The program's output, read as it comes (so that it never blocks on a full pipe); fails if it
/// has not ended within [`DEADLINE`].
fn finish(mut child: Child) -> Output {
    let mut pipes = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        pipes.0.read_to_end(&mut v).map(|_| v)
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        pipes.1.read_to_end(&mut v).map(|_| v)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running {} s after the signal", DEADLINE.as_secs());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output { status, stdout: out.join().unwrap().unwrap(), stderr: err.join().unwrap().unwrap() }
}

/// A week of Starlink's first shell between Beijing and New York at 1 s steps: computing its
/// routes before the run takes minutes.
fn starlink_week() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/leo-beijing-newyork-starlink.json");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["duration_s"] = 604_800.into();
    v["topology"]["step_s"] = 1.into();
    v.as_object_mut().unwrap().remove("sweep");
    v.to_string()
}

#[test]
fn ctrl_c_stops_a_run_while_its_constellation_routes_are_computed() {
    let f = write_tmp("week.json", &starlink_week());
    let mut child = spawn(&["run", "--summary", &f]);
    wait_until_at_work(&mut child);
    sigint(&child);
    let o = finish(child);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: before the simulation started"), "{err}");
    assert!(o.stdout.is_empty(), "nothing was simulated, so nothing is printed");
}

#[test]
fn ctrl_c_stops_route_at_its_next_step_with_the_rows_done() {
    let f = write_tmp("route-week.json", &starlink_week());
    let mut child = spawn(&["route", &f]);
    wait_until_at_work(&mut child);
    sigint(&child);
    let o = finish(child);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let text = String::from_utf8(o.stdout).unwrap();
    let rows = text.lines().count() - 1;
    assert!(text.starts_with("t_s,hops,owd_ms,bottleneck_mbps,event,nodes\n") && text.ends_with('\n'), "{text}");
    assert!(err.contains(&format!("interrupted: at step {rows} of 604801; the rows printed")), "{rows}: {err}");
    // Row k is at t = k s: every step done is printed, in order.
    let last = text.lines().last().unwrap();
    assert!(rows == 0 || last.starts_with(&format!("{},", rows - 1)), "{last}");
}

/// A run long enough to be interrupted: minutes of a 1 Gbit/s transfer.
const LONG: &str = r#"{"version":1,"name":"long","duration_s":600,
  "topology":{"kind":"chain","links":[{"rate_mbps":1000,"delay_ms":10}]},
  "flows":[{"transport":"tcp","cc":"cubic","bytes":null}]}"#;

#[test]
fn two_sigints_at_once_are_one_ctrl_c_and_the_partial_result_is_printed() {
    // `timeout -s INT` and Slurm signal the process and its group: two signals together.
    let f = write_tmp("long.json", LONG);
    let mut child = spawn(&["run", "--summary", &f]);
    wait_until_at_work(&mut child);
    // Signals sent at the same instant coalesce in the kernel; these are a few milliseconds
    // apart (the time to start `kill` again), well within the 100 ms that make one press.
    sigint(&child);
    sigint(&child);
    let o = finish(child);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(!err.contains("interrupted again"), "{err}");
    assert_eq!(err.matches("interrupted: stopping").count(), 1, "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("the partial result is JSON");
    let end = v["end_s"].as_f64().unwrap();
    assert!(end > 0.0 && end < 600.0, "stopped at {end} s");
}

#[test]
fn a_ctrl_c_while_the_output_is_written_exits_130_after_writing_it_whole() {
    // Megabytes of traces: the program blocks writing them into the pipe, which is not read
    // until it has been signalled.
    let f = write_tmp(
        "traces.json",
        r#"{"version":1,"name":"traces","duration_s":10,"trace":{"max_points":20000},
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":20}]},
        "flows":[{"transport":"tcp","cc":"reno","bytes":null}]}"#,
    );
    let mut child = spawn(&["run", &f]);
    wait_for(&mut child, "blocked writing", |pid| catches_sigint(pid) && sleeping(pid));
    sigint(&child);
    let o = finish(child);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: after the work was done; the output written is complete"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("the whole result");
    let reason = v["flows"][0]["incomplete_reason"].as_str().unwrap_or_default();
    assert!(!reason.starts_with("interrupted"), "the run had finished: {reason}");
    assert!(v["traces"]["flows"][0]["sender"]["t"].as_array().unwrap().len() > 2000);
}
