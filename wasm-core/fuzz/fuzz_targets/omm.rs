//! Any JSON given as OMM records is parsed or refused with a message, never a panic; what parses
//! is propagated with SGP4 over a day, which must not panic either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use orbitcp_core::orbit::{elements, Constellation};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let Ok(sets) = elements::parse_omm_sourced(&value) else { return };
    let mut c = Constellation::default();
    if c.add_sourced(&sets, None).is_ok() {
        let mut out = Vec::new();
        for t in [0.0, 1.0, 600.0, 86_400.0] {
            c.positions_into(t, &mut out);
        }
    }
});
