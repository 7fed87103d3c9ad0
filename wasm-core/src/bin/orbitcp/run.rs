//! `orbitcp run`: one run of a scenario's base point, stepped so that it can show progress and
//! stop cleanly on Ctrl-C.

use crate::progress::{self, Progress};
use crate::{emit, input, interrupt, parse_scenario, Failure, Outcome};
use orbitcp_core::csv;
use orbitcp_core::runner::{self, parallel, RunError, RunResult, Session};
use orbitcp_core::scenario::Scenario;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Events between two looks at the clock and at Ctrl-C: well under a millisecond of work.
const CHUNK: u64 = 4096;

/// `pcap`: the directory for the capture files and the capture's packet limit.
pub fn cmd_run(
    path: &str,
    summary: bool,
    compare: bool,
    csv: Option<PathBuf>,
    parquet: bool,
    pcap: Option<(PathBuf, u64)>,
    threads: usize,
) -> Outcome {
    let (name, text) = input::read_scenario(path)?;
    let sc = parse_scenario(&name, &text)?;
    // After reading: a Ctrl-C while standard input is awaited ends the program the usual way.
    interrupt::install();
    if let Some(dir) = &csv {
        check_writable_dir("--csv", dir)?;
    }
    if let Some((dir, _)) = &pcap {
        check_writable_dir("--pcap", dir)?;
    }
    if interrupt::requested() {
        return Err(Failure::Interrupted("before the run started".into()));
    }
    let with_traces = !summary || csv.is_some();
    let (mut result, interrupted, capture) = run_simulations(
        &sc,
        with_traces,
        threads,
        pcap.as_ref().map(|(_, limit)| *limit),
        &mut Progress::on_terminal(),
    )?;
    if let (Some((dir, limit)), Some(capture)) = (&pcap, &capture) {
        write_pcap(dir, *limit, capture)?;
    }
    if let Some(dir) = &csv {
        write_csv_traces(dir, &result, parquet)?;
        if summary {
            result.traces = None;
        }
    }
    if compare {
        emit(&compare_table(&sc, &result));
    } else {
        emit(&format!("{}\n", serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?));
    }
    if interrupted {
        return Err(Failure::Interrupted(format!(
            "at {:.3} of {} s simulated; the result printed is partial (see each flow's incomplete_reason)",
            result.end_s, sc.duration_s
        )));
    }
    Ok(())
}

/// Where one simulation stands, for the progress line: simulated seconds done and in all, events.
#[derive(Clone, Copy, Default)]
struct Standing {
    done_s: f64,
    total_s: f64,
    events: u64,
}

/// The scenario's result, whether Ctrl-C cut it short, and with `capture` (a packet limit) its
/// pcap files. Its simulations (one, or one per flow with `flows_alone`) run on up to `threads`
/// threads, each built and stepped on its own thread, and are reported together in scenario
/// order, so the result is the same for any `threads`. A capture puts every simulation's packets
/// into one set of files, so with one it runs them one after another in one session.
fn run_simulations(
    sc: &Scenario,
    with_traces: bool,
    threads: usize,
    capture: Option<u64>,
    progress: &mut Progress,
) -> Result<(RunResult, bool, Option<runner::PcapCapture>), RunError> {
    let parts = runner::simulations(sc);
    if parts.len() == 1 || threads <= 1 || capture.is_some() {
        let mut session = Session::new_until(sc, sc.seed, &interrupt::requested)?;
        if let Some(limit) = capture {
            session.enable_capture(limit);
        }
        drive(&mut session, |s| {
            if progress.due() {
                progress.show(&progress::run_line(
                    s.progress_s(),
                    s.total_s(),
                    s.events_processed(),
                    progress.elapsed(),
                ));
            }
        });
        progress.clear();
        let result = session.result(with_traces)?;
        return Ok((result, session.interrupted(), capture.map(|_| session.pcap())));
    }
    let standings = Mutex::new(vec![Standing::default(); parts.len()]);
    let simulate = |i: usize| -> Result<(RunResult, bool), RunError> {
        let report = |s: &Session| {
            standings.lock().expect("no panics while holding the lock")[i] =
                Standing { done_s: s.progress_s(), total_s: s.total_s(), events: s.events_processed() };
        };
        let mut session = Session::new_until(&parts[i], sc.seed, &interrupt::requested)?;
        drive(&mut session, report);
        Ok((session.result(with_traces)?, session.interrupted()))
    };
    // Ctrl-C stops each simulation at its current event (`drive`), never the pool: every
    // simulation reports, partially.
    let outcomes = parallel::run_jobs(
        parts.len(),
        threads,
        simulate,
        || false,
        |_| {
            if progress.due() {
                let all = standings.lock().expect("no panics while holding the lock").clone();
                let sum = |f: fn(&Standing) -> f64| all.iter().map(f).sum::<f64>();
                // Simulations not started yet count with the scenario's duration.
                let pending = all.iter().filter(|s| s.total_s == 0.0).count() as f64 * sc.duration_s;
                let events = all.iter().map(|s| s.events).sum();
                progress.show(&progress::run_line(
                    sum(|s| s.done_s),
                    sum(|s| s.total_s) + pending,
                    events,
                    progress.elapsed(),
                ));
            }
        },
    );
    progress.clear();
    let mut results = Vec::with_capacity(parts.len());
    let mut interrupted = false;
    for outcome in outcomes {
        let (result, cut) = outcome?;
        results.push(result);
        interrupted |= cut;
    }
    let hash = runner::provenance::run_hash(sc, sc.seed);
    Ok((runner::combine(results, &hash)?, interrupted, None))
}

/// Steps `session` to its end, or until Ctrl-C stops it at the current event (the way its event
/// budget would), telling `report` where it stands as it goes.
fn drive(session: &mut Session, mut report: impl FnMut(&Session)) {
    'run: loop {
        if !session.advance(CHUNK) {
            break 'run;
        }
        if interrupt::requested() {
            session.interrupt();
            break;
        }
        report(session);
    }
    report(session);
}

/// Creates `dir` if needed and checks that a file can be written in it, so that a run does not
/// end by failing to save its traces.
fn check_writable_dir(flag: &str, dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| format!("{flag} {shown}: {e}"))?;
    let probe = dir.join(format!(".orbitcp-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| format!("{flag} {shown}: cannot write there: {e}"))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Writes the capture's files into `dir`, and says on standard error if the limit cut it short
/// (the files then end at the limit: a reader sees the run's beginning).
fn write_pcap(dir: &Path, limit: u64, cap: &runner::PcapCapture) -> Result<(), String> {
    for f in &cap.files {
        let p = dir.join(&f.name);
        std::fs::write(&p, &f.bytes).map_err(|e| format!("--pcap {}: {e}", p.display()))?;
    }
    if cap.missed > 0 {
        eprintln!(
            "orbitcp: --pcap kept the first {} packets (--pcap-limit {limit}); {} later packets are not in the files",
            cap.packets, cap.missed
        );
    }
    Ok(())
}

/// The scenario's name and source are the scenario author's text: printed with control
/// characters escaped.
fn compare_table(sc: &Scenario, r: &RunResult) -> String {
    let mut out = format!("{}\n", crate::term::line(&sc.name));
    if let Some(p) = &sc.paper {
        out += &format!("paper: {}\n", crate::term::line(&p.source));
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

/// Writes every trace of `r` as CSV files (or with `parquet`, Parquet files of the same
/// columns, the run's provenance as their metadata) into `dir`: one per flow and kind, one per
/// link.
fn write_csv_traces(dir: &Path, r: &RunResult, parquet: bool) -> Result<(), String> {
    let Some(t) = &r.traces else { return Ok(()) };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let meta = [("core_version", r.core_version.as_str()), ("scenario_hash", r.scenario_hash.as_str())];
    let write = |name: String, cols: &runner::Columns| -> Result<(), String> {
        let text = columns_csv(cols);
        let (p, bytes) = if parquet {
            let p = dir.join(format!("{name}.parquet"));
            let bytes = crate::parquet_out::from_csv(&text, &meta).map_err(|e| format!("{}: {e}", p.display()))?;
            (p, bytes)
        } else {
            (dir.join(format!("{name}.csv")), text.into_bytes())
        };
        std::fs::write(&p, bytes).map_err(|e| format!("{}: {e}", p.display()))
    };
    for f in &t.flows {
        write(format!("flow{}_sender", f.id), &f.sender)?;
        write(format!("flow{}_owd", f.id), &f.owd)?;
        write(format!("flow{}_goodput", f.id), &f.goodput)?;
        write(format!("flow{}_jitter", f.id), &f.jitter)?;
    }
    for l in &t.links {
        write(format!("link{}_queue", l.id), &l.queue)?;
    }
    Ok(())
}

/// One trace as CSV: `t_s` and its columns, a row per point; cells as `orbitcp_core::csv`
/// writes them.
fn columns_csv(cols: &runner::Columns) -> String {
    let mut s = String::from("t_s");
    for k in cols.cols.keys() {
        s += &format!(",{}", csv::text(k));
    }
    s.push('\n');
    for (i, t) in cols.t.iter().enumerate() {
        s += &t.to_string();
        for v in cols.cols.values() {
            s += &format!(",{}", v.get(i).map_or("".into(), csv::value));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn trace_csv_cells_cannot_start_a_formula_and_numbers_stay_numbers() {
        let mut cols = serde_json::Map::new();
        cols.insert("cwnd".into(), json!([10, -2.5, null]));
        cols.insert("state".into(), json!(["open", "=cmd|' /C calc'!A0", "@SUM(A1)"]));
        let csv = columns_csv(&runner::Columns { t: vec![0.0, 0.5, 1.0], cols });
        assert_eq!(csv, "t_s,cwnd,state\n0,10,open\n0.5,-2.5,'=cmd|' /C calc'!A0\n1,,'@SUM(A1)\n");
    }
}
