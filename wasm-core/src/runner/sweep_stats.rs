//! A sweep's statistics per grid point and flow, for the browser's sweep chart and table: for
//! each metric of [`METRICS`], the runs that report it, their mean, standard deviation and 95 %
//! confidence half-width (`metrics::mean_std`, `metrics::ci95_half_width`), the numbers the
//! `_mean`, `_std` and `_ci95` columns of `orbitcp sweep --aggregate` print.

use super::sweep_metrics::{SweepRunRow, METRICS};
use super::{RunError, RunResult, SweepPlan};
use crate::metrics::{ci95_half_width, mean_std};
use serde_json::Value;

/// One metric's statistics over a grid point's runs.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct MetricStats {
    /// The metric's column (`METRICS`' `key`).
    pub key: String,
    /// Runs that report the metric: what the mean is over.
    pub runs: usize,
    /// None where no run reports the metric.
    pub mean: Option<f64>,
    /// Sample standard deviation (0 for one run); None where no run reports the metric.
    pub std: Option<f64>,
    /// Half-width of the 95 % confidence interval of the mean (Student t); None below two runs.
    pub ci95: Option<f64>,
}

/// The statistics of one flow at one grid point.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct SweepPointStats {
    /// The grid point's (path, value) pairs, in grid order.
    pub point: Vec<(String, Value)>,
    /// The flow's id.
    pub flow: u32,
    pub cc: String,
    /// One per metric of `METRICS`, in its order.
    pub metrics: Vec<MetricStats>,
}

/// The statistics of `values`, the metric `key`'s figures over a grid point's runs.
fn metric_stats(key: &str, values: &[f64]) -> MetricStats {
    let (mean, std) = mean_std(values);
    let reported = !values.is_empty();
    MetricStats {
        key: key.to_string(),
        runs: values.len(),
        mean: reported.then_some(mean),
        std: reported.then_some(std),
        ci95: ci95_half_width(values),
    }
}

/// The statistics of a sweep's runs per grid point and flow, in grid order: `runs[i]` holds job
/// `i` (the order of [`SweepPlan::job`]); a sweep stopped early gives the points it reached.
pub fn sweep_stats(plan: &SweepPlan, runs: &[SweepRunRow]) -> Vec<SweepPointStats> {
    let per_point = plan.runs().max(1) as usize;
    let mut out = Vec::new();
    for (p, group) in runs.chunks(per_point).enumerate() {
        let point = plan.point(p);
        for (fi, f0) in group[0].flows.iter().enumerate() {
            let rows: Vec<_> = group.iter().filter_map(|r| r.flows.get(fi).map(|f| (r, f))).collect();
            let metrics = METRICS
                .iter()
                .map(|m| {
                    let values: Vec<f64> = rows.iter().filter_map(|(r, f)| m.cell(r, f).value()).collect();
                    metric_stats(m.key, &values)
                })
                .collect();
            out.push(SweepPointStats { point: point.clone(), flow: f0.id, cc: f0.cc.clone(), metrics });
        }
    }
    out
}

/// [`sweep_stats`] from JSON, as the browser calls it: the sweep's scenario text and a JSON
/// array of the runs' results in job order (as `SteppedRun::result` gave them).
pub fn sweep_stats_from_json(scenario_json: &str, results_json: &str) -> Result<Vec<SweepPointStats>, RunError> {
    let plan = SweepPlan::new(scenario_json)?;
    let results: Vec<RunResult> = serde_json::from_str(results_json).map_err(|e| RunError::Results(e.to_string()))?;
    if results.len() > plan.len() {
        return Err(RunError::Results(format!("{} results for a sweep of {} runs", results.len(), plan.len())));
    }
    let runs: Vec<SweepRunRow> = results.iter().map(SweepRunRow::from).collect();
    Ok(sweep_stats(&plan, &runs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_stats_are_the_mean_sample_deviation_and_t_interval() {
        let s = metric_stats("goodput_mbps", &[1.0, 2.0, 3.0, 4.0]);
        assert_eq!((s.runs, s.mean), (4, Some(2.5)));
        let std = (5.0f64 / 3.0).sqrt();
        assert!((s.std.unwrap() - std).abs() < 1e-15);
        // t(0.975, 3) = 3.182446 (the tables).
        assert!((s.ci95.unwrap() - 3.182446 * std / 2.0).abs() < 1e-5, "{s:?}");
        let one = metric_stats("goodput_mbps", &[7.0]);
        assert_eq!((one.runs, one.mean, one.std, one.ci95), (1, Some(7.0), Some(0.0), None));
        let none = metric_stats("goodput_mbps", &[]);
        assert_eq!((none.runs, none.mean, none.std, none.ci95), (0, None, None, None));
    }

    const TWO_FLOWS: &str = r#"{"version":1,"name":"s","duration_s":5,"seed":3,
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":10}]},
        "flows":[{"transport":"tcp","cc":"reno","bytes":20000},{"transport":"tcp","cc":"cubic","bytes":20000}],
        "sweep":{"grid":{"topology.links[0].delay_ms":[10,20]},"runs":2}}"#;

    #[test]
    fn each_grid_point_and_flow_has_the_statistics_of_its_runs() {
        let plan = SweepPlan::new(TWO_FLOWS).unwrap();
        let results: Vec<RunResult> =
            (0..plan.len()).map(|i| super::super::run_job(&plan.job(i).unwrap()).unwrap()).collect();
        let stats = sweep_stats_from_json(TWO_FLOWS, &serde_json::to_string(&results).unwrap()).unwrap();
        let stats = serde_json::to_value(stats).unwrap();
        let stats = stats.as_array().unwrap();
        assert_eq!(stats.len(), 4, "two points, two flows each");
        let second_point_cubic = &stats[3];
        assert_eq!(second_point_cubic["point"], serde_json::json!([["topology.links[0].delay_ms", 20]]));
        assert_eq!((second_point_cubic["flow"].as_u64(), second_point_cubic["cc"].as_str()), (Some(1), Some("cubic")));
        let goodput = &second_point_cubic["metrics"][0];
        assert_eq!(goodput["key"], "goodput_mbps");
        let runs = [results[2].flows[1].goodput_mbps, results[3].flows[1].goodput_mbps];
        let (mean, std) = mean_std(&runs);
        assert_eq!(goodput["runs"], 2);
        assert_eq!(goodput["mean"].as_f64(), Some(mean));
        assert_eq!(goodput["std"].as_f64(), Some(std));
        assert_eq!(goodput["ci95"].as_f64(), ci95_half_width(&runs));
        // TCP has no coding overhead: no run reports it.
        let coding =
            second_point_cubic["metrics"].as_array().unwrap().iter().find(|m| m["key"] == "coding_overhead").unwrap();
        assert_eq!((coding["runs"].as_u64(), &coding["mean"]), (Some(0), &Value::Null));
        // A sweep stopped after three runs: the second point's statistics are over its one run.
        let partial: Vec<SweepRunRow> = results[..3].iter().map(SweepRunRow::from).collect();
        let stopped = sweep_stats(&plan, &partial);
        assert_eq!(stopped[2].metrics[0].runs, 1);
        assert_eq!(stopped[2].metrics[0].mean, Some(results[2].flows[0].goodput_mbps));
    }
}
