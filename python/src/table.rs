//! The sweep table from each job's result, written by the core's `runner::sweep_csv`, the one
//! writer `orbitcp sweep` and the browser use too. A job's result travels as the JSON text of its
//! summary (what `orbitcp run --summary` prints), which pickles exactly to a Dask or Ray worker
//! and back, and is read back by the core's own result type, as the browser's are.

use orbitcp_core::runner::{sweep_csv, RunResult, SweepPlan, SweepRunRow};
use orbitcp_core::scenario::Scenario;

/// A job's result as JSON text, without traces.
pub type JobResult = String;

pub fn job_result(r: &RunResult) -> Result<JobResult, String> {
    serde_json::to_string(r).map_err(|e| e.to_string())
}

/// The sweep's CSV: one row per (grid point, run, flow), or with `aggregate` one per (grid
/// point, flow) with the mean, standard deviation and confidence interval over the point's runs.
/// Refuses a result that is not a run's JSON as a core wrote it.
pub fn csv(plan: &SweepPlan, base: &Scenario, results: &[JobResult], aggregate: bool) -> Result<String, String> {
    let runs = results
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let r: RunResult = serde_json::from_str(text).map_err(|e| format!("sweep: the result of job {i}: {e}"))?;
            Ok(SweepRunRow::from(&r))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(sweep_csv(plan, base, &runs, aggregate))
}
