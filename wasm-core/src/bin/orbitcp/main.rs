//! `orbitcp`: the native command-line tool over the same core the browser runs.
//!
//! Exit codes: 0 success, 1 a run-time or I/O error, 2 a usage error or an invalid scenario.

use clap::{Args, Parser, Subcommand};
use orbitcp_core::metrics::mean_std;
use orbitcp_core::runner::{self, RunResult, SweepPlan};
use orbitcp_core::scenario::{self, Scenario};
use serde_json::Value;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Most sweep threads `--threads` accepts.
const MAX_THREADS: usize = 1024;

#[derive(Parser)]
#[command(
    name = "orbitcp",
    version,
    about = "orbitcp: transport protocols over satellite networks, simulated",
    after_help = "SCENARIO is a JSON file (scenarios/README.md), or - to read it from standard input. A \"tle_file\" \
                  is read relative to the scenario file (to the working directory for -).\n\n\
                  Exit codes: 0 success, 1 a run-time or I/O error, 2 a usage error or an invalid scenario.",
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Runs the scenario (its base point, not its sweep) and prints the result as JSON
    Run {
        #[command(flatten)]
        scenario: ScenarioArg,
        /// Leave out the traces
        #[arg(long)]
        summary: bool,
        /// Print a table of simulated against the paper's numbers instead of JSON
        #[arg(long)]
        compare: bool,
        /// Also write every trace as CSV files into DIR (created if missing; checked before the run)
        #[arg(long, value_name = "DIR")]
        csv: Option<PathBuf>,
    },
    /// Runs every grid point and run of the scenario's sweep and prints CSV
    #[command(long_about = "Runs every grid point and run of the scenario's sweep on all cores and prints CSV, one \
                            row per (grid point, run, flow); --aggregate prints one row per (grid point, flow) with \
                            the mean and standard deviation over runs instead.")]
    Sweep {
        #[command(flatten)]
        scenario: ScenarioArg,
        /// One row per (grid point, flow): mean and standard deviation over runs
        #[arg(long)]
        aggregate: bool,
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// Checks the scenario and every sweep point; prints every problem with its path
    Validate {
        #[command(flatten)]
        scenario: ScenarioArg,
    },
    /// Prints the JSON Schema of the scenario format
    Schema,
    /// Runs the standard benchmark and prints events per second and wall time
    Bench {
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// Prints the path timeline of a constellation scenario as CSV
    #[command(long_about = "Prints the path timeline of a constellation scenario (topology kind \"constellation\", \
                            see scenarios/README.md) over its duration_s as CSV: \
                            t_s,hops,owd_ms,bottleneck_mbps,event,nodes (event: handover or route_change; nodes \
                            joined by '>').")]
    Route {
        #[command(flatten)]
        scenario: ScenarioArg,
    },
}

#[derive(Args)]
struct ScenarioArg {
    /// The scenario JSON file, or - for standard input
    #[arg(value_name = "SCENARIO")]
    path: String,
}

#[derive(Args)]
struct ThreadsArg {
    /// Threads to run on (default: every core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: Option<u16>,
}

impl ThreadsArg {
    fn get(&self) -> usize {
        self.threads
            .map(usize::from)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS))
    }
}

/// Why a command failed, which sets the exit code.
enum Failure {
    /// 1: an I/O error, or a run that failed.
    Runtime(String),
    /// 2: the scenario is not valid (or not one this command takes).
    Invalid(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Self {
        Failure::Runtime(e)
    }
}

impl From<&str> for Failure {
    fn from(e: &str) -> Self {
        Failure::Runtime(e.into())
    }
}

type Outcome = Result<(), Failure>;

/// Writes to stdout; a closed pipe (`orbitcp sweep ... | head`) ends the program quietly
/// instead of panicking the way `print!` does.
fn emit(s: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(s.as_bytes()).and_then(|_| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing the output: {e}");
        std::process::exit(1);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run { scenario, summary, compare, csv } => cmd_run(&scenario.path, summary, compare, csv),
        Command::Sweep { scenario, aggregate, threads } => cmd_sweep(&scenario.path, aggregate, threads.get()),
        Command::Validate { scenario } => cmd_validate(&scenario.path),
        Command::Schema => {
            emit(&format!("{}\n", runner::schema_json()));
            Ok(())
        }
        Command::Bench { threads } => cmd_bench(threads.get()),
        Command::Route { scenario } => cmd_route(&scenario.path),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Runtime(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
        Err(Failure::Invalid(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The scenario's text and the name to report it by; `-` reads standard input.
fn read_file(path: &str) -> Result<(String, String), Failure> {
    let (name, text) = if path == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| format!("standard input: {e}"))?;
        ("<stdin>".to_string(), text)
    } else {
        (path.to_string(), std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?)
    };
    let text = inline_tle_file(path, &name, text)?;
    Ok((name, text))
}

/// The core does no I/O: a constellation's `tle_file` is read here, relative to the scenario
/// file (to the working directory for standard input), and its text handed over as `tle`.
fn inline_tle_file(path: &str, name: &str, text: String) -> Result<String, String> {
    let Ok(mut v) = serde_json::from_str::<Value>(&text) else { return Ok(text) };
    let Some(c) = v.pointer_mut("/topology/constellation").and_then(Value::as_object_mut) else { return Ok(text) };
    if c.contains_key("tle") {
        return Ok(text);
    }
    let Some(file) = c.get("tle_file").and_then(Value::as_str) else { return Ok(text) };
    let dir = if path == "-" {
        std::path::Path::new(".")
    } else {
        std::path::Path::new(path).parent().unwrap_or(std::path::Path::new("."))
    };
    let p = dir.join(file);
    let tle = std::fs::read_to_string(&p)
        .map_err(|e| format!("{name}: topology.constellation.tle_file: {}: {e}", p.display()))?;
    c.insert("tle".into(), Value::String(tle));
    Ok(v.to_string())
}

/// Parses and validates, as an invalid-scenario failure naming the file.
fn parse_scenario(name: &str, text: &str) -> Result<Scenario, Failure> {
    scenario::parse(text).map_err(|e| Failure::Invalid(format!("{name}:\n{e}")))
}

/// Creates `dir` if needed and checks that a file can be written in it, so that a run does not
/// end by failing to save its traces.
fn check_writable_dir(dir: &std::path::Path) -> Result<(), String> {
    let shown = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| format!("--csv {shown}: {e}"))?;
    let probe = dir.join(format!(".orbitcp-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| format!("--csv {shown}: cannot write there: {e}"))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn cmd_run(path: &str, summary: bool, compare: bool, csv: Option<PathBuf>) -> Outcome {
    let (name, text) = read_file(path)?;
    let sc = parse_scenario(&name, &text)?;
    if let Some(dir) = &csv {
        check_writable_dir(dir)?;
    }
    let with_traces = !summary || csv.is_some();
    let mut result = runner::run_scenario(&sc, sc.seed, with_traces)?;
    if let Some(dir) = &csv {
        write_csv_traces(dir, &result)?;
        if summary {
            result.traces = None;
        }
    }
    if compare {
        emit(&compare_table(&sc, &result));
    } else {
        emit(&format!("{}\n", serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?));
    }
    Ok(())
}

fn compare_table(sc: &Scenario, r: &RunResult) -> String {
    let mut out = format!("{}\n", sc.name);
    if let Some(p) = &sc.paper {
        out += &format!("paper: {}\n", p.source);
    }
    out += &format!("{:<5} {:<10} {:>14} {:>14}\n", "flow", "cc", "sim Mbit/s", "paper Mbit/s");
    for f in &r.flows {
        let paper = sc.paper.as_ref().and_then(|p| p.goodput_mbps.get(f.id as usize).copied().flatten());
        out += &format!(
            "{:<5} {:<10} {:>14.3} {:>14}\n",
            f.id,
            f.cc,
            f.goodput_mbps,
            paper.map_or("-".into(), |v| format!("{v:.3}"))
        );
    }
    let paper_j = sc.paper.as_ref().and_then(|p| p.fairness_jain);
    out += &format!(
        "Jain's index: sim {:.3}, paper {}\n",
        r.fairness_jain,
        paper_j.map_or("-".into(), |v| format!("{v:.2}"))
    );
    out
}

fn write_csv_traces(dir: &std::path::Path, r: &RunResult) -> Result<(), String> {
    let Some(t) = &r.traces else { return Ok(()) };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let write = |name: String, cols: &runner::Columns| -> Result<(), String> {
        let mut s = String::from("t_s");
        for k in cols.cols.keys() {
            s += &format!(",{k}");
        }
        s.push('\n');
        for i in 0..cols.t.len() {
            s += &format!("{}", cols.t[i]);
            for v in cols.cols.values() {
                s += &format!(
                    ",{}",
                    v.get(i).map_or(String::new(), |x| if x.is_null() { String::new() } else { x.to_string() })
                );
            }
            s.push('\n');
        }
        let p = dir.join(name);
        std::fs::write(&p, s).map_err(|e| format!("{}: {e}", p.display()))
    };
    for f in &t.flows {
        write(format!("flow{}_sender.csv", f.id), &f.sender)?;
        write(format!("flow{}_owd.csv", f.id), &f.owd)?;
        write(format!("flow{}_goodput.csv", f.id), &f.goodput)?;
        write(format!("flow{}_jitter.csv", f.id), &f.jitter)?;
    }
    for l in &t.links {
        write(format!("link{}_queue.csv", l.id), &l.queue)?;
    }
    Ok(())
}

fn cmd_validate(path: &str) -> Outcome {
    let (name, text) = read_file(path)?;
    runner::validate_json(&text).map_err(|e| Failure::Invalid(format!("{name}:\n{e}")))?;
    let n = if parse_scenario(&name, &text)?.sweep.is_some() {
        SweepPlan::new(&text).map_err(|e| Failure::Invalid(format!("{name}:\n{e}")))?.len()
    } else {
        1
    };
    emit(&format!("{name}: valid ({n} run{})\n", if n == 1 { "" } else { "s" }));
    Ok(())
}

/// Runs a sweep's jobs on `threads` threads, each job expanded when a thread takes it; results
/// come back in job order, whatever the scheduling.
fn run_parallel(plan: &SweepPlan, threads: usize, progress: bool) -> Result<Vec<RunResult>, String> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let total = plan.len();
    let results: Mutex<Vec<Option<Result<RunResult, String>>>> = Mutex::new(vec![None; total]);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= total {
            break;
        }
        let r = plan.job(i).and_then(|job| runner::run_job(&job));
        results.lock().expect("no panics while holding the lock")[i] = Some(r);
        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
        if progress {
            let width = 40;
            let filled = d * width / total;
            eprint!("\r[{}{}] {d}/{total} runs", "#".repeat(filled), " ".repeat(width - filled));
            let _ = std::io::stderr().flush();
        }
    };
    std::thread::scope(|s| {
        // No more threads than jobs; if the system refuses a thread, the ones started share the
        // work (and with none, this thread does it all).
        let mut started = 0;
        for _ in 0..threads.clamp(1, total.max(1)) {
            if std::thread::Builder::new().spawn_scoped(s, work).is_err() {
                break;
            }
            started += 1;
        }
        if started == 0 {
            work();
        }
    });
    if progress {
        eprintln!();
    }
    results
        .into_inner()
        .map_err(|_| "a sweep thread failed".to_string())?
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("a run did not finish".into())))
        .collect()
}

fn csv_field(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

fn paper_value(sc: &Scenario, point: &[(String, Value)], flow: u32) -> Option<f64> {
    let p = sc.paper.as_ref()?;
    p.points
        .iter()
        .find(|pp| {
            pp.flow == flow && pp.at.iter().all(|(k, v)| point.iter().any(|(pk, pv)| pk == k && values_match(pv, v)))
        })
        .map(|pp| pp.goodput_mbps)
}

fn values_match(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
        _ => a == b,
    }
}

fn cmd_sweep(path: &str, aggregate: bool, threads: usize) -> Outcome {
    let (name, text) = read_file(path)?;
    let base = parse_scenario(&name, &text)?;
    let invalid = |e: String| Failure::Invalid(format!("{name}: {e}"));
    let plan = SweepPlan::new(&text).map_err(invalid)?;
    plan.validate().map_err(invalid)?;
    let results = run_parallel(&plan, threads, std::io::stderr().is_terminal())?;
    let paths = plan.paths();
    let has_paper = base.paper.as_ref().is_some_and(|p| !p.points.is_empty());
    let mut out = String::new();
    let header_paths = paths.iter().map(|p| csv_field(&Value::String(p.clone()))).collect::<Vec<_>>().join(",");
    if aggregate {
        out += &format!("{header_paths},flow,transport,cc,runs,goodput_mbps_mean,goodput_mbps_std,completion_s_mean,retransmissions_mean,completed_runs");
        out += if has_paper { ",paper_goodput_mbps\n" } else { "\n" };
        let runs = plan.runs() as usize;
        for (p, chunk) in results.chunks(runs).enumerate() {
            let point = plan.point(p);
            for (fi, f0) in chunk[0].flows.iter().enumerate() {
                let g: Vec<f64> = chunk.iter().map(|r| r.flows[fi].goodput_mbps).collect();
                let c: Vec<f64> = chunk.iter().filter_map(|r| r.flows[fi].completion_s).collect();
                let rt: Vec<f64> = chunk.iter().map(|r| r.flows[fi].retransmissions as f64).collect();
                let (gm, gs) = mean_std(&g);
                let vals = point.iter().map(|(_, v)| csv_field(v)).collect::<Vec<_>>().join(",");
                out += &format!(
                    "{vals},{},{},{},{},{gm:.6},{gs:.6},{},{:.1},{}",
                    f0.id,
                    f0.transport,
                    f0.cc,
                    chunk.len(),
                    if c.is_empty() { String::new() } else { format!("{:.6}", mean_std(&c).0) },
                    mean_std(&rt).0,
                    c.len()
                );
                if has_paper {
                    out += &format!(",{}", paper_value(&base, &point, f0.id).map_or(String::new(), |v| v.to_string()));
                }
                out.push('\n');
            }
        }
    } else {
        out += &format!("{header_paths},run,seed,flow,transport,cc,goodput_mbps,completion_s,delivered_bytes,retransmissions,timeouts");
        out += if has_paper { ",paper_goodput_mbps\n" } else { "\n" };
        let runs = plan.runs() as usize;
        for (i, r) in results.iter().enumerate() {
            let point = plan.point(i / runs);
            let run = (i % runs) as u32;
            let vals = point.iter().map(|(_, v)| csv_field(v)).collect::<Vec<_>>().join(",");
            for f in &r.flows {
                out += &format!(
                    "{vals},{},{},{},{},{},{:.6},{},{},{},{}",
                    run,
                    plan.run_seed(run),
                    f.id,
                    f.transport,
                    f.cc,
                    f.goodput_mbps,
                    f.completion_s.map_or(String::new(), |c| format!("{c:.6}")),
                    f.delivered_bytes,
                    f.retransmissions,
                    f.timeouts
                );
                if has_paper {
                    out += &format!(",{}", paper_value(&base, &point, f.id).map_or(String::new(), |v| v.to_string()));
                }
                out.push('\n');
            }
        }
    }
    emit(&out);
    Ok(())
}

const BENCH_TRANSFER: &str = include_str!("../../../scenarios/bench-cubic-20mb.json");
const BENCH_SWEEP: &str = include_str!("../../../scenarios/ctcp-fig2-tcp.json");

/// Times a transfer in-process: best of 20 after a warm-up, so the figure is the simulator's
/// speed, not the machine's noise.
fn time_transfer(sc: &Scenario) -> Outcome {
    runner::run_scenario(sc, sc.seed, false)?;
    let mut best = f64::MAX;
    let mut events = 0;
    let reps = 20;
    for _ in 0..reps {
        let t = Instant::now();
        let r = runner::run_scenario(sc, sc.seed, false)?;
        best = best.min(t.elapsed().as_secs_f64());
        events = r.events;
    }
    emit(&format!("transfer: {}\n", sc.name));
    emit(&format!("  events: {events}\n"));
    emit(&format!("  wall time: {:.2} ms (best of {reps})\n", best * 1e3));
    emit(&format!("  events per second: {:.2} million\n", events as f64 / best / 1e6));
    Ok(())
}

fn cmd_bench(threads: usize) -> Outcome {
    let sc = scenario::parse(BENCH_TRANSFER)?;
    time_transfer(&sc)?;
    // ns-3's figure is for the same dumbbell with NewReno (SACK on, its default) and no loss.
    let mut peer = sc.clone();
    peer.name = "ns-3 comparison: the same 20 MB transfer with NewReno, PER 0".into();
    let scenario::Topology::Chain(chain) = &mut peer.topology else {
        return Err("the benchmark scenario is a chain".into());
    };
    chain.links[1].loss = None;
    let scenario::Flow::Tcp(flow) = &mut peer.flows[0] else { return Err("the benchmark flow is TCP".into()) };
    flow.cc = orbitcp_core::tcp::congestion::CcKind::Reno;
    time_transfer(&peer)?;
    let plan = SweepPlan::new(BENCH_SWEEP)?;
    let t = Instant::now();
    let results = run_parallel(&plan, threads, false)?;
    let dt = t.elapsed().as_secs_f64();
    let total_events: u64 = results.iter().map(|r| r.events).sum();
    emit(&format!("sweep: {} ({} runs on {threads} threads)\n", plan.point_scenario(0)?.name, plan.len()));
    emit(&format!("  wall time: {dt:.2} s\n"));
    emit(&format!("  events: {total_events} ({:.2} million per second)\n", total_events as f64 / dt / 1e6));
    if let Some(kib) = peak_memory_kib() {
        emit(&format!("peak memory: {:.1} MiB\n", kib as f64 / 1024.0));
    }
    Ok(())
}

/// Peak resident memory of this process (Linux `VmHWM`).
fn peak_memory_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn cmd_route(path: &str) -> Outcome {
    use orbitcp_core::orbit::{route::step_count, Router};
    let (name, text) = read_file(path)?;
    let sc = parse_scenario(&name, &text)?;
    let scenario::Topology::Constellation(topo) = &sc.topology else {
        return Err(Failure::Invalid(format!("{name}: topology: a path timeline needs \"kind\": \"constellation\"")));
    };
    let b = topo.build(sc.duration_s).map_err(|e| format!("{name}: topology: {e}"))?;
    let step = b.cfg.step_s;
    let mut r = Router::new(&b.constellation, b.src, b.dst, b.cfg).map_err(|e| format!("{name}: {e}"))?;
    let mut out = String::with_capacity(1 << 16);
    out.push_str(Router::CSV_HEADER);
    out.push('\n');
    for k in 0..step_count(b.t0_s, b.t1_s, step) {
        let s = r.step(b.t0_s + k as f64 * step);
        out.push_str(&r.csv_row(&s));
        out.push('\n');
        if out.len() > 1 << 16 {
            emit(&out);
            out.clear();
        }
    }
    emit(&out);
    Ok(())
}
