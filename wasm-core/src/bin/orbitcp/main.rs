//! `orbitcp`: the native command-line tool over the same core the browser runs.
//!
//! Exit codes: 0 success, 1 a run-time or I/O error, 2 a usage error or an invalid scenario,
//! 130 a run or sweep stopped by Ctrl-C (what was done is printed).

mod bench;
mod input;
mod interrupt;
mod parquet_out;
mod progress;
mod run;
mod sweep;
mod term;

use clap::{Args, Parser, Subcommand};
use orbitcp_core::runner::{self, Shard, SweepPlan};
use orbitcp_core::scenario::{self, Scenario};
use progress::Progress;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Most sweep threads `--threads` accepts.
const MAX_THREADS: usize = 1024;

#[derive(Parser)]
#[command(
    name = "orbitcp",
    version,
    about = "orbitcp: transport protocols over satellite networks, simulated",
    after_help = "SCENARIO is a JSON file (scenarios/README.md), or - to read it from standard input. Files a scenario \
                  names (\"tle_file\", \"omm_file\", \"isls_file\", \"ground_stations_file\") are read relative to \
                  the scenario file (to the working directory for -) and must stay in its folder, symbolic links \
                  included; a scenario and each file it names are read up to 64 MiB, regular files only.\n\n\
                  Exit codes: 0 success, 1 a run-time or I/O error, 2 a usage error or an invalid scenario, \
                  130 stopped by Ctrl-C.\n\n\
                  Ctrl-C stops a run at its current event and prints the partial result (each unfinished flow \
                  with its incomplete_reason), a constellation's route precomputation or `route` at its next \
                  step, or a sweep before its next run with the rows done, and exits 130; a second Ctrl-C \
                  (more than 100 ms after the first) exits at once. On a terminal, run and sweep show their progress on standard error.",
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
        /// Also write a pcap file per link into DIR (created if missing; checked before the run): every
        /// packet each link transmitted, both directions in one file (docs/pcap.md)
        #[arg(long, value_name = "DIR")]
        pcap: Option<PathBuf>,
        /// With --pcap: keep at most N packets in all; later ones are counted, not written
        #[arg(long, value_name = "N", default_value_t = orbitcp_core::runner::DEFAULT_PCAP_LIMIT, requires = "pcap")]
        pcap_limit: u64,
        /// With flows_alone, how many of the flows' simulations run at once (one with --pcap)
        #[command(flatten)]
        threads: ThreadsArg,
        /// The traces' format with --csv: csv, or parquet (.parquet files, the same columns)
        #[arg(long, value_enum, default_value = "csv", requires = "csv")]
        format: Format,
    },
    /// Runs every grid point and run of the scenario's sweep and prints CSV
    #[command(long_about = "Runs every grid point and run of the scenario's sweep on all cores and prints CSV, one \
                            row per (grid point, run, flow) with every metric a run reports, its job index, and the \
                            core version and scenario hash; --aggregate prints one row per (grid point, flow) with \
                            the mean, standard deviation and 95 % confidence half-width (Student t) of each metric \
                            over runs instead.\n\n\
                            --shard K/N runs only the jobs i with i % N == K - 1 (K from 1 to N, as a Slurm job \
                            array's SLURM_ARRAY_TASK_ID with --array=1-N), as raw rows; `orbitcp merge` joins the N \
                            shards into the table one unsharded sweep prints, and aggregates with --aggregate.")]
    Sweep {
        #[command(flatten)]
        scenario: ScenarioArg,
        /// One row per (grid point, flow): mean, standard deviation and 95 % confidence half-width over runs
        #[arg(long, conflicts_with = "shard")]
        aggregate: bool,
        /// Run only shard K of N (1 <= K <= N): the jobs i with i % N == K - 1; shards are raw, aggregate when merging
        #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
        shard: Option<Shard>,
        /// Write the table to FILE instead of standard output
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The table's format (parquet needs -o FILE)
        #[arg(long, value_enum, default_value = "csv", requires_if("parquet", "output"))]
        format: Format,
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// Joins the CSV shards of a sweep (sweep --shard K/N) into the table one unsharded sweep prints
    #[command(long_about = "Joins raw sweep tables written by `orbitcp sweep --shard K/N` (in any order) into \
                            exactly the CSV one unsharded `orbitcp sweep` prints, byte for byte; with --aggregate, \
                            exactly what `orbitcp sweep --aggregate` prints. Refuses (exit 2) shards of different \
                            core versions or scenarios, a job in two shards or in none (naming them), and \
                            aggregate tables: shards are raw, merge aggregates them.")]
    Merge {
        /// The shards' CSV files
        #[arg(value_name = "SHARD", required = true)]
        shards: Vec<PathBuf>,
        /// One row per (grid point, flow), as sweep --aggregate prints
        #[arg(long)]
        aggregate: bool,
        /// Write the table to FILE instead of standard output
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The table's format (parquet needs -o FILE)
        #[arg(long, value_enum, default_value = "csv", requires_if("parquet", "output"))]
        format: Format,
    },
    /// Prints each job of the scenario's sweep as a scenario of its own, one JSON per line
    #[command(long_about = "Prints each job of the scenario's sweep (with --shard K/N, the jobs of that shard) as \
                            a scenario of its own, one compact JSON per line (NDJSON), in job order: the base \
                            scenario with the grid point's values and the run's seed, without the sweep. \
                            `orbitcp run -` on a line gives the result of that job in the sweep, so GNU parallel \
                            or a job array can run them: orbitcp jobs S.json | parallel --pipe -N1 orbitcp run - \
                            --summary")]
    Jobs {
        #[command(flatten)]
        scenario: ScenarioArg,
        /// Only shard K of N (1 <= K <= N): the jobs i with i % N == K - 1
        #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
        shard: Option<Shard>,
    },
    /// Checks the scenario and every sweep point; prints every problem with its path
    Validate {
        #[command(flatten)]
        scenario: ScenarioArg,
    },
    /// Prints the JSON Schema of the scenario format (with --results: of the results)
    Schema {
        /// The schema of what runs report (the result, its traces and path timeline, and the
        /// constellation view) instead of the scenario's
        #[arg(long, conflicts_with = "sweep_metrics")]
        results: bool,
        /// The metrics of a sweep's table instead, in column order: key, name, unit, kind, whose
        /// figure (flow or run) and its JSON pointer in a result
        #[arg(long)]
        sweep_metrics: bool,
    },
    /// Runs the standard benchmark and prints events per second and wall time
    #[command(
        long_about = "Runs the standard benchmark (a 20 MB CUBIC transfer over a GEO hop in-process, best of 20, \
                            and the CTCP paper's Fig. 2 sweep of 1540 runs) and prints events per second and wall time.\n\n\
                            With --scenario, times that scenario instead: the whole on one thread, --repeat times (what \
                            `orbitcp run --summary --threads 1` does, the JSON aside), then each flow alone for the \
                            scenario's duration and for its first 60 s (on a constellation also with \"express\": false), and \
                            with --day one flow alone for 24 hours. \
                            Each run includes its routes' computation."
    )]
    Bench {
        #[command(flatten)]
        threads: ThreadsArg,
        /// Time this scenario (a JSON file, or - for standard input) instead of the standard benchmark
        #[arg(long, value_name = "SCENARIO", conflicts_with = "threads")]
        scenario: Option<String>,
        /// With --scenario: how many times the whole runs (its median is the figure)
        #[arg(long, value_name = "N", default_value_t = 3, requires = "scenario",
              value_parser = clap::value_parser!(u16).range(1..=100))]
        repeat: u16,
        /// With --scenario: also run flow FLOW (its index in the scenario's flows, from 0) alone for 24 hours
        #[arg(long, value_name = "FLOW", requires = "scenario")]
        day: Option<usize>,
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

/// How a table is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Csv,
    /// The same columns and values as the CSV, with the provenance also as key-value metadata
    Parquet,
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
    /// 130: Ctrl-C stopped the work; what was done is printed (`interrupt`).
    Interrupted(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Self {
        Failure::Runtime(e)
    }
}

/// A scenario that cannot run is the user's to fix (2); a run that failed is not (1).
impl From<runner::RunError> for Failure {
    fn from(e: runner::RunError) -> Self {
        if e == runner::RunError::Interrupted {
            Failure::Interrupted(
                "before the simulation started (while the constellation's routes were computed)".into(),
            )
        } else if e.is_invalid_scenario() {
            Failure::Invalid(e.to_string())
        } else {
            Failure::Runtime(e.to_string())
        }
    }
}

impl From<scenario::ScenarioError> for Failure {
    fn from(e: scenario::ScenarioError) -> Self {
        Failure::Invalid(e.to_string())
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

/// Standard output a line at a time, written in 64 KiB pieces: long listings (a route's rows,
/// a sweep's jobs) start to flow at once without a write per line.
struct LineOut(String);

impl LineOut {
    fn new() -> LineOut {
        LineOut(String::with_capacity(1 << 16))
    }

    fn line(&mut self, line: &str) {
        self.0.push_str(line);
        self.0.push('\n');
        if self.0.len() > 1 << 16 {
            emit(&self.0);
            self.0.clear();
        }
    }

    fn finish(self) {
        emit(&self.0);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run { scenario, summary, compare, csv, format, pcap, pcap_limit, threads } => run::cmd_run(
            &scenario.path,
            summary,
            compare,
            csv,
            format == Format::Parquet,
            pcap.map(|dir| (dir, pcap_limit)),
            threads.get(),
        ),
        Command::Sweep { scenario, aggregate, shard, output, format, threads } => sweep::cmd_sweep(
            &scenario.path,
            aggregate,
            shard,
            output.as_deref(),
            format == Format::Parquet,
            threads.get(),
        ),
        Command::Merge { shards, aggregate, output, format } => {
            sweep::cmd_merge(&shards, aggregate, output.as_deref(), format == Format::Parquet)
        }
        Command::Jobs { scenario, shard } => sweep::cmd_jobs(&scenario.path, shard),
        Command::Validate { scenario } => cmd_validate(&scenario.path),
        Command::Schema { results, sweep_metrics } => {
            let text = if results {
                runner::results_schema_json()
            } else if sweep_metrics {
                runner::sweep_metrics_json()
            } else {
                runner::schema_json()
            };
            emit(&format!("{text}\n"));
            Ok(())
        }
        Command::Bench { threads, scenario: None, .. } => bench::cmd_bench(threads.get()),
        Command::Bench { scenario: Some(path), repeat, day, .. } => {
            bench::cmd_bench_scenario(&path, repeat.into(), day)
        }
        Command::Route { scenario } => cmd_route(&scenario.path),
    };
    // Errors quote what the user wrote (file names, values): printed with control characters
    // escaped.
    match result {
        // A Ctrl-C that came after the work, while its output was written: the output is whole,
        // and the exit code still says the program was interrupted.
        Ok(()) if interrupt::requested() => {
            eprintln!("interrupted: after the work was done; the output written is complete");
            ExitCode::from(interrupt::EXIT_CODE)
        }
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Runtime(e)) => {
            eprintln!("error: {}", term::text(&e));
            ExitCode::from(1)
        }
        Err(Failure::Invalid(e)) => {
            eprintln!("error: {}", term::text(&e));
            ExitCode::from(2)
        }
        Err(Failure::Interrupted(e)) => {
            eprintln!("interrupted: {}", term::text(&e));
            ExitCode::from(interrupt::EXIT_CODE)
        }
    }
}

/// Parses and validates, as an invalid-scenario failure naming the file.
fn parse_scenario(name: &str, text: &str) -> Result<Scenario, Failure> {
    scenario::parse(text).map_err(|e| Failure::Invalid(format!("{name}:\n{e}")))
}

fn cmd_validate(path: &str) -> Outcome {
    let (name, text) = input::read_scenario(path)?;
    runner::validate_json(&text).map_err(|e| Failure::Invalid(format!("{name}:\n{e}")))?;
    let n = if parse_scenario(&name, &text)?.sweep.is_some() {
        SweepPlan::new(&text).map_err(|e| Failure::Invalid(format!("{name}:\n{e}")))?.len()
    } else {
        1
    };
    emit(&format!("{}: valid ({n} run{})\n", term::line(&name), if n == 1 { "" } else { "s" }));
    Ok(())
}

fn cmd_route(path: &str) -> Outcome {
    use orbitcp_core::orbit::{route::step_count, Router};
    let (name, text) = input::read_scenario(path)?;
    let sc = scenario::parse_timeline(&text).map_err(|e| Failure::Invalid(format!("{name}:\n{e}")))?;
    let scenario::Topology::Constellation(topo) = &sc.topology else {
        return Err(Failure::Invalid(format!("{name}: topology: a path timeline needs \"kind\": \"constellation\"")));
    };
    let b = topo.build(sc.duration_s).map_err(|e| format!("{name}: topology: {e}"))?;
    if let Some(report) = &b.grid_report {
        eprintln!("{}: constellation.grid \"infer\":\n{}", term::line(&name), term::text(report));
    }
    let step = b.cfg.step_s;
    let mut r = Router::new(&b.constellation, b.src, b.dst, b.cfg).map_err(|e| format!("{name}: {e}"))?;
    interrupt::install();
    let mut out = LineOut::new();
    out.line(Router::CSV_HEADER);
    let steps = step_count(b.t0_s, b.t1_s, step);
    for k in 0..steps {
        if interrupt::requested() {
            out.finish();
            return Err(Failure::Interrupted(format!("at step {k} of {steps}; the rows printed are the steps done")));
        }
        let s = r.step(b.t0_s + k as f64 * step);
        out.line(&r.csv_row(&s));
    }
    out.finish();
    Ok(())
}
