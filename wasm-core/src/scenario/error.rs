//! A problem with a scenario, as the CLI prints it and the browser's editor places it.

use serde::Serialize;
use serde_json::Value;

/// One problem with a scenario: the path of the field (empty for the scenario as a whole) and
/// what is wrong with it. The browser's editor places each beside the field with that path.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FieldError {
    pub path: String,
    pub message: String,
    /// For a problem of one sweep point: the point's (path, value) pairs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep_point: Option<Vec<(String, Value)>>,
}

impl FieldError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError { path: path.into(), message: message.into(), sweep_point: None }
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(point) = &self.sweep_point {
            let label = point.iter().map(|(p, v)| format!("{p}={v}")).collect::<Vec<_>>().join(", ");
            write!(f, "sweep point {label}: ")?;
        }
        let path = if self.path.is_empty() { "scenario" } else { &self.path };
        write!(f, "{path}: {}", self.message)
    }
}

/// Every problem found with a scenario; shown one per line.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError(pub Vec<FieldError>);

impl ScenarioError {
    pub fn one(path: &str, message: impl Into<String>) -> ScenarioError {
        ScenarioError(vec![FieldError::new(path, message)])
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl From<ScenarioError> for String {
    fn from(e: ScenarioError) -> String {
        e.to_string()
    }
}
