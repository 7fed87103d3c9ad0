//! Ctrl-C while the core computes. Python runs its signal handlers only when it holds the GIL
//! and gets around to it, and a run releases the GIL for its whole length: without looking, a
//! `KeyboardInterrupt` would wait for the run (minutes, for a constellation's routes) to end.
//! So runs step a chunk of events at a time, and between chunks (and between route steps) a
//! [`Watch`] takes the GIL to run pending handlers, at most every [`EVERY`]; an exception one
//! raises (`KeyboardInterrupt` for Ctrl-C) stops the run and is raised in its place.

use orbitcp_core::runner::{RunError, RunResult, Session};
use orbitcp_core::scenario::Scenario;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Events between two stop checks: well under a millisecond of work.
const CHUNK: u32 = 4096;

/// Most time between two looks for a pending signal (each takes the GIL).
const EVERY: Duration = Duration::from_millis(20);

/// Why a run gave no result.
pub enum Stop {
    /// The core's error, as its text (a `ValueError`).
    Error(String),
    /// The exception a signal handler raised (`KeyboardInterrupt`).
    Signal(PyErr),
    /// Stopped because another thread saw a signal.
    Halted,
}

impl From<String> for Stop {
    fn from(e: String) -> Stop {
        Stop::Error(e)
    }
}

impl Stop {
    pub fn into_py(self) -> PyErr {
        match self {
            Stop::Error(e) => PyValueError::new_err(e),
            Stop::Signal(e) => e,
            Stop::Halted => PyKeyboardInterrupt::new_err(()),
        }
    }
}

/// Looks for pending signals from a thread that has released the GIL.
pub struct Watch {
    last: Mutex<Instant>,
    raised: Mutex<Option<PyErr>>,
}

impl Watch {
    pub fn new() -> Watch {
        Watch { last: Mutex::new(Instant::now()), raised: Mutex::new(None) }
    }

    /// Runs the pending signal handlers now: the exception one raised, if any. (Python runs
    /// handlers on its main thread only; elsewhere this finds nothing.)
    pub fn pending(&self) -> Option<PyErr> {
        Python::attach(|py| py.check_signals().err())
    }

    /// Whether a signal handler raised: looked at no more often than [`EVERY`], the exception
    /// kept for the run's error.
    pub fn stop(&self) -> bool {
        let mut raised = self.raised.lock().expect("no panics while holding the lock");
        if raised.is_some() {
            return true;
        }
        let mut last = self.last.lock().expect("no panics while holding the lock");
        if last.elapsed() < EVERY {
            return false;
        }
        *last = Instant::now();
        *raised = self.pending();
        raised.is_some()
    }

    /// `sc` run with `seed` (see [`run`]), stopped by a signal handler's exception, which is
    /// then the error.
    pub fn run(&self, sc: &Scenario, seed: u64, traces: bool) -> Result<RunResult, Stop> {
        run(sc, seed, traces, &|| self.stop()).map_err(|e| self.explain(e))
    }

    /// A run's [`Stop::Halted`] as the exception that stopped it.
    pub fn explain(&self, e: Stop) -> Stop {
        match e {
            Stop::Halted => {
                self.raised.lock().expect("no panics while holding the lock").take().map_or(Stop::Halted, Stop::Signal)
            }
            e => e,
        }
    }
}

/// Runs `sc` with `seed` as `runner::run_scenario` does, asking `stop` between chunks of events
/// and between the steps of a constellation's route precomputation; [`Stop::Halted`] when it
/// said so.
pub fn run(sc: &Scenario, seed: u64, traces: bool, stop: &dyn Fn() -> bool) -> Result<RunResult, Stop> {
    let mut session = Session::new_until(sc, seed, stop).map_err(|e| match e {
        RunError::Interrupted => Stop::Halted,
        e => Stop::Error(e.to_string()),
    })?;
    'run: loop {
        for _ in 0..CHUNK {
            if !session.step() {
                break 'run;
            }
        }
        if stop() {
            return Err(Stop::Halted);
        }
    }
    session.result(traces).map_err(|e| Stop::Error(e.to_string()))
}
