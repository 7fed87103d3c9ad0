//! `orbitcp sweep`: every grid point and run of a scenario's sweep, on all cores, as CSV.

use crate::progress::{self, Progress};
use crate::{emit, interrupt, parse_scenario, read_file, Failure, Outcome};
use orbitcp_core::csv;
use orbitcp_core::metrics::mean_std;
use orbitcp_core::runner::{self, RunError, RunResult, SweepPlan};
use orbitcp_core::scenario::Scenario;
use serde_json::Value;
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
    let paths = plan.paths();
    let has_paper = base.paper.as_ref().is_some_and(|p| !p.points.is_empty());
    let mut out = String::new();
    let header_paths = paths.iter().map(|p| csv::text(p)).collect::<Vec<_>>().join(",");
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
                let vals = point.iter().map(|(_, v)| csv::value(v)).collect::<Vec<_>>().join(",");
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
            let vals = point.iter().map(|(_, v)| csv::value(v)).collect::<Vec<_>>().join(",");
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
    if results.len() < plan.len() {
        return Err(Failure::Interrupted(format!(
            "{} of {} runs done; the rows printed are theirs",
            results.len(),
            plan.len()
        )));
    }
    Ok(())
}
