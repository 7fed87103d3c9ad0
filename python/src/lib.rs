//! `orbitcp._native`: the orbitcp core for Python. The Python half of the package
//! (`python/orbitcp/`) turns scenarios into JSON text, results into pandas DataFrames and spreads
//! sweeps over Dask or Ray; everything here takes and returns plain strings, numbers and tuples,
//! so that what crosses a process boundary pickles exactly.
//!
//! Every run releases the GIL (`Python::detach`), so other Python threads (a Dask worker's, a
//! notebook's) go on while the core computes. Every error the core reports becomes a
//! `ValueError` carrying the core's text, which names each field at fault (`flows[0].cc: ...`).
//!
//! Runs step in chunks and look for a pending signal between them (`signals.rs`): Ctrl-C in a
//! notebook or a script raises `KeyboardInterrupt` within milliseconds, a constellation's route
//! precomputation included, instead of once the run is over.

mod signals;
mod table;

use orbitcp_core::runner::{self, parallel, SweepPlan};
use orbitcp_core::scenario::{self, Scenario};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use signals::Stop;
use std::fmt::Display;
use std::sync::atomic::{AtomicBool, Ordering};
use table::JobResult;

type JobOutcome = Result<JobResult, Stop>;

fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The core's error as its text, whatever its type: the CLI prints the same text.
fn text(e: impl Display) -> String {
    e.to_string()
}

/// Runs the scenario's base point (not its sweep) and returns the result as JSON text: what
/// `orbitcp run` prints (`--summary` when `traces` is false).
#[pyfunction]
fn run_json(py: Python<'_>, scenario_json: &str, traces: bool) -> PyResult<String> {
    py.detach(|| -> Result<String, Stop> {
        let sc = scenario::parse(scenario_json).map_err(text)?;
        let r = signals::Watch::new().run(&sc, sc.seed, traces)?;
        serde_json::to_string(&r).map_err(|e| text(e).into())
    })
    .map_err(Stop::into_py)
}

/// Checks the scenario and every point of its sweep, as `orbitcp validate` does; returns the
/// number of runs it makes (1 without a sweep).
#[pyfunction]
fn validate(py: Python<'_>, scenario_json: &str) -> PyResult<usize> {
    py.detach(|| -> Result<usize, String> {
        runner::validate_json(scenario_json).map_err(text)?;
        if scenario::parse(scenario_json).map_err(text)?.sweep.is_some() {
            Ok(SweepPlan::new(scenario_json).map_err(text)?.len())
        } else {
            Ok(1)
        }
    })
    .map_err(value_error)
}

/// The JSON Schema of the scenario format, as `orbitcp schema` prints it.
#[pyfunction]
fn schema_json() -> String {
    runner::schema_json()
}

/// The files a scenario names and does not inline (`tle_file`, `isls_file`,
/// `ground_stations_file`), as `(field, name)`: the Python side checks each name with
/// [`check_file_name`], reads it (the core does no I/O) and hands the texts to [`with_files`].
#[pyfunction]
fn files_to_read(scenario_json: &str) -> Vec<(String, String)> {
    scenario::files::files_to_read(scenario_json).into_iter().map(|f| (f.field.to_string(), f.name)).collect()
}

fn file_ref(field: &str, name: String) -> PyResult<scenario::files::FileRef> {
    scenario::files::file_ref(field, name).ok_or_else(|| value_error(format!("{field}: not a file field")))
}

/// Refuses a file name that leaves the scenario's folder (absolute, or with `..`).
#[pyfunction]
fn check_file_name(field: &str, name: String) -> PyResult<()> {
    scenario::files::check_file_name(&file_ref(field, name)?).map_err(value_error)
}

/// The scenario with each `(field, name, text)` put in place of its file, as the CLI does, so
/// that the core parses the very same values either way.
#[pyfunction]
fn with_files(scenario_json: &str, texts: Vec<(String, String, String)>) -> PyResult<String> {
    let texts = texts
        .into_iter()
        .map(|(field, name, text)| Ok((file_ref(&field, name)?, text)))
        .collect::<PyResult<Vec<_>>>()?;
    scenario::files::inline_files(scenario_json, &texts).map_err(value_error)
}

/// A scenario's sweep, expanded job by job by the core's own [`SweepPlan`]: job `i` is grid
/// point `i / runs`, run `i % runs`. Workers build one from the scenario text they were sent
/// once and run jobs by index.
#[pyclass(frozen, module = "orbitcp._native")]
struct Plan {
    plan: SweepPlan,
    base: Scenario,
}

#[pymethods]
impl Plan {
    /// `check`: validate every grid point first (the driver does; a worker need not, each job
    /// checks its own point as it is expanded).
    #[new]
    #[pyo3(signature = (scenario_json, check = true))]
    fn new(py: Python<'_>, scenario_json: &str, check: bool) -> PyResult<Plan> {
        py.detach(|| -> Result<Plan, String> {
            let base = scenario::parse(scenario_json).map_err(text)?;
            let plan = SweepPlan::new(scenario_json).map_err(text)?;
            if check {
                plan.validate().map_err(text)?;
            }
            Ok(Plan { plan, base })
        })
        .map_err(value_error)
    }

    fn __len__(&self) -> usize {
        self.plan.len()
    }

    /// Grid points in the sweep.
    #[getter]
    fn points(&self) -> usize {
        self.plan.points()
    }

    /// Runs per grid point.
    #[getter]
    fn runs(&self) -> u32 {
        self.plan.runs()
    }

    /// Runs job `i` and returns its result's summary as JSON text, what the sweep table is made
    /// of.
    fn run_job(&self, py: Python<'_>, i: usize) -> PyResult<JobResult> {
        py.detach(|| {
            let watch = signals::Watch::new();
            self.job(i, &|| watch.stop()).map_err(|e| watch.explain(e))
        })
        .map_err(Stop::into_py)
    }

    /// Runs every job on `threads` threads of this process and returns their results (as
    /// `run_job`) in job order; the first error (in job order) if any failed. Ctrl-C stops every
    /// run under way and raises `KeyboardInterrupt`.
    fn run_all(&self, py: Python<'_>, threads: usize) -> PyResult<Vec<JobResult>> {
        py.detach(|| self.run_parallel(threads)).map_err(Stop::into_py)
    }

    /// The sweep's CSV text, as `orbitcp sweep` (`--aggregate`) writes it, from every job's
    /// result (as `run_job` returns it) in job order.
    fn table(&self, results: Vec<JobResult>, aggregate: bool) -> PyResult<String> {
        if results.len() != self.plan.len() {
            return Err(value_error(format!(
                "sweep: {} results for a sweep of {} runs",
                results.len(),
                self.plan.len()
            )));
        }
        table::csv(&self.plan, &self.base, &results, aggregate).map_err(value_error)
    }
}

impl Plan {
    fn job(&self, i: usize, stop: &dyn Fn() -> bool) -> JobOutcome {
        let job = self.plan.job(i).map_err(text)?;
        let r = signals::run(&job.scenario, job.seed, false, stop)?;
        Ok(table::job_result(&r)?)
    }

    /// The jobs on the core's pool of threads (`runner::parallel`, the CLI's sweep's too). This
    /// thread watches for Ctrl-C meanwhile; a signal stops every run under way.
    fn run_parallel(&self, threads: usize) -> Result<Vec<JobResult>, Stop> {
        let total = self.plan.len();
        let stopped = AtomicBool::new(false);
        let halt = || stopped.load(Ordering::Relaxed);
        let watch = signals::Watch::new();
        let mut signal = None;
        let results = parallel::run_jobs(
            total,
            threads,
            |i| self.job(i, &halt),
            halt,
            |_| {
                if signal.is_none() {
                    if let Some(e) = watch.pending() {
                        signal = Some(e);
                        stopped.store(true, Ordering::Relaxed);
                    }
                }
            },
        );
        if let Some(e) = signal.or_else(|| watch.pending()) {
            return Err(Stop::Signal(e));
        }
        if results.len() < total {
            return Err(Stop::Error("a run did not finish".into()));
        }
        results.into_iter().collect()
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(schema_json, m)?)?;
    m.add_function(wrap_pyfunction!(files_to_read, m)?)?;
    m.add_function(wrap_pyfunction!(check_file_name, m)?)?;
    m.add_function(wrap_pyfunction!(with_files, m)?)?;
    m.add_class::<Plan>()?;
    m.add("MAX_SCENARIO_BYTES", scenario::files::MAX_SCENARIO_BYTES)?;
    m.add("MAX_FILE_BYTES", scenario::files::MAX_FILE_BYTES)?;
    Ok(())
}
