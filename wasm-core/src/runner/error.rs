//! Why a run, a sweep or a cost estimate could not be made.

use crate::orbit::OrbitError;
use crate::scenario::{topology_error, FieldError, ScenarioError, NO_ORBIT_CODE};

/// Why a run, a sweep or a cost estimate could not be made. Each names the scenario field at
/// fault where there is one ([`RunError::field_errors`]); the CLI prints the [`Display`] text,
/// the wasm boundary hands over `{path, message}` objects.
///
/// [`Display`]: std::fmt::Display
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// The scenario, or a point of its sweep, is not valid: every problem, each with its path.
    Scenario(ScenarioError),
    /// A sweep was asked of a scenario without a `sweep` section.
    NoSweep,
    /// A sweep job index beyond the sweep's `jobs`.
    NoSuchJob { index: usize, jobs: usize },
    /// A simulation index beyond a session's simulations (`Session::part`).
    NoSuchPart { index: usize, parts: usize },
    /// A sweep grid too large to index (validation refuses it first).
    TooManyRuns,
    /// A constellation's orbits or path could not be built (validation reports the same first).
    Topology(OrbitError),
    /// A constellation scenario in a build without the `orbits` feature (the site's first-load
    /// wasm module): the caller must use a build with it.
    NoOrbitCode,
    /// A flow delivered a wrong or missing byte: the simulator's end-to-end check failed.
    Delivery(String),
    /// A result without any flow (a `flows_alone` scenario of none).
    NoFlows,
    /// The result could not be written as JSON.
    Output(String),
    /// Results handed back to be written (a sweep's, as CSV) are not what the core wrote.
    Results(String),
    /// The caller's cancel check stopped the run before it started (Ctrl-C while a
    /// constellation's routes were precomputed).
    Interrupted,
}

impl RunError {
    /// The problems, each with the path of the scenario field at fault (empty for the scenario
    /// or the run as a whole).
    pub fn field_errors(&self) -> Vec<FieldError> {
        let one = |path: &str, message: String| vec![FieldError::new(path, message)];
        match self {
            RunError::Scenario(e) => e.0.clone(),
            RunError::NoSweep => one("sweep", "the scenario has no sweep section".into()),
            RunError::NoSuchJob { index, jobs } => one("sweep", format!("no job {index} (the sweep has {jobs})")),
            RunError::NoSuchPart { index, parts } => {
                one("flows", format!("no simulation {index} (the scenario runs {parts})"))
            }
            RunError::TooManyRuns => one("sweep.grid", "too many runs".into()),
            RunError::Topology(e) => vec![topology_error(e.clone())],
            RunError::NoOrbitCode => one("topology", NO_ORBIT_CODE.into()),
            RunError::Delivery(e) => one("", format!("delivery check failed: {e}")),
            RunError::NoFlows => one("flows", "the scenario has no flows".into()),
            RunError::Output(e) => one("", format!("the result could not be written as JSON: {e}")),
            RunError::Results(e) => one("", format!("the runs' results: {e}")),
            RunError::Interrupted => one("", "interrupted before the simulation started".into()),
        }
    }

    /// Whether the scenario is at fault (rather than the run): the CLI's exit code 2.
    pub fn is_invalid_scenario(&self) -> bool {
        matches!(self, RunError::Scenario(_) | RunError::NoSweep | RunError::TooManyRuns | RunError::Topology(_))
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let RunError::Scenario(e) = self {
            return write!(f, "{e}");
        }
        for (i, e) in self.field_errors().iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            if e.path.is_empty() {
                write!(f, "{}", e.message)?;
            } else {
                write!(f, "{}: {}", e.path, e.message)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for RunError {}

impl From<ScenarioError> for RunError {
    fn from(e: ScenarioError) -> RunError {
        RunError::Scenario(e)
    }
}

impl From<RunError> for String {
    fn from(e: RunError) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_names_its_field_and_reads_as_before() {
        let e = RunError::NoSuchJob { index: 7, jobs: 4 };
        assert_eq!(e.field_errors(), vec![FieldError::new("sweep", "no job 7 (the sweep has 4)")]);
        assert_eq!(e.to_string(), "sweep: no job 7 (the sweep has 4)");
        assert_eq!(
            RunError::Delivery("flow 0: byte 5 wrong".into()).to_string(),
            "delivery check failed: flow 0: byte 5 wrong"
        );
        let tle = RunError::Topology(OrbitError::Tle { line: 3, problem: "bad checksum".into() });
        assert_eq!(tle.to_string(), "topology.constellation.tle: line 3: bad checksum");
        assert!(tle.is_invalid_scenario());
        assert!(!RunError::NoFlows.is_invalid_scenario());
    }

    #[test]
    fn a_scenario_error_keeps_every_problem() {
        let e = RunError::from(ScenarioError(vec![FieldError::new("a", "x"), FieldError::new("b", "y")]));
        assert_eq!(e.field_errors().len(), 2);
        assert_eq!(e.to_string(), "a: x\nb: y");
    }
}
