//! Running scenarios: the entry points shared by the CLI, the wasm boundary and the tests.
//!
//! A [`Run`] is one simulation built from a scenario: `chain.rs` builds a chain's network,
//! `constellation.rs` a constellation's (with the `orbits` feature only; `path.rs` has what
//! results say about a path), and `build_tcp.rs`, `build_ctcp.rs` and
//! `build_intcp.rs` each transport's agents. `report.rs` turns a finished run into the
//! [`RunResult`] (`result.rs`, with its time series in `traces.rs`). A [`Session`]
//! (`session.rs`) steps the runs of one scenario; `sweep.rs` enumerates a sweep's runs and
//! `cost.rs` estimates what a run costs.

mod build_ctcp;
mod build_intcp;
mod build_tcp;
mod chain;
#[cfg(feature = "orbits")]
pub mod constellation;
pub mod cost;
mod error;
pub mod path;
mod pcap;
pub mod provenance;
mod report;
mod result;
mod session;
mod sweep;
mod sweep_csv;
mod sweep_merge;
mod traces;
pub use error::RunError;
pub use pcap::{PcapCapture, PcapFile, DEFAULT_PCAP_LIMIT};
pub use result::{CapacitySummary, CodingSummary, FlowResult, HopSummary, LinkResult, RunResult, WireSummary};
pub use session::{combine, combine_json, combine_values, simulation_count, simulations, Session};
pub use sweep::{run_job, sweep_jobs, Shard, SweepJob, SweepPlan};
pub use sweep_csv::{sweep_csv, sweep_csv_json, SweepFlowRow, SweepRecord, SweepRunRow, SweepTable};
pub use sweep_merge::{merge_sweep_csv, parse_sweep_csv, SweepShard};
pub use traces::{CodingTrace, Columns, FlowTrace, HopTrace, LinkTrace, Traces};

use crate::content::Content;
use crate::scenario::{self, Chain, Flow, Scenario, Topology};
use crate::sim::{SimDuration, SimTime};
use crate::simulation::{Agent, Simulation};
use build_ctcp::add_ctcp_flow;
use build_intcp::{add_intcp_flow, SharedCaches};
use build_tcp::add_tcp_flow;
use chain::chain_network;
use path::PathResult;
use report::FlowParts;

/// A simulation built from a scenario, with what is needed to report on it.
pub struct Run {
    pub sim: Simulation,
    scenario: Scenario,
    seed: u64,
    /// (sender agent, receiver agent) per flow; for INTCP (producer, consumer), with the
    /// midnodes' agents between them.
    flow_agents: Vec<(u32, u32)>,
    path: Option<PathResult>,
    /// Links with queue traces: all of a chain's, a constellation's access links.
    traced_links: u32,
}

/// Where a flow's agents go and what every transport's agents are given.
#[derive(Clone, Copy)]
struct FlowSlot {
    /// The flow's index in the scenario.
    f: u32,
    from: u32,
    to: u32,
    content: Content,
    start: Option<SimTime>,
    /// `trace.max_points` and `trace.interval_s`.
    points: usize,
    interval: SimDuration,
    /// Width of the goodput bins.
    bin_width: SimDuration,
    /// The run's seed.
    seed: u64,
}

impl Run {
    pub fn new(sc: &Scenario) -> Result<Run, RunError> {
        Self::with_seed(sc, sc.seed)
    }

    /// Builds the run; fails only for a constellation whose orbits cannot be built (which
    /// scenario validation has already reported).
    pub fn with_seed(sc: &Scenario, seed: u64) -> Result<Run, RunError> {
        let points = sc.trace.max_points as usize;
        let (net, last_node, path, traced_links) = match &sc.topology {
            Topology::Chain(Chain { links, place }) => {
                let path = place.as_ref().map(|pl| path::fixed_geo_path(pl, sc.duration_s));
                (chain_network(links, seed, points), links.len() as u32, path, 2 * links.len() as u32)
            }
            #[cfg(feature = "orbits")]
            Topology::Constellation(c) => {
                let built = constellation::build(c, sc.duration_s, seed, points).map_err(RunError::Topology)?;
                (built.net, 1, Some(built.path), built.access_links)
            }
            #[cfg(not(feature = "orbits"))]
            Topology::Constellation(_) => return Err(RunError::NoOrbitCode),
        };
        let moving_nodes = net.moving.is_some().then_some(net.node_count);
        let mut sim = Simulation::new(net, SimTime::from_secs_f64(sc.duration_s));
        sim.max_events = sc.max_events;
        let interval = SimDuration::from_secs_f64(sc.trace.interval_s);
        let mut flow_agents = Vec::new();
        let mut shared_caches = SharedCaches::default();
        for (f, flow) in sc.flows.iter().enumerate() {
            let f = f as u32;
            let (from, to) = flow.nodes();
            let (from, to) = (from.unwrap_or(0), to.unwrap_or(last_node));
            let content = match flow {
                // Flows sharing a name carry the same bytes.
                Flow::Intcp(scenario::IntcpFlow { name: Some(name), .. }) => Content::named(seed, name),
                _ => Content::new(seed, f),
            };
            let slot = FlowSlot {
                f,
                from,
                to,
                content,
                start: Some(SimTime::from_secs_f64(flow.start_s())),
                points,
                interval,
                bin_width: SimDuration::from_secs_f64(sc.trace.goodput_interval_s),
                seed,
            };
            flow_agents.push(match flow {
                Flow::Tcp(t) => add_tcp_flow(&mut sim, t, slot),
                Flow::Ctcp(c) => add_ctcp_flow(&mut sim, c, slot),
                Flow::Intcp(c) => add_intcp_flow(&mut sim, c, slot, moving_nodes, &mut shared_caches),
            });
        }
        Ok(Run { sim, scenario: sc.clone(), seed, flow_agents, path, traced_links })
    }

    pub fn run(&mut self) {
        self.sim.run();
    }

    /// Makes every TCP sender check its invariants on every ACK (debug builds always do); a
    /// breach becomes the flow's error.
    pub fn audit_senders(&mut self) {
        for a in &mut self.sim.agents {
            if let Agent::TcpSender(s) = a {
                s.enable_audit();
            }
        }
    }

    fn parts(&self, f: usize) -> FlowParts<'_> {
        let (s, r) = self.flow_agents[f];
        match (&self.sim.agents[s as usize], &self.sim.agents[r as usize]) {
            (Agent::TcpSender(s), Agent::TcpReceiver(r)) => FlowParts::Tcp(s, r),
            (Agent::CtcpSender(s), Agent::CtcpReceiver(r)) => FlowParts::Ctcp(s, r),
            (Agent::IntcpNode(_), Agent::IntcpNode(c)) => {
                FlowParts::Intcp(c.consumer.as_deref().expect("the last INTCP agent is the consumer"))
            }
            _ => unreachable!("flow agents are built in sender, receiver pairs"),
        }
    }

    /// The first delivery failure of any flow, if any.
    pub fn delivery_error(&self) -> Option<String> {
        (0..self.flow_agents.len()).find_map(|f| self.parts(f).error().cloned())
    }
}

/// Runs a parsed scenario (its base point, ignoring any sweep) and returns the result, or the
/// delivery error if a flow delivered a wrong or missing byte.
pub fn run_scenario(sc: &Scenario, seed: u64, with_traces: bool) -> Result<RunResult, RunError> {
    let mut session = Session::new(sc, seed)?;
    while session.step() {}
    session.result(with_traces)
}

/// Runs a scenario given as JSON text and returns the result as JSON text.
/// `with_traces` = false gives the summary only (what `orbitcp run --summary` prints).
pub fn run_json(scenario_json: &str, with_traces: bool) -> Result<String, RunError> {
    let sc = scenario::parse(scenario_json)?;
    let r = run_scenario(&sc, sc.seed, with_traces)?;
    serde_json::to_string(&r).map_err(|e| RunError::Output(e.to_string()))
}

/// Checks a scenario, its sweep points included; the error lists every problem, each naming
/// its path.
pub fn validate_json(scenario_json: &str) -> Result<(), scenario::ScenarioError> {
    check_json(scenario_json)
}

/// Like [`validate_json`], with every problem as a [`scenario::FieldError`] (what the browser's
/// editor places beside each field).
pub fn check_json(scenario_json: &str) -> Result<(), scenario::ScenarioError> {
    let sc = scenario::check(scenario_json)?;
    if sc.sweep.is_some() {
        let plan = SweepPlan::new(scenario_json).map_err(|e| match e {
            RunError::Scenario(e) => e,
            other => scenario::ScenarioError(other.field_errors()),
        })?;
        plan.check()?;
    }
    Ok(())
}

/// The JSON Schema of the scenario format, generated from the Rust types.
pub fn schema_json() -> String {
    serde_json::to_string_pretty(&scenario::schema()).unwrap_or_default()
}

/// Everything the core reports to a front end, gathered in one type so that one JSON Schema
/// describes it all (`orbitcp schema --results`, from which the web app's result types are
/// generated). Never built.
#[cfg(feature = "orbits")]
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct CoreOutputs {
    /// `orbitcp run`, and a run in the browser.
    run: RunResult,
    /// The globe's input (`orbit::view`).
    constellation_view: crate::orbit::view::ConstellationView,
}

/// The JSON Schema of what the core reports (the run result with its traces and path
/// timeline, and the constellation view), generated from the Rust types.
#[cfg(feature = "orbits")]
pub fn results_schema_json() -> String {
    serde_json::to_string_pretty(&schemars::schema_for!(CoreOutputs)).unwrap_or_default()
}
