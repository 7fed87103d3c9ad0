//! The sweep table from each job's flow figures, written by the core's `runner::sweep_csv`, the
//! one writer `orbitcp sweep` and the browser use too. The figures travel as plain numbers and
//! strings rather than a `RunResult`, so that a job run on a Dask or Ray worker comes back
//! pickled exactly.

use orbitcp_core::runner::{sweep_csv, RunResult, SweepFlowRow, SweepPlan};
use orbitcp_core::scenario::Scenario;

/// One flow of one run: id, transport, cc, goodput (Mbit/s), completion time (s),
/// delivered bytes, retransmissions, timeouts (the fields of `SweepFlowRow`).
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

/// The sweep's CSV: one row per (grid point, run, flow), or with `aggregate` one per (grid
/// point, flow) with the mean and standard deviation over the point's runs.
pub fn csv(plan: &SweepPlan, base: &Scenario, results: &[Vec<FlowFigures>], aggregate: bool) -> String {
    let runs: Vec<Vec<SweepFlowRow>> = results
        .iter()
        .map(|flows| {
            flows
                .iter()
                .map(|(id, transport, cc, goodput_mbps, completion_s, delivered_bytes, retransmissions, timeouts)| {
                    SweepFlowRow {
                        id: *id,
                        transport: transport.clone(),
                        cc: cc.clone(),
                        goodput_mbps: *goodput_mbps,
                        completion_s: *completion_s,
                        delivered_bytes: *delivered_bytes,
                        retransmissions: *retransmissions,
                        timeouts: *timeouts,
                    }
                })
                .collect()
        })
        .collect();
    sweep_csv(plan, base, &runs, aggregate)
}
