//! The wasm boundary: the only file that knows about wasm-bindgen. Each export delegates to
//! `crate::runner`, so the browser, the CLI and the tests run exactly the same code. Errors
//! cross as plain objects `{path, message}`, the shape of a validation problem
//! (`scenario::FieldError`): the path of the scenario field at fault (empty for the scenario or
//! the run as a whole) and what is wrong, so the browser can place them as it places validation
//! problems.
//!
//! The site ships every export, so each is one the page calls (web/src/sim/worker.ts,
//! web/src/wasm/cores.ts); the crash tests that `?debug=1` shows call `debug_panic`,
//! `debug_exhaust_memory` and `SteppedRun::arm_panic`. What only the Node tests need stays
//! behind the `testing` feature, in a module of its own that only they load
//! (`scripts/build-wasm.sh --testing`).

use wasm_bindgen::prelude::*;

use crate::runner::{self, RunError};
use crate::scenario::{FieldError, ScenarioError};

#[wasm_bindgen]
extern "C" {
    /// JavaScript's `JSON.parse`, to hand errors over as plain objects.
    #[wasm_bindgen(js_namespace = JSON, js_name = parse)]
    fn json_parse(text: &str) -> JsValue;
}

/// An error as JavaScript receives it: `{path, message}`. Several problems (an invalid
/// scenario) become one with the path of the first when they share it, else the scenario's
/// (empty) path and every problem on a line of the message, as the CLI prints them.
fn js_error(problems: &[FieldError]) -> JsValue {
    let (path, message) = match problems {
        [one] => (one.path.clone(), one.message.clone()),
        many => (String::new(), ScenarioError(many.to_vec()).to_string()),
    };
    json_parse(&serde_json::json!({ "path": path, "message": message }).to_string())
}

fn run_error(e: RunError) -> JsValue {
    js_error(&e.field_errors())
}

fn scenario_error(e: ScenarioError) -> JsValue {
    js_error(&e.0)
}

/// An error without a field: writing JSON, which does not fail for the core's own types.
fn output_error(e: serde_json::Error) -> JsValue {
    run_error(RunError::Output(e.to_string()))
}

/// A result as JSON for JavaScript (`SteppedRun::result`): the CLI's JSON with `seed` as decimal text, since a
/// JavaScript number holds integers exactly only up to 2^53 and seeds are 64-bit (a sweep run's
/// derived seed almost never fits). The browser keeps it as text (`RunSummary.seed`), as it
/// already sends seeds (`SteppedRun::new`, `sweep_jobs`).
fn result_json(r: &runner::RunResult) -> Result<String, JsValue> {
    let mut v = serde_json::to_value(r).map_err(output_error)?;
    v["seed"] = serde_json::Value::String(r.seed.to_string());
    serde_json::to_string(&v).map_err(output_error)
}

/// Checks a scenario without running it: a JSON array of its problems, `[{"path", "message",
/// "sweep_point"?}]` (`scenario::FieldError`), empty when it is valid.
#[wasm_bindgen]
pub fn validate_scenario(json: &str) -> Result<String, JsValue> {
    let problems = runner::validate_json(json).err().map(|e| e.0).unwrap_or_default();
    serde_json::to_string(&problems).map_err(output_error)
}

// The JSON Schema is not exported: the web app's types are generated from it at build time
// (`npm run gen:types`), and leaving the generator out keeps it out of the first load.

/// The crate version, so the UI can show which core produced a result.
#[wasm_bindgen]
pub fn core_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// A run the worker advances in slices, so it can report progress and the UI never waits on
/// one long call.
#[wasm_bindgen]
pub struct SteppedRun {
    session: runner::Session,
    /// Set by `arm_panic`: the next `advance` panics, as a bug in the core would.
    panic_armed: bool,
}

#[wasm_bindgen]
impl SteppedRun {
    /// A run of the scenario's base point; `seed` (decimal text, since seeds are 64-bit) replaces
    /// the scenario's seed when given.
    #[wasm_bindgen(constructor)]
    pub fn new(json: &str, seed: Option<String>) -> Result<SteppedRun, JsValue> {
        let (sc, seed) = scenario_and_seed(json, seed)?;
        let session = runner::Session::new(&sc, seed).map_err(run_error)?;
        Ok(SteppedRun { session, panic_armed: false })
    }

    /// Simulation `index` (of `simulation_count`) of the run `new(json, seed)` would make, alone
    /// (`runner::Session::part`): the worker pool runs a `flows_alone` scenario's flows in
    /// parallel and joins their results with `combine_results`.
    pub fn part(json: &str, seed: Option<String>, index: u32) -> Result<SteppedRun, JsValue> {
        let (sc, seed) = scenario_and_seed(json, seed)?;
        let session = runner::Session::part(&sc, seed, index as usize).map_err(run_error)?;
        Ok(SteppedRun { session, panic_armed: false })
    }

    /// Makes the next `advance` panic while it holds the run, as a bug in the core would: the
    /// path the worker's crash recovery must survive (a panic inside a method leaves
    /// wasm-bindgen's borrow of the object held).
    pub fn arm_panic(&mut self) {
        self.panic_armed = true;
    }

    /// Processes up to `max_events` events; returns true when the run is over.
    pub fn advance(&mut self, max_events: u32) -> bool {
        if self.panic_armed {
            panic!("deliberate panic inside a run, at {:.3} s simulated", self.session.progress_s());
        }
        if !self.session.advance(max_events.into()) {
            return true;
        }
        self.session.finished()
    }

    /// Simulated seconds reached so far (summed over the runs of flows run alone).
    pub fn now_s(&self) -> f64 {
        self.session.progress_s()
    }

    /// Simulated seconds in all.
    pub fn end_s(&self) -> f64 {
        self.session.total_s()
    }

    /// The result as JSON text ([`result_json`]), or the delivery error if a flow delivered a
    /// wrong byte.
    pub fn result(&self, with_traces: bool) -> Result<String, JsValue> {
        let r = self.session.result(with_traces).map_err(run_error)?;
        result_json(&r)
    }
}

/// A sweep's plan, read once: the worker runs many of its jobs from it, so a job costs its run
/// and not another reading of the sweep's scenario.
#[wasm_bindgen]
pub struct SweepRuns {
    plan: runner::SweepPlan,
}

#[wasm_bindgen]
impl SweepRuns {
    #[wasm_bindgen(constructor)]
    pub fn new(json: &str) -> Result<SweepRuns, JsValue> {
        Ok(SweepRuns { plan: runner::SweepPlan::new(json).map_err(run_error)? })
    }

    /// A run of job `index` of the sweep (the order of `sweep_jobs`).
    pub fn job(&self, index: u32) -> Result<SteppedRun, JsValue> {
        let job = self.plan.job(index as usize).map_err(run_error)?;
        let session = runner::Session::new(&job.scenario, job.seed).map_err(run_error)?;
        Ok(SteppedRun { session, panic_armed: false })
    }
}

/// The scenario and the seed a run uses: `seed` (decimal text, since seeds are 64-bit) when
/// given, else the scenario's. Not inlined: each caller would carry its own copy of the parser.
#[inline(never)]
fn scenario_and_seed(json: &str, seed: Option<String>) -> Result<(crate::scenario::Scenario, u64), JsValue> {
    let sc = crate::scenario::parse(json).map_err(scenario_error)?;
    let seed = match seed {
        Some(s) => s
            .parse::<u64>()
            .map_err(|_| js_error(&[FieldError::new("seed", format!("\"{s}\" is not a 64-bit seed"))]))?,
        None => sc.seed,
    };
    Ok((sc, seed))
}

/// How many simulations a run of the scenario makes (`runner::simulation_count`): one per flow
/// with `flows_alone`, else one.
#[wasm_bindgen]
pub fn simulation_count(json: &str) -> Result<u32, JsValue> {
    let (sc, _) = scenario_and_seed(json, None)?;
    Ok(runner::simulation_count(&sc) as u32)
}

/// The result of the run `SteppedRun::new(json, seed)` would make, from its simulations' results
/// (`parts_json`: a JSON array of `SteppedRun::part(json, seed, k).result(..)`'s texts, in order
/// of `k`): the same text as that run's `result` (`runner::combine_json`). In the orbit build
/// only: reading results back is the result types' deserializers, which the first load does
/// without (the worker fetches the orbit build while the parts run).
#[cfg(feature = "orbits")]
#[wasm_bindgen]
pub fn combine_results(json: &str, seed: Option<String>, parts_json: &str) -> Result<String, JsValue> {
    let (sc, seed) = scenario_and_seed(json, seed)?;
    let r = runner::combine_json(parts_json, &runner::provenance::run_hash(&sc, seed)).map_err(run_error)?;
    result_json(&r)
}

/// A run's packet capture (docs/pcap.md): one pcap file per link, the bytes `orbitcp run
/// --pcap` writes. In the orbit build only: the first load does without the pcap writer.
#[cfg(feature = "orbits")]
#[wasm_bindgen]
pub struct PcapFiles {
    capture: runner::PcapCapture,
}

#[cfg(feature = "orbits")]
#[wasm_bindgen]
impl PcapFiles {
    /// Runs the scenario's base point (with `seed`, decimal text, if given) keeping at most
    /// `limit` packets (the CLI's default when absent), and returns its capture.
    #[wasm_bindgen(constructor)]
    pub fn new(json: &str, seed: Option<String>, limit: Option<f64>) -> Result<PcapFiles, JsValue> {
        let mut run = SteppedRun::new(json, seed)?;
        let limit = limit.map_or(runner::DEFAULT_PCAP_LIMIT, |l| l.max(0.0) as u64);
        run.session.enable_capture(limit);
        while run.session.step() {}
        run.session.result(false).map_err(run_error)?;
        Ok(PcapFiles { capture: run.session.pcap() })
    }

    pub fn count(&self) -> u32 {
        self.capture.files.len() as u32
    }

    /// The file name of link file `i` (`link-K-nA-nB.pcap`), empty past the end.
    pub fn name(&self, i: u32) -> String {
        self.capture.files.get(i as usize).map_or(String::new(), |f| f.name.clone())
    }

    /// The bytes of file `i`, empty past the end.
    pub fn bytes(&self, i: u32) -> Vec<u8> {
        self.capture.files.get(i as usize).map_or(Vec::new(), |f| f.bytes.clone())
    }

    /// Packets transmitted after the limit was reached, which no file holds.
    pub fn missed(&self) -> f64 {
        self.capture.missed as f64
    }
}

/// The sweep's runs as JSON: `[{ "point": [[path, value], ...], "run": r, "seed": "…" }]`, in
/// the same order as `orbitcp sweep`; job `i` runs with `SweepRuns::new(json).job(i)`.
#[wasm_bindgen]
pub fn sweep_jobs(json: &str) -> Result<String, JsValue> {
    let plan = runner::SweepPlan::new(json).map_err(run_error)?;
    let list: Vec<runner::SweepJobRef> = (0..plan.len()).map(|i| plan.job_ref(i)).collect();
    serde_json::to_string(&list).map_err(output_error)
}

/// A sweep's results as CSV, the bytes `orbitcp sweep` prints (`runner::sweep_csv`): `json` is
/// the sweep's scenario, `results_json` a JSON array of its runs' results in job order (as
/// `SteppedRun::result` gave them; only `flows`, `fairness_jain` and `unrouted_pkts` are read),
/// `aggregate` as `--aggregate`. In the orbit build only, as `PcapFiles`: exports the user asks
/// for after a run stay out of the first load.
#[cfg(feature = "orbits")]
#[wasm_bindgen]
pub fn sweep_csv(json: &str, results_json: &str, aggregate: bool) -> Result<String, JsValue> {
    runner::sweep_csv_json(json, results_json, aggregate).map_err(run_error)
}

/// A sweep's statistics per grid point and flow as JSON (`runner::SweepPointStats`: for each
/// metric the runs, mean, standard deviation and 95 % confidence half-width, the numbers
/// `orbitcp sweep --aggregate` prints), for the sweep chart and table; arguments as
/// [`sweep_csv`]'s. In the orbit build only: the chart is drawn after a sweep, which already
/// fetched the orbit build.
#[cfg(feature = "orbits")]
#[wasm_bindgen]
pub fn sweep_stats(json: &str, results_json: &str) -> Result<String, JsValue> {
    let stats = runner::sweep_stats_from_json(json, results_json).map_err(run_error)?;
    serde_json::to_string(&stats).map_err(output_error)
}

/// What a scenario will cost (`runner::cost::CostEstimate` as JSON: runs, events, browser
/// seconds), so the app can ask before it opens an expensive shared link.
#[wasm_bindgen]
pub fn estimate_cost(json: &str) -> Result<String, JsValue> {
    let c = runner::cost::estimate_json(json).map_err(run_error)?;
    serde_json::to_string(&c).map_err(output_error)
}

/// Allocates until memory runs out, as a scenario too big for the tab would: the path the
/// worker's out-of-memory report must survive.
#[wasm_bindgen]
pub fn debug_exhaust_memory() -> usize {
    let mut held: Vec<Vec<u8>> = Vec::new();
    loop {
        // 256 MB at a time, touched so the pages are real.
        let mut chunk = vec![0u8; 256 << 20];
        chunk[0] = 1;
        held.push(chunk);
        if held.len() > 64 {
            return held.len();
        }
    }
}

/// Whether a scenario (JSON text) needs the orbit code (`scenario::needs_orbit_code`): the
/// worker asks the first-load module this before it validates, runs or views a scenario.
#[wasm_bindgen]
pub fn needs_orbit_code(json: &str) -> bool {
    crate::scenario::needs_orbit_code(json)
}

/// What the globe draws for a constellation scenario, as JSON (`orbit::view::ConstellationView`:
/// satellites with their elements, ground stations, +Grid pairs, the epoch).
#[cfg(feature = "orbits")]
#[wasm_bindgen]
pub fn constellation_view(scenario_json: &str) -> Result<String, JsValue> {
    let built = crate::runner::built_from_scenario_json(scenario_json).map_err(scenario_error)?;
    serde_json::to_string(&crate::orbit::view::constellation_view(&built)).map_err(output_error)
}

/// ECEF positions (km) of every satellite of a constellation scenario at each orbit time of `times_json` (a JSON array of seconds), as JSON:
/// one flat `[x0, y0, z0, x1, …]` per time, `null` where SGP4 fails. For the agreement test of
/// the globe's propagation against the core's (wasm-core/tests-node/globe-agreement.test.mjs),
/// so only in a build with the `testing` feature: the page never calls it.
#[cfg(all(feature = "orbits", feature = "testing"))]
#[wasm_bindgen]
pub fn constellation_positions(scenario_json: &str, times_json: &str) -> Result<String, JsValue> {
    let built = crate::runner::built_from_scenario_json(scenario_json).map_err(scenario_error)?;
    let times: Vec<f64> = serde_json::from_str(times_json)
        .map_err(|e| js_error(&[FieldError::new("times", format!("not a JSON array of seconds: {e}"))]))?;
    let per_time: Vec<Vec<Option<f64>>> = times
        .iter()
        .map(|&t| {
            built
                .constellation
                .sats
                .iter()
                .flat_map(|s| match s.orbit.position(t) {
                    Some(p) => p.map(Some),
                    None => [None; 3],
                })
                .collect()
        })
        .collect();
    serde_json::to_string(&per_time).map_err(output_error)
}

thread_local! {
    static LAST_PANIC: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Records panic messages, so that after a trap the worker can say what went wrong instead of
/// "unreachable executed". Call once after instantiation.
#[wasm_bindgen]
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|p| *p.borrow_mut() = info.to_string());
    }));
}

/// The message of the last panic, empty if none.
#[wasm_bindgen]
pub fn last_panic() -> String {
    LAST_PANIC.with(|p| p.borrow().clone())
}

/// Panics on purpose: the UI's "simulate a crash" control and the e2e test of worker recovery
/// use it to prove that a panic surfaces as a message and the app recovers.
#[wasm_bindgen]
pub fn debug_panic() {
    panic!("deliberate panic requested by the UI (debug_panic)");
}
