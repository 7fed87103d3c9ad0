//! A sweep's results as CSV: the one writer behind `orbitcp sweep` and the browser's sweep
//! export, so both give the same bytes. One row per (grid point, run, flow), or with
//! `aggregate` one per (grid point, flow) with the mean and standard deviation over runs; a
//! scenario whose `paper` has sweep points gets a `paper_goodput_mbps` column.

use super::{FlowResult, RunError, SweepPlan};
use crate::csv;
use crate::metrics::mean_std;
use crate::scenario::{self, Scenario};
use serde::Deserialize;
use serde_json::Value;

/// What the CSV reports of one flow of one run. Read from a result's JSON too (the browser
/// hands back the summaries it received), so only these fields are needed there.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SweepFlowRow {
    pub id: u32,
    pub transport: String,
    pub cc: String,
    pub goodput_mbps: f64,
    pub completion_s: Option<f64>,
    pub delivered_bytes: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
}

impl From<&FlowResult> for SweepFlowRow {
    fn from(f: &FlowResult) -> SweepFlowRow {
        SweepFlowRow {
            id: f.id,
            transport: f.transport.to_string(),
            cc: f.cc.to_string(),
            goodput_mbps: f.goodput_mbps,
            completion_s: f.completion_s,
            delivered_bytes: f.delivered_bytes,
            retransmissions: f.retransmissions,
            timeouts: f.timeouts,
        }
    }
}

/// One run's flows, as a result's JSON holds them (other fields are ignored).
#[derive(Deserialize)]
struct RunRows {
    flows: Vec<SweepFlowRow>,
}

/// The CSV of a sweep: `runs[i]` holds the flows of job `i` (the order of
/// [`SweepPlan::job`]); fewer runs than jobs (a sweep stopped early) give the rows of those done.
pub fn sweep_csv(plan: &SweepPlan, base: &Scenario, runs: &[Vec<SweepFlowRow>], aggregate: bool) -> String {
    let has_paper = base.paper.as_ref().is_some_and(|p| !p.points.is_empty());
    let header_paths = plan.paths().iter().map(|p| csv::text(p).into_owned()).collect::<Vec<_>>().join(",");
    let per_point = plan.runs() as usize;
    let mut out = String::new();
    let paper = |point: &[(String, Value)], flow: u32| {
        if has_paper {
            format!(",{}", paper_value(base, point, flow).map_or(String::new(), |v| v.to_string()))
        } else {
            String::new()
        }
    };
    if aggregate {
        out += &format!(
            "{header_paths},flow,transport,cc,runs,goodput_mbps_mean,goodput_mbps_std,completion_s_mean,\
             retransmissions_mean,completed_runs"
        );
        out += if has_paper { ",paper_goodput_mbps\n" } else { "\n" };
        for (p, chunk) in runs.chunks(per_point).enumerate() {
            let point = plan.point(p);
            let vals = point.iter().map(|(_, v)| csv::value(v).into_owned()).collect::<Vec<_>>().join(",");
            for (fi, f0) in chunk[0].iter().enumerate() {
                let g: Vec<f64> = chunk.iter().map(|r| r[fi].goodput_mbps).collect();
                let c: Vec<f64> = chunk.iter().filter_map(|r| r[fi].completion_s).collect();
                let rt: Vec<f64> = chunk.iter().map(|r| r[fi].retransmissions as f64).collect();
                let (gm, gs) = mean_std(&g);
                out += &format!(
                    "{vals},{},{},{},{},{gm:.6},{gs:.6},{},{:.1},{}{}\n",
                    f0.id,
                    f0.transport,
                    f0.cc,
                    chunk.len(),
                    if c.is_empty() { String::new() } else { format!("{:.6}", mean_std(&c).0) },
                    mean_std(&rt).0,
                    c.len(),
                    paper(&point, f0.id)
                );
            }
        }
    } else {
        out += &format!(
            "{header_paths},run,seed,flow,transport,cc,goodput_mbps,completion_s,delivered_bytes,retransmissions,\
             timeouts"
        );
        out += if has_paper { ",paper_goodput_mbps\n" } else { "\n" };
        for (i, flows) in runs.iter().enumerate() {
            let point = plan.point(i / per_point);
            let run = (i % per_point) as u32;
            let vals = point.iter().map(|(_, v)| csv::value(v).into_owned()).collect::<Vec<_>>().join(",");
            for f in flows {
                out += &format!(
                    "{vals},{},{},{},{},{},{:.6},{},{},{},{}{}\n",
                    run,
                    plan.run_seed(run),
                    f.id,
                    f.transport,
                    f.cc,
                    f.goodput_mbps,
                    f.completion_s.map_or(String::new(), |c| format!("{c:.6}")),
                    f.delivered_bytes,
                    f.retransmissions,
                    f.timeouts,
                    paper(&point, f.id)
                );
            }
        }
    }
    out
}

/// [`sweep_csv`] from JSON: the sweep's scenario text and a JSON array of the runs' results in
/// job order (each at least `{"flows": [...]}`, as the browser received them).
pub fn sweep_csv_json(scenario_json: &str, results_json: &str, aggregate: bool) -> Result<String, RunError> {
    let plan = SweepPlan::new(scenario_json)?;
    let base = scenario::parse(scenario_json)?;
    let runs: Vec<RunRows> = serde_json::from_str(results_json).map_err(|e| RunError::Results(e.to_string()))?;
    if runs.len() > plan.len() {
        return Err(RunError::Results(format!("{} results for a sweep of {} runs", runs.len(), plan.len())));
    }
    let runs: Vec<Vec<SweepFlowRow>> = runs.into_iter().map(|r| r.flows).collect();
    Ok(sweep_csv(&plan, &base, &runs, aggregate))
}

/// The paper's goodput for this grid point and flow, if it gives one.
fn paper_value(sc: &Scenario, point: &[(String, Value)], flow: u32) -> Option<f64> {
    let p = sc.paper.as_ref()?;
    p.points
        .iter()
        .find(|pp| {
            pp.flow == flow && pp.at.iter().all(|(k, v)| point.iter().any(|(pk, pv)| pk == k && values_match(pv, v)))
        })
        .map(|pp| pp.goodput_mbps)
}

/// Grid values as the paper's points name them: numbers to within rounding, others exactly.
fn values_match(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SWEEP: &str = r#"{"version":1,"name":"s","duration_s":5,"seed":3,
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":10}]},
        "flows":[{"transport":"tcp","cc":"reno","bytes":20000}],
        "sweep":{"grid":{"flows[0].cc":["reno","cubic"]},"runs":2},
        "paper":{"source":"t","points":[{"at":{"flows[0].cc":"cubic"},"goodput_mbps":2.5}]}}"#;

    fn runs() -> Vec<Vec<SweepFlowRow>> {
        let plan = SweepPlan::new(SWEEP).unwrap();
        (0..plan.len())
            .map(|i| {
                let r = super::super::run_job(&plan.job(i).unwrap()).unwrap();
                r.flows.iter().map(SweepFlowRow::from).collect()
            })
            .collect()
    }

    #[test]
    fn results_handed_back_as_json_give_the_same_csv() {
        let plan = SweepPlan::new(SWEEP).unwrap();
        let base = scenario::parse(SWEEP).unwrap();
        let rows = runs();
        let direct = sweep_csv(&plan, &base, &rows, false);
        // As the browser hands them back: whole results, the seed as text.
        let json: Vec<Value> = rows
            .iter()
            .map(|flows| {
                let flows: Vec<Value> = flows
                    .iter()
                    .map(|f| {
                        serde_json::json!({"id": f.id, "transport": f.transport, "cc": f.cc,
                        "goodput_mbps": f.goodput_mbps, "completion_s": f.completion_s,
                        "delivered_bytes": f.delivered_bytes, "retransmissions": f.retransmissions,
                        "timeouts": f.timeouts, "owd_ms": {"mean": 1.0, "p5": 1.0, "p95": 1.0}})
                    })
                    .collect();
                serde_json::json!({"name": "s", "seed": "3", "flows": flows})
            })
            .collect();
        let via_json = sweep_csv_json(SWEEP, &serde_json::to_string(&json).unwrap(), false).unwrap();
        assert_eq!(via_json, direct);
        let lines: Vec<&str> = direct.lines().collect();
        assert_eq!(lines[0], "flows[0].cc,run,seed,flow,transport,cc,goodput_mbps,completion_s,delivered_bytes,retransmissions,timeouts,paper_goodput_mbps");
        assert_eq!(lines.len(), 5);
        assert!(lines[1].starts_with(&format!("reno,0,{},0,tcp,reno,", plan.run_seed(0))) && lines[1].ends_with(','));
        assert!(lines[4].starts_with("cubic,1,") && lines[4].ends_with(",2.5"), "{direct}");
        let agg = sweep_csv(&plan, &base, &rows, true);
        assert!(agg.lines().nth(2).unwrap().starts_with("cubic,0,tcp,cubic,2,"), "{agg}");
    }

    #[test]
    fn results_that_are_not_runs_are_refused() {
        let e = sweep_csv_json(SWEEP, r#"[{"name": "x"}]"#, false).unwrap_err();
        assert!(matches!(e, RunError::Results(_)) && e.to_string().starts_with("the runs' results: "), "{e}");
        let five = format!("[{}]", [r#"{"flows": []}"#; 5].join(","));
        let e = sweep_csv_json(SWEEP, &five, false).unwrap_err();
        assert_eq!(e.to_string(), "the runs' results: 5 results for a sweep of 4 runs");
    }
}
