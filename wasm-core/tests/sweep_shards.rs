//! Sweeps split over machines: `orbitcp sweep --shard K/N`, `orbitcp merge` and `orbitcp jobs`.
//! Merged shards must be the unsharded table byte for byte, whatever the split and the order the
//! shards come in; shards that do not make one sweep are refused with exit code 2.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn orbitcp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orbitcp")).args(args).output().expect("the CLI runs")
}

fn ok(o: Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("orbitcp-shards-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(name: &str, text: &str) -> String {
    let p = dir().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// 3 points × 3 runs (9 jobs, so that N = 2 and 5 leave shards of unequal size), two flows of
/// which one is CTCP (its coding overhead; no delay at arrival), a quoted grid cell and the
/// paper's column.
const GRID: &str = r#"{"version":1,"name":"shards","duration_s":3,"seed":11,
  "topology":{"kind":"chain","links":[{"rate_mbps":8,"delay_ms":15,"loss":{"model":"bernoulli","p":0.01}}]},
  "flows":[{"transport":"tcp","cc":"reno","bytes":40000},{"transport":"ctcp","variant":"v1","bytes":40000}],
  "sweep":{"grid":{"flows[0].label":["x, \"y\""],"flows[0].cc":["reno","cubic","bbr"]},"runs":3},
  "paper":{"source":"t","points":[{"at":{"flows[0].cc":"cubic"},"goodput_mbps":1.5}]}}"#;

/// A fixed shuffle of 0..n, different for each n (no randomness in the test itself).
fn shuffled(n: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        v.swap(i, (i * 7 + n) % (i + 1));
    }
    v
}

#[test]
fn merged_shards_are_the_unsharded_table_byte_for_byte() {
    let f = write("grid.json", GRID);
    let whole = ok(orbitcp(&["sweep", &f, "--threads", "2"]));
    let whole_agg = ok(orbitcp(&["sweep", &f, "--aggregate", "--threads", "2"]));
    assert_eq!(whole.lines().count(), 1 + 9 * 2);
    for n in [1, 2, 3, 5] {
        let mut files = Vec::new();
        for k in 1..=n {
            let out = dir().join(format!("shard-{k}-of-{n}.csv"));
            let shard = format!("{k}/{n}");
            ok(orbitcp(&["sweep", &f, "--shard", &shard, "--threads", "2", "-o", out.to_str().unwrap()]));
            let text = std::fs::read_to_string(&out).unwrap();
            // Jobs i with i % n == k - 1, two flows each.
            let jobs = (0..9).filter(|i| i % n == k - 1).count();
            assert_eq!(text.lines().count(), 1 + 2 * jobs, "shard {shard}");
            files.push(out.to_string_lossy().into_owned());
        }
        let order: Vec<&str> = shuffled(n).into_iter().map(|i| files[i].as_str()).collect();
        let mut args = vec!["merge"];
        args.extend(&order);
        assert_eq!(ok(orbitcp(&args)), whole, "N = {n}, shards in the order {order:?}");
        args.push("--aggregate");
        assert_eq!(ok(orbitcp(&args)), whole_agg, "N = {n}, --aggregate");
    }
    // -o writes the file and nothing to standard output.
    let out = dir().join("merged.csv");
    let one = write("all.csv", &whole);
    assert_eq!(ok(orbitcp(&["merge", &one, "-o", out.to_str().unwrap()])), "");
    assert_eq!(std::fs::read_to_string(out).unwrap(), whole);
}

fn refused(args: &[&str]) -> String {
    let o = orbitcp(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    err
}

#[test]
fn merge_refuses_shards_that_do_not_make_one_sweep() {
    let f = write("refuse.json", GRID);
    let shard = |k: usize, n: usize| {
        let text = ok(orbitcp(&["sweep", &f, "--shard", &format!("{k}/{n}"), "--threads", "2"]));
        write(&format!("r-{k}-of-{n}.csv"), &text)
    };
    let (a, b, c) = (shard(1, 3), shard(2, 3), shard(3, 3));
    let err = refused(&["merge", &a, &c]);
    assert!(err.contains("3 of the sweep's 9 jobs are in no shard: job 1, 4, 7"), "{err}");
    let err = refused(&["merge", &a, &b, &c, &a]);
    assert!(err.contains("job 0 is in both") && err.contains("overlapping shards"), "{err}");
    // Another scenario (another seed) has another hash.
    let other = write("other.json", &GRID.replace("\"seed\":11", "\"seed\":12"));
    let b2 = write("other-2-of-3.csv", &ok(orbitcp(&["sweep", &other, "--shard", "2/3", "--threads", "2"])));
    let err = refused(&["merge", &a, &b2, &c]);
    assert!(err.contains("are of different scenarios (scenario_hash fnv1a64:"), "{err}");
    // Another core version.
    let version = format!(",{},", env!("CARGO_PKG_VERSION"));
    let old = write("old-2-of-3.csv", &std::fs::read_to_string(&b).unwrap().replace(&version, ",0.0.0-old,"));
    let err = refused(&["merge", &a, &old, &c]);
    assert!(err.contains("by core 0.0.0-old: merge shards of one version"), "{err}");
    // Aggregate tables cannot be merged: merge aggregates raw shards itself.
    let agg = write("agg.csv", &ok(orbitcp(&["sweep", &f, "--aggregate", "--threads", "2"])));
    let err = refused(&["merge", &agg]);
    assert!(err.contains("agg.csv: an aggregate table (written with --aggregate)"), "{err}");
    let err = refused(&["sweep", &f, "--shard", "1/2", "--aggregate"]);
    assert!(err.contains("cannot be used with"), "{err}");
    // Bad shard specifications are usage errors naming the rule.
    for bad in ["0/3", "4/3", "3", "1/0", "x/y"] {
        let err = refused(&["sweep", &f, "--shard", bad]);
        assert!(err.contains("a shard is K/N with 1 <= K <= N"), "{bad}: {err}");
        let err = refused(&["jobs", &f, "--shard", bad]);
        assert!(err.contains("a shard is K/N with 1 <= K <= N"), "{bad}: {err}");
    }
    let o = orbitcp(&["merge", "/nonexistent/shard.csv"]);
    assert_eq!(o.status.code(), Some(1), "an I/O error");
}

#[test]
fn a_printed_job_runs_to_its_row_of_the_sweep() {
    let f = write("jobs.json", GRID);
    let jobs = ok(orbitcp(&["jobs", &f]));
    assert_eq!(jobs.lines().count(), 9);
    let shard = ok(orbitcp(&["jobs", &f, "--shard", "2/4"]));
    let picked: Vec<&str> = jobs.lines().enumerate().filter(|(i, _)| i % 4 == 1).map(|(_, l)| l).collect();
    assert_eq!(shard.lines().collect::<Vec<_>>(), picked);
    let sweep = ok(orbitcp(&["sweep", &f, "--threads", "2"]));
    let header: Vec<&str> = sweep.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    // The label cell is quoted and holds a comma: the header has one column fewer than a row
    // split on commas, so count from the end of the row.
    let from_end = |name: &str| header.len() - col(name);
    for job in [0, 4, 8] {
        let line = jobs.lines().nth(job).unwrap();
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v.get("sweep").is_none(), "a job is a plain scenario");
        let mut child = Command::new(env!("CARGO_BIN_EXE_orbitcp"))
            .args(["run", "-", "--summary"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(line.as_bytes()).unwrap();
        let r: serde_json::Value = serde_json::from_str(&ok(child.wait_with_output().unwrap())).unwrap();
        for flow in 0..2 {
            let row: Vec<&str> = sweep.lines().nth(1 + 2 * job + flow).unwrap().split(',').collect();
            let cell = |name: &str| row[row.len() - from_end(name)];
            let f = &r["flows"][flow];
            assert_eq!(cell("seed"), r["seed"].to_string(), "job {job}");
            assert_eq!(cell("goodput_mbps").parse::<f64>().unwrap(), f["goodput_mbps"].as_f64().unwrap());
            assert_eq!(cell("owd_ms_p95").parse::<f64>().unwrap(), f["owd_ms"]["p95"].as_f64().unwrap());
            assert_eq!(cell("delivered_bytes"), f["delivered_bytes"].to_string());
            assert_eq!(cell("fairness_jain").parse::<f64>().unwrap(), r["fairness_jain"].as_f64().unwrap());
            match f["coding"]["coded_overhead"].as_f64() {
                Some(o) => assert_eq!(cell("coding_overhead").parse::<f64>().unwrap(), o),
                None => assert_eq!(cell("coding_overhead"), "", "TCP has no coding overhead"),
            }
        }
        assert_eq!(r["core_version"], env!("CARGO_PKG_VERSION"));
        assert!(r["scenario_hash"].as_str().unwrap().starts_with("fnv1a64:"));
    }
}
