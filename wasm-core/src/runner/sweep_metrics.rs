//! The metrics of a sweep: what its table (`sweep_csv.rs`) reports of each flow of each run,
//! in column order, and how each is read from a result, from a raw table's cell
//! (`sweep_merge.rs`) and by the browser from a result's JSON (`orbitcp schema
//! --sweep-metrics`, from which `web/src/sim/sweepMetrics.gen.ts` is generated).

use super::result::{FlowResult, RunResult};
use serde::Serialize;

/// What the table reports of one flow of one run: taken from its [`FlowResult`], or read back
/// from a raw table's row (`sweep_merge`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepFlowRow {
    pub id: u32,
    pub transport: String,
    pub cc: String,
    pub goodput_mbps: f64,
    pub completion_s: Option<f64>,
    pub delivered_bytes: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub owd_ms_mean: f64,
    pub owd_ms_p95: f64,
    /// None for CTCP, which does not report the delay at arrival.
    pub owd_arrival_ms_mean: Option<f64>,
    pub owd_arrival_ms_p95: Option<f64>,
    pub jitter_ms: f64,
    /// CTCP only: packets sent per source packet delivered.
    pub coding_overhead: Option<f64>,
}

impl From<&FlowResult> for SweepFlowRow {
    fn from(f: &FlowResult) -> SweepFlowRow {
        SweepFlowRow {
            id: f.id,
            transport: f.transport.name().to_string(),
            cc: f.cc.to_string(),
            goodput_mbps: f.goodput_mbps,
            completion_s: f.completion_s,
            delivered_bytes: f.delivered_bytes,
            retransmissions: f.retransmissions,
            timeouts: f.timeouts,
            owd_ms_mean: f.owd_ms.mean,
            owd_ms_p95: f.owd_ms.p95,
            owd_arrival_ms_mean: f.owd_arrival_ms.as_ref().map(|d| d.mean),
            owd_arrival_ms_p95: f.owd_arrival_ms.as_ref().map(|d| d.p95),
            jitter_ms: f.jitter_ms,
            coding_overhead: f.coding.as_ref().map(|c| c.coded_overhead),
        }
    }
}

/// What the table reports of one run: its flows and the run-wide figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepRunRow {
    pub flows: Vec<SweepFlowRow>,
    pub fairness_jain: f64,
    pub unrouted_pkts: u64,
}

impl From<&RunResult> for SweepRunRow {
    fn from(r: &RunResult) -> SweepRunRow {
        SweepRunRow {
            flows: r.flows.iter().map(SweepFlowRow::from).collect(),
            fairness_jain: r.fairness_jain,
            unrouted_pkts: r.unrouted_pkts,
        }
    }
}

/// A metric's value in one row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Cell {
    Float(f64),
    Count(u64),
    Empty,
}

impl Cell {
    pub(crate) fn value(self) -> Option<f64> {
        match self {
            Cell::Float(v) => Some(v),
            Cell::Count(n) => Some(n as f64),
            Cell::Empty => None,
        }
    }

    /// Full precision: Rust prints the shortest decimal that parses back to the same `f64`.
    pub(crate) fn raw(self) -> String {
        match self {
            Cell::Float(v) => v.to_string(),
            Cell::Count(n) => n.to_string(),
            Cell::Empty => String::new(),
        }
    }
}

/// What a metric's cells hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricKind {
    /// A number every flow reports.
    Float,
    /// A number some flows do not report (an empty cell; absent or null in a result's JSON).
    Optional,
    /// A count (absent from a result's JSON when zero).
    Count,
}

/// Whose figure a metric is: the flow's, or the run's (the same on each of its flows' rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricOf {
    Flow,
    Run,
}

/// One metric of the table.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Metric {
    /// The table's column (and the stem of an aggregate's `_mean`, `_std` and `_ci95`).
    pub key: &'static str,
    /// What it is, in words (the browser's select and summaries).
    pub name: &'static str,
    /// Its unit, empty for a pure number.
    pub unit: &'static str,
    pub kind: MetricKind,
    pub of: MetricOf,
    /// Where a result's JSON holds it: a JSON pointer into the flow's object or the run's.
    pub pointer: &'static str,
    #[serde(skip)]
    get: fn(&SweepRunRow, &SweepFlowRow) -> Cell,
    #[serde(skip)]
    set: fn(&mut SweepRunRow, &mut SweepFlowRow, Cell),
}

impl Metric {
    pub(crate) fn cell(&self, run: &SweepRunRow, flow: &SweepFlowRow) -> Cell {
        (self.get)(run, flow)
    }

    /// Reads a raw table's cell into `run` and `flow`; the reason in words if it is not one of
    /// this metric's.
    pub(crate) fn read(&self, text: &str, run: &mut SweepRunRow, flow: &mut SweepFlowRow) -> Result<(), &'static str> {
        let cell = match self.kind {
            MetricKind::Count => Cell::Count(text.parse().map_err(|_| "not a count")?),
            MetricKind::Optional if text.is_empty() => Cell::Empty,
            MetricKind::Float | MetricKind::Optional => Cell::Float(text.parse().map_err(|_| "not a number")?),
        };
        (self.set)(run, flow, cell);
        Ok(())
    }
}

fn float(c: Cell) -> f64 {
    c.value().unwrap_or(f64::NAN)
}

fn count(c: Cell) -> u64 {
    match c {
        Cell::Count(n) => n,
        _ => 0,
    }
}

/// A metric of each flow (`Flow`: `$field` is its `SweepFlowRow` field) or of the run (`Run`: a
/// `SweepRunRow` field, the same on each of its flow rows).
macro_rules! metric {
    ($of:ident, $key:literal, $name:literal, $unit:literal, $kind:ident, $pointer:literal, $field:ident) => {
        Metric {
            key: $key,
            name: $name,
            unit: $unit,
            kind: MetricKind::$kind,
            of: MetricOf::$of,
            pointer: $pointer,
            get: metric!(@get_from $of, $kind, $field),
            set: metric!(@set_in $of, $kind, $field),
        }
    };
    (@get_from Flow, $kind:ident, $field:ident) => { |_, f| metric!(@get $kind, f.$field) };
    (@get_from Run, $kind:ident, $field:ident) => { |r, _| metric!(@get $kind, r.$field) };
    (@set_in Flow, $kind:ident, $field:ident) => { |_, f, c| f.$field = metric!(@set $kind, c) };
    (@set_in Run, $kind:ident, $field:ident) => { |r, _, c| r.$field = metric!(@set $kind, c) };
    (@get Float, $v:expr) => { Cell::Float($v) };
    (@get Count, $v:expr) => { Cell::Count($v) };
    (@get Optional, $v:expr) => { $v.map_or(Cell::Empty, Cell::Float) };
    (@set Float, $c:expr) => { float($c) };
    (@set Count, $c:expr) => { count($c) };
    (@set Optional, $c:expr) => { $c.value() };
}

/// The metrics of the table, in column order: the flow's, then the run's (`unrouted_pkts` and
/// Jain's index over the run's flows, the same on each of its flow rows).
pub const METRICS: [Metric; 13] = [
    metric!(Flow, "goodput_mbps", "goodput", "Mbit/s", Float, "/goodput_mbps", goodput_mbps),
    metric!(Flow, "completion_s", "completion time", "s", Optional, "/completion_s", completion_s),
    metric!(Flow, "delivered_bytes", "delivered bytes", "bytes", Count, "/delivered_bytes", delivered_bytes),
    metric!(Flow, "retransmissions", "retransmissions", "packets", Count, "/retransmissions", retransmissions),
    metric!(Flow, "timeouts", "timeouts", "", Count, "/timeouts", timeouts),
    metric!(Flow, "owd_ms_mean", "one-way delay, mean", "ms", Float, "/owd_ms/mean", owd_ms_mean),
    metric!(Flow, "owd_ms_p95", "one-way delay, p95", "ms", Float, "/owd_ms/p95", owd_ms_p95),
    metric!(
        Flow,
        "owd_arrival_ms_mean",
        "one-way delay at arrival, mean",
        "ms",
        Optional,
        "/owd_arrival_ms/mean",
        owd_arrival_ms_mean
    ),
    metric!(
        Flow,
        "owd_arrival_ms_p95",
        "one-way delay at arrival, p95",
        "ms",
        Optional,
        "/owd_arrival_ms/p95",
        owd_arrival_ms_p95
    ),
    metric!(Flow, "jitter_ms", "jitter", "ms", Float, "/jitter_ms", jitter_ms),
    metric!(
        Flow,
        "coding_overhead",
        "coding overhead",
        "packets sent per source packet",
        Optional,
        "/coding/coded_overhead",
        coding_overhead
    ),
    metric!(Run, "unrouted_pkts", "unrouted packets", "packets", Count, "/unrouted_pkts", unrouted_pkts),
    metric!(Run, "fairness_jain", "Jain's fairness index", "", Float, "/fairness_jain", fairness_jain),
];

/// The metrics as JSON, for the browser's generated list (`orbitcp schema --sweep-metrics`).
pub fn sweep_metrics_json() -> String {
    serde_json::to_string_pretty(&METRICS).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{run_job, SweepPlan};
    use serde_json::Value;

    /// A TCP, a CTCP and an INTCP flow, so that every metric is reported by some flow and
    /// missing from another.
    const SWEEP: &str = r#"{"version":1,"name":"m","duration_s":3,"seed":2,
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":10,"loss":{"model":"bernoulli","p":0.01}}]},
        "flows":[{"transport":"tcp","cc":"reno","bytes":30000},{"transport":"ctcp","variant":"v1","bytes":3000000},
                 {"transport":"intcp","bytes":30000}],
        "sweep":{"grid":{"flows[0].cc":["reno"]},"runs":1}}"#;

    #[test]
    fn each_metrics_pointer_reads_from_a_results_json_what_the_table_writes() {
        let plan = SweepPlan::new(SWEEP).unwrap();
        let mut r = run_job(&plan.job(0).unwrap()).unwrap();
        r.unrouted_pkts = 0;
        let json = serde_json::to_value(&r).unwrap();
        let row = SweepRunRow::from(&r);
        let mut missing = 0;
        for m in &METRICS {
            for (i, flow) in row.flows.iter().enumerate() {
                let whose = match m.of {
                    MetricOf::Flow => &json["flows"][i],
                    MetricOf::Run => &json,
                };
                let read = match (whose.pointer(m.pointer), m.kind) {
                    (None | Some(Value::Null), MetricKind::Count) => Some(0.0),
                    (None | Some(Value::Null), MetricKind::Optional) => None,
                    (v, _) => Some(v.and_then(Value::as_f64).unwrap_or_else(|| panic!("{} of flow {i}", m.key))),
                };
                missing += usize::from(read.is_none());
                assert_eq!(read, m.cell(&row, flow).value(), "{} of flow {i}", m.key);
            }
        }
        assert!(missing > 0, "some flow lacks an optional metric");
    }

    #[test]
    fn a_cell_read_back_sets_what_the_metric_writes() {
        let plan = SweepPlan::new(SWEEP).unwrap();
        let row = SweepRunRow::from(&run_job(&plan.job(0).unwrap()).unwrap());
        for f in &row.flows {
            let (mut run, mut flow) = (SweepRunRow::default(), SweepFlowRow::default());
            for m in &METRICS {
                m.read(&m.cell(&row, f).raw(), &mut run, &mut flow).unwrap();
                assert_eq!(m.cell(&run, &flow), m.cell(&row, f), "{}", m.key);
            }
        }
        let (mut run, mut flow) = (SweepRunRow::default(), SweepFlowRow::default());
        assert_eq!(METRICS[2].read("1.5", &mut run, &mut flow), Err("not a count"));
        assert_eq!(METRICS[0].read("", &mut run, &mut flow), Err("not a number"));
        assert_eq!(METRICS[1].read("", &mut run, &mut flow), Ok(()));
        assert_eq!(flow.completion_s, None);
    }
}
