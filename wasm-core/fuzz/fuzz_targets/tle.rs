//! Any text given as TLEs is parsed or refused with a message, never a panic; what parses is
//! propagated with SGP4 over a day, which must not panic either. Each input is also tried with
//! its checksums corrected, so that mutations reach the fields and SGP4 rather than stopping at
//! column 69.
#![no_main]

use libfuzzer_sys::fuzz_target;
use orbitcp_core::orbit::{elements, Constellation};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    parse_and_propagate(text);
    parse_and_propagate(&with_checksums(text));
});

fn parse_and_propagate(text: &str) {
    let Ok(sets) = elements::parse_tle_sourced(text) else { return };
    let mut c = Constellation::default();
    if c.add_sourced(&sets, None).is_ok() {
        let mut out = Vec::new();
        for t in [0.0, 1.0, 600.0, 86_400.0] {
            c.positions_into(t, &mut out);
        }
    }
}

/// `text` with column 69 of every 69-character ASCII line set to the line's checksum.
fn with_checksums(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.trim_end();
            if l.len() == 69 && l.is_ascii() {
                format!("{}{}", &l[..68], elements::tle_checksum(l))
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
