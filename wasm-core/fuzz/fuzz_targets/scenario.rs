//! Any bytes given as a scenario are accepted or refused with a message, never a panic: the
//! parser, the validator and the sweep plan (what `orbitcp validate` runs).
#![no_main]

use libfuzzer_sys::fuzz_target;
use orbitcp_core::runner;

fuzz_target!(|data: &[u8]| {
    // The CLI and the browser hand the core text: bytes that are not UTF-8 never reach it.
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = runner::validate_json(text);
    }
});
