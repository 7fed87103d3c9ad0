//! `orbitcp sweep`: every grid point and run of a scenario's sweep (or a shard of them), on all
//! cores, as CSV; `orbitcp merge`, which joins shards; `orbitcp jobs`, which prints the jobs.

use crate::progress::{self, Progress};
use crate::{emit, input, interrupt, parse_scenario, Failure, LineOut, Outcome};
use orbitcp_core::runner::{self, parallel, RunResult, Shard, SweepPlan, SweepRunRow, SweepTable};
use std::path::Path;

/// Runs the sweep's jobs `jobs` (indices) on `threads` threads (`runner::parallel`), each job
/// expanded when a thread takes it; results come back in the order of `jobs`, whatever the
/// scheduling. Once `stop()` says so, no job starts (the ones under way finish): the results are
/// then those of the first jobs, fewer than asked for.
pub fn run_parallel(
    plan: &SweepPlan,
    jobs: &[usize],
    threads: usize,
    progress: &mut Progress,
    stop: fn() -> bool,
) -> Result<Vec<RunResult>, String> {
    let total = jobs.len();
    let run = |i: usize| plan.job(jobs[i]).and_then(|job| runner::run_job(&job));
    let results = parallel::run_jobs(total, threads, run, stop, |t| {
        if progress.due() {
            progress.show(&progress::sweep_line(t.done, t.running, total, progress.elapsed()));
        }
    });
    progress.clear();
    if results.len() < total && !stop() {
        return Err("a run did not finish".into());
    }
    results.into_iter().collect::<Result<_, _>>().map_err(String::from)
}

pub fn cmd_sweep(
    path: &str,
    aggregate: bool,
    shard: Option<Shard>,
    output: Option<&Path>,
    parquet: bool,
    threads: usize,
) -> Outcome {
    let (name, text) = input::read_scenario(path)?;
    let base = parse_scenario(&name, &text)?;
    interrupt::install();
    let invalid = |e: &dyn std::fmt::Display| Failure::Invalid(format!("{name}: {e}"));
    let plan = SweepPlan::new(&text).map_err(|e| invalid(&e))?;
    plan.validate().map_err(|e| invalid(&e))?;
    if let Some(out) = output {
        check_writable(out)?;
    }
    if interrupt::requested() {
        return Err(Failure::Interrupted("before the sweep started".into()));
    }
    let jobs: Vec<usize> = match shard {
        Some(s) => s.jobs(plan.len()).collect(),
        None => (0..plan.len()).collect(),
    };
    let results = run_parallel(&plan, &jobs, threads, &mut Progress::on_terminal(), interrupt::requested)?;
    let mut table = SweepTable::new(&plan, &base);
    for (&job, r) in jobs.iter().zip(&results) {
        table.push(&plan, &base, job, SweepRunRow::from(r));
    }
    write_table(output, &table, aggregate, parquet)?;
    if results.len() < jobs.len() {
        return Err(Failure::Interrupted(format!(
            "{} of {} runs done; the rows written are theirs",
            results.len(),
            jobs.len()
        )));
    }
    Ok(())
}

pub fn cmd_merge(paths: &[std::path::PathBuf], aggregate: bool, output: Option<&Path>, parquet: bool) -> Outcome {
    let mut shards = Vec::with_capacity(paths.len());
    for p in paths {
        let name = p.display().to_string();
        let text = input::read_shard(p, &name)?;
        shards.push(runner::parse_sweep_csv(&name, &text).map_err(Failure::Invalid)?);
    }
    let table = runner::merge_sweep_csv(shards).map_err(Failure::Invalid)?;
    write_table(output, &table, aggregate, parquet)
}

pub fn cmd_jobs(path: &str, shard: Option<Shard>) -> Outcome {
    let (name, text) = input::read_scenario(path)?;
    parse_scenario(&name, &text)?;
    let plan = SweepPlan::new(&text).map_err(|e| Failure::Invalid(format!("{name}: {e}")))?;
    plan.validate().map_err(|e| Failure::Invalid(format!("{name}: {e}")))?;
    let jobs: Vec<usize> = match shard {
        Some(s) => s.jobs(plan.len()).collect(),
        None => (0..plan.len()).collect(),
    };
    let mut out = LineOut::new();
    for i in jobs {
        let v = plan.job_json(i).map_err(|e| Failure::Invalid(format!("{name}: {e}")))?;
        out.line(&serde_json::to_string(&v).map_err(|e| e.to_string())?);
    }
    out.finish();
    Ok(())
}

/// Fails before any work if `path` cannot be written, so that a sweep does not end by losing
/// its table.
fn check_writable(path: &Path) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(drop)
        .map_err(|e| format!("--output {}: {e}", path.display()))
}

/// To the file (as CSV or Parquet), or as CSV to standard output (clap requires a file for
/// Parquet).
fn write_table(path: Option<&Path>, table: &SweepTable, aggregate: bool, parquet: bool) -> Outcome {
    let text = table.csv(aggregate);
    match path {
        Some(p) => {
            let bytes = if parquet {
                let meta =
                    [("core_version", table.core_version.as_str()), ("scenario_hash", table.scenario_hash.as_str())];
                crate::parquet_out::from_csv(&text, &meta).map_err(|e| format!("{}: {e}", p.display()))?
            } else {
                text.into_bytes()
            };
            std::fs::write(p, bytes).map_err(|e| Failure::Runtime(format!("{}: {e}", p.display())))
        }
        None => {
            emit(&text);
            Ok(())
        }
    }
}
