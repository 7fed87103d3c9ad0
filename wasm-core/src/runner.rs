//! Running scenarios: the entry points shared by the CLI, the wasm boundary and the tests.

use crate::content::Content;
use crate::engine::{Agent, Simulation};
use crate::metrics::{jain_index, DelaySummary, Trace};
use crate::net::{Buffer, Link, LinkConfig, LossProcess, Network, Outages, RateSchedule};
use crate::scenario::{self, Chain, Flow, LinkSpec, LossSpec, OutagesSpec, RateScheduleSpec, Scenario, Topology};
use crate::sim::{rng::run_seed, Rng, SimDuration, SimTime, Stream};
use crate::tcp::congestion::CcOptions;
use crate::tcp::receiver::TcpReceiver;
use crate::tcp::rtt::RtoFlavor;
use crate::tcp::sender::{TcpConfig, TcpSender, SENDER_TRACE_COLUMNS};
use serde::Serialize;
use serde_json::Value;

/// The result of one run.
#[derive(Clone, Debug, Serialize)]
pub struct RunResult {
    pub name: String,
    pub seed: u64,
    /// Simulated time at which the run stopped.
    pub end_s: f64,
    pub events: u64,
    pub flows: Vec<FlowResult>,
    pub fairness_jain: f64,
    pub links: Vec<LinkResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traces: Option<Traces>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FlowResult {
    pub id: u32,
    pub transport: &'static str,
    pub cc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub bytes: Option<u64>,
    pub delivered_bytes: u64,
    pub completed: bool,
    /// Seconds from the flow's start to its last byte delivered.
    pub completion_s: Option<f64>,
    /// Delivered bytes over completion time, or over the time it ran if it did not complete.
    pub goodput_mbps: f64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub owd_ms: DelaySummary,
    pub jitter_ms: f64,
    /// Why a flow with a byte count did not complete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incomplete_reason: Option<String>,
    /// A delivery failure: a wrong or missing byte. A run with one is a failed run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LinkResult {
    pub id: u32,
    pub from: u32,
    pub to: u32,
    pub delivered_pkts: u64,
    pub drops: crate::net::Drops,
}

#[derive(Clone, Debug, Serialize)]
pub struct Traces {
    pub flows: Vec<FlowTrace>,
    pub links: Vec<LinkTrace>,
}

/// Columns of one flow's traces. Each time series shares its own `t`.
#[derive(Clone, Debug, Serialize)]
pub struct FlowTrace {
    pub id: u32,
    pub sender: Columns,
    pub owd: Columns,
    pub goodput: Columns,
    /// One-way delays in ms at evenly spaced quantiles (for CDF charts).
    pub owd_cdf_ms: Vec<f64>,
    pub jitter: Columns,
}

#[derive(Clone, Debug, Serialize)]
pub struct LinkTrace {
    pub id: u32,
    pub queue: Columns,
}

/// A time column and named value columns of equal length.
#[derive(Clone, Debug, Serialize)]
pub struct Columns {
    pub t: Vec<f64>,
    #[serde(flatten)]
    pub cols: serde_json::Map<String, Value>,
}

impl Columns {
    fn new<const N: usize>(trace: &Trace<N>, names: [&str; N]) -> Columns {
        let mut cols = serde_json::Map::new();
        for (name, c) in names.iter().zip(trace.cols.iter()) {
            cols.insert(name.to_string(), c.iter().map(|&v| json_f64(v)).collect());
        }
        Columns { t: trace.t.clone(), cols }
    }
    fn pairs(t: Vec<f64>, name: &str, v: Vec<f64>) -> Columns {
        let mut cols = serde_json::Map::new();
        cols.insert(name.to_string(), v.into_iter().map(json_f64).collect());
        Columns { t, cols }
    }
}

fn json_f64(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// A simulation built from a scenario, with what is needed to report on it.
pub struct Run {
    pub sim: Simulation,
    scenario: Scenario,
    seed: u64,
    /// (sender agent, receiver agent) per flow.
    flow_agents: Vec<(u32, u32)>,
}

impl Run {
    pub fn new(sc: &Scenario) -> Run {
        Self::with_seed(sc, sc.seed)
    }

    pub fn with_seed(sc: &Scenario, seed: u64) -> Run {
        let Topology::Chain(Chain { links }) = &sc.topology;
        let points = sc.trace.max_points as usize;
        let mut net_links = Vec::with_capacity(links.len() * 2);
        for (i, spec) in links.iter().enumerate() {
            let i = i as u32;
            for reverse in [false, true] {
                let id = 2 * i + reverse as u32;
                let (from, to) = if reverse { (i + 1, i) } else { (i, i + 1) };
                net_links.push(Link::new(
                    id,
                    from,
                    to,
                    link_config(spec, reverse),
                    Rng::new(seed, Stream::LinkLoss { link: i, reverse }),
                    Rng::new(seed, Stream::LinkJitter { link: i, reverse }),
                    points,
                ));
            }
        }
        let last_node = links.len() as u32;
        let net = Network::new(last_node + 1, net_links);
        let mut sim = Simulation::new(net, SimTime::from_secs_f64(sc.duration_s));
        let interval = SimDuration::from_secs_f64(sc.trace.interval_s);
        let mut flow_agents = Vec::new();
        for (f, flow) in sc.flows.iter().enumerate() {
            let f = f as u32;
            let Flow::Tcp(t) = flow;
            let (from, to) = (t.from_node.unwrap_or(0), t.to_node.unwrap_or(last_node));
            let content = Content::new(seed, f);
            let sender_id = sim.agents.len() as u32;
            let receiver_id = sender_id + 1;
            let rto_min = t.rto_min_ms.unwrap_or(match t.rto_flavor {
                RtoFlavor::Linux => 200.0,
                RtoFlavor::Rfc6298 => 1000.0,
            });
            let cfg = TcpConfig {
                cc: t.cc,
                cc_options: CcOptions { hystart: t.hystart },
                mss: t.mss_bytes,
                initial_cwnd: t.initial_cwnd_pkts,
                initial_ssthresh: t.initial_ssthresh_pkts,
                sack: t.sack,
                rto_flavor: t.rto_flavor,
                rto_min: SimDuration::from_secs_f64(rto_min / 1e3),
                rto_max: SimDuration::from_millis(match t.rto_flavor {
                    RtoFlavor::Linux => 120_000,  // Linux TCP_RTO_MAX
                    RtoFlavor::Rfc6298 => 60_000, // RFC 6298 §2.5
                }),
                rwnd_pkts: t.rwnd_pkts,
                bytes: t.bytes,
            };
            let sender = TcpSender::new(cfg, f, to, receiver_id, content, Trace::with_interval(points, interval));
            sim.add_agent(from, Agent::TcpSender(Box::new(sender)), Some(SimTime::from_secs_f64(t.start_s)));
            let delack = t.delayed_ack.then(|| SimDuration::from_secs_f64(t.delack_ms / 1e3));
            let receiver = TcpReceiver::new(
                f,
                from,
                sender_id,
                content,
                t.bytes,
                delack,
                Trace::with_interval(points, interval),
                SimDuration::from_secs_f64(sc.trace.goodput_interval_s),
            );
            sim.add_agent(to, Agent::TcpReceiver(Box::new(receiver)), None);
            flow_agents.push((sender_id, receiver_id));
        }
        Run { sim, scenario: sc.clone(), seed, flow_agents }
    }

    pub fn run(&mut self) {
        self.sim.run();
    }

    fn parts(&self, f: usize) -> (&TcpSender, &TcpReceiver) {
        let (s, r) = self.flow_agents[f];
        match (&self.sim.agents[s as usize], &self.sim.agents[r as usize]) {
            (Agent::TcpSender(s), Agent::TcpReceiver(r)) => (s, r),
            _ => unreachable!("flow agents are built in sender, receiver pairs"),
        }
    }

    /// The first delivery failure of any flow, if any.
    pub fn delivery_error(&self) -> Option<String> {
        (0..self.flow_agents.len()).find_map(|f| self.parts(f).1.error.clone())
    }

    pub fn result(&self, with_traces: bool) -> RunResult {
        let end = self.sim.now.min(self.sim.end);
        let mut flows = Vec::new();
        for (f, flow) in self.scenario.flows.iter().enumerate() {
            let Flow::Tcp(t) = flow;
            let (s, r) = self.parts(f);
            let start = SimTime::from_secs_f64(t.start_s);
            let completion = r.completed_at.map(|c| (c - start).as_secs_f64());
            let ran_for = completion.unwrap_or_else(|| (self.sim.end.max(end) - start).as_secs_f64());
            let goodput = if ran_for > 0.0 { r.delivered as f64 * 8.0 / ran_for / 1e6 } else { 0.0 };
            let incomplete_reason = match (t.bytes, r.completed_at) {
                (Some(b), None) => Some(format!(
                    "time limit: the run ended at {} s with {} of {} bytes delivered",
                    self.scenario.duration_s, r.delivered, b
                )),
                _ => None,
            };
            flows.push(FlowResult {
                id: f as u32,
                transport: "tcp",
                cc: t.cc.name(),
                label: t.label.clone(),
                bytes: t.bytes,
                delivered_bytes: r.delivered,
                completed: r.completed_at.is_some(),
                completion_s: completion,
                goodput_mbps: goodput,
                retransmissions: s.stats.retransmissions,
                timeouts: s.stats.timeouts,
                owd_ms: r.delays.summary(),
                jitter_ms: r.delays.mean_jitter(),
                incomplete_reason,
                error: r.error.clone(),
            });
        }
        let goodputs: Vec<f64> = flows.iter().map(|f| f.goodput_mbps).collect();
        let links = self
            .sim
            .net
            .links
            .iter()
            .map(|l| LinkResult { id: l.id, from: l.from, to: l.to, delivered_pkts: l.delivered_pkts, drops: l.drops })
            .collect();
        let traces = with_traces.then(|| self.traces());
        RunResult {
            name: self.scenario.name.clone(),
            seed: self.seed,
            end_s: end.as_secs_f64(),
            events: self.sim.events_processed(),
            fairness_jain: jain_index(&goodputs),
            flows,
            links,
            traces,
        }
    }

    fn traces(&self) -> Traces {
        let points = self.scenario.trace.max_points as usize;
        let width = self.scenario.trace.goodput_interval_s;
        let flows = (0..self.flow_agents.len())
            .map(|f| {
                let (s, r) = self.parts(f);
                let gt: Vec<f64> = (0..r.goodput_bins.len()).map(|i| i as f64 * width).collect();
                let gv: Vec<f64> = r.goodput_bins.iter().map(|&b| b as f64 * 8.0 / width / 1e6).collect();
                let (jt, jv) = r.delays.jitter_series().into_iter().unzip();
                FlowTrace {
                    id: f as u32,
                    sender: Columns::new(&s.trace, SENDER_TRACE_COLUMNS),
                    owd: Columns::new(&r.owd_trace, ["owd_ms"]),
                    goodput: Columns::pairs(gt, "mbps", gv),
                    owd_cdf_ms: r.delays.cdf(points),
                    jitter: Columns::pairs(jt, "jitter_ms", jv),
                }
            })
            .collect();
        let links = self
            .sim
            .net
            .links
            .iter()
            .map(|l| LinkTrace { id: l.id, queue: Columns::new(&l.queue_trace, ["queue_pkts"]) })
            .collect();
        Traces { flows, links }
    }
}

fn loss_process(spec: &Option<LossSpec>) -> LossProcess {
    match spec {
        None | Some(LossSpec::None) => LossProcess::None,
        Some(LossSpec::Bernoulli { p }) => LossProcess::Bernoulli { p: *p },
        Some(LossSpec::GilbertElliott { p_good_to_bad, p_bad_to_good, loss_good, loss_bad }) => {
            LossProcess::GilbertElliott {
                p_good_to_bad: *p_good_to_bad,
                p_bad_to_good: *p_bad_to_good,
                loss_good: *loss_good,
                loss_bad: *loss_bad,
                bad: false,
            }
        }
        Some(LossSpec::List { drops }) => {
            let mut d = drops.clone();
            d.sort_unstable();
            d.dedup();
            LossProcess::List { drops: d, next: 0 }
        }
    }
}

fn link_config(spec: &LinkSpec, reverse: bool) -> LinkConfig {
    let mbps = |m: f64| m * 1e6;
    let rate = if reverse {
        RateSchedule::Constant(mbps(spec.reverse_rate_mbps.unwrap_or(spec.rate_mbps)))
    } else {
        match &spec.rate_schedule {
            None => RateSchedule::Constant(mbps(spec.rate_mbps)),
            Some(RateScheduleSpec::Steps(steps)) => {
                RateSchedule::Steps(steps.iter().map(|s| (SimTime::from_secs_f64(s.at_s), mbps(s.rate_mbps))).collect())
            }
            Some(RateScheduleSpec::Square { square }) => RateSchedule::Square {
                low: mbps(square.low_mbps),
                high: mbps(square.high_mbps),
                period: SimDuration::from_secs_f64(square.period_s),
            },
        }
    };
    let buffer = match (spec.buffer_pkts, spec.buffer_bytes) {
        (Some(p), _) => Buffer::Packets(p),
        (None, Some(b)) => Buffer::Bytes(b),
        (None, None) => Buffer::Unlimited,
    };
    let outages = match &spec.outages {
        None => Outages::None,
        Some(OutagesSpec::List(list)) => {
            let mut v: Vec<_> = list
                .iter()
                .map(|o| (SimTime::from_secs_f64(o.start_s), SimTime::from_secs_f64(o.start_s + o.duration_s)))
                .collect();
            v.sort();
            Outages::List(v)
        }
        Some(OutagesSpec::Periodic(o)) => Outages::Periodic {
            every: SimDuration::from_secs_f64(o.every_s),
            duration: SimDuration::from_secs_f64(o.duration_s),
            first: SimTime::from_secs_f64(o.first_s.unwrap_or(o.every_s)),
        },
    };
    LinkConfig {
        rate,
        delay: SimDuration::from_secs_f64(spec.delay_ms / 1e3),
        buffer,
        jitter: SimDuration::from_secs_f64(spec.jitter_ms / 1e3),
        reorder: spec.jitter_reorder,
        loss: loss_process(if reverse { &spec.reverse_loss } else { &spec.loss }),
        outages,
    }
}

/// Runs a parsed scenario (its base point, ignoring any sweep) and returns the result, or the
/// delivery error if a flow delivered a wrong or missing byte.
pub fn run_scenario(sc: &Scenario, seed: u64, with_traces: bool) -> Result<RunResult, String> {
    let mut run = Run::with_seed(sc, seed);
    run.run();
    if let Some(e) = run.delivery_error() {
        return Err(format!("delivery check failed: {e}"));
    }
    Ok(run.result(with_traces))
}

/// Runs a scenario given as JSON text and returns the result as JSON text.
/// `with_traces` = false gives the summary only (what `orbitcp run --summary` prints).
pub fn run_json(scenario_json: &str, with_traces: bool) -> Result<String, String> {
    let sc = scenario::parse(scenario_json)?;
    let r = run_scenario(&sc, sc.seed, with_traces)?;
    serde_json::to_string(&r).map_err(|e| e.to_string())
}

/// Checks a scenario, its sweep points included; the error lists every problem, each naming
/// its path.
pub fn validate_json(scenario_json: &str) -> Result<(), String> {
    let sc = scenario::parse(scenario_json)?;
    if sc.sweep.is_some() {
        sweep_jobs(scenario_json)?;
    }
    Ok(())
}

/// The JSON Schema of the scenario format, generated from the Rust types.
pub fn schema_json() -> String {
    serde_json::to_string_pretty(&scenario::schema()).unwrap_or_default()
}

/// One run of a sweep: a grid point, a run index, and the scenario for it.
#[derive(Clone, Debug)]
pub struct SweepJob {
    /// (path, value) for each swept path, in grid order.
    pub point: Vec<(String, Value)>,
    pub run: u32,
    pub seed: u64,
    pub scenario: Scenario,
}

/// Expands a scenario's sweep into jobs, in a fixed order: grid points in row-major order of
/// the grid as written, then runs. Every point's scenario is validated.
pub fn sweep_jobs(scenario_json: &str) -> Result<Vec<SweepJob>, String> {
    let base_value: Value = serde_json::from_str(scenario_json).map_err(|e| format!("scenario: invalid JSON: {e}"))?;
    let base = scenario::from_value(base_value.clone())?;
    let Some(sweep) = &base.sweep else {
        return Err("sweep: the scenario has no sweep section".into());
    };
    let axes: Vec<(String, Vec<Value>)> =
        sweep.grid.iter().map(|(k, v)| (k.clone(), v.as_array().cloned().unwrap_or_default())).collect();
    let mut jobs = Vec::new();
    let total: usize = axes.iter().map(|a| a.1.len()).product();
    for idx in 0..total {
        let mut rem = idx;
        let mut point = Vec::with_capacity(axes.len());
        for (path, values) in axes.iter().rev() {
            point.push((path.clone(), values[rem % values.len()].clone()));
            rem /= values.len();
        }
        point.reverse();
        let mut v = base_value.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("sweep");
        }
        for (path, val) in &point {
            scenario::set_path(&mut v, path, val.clone()).map_err(|e| format!("sweep.grid: {e}"))?;
        }
        let label = point.iter().map(|(p, v)| format!("{p}={v}")).collect::<Vec<_>>().join(", ");
        let sc = scenario::from_value(v).map_err(|e| format!("sweep point {label}: {e}"))?;
        for run in 0..sweep.runs {
            jobs.push(SweepJob { point: point.clone(), run, seed: run_seed(base.seed, run), scenario: sc.clone() });
        }
    }
    Ok(jobs)
}

/// Runs one sweep job (summary only).
pub fn run_job(job: &SweepJob) -> Result<RunResult, String> {
    run_scenario(&job.scenario, job.seed, false)
}
