//! `orbitcp sweep`: every grid point and run of a scenario's sweep, on all cores, as CSV.

use crate::progress::{self, Progress};
use crate::{emit, interrupt, parse_scenario, read_file, Failure, Outcome};
use orbitcp_core::runner::{self, RunError, RunResult, SweepPlan};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Runs a sweep's jobs on `threads` threads, each job expanded when a thread takes it; results
/// come back in job order, whatever the scheduling. Once `stop()` says so, no job starts (the
/// ones under way finish): the results are then those of the first jobs, fewer than the plan's.
pub fn run_parallel(
    plan: &SweepPlan,
    threads: usize,
    progress: &mut Progress,
    stop: fn() -> bool,
) -> Result<Vec<RunResult>, String> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let running = AtomicUsize::new(0);
    let total = plan.len();
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
        let r = plan.job(i).and_then(|job| runner::run_job(&job));
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

pub fn cmd_sweep(path: &str, aggregate: bool, threads: usize) -> Outcome {
    let (name, text) = read_file(path)?;
    let base = parse_scenario(&name, &text)?;
    interrupt::install();
    let invalid = |e: &dyn std::fmt::Display| Failure::Invalid(format!("{name}: {e}"));
    let plan = SweepPlan::new(&text).map_err(|e| invalid(&e))?;
    plan.validate().map_err(|e| invalid(&e))?;
    if interrupt::requested() {
        return Err(Failure::Interrupted("before the sweep started".into()));
    }
    let results = run_parallel(&plan, threads, &mut Progress::on_terminal(), interrupt::requested)?;
    let rows: Vec<Vec<runner::SweepFlowRow>> =
        results.iter().map(|r| r.flows.iter().map(runner::SweepFlowRow::from).collect()).collect();
    let out = runner::sweep_csv(&plan, &base, &rows, aggregate);
    emit(&out);
    if results.len() < plan.len() {
        return Err(Failure::Interrupted(format!(
            "{} of {} runs done; the rows printed are theirs",
            results.len(),
            plan.len()
        )));
    }
    Ok(())
}
