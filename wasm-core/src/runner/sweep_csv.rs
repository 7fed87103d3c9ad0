//! A sweep's results as CSV: the one writer behind `orbitcp sweep`, `orbitcp merge`, the
//! browser's sweep export and the Python package, so all of them give the same bytes.
//!
//! Raw tables have one row per (grid point, run, flow): the grid values, `job` (the job's index
//! in [`SweepPlan::job`] order), `run`, `seed` (the seed the run ran with), the flow, every metric of
//! [`METRICS`] (`sweep_metrics.rs`), the
//! paper's goodput if the scenario's `paper` has sweep points, then `sweep_jobs` (the jobs in the
//! whole sweep), `core_version` and `scenario_hash` (`runner::provenance`). Floats are written
//! in full (the shortest text that reads back as the same number), so a raw table read back
//! gives the same numbers, which is what lets `orbitcp merge` rebuild a sweep's aggregate
//! exactly. A metric that does not apply to a flow's transport is an empty cell.
//!
//! With `aggregate`, one row per (grid point, flow): `runs`, `completed_runs`, then for each
//! metric its mean, standard deviation and 95 % confidence half-width over the point's runs
//! (`metrics::ci95_half_width`), printed with six decimals; empty where no run has the metric,
//! and the deviation and interval empty below two runs.
//!
//! A grid value's column is named by its path as written, except a path that is also the name
//! of one of the table's own columns: a grid over `seed` (the base seed of the point's runs) is
//! the column `grid.seed`, beside the run's `seed`. No scenario field is called `grid`, so the
//! name cannot be another path's.

use super::provenance::{self, CORE_VERSION};
use super::sweep_metrics::{SweepRunRow, METRICS};
use super::{RunError, RunResult, SweepPlan};
use crate::csv;
use crate::metrics::{ci95_half_width, mean_std};
use crate::scenario::{self, Scenario};
use serde_json::Value;

/// One job's rows: its grid values and paper cells as written, and its figures.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRecord {
    pub job: usize,
    /// The grid values' cells, as the table writes them.
    pub point: Vec<String>,
    pub run: u32,
    pub seed: u64,
    pub result: SweepRunRow,
    /// The paper column's cell for each flow (parallel to `result.flows`); empty strings when
    /// the table has no paper column.
    pub paper: Vec<String>,
}

/// A sweep's table before it is written: what the writer needs, whether the jobs' figures come
/// from runs or from raw tables read back (`sweep_merge`).
#[derive(Clone, Debug, PartialEq)]
pub struct SweepTable {
    /// The swept paths' header cells.
    pub paths: Vec<String>,
    pub has_paper: bool,
    /// Jobs in the whole sweep.
    pub jobs: usize,
    /// Runs per grid point.
    pub runs: u32,
    pub core_version: String,
    pub scenario_hash: String,
    /// In increasing job order.
    pub records: Vec<SweepRecord>,
}

impl SweepTable {
    /// An empty table for `plan`'s sweep of `base`.
    pub fn new(plan: &SweepPlan, base: &Scenario) -> SweepTable {
        SweepTable {
            paths: plan.paths().iter().map(|p| csv::text(&grid_column(p)).into_owned()).collect(),
            has_paper: base.paper.as_ref().is_some_and(|p| !p.points.is_empty()),
            jobs: plan.len(),
            runs: plan.runs(),
            core_version: CORE_VERSION.to_string(),
            scenario_hash: provenance::scenario_hash(base),
            records: Vec::new(),
        }
    }

    /// Adds job `job`'s figures (jobs are pushed in increasing order).
    pub fn push(&mut self, plan: &SweepPlan, base: &Scenario, job: usize, result: SweepRunRow) {
        let per_point = plan.runs().max(1) as usize;
        let point = plan.point(job / per_point);
        let run = (job % per_point) as u32;
        let paper = result
            .flows
            .iter()
            .map(|f| {
                if self.has_paper {
                    paper_value(base, &point, f.id).map_or(String::new(), |v| v.to_string())
                } else {
                    String::new()
                }
            })
            .collect();
        self.records.push(SweepRecord {
            job,
            point: point.iter().map(|(_, v)| csv::value(v).into_owned()).collect(),
            run,
            seed: plan.job_seed(job),
            result,
            paper,
        });
    }

    /// The header cells of a raw table after the swept paths.
    pub fn raw_columns(has_paper: bool) -> Vec<String> {
        let mut h: Vec<String> = ["job", "run", "seed", "flow", "transport", "cc"].map(String::from).into();
        h.extend(METRICS.iter().map(|m| m.key.to_string()));
        if has_paper {
            h.push("paper_goodput_mbps".into());
        }
        h.extend(["sweep_jobs", "core_version", "scenario_hash"].map(String::from));
        h
    }

    /// The header cells of an aggregate table after the swept paths, before the metrics'.
    fn aggregate_columns() -> [&'static str; 5] {
        ["flow", "transport", "cc", "runs", "completed_runs"]
    }

    pub fn csv(&self, aggregate: bool) -> String {
        if aggregate {
            self.aggregate_csv()
        } else {
            self.raw_csv()
        }
    }

    /// One row per (grid point, run, flow).
    pub fn raw_csv(&self) -> String {
        let mut out = line(self.paths.iter().cloned().chain(Self::raw_columns(self.has_paper)));
        let (version, hash) = (csv::text(&self.core_version), csv::text(&self.scenario_hash));
        for r in &self.records {
            for (fi, f) in r.result.flows.iter().enumerate() {
                let mut cells = r.point.clone();
                cells.extend([
                    r.job.to_string(),
                    r.run.to_string(),
                    r.seed.to_string(),
                    f.id.to_string(),
                    f.transport.clone(),
                    f.cc.clone(),
                ]);
                cells.extend(METRICS.iter().map(|m| m.cell(&r.result, f).raw()));
                if self.has_paper {
                    cells.push(r.paper.get(fi).cloned().unwrap_or_default());
                }
                cells.extend([self.jobs.to_string(), version.to_string(), hash.to_string()]);
                out += &line(cells);
            }
        }
        out
    }

    /// One row per (grid point, flow), over the runs of the point present in the table.
    pub fn aggregate_csv(&self) -> String {
        let mut header: Vec<String> = self.paths.clone();
        header.extend(Self::aggregate_columns().map(String::from));
        for m in &METRICS {
            let key = m.key;
            header.extend([format!("{key}_mean"), format!("{key}_std"), format!("{key}_ci95")]);
        }
        if self.has_paper {
            header.push("paper_goodput_mbps".into());
        }
        header.extend(["core_version", "scenario_hash"].map(String::from));
        let mut out = line(header);
        let per_point = self.runs.max(1) as usize;
        let (version, hash) = (csv::text(&self.core_version), csv::text(&self.scenario_hash));
        let mut start = 0;
        while start < self.records.len() {
            let p = self.records[start].job / per_point;
            let end = start + self.records[start..].iter().take_while(|r| r.job / per_point == p).count();
            let group = &self.records[start..end];
            let first = &group[0];
            for (fi, f0) in first.result.flows.iter().enumerate() {
                let rows: Vec<(&SweepRunRow, &super::SweepFlowRow)> =
                    group.iter().filter_map(|r| r.result.flows.get(fi).map(|f| (&r.result, f))).collect();
                let completed = rows.iter().filter(|(_, f)| f.completion_s.is_some()).count();
                let mut cells = first.point.clone();
                cells.extend([
                    f0.id.to_string(),
                    f0.transport.clone(),
                    f0.cc.clone(),
                    rows.len().to_string(),
                    completed.to_string(),
                ]);
                for m in &METRICS {
                    let x: Vec<f64> = rows.iter().filter_map(|(r, f)| m.cell(r, f).value()).collect();
                    let fixed = |v: f64| format!("{v:.6}");
                    let (m, s) = mean_std(&x);
                    cells.push(if x.is_empty() { String::new() } else { fixed(m) });
                    cells.push(if x.len() < 2 { String::new() } else { fixed(s) });
                    cells.push(ci95_half_width(&x).map_or(String::new(), fixed));
                }
                if self.has_paper {
                    cells.push(first.paper.get(fi).cloned().unwrap_or_default());
                }
                cells.extend([version.to_string(), hash.to_string()]);
                out += &line(cells);
            }
            start = end;
        }
        out
    }
}

/// The column of a grid path: the path, or `grid.` and the path where the path is the name of
/// one of the table's own columns (in either table), so that no two columns share a name.
fn grid_column(path: &str) -> String {
    let own = SweepTable::raw_columns(true).into_iter().chain(SweepTable::aggregate_columns().map(String::from));
    let taken = own.chain(METRICS.iter().flat_map(|m| ["mean", "std", "ci95"].map(|s| format!("{}_{s}", m.key))));
    if taken.into_iter().any(|c| c == path) {
        format!("grid.{path}")
    } else {
        path.to_string()
    }
}

/// Cells joined by commas, and a line break.
fn line(cells: impl IntoIterator<Item = String>) -> String {
    let mut s = cells.into_iter().collect::<Vec<_>>().join(",");
    s.push('\n');
    s
}

/// The CSV of a sweep: `runs[i]` holds job `i` (the order of [`SweepPlan::job`]); fewer runs
/// than jobs (a sweep stopped early) give the rows of those done.
pub fn sweep_csv(plan: &SweepPlan, base: &Scenario, runs: &[SweepRunRow], aggregate: bool) -> String {
    let mut t = SweepTable::new(plan, base);
    for (i, r) in runs.iter().enumerate() {
        t.push(plan, base, i, r.clone());
    }
    t.csv(aggregate)
}

/// [`sweep_csv`] from JSON: the sweep's scenario text and a JSON array of the runs' results in
/// job order, as a core wrote them (the browser hands back the summaries it received).
pub fn sweep_csv_json(scenario_json: &str, results_json: &str, aggregate: bool) -> Result<String, RunError> {
    let plan = SweepPlan::new(scenario_json)?;
    let base = scenario::parse(scenario_json)?;
    let results: Vec<RunResult> = serde_json::from_str(results_json).map_err(|e| RunError::Results(e.to_string()))?;
    if results.len() > plan.len() {
        return Err(RunError::Results(format!("{} results for a sweep of {} runs", results.len(), plan.len())));
    }
    let runs: Vec<SweepRunRow> = results.iter().map(SweepRunRow::from).collect();
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

    fn results() -> Vec<RunResult> {
        let plan = SweepPlan::new(SWEEP).unwrap();
        (0..plan.len()).map(|i| super::super::run_job(&plan.job(i).unwrap()).unwrap()).collect()
    }

    #[test]
    fn results_handed_back_as_json_give_the_same_csv() {
        let plan = SweepPlan::new(SWEEP).unwrap();
        let base = scenario::parse(SWEEP).unwrap();
        let results = results();
        let rows: Vec<SweepRunRow> = results.iter().map(SweepRunRow::from).collect();
        let direct = sweep_csv(&plan, &base, &rows, false);
        // As the browser hands them back: whole results, the seed as text.
        let json: Vec<Value> = results
            .iter()
            .map(|r| {
                let mut v = serde_json::to_value(r).unwrap();
                v["seed"] = Value::from(r.seed.to_string());
                v
            })
            .collect();
        let via_json = sweep_csv_json(SWEEP, &serde_json::to_string(&json).unwrap(), false).unwrap();
        assert_eq!(via_json, direct);
        let lines: Vec<&str> = direct.lines().collect();
        assert_eq!(
            lines[0],
            "flows[0].cc,job,run,seed,flow,transport,cc,goodput_mbps,completion_s,delivered_bytes,retransmissions,\
             timeouts,owd_ms_mean,owd_ms_p95,owd_arrival_ms_mean,owd_arrival_ms_p95,jitter_ms,coding_overhead,\
             unrouted_pkts,fairness_jain,paper_goodput_mbps,sweep_jobs,core_version,scenario_hash"
        );
        assert_eq!(lines.len(), 5);
        let cells: Vec<&str> = lines[1].split(',').collect();
        assert_eq!(&cells[..7], ["reno", "0", "0", &plan.job_seed(0).to_string(), "0", "tcp", "reno"]);
        let f = &results[0].flows[0];
        assert_eq!(cells[7].parse::<f64>().unwrap(), f.goodput_mbps, "goodput in full");
        assert_eq!(cells[12].parse::<f64>().unwrap(), f.owd_ms.mean);
        assert_eq!(cells[17], "", "no coding overhead for TCP");
        assert_eq!(cells[19].parse::<f64>().unwrap(), results[0].fairness_jain);
        let hash = provenance::scenario_hash(&base);
        assert_eq!(&cells[20..], ["", "4", CORE_VERSION, &hash]);
        assert!(lines[4].starts_with("cubic,3,1,") && lines[4].ends_with(&format!(",2.5,4,{CORE_VERSION},{hash}")));
        let agg = sweep_csv(&plan, &base, &rows, true);
        let agg_lines: Vec<&str> = agg.lines().collect();
        assert_eq!(agg_lines[0].split(',').count(), 1 + 5 + 3 * 13 + 3);
        assert!(agg_lines[0].starts_with(
            "flows[0].cc,flow,transport,cc,runs,completed_runs,goodput_mbps_mean,goodput_mbps_std,goodput_mbps_ci95,"
        ));
        assert!(agg_lines[2].starts_with("cubic,0,tcp,cubic,2,"), "{agg}");
    }

    #[test]
    fn the_aggregate_is_the_mean_std_and_t_interval_of_the_runs() {
        let plan = SweepPlan::new(SWEEP).unwrap();
        let base = scenario::parse(SWEEP).unwrap();
        let rows: Vec<SweepRunRow> = results().iter().map(SweepRunRow::from).collect();
        let agg = sweep_csv(&plan, &base, &rows, true);
        let reno: Vec<&str> = agg.lines().nth(1).unwrap().split(',').collect();
        let g = [rows[0].flows[0].goodput_mbps, rows[1].flows[0].goodput_mbps];
        let (m, s) = mean_std(&g);
        // Two runs: one degree of freedom, t(0.975, 1) = 12.706205.
        let ci = 12.706205 * s / 2f64.sqrt();
        assert_eq!(reno[6], format!("{m:.6}"));
        assert_eq!(reno[7], format!("{s:.6}"));
        assert!((reno[8].parse::<f64>().unwrap() - ci).abs() < 1e-5, "{} against {ci}", reno[8]);
        // CTCP's coding overhead does not apply: the three cells are empty.
        let coding = 6 + 3 * 10;
        assert_eq!(&reno[coding..coding + 3], ["", "", ""]);
        // One run: a mean, no deviation or interval.
        let one = sweep_csv(&plan, &base, &rows[..1], true);
        let cells: Vec<&str> = one.lines().nth(1).unwrap().split(',').collect();
        assert_eq!((cells[4], &cells[7..9]), ("1", &["", ""][..]));
    }

    #[test]
    fn results_that_are_not_runs_are_refused() {
        let e = sweep_csv_json(SWEEP, r#"[{"name": "x"}]"#, false).unwrap_err();
        assert!(matches!(e, RunError::Results(_)) && e.to_string().starts_with("the runs' results: "), "{e}");
        let one = serde_json::to_string(&results()[0]).unwrap();
        let five = format!("[{}]", [one.as_str(); 5].join(","));
        let e = sweep_csv_json(SWEEP, &five, false).unwrap_err();
        assert_eq!(e.to_string(), "the runs' results: 5 results for a sweep of 4 runs");
    }

    #[test]
    fn a_grid_over_seed_has_its_own_column_beside_the_runs_seed() {
        let sc = SWEEP.replace(r#""flows[0].cc":["reno","cubic"]"#, r#""seed":[3,4]"#);
        let plan = SweepPlan::new(&sc).unwrap();
        let base = scenario::parse(&sc).unwrap();
        let rows: Vec<SweepRunRow> = (0..plan.len())
            .map(|i| SweepRunRow::from(&super::super::run_job(&plan.job(i).unwrap()).unwrap()))
            .collect();
        let raw = sweep_csv(&plan, &base, &rows, false);
        let header: Vec<&str> = raw.lines().next().unwrap().split(',').collect();
        assert_eq!(&header[..5], ["grid.seed", "job", "run", "seed", "flow"]);
        let mut names = header.clone();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), header.len(), "no two columns share a name: {header:?}");
        let cells: Vec<Vec<&str>> = raw.lines().skip(1).map(|l| l.split(',').collect()).collect();
        let seeds: Vec<(&str, &str)> = cells.iter().map(|c| (c[0], c[3])).collect();
        let run1 = |s: u64| crate::sim::rng::run_seed(s, 1).to_string();
        assert_eq!(seeds, [("3", "3"), ("3", run1(3).as_str()), ("4", "4"), ("4", run1(4).as_str())]);
        let agg = sweep_csv(&plan, &base, &rows, true);
        assert!(agg.starts_with("grid.seed,flow,transport,cc,runs,"), "{agg}");
        // Merged back, the table is the same.
        let merged = super::super::merge_sweep_csv(vec![super::super::parse_sweep_csv("s", &raw).unwrap()]).unwrap();
        assert_eq!(merged.raw_csv(), raw);
    }
}
