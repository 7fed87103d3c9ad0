//! Running scenarios: the entry points shared by the CLI, the wasm boundary and the tests.
//!
//! A [`Run`] is one simulation built from a scenario: `chain.rs` builds a chain's network,
//! `constellation.rs` a constellation's (with the `orbits` feature only; `path.rs` has what
//! results say about a path), and each transport's runner file (`tcp.rs`, `ctcp.rs`,
//! `intcp.rs`, `arq.rs`) builds its agents and says what it reports, behind the seam of `transport.rs`.
//! `report.rs` turns a finished run into the [`RunResult`] (`result.rs`, with its time series
//! in `traces.rs`). A [`Session`]
//! (`session.rs`) steps the runs of one scenario; `sweep.rs` enumerates a sweep's runs and
//! `cost.rs` estimates what a run costs; `view.rs` builds the constellation the globe shows;
//! `parallel.rs` is the native front ends' pool of threads.

mod arq;
mod chain;
#[cfg(feature = "orbits")]
pub mod constellation;
pub mod cost;
mod ctcp;
mod error;
mod intcp;
/// Native front ends only: the browser runs its jobs on Web Workers.
#[cfg(not(target_arch = "wasm32"))]
pub mod parallel;
pub mod path;
mod pcap;
pub mod provenance;
mod report;
mod result;
mod session;
mod sweep;
mod sweep_csv;
mod sweep_merge;
mod sweep_metrics;
mod sweep_stats;
mod tcp;
mod traces;
mod transport;
#[cfg(feature = "orbits")]
mod view;
pub use error::RunError;
pub use pcap::{PcapCapture, PcapFile, DEFAULT_PCAP_LIMIT};
pub use result::{
    CapacitySummary, CodingSummary, FlowResult, HopSummary, LinkResult, RunResult, TransportName, WireSummary,
};
pub use session::{combine, combine_json, simulation_count, simulations, Session};
pub use sweep::{run_job, sweep_jobs, Shard, SweepJob, SweepJobRef, SweepPlan};
pub use sweep_csv::{sweep_csv, sweep_csv_json, SweepRecord, SweepTable};
pub use sweep_merge::{merge_sweep_csv, parse_sweep_csv, SweepShard};
pub use sweep_metrics::{sweep_metrics_json, Metric, MetricKind, MetricOf, SweepFlowRow, SweepRunRow, METRICS};
pub use sweep_stats::{sweep_stats, sweep_stats_from_json, MetricStats, SweepPointStats};
pub use traces::{CodingTrace, Columns, FlowTrace, HopRole, HopTrace, LinkTrace, Traces};
#[cfg(feature = "orbits")]
pub use view::built_from_scenario_json;

use crate::content::Content;
use crate::scenario::{self, Chain, Flow, Scenario, Topology};
use crate::sim::{SimDuration, SimTime};
use crate::simulation::{Agent, Simulation};
use arq::ArqHandle;
use chain::chain_network;
use ctcp::CtcpHandle;
use intcp::IntcpHandle;
use path::PathResult;
use tcp::TcpHandle;
use transport::{Builder, FlowReport, FlowSlot, Transport};

/// A simulation built from a scenario, with what is needed to report on it.
pub struct Run {
    pub sim: Simulation,
    scenario: Scenario,
    seed: u64,
    /// Each flow's agents, as its transport built them.
    flows: Vec<FlowHandle>,
    path: Option<PathResult>,
    /// Links with queue traces: all of a chain's, a constellation's access links.
    traced_links: u32,
}

/// A built flow, of whichever transport.
enum FlowHandle {
    Tcp(TcpHandle),
    Ctcp(CtcpHandle),
    Intcp(IntcpHandle),
    Arq(ArqHandle),
}

impl FlowHandle {
    fn report(&self) -> &dyn FlowReport {
        match self {
            FlowHandle::Tcp(h) => h,
            FlowHandle::Ctcp(h) => h,
            FlowHandle::Intcp(h) => h,
            FlowHandle::Arq(h) => h,
        }
    }
}

/// The route timeline the last constellation run of a session computed, kept for the next:
/// the simulations of flows run alone share one constellation and duration, and its routes are
/// most of a short run's work (70 ms a flow for the Beijing-New York preset's 10 minutes). Kept
/// by the topology's JSON and the duration, so a different one computes its own.
#[derive(Default)]
pub struct RouteMemo {
    #[cfg(feature = "orbits")]
    last: Option<(String, u64, crate::orbit::route::Timeline)>,
}

impl Run {
    pub fn new(sc: &Scenario) -> Result<Run, RunError> {
        Self::with_seed(sc, sc.seed)
    }

    /// Builds the run; fails only for a constellation whose orbits cannot be built (which
    /// scenario validation has already reported).
    pub fn with_seed(sc: &Scenario, seed: u64) -> Result<Run, RunError> {
        Self::with_seed_until(sc, seed, &|| false)
    }

    /// [`Run::with_seed`], asking `cancel` as it precomputes a constellation's routes whether to
    /// stop there ([`RunError::Interrupted`]): a front end's Ctrl-C.
    pub fn with_seed_until(sc: &Scenario, seed: u64, cancel: &dyn Fn() -> bool) -> Result<Run, RunError> {
        Self::with_routes(sc, seed, cancel, &mut RouteMemo::default())
    }

    /// [`Run::with_seed_until`], taking a constellation's routes from `routes` when they are
    /// this scenario's, and leaving its own there.
    #[cfg_attr(not(feature = "orbits"), allow(unused_variables))]
    pub fn with_routes(
        sc: &Scenario,
        seed: u64,
        cancel: &dyn Fn() -> bool,
        routes: &mut RouteMemo,
    ) -> Result<Run, RunError> {
        let points = sc.trace.max_points as usize;
        let (net, last_node, path, traced_links) = match &sc.topology {
            Topology::Chain(Chain { links, place }) => {
                let path = place.as_ref().map(|pl| path::fixed_geo_path(pl, sc.duration_s));
                (chain_network(links, seed, points), links.len() as u32, path, 2 * links.len() as u32)
            }
            #[cfg(feature = "orbits")]
            Topology::Constellation(c) => {
                let built = constellation::build_until(c, sc.duration_s, seed, points, cancel, routes)
                    .map_err(RunError::Topology)?
                    .ok_or(RunError::Interrupted)?;
                (built.net, 1, Some(built.path), built.access_links)
            }
            #[cfg(not(feature = "orbits"))]
            Topology::Constellation(_) => return Err(RunError::NoOrbitCode),
        };
        let mut sim = Simulation::new(net, SimTime::from_secs_f64(sc.duration_s));
        sim.max_events = sc.max_events;
        let interval = SimDuration::from_secs_f64(sc.trace.interval_s);
        let mut flows = Vec::new();
        let mut b = Builder::new(&mut sim);
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
                express: sc.express,
            };
            flows.push(match flow {
                Flow::Tcp(t) => FlowHandle::Tcp(TcpHandle::build(t, slot, &mut b)),
                Flow::Ctcp(c) => FlowHandle::Ctcp(CtcpHandle::build(c, slot, &mut b)),
                Flow::Intcp(c) => FlowHandle::Intcp(IntcpHandle::build(c, slot, &mut b)),
                Flow::Arq(a) => FlowHandle::Arq(ArqHandle::build(a, slot, &mut b)),
            });
        }
        b.finish();
        if sc.express {
            sim.enable_express(sc.flows.len());
        }
        Ok(Run { sim, scenario: sc.clone(), seed, flows, path, traced_links })
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

    /// The first delivery failure of any flow, if any.
    pub fn delivery_error(&self) -> Option<String> {
        self.flows.iter().find_map(|h| h.report().error(&self.sim).cloned())
    }
}

/// Runs a parsed scenario (its base point, ignoring any sweep) and returns the result, or the
/// delivery error if a flow delivered a wrong or missing byte.
pub fn run_scenario(sc: &Scenario, seed: u64, with_traces: bool) -> Result<RunResult, RunError> {
    let mut session = Session::new(sc, seed)?;
    while session.advance(u64::MAX) {}
    session.result(with_traces)
}

/// Runs a scenario given as JSON text and returns the result as JSON text.
/// `with_traces` = false gives the summary only (what `orbitcp run --summary` prints).
pub fn run_json(scenario_json: &str, with_traces: bool) -> Result<String, RunError> {
    let sc = scenario::parse(scenario_json)?;
    let r = run_scenario(&sc, sc.seed, with_traces)?;
    serde_json::to_string(&r).map_err(|e| RunError::Output(e.to_string()))
}

/// Checks a scenario, its sweep points included; the error lists every problem, each a
/// [`scenario::FieldError`] naming its path (what the browser's editor places beside each field).
pub fn validate_json(scenario_json: &str) -> Result<(), scenario::ScenarioError> {
    let sc = scenario::parse(scenario_json)?;
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
    /// A problem with a scenario (validation, and every refusal at the wasm boundary).
    field_error: crate::scenario::FieldError,
    /// What a scenario will cost (`cost::estimate`).
    cost_estimate: cost::CostEstimate,
    /// A sweep's job as the browser lists it (`sweep_jobs`).
    sweep_job: SweepJobRef,
    /// A sweep's statistics per grid point and flow, for its chart (`sweep_stats`).
    sweep_point_stats: SweepPointStats,
}

/// The JSON Schema of what the core reports (the run result with its traces and path
/// timeline, and the constellation view), generated from the Rust types.
#[cfg(feature = "orbits")]
pub fn results_schema_json() -> String {
    serde_json::to_string_pretty(&schemars::schema_for!(CoreOutputs)).unwrap_or_default()
}
