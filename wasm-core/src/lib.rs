//! orbitcp core: a deterministic discrete-event simulator of transport protocols over satellite
//! networks. No I/O, no clocks, no OS randomness: time and the seed are inputs, so native and wasm
//! builds give bit-identical results.

#![deny(unsafe_code)]

/// Items that need SGP4 and routing, compiled only with the `orbits` feature (ARCHITECTURE.md:
/// the first-load wasm module goes without them): one attribute for a group of declarations.
macro_rules! orbits_only {
    ($($item:item)*) => {
        $(
            #[cfg(feature = "orbits")]
            $item
        )*
    };
}

#[cfg(target_arch = "wasm32")]
pub mod api;
pub mod arq;
pub mod coding;
pub mod content;
pub mod csv;
pub mod ctcp;
pub mod delivery;
pub mod engine;
pub mod intcp;
pub mod metrics;
pub mod net;
pub mod number_text;
pub mod orbit;
pub mod rto;
pub mod rtt;
pub mod runner;
pub mod scenario;
pub mod schema;
pub mod sim;
pub mod simulation;
pub mod tcp;
