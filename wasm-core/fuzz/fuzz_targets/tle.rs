//! Any text given as TLEs is parsed or refused with a message, never a panic; what parses is
//! propagated with SGP4 over a day, which must not panic either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use orbitcp_core::orbit::{elements, Constellation};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(sets) = elements::parse_tle_sourced(text) else { return };
    let mut c = Constellation::default();
    if c.add_sourced(&sets, None).is_ok() {
        let mut out = Vec::new();
        for t in [0.0, 1.0, 600.0, 86_400.0] {
            c.positions_into(t, &mut out);
        }
    }
});
