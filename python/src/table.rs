//! The sweep table from each job's flow figures: the CSV that `orbitcp sweep` (and
//! `--aggregate`) prints, cell for cell. The figures are plain numbers and strings rather than
//! a `RunResult`, so that a job run on a Dask or Ray worker comes back pickled exactly.
//! The row format follows `wasm-core/src/bin/orbitcp/sweep.rs`; python/tests compare the two.

use orbitcp_core::csv;
use orbitcp_core::metrics::mean_std;
use orbitcp_core::runner::{RunResult, SweepPlan};
use orbitcp_core::scenario::Scenario;
use serde_json::Value;

/// One flow of one run: id, transport, cc, goodput (Mbit/s), completion time (s),
/// delivered bytes, retransmissions, timeouts.
pub type FlowFigures = (u32, String, String, f64, Option<f64>, u64, u64, u64);

pub fn figures(r: &RunResult) -> Vec<FlowFigures> {
    r.flows
        .iter()
        .map(|f| {
            (
                f.id,
                f.transport.to_string(),
                f.cc.to_string(),
                f.goodput_mbps,
                f.completion_s,
                f.delivered_bytes,
                f.retransmissions,
                f.timeouts,
            )
        })
        .collect()
}

fn has_paper(base: &Scenario) -> bool {
    base.paper.as_ref().is_some_and(|p| !p.points.is_empty())
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

fn header(plan: &SweepPlan, base: &Scenario, columns: &str) -> String {
    let paths = plan.paths().iter().map(|p| csv::text(p).into_owned()).collect::<Vec<_>>().join(",");
    let paper = if has_paper(base) { ",paper_goodput_mbps" } else { "" };
    format!("{paths},{columns}{paper}\n")
}

fn point_cells(point: &[(String, Value)]) -> String {
    point.iter().map(|(_, v)| csv::value(v)).collect::<Vec<_>>().join(",")
}

fn paper_cell(base: &Scenario, point: &[(String, Value)], flow: u32) -> String {
    if has_paper(base) {
        format!(",{}", paper_value(base, point, flow).map_or(String::new(), |v| v.to_string()))
    } else {
        String::new()
    }
}

/// One row per (grid point, run, flow).
pub fn rows(plan: &SweepPlan, base: &Scenario, results: &[Vec<FlowFigures>]) -> String {
    let mut out = header(
        plan,
        base,
        "run,seed,flow,transport,cc,goodput_mbps,completion_s,delivered_bytes,retransmissions,timeouts",
    );
    let runs = plan.runs() as usize;
    for (i, flows) in results.iter().enumerate() {
        let point = plan.point(i / runs);
        let run = (i % runs) as u32;
        let vals = point_cells(&point);
        for (id, transport, cc, goodput, completion, delivered, retransmissions, timeouts) in flows {
            out += &format!(
                "{vals},{run},{},{id},{transport},{cc},{goodput:.6},{},{delivered},{retransmissions},{timeouts}",
                plan.run_seed(run),
                completion.map_or(String::new(), |c| format!("{c:.6}")),
            );
            out += &paper_cell(base, &point, *id);
            out.push('\n');
        }
    }
    out
}

/// One row per (grid point, flow): mean and standard deviation over the point's runs.
pub fn aggregate(plan: &SweepPlan, base: &Scenario, results: &[Vec<FlowFigures>]) -> String {
    let mut out = header(
        plan,
        base,
        "flow,transport,cc,runs,goodput_mbps_mean,goodput_mbps_std,completion_s_mean,retransmissions_mean,completed_runs",
    );
    for (p, chunk) in results.chunks(plan.runs() as usize).enumerate() {
        let point = plan.point(p);
        let vals = point_cells(&point);
        for (fi, (id, transport, cc, ..)) in chunk[0].iter().enumerate() {
            let g: Vec<f64> = chunk.iter().map(|r| r[fi].3).collect();
            let c: Vec<f64> = chunk.iter().filter_map(|r| r[fi].4).collect();
            let rt: Vec<f64> = chunk.iter().map(|r| r[fi].6 as f64).collect();
            let (gm, gs) = mean_std(&g);
            out += &format!(
                "{vals},{id},{transport},{cc},{},{gm:.6},{gs:.6},{},{:.1},{}",
                chunk.len(),
                if c.is_empty() { String::new() } else { format!("{:.6}", mean_std(&c).0) },
                mean_std(&rt).0,
                c.len()
            );
            out += &paper_cell(base, &point, *id);
            out.push('\n');
        }
    }
    out
}
