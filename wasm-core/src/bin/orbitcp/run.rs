//! `orbitcp run`: one run of a scenario's base point, stepped so that it can show progress and
//! stop cleanly on Ctrl-C.

use crate::progress::{self, Progress};
use crate::{emit, interrupt, parse_scenario, read_file, Failure, Outcome};
use orbitcp_core::csv;
use orbitcp_core::runner::{self, RunResult, Session};
use orbitcp_core::scenario::Scenario;
use std::path::{Path, PathBuf};

/// Events between two looks at the clock and at Ctrl-C: well under a millisecond of work.
const CHUNK: u32 = 4096;

pub fn cmd_run(path: &str, summary: bool, compare: bool, csv: Option<PathBuf>, parquet: bool) -> Outcome {
    let (name, text) = read_file(path)?;
    let sc = parse_scenario(&name, &text)?;
    // After reading: a Ctrl-C while standard input is awaited ends the program the usual way.
    interrupt::install();
    if let Some(dir) = &csv {
        check_writable_dir(dir)?;
    }
    if interrupt::requested() {
        return Err(Failure::Interrupted("before the run started".into()));
    }
    let with_traces = !summary || csv.is_some();
    let mut session = Session::new(&sc, sc.seed)?;
    drive(&mut session, &mut Progress::on_terminal());
    let mut result = session.result(with_traces)?;
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
    if session.interrupted() {
        return Err(Failure::Interrupted(format!(
            "at {:.3} of {} s simulated; the result printed is partial (see each flow's incomplete_reason)",
            result.end_s, sc.duration_s
        )));
    }
    Ok(())
}

/// Steps `session` to its end, or until Ctrl-C stops it at the current event (the way its event
/// budget would), redrawing the progress line as it goes.
fn drive(session: &mut Session, progress: &mut Progress) {
    'run: loop {
        for _ in 0..CHUNK {
            if !session.step() {
                break 'run;
            }
        }
        if interrupt::requested() {
            session.interrupt();
            break;
        }
        if progress.due() {
            let line = progress::run_line(
                session.progress_s(),
                session.total_s(),
                session.events_processed(),
                progress.elapsed(),
            );
            progress.show(&line);
        }
    }
    progress.clear();
}

/// Creates `dir` if needed and checks that a file can be written in it, so that a run does not
/// end by failing to save its traces.
fn check_writable_dir(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| format!("--csv {shown}: {e}"))?;
    let probe = dir.join(format!(".orbitcp-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| format!("--csv {shown}: cannot write there: {e}"))?;
    let _ = std::fs::remove_file(&probe);
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
