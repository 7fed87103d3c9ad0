//! The sweep table from each job's figures, written by the core's `runner::sweep_csv`, the
//! one writer `orbitcp sweep` and the browser use too. The figures travel as plain numbers and
//! strings rather than a `RunResult`, so that a job run on a Dask or Ray worker comes back
//! pickled exactly.

use orbitcp_core::runner::{sweep_csv, RunResult, SweepFlowRow, SweepPlan, SweepRunRow};
use orbitcp_core::scenario::Scenario;

/// One flow of one run: id, transport, cc, (goodput (Mbit/s), completion time (s), delivered
/// bytes, retransmissions, timeouts), (one-way delay mean and p95, at arrival mean and p95 (ms),
/// jitter (ms), coding overhead): the fields of `SweepFlowRow`.
pub type FlowFigures =
    (u32, String, String, (f64, Option<f64>, u64, u64, u64), (f64, f64, Option<f64>, Option<f64>, f64, Option<f64>));

/// One run: Jain's index, unrouted packets, and its flows (the fields of `SweepRunRow`).
pub type JobFigures = (f64, u64, Vec<FlowFigures>);

pub fn figures(r: &RunResult) -> JobFigures {
    let row = SweepRunRow::from(r);
    let flows = row
        .flows
        .into_iter()
        .map(|f| {
            (
                f.id,
                f.transport,
                f.cc,
                (f.goodput_mbps, f.completion_s, f.delivered_bytes, f.retransmissions, f.timeouts),
                (
                    f.owd_ms_mean,
                    f.owd_ms_p95,
                    f.owd_arrival_ms_mean,
                    f.owd_arrival_ms_p95,
                    f.jitter_ms,
                    f.coding_overhead,
                ),
            )
        })
        .collect();
    (row.fairness_jain, row.unrouted_pkts, flows)
}

/// The sweep's CSV: one row per (grid point, run, flow), or with `aggregate` one per (grid
/// point, flow) with the mean, standard deviation and confidence interval over the point's runs.
pub fn csv(plan: &SweepPlan, base: &Scenario, results: &[JobFigures], aggregate: bool) -> String {
    let runs: Vec<SweepRunRow> = results
        .iter()
        .map(|(fairness_jain, unrouted_pkts, flows)| SweepRunRow {
            fairness_jain: *fairness_jain,
            unrouted_pkts: *unrouted_pkts,
            flows: flows
                .iter()
                .map(|(id, transport, cc, a, b)| SweepFlowRow {
                    id: *id,
                    transport: transport.clone(),
                    cc: cc.clone(),
                    goodput_mbps: a.0,
                    completion_s: a.1,
                    delivered_bytes: a.2,
                    retransmissions: a.3,
                    timeouts: a.4,
                    owd_ms_mean: b.0,
                    owd_ms_p95: b.1,
                    owd_arrival_ms_mean: b.2,
                    owd_arrival_ms_p95: b.3,
                    jitter_ms: b.4,
                    coding_overhead: b.5,
                })
                .collect(),
        })
        .collect();
    sweep_csv(plan, base, &runs, aggregate)
}
