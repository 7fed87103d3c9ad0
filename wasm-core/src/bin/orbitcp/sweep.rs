//! `orbitcp sweep`: every grid point and run of a scenario's sweep (or a shard of them), on all
//! cores, as CSV; `orbitcp merge`, which joins shards; `orbitcp jobs`, which prints the jobs.

use crate::progress::{self, Progress};
use crate::{emit, input, interrupt, parse_scenario, Failure, LineOut, Outcome};
use orbitcp_core::runner::{self, RunError, RunResult, Shard, SweepPlan, SweepRunRow, SweepTable};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Runs the sweep's jobs `jobs` (indices) on `threads` threads, each job expanded when a thread
/// takes it; results come back in the order of `jobs`, whatever the scheduling. Once `stop()`
/// says so, no job starts (the ones under way finish): the results are then those of the first
/// jobs, fewer than asked for.
pub fn run_parallel(
    plan: &SweepPlan,
    jobs: &[usize],
    threads: usize,
    progress: &mut Progress,
    stop: fn() -> bool,
) -> Result<Vec<RunResult>, String> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let running = AtomicUsize::new(0);
    let total = jobs.len();
    let results: Mutex<Vec<Option<Result<RunResult, RunError>>>> = Mutex::new(vec![None; total]);
    let work = || loop {
        if stop() {
            break;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= total {
            break;
        }
        running.fetch_add(1, Ordering::Relaxed);
        let r = plan.job(jobs[i]).and_then(|job| runner::run_job(&job));
        results.lock().expect("no panics while holding the lock")[i] = Some(r);
        running.fetch_sub(1, Ordering::Relaxed);
        done.fetch_add(1, Ordering::Relaxed);
    };
    std::thread::scope(|s| {
        // No more threads than jobs; if the system refuses a thread, the ones started share the
        // work (and with none, this thread does it all).
        let mut workers = Vec::new();
        for _ in 0..threads.clamp(1, total.max(1)) {
            match std::thread::Builder::new().spawn_scoped(s, work) {
                Ok(w) => workers.push(w),
                Err(_) => break,
            }
        }
        if workers.is_empty() {
            work();
        }
        // This thread draws the progress line while the workers run.
        while progress.due() || !workers.iter().all(|w| w.is_finished()) {
            if workers.iter().all(|w| w.is_finished()) {
                break;
            }
            if progress.due() {
                let (d, r) = (done.load(Ordering::Relaxed), running.load(Ordering::Relaxed));
                progress.show(&progress::sweep_line(d, r, total, progress.elapsed()));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    progress.clear();
    let results = results.into_inner().map_err(|_| "a sweep thread failed".to_string())?;
    let finished = results.iter().take_while(|r| r.is_some()).count();
    if finished < total && !stop() {
        return Err("a run did not finish".into());
    }
    results.into_iter().take(finished).flatten().collect::<Result<_, _>>().map_err(String::from)
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
