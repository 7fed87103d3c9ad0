//! The wasm boundary: the only file that knows about wasm-bindgen. Each export delegates to
//! `crate::runner`, so the browser, the CLI and the tests run exactly the same code; errors
//! cross as `JsError` so JavaScript sees a real `Error` with the runner's message.

use wasm_bindgen::prelude::*;

use crate::runner;

/// Runs a scenario (JSON text) and returns the result as JSON text; `with_traces` = false
/// gives the summary only, identical to `orbitcp run --summary`.
#[wasm_bindgen]
pub fn run_scenario(json: &str, with_traces: bool) -> Result<String, JsError> {
    runner::run_json(json, with_traces).map_err(|e| JsError::new(&e))
}

/// Checks a scenario without running it; the error names the path of every problem.
#[wasm_bindgen]
pub fn validate_scenario(json: &str) -> Result<(), JsError> {
    runner::validate_json(json).map_err(|e| JsError::new(&e))
}

/// The JSON Schema of the scenario format, generated from the Rust types.
#[wasm_bindgen]
pub fn scenario_schema() -> String {
    runner::schema_json()
}

/// The crate version, so the UI can show which core produced a result.
#[wasm_bindgen]
pub fn core_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
